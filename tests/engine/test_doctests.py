"""The docstring examples in engine/ are part of its documentation: they must run."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import engine

MODULES = sorted(m.name for m in pkgutil.iter_modules(engine.__path__, "engine."))


def test_the_engine_has_modules() -> None:
    assert {"engine.cards", "engine.record", "engine.check", "engine.games"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"
