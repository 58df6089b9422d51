"""Durak with known hands: one test per rule point of RULES.md (`durak`).

Each rule is shown both ways: a legal event accepted and an illegal one rejected with
its stable `rule` id, the state left exactly as it was. Deals are scripted with
`scripted_header` (hands written out, the stock filled in deck order, the turned trump
card at the bottom).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from rules_helpers import play, rejects

from engine.cards import Card, Suit, deck
from engine.durak import DurakState, match_step
from engine.durak_rules import beats, scripted_header
from engine.errors import RecordError
from engine.events import BoutBeaten, event_to_json
from engine.header import Header
from engine.record import read_record

DATA = Path(__file__).parents[1] / "data"


def start(hands: list[str], trump: str = "AH", **kw: Any) -> DurakState:
    state = DurakState.from_header(scripted_header(hands, trump, **kw))
    assert isinstance(state, DurakState)
    return state


# Seat 0 leads by `leader`; trump is hearts (AH under the stock).
LED = ["9S 8H 7C 7D QC KS", "10S 8S 9D 7H 9H 6C"]


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
    hands = [
        "7S 8S 9S 10S JS QS",
        "7C 8C 9C 7D 8D 9D",
        "7H 8H 9H QC QD QH",
        "KC KD KH AC AD AH",
        "6S 10C 10D 10H JC JH",
        "6C 6D 6H KS AS JD",
    ]
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

THREE = ["9S 9C 7C 7D QC KS", "10S 8S 9D 7H 9H 6C", "10C JC 8D 10D JD QS"]


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


# ----- the end of a bout ---------------------------------------------------------------------


def test_bout_beaten_only_when_every_card_is_beaten() -> None:
    state = start(LED, leader=0)
    rejects(state, {"bout": "beaten"}, "durak.bout_beaten")
    play(state, {"seat": 0, "attack": ["7C", "7D"]}, {"seat": 1, "defend": [["7C", "7H"]]})
    rejects(state, {"bout": "beaten"}, "durak.bout_beaten")
    play(state, {"seat": 1, "defend": [["7D", "9D"]]})
    rejects(state, {"seat": 1, "take": True}, "durak.take")
    play(state, {"bout": "beaten"})
    view = state.public_view()
    assert view["discard"] == 4 and view["table"] == []
    assert view["attacker"] == 1 and view["defender"] == 0  # the defender attacks next
    assert view["last_trick_winner"] == 1 and view["tricks_played"] == 1
    rejects(state, {"seat": 1, "attack": ["7H"]}, "common.card_seen_twice")  # discarded


def test_take_picks_up_the_table_and_the_next_player_attacks() -> None:
    state = start(THREE, leader=0)
    play(
        state,
        {"seat": 0, "attack": ["9S"]},
        {"seat": 1, "defend": [["9S", "10S"]]},
        {"seat": 2, "attack": ["10C"]},
        {"seat": 0, "attack": ["9C"]},  # thrown in after "I take"
        {"seat": 1, "take": True},
    )
    view = state.public_view()
    assert view["hand_sizes"] == [6, 9, 6]
    assert view["attacker"] == 2 and view["defender"] == 0
    assert view["last_bout"] == "taken" and view["last_trick_winner"] == 0
    # the taken cards are his now: he may play them later
    play(state, {"seat": 2, "attack": ["10D"]}, {"seat": 0, "take": True})
    play(state, {"seat": 1, "attack": ["10C"]})


DRAWS = ["6S 7S 8S 9S 10S JS", "6C 8C 10C 6D 8D 10D", "7C 9C JC 7D 9D JD"]


def test_draws_first_attacker_first_then_the_others_clockwise() -> None:
    state = start(DRAWS, "AH", dealer=0, stock_top="QS QC QD KS")
    assert state.to_act() == {1}  # nobody holds a heart: left of the dealer
    play(
        state,
        {"seat": 1, "attack": ["6C"]},
        {"seat": 2, "defend": [["6C", "7C"]]},
        {"seat": 0, "attack": ["6S"]},
        {"seat": 2, "take": True},
    )
    # seat 1 (the first attacker) draws QS, then seat 0 draws QC; seat 2 holds 8
    assert state.public_view()["hand_sizes"] == [6, 6, 8]
    assert state.public_view()["stock"] == 16
    rejects(state, {"seat": 0, "attack": ["QS"]}, "common.not_in_hand")
    play(state, {"seat": 0, "attack": ["QC"]})


def test_the_defender_draws_last() -> None:
    hands = ["6S 8S 9S 10S JS AS", "6C 8C 10C 6D 8D 10D", "7C 9C JC 7S 9D JD"]
    state = start(hands, "AH", dealer=0, stock_top="QS QC QD KS")
    play(
        state,
        {"seat": 1, "attack": ["6C"]},
        {"seat": 2, "defend": [["6C", "7C"]]},
        {"seat": 0, "attack": ["6S"]},
        {"seat": 2, "defend": [["6S", "7S"]]},
        {"bout": "beaten"},
    )
    # seat 1 draws QS, seat 0 QC, and the defender, seat 2, draws last: QD KS
    rejects(state, {"seat": 2, "attack": ["QC"]}, "common.not_in_hand")
    play(state, {"seat": 2, "attack": ["KS"]})


def test_the_turned_trump_card_is_drawn_last() -> None:
    hands = ["6S 7S 8S 9S 10S JS", "6C 7C 8C 9C 10C JC"]
    header = scripted_header(hands, "AH", leader=0)
    state = DurakState.from_header(header)
    assert header.stock is not None and str(header.stock[-1]) == "AH"
    for _ in range(40):  # the attacker draws one card a bout: 24 bouts
        view = state.public_view()
        if view["stock"] == 0:
            break
        a, d = view["attacker"], view["defender"]
        card = sorted(state._p.hands[a], key=str)[0]
        play(state, {"seat": a, "attack": [str(card)]}, {"seat": d, "take": True})
    assert state.public_view()["stock"] == 0
    holder = [s for s in (0, 1) if Card.parse("AH") in state._p.hands[s]]
    assert len(holder) == 1


# ----- the end of the game -------------------------------------------------------------------


OUT_DEAL = [
    "7S 8S 9S 10S JS QS",
    "7C 8C 9C 7D 8D 9D",
    "7H 8H 9H QC QD QH",
    "KC KD KH AC AD AH",
    "6S 10C 10D 10H JC JH",
    "6C 6D 6H KS AS JD",
]


def test_a_player_without_cards_once_the_stock_is_empty_is_out_and_skipped() -> None:
    state = start(OUT_DEAL, "AS", dealer=5)
    assert state.to_act() == {4}  # 6S
    play(
        state,
        {"seat": 4, "attack": ["10C"]},
        {"seat": 5, "defend": [["10C", "KS"]]},
        {"bout": "beaten"},
    )
    # bout 2: six attacking cards, seat 0 beats them all with his six trumps
    play(
        state,
        {"seat": 5, "attack": ["6C", "6D", "6H"]},
        {"seat": 0, "defend": [["6C", "7S"], ["6D", "8S"], ["6H", "9S"]]},
        {"seat": 1, "attack": ["7C", "8D"]},
        {"seat": 2, "attack": ["9H"]},
    )
    err = rejects(state, {"seat": 1, "attack": ["9C"]}, "durak.attack_limit")
    assert "at most 6 attacking cards in a bout" in err.reason
    play(
        state,
        {"seat": 0, "defend": [["7C", "10S"], ["8D", "JS"], ["9H", "QS"]]},
        {"bout": "beaten"},
    )
    view = state.public_view()
    assert view["out"] == [0] and view["hand_sizes"][0] == 0
    # seat 0 beat the bout but is out: the next seat still in attacks
    assert view["attacker"] == 1 and view["defender"] == 2 and 0 not in view["to_act"]
    rejects(state, {"seat": 0, "attack": ["7S"]}, "common.out_of_turn")
    play(state, {"seat": 1, "attack": ["7D"]})
    err = rejects(state, {"seat": 0, "attack": ["7H"]}, "common.out_of_turn")  # no throw-in
    assert err.reason == "seat 0 is out of the game"


def test_never_more_attacking_cards_than_the_defender_held_when_the_bout_began() -> None:
    state = start(OUT_DEAL, "AS", dealer=5)
    play(
        state,
        {"seat": 4, "attack": ["10C"]},
        {"seat": 5, "defend": [["10C", "KS"]]},
        {"bout": "beaten"},
        {"seat": 5, "attack": ["6C", "6D", "6H"]},
        {"seat": 0, "defend": [["6C", "7S"], ["6D", "8S"], ["6H", "9S"]]},
        {"seat": 1, "attack": ["7C", "8D"]},
        {"seat": 2, "attack": ["9H"]},
        {"seat": 0, "defend": [["7C", "10S"], ["8D", "JS"], ["9H", "QS"]]},
        {"bout": "beaten"},
        {"seat": 1, "attack": ["7D"]},
        {"seat": 2, "take": True},
        {"seat": 3, "attack": ["KC"]},
        {"seat": 4, "defend": [["KC", "6S"]]},
        {"bout": "beaten"},
    )
    assert state.public_view()["hand_sizes"][5] == 2  # AS JD
    play(state, {"seat": 4, "attack": ["10D", "10H"]})  # as many as seat 5 holds
    assert state.public_view()["limit"] == 2
    play(state, {"seat": 5, "defend": [["10D", "JD"]]})
    err = rejects(state, {"seat": 4, "attack": ["JC"]}, "durak.attack_limit")
    assert "seat 5 held only 2 cards when the bout began" in err.reason


@pytest.mark.parametrize("players", [3, 6])
def test_the_last_player_holding_cards_is_the_fool_else_nobody(players: int) -> None:
    fools = set()
    for seed in range(40):
        header = DurakState.deal(random.Random(seed), players=players, dealer=seed % players)
        state = DurakState.from_header(header)
        rng = random.Random(seed)
        while not state.complete:
            events = state.legal_events()
            state.apply(events[rng.randrange(len(events))])
            view = state.public_view()
            assert view["attacker"] not in view["out"] and view["defender"] not in view["out"]
        assert state.legal_events() == [] and state.to_act() == frozenset()
        fool = state.result()["fool"]
        holding = [s for s, n in enumerate(state.public_view()["hand_sizes"]) if n]
        assert holding == ([] if fool is None else [fool])
        fools.add(fool)
    assert len(fools) > 1


def test_events_after_the_end_are_rejected() -> None:
    hands = ["6S 7S 8S 9S 10S JS", "6C 7C 8C 9C 10C JC"]
    state = start(hands, "AH", leader=0)
    rng = random.Random(5)
    while not state.complete:
        events = state.legal_events()
        state.apply(events[rng.randrange(len(events))])
    rejects(state, {"seat": 0, "attack": ["6S"]}, "common.game_over")


def test_a_record_whose_last_cards_leave_together_has_no_fool() -> None:
    record = read_record(DATA / "durak_no_fool.jsonl")
    state = DurakState.from_header(record.header)
    for event in record.events:
        state.apply(event)
    assert state.complete and state.result() == {"fool": None}
    view = state.public_view()
    assert view["hand_sizes"] == [0, 0] and view["out"] == [0, 1] and view["stock"] == 0
    assert isinstance(record.events[-1], BoutBeaten)  # the last bout was beaten off


def test_match_step_counts_fools_and_the_fool_deals_next() -> None:
    score = match_step(None, {"fool": 2}, {"transfer": False})
    assert score == {"fools": {"2": 1}, "games": 1, "over": False, "loser": None, "next_dealer": 2}
    score = match_step(score, {"fool": None}, {})
    assert score["fools"] == {"2": 1} and score["games"] == 2 and score["next_dealer"] is None
    score = match_step(score, {"fool": 2}, {})
    assert score["fools"] == {"2": 2} and score["next_dealer"] == 2


def test_to_act_is_the_defender_and_whoever_can_throw_in() -> None:
    state = start(THREE, leader=0)
    play(state, {"seat": 0, "attack": ["9S"]})
    assert state.public_view()["to_act"] == [0, 1]
    play(state, {"seat": 1, "defend": [["9S", "10S"]]})
    assert state.public_view()["to_act"] == [0, 2]  # all beaten: only throw-ins (or beaten)
    events = state.legal_events()
    assert BoutBeaten() in events and not any(getattr(e, "seat", None) == 1 for e in events)


def test_result_and_view_keys() -> None:
    state = start(LED, leader=0)
    view = state.public_view()
    for key in (
        "to_act",
        "trump",
        "table",
        "table_down",
        "hand_sizes",
        "stock",
        "last_trick_winner",
        "tricks_played",
        "attacker",
        "defender",
        "out",
        "fool",
    ):
        assert key in view
    assert view["to_act"] == [0] and view["trump"] == "H" and view["stock"] == 24
    assert state.result() == {"fool": None}


def _texts(state: DurakState) -> set[str]:
    return {json.dumps(event_to_json(e), sort_keys=True) for e in state.legal_events()}


def test_legal_events_known_answers() -> None:
    """Counted by hand from the LED deal (hearts trump, seat 0 leads, no transfer)."""
    state = start(LED, leader=0)
    attacks = {"7C", "7D", "7C 7D", "8H", "9S", "QC", "KS"}
    assert _texts(state) == {
        json.dumps({"attack": a.split(), "seat": 0}, sort_keys=True) for a in attacks
    }
    play(state, {"seat": 0, "attack": ["9S"]})
    assert len(state.legal_events()) == 4  # beat with 10S, 7H or 9H, or take
    state.undo()
    play(state, {"seat": 0, "attack": ["7C", "7D"]})
    # 7C: 7H 9H; 7D: 9D 7H 9H; take; seat 0 has no 7 left to throw in
    assert len(state.legal_events()) == 6
