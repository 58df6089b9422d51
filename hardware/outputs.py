"""The Pi's own lights and buzzer, driven from a whole `TableDisplay`.

`GpioTableOutputs.show(display)` makes the GPIO outputs show `display`, and nothing
else: it compares with what it showed last and touches only devices whose part of
the picture changed, so calling it again with the same state (a resend, a periodic
refresh) changes no pin, restarts no blink and sounds no second beep.

What is driven here: one RGB LED per wired seat (gpiozero `RGBLED` with PWM; blink and
pulse are gpiozero's own background threads), the four trump LEDs, the status LED and
the buzzer. The two team 7-segment displays are driven by the microcontroller
(firmware_bridge/), not by GPIO; `show` ignores `TableDisplay.displays`. Seats in the
display beyond the wired seats are ignored too (a six-player Durak table shows seats
5 and 6 on the microcontroller's LED strip); wired seats beyond the display's are off.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from gpiozero import LED, PWMLED, RGBLED, Buzzer  # type: ignore[import-untyped]

from hardware.config import GpioConfig
from hardware.display_state import TRUMP_SUITS, Buzz, LedMode, Rgb, SeatLight, Status, TableDisplay
from hardware.lifecycle import Closeable


@dataclass(frozen=True, slots=True)
class LightTimings:
    """How long blinks, pulses and beeps last, in seconds.

    The defaults are what players see; tests pass shorter ones to stay fast.
    `blink` is the seat BLINK half-period (0.25 s: the 2 Hz of `LedMode.BLINK`).
    """

    blink: float = 0.25
    pulse_fade: float = 1.0
    status_fast: float = 0.1  #: half-period for "cannot see the table"
    status_slow: float = 1.0  #: half-period for "link lost"
    beep_short: float = 0.1
    beep_long: float = 0.6
    alarm_on: float = 0.15
    alarm_off: float = 0.1
    alarm_count: int = 4


class GpioTableOutputs(Closeable):
    """The GPIO half of the table's outputs, built from a `GpioConfig`.

    `pin_factory` is required and keyword-only: the referee builds one factory
    (`hardware.backends.choose_pin_factory`) and passes it to every device, so no
    process-global gpiozero state is ever set. The factory is not closed here.

    Raises (constructor):
        gpiozero.GPIOZeroError: a pin the factory cannot give (in use elsewhere,
            unsupported); devices already built are closed first.
    """

    def __init__(
        self,
        config: GpioConfig,
        *,
        pin_factory: Any,
        timings: LightTimings = LightTimings(),
    ) -> None:
        self._config = config
        self._timings = timings
        self._lock = threading.Lock()
        self._closed = False
        self._devices: list[Any] = []
        self._seat_leds: list[RGBLED | None] = []
        self._trump_leds: dict[str, LED] = {}
        self._status_led: PWMLED | None = None
        self._buzzer: Buzzer | None = None
        self._shown_seats: list[SeatLight | None] = []
        self._shown_trump: str | None | bool = False  # False: nothing shown yet
        self._shown_status: Status | None = None
        self._last_buzz_id: int | None = None
        self._shown: TableDisplay | None = None
        try:
            active_high = config.led_active_high
            for seat in config.seats:
                led = None
                if seat.led is not None:
                    led = self._own(
                        RGBLED(
                            seat.led.red,
                            seat.led.green,
                            seat.led.blue,
                            active_high=active_high,
                            pwm=True,
                            pin_factory=pin_factory,
                        )
                    )
                self._seat_leds.append(led)
                self._shown_seats.append(None)
            for suit in TRUMP_SUITS:
                pin = config.trump.pin_for(suit)
                if pin is not None:
                    self._trump_leds[suit] = self._own(
                        LED(pin, active_high=active_high, pin_factory=pin_factory)
                    )
            if config.status_led is not None:
                self._status_led = self._own(
                    PWMLED(config.status_led, active_high=active_high, pin_factory=pin_factory)
                )
            if config.buzzer is not None:
                self._buzzer = self._own(Buzzer(config.buzzer, pin_factory=pin_factory))
        except BaseException:
            self.close()
            raise

    def _own(self, device: Any) -> Any:
        self._devices.append(device)
        return device

    @property
    def config(self) -> GpioConfig:
        return self._config

    @property
    def shown(self) -> TableDisplay | None:
        """The last display passed to `show`, or None before the first."""
        return self._shown

    def show(self, display: TableDisplay) -> None:
        """Make every GPIO output show `display`; repeating a display changes nothing.

        The buzzer sounds `display.buzz` once when `display.buzz_id` differs from the
        last shown (the first display counts as a change), never on a repeat.

        Raises:
            DeviceClosed: after `close()`.
        """
        with self._lock:
            self._check_open()
            for index, led in enumerate(self._seat_leds):
                light = display.seats[index] if index < len(display.seats) else SeatLight()
                if led is not None and light != self._shown_seats[index]:
                    self._show_seat(led, light)
                self._shown_seats[index] = light
            if display.trump != self._shown_trump:
                for suit, trump_led in self._trump_leds.items():
                    trump_led.value = suit == display.trump
                self._shown_trump = display.trump
            if display.status != self._shown_status:
                if self._status_led is not None:
                    self._show_status(self._status_led, display.status)
                self._shown_status = display.status
            if display.buzz_id != self._last_buzz_id:
                if self._buzzer is not None and display.buzz is not Buzz.NONE:
                    self._sound(self._buzzer, display.buzz)
                self._last_buzz_id = display.buzz_id
            self._shown = display

    def _show_seat(self, led: RGBLED, light: SeatLight) -> None:
        colour = _unit_rgb(light.colour)
        t = self._timings
        if light.mode is LedMode.OFF:
            led.off()
        elif light.mode is LedMode.ON:
            led.value = colour
        elif light.mode is LedMode.BLINK:
            led.blink(on_time=t.blink, off_time=t.blink, on_color=colour)
        else:
            led.pulse(fade_in_time=t.pulse_fade, fade_out_time=t.pulse_fade, on_color=colour)

    def _show_status(self, led: PWMLED, status: Status) -> None:
        """ready: steady; watching: pulsing; no table: fast blink; link lost: slow blink."""
        t = self._timings
        if status is Status.READY:
            led.on()
        elif status is Status.WATCHING:
            led.pulse(fade_in_time=t.pulse_fade, fade_out_time=t.pulse_fade)
        elif status is Status.NO_TABLE:
            led.blink(on_time=t.status_fast, off_time=t.status_fast)
        else:
            led.blink(on_time=t.status_slow, off_time=t.status_slow)

    def _sound(self, buzzer: Buzzer, buzz: Buzz) -> None:
        t = self._timings
        if buzz is Buzz.SHORT:
            buzzer.beep(on_time=t.beep_short, off_time=0, n=1)
        elif buzz is Buzz.LONG:
            buzzer.beep(on_time=t.beep_long, off_time=0, n=1)
        else:
            buzzer.beep(on_time=t.alarm_on, off_time=t.alarm_off, n=t.alarm_count)

    def close(self) -> None:
        """Turn everything off and release the pins. Safe to call more than once."""
        with self._lock:
            self._closed = True
            devices, self._devices = self._devices, []
        for device in reversed(devices):
            device.off()  # stop blink threads and leave nothing lit or buzzing
            device.close()

    def __repr__(self) -> str:
        if self._closed:
            return "<GpioTableOutputs closed>"
        seats = sum(led is not None for led in self._seat_leds)
        return f"<GpioTableOutputs seat_leds={seats} trump_leds={len(self._trump_leds)}>"


def _unit_rgb(colour: Rgb) -> tuple[float, float, float]:
    return (colour.r / 255, colour.g / 255, colour.b / 255)
