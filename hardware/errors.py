"""Errors and warnings raised by `hardware/`.

Every error carries the fields that explain it (a pin number, both of its uses, the
backends tried) and builds its message from them, so callers and tests can act on
the fields rather than parse text. Leaves also inherit the matching builtin
(`ValueError`, `ImportError`, `RuntimeError`) so generic handlers keep working.
"""

from __future__ import annotations

from collections.abc import Sequence


class HardwareError(Exception):
    """Root of every error raised by the GPIO outputs, buttons and their config."""


class ConfigError(HardwareError, ValueError):
    """A GPIO config that cannot describe real wiring (bad key, value or type)."""

    def __init__(self, key: str, reason: str) -> None:
        self.key = key
        self.reason = reason
        super().__init__(f"GPIO config {key}: {reason}")


class InvalidPin(ConfigError):
    """A pin number that is not a GPIO on the 40-pin header (BCM 0..27)."""

    def __init__(self, pin: object, use: str) -> None:
        self.pin = pin
        self.use = use
        super().__init__(use, f"pin {pin!r} is not a BCM GPIO number 0..27")


class PinConflict(ConfigError):
    """One pin given two jobs: the message names both so the wiring can be fixed."""

    def __init__(self, pin: int, first_use: str, second_use: str) -> None:
        self.pin = pin
        self.first_use = first_use
        self.second_use = second_use
        super().__init__(
            second_use, f"GPIO{pin} is already used by {first_use}; each pin can do one job"
        )


class UnknownBackend(HardwareError, ValueError):
    """A backend name (argument or CARDTABLE_GPIO_BACKEND) that names no backend."""

    def __init__(self, name: str, known: Sequence[str], source: str) -> None:
        self.name = name
        self.known = tuple(known)
        self.source = source
        super().__init__(
            f"GPIO backend {name!r} (from {source}) is not one of {', '.join(self.known)}"
        )


class BackendUnavailable(HardwareError, ImportError):
    """No GPIO backend could be loaded; `tried` holds (name, why it failed) pairs."""

    def __init__(self, tried: Sequence[tuple[str, str]]) -> None:
        self.tried = tuple(tried)
        detail = "; ".join(f"{name}: {why}" for name, why in self.tried)
        super().__init__(f"no GPIO backend could be loaded (tried {detail})")


class DeviceClosed(HardwareError, RuntimeError):
    """A closed output set or button panel was used again."""

    def __init__(self, device: str) -> None:
        self.device = device
        super().__init__(f"{device} is closed; build a new one to use the pins again")


class HardwareWarning(UserWarning):
    """Root of the warnings for degraded hardware modes (the table still runs)."""


class BackendFallback(HardwareWarning):
    """A GPIO backend failed to load and the next one in the fallback order is tried."""

    def __init__(self, backend: str, reason: str, next_backend: str | None) -> None:
        self.backend = backend
        self.reason = reason
        self.next_backend = next_backend
        then = f"trying {next_backend}" if next_backend else "no backend left"
        super().__init__(f"GPIO backend {backend} unavailable ({reason}); {then}")


class MockBackendInUse(HardwareWarning):
    """No real GPIO was found: the mock backend drives nothing a player can see."""

    def __init__(self) -> None:
        super().__init__(
            "no real GPIO backend loaded; using gpiozero's mock pins, so no LED or "
            "button on the table is connected (set CARDTABLE_GPIO_BACKEND=mock to say "
            "this is intended)"
        )
