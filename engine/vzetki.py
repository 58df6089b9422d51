"""`vzetki`: the children's trick game with an open dummy (RULES.md, seed 003).

Four players, partners opposite (team 0 = seats 0+2). The numbered deck 1 (written
`A`) .. `top_rank` in four suits; everyone gets a quarter. The dealer leads the first
trick; the player left of the dealer is the dummy: he lays his hand open and his
partner chooses his cards (the record's `seat` is still the dummy's seat, whose card
it is). Must follow the led suit if able; the highest card of the led suit wins, or,
with option `trump` (a suit letter), the highest trump — playing a trump when void is
allowed, never required. The team with more tricks wins the round.

Observed records (no `hands`) check what a camera proves: one card per turn, in
turn, from the deck, never seen before (and never a card lying open in the dummy's
hand, once the `dummy` event showed it). A player who does not follow suit is noted
void; if he later shows a card of that suit (a play, or the dummy's open hand) he
revoked, and `RevokeProven` names the revoke's line. No cards are drawn in vzetki, so
every card he shows later he already held. Voids are also proven by counting: when
the cards not yet seen of some suits no longer fit into the hands of the players who
may still hold them (Hall's condition over the sets of suits, exact: a record some
deal explains always passes), the event that makes it so is rejected — as a
`RevokeProven` naming the revoke when a single player can be the culprit.

Gaps filled:
- The `dummy` event may come at any moment while the dummy still holds cards, at most
  once; it must list exactly his hand (known hands) or exactly as many cards as he
  holds (observed). `legal_events` offers it at the table's moment: after the first
  lead, before the dummy's first play.
- The trump is the option `trump`; a header `trump` is accepted as the same thing and
  must agree with the option if both are given.
- Line numbers in revoke reasons assume the record has no blank lines (event index i
  is line i + 2).

`match_step` (match level: rounds add up, the deal moves clockwise): the score after a
round is `{"tricks": [team0, team1], "rounds": k, "of": N, "over": k >= N,
"winner": team | None}`; `of` (rounds in the match) is 4 unless the carried score says
otherwise; `winner` is the team with more tricks in total once over (None for a draw).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engine.cards import SUITS, Card, Suit, card_list, vzetki_deck
from engine.errors import IllegalPlay, RecordError, RevokeProven
from engine.events import Dummy, Event, Play, event_to_json
from engine.game import GameState
from engine.header import Header
from engine.vzetki_rules import (
    SUIT_INDEX,
    check_seat,
    check_voids_possible,
    checked_play,
    sort_events,
    top_rank_option,
    trick_winner,
    void_reason,
)
from engine.vzetki_setup import check_deal, deal_hands, trump_option

# ----- the game ---------------------------------------------------------------------


class VzetkiState(GameState):
    """A round of vzetki (4 players). See the module docstring for the rules checked."""

    name = "vzetki"
    min_players = 4
    max_players = 4
    option_defaults: ClassVar[Mapping[str, Any]] = {"top_rank": 10, "trump": None}
    max_events = 4 * 10 + 1 + 8

    # ----- dealing and setup ------------------------------------------------------

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
        return Header(
            game=cls.name, dealer=dealer, options=options,
            hands=deal_hands(cards, dealer), stock=(),
        )

    def _setup(self) -> None:
        self.top_rank = top_rank_option(self.name, self.options)
        self.trump = trump_option(self.options, self.header)
        self.deck = frozenset(vzetki_deck(self.top_rank))
        self.dummy_seat = (self.header.dealer + 1) % 4
        size = self.top_rank
        if self.header.piles is not None:
            raise RecordError("vzetki deals hands, not piles (piles are for vzetki-duo)")
        if self.header.hands is not None:
            check_deal(self.header, self.deck, size)
            self.hands: tuple[frozenset[Card], ...] | None = tuple(
                frozenset(h) for h in self.header.hands
            )
        else:
            self.hands = None
        self.sizes: tuple[int, ...] = (size,) * 4
        self.seen: frozenset[Card] = frozenset()
        self.trick: tuple[tuple[int, Card], ...] = ()
        self.leader: int = self.header.dealer if self.header.leader is None else self.header.leader
        if self.leader >= 4:
            raise RecordError(f"header 'leader' {self.leader} is not a seat (0..3)")
        self.tricks: tuple[int, int] = (0, 0)
        self.last_winner: int | None = None
        self.played_tricks = 0
        self.dummy_open: frozenset[Card] | None = None
        #: (seat, suit) -> index of the first event where the seat did not follow suit
        self.voids: tuple[tuple[int, Suit, int], ...] = ()
        #: observed bookkeeping for the void check: unseen cards per suit (SUITS order,
        #: cards lying open in the dummy's hand count as seen), void suits per seat
        self.unseen: tuple[int, ...] = (self.top_rank,) * 4
        self.void_masks: tuple[int, ...] = (0, 0, 0, 0)

    # ----- snapshot -----------------------------------------------------------------

    def _snapshot(self) -> object:
        return (
            self.hands, self.sizes, self.seen, self.trick, self.leader, self.tricks,
            self.last_winner, self.played_tricks, self.dummy_open, self.voids,
            self.unseen, self.void_masks,
        )

    def _restore(self, snap: object) -> None:
        (
            self.hands, self.sizes, self.seen, self.trick, self.leader, self.tricks,
            self.last_winner, self.played_tricks, self.dummy_open, self.voids,
            self.unseen, self.void_masks,
        ) = snap  # type: ignore[misc]

    # ----- rules ---------------------------------------------------------------------

    def _next_seat(self) -> int:
        return (self.leader + len(self.trick)) % 4

    def _known_hand(self, seat: int) -> frozenset[Card] | None:
        if self.hands is not None:
            return self.hands[seat]
        if seat == self.dummy_seat:
            return self.dummy_open
        return None

    def _apply(self, event: Event) -> None:
        if isinstance(event, Play):
            self._play(event)
        elif isinstance(event, Dummy):
            self._dummy(event)
        else:
            kind = next(iter(event_to_json(event).keys() - {"seat"}), "?")
            raise IllegalPlay(
                "vzetki.event", f"vzetki has no '{kind}' events: only play and dummy",
                seat=getattr(event, "seat", None),
            )

    def _play(self, event: Play) -> None:
        seat = event.seat
        card = checked_play(
            self.name, event, players=4, deck=self.deck, complete=self.complete,
            next_seat=self._next_seat(), seen=self.seen,
        )
        if self.dummy_open is not None and seat != self.dummy_seat and card in self.dummy_open:
            raise IllegalPlay(
                "common.card_seen_twice",
                f"{card} lies open in the dummy's hand (seat {self.dummy_seat})",
                seat=seat, cards=(card,),
            )
        known = self._known_hand(seat)
        if known is not None and card not in known:
            raise IllegalPlay(
                "common.not_in_hand", f"seat {seat} does not hold {card}",
                seat=seat, cards=(card,),
            )
        self._check_revoke_proven(seat, (card,))
        voids = self.voids
        if self.trick:
            led = self.trick[0][1].suit
            if card.suit != led:
                held = sorted((c for c in known or () if c.suit == led), key=str)
                if held:
                    raise IllegalPlay(
                        "vzetki.follow_suit", void_reason(None, card, led, held[0], seat),
                        seat=seat, cards=(card,),
                    )
                if not any(s == seat and v == led for s, v, _ in voids):
                    voids = voids + ((seat, led, len(self.history)),)
                    masks = list(self.void_masks)
                    masks[seat] |= 1 << SUIT_INDEX[led.value]
                    self.void_masks = tuple(masks)
        # play it
        self.voids = voids
        if not (self.dummy_open is not None and card in self.dummy_open):
            unseen = list(self.unseen)
            unseen[SUIT_INDEX[card.suit.value]] -= 1
            self.unseen = tuple(unseen)
        self.seen = self.seen | {card}
        if self.hands is not None:
            hands = list(self.hands)
            hands[seat] = hands[seat] - {card}
            self.hands = tuple(hands)
        if self.dummy_open is not None and seat == self.dummy_seat:
            self.dummy_open = self.dummy_open - {card}
        sizes = list(self.sizes)
        sizes[seat] -= 1
        self.sizes = tuple(sizes)
        self.trick = self.trick + ((seat, card),)
        if len(self.trick) == 4:
            winner = trick_winner(self.trick, self.trump)
            tricks = list(self.tricks)
            tricks[winner % 2] += 1
            self.tricks = (tricks[0], tricks[1])
            self.last_winner = winner
            self.leader = winner
            self.played_tricks += 1
            self.trick = ()
        self._check_voids_possible(seat)

    def _check_voids_possible(self, seat: int) -> None:
        """Observed: can the unseen cards still be dealt to the hands, given who showed
        void in which suit? If not, someone who did not follow suit held one
        (vzetki_rules.check_voids_possible)."""
        if self.hands is not None or not self.voids:
            return
        closed = self.dummy_seat if self.dummy_open is not None else -1
        check_voids_possible(self.unseen, self.void_masks, self.sizes, closed, self.voids,
                             seat, self._history_card)

    def _check_revoke_proven(self, seat: int, shown: Sequence[Card]) -> None:
        """A card of a suit this seat earlier failed to follow proves that revoke."""
        for s, suit, index in self.voids:
            if s != seat:
                continue
            for card in shown:
                if card.suit == suit:
                    raise RevokeProven(
                        "vzetki.follow_suit",
                        f"line {index + 2}: {self._history_card(index)} was played on a "
                        f"{suit.word[:-1]} lead although this player held {card}",
                        revoke_event=index, seat=seat, cards=(card,),
                    )

    def _history_card(self, index: int) -> str:
        event = self.history[index]
        return card_list(event.cards) if isinstance(event, Play) else "a card"

    def _dummy(self, event: Dummy) -> None:
        seat = event.seat
        check_seat(self.name, seat, 4)
        if seat != self.dummy_seat:
            raise IllegalPlay(
                "vzetki.dummy",
                f"seat {seat} is not the dummy: the dummy is seat {self.dummy_seat}, "
                "left of the dealer",
                seat=seat, cards=event.cards,
            )
        if self.dummy_open is not None:
            raise IllegalPlay(
                "vzetki.dummy", "the dummy's hand was already laid open", seat=seat,
                cards=event.cards,
            )
        cards = event.cards
        foreign = [c for c in cards if c not in self.deck]
        if foreign:
            raise IllegalPlay(
                "common.not_in_deck", f"{card_list(foreign)} not in the vzetki deck",
                seat=seat, cards=foreign,
            )
        if len(set(cards)) != len(cards):
            raise IllegalPlay(
                "common.card_seen_twice", f"the dummy's hand lists a card twice: "
                f"{card_list(cards)}", seat=seat, cards=cards,
            )
        old = [c for c in cards if c in self.seen]
        if old:
            raise IllegalPlay(
                "common.card_seen_twice",
                f"{card_list(old)} already played, cannot be in the dummy's hand",
                seat=seat, cards=old,
            )
        if len(cards) != self.sizes[seat]:
            raise IllegalPlay(
                "common.card_count",
                f"the dummy holds {self.sizes[seat]} cards, {len(cards)} were laid open",
                seat=seat, cards=cards,
            )
        if self.hands is not None and frozenset(cards) != self.hands[seat]:
            raise IllegalPlay(
                "vzetki.dummy",
                f"the dummy's hand is {card_list(sorted(self.hands[seat], key=str))}, "
                f"not {card_list(cards)}",
                seat=seat, cards=cards,
            )
        self._check_revoke_proven(seat, cards)
        self.dummy_open = frozenset(cards)
        unseen = list(self.unseen)
        for card in cards:
            unseen[SUIT_INDEX[card.suit.value]] -= 1
        self.unseen = tuple(unseen)
        self._check_voids_possible(seat)

    # ----- queries -------------------------------------------------------------------

    @property
    def complete(self) -> bool:
        return self.played_tricks == self.top_rank

    def to_act(self) -> frozenset[int]:
        return frozenset() if self.complete else frozenset({self._next_seat()})

    def legal_events(self) -> list[Event]:
        """Plays of the seat to act (following suit), plus laying the dummy open right
        after the first lead while it is still closed."""
        self._require_known()
        assert self.hands is not None
        if self.complete:
            return []
        seat = self._next_seat()
        hand = self.hands[seat]
        cards = list(hand)
        if self.trick:
            led = self.trick[0][1].suit
            follow = [c for c in hand if c.suit == led]
            cards = follow or cards
        events: list[Event] = [Play(seat, (c,)) for c in cards]
        if (
            self.dummy_open is None and self.seen and seat == self.dummy_seat
            and self.sizes[seat] == self.top_rank
        ):
            events.append(Dummy(seat, tuple(sorted(hand, key=lambda c: (c.suit.value, c.face)))))
        return sort_events(events)

    def result(self) -> dict[str, Any]:
        return {"tricks": list(self.tricks)}

    def public_view(self) -> dict[str, Any]:
        return {
            "to_act": sorted(self.to_act()),
            "trump": self.trump.value if self.trump is not None else None,
            "table": [str(c) for _, c in self.trick],
            "table_down": 0,
            "hand_sizes": list(self.sizes),
            "stock": 0,
            "last_trick_winner": self.last_winner,
            "tricks_played": self.played_tricks,
            "tricks": list(self.tricks),
            "dummy": self.dummy_seat,
            "dummy_hand": (
                sorted(str(c) for c in self.dummy_open) if self.dummy_open is not None else None
            ),
        }

    def check_invariant(self) -> None:
        """Card conservation: every card is in exactly one hand or was played."""
        assert len(self.seen) == 4 * self.played_tricks + len(self.trick)
        assert sum(self.sizes) + len(self.seen) == len(self.deck)
        hidden = self.seen | (self.dummy_open or frozenset())
        assert list(self.unseen) == [
            sum(1 for c in self.deck - hidden if c.suit == s) for s in SUITS
        ]
        if self.hands is not None:
            held = [c for h in self.hands for c in h]
            assert len(held) == len(set(held)) == sum(self.sizes)
            assert set(held) | self.seen == self.deck and not set(held) & self.seen
            assert [len(h) for h in self.hands] == list(self.sizes)


def match_step(carried: dict[str, Any] | None, result: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """The match score after a round (see the module docstring for the keys)."""
    prev = carried or {}
    total = [a + b for a, b in zip(prev.get("tricks", [0, 0]), result["tricks"])]
    rounds = int(prev.get("rounds", 0)) + 1
    of = int(prev.get("of", 4))
    over = rounds >= of
    winner = None
    if over and total[0] != total[1]:
        winner = 0 if total[0] > total[1] else 1
    return {"tricks": total, "rounds": rounds, "of": of, "over": over, "winner": winner}
