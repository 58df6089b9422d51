"""Choosing the GPIO backend: a gpiozero pin factory, built once and passed in.

gpiozero keeps a process-global `Device.pin_factory`; cardtable never sets it. The
referee calls `choose_pin_factory()` once and hands the factory to every device with
`pin_factory=`, so tests can run several independent mock tables side by side.

Order of choice: the explicit `name` argument, then the `CARDTABLE_GPIO_BACKEND`
environment variable, then the fallback order lgpio (Raspberry Pi 5, and any Pi with
python3-lgpio), rpigpio (older Pis), mock (with a `MockBackendInUse` warning, since
nothing on the table is then connected). A backend named explicitly (argument or
environment) gets no fallback: if it cannot load, that is an error.

The hardware libraries (lgpio, RPi.GPIO) are imported only here, by `importlib`, and
only when their backend is tried, so `import hardware` works on any machine.
"""

from __future__ import annotations

import importlib
import os
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hardware.errors import BackendFallback, BackendUnavailable, MockBackendInUse, UnknownBackend

ENV_VAR = "CARDTABLE_GPIO_BACKEND"

#: Backend name -> "module:callable" building its gpiozero pin factory.
BACKENDS: dict[str, str] = {
    "lgpio": "gpiozero.pins.lgpio:LGPIOFactory",
    "rpigpio": "gpiozero.pins.rpigpio:RPiGPIOFactory",
    "mock": "hardware.backends:mock_pin_factory",
}
#: Tried in this order when neither the argument nor the environment names one.
FALLBACK_ORDER: tuple[str, ...] = ("lgpio", "rpigpio", "mock")


def mock_pin_factory() -> Any:
    """gpiozero's MockFactory with PWM-capable pins (RGB LEDs dim, status LED pulses).

    A fresh factory each call: no pins or reservations are shared between tables.
    """
    from gpiozero.pins.mock import MockFactory, MockPWMPin  # type: ignore[import-untyped]

    return MockFactory(pin_class=MockPWMPin)


def choose_pin_factory(
    name: str | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    backends: Mapping[str, str] = BACKENDS,
    order: Sequence[str] = FALLBACK_ORDER,
) -> Any:
    """Build the gpiozero pin factory for this machine (see the module docstring).

    `environ` defaults to `os.environ`; `backends` and `order` exist so the choice can
    be exercised with other entries. The caller owns the factory and should `close()`
    it after the devices built on it.

    Raises:
        UnknownBackend: `name` or CARDTABLE_GPIO_BACKEND is not a key of `backends`.
        BackendUnavailable: the named backend, or every one in `order`, failed to load.
    """
    env = os.environ if environ is None else environ
    source = "argument"
    if name is None and env.get(ENV_VAR):
        name, source = env[ENV_VAR], f"${ENV_VAR}"
    if name is not None:
        key = name.strip().lower()
        if key not in backends:
            raise UnknownBackend(name, list(backends), source)
        try:
            return _load(backends[key])()
        except Exception as exc:  # an import or hardware-probe failure of any kind
            raise BackendUnavailable([(key, _why(exc))]) from exc
    tried: list[tuple[str, str]] = []
    for index, key in enumerate(order):
        try:
            factory = _load(backends[key])()
        except Exception as exc:  # try the next backend, as gpiozero does
            tried.append((key, _why(exc)))
            following = order[index + 1] if index + 1 < len(order) else None
            warnings.warn(BackendFallback(key, _why(exc), following), stacklevel=2)
            continue
        if key == "mock":
            warnings.warn(MockBackendInUse(), stacklevel=2)
        return factory
    raise BackendUnavailable(tried)


def _load(target: str) -> Callable[[], Any]:
    module_name, _, attr = target.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attr)  # type: ignore[no-any-return]


def _why(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"
