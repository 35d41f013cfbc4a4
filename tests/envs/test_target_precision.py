"""A target read from a file written to a few decimals is reached when its creases are reproduced from the file:
the match follows the target's precision, not floating-point noise; a visible miss is still a miss."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.crease.io.collection import paper_models
from foldbench.envs import OrigamiSynthesisEnv
from foldbench.origami.targets import MATCH_CAP, match_distance, random_simple_fold_target, target_from_file


def _written(path: Path, fold: dict, decimals: int) -> Path:
    """The FOLD fields written with unit-square coordinates rounded to ``decimals``."""
    coords = np.asarray(fold["vertices_coords"], float)
    coords = (coords - coords.min(axis=0)) / np.ptp(coords, axis=0).max()
    path.write_text(json.dumps({**fold, "vertices_coords": np.round(coords, decimals).tolist()}))
    return path


def _as_read(action: dict, decimals: int) -> dict:
    """The action with its coordinates as the file gives them (paper frame of side 10)."""
    creases = [{**c, "p1": [round(v, decimals - 1) for v in c["p1"]], "p2": [round(v, decimals - 1) for v in c["p2"]]}
               for c in action["creases"]]
    return {"action": "add_creases", "creases": creases}


def _replay(target, actions) -> OrigamiSynthesisEnv:
    env = OrigamiSynthesisEnv(target=target, observation_mode="text", final_metrics=False)
    env.reset(seed=0)
    for action in actions:
        _, _, terminated, _, info = env.step(action)
        assert info["accepted"], info["feedback"]
    return env


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), folds=st.integers(1, 4))
def test_a_target_written_to_9_decimals_and_reproduced_from_the_file_ends_solved(tmp_path_factory, seed: int,
                                                                                 folds: int) -> None:
    exact = random_simple_fold_target(np.random.default_rng(seed), folds, grid=None)
    path = _written(tmp_path_factory.mktemp("fold") / "target.fold", exact.to_dict()["fold"], 9)
    target = target_from_file(path)
    assert 0 < target.precision <= 1e-9  # half the 9th decimal, or the noise measured in the rounded file
    env = _replay(target, [_as_read(a, 9) for a in exact.actions])
    assert env.gs == 1.0 and env.history[-1].gs == 1.0


def test_a_visible_miss_of_a_written_target_is_not_solved(tmp_path: Path) -> None:
    exact = random_simple_fold_target(np.random.default_rng(7), 2, grid=None)
    target = target_from_file(_written(tmp_path / "target.fold", exact.to_dict()["fold"], 9))
    actions = [_as_read(a, 9) for a in exact.actions]
    moved = json.loads(json.dumps(actions))
    for crease in moved[-1]["creases"]:  # the last fold's creases moved by 0.01 along x
        crease["p1"][0] = min(10.0, crease["p1"][0] + 0.01) if 0 < crease["p1"][0] < 10 else crease["p1"][0]
        crease["p2"][0] = min(10.0, crease["p2"][0] + 0.01) if 0 < crease["p2"][0] < 10 else crease["p2"][0]
    env = OrigamiSynthesisEnv(target=target, observation_mode="text", final_metrics=False)
    env.reset(seed=0)
    for action in moved:
        env.step(action)
    assert env.gs < 1.0


def test_coarse_decimals_never_widen_the_match_beyond_the_cap(tmp_path: Path) -> None:
    """A shipped model written with one decimal (0.5, 0.25: an exact design) gets the capped distance, and all
    its creases added at once reproduce it."""
    entry = next(e for e in paper_models().entries if e.file == "067_traditionaloripa_damashi_bune.fold")
    target = target_from_file(entry.path)
    assert target.precision > 0 and match_distance(target) == MATCH_CAP
    segments = target.pattern.vertices_coords[np.asarray(target.pattern.edges_vertices)] * 10
    creases = [{"p1": s[0].tolist(), "p2": s[1].tolist(), "assignment": a}
               for s, a in zip(segments, target.pattern.edges_assignment, strict=True) if a in "MV"]
    env = _replay(target, [{"action": "add_creases", "creases": creases}])
    assert env.gs == 1.0
