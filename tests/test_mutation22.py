"""Mutation pass 22 (helper) on the statistics: sim/stats.py (Wilson intervals, means and their errors, the
running counters, the summary's table and JSON) and benchmarks/open_values.py's summary(). Each test kills
mutants that every earlier test let through (named in its docstring); the reference figures are written out
here (textbook formulas, numpy, pandas), not taken from the code under test. No numba compile."""
from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest

from conftest import bench_script
from sim.stats import Z95, RunningStats, Summary, mean_se, wilson_interval


def _wilson_roots(x, n, z=Z95):
    """The Wilson interval as the two roots in p of (x/n - p)^2 = z^2 p (1 - p) / n (textbook form)."""
    ph = x / n
    a, b, c = 1 + z * z / n, -(2 * ph + z * z / n), ph * ph
    disc = math.sqrt(b * b - 4 * a * c)
    return (-b - disc) / (2 * a), (-b + disc) / (2 * a)


@pytest.mark.parametrize("x, n", [(1, 2), (3, 10), (7.5, 20), (81, 263), (499, 1000), (12345, 54321)])
def test_wilson_is_the_root_pair_of_the_score_equation(x, n):
    """Independent check: the interval is the pair of roots of the score equation (moderate n, where the
    textbook root formula is accurate), and numpy integers give the same as Python ones."""
    assert wilson_interval(x, n) == pytest.approx(_wilson_roots(x, n), abs=1e-12)
    if float(x).is_integer():
        assert wilson_interval(np.int64(x), np.int64(n)) == pytest.approx(wilson_interval(int(x), n), abs=0)


@pytest.mark.parametrize("n", [21, 37])
def test_wilson_lower_bound_is_exactly_zero_at_no_success(n):
    """At 0 successes the raw lower bound centre - half rounds below 0 for these n (21, 37): the clamp
    at 0 keeps it there. Mutant: ``max(0.0, ...)`` dropped."""
    assert wilson_interval(0, n)[0] == 0.0


@pytest.mark.parametrize("n", [16, 40])
def test_wilson_upper_bound_is_exactly_one_at_all_successes(n):
    """At n of n the raw upper bound rounds above 1 for these n (16, 40). Mutant: ``min(1.0, ...)`` dropped."""
    lo, hi = wilson_interval(n, n)
    assert hi == 1.0 and lo == pytest.approx(n / (n + Z95 * Z95), rel=1e-12)  # (closed form at p = 1)


def test_wilson_with_huge_numpy_counts():
    """``2 * n`` in numpy int64 overflowed for n >= 2**62 (a RuntimeWarning and the interval (0.0, 0.5) around
    a rate of 0.5); the bounds are computed in floats now. Not reachable from brisca simulate (its counts are
    Python ints), but the function takes numpy integers."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lo, hi = wilson_interval(np.int64(2 ** 62), np.int64(2 ** 63 - 1))
    assert lo == pytest.approx(0.5, abs=1e-9) and hi == pytest.approx(0.5, abs=1e-9) and lo <= 0.5 <= hi


def test_mean_se_with_numpy_integers():
    """Independent check: mean_se against numpy on numpy integer sums and count (the counters' types), Python
    floats out (a summary's repr read np.float64(...) once)."""
    x = np.array([0, 120, 61, 59, 60, 33], dtype=np.int64)
    m, se = mean_se(x.sum(), (x * x).sum(), np.int64(len(x)))
    assert m == pytest.approx(x.mean()) and se == pytest.approx(x.std(ddof=1) / math.sqrt(len(x)))
    assert type(m) is float and type(se) is float


def _rows(side_points, winners):
    sp = np.array(side_points, dtype=np.int16)
    return sp, np.array(winners, dtype=np.int16), (sp == 120).any(axis=1)


def test_update_checks_row0_and_ignores_an_empty_chunk():
    """update(): row0 must be a multiple of rotations too (its docstring); an empty chunk changes nothing,
    whatever its row0. Mutants: the row0 check dropped; the early return for m == 0 dropped (the empty chunk
    at an odd row raised)."""
    st = RunningStats(players=2, sides=2, rotations=2)
    sp, w, cap = _rows([[70, 50], [40, 80]], [0, 1])
    with pytest.raises(ValueError, match="whole pairs"):
        st.update(sp, w, cap, 1)
    st.update(sp[:0], w[:0], cap[:0], 1)
    assert st.rows == 0 and st.pairs == 0


def test_seats_of_every_side_with_four_players():
    """sides[k]['seats']: the seats s with s % sides == k (R3). Mutant: every side given side 0's seats."""
    sp, w, cap = _rows([[70, 50]], [0])
    st = RunningStats(players=4, sides=2, rotations=1)
    st.update(sp, w, cap, 0)
    s = st.summary(["a", "b"], distinct_deals=1, seconds=1, sim_seconds=1)
    assert [x["seats"] for x in s.sides] == [[0, 2], [1, 3]] == [x["seats"] for x in s.positions]


def _summary(**kw):
    base = dict(deals=10, distinct_deals=10, rotations=1, seconds=1.0, sim_seconds=1.0, sides=[], positions=[],
                draws=0, capotes=0, extra={})
    base.update(kw)
    return Summary(**base)


def _run(players, sides, rotations, side_points, winners, policies):
    sp, w, cap = _rows(side_points, winners)
    st = RunningStats(players=players, sides=sides, rotations=rotations)
    st.update(sp, w, cap, 0)
    return st.summary(policies, distinct_deals=len(winners) // rotations, seconds=1.0, sim_seconds=1.0)


def test_table_lines_have_no_trailing_blanks():
    """The table's rows end with their last column, not padding (the last column is right-aligned, but a
    left-aligned last column or a shorter row would leave blanks). Mutant: ``rstrip`` dropped in _grid:
    the header's and rows' padding kept. Checked on a duplicate run and on a hand-made grid whose last
    column is the left-aligned policy."""
    from sim.stats import _grid
    s = _run(2, 2, 2, [[70, 50], [40, 80], [60, 60], [60, 60], [100, 20], [65, 55]], [0, 1, -1, -1, 0, 0],
             ["heuristic", "random"])
    assert all(line == line.rstrip() for line in s.format_table().splitlines())
    assert _grid(["a", "b", "policy"], [["1", "2", "heuristic"], ["1", "2", "x"]]) == \
        ["a  b  policy", "1  2  heuristic", "1  2  x"]


def test_json_inf_is_none():
    """to_dict(): NaN and inf both become None (strict JSON: json.dumps writes Infinity otherwise), numpy NaN
    too. Mutant: ``math.isfinite`` as ``not math.isnan`` (inf kept; the strict dump raises)."""
    d = _summary(extra={"big": float("inf"), "small": -np.inf, "x": np.float64("nan")}).to_dict()
    assert d["big"] is None and d["small"] is None and d["x"] is None
    json.dumps(d, allow_nan=False)


# --- benchmarks/open_values.py summary() -------------------------------------------------------------------

def _frame(first_points, winner, pinta_rank, ms, seed=5):
    n = len(first_points)
    return pd.DataFrame({"deal": range(n), "seed": [seed] * n, "pinta": range(n), "pinta_rank": pinta_rank,
                         "trump": [0] * n, "first_points": first_points,
                         "second_points": [120 - x for x in first_points], "winner": winner, "nex": [0] * n,
                         "ms": ms})


def test_open_values_summary_against_pandas():
    """summary() against figures computed here: the header's last deal, the Wald half-width of the win
    rate (1.96 sqrt(p(1-p)/n)), the seven quantiles with their labels, the last histogram bin (120
    included), the median and p99 solve times, and the by-rank rows (mean first-leader points and wins;
    no row for a rank without deals). Mutants: n for the last deal, n - 1 or the draw rate or 1.64 in the
    half-width, q95 for q99, quantile 1 - q, bins up to 120, mean for median, p90 for p99, wins counted
    as not lost, second points by rank, rows for absent ranks."""
    ov = bench_script("open_values")
    pts = [120, 60, 30, 0, 75, 100, 61, 59]
    win = [0, -1, 1, 1, 0, 0, 0, 1]
    rank = [1, 1, 3, 3, 3, 2, 2, 2]
    ms = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 100.0]
    df = _frame(pts, win, rank, ms)
    s = ov.summary(df)
    x = pd.Series(pts, dtype=float)
    n = len(pts)
    p = np.mean(np.array(win) == 0)
    assert s.startswith(f"deals: {n} (seed 5, deals 0..{n - 1})\n")
    assert f"first leader wins {100 * p:.2f}% +- {100 * 1.96 * math.sqrt(p * (1 - p) / n):.2f}, " in s
    q = ", ".join(f"q{k}={np.quantile(pts, k / 100):.0f}" for k in (1, 10, 25, 50, 75, 90, 99))
    assert f"- quantiles of the first leader's points: {q}\n" in s
    assert f"| 100-120 | {100 * 2 / n:.1f}% |" in s
    assert f"median {np.median(ms):.0f} ms, p99 {np.quantile(ms, 0.99):.0f} ms" in s
    rows = [line for line in s.splitlines() if line.startswith("| ") and line.count("|") == 5
            and line[2].isdigit() and "%" in line.split("|")[4]]
    want = []
    for rk in (1, 3, 2):  # trick strength, strongest first (R2); no 12, 11, ... rows: no such deal
        g = [(a, b) for a, b, r in zip(pts, win, rank) if r == rk]
        want.append(f"| {rk} | {len(g)} | {np.mean([a for a, _ in g]):.2f} | "
                    f"{100 * np.mean([b == 0 for _, b in g]):.1f}% |")
    assert rows == want
    assert x.mean() == pytest.approx(np.mean(pts))
