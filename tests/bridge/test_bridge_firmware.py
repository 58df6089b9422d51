"""The firmware's logic (firmware/board.py, tm1637.py) run directly under CPython.

These feed the Board the exact bytes a host would send and read back what it sent
and showed, with a hand-driven clock, so the timing rules (heartbeat, link lost
after 3 s) are checked without sleeping. Pty tests are in test_bridge_link.py.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from firmware_bridge.firmware import protocol
from firmware_bridge.firmware.board import STATUS_LED, STRIP_LENGTH, TRUMP_LED0, Board
from firmware_bridge.firmware.tm1637 import FONT, TM1637, encode_text
from firmware_bridge.framing import Command, Frame, FrameDecoder
from firmware_bridge.simulator import SimBuzzer, SimDisplay, SimStrip
from hardware.display_state import (
    SEGMENT_CHARS,
    Buzz,
    LedMode,
    Rgb,
    SeatLight,
    Status,
    TableDisplay,
)

FIRMWARE = Path(__file__).parents[2] / "firmware_bridge" / "firmware"


class HandClock:
    def __init__(self) -> None:
        self.now = 1000

    def ticks_ms(self) -> int:
        return self.now

    def ticks_diff(self, a: int, b: int) -> int:
        return a - b


class Rig:
    """A Board with recording drivers; `replies()` decodes what it sent back."""

    def __init__(self, version: int = protocol.PROTOCOL_VERSION) -> None:
        self.clock = HandClock()
        self.wire = bytearray()
        self.applied: list[dict] = []
        self.strip = SimStrip()
        self.displays = [SimDisplay(), SimDisplay()]
        self.buzzer = SimBuzzer()
        self.board = Board(self.wire.extend, self.strip, self.displays, self.buzzer, self.clock,
                           version=version, on_apply=self.applied.append)
        self._decoder = FrameDecoder()

    def send(self, seq: int, cmd: int, payload: bytes = b"") -> None:
        self.board.feed(Frame(seq, cmd, payload).encode())

    def hello(self, seq: int = 100, version: int = protocol.PROTOCOL_VERSION,
              session: bytes = b"\x00\x00\x00\x01") -> None:
        self.send(seq, Command.HELLO, bytes([version]) + session)

    def state(self, seq: int, display: TableDisplay) -> None:
        self.send(seq, Command.STATE, protocol.encode_state(display.to_json()))

    def replies(self) -> list[Frame]:
        frames = self._decoder.feed(bytes(self.wire))
        self.wire.clear()
        return frames


def display(n: int, **kw: object) -> TableDisplay:
    return TableDisplay(seats=(SeatLight(LedMode.ON, Rgb(n, 0, 0)),) * 3,
                        displays=(str(n), "-"), **kw)  # type: ignore[arg-type]


def acks(frames: list[Frame]) -> list[int]:
    return [f.payload[0] << 8 | f.payload[1] for f in frames if f.cmd == Command.ACK]


def test_hello_reply_carries_the_version_and_acks_the_hello_seq() -> None:
    rig = Rig()
    rig.hello(seq=0x1234)
    (reply,) = rig.replies()
    assert reply.cmd == Command.HELLO_REPLY
    assert reply.payload[:3] == bytes([0x12, 0x34, protocol.PROTOCOL_VERSION])


def test_state_is_applied_once_and_a_resend_is_acked_again_not_reapplied() -> None:
    rig = Rig()
    rig.hello(seq=10)
    rig.replies()
    rig.state(11, display(1))
    rig.state(11, display(1))  # the host resent: its ack was lost
    assert acks(rig.replies()) == [11, 11]
    assert rig.applied == [display(1).to_json()]
    assert rig.board.counters["duplicates"] == 1
    assert rig.displays[0].text == "1" and rig.displays[1].text == "-"
    assert rig.strip.pixels[:4] == [(1, 0, 0)] * 3 + [(0, 0, 0)]


def test_an_older_state_never_replaces_a_newer_one() -> None:
    rig = Rig()
    rig.hello(seq=10)
    rig.state(12, display(2))
    rig.state(11, display(1))  # late copy of an older frame
    assert rig.applied == [display(2).to_json()]
    assert rig.board.shown == display(2).to_json()


def test_states_before_a_handshake_are_not_acted_on() -> None:
    rig = Rig()
    rig.state(5, display(1))
    assert rig.applied == [] and acks(rig.replies()) == []
    assert rig.board.counters["ignored"] == 1


def test_version_mismatch_board_refuses_states_and_says_its_version() -> None:
    rig = Rig(version=2)
    rig.hello(seq=1, version=1)
    rig.state(2, display(1))
    (reply,) = rig.replies()
    assert reply.cmd == Command.HELLO_REPLY and reply.payload[2] == 2
    assert rig.applied == []


def test_heartbeat_asks_for_state_until_one_is_shown() -> None:
    rig = Rig()
    rig.clock.now += protocol.HEARTBEAT_MS
    rig.board.tick()
    (beat,) = rig.replies()
    assert beat.cmd == Command.HEARTBEAT
    assert beat.payload[0] == protocol.FLAG_NEED_STATE | protocol.FLAG_NO_SESSION
    rig.hello(seq=1)
    rig.state(2, display(1))
    rig.replies()
    rig.clock.now += protocol.HEARTBEAT_MS
    rig.board.tick()
    (beat,) = rig.replies()
    assert beat.payload == b"\x00\x00\x02"


def test_silent_host_blanks_the_displays_and_shows_link_lost() -> None:
    rig = Rig()
    rig.hello(seq=1)
    rig.state(2, display(7, trump="S"))
    assert rig.strip.pixels[TRUMP_LED0 + 3] != (0, 0, 0)
    rig.clock.now += protocol.BOARD_LINK_TIMEOUT_MS - 10
    rig.board.tick()
    assert rig.board.link_up and rig.displays[0].text == "7"
    rig.clock.now += 10
    rig.board.tick()
    assert not rig.board.link_up
    assert rig.board.shown["status"] == "link_lost"
    assert [d.text for d in rig.displays] == ["", ""]
    assert [d.segments for d in rig.displays] == [b"\x00" * 4] * 2
    assert rig.strip.pixels[:STATUS_LED] == [(0, 0, 0)] * STATUS_LED
    assert rig.strip.pixels[STATUS_LED] == (60, 0, 0)
    # When the host speaks again the board asks for the state; the new one shows.
    rig.replies()
    rig.send(3, Command.HEARTBEAT)
    rig.clock.now += protocol.HEARTBEAT_MS
    rig.board.tick()
    assert rig.replies()[-1].payload[0] == protocol.FLAG_NEED_STATE
    rig.state(4, display(8))
    assert rig.displays[0].text == "8" and rig.board.link_up


def test_buzzer_sounds_once_per_buzz_id_change() -> None:
    rig = Rig()
    rig.hello(seq=1)
    rig.state(2, display(1, buzz=Buzz.SHORT, buzz_id=1))  # first state: the baseline
    rig.state(3, display(1, buzz=Buzz.SHORT, buzz_id=2))
    rig.state(4, display(2, buzz=Buzz.SHORT, buzz_id=2))  # same id: no second beep
    rig.state(5, display(2, buzz=Buzz.ALARM, buzz_id=3))
    assert rig.buzzer.played == ["short", "alarm"]


def test_blink_and_pulse_animate_on_the_strip() -> None:
    rig = Rig()
    rig.hello(seq=1)
    seats = (SeatLight(LedMode.BLINK, Rgb(200, 0, 0)), SeatLight(LedMode.PULSE, Rgb(0, 0, 200)))
    rig.clock.now = 10_000
    rig.state(2, TableDisplay(seats=seats, status=Status.WATCHING))
    assert rig.strip.pixels[0] == (200, 0, 0) and rig.strip.pixels[1] == (0, 0, 0)
    rig.clock.now = 10_300
    rig.board.tick()
    assert rig.strip.pixels[0] == (0, 0, 0) and rig.strip.pixels[1] == (0, 0, 120)
    assert len(rig.strip.pixels) == STRIP_LENGTH


def test_tm1637_font_covers_every_showable_character() -> None:
    assert set(SEGMENT_CHARS) <= set(FONT)
    assert encode_text("12") == bytes([0, 0, FONT["1"], FONT["2"]])
    assert encode_text("") == b"\x00" * 4


class RecordingPin:
    def __init__(self, name: str, log: list[tuple[str, int]]) -> None:
        self.name, self.log = name, log

    def value(self, v: int) -> None:
        self.log.append((self.name, v))


def test_tm1637_clocks_out_bytes_lsb_first_between_start_and_stop() -> None:
    log: list[tuple[str, int]] = []
    display = TM1637(RecordingPin("clk", log), RecordingPin("dio", log), lambda us: None)
    display.write_segments(b"\x3f\x06\x5b\x4f")
    # Decode the two wires like the chip: start = DIO falls while CLK is high, stop =
    # DIO rises while CLK is high, a bit = DIO at each rising CLK edge, 9 clocks a byte.
    clk = dio = 1
    bits: list[int] = []
    transactions: list[list[int]] = []
    for name, v in log:
        if name == "dio":
            if clk == 1 and dio == 1 and v == 0:
                bits = []
            elif clk == 1 and dio == 0 and v == 1:
                groups = [bits[i:i + 9] for i in range(0, len(bits) - 8, 9)]
                transactions.append([sum(b << n for n, b in enumerate(g[:8])) for g in groups])
            dio = v
        else:
            if clk == 0 and v == 1:
                bits.append(dio)
            clk = v
    assert transactions == [[0x40], [0xC0, 0x3F, 0x06, 0x5B, 0x4F], [0x8C]]


_ALLOWED_IMPORTS = {"struct", "time", "select", "sys", "micropython", "machine", "neopixel",
                    "protocol", "board", "tm1637", "pico_hw", "firmware_bridge.firmware"}


@pytest.mark.parametrize("name", ["protocol.py", "board.py", "tm1637.py", "pico_hw.py", "main.py"])
def test_firmware_stays_in_the_micropython_subset(name: str) -> None:
    """No dataclasses/typing/enum, no f-strings, no walrus or match, known imports only."""
    tree = ast.parse((FIRMWARE / name).read_text())
    for node in ast.walk(tree):
        assert not isinstance(node, (ast.JoinedStr, ast.NamedExpr, ast.Match, ast.AnnAssign)), \
            f"{name}:{node.lineno}: {type(node).__name__} is outside the shared subset"
        if isinstance(node, ast.FunctionDef):
            assert node.returns is None and not node.decorator_list, f"{name}:{node.lineno}"
            assert all(a.annotation is None for a in node.args.args), f"{name}:{node.lineno}"
        if isinstance(node, ast.Import):
            assert {a.name for a in node.names} <= _ALLOWED_IMPORTS, f"{name}:{node.lineno}"
        if isinstance(node, ast.ImportFrom):
            assert node.module in _ALLOWED_IMPORTS, f"{name}: from {node.module}"


def test_a_new_host_reusing_the_hello_seq_still_starts_a_new_session() -> None:
    """Regression: a restarted host whose HELLO had the previous run's seq was taken
    for a resend, so its states (with lower seqs) were acked but never shown."""
    rig = Rig()
    rig.hello(seq=100, session=b"\x00\x00\x00\x01")
    rig.state(900, display(1))
    rig.hello(seq=100, session=b"\x00\x00\x00\x01")  # resend: nothing changes
    rig.state(101, display(2))
    assert rig.applied == [display(1).to_json()]
    rig.hello(seq=100, session=b"\x00\x00\x00\x02")  # another host, same seq by chance
    rig.state(101, display(2))
    assert rig.applied == [display(1).to_json(), display(2).to_json()]
