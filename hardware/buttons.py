"""The table's buttons as a queue of events: short presses and long presses.

Buttons: confirm, undo (last play), new game, and one per seat (to settle what the
camera could not see). Each is a gpiozero `Button` wired from its GPIO to ground
(internal pull-up), built with the config's `bounce_time` and `hold_time`.

Two rules players rely on:
- a bouncing contact gives one press. gpiozero hands `bounce_time` to the backend
  (lgpio and RPi.GPIO filter edges themselves), but gpiozero's mock pins ignore it,
  so the panel also filters edges itself: an edge within `bounce_time` of the last
  accepted one is ignored, and when that window closes the panel re-reads the pin so
  a tap shorter than the window is still seen. Every backend behaves the same.
- a long press is only a long press: `LONG_PRESS` is queued when the button has been
  down `hold_time` (gpiozero's `when_held`), and the release that follows queues no
  `PRESS`. That is why `PRESS` is queued on release, not on the way down.

Events go to a thread-safe `queue.Queue`: the callbacks run on gpiozero's threads and
the referee reads the queue from its own.
"""

from __future__ import annotations

import enum
import math
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpiozero import Button  # type: ignore[import-untyped]

from hardware.config import GpioConfig
from hardware.lifecycle import Closeable


class ButtonKind(enum.Enum):
    """A short press (queued on release) or a long press (queued after `hold_time`)."""

    PRESS = "press"
    LONG_PRESS = "long_press"


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    """One press of one button.

    `button` is "confirm", "undo", "new_game" or "seat<N>"; `seat` is N for a seat
    button and None otherwise. `t` is the `time.monotonic()` at which the button went
    down, for both kinds, so a press can be matched against camera frames.
    """

    button: str
    kind: ButtonKind
    seat: int | None
    t: float


class _Tracker:
    """Debounce and long-press logic of one button; all state under one lock."""

    def __init__(
        self,
        name: str,
        seat: int | None,
        button: Button,
        bounce_time: float,
        emit: Callable[[ButtonEvent], None],
    ) -> None:
        self._name = name
        self._seat = seat
        self._button = button
        self._bounce = bounce_time
        self._emit = emit
        self._lock = threading.Lock()
        self._pressed = False
        self._held = False
        self._down_t = 0.0
        self._last_accepted = -math.inf
        self._settle: threading.Timer | None = None
        self._closed = False

    def edge(self, active: bool) -> None:
        """A raw edge from gpiozero (button went down if `active`)."""
        now = time.monotonic()
        with self._lock:
            if self._closed:
                return
            if now - self._last_accepted < self._bounce:
                self._schedule_settle(self._last_accepted + self._bounce - now)
                return
            self._accept(active, now)

    def held(self) -> None:
        """gpiozero's hold timer fired: the button has been down `hold_time`."""
        with self._lock:
            if self._closed or not self._pressed or self._held:
                return
            if not self._button.is_pressed:
                return  # released during a bounce window; the settle check follows
            self._held = True
            self._emit(ButtonEvent(self._name, ButtonKind.LONG_PRESS, self._seat, self._down_t))

    def _accept(self, active: bool, now: float) -> None:
        if active == self._pressed:
            return
        self._last_accepted = now
        self._pressed = active
        if active:
            self._down_t = now
            self._held = False
        elif not self._held:
            self._emit(ButtonEvent(self._name, ButtonKind.PRESS, self._seat, self._down_t))

    def _schedule_settle(self, delay: float) -> None:
        if self._settle is None:
            self._settle = threading.Timer(max(delay, 0.0) + 0.001, self._settle_now)
            self._settle.daemon = True
            self._settle.start()

    def _settle_now(self) -> None:
        """The bounce window closed: take whatever level the pin has settled on."""
        with self._lock:
            self._settle = None
            if not self._closed:
                self._accept(self._button.is_pressed, time.monotonic())

    def close(self) -> None:
        with self._lock:
            self._closed = True
            settle, self._settle = self._settle, None
        if settle is not None:
            settle.cancel()


class ButtonPanel(Closeable):
    """Every button wired in a `GpioConfig`, feeding one queue of `ButtonEvent`s.

    `pin_factory` is required and keyword-only (see `hardware.backends`); it is not
    closed here. Pass `events` to share one queue between several panels.

    Raises (constructor):
        gpiozero.GPIOZeroError: a pin the factory cannot give; buttons already built
            are closed first.
    """

    def __init__(
        self,
        config: GpioConfig,
        *,
        pin_factory: Any,
        events: queue.Queue[ButtonEvent] | None = None,
    ) -> None:
        self.events: queue.Queue[ButtonEvent] = queue.Queue() if events is None else events
        self._closed = False
        self._buttons: list[Button] = []
        self._trackers: list[_Tracker] = []
        try:
            for name, pin, seat in config.buttons():
                button = Button(
                    pin,
                    pull_up=True,
                    bounce_time=config.bounce_time or None,
                    hold_time=config.hold_time,
                    hold_repeat=False,
                    pin_factory=pin_factory,
                )
                self._buttons.append(button)
                tracker = _Tracker(name, seat, button, config.bounce_time, self.events.put)
                self._trackers.append(tracker)
                button.when_pressed = _call(tracker.edge, True)
                button.when_released = _call(tracker.edge, False)
                button.when_held = tracker.held
        except BaseException:
            self.close()
            raise

    @property
    def names(self) -> tuple[str, ...]:
        """The `ButtonEvent.button` names of the wired buttons."""
        return tuple(t._name for t in self._trackers)

    def get(self, timeout: float | None = None) -> ButtonEvent | None:
        """The next event, waiting up to `timeout` seconds (None: forever); None if none.

        Raises:
            DeviceClosed: after `close()`.
        """
        self._check_open()
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        """Stop listening and release the pins. Safe to call more than once."""
        self._closed = True
        trackers, self._trackers = self._trackers, []
        buttons, self._buttons = self._buttons, []
        for tracker in trackers:
            tracker.close()
        # Each gpiozero Button joins its hold thread, which polls every 0.1 s: close
        # them side by side so a panel of ten buttons closes in 0.1 s, not 1 s.
        closers = [threading.Thread(target=button.close) for button in buttons]
        for closer in closers:
            closer.start()
        for closer in closers:
            closer.join()

    def __repr__(self) -> str:
        if self._closed:
            return "<ButtonPanel closed>"
        return f"<ButtonPanel buttons={','.join(self.names)}>"


def _call(method: Callable[[bool], None], active: bool) -> Callable[[], None]:
    """A no-argument callback (gpiozero passes the device to one-argument ones)."""

    def callback() -> None:
        method(active)

    return callback
