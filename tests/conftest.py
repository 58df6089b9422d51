"""Shared pytest setup. Area-specific fixtures live in each tests/<area>/conftest.py."""

from __future__ import annotations

import logging

import pytest


@pytest.fixture(autouse=True)
def _fail_on_error_log(caplog: pytest.LogCaptureFixture):
    """Any log record at ERROR or above fails the test: errors must be raised or handled."""
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    if errors and not getattr(caplog, "_allow_errors", False):
        pytest.fail("logged at ERROR: " + "; ".join(r.getMessage() for r in errors))
