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
from engine.errors import IllegalPlay
from engine.events import Event, Exchange, Molodka, Pass, Play
from engine.kozel import KozelState
from engine.kozel_position import DECK as KOZEL_DECK
from engine.kozel_trumps import KozelTrumpsState
from engine.kozel_trumps_rules import DECK as TRUMPS_DECK
from engine.simulate import observe


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


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.booleans())
def test_a_card_from_a_trick_pile_played_again_is_always_caught(seed, observed):
    rng = random.Random(seed)
    header = KozelState.deal(rng, dealer=seed % 4)
    truth = KozelState.from_header(header)
    state = KozelState.from_header(header.without_hands() if observed else header)
    assert isinstance(truth, KozelState) and isinstance(state, KozelState)
    caught = 0
    while not truth.complete:
        legal = truth.legal_events()
        ev = legal[rng.randrange(len(legal))]
        gone = sorted(state.position.gone, key=str)  # observed: seen face up only
        if isinstance(ev, Play) and gone:
            stale = rng.choice(gone)
            bad = Play(ev.seat, (stale,) + ev.cards[1:])
            before = state.state_key()
            try:
                state.apply(bad)
            except IllegalPlay as exc:
                assert exc.rule == "common.card_seen_twice", exc.reason
                assert str(stale) in exc.reason
                caught += 1
            else:
                raise AssertionError(f"{bad} replays {stale} from a pile")
            assert state.state_key() == before
        truth.apply(ev)
        state.apply(ev if not observed else observe(ev))
    assert caught or not truth.position.gone
