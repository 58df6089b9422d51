"""The same output checks on every backend: mock here, lgpio/rpigpio on a Pi.

Real backends run only on a Pi with CARDTABLE_TEST_REAL_GPIO=1 (the default pin map's
outputs are driven, so nothing else may be wired to them); elsewhere they are skipped,
as gpiozero's tests/test_real_pins.py does. Only outputs are checked: a real pin's
output level can be read back without any wiring, a button press cannot.
"""

from __future__ import annotations

import os
import warnings

import pytest

from hardware.backends import FALLBACK_ORDER, choose_pin_factory
from hardware.config import GpioConfig
from hardware.display_state import LedMode, Rgb, SeatLight, TableDisplay
from hardware.errors import BackendUnavailable
from hardware.outputs import GpioTableOutputs

CONFIG = GpioConfig.default()


@pytest.fixture(params=FALLBACK_ORDER)
def backend_factory(request, monkeypatch):
    name = request.param
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    if name != "mock" and not os.environ.get("CARDTABLE_TEST_REAL_GPIO"):
        pytest.skip(f"{name}: real GPIO is tested only with CARDTABLE_TEST_REAL_GPIO=1 on a Pi")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            factory = choose_pin_factory(name, environ={})
    except BackendUnavailable as exc:
        pytest.skip(str(exc))
    try:
        yield factory
    finally:
        if hasattr(factory, "reset"):
            factory.reset()
        factory.close()


def test_steady_outputs_read_back(backend_factory) -> None:
    magenta = SeatLight(LedMode.ON, Rgb(255, 0, 255))
    with GpioTableOutputs(CONFIG, pin_factory=backend_factory) as out:
        out.show(TableDisplay(seats=(magenta, SeatLight(), SeatLight(), SeatLight()), trump="D"))
        led = CONFIG.seats[0].led
        assert led is not None
        levels = [backend_factory.pin(p).state for p in (led.red, led.green, led.blue)]
        assert [bool(v) for v in levels] == [True, False, True]
        trump = {s: bool(backend_factory.pin(CONFIG.trump.pin_for(s)).state) for s in "CDHS"}
        assert trump == {"C": False, "D": True, "H": False, "S": False}
        out.show(TableDisplay(seats=(SeatLight(),) * 4))
        assert not any(backend_factory.pin(p).state for p in (led.red, led.green, led.blue))
        assert not any(backend_factory.pin(CONFIG.trump.pin_for(s)).state for s in "CDHS")
