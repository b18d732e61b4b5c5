"""The 2026-12-07 (sixth part) review's fault: integers too long for ``str`` in the benchmark scripts'
argument checks.

``benchmarks/_common.check_seed(10**5000)`` and ``eval_heuristic.check_args`` with ``pairs``, ``threads``
or ``players`` of 10**5000, or a ``--par`` row holding one, raised Python's own ValueError ("Exceeds the
limit (4300 digits) for integer string conversion", naming no argument) or an OverflowError from
``math.isfinite``, instead of their own message. From the command line argparse's ``int`` refuses such
text first; these are the scripts' Python entry points (``eval_heuristic.run`` calls ``check_args``).
"""
from __future__ import annotations

import pytest

from conftest import bench_script

BIG = 10 ** 5000  # 16,610 bits: more digits than str() converts by default


def test_check_seed_names_a_huge_seed_by_its_size():
    common = bench_script("_common")
    assert common.check_seed(-1) == "-1, expected 0 <= seed < 2**64"
    assert common.check_seed(BIG) == "a 16610-bit integer, expected 0 <= seed < 2**64"
    assert common.check_seed(-BIG).startswith("a negative 16610-bit integer")
    assert common.check_seed(2 ** 64 - 1) is None


SANE = dict(pairs=2, players=2, opponent="greedy", seed=1, threads=1, par=(), policy="expert", opp_par=None)


@pytest.mark.parametrize("change, msg", [
    ({"seed": BIG}, "--seed: a 16610-bit integer, expected 0 <= seed < 2**64"),
    ({"pairs": BIG}, "--pairs must be at most 1,000,000,000 (the results are held in memory: about 100 "
                     "bytes a game), got a 16610-bit integer"),
    ({"pairs": -BIG}, "--pairs must be positive, got a negative 16610-bit integer"),
    ({"threads": BIG}, "--threads: a 16610-bit integer, expected 1-"),
    ({"players": BIG}, "players must be 2, 4 or 6 (two sides), got a 16610-bit integer"),
    ({"par": (1.0, BIG)}, "--par: a list holding an integer of more than 4300 digits, expected finite numbers"),
    ({"par": (1.0, 10 ** 400)}, "expected finite numbers"),
])
def test_eval_heuristic_check_args_huge_integers(change, msg):
    mod = bench_script("eval_heuristic")
    args = {**SANE, **change}
    with pytest.raises(ValueError) as e:
        mod.check_args(**args)
    assert msg in str(e.value)
    assert "Exceeds the limit" not in str(e.value)
    mod.check_args(**{**args, **{k: v for k, v in SANE.items() if k in change}})  # (sane again: passes)


@pytest.mark.parametrize("script", ["bench_compile", "bench_engine", "bench_minimal_loop", "bench_solve_file",
                                    "bench_solver", "eval_heuristic", "open_values"])
def test_benchmark_argument_errors_cut_long_words_and_escape_control_characters(script, capsys):
    """argparse echoed a refused word whole: ``bench_solver.py --seed`` with 5,000 digits printed a 5 kB
    line, and ESC raw (it drove the terminal); ``brisca``'s own parser cuts and escapes (break-it passes
    22 and 25). Now every script's parser does (``_common.ArgumentParser``)."""
    mod = bench_script(script)
    word = "\x1b[31m" + "1" * 5000
    with pytest.raises(SystemExit) as e:
        mod.main(["--deals", word])
    assert e.value.code == 2
    err = capsys.readouterr().err
    last = err.rstrip("\n").splitlines()[-1]
    assert ": error: " in last and "\\x1b[31m" in last and "(50" in last
    assert "\x1b" not in err and len(last) < 300
    with pytest.raises(SystemExit) as e:  # (a short word is left whole)
        mod.main(["--deals", "x\x07y"])
    last = capsys.readouterr().err.rstrip("\n").splitlines()[-1]
    assert e.value.code == 2 and "x\\x07y" in last and "\x07" not in last


def test_show_repr_is_one_line():
    """A multi-line repr (a pandas Series, a 2-D array) made an error message of several lines:
    ``find_puzzles(rules=pd.Series(...))`` and ``sim.simulate`` with one said "got players    4" and
    "dtype: int64" on a second line (break-it pass 37). Now the line breaks are written ``\\n``."""
    import numpy as np
    import pandas as pd

    from sim import simulate
    from sim.cards import show_repr
    from solver.puzzles import find_puzzles

    assert show_repr(pd.Series({"players": 4})) == "players    4\\ndtype: int64"
    assert show_repr(np.zeros((2, 2))) == "array([[0., 0.],\\n       [0., 0.]])"
    assert show_repr("a\nb") == "'a\\nb'" and show_repr("13B") == "'13B'"
    for call in (lambda: simulate(pd.Series({"players": 4}), deals=1),
                 lambda: find_puzzles(1, rules=pd.Series({"players": 4}))):
        with pytest.raises(ValueError) as e:
            call()
        assert "\n" not in str(e.value) and str(e.value).endswith("got players    4\\ndtype: int64")
