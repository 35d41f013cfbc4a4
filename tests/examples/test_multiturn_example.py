"""The multi-turn example drives the code environment as a trainer's text loop does: over a batch of episodes the
scripted replies raise the partial score to a solved reference, and malformed text is a scored failure."""

from __future__ import annotations

from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foldbench.envs import CodeTextInterface, RewardShaping
from tests.support.examples import load_example


def _example() -> ModuleType:
    return load_example("code_env_multiturn")


def test_the_scripted_loop_solves_every_episode(capsys: pytest.CaptureFixture[str]) -> None:
    example = _example()
    shaping = RewardShaping()
    result = example.main(["--envs", "2", "--folds", "2", "--seed", "1"])
    assert result.success == [True, True]
    for rewards, valid, partial in zip(result.rewards, result.valid, result.partial, strict=True):
        # turn 1: prose, no pattern: refused and scored as a failure, never raised
        assert not valid[0] and partial[0] == -1.0
        assert rewards[0] == pytest.approx(-shaping.step_penalty - shaping.failure_penalty)
        # then one more fold step per turn: every reply compiles and the partial score climbs to 1
        assert all(valid[1:]) and len(rewards) == 1 + 2
        assert partial[1] < partial[2] == pytest.approx(1.0)
        # the last turn earns the solved reward: the progress, the compile bonus and the final total of 1
        solved = (1.0 - partial[1]) + shaping.compile_bonus - shaping.step_penalty + shaping.final_weight
        assert rewards[-1] == pytest.approx(solved, abs=1e-6) and rewards[-1] == max(rewards)
    table = capsys.readouterr().out
    assert table.splitlines()[0].split() == ["turn", "env", "0", "env", "1"] and "solved" in table


def test_a_reply_that_fails_to_fold_is_written_again() -> None:
    example = _example()
    folder = example.ScriptedFolder(lines=(((0.5, 0.0), (0.0, 1.0)), ((0.5, 0.5), (1.0, 0.0))))
    assert folder.reply({"obs_str": "start"}) == example.OPENING_REPLY
    first = folder.reply({"obs_str": "Your pattern does not fold flat (CSE E_SCHEMA): ..."})
    again = folder.reply({"obs_str": "Your pattern does not fold flat (GIF E_GEOM_MAEKAWA): ..."})
    second = folder.reply({"obs_str": "Your pattern folds flat; partial score 0.5."})
    assert first == again and "step 1 of 2" in first and "step 2 of 2" in second


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.text(max_size=300), st.binary(max_size=100).map(lambda b: b.decode("latin-1")),
                 st.sampled_from(["{", "```json\n{\"vertices_coords\": 5}\n```", "null", "[]", "{}"])))
def test_malformed_replies_are_scored_failures(text: str) -> None:
    interface = CodeTextInterface(budget=3, images=False, folds=(2,))
    interface.reset(seed=0)
    _, reward, done, info = interface.step(text)
    assert not done and reward < 0 and info["answer_partial_score"] == -1.0
    assert info["error_class"] != "" and not info["metrics"]["turn_metrics"]["action_is_effective"]
