"""The interactive environments: OrigamiBench's synthesis (fold a blank square toward a target by adding creases)
and OrigamiSpace's crease-pattern code writing (:mod:`foldbench.envs.code_env`).

Importing this package registers ``foldbench/OrigamiSynthesis-v0`` and ``foldbench/CreasePatternCode-v1`` with
Gymnasium's registry. See
:class:`~foldbench.envs.origami_env.OrigamiSynthesisEnv` for the action and observation spaces, the reward and
the version history; :mod:`foldbench.origami.metrics` and :mod:`foldbench.origami.similarity` for QE, GS and SS;
:mod:`foldbench.envs.wrappers` for the discrete-action and text interfaces.
"""

from foldbench.envs.code_env import CODE_ENV_ID, CreasePatternCodeEnv
from foldbench.envs.code_interface import CodeTextInterface
from foldbench.envs.code_reward import RewardShaping, RewardTerms
from foldbench.envs.origami_env import ENV_ID, OrigamiSynthesisEnv
from foldbench.origami.actions import PAPER_SIZE, parse_action
from foldbench.origami.folded import REFERENCE_POINT, align_fold, silhouette_of
from foldbench.origami.metrics import (
    geometric_similarity,
    mask_iou,
    query_efficiency,
    raster_geometric_similarity,
    silhouette_mask,
)
from foldbench.origami.similarity import OpenClipEmbedder, ShapeDescriptorEmbedder, semantic_similarity
from foldbench.origami.targets import Target, random_simple_fold_target, simple_fold_target, target_from_sequence

__all__ = [
    "CODE_ENV_ID",
    "CodeTextInterface",
    "ENV_ID",
    "PAPER_SIZE",
    "REFERENCE_POINT",
    "CreasePatternCodeEnv",
    "OpenClipEmbedder",
    "OrigamiSynthesisEnv",
    "RewardShaping",
    "RewardTerms",
    "ShapeDescriptorEmbedder",
    "Target",
    "align_fold",
    "geometric_similarity",
    "mask_iou",
    "parse_action",
    "query_efficiency",
    "random_simple_fold_target",
    "raster_geometric_similarity",
    "semantic_similarity",
    "silhouette_mask",
    "silhouette_of",
    "simple_fold_target",
    "target_from_sequence",
]


def _register() -> None:
    import gymnasium

    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="foldbench.envs.origami_env:OrigamiSynthesisEnv")
    if CODE_ENV_ID not in gymnasium.registry:
        gymnasium.register(id=CODE_ENV_ID, entry_point="foldbench.envs.code_env:CreasePatternCodeEnv")


_register()
