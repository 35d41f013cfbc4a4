"""A human-baseline session: one dataset, one run store, any number of participants (one run each).

Every answer goes through the same store calls as a model's reply (a turn with the request's key and the reply
text, then the item's score), committed before the next page is shown; what a participant has answered is read
back from the store, so a reload, a new browser or a restarted server resumes at the first unanswered item.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from foldbench import __version__
from foldbench.harness.store import RunInfo, Store, TurnRecord
from foldbench.human.forms import AnswerForm, FormError, form_for, parse_post
from foldbench.models.base import ModelReply
from foldbench.models.fingerprint import conversation_record, record_fingerprint
from foldbench.tasks.base import Item, Prompt, Task

__all__ = ["HUMAN_MODEL", "HumanSession", "Page", "participant_run", "valid_participant"]

HUMAN_MODEL = "human"
_PARTICIPANT = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
#: A page shown longer ago than this (or in the future) gives an implausible time: the post is refused.
_MAX_ANSWER_MS = 7 * 24 * 3600 * 1000


def valid_participant(participant: str) -> bool:
    """Participant ids are 1–32 letters, digits, ``_`` or ``-``."""
    return bool(_PARTICIPANT.fullmatch(participant))


def participant_run(run: str, participant: str) -> str:
    """The run that holds one participant's answers, ``RUN-PARTICIPANT``."""
    return f"{run}-{participant}"


@dataclass(frozen=True, slots=True)
class Page:
    """What the next page of a participant shows: an item with its prompt and form (None when all are done),
    its position, the number of items and how many the participant has answered."""

    item: Item | None
    prompt: Prompt | None
    form: AnswerForm | None
    position: int
    total: int
    answered: int


class HumanSession:
    """Serves one dataset's items to participants and stores their answers (see the module docstring)."""

    def __init__(self, *, task: Task, items: Sequence[Item], data: Path, db: Path, run: str, modality: str) -> None:
        self.task = task
        self.items = list(items)
        self.by_id = {item.id: item for item in self.items}
        self.data = Path(data).resolve()
        self.db = Path(db)
        self.run = run
        self.modality = modality
        self.forms = {item.id: form_for(task, item) for item in self.items}
        self.template_version = task.render(self.items[0], modality).template_version if self.items else ""

    def _info(self, participant: str) -> RunInfo:
        return RunInfo(
            name=participant_run(self.run, participant),
            task=self.task.id,
            dataset=str(self.data),
            engine_version=self.items[0].engine_version if self.items else "",
            model=HUMAN_MODEL,
            params={"participant": participant},
            modality=self.modality,
            template_version=self.template_version,
            foldbench_version=__version__,
            created=datetime.now(UTC).isoformat(timespec="seconds"),
        )

    def next_page(self, participant: str) -> Page:
        """The first item the participant has not answered (in dataset order)."""
        self._check(participant)
        with Store(self.db) as store:
            store.open_run(self._info(participant))
            done = store.scored_items(participant_run(self.run, participant))
        answered = sum(item.id in done for item in self.items)
        for position, item in enumerate(self.items):
            if item.id not in done:
                prompt = self.task.render(item, self.modality)
                return Page(item, prompt, self.forms[item.id], position, len(self.items), answered)
        return Page(None, None, None, len(self.items), len(self.items), answered)

    def answer(self, participant: str, item_id: str, fields: Mapping[str, Sequence[str]], elapsed_ms: int) -> bool:
        """Store a posted answer to ``item_id`` like a model's reply, with the time the server measured; returns
        False when the item was already answered (a repeated post stores nothing). Raises :class:`FormError` for a
        post that is not an answer. Which item a participant may answer is the server's decision (see
        :mod:`foldbench.human.visits`)."""
        self._check(participant)
        if item_id not in self.by_id:
            raise FormError("unknown item")
        if not 0 <= elapsed_ms <= _MAX_ANSWER_MS:
            raise FormError("the item was shown too long ago to time the answer")
        item = self.by_id[item_id]
        text, answer = parse_post(self.task, item, self.forms[item.id], fields)
        scores = self.task.score(item, answer)
        run = participant_run(self.run, participant)
        info = self._info(participant)
        with Store(self.db) as store:
            store.open_run(info)
            if item.id in store.scored_items(run):
                return False
            record = conversation_record(self.task.render(item, self.modality).conversation(), self.data)
            key = record_fingerprint(HUMAN_MODEL, info.params, record)
            reply = ModelReply(text, None, None, elapsed_ms / 1000, 1, None, None, "human")
            response_id = store.record_turn(
                run=run,
                item_id=item.id,
                turn=TurnRecord(0, key, record),
                model=HUMAN_MODEL,
                params=info.params,
                reply=reply,
            )
            store.record_score(
                run=run,
                item_id=item.id,
                key=key,
                response_id=response_id,
                cached=False,
                scores=scores,
                answer=answer.model_dump_json(),
                parse_failure=None,
                metadata=item.metadata,
            )
        return True

    def _check(self, participant: str) -> None:
        if not valid_participant(participant):
            raise FormError("a participant id is 1–32 letters, digits, '_' or '-'")
