"""Framing unit tests: COBS, CRC, frame layout, the state codec, torn and bad frames.

The firmware's pure-Python COBS/CRC and the host's C versions (cobs package,
binascii.crc_hqx) must agree byte for byte: each side is checked against the other.
"""

from __future__ import annotations

import binascii
import random

import pytest
from cobs import cobs
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.errors import FrameError
from firmware_bridge.firmware import protocol
from firmware_bridge.framing import Command, Frame, FrameDecoder, decode_frame
from firmware_bridge.samples import random_display
from hardware.display_state import TableDisplay


@settings(deadline=None)
@given(st.binary(max_size=600))
def test_firmware_cobs_matches_the_cobs_package_and_round_trips(data: bytes) -> None:
    encoded = protocol.cobs_encode(data)
    assert encoded == cobs.encode(data)
    assert b"\x00" not in encoded
    assert protocol.cobs_decode(encoded) == data


def test_cobs_decode_rejects_a_block_running_past_the_end() -> None:
    with pytest.raises(protocol.ProtocolError) as info:
        protocol.cobs_decode(b"\x05ab")
    assert "past the frame end" in info.value.reason


def test_crc_is_ccitt_false_check_value() -> None:
    # The catalogued check value of CRC-16/CCITT-FALSE over "123456789".
    assert protocol.crc16(b"123456789") == 0x29B1
    assert binascii.crc_hqx(b"123456789", 0xFFFF) == 0x29B1


@settings(deadline=None)
@given(st.binary(max_size=200))
def test_firmware_crc_equals_binascii(data: bytes) -> None:
    assert protocol.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


@settings(deadline=None)
@given(st.integers(0, 0xFFFF), st.sampled_from(list(Command)), st.binary(max_size=64))
def test_host_and_firmware_build_identical_frames(seq: int, cmd: Command, payload: bytes) -> None:
    wire = Frame(seq, cmd, payload).encode()
    assert wire == protocol.build_frame(seq, cmd, payload)
    assert wire.endswith(b"\x00") and wire.count(0) == 1
    assert decode_frame(wire[:-1]) == Frame(seq, cmd, payload)


def test_payload_too_long_is_refused_before_sending() -> None:
    with pytest.raises(FrameError) as info:
        Frame(1, Command.STATE, bytes(protocol.MAX_PAYLOAD + 1)).encode()
    assert info.value.reason == "length"


def test_a_flipped_bit_is_a_crc_error_carrying_the_raw_bytes() -> None:
    wire = bytearray(Frame(7, Command.STATE, b"\x11\x22\x33").encode()[:-1])
    wire[wire.index(0x22)] ^= 0x01  # a payload byte, not a COBS code byte
    with pytest.raises(FrameError) as info:
        decode_frame(bytes(wire))
    assert info.value.reason == "crc"
    assert info.value.raw == bytes(wire)


def test_torn_frames_are_dropped_and_counted_never_returned() -> None:
    good = Frame(1, Command.ACK, b"\x00\x05").encode()
    decoder = FrameDecoder()
    # The tail of a frame (its start was lost), then the head of one cut off by a
    # delimiter that was really the start of the next frame, then a whole frame.
    stream = good[5:] + good[:6] + b"\x00" + good
    assert decoder.feed(stream) == [Frame(1, Command.ACK, b"\x00\x05")]
    assert decoder.garbage + decoder.crc_errors == 2
    assert decoder.last_error is not None


def test_frames_split_across_reads_are_reassembled() -> None:
    wire = Frame(300, Command.HEARTBEAT, b"\x01\x02\x03").encode()
    decoder = FrameDecoder()
    frames = [f for byte in wire for f in decoder.feed(bytes([byte]))]
    assert frames == [Frame(300, Command.HEARTBEAT, b"\x01\x02\x03")]


def test_a_long_run_without_delimiter_is_garbage_not_memory() -> None:
    reader = protocol.FrameReader()
    assert reader.feed(b"\x01" * 10_000) == []
    assert reader.overflows == 1
    assert len(reader._buf) <= protocol.MAX_ENCODED
    # The stream recovers at the next delimiter.
    wire = protocol.build_frame(1, protocol.CMD_ACK, b"\x00\x01")
    assert reader.feed(b"\x00" + wire) == [wire[:-1]]


def test_wrong_length_field_is_rejected() -> None:
    body = bytearray(b"\x00\x01\x03\x05abc")  # says 5 bytes of payload, has 3
    body += protocol.crc16(bytes(body)).to_bytes(2, "big")
    with pytest.raises(FrameError) as info:
        decode_frame(cobs.encode(bytes(body)))
    assert info.value.reason == "length"


@pytest.mark.parametrize("seed", range(200))
def test_state_codec_round_trips_every_field(seed: int) -> None:
    display = random_display(random.Random(seed), seed)
    payload = protocol.encode_state(display.to_json())
    assert len(payload) <= protocol.MAX_PAYLOAD
    assert TableDisplay.from_json(protocol.decode_state(payload)) == display
    assert protocol.decode_state(payload) == display.to_json()


def test_state_codec_keeps_text_exactly() -> None:
    for text in ("", " ", "12", "  12", "-1 -", "ABCD"):
        display = TableDisplay(displays=(text, "0"))
        decoded = protocol.decode_state(protocol.encode_state(display.to_json()))
        assert decoded["displays"] == [text, "0"]


@pytest.mark.parametrize("offset, value, reason", [
    (0, 0, "seat count"),  # no seats
    (0, 7, "seat count"),  # more seats than the strip has
    (1, 4, "led mode"),  # seat 1 mode beyond pulse
    (17, ord("!"), "cannot show"),  # display 1, first char
    (18, 0, "after its end"),  # "A\0B" is not a text
    (25, 5, "trump"),
    (26, 4, "status"),
    (27, 9, "buzz"),
])
def test_state_decoder_refuses_values_the_host_never_sends(
        offset: int, value: int, reason: str) -> None:
    display = TableDisplay(displays=("ABC", "12"), trump="H", buzz_id=3)
    payload = bytearray(protocol.encode_state(display.to_json()))
    payload[offset] = value
    with pytest.raises(protocol.ProtocolError) as info:
        protocol.decode_state(bytes(payload))
    assert reason in info.value.reason


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=40))
def test_state_decoder_only_ever_returns_showable_states(payload: bytes) -> None:
    try:
        state = protocol.decode_state(payload)
    except protocol.ProtocolError:
        return
    TableDisplay.from_json(state)  # raises if the firmware accepted something unshowable


def test_sequence_numbers_compare_across_wrap_around() -> None:
    assert protocol.seq_newer(1, 0)
    assert protocol.seq_newer(0, 0xFFFF)
    assert not protocol.seq_newer(5, 5)
    assert not protocol.seq_newer(0xFFFF, 0)
