"""GpioTable: outputs and buttons built, used and closed together."""

from __future__ import annotations

import dataclasses
import warnings

import pytest
from gpiozero import LED, Button
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory

from hardware.buttons import ButtonKind
from hardware.config import GpioConfig
from hardware.display_state import LedMode, Rgb, SeatLight, TableDisplay
from hardware.errors import DeviceClosed, UnknownBackend
from hardware.outputs import LightTimings
from hardware.table import GpioTable

CONFIG = dataclasses.replace(GpioConfig.default(), bounce_time=0.02, hold_time=0.5)
RED = TableDisplay(seats=(SeatLight(LedMode.ON, Rgb(255, 0, 0)),) * 4)


def test_table_on_a_given_factory_shows_and_hears(mock_factory) -> None:
    with GpioTable(CONFIG, pin_factory=mock_factory) as table:
        table.show(RED)
        assert mock_factory.pin(4).state == 1.0
        pin = mock_factory.pin(23)
        pin.drive_low()
        pin.drive_high()
        event = table.get_event(timeout=1)
        assert (event.button, event.kind) == ("confirm", ButtonKind.PRESS)
    assert table.closed
    LED(4, pin_factory=mock_factory).close()  # the caller's factory is still usable


def test_backend_from_the_environment_and_owned_factory(mock_factory, monkeypatch) -> None:
    monkeypatch.setenv("CARDTABLE_GPIO_BACKEND", "mock")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a named backend gives no fallback warning
        table = GpioTable(CONFIG, timings=LightTimings(blink=0.01))
    assert isinstance(table.pin_factory, MockFactory) and table.pin_factory is not mock_factory
    table.show(RED)
    assert table.pin_factory.pin(4).state == 1.0
    table.close()
    assert table.pin_factory.pins == {}  # the owned factory was closed with the table


def test_unknown_backend_argument() -> None:
    with pytest.raises(UnknownBackend):
        GpioTable(CONFIG, backend="wiringpi")


def test_failed_buttons_close_the_outputs(mock_factory) -> None:
    with Button(CONFIG.confirm, pin_factory=mock_factory):
        with pytest.raises(GPIOPinInUse):
            GpioTable(CONFIG, pin_factory=mock_factory)
    LED(4, pin_factory=mock_factory).close()  # seat 1's red leg was released


def test_close_twice_and_use_after_close(mock_factory) -> None:
    table = GpioTable(CONFIG, pin_factory=mock_factory)
    table.close()
    table.close()
    assert "closed" in repr(table)
    with pytest.raises(DeviceClosed):
        table.show(RED)
    with pytest.raises(DeviceClosed):
        table.get_event(timeout=0)
