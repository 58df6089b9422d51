"""Kozel's position as one immutable value, and the bookkeeping between actions.

Split from engine/kozel.py to keep modules small: the state class there holds the
rules of each event; this module holds the data (`KozelPosition`, `Lay`), the checks
every card must pass (deck, duplicates, cards already seen elsewhere) and what happens
when a trick is complete (the pile, the points, the draw). A snapshot of the state is
the position itself, so validating an event costs no copying.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.cards import Card, Suit, deck
from engine.errors import IllegalPlay, RecordError
from engine.events import Event, event_to_json
from engine.header import Header
from engine.ranking import KOZEL_RANK, card_points

SEATS = 4
HAND = 4
DECK: tuple[Card, ...] = deck(36)
DECK_SET = frozenset(DECK)


def card_key(card: Card) -> tuple[str, int]:
    return (card.suit.value, KOZEL_RANK[card.rank])


def sort_cards(cards: Any) -> tuple[Card, ...]:
    """Cards in a fixed order (by suit, then Kozel rank): for listing events."""
    return tuple(sorted(cards, key=card_key))


def n_cards(count: int) -> str:
    return f"{count} card" + ("" if count == 1 else "s")


@dataclass(frozen=True, slots=True)
class Lay:
    """One action's cards on the table in the current trick (`cards` None: unseen)."""

    seat: int
    count: int
    cards: tuple[Card, ...] | None
    face_up: bool


class KozelPosition(NamedTuple):
    """The whole mutable state, immutable: a snapshot is this object itself.

    A NamedTuple rather than a frozen dataclass because `_replace` is an order of
    magnitude cheaper than `dataclasses.replace`, and validating an event must stay
    well under 50 microseconds on a Raspberry Pi."""

    hands: tuple[frozenset[Card], ...] | None
    counts: tuple[int, ...]
    stock: tuple[Card, ...] | None
    stock_count: int
    opener: int  # the seat that was to lead this trick (molodka ties count from here)
    leader: int  # whose cards lead: the opener, or a molodka's owner
    acted: int  # actions in this trick, the lead included
    standing: tuple[Card, ...]
    standing_seat: int | None
    table: tuple[Lay, ...]
    molodka_seats: frozenset[int]
    last_molodka: int | None  # the leading molodka's seat, if the last event was one
    gone: frozenset[Card]  # cards in the trick piles whose identity is known
    known_in: tuple[frozenset[Card], ...]  # seen cards only this seat can still play
    sure_in: tuple[frozenset[Card], ...]  # seen cards surely in this seat's hand now
    points: tuple[int, int]
    tricks: tuple[int, int]
    unseen: tuple[int, int]
    last_trick_winner: int | None
    tricks_played: int


def check_seat(seat: int) -> None:
    if not 0 <= seat < SEATS:
        raise IllegalPlay("common.seat", f"seat {seat} does not exist: kozel seats are 0..3",
                          seat=seat)


def check_cards(p: KozelPosition, seat: int, cards: tuple[Card, ...]) -> frozenset[Card]:
    """Deck membership, duplicates, and cards the camera already placed elsewhere; the
    cards as a set (each card hashed once: this is the hot path)."""
    cs = frozenset(cards)
    if not cs <= DECK_SET:
        c = next(c for c in cards if c not in DECK_SET)
        raise IllegalPlay("common.not_in_deck", f"{c} is not in the kozel deck "
                          "(36 cards, 6..A)", seat=seat, cards=cards)
    if len(cs) != len(cards):
        dup = next(c for c in cards if cards.count(c) > 1)
        raise IllegalPlay("common.card_seen_twice", f"{dup} is listed twice", seat=seat,
                          cards=cards)
    clash = cs & p.gone
    if clash:
        c = next(c for c in cards if c in clash)
        raise IllegalPlay("common.card_seen_twice", f"{c} was already played: it lies in a "
                          "trick pile", seat=seat, cards=cards)
    for lay in p.table:
        if lay.cards is not None and not cs.isdisjoint(lay.cards):
            c = next(c for c in cards if c in lay.cards)
            raise IllegalPlay("common.card_seen_twice", f"{c} is already on the table",
                              seat=seat, cards=cards)
    for other, known in enumerate(p.known_in):
        if other != seat and known and not cs.isdisjoint(known):
            c = next(c for c in cards if c in known)
            raise IllegalPlay("common.card_seen_twice", f"{c} went back to seat {other}'s "
                              "hand with a molodka", seat=seat, cards=cards)
    return cs


def finish_trick(p: KozelPosition) -> KozelPosition:
    assert p.standing_seat is not None
    winner = p.standing_seat
    team = winner % 2
    known = [c for lay in p.table if lay.cards is not None for c in lay.cards]
    unknown = sum(lay.count for lay in p.table if lay.cards is None)
    counts = list(p.counts)
    hands = list(p.hands) if p.hands is not None else None
    stock = list(p.stock) if p.stock is not None else None
    left = p.stock_count
    while left and any(c < HAND for c in counts):
        for i in range(SEATS):
            s = (winner + i) % SEATS
            if left and counts[s] < HAND:
                counts[s] += 1
                left -= 1
                if stock is not None and hands is not None:
                    hands[s] = hands[s] | {stock.pop(0)}
    return p._replace(
        hands=tuple(hands) if hands is not None else None, counts=tuple(counts),
        stock=tuple(stock) if stock is not None else None, stock_count=left, opener=winner,
        leader=winner, acted=0, standing=(), standing_seat=None, table=(),
        molodka_seats=frozenset(), last_molodka=None, gone=p.gone | set(known),
        points=bump2(p.points, team, sum(card_points(c) for c in known)),
        tricks=bump2(p.tricks, team, 1), unseen=bump2(p.unseen, team, unknown),
        last_trick_winner=winner, tricks_played=p.tricks_played + 1)


def dist(seat: int, origin: int) -> int:
    return (seat - origin) % SEATS


def bump(values: tuple[int, ...], i: int, delta: int) -> tuple[int, ...]:
    return values[:i] + (values[i] + delta,) + values[i + 1:]


def bump2(values: tuple[int, int], i: int, delta: int) -> tuple[int, int]:
    return (values[0] + delta, values[1]) if i == 0 else (values[0], values[1] + delta)


def set_at(values: tuple[frozenset[Card], ...], i: int, value: frozenset[Card]
         ) -> tuple[frozenset[Card], ...]:
    return values[:i] + (frozenset(value),) + values[i + 1:]


def sorted_events(events: Iterable[Event]) -> list[Event]:
    """Events without repeats, sorted by their JSON text with sorted keys: the order
    `legal_events` promises (shared by both Kozel games)."""
    keyed = {json.dumps(event_to_json(e), sort_keys=True): e for e in events}
    return [keyed[k] for k in sorted(keyed)]


def check_deal(h: Header, trump: Suit) -> tuple[tuple[frozenset[Card], ...], tuple[Card, ...]]:
    """The dealt hands and stock after checking they are exactly the kozel deck, 4 a
    seat and 20 in the stock, with a card of the trump suit in it. Raises RecordError."""
    if h.hands is None or h.stock is None:
        raise RecordError("a kozel header with 'hands' needs 'stock' too, and vice versa")
    if len(h.hands) != SEATS:
        raise RecordError(f"kozel deals 4 hands, the header has {len(h.hands)}")
    for seat, hand in enumerate(h.hands):
        if len(hand) != HAND:
            raise RecordError(f"seat {seat} was dealt {n_cards(len(hand))}, kozel deals 4")
    if len(h.stock) != len(DECK) - SEATS * HAND:
        raise RecordError(f"the kozel stock holds 20 cards after the deal, not {len(h.stock)}")
    seen: set[Card] = set()
    for card in itertools.chain(*h.hands, h.stock):
        if card not in DECK_SET:
            raise RecordError(f"{card} is not in the kozel deck (36 cards, 6..A)")
        if card in seen:
            raise RecordError(f"{card} is dealt twice")
        seen.add(card)
    if not any(c.suit is trump for c in h.stock):
        raise RecordError(f"trump {trump.word} was shown from the stock, but the "
                          f"stock holds no {trump.word}")
    return tuple(frozenset(hand) for hand in h.hands), tuple(h.stock)
