"""The simulated board: the real firmware (firmware/board.py) on a pseudo-terminal.

The host cannot tell it from a Pico on USB: it opens the pty's slave path with
pyserial like any serial port. Between the pty and the firmware sits a simulated
cable that can lose, damage or duplicate whole frames (in both directions), and that
can be "unplugged": the pty is closed, the board powers off, and a new pty with a
freshly booted board appears, with the optional symlink moved to it (what a udev
rule does for a real board).
"""

from __future__ import annotations

import json
import os
import random
import select
import threading
import time
import tty
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_bridge.firmware import protocol
from firmware_bridge.firmware.board import STRIP_LENGTH, Board
from firmware_bridge.firmware.tm1637 import encode_text

TICK_S = 0.005  # how often the firmware's tick() runs when the line is quiet


class SimClock:
    """time.ticks_ms() and ticks_diff() for CPython (no wrap-around needed)."""

    def ticks_ms(self) -> int:
        return time.monotonic_ns() // 1_000_000

    def ticks_diff(self, a: int, b: int) -> int:
        return a - b


class SimStrip:
    """Records the WS2812 strip's pixels as the firmware writes them."""

    def __init__(self, length: int = STRIP_LENGTH) -> None:
        self.pixels: list[tuple[int, int, int]] = [(0, 0, 0)] * length
        self.writes = 0

    def __setitem__(self, index: int, colour: tuple[int, int, int]) -> None:
        self.pixels[index] = tuple(colour)  # type: ignore[assignment]

    def write(self) -> None:
        self.writes += 1


class SimDisplay:
    """Records a TM1637's text and the segment bytes the real driver would send."""

    def __init__(self) -> None:
        self.text = ""
        self.segments = encode_text("")

    def show(self, text: str) -> None:
        self.text = text
        self.segments = encode_text(text)


class SimBuzzer:
    def __init__(self) -> None:
        self.played: list[str] = []

    def play(self, pattern: str) -> None:
        self.played.append(pattern)


@dataclass(frozen=True, slots=True)
class LineFaults:
    """The simulated cable: the fraction of frames lost, damaged or doubled."""

    drop: float = 0.0
    corrupt: float = 0.0
    duplicate: float = 0.0
    seed: int | None = None

    def __post_init__(self) -> None:
        for name in ("drop", "corrupt", "duplicate"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name}={value!r} is not a fraction 0..1")


class _Cable:
    """Applies LineFaults to whole frames (each ends with its 0x00)."""

    def __init__(self, faults: LineFaults, rng: random.Random) -> None:
        self._faults = faults
        self._rng = rng
        self.dropped = 0
        self.corrupted = 0

    def pass_frame(self, frame: bytes) -> list[bytes]:
        faults, rng = self._faults, self._rng
        if faults.drop and rng.random() < faults.drop:
            self.dropped += 1
            return []
        if faults.corrupt and rng.random() < faults.corrupt and len(frame) > 1:
            self.corrupted += 1
            damaged = bytearray(frame)
            at = rng.randrange(len(frame) - 1)  # any byte but the delimiter
            damaged[at] ^= 1 << rng.randrange(8)
            frame = bytes(damaged)
        if faults.duplicate and rng.random() < faults.duplicate:
            return [frame, frame]
        return [frame]


class SimulatedBoard:
    """The firmware on a pty. `start()` runs it in a thread, or `run(stop)` in yours.

    `applied` lists every state the firmware applied, across unplugs (for tests);
    `state_file`, if given, always holds what the LEDs and displays show, as JSON.
    """

    def __init__(self, *, faults: LineFaults = LineFaults(), link: str | Path | None = None,
                 state_file: str | Path | None = None,
                 version: int = protocol.PROTOCOL_VERSION,
                 on_port: Callable[[str], None] | None = None) -> None:
        self._faults = faults
        self._cable = _Cable(faults, random.Random(faults.seed))
        self._link = Path(link) if link is not None else None
        self._state_file = Path(state_file) if state_file is not None else None
        self._version = version
        self._on_port = on_port
        self._lock = threading.Lock()
        self._replug = threading.Event()
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        self._thread: threading.Thread | None = None
        self._master = -1
        self._slave = -1
        self._rx_tail = b""
        self._last_written: str | None = None
        self.applied: list[dict[str, Any]] = []
        self.boots = 0
        self.port = ""
        self.frame_times_ns: deque[int] = deque(maxlen=100_000)  # firmware time per frame
        self.strip = SimStrip()
        self.displays = [SimDisplay(), SimDisplay()]
        self.buzzer = SimBuzzer()
        self.board: Board
        self._plug()

    # --- control ----------------------------------------------------------------

    def start(self) -> SimulatedBoard:
        self._thread = threading.Thread(target=self.run, args=(self._stop,),
                                        name="SimulatedBoard", daemon=True)
        self._thread.start()
        return self

    def replug(self) -> None:
        """Simulate pulling the USB cable and plugging it back (safe from a signal handler)."""
        self._replug.set()
        os.write(self._wake_w, b"x")

    def stop(self) -> None:
        self._stop.set()
        os.write(self._wake_w, b"x")

    def close(self) -> None:
        """Stop the loop, close the pty and remove the link. Safe to call twice."""
        if self._wake_w < 0:
            return
        self.stop()
        if self._thread is not None:
            self._thread.join(2.0)
        self._unplug()
        if self._link is not None and self._link.is_symlink():
            self._link.unlink()
        os.close(self._wake_r)
        os.close(self._wake_w)
        self._wake_r = self._wake_w = -1

    def __enter__(self) -> SimulatedBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def link_up(self) -> bool:
        return self.board.link_up

    @property
    def shown(self) -> dict[str, Any]:
        return self.board.shown

    def snapshot(self) -> dict[str, Any]:
        """What the board shows, in the --state-file JSON form."""
        return dict(self.board.shown, link="up" if self.board.link_up else "lost",
                    boots=self.boots)

    # --- the loop -----------------------------------------------------------------

    def run(self, stop: threading.Event) -> None:
        """Serve the pty until `stop` (or stop()) is set."""
        while not stop.is_set() and not self._stop.is_set():
            self.run_once()

    def run_once(self) -> None:
        """Wait up to TICK_S for bytes, feed them to the firmware, tick it."""
        if self._replug.is_set():
            self._replug.clear()
            self._unplug()
            self._plug()
        try:
            ready, _, _ = select.select([self._master, self._wake_r], [], [], TICK_S)
        except (OSError, ValueError):
            return  # the master was closed under us by a replug
        if self._wake_r in ready:
            os.read(self._wake_r, 64)
        if self._master in ready:
            try:
                data = os.read(self._master, 4096)
            except OSError:  # EAGAIN, or EIO while nobody has the slave open
                data = b""
            self._receive(data)
        self.board.tick()

    def _receive(self, data: bytes) -> None:
        chunks = (self._rx_tail + data).split(b"\x00")
        self._rx_tail = chunks.pop()
        for chunk in chunks:
            for frame in self._cable.pass_frame(chunk + b"\x00"):
                start = time.perf_counter_ns()
                self.board.feed(frame)
                self.frame_times_ns.append(time.perf_counter_ns() - start)
        if len(self._rx_tail) > protocol.MAX_ENCODED * 4:
            self.board.feed(self._rx_tail)  # a run of noise with no delimiter
            self._rx_tail = b""

    def _send(self, data: bytes) -> None:
        for frame in self._cable.pass_frame(data):
            try:
                os.write(self._master, frame)
            except OSError:
                pass  # buffer full or nobody listening: the frame is lost, like on a wire

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self._rx_tail = b""
        self.port = os.ttyname(slave)
        self.boots += 1
        self.board = Board(self._send, self.strip, self.displays, self.buzzer, SimClock(),
                           version=self._version, on_apply=self.applied.append,
                           on_change=self._changed)
        self._changed(self.board.shown, self.board.link_up)
        if self._link is not None:
            tmp = self._link.with_name(self._link.name + ".tmp")
            tmp.unlink(missing_ok=True)
            tmp.symlink_to(self.port)
            os.replace(tmp, self._link)
        if self._on_port is not None:
            self._on_port(self.port)

    def _unplug(self) -> None:
        for fd in (self._master, self._slave):
            if fd >= 0:
                os.close(fd)
        self._master = self._slave = -1

    def _changed(self, state: dict[str, Any], link_up: bool) -> None:
        if self._state_file is None:
            return
        text = json.dumps(dict(state, link="up" if link_up else "lost", boots=self.boots))
        if text == self._last_written:
            return
        tmp = self._state_file.with_name(self._state_file.name + ".tmp")
        tmp.write_text(text + "\n")
        os.replace(tmp, self._state_file)
        self._last_written = text
