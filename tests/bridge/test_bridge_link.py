"""DisplayLink against the simulated board, always through a real pty.

The board is the real firmware (firmware/board.py) run by SimulatedBoard in a thread;
the host opens the pty's slave path with pyserial. Faults are injected by the
simulated cable in both directions.
"""

from __future__ import annotations

import os
import random
import select
import time
import tty

import pytest

from firmware_bridge.errors import HandshakeFailed, LinkClosed, LinkTimeout, PortUnavailable
from firmware_bridge.firmware import protocol
from firmware_bridge.framing import Command, FrameDecoder
from firmware_bridge.link import DisplayLink
from firmware_bridge.samples import random_display
from hardware.display_state import TableDisplay


def compress(states: list[dict]) -> list[dict]:
    """Drop consecutive repeats (a reconnect re-sends the current state on purpose)."""
    out: list[dict] = []
    for state in states:
        if not out or out[-1] != state:
            out.append(state)
    return out


def test_every_state_arrives_in_order_over_a_lossy_line(make_board) -> None:
    board = make_board(drop=0.1, corrupt=0.1, seed=11)
    rng = random.Random(5)
    sent = [random_display(rng, i + 1) for i in range(60)]
    with DisplayLink(board.port) as link:
        for display in sent:
            link.show(display)
            link.wait_acked(10)
            # Acknowledged means shown: exactly this state, right now.
            assert board.shown == display.to_json()
        counters = link.counters
    assert compress(board.applied) == [d.to_json() for d in sent]
    assert counters.acked >= len(sent)
    # The faults really happened, and were survived by resending, not by luck.
    assert counters.resent > 0
    assert counters.crc_errors + counters.dropped_garbage > 0
    assert board.board.counters["crc_errors"] + board.board.counters["garbage"] > 0


def test_newest_state_wins_when_the_caller_outpaces_the_line(make_board) -> None:
    board = make_board(drop=0.1, corrupt=0.1, seed=12)
    rng = random.Random(6)
    sent = [random_display(rng, i + 1) for i in range(300)]
    with DisplayLink(board.port) as link:
        for display in sent:
            link.show(display)  # never waits: a pending state is replaced
        link.wait_acked(10)
    assert board.shown == sent[-1].to_json()
    indexes = [[d.to_json() for d in sent].index(s) for s in compress(board.applied)]
    assert indexes == sorted(set(indexes)), "the board showed an older state after a newer one"
    assert indexes[-1] == len(sent) - 1


def test_duplicated_frames_are_counted_and_not_acted_on_twice(make_board) -> None:
    board = make_board(duplicate=0.3, seed=13)
    rng = random.Random(7)
    sent = [random_display(rng, i + 1) for i in range(40)]
    with DisplayLink(board.port) as link:
        for display in sent:
            link.show(display)
            link.wait_acked(10)
        assert link.counters.duplicates > 0
    assert board.board.counters["duplicates"] > 0
    assert compress(board.applied) == [d.to_json() for d in sent]


def test_unplug_mid_stream_is_recovered_within_two_seconds(make_board, until, tmp_path) -> None:
    # The host opens the stable name (what the udev rule gives a real board): the new
    # pty gets another number while the host still holds the old one.
    board = make_board(drop=0.1, corrupt=0.1, seed=14, link=tmp_path / "cardtable-mcu")
    rng = random.Random(8)
    with DisplayLink(str(tmp_path / "cardtable-mcu")) as link:
        for i in range(10):
            link.show(random_display(rng, i + 1))
        link.wait_acked(10)
        last = random_display(rng, 99)
        link.show(last)
        started = time.monotonic()
        board.replug()  # old pty closed, new pty, link moved, freshly booted board
        assert until(lambda: board.boots == 2, 1.0)
        assert until(lambda: board.shown == last.to_json() and board.link_up, 5.0)
        recovered = time.monotonic() - started
        link.wait_acked(5)
        assert link.counters.reconnects >= 1
    assert recovered < 2.0, f"display correct again only after {recovered:.2f} s"


def test_version_mismatch_is_a_typed_error_naming_both_versions(make_board) -> None:
    board = make_board(version=protocol.PROTOCOL_VERSION + 1)
    with DisplayLink(board.port) as link:
        with pytest.raises(HandshakeFailed) as info:
            link.wait_connected(5)
        assert info.value.version_host == protocol.PROTOCOL_VERSION
        assert info.value.version_board == protocol.PROTOCOL_VERSION + 1
        assert info.value.port == board.port
        with pytest.raises(HandshakeFailed):
            link.show(TableDisplay())
    assert board.applied == []


def test_board_blanks_when_the_host_goes_away_and_is_restored_after(make_board, until) -> None:
    board = make_board()
    shown = TableDisplay(displays=("12", "3"), trump="D")
    with DisplayLink(board.port) as link:
        link.show(shown)
        link.wait_acked(5)
    lost_at = time.monotonic()
    assert until(lambda: not board.link_up, 6.0)
    waited = time.monotonic() - lost_at
    assert 2.0 < waited < 5.0  # about BOARD_LINK_TIMEOUT_MS, generous for a busy machine
    assert board.shown["displays"] == ["", ""] and board.shown["status"] == "link_lost"
    with DisplayLink(board.port) as link:
        link.show(shown)
        link.wait_acked(5)
        assert board.shown == shown.to_json()


def test_a_new_host_resends_what_the_board_lost(make_board, until) -> None:
    """The board blanked (host silent); the host is back: FLAG_NEED_STATE brings the
    state back without the caller calling show() again."""
    board = make_board()
    shown = TableDisplay(displays=("8", "9"))
    with DisplayLink(board.port) as link:
        link.show(shown)
        link.wait_acked(5)
        board.board._set_link(False)  # what 3 s of silence does, without waiting 3 s
        assert board.shown["status"] == "link_lost"
        assert until(lambda: board.shown == shown.to_json(), 2.0)


def test_loop_url_opens_and_show_does_not_block() -> None:
    # loop:// echoes our own frames back: no board answers, so nothing is ever acked.
    with DisplayLink("loop://") as link:
        started = time.monotonic()
        link.show(TableDisplay())
        assert time.monotonic() - started < 0.5
        with pytest.raises(LinkTimeout) as info:
            link.wait_acked(0.3)
        assert info.value.what == "acknowledgement" and info.value.port == "loop://"
        assert link.counters.sent > 0 and link.counters.acked == 0
    link.close()  # idempotent
    assert link.closed
    with pytest.raises(LinkClosed):
        link.show(TableDisplay())


def test_missing_port_is_a_typed_error_naming_it(tmp_path) -> None:
    with pytest.raises(PortUnavailable) as info:
        DisplayLink(str(tmp_path / "no-such-tty"))
    assert info.value.port.endswith("no-such-tty")


def test_a_silent_board_gets_hellos_resent_then_the_port_reopened() -> None:
    """Nobody answers on this pty: HELLO is resent every RESEND_MS, and after
    HOST_SILENCE_MS the host reopens the port and starts a new handshake."""
    master, slave = os.openpty()
    tty.setraw(slave)
    decoder = FrameDecoder()
    frames = []
    try:
        with DisplayLink(os.ttyname(slave)) as link:
            deadline = time.monotonic() + 2.5
            while time.monotonic() < deadline:
                if select.select([master], [], [], 0.05)[0]:
                    frames += decoder.feed(os.read(master, 4096))
            counters = link.counters
            assert not link.connected
    finally:
        os.close(master)
        os.close(slave)
    hellos = [f for f in frames if f.cmd == Command.HELLO]
    assert 8 <= len(hellos) <= 40  # about ten a second
    assert counters.resent >= 5
    assert counters.reconnects >= 1
    assert len({f.seq for f in hellos}) >= 2  # a new handshake after reopening


def test_both_ends_heartbeat_while_idle(make_board) -> None:
    board = make_board()
    with DisplayLink(board.port) as link:
        link.show(TableDisplay())
        link.wait_acked(5)
        before_board = board.board.counters["frames"]
        time.sleep(1.5)
        host_frames = board.board.counters["frames"] - before_board
        # Without the board's heartbeats the host would have reopened after 1 s.
        assert link.connected and link.counters.reconnects == 0
    # HEARTBEAT_MS = 250: about four each way per second when nothing else is sent.
    assert host_frames >= 3
