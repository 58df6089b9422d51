"""Fixtures for the serial bridge: simulated boards on real ptys, cleaned up after."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from firmware_bridge.simulator import LineFaults, SimulatedBoard


def wait_until(predicate: Callable[[], bool], timeout: float, step: float = 0.005) -> bool:
    """Poll `predicate` until true or `timeout` seconds pass; return its last value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


@pytest.fixture
def until() -> Callable[[Callable[[], bool], float], bool]:
    """The wait_until helper, as a fixture (conftest modules are not importable)."""
    return wait_until


@pytest.fixture
def make_board() -> Iterator[Callable[..., SimulatedBoard]]:
    """Start a SimulatedBoard in a thread: make_board(drop=0.1, corrupt=0.1, seed=1)."""
    boards: list[SimulatedBoard] = []

    def make(*, drop: float = 0.0, corrupt: float = 0.0, duplicate: float = 0.0,
             seed: int = 1, **kwargs: object) -> SimulatedBoard:
        board = SimulatedBoard(faults=LineFaults(drop, corrupt, duplicate, seed), **kwargs)
        boards.append(board)
        return board.start()

    yield make
    for board in boards:
        board.close()
