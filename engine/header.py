"""The record header (RECORD.md, line 1) as a value, with its JSON form.

Validation here is only about form (types, card syntax, known keys); whether the deal
fits the game (right number of cards, no duplicates, a seat in range) is checked by the
game's `from_header`, which raises `RecordError` naming what is wrong.

Optional keys this project adds (allowed by RECORD.md: only optional keys are added):
- `leader`: the seat that leads the first trick, when it is not the game's default
  (Kozel's later games: the winner of the previous game's last trick).
- `match`: the match score carried into this game, so a match is a sequence of records
  (see engine/match.py): e.g. `{"defeat": [4, 2], "double": true}`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card, Suit, parse_cards
from engine.errors import RecordError

KNOWN_KEYS = frozenset({
    "game", "players", "dealer", "trump", "trump_card", "options", "hands", "stock",
    "piles", "leader", "match",
})


@dataclass(frozen=True)
class Header:
    game: str
    dealer: int = 0
    players: int | None = None
    trump: Suit | None = None
    trump_card: Card | None = None
    options: dict[str, Any] = field(default_factory=dict)
    hands: tuple[tuple[Card, ...], ...] | None = None
    stock: tuple[Card, ...] | None = None
    piles: tuple[tuple[tuple[Card, ...], ...], ...] | None = None
    leader: int | None = None
    match: dict[str, Any] | None = None

    @property
    def observed(self) -> bool:
        """True when hands are unknown: only what a camera could see is checked."""
        return self.hands is None and self.piles is None

    @classmethod
    def from_json(cls, obj: Any) -> Header:
        """Read the header object. Raises RecordError (line left for the caller to set)."""
        if not isinstance(obj, dict):
            raise RecordError(f"the header must be a JSON object, got {type(obj).__name__}")
        unknown = set(obj) - KNOWN_KEYS
        if unknown:
            raise RecordError(f"unknown header key(s): {', '.join(sorted(unknown))}")
        game = obj.get("game")
        if not isinstance(game, str):
            raise RecordError(f"header 'game' must name the game, got {game!r}")
        dealer = _int(obj, "dealer", 0)
        players = _int(obj, "players", None)
        leader = _int(obj, "leader", None)
        trump = obj.get("trump")
        options = obj.get("options", {})
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise RecordError(f"header 'options' must be an object, got {options!r}")
        match = obj.get("match")
        if match is not None and not isinstance(match, dict):
            raise RecordError(f"header 'match' must be an object, got {match!r}")
        trump_card = obj.get("trump_card")
        return cls(
            game=game,
            dealer=dealer,  # type: ignore[arg-type]
            players=players,
            trump=_suit(trump),
            trump_card=parse_cards([trump_card])[0] if trump_card is not None else None,
            options=dict(options),
            hands=_hands(obj.get("hands"), "hands"),
            stock=_card_list(obj.get("stock"), "stock"),
            piles=_piles(obj.get("piles")),
            leader=leader,
            match=match,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game}
        if self.players is not None:
            out["players"] = self.players
        out["dealer"] = self.dealer
        if self.trump is not None:
            out["trump"] = self.trump.value
        if self.trump_card is not None:
            out["trump_card"] = str(self.trump_card)
        out["options"] = dict(self.options)
        if self.leader is not None:
            out["leader"] = self.leader
        if self.match is not None:
            out["match"] = self.match
        if self.hands is not None:
            out["hands"] = [[str(c) for c in h] for h in self.hands]
        if self.stock is not None:
            out["stock"] = [str(c) for c in self.stock]
        if self.piles is not None:
            out["piles"] = [[[str(c) for c in p] for p in seat] for seat in self.piles]
        return out

    def without_hands(self) -> Header:
        """The observed version of this header: what a camera-only record holds."""
        return Header(
            game=self.game, dealer=self.dealer, players=self.players, trump=self.trump,
            trump_card=self.trump_card, options=dict(self.options), leader=self.leader,
            match=self.match,
        )


def _suit(value: Any) -> Suit | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise RecordError(f"header 'trump' must be a suit letter (C, D, H, S), got {value!r}")
    return Suit.parse(value)


def _int(obj: dict[str, Any], key: str, default: int | None) -> int | None:
    value = obj.get(key, default)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RecordError(f"header '{key}' must be a whole number >= 0, got {value!r}")
    return value


def _card_list(value: Any, key: str) -> tuple[Card, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list):
        raise RecordError(f"header '{key}' must be a list of cards, got {value!r}")
    return parse_cards(value)


def _hands(value: Any, key: str) -> tuple[tuple[Card, ...], ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(h, list) for h in value):
        raise RecordError(f"header '{key}' must be a list of card lists, one per seat")
    return tuple(parse_cards(h) for h in value)


def _piles(value: Any) -> tuple[tuple[tuple[Card, ...], ...], ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(
        isinstance(seat, list) and all(isinstance(p, list) for p in seat) for seat in value
    ):
        raise RecordError("header 'piles' must list, per seat, piles of cards (top first)")
    return tuple(tuple(parse_cards(p) for p in seat) for seat in value)
