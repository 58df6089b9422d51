"""vzetki rules, one test per rule point (RULES.md, seed 003), with known and observed hands.

Deal used by most tests (top_rank 3: cards A(=1), 2, 3 of each suit; seat 0 deals and
leads; seat 1 is the dummy; teams 0+2 and 1+3):
    seat 0: 3H AC 2S    seat 1: 2H AS 3D    seat 2: AH 3C 2D    seat 3: 2C 3S AD
"""

from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import rejects

from engine.cards import parse_cards
from engine.errors import NotYourTurn, RecordError, RevokeProven
from engine.events import Dummy, Event, Play, Take
from engine.header import Header
from engine.vzetki import VzetkiState, match_step

HANDS = (("3H", "AC", "2S"), ("2H", "AS", "3D"), ("AH", "3C", "2D"), ("2C", "3S", "AD"))


def header(known: bool = True, hands: Any = HANDS, **options: Any) -> Header:
    return Header(
        game="vzetki", dealer=0, options={"top_rank": 3, **options},
        hands=tuple(parse_cards(h) for h in hands) if known else None,
    )


def state(known: bool = True, **options: Any) -> VzetkiState:
    st = VzetkiState.from_header(header(known, **options))
    assert isinstance(st, VzetkiState)
    return st


def play(seat: int, *cards: str) -> Play:
    return Play(seat, parse_cards(cards))


def run(st: VzetkiState, events: list[Event]) -> VzetkiState:
    for e in events:
        st.apply(e)
    return st


BOTH = pytest.mark.parametrize("known", [True, False], ids=["known", "observed"])


# ----- the deal ---------------------------------------------------------------------------

def test_full_deck_is_40_cards_1_to_10_ten_each() -> None:
    import random

    h = VzetkiState.deal(random.Random(0), dealer=2)
    assert h.hands is not None and [len(x) for x in h.hands] == [10] * 4
    assert {c.rank for x in h.hands for c in x} == {"A", *map(str, range(2, 11))}
    assert VzetkiState.from_header(h).public_view()["to_act"] == [2]


@pytest.mark.parametrize(
    ("hands", "words"),
    [
        (HANDS[:3], "4 hands"),
        ((("3H", "AC"),) + HANDS[1:], "2 cards, not 3"),
        ((("3H", "AC", "2H"),) + HANDS[1:], "dealt twice"),
        ((("3H", "AC", "JS"),) + HANDS[1:], "not in the vzetki deck"),
        ((("3H", "AC", "4S"),) + HANDS[1:], "not in the vzetki deck"),
    ],
)
def test_deal_must_be_exactly_the_deck(hands: Any, words: str) -> None:
    with pytest.raises(RecordError, match=words):
        VzetkiState.from_header(header(hands=hands))


def test_options_are_validated() -> None:
    with pytest.raises(RecordError, match="top_rank"):
        VzetkiState.from_header(Header(game="vzetki", options={"top_rank": 11}))
    with pytest.raises(RecordError, match="suit"):
        VzetkiState.from_header(Header(game="vzetki", options={"trump": "X"}))
    with pytest.raises(RecordError, match="disagrees"):
        VzetkiState.from_header(Header(game="vzetki", options={"trump": "H"},
                                       trump=parse_cards(["AS"])[0].suit))


@BOTH
def test_card_outside_top_rank_is_not_in_deck(known: bool) -> None:
    rejects(state(known), play(0, "9H"), "common.not_in_deck")


# ----- turn order -------------------------------------------------------------------------

@BOTH
def test_dealer_leads_first_then_clockwise(known: bool) -> None:
    st = state(known)
    assert st.to_act() == {0}
    rejects(st, play(1, "2H"), "common.out_of_turn")
    st.apply(play(0, "3H"))
    assert st.to_act() == {1}
    err = rejects(st, play(2, "AH"), "common.out_of_turn")
    assert isinstance(err, NotYourTurn)


@BOTH
def test_one_card_at_a_time(known: bool) -> None:
    rejects(state(known), play(0, "3H", "AC"), "common.card_count")


@BOTH
def test_seat_out_of_range_and_foreign_events(known: bool) -> None:
    err = rejects(state(known), play(5, "3H"), "common.seat")
    assert err.reason.startswith("seat 5 does not exist")
    rejects(state(known), Take(0), "vzetki.event")


# ----- follow suit, winning, leading ------------------------------------------------------

def test_must_follow_suit_with_known_hands() -> None:
    st = run(state(), [play(0, "3H")])
    err = rejects(st, play(1, "AS"), "vzetki.follow_suit")
    assert "AS" in err.reason and "2H" in err.reason and "heart" in err.reason
    st.apply(play(1, "2H"))
    st.apply(play(2, "AH"))
    st.apply(play(3, "AD"))  # void in hearts: any card


def test_known_hand_card_must_be_held() -> None:
    rejects(state(), play(0, "2H"), "common.not_in_hand")


@BOTH
def test_highest_of_led_suit_wins_and_leads_next_ace_is_one(known: bool) -> None:
    st = run(state(known), [play(0, "3H"), play(1, "2H"), play(2, "AH"), play(3, "2C")])
    assert st.public_view()["last_trick_winner"] == 0 and st.to_act() == {0}
    st.apply(play(0, "AC"))
    st.apply(play(1, "AS"))  # off suit: never wins
    st.apply(play(2, "3C"))
    st.apply(play(3, "AD"))
    view = st.public_view()
    assert view["last_trick_winner"] == 2 and view["tricks"] == [2, 0]
    assert view["tricks_played"] == 2 and st.to_act() == {2}


@BOTH
def test_off_suit_high_card_does_not_win(known: bool) -> None:
    st = run(state(known), [play(0, "2S"), play(1, "AS"), play(2, "3C"), play(3, "3S")])
    assert st.public_view()["last_trick_winner"] == 3


@BOTH
def test_team_with_more_tricks_wins_the_round(known: bool) -> None:
    st = run(state(known), [
        play(0, "3H"), play(1, "2H"), play(2, "AH"), play(3, "2C"),
        play(0, "AC"), play(1, "AS"), play(2, "3C"), play(3, "AD"),
        play(2, "2D"), play(3, "3S"), play(0, "2S"), play(1, "3D"),
    ])
    assert st.complete and st.result() == {"tricks": [2, 1]}
    assert st.to_act() == frozenset()
    rejects(st, play(0, "3H"), "common.game_over")


# ----- observed: what a camera can prove --------------------------------------------------

def test_observed_card_seen_twice() -> None:
    st = run(state(False), [play(0, "3H")])
    rejects(st, play(1, "3H"), "common.card_seen_twice")


def test_observed_any_unseen_card_is_accepted_until_proven_otherwise() -> None:
    st = run(state(False), [play(0, "3H"), play(1, "AS")])  # seat 1 void in hearts?
    assert st.public_view()["hand_sizes"] == [2, 2, 3, 3]


def test_observed_revoke_is_proven_by_a_later_card_of_that_suit() -> None:
    st = run(state(False), [play(0, "3H"), play(1, "AS"), play(2, "AH"), play(3, "2C"),
                            play(0, "2S"), play(1, "3D"), play(2, "2D"), play(3, "3S")])
    # trick 2 won by seat 3 (3S); seat 3 leads AD, seat 0 AC, seat 1 shows 2H: revoke
    st.apply(play(3, "AD"))
    st.apply(play(0, "AC"))
    err = rejects(st, play(1, "2H"), "vzetki.follow_suit")
    assert isinstance(err, RevokeProven) and err.revoke_event == 1
    assert err.reason.startswith("line 3: AS was played on a heart lead")
    assert "2H" in err.reason


def test_observed_voids_that_cannot_all_be_true_are_caught_when_proven() -> None:
    # seats 1 and 2 show void in spades; AS is unseen and must be with seat 0 or 3
    st = run(state(False), [play(0, "3H"), play(1, "2H"), play(2, "AH"), play(3, "2C"),
                            play(0, "2S"), play(1, "3D"), play(2, "2D"), play(3, "3S"),
                            play(3, "AD")])
    err = rejects(st, play(0, "AC"), "vzetki.follow_suit")  # seat 0 empties his hand
    assert not isinstance(err, RevokeProven)  # seat 1 or seat 2: which one is unknown
    assert "seat(s) 1, 2 did not follow spades" in err.reason


def test_observed_single_void_seat_that_must_hold_the_suit_is_named() -> None:
    # top_rank 4. Seat 1 shows void in hearts (line 3) while 4H is unseen; in the last
    # trick seats 2, 3 and 0 empty their hands, so 4H can only be seat 1's.
    st = VzetkiState.from_header(Header(game="vzetki", dealer=0, options={"top_rank": 4}))
    run(st, [play(0, "AH"), play(1, "AS"), play(2, "2H"), play(3, "3H"),
             play(3, "AC"), play(0, "2C"), play(1, "3C"), play(2, "4C"),
             play(2, "4D"), play(3, "2D"), play(0, "3D"), play(1, "AD"),
             play(2, "2S"), play(3, "3S")])
    err = rejects(st, play(0, "4S"), "vzetki.follow_suit")
    assert isinstance(err, RevokeProven) and err.revoke_event == 1
    assert err.reason.startswith("line 3: AS was played on a heart lead although")
    st.apply(play(0, "4H"))  # the other way round is legal: seat 0 held the heart
    st.apply(play(1, "4S"))
    assert st.complete


def test_observed_void_that_stays_void_is_fine() -> None:
    st = run(state(False), [play(0, "3H"), play(1, "AS"), play(2, "AH"), play(3, "2C")])
    st.apply(play(0, "2S"))
    st.apply(play(1, "3S"))  # a spade after failing hearts: no heart shown, no proof


# ----- the dummy --------------------------------------------------------------------------

def test_dummy_is_left_of_dealer_and_offered_after_the_first_lead() -> None:
    st = state()
    assert not any(isinstance(e, Dummy) for e in st.legal_events())
    st.apply(play(0, "3H"))
    dummies = [e for e in st.legal_events() if isinstance(e, Dummy)]
    assert dummies == [Dummy(1, parse_cards(["3D", "2H", "AS"]))]
    rejects(st, Dummy(2, parse_cards(["AH", "3C", "2D"])), "vzetki.dummy")
    rejects(st, Dummy(1, parse_cards(["2H", "AS", "2D"])), "vzetki.dummy")  # wrong cards
    st.apply(dummies[0])
    assert st.public_view()["dummy_hand"] == ["2H", "3D", "AS"]
    rejects(st, dummies[0], "vzetki.dummy")  # only once


def test_observed_dummy_hand_is_then_checked_like_a_known_hand() -> None:
    st = run(state(False), [play(0, "3H")])
    rejects(st, Dummy(1, parse_cards(["2H", "AS"])), "common.card_count")
    rejects(st, Dummy(1, parse_cards(["3H", "AS", "3D"])), "common.card_seen_twice")
    st.apply(Dummy(1, parse_cards(["2H", "AS", "3D"])))
    rejects(st, play(1, "AS"), "vzetki.follow_suit")  # he shows 2H: must follow
    rejects(st, play(1, "2C"), "common.not_in_hand")
    st.apply(play(1, "2H"))
    rejects(st, play(2, "AS"), "common.card_seen_twice")  # lies open in the dummy's hand
    st.apply(play(2, "AH"))


def test_observed_dummy_hand_can_prove_the_dummys_revoke() -> None:
    st = run(state(False), [play(0, "3H"), play(1, "AS")])
    err = rejects(st, Dummy(1, parse_cards(["2H", "3D"])), "vzetki.follow_suit")
    assert isinstance(err, RevokeProven) and err.revoke_event == 1


# ----- option trump -----------------------------------------------------------------------

@BOTH
def test_trump_option_void_may_trump_and_highest_trump_wins(known: bool) -> None:
    st = run(state(known, trump="S"), [play(0, "3H"), play(1, "2H"), play(2, "AH"),
                                        play(3, "3S")])  # seat 3 void in hearts: trumps
    assert st.public_view()["last_trick_winner"] == 3 and st.public_view()["trump"] == "S"


def test_trump_option_never_obliges_to_trump() -> None:
    st = run(state(trump="C"), [play(0, "3H"), play(1, "2H"), play(2, "AH")])
    st.apply(play(3, "AD"))  # holds 2C (trump) and may still discard a diamond
    assert st.public_view()["last_trick_winner"] == 0


def test_trump_option_still_must_follow_suit() -> None:
    st = run(state(trump="S"), [play(0, "3H")])
    rejects(st, play(1, "AS"), "vzetki.follow_suit")


def test_without_trump_option_a_spade_on_hearts_does_not_win() -> None:
    st = run(state(), [play(0, "3H"), play(1, "2H"), play(2, "AH"), play(3, "3S")])
    assert st.public_view()["last_trick_winner"] == 0 and st.public_view()["trump"] is None


# ----- match level ------------------------------------------------------------------------

def test_match_step_adds_rounds_up() -> None:
    score = match_step(None, {"tricks": [6, 4]}, {})
    assert score == {"tricks": [6, 4], "rounds": 1, "of": 4, "over": False, "winner": None}
    for r in ([5, 5], [3, 7], [5, 5]):
        score = match_step(score, {"tricks": r}, {})
    assert score == {"tricks": [19, 21], "rounds": 4, "of": 4, "over": True, "winner": 1}
    eight = match_step({"tricks": [0, 0], "rounds": 0, "of": 8}, {"tricks": [5, 5]}, {})
    assert eight["of"] == 8 and not eight["over"]
