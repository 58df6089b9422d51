"""Cards, suits, ranks and the decks the games use.

Cards are written rank+suit exactly as RULES.md: ranks `2..10 J Q K A`, suits
`C D H S` (`10H`, `QC`, `6S`, `AD`). In the numbered children's deck of `vzetki` the 1
is the ace and is written `A`. Anything else is a `CardSyntaxError`.

Cards are interned: `Card.parse("QH") is Card.parse("QH")`, so comparing and hashing
them is cheap on the referee's hot path. How cards *rank* is a game's business (Kozel
puts the 10 above the king); this module only knows their names.

>>> Card.parse("10H")
Card.parse('10H')
>>> str(Card.parse("qs"))
'QS'
>>> len(deck(36)), len(deck(32)), len(deck(52)), len(vzetki_deck(10))
(36, 32, 52, 40)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from engine.errors import CardSyntaxError


class Suit(enum.Enum):
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def word(self) -> str:
        """The suit's name for messages to players ("hearts")."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Suit:
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise CardSyntaxError(text, "not a suit (C, D, H or S)") from None

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)

#: Rank texts in their natural (face) order; `A` first as the 1 of numbered decks.
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: The face value of each rank, A=1 .. K=13. Games define their own orders from it.
FACE_VALUE: dict[str, int] = {r: i + 1 for i, r in enumerate(RANKS)}
RANK_WORDS: dict[str, str] = {
    "A": "ace", "J": "jack", "Q": "queen", "K": "king",
    **{str(n): str(n) for n in range(2, 11)},
}


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card: `rank` is one of RANKS, `suit` a Suit. Build with `Card.parse`."""

    rank: str
    suit: Suit

    _cache: ClassVar[dict[str, Card]] = {}

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse `10H`, `QC`, `as` (case-insensitive). Raises CardSyntaxError."""
        if not isinstance(text, str):
            raise CardSyntaxError(repr(text), "a card must be written as text like 'QH'")
        try:
            return cls._cache[text]
        except KeyError:
            pass
        t = text.strip().upper()
        rank, suit = t[:-1], t[-1:]
        if rank not in FACE_VALUE or suit not in "CDHS" or not suit:
            raise CardSyntaxError(text, "not a card (ranks 2..10 J Q K A, suits C D H S)")
        card = cls._cache.get(t)
        if card is None:
            card = cls(rank, Suit(suit))
            cls._cache[t] = card
        cls._cache[text] = card
        return card

    @property
    def face(self) -> int:
        """Face value: A=1, 2..10, J=11, Q=12, K=13."""
        return FACE_VALUE[self.rank]

    @property
    def words(self) -> str:
        """"queen of hearts" — for messages written for players."""
        return f"{RANK_WORDS[self.rank]} of {self.suit.word}"

    def __str__(self) -> str:
        return self.rank + self.suit.value

    def __repr__(self) -> str:
        return f"Card.parse('{self}')"


def parse_cards(texts: Iterable[str]) -> tuple[Card, ...]:
    """Parse several cards; raises CardSyntaxError naming the first bad one."""
    return tuple(Card.parse(t) for t in texts)


def card_list(cards: Iterable[Card]) -> str:
    """`9H KH` — cards as players write them, for messages."""
    return " ".join(str(c) for c in cards)


_DECK_RANKS = {
    52: RANKS,
    36: ("6", "7", "8", "9", "10", "J", "Q", "K", "A"),
    32: ("7", "8", "9", "10", "J", "Q", "K", "A"),
}


def deck(size: int) -> tuple[Card, ...]:
    """The 52-card deck or its 36 (6..A) and 32 (7..A) piquet subsets, in a fixed order."""
    try:
        ranks = _DECK_RANKS[size]
    except KeyError:
        raise ValueError(f"no {size}-card deck (36, 32 or 52)") from None
    return tuple(Card.parse(r + s.value) for s in SUITS for r in ranks)


def vzetki_deck(top_rank: int = 10) -> tuple[Card, ...]:
    """The numbered children's deck: 1 (written A) to `top_rank` in four suits."""
    if not 1 <= top_rank <= 10:
        raise ValueError(f"top_rank {top_rank} is not 1..10")
    ranks = RANKS[:top_rank]
    return tuple(Card.parse(r + s.value) for s in SUITS for r in ranks)
