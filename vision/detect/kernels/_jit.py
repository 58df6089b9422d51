"""numba when it is there (see the package docstring), else plain Python."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

njit: Any = None
if not os.environ.get("CARDTABLE_NO_JIT"):  # set: the same loops uncompiled (slow, same)
    try:  # no numba wheel on some platforms (32-bit Raspberry Pi OS): plain Python then
        from numba import njit
    except ImportError:  # pragma: no cover - no numba on this machine
        pass

#: Whether the kernels are compiled (False: numba missing or CARDTABLE_NO_JIT set).
COMPILED = njit is not None


def _compiled(signature: str) -> Callable[[Callable[..., Any]], Any]:
    """njit with `signature`, cached on disk when some cache directory is writable."""

    def wrap(fn: Callable[..., Any]) -> Any:
        if njit is None:
            return fn
        try:
            return njit(signature, cache=True)(fn)
        except RuntimeError:  # numba: "cannot cache function ...: no locator available"
            return njit(signature, cache=False)(fn)

    return wrap


def _inner(fn: Callable[..., Any]) -> Any:
    """A helper compiled into its callers (lazy: typed by the eager kernels)."""
    if njit is None:
        return fn
    try:
        return njit(cache=True)(fn)
    except RuntimeError:
        return njit(cache=False)(fn)
