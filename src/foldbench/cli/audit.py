"""``foldbench audit``: blind baselines on a multiple-choice dataset (see :mod:`foldbench.harness.audit`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from foldbench.cli._common import console

__all__ = ["audit"]


def audit(
    data: Annotated[Path, typer.Argument(help="A dataset directory (items.jsonl and option pictures).")],
    margin: Annotated[
        float, typer.Option(min=0.0, max=1.0, help="Flag a baseline whose accuracy leaves chance ± this margin.")
    ] = 0.10,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Write audit.md and audit.json here (default: the dataset directory)."),
    ] = None,
    fail_on_flag: Annotated[
        bool, typer.Option("--fail-on-flag/--no-fail-on-flag", help="Exit with code 1 when a baseline is flagged.")
    ] = True,
) -> None:
    """Score blind baselines (options only, never the question) and flag any that beat or miss chance. Perception
    probes are audited question type by question type."""
    from foldbench.harness.audit import AuditError, audit_dataset
    from foldbench.harness.probe_audit import audit_probes, is_probe_dataset

    if not 0 < margin < 1:
        raise AuditError(f"--margin must lie between 0 and 1, got {margin}")
    if is_probe_dataset(data):
        reports = audit_probes(data, margin=margin)
        markdown = "".join(r.to_markdown(f"audit of {data}: question type {kind}") for kind, r in reports.items())
        document = {kind: r.to_dict() for kind, r in reports.items()}
        flagged = any(r.flagged for r in reports.values())
    else:
        report = audit_dataset(data, margin=margin)
        markdown, document, flagged = report.to_markdown(f"audit of {data}"), report.to_dict(), bool(report.flagged)
    target = out if out is not None else data
    target.mkdir(parents=True, exist_ok=True)
    (target / "audit.md").write_text(markdown, encoding="utf-8")
    (target / "audit.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    console.print(markdown, end="", markup=False)
    console.print(f"wrote {target / 'audit.md'} and {target / 'audit.json'}", markup=False)
    if flagged and fail_on_flag:
        raise typer.Exit(1)
