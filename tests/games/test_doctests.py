"""The examples in the contract's and each engine's docstrings run, as python-chess's do."""

from __future__ import annotations

import doctest
import importlib

import pytest

from games import REGISTRY

MODULES = ["games.base", *(f"games.{game_id}.engine" for game_id in REGISTRY)]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted, f"{name} has no examples"
    assert not result.failed, f"{result.failed} of {result.attempted} examples failed in {name}"
