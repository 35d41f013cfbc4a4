"""Scale-out on a local Ray instance: the same dataset bytes as local generation; bad addresses and a missing
extra fail before anything is written."""

from __future__ import annotations

import sys
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from foldbench.errors import MissingDependencyError
from foldbench.harness.config import EvalConfig, RunOptions
from foldbench.integrations.executors import executor_for
from foldbench.integrations.ray import RayUnavailableError
from foldbench.integrations.ray_eval import RayExecutor
from foldbench.integrations.ray_generate import ray_item_source, sharded_items
from foldbench.tasks.dataset import write_dataset
from tests.export.conftest import run_cli

# one local Ray instance at a time: under xdist these modules run on the same worker, one after the other
pytestmark = [pytest.mark.ray, pytest.mark.xdist_group("ray")]


def _tree(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(
    ("task_id", "modalities", "n"),
    [("mentalblackboard/prediction-v1", ("text", "image"), 9), ("pfp/single-step-v2", ("image",), 13)],
)
def test_ray_generation_gives_the_same_bytes(
    local_ray: None, tmp_path: Path, task_id: str, modalities: tuple[str, ...], n: int
) -> None:
    # the local dataset is written in this process: local generation gives the same bytes for any number of
    # workers (tests/tasks/test_dataset.py::test_parallel_generation_writes_the_same_bytes), and a pool of two
    # would be two more processes to start
    write_dataset(task_id, tmp_path / "local", n=n, seed=3, modalities=modalities)
    write_dataset(task_id, tmp_path / "ray", n=n, seed=3, modalities=modalities, workers=2, source=sharded_items)
    assert _tree(tmp_path / "ray") == _tree(tmp_path / "local")


def test_ray_tasks_write_the_shards_and_the_driver_only_merges(local_ray: None, tmp_path: Path) -> None:
    out = tmp_path / "data"
    seen: list[list[str]] = []

    def look(_item_json: str) -> None:  # called in the driver as each item is merged
        seen.append(sorted(str(p.relative_to(out)) for p in out.glob(".shards-*/*/items.jsonl")))

    write_dataset("pfp/single-step-v2", out, n=12, seed=5, modalities=("image",), workers=2, source=sharded_items,
                  on_item=look)  # fmt: skip
    # 12 items in ranges of 1 (12 // 16 rounds up to 1): each item's shard was on disk, written by its task,
    # when the driver merged it; afterwards no shard is left in the dataset
    assert all(any(name.endswith(f"{index:09d}/items.jsonl") for name in names) for index, names in enumerate(seen))
    assert len(seen) == 12 and not list(out.glob(".shards-*"))


def test_a_failed_ray_generation_leaves_no_shards_and_no_complete_manifest(local_ray: None, tmp_path: Path) -> None:
    from foldbench.tasks.dataset import DatasetError, read_manifest

    out = tmp_path / "data"

    def stop(_item_json: str) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_dataset("pfp/single-step-v2", out, n=12, seed=5, modalities=("image",), workers=2,
                      source=sharded_items, on_item=stop)  # fmt: skip
    assert not list(out.glob(".shards-*"))
    with pytest.raises(DatasetError, match="incomplete"):
        read_manifest(out)


def test_an_unreachable_cluster_is_one_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("ray", reason="the 'ray' extra is not installed")
    out = tmp_path / "data"
    with pytest.raises(RayUnavailableError, match="cannot reach"), ray_item_source(workers=1, address="127.0.0.1:1"):
        pass
    executor = RayExecutor(workers=1, address="127.0.0.1:1")
    with pytest.raises(RayUnavailableError, match="cannot reach"):
        executor.build_model("openai:m", RunOptions(executor="ray", base_url="http://127.0.0.1:1/v1"))
    args = ["generate", "pfp", "-t", "single-step", "-n", "2", "-o", str(out), "--executor", "ray"]
    assert run_cli(*args, "--ray-address", "127.0.0.1:1") == 1  # an unreachable cluster: not a usage error
    assert run_cli(*args, "--ray-address", "nonsense") == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "cannot reach the Ray cluster at 127.0.0.1:1" in err[0] and "HOST:PORT" in err[1]
    assert not out.exists()


def test_a_missing_extra_names_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    with pytest.raises(MissingDependencyError, match=r"pip install 'foldbench\[ray\]'"), ray_item_source(workers=1):
        pass
    with pytest.raises(MissingDependencyError, match=r"pip install 'foldbench\[ray\]'"):
        executor_for(RunOptions(executor="ray")).build_model("openai:m", RunOptions(base_url="http://127.0.0.1:1/v1"))
    args = ["generate", "pfp", "-t", "single-step", "-n", "2", "-o", str(tmp_path / "d"), "--executor", "ray"]
    assert run_cli(*args) == 1
    assert not (tmp_path / "d").exists()


def test_ray_eval_scores_like_local_and_resumes(local_ray: None, tmp_path: Path, fake_openai_server: Any) -> None:
    from foldbench.harness import Store
    from foldbench.harness.evaluation import run_dataset
    from foldbench.tasks import make
    from foldbench.tasks.dataset import read_items
    from foldbench.testing.fake_openai import answering

    task = make("mentalblackboard/prediction-v1")
    data = tmp_path / "data"
    write_dataset(task.id, data, n=8, seed=1, modalities=("text",))
    items = read_items(data)
    oracle = {}
    for index, item in enumerate(items):  # every other item answered right, the rest garbled
        text = "\n".join(p.text for p in task.render(item, "text").parts if hasattr(p, "text"))
        oracle[text] = task.oracle(item).model_dump_json() if index % 2 == 0 else "no idea"
    server = fake_openai_server(answering(lambda prompt: oracle[prompt]))
    local = EvalConfig(task=task.id, data=data, model="openai:fake", db=tmp_path / "local.db", run_name="local",
                       options=RunOptions(base_url=server.base_url, concurrency=2))  # fmt: skip
    # one Ray worker: each more is a Ray process to start for each of the two runs, and spreading requests over
    # several workers is the pictures test's (test_ray_eval_of_pictures_from_a_relative_dataset_path)
    on_ray = replace(local, db=tmp_path / "ray.db", run_name="ray",
                     options=replace(local.options, executor="ray", workers=1))  # fmt: skip
    run_dataset(local)
    with executor_for(on_ray.options) as executor:
        _, first = run_dataset(replace(on_ray, limit=3), executor=executor)
        _, rest = run_dataset(on_ray, executor=executor)
    # the second invocation resumes: the 3 scored items are skipped, only the other 5 are sent, none twice
    assert (first.requested, rest.already_scored, rest.requested, rest.from_store) == (3, 3, 5, 0)
    assert len(server.requests) == 8 + 8
    with Store(tmp_path / "local.db") as local, Store(tmp_path / "ray.db") as remote:
        assert {r.item_id: r.values for r in remote.scores("ray")} == {
            r.item_id: r.values for r in local.scores("local")
        }


def test_a_later_run_against_the_same_endpoint_uses_its_own_concurrency(
    local_ray: None, tmp_path: Path, fake_openai_server: Any
) -> None:
    import threading
    import time

    from foldbench.harness.evaluation import run_dataset
    from foldbench.testing.fake_openai import reply

    lock = threading.Lock()
    in_flight = [0]
    peaks: list[int] = []
    limits: list[int] = []
    reached: list[threading.Event] = []

    def slow_answer(_request: dict[str, Any], _attempt: int) -> Any:  # runs in the server's request thread
        with lock:
            in_flight[0] += 1
            peaks[-1] = max(peaks[-1], in_flight[0])
            if in_flight[0] >= limits[-1]:
                reached[-1].set()
        # hold each request until the run has its limit in flight once (or 20 s pass, for a run held below it),
        # so a loaded machine that starts the workers late cannot hide a limit that was honoured
        reached[-1].wait(20)
        time.sleep(0.2)
        with lock:
            in_flight[0] -= 1
        return reply("no idea")

    # 4 items: one more than the largest limit, so that a limit not honoured shows in every run's peak
    data = tmp_path / "data"
    write_dataset("mentalblackboard/prediction-v1", data, n=4, seed=2, modalities=("text",))
    server = fake_openai_server(slow_answer)
    for run_name, concurrency in (("one", 1), ("three", 3), ("two", 2)):
        peaks.append(0)  # a store per run: no reply is reused from another run
        limits.append(concurrency)
        reached.append(threading.Event())
        # one worker per run: a worker serves many requests at once, so a limit left over from the previous run
        # shows as a wrong peak whatever the number of workers; each more would cost a Ray process to start
        options = RunOptions(base_url=server.base_url, executor="ray", workers=1, concurrency=concurrency)
        config = EvalConfig(task="mentalblackboard/prediction-v1", data=data, model="openai:fake", run_name=run_name,
                            db=tmp_path / f"{run_name}.db", options=options)  # fmt: skip
        with executor_for(options) as executor:
            run_dataset(config, executor=executor)
    # each run in the same Ray instance has the endpoint's limit it asked for, not the first run's
    assert peaks == [1, 3, 2]


def test_slots_held_by_the_workers_of_a_killed_run_are_freed_for_the_next_run(
    local_ray: None, tmp_path: Path, fake_openai_server: Any
) -> None:
    import asyncio
    import threading

    import ray

    from foldbench.integrations.ray_eval import RayModel
    from foldbench.testing.fake_openai import prompt_text, reply
    from foldbench.testing.model_requests import TextPart, make_request

    stuck_released = threading.Event()

    def script(request: dict[str, Any], _attempt: int) -> Any:
        if prompt_text(request) == "stuck":
            stuck_released.wait(60)
        return reply("B")

    server = fake_openai_server(script)

    async def go() -> str:
        killed = RayModel("openai:fake", workers=1, concurrency=1, base_url=server.base_url)
        pending = asyncio.ensure_future(killed.complete(make_request(tmp_path, (TextPart("stuck"),))))
        while not server.requests:  # the killed run's worker holds the endpoint's only slot
            await asyncio.sleep(0.05)
        for worker in killed._workers:  # what happens to a run's workers when its driver is killed
            ray.kill(worker)
        with pytest.raises(ray.exceptions.RayActorError):
            await pending
        resumed = RayModel("openai:fake", workers=1, concurrency=1, base_url=server.base_url)
        try:
            answer = await asyncio.wait_for(resumed.complete(make_request(tmp_path, (TextPart("next"),))), 60)
        finally:
            await resumed.aclose()
        return answer.text

    try:
        assert asyncio.run(go()) == "B"
    finally:
        stuck_released.set()


def test_ray_generation_into_a_relative_directory(
    local_ray: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the Ray workers need not share the driver's working directory
    args = ["generate", "pfp", "-t", "single-step", "-n", "3", "-o", "relative", "--workers", "2"]
    assert run_cli(*args, "--executor", "ray") == 0
    write_dataset("pfp/single-step-v2", tmp_path / "local", n=3, seed=0, modalities=("image",))
    assert _tree(tmp_path / "relative") == _tree(tmp_path / "local")


def test_ray_eval_of_pictures_from_a_relative_dataset_path(
    local_ray: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_openai_server: Any
) -> None:
    from foldbench.harness.evaluation import run_dataset
    from foldbench.testing.fake_openai import always, reply

    monkeypatch.chdir(tmp_path)  # the Ray workers read the pictures from another working directory
    write_dataset("pfp/single-step-v2", tmp_path / "data", n=3, seed=0, modalities=("image",))
    server = fake_openai_server(always(reply("B")))
    options = RunOptions(base_url=server.base_url, executor="ray", workers=2)  # the 3 requests spread over both
    config = EvalConfig(task="pfp/single-step-v2", data=Path("data"), model="openai:fake", run_name="pictures",
                        db=tmp_path / "runs.db", options=options)  # fmt: skip
    with executor_for(options) as executor:
        _, summary = run_dataset(config, executor=executor)
    assert (summary.requested, summary.failed) == (3, 0)
    sent = [r.json for r in server.requests if r.json is not None]
    images = [p for request in sent for m in request["messages"] if isinstance(m["content"], list)
              for p in m["content"] if p.get("type") == "image_url"]  # fmt: skip
    assert len(images) >= 3 and all(i["image_url"]["url"].startswith("data:image/png;base64,") for i in images)


def test_a_suite_on_ray_sends_its_generation_parameters_through_the_ray_workers(
    local_ray: None, tmp_path: Path, fake_openai_server: Any
) -> None:
    import ray

    from foldbench.harness import Store
    from foldbench.integrations.ray_eval import limiter_name
    from foldbench.testing.fake_openai import always, reply

    server = fake_openai_server(always(reply("no idea")))
    # an endpoint no other test has named, even if the port of an earlier test's server is given out again (the
    # limiters of earlier tests outlive them in the module's Ray): the server answers under any path
    base_url = f"{server.base_url.removesuffix('/v1')}/suite-{uuid.uuid4().hex}/v1"
    with pytest.raises(ValueError):  # no run has used this endpoint through Ray yet
        ray.get_actor(limiter_name("openai:fake", base_url), namespace="foldbench")
    out = tmp_path / "suite"
    # one Ray worker: the parameters go with each request to whichever worker sends it
    args = ["suite", "--out", str(out), "-n", "3", "--tasks", "mentalblackboard/prediction", "--modality", "text",
            "-m", "openai:fake", "--base-url", base_url, "--executor", "ray", "--workers", "1",
            "--temperature", "0.5", "--max-tokens", "11"]  # fmt: skip
    assert run_cli(*args) == 0
    sent = [request.json for request in server.requests]
    assert len(sent) == 3 and all(body is not None for body in sent)
    assert all((body["temperature"], body["max_tokens"]) == (0.5, 11) for body in sent)
    # the requests went through Ray: the endpoint's limiter, an actor only the Ray executor creates, now exists
    assert ray.get_actor(limiter_name("openai:fake", base_url), namespace="foldbench") is not None
    with Store(out / "runs.db") as store:  # the baselines ran locally beside it
        assert {run.model for run in store.runs()} >= {"random", "oracle"}
