"""The real command line: `python -m referee firmware-sim` and `display-test` as processes."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge.link import DisplayLink
from firmware_bridge.samples import random_display

ROOT = Path(__file__).parents[2]


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=ROOT, text=True,
                          capture_output=True, timeout=timeout)


@pytest.fixture
def sim(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], Path, Path]]:
    """A firmware-sim process with 10% drop and 10% corruption, its link and state file."""
    link, state = tmp_path / "cardtable-mcu", tmp_path / "state.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee", "firmware-sim", "--link", str(link), "--drop", "0.1",
         "--corrupt", "0.1", "--state-file", str(state), "--seed", "3"],
        cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        first = proc.stdout.readline()  # type: ignore[union-attr]
        assert first.startswith("port: /dev/pts/"), first
        assert os.path.realpath(link) == first.split(": ", 1)[1].strip()
        yield proc, link, state
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(10)


def read_state(path: Path) -> dict:
    for _ in range(50):
        try:
            return json.loads(path.read_text())
        except (FileNotFoundError, json.JSONDecodeError):  # pragma: no cover - os.replace is atomic
            time.sleep(0.01)
    raise AssertionError(f"{path} never held JSON")


def test_display_test_against_firmware_sim_processes(sim) -> None:
    proc, link, state_file = sim
    result = cli("display-test", "--port", str(link), "--count", "25", "--seed", "4")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["sent"] == report["acked"] == 25
    assert report["p50_ms"] <= report["p99_ms"]
    assert report["resent"] > 0  # 10% + 10% faults over 25 round trips
    shown = read_state(state_file)
    assert shown.pop("link") == "up"
    assert shown.pop("boots") == 1
    assert shown == report["last_state"]
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(10) == 0
    assert not link.exists()  # the sim removes its link on a clean exit


def test_usr1_unplug_moves_the_link_and_the_host_recovers_within_two_seconds(sim) -> None:
    proc, link, state_file = sim
    rng = random.Random(9)
    rng_states = [random_display(rng, i + 1) for i in range(30)]
    with DisplayLink(str(link)) as host:
        for display in rng_states[:15]:
            host.show(display)
            host.wait_acked(10)
        last = rng_states[15]
        host.show(last)
        started = time.monotonic()
        proc.send_signal(signal.SIGUSR1)
        # Recovered = the new board (boots == 2) shows exactly the current state.
        while time.monotonic() - started < 10:
            shown = read_state(state_file)
            if shown.get("boots") == 2 and shown.get("link") == "up":
                del shown["link"], shown["boots"]
                if shown == last.to_json():
                    break
            time.sleep(0.005)
        recovered = time.monotonic() - started
        second = proc.stdout.readline()  # type: ignore[union-attr]
        assert second.startswith("port: /dev/pts/")
        assert os.path.realpath(link) == second.split(": ", 1)[1].strip()
        assert recovered < 2.0, f"display correct again only after {recovered:.2f} s"
        for display in rng_states[16:]:  # and the stream goes on
            host.show(display)
            host.wait_acked(10)
        assert host.counters.reconnects >= 1
    final = read_state(state_file)
    del final["link"], final["boots"]
    assert final == rng_states[-1].to_json()


def test_display_test_names_a_port_it_cannot_open(tmp_path: Path) -> None:
    missing = tmp_path / "no-board"
    result = cli("display-test", "--port", str(missing), "--count", "1")
    assert result.returncode == 2
    assert str(missing) in result.stderr
    assert result.stdout == ""


def test_firmware_sim_rejects_a_fraction_above_one() -> None:
    result = cli("firmware-sim", "--drop", "1.5")
    assert result.returncode == 2
    assert "drop" in result.stderr


def test_display_test_fails_when_states_are_not_acknowledged() -> None:
    # loop:// opens fine but only echoes the host's own frames: no board ever acks.
    result = cli("display-test", "--port", "loop://", "--count", "3", "--timeout", "0.3")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["sent"] == 1 and report["acked"] == 0  # it stops at the first failure
    assert "loop://" in result.stderr
