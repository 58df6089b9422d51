"""render_table: what the terminal drawing of the table's lights contains."""

from __future__ import annotations

import doctest
import re

import pytest

import hardware.terminal
from hardware.display_state import Buzz, LedMode, Rgb, SeatLight, Status, TableDisplay
from hardware.terminal import colour_letter, led_token, render_table, visible_width

RED_BLINK = SeatLight(LedMode.BLINK, Rgb(255, 0, 0))
GREEN_ON = SeatLight(LedMode.ON, Rgb(0, 200, 0))
BLUE_PULSE = SeatLight(LedMode.PULSE, Rgb(0, 0, 255))
GAME = TableDisplay(
    seats=(RED_BLINK, GREEN_ON, BLUE_PULSE, SeatLight()),
    displays=("12", "3"),
    trump="H",
    status=Status.WATCHING,
    buzz=Buzz.SHORT,
    buzz_id=3,
)
NAMES = ["Anna", "Boris", "Vera", "Dima"]


def test_module_example_is_exact() -> None:
    assert doctest.testmod(hardware.terminal).failed == 0


def test_plain_text_has_no_escape_codes_and_shows_everything() -> None:
    text = render_table(GAME, seat_names=NAMES, color=False)
    assert "\x1b" not in text
    for expected in ("0 Anna [R*]", "1 Boris [G]", "2 Vera [B~]", "3 Dima [.]"):
        assert expected in text
    assert "│  12│" in text and "│   3│" in text  # right-aligned like the 7-segment digits
    assert "♥ hearts" in text
    assert "status: watching ~" in text
    assert "buzzer: short (#3)" in text


def test_seats_go_clockwise_round_the_table() -> None:
    text = render_table(TableDisplay(seats=(GREEN_ON,) * 6), color=False)
    lines = text.splitlines()
    top, bottom = lines[0], lines[-2]
    assert re.findall(r"seat (\d)", top) == ["0", "1", "2"]
    assert re.findall(r"seat (\d)", bottom) == ["5", "4", "3"]


def test_table_edges_line_up_in_both_modes() -> None:
    for color in (False, True):
        lines = render_table(GAME, seat_names=NAMES, color=color).splitlines()
        box = lines[1 : lines.index(next(x for x in lines if "└" in x)) + 1]
        assert len({visible_width(line) for line in box}) == 1, box


def test_colour_mode_draws_each_led_in_its_colour() -> None:
    text = render_table(GAME, seat_names=NAMES, color=True)
    assert "\x1b[38;2;255;0;0m●*" in text  # seat 1 red, blinking
    assert "\x1b[38;2;0;200;0m●\x1b[0m" in text  # seat 2 green, steady
    assert "\x1b[38;2;0;0;255m●~" in text  # seat 3 blue, pulsing
    assert "3 Dima [.]" in text
    assert re.sub(r"\x1b\[[0-9;]*m", "", text).count("●") == 4  # three seats + status


def test_only_blinking_leds_use_the_terminal_blink_attribute() -> None:
    assert "\x1b[5m" in led_token(RED_BLINK, color=True)
    assert "\x1b[5m" not in led_token(GREEN_ON, color=True)
    assert "\x1b[5m" not in led_token(BLUE_PULSE, color=True)


@pytest.mark.parametrize(
    ("status", "plain"),
    [
        (Status.READY, "status: ready"),
        (Status.WATCHING, "status: watching ~"),
        (Status.NO_TABLE, "status: cannot see the table *"),
        (Status.LINK_LOST, "status: LINK LOST *"),
    ],
)
def test_every_status_reads_differently(status: Status, plain: str) -> None:
    assert plain in render_table(TableDisplay(status=status), color=False)


def test_no_trump_and_no_buzz() -> None:
    text = render_table(TableDisplay(), color=False)
    assert not any(s in text for s in "♣♦♥♠") and "buzzer" not in text


@pytest.mark.parametrize(
    ("rgb", "letter"),
    [((255, 0, 0), "R"), ((64, 0, 0), "R"), ((255, 140, 0), "O"), ((200, 200, 200), "W"),
     ((0, 128, 128), "C"), ((255, 0, 200), "M"), ((0, 0, 0), ".")],
)  # fmt: skip
def test_colour_letters(rgb: tuple[int, int, int], letter: str) -> None:
    assert colour_letter(Rgb(*rgb)) == letter


def test_lit_black_is_drawn_off() -> None:
    assert led_token(SeatLight(LedMode.ON, Rgb(0, 0, 0)), color=False) == "[.]"
    assert led_token(SeatLight(LedMode.OFF, Rgb(255, 0, 0)), color=True) == "[.]"


def test_missing_and_long_seat_names() -> None:
    text = render_table(GAME, seat_names=["Alexandrina-Maria", ""], color=False)
    assert "0 Alexandrin [R*]" in text and "seat 1 [G]" in text and "seat 2 [" in text
