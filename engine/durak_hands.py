"""Where Durak's cards can be: checking that a seat can put cards down.

One function serves both modes (see `Position`): with known hands every card is
located, so a card not in the seat's hand is simply not his; observed, a card is
either known somewhere (on the table, discarded, taken back into a hand, the turned
trump card under the stock) or unseen, and unseen cards may come from any hand that
still has room for them: `sizes[s] - len(hands[s])` cards of seat `s` are unseen.
That is exactly what a camera proves, and nothing more.
"""

from __future__ import annotations

from engine.cards import Card, card_list
from engine.durak_rules import DECK_SET, Position
from engine.errors import IllegalPlay

Hands = tuple[frozenset[Card], ...]


def put_down(
    p: Position, seat: int, cards: tuple[Card, ...], known: bool, trump_card: Card | None
) -> tuple[Hands, tuple[int, ...]]:
    """The hands and sizes after `seat` puts `cards` down, checking he can hold them.

    Raises:
        IllegalPlay: `common.not_in_deck`; `common.card_seen_twice` (named twice, on
            the table, discarded, or observed to be elsewhere); `common.not_in_hand`
            (known hands: someone else holds it, or it is in the stock);
            `common.card_count` (observed: more unseen cards than his hand hides).
    """
    if len(set(cards)) != len(cards):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise IllegalPlay(
            "common.card_seen_twice",
            f"{twice} is named twice in one event",
            seat=seat,
            cards=(twice,),
        )
    own = p.hands[seat]
    unseen = 0
    for card in cards:
        if card not in DECK_SET:
            raise IllegalPlay(
                "common.not_in_deck",
                f"{card} is not in durak's 36-card deck (6 to ace)",
                seat=seat,
                cards=(card,),
            )
        if card in own:
            continue
        place = where(p, card, trump_card)
        if place is not None:
            # Observed, any card known to be elsewhere has been seen twice; with known
            # hands only a card already played has: any other is simply not his.
            seen = not known or card in p.discard or card in p.table_cards
            rule = "common.card_seen_twice" if seen else "common.not_in_hand"
            raise IllegalPlay(
                rule, f"{card} cannot come from seat {seat}: it {place}", seat=seat, cards=(card,)
            )
        unseen += 1
    free = p.sizes[seat] - len(own)
    if unseen > free:
        if known:  # every card is located: cannot happen, but say so plainly
            raise IllegalPlay(
                "common.not_in_hand",
                f"seat {seat} does not hold {card_list(cards)}",
                seat=seat,
                cards=cards,
            )
        if free == p.sizes[seat]:
            reason = (
                f"seat {seat} holds {p.sizes[seat]} cards and cannot put down {len(cards)} of them"
            )
        else:
            reason = (
                f"seat {seat} holds {p.sizes[seat]} cards, {len(own)} of them known "
                f"({card_list(sorted(own, key=str))}), so not {card_list(cards)}"
            )
        raise IllegalPlay("common.card_count", reason, seat=seat, cards=cards)
    return with_hand(p.hands, seat, own - frozenset(cards)), add(p.sizes, seat, -len(cards))


def where(p: Position, card: Card, trump_card: Card | None) -> str | None:
    """Where a card is known to be, as the end of a sentence; None if unseen."""
    if card in p.discard:
        return "went to the discard pile"
    if card in p.table_cards:
        return "is already on the table"
    for s, hand in enumerate(p.hands):
        if card in hand:
            return f"is in seat {s}'s hand"
    if card in p.stock:
        if card == trump_card:
            return "is the turned trump card, still under the stock"
        return "is still in the stock"
    return None


def with_hand(hands: Hands, seat: int, hand: frozenset[Card]) -> Hands:
    """`hands` with seat `seat`'s replaced."""
    return hands[:seat] + (hand,) + hands[seat + 1 :]


def add(sizes: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    """`sizes` with `delta` added to seat `seat`'s."""
    return sizes[:seat] + (sizes[seat] + delta,) + sizes[seat + 1 :]
