"""What the table shows, as one value: every light, display and the buzzer at once.

The referee never says "turn LED 3 on"; it hands the outputs a whole `TableDisplay`.
Sending a whole state makes every update idempotent: a resend after a lost
acknowledgement, a board that rebooted, or a second output (GPIO and the serial
bridge at once) all converge on the same picture. Nothing here knows a game's rules:
the referee decides what "seat 2 blinks red" means.

The JSON form (`to_json` / `from_json`) is what `cardtable firmware-sim --state-file`
writes and what `cardtable display-test` prints as `last_state`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

MAX_SEATS = 6  # Durak allows 2..6 players
DISPLAY_WIDTH = 4  # 4-digit 7-segment displays
#: Characters a 7-segment digit can show legibly (upper case letters are mapped).
SEGMENT_CHARS = frozenset("0123456789 -_ABCDEFGHIJLNOPQRSTUYabcdefghijlnopqrstuy")
TRUMP_SUITS = ("C", "D", "H", "S")


class DisplayStateError(ValueError):
    """A display state that the hardware cannot show (bad colour, text, seat count)."""


class LedMode(enum.Enum):
    """How an RGB LED shows its colour."""

    OFF = "off"
    ON = "on"
    BLINK = "blink"  #: on/off at 2 Hz: needs attention (illegal play, whose turn)
    PULSE = "pulse"  #: slow breathing: may act but need not (Durak throw-in)


class Status(enum.Enum):
    """The referee's own status LED."""

    READY = "ready"
    WATCHING = "watching"
    NO_TABLE = "no_table"  #: the camera cannot see the table
    LINK_LOST = "link_lost"  #: shown by the board itself when the host goes quiet


class Buzz(enum.Enum):
    """A buzzer pattern. Played once per change of `TableDisplay.buzz_id`."""

    NONE = "none"
    SHORT = "short"
    LONG = "long"
    ALARM = "alarm"


@dataclass(frozen=True, slots=True)
class Rgb:
    r: int
    g: int
    b: int

    def __post_init__(self) -> None:
        for name in ("r", "g", "b"):
            value = getattr(self, name)
            if not isinstance(value, int) or not 0 <= value <= 255:
                raise DisplayStateError(f"colour channel {name}={value!r} is not 0..255")

    def to_json(self) -> list[int]:
        return [self.r, self.g, self.b]

    @classmethod
    def from_json(cls, data: Any) -> Rgb:
        if not isinstance(data, (list, tuple)) or len(data) != 3:
            raise DisplayStateError(f"colour must be [r, g, b], got {data!r}")
        return cls(*data)


OFF_COLOUR = Rgb(0, 0, 0)


@dataclass(frozen=True, slots=True)
class SeatLight:
    mode: LedMode = LedMode.OFF
    colour: Rgb = OFF_COLOUR

    def to_json(self) -> dict[str, Any]:
        return {"mode": self.mode.value, "colour": self.colour.to_json()}

    @classmethod
    def from_json(cls, data: Any) -> SeatLight:
        if not isinstance(data, dict):
            raise DisplayStateError(f"seat light must be an object, got {data!r}")
        try:
            return cls(LedMode(data["mode"]), Rgb.from_json(data["colour"]))
        except (KeyError, ValueError) as exc:
            raise DisplayStateError(f"bad seat light {data!r}: {exc}") from exc


def _check_display_text(text: str) -> None:
    if not isinstance(text, str) or len(text) > DISPLAY_WIDTH:
        raise DisplayStateError(f"display text {text!r} is longer than {DISPLAY_WIDTH}")
    bad = set(text) - SEGMENT_CHARS
    if bad:
        raise DisplayStateError(f"display text {text!r}: 7 segments cannot show {sorted(bad)}")


@dataclass(frozen=True, slots=True)
class TableDisplay:
    """Everything the table's outputs show at one moment.

    `seats`: one light per seat (1..6). `displays`: the two team displays, text of at
    most 4 characters each (right-aligned by the hardware). `trump`: one of C D H S, or
    None for no trump. `buzz_id` counts buzzer requests: the buzzer sounds `buzz` once
    each time `buzz_id` changes, so resending the same state never beeps twice.
    """

    seats: tuple[SeatLight, ...] = field(default_factory=lambda: (SeatLight(),) * 4)
    displays: tuple[str, str] = ("", "")
    trump: str | None = None
    status: Status = Status.READY
    buzz: Buzz = Buzz.NONE
    buzz_id: int = 0

    def __post_init__(self) -> None:
        if not 1 <= len(self.seats) <= MAX_SEATS:
            raise DisplayStateError(f"{len(self.seats)} seats: the table has 1..{MAX_SEATS}")
        if len(self.displays) != 2:
            raise DisplayStateError(f"two team displays expected, got {len(self.displays)}")
        for text in self.displays:
            _check_display_text(text)
        if self.trump is not None and self.trump not in TRUMP_SUITS:
            raise DisplayStateError(f"trump {self.trump!r} is not one of {TRUMP_SUITS}")
        if not isinstance(self.buzz_id, int) or not 0 <= self.buzz_id <= 0xFFFF:
            raise DisplayStateError(f"buzz_id {self.buzz_id!r} is not 0..65535")

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": [s.to_json() for s in self.seats],
            "displays": list(self.displays),
            "trump": self.trump,
            "status": self.status.value,
            "buzz": self.buzz.value,
            "buzz_id": self.buzz_id,
        }

    @classmethod
    def from_json(cls, data: Any) -> TableDisplay:
        if not isinstance(data, dict):
            raise DisplayStateError(f"table display must be an object, got {type(data).__name__}")
        try:
            return cls(
                seats=tuple(SeatLight.from_json(s) for s in data["seats"]),
                displays=tuple(data["displays"]),  # type: ignore[arg-type]
                trump=data.get("trump"),
                status=Status(data.get("status", "ready")),
                buzz=Buzz(data.get("buzz", "none")),
                buzz_id=data.get("buzz_id", 0),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, DisplayStateError):
                raise
            raise DisplayStateError(f"bad table display: {exc}") from exc
