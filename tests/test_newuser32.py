"""New-user pass 32 (a fresh clone, the README followed from the top: Install, First run, every row of the
Common tasks table and every command or recipe it links to): what tripped.

- The Common tasks row "Sweep rule variants from Python: each run's summary a DataFrame row" names
  ``summary.to_row()``, but the recipe it links to never called it: it picked six figures out of
  ``summary.to_dict()``'s nested sides by hand, with two intervals left as list cells (``lead_win_ci95``,
  ``points_diff_ci95``), the hand work ``to_row()`` was added to replace (user study 67). The recipe now
  appends ``r.summary.to_row()``: one flat row a run, every figure and interval (``_lo``/``_hi``) a column,
  the rules' fields (``players``, ``endgame``) included; it prints the same figures as before
  (``position0_win_rate``, the first leader's, and ``mean_points_diff``).

Everything else matched (figures, messages, anchors); the items left alone are in the pass's report.
Lean: the recipe's sweep half runs with ``sim.simulate`` replaced by summaries made from counters (no kernel).
"""
import numpy as np

import sim
from sim.rules import Rules
from sim.stats import RunningStats
from test_docs import _readme_block, _run_block

ANCHOR = '<a id="sweeping-rule-variants"></a>'


class _Run:
    def __init__(self, summary):
        self.summary = summary


def _fake_simulate(rules, policies, deals, seed, out=None, **kw):
    """A run's result with a summary made from four hand-written deals (side 0's points and the winner)."""
    st = RunningStats(rules.players, rules.sides, 1)
    pts = np.array([[70, 50], [40, 80], [60, 60], [90, 30]], dtype=np.int64)
    st.update(pts, np.array([0, 1, -1, 0], dtype=np.int64), (pts == 120).any(axis=1), 0)
    return _Run(st.summary([policies] * rules.sides, distinct_deals=4, seconds=1.0, sim_seconds=1.0,
                           rules=rules.to_dict(), policies=[policies] * rules.players))


def test_sweep_recipe_makes_each_run_one_flat_row_with_to_row(monkeypatch):
    code = _readme_block(ANCHOR)
    head = code[:code.index("frames = []")]
    monkeypatch.setattr(sim, "simulate", _fake_simulate)
    names = {}
    out = _run_block(head, names).splitlines()
    runs = names["runs"]
    assert len(runs) == 4
    # one flat row a run: no list or dict cells, every interval as _lo/_hi columns
    assert not any(isinstance(v, (list, dict, tuple)) for v in runs.to_numpy().ravel())
    assert {"position0_win_rate_ci95_lo", "mean_points_diff_ci95_hi", "draw_rate_ci95_lo", "side0_policy"} \
        <= set(runs.columns)
    row = runs.iloc[0]
    expect = _fake_simulate(Rules(players=2), "heuristic", 4, 5).summary.to_dict()
    assert row.position0_win_rate == expect["positions"][0]["win_rate"] == 0.5
    assert row.mean_points_diff == expect["mean_points_diff"] == 10.0
    assert list(runs.players) == [2, 2, 4, 4] and list(runs.endgame) == ["free", "arrastre"] * 2
    assert ".to_row()" in head
    assert out[0].split() == ["players", "endgame", "position0_win_rate", "mean_points_diff"]
