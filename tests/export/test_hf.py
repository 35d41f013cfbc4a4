"""``foldbench export --format hf`` read back by the real ``datasets`` library and by ``foldbench eval``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
import yaml
from PIL import Image

from foldbench.cli.evaluate import run_eval
from foldbench.export.hf import config_name, export_hf, write_shards
from foldbench.export.hf_read import dataset_directory
from foldbench.harness import Store
from foldbench.harness.config import EvalConfig
from foldbench.harness.evaluation import run_dataset
from foldbench.tasks.dataset import read_items

datasets = pytest.importorskip("datasets", reason="the 'hf' extra (datasets) is not installed")


def _tree(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def exported(every_task_dataset: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("export") / "hf"
    export_hf(list(every_task_dataset.values()), out)
    return out


def test_every_task_loads_with_datasets_and_images_match(every_task_dataset: dict[str, Path], exported: Path) -> None:
    for task_id, directory in every_task_dataset.items():
        loaded = datasets.load_dataset("parquet", data_dir=str(exported / config_name(task_id)))
        assert list(loaded) == ["test"]
        rows = loaded["test"]
        items = read_items(directory)
        assert rows["id"] == [i.id for i in items]
        assert set(rows["task"]) == {task_id}
        (shard,) = (exported / config_name(task_id)).glob("test-*.parquet")
        stored_images = pq.read_table(shard, columns=["images"]).column("images").to_pylist()
        for row, item, stored_row in zip(rows, items, stored_images, strict=True):
            assert json.loads(row["target"]) == item.target
            assert row["seed"] == item.seed and row["engine_version"] == item.engine_version
            assert row["images"], f"{task_id}: an item without pictures"
            for picture, stored in zip(row["images"], stored_row, strict=True):
                assert isinstance(picture, Image.Image)
                original = Image.open(directory / stored["path"])
                assert np.array_equal(np.asarray(picture), np.asarray(original))


def test_card_header_names_every_config_and_loads_by_config(
    every_task_dataset: dict[str, Path], exported: Path
) -> None:
    card = (exported / "README.md").read_text(encoding="utf-8")
    header = yaml.safe_load(card.split("---")[1])
    assert header["license"] == "mit"
    assert "visual-question-answering" in header["task_categories"]
    configs = {c["config_name"]: c for c in header["configs"]}
    assert set(configs) == {config_name(t) for t in every_task_dataset}
    for task_id in every_task_dataset:
        assert f"### `{config_name(task_id)}` — {task_id}" in card
    first = next(iter(every_task_dataset))
    loaded = datasets.load_dataset(str(exported), config_name(first))
    assert loaded["test"].num_rows == 3
    # dataset_info: each config's features are its Parquet columns, its split sizes the rows written
    assert header["size_categories"] == ["n<1K"]
    infos = {info["config_name"]: info for info in header["dataset_info"]}
    assert set(infos) == set(configs)
    for name, info in infos.items():
        (shard,) = sorted((exported / name).glob("test-*.parquet"))
        columns = pq.read_schema(shard).names
        assert [feature["name"] for feature in info["features"]] == columns
        assert info["splits"][0]["name"] == "test" and info["splits"][0]["num_examples"] == 3
        assert info["splits"][0]["num_bytes"] == shard.stat().st_size
    images = next(f for f in infos[config_name(first)]["features"] if f["name"] == "images")
    assert images == {"name": "images", "sequence": "image"}


def test_size_categories_follow_the_hub() -> None:
    from foldbench.export.card import size_category

    assert [size_category(n) for n in (0, 999, 1000, 9999, 10_000, 999_999)] == [
        "n<1K", "n<1K", "1K<n<10K", "1K<n<10K", "10K<n<100K", "100K<n<1M"
    ]  # fmt: skip


def test_export_reads_back_as_the_same_bytes(every_task_dataset: dict[str, Path], exported: Path) -> None:
    for task_id, directory in every_task_dataset.items():
        restored = dataset_directory(exported, task_id)
        assert restored != exported
        assert _tree(restored) == _tree(directory), task_id


@pytest.mark.parametrize("model", ["random", "oracle"])
def test_eval_scores_the_export_like_the_original(
    every_task_dataset: dict[str, Path], exported: Path, tmp_path: Path, model: str
) -> None:
    for task_id in ["mentalblackboard/prediction-v1", "pfp/folding-3d-v2"]:
        db = tmp_path / f"{model}.db"
        run_dataset(EvalConfig(task=task_id, data=every_task_dataset[task_id], model=model, run_name="a", db=db))
        run_eval(EvalConfig(task=task_id, data=exported, model=model, run_name="b", db=db))  # what 'eval --data' does
        with Store(db) as store:
            original = {r.item_id: r.values for r in store.scores("a")}
            again = {r.item_id: r.values for r in store.scores("b")}
            store.close()
        db.unlink()
        assert original == again and len(original) == 3
        if model == "oracle":
            task_headline = {"mentalblackboard/prediction-v1": "exact_match", "pfp/folding-3d-v2": "accuracy"}
            assert all(v[task_headline[task_id]] == 1.0 for v in again.values())


def test_large_exports_stream_into_several_shards(every_task_dataset: dict[str, Path], tmp_path: Path) -> None:
    from foldbench.export._output import destination
    from foldbench.export._source import open_source

    source = open_source(every_task_dataset["mentalblackboard/prediction-v1"])
    out = destination(tmp_path / "sharded")
    record = write_shards(source, out, "cfg", split="test", shard_bytes=1)
    assert record["shards"] == ["test-00000-of-00001.parquet"]  # one batch of three items, one shard
    from foldbench.export import hf

    original = hf.BATCH_ROWS
    hf.BATCH_ROWS = 1
    try:
        record = write_shards(source, destination(tmp_path / "sharded2"), "cfg", split="train", shard_bytes=1)
    finally:
        hf.BATCH_ROWS = original
    assert record["shards"] == [f"train-0000{i}-of-00003.parquet" for i in range(3)]
    loaded = datasets.load_dataset("parquet", data_dir=str(tmp_path / "sharded2" / "cfg"))
    assert loaded["train"]["id"] == [i.id for i in read_items(source.directory)]


def test_exports_to_a_filesystem_uri(every_task_dataset: dict[str, Path], tmp_path: Path) -> None:
    directory = every_task_dataset["pfp/folding-3d-v2"]
    export_hf([directory], (tmp_path / "by-uri").as_uri())
    assert dataset_directory(tmp_path / "by-uri", "pfp/folding-3d-v2") != tmp_path / "by-uri"
    assert len(read_items(dataset_directory(tmp_path / "by-uri", "pfp/folding-3d-v2"))) == 3


def test_a_path_leaving_the_export_is_refused(every_task_dataset: dict[str, Path], tmp_path: Path) -> None:
    from foldbench.export import ExportError

    out = tmp_path / "evil"
    export_hf([every_task_dataset["pfp/folding-3d-v2"]], out)
    shard = next((out / "pfp_folding-3d-v2").glob("*.parquet"))
    table = pq.read_table(shard)
    images = table.column("images").to_pylist()
    images[0][0]["path"] = "../../escaped.png"
    import pyarrow as pa

    column = pa.array(images, table.schema.field("images").type)
    table = table.set_column(table.schema.get_field_index("images"), "images", column)
    pq.write_table(table, shard)
    with pytest.raises(ExportError, match="outside its directory"):
        dataset_directory(out, "pfp/folding-3d-v2")
    assert not (tmp_path / "escaped.png").exists()
    assert not any(p.name.startswith(".import-") for p in (tmp_path / "cache" / "datasets").iterdir())


def test_png_bytes_are_kept_exactly(every_task_dataset: dict[str, Path], exported: Path) -> None:
    directory = every_task_dataset["pfp/folding-3d-v2"]
    table = pq.read_table(next((exported / "pfp_folding-3d-v2").glob("*.parquet")))
    for pictures in table.column("images").to_pylist():
        for picture in pictures:
            assert picture["bytes"] == (directory / picture["path"]).read_bytes()
            assert Image.open(io.BytesIO(picture["bytes"])).format == "PNG"


def test_videos_are_copied_beside_the_shards(tmp_path: Path) -> None:
    pytest.importorskip("imageio_ffmpeg", reason="video needs the 'video' extra (imageio-ffmpeg)")
    from foldbench.tasks.dataset import write_dataset

    source = tmp_path / "video"
    write_dataset("mentalblackboard/prediction-v1", source, n=1, seed=2, modalities=("video",), knobs={"size": 128})
    export_hf([source], tmp_path / "hf")
    folder = tmp_path / "hf" / "mentalblackboard_prediction-v1"
    row = datasets.load_dataset("parquet", data_dir=str(folder))["test"][0]
    assert row["videos"] and all((folder / v).read_bytes() == (source / v).read_bytes() for v in row["videos"])
    assert _tree(dataset_directory(tmp_path / "hf", "mentalblackboard/prediction-v1")) == _tree(source)
