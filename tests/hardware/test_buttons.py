"""ButtonPanel on gpiozero's mock pins: presses, debounce, long presses, lifecycle.

Buttons are wired to ground with the pull-up on, so `drive_low()` is the contact
closing and `drive_high()` it opening. Bounces are edges a few microseconds apart.
"""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest
from gpiozero import Button
from gpiozero.exc import GPIOPinInUse

from hardware.buttons import ButtonEvent, ButtonKind, ButtonPanel
from hardware.config import GpioConfig
from hardware.errors import DeviceClosed

BOUNCE, HOLD = 0.05, 0.3
CONFIG = dataclasses.replace(GpioConfig.default(), bounce_time=BOUNCE, hold_time=HOLD)
PINS = {name: pin for name, pin, _ in CONFIG.buttons()}


@pytest.fixture
def panel(mock_factory):
    with ButtonPanel(CONFIG, pin_factory=mock_factory) as buttons:
        yield buttons


def press(factory, name: str, down_for: float = BOUNCE + 0.02) -> None:
    pin = factory.pin(PINS[name])
    pin.drive_low()
    time.sleep(down_for)
    pin.drive_high()


def bounce(pin, final_low: bool) -> None:
    """Contact chatter: three quick flips, ending on the given level."""
    for _ in range(3):
        pin.drive_high() if final_low else pin.drive_low()
        pin.drive_low() if final_low else pin.drive_high()


def drain(panel: ButtonPanel, quiet: float = BOUNCE + 0.03) -> list[ButtonEvent]:
    events = []
    while (event := panel.get(timeout=quiet)) is not None:
        events.append(event)
    return events


@pytest.mark.parametrize(
    ("name", "seat"), [("confirm", None), ("undo", None), ("new_game", None), ("seat2", 2)]
)
def test_short_press_gives_one_press_event(panel, mock_factory, name, seat) -> None:
    pin = mock_factory.pin(PINS[name])
    before = time.monotonic()
    pin.drive_low()
    time.sleep(BOUNCE + 0.02)
    released = time.monotonic()
    pin.drive_high()
    events = drain(panel)
    assert [(e.button, e.kind, e.seat) for e in events] == [(name, ButtonKind.PRESS, seat)]
    assert before <= events[0].t < released  # t is when the button went down


def test_press_is_queued_on_release_not_on_the_way_down(panel, mock_factory) -> None:
    pin = mock_factory.pin(PINS["confirm"])
    pin.drive_low()
    assert panel.get(timeout=HOLD / 2) is None
    pin.drive_high()
    assert panel.get(timeout=1).kind is ButtonKind.PRESS


def test_bounces_on_press_and_release_give_one_press(panel, mock_factory) -> None:
    pin = mock_factory.pin(PINS["undo"])
    pin.drive_low()
    bounce(pin, final_low=True)
    time.sleep(BOUNCE + 0.03)
    pin.drive_high()
    bounce(pin, final_low=False)
    events = drain(panel, quiet=BOUNCE + 0.05)
    assert [(e.button, e.kind) for e in events] == [("undo", ButtonKind.PRESS)]


def test_presses_further_apart_than_bounce_time_all_count(panel, mock_factory) -> None:
    for _ in range(3):
        press(mock_factory, "seat0", down_for=BOUNCE + 0.01)
        time.sleep(BOUNCE + 0.01)
    assert [e.kind for e in drain(panel)] == [ButtonKind.PRESS] * 3


def test_tap_shorter_than_bounce_time_is_still_one_press(panel, mock_factory) -> None:
    """The release edge falls in the bounce window; the settle check must still see it."""
    pin = mock_factory.pin(PINS["seat1"])
    pin.drive_low()
    pin.drive_high()
    events = drain(panel, quiet=BOUNCE + 0.05)
    assert [(e.button, e.kind, e.seat) for e in events] == [("seat1", ButtonKind.PRESS, 1)]


def test_long_press_gives_long_press_and_no_press(panel, mock_factory) -> None:
    pin = mock_factory.pin(PINS["new_game"])
    down = time.monotonic()
    pin.drive_low()
    event = panel.get(timeout=2)
    assert event is not None and event.kind is ButtonKind.LONG_PRESS
    assert time.monotonic() - down >= HOLD * 0.9  # not before hold_time
    assert event.button == "new_game" and event.seat is None
    time.sleep(0.05)  # still held: no repeat
    pin.drive_high()
    bounce(pin, final_low=False)
    assert drain(panel, quiet=HOLD) == []


def test_long_press_on_a_seat_button_after_bouncy_contact(panel, mock_factory) -> None:
    pin = mock_factory.pin(PINS["seat3"])
    pin.drive_low()
    bounce(pin, final_low=True)
    event = panel.get(timeout=2)
    assert (event.button, event.kind, event.seat) == ("seat3", ButtonKind.LONG_PRESS, 3)
    pin.drive_high()
    assert drain(panel) == []


def test_buttons_pressed_from_several_threads_share_one_queue(panel, mock_factory) -> None:
    seats = ["seat0", "seat1", "seat2", "seat3"]

    def player(name: str) -> None:
        for _ in range(4):
            press(mock_factory, name, down_for=BOUNCE + 0.01)
            time.sleep(BOUNCE + 0.01)

    threads = [threading.Thread(target=player, args=(name,)) for name in seats]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    events = drain(panel)
    assert all(e.kind is ButtonKind.PRESS for e in events)
    assert sorted(e.button for e in events) == sorted(seats * 4)


def test_panels_can_share_an_events_queue(mock_factory) -> None:
    left = GpioConfig.from_dict({"seats": [{"button": 5}], "bounce_time": BOUNCE})
    right = GpioConfig.from_dict({"seats": [{}, {"button": 6}], "bounce_time": BOUNCE})
    with ButtonPanel(left, pin_factory=mock_factory) as first:
        with ButtonPanel(right, pin_factory=mock_factory, events=first.events) as second:
            assert second.events is first.events
            mock_factory.pin(6).drive_low()
            mock_factory.pin(6).drive_high()
            assert first.get(timeout=1).button == "seat1"


def test_close_twice_and_use_after_close(mock_factory) -> None:
    panel = ButtonPanel(CONFIG, pin_factory=mock_factory)
    panel.close()
    panel.close()
    assert panel.closed and "closed" in repr(panel)
    with pytest.raises(DeviceClosed):
        panel.get(timeout=0)
    with ButtonPanel(CONFIG, pin_factory=mock_factory) as again:  # pins were released
        press(mock_factory, "confirm")
        assert again.get(timeout=1).button == "confirm"


def test_failed_construction_releases_the_pins_it_took(mock_factory) -> None:
    with Button(PINS["seat3"], pin_factory=mock_factory):  # the last button built
        with pytest.raises(GPIOPinInUse):
            ButtonPanel(CONFIG, pin_factory=mock_factory)
    Button(PINS["confirm"], pin_factory=mock_factory).close()  # free again
