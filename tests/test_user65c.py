"""User study 65c (a Brisca teacher answering strategy questions with statistics: the first lead's worth,
the trump exchange (R7), capotes and the decks' margins, the R9 endgame obligations): what tripped.

- The text summary printed ``capotes: 0 (0.00000)`` over 200,000 2-player ``heuristic`` deals with no
  bound on how rare a capote (R8) is; the Wilson intervals of the capote and draw rates were in ``--json``
  only (``capote_rate_ci95``, ``draw_rate_ci95``). The ``draws:`` line now prints each rate's 95% interval,
  the same as the JSON's (over the deal pairs with ``duplicate``).
- "How does the deck change the mean margin of victory?" had no figure: the summary gives side 0's mean
  points less side 1's (the first lead's worth), not the winner's margin, which had to be computed from the
  parquet. With two sides the summary now has ``mean_margin`` (the mean of ``|side 0 - side 1|``, a draw 0),
  ``mean_margin_se`` (over pairs with ``duplicate``) and ``mean_margin_ci95``, printed as a ``margin`` line.

Lean: summaries of hand-made rows (no engine run).
"""
import math

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


def test_margin_of_victory_is_in_the_summary():
    rows = [[120, 0], [70, 50], [30, 90], [60, 60]]
    s = _summary(rows, [0, 0, 1, -1])
    d = s.to_dict()
    m = np.array([120, 20, 60, 0], float)
    assert d["mean_margin"] == pytest.approx(m.mean())
    assert d["mean_margin_se"] == pytest.approx(m.std(ddof=1) / math.sqrt(4))
    lo, hi = d["mean_margin_ci95"]
    assert lo < m.mean() < hi
    assert f"margin, winner - loser (a draw 0): {m.mean():.2f} ± se {d['mean_margin_se']:.2f}" in s.format_table()


def test_margin_error_is_over_pairs_with_duplicate():
    # two pairs: the same margins in both rotations of a pair
    s = _summary([[80, 40], [40, 80], [60, 60], [60, 60]], [0, 1, -1, -1], rotations=2)
    d = s.to_dict()
    assert d["mean_margin"] == pytest.approx(20.0)
    assert d["mean_margin_se"] == pytest.approx(np.std([40, 0], ddof=1) / math.sqrt(2))
    assert "(over pairs)" in [ln for ln in s.format_table().splitlines() if ln.startswith("margin")][0]


def test_no_margin_with_three_sides():
    s = _summary([[70, 30, 20], [40, 40, 40]], [0, -1])
    d = s.to_dict()
    assert d["mean_margin"] is None and d["mean_margin_ci95"] is None
    assert "margin" not in s.format_table()


def test_seed_help_says_variants_share_the_deals(capsys):
    """Whether the R9 endgame obligations change who wins is a deal-by-deal question (0.56% of heuristic
    deals change winner under follow, 1.6% under arrastre): the help said only that a deal is the same whatever
    the threads or chunks, so the teacher had to check the hands by hand before joining two runs on ``deal``."""
    from sim.cli import build_parser
    with pytest.raises(SystemExit):
        build_parser().parse_args(["simulate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert ("deal i of a seed is the same shuffle whatever the policies, --exchange, --exchange-condition and "
            "--endgame (the same players, deck and --remove)") in text


def test_variants_of_one_seed_deal_the_same_cards():
    import sim
    cols = ["deal_seed", "pinta"] + [f"hand_{s}_{k}" for s in range(2) for k in range(3)]
    base = sim.simulate(sim.Rules(players=2), "heuristic", deals=64, seed=5).frame
    for kw in (dict(exchange="none"), dict(exchange_condition="won-trick"), dict(endgame="arrastre")):
        other = sim.simulate(sim.Rules(players=2, **kw), "random", deals=64, seed=5).frame
        assert other[cols].equals(base[cols]), kw
