"""Card orders and card points shared by the Kozel family (and anyone who wants them).

Kozel ranks inside a suit 6 7 8 9 J Q K 10 A (the 10 sits above the king); both Kozel
games count card points J 2, Q 3, K 4, 10 10, A 11 (120 in a 36- or 32-card deck).
Kozel-trumps has one permanent trump ladder: 7C, the four queens, the four jacks, then
A 10 K 9 8 7 of the trump suit; queens, jacks and the 7C belong to no plain suit.

Kept apart from the game modules because the referee's displays and the tests want
the same orders without building a game, and so two games cannot drift apart.

>>> from engine.cards import Card, Suit
>>> kozel_beats(Card.parse("10H"), Card.parse("KH"), Suit.SPADES)
True
>>> kozel_beats(Card.parse("AS"), Card.parse("10D"), Suit.HEARTS)
False
>>> beat_matching((Card.parse("7S"), Card.parse("AH")), (Card.parse("KH"), Card.parse("6S")),
...               lambda a, b: kozel_beats(a, b, Suit.CLUBS))
((Card.parse('7S'), Card.parse('6S')), (Card.parse('AH'), Card.parse('KH')))
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from engine.cards import Card, Suit

#: Kozel's order inside a suit, low to high.
KOZEL_ORDER: tuple[str, ...] = ("6", "7", "8", "9", "J", "Q", "K", "10", "A")
KOZEL_RANK: dict[str, int] = {r: i for i, r in enumerate(KOZEL_ORDER)}

#: Card points of both Kozel games (others 0).
POINTS: dict[str, int] = {"J": 2, "Q": 3, "K": 4, "10": 10, "A": 11}


def card_points(card: Card) -> int:
    """Card points: J 2, Q 3, K 4, 10 10, A 11, anything else 0."""
    return POINTS.get(card.rank, 0)


def kozel_beats(new: Card, old: Card, trump: Suit) -> bool:
    """Whether `new` beats `old` in Kozel: higher of the same suit, or a trump over a
    non-trump. Two non-trumps of different suits never compare."""
    if new.suit is old.suit:
        return KOZEL_RANK[new.rank] > KOZEL_RANK[old.rank]
    return new.suit is trump


def beat_matching(
    new: Sequence[Card], standing: Sequence[Card], beats: Callable[[Card, Card], bool]
) -> tuple[tuple[Card, Card], ...] | None:
    """A one-to-one matching of `new` onto `standing` where each new card beats its
    partner, as (new, standing) pairs in the order of `new`; None if there is none.

    The order the cards were listed in means nothing at the table, so every pairing is
    tried (at most 4! = 24)."""
    if len(new) != len(standing):
        return None
    for perm in itertools.permutations(standing):
        if all(beats(a, b) for a, b in zip(new, perm)):
            return tuple(zip(new, perm))
    return None


# ----- kozel-trumps -------------------------------------------------------------------

#: The permanent trumps above the trump suit's own cards, high to low.
PERMANENT_TRUMPS: tuple[Card, ...] = tuple(
    Card.parse(t) for t in ("7C", "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD")
)
#: Plain-suit order in kozel-trumps (and the trump suit's own cards), low to high.
TRUMPS_PLAIN_ORDER: tuple[str, ...] = ("7", "8", "9", "K", "10", "A")
_PLAIN_RANK: dict[str, int] = {r: i for i, r in enumerate(TRUMPS_PLAIN_ORDER)}
_PERMANENT_RANK: dict[Card, int] = {
    c: 100 - i for i, c in enumerate(PERMANENT_TRUMPS)
}


def is_permanent_trump(card: Card) -> bool:
    """7C, any queen or any jack: a trump whatever the trump suit."""
    rank = card.rank  # compared by text: hashing a card costs more (hot path)
    return rank == "Q" or rank == "J" or (rank == "7" and card.suit is Suit.CLUBS)


def trumps_is_trump(card: Card, trump: Suit) -> bool:
    """Whether `card` is a trump in kozel-trumps with `trump` as the trump suit."""
    return card.suit is trump or is_permanent_trump(card)


def trumps_suit(card: Card, trump: Suit) -> Suit | None:
    """The plain suit `card` follows in kozel-trumps, or None when it is a trump."""
    return None if trumps_is_trump(card, trump) else card.suit


def trumps_strength(card: Card, trump: Suit) -> int:
    """A number ordering trumps (high over 50) and plain cards (their rank in the suit).

    Only meaningful to compare two trumps, or two cards of the same plain suit."""
    if is_permanent_trump(card):
        return _PERMANENT_RANK[card]
    if card.suit is trump:
        return 50 + _PLAIN_RANK[card.rank]
    return _PLAIN_RANK[card.rank]


def trumps_winner(cards: Sequence[Card], trump: Suit) -> int:
    """Index into `cards` (in play order, first = led) of the card that takes the trick:
    the highest trump, else the highest card of the led suit."""
    led = trumps_suit(cards[0], trump)
    best = 0
    for i, c in enumerate(cards[1:], start=1):
        b = cards[best]
        c_trump, b_trump = trumps_is_trump(c, trump), trumps_is_trump(b, trump)
        if c_trump and not b_trump:
            best = i
        elif c_trump == b_trump and (c_trump or c.suit is led) and (
            trumps_strength(c, trump) > trumps_strength(b, trump)
        ):
            best = i
    return best
