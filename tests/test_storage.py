"""Outputs on an object store, against a real S3 API (moto's server on 127.0.0.1): generated datasets and exports
arrive complete or not at all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow.fs as pafs
import pytest

from foldbench.errors import FoldbenchError
from foldbench.storage import OutputError
from foldbench.tasks.dataset import read_items, write_dataset
from tests.export.conftest import run_cli
from tests.support.s3_server import BUCKET, S3Server, emptied_s3_server, moto_endpoint

TASK = "pfp/single-step-v2"


@pytest.fixture(scope="module")
def _s3_endpoint() -> Iterator[str]:
    """One moto server for the module (starting and stopping one costs about 0.6 s)."""
    with moto_endpoint() as endpoint:
        yield endpoint


@pytest.fixture
def s3_server(_s3_endpoint: str, monkeypatch: pytest.MonkeyPatch) -> S3Server:
    """The module's moto server, emptied but for the test bucket."""
    return emptied_s3_server(_s3_endpoint, monkeypatch)


def _tree(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def test_generate_to_s3_uploads_the_same_bytes_as_a_local_run(s3_server: S3Server, tmp_path: Path) -> None:
    write_dataset(TASK, tmp_path / "local", n=4, seed=7, modalities=("image",))
    assert run_cli("generate", "pfp", "-t", "single-step", "-n", "4", "-s", "7", "-o", s3_server.uri("data")) == 0
    downloaded = s3_server.download("data", tmp_path / "downloaded")
    assert _tree(downloaded) == _tree(tmp_path / "local")
    assert [i.id for i in read_items(downloaded)] == [i.id for i in read_items(tmp_path / "local")]
    # the endpoint may also be given in the URI (pyarrow's query parameters) instead of the environment: one item
    # shows where the upload went (each object put costs moto about 30 ms here)
    write_dataset(TASK, tmp_path / "one", n=1, seed=7, modalities=("image",))
    write_dataset(TASK, s3_server.uri("explicit", explicit=True), n=1, seed=7, modalities=("image",))
    assert _tree(s3_server.download("explicit", tmp_path / "explicit")) == _tree(tmp_path / "one")


def test_an_existing_remote_dataset_is_kept_unless_overwrite(
    s3_server: S3Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["generate", "pfp", "-t", "single-step", "-n", "2", "-o", s3_server.uri("data")]
    assert run_cli(*args) == 0
    before = s3_server.keys("data")
    assert run_cli(*args, "-s", "9") == 1
    assert "already holds a dataset; pass --overwrite" in capsys.readouterr().err
    assert run_cli(*args, "-n", "3", "--overwrite") == 0
    assert len(read_items(s3_server.download("data", tmp_path / "d"))) == 3 and s3_server.keys("data") != before
    s3_server.filesystem.create_dir(f"{s3_server.uri('other')[5:]}")
    with s3_server.filesystem.open_output_stream("foldbench-test/other/notes.txt") as stream:
        stream.write(b"not a dataset")
    assert run_cli("generate", "pfp", "-t", "single-step", "-n", "2", "-o", s3_server.uri("other"), "--overwrite") == 1
    assert "is not a foldbench dataset" in capsys.readouterr().err
    assert s3_server.keys("other") == ["other/notes.txt"]


def test_a_failed_upload_leaves_nothing_at_the_destination(
    s3_server: S3Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_copy = pafs.copy_files
    copied: list[str] = []

    def copy_then_fail_on_the_manifest(source: str, destination: str, **options: Any) -> None:
        if destination.endswith("manifest.json"):  # everything else has arrived by now
            copied.extend(s3_server.keys("data"))
            raise OSError("connection reset by peer")
        real_copy(source, destination, **options)

    monkeypatch.setattr(pafs, "copy_files", copy_then_fail_on_the_manifest)  # storage imports it on first use
    with pytest.raises(OutputError, match="cannot upload to s3://foldbench-test/data: connection reset"):
        write_dataset(TASK, s3_server.uri("data"), n=3, seed=1, modalities=("image",))
    assert copied and "data/items.jsonl" in copied  # the items went first, the manifest was to go last
    assert s3_server.keys() == []


def test_a_failed_generation_uploads_nothing(s3_server: S3Server) -> None:
    def stop(_item: str) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_dataset(TASK, s3_server.uri("data"), n=3, seed=1, modalities=("image",), on_item=stop)
    with pytest.raises(FoldbenchError, match="unknown knob"):
        write_dataset(TASK, s3_server.uri("data"), n=3, seed=1, modalities=("image",), knobs={"nonsense": 1})
    assert s3_server.keys() == []


def test_exports_to_s3_match_local_exports(s3_server: S3Server, tmp_path: Path) -> None:
    source = tmp_path / "source"
    write_dataset(TASK, source, n=3, seed=2, modalities=("image",))
    for format in ("hf", "lmms-eval", "vlmevalkit"):
        local, remote = tmp_path / f"{format}-local", s3_server.uri(f"{format}")
        assert run_cli("export", str(source), "--format", format, "--out", str(local)) == 0
        assert run_cli("export", str(source), "--format", format, "--out", remote) == 0
        exported = _tree(s3_server.download(format, tmp_path / f"{format}-remote"))
        yaml = "foldbench_pfp_single_step.yaml"  # a local folder names its shards relative to itself, a store by URI
        if format == "lmms-eval":
            assert f"s3://foldbench-test/{format}/data/pfp_single-step-v2/test-*.parquet" in exported[yaml].decode()
            local_text = _tree(local)[yaml].decode()
            assert "data/pfp_single-step-v2/test-*.parquet" in local_text and str(local) not in local_text
        assert {k: v for k, v in exported.items() if k != yaml} == {k: v for k, v in _tree(local).items() if k != yaml}
        assert run_cli("export", str(source), "--format", format, "--out", remote) == 1  # exists: refused


def test_an_unreachable_object_store_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # nothing listens on port 1; pyarrow's client tries three times, backing off, before it gives up (about 6 s)
    for name, value in {"AWS_ENDPOINT_URL": "http://127.0.0.1:1", "AWS_ACCESS_KEY_ID": "testing",
                        "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1",
                        "AWS_EC2_METADATA_DISABLED": "true"}.items():  # fmt: skip
        monkeypatch.setenv(name, value)
    assert run_cli("generate", "pfp", "-t", "single-step", "-n", "2", "-o", f"s3://{BUCKET}/data") == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: cannot reach s3://foldbench-test/data")


def test_eval_keeps_its_run_store_on_s3_and_resumes_from_it(
    s3_server: S3Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from foldbench.harness import Store

    data = tmp_path / "data"
    write_dataset(TASK, data, n=5, seed=3, modalities=("image",))
    store = s3_server.uri("runs/foldbench.db")
    args = ["eval", "--task", TASK, "--data", str(data), "--model", "random", "--run", "r", "--db", store]
    assert run_cli(*args, "--limit", "2") == 0
    assert run_cli(*args) == 0
    output = capsys.readouterr().out
    assert "run r: 2/2 items scored" in output and "run r: 5/5 items scored" in output and "2 already done" in output
    assert s3_server.keys("runs") == ["runs/foldbench.db"]  # nothing beside it is left behind
    _remote_bytes(s3_server, "runs/foldbench.db", tmp_path / "downloaded.db")
    with Store(tmp_path / "downloaded.db") as downloaded:
        assert len(list(downloaded.scores("r"))) == 5


def _remote_bytes(server: S3Server, key: str, local: Path) -> bytes:
    pafs.copy_files(f"foldbench-test/{key}", str(local), source_filesystem=server.filesystem,
                    destination_filesystem=pafs.LocalFileSystem())  # fmt: skip
    return local.read_bytes()


def test_report_compare_and_export_runs_read_a_run_store_on_s3_without_changing_it(
    s3_server: S3Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    write_dataset(TASK, data, n=4, seed=5, modalities=("image",))
    store = s3_server.uri("runs/foldbench.db")
    for model in ("oracle", "random"):
        args = ["eval", "--task", TASK, "--data", str(data), "--model", model, "--run", model, "--db", store]
        assert run_cli(*args) == 0
    before = _remote_bytes(s3_server, "runs/foldbench.db", tmp_path / "before.db")
    capsys.readouterr()
    assert run_cli("report", "oracle", "--db", store, "--out", str(tmp_path / "report")) == 0
    assert "accuracy" in (tmp_path / "report" / "report.md").read_text()
    assert run_cli("compare", "oracle", "random", "--db", store) == 0
    assert "A = oracle" in capsys.readouterr().out
    assert run_cli("export-runs", "oracle", "random", "--db", store, "--out", str(tmp_path / "runs.csv")) == 0
    assert len((tmp_path / "runs.csv").read_text().splitlines()) == 1 + 2 * 4
    after = _remote_bytes(s3_server, "runs/foldbench.db", tmp_path / "after.db")
    assert after == before and s3_server.keys("runs") == ["runs/foldbench.db"]
    assert run_cli("compare", "oracle", "--db", s3_server.uri("nowhere/foldbench.db")) == 1
    assert "no run store at s3://" in capsys.readouterr().err


def test_a_local_run_store_needs_no_pyarrow(tmp_path: Path) -> None:
    """pyarrow is imported at the first object-store use, not for a local path (``foldbench report`` on a local
    store, for one, never loads it)."""
    import subprocess
    import sys

    import foldbench

    code = (
        "import sys\nfrom pathlib import Path\nfrom foldbench.storage import is_uri, local_copy\n"
        f"with local_copy({str(tmp_path / 'runs.db')!r}) as path:\n    path.write_text('x')\n"
        "print(path, is_uri(path), 'pyarrow' in sys.modules)"
    )
    env_path = str(Path(foldbench.__file__).parents[1])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"})  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(tmp_path / "runs.db"), "False", "False"]
    assert (tmp_path / "runs.db").read_text() == "x"
