"""Review pass 64 of the 2026-12-07 changes.

- ``capote_rate_ci95`` (new today) took a ``--duplicate`` run's rows as independent trials; a pair's
  rotations are not (with one policy on every seat they replay one game: every capote came ``rotations``
  times), so the interval was too narrow by sqrt(rotations) and, with no capote seen, its upper end --
  documented as a bound on the rate -- too low by a factor ``rotations``. It is now Wilson's interval of
  the pairs' mean rate over the distinct deals (exact when a pair's rows agree, conservative otherwise).
  ``draw_rate_ci95`` had the same fault since before; it is now computed the same way.
"""
import numpy as np
import pytest

from sim.stats import RunningStats, wilson_interval


def _dup_summary(rows, rotations, sides):
    sp = np.array(rows, dtype=np.int64)
    win = np.where(sp.max(1) == 60, -1, sp.argmax(1)) if sides == 2 else sp.argmax(1)
    cap = (sp == 120).any(1)
    st = RunningStats(players=sides, sides=sides, rotations=rotations)
    st.update(sp, win, cap, 0)
    return st.summary(["a"] * sides, distinct_deals=len(rows) // rotations, seconds=1.0, sim_seconds=1.0)


def test_duplicate_capote_interval_counts_distinct_deals():
    # 1000 pairs of 2 rotations, each pair's rows the same game (one policy on every seat): 10 capote pairs
    rows = [[120, 0], [120, 0]] * 10 + [[70, 50], [70, 50]] * 990
    d = _dup_summary(rows, 2, 2).to_dict()
    assert (d["capotes"], d["deals"], d["distinct_deals"]) == (20, 2000, 1000)
    assert d["capote_rate"] == pytest.approx(0.01)
    assert d["capote_rate_ci95"] == pytest.approx(list(wilson_interval(10, 1000)))


def test_no_capote_bound_is_over_distinct_deals():
    d = _dup_summary([[70, 50, 0]] * 3000, 3, 3).to_dict()  # 1000 distinct deals x 3 rotations
    lo, hi = d["capote_rate_ci95"]
    assert lo == 0.0 and hi == pytest.approx(wilson_interval(0, 1000)[1])  # about 3.8 / 1000, not / 3000
    assert hi > 0.0035


def test_without_duplicate_unchanged():
    sp = np.array([[120, 0]] + [[70, 50]] * 99, dtype=np.int64)
    st = RunningStats(players=2, sides=2, rotations=1)
    st.update(sp, sp.argmax(1), (sp == 120).any(1), 0)
    d = st.summary(["a", "b"], distinct_deals=100, seconds=1.0, sim_seconds=1.0).to_dict()
    assert d["capote_rate_ci95"] == pytest.approx(list(wilson_interval(1, 100)))


def test_duplicate_draw_interval_counts_the_pairs():
    # 500 pairs of 2 rotations, each pair's rows one game: 100 pairs drawn 60-60 (200 drawn rows)
    rows = [[60, 60], [60, 60]] * 100 + [[70, 50], [70, 50]] * 400
    d = _dup_summary(rows, 2, 2).to_dict()
    assert (d["draws"], d["deals"]) == (200, 1000) and d["draw_rate"] == pytest.approx(0.2)
    assert d["draw_rate_ci95"] == pytest.approx(list(wilson_interval(100, 500)))
