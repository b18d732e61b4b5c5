"""Break-it pass 38 (2026-12-07): open-hand self-play (``brisca simulate --policy solver``) and the summary's
statistics (sim.stats).

Faults found and fixed: ``wilson_interval`` took a non-integer or infinite ``n`` (``n=inf`` gave the interval
``(0.0, 0.0)``, ``n=0.5`` an interval of half a trial) and a ``z`` that is no quantile (``z=-1.96``, 0 or NaN
gave the zero-width ``(p, p)``, a certainty); ``mean_se`` gave a standard error of 0.0 for a NaN sum
(``max(0.0, nan)`` is 0.0) and a mean of -0.0 for ``n=-1``. Both raise a ValueError naming the argument now.

The self-play itself held (every table and variant, seeds 0 and 2**64-1, 1 to 13 deals, odd chunks, 1 and 2
threads: summary figures recomputed from the parquet rows, rows replayed by the plain-Python oracle, every
move checked optimal); the last test pins that check on two cheap tables.
"""
from __future__ import annotations

import math
from decimal import Decimal, localcontext

import numpy as np
import pytest

from sim.stats import Z95, mean_se, wilson_interval


def _wilson_decimal(x, n):
    """The Wilson interval as the roots in p of (x/n - p)^2 = z^2 p (1 - p) / n, in 60-digit decimals."""
    with localcontext() as ctx:
        ctx.prec = 60
        x, n, z2 = Decimal(str(x)), Decimal(int(n)), Decimal(repr(Z95)) ** 2
        ph = x / n
        a, b, c = 1 + z2 / n, -(2 * ph + z2 / n), ph * ph
        r = (b * b - 4 * a * c).sqrt()
        return float((-b - r) / (2 * a)), float((-b + r) / (2 * a))


@pytest.mark.parametrize("args", [(0, 0.5), (0.5, 0.5), (1, 1.5), (0, math.inf), (math.inf, math.inf), (1, True),
                                  (1, "2"), (1, np.float64(2.0)), (1, 2, -1.96), (1, 2, 0), (1, 2, math.nan),
                                  (1, 2, math.inf), ("1", 2), (None, 1), (math.nan, 5), (-1, 5), (6, 5)])
def test_wilson_interval_refuses_what_is_no_count_or_quantile(args):
    with pytest.raises(ValueError, match=r"^(n|z): expected|^need 0 <= successes <= n"):
        wilson_interval(*args)


@pytest.mark.parametrize("x, n", [(0, 1), (1, 1), (0.5, 1), (1, 2), (2, 2), (3, 2 ** 62), (10 ** 9, 10 ** 9),
                                  (np.int64(7), np.int64(10)), (np.uint64(3), np.uint64(10))])
def test_wilson_interval_edges_match_the_score_equation(x, n):
    """Independent check at n = 1, successes = n, fractional successes and huge n (high-precision roots), and
    Python floats out for numpy counts."""
    lo, hi = wilson_interval(x, n)
    assert type(lo) is float and type(hi) is float
    assert (lo, hi) == pytest.approx(_wilson_decimal(x, n), abs=1e-15, rel=1e-12)
    assert wilson_interval(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("args", [(math.nan, 1.0, 3), (1.0, math.nan, 3), (math.inf, math.inf, 2), (0, 0, -1),
                                  (3, 5, 1.5), (1, 1, True), (5, -25, 2), ("1", 1, 1)])
def test_mean_se_refuses_nan_and_what_is_no_count(args):
    with pytest.raises(ValueError, match=r"^(n|total|total_sq): "):
        mean_se(*args)


@pytest.mark.parametrize("rules_kw", [dict(players=2, exchange="two-any", endgame="arrastre"),
                                      dict(players=4, deck="rapida20", endgame="follow")])
def test_selfplay_rows_replay_under_the_oracle_and_every_move_is_optimal(rules_kw):
    """Independent check of ``simulate(..., "solver")`` (both sides perfect, RULES R11): each row replayed by
    the plain-Python oracle (legal cards and exchanges, trick winners and points, R8's winner and capote),
    every move of both sides optimal (analyse_play's values stay at the deal's value), and the summary's wins,
    draws and mean points recomputed from the rows. Seed 2**64 - 1, three deals in chunks of two."""
    from oracle import OracleRules, card, from_engine_id, replay

    from sim import simulate
    from sim.engine import shuffle_deal
    from sim.rules import Rules
    from solver.api import analyse_play
    from solver.position import deal_position

    rules = Rules(**rules_kw)
    seed, n = 2 ** 64 - 1, rules.players
    r = simulate(rules, "solver", deals=3, seed=seed, chunk=2, tricks=True)
    df, tr = r.frame, r.tricks
    orules = OracleRules(players=n, deck=rules.deck, exchange=rules.exchange, condition=rules.exchange_condition,
                         endgame=rules.endgame)
    for row in df.itertuples():
        buf, rng = np.zeros(48, np.int8), np.zeros(1, np.uint64)
        removed = shuffle_deal(rules.to_array(), np.array(rules.deck_cards, np.int8), np.uint64(row.deal_seed), buf,
                               rng)
        assert removed < 0
        ex = [(getattr(row, f"exchange{k}_seat"), card(str(getattr(row, f"exchange{k}_card"))),
               getattr(row, f"exchange{k}_trick")) for k in range(row.exchanges)]
        tricks = [(t.leader, t.winner, t.points, [card(str(getattr(t, f"card_{j}"))) for j in range(n)])
                  for t in tr[tr.deal == row.deal].sort_values("trick").itertuples()]
        g = replay(orules, [from_engine_id(c) for c in buf[:rules.ncards]], None, ex, tricks)
        sides = [row.side_points_0, row.side_points_1]
        assert g.side_points() == sides and g.result() == (row.winner, row.capote)
        moves, pending = [], list(ex)
        for t, (leader, _, _, cards) in enumerate(tricks):
            for j, c in enumerate(cards):
                while pending and pending[0][0] == (leader + j) % n and pending[0][2] == t:
                    moves.append("swap")
                    pending.pop(0)
                moves.append(str(c))
        values = analyse_play(deal_position(rules, seed, row.deal), moves, perspective=0)
        assert values == [sides[0]] * len(values)
    s = r.summary.to_dict()
    for k in range(2):
        pts = df[f"side_points_{k}"].to_numpy()
        drawn = (df.winner < 0) & (pts == df[["side_points_0", "side_points_1"]].max(axis=1))
        assert (s["sides"][k]["wins"], s["sides"][k]["draws"]) == ((df.winner == k).sum(), drawn.sum())
        assert s["sides"][k]["mean_points"] == pytest.approx(pts.mean(), abs=1e-12)
        assert s["sides"][k]["mean_points_se"] == pytest.approx(pts.std(ddof=1) / math.sqrt(len(pts)), abs=1e-9)
