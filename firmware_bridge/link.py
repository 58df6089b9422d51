"""DisplayLink: keeps the board showing the referee's latest TableDisplay.

The caller only ever says "this is what the table shows now" (`show`). A background
thread does the rest: handshake, stop-and-wait delivery with resends, heartbeats,
and reopening the port after an unplug, after which it sends the current state at
once. Only the newest state matters, so a new `show` replaces a pending one instead of
queueing behind it; an acknowledgement for the newest state means the board shows
exactly that state.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import serial

from firmware_bridge.errors import (
    BridgeError,
    HandshakeFailed,
    LinkClosed,
    LinkTimeout,
    PortUnavailable,
)
from firmware_bridge.firmware import protocol
from firmware_bridge.framing import Command, Frame, FrameDecoder
from hardware.display_state import TableDisplay

READ_TIMEOUT_S = 0.02  # how often the worker looks at its timers when the line is quiet
REOPEN_INTERVAL_S = 0.05  # how often to retry opening a vanished port
WRITE_TIMEOUT_S = 0.5  # a write blocked this long means the board stopped reading
JOIN_TIMEOUT_S = 2.0


@dataclass(frozen=True, slots=True)
class LinkCounters:
    """What the link has seen so far (a snapshot)."""

    sent: int = 0  #: frames sent for the first time (states, hellos, heartbeats)
    acked: int = 0  #: states acknowledged by the board
    resent: int = 0  #: frames sent again after RESEND_MS without an answer
    dropped_garbage: int = 0  #: received frames that failed COBS or the length check
    crc_errors: int = 0  #: received frames with a bad CRC
    duplicates: int = 0  #: received frames seen before (dropped) and repeated acks
    reconnects: int = 0  #: times the port was reopened
    handshakes: int = 0  #: successful version handshakes


@dataclass(slots=True)
class _Inflight:
    seq: int
    cmd: int
    wire: bytes
    sent_at: float
    generation: int = 0


@dataclass(slots=True)
class _Shared:
    """Everything the caller's thread and the worker both touch, guarded by one lock."""

    current: TableDisplay | None = None
    payload: bytes = b""
    generation: int = 0  # bumped by each show()
    acked_generation: int = 0
    sent_generation: int = 0
    connected: bool = False
    failure: BridgeError | None = None
    closed: bool = False
    counts: dict[str, int] = field(default_factory=dict)


class DisplayLink:
    """The host end of the serial bridge, on a port path or pyserial URL (`loop://`).

    Raises:
        PortUnavailable: the port cannot be opened at construction. Later losses
            (unplug) are handled by reopening, never raised.
    """

    def __init__(self, port: str, *, baudrate: int = 115200,
                 version: int = protocol.PROTOCOL_VERSION) -> None:
        self.port = port
        self._baudrate = baudrate
        self._version = version
        self._cv = threading.Condition()
        self._shared = _Shared(counts={name: 0 for name in LinkCounters.__dataclass_fields__})
        self._stop = threading.Event()
        self._serial: serial.SerialBase | None = None
        self._thread: threading.Thread | None = None
        # Worker-only state (reset by _begin_session on every (re)open).
        self._inflight: _Inflight | None = None
        self._last_board_seq: int | None = None
        self._last_rx = self._last_tx = 0.0
        # Start numbering somewhere new, so a board still holding the previous run's
        # numbers (no reboot in between) cannot mistake our frames for old ones.
        self._tx_seq = time.monotonic_ns() // 1000 & 0xFFFF
        self._serial = self._open()
        self._thread = threading.Thread(target=self._run, name=f"DisplayLink({port})", daemon=True)
        self._thread.start()

    # --- the caller's API ---------------------------------------------------------

    def show(self, display: TableDisplay) -> None:
        """Make `display` what the board shows. Returns at once; newest state wins.

        Raises:
            LinkClosed: after close().
            HandshakeFailed: the board speaks another protocol version.
        """
        payload = protocol.encode_state(display.to_json())
        with self._cv:
            self._check_usable()
            shared = self._shared
            shared.current = display
            shared.payload = payload
            shared.generation += 1
            self._wake()

    def wait_acked(self, timeout: float) -> None:
        """Block until the board acknowledged the latest show().

        Raises:
            LinkTimeout: not acknowledged within `timeout` seconds.
            HandshakeFailed, LinkClosed: the link cannot deliver it.
        """
        self._wait(lambda s: s.acked_generation >= s.generation, "acknowledgement", timeout)

    def wait_connected(self, timeout: float) -> None:
        """Block until the version handshake has succeeded.

        Raises:
            LinkTimeout, HandshakeFailed, LinkClosed.
        """
        self._wait(lambda s: s.connected, "handshake reply", timeout)

    @property
    def counters(self) -> LinkCounters:
        with self._cv:
            return LinkCounters(**self._shared.counts)

    @property
    def connected(self) -> bool:
        with self._cv:
            return self._shared.connected

    @property
    def closed(self) -> bool:
        return self._shared.closed

    def close(self) -> None:
        """Stop the worker and close the port. Safe to call twice.

        Raises:
            LinkTimeout: the worker thread did not stop within JOIN_TIMEOUT_S.
        """
        with self._cv:
            if self._shared.closed:
                return
            self._shared.closed = True
            self._stop.set()
            self._wake()
            self._cv.notify_all()
        if self._thread is not None:
            self._thread.join(JOIN_TIMEOUT_S)
            if self._thread.is_alive():
                raise LinkTimeout(self.port, "worker thread exit", JOIN_TIMEOUT_S)
        with self._cv:
            self._close_port()

    def __enter__(self) -> DisplayLink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else ("connected" if self.connected else "connecting")
        return f"<DisplayLink port={self.port!r} {state}>"

    def _check_usable(self) -> None:
        if self._shared.closed:
            raise LinkClosed(self.port)
        if self._shared.failure is not None:
            raise self._shared.failure

    def _wait(self, done: Callable[[_Shared], bool], what: str, timeout: float) -> None:
        with self._cv:
            ok = self._cv.wait_for(
                lambda: done(self._shared) or self._shared.failure is not None
                or self._shared.closed, timeout)
            self._check_usable()
            if not ok:
                raise LinkTimeout(self.port, what, timeout)

    def _wake(self) -> None:
        """Interrupt the worker's blocking read (call with the lock held)."""
        port = self._serial
        if port is not None and port.is_open and hasattr(port, "cancel_read"):
            try:
                port.cancel_read()
            except (OSError, serial.SerialException):
                pass

    # --- the worker ---------------------------------------------------------------

    def _open(self) -> serial.SerialBase:
        try:
            port = serial.serial_for_url(self.port, baudrate=self._baudrate,
                                         timeout=READ_TIMEOUT_S, write_timeout=WRITE_TIMEOUT_S)
        except (OSError, ValueError, serial.SerialException) as exc:
            raise PortUnavailable(self.port, str(exc)) from exc
        try:
            port.reset_input_buffer()  # whatever the board said before we listened is stale
        except (OSError, serial.SerialException) as exc:
            port.close()
            raise PortUnavailable(self.port, str(exc)) from exc
        return port

    def _close_port(self) -> None:
        port, self._serial = self._serial, None
        if port is not None:
            try:
                port.close()
            except (OSError, serial.SerialException):
                pass

    def _run(self) -> None:
        decoder = FrameDecoder()
        self._begin_session(decoder)
        while not self._stop.is_set():
            if self._serial is None:
                try:
                    port = self._open()
                except PortUnavailable:
                    self._stop.wait(REOPEN_INTERVAL_S)
                    continue
                with self._cv:
                    self._serial = port
                    self._shared.counts["reconnects"] += 1
                self._begin_session(decoder)
            port = self._serial
            try:
                # Every concrete pyserial class has in_waiting; SerialBase does not declare it.
                data = port.read(port.in_waiting or 1)  # type: ignore[attr-defined]
            except (OSError, serial.SerialException):
                self._lose_port()
                continue
            frames = decoder.feed(data)
            with self._cv:
                counts = self._shared.counts
                counts["dropped_garbage"] = decoder.garbage
                counts["crc_errors"] = decoder.crc_errors
                for frame in frames:
                    self._handle(frame)
                out = self._due(time.monotonic())
                failed = self._shared.failure is not None
            if failed:
                break
            try:
                for wire in out:
                    port.write(wire)
            except (OSError, serial.SerialException):
                self._lose_port()
        with self._cv:
            self._shared.connected = False
            self._cv.notify_all()

    def _begin_session(self, decoder: FrameDecoder) -> None:
        """A fresh port: forget the board's numbering, handshake again."""
        with self._cv:
            decoder.reset()
            self._shared.connected = False
            self._inflight = None
            self._last_board_seq = None
            self._last_rx = time.monotonic()
            self._last_tx = 0.0

    def _lose_port(self) -> None:
        with self._cv:
            self._shared.connected = False
            self._close_port()

    def _handle(self, frame: Frame) -> None:
        counts = self._shared.counts
        if frame.seq == self._last_board_seq:
            counts["duplicates"] += 1
            return
        self._last_board_seq = frame.seq
        self._last_rx = time.monotonic()
        inflight = self._inflight
        payload = frame.payload
        if frame.cmd == Command.HELLO_REPLY and len(payload) >= 3:
            acked = payload[0] << 8 | payload[1]
            if inflight is None or inflight.cmd != Command.HELLO or inflight.seq != acked:
                counts["duplicates"] += 1
                return
            self._inflight = None
            if payload[2] != self._version:
                self._shared.failure = HandshakeFailed(self._version, payload[2], self.port)
            else:
                counts["handshakes"] += 1
                self._shared.connected = True
                self._shared.sent_generation = 0  # send the current state at once
            self._cv.notify_all()
        elif frame.cmd == Command.ACK and len(payload) == 2:
            acked = payload[0] << 8 | payload[1]
            if inflight is None or inflight.cmd != Command.STATE or inflight.seq != acked:
                counts["duplicates"] += 1  # an ack for a resend or a superseded state
                return
            self._inflight = None
            counts["acked"] += 1
            self._shared.acked_generation = max(self._shared.acked_generation, inflight.generation)
            self._cv.notify_all()
        elif frame.cmd == Command.HEARTBEAT and len(payload) == 3:
            flags = payload[0]
            if self._shared.connected and flags & protocol.FLAG_NO_SESSION:
                self._shared.connected = False  # the board restarted behind our back
                self._inflight = None
            elif (self._shared.connected and flags & protocol.FLAG_NEED_STATE
                  and self._inflight is None):
                self._shared.sent_generation = 0  # it blanked (link lost): send again

    def _due(self, now: float) -> list[bytes]:
        """Frames to write now: handshake, newest state, resends, heartbeat."""
        shared = self._shared
        counts = shared.counts
        out: list[bytes] = []
        if self._stop.is_set():
            return out
        if now - self._last_rx >= protocol.HOST_SILENCE_MS / 1000:
            self._close_port()  # the board went quiet: reopen, handshake, resend
            shared.connected = False
            return out
        if not shared.connected:
            if self._inflight is None or self._inflight.cmd != Command.HELLO:
                hello = bytes([self._version]) + os.urandom(4)  # version, session
                out.append(self._send(Command.HELLO, hello, now))
        elif shared.current is not None and shared.sent_generation < shared.generation:
            shared.sent_generation = shared.generation
            out.append(self._send(Command.STATE, shared.payload, now, shared.generation))
        inflight = self._inflight
        if inflight is not None and not out and now - inflight.sent_at >= protocol.RESEND_MS / 1000:
            inflight.sent_at = now
            counts["resent"] += 1
            out.append(inflight.wire)
        if not out and now - self._last_tx >= protocol.HEARTBEAT_MS / 1000:
            out.append(self._send(Command.HEARTBEAT, b"", now, track=False))
        if out:
            self._last_tx = now
        return out

    def _send(self, cmd: int, payload: bytes, now: float, generation: int = 0,
              track: bool = True) -> bytes:
        seq = self._tx_seq
        self._tx_seq = (seq + 1) & 0xFFFF
        wire = Frame(seq, cmd, payload).encode()
        self._shared.counts["sent"] += 1
        if track:
            self._inflight = _Inflight(seq, cmd, wire, now, generation)
        return wire
