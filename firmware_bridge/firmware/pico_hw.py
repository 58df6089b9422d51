"""The Pico's real output drivers. The only firmware module that imports `machine`
and `neopixel`, so everything else also runs under CPython in the simulator."""

import time

import machine
import neopixel

from tm1637 import TM1637

BUZZ_PATTERNS = {"short": (120,), "long": (600,), "alarm": (150, 100, 150, 100, 150)}


class PicoClock:
    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)


class Strip:
    """The WS2812 strip: seats, then trump suit LEDs, then the status LED."""

    def __init__(self, pin, length):
        self._np = neopixel.NeoPixel(machine.Pin(pin, machine.Pin.OUT), length)

    def __setitem__(self, index, colour):
        self._np[index] = colour

    def write(self):
        self._np.write()


def display(clk_pin, dio_pin):
    return TM1637(machine.Pin(clk_pin, machine.Pin.OUT), machine.Pin(dio_pin, machine.Pin.OUT),
                  time.sleep_us)


class Buzzer:
    """A passive buzzer on a PWM pin. Plays a pattern without blocking the loop."""

    def __init__(self, pin, freq=2700):
        self._pwm = machine.PWM(machine.Pin(pin))
        self._pwm.freq(freq)
        self._pwm.duty_u16(0)
        self._steps = []
        self._until = time.ticks_ms()

    def play(self, pattern):
        self._steps = list(BUZZ_PATTERNS.get(pattern, ()))
        self._until = time.ticks_ms()
        self.poll()

    def poll(self):
        """Advance the pattern: odd steps sound, even steps are pauses."""
        now = time.ticks_ms()
        if time.ticks_diff(now, self._until) < 0:
            return
        if not self._steps:
            self._pwm.duty_u16(0)
            return
        sounding = len(self._steps) % 2 == 1
        self._pwm.duty_u16(32768 if sounding else 0)
        self._until = time.ticks_add(now, self._steps.pop(0))
