"""`cardtable gpio-test`: walk every GPIO light and the buzzer, then print button presses.

It checks the wiring when the table is built: each seat LED shows red, green, blue,
a blink and a pulse in turn, then each trump LED, each status mode and one beep,
while the step being shown is printed (with the terminal drawing unless `--quiet`).
Then it listens for `--listen` seconds and prints each button event as a JSON line.
On a machine without GPIO use `--backend mock`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hardware.config import GpioConfig
from hardware.display_state import TRUMP_SUITS, Buzz, LedMode, Rgb, SeatLight, Status, TableDisplay
from hardware.errors import HardwareError
from hardware.table import GpioTable
from hardware.terminal import render_table

_COLOURS = (("red", Rgb(255, 0, 0)), ("green", Rgb(0, 255, 0)), ("blue", Rgb(0, 0, 255)))


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    test = subparsers.add_parser(
        "gpio-test", help="light every GPIO LED in turn, beep, then print button presses"
    )
    test.add_argument("--backend", choices=("lgpio", "rpigpio", "mock"),
                      help="GPIO backend (default: $CARDTABLE_GPIO_BACKEND, else the first "
                           "that loads of lgpio, rpigpio, mock)")
    test.add_argument("--config", type=Path, metavar="FILE",
                      help="pin map as JSON or TOML (a [gpio] table or the top level); "
                           "default: the wiring table of hardware/README.md")
    test.add_argument("--step", type=float, default=0.8, metavar="SECONDS",
                      help="how long each step is shown (default 0.8)")
    test.add_argument("--listen", type=float, default=10.0, metavar="SECONDS",
                      help="how long to print button events afterwards (default 10)")
    test.add_argument("--quiet", action="store_true", help="no table drawing, step names only")
    test.add_argument("--no-color", action="store_true", help="plain-text table drawing")
    test.set_defaults(func=run_gpio_test)


def load_config(path: Path | None) -> GpioConfig:
    """The pin map in `path` (JSON or TOML, optionally under a `gpio` key), or the default.

    Raises:
        ConfigError: the file's content is no valid pin map (including `PinConflict`).
        OSError, ValueError: the file cannot be read or parsed.
    """
    if path is None:
        return GpioConfig.default()
    text = path.read_text(encoding="utf-8")
    data: Any = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    if isinstance(data, dict) and "gpio" in data:
        data = data["gpio"]
    return GpioConfig.from_dict(data)


def walkthrough(config: GpioConfig) -> Iterator[tuple[str, TableDisplay]]:
    """(what to look for, the display that shows it) for every light and the buzzer."""
    count = len(config.seats)
    off = SeatLight()
    for seat in range(count):
        looks = [(name, SeatLight(LedMode.ON, rgb)) for name, rgb in _COLOURS]
        looks += [
            ("blinking white", SeatLight(LedMode.BLINK, Rgb(255, 255, 255))),
            ("pulsing white", SeatLight(LedMode.PULSE, Rgb(255, 255, 255))),
        ]
        for name, light in looks:
            seats = tuple(light if i == seat else off for i in range(count))
            yield f"seat {seat} {name}", TableDisplay(seats=seats)
    blank = (off,) * count
    for suit in TRUMP_SUITS:
        yield f"trump LED {suit}", TableDisplay(seats=blank, trump=suit)
    for status in Status:
        yield f"status {status.value}", TableDisplay(seats=blank, status=status)
    yield "buzzer short beep", TableDisplay(seats=blank, buzz=Buzz.SHORT, buzz_id=1)
    yield "all off", TableDisplay(seats=blank, buzz_id=1)


def run_gpio_test(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config)
    except (OSError, ValueError) as exc:  # ConfigError is a ValueError
        print(f"gpio-test: {exc}", file=sys.stderr)
        return 2
    try:
        table = GpioTable(config, backend=args.backend)
    except HardwareError as exc:
        print(f"gpio-test: {exc}", file=sys.stderr)
        return 2
    with table:
        print(f"gpio-test: {table!r}", flush=True)
        steps = list(walkthrough(config))
        for number, (label, display) in enumerate(steps, start=1):
            table.show(display)
            print(f"step {number}/{len(steps)}: {label}", flush=True)
            if not args.quiet:
                print(render_table(display, color=not args.no_color), flush=True)
            time.sleep(args.step)
        print(f"listening for buttons for {args.listen:g} s", flush=True)
        deadline = time.monotonic() + args.listen
        while (left := deadline - time.monotonic()) > 0:
            event = table.get_event(timeout=min(left, 0.2))
            if event is not None:
                record = {"button": event.button, "kind": event.kind.value,
                          "seat": event.seat, "t": round(event.t, 3)}
                print(json.dumps(record), flush=True)
    return 0
