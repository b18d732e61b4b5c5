"""The examples in the public docstrings run and print what they say (ARCHITECTURE.md: public functions
carry a short runnable example). `sim.expert`'s example is left out: it compiles the expert policy's
stand-alone entry (about 12 s), which nothing else in the suite needs."""
import doctest
import importlib

import pytest

MODULES = ["sim.cards", "sim.checks", "sim.rules", "sim.stats", "sim.batch", "solver.position", "solver.api"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0, result


def _readme_block(after: str) -> str:
    """The first ```python block of README.md after the text ``after``."""
    import os
    readme = open(os.path.join(os.path.dirname(__file__), "..", "README.md")).read()
    start = readme.index("```python\n", readme.index(after)) + len("```python\n")
    return readme[start:readme.index("```", start)]


def _run_block(code: str, names: dict | None = None) -> str:
    """Run ``code`` as a script in ``names`` (a fresh namespace by default); what it printed."""
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {} if names is None else names)
    return out.getvalue()


def test_readme_python_examples_print_what_they_say():
    """The README's Python examples, run as a script (the new-user pass of 2026-12-06: bare expressions printed
    nothing), print what their comments say: simulate's summary table and deal table (heuristic against
    random, 10,000 duplicate deal pairs of seed 1) and the solver's values (deal 0 of seed 1: 62; deals 0-7)."""
    names = {}
    out = _run_block(_readme_block("In Python (`help(sim.simulate)`"), names)
    assert names["d"]["sides"][0]["score"] == 0.87415
    assert "heuristic" in out and "0.8741  [0.8695, 0.8788]" in out, out
    assert "80.0756" in out and "40.3050" in out, out  # the comment's 80.08 and 40.31
    out = _run_block(_readme_block("In Python (`help(solver.solve)`")).splitlines()
    assert out[0] == "62 {'4C': 62, '10B': 62, '12O': 61}"
    assert out[1].startswith("['4C', '10B'] ['4C', '7B', '10B', '2O'] ")
    assert out[2] == "[62, 45, 60, 57, 68, 50, 74, 50]"
    assert out[3] == str([62] * 41)
