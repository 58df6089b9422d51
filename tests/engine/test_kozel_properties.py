"""Both Kozel games: with known hands, an event is accepted exactly when `legal_events`
lists it. Candidates are drawn at random around each position of random games (the
seat to act, other seats, cards from the hand and from anywhere in the deck), so a
rule that `apply` enforces but `legal_events` forgets, or the reverse, shows up.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Suit
from engine.events import Event, Exchange, Molodka, Pass, Play
from engine.kozel import KozelState
from engine.kozel_position import DECK as KOZEL_DECK
from engine.kozel_trumps import KozelTrumpsState
from engine.kozel_trumps_rules import DECK as TRUMPS_DECK


def _norm(ev: Event) -> tuple:
    """An event up to the order its cards are listed in (the order means nothing)."""
    if isinstance(ev, (Play, Pass, Molodka)):
        assert ev.cards is not None
        return (type(ev).__name__, ev.seat, frozenset(ev.cards))
    return (type(ev).__name__, ev)


def _kozel_candidates(state: KozelState, rng: random.Random) -> list[Event]:
    p = state.position
    assert p.hands is not None
    out: list[Event] = []
    for _ in range(12):
        seat = rng.choice([*state.to_act(), rng.randrange(4)]) if state.to_act() else 0
        hand = sorted(p.hands[seat], key=str)
        k = rng.randint(1, 4)
        pool = hand if hand and rng.random() < 0.8 else list(KOZEL_DECK)
        cards = tuple(rng.sample(pool, min(k, len(pool))))
        if not cards:
            continue
        out.append(Play(seat, cards) if rng.random() < 0.6 else Pass(seat, len(cards), cards))
        suit = rng.choice(list(Suit))
        same = [c for c in KOZEL_DECK if c.suit is suit]
        out.append(Molodka(rng.randrange(4), tuple(rng.sample(same, 4))))
    return out


def _trumps_candidates(state: KozelTrumpsState, rng: random.Random) -> list[Event]:
    p = state.position
    assert p.hands is not None
    out: list[Event] = []
    for _ in range(12):
        seat = rng.randrange(4)
        hand = sorted(p.hands[seat], key=str)
        card = rng.choice(hand) if hand and rng.random() < 0.8 else rng.choice(TRUMPS_DECK)
        out.append(Play(seat, (card,)))
        if not p.started:
            partner = sorted(p.hands[(seat + 2) % 4], key=str)
            out.append(Exchange(seat, card, rng.choice(partner)))
    return out


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_kozel_accepts_exactly_the_listed_events(seed):
    rng = random.Random(seed)
    state = KozelState.from_header(KozelState.deal(rng, dealer=seed % 4))
    assert isinstance(state, KozelState)
    while not state.complete:
        legal = state.legal_events()
        listed = {_norm(e) for e in legal}
        assert len(listed) == len(legal)
        for ev in _kozel_candidates(state, rng) + legal[:5]:
            assert state.is_legal(ev) == (_norm(ev) in listed), ev
        state.apply(legal[rng.randrange(len(legal))])


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_kozel_trumps_accepts_exactly_the_listed_events(seed):
    rng = random.Random(seed)
    state = KozelTrumpsState.from_header(KozelTrumpsState.deal(rng, dealer=seed % 4))
    assert isinstance(state, KozelTrumpsState)
    while not state.complete:
        legal = state.legal_events()
        listed = {_norm(e) for e in legal}
        for ev in _trumps_candidates(state, rng):
            assert state.is_legal(ev) == (_norm(ev) in listed), ev
        state.apply(legal[rng.randrange(len(legal))])
