"""Option values read without pydantic when that cannot change the outcome.

Typer (from 0.22) turns every option value into its declared type with a pydantic ``TypeAdapter``; importing
pydantic for that costs about as much as everything else ``foldbench fold`` imports before it folds. So the
commands of the command line read their plain values themselves: a whole number, a decimal number, a string, a
path, a flag, or a list of these, in the few spellings that pydantic reads the same way (``"12"``, ``"+3"``, ``"0.5"``,
``"1e-3"``, any string, a path whose checks typer itself then makes), and within the option's bounds. Any other
value (an odd spelling, a value out of range, a type not listed) goes to typer's own pydantic coercion, so every
accepted value and every error message is exactly typer's. On a typer without this coercion layer (before 0.22,
on click) :func:`read_plain_values_directly` changes nothing.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args, get_origin

__all__ = ["read_plain_value_directly", "read_plain_values_directly"]

try:
    from typer._coercion import RuntimeParam, build_runtime_param
    from typer._param_types import coerce_cli_path
except ImportError:  # pragma: no cover - typer before 0.22 coerces with click's types, not pydantic
    RuntimeParam = None  # type: ignore[assignment,misc]

WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,18}")
DECIMAL_NUMBER = re.compile(r"[+-]?(?:[0-9]{1,15}(?:\.[0-9]{1,15})?|\.[0-9]{1,15})(?:[eE][+-]?[0-9]{1,2})?")
"""The spellings read here; numbers written otherwise (``1_000``, ``" 5"``, ``inf``, ``0x10``) go to pydantic."""

_UNSURE = object()


def read_plain_values_directly(command: Any) -> Any:
    """Make ``command`` (a click command built by typer), its ``--help`` flag and its subcommands read plain
    values without pydantic. Returns ``command``.
    """
    if RuntimeParam is None:  # pragma: no cover - old typer
        return command
    for param in getattr(command, "params", ()):
        read_plain_value_directly(param)
    if "get_help_option" not in vars(command):  # typer makes the flag on first use; read it directly then
        typer_help_option = command.get_help_option

        def get_help_option(ctx: Any) -> Any:
            return read_plain_value_directly(typer_help_option(ctx))

        command.get_help_option = get_help_option
    for subcommand in getattr(command, "commands", {}).values():
        read_plain_values_directly(subcommand)
    return command


def read_plain_value_directly(param: Any) -> Any:
    """Make one typer parameter read plain values without pydantic (unless its coercion is built already).

    Returns ``param``.
    """
    descriptor = getattr(param, "type_descriptor", None)
    if (RuntimeParam is not None and descriptor is not None and getattr(param, "_runtime_param", True) is None
            and _handled(descriptor)):
        param._runtime_param = _PlainValues(descriptor.parameter_info, descriptor.annotation, descriptor)
    return param


def _handled(descriptor: Any) -> bool:
    info = descriptor.parameter_info
    if info.parser is not None or getattr(info, "click_type", None) is not None or descriptor.file_annotation:
        return False
    annotation = descriptor.annotation
    if get_origin(annotation) is list:
        (annotation,) = get_args(annotation) or (None,)
    return annotation in (bool, int, float, str, Path)


if RuntimeParam is not None:

    @dataclass(frozen=True)
    class _PlainValues(RuntimeParam):  # type: ignore[misc,valid-type]
        """Reads a plain value directly; hands anything else to the coercion typer would have built."""

        descriptor: Any = None
        _typer_coercion: list[Any] = field(default_factory=list, compare=False, repr=False)

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            try:
                plain = _plain_value(self.annotation, self.parameter_info, value, param, ctx)
            except Exception:  # whatever fails here is typer's to report, in its own words
                plain = _UNSURE
            if plain is not _UNSURE:
                return plain
            if not self._typer_coercion:
                self._typer_coercion.append(build_runtime_param(self.descriptor))
            return self._typer_coercion[0]._coerce_value(value, param=param, ctx=ctx)


def _plain_value(annotation: Any, info: Any, value: Any, param: Any, ctx: Any) -> Any:
    """``value`` as typer's pydantic coercion would return it, or ``_UNSURE``."""
    if get_origin(annotation) is list:
        (item_type,) = get_args(annotation)
        items = [_plain_value(item_type, info, item, param, ctx)
                 for item in (value if isinstance(value, list | tuple) else [value])]
        return _UNSURE if any(item is _UNSURE for item in items) else items
    if annotation is int or annotation is float:
        return _number(annotation, info, value)
    if annotation is str:
        return value if type(value) is str else _UNSURE
    if annotation is bool:
        return value if type(value) is bool else _UNSURE
    if annotation is Path and info.path_type in (None, Path):
        if type(value) is str:
            value = Path(value)
        if not isinstance(value, Path):
            return _UNSURE
        return coerce_cli_path(value, info, path_type=Path, param=param, ctx=ctx)
    return _UNSURE


def _number(annotation: type, info: Any, value: Any) -> Any:
    if info.clamp:
        return _UNSURE
    if annotation is int:
        if type(value) is int:
            number: Any = value
        elif type(value) is str and WHOLE_NUMBER.fullmatch(value):
            number = int(value)
        else:
            return _UNSURE
        if any(bound is not None and type(bound) is not int for bound in (info.min, info.max)):
            return _UNSURE
    else:
        if type(value) is float or (type(value) is int and abs(value) <= 2**53):
            number = float(value)
        elif type(value) is str and DECIMAL_NUMBER.fullmatch(value):
            number = float(value)
        else:
            return _UNSURE
        if not math.isfinite(number):
            return _UNSURE
    if (info.min is not None and not number >= info.min) or (info.max is not None and not number <= info.max):
        return _UNSURE  # typer's coercion writes the message
    return number
