"""A vzetki round's setup from its record's header: the deal of four hands, the
trump (option `trump`, or the header's, which must agree) and the checks a dealt
header must pass (see engine/vzetki.py for the rules).

Why its own module: these read the header once, before the first event; the game
state (VzetkiState) keeps what changes from event to event.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import Card, Suit
from engine.errors import RecordError
from engine.header import Header


def deal_hands(cards: list[Card], dealer: int) -> tuple[tuple[Card, ...], ...]:
    """Four hands of the shuffled `cards`, dealt one at a time from the dealer's left."""
    hands: list[list[Card]] = [[], [], [], []]
    for i, card in enumerate(cards):
        hands[(dealer + 1 + i) % 4].append(card)
    return tuple(tuple(h) for h in hands)


def trump_option(options: Mapping[str, Any], header: Header) -> Suit | None:
    """The trump suit: option `trump` (a suit letter), or the header's `trump`, which
    must agree with the option when both are given; None for no trump.

    Raises:
        RecordError: the option is no suit letter, or it and the header disagree.
    """
    value = options.get("trump")
    trump = None
    if value is not None:
        if not isinstance(value, str):
            raise RecordError(f"vzetki: option trump must be a suit letter, got {value!r}")
        trump = Suit.parse(value)
    if header.trump is not None:
        if trump is not None and trump != header.trump:
            raise RecordError(
                f"header trump {header.trump} disagrees with option trump {trump}"
            )
        trump = header.trump
    return trump


def check_deal(header: Header, deck: frozenset[Card], size: int) -> None:
    """A known deal (`header.hands`): four hands of `size` cards each, all of `deck`
    and none twice, and no stock.

    Raises:
        RecordError: naming what is wrong with the deal.
    """
    hands = header.hands
    assert hands is not None
    if len(hands) != 4:
        raise RecordError(f"vzetki needs 4 hands, the header has {len(hands)}")
    for seat, hand in enumerate(hands):
        if len(hand) != size:
            raise RecordError(f"seat {seat} was dealt {len(hand)} cards, not {size}")
    if header.stock:
        raise RecordError("vzetki deals every card: the stock must be empty")
    dealt = [c for h in hands for c in h]
    foreign = sorted({str(c) for c in dealt if c not in deck})
    if foreign:
        raise RecordError(f"not in the vzetki deck (1..{size}): {', '.join(foreign)}")
    twice = sorted({str(c) for c in dealt if dealt.count(c) > 1})
    if twice:
        raise RecordError(f"dealt twice: {', '.join(twice)}")
