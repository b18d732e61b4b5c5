"""The examples in the public docstrings run and print what they say (ARCHITECTURE.md: public functions
carry a short runnable example). `sim.expert`'s example is left out: it compiles the expert policy's
stand-alone entry (about 12 s), which nothing else in the suite needs."""
import doctest
import importlib

import pytest

MODULES = ["sim.cards", "sim.rules", "sim.stats", "sim.batch", "solver.position", "solver.api"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0, result
