"""User study 65c (a Brisca teacher answering strategy questions with statistics: the first lead's worth,
the trump exchange (R7), capotes and the decks' margins, the R9 endgame obligations): what tripped.

- The text summary printed ``capotes: 0 (0.00000)`` over 200,000 2-player ``heuristic`` deals with no
  bound on how rare a capote (R8) is; the Wilson intervals of the capote and draw rates were in ``--json``
  only (``capote_rate_ci95``, ``draw_rate_ci95``). The ``draws:`` line now prints each rate's 95% interval,
  the same as the JSON's (over the deal pairs with ``duplicate``).

Lean: summaries of hand-made rows (no engine run).
"""
import numpy as np
import pytest

from sim.stats import RunningStats, wilson_interval


def _summary(side_points, winners, rotations=1):
    sp = np.array(side_points, dtype=np.int16)
    w = np.array(winners, dtype=np.int16)
    sides = sp.shape[1]
    st = RunningStats(players=sides, sides=sides, rotations=rotations)
    st.update(sp, w, (sp == 120).any(axis=1), 0)
    return st.summary(["heuristic"] * sides, distinct_deals=len(sp) // rotations, seconds=1.0, sim_seconds=1.0)


def test_text_summary_prints_the_capote_and_draw_intervals():
    rows = [[70, 50]] * 999 + [[60, 60]]
    s = _summary(rows, [0] * 999 + [-1])
    text = s.format_table()
    lo, hi = wilson_interval(0, 1000)
    assert f"capotes: 0 (0.00000) 95% CI [0.00000, {hi:.5f}]" in text
    dlo, dhi = wilson_interval(1, 1000)
    assert f"draws: 1 (0.0010) 95% CI [{dlo:.4f}, {dhi:.4f}]" in text
    # the same intervals as --json's
    d = s.to_dict()
    assert d["capote_rate_ci95"] == pytest.approx([lo, hi]) and d["draw_rate_ci95"] == pytest.approx([dlo, dhi])

