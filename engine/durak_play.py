"""Durak's events, checked and played: pure functions from a position to the next.

`DurakState` (engine/durak.py) dispatches each event here with the game's fixed
facts (`Table`) and its current `Position`; each function returns the new position or
raises `IllegalPlay` (the position is a value, so nothing needs undoing). The rules and
the gaps filled are documented in engine/durak.py.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.cards import Card, Suit, card_list
from engine.durak_hands import add, put_down, with_hand
from engine.durak_rules import HAND, RANK_ORDER, Position, beat_problem, left_of, rank_plural
from engine.errors import IllegalPlay, NotYourTurn


@dataclass(frozen=True, slots=True)
class Table:
    """What stays fixed during one game: seats, trump, mode and options.

    `first_why` says why the first attacker is forced (for the message), None when he
    is not (observed, no `leader`); `leader_given` tells whether the header named him.
    """

    players: int
    trump: Suit
    trump_card: Card | None
    known: bool
    transfer: bool
    first_why: str | None
    leader_given: bool


def attack(t: Table, p: Position, seat: int, cards: tuple[Card, ...]) -> Position:
    if seat in p.out:
        raise NotYourTurn("common.out_of_turn", f"seat {seat} is out of the game", seat=seat)
    if not p.table:
        if p.attacker is not None and seat != p.attacker:
            if p.bouts == 0 and t.first_why is not None:
                rule = "durak.first_attacker" if not t.leader_given else "common.out_of_turn"
                raise NotYourTurn(
                    rule,
                    f"{t.first_why}: he attacks first, not seat {seat}",
                    seat=seat,
                    cards=cards,
                )
            raise NotYourTurn(
                "common.out_of_turn",
                f"seat {p.attacker} attacks this bout, not seat {seat}",
                seat=seat,
                cards=cards,
            )
        attacker = seat
        defender = p.defender if p.attacker is not None else left_of(seat, t.players, p.out)
        hands, sizes = put_down(p, seat, cards, t.known, t.trump_card)
        ranks = {c.rank for c in cards}
        if len(ranks) > 1:
            raise IllegalPlay(
                "durak.attack_rank",
                f"an attack is one card or several of one rank, not {card_list(cards)}",
                seat=seat,
                cards=cards,
            )
        assert defender is not None
        limit = min(p.cap, p.sizes[defender])
        _check_limit(t, p, limit, defender, seat, cards)
        return replace(
            p,
            hands=hands,
            sizes=sizes,
            table=tuple((c, None) for c in cards),
            attacker=attacker,
            defender=defender,
            passer=attacker,
            limit=limit,
        )
    else:
        if seat == p.defender:
            raise NotYourTurn(
                "common.out_of_turn",
                f"seat {seat} defends: the defender cannot throw in",
                seat=seat,
                cards=cards,
            )
        hands, sizes = put_down(p, seat, cards, t.known, t.trump_card)
        on_table = {c.rank for c in p.table_cards}
        wrong = [c for c in cards if c.rank not in on_table]
        if wrong:
            names = " and ".join(rank_plural(r) for r in sorted(on_table, key=_rank_key))
            raise IllegalPlay(
                "durak.throw_in_rank",
                f"{card_list(wrong)} cannot be thrown in: only {names} are on the table",
                seat=seat,
                cards=wrong,
            )
        _check_limit(t, p, p.limit, p.defender, seat, cards)
    return replace(p, hands=hands, sizes=sizes, table=p.table + tuple((c, None) for c in cards))


def _check_limit(
    t: Table, p: Position, limit: int, defender: int | None, seat: int, cards: tuple[Card, ...]
) -> None:
    count = len(p.table) + len(cards)
    if count <= limit:
        return
    if limit == p.cap:
        why = f"at most {p.cap} attacking cards " + (
            "in the game's first bout" if p.bouts == 0 else "in a bout"
        )
    else:
        why = f"seat {defender} held only {limit} cards when the bout began"
    raise IllegalPlay(
        "durak.attack_limit",
        f"{card_list(cards)} would make {count} attacking cards: {why}",
        seat=seat,
        cards=cards,
    )


def defend(t: Table, p: Position, seat: int, pairs: tuple[tuple[Card, Card], ...]) -> Position:
    beating = tuple(b for _, b in pairs)
    _check_defender(p, seat, "defend", beating)
    table = list(p.table)
    index = {a: i for i, (a, _) in enumerate(table)}
    named: set[Card] = set()
    for attacking, _ in pairs:
        i = index.get(attacking)
        if i is None or table[i][1] is not None or attacking in named:
            what = (
                "is not on the table"
                if i is None
                else f"is already beaten by {table[i][1]}"
                if table[i][1] is not None
                else "is named twice in one defence"
            )
            raise IllegalPlay(
                "durak.defend_target",
                f"{attacking} {what}: only an unbeaten attacking card can be beaten",
                seat=seat,
                cards=(attacking,),
            )
        named.add(attacking)
    hands, sizes = put_down(p, seat, beating, t.known, t.trump_card)
    for attacking, beat in pairs:
        problem = beat_problem(beat, attacking, t.trump)
        if problem is not None:
            raise IllegalPlay("durak.beat", problem, seat=seat, cards=(attacking, beat))
        table[index[attacking]] = (attacking, beat)
    return replace(p, hands=hands, sizes=sizes, table=tuple(table))


def transfer(t: Table, p: Position, seat: int, cards: tuple[Card, ...]) -> Position:
    if not t.transfer:
        raise IllegalPlay(
            "durak.transfer_off",
            "no transfers in this game: the option 'transfer' is off",
            seat=seat,
            cards=cards,
        )
    _check_defender(p, seat, "transfer", cards)
    if len(p.unbeaten) != len(p.table):
        raise IllegalPlay(
            "durak.transfer_after_beat",
            "a transfer comes before beating anything, and a card is already beaten",
            seat=seat,
            cards=cards,
        )
    rank = p.table[0][0].rank
    wrong = [c for c in cards if c.rank != rank]
    if wrong:
        raise IllegalPlay(
            "durak.transfer_rank",
            f"{card_list(wrong)} cannot pass the attack on: it must be of the "
            f"attacked rank ({rank_plural(rank)})",
            seat=seat,
            cards=wrong,
        )
    hands, sizes = put_down(p, seat, cards, t.known, t.trump_card)
    new_defender = left_of(seat, t.players, p.out)
    count = len(p.table) + len(cards)  # one rank only: never over the 5/6 limit
    if p.sizes[new_defender] < count:
        raise IllegalPlay(
            "durak.transfer_count",
            f"seat {new_defender} holds {p.sizes[new_defender]} cards, fewer than "
            f"the {count} that would attack him",
            seat=seat,
            cards=cards,
        )
    return replace(
        p,
        hands=hands,
        sizes=sizes,
        table=p.table + tuple((c, None) for c in cards),
        passer=seat,
        defender=new_defender,
        limit=min(p.cap, p.sizes[new_defender]),
    )


def take(t: Table, p: Position, seat: int) -> Position:
    _check_defender(p, seat, "take", ())
    if not p.unbeaten:
        raise IllegalPlay(
            "durak.take",
            "every attacking card is beaten: the bout is beaten, there is nothing to take",
            seat=seat,
        )
    picked = p.table_cards
    hands = with_hand(p.hands, seat, p.hands[seat] | frozenset(picked))
    sizes = add(p.sizes, seat, len(picked))
    return end_bout(t, p, "taken", hands, sizes, p.discard)


def beaten(t: Table, p: Position) -> Position:
    if not p.table:
        raise IllegalPlay("durak.bout_beaten", "no bout is under way: nothing is on the table")
    if p.unbeaten:
        raise IllegalPlay(
            "durak.bout_beaten",
            f"{card_list(p.unbeaten)} not beaten yet: the bout is not over",
            cards=p.unbeaten,
        )
    discard = p.discard | frozenset(p.table_cards)
    return end_bout(t, p, "beaten", p.hands, p.sizes, discard)


def _check_defender(p: Position, seat: int, what: str, cards: tuple[Card, ...]) -> None:
    if not p.table:
        raise NotYourTurn(
            "common.out_of_turn",
            f"seat {seat} cannot {what}: nothing is attacking",
            seat=seat,
            cards=cards,
        )
    if seat != p.defender:
        raise NotYourTurn(
            "common.out_of_turn",
            f"seat {seat} cannot {what}: seat {p.defender} defends",
            seat=seat,
            cards=cards,
        )


def end_bout(
    t: Table,
    p: Position,
    how: str,
    hands_now: tuple[frozenset[Card], ...],
    sizes_now: tuple[int, ...],
    discard: frozenset[Card],
) -> Position:
    """Draws (first attacker first, the defender last), who is out, who attacks next."""
    attacker, defender = p.attacker, p.defender
    assert attacker is not None and defender is not None
    n = t.players
    order = [s for s in ((attacker + i) % n for i in range(n)) if s != defender] + [defender]
    hands, sizes, stock = list(hands_now), list(sizes_now), p.stock
    for s in order:
        need = HAND - sizes[s]
        if need <= 0 or not stock:
            continue
        drawn, stock = stock[:need], stock[need:]
        sizes[s] += len(drawn)
        known = [c for c in drawn if c is not None]
        if known:
            hands[s] = hands[s] | frozenset(known)
    out = p.out | {s for s in range(n) if not stock and sizes[s] == 0}
    active = [s for s in range(n) if s not in out]
    over = len(active) <= 1
    nxt: int | None = None
    nxt_defender: int | None = None
    if not over:
        # beaten: the defender attacks next; taken: the player on his left
        nxt = defender if how == "beaten" and defender not in out else left_of(defender, n, out)
        nxt_defender = left_of(nxt, n, out)
    return Position(
        hands=tuple(hands),
        sizes=tuple(sizes),
        stock=stock,
        table=(),
        discard=discard,
        attacker=nxt,
        defender=nxt_defender,
        passer=nxt,
        limit=0,
        bouts=p.bouts + 1,
        out=out,
        over=over,
        fool=(active[0] if active else None) if over else None,
        last_bout=(defender, how, attacker),
    )


def _rank_key(rank: str) -> int:
    return RANK_ORDER[rank]
