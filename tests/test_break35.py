"""Break-it pass 35: are the numbers of ``brisca simulate`` honest?

Every figure of the summary (text table and ``--json``) of 15 runs (2, 3, 4 and 6 players; the three decks;
exchange, exchange-condition, endgame and remove variants; ``--policy`` once, per side and per seat with all
five player policies; ``--duplicate`` with 2 and 3 sides) was recomputed from the parquet rows with pandas
and textbook formulas, the trick table checked against the deal table and RULES R2/R3/R5/R8, the rows
compared across ``--threads`` 1/2 and ``--chunk`` 1/7/999/4097/default, and ``read_metadata`` and the dtypes
read: no discrepancy. These tests pin the two recomputations no earlier test made end to end on real rows
(tests/test_stats.py checks the formulas on hand-made rows; tests/test_parquet.py the trick table's sums and
leads): the summary of a 3-player duplicate run (draws shared by the seats tied on top, three rotations,
the interval over pairs), and every trick's winner and points from its own cards (R5, R2) with the deal's
winner and capote from its side points (R8). The formulas are written out here, not imported from sim.stats.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from sim.batch import simulate
from sim.rules import Rules

Z = 1.959963984540054  # two-sided 95% normal quantile


def _wilson(s, n):
    p = s / n
    den = 1 + Z * Z / n
    centre = (p + Z * Z / (2 * n)) / den
    half = Z / den * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return [max(0.0, centre - half), min(1.0, centre + half)]


@pytest.mark.parametrize("players, pols", [(3, ["heuristic", "random", "counter"]),
                                           (4, ["expert", "greedy", "random", "heuristic"])])
def test_duplicate_summary_recomputed_from_the_rows(players, pols):
    r = simulate(Rules(players=players), pols, deals=300, seed=4, duplicate=True, keep_frame=True)
    df, d = r.frame, r.summary.to_dict()
    S = 3 if players == 3 else 2
    R, N = S, len(df)
    assert N == 300 * R == d["deals"] and d["rotations"] == R and d["distinct_deals"] == 300
    sp = np.stack([df[f"side_points_{k}"].to_numpy().astype(int) for k in range(S)], 1)
    top, win, rot = sp.max(1), df.winner.to_numpy(), np.arange(N) % R
    drawn = win < 0
    assert d["draws"] == drawn.sum() and d["draw_rate_ci95"] == pytest.approx(_wilson(drawn.sum() / R, N // R))
    assert d["capotes"] == (sp == 120).any(1).sum()

    def check(fig, w, dr, pts):
        W, D = int(w.sum()), int(dr.sum())
        assert (fig["wins"], fig["draws"]) == (W, D)
        assert fig["win_rate"] == pytest.approx(W / N) and fig["score"] == pytest.approx((W + D / 2) / N)
        assert fig["win_rate_ci95"] == pytest.approx(_wilson(W, N))
        assert fig["score_ci95"] == pytest.approx(_wilson(W + D / 2, N))
        assert fig["mean_points"] == pytest.approx(pts.mean())
        assert fig["mean_points_se"] == pytest.approx(pts.std(ddof=1) / math.sqrt(N))

    for k in range(S):
        # rotation r moves every policy one seat on: side k's policies sit on side (k - r) % S of the table
        j = (k - rot) % S
        pts = sp[np.arange(N), j]
        w, dr = win == j, drawn & (pts == top)
        check(d["sides"][k], w, dr, pts)
        pair = pd.Series(w + 0.5 * dr).groupby(np.arange(N) // R).mean()
        half = Z * pair.std(ddof=1) / math.sqrt(len(pair))
        assert d["sides"][k]["pair_score_ci95"] == pytest.approx([pair.mean() - half, pair.mean() + half])
        pp = pd.Series(pts).groupby(np.arange(N) // R).mean()  # (the points' error over pairs: 2026-12-07)
        assert d["sides"][k]["pair_mean_points_se"] == pytest.approx(pp.std(ddof=1) / math.sqrt(len(pp)))
        check(d["positions"][k], win == k, drawn & (sp[:, k] == top), sp[:, k])
    if players == 3:
        assert d["draws"] > 0 and len({s["draws"] for s in d["sides"]}) > 1  # the draws case was exercised


_STRENGTH = {rank: 12 - i for i, rank in enumerate([1, 3, 12, 11, 10, 9, 8, 7, 6, 5, 4, 2])}  # R2
_POINTS = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}  # R2


@pytest.mark.parametrize("players, deck, endgame", [(3, "catalan48", "arrastre"), (6, "spanish40", "free")])
def test_trick_winners_points_and_deal_winner_from_the_cards(players, deck, endgame):
    rules = Rules(players=players, deck=deck, endgame=endgame)
    r = simulate(rules, "random", deals=150, seed=8, keep_frame=True, tricks=True)
    df, tr = r.frame, r.tricks
    trump = df.trump.astype(str).to_numpy()[tr.deal.to_numpy()]
    cards = np.stack([tr[f"card_{i}"].astype(str).to_numpy() for i in range(players)], 1)
    for row, t, lead, winner, points in zip(cards, trump, tr.leader, tr.winner, tr.points):
        ranks, suits = [int(c[:-1]) for c in row], [c[-1] for c in row]
        # R5: highest trump, else highest of the suit led; a third suit never wins
        keys = [(2 if s == t else 1 if s == suits[0] else 0, _STRENGTH[k]) for k, s in zip(ranks, suits)]
        assert winner == (lead + keys.index(max(keys))) % players
        assert points == sum(_POINTS.get(k, 0) for k in ranks)
    # R8 from the side points: 61 wins with two sides; with three the highest total, equal highest draw
    S = rules.sides
    sp = np.stack([df[f"side_points_{k}"].to_numpy().astype(int) for k in range(S)], 1)
    assert (sp.sum(1) == 120).all()
    if S == 2:
        want = np.where(sp[:, 0] >= 61, 0, np.where(sp[:, 1] >= 61, 1, -1))
    else:
        want = np.where((sp == sp.max(1)[:, None]).sum(1) == 1, sp.argmax(1), -1)
    assert (df.winner.to_numpy() == want).all()
    assert (df.capote.to_numpy() == (sp == 120).any(1)).all()
