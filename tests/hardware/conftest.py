"""Fixtures for the GPIO tests: a fresh gpiozero mock factory per test.

As gpiozero's own tests/conftest.py does, each test gets a new `MockFactory` and
`reset()`s it afterwards (MockFactory keeps some state at class level). Unlike
gpiozero's tests, the factory is passed to devices explicitly and the process-global
`Device.pin_factory` is never set: the fixture checks that nothing set it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin


@pytest.fixture
def mock_factory(monkeypatch: pytest.MonkeyPatch) -> Iterator[MockFactory]:
    """A PWM-capable MockFactory; GPIOZERO_PIN_FACTORY=mock only while the test runs."""
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.delenv("CARDTABLE_GPIO_BACKEND", raising=False)
    global_before = Device.pin_factory
    factory = MockFactory(pin_class=MockPWMPin)
    try:
        yield factory
    finally:
        factory.reset()
        factory.close()
    assert Device.pin_factory is global_before, "a device fell back to gpiozero's global factory"


def _wait_until(predicate: Callable[[], Any], timeout: float = 2.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.002)
    return bool(predicate())


@pytest.fixture
def wait_until() -> Callable[..., bool]:
    """Poll `predicate` until true or `timeout`: background threads (blink, hold) need time."""
    return _wait_until
