"""What a fresh ``foldbench eval`` process imports for a MentalBlackboard text dataset and a model over HTTP: only
the text path (no imaging, template, plotting, JIT, environment, columnar or geometry library, no other family's
engine, no metrics or report writer; with stderr not a terminal no console library, since no progress bar is
drawn; no export reader for a dataset directory; no reader of published records; no process pool)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import foldbench
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items
from foldbench.testing.fake_openai import always, reply
from tests.support.cli import fresh_run_modules

HEAVY_LIBRARIES = {
    "PIL", "jinja2", "matplotlib", "numba", "llvmlite", "gymnasium", "pyarrow", "shapely", "numpy",
    "imageio", "av", "scipy", "transformers", "torch", "ray", "rich", "multiprocessing", "aiohttp", "yarl",
}  # fmt: skip
"""aiohttp is among them: the requests go through the adapter's transport (:mod:`foldbench.models._http`: h11
writes the request heads, httptools parses the replies), and aiohttp, with its TLS
contexts built at import, serves only the browser driver of the human-page tests."""

FOREIGN_PACKAGES = (
    "foldbench.pfp",  # the Paper Folding Puzzles engine
    "foldbench.crease",
    "foldbench.origami",
    "foldbench.envs",
    "foldbench.tasks.pfp.",
    "foldbench.tasks.origamibench.",
    "foldbench.tasks.origamispace.",
    "foldbench.pft.encoders.image",
    "foldbench.pft.encoders.video",
    "foldbench.harness.metrics",
    "foldbench.harness.stats",
    "foldbench.harness.report",
    "foldbench.text.prompts",
    "foldbench.export",  # the Hugging Face export reader: --data is a dataset directory
    "foldbench.tasks.mentalblackboard.published",  # the published records: only generating from them reads them
    "foldbench.pft.records",
)


def _fresh_eval(dataset: Path, db: Path, base_url: str) -> tuple[Any, set[str], str]:
    env = {**os.environ, "PYTHONPATH": str(Path(foldbench.__file__).parents[1])}
    for name in ("OPENAI_API_KEY", "FORCE_COLOR", "TTY_COMPATIBLE"):  # stderr is a pipe, and nothing says otherwise
        env.pop(name, None)
    args = ["eval", "-t", "mentalblackboard/prediction", "-d", str(dataset), "-m", "openai:bench", "--base-url",
            base_url, "--modality", "text", "--db", str(db)]  # fmt: skip
    return fresh_run_modules(args, env)


def test_a_text_eval_over_http_imports_only_the_text_path(
    tmp_path: Path, prediction_dataset: Path, fake_openai_server: Any
) -> None:
    task = make("mentalblackboard/prediction")
    answer = task.oracle(read_items(prediction_dataset)[0]).model_dump_json()
    server = fake_openai_server(always(reply(answer)))
    code, modules, output = _fresh_eval(prediction_dataset, tmp_path / "runs.db", server.base_url)
    assert code in (0, None) and "12/12 items scored, 12 requests sent" in output, output
    assert len(server.requests) == 12
    assert {name.split(".")[0] for name in modules} & HEAVY_LIBRARIES == set()
    assert sorted(name for name in modules if name.startswith(FOREIGN_PACKAGES)) == []
    assert "foldbench.tasks.mentalblackboard.wording" in modules  # the prompts were worded in this process
    assert {"h11", "httptools"} <= modules  # the requests went through the adapter's own transport
