"""Serial bridge benchmark: round trips over a real pty to the simulated firmware.

`python -m bench bridge`. Each row sends whole random TableDisplays with DisplayLink,
waiting for every acknowledgement (so updates/s is the stop-and-wait rate), on a
clean line and on one losing 10% and damaging 10% of frames each way. The firmware
column is the simulator's own measurement of Board.feed() per received frame, i.e.
the Pico's code (pure-Python COBS, CRC, decode, render) under CPython.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from firmware_bridge.firmware import protocol
from firmware_bridge.firmware.board import Board
from firmware_bridge.link import DisplayLink
from firmware_bridge.samples import random_display
from firmware_bridge.simulator import (
    LineFaults,
    SimBuzzer,
    SimClock,
    SimDisplay,
    SimStrip,
    SimulatedBoard,
)

UPDATES = 400
LOSSY_UPDATES = 150  # each lost frame costs a 100 ms resend: keep `make bench` short
WARMUP = 20


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def run_case(faults: LineFaults, updates: int, link_dir: Path) -> dict[str, float]:
    rng = random.Random(1)
    states = [random_display(rng, i + 1) for i in range(updates + WARMUP)]
    link = link_dir / f"mcu-{faults.drop}-{faults.corrupt}"
    with SimulatedBoard(faults=faults, link=link) as board, DisplayLink(str(link)) as host:
        board.start()
        host.wait_connected(5)
        for state in states[:WARMUP]:
            host.show(state)
            host.wait_acked(10)
        board.frame_times_ns.clear()
        rtts = []
        started = time.perf_counter()
        for state in states[WARMUP:]:
            t0 = time.perf_counter()
            host.show(state)
            host.wait_acked(10)
            rtts.append((time.perf_counter() - t0) * 1000)
        elapsed = time.perf_counter() - started
        assert board.shown == states[-1].to_json()
        frame_us = [ns / 1000 for ns in board.frame_times_ns]
        resent = host.counters.resent
    return {
        "p50_ms": statistics.median(rtts),
        "p99_ms": _percentile(rtts, 0.99),
        "per_s": updates / elapsed,
        "fw_us": statistics.median(frame_us),
        "fw_p99_us": _percentile(frame_us, 0.99),
        "resent": resent,
    }


def firmware_alone(frames: int = 2000) -> dict[str, float]:
    """Board.feed() per frame in one thread, no pty: the firmware's own CPU cost."""
    rng = random.Random(2)
    board = Board(lambda data: None, SimStrip(), [SimDisplay(), SimDisplay()], SimBuzzer(),
                  SimClock())
    hello = bytes([protocol.PROTOCOL_VERSION]) + b"abcd"
    board.feed(protocol.build_frame(1, protocol.CMD_HELLO, hello))
    kinds = {
        "STATE (new state, render)": [
            protocol.build_frame(2 + i, protocol.CMD_STATE,
                                 protocol.encode_state(random_display(rng, i).to_json()))
            for i in range(frames)],
        "HEARTBEAT": [protocol.build_frame(5000 + i, protocol.CMD_HEARTBEAT)
                      for i in range(frames)],
        "damaged (tail overwritten)": [
            protocol.build_frame(9000 + i, protocol.CMD_STATE, b"x" * 30)[:-3] + b"\x01\x01\x00"
            for i in range(frames)],
    }
    result = {}
    for name, wires in kinds.items():
        times = []
        for wire in wires:
            t0 = time.perf_counter_ns()
            board.feed(wire)
            times.append(time.perf_counter_ns() - t0)
        result[name] = statistics.median(times) / 1000
    return result


def main() -> None:
    cases = [("clean line", LineFaults(seed=1), UPDATES),
             ("10% drop + 10% corrupt", LineFaults(drop=0.1, corrupt=0.1, seed=1), LOSSY_UPDATES)]
    print("whole-state updates, each acknowledged, host DisplayLink <-> pty <-> simulated firmware")
    header = (f"{'line':<24} {'updates':>7} {'rtt p50 ms':>10} {'rtt p99 ms':>10} "
              f"{'updates/s':>10} {'fw/frame µs':>11} {'fw p99 µs':>9} {'resent':>6}")
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        for name, faults, updates in cases:
            r = run_case(faults, updates, Path(tmp))
            print(f"{name:<24} {updates:>7} {r['p50_ms']:>10.2f} {r['p99_ms']:>10.2f} "
                  f"{r['per_s']:>10.0f} {r['fw_us']:>11.0f} {r['fw_p99_us']:>9.0f} "
                  f"{r['resent']:>6}", flush=True)
    print("(fw columns: Board.feed() per frame inside the simulator thread, GIL waits included)")
    print()
    print("firmware alone under CPython, one thread, 2000 frames each")
    print(f"{'frame':<28} {'median µs':>9}")
    for name, us in firmware_alone().items():
        print(f"{name:<28} {us:>9.1f}")


if __name__ == "__main__":
    main()
