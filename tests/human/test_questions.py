"""A participant's version of each question: the same pictures and facts as the model's prompt, no instruction on
writing JSON, the question itself kept for the panel beside the answer controls."""

from __future__ import annotations

from pathlib import Path

import pytest

from foldbench.human.forms import form_for
from foldbench.human.questions import HOW_TO_ANSWER, participant_question, study_title
from foldbench.messages import ImagePart, TextPart, VideoPart
from foldbench.tasks import make
from foldbench.tasks.dataset import read_items, write_dataset

CASES = [
    ("mentalblackboard/prediction", "text"),
    ("mentalblackboard/prediction", "image"),
    ("mentalblackboard/backward-prediction", "image"),
    ("mentalblackboard/generalization", "text"),
    ("mentalblackboard/planning", "image"),
    ("mentalblackboard/perception", "text"),
    ("mentalblackboard/perception", "image"),
    ("pfp/single-step", "image"),
    ("pfp/single-step-perception", "image"),
]


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("questions")


@pytest.mark.parametrize(("task_id", "modality"), CASES)
def test_the_participant_question_keeps_the_facts_and_drops_the_reply_format(root: Path, task_id: str, modality: str):
    data = root / f"{task_id.replace('/', '_')}-{modality}"
    if not data.exists():
        modalities = ("image",) if task_id.startswith("pfp/") else ("text", "image")
        write_dataset(task_id, data, n=3, seed=7, modalities=modalities)
    task = make(task_id)
    for item in read_items(data):
        prompt = task.render(item, modality)
        kind = form_for(task, item).kind
        question = participant_question(prompt, kind)
        model_text = "\n".join(p.text for p in prompt.parts if isinstance(p, TextPart))
        shown = "\n".join(p.text for p in question.material if isinstance(p, TextPart)) + "\n" + question.question
        assert "JSON" in model_text and "JSON" not in shown and '{"' not in shown
        assert question.question.endswith(HOW_TO_ANSWER[kind])
        assert question.question != HOW_TO_ANSWER[kind]  # the question itself is beside the controls
        # every picture and every fact line (holes, grids, choices) the model gets is shown
        pictures = [p for p in prompt.parts if isinstance(p, ImagePart | VideoPart)]
        assert [p for p in question.material if isinstance(p, ImagePart | VideoPart)] == pictures
        facts = [line for line in model_text.splitlines() if line.startswith(("- ", "Possible answers", "Question"))]
        assert all(line in shown for line in facts)
        assert question.files() == {p.path for p in pictures if p.path is not None}


def test_a_prompt_without_pictures_puts_its_last_paragraph_beside_the_controls():
    from foldbench.messages import Prompt

    prompt = Prompt(
        parts=(TextPart('Facts here.\n\nWhich one?\n\nReply with JSON, for example {"answer": "A"}.'),),
        template_version="t",
    )
    question = participant_question(prompt, "letters")
    assert question.material == (TextPart("Facts here."),)
    assert question.question == "Which one?\n\n" + HOW_TO_ANSWER["letters"]


def test_the_study_title_is_no_task_id():
    assert study_title("pfp/single-step-v2") == "Paper folding puzzles: single step"
    assert "/" not in study_title("mentalblackboard/prediction-v1")
