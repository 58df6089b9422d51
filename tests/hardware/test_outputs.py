"""GpioTableOutputs on gpiozero's mock pins: every output, idempotence, lifecycle.

Assertions read the mock pins (`pin.state`, and `pin.states`, the timestamped list of
every change), i.e. what a real LED or buzzer would have seen. Blink and pulse
timings are shortened so the background threads show several periods quickly.
"""

from __future__ import annotations

import dataclasses
import statistics
import time

import pytest
from gpiozero import LED, RGBLED
from gpiozero.exc import GPIOPinInUse

from hardware.config import GpioConfig
from hardware.display_state import Buzz, LedMode, Rgb, SeatLight, Status, TableDisplay
from hardware.errors import DeviceClosed
from hardware.outputs import GpioTableOutputs, LightTimings

FAST = LightTimings(
    blink=0.02, pulse_fade=0.08, status_fast=0.01, status_slow=0.1,
    beep_short=0.02, beep_long=0.04, alarm_on=0.01, alarm_off=0.01, alarm_count=3,
)  # fmt: skip
CONFIG = GpioConfig.default()
SEAT_PINS = [(s.led.red, s.led.green, s.led.blue) for s in CONFIG.seats]  # type: ignore[union-attr]
TRUMP_PINS = {"C": 12, "D": 16, "H": 20, "S": 21}
STATUS_PIN, BUZZER_PIN = 13, 18
OFF = SeatLight()


def table(*lights: SeatLight, **fields) -> TableDisplay:
    seats = lights + (OFF,) * (4 - len(lights))
    return TableDisplay(seats=seats, **fields)


def states(factory, pin: int) -> list[float]:
    return [s.state for s in factory.pin(pin).states]


@pytest.fixture
def outputs(mock_factory):
    with GpioTableOutputs(CONFIG, pin_factory=mock_factory, timings=FAST) as out:
        yield out


def test_seat_on_shows_the_colour_as_pwm_duty(outputs, mock_factory) -> None:
    outputs.show(table(OFF, SeatLight(LedMode.ON, Rgb(255, 128, 0))))
    red, green, blue = (mock_factory.pin(p).state for p in SEAT_PINS[1])
    assert (red, round(green, 3), blue) == (1.0, round(128 / 255, 3), 0.0)
    assert all(mock_factory.pin(p).state == 0 for p in SEAT_PINS[0])


def test_seat_off_after_on(outputs, mock_factory) -> None:
    outputs.show(table(SeatLight(LedMode.ON, Rgb(0, 0, 255))))
    assert mock_factory.pin(SEAT_PINS[0][2]).state == 1.0
    outputs.show(table(SeatLight(LedMode.OFF, Rgb(0, 0, 255))))
    assert [mock_factory.pin(p).state for p in SEAT_PINS[0]] == [0, 0, 0]


def test_common_anode_leds_are_driven_low_to_light(mock_factory) -> None:
    config = dataclasses.replace(CONFIG, led_active_high=False)
    with GpioTableOutputs(config, pin_factory=mock_factory, timings=FAST) as out:
        out.show(table(SeatLight(LedMode.ON, Rgb(255, 0, 0)), trump="C"))
        assert [mock_factory.pin(p).state for p in SEAT_PINS[0]] == [0.0, 1.0, 1.0]
        assert mock_factory.pin(TRUMP_PINS["C"]).state == 0


def test_seat_blink_toggles_the_colour_legs_only(outputs, mock_factory, wait_until) -> None:
    red, green, blue = SEAT_PINS[2]
    outputs.show(table(OFF, OFF, SeatLight(LedMode.BLINK, Rgb(0, 255, 0))))
    assert wait_until(lambda: len(states(mock_factory, green)) >= 6)
    seen = states(mock_factory, green)
    assert set(seen) == {0.0, 1.0}
    assert all(a != b for a, b in zip(seen, seen[1:]))  # strictly alternating
    assert states(mock_factory, red) == [0] and states(mock_factory, blue) == [0]


def test_seat_pulse_fades_through_intermediate_levels(outputs, mock_factory, wait_until) -> None:
    blue = SEAT_PINS[3][2]
    outputs.show(table(OFF, OFF, OFF, SeatLight(LedMode.PULSE, Rgb(0, 0, 255))))
    seen = lambda: states(mock_factory, blue)  # noqa: E731
    assert wait_until(lambda: 1.0 in seen() and seen()[-1] == 0)
    assert any(0 < v < 1 for v in states(mock_factory, blue))


def test_blink_stops_when_the_seat_turns_steady(outputs, mock_factory, wait_until) -> None:
    red = SEAT_PINS[0][0]
    outputs.show(table(SeatLight(LedMode.BLINK, Rgb(255, 0, 0))))
    assert wait_until(lambda: len(states(mock_factory, red)) >= 4)
    outputs.show(table(SeatLight(LedMode.ON, Rgb(255, 0, 0))))
    settled = len(states(mock_factory, red))
    time.sleep(5 * FAST.blink)
    assert len(states(mock_factory, red)) == settled
    assert mock_factory.pin(red).state == 1.0


def test_seats_beyond_the_wired_ones_are_ignored_and_missing_ones_are_off(
    outputs, mock_factory
) -> None:
    lit = SeatLight(LedMode.ON, Rgb(255, 255, 255))
    outputs.show(TableDisplay(seats=(lit,) * 6))
    assert all(mock_factory.pin(p).state == 1.0 for pins in SEAT_PINS for p in pins)
    outputs.show(TableDisplay(seats=(lit, lit)))
    assert all(mock_factory.pin(p).state == 0 for pins in SEAT_PINS[2:] for p in pins)
    assert all(mock_factory.pin(p).state == 1.0 for pins in SEAT_PINS[:2] for p in pins)


def test_trump_leds_light_exactly_the_trump_suit(outputs, mock_factory) -> None:
    def lit() -> set[str]:
        return {s for s, p in TRUMP_PINS.items() if mock_factory.pin(p).state}

    outputs.show(table(trump="H"))
    assert lit() == {"H"}
    outputs.show(table(trump="S"))
    assert lit() == {"S"}
    outputs.show(table(trump=None))
    assert lit() == set()


def _half_periods(factory, pin: int, count: int, wait_until) -> list[float]:
    factory.pin(pin).clear_states()
    assert wait_until(lambda: len(factory.pin(pin).states) > count)
    return [s.timestamp for s in factory.pin(pin).states[2:]]


def test_status_led_modes(outputs, mock_factory, wait_until) -> None:
    outputs.show(table(status=Status.READY))
    assert mock_factory.pin(STATUS_PIN).state == 1.0

    outputs.show(table(status=Status.WATCHING))
    assert wait_until(lambda: any(0 < v < 1 for v in states(mock_factory, STATUS_PIN)))

    outputs.show(table(status=Status.NO_TABLE))
    fast = _half_periods(mock_factory, STATUS_PIN, 6, wait_until)
    assert set(states(mock_factory, STATUS_PIN)[1:]) == {0.0, 1.0}  # a blink, not a fade
    outputs.show(table(status=Status.LINK_LOST))
    slow = _half_periods(mock_factory, STATUS_PIN, 3, wait_until)
    assert set(states(mock_factory, STATUS_PIN)[1:]) == {0.0, 1.0}
    assert statistics.median(slow) > 2 * statistics.median(fast)


def test_buzzer_sounds_once_per_buzz_id(outputs, mock_factory, wait_until) -> None:
    beeps = lambda: states(mock_factory, BUZZER_PIN).count(1.0)  # noqa: E731
    outputs.show(table(buzz=Buzz.NONE, buzz_id=0))
    outputs.show(table(buzz=Buzz.SHORT, buzz_id=1))
    assert wait_until(lambda: states(mock_factory, BUZZER_PIN) == [0, 1.0, 0.0])
    for _ in range(5):  # resends of the same state
        outputs.show(table(buzz=Buzz.SHORT, buzz_id=1))
    time.sleep(3 * FAST.beep_short)
    assert beeps() == 1
    outputs.show(table(buzz=Buzz.LONG, buzz_id=2))
    assert wait_until(lambda: beeps() == 2 and mock_factory.pin(BUZZER_PIN).state == 0)
    outputs.show(table(buzz=Buzz.NONE, buzz_id=3))
    outputs.show(table(buzz=Buzz.ALARM, buzz_id=4))
    assert wait_until(lambda: beeps() == 2 + FAST.alarm_count)
    time.sleep(3 * FAST.alarm_on)
    assert beeps() == 2 + FAST.alarm_count and mock_factory.pin(BUZZER_PIN).state == 0


def test_first_display_with_no_buzz_is_silent(outputs, mock_factory) -> None:
    outputs.show(table(buzz_id=7))
    time.sleep(2 * FAST.beep_short)
    assert states(mock_factory, BUZZER_PIN) == [0]


def test_repeated_show_changes_no_steady_pin(outputs, mock_factory) -> None:
    display = table(
        SeatLight(LedMode.ON, Rgb(10, 20, 30)),
        SeatLight(LedMode.ON, Rgb(255, 0, 0)),
        trump="D",
        status=Status.READY,
    )
    outputs.show(display)
    before = {p: len(mock_factory.pin(p).states) for p in range(2, 28)}
    for _ in range(10):
        outputs.show(display)
    after = {p: len(mock_factory.pin(p).states) for p in range(2, 28)}
    assert after == before
    assert outputs.shown == display


def test_resending_a_blinking_state_does_not_restart_the_blink(outputs, mock_factory) -> None:
    """A restart begins each time with the LED on: resends every 2 ms would freeze it lit."""
    red = SEAT_PINS[0][0]
    display = table(SeatLight(LedMode.BLINK, Rgb(255, 0, 0)))
    outputs.show(display)
    deadline = time.monotonic() + 10 * FAST.blink
    while time.monotonic() < deadline:
        outputs.show(display)
        time.sleep(0.002)
    assert len(states(mock_factory, red)) >= 6


def test_team_displays_are_not_gpio(outputs, mock_factory) -> None:
    outputs.show(table())
    before = {p: len(mock_factory.pin(p).states) for p in range(2, 28)}
    outputs.show(table(displays=("12", "-3")))
    assert {p: len(mock_factory.pin(p).states) for p in range(2, 28)} == before


def test_close_twice_and_use_after_close(mock_factory) -> None:
    out = GpioTableOutputs(CONFIG, pin_factory=mock_factory, timings=FAST)
    out.show(table(SeatLight(LedMode.BLINK, Rgb(255, 0, 0)), trump="C"))
    out.close()
    out.close()
    assert out.closed and "closed" in repr(out)
    with pytest.raises(DeviceClosed):
        out.show(table())
    with pytest.raises(DeviceClosed):
        out.__enter__()
    assert mock_factory.pin(SEAT_PINS[0][0]).state == 0  # nothing left lit
    with GpioTableOutputs(CONFIG, pin_factory=mock_factory) as again:  # pins were released
        assert not again.closed
    assert again.closed


def test_failed_construction_releases_the_pins_it_took(mock_factory) -> None:
    with LED(BUZZER_PIN, pin_factory=mock_factory):  # the buzzer is built last
        with pytest.raises(GPIOPinInUse):
            GpioTableOutputs(CONFIG, pin_factory=mock_factory)
    seat = RGBLED(*SEAT_PINS[0], pin_factory=mock_factory)
    trump = LED(TRUMP_PINS["S"], pin_factory=mock_factory)
    seat.close()
    trump.close()  # would raise GPIOPinInUse had the failed constructor kept them
