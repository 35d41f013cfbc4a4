from __future__ import annotations

from pathlib import Path

import pytest

from foldbench.tasks import make
from foldbench.tasks.dataset import read_items, write_dataset
from tests.support.fake_openai import fake_openai_server  # noqa: F401  (fixture)


@pytest.fixture(scope="module")
def prediction_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("data") / "prediction"
    write_dataset("mentalblackboard/prediction", out, n=12, seed=3, modalities=("text", "image"))
    return out


def prompt_index(dataset: Path, modality: str = "text") -> dict[str, object]:
    """Prompt text -> item, as the server sees the text parts."""
    task = make("mentalblackboard/prediction")
    index = {}
    for item in read_items(dataset):
        prompt = task.render(item, modality)
        index["\n".join(p.text for p in prompt.parts if hasattr(p, "text"))] = item
    return index
