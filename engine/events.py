"""Record events as small value types, and their JSON form (RECORD.md, lines 2..n).

Each event is a frozen dataclass; `event_from_json` reads one record line's object and
`event_to_json` writes it back, so `event_from_json(event_to_json(e)) == e`. The optional
keys every line may carry (`t`, `frame`, `confidence`) are not part of the event: they
travel beside it as `EventMeta`, because the rules ignore them.

Which events a game accepts is the game's business; an event a game does not know is
an `IllegalPlay` there (rule `"<game>.event"`), not a syntax error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Union

from engine.cards import Card, parse_cards
from engine.errors import RecordError


@dataclass(frozen=True, slots=True)
class Play:
    """Cards put face up in turn: a lead, a beat, a follow."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Pass:
    """Kozel: cards put face down. `cards` is None when the camera only saw backs."""

    seat: int
    count: int
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class Molodka:
    """Kozel: four cards of one suit shown out of turn."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Dummy:
    """Vzetki: the dummy's hand laid open."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Exchange:
    """Kozel-trumps: the one-trump exchange with the partner; cards None when unseen."""

    seat: int
    give: Card | None = None
    receive: Card | None = None


@dataclass(frozen=True, slots=True)
class Attack:
    """Durak: a first attack or a throw-in."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Defend:
    """Durak: pairs of (attacking card, beating card)."""

    seat: int
    pairs: tuple[tuple[Card, Card], ...]


@dataclass(frozen=True, slots=True)
class Transfer:
    """Durak (option `transfer`): the defender adds cards of the attacked rank."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Take:
    """Durak: the defender picks up the table."""

    seat: int


@dataclass(frozen=True, slots=True)
class BoutBeaten:
    """Durak: all beaten and nothing more thrown in: the table goes to the discard."""


@dataclass(frozen=True, slots=True)
class Note:
    """Free text (disputes, corrections); ignored by the rules."""

    seat: int | None
    text: str


Event = Union[Play, Pass, Molodka, Dummy, Exchange, Attack, Defend, Transfer, Take, BoutBeaten, Note]


@dataclass(frozen=True, slots=True)
class EventMeta:
    """The optional keys every record line may carry."""

    t: float | None = None
    frame: int | None = None
    confidence: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: v for k in ("t", "frame", "confidence") if (v := getattr(self, k)) is not None}


META_KEYS = frozenset({"t", "frame", "confidence"})
_KIND_KEYS = ("play", "pass", "molodka", "dummy", "exchange", "give", "attack", "defend",
              "transfer", "take", "bout", "note")
_ALLOWED = {
    "play": {"seat", "play"}, "pass": {"seat", "pass"}, "molodka": {"seat", "molodka"},
    "dummy": {"seat", "dummy"}, "exchange": {"seat", "exchange"},
    "give": {"seat", "give", "receive"}, "attack": {"seat", "attack"},
    "defend": {"seat", "defend"}, "transfer": {"seat", "transfer"}, "take": {"seat", "take"},
    "bout": {"bout"}, "note": {"seat", "note"},
}


def _cards(value: Any, key: str) -> tuple[Card, ...]:
    if not isinstance(value, list) or not value:
        raise RecordError(f"'{key}' must be a non-empty list of cards, got {value!r}")
    return parse_cards(value)


def _seat(obj: Mapping[str, Any], required: bool = True) -> int | None:
    seat = obj.get("seat")
    if seat is None and not required:
        return None
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        raise RecordError(f"'seat' must be a seat number (0, 1, ...), got {seat!r}")
    return seat


def event_from_json(obj: Any) -> tuple[Event, EventMeta]:
    """Read one event line's object. Raises RecordError (or CardSyntaxError) on bad input."""
    if not isinstance(obj, dict):
        raise RecordError(f"an event must be a JSON object, got {type(obj).__name__}")
    kinds = [k for k in _KIND_KEYS if k in obj]
    if "give" in kinds and "exchange" in kinds:
        kinds.remove("give")
    if len(kinds) != 1:
        what = "no event key" if not kinds else "several event keys " + ", ".join(kinds)
        raise RecordError(f"{what} in {obj!r}")
    kind = kinds[0]
    unknown = set(obj) - _ALLOWED[kind] - META_KEYS
    if unknown:
        raise RecordError(f"unknown key(s) {', '.join(sorted(unknown))} in a '{kind}' event")
    meta = _meta(obj)
    value = obj[kind]
    event: Event
    if kind == "play":
        event = Play(_seat(obj), _cards(value, kind))  # type: ignore[arg-type]
    elif kind == "pass":
        if isinstance(value, int) and not isinstance(value, bool):
            if value < 1:
                raise RecordError(f"'pass' must count at least 1 card, got {value}")
            event = Pass(_seat(obj), value)  # type: ignore[arg-type]
        else:
            cards = _cards(value, kind)
            event = Pass(_seat(obj), len(cards), cards)  # type: ignore[arg-type]
    elif kind == "molodka":
        event = Molodka(_seat(obj), _cards(value, kind))  # type: ignore[arg-type]
    elif kind == "dummy":
        event = Dummy(_seat(obj), _cards(value, kind))  # type: ignore[arg-type]
    elif kind == "exchange":
        if value is not True:
            raise RecordError(f"'exchange' must be true, got {value!r}")
        event = Exchange(_seat(obj))  # type: ignore[arg-type]
    elif kind == "give":
        if "receive" not in obj:
            raise RecordError("'give' needs 'receive' (the card taken back)")
        (give,) = parse_cards([obj["give"]])
        (receive,) = parse_cards([obj["receive"]])
        event = Exchange(_seat(obj), give, receive)  # type: ignore[arg-type]
    elif kind == "attack":
        event = Attack(_seat(obj), _cards(value, kind))  # type: ignore[arg-type]
    elif kind == "defend":
        if not isinstance(value, list) or not value:
            raise RecordError(f"'defend' must be a non-empty list of pairs, got {value!r}")
        pairs = []
        for pair in value:
            if not isinstance(pair, list) or len(pair) != 2:
                raise RecordError(f"'defend' pair must be [attacking, beating], got {pair!r}")
            a, b = parse_cards(pair)
            pairs.append((a, b))
        event = Defend(_seat(obj), tuple(pairs))  # type: ignore[arg-type]
    elif kind == "transfer":
        event = Transfer(_seat(obj), _cards(value, kind))  # type: ignore[arg-type]
    elif kind == "take":
        if value is not True:
            raise RecordError(f"'take' must be true, got {value!r}")
        event = Take(_seat(obj))  # type: ignore[arg-type]
    elif kind == "bout":
        if value != "beaten":
            raise RecordError(f"'bout' must be \"beaten\", got {value!r}")
        event = BoutBeaten()
    else:  # note
        if not isinstance(value, str):
            raise RecordError(f"'note' must be text, got {value!r}")
        event = Note(_seat(obj, required=False), value)
    return event, meta


def _meta(obj: Mapping[str, Any]) -> EventMeta:
    t, frame, conf = obj.get("t"), obj.get("frame"), obj.get("confidence")
    if t is not None and (not isinstance(t, (int, float)) or isinstance(t, bool) or t < 0):
        raise RecordError(f"'t' must be seconds >= 0, got {t!r}")
    if frame is not None and (not isinstance(frame, int) or isinstance(frame, bool) or frame < 0):
        raise RecordError(f"'frame' must be a frame number >= 0, got {frame!r}")
    if conf is not None and (
        not isinstance(conf, (int, float)) or isinstance(conf, bool) or not 0 <= conf <= 1
    ):
        raise RecordError(f"'confidence' must be 0..1, got {conf!r}")
    return EventMeta(t, frame, conf)


def _strs(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def event_to_json(event: Event, meta: EventMeta | None = None) -> dict[str, Any]:
    """The record line object for `event` (key order as in RECORD.md)."""
    out: dict[str, Any]
    match event:
        case Play(seat, cards):
            out = {"seat": seat, "play": _strs(cards)}
        case Pass(seat, count, cards):
            out = {"seat": seat, "pass": count if cards is None else _strs(cards)}
        case Molodka(seat, cards):
            out = {"seat": seat, "molodka": _strs(cards)}
        case Dummy(seat, cards):
            out = {"seat": seat, "dummy": _strs(cards)}
        case Exchange(seat, None, None):
            out = {"seat": seat, "exchange": True}
        case Exchange(seat, give, receive):
            out = {"seat": seat, "give": str(give), "receive": str(receive)}
        case Attack(seat, cards):
            out = {"seat": seat, "attack": _strs(cards)}
        case Defend(seat, pairs):
            out = {"seat": seat, "defend": [[str(a), str(b)] for a, b in pairs]}
        case Transfer(seat, cards):
            out = {"seat": seat, "transfer": _strs(cards)}
        case Take(seat):
            out = {"seat": seat, "take": True}
        case BoutBeaten():
            out = {"bout": "beaten"}
        case Note(seat, text):
            out = {"note": text} if seat is None else {"seat": seat, "note": text}
        case _:
            raise TypeError(f"not an event: {event!r}")
    if meta is not None:
        out.update(meta.to_json())
    return out
