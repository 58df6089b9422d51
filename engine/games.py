"""The explicit registry of games: no registration by import side effect.

Every game the referee knows is listed here by name, with the module and class that
implement it. Modules are imported only when a game is asked for, so a game whose
module is missing or broken fails alone (its tests, its records) and the others keep
working.

>>> GAME_NAMES
('kozel', 'kozel-trumps', 'vzetki', 'vzetki-duo', 'durak')
>>> find_game("vzetki").name
'vzetki'
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

from engine.errors import RecordError

if TYPE_CHECKING:
    from engine.game import GameState

#: name in the record header -> (module, state class)
_WHERE: dict[str, tuple[str, str]] = {
    "kozel": ("engine.kozel", "KozelState"),
    "kozel-trumps": ("engine.kozel_trumps", "KozelTrumpsState"),
    "vzetki": ("engine.vzetki", "VzetkiState"),
    "vzetki-duo": ("engine.vzetki_duo", "VzetkiDuoState"),
    "durak": ("engine.durak", "DurakState"),
}

#: Every game, in a fixed order (the order of RULES.md).
GAME_NAMES: tuple[str, ...] = tuple(_WHERE)


def game_module(name: str) -> ModuleType:
    """The module implementing game `name` (it holds `match_step` too).

    Raises:
        RecordError: `name` is not a game (the message lists the games).
    """
    try:
        module_name, _ = _WHERE[name]
    except KeyError:
        raise RecordError(
            f"unknown game {name!r} (games: {', '.join(GAME_NAMES)})"
        ) from None
    return importlib.import_module(module_name)


def find_game(name: str) -> type[GameState]:
    """The state class for the header's `game` name.

    Raises:
        RecordError: `name` is not a game.
        ImportError: the game's module is missing or broken (a bug, not bad input).
    """
    module = game_module(name)
    cls: type[GameState] = getattr(module, _WHERE[name][1])
    return cls


def __getattr__(attr: str) -> object:
    """`GAMES`: the five state classes, imported on first use."""
    if attr == "GAMES":
        return tuple(find_game(n) for n in GAME_NAMES)
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
