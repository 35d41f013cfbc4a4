"""The 3D video and key-frame modalities of MentalBlackboard, from generation to a scored, reported run."""

from __future__ import annotations

import asyncio
import builtins
import json
from pathlib import Path

import pytest

from foldbench.errors import MissingDependencyError
from foldbench.harness import Store, aggregate, evaluate
from foldbench.harness.report import write_report
from foldbench.models.registry import make_model
from foldbench.tasks import make
from foldbench.tasks.base import ImagePart, VideoPart
from foldbench.tasks.dataset import read_items, write_dataset
from tests.support.cli import run_in_process


@pytest.fixture(scope="module")
def video_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("video") / "backward"
    write_dataset(
        "mentalblackboard/backward-prediction",
        out,
        n=3,
        seed=8,
        modalities=("video", "frames"),
        knobs={"groups": [1, 5]},
    )
    return out


def test_video_items_have_their_files_and_prompts(video_dataset: Path) -> None:
    task = make("mentalblackboard/backward-prediction")
    for item in read_items(video_dataset):
        video = item.inputs["video"]
        assert (video_dataset / video["video"]).stat().st_size > 1000
        assert len(video["frames"]) == len(item.inputs["actions"]) + 2
        assert all((video_dataset / f).read_bytes().startswith(b"\x89PNG") for f in video["frames"])
        assert (video_dataset / item.target["video"]).is_file()
        frames = task.render(item, "frames")
        shown = [p.path for p in frames.parts if isinstance(p, ImagePart)]
        assert shown == [video["reference"], *video["frames"]]
        as_video = task.render(item, "video")
        (part,) = [p for p in as_video.parts if isinstance(p, VideoPart)]
        assert part.path == video["video"] and list(part.frames) == video["frames"]
        assert "away from you" in frames.text  # backward folds are announced


def test_same_seed_same_key_frames(video_dataset: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    write_dataset(
        "mentalblackboard/backward-prediction",
        again,
        n=3,
        seed=8,
        modalities=("video", "frames"),
        knobs={"groups": [1, 5]},
    )
    for item in read_items(video_dataset):
        for frame in item.inputs["video"]["frames"]:
            assert (video_dataset / frame).read_bytes() == (again / frame).read_bytes()


def test_oracle_scores_everything_on_frames_and_the_report_shows_the_unfolding(
    video_dataset: Path, tmp_path: Path
) -> None:
    task = make("mentalblackboard/backward-prediction")
    items = read_items(video_dataset)
    with Store(tmp_path / "runs.db") as store:
        for spec in ("oracle", "random"):
            asyncio.run(
                evaluate(
                    store=store,
                    run_name=spec,
                    task=task,
                    dataset_dir=video_dataset,
                    items=items,
                    model=make_model(spec),
                    modality="frames",
                )
            )
        assert aggregate(store.scores("oracle"), task.spec).value("exact_match") == 1.0
        _, html = write_report(store, "random", tmp_path / "report", task=task, items=items)
    assert "ground-truth unfolding (3D)" in html.read_text()


def test_generation_without_the_video_encoder_names_the_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_ffmpeg(name: str, *args: object, **kwargs: object) -> object:
        if name == "imageio_ffmpeg":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_ffmpeg)
    with pytest.raises(MissingDependencyError, match=r"pip install 'foldbench\[video\]'"):
        write_dataset("mentalblackboard/prediction", tmp_path / "d", n=1, seed=0, modalities=("video",))


def test_cli_video_skips_invalid_records_and_renders_the_rest(tmp_path: Path) -> None:
    records = [
        {
            "id": "ok",
            "foldingTypes": [{"foldType": "vertical_left_to_right", "foldToFront": False}],
            "initialHoles": [{"shape": "star", "size": "small", "direction": 0, "location": 8}],
        },
        {
            "id": "bad-rule",
            "foldingTypes": [
                {"foldType": "horizontal_top_to_bottom", "foldToFront": True},
                {"foldType": "diagonal_topLeft_to_bottomRight", "foldToFront": True},
            ],
            "initialHoles": [],
        },
        {
            "id": "bad-hole",
            "foldingTypes": [{"foldType": "vertical_left_to_right", "foldToFront": True}],
            "initialHoles": [{"shape": "star", "size": "small", "direction": 0, "location": 1}],
        },
    ]
    source = tmp_path / "records.json"
    source.write_text(json.dumps(records))
    # in this process (tests/support/cli.py): what is checked is the command's handling of bad records, not start-up
    result = run_in_process("pft", "video", str(source), "--out", str(tmp_path / "videos"), "--size", "96")
    assert result.returncode == 1
    assert "bad-rule" in result.stderr and "bad-hole" in result.stderr and "Traceback" not in result.stderr
    assert (tmp_path / "videos" / "ok" / "folding.mp4").is_file()
    assert not (tmp_path / "videos" / "bad-rule").exists()


def test_chosen_size_and_frame_rate(tmp_path: Path) -> None:
    import imageio_ffmpeg
    from PIL import Image

    out = tmp_path / "small"
    write_dataset(
        "mentalblackboard/prediction",
        out,
        n=1,
        seed=4,
        modalities=("video", "image"),
        knobs={"size": 96, "fps": 6, "groups": [1]},
    )
    (item,) = read_items(out)
    assert Image.open(out / item.inputs["video"]["frames"][0]).size == (96, 96)
    assert Image.open(out / item.inputs["images"]["steps"][0]).size == (96, 96)
    frames, seconds = imageio_ffmpeg.count_frames_and_secs(str(out / item.inputs["video"]["video"]))
    assert abs(frames / seconds - 6) < 0.01
    with pytest.raises(Exception, match="knob 'size': must be an even number"):
        write_dataset(
            "mentalblackboard/prediction", tmp_path / "odd", n=1, seed=4, modalities=("video",), knobs={"size": 95}
        )
