"""How many of OrigamiBench's 366 shipped models yield a one-step fold sequence, and why the others do not.

Derives every model's sequence (:mod:`foldbench.tasks.origamibench.model_sequences`) and prints the count per
reason, then each covered model with its number of steps, tier and category.

    .venv/bin/python bench/bench_origamibench_model_sequences.py
"""

from __future__ import annotations

from collections import Counter

from foldbench.crease.io.collection import paper_models
from foldbench.tasks.origamibench.model_sequences import model_sequences


def main() -> None:
    entries = {entry.file: entry for entry in paper_models().entries}
    results = model_sequences()
    for reason, count in Counter(result.reason for result in results).most_common():
        print(f"{reason}: {count}")
    for result in results:
        if result.sequence is not None:
            entry = entries[result.file]
            print(f"  {result.file}: {len(result.sequence)} steps, {entry.tier}, {entry.category}")


if __name__ == "__main__":
    main()
