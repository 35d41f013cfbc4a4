"""Write a filled paper table as Markdown, CSV or LaTeX (booktabs), with the paper's header levels and sections."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Literal

from foldbench.harness.paper_tables.build import FilledTable

__all__ = ["FORMATS", "TableFormat", "render"]

TableFormat = Literal["markdown", "csv", "latex"]

#: The output formats, as the command line names them.
FORMATS: tuple[TableFormat, ...] = ("markdown", "csv", "latex")


def _spans(labels: Sequence[str]) -> list[tuple[str, int]]:
    """Runs of equal neighbouring labels: ``["a", "a", "b"]`` -> ``[("a", 2), ("b", 1)]``."""
    spans: list[tuple[str, int]] = []
    for label in labels:
        if spans and spans[-1][0] == label and label:
            spans[-1] = (label, spans[-1][1] + 1)
        else:
            spans.append((label, 1))
    return spans


def _markdown(filled: FilledTable) -> str:
    header = [" / ".join(part for part in levels if part) for levels in filled.header]
    lines = [f"**{filled.table.title}**", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for label, rows in filled.blocks:
        if label is not None:
            lines.append("| " + " | ".join([f"*{label}*", *[""] * (len(header) - 1)]) + " |")
        lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return "\n".join([*lines, "", filled.table.note, ""])


def _csv(filled: FilledTable) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for level in range(filled.table.header_levels):
        writer.writerow([levels[level] for levels in filled.header])
    for label, rows in filled.blocks:
        if label is not None:
            writer.writerow([label, *[""] * (len(filled.header) - 1)])
        writer.writerows(rows)
    return buffer.getvalue()


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}  # fmt: skip


def _tex(text: str) -> str:
    escaped = "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)
    return escaped.replace("±", r"$\pm$").replace("—", "---")


def _latex(filled: FilledTable) -> str:
    width = len(filled.header)
    lines = [r"\begin{tabular}{l" + "r" * (width - 1) + "}", r"\toprule"]
    for level in range(filled.table.header_levels):
        cells, rules, start = [], [], 1
        for label, span in _spans([levels[level] for levels in filled.header]):
            text = _tex(label)
            cells.append(text if span == 1 else rf"\multicolumn{{{span}}}{{c}}{{{text}}}")
            if level + 1 < filled.table.header_levels and span > 1 and label:
                rules.append(rf"\cmidrule(lr){{{start}-{start + span - 1}}}")
            start += span
        lines.append(" & ".join(cells) + r" \\")
        if rules:
            lines.append(" ".join(rules))
    lines.append(r"\midrule")
    for block, rows in filled.blocks:
        if block is not None:
            lines.append(rf"\multicolumn{{{width}}}{{l}}{{\textit{{{_tex(block)}}}}} \\")
        lines.extend(" & ".join(_tex(cell) for cell in row) + r" \\" for row in rows)
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join([f"% {filled.table.title}", *lines, ""])


def render(filled: FilledTable, fmt: TableFormat) -> str:
    """The table as text in ``fmt`` (``markdown``, ``csv`` or ``latex``)."""
    if fmt == "markdown":
        return _markdown(filled)
    if fmt == "csv":
        return _csv(filled)
    if fmt == "latex":
        return _latex(filled)
    raise ValueError(f"unknown table format {fmt!r}; choose one of {', '.join(FORMATS)}")
