"""The `cardtable` command line.

Each area of the project contributes its subcommands from a module under
`referee/commands/`; this file only builds the parser and dispatches. A command
module exposes `register(subparsers)`, which adds its subparsers and sets
`func` (called with the parsed args, returning the exit code) on each.
Modules are imported lazily-by-list so that one broken area cannot hide the others'
commands: a module that fails to import is reported when its command is used.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

#: Command modules, in the order their commands appear in `--help`.
COMMAND_MODULES: tuple[str, ...] = (
    "referee.commands.demo",
    "referee.commands.engine",
    "referee.commands.vision",
    "referee.commands.bridge",
    "referee.commands.hardware",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cardtable",
        description="A referee for real card games (Kozel, Durak, Vzetki).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:  # area not written yet
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
