"""Durak with known hands: one test per rule point of RULES.md (`durak`), from the deal
to the limits of a bout (its end and the game's: test_durak_endings.py).

Each rule is shown both ways: a legal event accepted and an illegal one rejected with
its stable `rule` id, the state left exactly as it was. Deals are scripted with
`scripted_header` (hands written out, the stock filled in deck order, the turned trump
card at the bottom).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from durak_helpers import LED, OUT_DEAL, THREE, start
from rules_helpers import play, rejects

from engine.cards import Card, Suit, deck
from engine.durak import DurakState
from engine.durak_rules import beats, scripted_header
from engine.errors import RecordError
from engine.header import Header

# ----- the deal ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 7))
def test_deal_six_each_one_at_a_time_from_dealers_left_trump_card_last(players: int) -> None:
    header = DurakState.deal(random.Random(7), players=players, dealer=1)
    cards = list(deck(36))
    random.Random(7).shuffle(cards)
    assert header.hands is not None and header.stock is not None
    assert [len(h) for h in header.hands] == [6] * players
    assert header.hands[2 % players][0] == cards[0]  # seat left of dealer 1 gets the first card
    assert header.hands[(2 + 1) % players][0] == cards[1] if players > 2 else True
    assert len(header.stock) == 36 - 6 * players
    if players < 6:
        assert header.trump_card == cards[6 * players] == header.stock[-1]
    else:
        assert header.trump_card in header.hands[1]  # the dealer's last card is shown
    assert header.trump is header.trump_card.suit
    state = DurakState.from_header(header)
    assert state.public_view()["stock"] == 36 - 6 * players


LED_H = tuple(tuple(Card.parse(c) for c in h.split()) for h in LED)


def _header_with(**change: Any) -> Header:
    return Header(**{**scripted_header(LED, "AH").__dict__, **change})


@pytest.mark.parametrize(
    "change, words",
    [
        (dict(hands=(LED_H[0], LED_H[1][:5])), "dealt 5 cards"),
        (dict(hands=(LED_H[0], LED_H[0])), "dealt twice"),
        (dict(hands=(LED_H[0][:5] + (Card.parse("2H"),), LED_H[1])), "not in durak's 36-card deck"),
        (dict(trump_card=Card.parse("KH")), "last card of the stock"),
        (dict(trump=Suit.SPADES), "disagrees"),
        (dict(players=None), "needs 'players'"),
        (dict(trump=None, trump_card=None, hands=None, stock=None), "needs the trump"),
        (dict(stock=None), "stock holds 0"),
        (dict(options={"transfer": "yes"}), "true or false"),
        (dict(leader=4), "leader seat 4"),
        (dict(hands=None, stock=None, trump_card=Card.parse("2H")), "not in durak's 36-card deck"),
        (dict(hands=None), "'stock' without 'hands'"),
        (dict(players=7), "2..6 players"),
    ],
)
def test_header_that_is_not_a_durak_deal_is_a_record_error(
    change: dict[str, Any], words: str
) -> None:
    with pytest.raises(RecordError, match=words):
        DurakState.from_header(_header_with(**change))


def test_trump_is_taken_from_the_stock_bottom_when_only_hands_are_given() -> None:
    state = DurakState.from_header(_header_with(trump=None, trump_card=None))
    assert state.trump is Suit.HEARTS and str(state.trump_card) == "AH"
    with pytest.raises(RecordError, match=r"turned card under the stock \(AH\)"):
        DurakState.from_header(_header_with(trump=Suit.CLUBS, trump_card=None))


def test_six_players_the_trump_card_is_the_dealers_last_card() -> None:
    hands = OUT_DEAL
    header = scripted_header(hands, "AS", dealer=5)
    assert header.stock == ()
    DurakState.from_header(header)
    with pytest.raises(RecordError, match="dealer's last card"):
        DurakState.from_header(Header(**{**header.__dict__, "dealer": 4}))


# ----- who attacks ---------------------------------------------------------------------------


def test_holder_of_the_lowest_trump_attacks_first() -> None:
    state = start(["7S 8S 9S 10S JS QS", "6H 6D 7D 8D 9D 10D"], dealer=0)
    assert state.to_act() == {1}
    err = rejects(state, {"seat": 0, "attack": ["7S"]}, "durak.first_attacker")
    assert err.reason == "seat 1 holds 6H, the lowest trump: he attacks first, not seat 0"
    play(state, {"seat": 1, "attack": ["6D"]})
    assert state.public_view()["defender"] == 0


def test_lowest_trump_is_by_rank_not_by_deal_order() -> None:
    state = start(["KH 8S 9S 10S JS QS", "7H 6D 7D 8D 9D 10D"], dealer=1)
    assert state.to_act() == {1}  # 7H is lower than KH, though seat 0 is left of the dealer


def test_nobody_holds_a_trump_then_the_player_left_of_the_dealer_attacks() -> None:
    hands = ["7S 8S 9S 10S JS QS", "6D 7D 8D 9D 10D JD", "6C 7C 8C 9C 10C JC"]
    state = start(hands, dealer=1)
    assert state.to_act() == {2}
    rejects(state, {"seat": 0, "attack": ["7S"]}, "durak.first_attacker")
    play(state, {"seat": 2, "attack": ["6C"]})
    assert state.public_view()["defender"] == 0  # attacks go to the attacker's left


def test_header_leader_overrides_the_lowest_trump() -> None:
    state = start(["7S 8S 9S 10S JS QS", "6H 6D 7D 8D 9D 10D"], leader=0)
    rejects(state, {"seat": 1, "attack": ["6D"]}, "common.out_of_turn")
    play(state, {"seat": 0, "attack": ["7S"]})


def test_only_the_defender_defends() -> None:
    hands = ["7S 8S 9S 10S JS QS", "6D 7D 8D 9D 10D JD", "6C 7C 8C 9C 10C JC"]
    state = start(hands, dealer=1)
    play(state, {"seat": 2, "attack": ["6C"]})
    rejects(state, {"seat": 1, "defend": [["6C", "7D"]]}, "common.out_of_turn")
    rejects(state, {"seat": 1, "take": True}, "common.out_of_turn")
    play(state, {"seat": 0, "take": True})


# ----- attacks and beats ---------------------------------------------------------------------


def test_attack_is_one_card_or_several_of_one_rank() -> None:
    state = start(LED, leader=0)
    rejects(state, {"seat": 0, "attack": ["7C", "QC"]}, "durak.attack_rank")
    play(state, {"seat": 0, "attack": ["7C", "7D"]})
    assert state.public_view()["table"] == ["7C", "7D"]


@pytest.mark.parametrize(
    "attacking, beating, rule",
    [
        ("9S", "10S", None),  # higher, same suit
        ("9S", "8S", "durak.beat"),  # lower, same suit
        ("9S", "9D", "durak.beat"),  # other suit, not a trump
        ("9S", "7H", None),  # a trump beats a plain card
        ("8H", "7H", "durak.beat"),  # a trump only by a higher trump
        ("8H", "9H", None),
        ("7C", "6C", "durak.beat"),
        ("8H", "10S", "durak.beat"),  # a plain card never beats a trump
    ],
)
def test_beating_a_card(attacking: str, beating: str, rule: str | None) -> None:
    state = start(LED, leader=0)
    play(state, {"seat": 0, "attack": [attacking]})
    if rule is None:
        play(state, {"seat": 1, "defend": [[attacking, beating]]})
        assert state.public_view()["pairs"] == [[attacking, beating]]
    else:
        err = rejects(state, {"seat": 1, "defend": [[attacking, beating]]}, rule)
        assert beating in err.reason and attacking in err.reason


def test_beat_reason_names_the_cards_and_the_trump() -> None:
    state = start(LED, leader=0)
    play(state, {"seat": 0, "attack": ["9S"]})
    err = rejects(state, {"seat": 1, "defend": [["9S", "9D"]]}, "durak.beat")
    assert err.reason == "9D does not beat 9S: a different suit, and not a trump (trump is hearts)"
    assert err.seat == 1 and err.event == 1


def test_beats_agrees_with_the_rank_order() -> None:
    order = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    for i, low in enumerate(order):
        for high in order[i + 1 :]:
            assert beats(Card.parse(high + "S"), Card.parse(low + "S"), Suit.HEARTS)
            assert not beats(Card.parse(low + "S"), Card.parse(high + "S"), Suit.HEARTS)


def test_one_defend_event_may_cover_several_cards() -> None:
    state = start(LED, leader=0)
    play(
        state,
        {"seat": 0, "attack": ["7C", "7D"]},
        {"seat": 1, "defend": [["7C", "7H"], ["7D", "9D"]]},
    )
    assert state.public_view()["pairs"] == [["7C", "7H"], ["7D", "9D"]]


def test_defend_must_name_an_unbeaten_attacking_card() -> None:
    state = start(LED, leader=0)
    play(state, {"seat": 0, "attack": ["9S"]})
    rejects(state, {"seat": 1, "defend": [["7C", "10S"]]}, "durak.defend_target")
    play(state, {"seat": 1, "defend": [["9S", "10S"]]})
    rejects(state, {"seat": 1, "defend": [["9S", "7H"]]}, "durak.defend_target")


def test_cards_must_come_from_the_players_hand() -> None:
    state = start(LED, leader=0)
    rejects(state, {"seat": 0, "attack": ["9D"]}, "common.not_in_hand")  # seat 1 holds it
    rejects(state, {"seat": 0, "attack": ["JS"]}, "common.not_in_hand")  # in the stock
    rejects(state, {"seat": 0, "attack": ["AH"]}, "common.not_in_hand")  # the trump card
    rejects(state, {"seat": 0, "attack": ["2S"]}, "common.not_in_deck")
    rejects(state, {"seat": 0, "attack": ["9S", "9S"]}, "common.card_seen_twice")
    play(state, {"seat": 0, "attack": ["9S"]})
    rejects(state, {"seat": 1, "defend": [["9S", "KS"]]}, "common.not_in_hand")


def test_events_durak_does_not_use_and_seats_that_do_not_exist() -> None:
    state = start(LED, leader=0)
    assert rejects(state, {"seat": 0, "play": ["9S"]}, "durak.event").reason.startswith(
        "durak has no 'play'"
    )
    rejects(state, {"seat": 0, "pass": 1}, "durak.event")
    err = rejects(state, {"seat": 5, "attack": ["9S"]}, "common.seat")
    assert "seat 5 does not exist" in err.reason


# ----- throw-ins -----------------------------------------------------------------------------

def test_any_player_but_the_defender_throws_in_ranks_on_the_table() -> None:
    state = start(THREE, leader=0)
    play(state, {"seat": 0, "attack": ["9S"]})
    assert state.to_act() == {0, 1}  # seat 2 has no 9
    rejects(state, {"seat": 2, "attack": ["10C"]}, "durak.throw_in_rank")
    play(state, {"seat": 1, "defend": [["9S", "10S"]]})
    assert state.to_act() == {0, 2}
    play(state, {"seat": 2, "attack": ["10C"]})  # the beating card's rank counts
    rejects(state, {"seat": 1, "attack": ["10D"]}, "common.out_of_turn")  # defender
    play(state, {"seat": 0, "attack": ["9C"]})
    err = rejects(state, {"seat": 2, "attack": ["JC"]}, "durak.throw_in_rank")
    assert err.reason == "JC cannot be thrown in: only 9s and 10s are on the table"


def test_nothing_is_thrown_in_before_the_first_attack() -> None:
    state = start(THREE, leader=0)
    rejects(state, {"seat": 2, "attack": ["10C"]}, "common.out_of_turn")


# ----- limits --------------------------------------------------------------------------------

LIMITS = ["7S 7C 7D 7H 8D 8C", "8S 9D 9C 10S 10C 10D"]  # seat 0 holds the only trump (7H)


def test_first_bout_holds_at_most_five_attacking_cards() -> None:
    state = start(LIMITS)
    play(
        state,
        {"seat": 0, "attack": ["7S", "7C", "7D", "7H"]},
        {"seat": 1, "defend": [["7S", "8S"]]},
    )
    play(state, {"seat": 0, "attack": ["8D"]})
    err = rejects(state, {"seat": 0, "attack": ["8C"]}, "durak.attack_limit")
    assert "first bout" in err.reason


def test_the_first_bouts_limit_is_five() -> None:
    state = start(LIMITS)
    play(state, {"seat": 0, "attack": ["7S", "7C", "7D", "7H"]})
    assert state.public_view()["limit"] == 5


def test_a_later_bout_holds_six_attacking_cards() -> None:
    hands = ["7S 7C 7D 8S 8C 8D", "9S 9C 9D 10S 10C 10D"]
    state = start(hands, "AH", leader=0, stock_top="JS JC JD QS QC QD KS KC KD")
    play(
        state,
        {"seat": 0, "attack": ["7S"]},
        {"seat": 1, "defend": [["7S", "9S"]]},
        {"bout": "beaten"},
    )
    # both draw back to six: seat 0 draws JS first (first attacker), seat 1 JC
    play(state, {"seat": 1, "attack": ["9C", "9D"]}, {"seat": 0, "take": True})
    # seat 1 drew JD QS, seat 0 holds 8 cards; seat 1 attacks again
    assert state.public_view()["hand_sizes"] == [8, 6]
    play(state, {"seat": 1, "attack": ["10S", "10C", "10D"]})
    play(state, {"seat": 0, "defend": [["10S", "JS"]]})
    assert state.public_view()["limit"] == 6
