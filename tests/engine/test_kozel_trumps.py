"""Kozel-trumps rules, one test per rule point of RULES.md, known hands and observed.

T1, trump hearts, dealer 3 (seat 0 had the trump turned and leads):
  seat 0: AH 7C QS | 9C | 8D 7D | AS 8S        (trumps AH 7C QS)
  seat 1: QC | AC 10C KC | AD 10D | KS 9S       (one trump: QC)
  seat 2: JD 10H JS JH QD | 8C | KD 9D          (no spades)
  seat 3: QH JC KH 9H 8H 7H | 10S 7S            (no clubs, no diamonds)
"""

from __future__ import annotations

import random

import pytest

from engine.cards import Card, Suit, parse_cards
from engine.errors import IllegalPlay, NotYourTurn, RecordError, RevokeProven
from engine.events import Exchange, Pass, Play
from engine.header import Header
from engine.kozel_trumps import KozelTrumpsState
from engine.kozel_trumps_rules import DECK, is_trump
from engine.ranking import PERMANENT_TRUMPS, trumps_winner

T1 = ["AH 7C QS 9C 8D 7D AS 8S", "QC AC 10C KC AD 10D KS 9S",
      "JD 10H JS JH QD 8C KD 9D", "QH JC KH 9H 8H 7H 10S 7S"]


def header(hands=T1, trump: str = "H", dealer: int = 3, options: dict | None = None,
           stock: tuple = ()) -> Header:
    return Header(game="kozel-trumps", dealer=dealer, trump=Suit.parse(trump),
                  hands=tuple(parse_cards(h.split()) for h in hands), stock=stock,
                  options=options or {})


def start(mode: str, **kw) -> KozelTrumpsState:
    h = header(**kw)
    state = KozelTrumpsState.from_header(h if mode == "known" else h.without_hands())
    assert isinstance(state, KozelTrumpsState)
    return state


def play(state: KozelTrumpsState, *moves: str) -> None:
    """Moves like "0:QS"."""
    for m in moves:
        seat, card = m.split(":")
        state.apply(Play(int(seat), parse_cards([card])))


def P(seat: int, card: str) -> Play:
    return Play(seat, parse_cards([card]))


def rejected(state, event, rule: str, cls=IllegalPlay) -> IllegalPlay:
    before = state.state_key()
    with pytest.raises(cls) as info:
        state.apply(event)
    assert info.value.rule == rule, info.value.reason
    assert state.state_key() == before
    return info.value


@pytest.fixture(params=["known", "observed"])
def mode(request: pytest.FixtureRequest) -> str:
    return request.param


# ----- deck, orders, deal --------------------------------------------------------------

def test_the_permanent_trumps_rank_7c_then_queens_then_jacks_then_the_trump_suit():
    ladder = list(PERMANENT_TRUMPS) + list(parse_cards("AD 10D KD 9D 8D 7D".split()))
    for higher, lower in zip(ladder, ladder[1:]):
        assert trumps_winner([lower, higher], Suit.DIAMONDS) == 1
        assert trumps_winner([higher, lower], Suit.DIAMONDS) == 0
    assert trumps_winner(parse_cards("AS 7D".split()), Suit.DIAMONDS) == 1
    assert all(is_trump(c, Suit.DIAMONDS) for c in ladder)


def test_plain_suits_rank_a_10_k_9_8_7_and_an_off_suit_card_never_wins():
    order = parse_cards("7S 8S 9S KS 10S AS".split())
    for lower, higher in zip(order, order[1:]):
        assert trumps_winner([lower, higher], Suit.HEARTS) == 1
    assert trumps_winner(parse_cards("7S AC AD 8S".split()), Suit.HEARTS) == 3
    assert not is_trump(Card.parse("KS"), Suit.HEARTS)


def test_deal_turns_cards_for_the_dealers_left_until_a_plain_card_names_trump():
    for seed in range(30):
        dealer = seed % 4
        h = KozelTrumpsState.deal(random.Random(seed), dealer=dealer)
        order = list(DECK)
        random.Random(seed).shuffle(order)
        t = next(i for i, c in enumerate(order) if not is_trump(c, None))
        first = (dealer + 1) % 4
        assert h.trump is order[t].suit
        assert h.hands is not None and list(h.hands[first][:t + 1]) == order[:t + 1]
        assert list(h.hands[(first + 1) % 4][:t + 1]) == order[t + 1:2 * t + 2]
        assert [len(x) for x in h.hands] == [8] * 4
        KozelTrumpsState.from_header(h)


def test_with_jack_of_clubs_declares_the_deal_is_plain_and_any_trump_is_accepted():
    opts = {"jack_of_clubs_declares": True}
    h = KozelTrumpsState.deal(random.Random(3), dealer=0, options=opts)
    KozelTrumpsState.from_header(h)
    # seat 1 (left of dealer 0) holds no plain heart: fine only when the JC declared
    KozelTrumpsState.from_header(header(dealer=0, options=opts))
    with pytest.raises(RecordError, match="turned for seat 1"):
        KozelTrumpsState.from_header(header(dealer=0))


@pytest.mark.parametrize("hands, stock, needle", [
    (T1[:3] + ["QH JC KH 9H 8H 7H 10S"], (), "seat 3"),
    (T1[:3] + ["QH JC KH 9H 8H 7H 10S 6S"], (), "6S"),
    (T1[:3] + ["QH JC KH 9H 8H 7H 10S 9S"], (), "9S"),
    (T1, (Card.parse("6S"),), "stock"),
])
def test_a_deal_that_is_not_the_32_card_deck_is_a_record_error(hands, stock, needle):
    with pytest.raises(RecordError) as info:
        KozelTrumpsState.from_header(header(hands=hands, stock=stock))
    assert needle in str(info.value)


# ----- tricks ---------------------------------------------------------------------------

def test_the_player_the_trump_was_turned_for_leads_then_the_trick_winner(mode):
    state = start(mode)
    assert state.to_act() == {0}
    err = rejected(state, P(1, "QC"), "common.out_of_turn", NotYourTurn)
    assert "seat 0" in err.reason
    play(state, "0:QS", "1:QC", "2:JD", "3:QH")  # QC is the highest of these
    view = state.public_view()
    assert view["last_trick_winner"] == 1 and view["to_act"] == [1]
    assert view["points"] == [0, 11] and view["tricks_played"] == 1


def test_one_card_each_and_only_cards_of_the_32_card_deck(mode):
    state = start(mode)
    rejected(state, Play(0, parse_cards(["QS", "AS"])), "common.card_count")
    rejected(state, P(0, "6S"), "common.not_in_deck")


def test_a_card_played_twice_or_not_in_hand(mode):
    state = start(mode)
    play(state, "0:QS")
    rejected(state, P(1, "QS"), "common.card_seen_twice")
    if mode == "known":
        err = rejected(state, P(1, "QH"), "common.not_in_hand")
        assert "seat 3 holds it" in err.reason


def test_events_of_other_games_and_missing_seats_are_illegal(mode):
    state = start(mode)
    rejected(state, Pass(0, 1), "kozel_trumps.event")
    err = rejected(state, P(7, "QS"), "common.seat")
    assert "seat 7 does not exist" in err.reason


def test_must_follow_the_led_suit_known_hands_catch_it_at_once():
    state = start("known")
    play(state, "0:9C")
    err = rejected(state, P(1, "AD"), "kozel_trumps.revoke")
    assert err.reason == "AD was played on a club lead although this player holds KC"
    assert not isinstance(err, RevokeProven)
    play(state, "1:KC")


def test_void_in_the_led_suit_must_trump_if_he_can():
    state = start("known")
    play(state, "0:8S", "1:KS")
    err = rejected(state, P(2, "8C"), "kozel_trumps.revoke")
    assert "spade lead" in err.reason and "8C" in err.reason
    play(state, "2:JS")


def test_on_a_trump_lead_must_play_a_trump_if_he_has_one_else_anything(mode):
    state = start(mode)
    if mode == "known":
        play(state, "0:AH")
        rejected(state, P(1, "AC"), "kozel_trumps.revoke")
        state.undo()
    play(state, "0:QS", "1:QC", "2:JD", "3:QH", "1:KS", "2:JS", "3:10S", "0:AS")
    assert state.public_view()["last_trick_winner"] == 2
    play(state, "2:10H", "3:7H", "0:7C")
    play(state, "1:AD")  # seat 1 has no trump left: any card


def test_trick_goes_to_the_highest_trump_else_the_highest_of_the_led_suit(mode):
    state = start(mode)
    play(state, "0:9C", "1:10C", "2:8C", "3:JC")
    assert state.public_view()["last_trick_winner"] == 3
    state = start(mode)
    play(state, "0:8S", "1:KS", "2:JS", "3:10S")
    assert state.public_view()["last_trick_winner"] == 2
    play(state, "2:KD", "3:7H", "0:8D", "1:AD")
    assert state.public_view()["last_trick_winner"] == 3


# ----- the revoke proven later (observed) -------------------------------------------------

def test_observed_a_failure_to_follow_is_proven_when_he_later_shows_the_suit():
    state = start("observed")
    play(state, "0:9C", "1:AD", "2:8C", "3:JC")  # line 3: seat 1 held clubs
    play(state, "3:10S", "0:AS", "1:KS", "2:JS")
    play(state, "2:KD", "3:7H", "0:7D")
    with pytest.raises(RevokeProven) as info:
        state.apply(P(1, "AC"))
    err = info.value
    assert err.rule == "kozel_trumps.revoke" and err.revoke_event == 1
    assert err.reason == "line 3: AD was played on a club lead although this player held AC"
    assert err.event == 11 and err.seat == 1
    state.apply(P(1, "10D"))  # a diamond proves nothing: he followed suit


def test_observed_a_failure_to_trump_is_proven_when_he_later_plays_a_trump():
    state = start("observed")
    play(state, "0:8S", "1:KS", "2:8C", "3:10S")  # line 4: seat 2 void in spades
    play(state, "3:7H", "0:AH", "1:QC")
    err = rejected(state, P(2, "JD"), "kozel_trumps.revoke", RevokeProven)
    assert err.revoke_event == 2
    assert err.reason == "line 4: 8C was played on a spade lead although this player held JD"


def test_observed_a_plain_card_on_a_trump_lead_is_proven_by_a_later_trump():
    state = start("observed")
    play(state, "0:AH", "1:AC", "2:10H", "3:QH")
    play(state, "3:KH", "0:7C")
    err = rejected(state, P(1, "QC"), "kozel_trumps.revoke", RevokeProven)
    assert err.reason.startswith("line 3: AC was played on a trump lead")


def test_observed_playing_off_suit_then_an_off_suit_card_proves_nothing():
    state = start("observed")
    play(state, "0:AH", "1:AC", "2:10H", "3:QH")  # seat 1 may simply lack trumps
    play(state, "3:7S", "0:8S", "1:9S", "2:8C")
    play(state, "1:10C")  # clubs: no trump, so no proof


# ----- the exchange -------------------------------------------------------------------------

def test_a_player_with_exactly_one_trump_gives_it_to_the_partner_for_a_card():
    state = start("known")
    state.apply(Exchange(1, Card.parse("QC"), Card.parse("10S")))
    hands = state.position.hands
    assert hands is not None
    assert Card.parse("10S") in hands[1] and Card.parse("QC") in hands[3]
    assert state.public_view()["hand_sizes"] == [8] * 4
    rejected(state, Exchange(1, Card.parse("QC"), Card.parse("7S")), "kozel_trumps.exchange")


@pytest.mark.parametrize("seat, give, receive, rule", [
    (0, "QS", "KD", "kozel_trumps.exchange"),   # seat 0 has three trumps
    (1, "AC", "10S", "kozel_trumps.exchange"),  # a plain card is no trump
    (1, "QC", "KD", "common.not_in_hand"),      # KD is seat 2's, not the partner's
])
def test_an_exchange_that_breaks_the_rule_is_rejected_with_known_hands(seat, give, receive, rule):
    rejected(start("known"), Exchange(seat, Card.parse(give), Card.parse(receive)), rule)


def test_an_unseen_exchange_is_accepted_observed_once_per_seat_and_before_the_first_play():
    state = start("observed")
    state.apply(Exchange(1))
    assert state.public_view()["hand_sizes"] == [8] * 4
    rejected(state, Exchange(1), "kozel_trumps.exchange")
    play(state, "0:QS")
    err = rejected(state, Exchange(3), "kozel_trumps.exchange")
    assert "before the first card" in err.reason
    rejected(start("known"), Exchange(1), "kozel_trumps.exchange_unlisted")


def test_legal_events_follow_suit_and_list_the_exchanges_before_the_first_play():
    state = start("known")
    first = state.legal_events()
    exchanges = [e for e in first if isinstance(e, Exchange)]
    assert {e.seat for e in exchanges} == {1} and len(exchanges) == 8
    play(state, "0:9C")
    assert sorted(str(e.cards[0]) for e in state.legal_events()) == ["10C", "AC", "KC"]
    for e in state.legal_events():
        assert state.is_legal(e)
