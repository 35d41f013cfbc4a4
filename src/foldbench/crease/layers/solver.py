"""Solve the layer-order constraints: propagate the crease assignment, split into independent components,
count each component's solutions (optionally up to a limit) and multiply.

Propagation is unit propagation over the tables of :mod:`foldbench.crease.layers.constraints`. A component is a
group of unassigned variables linked by constraints that still matter (not yet satisfied whatever the
remaining values); components are searched depth-first (first face above, then below), each assignment
followed by propagation. The loops run compiled (:mod:`foldbench.crease.layers._solver_kernels`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from foldbench.crease.errors import SelfIntersection
from foldbench.crease.layers import _solver_kernels as kernels
from foldbench.crease.layers.constraints import CONSTRAINT_NAMES, propagation_arrays
from foldbench.crease.layers.layer_constraints import LayerConstraints

__all__ = [
    "ROUND_FRACTION",
    "STAGE_LOCAL",
    "STAGE_PROPAGATION",
    "STAGE_SEARCH",
    "FIRST_BUDGETED_CAP",
    "ComponentSolutions",
    "LayerSolver",
    "ProgressCallback",
    "SolveResult",
]

FIRST_BUDGETED_CAP: int = 1024
"""Under a time budget, a component's first round counts up to this many solutions (later rounds are sized by
the measured rate, never smaller)."""

ROUND_FRACTION: float = 0.25
"""Under a time budget, each round of a component's count is sized to take about this fraction of the time left,
at the last round's rate (rounds continue one another, so small rounds waste nothing but a replay of the
search path)."""

_NO_RESUME = np.zeros(0, dtype=np.int8)

ProgressCallback = Callable[[int, int, int], None]
"""Called after each component, and after each budgeted round of a long one, with (components done,
components in all, states found so far)."""

STAGE_LOCAL: str = "local"
"""``where["stage"]`` of a self-intersection found from the local constraints, before transitivity is built."""
STAGE_PROPAGATION: str = "propagation"
"""``where["stage"]`` of a self-intersection found by propagating the crease assignment through every constraint."""
STAGE_SEARCH: str = "search"
"""``where["stage"]`` of a self-intersection found by searching a component (no solution)."""

_SLOT_COUNTS, _TABLE_STATE, _TABLE_FORCED = propagation_arrays()


@dataclass(frozen=True)
class ComponentSolutions:
    """One independent component of unassigned variables.

    Attributes:
        variables: the component's variable indices.
        solution_count: solutions found (capped at the limit when ``limited``).
        limited: True when the search stopped at the limit.
        first_solution: values of ``variables`` in the first solution found.
    """

    variables: tuple[int, ...]
    solution_count: int
    limited: bool
    first_solution: tuple[int, ...]


@dataclass(frozen=True)
class SolveResult:
    """Outcome of solving: forced values and the free components.

    Attributes:
        forced_values: value of every variable after propagating the crease assignment (0 if free).
        components: the independent components, smallest first.
        state_count: product of the components' solution counts (exact integer; a lower bound when ``stopped``).
        stopped: True when the time budget ended the search: ``state_count`` states at least exist.
        search_seconds: seconds spent searching the components.
    """

    forced_values: tuple[int, ...]
    components: tuple[ComponentSolutions, ...]
    state_count: int
    stopped: bool = False
    search_seconds: float = 0.0


class LayerSolver:
    """Propagation and search over one set of layer constraints (mutable working state)."""

    def __init__(self, constraints: LayerConstraints) -> None:
        self.constraints = constraints
        variable_count = len(constraints.variables_faces)
        self.values = np.zeros(variable_count, dtype=np.int8)
        self.reasons = np.full(variable_count, -1, dtype=np.int64)
        self.trail = np.zeros(variable_count + 1, dtype=np.int64)
        self.trail_length = 0
        self.arrays = constraints.kernel_arrays()
        self.touching_offsets, self.touching = kernels.constraints_of_variables(self.arrays, variable_count)

    def _arrays(self) -> tuple:
        return (self.touching_offsets, self.touching, self.arrays, _SLOT_COUNTS, _TABLE_STATE, _TABLE_FORCED)

    def assign(self, seeds: list[tuple[int, int]]) -> int:
        """Assign ``(variable, value)`` seeds and propagate; return -1, or a violated constraint (-2: seeds clash)."""
        head = self.trail_length
        for variable, value in seeds:
            if self.values[variable] == 0:
                self.values[variable] = value
                self.reasons[variable] = -1
                self.trail[self.trail_length] = variable
                self.trail_length += 1
            elif self.values[variable] != value:
                return -2
        conflict, self.trail_length = kernels.propagate_from(
            head, self.trail_length, self.values, self.trail, self.reasons, *self._arrays()
        )
        return int(conflict)

    def conflict_faces(self, constraint: int) -> list[int]:
        """Faces involved in a conflict: the constraint's faces and those of the constraints that forced it."""
        faces: set[int] = set(self.constraints.faces_of(constraint))
        pending = self.constraints.variables_of(constraint)
        seen: set[int] = set()
        while pending and len(seen) < 10_000:
            variable = pending.pop()
            if variable in seen:
                continue
            seen.add(variable)
            faces.update(int(f) for f in self.constraints.variables_faces[variable])
            reason = int(self.reasons[variable])
            if reason >= 0 and self.values[variable]:
                pending.extend(self.constraints.variables_of(reason))
        return sorted(faces)

    def raise_conflict(self, constraint: int, stage: str, stage_code: str = STAGE_PROPAGATION) -> None:
        """Raise :class:`SelfIntersection` for a violated constraint; ``where["stage"]`` is ``stage_code``."""
        kind = CONSTRAINT_NAMES[self.constraints.kind_of(constraint)]
        faces = self.constraints.faces_of(constraint)
        raise SelfIntersection(
            "E_PHYS_SELF_INTERSECTION",
            f"no layer order exists: a {kind} constraint on faces {faces} cannot be satisfied ({stage})",
            {"constraint_type": kind, "faces": faces, "conflicting_faces": self.conflict_faces(constraint),
             "stage": stage_code},
        )

    def raise_conflict_between_seeds(self, stage_code: str = STAGE_PROPAGATION) -> None:
        """Raise :class:`SelfIntersection` for two creases that force opposite orders on one pair of faces."""
        raise SelfIntersection(
            "E_PHYS_SELF_INTERSECTION", "two creases force opposite orders on the same pair of faces",
            {"stage": stage_code},
        )

    def components(self) -> list[np.ndarray]:
        """Groups of unassigned variables linked by constraints that are not yet decided (smallest first)."""
        states = kernels.constraint_states(self.values, self.arrays, _SLOT_COUNTS, _TABLE_STATE)
        labels = kernels.component_labels(self.values, self.arrays, _SLOT_COUNTS, states)
        free = np.flatnonzero(labels >= 0)
        if not len(free):
            return []
        order = np.lexsort((free, labels[free]))
        sorted_free = free[order]
        boundaries = np.flatnonzero(np.diff(labels[sorted_free])) + 1
        groups = np.split(sorted_free, boundaries)
        return sorted(groups, key=lambda group: (len(group), int(group[0])))

    def enumerate_component(
        self, variables: np.ndarray, limit: int | None, keep_index: int = 0
    ) -> tuple[int, bool, tuple[int, ...]]:
        """Count the component's solutions (up to ``limit``); return the count, whether it was capped, and
        the values of solution number ``keep_index`` (empty if there are fewer solutions)."""
        count, limited, kept, _ = self._enumerate(variables, limit, keep_index, _NO_RESUME)
        return count, limited, kept

    def _enumerate(
        self, variables: np.ndarray, limit: int | None, keep_index: int, resume: np.ndarray
    ) -> tuple[int, bool, tuple[int, ...], np.ndarray]:
        count, limited, kept, path = kernels.enumerate_component(
            np.ascontiguousarray(variables, dtype=np.int64), 0 if limit is None else int(limit), int(keep_index),
            self.trail_length, self.values, self.trail, self.reasons, *self._arrays(), resume,
        )
        return int(count), bool(limited), tuple(kept.tolist()), path

    def _count_within(
        self, group: np.ndarray, limit: int | None, deadline: float | None,
        on_round: Callable[[int], None] | None = None,
    ) -> tuple[int, bool, tuple[int, ...], bool]:
        """Count a component's solutions, stopping at ``deadline`` (perf_counter seconds) if given.

        Under a deadline the count runs in rounds, each going on from where the last one stopped (nothing is
        counted twice), sized by the measured rate to take about ``ROUND_FRACTION`` of the time left; the
        search stops after the round during which the deadline passes. ``on_round`` is told the solutions
        found after each round. Returns the count, whether it was capped, the first solution, and whether the
        deadline stopped it.
        """
        if deadline is None:
            return (*self.enumerate_component(group, limit), False)
        total, first, resume = 0, (), _NO_RESUME
        cap = FIRST_BUDGETED_CAP
        while True:
            effective = cap if limit is None else min(cap, limit - total)
            started = time.perf_counter()
            count, limited, kept, resume = self._enumerate(group, effective, 0 if total == 0 else -1, resume)
            now = time.perf_counter()
            if total == 0:
                first = kept
            total += count
            if not limited:
                return total, False, first, False
            if limit is not None and total >= limit:
                return total, True, first, False
            if on_round is not None:
                on_round(total)
            if now >= deadline:
                return total, True, first, True
            rate = count / max(now - started, 1e-6)
            cap = max(FIRST_BUDGETED_CAP, int(rate * (deadline - now) * ROUND_FRACTION))

    def solve(
        self, seeds: list[tuple[int, int]], limit: int | None = None, *, timeout: float | None = None,
        progress: ProgressCallback | None = None,
    ) -> SolveResult:
        """Propagate the crease assignment, split into components and count each one's solutions.

        With ``timeout`` (seconds), counting stops when the budget ends: the components not yet counted are
        only checked to have a solution, and the result says ``stopped`` (its count is a lower bound).

        Raises:
            SelfIntersection: the assignment forces a conflict, or a component has no solution.
        """
        started = time.perf_counter()
        deadline = None if timeout is None else started + timeout
        conflict = self.assign(seeds)
        if conflict == -2:
            self.raise_conflict_between_seeds()
        if conflict >= 0:
            self.raise_conflict(conflict, "while propagating the mountain-valley assignment")
        forced = tuple(self.values.tolist())
        results = []
        state_count = 1
        stopped = False
        groups = self.components()
        for index, group in enumerate(groups):
            if stopped:
                count, limited, first = self.enumerate_component(group, 1)
                limited = True
            else:
                def on_round(found: int, done: int = index, so_far: int = state_count) -> None:
                    if progress is not None:
                        progress(done, len(groups), so_far * found)

                count, limited, first, stopped = self._count_within(group, limit, deadline, on_round)
            if count == 0:
                faces = sorted({int(f) for v in group for f in self.constraints.variables_faces[v]})
                raise SelfIntersection(
                    "E_PHYS_SELF_INTERSECTION",
                    f"no layer order exists: component {index} ({len(group)} face pairs) has no solution",
                    {"component": index, "faces": faces[:200], "face_count": len(faces), "stage": STAGE_SEARCH},
                )
            results.append(ComponentSolutions(tuple(group.tolist()), count, limited, first))
            state_count *= count
            if progress is not None:
                progress(index + 1, len(groups), state_count)
        return SolveResult(forced, tuple(results), state_count, stopped, time.perf_counter() - started)
