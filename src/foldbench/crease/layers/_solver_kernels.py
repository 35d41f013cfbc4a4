"""Compiled inner loops of the layer solver (numba): propagation, component search, component labelling.

Arrays shared by the kernels (``L`` local constraints, ``T`` transitivity constraints, ``V`` variables);
constraint ``c < L`` is local, ``c >= L`` is transitivity row ``c - L``:

- ``constraints``: the tuple ``(local_kinds (L,), local_variables (L, 6), local_flipped (L, 6), transitivity
  (T, 3))``; local slots are padded with -1, and a transitivity row lists the variables of ``(f, g)``,
  ``(g, h)`` and ``(f, h)``, so only its last slot compares a pair reversed (stored apart because it is by far
  the most numerous type: 3 int32 per constraint instead of 6 slots and 6 flags);
- ``slot_counts (4,)``, ``table_state (4, 729)``, ``table_forced (4, 729, 6)``: the propagation tables
  (state ``-1`` conflict, ``0`` free, ``1`` dead, ``2`` forced; forced values ``0`` when a slot is not forced);
- ``touching_offsets (V + 1,)``, ``touching (sum,)``: the constraints of each variable (CSR);
- ``values (V,)`` int8 (0 unset, 1 above, 2 below), ``trail (V,)``, ``reasons (V,)``: the working state.
"""

from __future__ import annotations

import numpy as np

from foldbench.jit import kernel

__all__ = [
    "component_labels",
    "constraint_count",
    "constraint_states",
    "constraints_of_variables",
    "enumerate_component",
    "kind_of",
    "propagate_from",
    "slot_of",
]

STATE_CONFLICT, STATE_FREE, STATE_DEAD, STATE_FORCED = -1, 0, 1, 2
TRANSITIVITY_KIND = 3


@kernel
def constraint_count(constraints):  # type: ignore[no-untyped-def]
    """Number of constraints (local and transitivity)."""
    return constraints[0].shape[0] + constraints[3].shape[0]


@kernel
def kind_of(constraints, constraint):  # type: ignore[no-untyped-def]
    """The type of a constraint."""
    local_kinds = constraints[0]
    if constraint < local_kinds.shape[0]:
        return np.int64(local_kinds[constraint])
    return np.int64(TRANSITIVITY_KIND)


@kernel
def slot_of(constraints, constraint, slot):  # type: ignore[no-untyped-def]
    """The variable of a constraint's slot (-1 past its slots) and whether the slot compares it reversed."""
    local_kinds, local_variables, local_flipped, transitivity = constraints
    local_count = local_kinds.shape[0]
    if constraint < local_count:
        return np.int64(local_variables[constraint, slot]), local_flipped[constraint, slot]
    if slot > 2:
        return np.int64(-1), False
    return np.int64(transitivity[constraint - local_count, slot]), slot == 2


@kernel
def _code(constraint, values, constraints, slot_counts):  # type: ignore[no-untyped-def]
    count = slot_counts[kind_of(constraints, constraint)]
    code = 0
    weight = 1
    for slot in range(count):
        variable, flipped = slot_of(constraints, constraint, slot)
        value = np.int64(values[variable])  # int8 in the array; the code needs a wide type
        if value != 0 and flipped:
            value = 3 - value
        code += value * weight
        weight *= 3
    return code


@kernel(tables=("table_state", "table_forced"))
def propagate_from(  # type: ignore[no-untyped-def]
    head, trail_length, values, trail, reasons, touching_offsets, touching, constraints, slot_counts, table_state,
    table_forced,
):
    """Propagate the assignments ``trail[head:trail_length]``; return (violated constraint or -1, new length)."""
    while head < trail_length:
        variable = trail[head]
        head += 1
        for position in range(touching_offsets[variable], touching_offsets[variable + 1]):
            constraint = touching[position]
            kind = kind_of(constraints, constraint)
            code = _code(constraint, values, constraints, slot_counts)
            state = table_state[kind, code]
            if state == STATE_CONFLICT:
                return constraint, trail_length
            if state == STATE_FORCED:
                for slot in range(slot_counts[kind]):
                    forced = table_forced[kind, code, slot]
                    if forced == 0:
                        continue
                    target, flipped = slot_of(constraints, constraint, slot)
                    value = 3 - forced if flipped else forced
                    if values[target] == 0:
                        values[target] = value
                        reasons[target] = constraint
                        trail[trail_length] = target
                        trail_length += 1
                    elif values[target] != value:
                        return constraint, trail_length
    return -1, trail_length


@kernel
def _undo(mark, trail_length, values, trail):  # type: ignore[no-untyped-def]
    while trail_length > mark:
        trail_length -= 1
        values[trail[trail_length]] = 0
    return trail_length


@kernel(tables=("table_state", "table_forced"))
def _decide(  # type: ignore[no-untyped-def]
    variable, value, trail_length, values, trail, reasons, touching_offsets, touching, constraints, slot_counts,
    table_state, table_forced,
):
    """Set ``variable`` to ``value`` as a decision and propagate; return (violated constraint or -1, length)."""
    values[variable] = value
    reasons[variable] = -1
    trail[trail_length] = variable
    return propagate_from(
        trail_length, trail_length + 1, values, trail, reasons, touching_offsets, touching, constraints,
        slot_counts, table_state, table_forced,
    )


# a search's time grows with its solutions, not its input: only small components are searched as plain Python
@kernel(tables=("table_state", "table_forced"), python_limit=512)
def enumerate_component(  # type: ignore[no-untyped-def]
    component, limit, keep_index, trail_length, values, trail, reasons, touching_offsets, touching, constraints,
    slot_counts, table_state, table_forced, resume,
):
    """Depth-first search over a component (value 1 first); count solutions up to ``limit`` (0: no limit).

    ``resume`` (empty: start afresh) is the decision values of the last solution of an earlier capped run:
    the search replays them and goes on after that solution, so a count can be continued in rounds.

    Returns (count, limited, kept solution values or an empty array, the decision values to resume from when
    limited). Leaves ``values`` as it found them.
    """
    size = component.shape[0]
    kept = np.zeros(0, dtype=np.int8)
    decision_position = np.empty(size + 1, dtype=np.int64)
    decision_value = np.empty(size + 1, dtype=np.int8)
    decision_mark = np.empty(size + 1, dtype=np.int64)
    depth = 0
    base = trail_length
    count = 0
    position = 0
    for value in resume:
        while position < size and values[component[position]] != 0:
            position += 1
        decision_position[depth] = position
        decision_value[depth] = value
        decision_mark[depth] = trail_length
        depth += 1
        conflict, trail_length = _decide(
            component[position], value, trail_length, values, trail, reasons, touching_offsets, touching,
            constraints, slot_counts, table_state, table_forced,
        )
        position += 1
    resuming = resume.shape[0] > 0
    while True:
        need_backtrack = False
        if resuming:
            resuming = False
            need_backtrack = True
        else:
            while position < size and values[component[position]] != 0:
                position += 1
            if position == size:
                if count == keep_index:
                    kept = np.empty(size, dtype=np.int8)
                    for i in range(size):
                        kept[i] = values[component[i]]
                count += 1
                if limit > 0 and count >= limit:
                    path = decision_value[:depth].copy()
                    trail_length = _undo(base, trail_length, values, trail)
                    return count, True, kept, path
                need_backtrack = True
            else:
                variable = component[position]
                decision_position[depth] = position
                decision_value[depth] = 1
                decision_mark[depth] = trail_length
                depth += 1
                conflict, trail_length = _decide(
                    variable, 1, trail_length, values, trail, reasons, touching_offsets, touching, constraints,
                    slot_counts, table_state, table_forced,
                )
                if conflict < 0:
                    position += 1
                    continue
                need_backtrack = True
        advanced = False
        while need_backtrack and depth > 0 and not advanced:
            depth -= 1
            trail_length = _undo(decision_mark[depth], trail_length, values, trail)
            if decision_value[depth] == 1:
                position = decision_position[depth]
                variable = component[position]
                decision_value[depth] = 2
                depth += 1
                conflict, trail_length = _decide(
                    variable, 2, trail_length, values, trail, reasons, touching_offsets, touching, constraints,
                    slot_counts, table_state, table_forced,
                )
                if conflict < 0:
                    position += 1
                    advanced = True
                else:
                    trail_length = _undo(decision_mark[depth - 1], trail_length, values, trail)
                    depth -= 1
        if not advanced:
            trail_length = _undo(base, trail_length, values, trail)
            return count, False, kept, np.zeros(0, dtype=np.int8)


@kernel(tables=("table_state",))
def constraint_states(values, constraints, slot_counts, table_state):  # type: ignore[no-untyped-def]
    """Table state of every constraint under the current values."""
    total = constraint_count(constraints)
    states = np.empty(total, dtype=np.int8)
    for constraint in range(total):
        code = _code(constraint, values, constraints, slot_counts)
        states[constraint] = table_state[kind_of(constraints, constraint), code]
    return states


@kernel
def _find(parent, x):  # type: ignore[no-untyped-def]
    root = x
    while parent[root] != root:
        root = parent[root]
    while parent[x] != root:
        following = parent[x]
        parent[x] = root
        x = following
    return root


@kernel
def component_labels(values, constraints, slot_counts, states):  # type: ignore[no-untyped-def]
    """Union unset variables sharing a constraint that is not dead; return each variable's root (-1 if set)."""
    parent = np.arange(values.shape[0])
    for constraint in range(constraint_count(constraints)):
        if states[constraint] == STATE_DEAD:
            continue
        first = -1
        for slot in range(slot_counts[kind_of(constraints, constraint)]):
            variable, _ = slot_of(constraints, constraint, slot)
            if values[variable] != 0:
                continue
            if first < 0:
                first = _find(parent, variable)
            else:
                other = _find(parent, variable)
                if other != first:
                    parent[other] = first
    labels = np.full(values.shape[0], -1, dtype=np.int64)
    for variable in range(values.shape[0]):
        if values[variable] == 0:
            labels[variable] = _find(parent, variable)
    return labels


@kernel
def constraints_of_variables(constraints, variable_count):  # type: ignore[no-untyped-def]
    """Compressed rows of the constraints naming each variable (a counting sort over the slots)."""
    total = constraint_count(constraints)
    offsets = np.zeros(variable_count + 1, dtype=np.int64)
    for constraint in range(total):
        for slot in range(6):
            variable, _ = slot_of(constraints, constraint, slot)
            if variable >= 0:
                offsets[variable + 1] += 1
    for variable in range(variable_count):
        offsets[variable + 1] += offsets[variable]
    fill = offsets[:-1].copy()
    touching = np.empty(offsets[variable_count], dtype=np.int32)
    for constraint in range(total):
        for slot in range(6):
            variable, _ = slot_of(constraints, constraint, slot)
            if variable >= 0:
                touching[fill[variable]] = constraint
                fill[variable] += 1
    return offsets, touching
