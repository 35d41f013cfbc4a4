"""Knob schemas: the generator options of every task, typed and validated before anything is generated.

Each task names a :class:`Knobs` subclass as its ``knob_schema``; :func:`parse_knobs` validates the knobs a user
gave against it. A knob the schema does not know, or one of the wrong type or out of range, is refused with an
:class:`~foldbench.errors.InvalidKnobError` of one line that names the task and the knob (and, for an unknown
knob, the closest known one). Lists may be given as comma-separated strings (``"1,2,5"``), as the command line
does.

    >>> class Toy(Knobs):
    ...     groups: CommaList[int] | None = None
    >>> parse_knobs(Toy, "toy/task-v1", {"groups": "1,2"}).groups
    (1, 2)
    >>> parse_knobs(Toy, "toy/task-v1", {"grups": [1]})
    Traceback (most recent call last):
    ...
    foldbench.errors.InvalidKnobError: toy/task-v1: unknown knob 'grups'. Did you mean: groups?
"""

from __future__ import annotations

import ast
import inspect
import json
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from types import UnionType
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError

from foldbench import jsontext
from foldbench.errors import InvalidKnobError, did_you_mean

__all__ = ["CommaList", "KnobInfo", "Knobs", "Whole", "apply_preset", "knob_infos", "knob_value", "parse_knobs"]

K = TypeVar("K", bound="Knobs")
T = TypeVar("T")


def _split_commas(value: Any) -> Any:
    """``"1, 2,5"`` -> ``["1", "2", "5"]`` (converted by the item type after); a lone scalar -> a list of it."""
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return [value]
    return value


def _not_bool(value: Any) -> Any:
    if isinstance(value, bool):
        raise ValueError("must be a whole number, not true or false")
    return value


Whole = Annotated[int, BeforeValidator(_not_bool)]
"""An integer (also given as digits in a string), never a boolean."""

CommaList = Annotated[tuple[T, ...], BeforeValidator(_split_commas)]
"""A non-string sequence of ``T``, also given as a comma-separated string or a single value."""


class Knobs(BaseModel):
    """The base of every knob schema: frozen, and no field it does not declare.

    Subclasses declare each knob as a field with a type, a default (None for "the task decides") and a
    docstring; validators state the allowed values. The docstrings are read from the source by
    :func:`knob_infos` when a listing asks for them, not when the schema is defined (reading source on every
    import would cost each command that never lists knobs, such as an evaluation, tens of milliseconds).
    """

    # each schema's validator is built when knobs are first validated (an evaluation never validates any)
    model_config = ConfigDict(extra="forbid", frozen=True, strict=False, defer_build=True)

    def given(self) -> dict[str, Any]:
        """The knobs that were set explicitly, as plain values (tuples as lists)."""
        return {
            name: list(value) if isinstance(value, tuple) else value
            for name, value in self.model_dump(exclude_unset=True).items()
        }


def parse_knobs(
    schema: type[K],
    task_id: str,
    knobs: Mapping[str, Any] | None,
    *,
    error_type: type[InvalidKnobError] = InvalidKnobError,
) -> K:
    """``knobs`` validated against ``schema``, or an error naming the first bad knob.

    Args:
        schema: the task's knob schema.
        task_id: named at the start of the message.
        knobs: the knobs as given (None for none).
        error_type: the :class:`~foldbench.errors.InvalidKnobError` subclass a family raises.
    """
    try:
        return schema.model_validate(dict(knobs or {}))
    except ValidationError as error:
        raise error_type(_message(schema, task_id, error)) from None


def _message(schema: type[Knobs], task_id: str, error: ValidationError) -> str:
    first = error.errors()[0]
    name = str(first["loc"][0]) if first["loc"] else "?"
    known = sorted(schema.model_fields)
    if first["type"] == "extra_forbidden":
        hint = did_you_mean(name, known) if known else " This task has no knobs."
        return f"{task_id}: unknown knob {name!r}.{hint}"
    reason = first["msg"].removeprefix("Value error, ")
    shown = repr(first["input"])
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return f"{task_id}: knob {name!r}: {reason[:1].lower()}{reason[1:]} (got {shown})"


def knob_value(text: str) -> Any:
    """A knob value given on the command line: JSON when it parses (``256``, ``false``, ``[1, 2]``), else the
    text itself (``back``, ``1,2``).

    >>> knob_value("256"), knob_value("false"), knob_value("back"), knob_value("1,2")
    (256, False, 'back', '1,2')
    """
    try:
        return jsontext.loads(text)
    except ValueError:
        return text


@dataclass(frozen=True, slots=True)
class KnobInfo:
    """One knob of a schema, for help texts: its name, type, default (empty when the task decides) and
    description."""

    name: str
    type: str
    default: str
    description: str


def _type_name(annotation: Any) -> str:
    """A short, readable name of a knob's type: ``int``, ``list of int``, ``front|back|mixed``."""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        return _type_name(args[0])
    if origin in (Union, UnionType):
        return " or ".join(_type_name(a) for a in args if a is not type(None))
    if origin is Literal:
        return "|".join(str(a) for a in args)
    if origin is tuple:
        return f"list of {_type_name(args[0])}"
    return getattr(annotation, "__name__", str(annotation))


def _attribute_docstrings(cls: type) -> dict[str, str]:
    """The docstrings written under the annotated attributes of ``cls``'s own body; none when its source cannot
    be read (a class defined at the prompt) or it declares no attribute.

    >>> _attribute_docstrings(Knobs)
    {}
    >>> class Typed(Knobs):
    ...     size: int = 8
    >>> _attribute_docstrings(Typed)
    {}
    """
    try:
        source = textwrap.dedent(inspect.getsource(cls))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError):
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs = {}
    for statement, following in zip(body, body[1:], strict=False):
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[statement.target.id] = inspect.cleandoc(following.value.value)
    return docs


def _description(schema: type[Knobs], name: str, given: str | None) -> str:
    """A knob's description: the field's own, else the docstring under its declaration in the class of
    ``schema``'s hierarchy that declares it last."""
    if given is not None:
        return given
    for cls in schema.__mro__:
        if name in vars(cls).get("__annotations__", {}):
            return _attribute_docstrings(cls).get(name, "")
    return ""


def knob_infos(schema: type[Knobs]) -> list[KnobInfo]:
    """The knobs of ``schema``, in declaration order."""
    return [
        KnobInfo(
            name,
            _type_name(field.annotation),
            "" if field.default is None else json.dumps(field.default),
            " ".join(_description(schema, name, field.description).split()),
        )
        for name, field in schema.model_fields.items()
    ]


def apply_preset(options: K, task_id: str, presets: Mapping[str, Mapping[str, Any]]) -> K:
    """``options`` with the knob values of the preset its ``preset`` knob names, for every knob the user did not
    set (a knob given explicitly wins over the preset). Options without a ``preset`` knob, or with it unset, come
    back unchanged.

    >>> class Toy(Knobs):
    ...     preset: Literal["paper"] | None = None
    ...     size: int = 8
    ...     side: str = "front"
    >>> papers = {"paper": {"size": 512, "side": "back"}}
    >>> given = parse_knobs(Toy, "toy/task-v1", {"preset": "paper", "side": "front"})
    >>> chosen = apply_preset(given, "toy/task-v1", papers)
    >>> chosen.size, chosen.side
    (512, 'front')

    Raises:
        InvalidKnobError: the preset is not one of ``presets``.
    """
    name = getattr(options, "preset", None)
    if name is None:
        return options
    if name not in presets:
        raise InvalidKnobError(f"{task_id}: unknown preset {name!r}.{did_you_mean(str(name), sorted(presets))}")
    filled = {knob: value for knob, value in presets[name].items() if knob not in options.model_fields_set}
    return parse_knobs(type(options), task_id, {**filled, **options.given()})
