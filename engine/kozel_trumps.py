"""Kozel with permanent trumps: 32 cards, one card a trick, 7C over the queens and jacks.

RULES.md `kozel-trumps`, seed `seeds/002_490a35b360762d9d.txt`. Trumps high to low:
7C, QC QS QH QD, JC JS JH JD, then A 10 K 9 8 7 of the trump suit; plain suits A 10 K
9 8 7. Must follow the led suit; void, must play a trump if he has one; on a trump
lead, must play a trump if he has one. The highest trump wins, else the highest card
of the led suit. After 8 tricks a team opens pairs of pips on its sixes for the
opponents' points; the QC beaten by the opponents' 7C opens 4 for the QC's team.

Observed records (no hands): every play is face up, so points are exact. A failure to
follow (or to trump) cannot be seen when it happens; but nothing is drawn after the
deal and exchanges come before the first play, so when the same player later shows a
card of the suit he did not follow (or a trump he did not play) he must have held it
then: that later play raises `RevokeProven` naming the earlier event's line. With
known hands a revoke is caught at its own event.

`result()`: {"points": [t0, t1], "pairs": [t0, t1] (pairs opened by each team in this
game), "tricks": [t0, t1], "qc_beaten": team or None} plus, once complete, "last_trick"
(seat) and "jc_holder" (the seat that played the JC).

`match_step(carried, result, options)` returns {"pairs": [a, b] (pairs open so far per
team), "double": bool (this game was 60-60: the next counts double), "over": bool (a
team has `pairs_to_lose` pairs open), "loser": team or None}, and with
`jack_of_clubs_declares` after the first game "next_dealer": the JC's holder.

Gaps filled:
- Each seat exchanges at most once, before the first play; with known hands the giver
  held exactly one trump after the deal and gives that trump, and takes back a card
  the partner held. Observed: only the timing, once per seat (counts unchanged).
- Turning: if eight cards are turned and all are permanent trumps the deal is void and
  `deal` shuffles again (the player would hold more than 8 cards).
- At 60-60 nobody opens anything, the beaten QC included ("nobody opens anything").
- `jack_of_clubs_declares`: `deal` deals 8 each one at a time and the JC's holder names
  a trump (at random in a simulation); the player left of the dealer still leads. The
  header's trump is then not checked against a turning (in any game of the match: a
  record does not say which deal of the match it is). The JC's holder is the seat that
  played it (after an exchange, the partner who received it).
- If both teams reach `pairs_to_lose` in the same game, the one with more pairs open
  has lost (equal: `loser` None, `over` true).

Rule ids: `kozel_trumps.revoke` (at once with known hands; `RevokeProven` later when
observed), `kozel_trumps.exchange`, `kozel_trumps.exchange_unlisted`,
`kozel_trumps.event`, `common.out_of_turn`, `common.card_count`,
`common.card_seen_twice`, `common.not_in_hand`, `common.not_in_deck`, `common.seat`,
`common.game_over`.

>>> import random
>>> state = KozelTrumpsState.from_header(KozelTrumpsState.deal(random.Random(4), dealer=3))
>>> sorted(state.to_act()), state.public_view()["hand_sizes"]
([0], [8, 8, 8, 8])
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.cards import Card, Suit
from engine.errors import IllegalPlay, NotYourTurn, RecordError, RevokeProven
from engine.events import Event, Exchange, Play
from engine.game import GameState
from engine.header import Header
from engine.kozel_position import sorted_events
from engine.kozel_trumps_rules import (
    DECK, DECK_SET, HAND, OPTION_DEFAULTS, SEATS, KozelTrumpsPosition, Void, check_deal,
    is_trump, led_key, match_step, pairs_for, sort_cards, suit_words,
)
from engine.ranking import card_points, trumps_winner

__all__ = ["KozelTrumpsState", "KozelTrumpsPosition", "match_step"]

_QC, _7C, _JC = Card.parse("QC"), Card.parse("7C"), Card.parse("JC")


class KozelTrumpsState(GameState):
    """A game of Kozel with permanent trumps in progress (see the module docstring)."""

    name: ClassVar[str] = "kozel-trumps"
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 4
    option_defaults: ClassVar[Mapping[str, Any]] = OPTION_DEFAULTS
    max_events: ClassVar[int] = 40  # 32 plays and at most 4 exchanges

    _p: KozelTrumpsPosition

    @classmethod
    def deal(cls, rng: random.Random, *, players: int | None = None, dealer: int = 0,
             options: Mapping[str, Any] | None = None) -> Header:
        """Shuffle and deal by turning cards for the dealer's left until one is a plain
        card (its suit is trump), or with `jack_of_clubs_declares` let the JC name it."""
        if players not in (None, SEATS):
            raise RecordError(f"kozel-trumps is for 4 players, not {players}")
        opts = {**cls.option_defaults, **(options or {})}
        first = (dealer + 1) % SEATS
        while True:
            cards = list(DECK)
            rng.shuffle(cards)
            hands: list[list[Card]] = [[] for _ in range(SEATS)]
            if opts["jack_of_clubs_declares"]:
                for i, c in enumerate(cards):
                    hands[(first + i) % SEATS].append(c)
                trump = rng.choice(list(Suit))
                break
            turned = 0
            while turned < HAND and is_trump(cards[turned], None):
                turned += 1
            if turned == HAND:
                continue  # eight permanent trumps turned: shuffle again
            trump = cards[turned].suit
            turned += 1
            hands[first] = cards[:turned]
            pos = turned
            for i in range(1, SEATS):
                seat = (first + i) % SEATS
                hands[seat] = cards[pos:pos + turned]
                pos += turned
            i = 0
            while pos < len(cards):
                hands[(first + i) % SEATS].append(cards[pos])
                pos += 1
                i += 1
            break
        return Header(game=cls.name, dealer=dealer, trump=trump, options=dict(options or {}),
                      hands=tuple(tuple(h) for h in hands), stock=())

    def _setup(self) -> None:
        h = self.header
        if h.trump is None:
            raise RecordError("a kozel-trumps header needs 'trump' (the suit turned)")
        if h.leader is not None and h.leader >= SEATS:
            raise RecordError(f"leader seat {h.leader} does not exist with 4 players")
        self.trump: Suit = h.trump
        leader = h.leader if h.leader is not None else (h.dealer + 1) % SEATS
        hands: tuple[frozenset[Card], ...] | None = None
        if h.hands is not None or h.stock:
            hands = check_deal(h, self.trump, bool(self.options["jack_of_clubs_declares"]))
        self._dealt = hands
        empty: tuple[frozenset[Card], ...] = (frozenset(),) * SEATS
        self._p = KozelTrumpsPosition(
            hands=hands, counts=(HAND,) * SEATS, leader=leader, table=(), gone=frozenset(),
            known_in=empty, exchanged=frozenset(), started=False, voids=((),) * SEATS,
            points=(0, 0), tricks=(0, 0), last_trick_winner=None, tricks_played=0,
            qc_beaten=None, jc_seat=None)

    def _snapshot(self) -> object:
        return self._p

    def _restore(self, snap: object) -> None:
        assert isinstance(snap, KozelTrumpsPosition)
        self._p = snap

    @property
    def position(self) -> KozelTrumpsPosition:
        return self._p

    # ----- queries ------------------------------------------------------------------------

    @property
    def complete(self) -> bool:
        return self._p.tricks_played == HAND

    def to_act(self) -> frozenset[int]:
        if self.complete:
            return frozenset()
        p = self._p
        return frozenset({(p.leader + len(p.table)) % SEATS})

    def result(self) -> dict[str, Any]:
        p = self._p
        out: dict[str, Any] = {"points": list(p.points), "pairs": [0, 0],
                               "tricks": list(p.tricks), "qc_beaten": p.qc_beaten}
        if self.complete:
            out["pairs"] = pairs_for(p.points, p.qc_beaten)
            out["last_trick"] = p.last_trick_winner
            out["jc_holder"] = p.jc_seat
        return out

    def public_view(self) -> dict[str, Any]:
        p = self._p
        res = self.result()
        led = led_key(p.table[0][1], self.trump) if p.table else None
        return {
            "to_act": sorted(self.to_act()), "trump": self.trump.value,
            "table": [str(c) for _, c in p.table], "table_down": 0,
            "hand_sizes": list(p.counts), "stock": 0, "leader": p.leader,
            "led": led, "last_trick_winner": p.last_trick_winner,
            "tricks_played": p.tricks_played, "points": res["points"], "pairs": res["pairs"],
            "tricks": res["tricks"], "exchanged": sorted(p.exchanged),
            "match": self.header.match,  # the match score before this game (displays)
        }

    def legal_events(self) -> list[Event]:
        """The plays of the seat to act, and before the first play every exchange."""
        self._require_known()
        if self.complete:
            return []
        p = self._p
        assert p.hands is not None and self._dealt is not None
        seat = (p.leader + len(p.table)) % SEATS
        events: list[Event] = [Play(seat, (c,)) for c in p.hands[seat]
                               if self._revoke(seat, c) is None]
        if not p.started:
            for s in range(SEATS):
                give = self._single_trump(s)
                if s in p.exchanged or give is None or give not in p.hands[s]:
                    continue
                events.extend(Exchange(s, give, r) for r in sort_cards(p.hands[(s + 2) % 4]))
        return sorted_events(events)

    def _single_trump(self, seat: int) -> Card | None:
        assert self._dealt is not None
        trumps = [c for c in self._dealt[seat] if is_trump(c, self.trump)]
        return trumps[0] if len(trumps) == 1 else None

    def _revoke(self, seat: int, card: Card) -> str | None:
        """With known hands: why playing `card` now breaks the follow rules, or None."""
        p = self._p
        if not p.table or p.hands is None:
            return None
        led = led_key(p.table[0][1], self.trump)
        mine = led_key(card, self.trump)
        if mine == led:
            return None
        hand = sort_cards(p.hands[seat])
        same = [c for c in hand if led_key(c, self.trump) == led]
        trumps = [c for c in hand if is_trump(c, self.trump)]
        held = same[0] if same else trumps[0] if trumps and mine != "T" else None
        if held is None:
            return None
        what = suit_words(led)
        return f"{card} was played on a {what} lead although this player holds {held}"

    # ----- events -----------------------------------------------------------------------

    def _apply(self, event: Event) -> None:
        if self.complete:
            raise IllegalPlay("common.game_over", "the game is over: all 8 tricks are played",
                              seat=getattr(event, "seat", None))
        if isinstance(event, Play):
            self._play(event)
        elif isinstance(event, Exchange):
            self._exchange(event)
        else:
            kind = type(event).__name__.lower()
            raise IllegalPlay("kozel_trumps.event", f"'{kind}' is not a kozel-trumps event: "
                              "it has plays and the trump exchange",
                              seat=getattr(event, "seat", None))

    def _exchange(self, ev: Exchange) -> None:
        _check_seat(ev.seat)
        p = self._p
        seat, partner = ev.seat, (ev.seat + 2) % SEATS
        if p.started:
            raise IllegalPlay("kozel_trumps.exchange", "the trump exchange comes before the "
                              "first card is played", seat=seat)
        if seat in p.exchanged:
            raise IllegalPlay("kozel_trumps.exchange", f"seat {seat} already exchanged",
                              seat=seat)
        hands, known_in = p.hands, p.known_in
        if ev.give is not None and ev.receive is not None:
            give, receive = ev.give, ev.receive
            cards = (give, receive)
            for c in cards:
                if c not in DECK_SET:
                    raise IllegalPlay("common.not_in_deck", f"{c} is not in the kozel-trumps "
                                      "deck (32 cards, 7..A)", seat=seat, cards=cards)
            if not is_trump(give, self.trump):
                raise IllegalPlay("kozel_trumps.exchange", f"only a trump is given in the "
                                  f"exchange, and {give} is no trump", seat=seat, cards=cards)
            if hands is not None:
                single = self._single_trump(seat)
                if single is None:
                    raise IllegalPlay("kozel_trumps.exchange", f"only a player dealt exactly "
                                      f"one trump may exchange; seat {seat} was not",
                                      seat=seat, cards=cards)
                if give != single or give not in hands[seat]:
                    raise IllegalPlay("kozel_trumps.exchange", f"seat {seat} must give his "
                                      f"one trump {single}, not {give}", seat=seat, cards=cards)
                if receive not in hands[partner]:
                    raise IllegalPlay("common.not_in_hand", f"{receive} is not in seat "
                                      f"{partner}'s hand to give back", seat=seat, cards=cards)
                hands = _swap(hands, seat, give, receive)
            known_in = _swap(known_in, seat, give, receive)
        elif hands is not None:
            raise IllegalPlay("kozel_trumps.exchange_unlisted", "with the hands known an "
                              "exchange must list the cards given and received", seat=seat)
        self._p = p._replace(hands=hands, known_in=known_in, exchanged=p.exchanged | {seat})

    def _play(self, ev: Play) -> None:
        _check_seat(ev.seat)
        p = self._p
        due = (p.leader + len(p.table)) % SEATS
        if ev.seat != due:
            what = "lead" if not p.table else "play"
            raise NotYourTurn("common.out_of_turn", f"seat {ev.seat} played out of turn: "
                              f"seat {due} is to {what}", seat=ev.seat)
        if len(ev.cards) != 1:
            raise IllegalPlay("common.card_count", f"one card each: seat {ev.seat} played "
                              f"{len(ev.cards)}", seat=ev.seat, cards=ev.cards)
        card = ev.cards[0]
        self._check_card(ev.seat, card)
        why = self._revoke(ev.seat, card)
        if why is not None:
            raise IllegalPlay("kozel_trumps.revoke", why, seat=ev.seat, cards=ev.cards)
        self._check_proof(ev.seat, card)
        voids = p.voids
        if p.table:
            voids = self._note_voids(ev.seat, card)
        hands = p.hands
        if hands is not None:
            hands = hands[:ev.seat] + (hands[ev.seat] - {card},) + hands[ev.seat + 1:]
        counts = p.counts[:ev.seat] + (p.counts[ev.seat] - 1,) + p.counts[ev.seat + 1:]
        known_in = p.known_in
        if known_in[ev.seat]:
            known_in = known_in[:ev.seat] + (known_in[ev.seat] - {card},) + known_in[ev.seat + 1:]
        p = p._replace(hands=hands, counts=counts, known_in=known_in, voids=voids,
                    table=p.table + ((ev.seat, card),), started=True)
        if len(p.table) == SEATS:
            p = self._finish(p)
        self._p = p

    def _check_card(self, seat: int, card: Card) -> None:
        p = self._p
        if card not in DECK_SET:
            raise IllegalPlay("common.not_in_deck", f"{card} is not in the kozel-trumps deck "
                              "(32 cards, 7..A; the sixes are the counters)", seat=seat,
                              cards=(card,))
        if card in p.gone or any(c == card for _, c in p.table):
            raise IllegalPlay("common.card_seen_twice", f"{card} was already played",
                              seat=seat, cards=(card,))
        for s, known in enumerate(p.known_in):
            if s != seat and known and card in known:
                raise IllegalPlay("common.card_seen_twice", f"{card} went to seat {s} in the "
                                  "exchange", seat=seat, cards=(card,))
        if p.hands is not None and card not in p.hands[seat]:
            where = next((f"seat {s} holds it" for s in range(SEATS) if card in p.hands[s]),
                         "nobody holds it")
            raise IllegalPlay("common.not_in_hand", f"{card} is not in seat {seat}'s hand: "
                              f"{where}", seat=seat, cards=(card,))

    def _check_proof(self, seat: int, card: Card) -> None:
        """Observed: does showing `card` now prove an earlier failure to follow or trump?"""
        key = led_key(card, self.trump)
        for void in self._p.voids[seat]:
            if void.key == key:
                raise RevokeProven(
                    "kozel_trumps.revoke",
                    f"line {void.event + 2}: {void.played} was played on a "
                    f"{suit_words(void.led)} lead although this player held {card}",
                    revoke_event=void.event, seat=seat, cards=(card,))

    def _note_voids(self, seat: int, card: Card) -> tuple[tuple[Void, ...], ...]:
        """What this play shows the player lacked (kept only the first time)."""
        p = self._p
        led = led_key(p.table[0][1], self.trump)
        mine = led_key(card, self.trump)
        lacks: list[str] = []
        if mine != led:
            lacks.append(led)
            if mine != "T" and led != "T":
                lacks.append("T")
        have = {v.key for v in p.voids[seat]}
        new = tuple(Void(k, len(self.history), card, led) for k in lacks if k not in have)
        if not new:
            return p.voids
        return p.voids[:seat] + (p.voids[seat] + new,) + p.voids[seat + 1:]

    def _finish(self, p: KozelTrumpsPosition) -> KozelTrumpsPosition:
        cards = [c for _, c in p.table]
        win = trumps_winner(cards, self.trump)
        winner = p.table[win][0]
        team = winner % 2
        qc_beaten = p.qc_beaten
        owner = {c: s for s, c in p.table}
        if _QC in owner and _7C in owner and owner[_QC] % 2 != owner[_7C] % 2:
            qc_beaten = owner[_QC] % 2
        jc_seat = owner.get(_JC, p.jc_seat)
        pts = sum(card_points(c) for c in cards)
        return p._replace(
            table=(), leader=winner, gone=p.gone | set(cards),
            points=(p.points[0] + pts, p.points[1]) if team == 0 else
            (p.points[0], p.points[1] + pts),
            tricks=(p.tricks[0] + 1, p.tricks[1]) if team == 0 else
            (p.tricks[0], p.tricks[1] + 1),
            last_trick_winner=winner, tricks_played=p.tricks_played + 1, qc_beaten=qc_beaten,
            jc_seat=jc_seat)


def _check_seat(seat: int) -> None:
    if not 0 <= seat < SEATS:
        raise IllegalPlay("common.seat", f"seat {seat} does not exist: kozel-trumps seats "
                          "are 0..3", seat=seat)


def _swap(hands: tuple[frozenset[Card], ...], seat: int, give: Card, receive: Card
          ) -> tuple[frozenset[Card], ...]:
    """`seat` gives `give` to his partner and gets `receive` back."""
    out = list(hands)
    partner = (seat + 2) % SEATS
    out[seat] = (out[seat] - {give}) | {receive}
    out[partner] = (out[partner] - {receive}) | {give}
    return tuple(out)

