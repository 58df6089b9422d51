"""Benchmark of hardware/: GPIO show() cost, button latency and the terminal drawing.

All on gpiozero's mock pins (this is not a Pi), so the figures are the Python cost
of cardtable's own layer plus gpiozero's, not the time for a real pin to toggle.
Each figure is the median (and p99) over many calls, repeated over 3 rounds.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from hardware.backends import mock_pin_factory
from hardware.buttons import ButtonPanel
from hardware.config import GpioConfig
from hardware.display_state import Buzz, LedMode, Rgb, SeatLight, Status, TableDisplay
from hardware.outputs import GpioTableOutputs
from hardware.terminal import render_table

ROUNDS = 3


def random_display(rng: random.Random, buzz_id: int) -> TableDisplay:
    seats = tuple(
        SeatLight(rng.choice(list(LedMode)), Rgb(*(rng.randrange(256) for _ in range(3))))
        for _ in range(4)
    )
    return TableDisplay(
        seats=seats,
        displays=(str(rng.randrange(100)), str(rng.randrange(10))),
        trump=rng.choice([None, "C", "D", "H", "S"]),
        status=rng.choice(list(Status)),
        buzz=rng.choice(list(Buzz)),
        buzz_id=buzz_id,
    )


def _timed(calls: int, call: Callable[[int], object]) -> list[float]:
    samples = []
    for index in range(calls):
        start = time.perf_counter()
        call(index)
        samples.append(time.perf_counter() - start)
    return samples


def _summary(rounds: list[list[float]]) -> tuple[float, float]:
    """Median over rounds of each round's median and p99, in microseconds."""
    medians = [statistics.median(r) for r in rounds]
    p99s = [sorted(r)[int(len(r) * 0.99) - 1] for r in rounds]
    return statistics.median(medians) * 1e6, statistics.median(p99s) * 1e6


def bench_show_changing() -> list[float]:
    factory = mock_pin_factory()
    rng = random.Random(1)
    displays = [random_display(rng, i) for i in range(300)]
    with GpioTableOutputs(GpioConfig.default(), pin_factory=factory) as out:
        samples = _timed(len(displays), lambda i: out.show(displays[i]))
    factory.close()
    return samples


def bench_show_repeated() -> list[float]:
    factory = mock_pin_factory()
    display = random_display(random.Random(2), 1)
    with GpioTableOutputs(GpioConfig.default(), pin_factory=factory) as out:
        out.show(display)
        samples = _timed(2000, lambda i: out.show(display))
    factory.close()
    return samples


def bench_button_latency() -> list[float]:
    """From the contact opening (mock edge) to the PRESS being readable from the queue."""
    factory = mock_pin_factory()
    config = GpioConfig.from_dict({"seats": [{"button": 5}], "bounce_time": 0.0})
    samples = []
    with ButtonPanel(config, pin_factory=factory) as panel:
        pin = factory.pin(5)
        for _ in range(300):
            pin.drive_low()
            start = time.perf_counter()
            pin.drive_high()
            panel.get(timeout=1)
            samples.append(time.perf_counter() - start)
    factory.close()
    return samples


def bench_render(color: bool) -> list[float]:
    rng = random.Random(3)
    displays = [random_display(rng, i) for i in range(500)]
    names = ["Anna", "Boris", "Vera", "Dima"]
    return _timed(
        len(displays), lambda i: render_table(displays[i], seat_names=names, color=color)
    )


def main() -> None:
    rows = [
        ("GpioTableOutputs.show, new state each call", bench_show_changing),
        ("GpioTableOutputs.show, same state resent", bench_show_repeated),
        ("button release -> PRESS on the queue", bench_button_latency),
        ("render_table, plain text", lambda: bench_render(False)),
        ("render_table, ANSI colour", lambda: bench_render(True)),
    ]
    print(f"{'hardware (gpiozero mock pins)':<46} {'median us':>10} {'p99 us':>10} {'per s':>9}")
    for label, run in rows:
        median, p99 = _summary([run() for _ in range(ROUNDS)])
        print(f"{label:<46} {median:>10.1f} {p99:>10.1f} {1e6 / median:>9.0f}")


if __name__ == "__main__":
    main()
