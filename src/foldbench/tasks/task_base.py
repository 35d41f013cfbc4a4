"""What every family's task repeats when it generates items, in one place.

:class:`TaskBase` holds a task's identity (``id``, ``name``, ``modalities``, ``knob_schema``, ``engine_version``)
and the steps every generator takes:

* :meth:`TaskBase.checked_knobs` checks the requested modalities and validates the knobs against the schema, in that
  order, each with a one-line error naming the task (of the family's error type, :attr:`TaskBase.knob_error`);
* :meth:`TaskBase.check_modality` refuses to render in a modality the task does not have;
* :meth:`TaskBase.item_rng` derives item ``i``'s seed and random generator from ``(seed, i)`` and the task's
  :attr:`TaskBase.item_salt` alone (:func:`item_rng`), so items can be generated in any order or in parallel;
* :meth:`TaskBase.new_item` builds the :class:`~foldbench.tasks.base.Item` with the task's id and engine version.

A task also says how a person answers it (:meth:`TaskBase.human_form`, see :mod:`foldbench.tasks.answer_forms`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from foldbench.errors import InvalidKnobError
from foldbench.tasks.answer_forms import HumanForm
from foldbench.tasks.base import Item, check_modalities
from foldbench.tasks.knobs import Knobs, parse_knobs

if TYPE_CHECKING:
    import numpy as np

__all__ = ["TaskBase", "check_range", "item_rng", "item_seed"]


def item_seed(seed: int, index: int, salt: Sequence[int] = ()) -> int:
    """The seed of item ``index`` of a dataset seeded with ``seed``: 63 bits drawn from ``(seed, index, *salt)``.

    >>> item_seed(0, 0) == item_seed(0, 0) != item_seed(0, 1)
    True
    """
    import numpy as np

    state = np.random.SeedSequence([seed, index, *salt]).generate_state(1, dtype=np.uint64)
    return int(state[0] >> 1)


def item_rng(seed: int, index: int, salt: Sequence[int] = ()) -> tuple[int, np.random.Generator]:
    """:func:`item_seed` and a generator seeded with it (item ``index`` depends on no other item).

    >>> int(item_rng(3, 1, (7,))[1].integers(100)) == int(item_rng(3, 1, (7,))[1].integers(100))
    True
    """
    import numpy as np

    chosen = item_seed(seed, index, salt)
    return chosen, np.random.default_rng(chosen)


def check_range(task_id: str, n: int, start: int, error_type: type[InvalidKnobError] = InvalidKnobError) -> None:
    """Refuse an item range other than ``0 <= start <= n``.

    >>> check_range("toy/task-v1", 4, 5)
    Traceback (most recent call last):
    ...
    foldbench.errors.InvalidKnobError: toy/task-v1: need 0 <= start <= n, got start 5 and n 4
    """
    if n < 0 or not 0 <= start <= n:
        raise error_type(f"{task_id}: need 0 <= start <= n, got start {start} and n {n}")


class TaskBase:
    """The shared half of a task: identity, knob and modality checks, item seeds and item records.

    A subclass sets the class attributes below and writes ``generate`` with :meth:`checked_knobs`, :meth:`item_rng`
    and :meth:`new_item`; the protocol's other methods stay its own.
    """

    id: str = ""
    """Versioned id, ``family/name-vN``."""
    name: str = ""
    """The stem of the task's item ids (``<name>-00017``)."""
    modalities: tuple[str, ...] = ("text",)
    """The encodings the task can write."""
    knob_schema: type[Knobs] = Knobs
    """The schema its knobs are validated against."""
    engine_version: ClassVar[str] = ""
    """The version of the engine that computes the ground truth (written into every item)."""
    knob_error: ClassVar[type[InvalidKnobError]] = InvalidKnobError
    """The error a bad knob or modality raises (a family may use a subclass of its own)."""
    item_salt: ClassVar[tuple[int, ...]] = ()
    """Mixed into every item seed after ``(seed, index)`` so that tasks sharing a seed draw different items."""

    def checked_knobs(self, knobs: Mapping[str, Any] | None, modalities: Sequence[str]) -> Any:
        """The knobs validated against :attr:`knob_schema`, after checking that the task has every requested
        modality; a one-line :attr:`knob_error` names the first bad modality or knob."""
        self.check_modalities(modalities)
        return parse_knobs(self.knob_schema, self.id, knobs, error_type=self.knob_error)

    def check_modalities(self, modalities: Sequence[str]) -> None:
        """Refuse the first of ``modalities`` the task cannot write."""
        check_modalities(self.id, modalities, self.modalities, self.knob_error)

    def check_modality(self, modality: str) -> None:
        """Refuse to render in a modality the task does not have."""
        self.check_modalities((modality,))

    def item_rng(self, seed: int, index: int) -> tuple[int, np.random.Generator]:
        """Item ``index``'s seed and generator (:func:`item_rng` with the task's :attr:`item_salt`)."""
        return item_rng(seed, index, self.item_salt)

    def new_item(
        self,
        item_id: str,
        seed: int,
        inputs: dict[str, Any],
        target: dict[str, Any],
        metadata: dict[str, Any] | None = None,
    ) -> Item:
        """The item record of this task and engine version."""
        return Item(
            id=item_id,
            task=self.id,
            seed=seed,
            engine_version=self.engine_version,
            inputs=inputs,
            target=target,
            metadata=metadata if metadata is not None else {},
        )

    def human_form(self, item: Item) -> HumanForm | None:
        """How a person answers ``item`` (see :mod:`foldbench.tasks.answer_forms`), or None when people cannot
        answer this task yet; a task people can answer overrides this."""
        return None
