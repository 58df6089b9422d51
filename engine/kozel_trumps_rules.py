"""Kozel-trumps helpers: the deck, the position, the deal check, trump keys, pairs, the match.

Split from engine/kozel_trumps.py (the state and its events) to keep modules small.

>>> from engine.cards import Suit
>>> led_key(Card.parse("QH"), Suit.SPADES), led_key(Card.parse("9S"), Suit.SPADES)
('T', 'T')
>>> led_key(Card.parse("9H"), Suit.SPADES), suit_words("H"), suit_words("T")
('H', 'heart', 'trump')
>>> pairs_for((95, 25), None), pairs_for((0, 120), None), pairs_for((70, 50), 0)
([0, 2], [3, 0], [4, 1])
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.cards import Card, Suit, deck
from engine.errors import RecordError
from engine.header import Header
from engine.ranking import is_permanent_trump, trumps_strength

SEATS = 4
HAND = 8
DECK: tuple[Card, ...] = deck(32)
DECK_SET = frozenset(DECK)
OPTION_DEFAULTS: dict[str, Any] = {"jack_of_clubs_declares": False, "pairs_to_lose": 6}


@dataclass(frozen=True, slots=True)
class Void:
    """A seat showed at event `event` (playing `played` on a `led` lead) that it held no
    card of `key` (a suit letter, or "T" for trumps)."""

    key: str
    event: int
    played: Card
    led: str


class KozelTrumpsPosition(NamedTuple):
    """The whole mutable state as one immutable value (the snapshot). A NamedTuple:
    `_replace` is far cheaper than `dataclasses.replace` on the hot path."""

    hands: tuple[frozenset[Card], ...] | None
    counts: tuple[int, ...]
    leader: int
    table: tuple[tuple[int, Card], ...]  # (seat, card) in play order
    gone: frozenset[Card]
    known_in: tuple[frozenset[Card], ...]  # exchanged cards seen in the record
    exchanged: frozenset[int]
    started: bool
    voids: tuple[tuple[Void, ...], ...]  # per seat: suits (or trumps) he showed he lacked
    points: tuple[int, int]
    tricks: tuple[int, int]
    last_trick_winner: int | None
    tricks_played: int
    qc_beaten: int | None  # the team whose QC fell to the opponents' 7C
    jc_seat: int | None  # who played the JC (he deals next with jack_of_clubs_declares)


def is_trump(card: Card, trump: Suit | None) -> bool:
    """7C, a queen or a jack, or a card of the trump suit (None: permanent ones only)."""
    return card.suit is trump or is_permanent_trump(card)


def led_key(card: Card, trump: Suit) -> str:
    """"T" for a trump, else the card's suit letter: what following means for it."""
    suit = card.suit
    return "T" if suit is trump or is_permanent_trump(card) else suit._value_


def suit_words(key: str) -> str:
    """"heart" for "H", "trump" for "T": for "a heart lead"."""
    return "trump" if key == "T" else Suit(key).word[:-1]


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """A fixed order (suit, then rank) for listing events."""
    return tuple(sorted(cards, key=lambda c: (c.suit.value, trumps_strength(c, Suit.CLUBS))))


def check_deal(h: Header, trump: Suit, jack_declares: bool) -> tuple[frozenset[Card], ...]:
    """The dealt hands, after checking they are exactly the 32-card deck, 8 a seat, and
    (unless the JC declared) that the seat left of the dealer holds a plain card of the
    trump suit: the card turned for him. Raises RecordError."""
    if h.hands is None:
        raise RecordError("kozel-trumps deals every card: a 'stock' needs 'hands'")
    if h.stock:
        raise RecordError(f"kozel-trumps deals every card: the stock must be empty, "
                          f"not {len(h.stock)} cards")
    if len(h.hands) != SEATS:
        raise RecordError(f"kozel-trumps deals 4 hands, the header has {len(h.hands)}")
    for seat, hand in enumerate(h.hands):
        if len(hand) != HAND:
            raise RecordError(f"seat {seat} was dealt {len(hand)} cards, kozel-trumps deals 8")
    seen: set[Card] = set()
    for card in itertools.chain(*h.hands):
        if card not in DECK_SET:
            raise RecordError(f"{card} is not in the kozel-trumps deck (32 cards, 7..A)")
        if card in seen:
            raise RecordError(f"{card} is dealt twice")
        seen.add(card)
    first = (h.dealer + 1) % SEATS
    if not jack_declares and not any(
        c.suit is trump and not is_permanent_trump(c) for c in h.hands[first]
    ):
        raise RecordError(f"trump {trump.word} was turned for seat {first}, but seat {first} "
                          f"holds no plain {trump.word[:-1]}")
    return tuple(frozenset(hand) for hand in h.hands)


def pairs_for(points: tuple[int, int] | list[int], qc_beaten: int | None) -> list[int]:
    """Pairs each team opens: 1 if the opponents took over 60, 2 over 90, 3 all 120; the
    team whose QC fell to the opponents' 7C opens 4 if that is more; 60-60 nothing."""
    if points[0] == points[1] == 60:
        return [0, 0]
    out = []
    for team in range(2):
        opp = points[1 - team]
        n = 3 if opp == 120 else 2 if opp > 90 else 1 if opp > 60 else 0
        if qc_beaten == team:
            n = max(n, 4)
        out.append(n)
    return out


def match_step(carried: dict[str, Any] | None, result: dict[str, Any],
               options: dict[str, Any]) -> dict[str, Any]:
    """The match score after one more game (keys in engine/kozel_trumps.py's docstring).

    >>> s = match_step(None, {"points": [60, 60], "pairs": [0, 0]}, {})
    >>> s["double"], s["pairs"]
    (True, [0, 0])
    >>> match_step(s, {"points": [20, 100], "pairs": [2, 0]}, {})["pairs"]
    [4, 0]
    >>> match_step({"pairs": [5, 1]}, {"points": [30, 90], "pairs": [1, 0]}, {})["loser"]
    0
    """
    opts = {**OPTION_DEFAULTS, **options}
    before = list((carried or {}).get("pairs", [0, 0]))
    factor = 2 if (carried or {}).get("double") else 1
    total = [before[t] + factor * result["pairs"][t] for t in range(2)]
    lost = [t for t in range(2) if total[t] >= opts["pairs_to_lose"]]
    loser = None
    if len(lost) == 1:
        loser = lost[0]
    elif len(lost) == 2 and total[0] != total[1]:
        loser = 0 if total[0] > total[1] else 1
    score: dict[str, Any] = {
        "pairs": total,
        "double": list(result.get("points", [])) == [60, 60],
        "over": bool(lost),
        "loser": loser,
    }
    if carried is None and opts["jack_of_clubs_declares"] and result.get("jc_holder") is not None:
        score["next_dealer"] = result["jc_holder"]  # he named the trump: he deals next
    return score
