"""The paper folding test engine (MentalBlackboard): fold, rotate, punch and unfold a sheet of 32 triangles.

>>> from foldbench.pft import Hole, parse_actions, solve
>>> solution = solve(parse_actions("H1-F"), [Hole("circle", "large", 0, 26)])
>>> sorted(h.location for h in solution.result_holes), [f.code for f in solution.unfolding]
([2, 26], ['H2-F'])
"""

from foldbench.pft.actions import (
    Action,
    Fold,
    FoldType,
    Rotation,
    format_actions,
    opposite,
    parse_action,
    parse_actions,
    turned,
)
from foldbench.pft.enumeration import GROUPS, PAPER_COUNTS, configurations, count_group, group_of
from foldbench.pft.holes import Hole, Shape, Size, canonical_direction
from foldbench.pft.paper import Paper
from foldbench.pft.planner import Plan, find_plan, iter_plans
from foldbench.pft.rules import check_sequence, is_valid, rule_violation
from foldbench.pft.simulate import Solution, UnfoldingStep, solve, unfolding_of

#: Bumped whenever a change to the engine could change any generated item or ground truth.
ENGINE_VERSION = "pft-1"

__all__ = [
    "ENGINE_VERSION",
    "Action",
    "Fold",
    "FoldType",
    "Rotation",
    "format_actions",
    "opposite",
    "parse_action",
    "parse_actions",
    "turned",
    "GROUPS",
    "PAPER_COUNTS",
    "configurations",
    "count_group",
    "group_of",
    "Hole",
    "Shape",
    "Size",
    "canonical_direction",
    "Paper",
    "Plan",
    "find_plan",
    "iter_plans",
    "check_sequence",
    "is_valid",
    "rule_violation",
    "Solution",
    "UnfoldingStep",
    "solve",
    "unfolding_of",
]
