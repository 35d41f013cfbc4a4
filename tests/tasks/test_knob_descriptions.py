"""Knob descriptions come from the docstrings under each knob's declaration, read when a listing asks for them:
defining a schema reads no source (an evaluation imports the schemas of its task and never lists them)."""

from __future__ import annotations

import linecache
from typing import Any

import pytest
from pydantic import Field

from foldbench.tasks import make, task_ids
from foldbench.tasks.knobs import Knobs, knob_infos
from foldbench.tasks.mentalblackboard.knobs import GeneralizationKnobs, PredictionKnobs


class _Base(Knobs):
    size: int = 8
    """Picture size
    in pixels."""
    side: str = "front"
    """Which side."""


class _Child(_Base):
    side: str = "back"
    depth: int = Field(default=2, description="Given explicitly.")
    """Not this one."""
    plain: int = 0


def _described(schema: type[Knobs]) -> dict[str, str]:
    return {info.name: info.description for info in knob_infos(schema)}


def test_a_description_is_the_docstring_of_the_class_that_declares_the_knob_last() -> None:
    assert _described(_Base) == {"size": "Picture size in pixels.", "side": "Which side."}
    # side is declared again without a docstring; an explicit description wins over a docstring
    assert _described(_Child) == {"size": "Picture size in pixels.", "side": "", "depth": "Given explicitly.",
                                  "plain": ""}  # fmt: skip


def test_the_mentalblackboard_schemas_keep_their_own_wording() -> None:
    prediction, generalization = _described(PredictionKnobs), _described(GeneralizationKnobs)
    assert prediction["groups"].endswith("default: all nine.")
    assert generalization["groups"].endswith("default: 1-4.")
    assert prediction["size"] == generalization["size"] and prediction["size"].startswith("Picture size in pixels")


@pytest.mark.parametrize("task_id", task_ids())
def test_every_knob_of_every_task_is_described(task_id: str) -> None:
    for info in knob_infos(make(task_id).knob_schema):
        assert info.description, (task_id, info.name)


def test_defining_a_schema_reads_no_source(monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []
    real = linecache.getlines

    def counting(filename: str, *args: Any) -> list[str]:
        read.append(filename)
        return real(filename, *args)

    monkeypatch.setattr(linecache, "getlines", counting)

    class Defined(Knobs):
        count: int = 1
        """How many."""

    assert read == []
    assert _described(Defined) == {"count": "How many."}
    assert read  # the listing did read it
