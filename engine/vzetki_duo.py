"""`vzetki-duo`: vzetki for two (RULES.md variant 2, seed 003).

Each player has 4 face-down piles, as equal in size as possible, with the top card
turned up. The leader plays one of his top cards; the other must play a top card of
that suit if one of his is showing, else any top card. The highest card of the led
suit takes both; the played piles turn up their next card; the winner leads. More
tricks wins. The header gives `piles` (per seat, 4 piles, each listed top first)
instead of `hands`.

Observed records (no `piles`) check what the record proves: one card per turn, in
turn, from the deck, never seen before, and no more tricks than the cards allow. The
top cards are not in the record, so following suit cannot be checked, and a revoke
can never be proven later (new cards turn up after every trick).

Gaps filled:
- The non-dealer (left of the dealer) leads the first trick; the header `leader`
  overrides it.
- Option `top_rank` (as in vzetki) shortens the deck; each player gets half of it.
  With known piles the sizes must differ by at most one (a pile may be empty only
  when the deck is that small).
- No trump in the duo variant.

`match_step`: `{"tricks": [p0, p1], "rounds": k, "of": N, "over": k >= N,
"winner": seat | None}`, as vzetki's with players instead of teams (`of` default 4).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.cards import Card, Suit, card_list, vzetki_deck
from engine.errors import IllegalPlay, RecordError
from engine.events import Event, Play, event_to_json
from engine.game import GameState
from engine.header import Header
from engine.vzetki import match_step as _team_match_step
from engine.vzetki_rules import (
    checked_play,
    sort_events,
    top_rank_option,
    trick_winner,
)

Piles = tuple[tuple[Card, ...], ...]


def pile_sizes(cards: int) -> list[int]:
    """4 piles of `cards` cards, as equal as possible, the larger ones first."""
    q, r = divmod(cards, 4)
    return [q + 1] * r + [q] * (4 - r)


class VzetkiDuoState(GameState):
    """A round of vzetki for two with four piles each."""

    name = "vzetki-duo"
    min_players = 2
    max_players = 2
    option_defaults: ClassVar[Mapping[str, Any]] = {"top_rank": 10}
    max_events = 40 + 8

    @classmethod
    def deal(
        cls,
        rng: random.Random,
        *,
        players: int | None = None,
        dealer: int = 0,
        options: Mapping[str, Any] | None = None,
    ) -> Header:
        options = dict(options or {})
        cards = list(vzetki_deck(top_rank_option(cls.name, options)))
        rng.shuffle(cards)
        half = len(cards) // 2
        piles = []
        for seat in range(2):
            mine = cards[seat * half:(seat + 1) * half]
            seat_piles, at = [], 0
            for size in pile_sizes(half):
                seat_piles.append(tuple(mine[at:at + size]))
                at += size
            piles.append(tuple(seat_piles))
        return Header(game=cls.name, dealer=dealer, options=options, piles=tuple(piles))

    def _setup(self) -> None:
        self.top_rank = top_rank_option(self.name, self.options)
        self.deck = frozenset(vzetki_deck(self.top_rank))
        self.per_player = len(self.deck) // 2
        if self.header.hands is not None or self.header.stock:
            raise RecordError("vzetki-duo deals piles ('piles'), not hands or a stock")
        if self.header.trump is not None:
            raise RecordError("vzetki-duo has no trump")
        self.piles: tuple[Piles, ...] | None = None
        if self.header.piles is not None:
            self._check_piles(self.header.piles)
            self.piles = tuple(tuple(tuple(p) for p in seat) for seat in self.header.piles)
        leader = self.header.leader
        self.leader: int = (self.header.dealer + 1) % 2 if leader is None else leader
        if self.leader >= 2:
            raise RecordError(f"header 'leader' {self.leader} is not a seat (0 or 1)")
        self.sizes: tuple[int, int] = (self.per_player, self.per_player)
        self.seen: frozenset[Card] = frozenset()
        self.trick: tuple[tuple[int, Card], ...] = ()
        self.tricks: tuple[int, int] = (0, 0)
        self.last_winner: int | None = None
        self.played_tricks = 0

    def _check_piles(self, piles: tuple[Piles, ...]) -> None:
        if len(piles) != 2:
            raise RecordError(f"vzetki-duo needs piles for 2 seats, the header has {len(piles)}")
        dealt: list[Card] = []
        for seat, seat_piles in enumerate(piles):
            if len(seat_piles) != 4:
                raise RecordError(f"seat {seat} has {len(seat_piles)} piles, not 4")
            sizes = [len(p) for p in seat_piles]
            if sum(sizes) != self.per_player:
                raise RecordError(
                    f"seat {seat} was dealt {sum(sizes)} cards, not {self.per_player}"
                )
            if max(sizes) - min(sizes) > 1:
                raise RecordError(
                    f"seat {seat}'s piles ({'/'.join(map(str, sizes))}) are not about equal"
                )
            dealt.extend(c for p in seat_piles for c in p)
        foreign = sorted({str(c) for c in dealt if c not in self.deck})
        if foreign:
            raise RecordError(f"not in the vzetki deck (1..{self.top_rank}): {', '.join(foreign)}")
        twice = sorted({str(c) for c in dealt if dealt.count(c) > 1})
        if twice:
            raise RecordError(f"dealt twice: {', '.join(twice)}")

    def _snapshot(self) -> object:
        return (self.piles, self.sizes, self.seen, self.trick, self.leader, self.tricks,
                self.last_winner, self.played_tricks)

    def _restore(self, snap: object) -> None:
        (self.piles, self.sizes, self.seen, self.trick, self.leader, self.tricks,
         self.last_winner, self.played_tricks) = snap  # type: ignore[misc]

    def _next_seat(self) -> int:
        return (self.leader + len(self.trick)) % 2

    def tops(self, seat: int) -> list[Card]:
        """The face-up top cards of a seat's piles (known piles only)."""
        self._require_known()
        assert self.piles is not None
        return [p[0] for p in self.piles[seat] if p]

    def _apply(self, event: Event) -> None:
        if not isinstance(event, Play):
            kind = next(iter(event_to_json(event).keys() - {"seat"}), "?")
            raise IllegalPlay(
                "vzetki_duo.event", f"vzetki-duo has no '{kind}' events: only play",
                seat=getattr(event, "seat", None),
            )
        seat = event.seat
        card = checked_play(
            self.name, event, players=2, deck=self.deck, complete=self.complete,
            next_seat=self._next_seat(), seen=self.seen,
        )
        piles = self.piles
        if piles is not None:
            tops = self.tops(seat)
            if card not in tops:
                raise IllegalPlay(
                    "vzetki_duo.top_card",
                    f"{card} is not on top of one of seat {seat}'s piles "
                    f"(showing: {card_list(tops)})",
                    seat=seat, cards=(card,),
                )
            if self.trick:
                led = self.trick[0][1].suit
                follow = [c for c in tops if c.suit == led]
                if card.suit != led and follow:
                    raise IllegalPlay(
                        "vzetki_duo.follow_suit",
                        f"{card} was played on a {led.word[:-1]} lead although "
                        f"{card_list(follow)} is showing: must follow suit",
                        seat=seat, cards=(card,),
                    )
            mine = tuple(p[1:] if p and p[0] == card else p for p in piles[seat])
            piles = (mine, piles[1]) if seat == 0 else (piles[0], mine)
        self.piles = piles
        self.seen = self.seen | {card}
        sizes = list(self.sizes)
        sizes[seat] -= 1
        self.sizes = (sizes[0], sizes[1])
        self.trick = self.trick + ((seat, card),)
        if len(self.trick) == 2:
            winner = trick_winner(self.trick, None)
            tricks = list(self.tricks)
            tricks[winner] += 1
            self.tricks = (tricks[0], tricks[1])
            self.last_winner = winner
            self.leader = winner
            self.played_tricks += 1
            self.trick = ()

    @property
    def complete(self) -> bool:
        return self.played_tricks == self.per_player

    def to_act(self) -> frozenset[int]:
        return frozenset() if self.complete else frozenset({self._next_seat()})

    def legal_events(self) -> list[Event]:
        self._require_known()
        if self.complete:
            return []
        seat = self._next_seat()
        tops = self.tops(seat)
        if self.trick:
            led: Suit = self.trick[0][1].suit
            tops = [c for c in tops if c.suit == led] or tops
        return sort_events([Play(seat, (c,)) for c in tops])

    def result(self) -> dict[str, Any]:
        return {"tricks": list(self.tricks)}

    def public_view(self) -> dict[str, Any]:
        return {
            "to_act": sorted(self.to_act()),
            "trump": None,
            "table": [str(c) for _, c in self.trick],
            "table_down": 0,
            "hand_sizes": list(self.sizes),
            "stock": 0,
            "last_trick_winner": self.last_winner,
            "tricks_played": self.played_tricks,
            "tricks": list(self.tricks),
            "tops": (
                [[str(p[0]) if p else None for p in seat] for seat in self.piles]
                if self.piles is not None else None
            ),
        }

    def check_invariant(self) -> None:
        """Card conservation: every card is in one pile or was played, sizes agree."""
        assert len(self.seen) == 2 * self.played_tricks + len(self.trick)
        assert sum(self.sizes) + len(self.seen) == len(self.deck)
        if self.piles is not None:
            held = [c for seat in self.piles for p in seat for c in p]
            assert len(held) == len(set(held)) == sum(self.sizes)
            assert set(held) | self.seen == self.deck and not set(held) & self.seen
            assert [sum(len(p) for p in seat) for seat in self.piles] == list(self.sizes)


def match_step(carried: dict[str, Any] | None, result: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """The match score after a round (see the module docstring)."""
    return _team_match_step(carried, result, options)
