"""The suite: every registered task (bar those out of the default suite) in every modality it has, the baselines
(and any other model) on each, a report per run and a summary table.

Video modalities (``video``, ``frames``) are included when ``foldbench[video]`` (imageio-ffmpeg) is installed;
they are slow to render, so their datasets hold at most :data:`VIDEO_ITEMS` items.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from foldbench.errors import InvalidKnobError, UsageError, did_you_mean
from foldbench.harness.config import EvalConfig, RunOptions
from foldbench.harness.evaluation import run_dataset
from foldbench.harness.executors import Executor, LocalExecutor
from foldbench.harness.report import runs_overview, write_report
from foldbench.harness.store import Store

__all__ = ["VIDEO_ITEMS", "VIDEO_MODALITIES", "SuitePart", "plan_suite", "run_suite", "video_available"]

#: Modalities rendered as a video (with its key frames); they need ``foldbench[video]``.
VIDEO_MODALITIES = frozenset({"video", "frames"})

#: The largest number of items of a video dataset in the suite.
VIDEO_ITEMS = 5

BASELINES = ("random", "oracle")


def video_available() -> bool:
    """Whether the video encoder (imageio-ffmpeg, ``foldbench[video]``) is installed."""
    return importlib.util.find_spec("imageio_ffmpeg") is not None


@dataclass(frozen=True, slots=True)
class SuitePart:
    """One dataset of the suite: a task, the modalities it is written in, and its size."""

    task_id: str
    modalities: tuple[str, ...]
    n: int

    @property
    def folder(self) -> str:
        """The dataset's folder name under ``DIR/data``."""
        name = self.task_id.rsplit("-v", 1)[0].replace("/", "-")
        return f"{name}-video" if set(self.modalities) <= VIDEO_MODALITIES else name


def plan_suite(
    n: int,
    *,
    tasks: Sequence[str] | None = None,
    modalities: Sequence[str] | None = None,
    with_video: bool | None = None,
) -> list[SuitePart]:
    """The suite's datasets: each task (default: every registered one that is in the default suite and can be
    loaded, see :func:`foldbench.tasks.registry.default_suite_ids`) in each requested modality it has (default: all
    it has, video ones only when ``with_video``, by default when the encoder is installed). A task left out of the
    default suite is planned when it is named in ``tasks``.

    Raises:
        UnknownNameError: a task name is not registered.
        InvalidKnobError: a requested modality is one that no chosen task has.
    """
    from foldbench.tasks.registry import default_suite_ids, make, resolve

    with_video = video_available() if with_video is None else with_video
    chosen = [resolve(name) for name in tasks] if tasks else default_suite_ids()
    parts: list[SuitePart] = []
    seen: set[str] = set()
    for task_id in chosen:
        available = make(task_id).modalities
        seen.update(available)
        wanted = [m for m in available if (modalities is None or m in modalities)]
        if modalities is None and not with_video:
            wanted = [m for m in wanted if m not in VIDEO_MODALITIES]
        still = tuple(m for m in wanted if m not in VIDEO_MODALITIES)
        moving = tuple(m for m in wanted if m in VIDEO_MODALITIES)
        if still:
            parts.append(SuitePart(task_id, still, n))
        if moving:
            parts.append(SuitePart(task_id, moving, min(n, VIDEO_ITEMS)))
    unknown = sorted(set(modalities or ()) - seen)
    if unknown:
        hint = did_you_mean(unknown[0], sorted(seen))
        raise InvalidKnobError(
            f"no chosen task has the modality {unknown[0]!r} (they have {', '.join(sorted(seen))})."
            + (hint if hint.startswith(" Did") else "")
        )
    return parts


def _dataset(part: SuitePart, data: Path, seed: int, on_item: Callable[[], None] | None) -> None:
    from foldbench.tasks.dataset import MANIFEST_FILE, read_manifest, write_dataset

    wanted = {"n": part.n, "seed": seed, "modalities": list(part.modalities)}
    if (data / MANIFEST_FILE).exists():
        manifest = read_manifest(data)
        if {k: manifest.get(k) for k in wanted} == wanted and manifest.get("complete", True):
            return
    write_dataset(
        part.task_id,
        data,
        n=part.n,
        seed=seed,
        modalities=part.modalities,
        overwrite=True,
        on_item=(lambda _item: on_item()) if on_item is not None else None,
    )


def _options_for(spec: str, options: RunOptions) -> RunOptions:
    """The options of one model's runs: the endpoint only for ``openai:`` models; the baselines, which take no
    generation parameters, run in this process."""
    if spec in BASELINES:
        return replace(options, base_url=None, temperature=None, max_tokens=None, timeout_s=None, executor="local")
    return options if spec.startswith("openai:") else replace(options, base_url=None)


def run_suite(
    out: Path,
    parts: Sequence[SuitePart],
    *,
    seed: int = 0,
    models: Sequence[str] = (),
    options: RunOptions = RunOptions(),
    executor: Executor | None = None,
    on_start: Callable[[str, int], Callable[[], None] | None] | None = None,
) -> tuple[list[str], list[str], list[list[str]]]:
    """Generate (or reuse) each dataset under ``out/data``, evaluate the baselines and ``models`` in each of its
    modalities into ``out/runs.db``, write each run's report under ``out/reports`` and ``out/summary.md``.

    Every run is made with ``options`` (``base_url`` only for ``openai:`` models; the baselines take no generation
    parameters and always run in this process); ``models`` are built by ``executor`` (default: a local one; a Ray
    executor when the options name Ray, see :func:`foldbench.integrations.executors.executor_for`), which stays
    open for its caller.

    Returns the run names and the summary table (header, rows). ``on_start(description, total)`` may return a
    function called after each generated or evaluated item (progress bars).
    """
    from foldbench.tasks import make
    from foldbench.tasks.dataset import read_items

    db = out / "runs.db"
    local = LocalExecutor()
    if executor is None and options.executor != "local":
        raise UsageError(
            f"executor {options.executor!r} is not built here: pass "
            "executor=foldbench.integrations.executors.executor_for(options)"
        )
    run_names: list[str] = []
    for part in parts:
        data = out / "data" / part.folder
        _dataset(part, data, seed, on_start(f"generating {part.task_id}", part.n) if on_start else None)
        task, items = make(part.task_id), read_items(data)
        for spec in (*BASELINES, *models):
            for modality in part.modalities:
                config = EvalConfig(
                    task=part.task_id,
                    data=data,
                    model=spec,
                    db=db,
                    modality=modality,
                    options=_options_for(spec, options),
                )
                runs_on = local if spec in BASELINES else executor
                run_name, _ = run_dataset(config, executor=runs_on, on_start=on_start)
                run_names.append(run_name)
                with Store(db) as store:
                    write_report(store, run_name, out / "reports" / run_name, task=task, items=items)
    with Store(db) as store:
        header, rows = runs_overview(store, run_names)
    sizes = ", ".join(sorted({f"{p.n}" for p in parts}, key=int))
    lines = [
        "# foldbench suite",
        "",
        f"Items per dataset: {sizes}; seed {seed}. Each run's headline metric in percent with its 95 % interval.",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *["| " + " | ".join(row) + " |" for row in rows],
        "",
        "Each run's report: `reports/<run>/report.html` (and `report.md`).",
        "",
    ]
    (out / "summary.md").write_text("\n".join(lines), encoding="utf-8")
    return run_names, header, rows
