"""User study 64 (a player answering questions with the tool: first-leader rates with 4 and 6 players
under arrastre, the trump exchange's effect, the parquet's tricks and capotes, hand-made positions,
puzzles, solver self-play): what tripped.

- ``brisca simulate --json`` gave the draw rate's 95% interval (``draw_rate_ci95``) but not the capote
  rate's: ``capotes: 0`` over 200,000 2-player deals (``--policy heuristic``) said nothing of how rare a
  capote (R8) is, and 295 of 200,000 with 4 players gave no interval to set against 6 players' 1,496.
  ``capote_rate_ci95`` is now the Wilson interval of ``capotes`` over games, as ``draw_rate_ci95`` is.
"""
import numpy as np
import pytest

from sim.stats import RunningStats, wilson_interval


def _summary(side_points, winners):
    sp = np.array(side_points, dtype=np.int16)
    w = np.array(winners, dtype=np.int16)
    cap = (sp == 120).any(axis=1)
    st = RunningStats(players=2, sides=2, rotations=1)
    st.update(sp, w, cap, 0)
    return st.summary(["heuristic", "heuristic"], distinct_deals=len(sp), seconds=1.0, sim_seconds=1.0)


def test_capote_rate_has_its_wilson_interval():
    d = _summary([[120, 0], [70, 50], [30, 90], [60, 60]], [0, 0, 1, -1]).to_dict()
    assert d["capotes"] == 1 and d["capote_rate"] == pytest.approx(0.25)
    assert d["capote_rate_ci95"] == pytest.approx(list(wilson_interval(1, 4)))
    keys = list(d)
    assert keys.index("capote_rate_ci95") == keys.index("capote_rate") + 1  # beside its rate, as draws'


def test_no_capote_seen_still_bounds_the_rate():
    d = _summary([[70, 50]] * 1000, [0] * 1000).to_dict()
    lo, hi = d["capote_rate_ci95"]
    assert d["capotes"] == 0 and lo == 0.0 and 0.0 < hi < 0.004   # Wilson: about 3.8 / n


def test_simulate_json_carries_it(capsys):
    import json

    from sim.cli import main

    with pytest.raises(SystemExit) as e:
        main(["simulate", "--deals", "200", "--seed", "1", "--json", "--no-progress"])
    assert e.value.code == 0
    d = json.loads(capsys.readouterr().out)
    assert d["capote_rate_ci95"] == pytest.approx(list(wilson_interval(d["capotes"], d["deals"])))
