"""Random legal games: the engine playing against itself, for tests and benchmarks.

`simulate` deals with a seeded `random.Random` and then picks uniformly among
`legal_events()` until the game is complete. With `observed=True` it returns what a
camera-only record of the same game holds: the header without hands, and events with
the unseen parts left out (Kozel passes as counts, Kozel-trumps exchanges as
`exchange: true`).

>>> import random
>>> header, events = simulate("vzetki", random.Random(1))
>>> header.game, len(events) > 0
('vzetki', True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.errors import RecordError
from engine.events import Event, Exchange, Pass
from engine.game import GameState
from engine.games import find_game
from engine.header import Header


class SimulationTooLong(RuntimeError):
    """A simulated game passed its `max_events` bound: a game that never ends is a bug."""

    def __init__(self, game: str, max_events: int) -> None:
        self.game = game
        self.max_events = max_events
        super().__init__(f"{game}: no end after {max_events} events (max_events)")


def observe(event: Event) -> Event:
    """The event as a camera sees it: face-down cards become a count."""
    if isinstance(event, Pass) and event.cards is not None:
        return Pass(event.seat, event.count)
    if isinstance(event, Exchange) and event.give is not None:
        return Exchange(event.seat)
    return event


def play_randomly(state: GameState, rng: random.Random) -> list[Event]:
    """Play uniformly random legal events until the game is complete; returns them."""
    played: list[Event] = []
    bound = state.max_events
    while True:
        choices = state.legal_events()
        if not choices:
            return played
        if len(played) >= bound:
            raise SimulationTooLong(state.name, bound)
        event = choices[rng.randrange(len(choices))]
        state.apply(event)
        played.append(event)


def simulate(
    game_name: str,
    rng: random.Random,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    observed: bool = False,
    dealer: int | None = None,
) -> tuple[Header, list[Event]]:
    """Deal and play one random legal game; the record as (header, events).

    The dealer is drawn from `rng` unless given.

    Raises:
        RecordError: a player count or option the game does not have.
        SimulationTooLong: the game did not end within its `max_events`.
    """
    cls = find_game(game_name)
    n = players if players is not None else cls.min_players
    if not cls.min_players <= n <= cls.max_players:
        raise RecordError(
            f"{cls.name} is for {cls.min_players}..{cls.max_players} players, not {n}"
        )
    unknown = set(options or {}) - set(cls.option_defaults)
    if unknown:
        raise RecordError(
            f"unknown option(s) {', '.join(sorted(unknown))} for {cls.name} "
            f"(known: {', '.join(sorted(cls.option_defaults)) or 'none'})"
        )
    if dealer is None:
        dealer = rng.randrange(n)
    header = cls.deal(rng, players=players, dealer=dealer, options=dict(options or {}))
    state = cls.from_header(header)
    events = play_randomly(state, rng)
    if observed:
        return header.without_hands(), [observe(e) for e in events]
    return header, events
