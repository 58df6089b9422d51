"""Pico entry point: USB serial <-> Board, WS2812 strip, two TM1637s, buzzer.

Copied to the Pico with mpremote (see firmware_bridge/README.md); MicroPython runs
main.py at boot. Pin numbers are the wiring described in the README.
"""

import select
import sys

import machine
import micropython

import pico_hw
from board import STRIP_LENGTH, Board

STRIP_PIN = 16
DISPLAY_PINS = ((2, 3), (4, 5))  # (clk, dio) for team 1 and team 2
BUZZER_PIN = 15
#: Hold this pin to ground while the board boots to get the REPL (and mpremote) back:
#: once the loop runs, Ctrl-C is disabled because the serial line carries binary.
MAINTENANCE_PIN = 22


def run():
    # The USB serial carries binary COBS frames: Ctrl-C (0x03) must not interrupt us.
    micropython.kbd_intr(-1)
    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    buzzer = pico_hw.Buzzer(BUZZER_PIN)
    board = Board(
        send=stdout.write,
        strip=pico_hw.Strip(STRIP_PIN, STRIP_LENGTH),
        displays=[pico_hw.display(clk, dio) for clk, dio in DISPLAY_PINS],
        buzzer=buzzer,
        clock=pico_hw.PicoClock(),
    )
    poller = select.poll()
    poller.register(stdin, select.POLLIN)
    while True:
        while poller.poll(0):
            board.feed(stdin.read(1))
        board.tick()
        buzzer.poll()
        poller.poll(5)


if machine.Pin(MAINTENANCE_PIN, machine.Pin.IN, machine.Pin.PULL_UP).value():
    run()
