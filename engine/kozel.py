"""Kozel: four players in two teams, multi-card leads beaten or passed face down, molodka.

RULES.md `kozel`, seed `seeds/000_36822ffe95fa8ed9.txt`. A trick is a lead of 1-4
cards of one suit; each next player beats it (the same count face up, matched one to
one, each new card higher) or passes the same count face down. The player whose cards
stand after the fourth action takes the trick; everyone draws back up to 4, winner
first. A player holding four cards of one suit may show them (a molodka) at any moment
of a trick: the table goes back to its owners and the molodka leads.

Observed records (no hands) check what a camera can prove: counts (hand sizes follow
from the deal and the draws), beats, turns, molodka shape, and cards seen twice (a card
in a trick pile never comes back; a card that went back to its owner with a molodka can
only be played by him). Passes may then be counts only, so trick piles hold cards of
unknown identity; `result()` then counts the cards seen and reports `unseen_cards`.

`result()`: {"points": [t0, t1], "defeat": [t0, t1], "tricks": [t0, t1]} plus, once
complete, "last_trick" (seat: the next game's `leader`). Observed with unseen cards in
the piles: "points" counts the known cards only, "unseen_cards" gives the count per
pile, and "defeat" is the value every possible split of the unseen cards agrees on, or
None when they do not agree.

`match_step(carried, result, options)` returns the match score after a game:
{"defeat": [a, b] (running defeat points per team), "double": bool (the next game's
defeat points count double: balls with option `balls_double_next`), "over": bool (a
team reached 12), "loser": team or None, "next_leader": seat (last trick's winner)}.
A game whose defeat points are unknown (observed, None) raises ValueError.

Gaps filled:
- A lead may not have more cards than the smallest hand of the other players.
- With known hands a pass must list its cards (rule `kozel.pass_unlisted`): else the
  hands could no longer be followed.
- A molodka is a whole hand of exactly four cards of one suit held at that moment (a
  player who has cards on the table holds fewer). It may come at any moment of a trick;
  as the first action it is a lead (out of turn allowed). Each seat may show at most one
  molodka per trick, so two players cannot take the lead from each other for ever.
- A molodka right after another molodka counts as shown at the same moment: the one
  nearer clockwise to the seat that was to lead the trick leads; the other's cards go
  back to his hand (and are then known to be there).
- Cards returned by a molodka (passed ones too) are back in their owner's hand.
- The shown trump card goes back to its place in the stock; with hands the stock must
  hold a card of the trump suit.
- Defeat points in `result` are the game's own; doubling is `match_step`'s business.
  (The lead limit above never binds in a real game: the stock always holds a multiple
  of 4 cards, so the hands are equal whenever a trick starts.)

Rule ids: `kozel.lead_suit`, `kozel.lead_size`, `kozel.beat`, `kozel.pass_lead`,
`kozel.pass_unlisted`, `kozel.molodka`, `kozel.event`, `common.out_of_turn`,
`common.card_count`, `common.card_seen_twice`, `common.not_in_hand`,
`common.not_in_deck`, `common.seat`, `common.game_over`.

>>> import random
>>> state = KozelState.from_header(KozelState.deal(random.Random(4), dealer=3))
>>> sorted(state.to_act()), state.public_view()["stock"]
([0], 20)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.cards import Card, Suit, card_list
from engine.errors import IllegalPlay, NotYourTurn, RecordError
from engine.events import Event, Molodka, Pass, Play
from engine.game import GameState
from engine.header import Header
from engine.kozel_position import (
    DECK_SET, DECK, HAND, SEATS, KozelPosition, Lay, card_key, n_cards, bump, check_cards,
    check_deal,
    check_seat, dist, finish_trick, set_at, sort_cards, sorted_events,
)
from engine.kozel_score import OPTION_DEFAULTS, defeat_points, match_step, split_sums
from engine.ranking import beat_matching, card_points, kozel_beats

__all__ = ["KozelState", "KozelPosition", "Lay", "defeat_points", "match_step", "sort_cards"]


class KozelState(GameState):
    """A game of Kozel in progress (see the module docstring)."""

    name: ClassVar[str] = "kozel"
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 4
    option_defaults: ClassVar[Mapping[str, Any]] = OPTION_DEFAULTS
    max_events: ClassVar[int] = 200  # 9 tricks x (4 molodkas x 4 actions + 4)

    _p: KozelPosition

    # ----- dealing and setup -------------------------------------------------------

    @classmethod
    def deal(cls, rng: random.Random, *, players: int | None = None, dealer: int = 0,
             options: Mapping[str, Any] | None = None) -> Header:
        """Shuffle, deal 4 each one at a time from the dealer's left, show a card from
        the middle of the stock for trump (it goes back in its place)."""
        if players not in (None, SEATS):
            raise RecordError(f"kozel is for 4 players, not {players}")
        cards = list(DECK)
        rng.shuffle(cards)
        hands: list[list[Card]] = [[] for _ in range(SEATS)]
        for i in range(SEATS * HAND):
            hands[(dealer + 1 + i) % SEATS].append(cards[i])
        stock = tuple(cards[SEATS * HAND:])
        shown = stock[rng.randrange(len(stock) // 4, len(stock) - len(stock) // 4)]
        return Header(game=cls.name, dealer=dealer, trump=shown.suit,
                      options=dict(options or {}), hands=tuple(tuple(h) for h in hands),
                      stock=stock)

    def _setup(self) -> None:
        h = self.header
        if h.trump is None:
            raise RecordError("a kozel header needs 'trump' (the suit of the shown card)")
        if h.piles is not None:
            raise RecordError("kozel has no 'piles' (that is vzetki-duo)")
        if h.leader is not None and h.leader >= SEATS:
            raise RecordError(f"leader seat {h.leader} does not exist with 4 players")
        self.trump: Suit = h.trump
        leader = h.leader if h.leader is not None else (h.dealer + 1) % SEATS
        hands: tuple[frozenset[Card], ...] | None = None
        stock: tuple[Card, ...] | None = None
        if h.hands is not None or h.stock is not None:
            hands, stock = check_deal(h, self.trump)
        self._p = KozelPosition(
            hands=hands, counts=(HAND,) * SEATS, stock=stock,
            stock_count=len(DECK) - SEATS * HAND, opener=leader, leader=leader, acted=0,
            standing=(), standing_seat=None, table=(), molodka_seats=frozenset(),
            last_molodka=None, gone=frozenset(), known_in=(frozenset(),) * SEATS,
            sure_in=(frozenset(),) * SEATS,
            points=(0, 0), tricks=(0, 0), unseen=(0, 0), last_trick_winner=None,
            tricks_played=0,
        )

    # ----- snapshot ----------------------------------------------------------------

    def _snapshot(self) -> object:
        return self._p

    def _restore(self, snap: object) -> None:
        assert isinstance(snap, KozelPosition)
        self._p = snap

    @property
    def position(self) -> KozelPosition:
        """The current position (read-only value)."""
        return self._p

    # ----- queries -------------------------------------------------------------------

    @property
    def complete(self) -> bool:
        p = self._p
        return p.acted == 0 and p.stock_count == 0 and not any(p.counts)

    def to_act(self) -> frozenset[int]:
        if self.complete:
            return frozenset()
        p = self._p
        return frozenset({(p.leader + p.acted) % SEATS})

    def result(self) -> dict[str, Any]:
        p = self._p
        out: dict[str, Any] = {"points": list(p.points), "defeat": [0, 0],
                               "tricks": list(p.tricks)}
        if any(p.unseen):
            out["unseen_cards"] = list(p.unseen)
        if self.complete:
            out["defeat"] = self._final_defeat()
            out["last_trick"] = p.last_trick_winner
        return out

    def _final_defeat(self) -> list[int] | None:
        p = self._p
        if not any(p.unseen):
            return defeat_points(p.points, p.tricks)
        pool = [card_points(c) for c in DECK_SET - p.gone]
        sums = split_sums(pool, p.unseen[0])
        outcomes = {tuple(defeat_points((p.points[0] + x, p.points[1] + sum(pool) - x),
                                        p.tricks)) for x in sums}
        return list(outcomes.pop()) if len(outcomes) == 1 else None

    def public_view(self) -> dict[str, Any]:
        p = self._p
        res = self.result()
        return {
            "to_act": sorted(self.to_act()),
            "trump": self.trump.value,
            "table": [str(c) for lay in p.table if lay.face_up and lay.cards
                      for c in lay.cards],
            "table_down": sum(lay.count for lay in p.table if not lay.face_up),
            "standing": [str(c) for c in p.standing],
            "standing_seat": p.standing_seat,
            "leader": p.leader,
            "hand_sizes": list(p.counts),
            "stock": p.stock_count,
            "last_trick_winner": p.last_trick_winner,
            "tricks_played": p.tricks_played,
            "points": res["points"],
            "defeat": res["defeat"],
            "tricks": res["tricks"],
            "match": self.header.match,  # the match score before this game (displays)
        }

    def legal_events(self) -> list[Event]:
        """Every legal event (known hands): the plays and passes of the seat to act, and
        the molodka of every seat that may show one."""
        self._require_known()
        if self.complete:
            return []
        p = self._p
        assert p.hands is not None
        seat = (p.leader + p.acted) % SEATS
        hand = sort_cards(p.hands[seat])
        events: list[Event] = []
        if p.acted == 0:
            limit = min(p.counts[s] for s in range(SEATS) if s != seat)
            for suit in Suit:
                same = [c for c in hand if c.suit is suit]
                for k in range(1, min(limit, len(same)) + 1):
                    events.extend(Play(seat, combo) for combo in itertools.combinations(same, k))
        else:
            k = len(p.standing)
            for combo in itertools.combinations(hand, k):
                events.append(Pass(seat, k, combo))
                if beat_matching(combo, p.standing, self._beats) is not None:
                    events.append(Play(seat, combo))
        for s in range(SEATS):
            h = p.hands[s]
            if (s not in p.molodka_seats and p.counts[s] == HAND
                    and len({c.suit for c in h}) == 1):
                events.append(Molodka(s, sort_cards(h)))
        return sorted_events(events)

    def _beats(self, new: Card, old: Card) -> bool:
        return kozel_beats(new, old, self.trump)

    # ----- applying events -------------------------------------------------------------

    def _apply(self, event: Event) -> None:
        if self.complete:
            raise IllegalPlay("common.game_over", "the game is over: every card has been played",
                              seat=getattr(event, "seat", None))
        if isinstance(event, Play):
            self._play(event)
        elif isinstance(event, Pass):
            self._pass(event)
        elif isinstance(event, Molodka):
            self._molodka(event)
        else:
            kind = type(event).__name__.lower()
            raise IllegalPlay("kozel.event", f"'{kind}' is not a kozel event: kozel has "
                              "plays, passes and molodkas", seat=getattr(event, "seat", None))

    def _check_turn(self, seat: int) -> None:
        check_seat(seat)
        p = self._p
        due = (p.leader + p.acted) % SEATS
        if seat != due:
            what = "lead" if p.acted == 0 else "answer"
            raise NotYourTurn("common.out_of_turn",
                              f"seat {seat} played out of turn: seat {due} is to {what}", seat=seat)

    def _play(self, ev: Play) -> None:
        self._check_turn(ev.seat)
        p = self._p
        cards = ev.cards
        if p.acted > 0:
            self._check_count(ev.seat, len(cards))
        after = self._take(ev.seat, cards)  # which cards first: then what they may do
        if p.acted == 0:
            if len({c.suit for c in cards}) != 1:
                raise IllegalPlay("kozel.lead_suit", f"a lead is cards of one suit: "
                                  f"{card_list(cards)} mixes suits", seat=ev.seat, cards=cards)
            others = min(p.counts[s] for s in range(SEATS) if s != ev.seat)
            if len(cards) > others:
                raise IllegalPlay("kozel.lead_size", f"a lead of {n_cards(len(cards))} is too "
                                  f"many: another player holds only {n_cards(others)} and "
                                  "could not answer", seat=ev.seat, cards=cards)
        if p.acted > 0 and beat_matching(cards, p.standing, self._beats) is None:
            raise IllegalPlay("kozel.beat", self._beat_reason(cards), seat=ev.seat, cards=cards)
        table = p.table + (Lay(ev.seat, len(cards), cards, True),)
        self._advance(after, table=table, standing=cards, standing_seat=ev.seat)

    def _pass(self, ev: Pass) -> None:
        self._check_turn(ev.seat)
        p = self._p
        if p.acted == 0:
            raise IllegalPlay("kozel.pass_lead", "a trick starts with cards face up: there is "
                              "nothing to pass on yet", seat=ev.seat)
        self._check_count(ev.seat, ev.count)
        if ev.cards is None:
            if self.known:
                raise IllegalPlay("kozel.pass_unlisted", "with the hands known a pass must "
                                  "list its cards", seat=ev.seat)
            if p.counts[ev.seat] < ev.count:
                raise IllegalPlay("common.card_count", f"seat {ev.seat} holds "
                                  f"{n_cards(p.counts[ev.seat])} and cannot pass {ev.count}",
                                  seat=ev.seat)
            # which cards went down is unknown: none of his is surely in hand any more
            after = p._replace(counts=bump(p.counts, ev.seat, -ev.count),
                            sure_in=set_at(p.sure_in, ev.seat, frozenset()))
        else:
            after = self._take(ev.seat, ev.cards)
        table = p.table + (Lay(ev.seat, ev.count, ev.cards, False),)
        self._advance(after, table=table)

    def _check_count(self, seat: int, count: int) -> None:
        k = len(self._p.standing)
        if count != k:
            raise IllegalPlay("common.card_count", f"{n_cards(k)} stand on the table: seat {seat} "
                              f"must beat or pass {k}, not {count}", seat=seat)

    def _beat_reason(self, cards: tuple[Card, ...]) -> str:
        standing = self._p.standing
        verb = "does" if len(cards) == 1 else "do"
        tail = f"trump is {self.trump.word}"
        if len(cards) > 1:
            tail = "no card-by-card pairing has each new card higher; " + tail
        return f"{card_list(cards)} {verb} not beat {card_list(standing)}: {tail}"

    def _take(self, seat: int, cards: tuple[Card, ...]) -> KozelPosition:
        """Check that `seat` can put `cards` down; the position with them out of his hand."""
        p = self._p
        cs = check_cards(p, seat, cards)
        if p.counts[seat] < len(cards):
            raise IllegalPlay("common.card_count", f"seat {seat} holds {n_cards(p.counts[seat])} "
                              f"and cannot put down {len(cards)}", seat=seat, cards=cards)
        hands = p.hands
        if hands is not None:
            if not cs <= hands[seat]:
                c = next(c for c in cards if c not in hands[seat])
                where = next((f"seat {s} holds it" for s in range(SEATS) if c in hands[s]),
                             "it is still in the stock")
                raise IllegalPlay("common.not_in_hand", f"{c} is not in seat {seat}'s hand: "
                                  f"{where}", seat=seat, cards=cards)
            hands = set_at(hands, seat, hands[seat] - cs)
        known_in, sure_in = p.known_in, p.sure_in
        if known_in[seat]:
            known_in = set_at(known_in, seat, known_in[seat] - cs)
        if sure_in[seat]:
            sure_in = set_at(sure_in, seat, sure_in[seat] - cs)
        return p._replace(hands=hands, counts=bump(p.counts, seat, -len(cards)),
                          known_in=known_in, sure_in=sure_in)

    def _molodka(self, ev: Molodka) -> None:
        check_seat(ev.seat)
        p = self._p
        seat, cards = ev.seat, ev.cards
        if len(cards) != HAND or len(set(cards)) != HAND or len({c.suit for c in cards}) != 1:
            raise IllegalPlay("kozel.molodka", f"a molodka is four different cards of one "
                              f"suit, not {card_list(cards)}", seat=seat, cards=cards)
        if seat in p.molodka_seats:
            raise IllegalPlay("kozel.molodka", f"seat {seat} already showed a molodka in this "
                              "trick", seat=seat, cards=cards)
        if p.counts[seat] != HAND:
            raise IllegalPlay("kozel.molodka", f"a molodka is a whole hand of four cards; seat "
                              f"{seat} holds {n_cards(p.counts[seat])}", seat=seat, cards=cards)
        extra = p.sure_in[seat] - set(cards)
        if extra:
            c = min(extra, key=card_key)
            raise IllegalPlay("kozel.molodka", f"seat {seat}'s hand holds {c} (it went back to "
                              f"him), so {card_list(cards)} is not his whole hand",
                              seat=seat, cards=cards)
        after = self._take(seat, cards)
        if p.last_molodka is not None and dist(seat, p.opener) > dist(p.last_molodka, p.opener):
            # shown at the same moment as the leading molodka, but farther: back to hand
            known = p.known_in[seat] | set(cards)
            self._p = p._replace(known_in=set_at(p.known_in, seat, known),
                              sure_in=set_at(p.sure_in, seat, frozenset(cards)),
                              molodka_seats=p.molodka_seats | {seat})
            return
        # the table goes back to its owners, the molodka leads
        hands_l = list(after.hands) if after.hands is not None else None
        counts_l, known_l, sure_l = list(after.counts), list(after.known_in), list(after.sure_in)
        for lay in p.table:
            counts_l[lay.seat] += lay.count
            if lay.cards is not None:
                known_l[lay.seat] = known_l[lay.seat] | set(lay.cards)
                sure_l[lay.seat] = sure_l[lay.seat] | set(lay.cards)
                if hands_l is not None:
                    hands_l[lay.seat] = hands_l[lay.seat] | set(lay.cards)
        self._p = after._replace(
            hands=tuple(hands_l) if hands_l is not None else None, counts=tuple(counts_l),
            known_in=tuple(known_l), sure_in=tuple(sure_l), leader=seat, acted=1,
            standing=cards, standing_seat=seat,
            table=(Lay(seat, HAND, cards, True),), molodka_seats=p.molodka_seats | {seat},
            last_molodka=seat)

    def _advance(self, p: KozelPosition, **changes: Any) -> None:
        """One more action in the trick; after the fourth, the trick is taken and drawn."""
        p = p._replace(acted=p.acted + 1, last_molodka=None, **changes)
        if p.acted == SEATS:
            p = finish_trick(p)
        self._p = p
