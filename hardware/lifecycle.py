"""The lifecycle every hardware device shares: `closed`, `with`, use after close.

gpiozero's devices work this way; ours follow: `close()` is idempotent and each
class writes its own, while this base keeps the rest in one place. Using a closed
device raises `DeviceClosed` naming it, instead of driving pins it gave back.
"""

from __future__ import annotations

from types import TracebackType
from typing import Self

from hardware.errors import DeviceClosed


class Closeable:
    """Mixin: subclasses set `self._closed = False` in `__init__` and define `close()`."""

    _closed: bool = True  # until __init__ has finished building the device

    @property
    def closed(self) -> bool:
        return self._closed

    def _check_open(self) -> None:
        if self._closed:
            raise DeviceClosed(repr(self))

    def close(self) -> None:  # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    def __enter__(self) -> Self:
        self._check_open()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
