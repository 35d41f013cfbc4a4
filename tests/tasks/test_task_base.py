"""The task base: one knob and modality check for every family, item seeds that depend on (seed, index, salt)
alone, items built with the task's id and engine version."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.errors import InvalidKnobError
from foldbench.pfp.errors import PfpKnobError
from foldbench.tasks import make, task_ids
from foldbench.tasks.knobs import Knobs
from foldbench.tasks.task_base import TaskBase, check_range, item_rng, item_seed

SEEDS = st.integers(0, 2**32 - 1)
INDICES = st.integers(0, 10**6)
SALTS = st.lists(st.integers(0, 2**16), max_size=2).map(tuple)


@settings(max_examples=60, deadline=None)
@given(SEEDS, INDICES, SALTS)
def test_an_item_seed_is_a_function_of_seed_index_and_salt(seed: int, index: int, salt: tuple[int, ...]):
    chosen, rng = item_rng(seed, index, salt)
    again, rng_again = item_rng(seed, index, salt)
    assert chosen == again == item_seed(seed, index, salt)
    assert 0 <= chosen < 2**63
    assert rng.integers(2**62) == rng_again.integers(2**62)


@settings(max_examples=60, deadline=None)
@given(SEEDS, INDICES)
def test_neighbouring_items_and_salts_get_different_seeds(seed: int, index: int):
    seeds = {item_seed(seed, index), item_seed(seed, index + 1), item_seed(seed, index, (1,)),
             item_seed(seed + 1, index)}
    assert len(seeds) == 4


class _Toy(TaskBase):
    id = "toy/base-v1"
    modalities = ("text", "image")
    engine_version = "toy-3"


class _Size(Knobs):
    size: int = 8


class _Sized(_Toy):
    knob_schema = _Size
    knob_error = PfpKnobError


def test_a_modality_the_task_lacks_is_refused_before_its_knobs():
    with pytest.raises(InvalidKnobError, match=r"^toy/base-v1 has no modality 'video' \(it has text, image\)$"):
        _Sized().checked_knobs({"sise": 3}, ("text", "video"))


def test_knobs_are_refused_with_the_familys_error_and_a_suggestion():
    with pytest.raises(PfpKnobError, match="^toy/base-v1: unknown knob 'sise'. Did you mean: size"):
        _Sized().checked_knobs({"sise": 3}, ("text",))
    assert _Sized().checked_knobs({"size": "12"}, ("image",)).size == 12


def test_an_item_carries_the_tasks_id_and_engine_version():
    item = _Toy().new_item("base-00003", 77, {"text": "?"}, {"answer": "A"})
    assert (item.task, item.engine_version, item.seed, item.metadata) == ("toy/base-v1", "toy-3", 77, {})


@pytest.mark.parametrize(("n", "start"), [(-1, 0), (3, 4), (3, -1)])
def test_an_impossible_item_range_is_refused(n: int, start: int):
    with pytest.raises(InvalidKnobError, match="need 0 <= start <= n"):
        check_range("toy/base-v1", n, start)


def test_every_built_in_task_is_built_on_the_base():
    assert [task_id for task_id in task_ids() if not isinstance(make(task_id), TaskBase)] == []


@pytest.mark.parametrize(
    "task_id",
    ["mentalblackboard/prediction-v1", "pfp/single-step-v2", "origamispace/foldability-v2",
     "origamibench/one-step-associative-v5", "mentalblackboard/perception-v2"],
)  # fmt: skip
def test_every_family_refuses_a_missing_modality_and_an_unknown_knob_in_one_line(task_id: str):
    task = make(task_id)
    with pytest.raises(InvalidKnobError, match=f"^{task_id} has no modality 'smell'"):
        list(task.generate(1, 0, modalities=("smell",)))
    with pytest.raises(InvalidKnobError, match=f"^{task_id}: unknown knob 'no_such_knob'"):
        list(task.generate(1, 0, modalities=task.modalities[:1], knobs={"no_such_knob": 1}))


@pytest.mark.parametrize(
    "task_id", ["mentalblackboard/prediction-v1", "pfp/single-step-v2", "origamibench/one-step-associative-v5"]
)
def test_an_item_does_not_depend_on_the_range_it_is_generated_in(task_id: str):
    task = make(task_id)
    modality = task.modalities[:1]
    whole = list(task.generate(4, 9, modalities=modality))
    tail = list(task.generate(4, 9, modalities=modality, start=2))
    assert [i.model_dump_json() for i in whole[2:]] == [i.model_dump_json() for i in tail]
    assert len({i.seed for i in whole}) == 4
