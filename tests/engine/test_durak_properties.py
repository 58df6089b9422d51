"""Durak properties over random legal games (hypothesis picks seeds, seats and options).

- the listed events are sorted, unique, legal, and present exactly until the end;
- cards are conserved (hands + stock + table + discard = 36) and undo restores the state;
- the same game without hands is accepted event for event, ending the same way (the
  observed mode never rejects a legal game), with the trump card shown or not;
- a beat that does not beat and a throw-in of a rank not on the table are rejected in
  both modes, wherever they turn up.
"""

from __future__ import annotations

import dataclasses
import json
import random

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.durak import DurakState
from engine.durak_rules import beats
from engine.errors import IllegalPlay
from engine.events import Attack, Defend, Event, event_to_json

games = st.tuples(
    st.integers(0, 10**6),  # seed
    st.integers(2, 6),  # players
    st.booleans(),  # transfer
    st.booleans(),  # the observed header shows the trump card
)


def _states(seed: int, players: int, transfer: bool, shown: bool) -> tuple[DurakState, DurakState]:
    header = DurakState.deal(
        random.Random(seed), players=players, dealer=seed % players, options={"transfer": transfer}
    )
    seen = header.without_hands()
    if not shown:
        seen = dataclasses.replace(seen, trump_card=None)
    known, observed = DurakState.from_header(header), DurakState.from_header(seen)
    assert isinstance(known, DurakState) and isinstance(observed, DurakState)
    return known, observed


def _rule(state: DurakState, event: object) -> str | None:
    try:
        state.apply(event)  # type: ignore[arg-type]
    except IllegalPlay as exc:
        return exc.rule
    state.undo()
    return None


@settings(max_examples=25, deadline=None)
@given(games)
def test_random_games_keep_the_books(game: tuple[int, int, bool, bool]) -> None:
    seed, players, transfer, shown = game
    known, observed = _states(seed, players, transfer, shown)
    rng = random.Random(seed)
    while True:
        events = known.legal_events()
        texts = [json.dumps(event_to_json(e), sort_keys=True) for e in events]
        assert texts == sorted(set(texts))
        assert bool(events) == (not known.complete)
        if not events:
            break
        acting = {getattr(e, "seat", None) for e in events} - {None}
        assert acting <= known.to_act()
        p = known._p
        assert sum(p.sizes) + len(p.stock) + len(p.table_cards) + len(p.discard) == 36
        assert [len(h) for h in p.hands] == list(p.sizes)
        event = events[rng.randrange(len(events))]
        for other in rng.sample(events, min(4, len(events))):
            assert known.is_legal(other)
        before = known.state_key()
        known.apply(event)
        known.undo()
        assert known.state_key() == before
        known.apply(event)
        observed.apply(event)
        assert observed.public_view()["hand_sizes"] == known.public_view()["hand_sizes"]
        assert observed.to_act() >= known.to_act()
    assert observed.complete and observed.result() == known.result()


@settings(max_examples=15, deadline=None)
@given(games)
def test_bad_beats_and_throw_ins_are_caught_in_both_modes(
    game: tuple[int, int, bool, bool],
) -> None:
    seed, players, transfer, shown = game
    known, observed = _states(seed, players, transfer, shown)
    rng = random.Random(seed)
    checked = 0
    while not known.complete:
        p = known._p
        if p.table and p.defender is not None:
            ranks = {c.rank for c in p.table_cards}
            for a in p.unbeaten:
                for b in p.hands[p.defender]:
                    if not beats(b, a, known.trump):
                        bad = Defend(p.defender, ((a, b),))
                        assert _rule(known, bad) == _rule(observed, bad) == "durak.beat"
                        checked += 1
            if len(p.table) < p.limit:
                for s in range(players):
                    if s == p.defender or s in p.out:
                        continue
                    for c in p.hands[s]:
                        if c.rank not in ranks:
                            bad_in = Attack(s, (c,))
                            assert (
                                _rule(known, bad_in)
                                == _rule(observed, bad_in)
                                == "durak.throw_in_rank"
                            )
                            checked += 1
        events = known.legal_events()
        event = events[rng.randrange(len(events))]
        known.apply(event)
        observed.apply(event)
    assert checked > 0


def _merged(state: DurakState, events: list[Event]) -> list[Event]:
    """The same game with runs of throw-ins by one seat, and runs of defends, written as
    single events (legal too, but not in the canonical list). `state` replays them."""
    out: list[Event] = []
    last_was_throw_in = False
    for event in events:
        last = out[-1] if out else None
        throw_in = isinstance(event, Attack) and bool(state._p.table)
        if throw_in and last_was_throw_in and isinstance(last, Attack) and last.seat == event.seat:
            out[-1] = Attack(event.seat, last.cards + event.cards)
        elif isinstance(event, Defend) and isinstance(last, Defend):
            out[-1] = Defend(event.seat, last.pairs + event.pairs)
        else:
            out.append(event)
        last_was_throw_in = throw_in
        state.apply(event)
    return out


@settings(max_examples=15, deadline=None)
@given(games)
def test_multi_card_throw_ins_and_defends_are_accepted_in_both_modes(
    game: tuple[int, int, bool, bool],
) -> None:
    seed, players, transfer, shown = game
    known, observed = _states(seed, players, transfer, shown)
    rng = random.Random(seed)
    while not known.complete:
        events = known.legal_events()
        known.apply(events[rng.randrange(len(events))])
    fresh, fresh_observed = _states(seed, players, transfer, shown)
    merged = _merged(_states(seed, players, transfer, shown)[0], list(known.history))
    for event in merged:
        fresh.apply(event)
        fresh_observed.apply(event)
    assume(len(merged) < len(known.history))  # something was merged (not in every game)
    assert fresh.complete and fresh_observed.complete
    assert fresh.result() == fresh_observed.result() == known.result()
