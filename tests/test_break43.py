"""Break-it pass 43: ``brisca simulate``'s rule variants and outputs.

- With ``--duplicate`` the "by seat position" figures (``positions`` in ``--json``, the table's lines under
  "by seat position") took a pair's rotations as independent games: their intervals were the games' Wilson
  ones, while a pair's rotations play one deal's cards at that position. With one policy on every seat
  the rotations replay one game (``--players 4 --deck rapida20 --policy heuristic --duplicate``, seed 2:
  every pair's winner the same in both rotations), so the position intervals were too narrow by sqrt(2),
  the fault review 64 fixed for the draw and capote rates. The positions now carry ``pair_win_rate_ci95``,
  ``pair_score_ci95`` and ``pair_mean_points_se`` as the sides do, and the table prints those.
- ``--out runs/new --tricks runs/new/t.parquet`` (or the reverse) was taken: the tricks' directory was
  made, every deal played, and the deal table's rename onto that directory failed (exit 1, "writing the
  output failed: Is a directory (.../.new.XXXX.tmp)", no file written: the whole run lost). One output
  named inside the other is now refused before anything is played or created (exit 2).
- ``--seed``'s help (and README) said two runs of one seed are "joined on 'deal'": a ``--duplicate`` run's
  ``deal`` column is its row number (deal 0 rotation 1 is row 1), so a duplicate run joined on ``deal`` to
  a plain one paired different shuffles, silently. Both now name the ``pair`` column.
No kernel is compiled: the summaries are made from hand-made rows (R8: winner -1 is a draw), and the
refusal comes before the engine is loaded.
"""
import math

import numpy as np
import pytest

from sim.rules import Rules
from sim.stats import Z95, RunningStats, mean_se

from conftest import run_main


def _summary(rules: Rules, rows, rotations: int):
    st = RunningStats(rules.players, rules.sides, rotations)
    a = np.array(rows, dtype=np.int64)
    pts, win = a[:, :rules.sides], a[:, rules.sides]
    st.update(pts, win, (pts == 120).any(axis=1), 0)
    return st.summary(["heuristic"] * rules.sides, distinct_deals=len(rows) // rotations, seconds=1.0,
                      sim_seconds=1.0, rules=rules.to_dict())


# 8 deals, each played twice (--duplicate) with the same result: one policy on every seat
_DEALS = [[70, 50, 0], [40, 80, 1], [90, 30, 0], [60, 60, -1], [75, 45, 0], [55, 65, 1], [100, 20, 0], [30, 90, 1]]
_ROWS = [r for r in _DEALS for _ in range(2)]


def _normal(x):
    x = np.asarray(x, float)
    m, se = mean_se(x.sum(), (x * x).sum(), len(x))
    return [max(0.0, m - Z95 * se), min(1.0, m + Z95 * se)], se


def test_duplicate_position_intervals_are_over_pairs():
    s = _summary(Rules(players=2), _ROWS, rotations=2)
    d = s.to_dict()
    pos0 = d["positions"][0]
    wins = np.array([r[2] == 0 for r in _DEALS], float)  # a pair's win rate at position 0 (both rotations alike)
    score = np.array([1.0 if r[2] == 0 else 0.5 if r[2] == -1 else 0.0 for r in _DEALS])
    assert pos0["pair_win_rate_ci95"] == pytest.approx(_normal(wins)[0])
    assert pos0["pair_score_ci95"] == pytest.approx(_normal(score)[0])
    assert pos0["pair_mean_points_se"] == pytest.approx(_normal([r[0] for r in _DEALS])[1])
    # the games' interval (16 "independent" games) is narrower than the 8 pairs allow
    lo, hi = pos0["win_rate_ci95"]
    plo, phi = pos0["pair_win_rate_ci95"]
    assert hi - lo < phi - plo
    text = s.format_table()
    line = next(x for x in text.splitlines() if x.startswith("  position 0"))
    assert f"win rate 0.5000 [{plo:.4f}, {phi:.4f}]" in line
    slo, shi = pos0["pair_score_ci95"]
    assert f"score 0.5625 [{slo:.4f}, {shi:.4f}]" in line
    assert line.endswith(f"± se {pos0['pair_mean_points_se']:.2f}")
    # the position's figures over pairs are not side 0's (the policy's) over pairs: side 0 sits at both positions
    side0 = d["sides"][0]
    assert side0["pair_win_rate_ci95"] != pos0["pair_win_rate_ci95"]  # (side 0's policy sits at both positions)


def test_three_player_positions_over_pairs_and_none_without_duplicate():
    rules = Rules(players=3)
    deals = [[50, 40, 30, 0], [20, 70, 30, 1], [40, 40, 40, -1], [10, 30, 80, 2], [45, 45, 30, -1]]
    s = _summary(rules, [r for r in deals for _ in range(3)], rotations=3)
    for j, p in enumerate(s.to_dict()["positions"]):
        w = np.array([r[3] == j for r in deals], float)
        top = [max(r[:3]) for r in deals]
        sc = np.array([1.0 if r[3] == j else 0.5 if r[3] == -1 and r[j] == t else 0.0 for r, t in zip(deals, top)])
        assert p["pair_win_rate_ci95"] == pytest.approx(_normal(w)[0])
        assert p["pair_score_ci95"] == pytest.approx(_normal(sc)[0])
    plain = _summary(Rules(players=2), _DEALS, rotations=1)
    assert not any(k.startswith("pair_") for p in plain.to_dict()["positions"] for k in p)
    assert "by seat position" not in plain.format_table()


def test_position_pair_figures_do_not_depend_on_the_chunks():
    rules = Rules(players=2)
    whole = _summary(rules, _ROWS, rotations=2).to_dict()["positions"]
    st = RunningStats(2, 2, 2)
    a = np.array(_ROWS, dtype=np.int64)
    for r0 in range(0, len(a), 4):
        c = a[r0:r0 + 4]
        st.update(c[:, :2], c[:, 2], (c[:, :2] == 120).any(axis=1), r0)
    parts = st.summary(["heuristic"] * 2, distinct_deals=8, seconds=1.0, sim_seconds=1.0).to_dict()["positions"]
    for k in ("pair_win_rate_ci95", "pair_score_ci95", "pair_mean_points_se"):
        assert [p[k] for p in parts] == [p[k] for p in whole]
        assert all(math.isfinite(x) for p in whole for x in np.ravel(p[k]))


@pytest.mark.parametrize("out, tricks, first, second", [
    ("new", "new/t.parquet", "--out", "--tricks"), ("new/sub/a.parquet", "new", "--tricks", "--out")])
def test_one_output_inside_the_other_is_refused_before_the_run(tmp_path, capsys, out, tricks, first, second):
    o, t = tmp_path / out, tmp_path / tricks
    assert run_main(["simulate", "--deals", "1", "--no-progress", "--out", str(o), "--tricks", str(t)]) == 2
    err = capsys.readouterr().err
    outer, inner = (o, t) if first == "--out" else (t, o)
    assert err == (f"brisca: error: {first} '{outer}' would have to be a directory holding {second} '{inner}': "
                   "give two files, neither inside the other\n")
    assert list(tmp_path.iterdir()) == []  # (nothing created, nothing played)


def test_api_names_the_parameters_and_siblings_are_fine(tmp_path):
    from sim.batch import simulate
    with pytest.raises(ValueError, match=r"^out='.*new' would have to be a directory holding tricks_out="):
        simulate(Rules(players=2), "random", deals=1, out=tmp_path / "new", tricks_out=tmp_path / "new" / "t.pq")
    assert list(tmp_path.iterdir()) == []

    class Started(Exception):
        pass

    def started():
        raise Started  # (on_start: every input check passed; nothing played yet)
    # a name that merely begins with the other's is no directory of it: taken
    with pytest.raises(Started):
        simulate(Rules(players=2), "random", deals=1, out=tmp_path / "new", tricks_out=tmp_path / "newer.pq",
                 on_start=started)
    from sim.cli import _as_flag
    assert _as_flag("out='a' would have to be a directory holding tricks_out='a/b'") == \
        "--out 'a' would have to be a directory holding --tricks 'a/b'"


def test_seed_help_names_the_pair_column_of_a_duplicate_run():
    from sim.cli import build_parser
    sub = next(a for a in build_parser()._actions if a.dest == "command" or getattr(a, "choices", None)
               and "simulate" in (a.choices or {}))
    text = " ".join(sub.choices["simulate"].format_help().split())
    assert "rows joined on 'deal'; a --duplicate run's 'deal' is its row, its deal is the 'pair' column" in text


def test_solver_self_play_obeys_the_rule_oracle():
    """Break-it pass 43 replayed the open-hand oracle's self-play (``--policy solver``, RULES R11) through the
    plain-Python rule oracle by hand (8 variants, 0 mismatches); no test did. Here 4 deals of the small
    rapida20 deck under R9's arrastre, with the won-trick exchange condition (R7): every card legal, every
    trick's winner and points and the final points as the oracle's."""
    import numpy as np

    from sim.engine import R_SIZE, T_SIZE
    from sim.rules import Rules
    from solver.selfplay import play_open_batch
    from test_conformance import Checker

    rules = Rules(players=2, deck="rapida20", endgame="arrastre", exchange_condition="won-trick")
    m, n = 4, rules.players
    out = {"res": np.zeros((m, R_SIZE), np.int16), "hands0": np.zeros((m, n, 3), np.int8),
           "dseeds": np.zeros(m, np.uint64), "tricks": np.zeros((m, rules.tricks, T_SIZE), np.int16)}
    play_open_batch(rules, 5, 0, m, 1, out["res"], out["hands0"], out["dseeds"], out["tricks"], True)
    check = Checker(rules, ["random"] * n, 5)
    for i in range(m):
        check.check(out, i)
    assert check.stats["deals"] == m
