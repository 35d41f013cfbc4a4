"""Each task declares its own answer form: a task the human pages have never heard of is served with the form it
declares, and every built-in task's declared form is the one its answers need."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pydantic import BaseModel

from foldbench.errors import FoldbenchError
from foldbench.harness.store import Store
from foldbench.human.forms import FormError, form_for
from foldbench.human.pages import item_page
from foldbench.human.questions import participant_question
from foldbench.human.session import HumanSession
from foldbench.messages import Prompt, TextPart
from foldbench.tasks import make
from foldbench.tasks.answer_forms import HumanForm
from foldbench.tasks.base import Item, ParseFailure, Scores, TaskSpec
from foldbench.tasks.choice import Choice, parse_choice, score_choice
from foldbench.tasks.spec import Metric
from foldbench.tasks.task_base import TaskBase


class ThreeWayTask(TaskBase):
    """A toy task of three options A-C: a form of three letters, which no built-in task has."""

    id = "toy/three-way-v1"
    name = "three-way"
    modalities = ("text",)
    engine_version = "toy-1"

    @property
    def spec(self) -> TaskSpec:
        return TaskSpec(engine_version=self.engine_version, metrics=(Metric("accuracy"),), headline="accuracy")

    def generate(self, n: int, seed: int, *, modalities: tuple[str, ...] = ("text",),
                 knobs: Mapping[str, Any] | None = None, start: int = 0) -> Iterator[Item]:  # fmt: skip
        self.checked_knobs(knobs, modalities)
        for index in range(start, n):
            item_seed, rng = self.item_rng(seed, index)
            answer = "ABC"[int(rng.integers(3))]
            yield self.new_item(f"three-way-{index:02d}", item_seed, {"text": f"Pick {answer}."}, {"answer": answer})

    def assets(self, item: Item) -> Iterator[tuple[str, bytes]]:
        return iter(())

    def render(self, item: Item, modality: str = "text") -> Prompt:
        self.check_modality(modality)
        return Prompt((TextPart(item.inputs["text"] + " Which of A, B or C?"),), template_version="toy-1")

    def parse(self, item: Item, text: str) -> BaseModel | ParseFailure:
        return parse_choice(text)

    def score(self, item: Item, answer: BaseModel | ParseFailure) -> Scores:
        return score_choice(item.target["answer"], answer)

    def oracle(self, item: Item) -> BaseModel:
        return Choice(answer=item.target["answer"])

    def random_answer(self, item: Item, rng: np.random.Generator) -> BaseModel:
        return Choice(answer="ABC"[int(rng.integers(3))])  # type: ignore[arg-type]

    def human_form(self, item: Item) -> HumanForm:
        return HumanForm.letters(("A", "B", "C"))


class NoFormTask(ThreeWayTask):
    id = "toy/no-form-v1"

    def human_form(self, item: Item) -> None:  # type: ignore[override]
        return None


def _session(task: TaskBase, tmp_path: Path) -> HumanSession:
    items = list(task.generate(2, 11))
    return HumanSession(task=task, items=items, data=tmp_path, db=tmp_path / "runs.db", run="study", modality="text")


def test_a_task_defined_elsewhere_is_served_with_the_form_it_declares(tmp_path: Path):
    session = _session(ThreeWayTask(), tmp_path)
    page = session.next_page("ann")
    assert page.item is not None and page.form is not None and page.prompt is not None
    html = item_page(
        title="toy", item=page.item, question=participant_question(page.prompt, page.form.kind), form=page.form,
        form_token="t", position=page.position, total=page.total,
    )  # fmt: skip
    buttons = [part.split('"', 1)[0] for part in html.split('name="choice" value="')[1:]]
    assert buttons == ["A", "B", "C"]
    with pytest.raises(FormError):
        session.answer("ann", page.item.id, {"choice": ["D"]}, 1000)  # not one of the task's letters
    assert session.answer("ann", page.item.id, {"choice": [page.item.target["answer"]]}, 1000)
    with Store(session.db) as store:
        (row,) = list(store.scores("study-ann"))
    assert row.values["accuracy"] == 1.0


def test_a_task_that_declares_no_form_is_refused_in_one_line(tmp_path: Path):
    with pytest.raises(FoldbenchError, match="toy/no-form-v1 has no answer form for people yet"):
        _session(NoFormTask(), tmp_path)


@pytest.mark.parametrize(
    ("task_id", "modality", "kind"),
    [
        ("mentalblackboard/prediction", "text", "holes"),
        ("mentalblackboard/planning", "text", "plan"),
        ("pfp/single-step", "image", "letters"),
        ("origamispace/foldability", "image", "letters"),
        ("mentalblackboard/perception", "text", "choice"),
    ],
)
def test_the_built_in_tasks_declare_the_form_their_answers_need(task_id: str, modality: str, kind: str):
    task = make(task_id)
    item = next(iter(task.generate(1, 4, modalities=(modality,))))
    form = form_for(task, item)
    assert form.kind == kind
    if kind == "choice":
        assert form.choices and item.target["answer"] in form.choices
    if kind == "letters":
        assert item.target["answer"] in form.choices
