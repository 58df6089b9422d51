"""`cardtable firmware-sim` and `cardtable display-test`: the serial bridge by hand.

firmware-sim runs the real firmware on a pty (so the host, and these tests, go through
a real serial port); display-test drives any board, simulated or real, with random
whole states and reports how delivery went.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import statistics
import sys
import threading
import time

from firmware_bridge.errors import BridgeError, PortUnavailable
from firmware_bridge.link import DisplayLink
from firmware_bridge.samples import random_display
from firmware_bridge.simulator import LineFaults, SimulatedBoard
from hardware.display_state import TableDisplay

ACK_TIMEOUT_S = 10.0


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    sim = subparsers.add_parser(
        "firmware-sim", help="run the simulated display board on a new pseudo-terminal")
    sim.add_argument("--link", metavar="PATH",
                     help="keep a symlink at PATH pointing to the current pty")
    sim.add_argument("--drop", type=float, default=0.0, metavar="P",
                     help="fraction of frames lost, both directions (default 0)")
    sim.add_argument("--corrupt", type=float, default=0.0, metavar="P",
                     help="fraction of frames damaged by a bit flip, both directions")
    sim.add_argument("--duplicate", type=float, default=0.0, metavar="P",
                     help="fraction of frames delivered twice, both directions")
    sim.add_argument("--state-file", metavar="FILE",
                     help="keep what the LEDs and displays show in FILE, as JSON")
    sim.add_argument("--seed", type=int, default=None, help="seed for the line faults")
    sim.set_defaults(func=run_firmware_sim)

    test = subparsers.add_parser(
        "display-test", help="send random table states to a board and time the acks")
    test.add_argument("--port", required=True, help="serial port path or pyserial URL")
    test.add_argument("--count", type=int, default=20, metavar="N",
                      help="number of states to send (default 20)")
    test.add_argument("--seed", type=int, default=None, help="seed for the random states")
    test.add_argument("--timeout", type=float, default=ACK_TIMEOUT_S, metavar="S",
                      help=f"give up on an acknowledgement after S seconds ({ACK_TIMEOUT_S:g})")
    test.set_defaults(func=run_display_test)


def run_firmware_sim(args: argparse.Namespace) -> int:
    try:
        faults = LineFaults(args.drop, args.corrupt, args.duplicate, args.seed)
    except ValueError as exc:
        print(f"firmware-sim: {exc}", file=sys.stderr)
        return 2

    def announce(port: str) -> None:
        print(f"port: {port}", flush=True)

    stop = threading.Event()
    replug = threading.Event()
    # Handlers go in before the board exists: a USR1 right after "port:" must not kill us.
    signal.signal(signal.SIGTERM, lambda signum, frame: stop.set())
    signal.signal(signal.SIGINT, lambda signum, frame: stop.set())
    signal.signal(signal.SIGUSR1, lambda signum, frame: replug.set())
    with SimulatedBoard(faults=faults, link=args.link, state_file=args.state_file,
                        on_port=announce) as board:
        while not stop.is_set():
            if replug.is_set():
                replug.clear()
                board.replug()
            board.run_once()
    return 0


def _percentile(values: list[float], fraction: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def run_display_test(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    try:
        link = DisplayLink(args.port)
    except PortUnavailable as exc:
        print(f"display-test: {exc}", file=sys.stderr)
        return 2
    times_ms: list[float] = []
    sent = 0
    last: TableDisplay | None = None
    error = ""
    with link:
        try:
            for i in range(args.count):
                last = random_display(rng, i + 1)
                start = time.perf_counter()
                link.show(last)
                sent += 1
                link.wait_acked(args.timeout)  # stops at the first state never acknowledged
                times_ms.append((time.perf_counter() - start) * 1000)
        except BridgeError as exc:
            error = str(exc)
        counters = link.counters
    report = {
        "sent": sent,
        "acked": len(times_ms),
        "resent": counters.resent,
        "p50_ms": round(statistics.median(times_ms), 3) if times_ms else None,
        "p99_ms": round(_percentile(times_ms, 0.99), 3) if times_ms else None,
        "last_state": last.to_json() if last is not None else None,
    }
    print(json.dumps(report), flush=True)
    if error:
        print(f"display-test: {error}", file=sys.stderr)
    return 0 if len(times_ms) == args.count else 1
