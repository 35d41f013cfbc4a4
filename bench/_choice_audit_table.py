"""What the PFP audit scripts in bench/ print alike: the engine's check of each item and the audit table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from foldbench.tasks.choice import LETTERS


def proven_count(task: Any, items: Sequence[Any]) -> int:
    """Items whose engine finds exactly the answer consistent and the options distinct."""
    return sum(
        task.consistent_options(item) == [letter == item.target["answer"] for letter in LETTERS]
        and task.options_distinct(item)
        for item in items
    )


def print_audit_table(reports: Mapping[str, Any]) -> None:
    """One Markdown table of every baseline's accuracy (%) per dataset, flagged ones in bold, then the flag counts."""
    names = list(dict.fromkeys(b.name for report in reports.values() for b in report.baselines))
    print()
    print("| baseline | " + " | ".join(reports) + " |")
    print("|---|" + "---|" * len(reports))
    for name in names:
        cells = []
        for report in reports.values():
            found = [b for b in report.baselines if b.name == name]
            if not found:
                cells.append("—")
            else:
                cell = f"{100 * found[0].accuracy:.1f}"
                cells.append(f"**{cell}**" if found[0].flagged else cell)
        print(f"| {name} | " + " | ".join(cells) + " |")
    low, high = next(iter(reports.values())).band
    flagged = {task: len(report.flagged) for task, report in reports.items()}
    print(f"\nflagged (outside {100 * low:.0f}-{100 * high:.0f} %): {flagged}")
