"""The state object every game implements, and the template that keeps its books.

Like python-chess's `Board` and OpenSpiel's `State`: one object holds a game in
progress; the referee feeds it events one at a time with `apply`, takes the last one
back with `undo`, and asks `to_act`, `legal_events`, `complete` and `result`.

`apply` is a template method: the base class snapshots the state, calls the game's
`_apply` hook, and on `IllegalPlay` restores the snapshot, so a rejected event never
leaves the state half-changed. `undo` restores the snapshot taken before the event:
undo never re-runs rules in reverse.

Two modes (RECORD.md): with known hands (`header.hands`/`piles`) every rule is
enforced; observed (hands unknown) the state enforces only what a camera can prove,
and must never reject an event that some legal hidden hands could explain.
"""

from __future__ import annotations

import abc
import copy
import random
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.errors import HiddenInformation, IllegalPlay, RecordError
from engine.events import Event, Note
from engine.header import Header


class GameState(abc.ABC):
    """A game in progress. Build it with `from_header`; subclasses implement the hooks.

    Subclasses set the class attributes, and implement `deal`, `_setup`, `_apply`,
    `_snapshot`/`_restore`, `legal_events`, `to_act`, `complete`, `result` and
    `public_view`. `_snapshot` must return an equality-comparable value of the whole
    mutable state (tuples, frozensets): tests compare snapshots to prove that `undo`
    restores the exact state.
    """

    #: The name in the record header (`kozel`, `durak`, ...).
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: House-rule options by their RULES.md names, with defaults.
    option_defaults: ClassVar[Mapping[str, Any]] = {}
    #: An upper bound on the number of events in one game (for simulations and tests).
    max_events: ClassVar[int] = 1000

    def __init__(self, header: Header) -> None:
        """Use `from_header`: it validates the header first."""
        self.header = header
        self.players: int = header.players or self.min_players
        self.options: dict[str, Any] = {**self.option_defaults, **header.options}
        self.known: bool = not header.observed
        self.history: list[Event] = []
        self._stack: list[object] = []

    # ----- construction -------------------------------------------------------------

    @classmethod
    def from_header(cls, header: Header) -> GameState:
        """Start the game a header describes. Raises RecordError naming what is wrong."""
        if header.game != cls.name:
            raise RecordError(f"header names game {header.game!r}, not {cls.name!r}")
        unknown = set(header.options) - set(cls.option_defaults)
        if unknown:
            known = ", ".join(sorted(cls.option_defaults)) or "none"
            raise RecordError(
                f"unknown option(s) {', '.join(sorted(unknown))} for {cls.name} (known: {known})"
            )
        n = header.players or cls.min_players
        if not cls.min_players <= n <= cls.max_players:
            raise RecordError(
                f"{cls.name} is for {cls.min_players}..{cls.max_players} players, not {n}"
            )
        if header.dealer >= n:
            raise RecordError(f"dealer seat {header.dealer} does not exist with {n} players")
        state = cls(header)
        state._setup()
        return state

    @classmethod
    @abc.abstractmethod
    def deal(
        cls,
        rng: random.Random,
        *,
        players: int | None = None,
        dealer: int = 0,
        options: Mapping[str, Any] | None = None,
    ) -> Header:
        """Shuffle with `rng` and deal: a header with known hands (chance lives here only)."""

    @abc.abstractmethod
    def _setup(self) -> None:
        """Check the header against the game (card counts, duplicates, trump) and build
        the initial state. Raises RecordError."""

    # ----- the template ------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Check `event` against the rules and play it.

        Raises:
            IllegalPlay: the event breaks a rule (its `event` is set to this event's
                index in `history`); the state is left exactly as it was.
        """
        if isinstance(event, Note):
            self._stack.append(None)
            self.history.append(event)
            return
        snap = self._snapshot()
        try:
            self._apply(event)
        except IllegalPlay as exc:
            self._restore(snap)
            if exc.event is None:
                exc.event = len(self.history)
            raise
        self._stack.append(snap)
        self.history.append(event)

    def undo(self) -> Event:
        """Take back the last event and return it. Raises IndexError when there is none."""
        if not self.history:
            raise IndexError("nothing to undo")
        snap = self._stack.pop()
        if snap is not None:
            self._restore(snap)
        return self.history.pop()

    def is_legal(self, event: Event) -> bool:
        """Whether `apply(event)` would succeed now (it is tried and taken back)."""
        try:
            self.apply(event)
        except IllegalPlay:
            return False
        self.undo()
        return True

    def clone(self) -> GameState:
        """An independent copy with the same history (undo works on it too)."""
        new = copy.copy(self)
        new.history = list(self.history)
        new._stack = list(self._stack)
        new.options = dict(self.options)
        new._restore(self._snapshot())
        return new

    def state_key(self) -> object:
        """An equality-comparable value of the whole state (for undo/clone tests)."""
        return self._snapshot()

    def _require_known(self) -> None:
        if not self.known:
            raise HiddenInformation(f"{self.name}: hands are unknown in an observed record")

    # ----- hooks ---------------------------------------------------------------------

    @abc.abstractmethod
    def _apply(self, event: Event) -> None:
        """Validate and play one event (not a Note). Raise IllegalPlay to reject it."""

    @abc.abstractmethod
    def _snapshot(self) -> object:
        """The whole mutable state as an immutable, comparable value."""

    @abc.abstractmethod
    def _restore(self, snap: object) -> None:
        """Set the state from a `_snapshot` value (building fresh containers)."""

    @abc.abstractmethod
    def legal_events(self) -> list[Event]:
        """Every legal event now, for every seat that may act (known hands only).

        Sorted deterministically (by `event_to_json` text), no duplicates, empty exactly
        when the game is complete. Raises HiddenInformation for an observed record.
        """

    @abc.abstractmethod
    def to_act(self) -> frozenset[int]:
        """Seats that may act now (Durak: the defender and everyone who may throw in).
        Kozel's molodka may come from anyone holding one; it is not listed here."""

    @property
    @abc.abstractmethod
    def complete(self) -> bool:
        """True when the game has ended (stock and hands empty, or the fool is known)."""

    @abc.abstractmethod
    def result(self) -> dict[str, Any]:
        """The result as in RECORD.md (`points`/`defeat`, `pairs`, `tricks`, `fool`),
        for the game so far when not complete."""

    @abc.abstractmethod
    def public_view(self) -> dict[str, Any]:
        """What everyone at the table can see, for the referee's displays: at least
        `to_act` (list), `trump` (suit letter or None), `table` (cards on the table, as
        text), `hand_sizes`, `stock` (cards left), `last_trick_winner` (seat or None),
        and the running score keys of `result`."""
