"""Durak observed (no hands in the header): what a camera proves, and nothing more.

Hand sizes are exact, a card played never comes back, a card taken back is his who
took it, the turned trump card lies under the stock until the last draw; every table
rule still holds. Who attacks first is not checked (the lowest trump is hidden) unless
the header names a `leader`; after the first bout the attacker is known.
"""

from __future__ import annotations

from typing import Any

import pytest
from durak_helpers import OUT_BOUTS, OUT_DEAL
from rules_helpers import ev, play, rejects

from engine.cards import Suit
from engine.durak import DurakState
from engine.durak_rules import scripted_header
from engine.errors import HiddenInformation
from engine.header import Header

# Seat 1 holds 6H, the lowest trump: with hands he must attack first.
LOW = ["7S 8S 9S 10S JS QS", "6H 6D 7D 8D 9D 10D"]


def observed(hands: list[str], trump: str = "AH", **kw: Any) -> DurakState:
    header = scripted_header(hands, trump, **kw).without_hands()
    assert header.observed
    state = DurakState.from_header(header)
    assert isinstance(state, DurakState)
    return state


@pytest.mark.parametrize("first", [0, 1])
def test_first_attacker_is_not_checked_without_hands(first: int) -> None:
    state = observed(LOW)
    assert state.to_act() == {0, 1}
    play(state, {"seat": first, "attack": ["8D" if first else "7S"]})
    assert state.public_view()["defender"] == 1 - first


def test_header_leader_is_enforced_without_hands() -> None:
    state = observed(LOW, leader=1)
    rejects(state, {"seat": 0, "attack": ["7S"]}, "common.out_of_turn")
    play(state, {"seat": 1, "attack": ["6D"]})


def test_after_the_first_bout_the_attacker_is_known() -> None:
    state = observed(LOW)
    play(
        state,
        {"seat": 0, "attack": ["7S"]},
        {"seat": 1, "defend": [["7S", "6H"]]},
        {"bout": "beaten"},
    )
    rejects(state, {"seat": 0, "attack": ["8S"]}, "common.out_of_turn")
    play(state, {"seat": 1, "attack": ["6D"]})


def test_table_rules_hold_without_hands() -> None:
    state = observed(LOW)
    play(state, {"seat": 0, "attack": ["9S"]})
    rejects(state, {"seat": 1, "defend": [["9S", "8S"]]}, "durak.beat")
    rejects(state, {"seat": 1, "defend": [["9S", "9D"]]}, "durak.beat")
    rejects(state, {"seat": 0, "attack": ["10S"]}, "durak.throw_in_rank")
    rejects(state, {"seat": 0, "attack": ["2S"]}, "common.not_in_deck")
    rejects(state, {"seat": 0, "play": ["10S"]}, "durak.event")
    play(state, {"seat": 1, "defend": [["9S", "10H"]]})
    rejects(state, {"seat": 1, "take": True}, "durak.take")
    play(state, {"seat": 0, "attack": ["10S"]})


def test_five_attacking_cards_in_the_first_bout_without_hands() -> None:
    state = observed(LOW)
    play(
        state,
        {"seat": 0, "attack": ["7S", "7C", "7D", "7H"]},
        {"seat": 1, "defend": [["7S", "8S"]]},
        {"seat": 0, "attack": ["8D"]},
    )
    rejects(state, {"seat": 0, "attack": ["8C"]}, "durak.attack_limit")


def test_a_played_card_never_comes_back() -> None:
    state = observed(LOW)
    play(state, {"seat": 0, "attack": ["9S"]})
    err = rejects(state, {"seat": 1, "defend": [["9S", "9S"]]}, "common.card_seen_twice")
    assert "already on the table" in err.reason
    play(state, {"seat": 1, "defend": [["9S", "JS"]]}, {"bout": "beaten"})
    err = rejects(state, {"seat": 1, "attack": ["JS"]}, "common.card_seen_twice")
    assert "discard" in err.reason


def test_cards_taken_back_may_be_played_only_by_the_taker() -> None:
    hands = ["9S 9C 7C 7D QC KS", "10S 8S 9D 7H 9H 6C", "10C JC 8D 10D JD QS"]
    state = observed(hands)
    play(
        state,
        {"seat": 0, "attack": ["9S"]},
        {"seat": 1, "defend": [["9S", "10S"]]},
        {"seat": 2, "attack": ["10C"]},
        {"seat": 1, "take": True},
    )
    # 9S 10S 10C are in seat 1's hand now; seat 2 attacks seat 0
    err = rejects(state, {"seat": 2, "attack": ["10C"]}, "common.card_seen_twice")
    assert "seat 1's hand" in err.reason
    play(state, {"seat": 2, "attack": ["10D"]}, {"seat": 0, "take": True})
    play(state, {"seat": 1, "attack": ["10C", "10S"]})  # the taker plays them again


def test_hand_sizes_are_exact_without_hands() -> None:
    state = observed(OUT_DEAL, "AS", dealer=5)
    play(state, *OUT_BOUTS)
    view = state.public_view()
    assert view["hand_sizes"] == [0, 4, 5, 6, 5, 2] and view["out"] == [0]
    # AS, the trump card shown at the deal, is known to be in the dealer's (seat 5's) hand
    err = rejects(state, {"seat": 1, "attack": ["AS"]}, "common.card_seen_twice")
    assert "seat 5's hand" in err.reason
    rejects(state, {"seat": 0, "attack": ["7D"]}, "common.out_of_turn")
    play(
        state,
        {"seat": 1, "attack": ["7D"]},
        {"seat": 2, "take": True},
        {"seat": 3, "attack": ["KC"]},
        {"seat": 4, "defend": [["KC", "6S"]]},
        {"bout": "beaten"},
        {"seat": 4, "attack": ["10D", "10H"]},
    )
    # seat 5 holds two cards: AS (the trump card, shown, his since the deal) and one unseen
    err = rejects(state, {"seat": 5, "defend": [["10D", "JD"], ["10H", "QH"]]}, "common.card_count")
    assert "seat 5 holds 2 cards, 1 of them known (AS)" in err.reason
    play(state, {"seat": 5, "defend": [["10D", "JD"], ["10H", "AS"]]})


def test_the_turned_trump_card_lies_under_the_stock_until_the_last_draw() -> None:
    hands = ["6S 7S 8S 9S 10S JS", "6C 7C 8C 9C 10C JC"]
    known = DurakState.from_header(scripted_header(hands, "AH", leader=0))
    state = observed(hands, leader=0)
    err = rejects(state, {"seat": 0, "attack": ["AH"]}, "common.card_seen_twice")
    assert "turned trump card" in err.reason
    while known.public_view()["stock"]:
        view = known.public_view()
        a, d = view["attacker"], view["defender"]
        card = sorted(known._p.hands[a], key=str)[0]
        for obj in ({"seat": a, "attack": [str(card)]}, {"seat": d, "take": True}):
            known.apply(ev(obj))
            state.apply(ev(obj))
    assert state.public_view()["hand_sizes"] == known.public_view()["hand_sizes"]
    holder = state.public_view()["attacker"]  # in this loop the attacker drew the last card
    trial = state.clone()
    play(trial, {"seat": holder, "attack": ["AH"]})  # his: he may play it
    card = min((c for c in known._p.hands[holder] if str(c) != "AH"), key=str)
    play(state, {"seat": holder, "attack": [str(card)]})
    err = rejects(
        state, {"seat": 1 - holder, "defend": [[str(card), "AH"]]}, "common.card_seen_twice"
    )
    assert f"seat {holder}'s hand" in err.reason


def test_only_the_trump_suit_given_is_enough() -> None:
    state = DurakState.from_header(Header(game="durak", players=3, dealer=0, trump=Suit.HEARTS))
    view = state.public_view()
    assert view["trump"] == "H" and view["trump_card"] is None and view["stock"] == 18
    play(state, {"seat": 2, "attack": ["AH"]})  # nobody saw the bottom card: it may be in a hand


def test_legal_events_need_hands() -> None:
    with pytest.raises(HiddenInformation):
        observed(LOW).legal_events()
