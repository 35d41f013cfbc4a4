from __future__ import annotations

from pathlib import Path

from foldbench.tasks import make
from foldbench.tasks.dataset import read_items


def prompt_index(dataset: Path, modality: str = "text") -> dict[str, object]:
    """Prompt text -> item, as the server sees the text parts."""
    task = make("mentalblackboard/prediction")
    index = {}
    for item in read_items(dataset):
        prompt = task.render(item, modality)
        index["\n".join(p.text for p in prompt.parts if hasattr(p, "text"))] = item
    return index
