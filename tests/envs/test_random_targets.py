"""Training over a distribution of targets: the held-out split, the flat observation, the edge-to-edge lattice,
the step cache, Gymnasium's checker and vector environments (no RL library needed)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
import shapely
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

from foldbench.envs import OrigamiSynthesisEnv, simple_fold_target
from foldbench.envs.coverage import COVERAGE_WINDOW, SAMPLES, coverage_grid
from foldbench.envs.target_split import SimpleFoldTargets, shape_key
from foldbench.envs.wrappers import LatticeActions, RandomFoldTargets, edge_to_edge_pairs, lattice_pairs

BOOK = simple_fold_target("book", [((0.5, 0.0), (0.0, 1.0))])


def _wrapped(**options) -> RandomFoldTargets:
    base = OrigamiSynthesisEnv(budget=2, observation_mode="text", final_metrics=False)
    return RandomFoldTargets(base, **options)


def test_held_out_shapes_are_never_drawn_for_training() -> None:
    # one fold through the centre of a 1/2 grid: four shapes (vertical, horizontal, two diagonals)
    targets = SimpleFoldTargets(folds=(1,), grid=2, seed=0, held_out=2)
    held_out = {shape_key(target) for target in targets.held_out_targets()}
    rng = np.random.default_rng(5)
    drawn = {shape_key(targets.draw(rng)) for _ in range(40)}
    assert len(held_out) == 2 and len(drawn) == 2 and not held_out & drawn
    everything = SimpleFoldTargets(folds=(1,), grid=2, seed=0, held_out=0)
    assert {shape_key(everything.draw(rng)) for _ in range(40)} == held_out | drawn
    with pytest.raises(ValueError, match="distinct shapes"):
        SimpleFoldTargets(folds=(1,), grid=2, held_out=5).held_out_targets()
    with pytest.raises(ValueError, match="held-out shapes"):
        SimpleFoldTargets(folds=(1,), grid=2, held_out=4).draw(rng)


def test_the_held_out_set_is_fixed_by_its_seed() -> None:
    first = [shape_key(t) for t in SimpleFoldTargets(grid=4, seed=3, held_out=6).held_out_targets()]
    again = [shape_key(t) for t in SimpleFoldTargets(grid=4, seed=3, held_out=6).held_out_targets()]
    other = [shape_key(t) for t in SimpleFoldTargets(grid=4, seed=4, held_out=6).held_out_targets()]
    assert first == again and len(set(first)) == 6 and first != other


def test_the_book_fold_observation_and_reward() -> None:
    env = _wrapped(cells=4)
    observation, _ = env.reset(seed=0, options={"target": BOOK})
    assert observation.shape == (33,) and observation.dtype == np.float32 and observation[-1] == 1.0
    target, current = observation[:16].reshape(4, 4), observation[16:32].reshape(4, 4)
    # window -10..10 in 4 cells of 5: the paper fills the top-right 2 x 2 cells, the book its left column
    assert current.tolist() == [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 1, 1], [0, 0, 1, 1]]
    assert target.tolist() == [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 1, 0], [0, 0, 1, 0]]
    valley = 2 * env.pairs.index(((5.0, 0.0), (5.0, 10.0))) + 1
    observation, reward, terminated, _, info = env.step(valley)
    assert terminated and reward == 0.5 and info["gs"] == 1.0
    assert np.array_equal(observation[16:32], observation[:16]) and observation[-1] == 0.5


def test_seeded_resets_draw_the_same_targets() -> None:
    first, second = _wrapped(), _wrapped()
    names = []
    for env in (first, second):
        env.reset(seed=7)
        names.append([shape_key(env.unwrapped.target)] + [shape_key(_reset_target(env)) for _ in range(3)])
    assert names[0] == names[1] and len(set(names[0])) > 1


def _reset_target(env: RandomFoldTargets):
    env.reset()
    return env.unwrapped.target


def test_the_wrapper_passes_the_checker_and_runs_in_a_sync_vector_env() -> None:
    env = _wrapped()
    check_env(env, skip_render_check=True)
    assert isinstance(env.action_space, gymnasium.spaces.Discrete) and env.action_space.n == 40
    assert isinstance(env.observation_space, gymnasium.spaces.Box) and env.observation_space.shape == (513,)
    vector = gymnasium.vector.SyncVectorEnv([_wrapped, _wrapped])
    observations, _ = vector.reset(seed=[1, 2])
    assert observations.shape == (2, 513) and vector.observation_space.contains(observations)
    ends = 0
    for step in range(6):
        observations, rewards, terminated, truncated, _ = vector.step(np.array([step, 3 * step]))
        assert observations.shape == (2, 513) and rewards.shape == (2,)
        ends += int((terminated | truncated).sum())
    assert ends >= 4  # budget 2: every environment finished (and was reset) at least twice
    vector.close()


def test_edge_to_edge_pairs_cross_the_paper() -> None:
    pairs = edge_to_edge_pairs(5)
    assert len(pairs) == 80 and set(pairs) < set(lattice_pairs(5))
    for (x1, y1), (x2, y2) in pairs:
        assert {x1, y1} & {0.0, 10.0} and {x2, y2} & {0.0, 10.0}
        assert not (x1 == x2 in (0.0, 10.0)) and not (y1 == y2 in (0.0, 10.0))
    assert _wrapped(octilinear=False).pairs == pairs
    full = _wrapped(edge_to_edge=False, octilinear=False)
    assert full.action_space.n == 2 * len(lattice_pairs(5)) == 600
    assert full.action(7) == LatticeActions(OrigamiSynthesisEnv(observation_mode="text"), size=5).action(7)


def test_octilinear_creases_are_the_grid_directions() -> None:
    pairs = _wrapped().pairs
    directions = {(np.sign(b[0] - a[0]) * np.sign(b[1] - a[1]), a[0] == b[0], a[1] == b[1]) for a, b in pairs}
    assert len(pairs) == 20 and set(pairs) < set(edge_to_edge_pairs(5))
    assert directions == {(0.0, True, False), (0.0, False, True), (1.0, False, False), (-1.0, False, False)}
    for (x1, y1), (x2, y2) in pairs:
        assert x1 == x2 or y1 == y2 or abs(x2 - x1) == abs(y2 - y1)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 39), min_size=1, max_size=6), st.integers(0, 3))
def test_the_step_cache_replays_what_compiling_gives(actions: list[int], seed: int) -> None:
    cached = RandomFoldTargets(OrigamiSynthesisEnv(budget=3, observation_mode="text", final_metrics=False,
                                                   step_cache=4))
    plain = _wrapped()
    for env in (cached, plain):
        env.reset(seed=seed, options={"target": BOOK, "budget": 3})
    for action in actions + actions:
        one, two = cached.step(action), plain.step(action)
        assert np.array_equal(one[0], two[0]) and one[1:4] == two[1:4]
        assert one[4]["feedback"] == two[4]["feedback"]
        if one[2] or one[3]:
            for env in (cached, plain):
                env.reset(seed=seed, options={"target": BOOK, "budget": 3})
    assert len(cached.unwrapped._step_cache) <= 4


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="step_cache"):
        OrigamiSynthesisEnv(step_cache=-1)
    with pytest.raises(ValueError, match="grid"):
        SimpleFoldTargets(grid=1)
    with pytest.raises(TypeError, match="RandomFoldTargets"):
        RandomFoldTargets(gymnasium.make("foldbench/CreasePatternCode-v1", observation_mode="text"))


_SUB = COVERAGE_WINDOW[2] / (16 * SAMPLES)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 63), st.integers(0, 63), st.integers(1, 64), st.integers(1, 64))
def test_coverage_of_a_box_on_the_sample_grid_is_its_area(left: int, bottom: int, width: int, height: int) -> None:
    """A box whose sides lie between sample points covers exactly the sub-cells inside it."""
    width, height = min(width, 64 - left), min(height, 64 - bottom)
    x0, y0 = COVERAGE_WINDOW[0] + left * _SUB, COVERAGE_WINDOW[1] + bottom * _SUB
    box = shapely.box(x0, y0, x0 + width * _SUB, y0 + height * _SUB)
    grid = coverage_grid(box, 16)
    cell_area = (COVERAGE_WINDOW[2] / 16) ** 2
    assert float(grid.sum()) * cell_area == pytest.approx(box.area, rel=1e-6)
    assert grid.min() >= 0 and grid.max() <= 1


def test_validation_shapes_are_neither_held_out_nor_drawn_for_training() -> None:
    # one fold through the centre of a 1/2 grid: four shapes; one held out, two for validation, one left to train
    targets = SimpleFoldTargets(folds=(1,), grid=2, seed=0, held_out=1, validation=2)
    held_out = {shape_key(target) for target in targets.held_out_targets()}
    validation = {shape_key(target) for target in targets.validation_targets()}
    rng = np.random.default_rng(5)
    drawn = {shape_key(targets.draw(rng)) for _ in range(30)}
    assert len(held_out) == 1 and len(validation) == 2 and len(drawn) == 1
    assert not held_out & validation and not (held_out | validation) & drawn
    again = SimpleFoldTargets(folds=(1,), grid=2, seed=0, held_out=1, validation=2)
    assert [shape_key(t) for t in again.validation_targets()] == [shape_key(t) for t in targets.validation_targets()]
    assert SimpleFoldTargets(folds=(1,), grid=2, seed=0, held_out=1).validation_targets() == ()
    with pytest.raises(ValueError, match="distinct shapes"):
        SimpleFoldTargets(folds=(1,), grid=2, held_out=1, validation=4).validation_targets()
    with pytest.raises(ValueError, match="held-out shapes or validation shapes"):
        SimpleFoldTargets(folds=(1,), grid=2, held_out=1, validation=3).draw(rng)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**16))
def test_a_one_fold_target_is_one_own_crease_away(seed: int) -> None:
    """On a 1/8 grid with the 9 x 9 lattice, every one-fold target's crease is an action that reaches GS 1."""
    env = _wrapped(folds=(1,), grid=8, lattice=9, held_out=0)
    env.reset(seed=seed)
    actions = env.own_crease_actions(env.unwrapped.target)
    assert actions is not None and len(actions) == 1
    _, reward, terminated, _, info = env.step(actions[0])
    assert terminated and info["gs"] == 1.0 and reward > 0


def test_a_fold_through_two_layers_is_out_of_reach_of_one_crease_per_step() -> None:
    book_then_half = simple_fold_target("book, then in half", [((0.5, 0.0), (0.0, 1.0)), ((0.0, 0.5), (1.0, 0.0))])
    assert [len(step["creases"]) for step in book_then_half.actions] == [1, 2]
    env = _wrapped()
    assert env.own_crease_actions(book_then_half) is None
    assert env.own_crease_actions(BOOK) == [2 * env.pairs.index(((5.0, 0.0), (5.0, 10.0))) + "MV".index(
        BOOK.actions[0]["creases"][0]["assignment"])]
