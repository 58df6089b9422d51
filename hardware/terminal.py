"""A `TableDisplay` drawn as text: the table's lights for a terminal (`make demo`).

`render_table` returns a small drawing of the table: the seats around it (clockwise
from the top left, each with its LED), the two team displays as 4-character boxes,
the trump suit and the status LED, and a legend line with the buzzer. With
`color=True` each LED is a dot in its own colour (24-bit ANSI), blinking LEDs use the
terminal's blink attribute; with `color=False` the output holds no escape codes and a
LED is the letter of its nearest colour (R G B Y C M W O P). In both, a mark after the
LED says how it is lit, so a snapshot still shows it: `*` blinking, `~` pulsing, and
an unlit LED is `.`.

Example (color=False):

    >>> from hardware.display_state import LedMode, Rgb, SeatLight, TableDisplay
    >>> lit = SeatLight(LedMode.BLINK, Rgb(255, 0, 0))
    >>> print(render_table(TableDisplay(seats=(lit, SeatLight()), trump="S"), color=False))
                      seat 0 [R*]
      ┌──────────────────────────────────────────┐
      │   team 0                        team 1   │
      │   ┌────┐         trump          ┌────┐   │
      │   │    │        ♠ spades        │    │   │
      │   └────┘                        └────┘   │
      │              status: ready               │
      └──────────────────────────────────────────┘
                       seat 1 [.]
      LED: letter = colour, * blinking, ~ pulsing, . off
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hardware.display_state import (
    DISPLAY_WIDTH,
    Buzz,
    LedMode,
    Rgb,
    SeatLight,
    Status,
    TableDisplay,
)

INNER_WIDTH = 42  #: characters between the table's left and right edges
MARGIN = "  "
NAME_WIDTH = 10  #: longer seat names are cut to this

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_RESET = "\x1b[0m"
_BLINK = "\x1b[5m"
_BOLD = "\x1b[1m"
_SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
#: The letters a LED's colour is named by without colour, and the colour each stands for.
_NAMED_COLOURS = {
    "R": (255, 0, 0),
    "G": (0, 255, 0),
    "B": (0, 0, 255),
    "Y": (255, 255, 0),
    "C": (0, 255, 255),
    "M": (255, 0, 255),
    "W": (255, 255, 255),
    "O": (255, 128, 0),
    "P": (128, 0, 255),
}
_MODE_MARKS = {LedMode.OFF: "", LedMode.ON: "", LedMode.BLINK: "*", LedMode.PULSE: "~"}
_STATUS_LOOK = {  # text, mark (how the status LED is lit), colour
    Status.READY: ("ready", "", (0, 200, 0)),
    Status.WATCHING: ("watching", "~", (60, 120, 255)),
    Status.NO_TABLE: ("cannot see the table", "*", (255, 200, 0)),
    Status.LINK_LOST: ("LINK LOST", "*", (255, 0, 0)),
}


def render_table(
    display: TableDisplay,
    *,
    seat_names: Sequence[str] | None = None,
    color: bool = True,
) -> str:
    """The table's lights as a multi-line string (no trailing newline).

    `seat_names[i]` names seat i, numbered from 0 like the records (missing or empty
    names read "seat N").
    With `color=False` the result is plain text without any escape sequence.
    """
    seats = [
        _seat_label(number, _name(seat_names, number), light, color)
        for number, light in enumerate(display.seats)
    ]
    half = (len(seats) + 1) // 2
    top, bottom = seats[:half], seats[half:][::-1]  # clockwise around the table
    team_a, team_b = (_segments(text, color) for text in display.displays)
    inside = [
        _columns(["team 0", "", "team 1"]),
        _columns([team_a[0], "trump", team_b[0]]),
        _columns([team_a[1], _trump(display.trump, color), team_b[1]]),
        _columns([team_a[2], "", team_b[2]]),
        _centre(_status(display.status, color), INNER_WIDTH),
    ]
    lines = [MARGIN + _columns(top, INNER_WIDTH + 2)]
    lines.append(MARGIN + "┌" + "─" * INNER_WIDTH + "┐")
    lines += [MARGIN + "│" + row + "│" for row in inside]
    lines.append(MARGIN + "└" + "─" * INNER_WIDTH + "┘")
    if bottom:
        lines.append(MARGIN + _columns(bottom, INNER_WIDTH + 2))
    legend = "LED: letter = colour, " if not color else "LED: "
    legend += "* blinking, ~ pulsing, . off"
    if display.buzz is not Buzz.NONE:
        legend += f"   buzzer: {display.buzz.value} (#{display.buzz_id})"
    lines.append(MARGIN + legend)
    return "\n".join(line.rstrip() for line in lines)


def led_token(light: SeatLight, *, color: bool) -> str:
    """One LED as `[R*]`-style text: colour (dot or letter) and how it is lit."""
    if light.mode is LedMode.OFF or light.colour == Rgb(0, 0, 0):
        return "[.]"
    mark = _MODE_MARKS[light.mode]
    if not color:
        return f"[{colour_letter(light.colour)}{mark}]"
    c = light.colour
    blink = _BLINK if light.mode is LedMode.BLINK else ""
    return f"[{blink}\x1b[38;2;{c.r};{c.g};{c.b}m●{mark}{_RESET}]"


def colour_letter(colour: Rgb) -> str:
    """The letter of the named colour nearest `colour`, brightness aside.

    A dim red (64, 0, 0) is still "R": the channels are scaled so the brightest is
    255 before comparing, as a player would name the hue, not the intensity.
    """
    peak = max(colour.r, colour.g, colour.b)
    if peak == 0:
        return "."
    scaled = (colour.r * 255 / peak, colour.g * 255 / peak, colour.b * 255 / peak)
    return min(
        _NAMED_COLOURS,
        key=lambda k: sum((a - b) ** 2 for a, b in zip(scaled, _NAMED_COLOURS[k])),
    )


def visible_width(text: str) -> int:
    """Width of `text` on screen: its length without ANSI escape sequences."""
    return len(_ANSI.sub("", text))


def _name(seat_names: Sequence[str] | None, number: int) -> str:
    if seat_names is not None and number < len(seat_names) and seat_names[number]:
        return f"{number} {seat_names[number][:NAME_WIDTH]}"
    return f"seat {number}"


def _seat_label(number: int, name: str, light: SeatLight, color: bool) -> str:
    return f"{name} {led_token(light, color=color)}"


def _segments(text: str, color: bool) -> tuple[str, str, str]:
    """A 4-digit display as a three-line box, its text right-aligned like the hardware."""
    digits = f"{text:>{DISPLAY_WIDTH}}"
    if color:
        digits = f"{_BOLD}\x1b[38;2;255;40;40m{digits}{_RESET}"
    return ("┌" + "─" * DISPLAY_WIDTH + "┐", "│" + digits + "│", "└" + "─" * DISPLAY_WIDTH + "┘")


def _trump(suit: str | None, color: bool) -> str:
    if suit is None:
        return "-"
    symbol = _SUIT_SYMBOLS[suit]
    if color and suit in "HD":
        symbol = f"\x1b[38;2;255;0;0m{symbol}{_RESET}"
    return f"{symbol} {_SUIT_NAMES[suit]}"


def _status(status: Status, color: bool) -> str:
    text, mark, (r, g, b) = _STATUS_LOOK[status]
    if color:
        blink = _BLINK if mark == "*" else ""
        return f"status: {blink}\x1b[38;2;{r};{g};{b}m●{mark} {text}{_RESET}"
    return f"status: {text} {mark}".rstrip()


def _centre(text: str, width: int) -> str:
    pad = max(width - visible_width(text), 0)
    return " " * (pad // 2) + text + " " * (pad - pad // 2)


def _columns(cells: Sequence[str], width: int = INNER_WIDTH) -> str:
    """`cells` centred in equal columns across `width` (outer columns hug the edges)."""
    if not cells:
        return " " * width
    if len(cells) == 3 and width == INNER_WIDTH:  # team | middle | team rows
        side = 12
        return _centre(cells[0], side) + _centre(cells[1], width - 2 * side) + _centre(
            cells[2], side
        )
    column = width // len(cells)
    row = "".join(_centre(cell, column) for cell in cells)
    return row + " " * (width - visible_width(row))
