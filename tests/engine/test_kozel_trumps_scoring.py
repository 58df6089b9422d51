"""Kozel-trumps scoring: pairs of pips per game, the beaten QC, 60-60, the match.

Whole random games are recounted from their own events by the test (trick winners
found with the shared ladder), and replayed observed: all cards are face up, so the
observed result must equal the known one.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, Suit, parse_cards
from engine.errors import RevokeProven
from engine.events import Play
from engine.header import Header
from engine.kozel_trumps import KozelTrumpsState, match_step
from engine.kozel_trumps_rules import led_key, pairs_for
from engine.ranking import card_points, trumps_winner
from engine.simulate import observe


@pytest.mark.parametrize("points, qc, pairs", [
    ((60, 60), None, [0, 0]),
    ((60, 60), 1, [0, 0]),      # 60-60: nobody opens anything
    ((59, 61), None, [1, 0]),   # opponents over 60: one pair
    ((30, 90), None, [1, 0]),   # 90 is not over 90
    ((29, 91), None, [2, 0]),
    ((0, 120), None, [3, 0]),   # all 120: three
    ((100, 20), 1, [0, 4]),     # QC beaten: four instead of the above
    ((0, 120), 0, [4, 0]),      # four is more than three
    ((70, 50), 0, [4, 1]),
])
def test_pairs_opened_per_team(points, qc, pairs):
    assert pairs_for(points, qc) == pairs


def test_match_doubles_after_60_60_and_ends_at_pairs_to_lose():
    s = match_step(None, {"points": [60, 60], "pairs": [0, 0]}, {})
    assert s == {"pairs": [0, 0], "double": True, "over": False, "loser": None}
    s = match_step(s, {"points": [80, 40], "pairs": [0, 1]}, {})
    assert s["pairs"] == [0, 2] and not s["double"]
    s = match_step(s, {"points": [0, 120], "pairs": [3, 0]}, {"pairs_to_lose": 3})
    assert s["over"] and s["loser"] == 0
    s = match_step({"pairs": [5, 5]}, {"points": [70, 50], "pairs": [4, 1]}, {})
    assert s["over"] and s["loser"] == 0  # both crossed: more pairs open lost


def test_with_jack_of_clubs_declares_the_jc_holder_deals_after_the_first_game():
    result = {"points": [70, 50], "pairs": [0, 1], "jc_holder": 2}
    opts = {"jack_of_clubs_declares": True}
    assert match_step(None, result, opts)["next_dealer"] == 2
    assert "next_dealer" not in match_step(None, result, {})
    assert "next_dealer" not in match_step({"pairs": [0, 1]}, result, opts)


def _scripted_qc_game(mode: str) -> KozelTrumpsState:
    # Trump hearts, dealer 3. Seat 0 leads the 7C; seat 1 must put his only trump QC on it.
    hands = ["7C AH 9C 8D 7D AS 8S 10H", "QC AC 10C KC AD 10D KS 9S",
             "JD KH JS JH QD 8C KD 9D", "QH JC QS 9H 8H 7H 10S 7S"]
    h = Header(game="kozel-trumps", dealer=3, trump=Suit.HEARTS,
               hands=tuple(parse_cards(x.split()) for x in hands), stock=())
    state = KozelTrumpsState.from_header(h if mode == "known" else h.without_hands())
    assert isinstance(state, KozelTrumpsState)
    state.apply(Play(0, parse_cards(["7C"])))
    state.apply(Play(1, parse_cards(["QC"])))
    return state


@pytest.mark.parametrize("mode", ["known", "observed"])
def test_the_qc_beaten_by_the_opponents_7c_is_marked_for_the_qc_team(mode):
    state = _scripted_qc_game(mode)
    for seat, card in ((2, "JD"), (3, "QH")):
        state.apply(Play(seat, parse_cards([card])))
    assert state.result()["qc_beaten"] == 1
    assert state.public_view()["last_trick_winner"] == 0


def _random_game(seed: int) -> tuple[KozelTrumpsState, list]:
    rng = random.Random(seed)
    state = KozelTrumpsState.from_header(KozelTrumpsState.deal(rng, dealer=seed % 4))
    assert isinstance(state, KozelTrumpsState)
    events = []
    while not state.complete:
        choices = state.legal_events()
        ev = choices[rng.randrange(len(choices))]
        state.apply(ev)
        events.append(ev)
    return state, events


@pytest.mark.parametrize("seed", range(10))
def test_a_whole_game_is_recounted_from_its_plays(seed):
    state, events = _random_game(seed)
    trump = state.trump
    plays = [e for e in events if isinstance(e, Play)]
    assert len(plays) == 32
    points, qc = [0, 0], None
    for i in range(0, 32, 4):
        trick = plays[i:i + 4]
        cards = [e.cards[0] for e in trick]
        winner = trick[trumps_winner(cards, trump)].seat
        points[winner % 2] += sum(card_points(c) for c in cards)
        owner = {str(e.cards[0]): e.seat for e in trick}
        if "QC" in owner and "7C" in owner and owner["QC"] % 2 != owner["7C"] % 2:
            qc = owner["QC"] % 2
    result = state.result()
    assert result["points"] == points and result["qc_beaten"] == qc
    assert result["jc_holder"] == next(e.seat for e in plays if str(e.cards[0]) == "JC")
    assert result["pairs"] == pairs_for(points, qc)
    watcher = KozelTrumpsState.from_header(state.header.without_hands())
    for ev in events:
        watcher.apply(observe(ev))
    assert watcher.result() == result


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.booleans())
def test_every_legal_event_is_accepted_observed_and_undo_restores_it(seed, jack_declares):
    rng = random.Random(seed)
    opts = {"jack_of_clubs_declares": True} if jack_declares else {}
    state = KozelTrumpsState.from_header(KozelTrumpsState.deal(rng, dealer=seed % 4,
                                                               options=opts))
    watcher = KozelTrumpsState.from_header(state.header.without_hands())
    while not state.complete:
        choices = state.legal_events()
        ev = choices[rng.randrange(len(choices))]
        key = state.state_key()
        state.apply(ev)
        state.undo()
        assert state.state_key() == key
        state.apply(ev)
        watcher.apply(observe(ev))
    assert watcher.complete and watcher.result() == state.result()
    assert len(state.history) <= KozelTrumpsState.max_events


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_observed_a_revoke_is_proven_exactly_at_the_first_later_card_that_shows_it(seed):
    # The test deals, keeps the hands itself and plays by the follow rules, except
    # for one revoke; the observed state must say nothing until that player shows a
    # card of a kind he claimed not to have, and then name the revoke's line.
    rng = random.Random(seed)
    header = KozelTrumpsState.deal(rng, dealer=seed % 4)
    trump = header.trump
    assert header.hands is not None and trump is not None
    hands = [set(h) for h in header.hands]
    watcher = KozelTrumpsState.from_header(header.without_hands())
    leader, revoke_at, revoker, lacked = (header.dealer + 1) % 4, None, None, set()
    n = 0
    for _ in range(8):
        trick: list[tuple[int, Card]] = []
        for i in range(4):
            seat = (leader + i) % 4
            hand = sorted(hands[seat], key=str)
            led = led_key(trick[0][1], trump) if trick else None
            follow = [c for c in hand if led_key(c, trump) == led]
            trumps = [c for c in hand if led_key(c, trump) == "T"]
            allowed = (follow or trumps or hand) if led else hand
            off = [c for c in hand if c not in allowed]
            if revoke_at is None and off and rng.random() < 0.3:
                card = rng.choice(off)
                revoke_at, revoker = n, seat
                lacked = {led} | ({"T"} if led_key(card, trump) != "T" else set())
            else:
                card = rng.choice(allowed)
            if seat == revoker and n != revoke_at and led_key(card, trump) in lacked:
                with pytest.raises(RevokeProven) as info:
                    watcher.apply(Play(seat, (card,)))
                assert info.value.revoke_event == revoke_at and info.value.event == n
                assert info.value.reason.startswith(f"line {revoke_at + 2}: ")
                return
            watcher.apply(Play(seat, (card,)))  # everything else is accepted
            hands[seat].discard(card)
            trick.append((seat, card))
            n += 1
        leader = trick[trumps_winner([c for _, c in trick], trump)][0]
    assert revoke_at is None  # a revoke always gets proven: he must play what he held
