"""Rules shared by `vzetki` and `vzetki-duo`: one card a turn, the highest of the led
suit (or trump) wins, the numbered deck, and the counting proof of voids.

>>> from engine.cards import parse_cards
>>> trick = list(zip(range(4), parse_cards(["3H", "9H", "AS", "2H"])))
>>> trick_winner(trick, None), trick_winner(trick, Suit.SPADES)
(1, 2)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.cards import SUITS, Card, Suit, card_list
from engine.errors import IllegalPlay, NotYourTurn, RecordError, RevokeProven
from engine.events import Dummy, Event, Play, event_to_json

SUIT_INDEX = {s.value: i for i, s in enumerate(SUITS)}
#: suit indices in each 4-bit set of suits
MASK_BITS = tuple(tuple(i for i in range(4) if m >> i & 1) for m in range(16))


def json_key(event: Event) -> str:
    """`json.dumps(event_to_json(event), sort_keys=True)`, built directly for the
    events of the trick games (the battery checks the order against real JSON)."""
    if isinstance(event, (Play, Dummy)):
        cards = ", ".join(f'"{c}"' for c in event.cards)
        kind = "play" if isinstance(event, Play) else "dummy"
        return f'{{"{kind}": [{cards}], "seat": {event.seat}}}'
    return json.dumps(event_to_json(event), sort_keys=True)


def sort_events(events: Sequence[Event]) -> list[Event]:
    """Unique events sorted by their JSON text (the `legal_events` contract)."""
    keyed = {json_key(e): e for e in events}
    return [keyed[k] for k in sorted(keyed)]


def top_rank_option(game: str, options: Mapping[str, Any]) -> int:
    """The `top_rank` option, validated. Raises RecordError."""
    top = options.get("top_rank", 10)
    if not isinstance(top, int) or isinstance(top, bool) or not 1 <= top <= 10:
        raise RecordError(f"{game}: option top_rank must be a whole number 1..10, got {top!r}")
    return top


def check_seat(game: str, seat: int, players: int) -> None:
    """Raises IllegalPlay for a seat that is not at this table."""
    if seat >= players:
        raise IllegalPlay(
            "common.seat", f"seat {seat} does not exist: {game} is played by {players}",
            seat=seat,
        )


def one_card(game: str, event: Play, deck: frozenset[Card]) -> Card:
    """The single card of a trick-game play. Raises IllegalPlay (count, not in deck)."""
    if len(event.cards) != 1:
        raise IllegalPlay(
            "common.card_count",
            f"one card at a time in {game}, not {len(event.cards)} ({card_list(event.cards)})",
            seat=event.seat, cards=event.cards,
        )
    card = event.cards[0]
    if card not in deck:
        raise IllegalPlay(
            "common.not_in_deck", f"{card} is not in the {game} deck",
            seat=event.seat, cards=(card,),
        )
    return card


def checked_play(
    game: str,
    event: Play,
    *,
    players: int,
    deck: frozenset[Card],
    complete: bool,
    next_seat: int,
    seen: frozenset[Card],
) -> Card:
    """What every play of a one-card trick game must pass before its own rules: a seat
    at the table, a round not over, one card of the deck, in turn, never seen before.

    Raises IllegalPlay (NotYourTurn for a play out of turn).
    """
    seat = event.seat
    check_seat(game, seat, players)
    if complete:
        raise IllegalPlay("common.game_over", "the round is over", seat=seat)
    card = one_card(game, event, deck)
    if seat != next_seat:
        raise NotYourTurn(
            "common.out_of_turn",
            f"seat {seat} played {card} out of turn: seat {next_seat} plays next",
            seat=seat, cards=(card,),
        )
    if card in seen:
        raise seen_twice(card, seat)
    return card


def seen_twice(card: Card, seat: int) -> IllegalPlay:
    return IllegalPlay(
        "common.card_seen_twice", f"{card} was already played: a card is seen twice",
        seat=seat, cards=(card,),
    )


def trick_winner(trick: Sequence[tuple[int, Card]], trump: Suit | None) -> int:
    """The seat that wins a trick: highest trump if any, else highest of the led suit
    (by number: 1 lowest)."""
    led = trick[0][1].suit
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if card.suit == best.suit:
            if card.face > best.face:
                best_seat, best = seat, card
        elif trump is not None and card.suit == trump:
            best_seat, best = seat, card
        # a card of another suit (or a non-trump over a trump) never wins
    del led
    return best_seat


def void_reason(line: int | None, card: Card, led: Suit, held: Card, seat: int) -> str:
    where = f"line {line}: " if line is not None else ""
    return (
        f"{where}{card} was played on a {led.word[:-1]} lead although "
        f"seat {seat} held {held}: must follow suit"
    )


def impossible_voids(
    unseen: Sequence[int], void_masks: Sequence[int], sizes: Sequence[int], closed: int
) -> int | None:
    """The set of suits (a 4-bit mask, SUITS order) whose unseen cards no longer fit
    into the hands that may hold them, or None when some deal fits them all.

    `unseen[i]`: cards of suit i not yet seen; `void_masks[p]`: the suits seat p showed
    void in; `sizes[p]`: cards seat p holds; `closed`: a seat whose hand is known (the
    open dummy: its cards are not in `unseen`), or -1. Hall's condition over the 15 sets
    of suits is exact: None means the hidden cards can be dealt consistently.

    >>> impossible_voids([1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0], -1)
    1
    >>> impossible_voids([1, 0, 0, 0], [1, 0, 0, 0], [1, 1, 0, 0], -1) is None
    True
    """
    for mask in range(1, 16):
        need = 0
        for i in MASK_BITS[mask]:
            need += unseen[i]
        if not need:
            continue
        room = 0
        for p in range(len(sizes)):
            if p != closed and void_masks[p] & mask != mask:
                room += sizes[p]
        if need > room:
            return mask
    return None


def check_voids_possible(
    unseen: Sequence[int], void_masks: Sequence[int], sizes: Sequence[int], closed: int,
    void_events: Sequence[tuple[int, Suit, int]], seat: int,
    history_card: Callable[[int], str],
) -> None:
    """Observed records: can the unseen cards still be dealt to the hands, given who
    showed void in which suit (impossible_voids, its arguments alike)? If not, someone
    who did not follow suit held one (Hall's condition, exact: a legal record never
    fails), and the event just applied by `seat` is rejected.

    `void_events`: (seat, suit, event index) of each first failure to follow suit;
    `history_card(index)`: how that event's card is named in a reason.

    Raises:
        RevokeProven: one seat alone can have held the suit: names the revoke's line.
        IllegalPlay: otherwise, naming the seats that did not follow yet held one.
    """
    mask = impossible_voids(unseen, void_masks, sizes, closed)
    if mask is None:
        return
    chosen = [SUITS[i] for i in MASK_BITS[mask] if unseen[i]]
    able = [p for p in range(4) if p != closed
            and any(not void_masks[p] >> SUIT_INDEX[s.value] & 1 for s in chosen)]
    need = sum(unseen[SUIT_INDEX[s.value]] for s in chosen)
    room = sum(sizes[p] for p in able)
    words = " and ".join(s.word for s in chosen)
    voids = [p for p in range(4) if p != closed and p not in able]
    if len(chosen) == 1 and len(voids) == 1:  # one culprit: name the revoke
        index = next(i for p, suit, i in void_events
                     if p == voids[0] and suit == chosen[0])
        raise RevokeProven(
            "vzetki.follow_suit",
            f"line {index + 2}: {history_card(index)} was played on a "
            f"{chosen[0].word[:-1]} lead although this player held one: "
            f"{need} unseen {words} cannot all be elsewhere",
            revoke_event=index, seat=seat,
        )
    raise IllegalPlay(
        "vzetki.follow_suit",
        f"{need} unseen {words} cannot all be in the hands of seats "
        f"{', '.join(map(str, able)) or 'none'} ({room} cards): seat(s) "
        f"{', '.join(map(str, voids))} did not follow {words} yet held one",
        seat=seat,
    )
