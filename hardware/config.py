"""Which GPIO pin does which job: `GpioConfig`, parsed from a plain dict (TOML/JSON).

Pins are BCM GPIO numbers (the "GPIO17" names, not physical header positions). The
config is checked when it is built, not when a device is first touched, so a wiring
mistake (a pin given two jobs, a number that is no GPIO) is reported once, at start-up,
with both uses named. `GpioConfig.default()` is the wiring table in hardware/README.md.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from hardware.display_state import MAX_SEATS, TRUMP_SUITS
from hardware.errors import ConfigError, InvalidPin, PinConflict

#: BCM numbers of the GPIOs on the 40-pin header of every Pi since the B+.
GPIO_PINS = range(0, 28)
#: The non-seat buttons, by the name their `ButtonEvent.button` carries.
COMMAND_BUTTONS = ("confirm", "undo", "new_game")
_RGB = ("red", "green", "blue")
_SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def seat_button_name(seat: int) -> str:
    """The `ButtonEvent.button` name of the button at `seat` (0-based, as in records): "seat3"."""
    return f"seat{seat}"


@dataclass(frozen=True, slots=True)
class RgbPins:
    """The three legs of one RGB LED."""

    red: int
    green: int
    blue: int

    def to_dict(self) -> dict[str, int]:
        return {"red": self.red, "green": self.green, "blue": self.blue}


@dataclass(frozen=True, slots=True)
class SeatPins:
    """What is wired at one seat: its RGB LED and its button (either may be absent)."""

    led: RgbPins | None = None
    button: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"led": None if self.led is None else self.led.to_dict(), "button": self.button}


@dataclass(frozen=True, slots=True)
class TrumpPins:
    """The four trump-suit LEDs, one per suit (any may be absent)."""

    clubs: int | None = None
    diamonds: int | None = None
    hearts: int | None = None
    spades: int | None = None

    def pin_for(self, suit: str) -> int | None:
        """The pin of `suit`'s LED, `suit` being one of C D H S."""
        return getattr(self, _SUIT_NAMES[suit])  # type: ignore[no-any-return]

    def to_dict(self) -> dict[str, int | None]:
        return {suit: self.pin_for(suit) for suit in TRUMP_SUITS}


@dataclass(frozen=True, slots=True)
class GpioConfig:
    """Every GPIO job at the table, checked for invalid and doubly used pins.

    `None` means "not wired". The team 7-segment displays are not here: they hang
    off the microcontroller (firmware_bridge/), never off the Pi's GPIO.
    `bounce_time` and `hold_time` are in seconds; a press held `hold_time` is a long
    press. `led_active_high` is True for common-cathode RGB LEDs (pin high = lit).

    Raises:
        InvalidPin: a pin number outside BCM 0..27.
        PinConflict: one pin given two jobs.
        ConfigError: a bad seat count or time.
    """

    seats: tuple[SeatPins, ...]
    trump: TrumpPins = TrumpPins()
    status_led: int | None = None
    buzzer: int | None = None
    confirm: int | None = None
    undo: int | None = None
    new_game: int | None = None
    bounce_time: float = 0.05
    hold_time: float = 1.0
    led_active_high: bool = True

    def __post_init__(self) -> None:
        if not 1 <= len(self.seats) <= MAX_SEATS:
            raise ConfigError("seats", f"{len(self.seats)} seats; the table has 1..{MAX_SEATS}")
        for name in ("bounce_time", "hold_time"):
            value = getattr(self, name)
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not math.isfinite(value)
                or value < 0
            ):
                raise ConfigError(name, f"{value!r} is not a time in seconds >= 0")
        if self.hold_time <= self.bounce_time:
            raise ConfigError(
                "hold_time",
                f"{self.hold_time} s must be longer than bounce_time {self.bounce_time} s",
            )
        first_use: dict[int, str] = {}
        for pin, use in self.pin_uses():
            if isinstance(pin, bool) or not isinstance(pin, int) or pin not in GPIO_PINS:
                raise InvalidPin(pin, use)
            if pin in first_use:
                raise PinConflict(pin, first_use[pin], use)
            first_use[pin] = use

    def pin_uses(self) -> Iterator[tuple[int, str]]:
        """Every wired pin with a human name for its job, in config order."""
        for number, seat in enumerate(self.seats):
            if seat.led is not None:
                yield seat.led.red, f"seat {number} LED red"
                yield seat.led.green, f"seat {number} LED green"
                yield seat.led.blue, f"seat {number} LED blue"
            if seat.button is not None:
                yield seat.button, f"seat {number} button"
        for suit in TRUMP_SUITS:
            pin = self.trump.pin_for(suit)
            if pin is not None:
                yield pin, f"trump {_SUIT_NAMES[suit]} LED"
        if self.status_led is not None:
            yield self.status_led, "status LED"
        if self.buzzer is not None:
            yield self.buzzer, "buzzer"
        for name in COMMAND_BUTTONS:
            pin = getattr(self, name)
            if pin is not None:
                yield pin, f"{name} button"

    def buttons(self) -> Iterator[tuple[str, int, int | None]]:
        """Each wired button as (event name, pin, seat or None)."""
        for name in COMMAND_BUTTONS:
            pin = getattr(self, name)
            if pin is not None:
                yield name, pin, None
        for number, seat in enumerate(self.seats):
            if seat.button is not None:
                yield seat_button_name(number), seat.button, number

    @classmethod
    def default(cls) -> GpioConfig:
        """The four-seat wiring of hardware/README.md (BCM numbers)."""
        return cls.from_dict(DEFAULT_CONFIG)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GpioConfig:
        """Build a config from its dict form (as `to_dict` writes it, or TOML/JSON).

        Raises:
            ConfigError: an unknown key, a missing `seats`, or a value of the wrong shape.
            InvalidPin: a pin outside BCM 0..27.
            PinConflict: one pin given two jobs.
        """
        _only_keys(data, "config", set(_TOP_KEYS))
        if "seats" not in data:
            raise ConfigError("seats", "missing: list one entry per seat")
        seats_data = data["seats"]
        if not isinstance(seats_data, (list, tuple)):
            raise ConfigError("seats", f"must be a list of seats, got {seats_data!r}")
        seats = tuple(_seat_from(s, n) for n, s in enumerate(seats_data))
        trump_data = data.get("trump") or {}
        _only_keys(trump_data, "trump", set(TRUMP_SUITS))
        trump = TrumpPins(
            **{
                _SUIT_NAMES[s]: _pin(trump_data.get(s), f"trump {_SUIT_NAMES[s]} LED")
                for s in TRUMP_SUITS
            }
        )
        buttons_data = data.get("buttons") or {}
        _only_keys(buttons_data, "buttons", set(COMMAND_BUTTONS))
        options: dict[str, Any] = {
            k: data[k] for k in ("bounce_time", "hold_time", "led_active_high") if k in data
        }
        if not isinstance(options.get("led_active_high", True), bool):
            raise ConfigError("led_active_high", "must be true or false")
        return cls(
            seats=seats,
            trump=trump,
            status_led=_pin(data.get("status_led"), "status LED"),
            buzzer=_pin(data.get("buzzer"), "buzzer"),
            confirm=_pin(buttons_data.get("confirm"), "confirm button"),
            undo=_pin(buttons_data.get("undo"), "undo button"),
            new_game=_pin(buttons_data.get("new_game"), "new_game button"),
            **options,
        )

    def to_dict(self) -> dict[str, Any]:
        """The dict form `from_dict` reads back to an equal config."""
        return {
            "seats": [seat.to_dict() for seat in self.seats],
            "trump": self.trump.to_dict(),
            "status_led": self.status_led,
            "buzzer": self.buzzer,
            "buttons": {name: getattr(self, name) for name in COMMAND_BUTTONS},
            "bounce_time": self.bounce_time,
            "hold_time": self.hold_time,
            "led_active_high": self.led_active_high,
        }


_TOP_KEYS = (
    "seats", "trump", "status_led", "buzzer", "buttons",
    "bounce_time", "hold_time", "led_active_high",
)  # fmt: skip


def _only_keys(data: Any, where: str, allowed: set[str]) -> None:
    if not isinstance(data, Mapping):
        raise ConfigError(where, f"must be a table/object, got {data!r}")
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ConfigError(where, f"unknown keys {unknown}; expected some of {sorted(allowed)}")


def _pin(value: Any, use: str) -> int | None:
    """A pin number or None; the range is checked by `GpioConfig.__post_init__`."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidPin(value, use)
    return value


def _seat_from(data: Any, number: int) -> SeatPins:
    where = f"seats[{number}]"
    _only_keys(data, where, {"led", "button"})
    led_data = data.get("led")
    led: RgbPins | None
    if led_data is None:
        led = None
    elif isinstance(led_data, (list, tuple)) and len(led_data) == 3:
        pins = [_pin(v, f"seat {number} LED {c}") for v, c in zip(led_data, _RGB)]
        led = RgbPins(*pins)  # type: ignore[arg-type]
    elif isinstance(led_data, Mapping):
        _only_keys(led_data, f"{where}.led", set(_RGB))
        missing = set(_RGB) - set(led_data)
        if missing:
            raise ConfigError(f"{where}.led", f"missing {sorted(missing)}")
        pins = [_pin(led_data[c], f"seat {number} LED {c}") for c in _RGB]
        led = RgbPins(*pins)  # type: ignore[arg-type]
    else:
        raise ConfigError(f"{where}.led", f"must be [red, green, blue] pins, got {led_data!r}")
    if led is not None and None in (led.red, led.green, led.blue):
        raise ConfigError(f"{where}.led", "an RGB LED needs all three pins")
    return SeatPins(led=led, button=_pin(data.get("button"), f"seat {number} button"))


#: The wiring table of hardware/README.md, in the dict form of `GpioConfig.from_dict`.
DEFAULT_CONFIG: dict[str, Any] = {
    "seats": [
        {"led": {"red": 4, "green": 17, "blue": 27}, "button": 5},
        {"led": {"red": 22, "green": 10, "blue": 9}, "button": 6},
        {"led": {"red": 11, "green": 8, "blue": 7}, "button": 2},
        {"led": {"red": 14, "green": 15, "blue": 26}, "button": 3},
    ],
    "trump": {"C": 12, "D": 16, "H": 20, "S": 21},
    "status_led": 13,
    "buzzer": 18,
    "buttons": {"confirm": 23, "undo": 24, "new_game": 25},
    "bounce_time": 0.05,
    "hold_time": 1.0,
    "led_active_high": True,
}
