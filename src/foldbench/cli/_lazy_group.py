"""A typer group whose subcommands' modules are imported only when that subcommand is run (or its help shown).

Each subcommand is named by ``(module, attribute, one-line help)``: the attribute is a command function or a
:class:`typer.Typer` sub-app. The group's own ``--help`` lists the one-line helps without importing anything,
so ``foldbench fold`` imports the fold command alone and ``foldbench --help`` none of them. A loaded command
reads its plain option values without pydantic (:mod:`foldbench.cli._quick_params`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, ClassVar

import typer
from typer.core import TyperCommand, TyperGroup

from foldbench.cli._quick_params import read_plain_value_directly, read_plain_values_directly

__all__ = ["LazyCommand", "LazyGroup", "load_command"]


@dataclass(frozen=True)
class LazyCommand:
    """Where a subcommand lives and the line the group's help shows for it."""

    module: str
    attribute: str
    short_help: str


def load_command(name: str, entry: LazyCommand) -> Any:
    """Import ``entry``'s module and make its command (or sub-app) a click command called ``name``."""
    target = getattr(importlib.import_module(entry.module), entry.attribute)
    holder = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)
    holder.callback()(_no_options)  # a callback keeps the holder a group even with one command
    if isinstance(target, typer.Typer):
        holder.add_typer(target, name=name)
    else:
        holder.command(name)(target)
    command = typer.main.get_command(holder).commands[name]  # type: ignore[attr-defined]
    return read_plain_values_directly(command)


def _no_options() -> None:
    """The holder group's callback: no options of its own."""


class LazyGroup(TyperGroup):
    """The root group: :attr:`lazy_commands` come first in listings, each imported on first use."""

    lazy_commands: ClassVar[dict[str, LazyCommand]] = {}

    def list_commands(self, ctx: Any) -> list[str]:
        eager = [name for name in super().list_commands(ctx) if name not in self.lazy_commands]
        return [*self.lazy_commands, *eager]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands and cmd_name in self.lazy_commands:
            self.commands[cmd_name] = load_command(cmd_name, self.lazy_commands[cmd_name])
        command = super().get_command(ctx, cmd_name)
        return read_plain_values_directly(command) if command is not None else None

    def get_help_option(self, ctx: Any) -> Any:
        """The ``--help`` flag, read without pydantic like the subcommands' options."""
        return read_plain_value_directly(super().get_help_option(ctx))

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The command list of ``--help``: loaded commands describe themselves, the others by their line."""
        shown = []
        for name in self.list_commands(ctx):
            command = self.commands.get(name) or TyperCommand(name=name, help=self.lazy_commands[name].short_help)
            if not command.hidden:
                shown.append((name, command))
        if shown:
            limit = formatter.width - 6 - max(len(name) for name, _ in shown)
            with formatter.section("Commands"):
                formatter.write_dl([(name, command.get_short_help_str(limit)) for name, command in shown])
