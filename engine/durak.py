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
from typing import Any, ClassVar

from engine.cards import Card, Suit
from engine.durak_moves import listed_events
from engine.durak_play import Table, attack, beaten, defend, take, transfer
from engine.durak_rules import (
    DECK,
    HAND,
    Position,
    initial_position,
)
from engine.errors import IllegalPlay, RecordError
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
    _t: Table

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
        self._p, self.trump, self.trump_card, first_why = initial_position(
            self.header, self.players
        )
        self._t = Table(
            players=self.players,
            trump=self.trump,
            trump_card=self.trump_card,
            known=self.known,
            transfer=transfer,
            first_why=first_why,
            leader_given=self.header.leader is not None,
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
            self._p = attack(self._t, p, event.seat, event.cards)
        elif isinstance(event, Defend):
            self._p = defend(self._t, p, event.seat, event.pairs)
        elif isinstance(event, Transfer):
            self._p = transfer(self._t, p, event.seat, event.cards)
        elif isinstance(event, Take):
            self._p = take(self._t, p, event.seat)
        elif isinstance(event, BoutBeaten):
            self._p = beaten(self._t, p)
        else:
            kind = next(iter(event_to_json(event).keys() - {"seat"}), "?")
            raise IllegalPlay(
                "durak.event",
                f"durak has no '{kind}' events: use attack, defend, take, transfer or bout",
                seat=seat,
                cards=getattr(event, "cards", None) or (),
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
