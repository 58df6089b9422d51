"""vzetki-duo rules (RULES.md variant 2): four piles each, play a showing top card.

Deal used (top_rank 4: A 2 3 4 of each suit, 8 cards each, piles of 2, top first;
seat 0 deals, so seat 1 leads):
    seat 0: [4H 2C] [AS 3D] [2D AH] [3C 4S]     seat 1: [3H 4C] [2S AD] [AC 3S] [2H 4D]
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from rules_helpers import rejects

from engine.cards import parse_cards
from engine.errors import RecordError
from engine.events import Dummy, Play
from engine.header import Header
from engine.vzetki_duo import VzetkiDuoState, match_step, pile_sizes

PILES = (
    (("4H", "2C"), ("AS", "3D"), ("2D", "AH"), ("3C", "4S")),
    (("3H", "4C"), ("2S", "AD"), ("AC", "3S"), ("2H", "4D")),
)


def header(known: bool = True, piles: Any = PILES) -> Header:
    return Header(
        game="vzetki-duo", dealer=0, options={"top_rank": 4},
        piles=tuple(tuple(parse_cards(p) for p in seat) for seat in piles) if known else None,
    )


def state(known: bool = True) -> VzetkiDuoState:
    st = VzetkiDuoState.from_header(header(known))
    assert isinstance(st, VzetkiDuoState)
    return st


def play(seat: int, card: str) -> Play:
    return Play(seat, parse_cards([card]))


BOTH = pytest.mark.parametrize("known", [True, False], ids=["known", "observed"])


def test_deal_gives_four_about_equal_piles_each() -> None:
    assert pile_sizes(20) == [5, 5, 5, 5] and pile_sizes(18) == [5, 5, 4, 4]
    h = VzetkiDuoState.deal(random.Random(3), dealer=1, options={"top_rank": 9})
    assert h.piles is not None
    assert [[len(p) for p in seat] for seat in h.piles] == [[5, 5, 4, 4]] * 2
    assert VzetkiDuoState.from_header(h).to_act() == {0}


@pytest.mark.parametrize(
    ("piles", "words"),
    [
        (PILES[:1], "2 seats"),
        ((PILES[0][:3], PILES[1]), "3 piles"),
        (((("4H", "2C", "AS"), ("3D",), ("2D", "AH"), ("3C", "4S")), PILES[1]), "not about equal"),
        (((("4H", "2C"), ("AS", "3D"), ("2D", "AH"), ("3C", "3H")), PILES[1]), "dealt twice"),
        (((("4H", "2C"), ("AS", "3D"), ("2D", "AH"), ("3C", "5S")), PILES[1]), "not in the"),
    ],
)
def test_piles_must_be_the_deck_in_four_equal_piles(piles: Any, words: str) -> None:
    with pytest.raises(RecordError, match=words):
        VzetkiDuoState.from_header(header(piles=piles))


@BOTH
def test_non_dealer_leads_and_turns_alternate(known: bool) -> None:
    st = state(known)
    assert st.to_act() == {1}
    rejects(st, play(0, "4H"), "common.out_of_turn")
    st.apply(play(1, "3H"))
    rejects(st, play(1, "2S"), "common.out_of_turn")


def test_only_a_showing_top_card_may_be_played() -> None:
    st = state()
    err = rejects(st, play(1, "4C"), "vzetki_duo.top_card")
    assert "3H 2S AC 2H" in err.reason
    st.apply(play(1, "3H"))
    st.apply(play(0, "4H"))  # 4H wins; seat 0 now shows 2C on that pile
    assert st.tops(0) == list(parse_cards(["2C", "AS", "2D", "3C"]))
    assert st.to_act() == {0}
    st.apply(play(0, "2C"))  # the card turned up is playable


def test_must_follow_a_showing_suit_else_any_top_card() -> None:
    st = state()
    st.apply(play(1, "2H"))
    err = rejects(st, play(0, "AS"), "vzetki_duo.follow_suit")
    assert "4H" in err.reason
    st.apply(play(0, "4H"))
    st.apply(play(0, "2D"))  # seat 0 won and leads; seat 1 now shows 4D (under 2H)
    assert [str(c) for c in st.tops(1)] == ["3H", "2S", "AC", "4D"]
    rejects(st, play(1, "3H"), "vzetki_duo.follow_suit")
    st.apply(play(1, "4D"))


def test_void_in_showing_cards_may_play_any_top_card() -> None:
    st = state()
    st.apply(play(1, "2S"))  # seat 0 shows 4H AS 2D 3C: AS follows
    rejects(st, play(0, "3C"), "vzetki_duo.follow_suit")
    st.apply(play(0, "AS"))  # 2S beats the ace (1): seat 1 wins
    assert st.public_view()["last_trick_winner"] == 1
    st.apply(play(1, "AD"))  # the card under 2S
    st.apply(play(0, "3D"))  # under AS
    assert st.public_view()["last_trick_winner"] == 0


@BOTH
def test_highest_of_led_suit_takes_both_and_leads(known: bool) -> None:
    st = state(known)
    st.apply(play(1, "3H"))
    st.apply(play(0, "4H"))  # 4H over 3H
    view = st.public_view()
    assert view["last_trick_winner"] == 0 and st.to_act() == {0}
    assert view["tricks"] == [1, 0] and view["tricks_played"] == 1
    st.apply(play(0, "2D"))
    st.apply(play(1, "2S"))  # no diamond showing: any top card; it cannot win
    assert st.public_view()["last_trick_winner"] == 0
    assert st.public_view()["tricks"] == [2, 0]


def test_whole_round_and_result() -> None:
    st = state()
    rng = random.Random(0)
    while not st.complete:
        events = st.legal_events()
        st.apply(events[rng.randrange(len(events))])
    assert sum(st.result()["tricks"]) == 8 and st.legal_events() == []
    rejects(st, play(0, "4H"), "common.game_over")


def test_observed_checks_seen_twice_deck_count_and_events() -> None:
    st = state(False)
    st.apply(play(1, "3H"))
    rejects(st, play(0, "3H"), "common.card_seen_twice")
    rejects(st, play(0, "5H"), "common.not_in_deck")
    rejects(st, Play(0, parse_cards(["4H", "2C"])), "common.card_count")
    rejects(st, Dummy(0, parse_cards(["4H"])), "vzetki_duo.event")
    rejects(st, play(2, "4H"), "common.seat")
    st.apply(play(0, "2S"))  # unknown tops: following cannot be checked


def test_observed_game_ends_after_all_cards() -> None:
    st = state(False)
    order = ["3H", "4H", "2C", "4C", "AS", "2S", "AD", "3D", "2D", "AC", "AH", "2H",
             "3C", "3S", "4S", "4D"]
    seat = 1
    for i, card in enumerate(order):
        st.apply(play(seat, card))
        if i % 2 == 1:
            seat = st.public_view()["last_trick_winner"]
        else:
            seat = 1 - seat
    assert st.complete and sum(st.result()["tricks"]) == 8


def test_match_step_counts_tricks_per_player() -> None:
    score = match_step(None, {"tricks": [12, 8]}, {})
    assert score["tricks"] == [12, 8] and score["rounds"] == 1 and not score["over"]
