"""Hypothesis properties over every game: conservation, 120 points, undo, and that an
illegal event injected into a legal record is reported at exactly its line.

The injected faults are ones no hidden hands can explain, so both modes must catch
them: a card that is provably gone (played face up in a finished trick, or discarded
in Durak; never one that can come back to a hand), a seat acting out of turn, and a
wrong count of cards.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import Card
from engine.check import check_record
from engine.events import (
    Attack,
    BoutBeaten,
    Defend,
    Event,
    Molodka,
    Pass,
    Play,
    Take,
    Transfer,
)
from engine.games import GAME_NAMES, find_game
from engine.header import Header
from engine.record import record_lines
from engine.simulate import observe, simulate

PLAYERS = {"kozel": (4,), "kozel-trumps": (4,), "vzetki": (4,), "vzetki-duo": (2,),
           "durak": (2, 3, 4, 5, 6)}
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "kozel": [{}, {"balls_double_next": True}],
    "kozel-trumps": [{}, {"jack_of_clubs_declares": True}],
    "vzetki": [{}, {"trump": "S"}, {"top_rank": 5}],
    "vzetki-duo": [{}, {"top_rank": 6}],
    "durak": [{}, {"transfer": True}],
}
PROPS = settings(max_examples=25, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])


def in_play(view: dict[str, Any]) -> int:
    """Cards in hands, stock and on the table: the deck minus tricks and discards."""
    return sum(view["hand_sizes"]) + view["stock"] + len(view["table"]) + \
        view.get("table_down", 0)


def deck_size(state: Any) -> int:
    top = state.options.get("top_rank", 10)
    return {"kozel": 36, "kozel-trumps": 32, "durak": 36}.get(state.name, 4 * top)


def game_record(game: str, seed: int, which: int) -> tuple[Header, list[Event]]:
    counts = PLAYERS[game]
    options = OPTIONS[game][which % len(OPTIONS[game])]
    return simulate(game, random.Random(seed), players=counts[seed % len(counts)],
                    options=options)


@pytest.mark.parametrize("game", GAME_NAMES)
@PROPS
@given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, 5), cut=st.floats(0, 1))
def test_cards_conserved_and_undo_restores(game: str, seed: int, which: int,
                                           cut: float) -> None:
    header, events = game_record(game, seed, which)
    state = find_game(game).from_header(header)
    k = int(cut * len(events))
    keys = [state.state_key()]
    counts = [in_play(state.public_view())]
    assert counts[0] == deck_size(state)
    for event in events[:k]:
        state.apply(event)
        keys.append(state.state_key())
        counts.append(in_play(state.public_view()))
        assert counts[-1] <= counts[-2], "cards came back into play from nowhere"
        hook = getattr(state, "check_invariant", None)
        if hook is not None:
            hook()
    for i in range(k, 0, -1):
        state.undo()
        assert state.state_key() == keys[i - 1]
        assert in_play(state.public_view()) == counts[i - 1]


@pytest.mark.parametrize("game", ["kozel", "kozel-trumps"])
@PROPS
@given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, 5))
def test_points_total_120(game: str, seed: int, which: int) -> None:
    header, events = game_record(game, seed, which)
    state = find_game(game).from_header(header)
    for event in events:
        state.apply(event)
    assert sum(state.result()["points"]) == 120


def gone_cards(game: str, events: list[Event], k: int) -> list[Card]:
    """Cards that provably cannot be played again at event k (whatever the hands)."""
    if game == "durak":
        gone: list[Card] = []
        bout: list[Card] = []
        for event in events[:k]:
            if isinstance(event, (Attack, Transfer)):
                bout.extend(event.cards)
            elif isinstance(event, Defend):
                bout.extend(b for _, b in event.pairs)
            elif isinstance(event, BoutBeaten):
                gone.extend(bout)
                bout = []
            elif isinstance(event, Take):
                bout = []
        return gone
    if game == "kozel":
        # face up in a trick that surely finished: >= 4 plays/passes after it, and no
        # molodka since (a molodka sends the table back to the hands)
        out = []
        for j in range(k):
            after = events[j + 1:k]
            if isinstance(events[j], Play) and not any(isinstance(e, Molodka) for e in after) \
                    and sum(isinstance(e, (Play, Pass)) for e in after) >= 4:
                out.extend(events[j].cards)  # type: ignore[union-attr]
        return out
    return [c for e in events[:k] if isinstance(e, Play) for c in e.cards]


def inject(game: str, events: list[Event], kind: str, rnd: random.Random,
           players: int) -> tuple[int, Event] | None:
    """A position and an illegal event to put there instead of the legal one."""
    if kind == "gone":
        spots = [k for k, e in enumerate(events) if isinstance(e, (Play, Attack, Defend))
                 and gone_cards(game, events, k)]
        if not spots:
            return None
        k = rnd.choice(spots)
        card = rnd.choice(gone_cards(game, events, k))
        e = events[k]
        if isinstance(e, Defend):
            (a, _), *rest = e.pairs
            return k, Defend(e.seat, ((a, card), *rest))
        assert isinstance(e, (Play, Attack))
        return k, type(e)(e.seat, (card,) + e.cards[1:])
    if kind == "seat":
        kinds = (Defend, Take) if game == "durak" else (Play,)
        spots = [k for k, e in enumerate(events) if isinstance(e, kinds)]
        if not spots:
            return None
        k = rnd.choice(spots)
        e = events[k]
        seat = (e.seat + rnd.randrange(1, players)) % players  # type: ignore[union-attr]
        if isinstance(e, Take):
            return k, Take(seat)
        return k, type(e)(seat, e.pairs if isinstance(e, Defend) else e.cards)  # type: ignore
    # kind == "count": one card too many where the count is fixed by the rules
    if game in ("vzetki", "vzetki-duo", "kozel-trumps"):
        spots = [k for k, e in enumerate(events) if isinstance(e, Play)]
    elif game == "kozel":
        spots = [k for k, e in enumerate(events) if isinstance(e, Pass)]
    else:
        spots = [k for k, e in enumerate(events) if isinstance(e, Defend)]
    if not spots:
        return None
    k = rnd.choice(spots)
    e = events[k]
    used = {c for ev in events for c in getattr(ev, "cards", None) or ()}
    deck = find_game(game).deal(random.Random(0), players=players).hands
    pool = sorted({c for h in deck or () for c in h} - used, key=str) or [Card.parse("AS")]
    extra = rnd.choice(pool)
    if isinstance(e, Pass):
        return k, Pass(e.seat, e.count + 1)
    if isinstance(e, Defend):
        return k, Defend(e.seat, e.pairs + ((extra, extra),))
    assert isinstance(e, Play)
    return k, Play(e.seat, e.cards + (extra,))


@pytest.mark.parametrize("game", GAME_NAMES)
@PROPS
@given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, 5),
       kind=st.sampled_from(["gone", "seat", "count"]), observed=st.booleans(),
       pick=st.integers(0, 2**32 - 1))
def test_injected_illegal_event_is_reported_at_its_line(
    game: str, seed: int, which: int, kind: str, observed: bool, pick: int
) -> None:
    header, events = game_record(game, seed, which)
    players = header.players or find_game(game).min_players
    if observed:
        header, events = header.without_hands(), [observe(e) for e in events]
    injected = inject(game, events, kind, random.Random(pick), players)
    if injected is None:
        return
    k, bad = injected
    if game == "kozel" and not observed and isinstance(bad, Pass):
        bad = Pass(bad.seat, bad.count)  # a count-only pass is illegal with hands too
    lines = record_lines(header, events[:k] + [bad] + events[k + 1:])
    out = check_record(lines)
    assert out.exit_code == 1, (kind, k, bad, out.output)
    assert out.output["event"] == k + 2, (kind, k, bad, out.output)
