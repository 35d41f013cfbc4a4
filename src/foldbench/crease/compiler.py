"""The crease-pattern compiler: crease pattern in, folded states (or a precise error) out."""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from foldbench.crease import budget
from foldbench.crease.errors import AmbiguousFoldedState, CreasePatternError, PrecisionProblem, SelfIntersection
from foldbench.crease.graph.local_checks import LocalCheckReport, check_vertices
from foldbench.crease.graph.pattern import CreasePattern
from foldbench.crease.graph.regularize import REGULARIZED_MISMATCH
from foldbench.crease.layers.cells import OverlapCells
from foldbench.crease.layers.constraints import ABOVE, BELOW
from foldbench.crease.layers.folding import FoldedGeometry, fold_faces
from foldbench.crease.layers.layer_constraints import LayerConstraints
from foldbench.crease.layers.solver import STAGE_LOCAL, LayerSolver, ProgressCallback, SolveResult
from foldbench.crease.precision.folded_gaps import (
    FoldedGap,
    GapJudge,
    amplifies_noise,
    doubted_verdict,
    gap_noise_closes,
    narrow_gaps,
    noise_judge,
    unresolved_open_gaps,
    verdict_resting_on_noise,
)
from foldbench.crease.precision.overlay import build_overlay
from foldbench.crease.precision.policy import DEFAULT_POLICY, PrecisionPolicy

__all__ = ["REGULARIZED_MISMATCH", "CompiledFold", "compile_crease_pattern", "crease_assignment_orders"]


@dataclass(frozen=True)
class CompiledFold:
    """Everything the compiler found about one crease pattern.

    Attributes:
        pattern: the planarised crease pattern.
        local_checks: Kawasaki errors and precision warnings of the vertex checks.
        folded: folded vertex coordinates and face flips.
        cells: overlap cells and the faces covering them.
        constraints: variables and constraints.
        solution: forced values, components with their counts, the total number of states.
        limit: the per-component cap used (None: every state counted).
        timings: seconds per stage.
        warnings: non-fatal remarks (planarisation, imprecise vertices, ambiguity).
        folded_tolerance: the folded-state tolerance the overlay was built at (paper size = 1).
        input_precision: how far the input's points seem moved by noise (paper size = 1; 0 for exact input),
            measured from the input itself (:mod:`foldbench.crease.precision.measure`).
        regularized_moved: 0, or, when the states are those of the regularised pattern (see
            :func:`compile_crease_pattern`), the largest distance a vertex was moved (paper size = 1).
    """

    pattern: CreasePattern
    local_checks: LocalCheckReport
    folded: FoldedGeometry
    cells: OverlapCells
    constraints: LayerConstraints
    solution: SolveResult
    limit: int | None
    timings: dict[str, float] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    folded_tolerance: float = DEFAULT_POLICY.folded_distance
    input_precision: float = 0.0
    regularized_moved: float = 0.0

    @property
    def state_count(self) -> int:
        """Number of flat-folded states (product over components; capped per component by ``limit``)."""
        return self.solution.state_count

    def summary(self) -> dict[str, Any]:
        """JSON-ready summary (the ``foldbench fold --json`` object without ``error``).

        ``components`` counts the groups of variables left free after the crease assignment and propagation;
        the reference solver also lists the group those fix as a first component with one solution, so its
        ``components`` column reads one higher. ``constraints`` is described in
        :attr:`~foldbench.crease.layers.layer_constraints.LayerConstraints.counts`.
        """
        components = self.solution.components
        return {
            "vertices": self.pattern.vertex_count,
            "edges": self.pattern.edge_count,
            "faces": self.pattern.face_count,
            "cells": len(self.cells.cells_faces),
            "input_precision": self.input_precision,
            "snap_tolerance": self.pattern.snap_tolerance,
            "regularized_moved": self.regularized_moved,
            "folded_tolerance": self.folded_tolerance,
            "flipped_faces": int(self.folded.faces_flipped.sum()),
            "variables": len(self.constraints.variables_faces),
            "constraints": self.constraints.counts,
            "components": len(components),
            "component_solutions": [c.solution_count for c in components],
            "limited": any(c.limited for c in components),
            "limit": self.limit,
            "states": self.state_count,
            "stopped": self.solution.stopped,
            "stage": budget.COUNTING if self.solution.stopped else None,
            "search_seconds": round(self.solution.search_seconds, 4),
            "timings": {k: round(v, 4) for k, v in self.timings.items()},
            "warnings": list(self.warnings),
        }

    def state_values(self, state: int = 0) -> list[int]:
        """Every variable's value in state number ``state`` (mixed radix over the components).

        Raises:
            ValueError: ``state`` is out of range.
        """
        if not 0 <= state < self.state_count:
            raise ValueError(f"state {state} does not exist ({self.state_count} states)")
        values = list(self.solution.forced_values)
        remainder = state
        solver: LayerSolver | None = None
        for component in self.solution.components:
            index = remainder % component.solution_count
            remainder //= component.solution_count
            chosen = component.first_solution
            if index:
                if solver is None:
                    solver = LayerSolver(self.constraints)
                    solver.values[:] = self.solution.forced_values
                _, _, chosen = solver.enumerate_component(np.array(component.variables), index + 1, index)
            for variable, value in zip(component.variables, chosen, strict=False):
                values[variable] = value
        return values

    def face_orders(self, state: int = 0) -> list[list[int]]:
        """FOLD ``faceOrders`` ``[f, g, s]`` of a state: ``s = +1`` when ``f`` lies on the side of ``g``'s normal."""
        flipped = self.folded.faces_flipped
        orders = []
        for (f, g), value in zip(self.constraints.variables_faces.tolist(), self.state_values(state), strict=False):
            f_higher = value == ABOVE
            orders.append([f, g, 1 if f_higher != bool(flipped[g]) else -1])
        return orders

    def cells_layer_order(self, state: int = 0) -> list[list[int]]:
        """For each cell, its faces from top (front side) to bottom."""
        values = self.state_values(state)
        face_count = self.pattern.face_count
        index_of = {f * face_count + g: i for i, (f, g) in enumerate(self.constraints.variables_faces.tolist())}
        ordered = []
        for faces in self.cells.cells_faces:
            below_count = {face: 0 for face in faces}
            for i, f in enumerate(faces):
                for g in faces[i + 1:]:
                    value = values[index_of[f * face_count + g]]
                    below_count[f if value == ABOVE else g] += 1
            ordered.append(sorted(faces, key=lambda face: -below_count[face]))
        return ordered

    def folded_frame(self, state: int = 0) -> dict[str, Any]:
        """A FOLD frame (``frame_classes: foldedForm``) of a state with ``faceOrders``."""
        fields = self.pattern.to_fold_fields()
        coords = self.folded.vertices_coords_folded * self.pattern.scale
        return {
            "frame_classes": ["foldedForm"],
            "frame_attributes": ["2D", "nonSelfIntersecting"],
            "vertices_coords": coords.tolist(),
            "edges_vertices": fields["edges_vertices"],
            "edges_assignment": fields["edges_assignment"],
            "faces_vertices": fields["faces_vertices"],
            "faceOrders": self.face_orders(state),
        }

    def fold_document(self, state: int = 0, title: str = "") -> dict[str, Any]:
        """A FOLD 1.2 document: the crease pattern plus the folded state as a second frame."""
        document: dict[str, Any] = {
            "file_spec": 1.2,
            "file_creator": "foldbench",
            "file_title": title,
            "file_classes": ["singleModel"],
            "frame_classes": ["creasePattern"],
            **self.pattern.to_fold_fields(),
            "file_frames": [{**self.folded_frame(state), "frame_parent": 0, "frame_inherit": False}],
        }
        return document


def crease_assignment_orders(
    pattern: CreasePattern, folded: FoldedGeometry, constraints: LayerConstraints
) -> list[tuple[int, int]]:
    """The ``(variable, value)`` orders forced directly by mountain and valley creases, in edge order.

    Seen from face 0's front, a valley crease brings the far face up toward the viewer when the near face
    shows its front, and down when it shows its back; a mountain does the opposite. Up to
    :data:`FEW_CREASE_EDGES` edges the creases are walked one by one, above in array operations (the same
    orders: one fixed cost per operation against one dictionary entry per variable).
    """
    if pattern.edge_count <= FEW_CREASE_EDGES:
        return _orders_edge_by_edge(pattern, folded, constraints)
    return _orders_in_arrays(pattern, folded, constraints)


FEW_CREASE_EDGES: int = 64
"""Up to this many edges, :func:`crease_assignment_orders` walks the creases one by one."""


def _orders_edge_by_edge(
    pattern: CreasePattern, folded: FoldedGeometry, constraints: LayerConstraints
) -> list[tuple[int, int]]:
    face_count = pattern.face_count
    index_of = {f * face_count + g: i for i, (f, g) in enumerate(constraints.variables_faces.tolist())}
    seeds: list[tuple[int, int]] = []
    for edge, (near, far) in enumerate(pattern.edges_faces.tolist()):
        assignment = pattern.edges_assignment[edge]
        if assignment not in ("M", "V") or near < 0 or far < 0:
            continue
        far_is_above = (assignment == "V") != bool(folded.faces_flipped[near])
        low, high = min(near, far), max(near, far)
        variable = index_of.get(low * face_count + high)
        if variable is None:
            continue
        low_is_above = far_is_above if low == far else not far_is_above
        seeds.append((variable, ABOVE if low_is_above else BELOW))
    return seeds


def _orders_in_arrays(
    pattern: CreasePattern, folded: FoldedGeometry, constraints: LayerConstraints
) -> list[tuple[int, int]]:
    face_count = pattern.face_count
    edges_faces = pattern.edges_faces.reshape(-1, 2)
    creased = np.array([letter in ("M", "V") for letter in pattern.edges_assignment], dtype=bool)
    edges = np.flatnonzero(creased & (edges_faces[:, 0] >= 0) & (edges_faces[:, 1] >= 0))
    if not len(edges) or not len(constraints.variables_faces):
        return []
    near, far = edges_faces[edges, 0], edges_faces[edges, 1]
    low, high = np.minimum(near, far), np.maximum(near, far)
    pairs = constraints.variables_faces.astype(np.int64).reshape(-1, 2)
    keys = pairs[:, 0] * face_count + pairs[:, 1]
    order = np.argsort(keys, kind="stable")
    wanted = low * face_count + high
    found = np.searchsorted(keys[order], wanted, side="right") - 1  # the last variable of a key, as a dict keeps
    known = (found >= 0) & (keys[order][np.maximum(found, 0)] == wanted)
    valley = np.array([pattern.edges_assignment[edge] == "V" for edge in edges.tolist()], dtype=bool)
    far_is_above = valley != folded.faces_flipped[near].astype(bool)
    low_is_above = np.where(low == far, far_is_above, ~far_is_above)
    values = np.where(low_is_above, ABOVE, BELOW)
    return list(zip(order[found[known]].tolist(), values[known].tolist(), strict=True))


def compile_crease_pattern(
    pattern: CreasePattern, *, limit: int | None = None, require_unique: bool = False,
    timeout: float | None = None, progress: ProgressCallback | None = None,
    policy: PrecisionPolicy | None = None,
) -> CompiledFold:
    """Decide flat-foldability and count the flat-folded states of a crease pattern.

    Args:
        pattern: a crease pattern (from :mod:`foldbench.crease.io`).
        limit: cap on the solutions searched per component (None: count every state exactly).
        require_unique: raise :class:`AmbiguousFoldedState` when there is more than one state.
        timeout: time budget in seconds for counting states (None: no budget). When it ends, the result is
            a lower bound (``summary()["stopped"]``), every remaining component checked to have a solution.
        progress: called after each component is counted (see :data:`~foldbench.crease.layers.solver.ProgressCallback`).
        policy: the precision policy of the compile stages (default: the one the pattern was built with,
            :attr:`CreasePattern.policy <foldbench.crease.graph.pattern.CreasePattern.policy>`). The pattern's snap
            distance was applied when it was built: to change it, build the pattern with the policy
            (:func:`~foldbench.crease.build_crease_pattern`, :func:`~foldbench.crease.read_crease_pattern`).

    Raises:
        GeometricallyImpossibleFold: a local condition fails or the paper does not close up.
        SelfIntersection: no layer order exists.
        AmbiguousFoldedState: ``require_unique`` and more than one state.
        PrecisionProblem: the coordinates are too imprecise to decide.

    A noisy input (measured precision above 0) whose folded edges give no trustworthy overlay at any level
    (``E_PRECISION_TOLERANCE``) while its folded vertices disagree by more than the policy's
    ``folded_mismatch_factor`` times that precision (the folding amplified the Kawasaki residuals) is regularised
    (:mod:`foldbench.crease.graph.regularize`): when moving no vertex farther than the snap tolerance makes every
    vertex meet Kawasaki exactly and the folded vertices agree, the states counted are those of that exact
    pattern, and the summary says so (``regularized_moved`` and a warning). Otherwise the precision problem
    stands, with the movement that would have been needed in its ``where``.
    """
    if limit is not None and limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    if policy is not None and policy != pattern.policy:
        pattern = replace(pattern, policy=policy)
    timings: dict[str, float] = {}
    clock = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        timings[name] = now - clock
        clock = now

    budget.enter_stage("folding")
    budget.note(vertices=pattern.vertex_count, edges=pattern.edge_count, faces=pattern.face_count)
    local = check_vertices(pattern)
    input_precision = max(pattern.input_precision, local.input_precision)
    folded = fold_faces(pattern, input_precision)
    lap("fold")

    last_orders: list[tuple[np.ndarray, list[tuple[int, int]]]] = []  # the variables' array and its orders

    def orders_of(constraints: LayerConstraints) -> list[tuple[int, int]]:
        # the local constraints checked early and the full ones built with them share one variables array
        if last_orders and last_orders[0][0] is constraints.variables_faces:
            return last_orders[0][1]
        orders = crease_assignment_orders(pattern, folded, constraints)
        last_orders[:] = [(constraints.variables_faces, orders)]
        return orders

    def check_local(local: LayerConstraints) -> None:
        early = LayerSolver(local)
        conflict = early.assign(orders_of(local))
        if conflict == -2:
            early.raise_conflict_between_seeds(STAGE_LOCAL)
        if conflict >= 0:
            early.raise_conflict(conflict, "found from the local constraints before building transitivity",
                                 STAGE_LOCAL)

    budget.enter_stage("gap judging")
    judge = noise_judge(pattern, folded, input_precision)
    above = 0.0
    unsettled: SelfIntersection | None = None
    noise_closes: FoldedGap | None = None  # a gap kept open there that a noisy input's measured noise closes
    in_doubt: tuple[SelfIntersection, FoldedGap] | None = None
    while True:
        budget.enter_stage("overlay")
        try:
            overlay = build_overlay(pattern, folded, check_local, judge=judge, above=above)
        except PrecisionProblem as problem:
            if unsettled is not None:  # no level that closes the unresolved gaps is sound
                if noise_closes is not None:
                    raise verdict_resting_on_noise(unsettled, noise_closes, problem) from None
                raise unsettled from None
            # only a disagreement the folding amplified far beyond the input's noise is Kawasaki's to remove
            if problem.code != "E_PRECISION_TOLERANCE" or not amplifies_noise(folded):
                raise
            lap("overlay")
            return _compile_regularized(pattern, problem, input_precision, timings, judge, limit=limit,
                                        require_unique=require_unique,
                                        timeout=timeout, progress=progress)
        cells, constraints = overlay.cells, overlay.constraints
        in_doubt = in_doubt or overlay.in_doubt
        lap("overlay")
        budget.note(cells=len(cells.cells_faces), variables=len(constraints.variables_faces))
        budget.enter_stage(budget.COUNTING)
        solver = LayerSolver(constraints)
        try:
            solution = solver.solve(orders_of(constraints), limit,
                                    timeout=_counting_timeout(timeout), progress=_noting(progress))
        except SelfIntersection as verdict:
            # an overlay that keeps apart folded points the input cannot tell apart is not final: the levels
            # that close those gaps decide, when one of them is sound
            budget.enter_stage("gap judging")
            unresolved = unresolved_open_gaps(pattern, folded, overlay.tolerance, judge)
            if not unresolved:
                raise
            unsettled = unsettled or verdict
            noise_closes = noise_closes or gap_noise_closes(pattern, folded, unresolved)
            in_doubt = in_doubt or doubted_verdict(verdict, unresolved)
            above = max(overlay.tolerance, *(gap.width for gap in unresolved))
            continue
        break
    lap("solve")
    if in_doubt is not None:
        raise _verdict_in_doubt(*in_doubt, overlay.tolerance, solution.state_count, judge)
    budget.enter_stage("gap judging")
    if _closed_gaps_need_a_cross_check(pattern, folded, overlay.tolerance) and not solution.stopped:
        _cross_check_closed_gaps(pattern, folded, overlay.tolerance, solution.state_count, timeout, judge, limit)
    warnings = list(pattern.notes)
    if input_precision > 0:
        warnings.append(f"input precision {input_precision:.1e} (measured from the input's nearly parallel "
                        "creases and Kawasaki residuals)")
    if overlay.tolerance != pattern.policy.folded_distance:
        warnings.append(f"folded tolerance {overlay.tolerance:.1e} (folded vertices disagree by up to "
                        f"{folded.worst_mismatch:.1e}; {len(overlay.rejected)} level(s) rejected first)")
    set_aside = any(reason.startswith("self-intersection resting on") for _, reason in overlay.rejected)
    if unsettled is not None or set_aside:
        warnings.append("a self-intersection found at a finer level kept open folded gaps that the input's noise "
                        f"({judge.amplitude:.1e}) cannot resolve; the level that closes them decides")
    if local.imprecise_vertices:
        warnings.append(f"{len(local.imprecise_vertices)} vertices meet Kawasaki only approximately")
    free = [i for i, c in enumerate(solution.components) if c.solution_count > 1]
    if solution.stopped:
        warnings.append(f"at least {solution.state_count} states; search stopped after "
                        f"{solution.search_seconds:.1f} s (time budget {timeout} s)")
    if solution.state_count > 1:
        message = f"{solution.state_count} flat-folded states; free components {free}"
        if require_unique:
            raise AmbiguousFoldedState(
                "E_AMBIGUOUS_STATE", message,
                {"states": solution.state_count, "free_components": free,
                 "component_solutions": [c.solution_count for c in solution.components]},
            )
        warnings.append(f"AFS: {message}")
    return CompiledFold(pattern, local, folded, cells, constraints, solution, limit, timings, tuple(warnings),
                        overlay.tolerance, input_precision)


def _counting_timeout(timeout: float | None) -> float | None:
    """The counting budget: ``timeout``, cut to what is left of an active
    :func:`~foldbench.crease.budget.time_budget`."""
    left = budget.remaining_seconds()
    if left is None:
        return timeout
    return left if timeout is None else min(timeout, left)


def _noting(progress: ProgressCallback | None) -> ProgressCallback | None:
    """``progress``, also noting with the active budget (if any) the states found so far."""
    if budget.remaining_seconds() is None:
        return progress

    def advance(done: int, total: int, states: int) -> None:
        budget.note(components_counted=done, components=total, states_so_far=states)
        if progress is not None:
            progress(done, total, states)

    return advance


def _verdict_in_doubt(
    verdict: SelfIntersection, gap: FoldedGap, tolerance: float, states: int, judge: GapJudge
) -> PrecisionProblem:
    """``E_PRECISION_GAPS`` for a count found at a level that closes a gap which only the margin of an
    estimated noise could close, after a self-intersection was found with the gap open: neither answer can be
    trusted (the noise the input shows moves the gap by less than its width, its estimate by more)."""
    return PrecisionProblem(
        "E_PRECISION_GAPS",
        f"a self-intersection was found with a folded gap open ({gap.describe()}) that the input's measured noise "
        f"({judge.measured_amplitude:.1e}) cannot close but its estimated noise ({judge.amplitude:.1e}) can; "
        f"closed, at folded tolerance {tolerance:.1e}, the pattern has {states} state(s): the input is too "
        "imprecise to tell the two answers apart",
        {"gap": gap.to_dict(), "measured_noise": judge.measured_amplitude, "estimated_noise": judge.amplitude,
         "folded_tolerance": tolerance, "states": states, "self_intersection": verdict.to_dict()},
    )


def _closed_gaps_need_a_cross_check(pattern: CreasePattern, folded: FoldedGeometry, tolerance: float) -> bool:
    """Whether the accepted folded tolerance closed gaps judged by an estimated noise (no written precision)
    in a pattern whose folding amplified its Kawasaki residuals far beyond that noise: there a sliver of the
    design can move by its own width and pass for noise."""
    least = pattern.policy.folded_distance
    return (pattern.written_precision == 0 and amplifies_noise(folded) and tolerance > least
            and len(narrow_gaps(pattern, folded.vertices_coords_folded, least, tolerance)[0]) > 0)


def _cross_check_closed_gaps(
    pattern: CreasePattern, folded: FoldedGeometry, tolerance: float, states: int, timeout: float | None,
    judge: GapJudge, limit: int | None = None,
) -> None:
    """Count the Kawasaki-regularised pattern too (its folded vertices agree, so no gap is closed for noise) and
    raise ``E_PRECISION_GAPS`` when it has another count: closing the gaps changed the answer. Both are counted
    with the same per-component ``limit``, so that capped counts are compared with capped counts. Nothing is
    checked when the pattern cannot be regularised within its snap tolerance, when the regularised pattern
    gives an error instead of a count (coincidences of the design that the noise broke, such as a corner on a
    crease, stay broken by a move to exact Kawasaki) or when its count does not end within ``timeout``."""
    budget.enter_stage("regularising")
    regularized, mismatch = judge.regularized()
    if not _regularized_usable(pattern, regularized.residual, regularized.moved, mismatch):
        return
    exact = replace(regularized.pattern, input_precision=0.0, written_precision=0.0, carried_noise=judge.amplitude)
    try:
        compiled = compile_crease_pattern(exact, limit=limit, timeout=timeout)  # the same cap: comparable counts
    except CreasePatternError:
        return  # moved to exact Kawasaki, coincidences the noise broke stay broken: no count to compare
    other = compiled.state_count
    if compiled.solution.stopped or other == states:
        return
    pairs, kinds = narrow_gaps(pattern, folded.vertices_coords_folded, pattern.policy.folded_distance, tolerance)
    gaps = [{"vertex": int(a), ("other_vertex" if kind == 0 else "edge"): int(b)}
            for (a, b), kind in zip(pairs, kinds, strict=True)]
    raise PrecisionProblem(
        "E_PRECISION_GAPS",
        f"the folded tolerance {tolerance:.1e} closes {len(gaps)} folded gap(s) as noise (the first: vertex "
        f"{gaps[0]['vertex']} to {'vertex' if kinds[0] == 0 else 'edge'} {int(pairs[0, 1])}) and gives {states} "
        f"state(s), but the Kawasaki-regularised pattern (moved by {regularized.moved:.1e}), on which they stay "
        f"open, gives {other}: the input's noise is too close to the design's gaps to decide",
        {"folded_tolerance": tolerance, "states": states, "regularized_states": other,
         "regularized_moved": regularized.moved, "gaps": gaps[:20], "gap_count": len(gaps)},
    )


def _compile_regularized(
    pattern: CreasePattern, problem: PrecisionProblem, input_precision: float, timings: dict[str, float],
    judge: GapJudge, *,
    limit: int | None,
    require_unique: bool, timeout: float | None, progress: ProgressCallback | None,
) -> CompiledFold:
    """Compile the Kawasaki-exact pattern nearest to a noisy one, when no vertex moves farther than the snap
    tolerance; otherwise raise ``problem`` with the movement that would have been needed."""
    start = time.perf_counter()
    budget.enter_stage("regularising")
    regularized, mismatch = judge.regularized()
    spent = {f"{name} (input)": seconds for name, seconds in timings.items()}
    spent["regularize"] = time.perf_counter() - start
    allowed = pattern.snap_tolerance
    if not _regularized_usable(pattern, regularized.residual, regularized.moved, mismatch):
        problem.where["regularization"] = {"moved": regularized.moved, "allowed": allowed,
                                           "kawasaki_residual": regularized.residual}
        raise problem
    note = (f"regularised: no folded tolerance could be trusted at input precision {input_precision:.1e}, so the "
            f"{regularized.vertices} interior vertices were moved by up to {regularized.moved:.1e} (within the "
            f"snap tolerance {allowed:.1e}) to meet Kawasaki exactly; the states are those of that exact pattern")
    exact = replace(regularized.pattern, input_precision=0.0, written_precision=0.0, notes=(*pattern.notes, note),
                    carried_noise=judge.amplitude)
    compiled = compile_crease_pattern(exact, limit=limit, require_unique=require_unique, timeout=timeout,
                                      progress=progress)
    return replace(compiled, input_precision=input_precision, regularized_moved=regularized.moved,
                   timings={**spent, **compiled.timings})


def _regularized_usable(pattern: CreasePattern, residual: float, moved: float, mismatch: float) -> bool:
    """Whether a regularisation may stand for ``pattern``: Kawasaki met to the policy's ``regularized_residual``,
    no vertex moved beyond the snap tolerance, folded vertices agreeing to its ``regularized_mismatch``."""
    policy = pattern.policy
    return not (residual >= policy.regularized_residual or moved > pattern.snap_tolerance
                or mismatch > policy.regularized_mismatch)
