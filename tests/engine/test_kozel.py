"""Kozel rules, one test per rule point of RULES.md, with known hands and observed.

Each scripted deal lists the four hands; the stock is the rest of the deck (top cards
chosen where the draw matters). Dealer 3, so seat 0 leads unless a test says otherwise.
"""

from __future__ import annotations

import itertools
import random

import pytest

from engine.cards import Card, Suit, parse_cards
from engine.errors import IllegalPlay, NotYourTurn, RecordError
from engine.events import Attack, Molodka, Pass, Play
from engine.header import Header
from engine.kozel import KozelState
from engine.kozel_position import DECK


def deal(hands: list[str], trump: str = "H", stock_top: str = "", dealer: int = 3,
         leader: int | None = None, options: dict | None = None) -> Header:
    parsed = [parse_cards(h.split()) for h in hands]
    top = list(parse_cards(stock_top.split()))
    used = set(itertools.chain(*parsed)) | set(top)
    stock = tuple(top + [c for c in DECK if c not in used])
    return Header(game="kozel", dealer=dealer, trump=Suit.parse(trump), hands=tuple(parsed),
                  stock=stock, leader=leader, options=options or {})


def P(seat: int, cards: str) -> Play:
    return Play(seat, parse_cards(cards.split()))


def X(seat: int, cards: str) -> Pass:
    cs = parse_cards(cards.split())
    return Pass(seat, len(cs), cs)


def M(seat: int, cards: str) -> Molodka:
    return Molodka(seat, parse_cards(cards.split()))


def start(header: Header, mode: str) -> KozelState:
    h = header if mode == "known" else header.without_hands()
    state = KozelState.from_header(h)
    assert isinstance(state, KozelState)
    return state


def rejected(state: KozelState, event, rule: str) -> IllegalPlay:
    before = state.state_key()
    with pytest.raises(IllegalPlay) as info:
        state.apply(event)
    assert info.value.rule == rule, info.value.reason
    assert state.state_key() == before  # a rejected event changes nothing
    return info.value


MODES = ["known", "observed"]

# Trump hearts. Seat 0 leads.
D1 = ["9S KS 8H 6D", "10S JS 7H 6C", "AS 8S 9H 7C", "QS 6S 10H 8C"]
D1_TOP = "AH KH QH JH 6H 7S 8D 9D"


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest) -> str:
    return request.param


# ----- deal and header ------------------------------------------------------------------

def test_deal_gives_four_each_one_at_a_time_from_the_dealers_left_and_a_trump_in_stock():
    for seed in range(20):
        header = KozelState.deal(random.Random(seed), dealer=seed % 4)
        order = list(DECK)
        random.Random(seed).shuffle(order)
        first = (seed % 4 + 1) % 4
        assert header.hands is not None and header.stock is not None
        assert header.hands[first][0] == order[0] and header.hands[(first + 1) % 4][0] == order[1]
        assert header.hands[first][1] == order[4]
        assert [len(h) for h in header.hands] == [4, 4, 4, 4] and len(header.stock) == 20
        assert header.trump in {c.suit for c in header.stock}
        assert sorted(map(str, itertools.chain(*header.hands, header.stock))) == sorted(
            map(str, DECK))
        KozelState.from_header(header)


@pytest.mark.parametrize("hands, stock_fix, needle", [
    (["9S KS 8H 6D", "10S JS 7H 6C", "AS 8S 9H 7C", "QS 6S 10H"], None, "seat 3"),
    (["9S KS 8H 6D", "10S JS 7H 6C", "AS 8S 9H 7C", "QS 6S 10H 9S"], None, "9S"),
    (["9S KS 8H 6D", "10S JS 7H 6C", "AS 8S 9H 7C", "QS 6S 10H 2C"], None, "2C"),
    (D1, "short", "20"),
])
def test_a_deal_that_is_not_the_kozel_deck_is_a_record_error(hands, stock_fix, needle):
    header = deal(D1)
    parsed = tuple(parse_cards(h.split()) for h in hands)
    stock = header.stock if stock_fix is None else header.stock[:-1]
    if stock_fix is None and len(parsed[3]) == 3:
        stock = stock + (Card.parse("8C"),)
    bad = Header(game="kozel", dealer=3, trump=Suit.HEARTS, hands=parsed, stock=stock)
    with pytest.raises(RecordError) as info:
        KozelState.from_header(bad)
    assert needle in str(info.value)


def test_header_needs_trump_and_a_trump_suit_card_in_the_stock():
    with pytest.raises(RecordError, match="trump"):
        KozelState.from_header(Header(game="kozel", dealer=0))
    all_clubs_in_hands = ["6C 7C 8C 9C", "10C JC QC KC", "AC 6D 7D 8D", "9D 10D JD QD"]
    with pytest.raises(RecordError, match="no clubs"):
        KozelState.from_header(deal(all_clubs_in_hands, trump="C"))


def test_player_left_of_the_dealer_leads_the_first_game(mode):
    state = start(deal(D1, dealer=1), mode)
    assert state.to_act() == {2}
    rejected(state, P(0, "9S"), "common.out_of_turn")


def test_header_leader_overrides_the_first_leader(mode):
    state = start(deal(D1, leader=2), mode)
    assert state.to_act() == {2}
    state.apply(P(2, "AS"))
    assert state.to_act() == {3}


# ----- leads -----------------------------------------------------------------------------

def test_a_lead_is_one_to_four_cards_of_one_suit(mode):
    state = start(deal(D1), mode)
    state.apply(P(0, "9S KS"))
    assert state.public_view()["table"] == ["9S", "KS"]
    state = start(deal(D1), mode)
    err = rejected(state, P(0, "9S 8H"), "kozel.lead_suit")
    assert "9S 8H" in err.reason


def test_leading_more_cards_than_held_is_a_card_count_error(mode):
    state = start(deal(D1), mode)
    err = rejected(state, P(0, "9S KS 10S JS 8S"), "common.card_count")
    assert "holds 4 cards" in err.reason


def test_out_of_turn_play_and_a_pass_on_the_lead_are_rejected(mode):
    state = start(deal(D1), mode)
    err = rejected(state, P(1, "10S"), "common.out_of_turn")
    assert isinstance(err, NotYourTurn)
    rejected(state, X(0, "6D"), "kozel.pass_lead")
    state.apply(P(0, "KS"))
    rejected(state, P(2, "AS"), "common.out_of_turn")


# ----- beating -----------------------------------------------------------------------------

def test_a_higher_card_of_the_suit_beats_and_the_ten_ranks_above_the_king(mode):
    state = start(deal(D1), mode)
    state.apply(P(0, "KS"))
    state.apply(P(1, "10S"))
    assert state.public_view()["standing"] == ["10S"]
    state = start(deal(D1), mode)
    state.apply(P(0, "KS"))
    err = rejected(state, P(1, "JS"), "kozel.beat")
    assert err.reason == "JS does not beat KS: trump is hearts"


def test_a_card_of_another_plain_suit_never_beats_but_a_trump_beats_any_plain_card(mode):
    state = start(deal(D1), mode)
    state.apply(P(0, "6D"))
    rejected(state, P(1, "6C"), "kozel.beat")
    rejected(state, P(1, "10S"), "kozel.beat")
    state.apply(P(1, "7H"))


def test_a_trump_beats_a_trump_only_by_rank(mode):
    state = start(deal(D1), mode)
    state.apply(P(0, "8H"))
    rejected(state, P(1, "7H"), "kozel.beat")
    state.apply(X(1, "6C"))
    state.apply(P(2, "9H"))
    assert state.public_view()["standing_seat"] == 2


def test_a_multi_card_beat_is_matched_one_to_one_whatever_the_listing_order(mode):
    # 10S JS onto 9S KS works only as 10S>KS, JS>9S: the listed order pairs JS with KS.
    for beat in ("10S JS", "JS 10S"):
        state = start(deal(D1), mode)
        state.apply(P(0, "9S KS"))
        state.apply(P(1, beat))


def test_beating_cards_need_not_be_of_one_suit(mode):
    state = start(deal(D1), mode)
    state.apply(P(0, "9S KS"))
    state.apply(P(1, "7H JS"))


def test_a_multi_card_beat_with_one_card_that_beats_nothing_is_rejected(mode):
    state = start(deal(D1), mode)
    state.apply(P(0, "9S KS"))
    err = rejected(state, P(1, "10S 6C"), "kozel.beat")
    assert "10S 6C" in err.reason and "9S KS" in err.reason
    state.apply(P(1, "10S JS"))
    rejected(state, P(2, "AS 8S"), "kozel.beat")  # 8S beats neither 10S nor JS


def test_a_beat_or_a_pass_must_match_the_number_of_cards_standing(mode):
    state = start(deal(D1), mode)
    state.apply(P(0, "9S KS"))
    rejected(state, P(1, "10S"), "common.card_count")
    rejected(state, X(1, "6C"), "common.card_count")
    if mode == "observed":
        rejected(state, Pass(1, 3), "common.card_count")


# ----- passing ------------------------------------------------------------------------------

def test_any_cards_may_be_passed_face_down_even_a_trump(mode):
    state = start(deal(D1), mode)
    state.apply(P(0, "9S KS"))
    state.apply(X(1, "7H 10S"))
    view = state.public_view()
    assert view["table"] == ["9S", "KS"] and view["table_down"] == 2
    assert view["standing_seat"] == 0


def test_a_pass_given_as_a_count_only_is_accepted_only_when_hands_are_unknown():
    state = start(deal(D1), "observed")
    state.apply(P(0, "9S KS"))
    state.apply(Pass(1, 2))
    assert state.public_view()["hand_sizes"] == [2, 2, 4, 4]
    state = start(deal(D1), "known")
    state.apply(P(0, "9S KS"))
    rejected(state, Pass(1, 2), "kozel.pass_unlisted")


# ----- cards: deck, hands, seen twice ---------------------------------------------------------

def test_a_card_not_in_the_kozel_deck_is_illegal(mode):
    state = start(deal(D1), mode)
    rejected(state, P(0, "5S"), "common.not_in_deck")


def test_a_card_listed_twice_is_seen_twice(mode):
    state = start(deal(D1), mode)
    rejected(state, P(0, "9S 9S"), "common.card_seen_twice")


def test_with_known_hands_a_card_must_be_in_the_players_hand():
    state = start(deal(D1), "known")
    state.apply(P(0, "KS"))
    err = rejected(state, P(1, "AS"), "common.not_in_hand")
    assert "seat 2 holds it" in err.reason
    rejected(state, P(1, "AH"), "common.not_in_hand")


def test_observed_a_card_already_on_the_table_or_in_a_pile_is_seen_twice():
    state = start(deal(D1), "observed")
    state.apply(P(0, "KS"))
    rejected(state, P(1, "KS"), "common.card_seen_twice")
    state.apply(P(1, "AS"))  # the camera cannot know seat 2 holds it
    state.apply(Pass(2, 1))
    state.apply(Pass(3, 1))
    assert state.public_view()["last_trick_winner"] == 1
    err = rejected(state, P(1, "AS"), "common.card_seen_twice")
    assert "already played" in err.reason


# ----- the trick, the pile, the draw ------------------------------------------------------------

def test_whose_cards_stand_after_the_fourth_player_takes_the_trick_and_all_draw_winner_first(mode):
    state = start(deal(D1, stock_top=D1_TOP), mode)
    state.apply(P(0, "9S KS"))
    state.apply(P(1, "10S JS"))
    state.apply(X(2, "8S 7C"))
    state.apply(X(3, "6S 8C"))
    view = state.public_view()
    assert view["last_trick_winner"] == 1 and view["tricks_played"] == 1
    assert view["points"] == [0, 16] and view["tricks"] == [0, 1]
    assert view["to_act"] == [1] and view["stock"] == 12 and view["hand_sizes"] == [4] * 4
    assert view["table"] == [] and view["table_down"] == 0
    if mode == "known":
        hands = state.position.hands
        assert hands is not None
        assert hands[1] == set(parse_cards("7H 6C AH 6H".split()))
        assert hands[2] == set(parse_cards("AS 9H KH 7S".split()))
        assert hands[0] == set(parse_cards("8H 6D JH 9D".split()))


def test_events_kozel_does_not_use_and_seats_that_do_not_exist_are_illegal(mode):
    state = start(deal(D1), mode)
    err = rejected(state, Attack(0, parse_cards(["9S"])), "kozel.event")
    assert "attack" in err.reason
    err = rejected(state, P(5, "9S"), "common.seat")
    assert "seat 5 does not exist" in err.reason


def test_undo_restores_the_exact_state_and_clone_is_independent(mode):
    state = start(deal(D1, stock_top=D1_TOP), mode)
    keys = [state.state_key()]
    for ev in (P(0, "9S KS"), P(1, "10S JS"), X(2, "8S 7C"), X(3, "6S 8C")):
        state.apply(ev)
        keys.append(state.state_key())
    twin = state.clone()
    for key in reversed(keys[:-1]):
        state.undo()
        assert state.state_key() == key
    assert twin.public_view()["tricks_played"] == 1
