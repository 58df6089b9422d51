"""Choosing the GPIO backend: argument, then environment, then lgpio/rpigpio/mock."""

from __future__ import annotations

import importlib.util
import warnings

import pytest
from gpiozero import LED
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.backends import BACKENDS, ENV_VAR, choose_pin_factory, mock_pin_factory
from hardware.errors import BackendFallback, BackendUnavailable, MockBackendInUse, UnknownBackend

BROKEN = {
    "nomodule": "hardware.no_such_backend_module:Factory",
    "noclass": "gpiozero.pins.mock:NoSuchFactory",
    "raises": "hardware.config:GpioConfig",  # callable, but fails without arguments
    "mock": BACKENDS["mock"],
}


def _choose(*args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        factory = choose_pin_factory(*args, **kwargs)
    return factory, [w.message for w in caught]


def test_explicit_mock_gives_pwm_mock_factory_without_warning() -> None:
    factory, caught = _choose("mock", environ={})
    assert isinstance(factory, MockFactory) and factory.pin_class is MockPWMPin
    assert caught == []
    factory.close()


def test_env_var_names_the_backend() -> None:
    factory, caught = _choose(environ={ENV_VAR: "Mock"})
    assert isinstance(factory, MockFactory) and caught == []
    factory.close()


def test_argument_wins_over_env_var() -> None:
    with pytest.raises(UnknownBackend) as info:
        choose_pin_factory("pigpio", environ={ENV_VAR: "mock"})
    assert info.value.name == "pigpio" and info.value.source == "argument"


def test_unknown_env_backend_names_the_variable_and_known_names() -> None:
    with pytest.raises(UnknownBackend) as info:
        choose_pin_factory(environ={ENV_VAR: "gpiod"})
    assert info.value.source == f"${ENV_VAR}"
    assert set(info.value.known) == {"lgpio", "rpigpio", "mock"}
    assert isinstance(info.value, ValueError)


def test_fallback_warns_per_failure_then_warns_about_mock() -> None:
    factory, caught = _choose(
        environ={}, backends=BROKEN, order=("nomodule", "noclass", "raises", "mock")
    )
    assert isinstance(factory, MockFactory)
    fallbacks = [w for w in caught if isinstance(w, BackendFallback)]
    assert [(w.backend, w.next_backend) for w in fallbacks] == [
        ("nomodule", "noclass"), ("noclass", "raises"), ("raises", "mock"),
    ]  # fmt: skip
    assert "ModuleNotFoundError" in fallbacks[0].reason
    assert isinstance(caught[-1], MockBackendInUse)
    factory.close()


def test_nothing_loads_raises_backend_unavailable_naming_each_try() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BackendFallback)
        with pytest.raises(BackendUnavailable) as info:
            choose_pin_factory(environ={}, backends=BROKEN, order=("nomodule", "noclass"))
    assert [name for name, _ in info.value.tried] == ["nomodule", "noclass"]
    assert isinstance(info.value, ImportError)


def test_named_backend_that_fails_does_not_fall_back() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a fallback warning would fail the test
        with pytest.raises(BackendUnavailable) as info:
            choose_pin_factory("noclass", environ={}, backends=BROKEN)
    assert [name for name, _ in info.value.tried] == ["noclass"]


def test_real_default_order_on_a_machine_without_gpio_libraries() -> None:
    if importlib.util.find_spec("lgpio") or importlib.util.find_spec("RPi"):
        pytest.skip("a real GPIO library is installed here; the fallback is not taken")
    factory, caught = _choose(environ={})
    assert isinstance(factory, MockFactory)
    assert [w.backend for w in caught if isinstance(w, BackendFallback)] == ["lgpio", "rpigpio"]
    assert isinstance(caught[-1], MockBackendInUse)
    factory.close()


def test_each_mock_factory_is_independent() -> None:
    first, second = mock_pin_factory(), mock_pin_factory()
    try:
        with LED(4, pin_factory=first), LED(4, pin_factory=second) as led:
            led.on()  # the same pin number on two separate simulated tables
            assert second.pin(4).state == 1 and first.pin(4).state == 0
    finally:
        for factory in (first, second):
            factory.reset()
            factory.close()
