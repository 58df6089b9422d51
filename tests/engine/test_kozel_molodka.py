"""Kozel's molodka: four cards of one suit shown at any moment of a trick.

Trump spades; dealer 3, so seat 0 is to lead. D2: seat 3 holds a diamond molodka.
D3: seat 1 holds diamonds, seat 3 hearts (two molodkas at the same moment).
"""

from __future__ import annotations

import itertools

import pytest

from engine.cards import Suit, parse_cards
from engine.errors import IllegalPlay
from engine.events import Molodka, Pass, Play
from engine.header import Header
from engine.kozel import KozelState
from engine.kozel_position import DECK

D2 = ["9H KH 6C 7C", "7H 8H 10C QC", "6H JH 8C 9C", "6D 8D JD AD"]
D3 = ["9C KC 7D KD", "6D 8D JD AD", "7C 8C 9D 10D", "6H JH QH AH"]


def start(hands: list[str], mode: str) -> KozelState:
    parsed = tuple(parse_cards(h.split()) for h in hands)
    used = set(itertools.chain(*parsed))
    header = Header(game="kozel", dealer=3, trump=Suit.SPADES, hands=parsed,
                    stock=tuple(c for c in DECK if c not in used))
    state = KozelState.from_header(header if mode == "known" else header.without_hands())
    assert isinstance(state, KozelState)
    return state


def P(seat: int, cards: str) -> Play:
    return Play(seat, parse_cards(cards.split()))


def X(seat: int, cards: str) -> Pass:
    cs = parse_cards(cards.split())
    return Pass(seat, len(cs), cs)


def M(seat: int, cards: str) -> Molodka:
    return Molodka(seat, parse_cards(cards.split()))


def rejected(state: KozelState, event, rule: str) -> IllegalPlay:
    before = state.state_key()
    with pytest.raises(IllegalPlay) as info:
        state.apply(event)
    assert info.value.rule == rule, info.value.reason
    assert state.state_key() == before
    return info.value


@pytest.fixture(params=["known", "observed"])
def mode(request: pytest.FixtureRequest) -> str:
    return request.param


def test_a_molodka_out_of_turn_returns_the_table_to_its_owners_and_leads(mode):
    state = start(D2, mode)
    state.apply(P(0, "9H KH"))
    state.apply(X(1, "10C QC"))
    state.apply(M(3, "6D 8D JD AD"))  # seat 2 was due
    view = state.public_view()
    assert view["table"] == ["6D", "8D", "JD", "AD"] and view["table_down"] == 0
    assert view["hand_sizes"] == [4, 4, 4, 0] and view["leader"] == 3
    assert view["to_act"] == [0]  # play goes on clockwise from the molodka's owner
    if mode == "known":
        hands = state.position.hands
        assert hands is not None
        assert hands[0] == set(parse_cards("9H KH 6C 7C".split()))
        assert hands[1] == set(parse_cards("7H 8H 10C QC".split()))
    rejected(state, X(0, "9H KH"), "common.card_count")  # four cards now stand
    state.apply(X(0, "9H KH 6C 7C"))
    assert state.to_act() == {1}


def test_as_the_first_action_a_molodka_is_a_lead_out_of_turn(mode):
    state = start(D2, mode)
    state.apply(M(3, "6D 8D JD AD"))
    assert state.to_act() == {0}
    assert state.public_view()["standing_seat"] == 3


def test_a_molodka_is_four_cards_of_one_suit(mode):
    state = start(D2, mode)
    rejected(state, M(3, "6D 8D JD"), "kozel.molodka")
    rejected(state, M(0, "9H KH 6C 7C"), "kozel.molodka")


def test_a_molodka_needs_a_whole_hand_of_four_a_player_with_cards_down_holds_fewer(mode):
    state = start(D3, mode)
    state.apply(P(0, "9C"))
    state.apply(X(1, "6D"))
    err = rejected(state, M(1, "8D JD AD 6D"), "kozel.molodka")
    assert "holds 3 cards" in err.reason


def test_with_known_hands_a_molodka_must_be_the_players_hand():
    state = start(D2, "known")
    rejected(state, M(2, "6D 8D JD AD"), "common.not_in_hand")
    state = start(D2, "observed")
    state.apply(M(2, "6D 8D JD AD"))  # the camera cannot tell whose hand it was


def test_two_molodkas_at_the_same_moment_the_one_nearer_the_leader_leads(mode):
    # seat 3 shows first, seat 1 right after: seat 1 is nearer clockwise to seat 0
    state = start(D3, mode)
    state.apply(P(0, "9C"))
    state.apply(M(3, "6H JH QH AH"))
    state.apply(M(1, "6D 8D JD AD"))
    view = state.public_view()
    assert view["leader"] == 1 and view["to_act"] == [2]
    assert view["table"] == ["6D", "8D", "JD", "AD"] and view["hand_sizes"] == [4, 0, 4, 4]
    # the other order: seat 1 first, seat 3 right after: seat 1 keeps the lead
    state = start(D3, mode)
    state.apply(M(1, "6D 8D JD AD"))
    state.apply(M(3, "6H JH QH AH"))
    view = state.public_view()
    assert view["leader"] == 1 and view["to_act"] == [2]
    assert view["hand_sizes"] == [4, 0, 4, 4] and view["table"] == ["6D", "8D", "JD", "AD"]


def test_a_later_molodka_is_not_at_the_same_moment_and_takes_the_lead(mode):
    state = start(D3, mode)
    state.apply(M(1, "6D 8D JD AD"))
    state.apply(X(2, "7C 8C 9D 10D"))
    state.apply(M(3, "6H JH QH AH"))
    view = state.public_view()
    assert view["leader"] == 3 and view["to_act"] == [0]
    assert view["hand_sizes"] == [4, 4, 4, 0] and view["table_down"] == 0


def test_a_seat_shows_at_most_one_molodka_per_trick(mode):
    state = start(D3, mode)
    state.apply(M(1, "6D 8D JD AD"))
    state.apply(M(3, "6H JH QH AH"))  # farther: back to seat 3's hand
    err = rejected(state, M(3, "6H JH QH AH"), "kozel.molodka")
    assert "already showed" in err.reason


def test_observed_cards_back_in_a_hand_may_be_played_only_by_their_owner():
    state = start(D3, "observed")
    state.apply(M(1, "6D 8D JD AD"))
    state.apply(M(3, "6H JH QH AH"))  # farther from seat 0: back to seat 3's hand, seen
    err = rejected(state, X(2, "6H 8C 9D 10D"), "common.card_seen_twice")
    assert "seat 3" in err.reason
    state.apply(X(2, "7C 8C 9D 10D"))
    state.apply(X(3, "6H JH QH AH"))  # the owner may


def test_observed_a_molodka_must_include_the_cards_known_to_be_back_in_that_hand():
    state = start(D2, "observed")
    state.apply(P(0, "9H KH"))
    state.apply(M(3, "6D 8D JD AD"))  # 9H KH are back in seat 0's hand
    err = rejected(state, M(0, "6C 7C 8C 9C"), "kozel.molodka")
    assert "9H" in err.reason


@pytest.mark.parametrize("mode", ["known", "observed"])
def test_regression_known_cards_passed_face_down_do_not_block_a_later_molodka(mode):
    # Seat 3's hearts are seen going back to his hand, then passed face down (a count
    # only, observed); he draws four clubs and shows them: that must be accepted.
    parsed = tuple(parse_cards(h.split()) for h in D3)
    top = parse_cards("7S 8S 6C 9S 10S JS 10C QS KS AS JC 6S 7H 8H QC 9H".split())
    used = set(itertools.chain(*parsed)) | set(top)
    header = Header(game="kozel", dealer=3, trump=Suit.SPADES, hands=parsed,
                    stock=top + tuple(c for c in DECK if c not in used))
    state = KozelState.from_header(header if mode == "known" else header.without_hands())
    state.apply(M(1, "6D 8D JD AD"))
    state.apply(M(3, "6H JH QH AH"))
    state.apply(X(2, "7C 8C 9D 10D"))
    state.apply(X(3, "6H JH QH AH") if mode == "known" else Pass(3, 4))
    state.apply(X(0, "9C KC 7D KD"))
    assert state.to_act() == {1}
    state.apply(P(1, "7S"))
    state.apply(M(3, "6C 10C JC QC"))
    assert state.to_act() == {0}


def test_legal_events_list_each_molodka_and_every_listed_event_is_legal():
    state = start(D3, "known")
    events = state.legal_events()
    molodkas = [e for e in events if isinstance(e, Molodka)]
    assert [m.seat for m in molodkas] == [1, 3]
    for e in events:
        assert state.is_legal(e), e
    state.apply(M(1, "6D 8D JD AD"))
    assert [e.seat for e in state.legal_events() if isinstance(e, Molodka)] == [3]
