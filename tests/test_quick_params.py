"""Options read without pydantic give exactly what typer's own coercion gives: the same values of the same types,
or the same error message, for any spelling."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import pytest
import typer
from hypothesis import example, given
from hypothesis import strategies as st

from foldbench.cli._quick_params import read_plain_values_directly

try:
    from typer._click.exceptions import ClickException
except ImportError:  # pragma: no cover - older typer runs on click itself
    from click.exceptions import ClickException  # type: ignore[no-redef,import-not-found]


def _sample(
    whole: Annotated[int, typer.Option()] = 3,
    positive: Annotated[int | None, typer.Option(min=1)] = None,
    size: Annotated[int, typer.Option(min=16, max=8192)] = 512,
    ratio: Annotated[float, typer.Option(min=0.0)] = 60.0,
    scale: Annotated[float, typer.Option(min=-2.5, max=1e3)] = 1,
    free: Annotated[float | None, typer.Option()] = None,
    name: Annotated[str, typer.Option()] = "x",
    out: Annotated[Path | None, typer.Option()] = None,
    names: Annotated[list[str] | None, typer.Option()] = None,
    flag: Annotated[bool, typer.Option("--flag")] = False,
) -> None:
    """A command with one option of every kind read directly."""


def _command(direct: bool) -> Any:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)
    app.command()(_sample)
    command = typer.main.get_command(app)
    return read_plain_values_directly(command) if direct else command


def _outcome(direct: bool, args: list[str]) -> tuple[str, Any]:
    """The parsed values (written out, with their types: nan equals nan) or the error message of a fresh command
    given ``args``."""
    try:
        with _command(direct).make_context("sample", list(args)) as ctx:
            return "values", {name: (repr(value), type(value)) for name, value in ctx.params.items()}
    except ClickException as error:
        return type(error).__name__, error.format_message()


NUMBER_TEXT = st.text(alphabet="0123456789+-._eE xaninf", max_size=12)
OPTIONS = ["--whole", "--positive", "--size", "--ratio", "--scale", "--free", "--name", "--out", "--names"]


@given(option=st.sampled_from(OPTIONS), text=NUMBER_TEXT | st.from_regex(r"[+-]?[0-9]{1,25}(\.[0-9]{0,20})?"))
@example(option="--size", text="16")
@example(option="--size", text="8192")
@example(option="--size", text="8193")
@example(option="--ratio", text="-0")
@example(option="--ratio", text="-0.0")
@example(option="--ratio", text="1e99")
@example(option="--scale", text="-2.5")
@example(option="--scale", text="1000.0")
@example(option="--scale", text="1.e5")
@example(option="--positive", text="0")
@example(option="--positive", text="007")
@example(option="--whole", text="1_0")
@example(option="--free", text="nan")
@example(option="--free", text="-inf")
@example(option="--out", text="")
@example(option="--whole", text="9999999999999999999")
@example(option="--free", text="1e-400")
def test_a_value_reads_as_typer_reads_it(option: str, text: str) -> None:
    args = [option, text]
    assert _outcome(True, args) == _outcome(False, args)


@given(st.lists(st.sampled_from(OPTIONS + ["--flag"]).flatmap(
    lambda option: st.just([option]) if option == "--flag" else st.tuples(st.just(option), NUMBER_TEXT).map(list)),
    max_size=4))
def test_a_whole_command_line_reads_as_typer_reads_it(parts: list[list[str]]) -> None:
    args = [word for part in parts for word in part]
    assert _outcome(True, args) == _outcome(False, args)


def test_defaults_and_plain_values_are_read_without_typer_coercion(tmp_path: Path) -> None:
    command = _command(True)
    with command.make_context("sample", ["--size", "20", "--ratio", "2.5", "--out", str(tmp_path), "--flag",
                                         "--names", "a", "--names", "b"]) as ctx:
        assert ctx.params == {"whole": 3, "positive": None, "size": 20, "ratio": 2.5, "scale": 1.0, "free": None,
                              "name": "x", "out": tmp_path, "names": ["a", "b"], "flag": True}
        assert type(ctx.params["scale"]) is float
    assert all(param._runtime_param._typer_coercion == [] for param in command.params)  # never needed


@pytest.mark.parametrize("value", ["0", "abc", "1_0"])
def test_a_value_only_typer_reads_is_handed_to_it(value: str) -> None:
    command = _command(True)
    try:
        command.make_context("sample", ["--positive", value]).close()
    except ClickException:
        pass
    positive = next(param for param in command.params if param.name == "positive")
    assert len(positive._runtime_param._typer_coercion) == 1
