"""The simulated microcontroller board as the demo (and later end-to-end tests) use it.

`SimulatedBoard` starts `cardtable firmware-sim` as its own process on a new
pseudo-terminal, opens a real `DisplayLink` to it, and reads back what the board says
it shows (its `--state-file`). So the demo's lights go through the same serial
protocol, framing and firmware code as on a real table; only the LEDs are drawn in
the terminal instead of lit.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, TextIO

from hardware.display_state import TableDisplay

START_TIMEOUT = 10.0
ACK_TIMEOUT = 5.0


class BoardUnavailable(RuntimeError):
    """The simulated board did not start or did not answer."""


class SimulatedBoard:
    """`firmware-sim` in a subprocess plus a `DisplayLink` to it. Use as a context manager."""

    def __init__(self) -> None:
        from firmware_bridge.link import DisplayLink

        self._dir = tempfile.TemporaryDirectory(prefix="cardtable-board-")
        self.state_file = Path(self._dir.name) / "shown.json"
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "referee", "firmware-sim", "--state-file", str(self.state_file)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            self.port = self._read_port()
            self.link = DisplayLink(self.port)
            self.link.wait_connected(START_TIMEOUT)
        except BaseException:
            self._stop_process()
            raise

    def _read_port(self) -> str:
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline().strip()
        if not line.startswith("port: "):
            err = self._proc.stderr.read() if self._proc.stderr and self._proc.poll() else ""
            raise BoardUnavailable(f"firmware-sim did not report its port: {line!r} {err}")
        return line[len("port: "):]

    def shown(self) -> dict[str, Any]:
        """What the board reports it shows now (its state file)."""
        return json.loads(self.state_file.read_text())

    def show(self, display: TableDisplay) -> TableDisplay:
        """Send a whole state, wait for the board to acknowledge it, and return what the
        board then shows (read back from the board, not echoed from `display`)."""
        self.link.show(display)
        self.link.wait_acked(ACK_TIMEOUT)
        deadline = time.monotonic() + ACK_TIMEOUT
        while True:
            shown = self.shown()
            seen = TableDisplay.from_json(shown)
            if seen == display or time.monotonic() > deadline:
                return seen
            time.sleep(0.01)

    def show_and_draw(self, display: TableDisplay, *, color: bool, out: TextIO) -> None:
        """Show `display` on the board and draw what the board shows in the terminal."""
        from hardware.terminal import render_table

        print(render_table(self.show(display), color=color), file=out)

    def _stop_process(self) -> None:
        if self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        for stream in (self._proc.stdout, self._proc.stderr):
            if stream is not None:
                stream.close()

    def close(self) -> None:
        link = getattr(self, "link", None)
        if link is not None:
            link.close()
        self._stop_process()
        self._dir.cleanup()

    def __enter__(self) -> SimulatedBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

