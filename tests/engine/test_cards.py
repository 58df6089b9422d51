"""engine.cards: parsing, interning, text round trips and the decks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import (
    RANKS,
    SUITS,
    Card,
    Suit,
    card_list,
    deck,
    parse_cards,
    vzetki_deck,
)
from engine.errors import CardSyntaxError, RecordError


@pytest.mark.parametrize("text", ["10H", "QC", "6S", "AD", "2C", "JH", "KS", "9D"])
def test_parse_and_str_round_trip(text: str) -> None:
    card = Card.parse(text)
    assert str(card) == text
    assert eval(repr(card)) == card


def test_parse_is_case_insensitive_and_interned() -> None:
    assert Card.parse("qs") is Card.parse("QS") is Card.parse(" QS ")
    assert Card.parse("10h").rank == "10" and Card.parse("10h").suit is Suit.HEARTS


@pytest.mark.parametrize("bad", ["1X", "1H", "11S", "Q", "", "H", "QZ", "10", "JOKER"])
def test_not_a_card_is_a_card_syntax_error(bad: str) -> None:
    with pytest.raises(CardSyntaxError) as info:
        Card.parse(bad)
    assert isinstance(info.value, RecordError)  # unreadable record: exit 2
    assert info.value.text == bad


def test_non_text_is_refused() -> None:
    with pytest.raises(CardSyntaxError):
        Card.parse(7)  # type: ignore[arg-type]


def test_suit_parse_and_words() -> None:
    assert Suit.parse("h") is Suit.HEARTS and str(Suit.SPADES) == "S"
    assert Suit.CLUBS.word == "clubs" and Card.parse("QH").words == "queen of hearts"
    with pytest.raises(CardSyntaxError):
        Suit.parse("X")


def test_faces_and_lists() -> None:
    assert [Card.parse(r + "S").face for r in ("A", "2", "10", "J", "Q", "K")] == \
        [1, 2, 10, 11, 12, 13]
    assert card_list(parse_cards(["9H", "KH"])) == "9H KH"


def test_decks() -> None:
    for size in (32, 36, 52):
        cards = deck(size)
        assert len(cards) == len(set(cards)) == size
    assert {c.rank for c in deck(36)} == {"6", "7", "8", "9", "10", "J", "Q", "K", "A"}
    assert {c.rank for c in deck(32)} == {"7", "8", "9", "10", "J", "Q", "K", "A"}
    assert len(vzetki_deck(10)) == 40 and {c.rank for c in vzetki_deck(3)} == {"A", "2", "3"}
    with pytest.raises(ValueError):
        deck(40)
    with pytest.raises(ValueError):
        vzetki_deck(11)


@given(st.sampled_from(RANKS), st.sampled_from(SUITS), st.sampled_from([str.lower, str.upper]))
def test_every_card_round_trips(rank: str, suit: Suit, case: object) -> None:
    text = rank + suit.value
    card = Card.parse(case(text))  # type: ignore[operator]
    assert str(card) == text and Card.parse(str(card)) is card
