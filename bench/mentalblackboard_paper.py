"""MentalBlackboard against its paper: the composition ``preset=paper`` generates, and how the published records
import (items made, answers reproduced by the engine, records left out and why).

The published records are not shipped with foldbench (their repository has no licence); pass the folder holding
``PFHP_Prediction_Data.json``, ``PFHP_Back_Prediction_Data.json``, ``PFHP_Planning_Data.json`` and
``PFHP_Generalization_Data.json`` to check the import as well.

    .venv/bin/python bench/mentalblackboard_paper.py [RECORDS_FOLDER]
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

from foldbench.tasks.mentalblackboard.published import answer_differences, load_records, usable_records
from foldbench.tasks.mentalblackboard.tasks import (
    BackwardPredictionTask,
    GeneralizationTask,
    PlanningTask,
    PredictionTask,
)

FILES = {
    "prediction": "PFHP_Prediction_Data.json",
    "backward-prediction": "PFHP_Back_Prediction_Data.json",
    "planning": "PFHP_Planning_Data.json",
    "generalization": "PFHP_Generalization_Data.json",
}


def composition() -> None:
    """Count what the paper preset generates (seed 0, text)."""
    knobs = {"preset": "paper"}
    prediction = list(PredictionTask().generate(900, 0, knobs=knobs))
    print(
        "prediction:",
        len(prediction),
        "items; per group",
        dict(sorted(Counter(i.metadata["group"] for i in prediction).items())),
    )
    backward = list(BackwardPredictionTask().generate(180, 0, knobs=knobs))
    print(
        "backward prediction:",
        len(backward),
        "items; per group",
        dict(sorted(Counter(i.metadata["group"] for i in backward).items())),
    )
    planning = list(PlanningTask().generate(400, 0, knobs=knobs))
    cells = Counter((i.inputs["num_folds"], i.metadata["punches"]) for i in planning)
    print("planning:", len(planning), "items; (folds, punches)", dict(sorted(cells.items())))
    print(
        "  most result holes",
        max(len(i.inputs["result_holes"]) for i in planning),
        "; shapes",
        sorted({h["shape"] for i in planning for h in i.target["initial_holes"]}),
    )
    three = [i for i in planning if i.metadata["punches"] == 3]
    print(
        "  3-punch items", len(three), "of which solvable within 2 punches", sum(i.metadata["solvable"] for i in three)
    )
    general = list(GeneralizationTask().generate(240, 0, knobs=knobs))
    cells = Counter((i.metadata["group"], i.metadata["changed"]) for i in general)
    print("generalization:", len(general), "items; (group, changed)", dict(sorted(cells.items())))


def imports(folder: Path) -> None:
    """Import every published file as the command does, and count how its answers compare with the engine's."""
    for task, name in FILES.items():
        path = folder / name
        if not path.exists():
            print(f"{name}: not found")
            continue
        records = load_records(str(path))
        entries, skipped = usable_records(task, str(path))
        differences = answer_differences(records)
        kinds = Counter(re.sub(r"^record \S+: (\w+).*$", r"\1", line) for line in differences)
        print(
            f"{name}: {len(records)} records -> {len(entries)} {task} items; left out {len(skipped)}; "
            f"answers differing from the engine's: {len(differences)} {dict(kinds)}"
        )
        for line in skipped:
            print("  left out:", line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("records", nargs="?", type=Path, help="folder of the published records (optional)")
    args = parser.parse_args()
    composition()
    if args.records:
        imports(args.records)


if __name__ == "__main__":
    main()
