"""One table's GPIO: outputs and buttons on one pin factory, opened and closed together.

The referee wants "the table's GPIO" as one thing to build from config and close at
the end. `GpioTable` chooses the backend (or takes a factory), builds
`GpioTableOutputs` and `ButtonPanel` on it, and closes all three in reverse order,
including when building one of them fails halfway.
"""

from __future__ import annotations

from typing import Any

from hardware.backends import choose_pin_factory
from hardware.buttons import ButtonEvent, ButtonPanel
from hardware.config import GpioConfig
from hardware.display_state import TableDisplay
from hardware.lifecycle import Closeable
from hardware.outputs import GpioTableOutputs, LightTimings


class GpioTable(Closeable):
    """The GPIO outputs and buttons of one table.

    With `pin_factory` given, the caller owns it; otherwise one is chosen with
    `choose_pin_factory(backend)` and closed with the table.

    Raises (constructor):
        UnknownBackend, BackendUnavailable: see `hardware.backends.choose_pin_factory`.
        gpiozero.GPIOZeroError: a pin the factory cannot give; all is closed first.
    """

    def __init__(
        self,
        config: GpioConfig | None = None,
        *,
        backend: str | None = None,
        pin_factory: Any = None,
        timings: LightTimings = LightTimings(),
    ) -> None:
        self.config = GpioConfig.default() if config is None else config
        self._owns_factory = pin_factory is None
        self.pin_factory = choose_pin_factory(backend) if pin_factory is None else pin_factory
        self._closed = False
        self.outputs: GpioTableOutputs | None = None
        self.buttons: ButtonPanel | None = None
        try:
            self.outputs = GpioTableOutputs(
                self.config, pin_factory=self.pin_factory, timings=timings
            )
            self.buttons = ButtonPanel(self.config, pin_factory=self.pin_factory)
        except BaseException:
            self.close()
            raise

    def show(self, display: TableDisplay) -> None:
        """Show `display` on the GPIO outputs (see `GpioTableOutputs.show`).

        Raises:
            DeviceClosed: after `close()`.
        """
        self._check_open()
        assert self.outputs is not None
        self.outputs.show(display)

    def get_event(self, timeout: float | None = None) -> ButtonEvent | None:
        """The next button event within `timeout` seconds, or None.

        Raises:
            DeviceClosed: after `close()`.
        """
        self._check_open()
        assert self.buttons is not None
        return self.buttons.get(timeout)

    def close(self) -> None:
        """Close buttons, outputs and (if owned) the pin factory. Safe to repeat."""
        if self._closed:
            return
        self._closed = True
        for part in (self.buttons, self.outputs):
            if part is not None:
                part.close()
        if self._owns_factory:
            self.pin_factory.close()

    def __repr__(self) -> str:
        if self._closed:
            return "<GpioTable closed>"
        factory = type(self.pin_factory).__name__
        return f"<GpioTable {factory} seats={len(self.config.seats)}>"
