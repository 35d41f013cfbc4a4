"""``foldbench export --format lmms-eval``: the YAML against lmms-eval's task keys, ``utils.py`` on exported rows."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import yaml
from PIL import Image

from foldbench.export._output import ExportError
from foldbench.export.lmms_eval import export_lmms_eval, lmms_task_name
from foldbench.harness import Store
from foldbench.harness.config import EvalConfig
from foldbench.harness.evaluation import run_dataset
from foldbench.harness.metrics import aggregate
from foldbench.messages import ImagePart
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items

datasets = pytest.importorskip("datasets", reason="the 'hf' extra (datasets) is not installed")

#: The fields of lmms-eval's TaskConfig (lmms_eval/api/task.py) and of its group configs.
TASK_KEYS = {
    "task", "task_alias", "tag", "group", "group_alias", "dataset_path", "dataset_name", "dataset_kwargs",
    "training_split", "validation_split", "test_split", "fewshot_split", "full_docs", "process_results_use_image",
    "process_docs", "doc_to_visual", "doc_to_text", "doc_to_target", "doc_to_choice", "doc_to_messages",
    "process_results", "use_prompt", "description", "target_delimiter", "fewshot_delimiter", "fewshot_config",
    "num_fewshot", "metric_list", "output_type", "generation_kwargs", "repeats", "filter_list",
    "should_decontaminate", "doc_to_decontamination_query", "metadata", "lmms_eval_specific_kwargs",
    "model_specific_generation_kwargs", "model_specific_target_kwargs",
}  # fmt: skip
GROUP_KEYS = {"group", "group_alias", "task", "aggregate_metric_list", "metadata"}
OUTPUT_TYPES = {"loglikelihood", "multiple_choice", "generate_until", "generate_until_multi_round"}


class _Loader(yaml.SafeLoader):
    """Reads lmms-eval YAML: ``!function module.name`` becomes the string ``"!function module.name"``."""


_Loader.add_constructor("!function", lambda loader, node: f"!function {loader.construct_scalar(node)}")


def _yaml(path: Path) -> dict[str, Any]:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)


def _utils(folder: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"lmms_utils_{abs(hash(folder))}", folder / "utils.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def one_shot_datasets(every_task_dataset: dict[str, Path]) -> dict[str, Path]:
    """The datasets of every task asked in one turn (an lmms-eval task holds no conversation)."""
    return {task_id: path for task_id, path in every_task_dataset.items() if make(task_id).spec.max_turns == 1}


@pytest.fixture(scope="module")
def folder(one_shot_datasets: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lmms") / "foldbench-lmms"
    export_lmms_eval(list(one_shot_datasets.values()), out)
    return out


def test_a_task_with_feedback_is_refused_and_nothing_is_written(
    every_task_dataset: dict[str, Path], tmp_path: Path
) -> None:
    multi_turn = [path for task_id, path in every_task_dataset.items() if make(task_id).spec.max_turns > 1]
    assert multi_turn, "no registered multi-turn task to try"
    with pytest.raises(ExportError, match="feedback after each reply"):
        export_lmms_eval(multi_turn[:1], tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_yaml_uses_only_lmms_eval_keys_and_existing_functions(one_shot_datasets: dict[str, Path], folder: Path) -> None:
    utils = _utils(folder)
    names = []
    for task_id in one_shot_datasets:
        config = _yaml(folder / f"{lmms_task_name(task_id)}.yaml")
        assert set(config) <= TASK_KEYS, set(config) - TASK_KEYS
        assert config["task"] == lmms_task_name(task_id) and config["output_type"] in OUTPUT_TYPES
        functions = re.findall(r"!function utils\.(\w+)", (folder / f"{config['task']}.yaml").read_text())
        assert functions and all(callable(getattr(utils, f)) for f in functions)
        declared = {m.name for m in make(task_id).spec.metrics}
        assert declared | {"headline", "parse_failed"} == {m["metric"] for m in config["metric_list"]}
        names.append(config["task"])
    group = _yaml(folder / "_foldbench.yaml")
    assert set(group) <= GROUP_KEYS and group["task"] == names
    assert [m["metric"] for m in group["aggregate_metric_list"]] == ["headline"]


def test_the_folder_can_be_moved(one_shot_datasets: dict[str, Path], folder: Path, tmp_path: Path, monkeypatch) -> None:
    """The task files name the shards relative to the folder: a copy elsewhere loads, run from inside it."""
    import shutil

    moved = tmp_path / "elsewhere" / "lmms"
    shutil.copytree(folder, moved)
    monkeypatch.chdir(moved)
    for task_id in one_shot_datasets:
        text = (moved / f"{lmms_task_name(task_id)}.yaml").read_text()
        assert str(folder) not in text and str(tmp_path) not in text
        config = _yaml(moved / f"{lmms_task_name(task_id)}.yaml")
        (pattern,) = config["dataset_kwargs"]["data_files"].values()
        assert not Path(pattern).is_absolute() and pattern.startswith("data/")
        docs = datasets.load_dataset("parquet", data_files=config["dataset_kwargs"]["data_files"])
        assert docs[config["test_split"]].num_rows == 3


def test_utils_show_the_prompt_and_score_like_foldbench(
    one_shot_datasets: dict[str, Path], folder: Path, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(folder)  # lmms-eval runs from the folder
    utils = _utils(folder)
    for task_id, directory in one_shot_datasets.items():
        config = _yaml(folder / f"{lmms_task_name(task_id)}.yaml")
        split = config["test_split"]
        docs = datasets.load_dataset("parquet", data_files=config["dataset_kwargs"]["data_files"])[split]
        task = make(task_id)
        modality = config["metadata"]["modality"]
        db = tmp_path / f"{task_id.replace('/', '_')}.db"
        run_dataset(EvalConfig(task=task_id, data=directory, model="random", run_name="r", db=db, modality=modality))
        with Store(db) as store:
            rows = {row.item_id: row for row in store.scores("r")}
        expected = aggregate(rows.values(), task.spec)
        random_results = []
        for doc, item in zip(docs, read_items(directory), strict=True):
            prompt = task.render(item, modality)
            pictures = utils.doc_to_visual(doc)
            paths = [p.path for p in prompt.parts if isinstance(p, ImagePart)]
            assert len(pictures) == len(paths) and paths, task_id
            for picture, path in zip(pictures, paths, strict=True):
                original = np.asarray(Image.open(directory / path).convert("RGB"))
                assert np.array_equal(np.asarray(picture), original)
            text = utils.doc_to_text(doc)
            assert all(p.text in text for p in prompt.parts if hasattr(p, "text"))
            oracle = utils.process_results(doc, [task.oracle(item).model_dump_json()])
            assert oracle["headline"] == 1.0 and oracle["parse_failed"] == 0.0, task_id
            random_results.append(utils.process_results(doc, [rows[item.id].text]))
        for metric in task.spec.metrics:
            values = [r[metric.name] for r in random_results]
            aggregation = utils.aggregate_pooled if metric.kind == "pooled" else utils.aggregate_mean
            got, want = aggregation(values), expected.estimates[metric.name].value
            assert (np.isnan(got) and want is None) or got == pytest.approx(want), (task_id, metric.name)
        garbled = utils.process_results(docs[0], ["no answer here"])
        assert garbled["parse_failed"] == 1.0 and garbled["headline"] == 0.0
