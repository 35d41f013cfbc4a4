"""``foldbench paper-table``: runs laid out as each paper's main results table.

The expected layouts below are transcribed from the papers (/work/shared/seeds 000-004), not from the code: a
table's sections, column groups and columns, in the paper's order.
"""

from __future__ import annotations

import csv
import io
import itertools
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from foldbench.cli.app import main
from foldbench.errors import FoldbenchError
from foldbench.harness import Store
from foldbench.harness.config import EvalConfig
from foldbench.harness.evaluation import run_dataset
from foldbench.harness.paper_tables import FAMILIES, PaperTable, Section, fill_table, render, run_infos
from foldbench.harness.paper_tables.layout import cell
from foldbench.harness.store import RunInfo, TurnRecord
from foldbench.models.base import ModelReply
from foldbench.tasks import make
from foldbench.tasks.base import Scores
from tests.support.datasets import Recipe, every_task_recipe, shared_datasets

#: family -> table -> (sections in order, columns as header levels), read off the papers' tables.
PAPER_LAYOUTS: dict[str, dict[str, tuple[list[str | None], list[tuple[str, ...]]]]] = {
    "mentalblackboard": {  # 000, Table 2
        "table2": (
            ["Video-Based Prediction", "2D Image-Based Prediction", "Text-Based Prediction"],
            [
                ("Exact Match (%)",),
                ("Overall Partial Accuracy (%)",),
                ("Hole Count Errors (%)", "Extra"),
                ("Hole Count Errors (%)", "Missing"),
                ("Unfolding Accuracy (%)", "Exact"),
                ("Unfolding Accuracy (%)", "Steps"),
                ("Field-wise Partial Accuracy (%)", "Shape"),
                ("Field-wise Partial Accuracy (%)", "Size"),
                ("Field-wise Partial Accuracy (%)", "Location"),
                ("Field-wise Partial Accuracy (%)", "Direction"),
            ],
        )
    },
    "pfp": {  # 001/002, Tables 1 and 2
        "table1": (
            [None],
            [("Single-Step Reasoning", c) for c in ("1-Fold", "2-Fold", "3-Fold", "Others", "Overall")]
            + [("Multi-Step Reasoning", c) for c in ("Circle", "Hexagon", "House", "Rectangle", "Square", "Overall")],
        ),
        "table2": (
            [None],
            [("Inverse Reasoning", c) for c in ("1-Fold", "2-Fold", "Others", "Overall")]
            + [("3D Folding", c) for c in ("Easy", "Hard", "Overall")]
            + [("2D Unfolding", c) for c in ("Easy", "Hard", "Overall")],
        ),
    },
    "origamibench": {  # 003, Tables 1 and 2
        "table1": ([None], [("Associative",), ("Causal",)]),
        "table2": ([None], [(budget, m) for budget in ("10", "25") for m in ("QE", "GS", "SS")] + [("Time",)]),
    },
    "origamispace": {  # 004, Tables 1 and 2
        "table1": (
            [None],
            [("Pattern Prediction",), ("Multi-step Spatial Reasoning",)]
            + [
                ("Spatial Relationship Prediction", c)
                for c in ("Spatial Pose Localization", "Layering Relationship", "Geometric Change")
            ],
        ),
        "table2": (
            ["In-context learning", "Environmental learning"],
            [("Compilation", c) for c in ("CSE", "GIF", "PSI", "AFS", "CPR")]
            + [("TSS",), ("GS",), ("CS",), ("FFS",), ("Total",)],
        ),
    },
}


@pytest.mark.parametrize("family", sorted(PAPER_LAYOUTS))
def test_every_declared_table_has_the_papers_columns(family: str) -> None:
    declared = {t.key: t for t in FAMILIES[family]}
    assert sorted(declared) == sorted(PAPER_LAYOUTS[family])
    for key, (sections, columns) in PAPER_LAYOUTS[family].items():
        assert [c.header for c in declared[key].columns] == columns
        assert [s.label for s in declared[key].sections] == sections


#: (task, modalities asked, knobs) run by the baselines for each family's test. Every dataset but the 25-step
#: synthesis one is the suite's shared three-item dataset of the task (``every_task_recipe``), generated once per run
#: for every module that asks: three items fill every cell the layout test checks (it needs at least half of a
#: block's cells filled; each task's overall cell and, for synthesis, a spread over at least two episodes).
BASELINE_TASKS: dict[str, list[tuple[str, tuple[str, ...], dict[str, Any]]]] = {
    "mentalblackboard": [("mentalblackboard/prediction", ("text", "image"), {})],
    "pfp": [
        ("pfp/single-step", ("image",), {}),
        ("pfp/multi-step", ("image",), {}),
        ("pfp/inverse", ("image",), {}),
        ("pfp/folding-3d", ("image",), {}),
        ("pfp/unfolding-2d", ("image",), {}),
    ],
    "origamibench": [
        ("origamibench/one-step-associative", ("image",), {}),
        ("origamibench/one-step-causal", ("image",), {}),
        ("origamibench/synthesis", ("image",), {"budget": 10}),  # the paper's two step budgets: a dataset each
        ("origamibench/synthesis", ("image",), {"budget": 25}),
    ],
    "origamispace": [
        ("origamispace/pattern-prediction", ("image",), {}),
        ("origamispace/multi-step-ordering", ("image",), {}),
        ("origamispace/spatial-relationship", ("image",), {}),
        ("origamispace/codegen", ("image",), {}),
        ("origamispace/codegen-feedback", ("image",), {}),
    ],
}

#: Items the random baseline is asked: its row must be there, in run order, but no cell of it is checked, so one
#: item is enough (its multi-turn episodes, synthesis and code generation with feedback, are the costly runs).
RANDOM_ITEMS = 1

#: Columns where the oracle scores 0 (error rates), and the time column (seconds, not a score).
ORACLE_ZERO = {("Hole Count Errors (%)", "Extra"), ("Hole Count Errors (%)", "Missing")}
SECONDS = {("Time",)}


def _recipe(task: str, knobs: dict[str, Any]) -> Recipe:
    """The shared dataset a baseline is run on: the suite's three-item one, or two items at a knob's other value."""
    shared = every_task_recipe(make(task).id)
    if knobs.get("budget", 10) == 10:  # the synthesis task's default budget: its shared dataset
        return shared
    return replace(shared, n=2, modalities=("image",), knobs=knobs)  # two episodes: a spread to show


@pytest.fixture(scope="module")
def baseline_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, list[str]]]:
    db = tmp_path_factory.mktemp("paper-tables") / "runs.db"
    entries = [(family, *entry) for family, tasks in BASELINE_TASKS.items() for entry in tasks]
    data = shared_datasets(tmp_path_factory, {index: _recipe(e[1], e[3]) for index, e in enumerate(entries)})
    runs: dict[str, list[str]] = {}
    for index, (family, task, modalities, knobs) in enumerate(entries):
        name = "-".join([task.split("/")[1], *map(str, knobs.values())])
        for model, modality in itertools.product(("random", "oracle"), modalities):
            run = f"{name}-{modality}-{model}"
            limit = RANDOM_ITEMS if model == "random" else None
            config = EvalConfig(
                task=task, data=data[index], model=model, run_name=run, db=db, modality=modality, limit=limit
            )
            run_dataset(config)
            runs.setdefault(family, []).append(run)
    return db, runs


def _number(text: str) -> float:
    return float(text.rstrip("%"))


@pytest.mark.parametrize("family", sorted(BASELINE_TASKS))
def test_the_baselines_fill_each_table_in_the_papers_layout(
    family: str, baseline_runs: tuple[Path, dict[str, list[str]]]
) -> None:
    db, runs = baseline_runs
    with Store(db) as store:
        infos = run_infos(store, runs[family])
        for table in FAMILIES[family]:
            filled = fill_table(store, table, infos)
            assert filled is not None
            sections, columns = PAPER_LAYOUTS[family][table.key]
            assert [label for label, _ in filled.blocks] == [
                s for s in sections if s not in ("Video-Based Prediction",)
            ]
            for _label, rows in filled.blocks:
                assert [row[0] for row in rows] == ["random", "oracle"]  # one row per model, in run order
                for row in rows:
                    assert len(row) == 1 + len(columns)
                oracle = dict(zip(columns, rows[1][1:], strict=True))
                for header, text in oracle.items():
                    if header in SECONDS:
                        assert float(text) >= 0.0
                    elif _label == "Text-Based Prediction" and header[-1] == "Direction":
                        assert text == "—"
                    elif table.key == "table2" and family == "origamibench" and header[-1] == "SS":
                        assert text == "—", (header, text)  # the paper's CLIP similarity needs weights: not given
                    elif table.key == "table2" and family == "origamibench":
                        assert text == "1.00±0.00", (header, text)  # every episode solved, every step kept
                    elif text != "—":
                        assert _number(text) == (0.0 if header in ORACLE_ZERO else 100.0), (table.key, header, text)
                # a cell is empty only where the paper's is, where the table's small dataset has no such item,
                # or where foldbench does not measure it
                assert sum(text != "—" for text in oracle.values()) >= len(columns) // 2


def test_each_format_carries_the_papers_headers(baseline_runs: tuple[Path, dict[str, list[str]]]) -> None:
    db, runs = baseline_runs
    with Store(db) as store:
        (filled,) = [
            fill_table(store, t, run_infos(store, runs["mentalblackboard"])) for t in FAMILIES["mentalblackboard"]
        ]
    assert filled is not None
    markdown = render(filled, "markdown")
    assert "| Model | Exact Match (%) | Overall Partial Accuracy (%) | Hole Count Errors (%) / Extra |" in markdown
    assert "| *2D Image-Based Prediction* |" in markdown and "| *Text-Based Prediction* |" in markdown
    table = list(csv.reader(io.StringIO(render(filled, "csv"))))
    assert table[0][:4] == ["Model", "Exact Match (%)", "Overall Partial Accuracy (%)", "Hole Count Errors (%)"]
    assert table[1][:5] == ["", "", "", "Extra", "Missing"]
    assert table[2][0] == "2D Image-Based Prediction" and table[3][0] == "random"
    latex = render(filled, "latex")
    assert r"\multicolumn{2}{c}{Hole Count Errors (\%)}" in latex and r"\cmidrule(lr){4-5}" in latex
    assert r"\multicolumn{11}{l}{\textit{Text-Based Prediction}} \\" in latex


HandRow = tuple[str, int, dict[str, Any], dict[str, float]]


def _hand_run(store: Store, name: str, task: str, rows: list[HandRow], modality: str = "image") -> None:
    """A run of ``task`` in ``modality`` with hand-made scores: (item id, repeat, metadata, values) each."""
    model = name.split("-")[0]
    store.open_run(RunInfo(name, make(task).id, f"/data/{name}", "e", model, {}, modality, "t", "0", "2026-01-01"))
    for index, (item_id, repeat, metadata, values) in enumerate(rows):
        key = f"{name}-{index}"
        response = store.record_turn(
            run=name, item_id=item_id, turn=TurnRecord(0, key, {}), model="m", params={},
            reply=ModelReply(text="x", latency_s=0.0), repeat=repeat,
        )  # fmt: skip
        store.record_score(
            run=name, item_id=item_id, key=key, response_id=response, cached=False, scores=Scores(values),
            answer=None, parse_failure=None, metadata=metadata, repeat=repeat,
        )  # fmt: skip


def test_repeats_fill_cells_as_each_paper_combines_runs(tmp_path: Path) -> None:
    pose, layering = {"kind": "pose"}, {"kind": "layering"}
    with Store(tmp_path / "runs.db") as store:
        # OrigamiSpace: mean ± std over repeats. Pose: 1/2 then 2/2 -> 75.00 ± 35.36; layering: 0/1 then 1/1.
        _hand_run(store, "modelA-space", "origamispace/spatial-relationship", [
            ("p1", 0, pose, {"accuracy": 1}), ("p2", 0, pose, {"accuracy": 0}), ("l1", 0, layering, {"accuracy": 0}),
            ("p1", 1, pose, {"accuracy": 1}), ("p2", 1, pose, {"accuracy": 1}), ("l1", 1, layering, {"accuracy": 1}),
        ])  # fmt: skip
        # PFP: the best repeat by overall accuracy (repeat 1: 2/3), every cell from it
        one, two = {"subtask": "1-fold"}, {"subtask": "2-fold"}
        _hand_run(store, "modelA-pfp", "pfp/single-step", [
            ("a", 0, one, {"accuracy": 1.0}), ("b", 0, two, {"accuracy": 0.0}), ("c", 0, two, {"accuracy": 0.0}),
            ("a", 1, one, {"accuracy": 0.0}), ("b", 1, two, {"accuracy": 1.0}), ("c", 1, two, {"accuracy": 1.0}),
        ])  # fmt: skip
        infos = run_infos(store, ["modelA-space", "modelA-pfp"])
        space = fill_table(store, FAMILIES["origamispace"][0], infos)
        pfp = fill_table(store, FAMILIES["pfp"][0], infos)
    assert space is not None and pfp is not None
    ((_, (space_row,)),) = space.blocks
    assert space_row == ["modelA", "—", "—", "75.00±35.36", "50.00±70.71", "—"]
    ((_, (pfp_row,)),) = pfp.blocks
    assert pfp_row[:6] == ["modelA", "0.00", "100.00", "—", "—", "66.67"]


def test_code_generation_columns_are_error_free_rates_and_dimensions_over_compiled_answers(tmp_path: Path) -> None:
    compiled = {"pass_rate": 1.0, "error_cse": 0.0, "error_gif": 0.0, "error_psi": 0.0, "error_afs": 0.0}
    with Store(tmp_path / "runs.db") as store:
        _hand_run(store, "modelB-code", "origamispace/codegen", [
            ("a", 0, {}, {**compiled, "topology": 0.8, "paper_total": 0.6}),
            ("b", 0, {}, {**compiled, "topology": 0.4, "paper_total": 0.2}),
            ("c", 0, {}, {**compiled, "pass_rate": 0.0, "error_cse": 1.0, "topology": 0.0, "paper_total": 0.0}),
            ("d", 0, {}, {**compiled, "pass_rate": 0.0, "error_afs": 1.0, "topology": 0.0, "paper_total": 0.0}),
        ])  # fmt: skip
        filled = fill_table(store, FAMILIES["origamispace"][1], run_infos(store, ["modelB-code"]))
    assert filled is not None
    ((label, (row,)),) = filled.blocks
    assert label == "In-context learning"
    # CSE / GIF / PSI / AFS free, CPR; TSS and Total over the two compiled answers
    assert row[:7] == ["modelB", "75.00", "100.00", "100.00", "75.00", "50.00", "60.00"]
    assert row[-1] == "40.00"


def test_two_runs_of_one_model_on_one_dataset_are_refused(baseline_runs: tuple[Path, dict[str, list[str]]]) -> None:
    db, runs = baseline_runs
    with Store(db) as store:
        info = run_infos(store, runs["pfp"][:1])[0]
        twin = replace(info, name="again")
        with pytest.raises(FoldbenchError, match="are both random on the same pfp/single-step dataset"):
            fill_table(store, FAMILIES["pfp"][0], [info, twin])


def test_the_command_prints_and_refuses_clearly(baseline_runs: tuple[Path, dict[str, list[str]]], capsys: Any) -> None:
    db, runs = baseline_runs
    with pytest.raises(SystemExit) as exit_info:
        main(["paper-table", "pfp", *runs["pfp"][:2], "--db", str(db), "--format", "csv", "--table", "table1",
              "--label", "oracle=Engine"])  # fmt: skip
    assert exit_info.value.code == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[1].startswith(",1-Fold,2-Fold,3-Fold,Others,Overall,Circle")
    assert [line.split(",")[0] for line in printed[2:]] == ["random", "Engine"]
    for argv, message in (
        (["paper-table", "pfpp", runs["pfp"][0]], "unknown family 'pfpp'. Did you mean: pfp?"),
        (["paper-table", "origamispace", runs["pfp"][0]], "has no place in the origamispace paper table"),
        (["paper-table", "pfp", "nope"], "no run named 'nope'"),
        (["paper-table", "pfp", runs["pfp"][0], "--format", "xlsx"], "--format must be one of markdown, csv, latex"),
        (["paper-table", "pfp", runs["pfp"][0], "--label", "gpt4o"], "--label takes MODEL=NAME, got 'gpt4o'"),
    ):
        with pytest.raises(SystemExit) as exit_info:
            main([*argv, "--db", str(db)])
        assert exit_info.value.code == 2
        assert message in capsys.readouterr().err.replace("\n", " ")


def test_a_block_can_read_another_metric_for_a_column(tmp_path: Path) -> None:
    prediction = "mentalblackboard/prediction"
    table = PaperTable(
        key="t",
        title="t",
        note="",
        columns=(cell(("Exact",), prediction, "exact_match", metric_in={"text": "unfolding_exact"}),),
        sections=(Section("image", (prediction,), ("image",)), Section("text", (prediction,), ("text",))),
    )
    values = {"exact_match": 1.0, "unfolding_exact": 0.0}
    with Store(tmp_path / "runs.db") as store:
        _hand_run(store, "m-image", prediction, [("a", 0, {}, values)])
        _hand_run(store, "m-text", prediction, [("a", 0, {}, values)], modality="text")
        filled = fill_table(store, table, run_infos(store, ["m-image", "m-text"]))
    assert filled is not None
    assert filled.blocks == [("image", [["m", "100.00"]]), ("text", [["m", "0.00"]])]


def test_the_time_column_is_the_mean_reply_latency_per_turn(tmp_path: Path) -> None:
    synthesis = "origamibench/synthesis"
    with Store(tmp_path / "runs.db") as store:
        values = {"qe": 1.0, "gs_raster": 0.5, "ss_clip": 0.5}
        _hand_run(store, "q-synth", synthesis, [("a", 0, {"budget": 10}, values)])
        for turn, latency in ((1, 2.0), (2, 4.0)):  # two more turns of item a, after the first (0 s)
            store.record_turn(
                run="q-synth", item_id="a", turn=TurnRecord(turn, f"k{turn}", {}), model="m", params={},
                reply=ModelReply(text="x", latency_s=latency),
            )  # fmt: skip
        filled = fill_table(store, FAMILIES["origamibench"][1], run_infos(store, ["q-synth"]))
    assert filled is not None
    ((_, (row,)),) = filled.blocks
    assert row == ["q", "1.00", "0.50", "0.50", "—", "—", "—", "2.0"]  # one episode: no spread; (0 + 2 + 4) / 3
