"""Durak's pure rule pieces: card order, beating, the deal, and the position value.

`engine/durak.py` holds the state class that checks events; this module holds what it
is built from, so each piece can be read (and tested) alone:

- `beats(beating, attacking, trump)` and `beat_problem(...)`: the one beating rule, and
  the sentence a player reads when a card does not beat;
- `Position`: the whole game at one moment as a frozen value. The state replaces it on
  every event, so a snapshot for undo is just a reference (validating a move costs a
  few microseconds, no copying);
- `initial_position(header, ...)`: the header checked against the game (36 cards, six
  each, the trump card) and turned into the first position, for both modes.

One representation serves both modes. `hands[s]` is the set of cards *known* to be in
seat `s`'s hand and `sizes[s]` how many cards he holds. With known hands the two agree;
observed, `hands[s]` holds only the cards the camera proved are there (a table he took
back, the turned trump card he drew last) and the rest are unseen. `stock` lists the
stock top first with `None` for a card nobody has seen.

>>> from engine.cards import Card, Suit
>>> beats(Card.parse("9H"), Card.parse("7H"), Suit.SPADES)
True
>>> beats(Card.parse("6S"), Card.parse("AH"), Suit.SPADES)
True
>>> beat_problem(Card.parse("9S"), Card.parse("QH"), Suit.DIAMONDS)
'9S does not beat QH: a different suit, and not a trump (trump is diamonds)'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Card, Suit, deck, parse_cards
from engine.errors import RecordError
from engine.header import Header

#: Durak's order inside a suit, low to high (RULES.md): 6 7 8 9 10 J Q K A.
RANK_ORDER: dict[str, int] = {
    r: i for i, r in enumerate(("6", "7", "8", "9", "10", "J", "Q", "K", "A"))
}
DECK: tuple[Card, ...] = deck(36)
DECK_SET: frozenset[Card] = frozenset(DECK)
HAND = 6  # cards dealt to each player, and what everyone draws back up to


def beats(beating: Card, attacking: Card, trump: Suit) -> bool:
    """Whether `beating` beats `attacking`: higher of the same suit, or a trump on a
    non-trump (a trump is beaten only by a higher trump)."""
    if beating.suit is attacking.suit:
        return RANK_ORDER[beating.rank] > RANK_ORDER[attacking.rank]
    return beating.suit is trump


def beat_problem(beating: Card, attacking: Card, trump: Suit) -> str | None:
    """Why `beating` does not beat `attacking`, for the player; None when it does."""
    if beats(beating, attacking, trump):
        return None
    head = f"{beating} does not beat {attacking}"
    if beating.suit is attacking.suit:
        if attacking.suit is trump:
            return f"{head}: a trump is beaten only by a higher trump (trump is {trump.word})"
        return f"{head}: a card of the same suit must be higher"
    if attacking.suit is trump:
        return f"{head}: {attacking} is a trump, only a higher trump beats it"
    return f"{head}: a different suit, and not a trump (trump is {trump.word})"


def rank_plural(rank: str) -> str:
    """`7s`, `jacks` — ranks in messages."""
    words = {"J": "jacks", "Q": "queens", "K": "kings", "A": "aces", "6": "sixes"}
    return words.get(rank, rank + "s")


@dataclass(frozen=True, slots=True)
class Position:
    """Everything that changes during a Durak game, as one immutable value.

    `table` lists (attacking card, beating card or None) in the order they came.
    `attacker` is the bout's first attacker (None only before the first attack of an
    observed record whose first attacker is not known), `passer` the seat whose attack
    the defender now faces (the first attacker, or the last to transfer). `limit` is
    the most attacking cards this bout may hold (0 before its first attack). `first`
    is the seat that must attack first when the deal decides it (lowest trump), for
    the message. `last_bout` is (defender, "beaten" | "taken", first attacker).
    """

    hands: tuple[frozenset[Card], ...]
    sizes: tuple[int, ...]
    stock: tuple[Card | None, ...]
    table: tuple[tuple[Card, Card | None], ...]
    discard: frozenset[Card]
    attacker: int | None
    defender: int | None
    passer: int | None
    limit: int
    bouts: int
    out: frozenset[int]
    over: bool
    fool: int | None
    last_bout: tuple[int, str, int] | None

    @property
    def table_cards(self) -> tuple[Card, ...]:
        """Every card face up on the table, attacking and beating, in order."""
        return tuple(c for pair in self.table for c in pair if c is not None)

    @property
    def unbeaten(self) -> tuple[Card, ...]:
        return tuple(a for a, b in self.table if b is None)

    @property
    def cap(self) -> int:
        """At most 5 attacking cards in the game's first bout, 6 afterwards."""
        return 5 if self.bouts == 0 else 6


def left_of(seat: int, players: int, out: frozenset[int]) -> int:
    """The next seat clockwise that is still in the game (`seat` itself if alone)."""
    for step in range(1, players + 1):
        s = (seat + step) % players
        if s not in out:
            return s
    return seat


def lowest_trump_holder(
    hands: tuple[tuple[Card, ...], ...], trump: Suit
) -> tuple[int, Card] | None:
    """Who holds the lowest trump after the deal, and which card; None if nobody has one."""
    best: tuple[int, Card] | None = None
    for seat, hand in enumerate(hands):
        for card in hand:
            if card.suit is trump and (
                best is None or RANK_ORDER[card.rank] < RANK_ORDER[best[1].rank]
            ):
                best = (seat, card)
    return best


def header_trump(header: Header, players: int) -> tuple[Suit, Card | None]:
    """The trump suit and the turned trump card (None when only the suit is given).

    Raises:
        RecordError: no trump at all, a suit that disagrees with the card, or (with
            hands) a trump card that is not the one the deal turned.
    """
    card = header.trump_card
    suit = header.trump
    if card is not None and card not in DECK_SET:
        raise RecordError(f"trump_card {card} is not in durak's 36-card deck (6..A)")
    if header.hands is not None and card is None and header.stock:
        card = header.stock[-1]  # the turned card lies under the stock: it is known
        if suit is not None and card.suit is not suit:
            raise RecordError(
                f"trump {suit} disagrees with the turned card under the stock ({card})"
            )
    if card is not None and suit is not None and card.suit is not suit:
        raise RecordError(f"trump {suit} disagrees with trump_card {card}")
    if card is None and suit is None:
        raise RecordError("durak needs the trump: give 'trump' (a suit) or 'trump_card'")
    return (suit if suit is not None else card.suit), card  # type: ignore[union-attr]


def initial_position(
    header: Header, players: int
) -> tuple[Position, Suit, Card | None, str | None]:
    """The first position, the trump, the trump card, and why the first attacker is
    forced (for the message), or None when he is not.

    The first attacker is forced by the header's `leader`, else with known hands by the
    lowest trump (else the player left of the dealer); observed without `leader` it is
    None: whoever attacks first is accepted.

    Raises:
        RecordError: the deal is not durak's deck dealt six each (names the problem).
    """
    trump, trump_card = header_trump(header, players)
    why: str | None = None
    stock_size = len(DECK) - HAND * players
    if header.leader is not None and header.leader >= players:
        raise RecordError(f"leader seat {header.leader} does not exist with {players} players")
    if header.hands is None:
        if header.stock is not None:
            raise RecordError(
                "'stock' without 'hands': give both (known deal) or neither (observed)"
            )
        hands: tuple[frozenset[Card], ...] = tuple(frozenset() for _ in range(players))
        stock: tuple[Card | None, ...] = (None,) * stock_size
        if trump_card is not None:
            if stock_size:
                stock = stock[:-1] + (trump_card,)
            else:  # six players: the dealer's last card was shown, and he keeps it
                hands = tuple(
                    frozenset({trump_card}) if s == header.dealer else h
                    for s, h in enumerate(hands)
                )
        first = header.leader
    else:
        dealt = _check_deal(header, players, stock_size, trump_card)
        hands = tuple(frozenset(h) for h in dealt)
        stock = tuple(header.stock or ())
        first = header.leader
        if first is None:
            low = lowest_trump_holder(dealt, trump)
            if low is not None:
                first, why = low[0], f"seat {low[0]} holds {low[1]}, the lowest trump"
            else:
                first = (header.dealer + 1) % players
                why = f"nobody holds a trump, so seat {first}, left of the dealer,"
    if header.leader is not None:
        why = f"the header names seat {header.leader} to attack first"
    position = Position(
        hands=hands,
        sizes=(HAND,) * players,
        stock=stock,
        table=(),
        discard=frozenset(),
        attacker=first,
        defender=None if first is None else (first + 1) % players,
        passer=first,
        limit=0,
        bouts=0,
        out=frozenset(),
        over=False,
        fool=None,
        last_bout=None,
    )
    return position, trump, trump_card, why


def _check_deal(
    header: Header, players: int, stock_size: int, trump_card: Card | None
) -> tuple[tuple[Card, ...], ...]:
    """The header's hands, checked to be durak's deck dealt six each."""
    hands = header.hands or ()
    if len(hands) != players:
        raise RecordError(f"'hands' lists {len(hands)} seats, but the game has {players} players")
    for seat, hand in enumerate(hands):
        if len(hand) != HAND:
            raise RecordError(f"seat {seat} was dealt {len(hand)} cards, not {HAND}")
    stock = header.stock or ()
    if len(stock) != stock_size:
        raise RecordError(
            f"the stock holds {len(stock)} cards; with {players} players it must hold {stock_size}"
        )
    seen: set[Card] = set()
    for where, cards in [
        *((f"seat {s}'s hand", h) for s, h in enumerate(hands)),
        ("the stock", stock),
    ]:
        for card in cards:
            if card not in DECK_SET:
                raise RecordError(f"{card} in {where} is not in durak's 36-card deck (6..A)")
            if card in seen:
                raise RecordError(f"{card} is dealt twice (again in {where})")
            seen.add(card)
    if stock and trump_card is not None and stock[-1] != trump_card:
        raise RecordError(
            f"trump_card {trump_card} must be the last card of the stock (it lies under it), "
            f"not {stock[-1]}"
        )
    if not stock and trump_card is not None and trump_card not in hands[header.dealer]:
        raise RecordError(
            f"with {players} players the trump card is the dealer's last card, "
            f"but {trump_card} is not in seat {header.dealer}'s hand"
        )
    return tuple(tuple(h) for h in hands)


def scripted_header(
    hands: Sequence[str],
    trump_card: str,
    *,
    dealer: int = 0,
    stock_top: str = "",
    options: Mapping[str, Any] | None = None,
    leader: int | None = None,
) -> Header:
    """A known deal written by hand (a published problem, a test): the stock is filled.

    `hands` gives each seat's six cards as text (`"6S 7S 8S 9S 10S JS"`); the stock is
    `stock_top` (top first), then the rest of the deck in its fixed order, then the
    turned `trump_card` at the bottom (with 6 players it must be in the dealer's hand).

    >>> h = scripted_header(["6S 7S 8S 9S 10S JS", "6D 7D 8D 9D 10D JD"], "AH", stock_top="KH")
    >>> len(h.stock), str(h.stock[0]), str(h.stock[-1]), h.trump
    (24, 'KH', 'AH', Suit.HEARTS)
    """
    dealt = tuple(parse_cards(h.split()) for h in hands)
    turned = Card.parse(trump_card)
    top = parse_cards(stock_top.split())
    used = {c for h in dealt for c in h} | set(top) | {turned}
    rest = tuple(c for c in DECK if c not in used)
    stock = (*top, *rest, turned) if len(dealt) < 6 else ()
    return Header(
        game="durak",
        dealer=dealer,
        players=len(dealt),
        trump=turned.suit,
        trump_card=turned,
        options=dict(options or {}),
        hands=dealt,
        stock=stock,
        leader=leader,
    )
