"""The wire protocol shared by the host and the Pico firmware.

This one file runs unchanged under CPython (the host imports it, and the simulator
runs the firmware on it) and under MicroPython on the Raspberry Pi Pico. That is why
it is written in the subset both understand: no dataclasses, enums or typing at run
time, no f-strings, only bytes/bytearray, struct and plain dicts/lists. Having one
copy of the constants and the state codec means the two ends cannot drift apart.

Frame, before COBS (see firmware_bridge/README.md for the whole spec):

    seq:u16 big-endian | cmd:u8 | len:u8 | payload (len bytes) | crc:u16 big-endian

The CRC is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over seq..payload. The
frame is COBS-encoded and terminated by a single 0x00 byte.
"""

import struct

PROTOCOL_VERSION = 1

# Commands. Host -> board: HELLO, STATE, HEARTBEAT. Board -> host: HELLO_REPLY,
# ACK, HEARTBEAT.
CMD_HELLO = 0x01  # payload: version:u8, session:u32 (random per handshake)
CMD_HELLO_REPLY = 0x02  # payload: acked_seq:u16, version:u8, seats:u8, name
CMD_ACK = 0x03  # payload: acked_seq:u16
CMD_STATE = 0x10  # payload: an encoded table state, see encode_state()
CMD_HEARTBEAT = 0x20  # host: empty; board: flags:u8, last_state_seq:u16

COMMAND_NAMES = {
    CMD_HELLO: "hello",
    CMD_HELLO_REPLY: "hello_reply",
    CMD_ACK: "ack",
    CMD_STATE: "state",
    CMD_HEARTBEAT: "heartbeat",
}

#: Board heartbeat flag: the board has nothing valid on show (it booted or lost
#: the link) and asks the host to send the current state again.
FLAG_NEED_STATE = 0x01
#: Board heartbeat flag: no valid HELLO since boot (or a version mismatch); the host
#: must handshake again before the board accepts states.
FLAG_NO_SESSION = 0x02

# Timings, in milliseconds. Both ends read them from here.
HEARTBEAT_MS = 250  # each end sends a heartbeat at least this often
RESEND_MS = 100  # host resends an unacknowledged frame after this long
HOST_SILENCE_MS = 1000  # host reopens the port when the board is this quiet
BOARD_LINK_TIMEOUT_MS = 3000  # board blanks and shows "link lost" after this

HELLO_LEN = 5
HEADER_LEN = 4  # seq:u16, cmd:u8, len:u8
CRC_LEN = 2
MAX_PAYLOAD = 64
MAX_FRAME = HEADER_LEN + MAX_PAYLOAD + CRC_LEN  # before COBS
MAX_ENCODED = MAX_FRAME + MAX_FRAME // 254 + 2  # after COBS, with the 0x00

MAX_SEATS = 6
DISPLAY_WIDTH = 4
LED_MODES = ("off", "on", "blink", "pulse")
TRUMPS = (None, "C", "D", "H", "S")
STATUSES = ("ready", "watching", "no_table", "link_lost")
BUZZES = ("none", "short", "long", "alarm")
#: What a 7-segment digit shows legibly; the same set as hardware.display_state.
DISPLAY_CHARS = "0123456789 -_ABCDEFGHIJLNOPQRSTUYabcdefghijlnopqrstuy"


class ProtocolError(ValueError):
    """A frame or payload that must not be acted on. `reason` says why."""

    def __init__(self, reason, raw=b""):
        ValueError.__init__(self, "%s (%d bytes)" % (reason, len(raw)))
        self.reason = reason
        self.raw = bytes(raw)


# --- CRC-16/CCITT-FALSE -------------------------------------------------------


def _make_crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
        table.append(crc)
    return table


_CRC_TABLE = _make_crc_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE; equals binascii.crc_hqx(data, 0xFFFF) on CPython."""
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ byte) & 0xFF]
    return crc


# --- COBS ---------------------------------------------------------------------


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: the result contains no 0x00 byte."""
    out = bytearray()
    code_at = 0
    out.append(0)
    code = 1
    for byte in data:
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(byte)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    """Undo cobs_encode. Raises ProtocolError on a zero byte or a short block."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ProtocolError("zero byte inside a COBS frame", data)
        end = i + code
        if end > n:
            raise ProtocolError("COBS block runs past the frame end", data)
        for j in range(i + 1, end):
            byte = data[j]
            if byte == 0:
                raise ProtocolError("zero byte inside a COBS frame", data)
            out.append(byte)
        i = end
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


# --- Frames -------------------------------------------------------------------


def build_frame(seq, cmd, payload=b""):
    """The bytes to put on the wire: COBS(header + payload + crc) + 0x00."""
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError("payload longer than %d bytes" % MAX_PAYLOAD, payload)
    body = struct.pack(">HBB", seq & 0xFFFF, cmd, len(payload)) + bytes(payload)
    body += struct.pack(">H", crc16(body))
    return cobs_encode(body) + b"\x00"


def check_body(body, crc):
    """Split a COBS-decoded frame into (seq, cmd, payload), checking length and CRC.

    `crc` is the CRC function to use (the host passes binascii's C version).
    Raises ProtocolError with reason "short", "length" or "crc".
    """
    if len(body) < HEADER_LEN + CRC_LEN:
        raise ProtocolError("short", body)
    seq, cmd, length = struct.unpack(">HBB", body[:HEADER_LEN])
    if len(body) != HEADER_LEN + length + CRC_LEN:
        raise ProtocolError("length", body)
    (sent_crc,) = struct.unpack(">H", body[-CRC_LEN:])
    if crc(body[:-CRC_LEN], 0xFFFF) != sent_crc:
        raise ProtocolError("crc", body)
    return seq, cmd, bytes(body[HEADER_LEN:-CRC_LEN])


class FrameReader:
    """Splits a byte stream at 0x00 delimiters into COBS-encoded frames.

    A run longer than MAX_ENCODED without a delimiter is garbage: it is thrown away
    (and counted in `overflows`) so that noise on the line cannot grow memory.
    """

    def __init__(self):
        self._buf = bytearray()
        self._skipping = False
        self.overflows = 0

    def feed(self, data):
        """Return the list of complete encoded frames (without the 0x00) in `data`."""
        frames = []
        buf = self._buf
        for byte in data:
            if byte == 0:
                if self._skipping:
                    self._skipping = False
                elif len(buf):
                    frames.append(bytes(buf))
                buf = bytearray()
            elif not self._skipping:
                buf.append(byte)
                if len(buf) > MAX_ENCODED:
                    buf = bytearray()
                    self._skipping = True
                    self.overflows += 1
        self._buf = buf
        return frames


# --- The table state payload ----------------------------------------------------


def _index(values, value, what):
    for i in range(len(values)):
        if values[i] == value:
            return i
    raise ProtocolError("bad %s %r" % (what, value))


def encode_state(state):
    """Pack a table state (the TableDisplay JSON dict form) into a compact payload.

    Layout: seats:u8, then per seat mode:u8 r:u8 g:u8 b:u8, two displays of 4 bytes
    (text, NUL-padded on the right), trump:u8, status:u8, buzz:u8, buzz_id:u16.
    """
    seats = state["seats"]
    if not 1 <= len(seats) <= MAX_SEATS:
        raise ProtocolError("bad seat count %d" % len(seats))
    out = bytearray([len(seats)])
    for seat in seats:
        out.append(_index(LED_MODES, seat["mode"], "led mode"))
        for channel in seat["colour"]:
            out.append(channel)
    for text in state["displays"]:
        raw = text.encode()
        if len(raw) > DISPLAY_WIDTH:
            raise ProtocolError("display text %r too long" % text)
        out.extend(raw + b"\x00" * (DISPLAY_WIDTH - len(raw)))
    out.append(_index(TRUMPS, state["trump"], "trump"))
    out.append(_index(STATUSES, state["status"], "status"))
    out.append(_index(BUZZES, state["buzz"], "buzz"))
    out.extend(struct.pack(">H", state["buzz_id"]))
    return bytes(out)


def _decode_text(raw):
    end = DISPLAY_WIDTH
    for i in range(DISPLAY_WIDTH):
        if raw[i] == 0:
            end = i
            break
    for i in range(end, DISPLAY_WIDTH):
        if raw[i] != 0:
            raise ProtocolError("display text has bytes after its end", raw)
    text = ""
    for i in range(end):
        char = chr(raw[i])
        if char not in DISPLAY_CHARS:
            raise ProtocolError("display cannot show byte %d" % raw[i], raw)
        text += char
    return text


def _pick(values, index, what, raw):
    if index >= len(values):
        raise ProtocolError("bad %s code %d" % (what, index), raw)
    return values[index]


def decode_state(payload):
    """Unpack encode_state()'s payload into the same plain dict form.

    Strict: any value out of range raises ProtocolError, so the board never shows
    something the host did not mean.
    """
    if len(payload) < 1:
        raise ProtocolError("empty state", payload)
    count = payload[0]
    if not 1 <= count <= MAX_SEATS:
        raise ProtocolError("bad seat count %d" % count, payload)
    if len(payload) != 1 + 4 * count + 2 * DISPLAY_WIDTH + 5:
        raise ProtocolError("state length does not match seat count", payload)
    seats = []
    at = 1
    for _ in range(count):
        mode = _pick(LED_MODES, payload[at], "led mode", payload)
        seats.append({"mode": mode, "colour": [payload[at + 1], payload[at + 2], payload[at + 3]]})
        at += 4
    displays = []
    for _ in range(2):
        displays.append(_decode_text(payload[at:at + DISPLAY_WIDTH]))
        at += DISPLAY_WIDTH
    trump = _pick(TRUMPS, payload[at], "trump", payload)
    status = _pick(STATUSES, payload[at + 1], "status", payload)
    buzz = _pick(BUZZES, payload[at + 2], "buzz", payload)
    (buzz_id,) = struct.unpack(">H", payload[at + 3:at + 5])
    return {
        "seats": seats,
        "displays": displays,
        "trump": trump,
        "status": status,
        "buzz": buzz,
        "buzz_id": buzz_id,
    }


def blank_state(seats):
    """What the board shows with no valid state: everything off, status link lost."""
    return {
        "seats": [{"mode": "off", "colour": [0, 0, 0]} for _ in range(seats)],
        "displays": ["", ""],
        "trump": None,
        "status": "link_lost",
        "buzz": "none",
        "buzz_id": 0,
    }


def seq_newer(a, b):
    """True if 16-bit sequence number `a` comes after `b` (RFC 1982 arithmetic)."""
    diff = (a - b) & 0xFFFF
    return 0 < diff < 0x8000
