"""How a person answers a task's item: each task declares its form, the human pages draw it.

A form is one of four kinds, each posting the reply the task's own prompt asks a model for:

* ``holes`` — the holes on the unfolded sheet (triangles clicked, each with shape, size and direction) and the
  unfolding steps (MentalBlackboard's prediction tasks);
* ``plan`` — the folds and the punched holes (MentalBlackboard's planning);
* ``letters`` — one option letter of :attr:`HumanForm.choices` (A–D by default; every multiple-choice task);
* ``choice`` — one of the answers the item offers, as text (perception probes).

A task gives its form with ``human_form(item)`` (see :class:`~foldbench.tasks.task_base.TaskBase`); a task of
any package gets a human page by returning one, with no change to :mod:`foldbench.human`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["FORM_KINDS", "FormKind", "HumanForm"]

FormKind = Literal["holes", "plan", "letters", "choice"]
FORM_KINDS: tuple[FormKind, ...] = ("holes", "plan", "letters", "choice")


@dataclass(frozen=True, slots=True)
class HumanForm:
    """The answer form of one item: its kind and, for ``letters`` and ``choice``, the answers offered.

    >>> HumanForm.letters().choices
    ('A', 'B', 'C', 'D')
    >>> HumanForm.choice(["2", "3"])
    HumanForm(kind='choice', choices=('2', '3'))
    """

    kind: FormKind
    choices: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in FORM_KINDS:
            raise ValueError(f"answer form kind must be one of {', '.join(FORM_KINDS)}, got {self.kind!r}")
        if self.kind in ("letters", "choice") and not self.choices:
            raise ValueError(f"a {self.kind!r} answer form offers at least one answer")

    @classmethod
    def holes(cls) -> HumanForm:
        """Holes on the unfolded sheet and the unfolding steps."""
        return cls("holes")

    @classmethod
    def plan(cls) -> HumanForm:
        """Folds and punched holes."""
        return cls("plan")

    @classmethod
    def letters(cls, letters: tuple[str, ...] = ("A", "B", "C", "D")) -> HumanForm:
        """One option letter."""
        return cls("letters", tuple(letters))

    @classmethod
    def choice(cls, choices: list[str] | tuple[str, ...]) -> HumanForm:
        """One of the answers offered as text."""
        return cls("choice", tuple(str(c) for c in choices))
