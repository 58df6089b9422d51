"""Durak (podkidnoy, the throw-in fool) for 2-6 players, with the `transfer` option.

RULES.md `durak` and seeds/004: 36 cards, six each, the turned trump card drawn last;
the holder of the lowest trump attacks first; attacks of one rank; the defender beats
each card (higher of its suit, or a trump; a trump only by a higher trump) or takes;
anyone but the defender throws in ranks already on the table, at most 6 attacking
cards a bout (5 in the first) and never more than the defender held when the bout
began; draws after each bout (first attacker first, the defender last); the last
player holding cards is the fool.

Events (RECORD.md): `attack` (a first attack or a throw-in), `defend` (pairs of
[attacking, beating] card: one event may cover several), `transfer`, `take`, and
`bout: beaten`. A `take` ends the bout: cards thrown in after the defender said he
takes are written before it.

Observed records (no hands) are checked for what a camera proves: hand sizes are
exact (six each, then the draws), a card played or discarded never comes back, a card
taken back into a hand may be played again only by its holder, the turned trump card
is known to lie under the stock (and to be in the hand of whoever draws the last
card), and every table rule. Who must attack first is checked only with hands or a
header `leader`; after the first bout the attacker is always known and checked.

`legal_events()` (known hands) lists a canonical subset where the full set explodes:
first attacks and transfers with every same-rank subset of the cards; throw-ins one
card at a time; defends one pair at a time (a multi-card throw-in or a multi-pair
defend is the same as its single steps in a row). `apply` accepts all of them.

Gaps filled (a real table's expectation):
- `take` is only possible while an attacking card is unbeaten; with everything beaten
  the bout ends with `bout: beaten` (or more throw-ins).
- A throw-in event may mix ranks, each already on the table; the first attack may not.
- Transfer: the defender adds one or more cards of the attacked rank while nothing is
  beaten; the attack passes to the next seat still in the game (in a two-player game,
  back to the attacker). The 5/6 limit still holds, and the new defender must hold at
  least as many cards as then attack; from then on the limit is his hand at that
  moment. The draws still start with the bout's first attacker.
- With 6 players no stock is left: the dealer's last card is shown as the trump card
  and stays in his hand.
- A header `leader` sets the first attacker (a match's later games).
- `last_trick_winner` in the view: the defender of the last bout when he beat it, its
  first attacker when the defender took.
- A player who runs out of cards while the stock still holds cards stays in the game
  (he draws at the end of the bout); he is out once he has none and the stock is empty.

- Each player draws all he needs before the next one draws (the draw order above).

Rule ids of `IllegalPlay`: `durak.first_attacker`, `common.out_of_turn` (also a seat
that is out), `durak.attack_rank`, `durak.throw_in_rank`, `durak.attack_limit`,
`durak.defend_target`, `durak.beat`, `durak.take`, `durak.bout_beaten`,
`durak.transfer_off`, `durak.transfer_rank`, `durak.transfer_after_beat`,
`durak.transfer_count`, `durak.event`, `common.seat`, `common.game_over`, and from the
card bookkeeping `common.not_in_deck`, `common.card_seen_twice`, `common.not_in_hand`,
`common.card_count`.

`public_view()` adds to the common keys: `attacker` (the seat whose attack the
defender faces: the first attacker, or the last to transfer), `first_attacker`,
`defender`, `out`, `fool`, `trump_card`, `pairs` ([attacking, beating or None]),
`discard` (count), `limit` (most attacking cards this bout), `last_bout`
("beaten" | "taken" | None).

`match_step(carried, result, options)` keeps a running tally of fools. Its keys:
`fools` ({seat as text: times he was the fool}), `games` (games played), `over`
(always False: a durak match has no fixed end), `loser` (None), and `next_dealer`
(the fool shuffles and deals the next game; None after a game without a fool).

>>> import random
>>> header = DurakState.deal(random.Random(3), players=3)
>>> state = DurakState.from_header(header)
>>> sorted(state.to_act()) == [state.public_view()["attacker"]]
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from engine.cards import Card, Suit, card_list
from engine.durak_hands import add, put_down, with_hand
from engine.durak_moves import listed_events
from engine.durak_rules import (
    DECK,
    HAND,
    RANK_ORDER,
    Position,
    beat_problem,
    initial_position,
    left_of,
    rank_plural,
)
from engine.errors import IllegalPlay, NotYourTurn, RecordError
from engine.events import Attack, BoutBeaten, Defend, Event, Take, Transfer, event_to_json
from engine.game import GameState
from engine.header import Header


class DurakState(GameState):
    """A Durak game in progress (see the module docstring for the rules and gaps)."""

    name: ClassVar[str] = "durak"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    option_defaults: ClassVar[Mapping[str, Any]] = {"transfer": False}
    max_events: ClassVar[int] = 3000

    _p: Position
    trump: Suit
    trump_card: Card | None
    _first_why: str | None

    # ----- construction -------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        rng: random.Random,
        *,
        players: int | None = None,
        dealer: int = 0,
        options: Mapping[str, Any] | None = None,
    ) -> Header:
        """Shuffle and deal six each, one at a time from the dealer's left, then turn
        the trump card and put it under the stock (with 6 players: the dealer's last)."""
        n = players if players is not None else cls.min_players
        cards = list(DECK)
        rng.shuffle(cards)
        hands: list[list[Card]] = [[] for _ in range(n)]
        for i in range(HAND * n):
            hands[(dealer + 1 + i) % n].append(cards[i])
        rest = cards[HAND * n :]
        if rest:
            trump_card = rest[0]
            stock = rest[1:] + [trump_card]
        else:
            trump_card = cards[HAND * n - 1]
            stock = []
        return Header(
            game=cls.name,
            dealer=dealer,
            players=n,
            trump=trump_card.suit,
            trump_card=trump_card,
            options=dict(options or {}),
            hands=tuple(tuple(h) for h in hands),
            stock=tuple(stock),
        )

    def _setup(self) -> None:
        if self.header.players is None:
            raise RecordError("durak needs 'players' in the header (2 to 6)")
        transfer = self.options["transfer"]
        if not isinstance(transfer, bool):
            raise RecordError(f"option 'transfer' must be true or false, got {transfer!r}")
        self._p, self.trump, self.trump_card, self._first_why = initial_position(
            self.header, self.players
        )

    # ----- snapshots ------------------------------------------------------------------

    def _snapshot(self) -> object:
        return self._p

    def _restore(self, snap: object) -> None:
        assert isinstance(snap, Position)
        self._p = snap

    # ----- events ----------------------------------------------------------------------

    def _apply(self, event: Event) -> None:
        p = self._p
        if p.over:
            raise IllegalPlay(
                "common.game_over",
                "the game is over: no more cards may be played",
                seat=getattr(event, "seat", None),
            )
        seat = getattr(event, "seat", None)
        if seat is not None and seat >= self.players:
            raise IllegalPlay(
                "common.seat",
                f"seat {seat} does not exist: this game has "
                f"{self.players} players (seats 0..{self.players - 1})",
                seat=seat,
            )
        if isinstance(event, Attack):
            self._p = self._attack(p, event.seat, event.cards)
        elif isinstance(event, Defend):
            self._p = self._defend(p, event.seat, event.pairs)
        elif isinstance(event, Transfer):
            self._p = self._transfer(p, event.seat, event.cards)
        elif isinstance(event, Take):
            self._p = self._take(p, event.seat)
        elif isinstance(event, BoutBeaten):
            self._p = self._beaten(p)
        else:
            kind = next(iter(event_to_json(event).keys() - {"seat"}), "?")
            raise IllegalPlay(
                "durak.event",
                f"durak has no '{kind}' events: use attack, defend, take, transfer or bout",
                seat=seat,
                cards=getattr(event, "cards", None) or (),
            )

    def _attack(self, p: Position, seat: int, cards: tuple[Card, ...]) -> Position:
        if seat in p.out:
            raise NotYourTurn("common.out_of_turn", f"seat {seat} is out of the game", seat=seat)
        if not p.table:
            if p.attacker is not None and seat != p.attacker:
                if p.bouts == 0 and self._first_why is not None:
                    rule = (
                        "durak.first_attacker"
                        if self.header.leader is None
                        else "common.out_of_turn"
                    )
                    raise NotYourTurn(
                        rule,
                        f"{self._first_why}: he attacks first, not seat {seat}",
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
            defender = p.defender if p.attacker is not None else left_of(seat, self.players, p.out)
            hands, sizes = put_down(p, seat, cards, self.known, self.trump_card)
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
            self._check_limit(p, limit, defender, seat, cards)
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
            hands, sizes = put_down(p, seat, cards, self.known, self.trump_card)
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
            self._check_limit(p, p.limit, p.defender, seat, cards)
        return replace(p, hands=hands, sizes=sizes, table=p.table + tuple((c, None) for c in cards))

    def _check_limit(
        self, p: Position, limit: int, defender: int | None, seat: int, cards: tuple[Card, ...]
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

    def _defend(self, p: Position, seat: int, pairs: tuple[tuple[Card, Card], ...]) -> Position:
        beating = tuple(b for _, b in pairs)
        self._check_defender(p, seat, "defend", beating)
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
        hands, sizes = put_down(p, seat, beating, self.known, self.trump_card)
        for attacking, beat in pairs:
            problem = beat_problem(beat, attacking, self.trump)
            if problem is not None:
                raise IllegalPlay("durak.beat", problem, seat=seat, cards=(attacking, beat))
            table[index[attacking]] = (attacking, beat)
        return replace(p, hands=hands, sizes=sizes, table=tuple(table))

    def _transfer(self, p: Position, seat: int, cards: tuple[Card, ...]) -> Position:
        if not self.options["transfer"]:
            raise IllegalPlay(
                "durak.transfer_off",
                "no transfers in this game: the option 'transfer' is off",
                seat=seat,
                cards=cards,
            )
        self._check_defender(p, seat, "transfer", cards)
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
        hands, sizes = put_down(p, seat, cards, self.known, self.trump_card)
        new_defender = left_of(seat, self.players, p.out)
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

    def _take(self, p: Position, seat: int) -> Position:
        self._check_defender(p, seat, "take", ())
        if not p.unbeaten:
            raise IllegalPlay(
                "durak.take",
                "every attacking card is beaten: the bout is beaten, there is nothing to take",
                seat=seat,
            )
        picked = p.table_cards
        hands = with_hand(p.hands, seat, p.hands[seat] | frozenset(picked))
        sizes = add(p.sizes, seat, len(picked))
        return self._end_bout(p, "taken", hands, sizes, p.discard)

    def _beaten(self, p: Position) -> Position:
        if not p.table:
            raise IllegalPlay("durak.bout_beaten", "no bout is under way: nothing is on the table")
        if p.unbeaten:
            raise IllegalPlay(
                "durak.bout_beaten",
                f"{card_list(p.unbeaten)} not beaten yet: the bout is not over",
                cards=p.unbeaten,
            )
        discard = p.discard | frozenset(p.table_cards)
        return self._end_bout(p, "beaten", p.hands, p.sizes, discard)

    def _check_defender(self, p: Position, seat: int, what: str, cards: tuple[Card, ...]) -> None:
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

    def _end_bout(
        self,
        p: Position,
        how: str,
        hands_now: tuple[frozenset[Card], ...],
        sizes_now: tuple[int, ...],
        discard: frozenset[Card],
    ) -> Position:
        """Draws (first attacker first, the defender last), who is out, who attacks next."""
        attacker, defender = p.attacker, p.defender
        assert attacker is not None and defender is not None
        n = self.players
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

    # ----- queries ---------------------------------------------------------------------

    @property
    def complete(self) -> bool:
        return self._p.over

    def to_act(self) -> frozenset[int]:
        p = self._p
        if p.over:
            return frozenset()
        if not p.table:
            if p.attacker is None:
                return frozenset(s for s in range(self.players) if s not in p.out)
            return frozenset({p.attacker})
        seats = {p.defender} if p.unbeaten else set()
        if len(p.table) < p.limit:
            ranks = {c.rank for c in p.table_cards}
            for s in range(self.players):
                if s == p.defender or s in p.out or p.sizes[s] == 0:
                    continue
                if not self.known or any(c.rank in ranks for c in p.hands[s]):
                    seats.add(s)
        return frozenset(s for s in seats if s is not None)

    def legal_events(self) -> list[Event]:
        """Every legal event (canonical subset: see the module docstring), sorted."""
        self._require_known()
        return listed_events(self._p, self.players, self.trump, bool(self.options["transfer"]))

    def result(self) -> dict[str, Any]:
        return {"fool": self._p.fool}

    def public_view(self) -> dict[str, Any]:
        p = self._p
        last = p.last_bout
        winner = None if last is None else (last[0] if last[1] == "beaten" else last[2])
        return {
            "to_act": sorted(self.to_act()),
            "trump": self.trump.value,
            "trump_card": None if self.trump_card is None else str(self.trump_card),
            "table": [str(c) for c in p.table_cards],
            "table_down": 0,
            "pairs": [[str(a), None if b is None else str(b)] for a, b in p.table],
            "hand_sizes": list(p.sizes),
            "stock": len(p.stock),
            "discard": len(p.discard),
            "last_trick_winner": winner,
            "last_bout": None if last is None else last[1],
            "tricks_played": p.bouts,
            "attacker": p.passer,
            "first_attacker": p.attacker,
            "defender": p.defender,
            "limit": p.limit,
            "out": sorted(p.out),
            "fool": p.fool,
        }


def match_step(
    carried: dict[str, Any] | None, result: dict[str, Any], options: dict[str, Any]
) -> dict[str, Any]:
    """The match tally after one more game (keys in the module docstring).

    >>> match_step(None, {"fool": 2}, {})
    {'fools': {'2': 1}, 'games': 1, 'over': False, 'loser': None, 'next_dealer': 2}
    """
    fools = dict((carried or {}).get("fools", {}))
    fool = result.get("fool")
    if fool is not None:
        fools[str(fool)] = fools.get(str(fool), 0) + 1
    return {
        "fools": fools,
        "games": (carried or {}).get("games", 0) + 1,
        "over": False,
        "loser": None,
        "next_dealer": fool,
    }


# ----- helpers ------------------------------------------------------------------------


def _rank_key(rank: str) -> int:
    return RANK_ORDER[rank]
