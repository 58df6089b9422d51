"""Host-side framing: COBS (the `cobs` package) and CRC-16 (binascii.crc_hqx).

The firmware has its own pure-Python COBS and CRC in firmware/protocol.py; the host
uses the C implementations for speed, and the tests check both produce the same
bytes. The frame layout and limits come from protocol.py, so they cannot drift.
"""

from __future__ import annotations

import binascii
import enum
from dataclasses import dataclass

from cobs import cobs

from firmware_bridge.errors import FrameError
from firmware_bridge.firmware import protocol


class Command(enum.IntEnum):
    """Command bytes (values from protocol.py)."""

    HELLO = protocol.CMD_HELLO
    HELLO_REPLY = protocol.CMD_HELLO_REPLY
    ACK = protocol.CMD_ACK
    STATE = protocol.CMD_STATE
    HEARTBEAT = protocol.CMD_HEARTBEAT


@dataclass(frozen=True, slots=True)
class Frame:
    """One decoded frame. `cmd` is an int: unknown commands still decode (and are ignored)."""

    seq: int
    cmd: int
    payload: bytes = b""

    def encode(self) -> bytes:
        """The wire bytes: COBS(seq, cmd, len, payload, crc) + 0x00."""
        if len(self.payload) > protocol.MAX_PAYLOAD:
            raise FrameError("length", self.payload)
        body = bytes((self.seq >> 8 & 0xFF, self.seq & 0xFF, self.cmd, len(self.payload)))
        body += self.payload
        crc = binascii.crc_hqx(body, 0xFFFF)
        return cobs.encode(body + crc.to_bytes(2, "big")) + b"\x00"


def decode_frame(encoded: bytes) -> Frame:
    """Decode one COBS-encoded frame (without its 0x00).

    Raises:
        FrameError: reason "cobs", "short", "length" or "crc".
    """
    try:
        body = cobs.decode(encoded)
    except cobs.DecodeError as exc:
        raise FrameError("cobs", encoded) from exc
    try:
        seq, cmd, payload = protocol.check_body(body, binascii.crc_hqx)
    except protocol.ProtocolError as exc:
        raise FrameError(exc.reason, encoded) from exc
    return Frame(seq, cmd, payload)


class FrameDecoder:
    """Turns a byte stream into frames, counting (never raising on) what it drops.

    Feed it whatever the port returned; torn frames (the tail of a frame whose start
    was lost, e.g. after opening the port mid-stream) fail COBS or CRC and are counted.
    """

    def __init__(self) -> None:
        self._reader = protocol.FrameReader()
        self.garbage = 0
        self.crc_errors = 0
        self.last_error: FrameError | None = None

    def feed(self, data: bytes) -> list[Frame]:
        frames = []
        for encoded in self._reader.feed(data):
            try:
                frames.append(decode_frame(encoded))
            except FrameError as exc:
                self.last_error = exc
                if exc.reason == "crc":
                    self.crc_errors += 1
                else:
                    self.garbage += 1
        self.garbage += self._reader.overflows
        self._reader.overflows = 0
        return frames

    def reset(self) -> None:
        """Forget a partial frame (after reopening the port)."""
        self._reader = protocol.FrameReader()
