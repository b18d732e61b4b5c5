"""Carried items of 2026-12-07's eighth part, mended in the ninth.

- The moves that win the deal (61 card points or more with what the side holds, R8) were in ``brisca
  solve``'s text output only: ``--json`` and ``--out`` records had no key for them, so a puzzle author
  checking a file of puzzles for "exactly one winning move" summed ``moves`` and ``points=`` by hand.
  Now ``SolveResult.wins`` and the records' ``wins`` key (a parquet column of JSON text): null where a
  win is not a sum of points (three players, ``stock=?``, target mode).
- Break-it pass 42: with the stock known and empty and the pinta left out of ``played=``, the hands' count
  message said the pinta "is placed nowhere, so it is still to draw" and then listed it as placed nowhere.
"""
import json

import pyarrow.parquet as pq

from solver import cli as solver_cli
from solver.api import solve

EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
PLAYED = ("3O,4O,5O,6O,7O,11O,12O,1C,4C,5C,10C,11C,12C,1E,2E,4E,5E,6E,7E,10E,11E,"
          "1B,2B,3B,6B,7B,10B,11B")
HIDDEN = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=? turn=1 trick=1O points=62,17 played=" + PLAYED
THREE = ("players=3 trump=2E hands=12B,11E,11C/7O,6B/3E,4E,4O stock=12E,2C,1O,3O,5O turn=2 trick=11B "
         "points=41,11,20")


def test_wins_are_the_moves_that_reach_61_with_the_points_held():
    """R8: 61 of 120 wins. Seat 1 holds 17 in EX (best 26: no move wins); holding 40, only 2C (26) does."""
    r = solve(EX)
    assert r.wins == [] and r.to_dict()["wins"] == []
    r = solve(EX.replace("points=62,17", "points=39,40"))
    assert r.moves == {"2C": 26, "10O": 18, "12E": 16} and r.wins == ["2C"]
    r = solve(EX.replace("points=62,17", "points=18,61"))
    assert r.wins == ["2C", "10O", "12E"]  # (already 61: every move)
    assert solve(EX, win=True).to_dict()["wins"] is None  # target mode: no move values
    assert solve(EX, moves=False).wins is None
    # four players: the team's points (seats 0 and 2: 15 + 10), and 25 + 36 is exactly 61 (R8)
    r = solve("players=4 trump=6C hands=11O/3O/1C,10O/3C,1O stock= turn=2 trick=12E,1E points=15,20,10,13")
    assert r.moves == {"1C": 36, "10O": 34} and r.wins == ["1C"]
    r = solve(THREE)  # three players: the most points win (R8), not a sum reaching 61
    assert r.moves and r.wins is None


def test_json_and_parquet_records_carry_wins(capsys, tmp_path):
    """--json prints the wins list; --out writes it as JSON text, null for stock=? (an expectation)."""
    assert solver_cli.main(["solve", "--json", "--no-progress", EX.replace("62,17", "39,40")]) == 0
    out = capsys.readouterr().out
    assert json.loads(out)["wins"] == ["2C"]
    f = tmp_path / "p.txt"
    f.write_text(EX + "\n" + HIDDEN + "\n")
    o = tmp_path / "o.parquet"
    assert solver_cli.main(["solve", "--file", str(f), "--out", str(o), "--no-progress"]) == 0
    capsys.readouterr()
    df = pq.read_table(o).to_pandas()
    assert json.loads(df["wins"][0]) == [] and df["wins"].isna().tolist() == [False, True]


def test_a_pinta_left_out_with_the_stock_empty_is_not_called_still_to_draw():
    """R4/R6: nothing is drawn from an empty stock, so a pinta placed nowhere is not still to draw."""
    import pytest

    from solver.position import Position
    played = ("1O,2O,3O,4O,5O,6O,7O,10O,12O,1C,2C,4C,5C,6C,7C,10C,11C,12C,1E,2E,3E,4E,5E,6E,7E,10E,11E,12E,"
              "1B,2B,3B,4B,5B,7B,10B,11B,12B")  # (the deck less 3C, the pinta, and seat 0's 6B and the trick's 11O)
    with pytest.raises(ValueError) as e:
        Position.parse("players=2 trump=3C hands=6B/ stock= turn=0 trick=11O points=50,67 played=" + played)
    msg = str(e.value)
    assert "so it is still to draw" not in msg and "with the stock empty it is not still to draw" in msg
    assert msg.endswith("placed nowhere: 3C (list it in played=, a hand or the stock)")


def test_a_numpy_duration_is_not_a_count():
    """Break-it pass 40: np.timedelta64(3) passed as a count (numpy counts it an integer type)."""
    import numpy as np
    import pytest

    from sim.checks import check_int
    assert check_int(np.int8(3), "count") == 3
    with pytest.raises(ValueError, match=r"^count: expected an integer 0 or more, got "):
        check_int(np.timedelta64(3), "count")


def test_an_endless_policies_iterable_is_not_read_whole():
    """Break-it pass 40: an endless iterable as policies was read whole (memory without bound); one name more
    than the seats is enough to refuse it."""
    import itertools

    import pytest

    from sim.batch import resolve_policies
    from sim.rules import Rules
    with pytest.raises(ValueError, match=r"^got more than 4 policies for 4 players: give 1 \(every seat\) or 2"):
        resolve_policies(Rules(players=4), itertools.cycle(["heuristic", "random"]))
    assert resolve_policies(Rules(players=4), iter(["heuristic", "random"])) == ("heuristic", "random") * 2
    with pytest.raises(ValueError, match=r"^got 5 policies for 2 players"):  # (a list: counted)
        resolve_policies(Rules(players=2), ["random"] * 5)


def test_the_rules_line_says_seven_two_exchanges_the_7_only_when_the_2_of_trumps_is_out():
    """Break-it pass 43: R3's trump2 and all2s (3 players) and the four 2s of 6 players on spanish40 take the
    2 of trumps out, so seven-two (R7) makes the 7-exchange only; the summary's rules line did not say so."""
    from sim.rules import Rules
    from sim.stats import _rules_line
    note = "exchange seven-two (condition any) (the 7 only: the 2 of trumps is out, R3)"
    for rules in (Rules(players=3, remove="trump2"), Rules(players=3, remove="all2s"),
                  Rules(players=6, deck="spanish40")):
        assert note in _rules_line(rules.to_dict()), rules
    for rules in (Rules(players=3), Rules(players=2), Rules(players=6), Rules(players=3, exchange="seven")):
        assert "the 7 only" not in _rules_line(rules.to_dict()), rules


def test_summary_to_row_is_one_flat_row_per_run():
    """User study 67's left-alone item: a sweep picked each figure out of Summary.to_dict()'s nested sides
    and positions by hand. to_row spreads them into columns (intervals as _lo/_hi, None with three sides)."""
    import numpy as np
    import pandas as pd

    from sim.rules import Rules
    from sim.stats import RunningStats

    def summary(rules, rows, rotations):
        st = RunningStats(rules.players, rules.sides, rotations)
        a = np.array(rows, dtype=np.int64)
        pts, win = a[:, :rules.sides], a[:, rules.sides]
        st.update(pts, win, (pts == 120).any(axis=1), 0)
        return st.summary(["heuristic", "random", "greedy"][:rules.sides], distinct_deals=len(rows) // rotations,
                          seconds=1.0, sim_seconds=1.0, rules=rules.to_dict(),
                          policies=["heuristic", "random", "greedy"][:rules.players])

    two = summary(Rules(players=2), [[70, 50, 0], [40, 80, 1], [60, 60, -1], [90, 30, 0]], 2)
    three = summary(Rules(players=3), [[50, 40, 30, 2], [30, 50, 40, 1], [40, 40, 40, -1]], 1)
    d, r = two.to_dict(), two.to_row()
    assert all(not isinstance(v, (list, dict)) for v in r.values())
    assert r["side1_win_rate"] == d["sides"][1]["win_rate"] and r["side1_policy"] == "random"
    assert [r["side0_pair_win_rate_ci95_lo"], r["side0_pair_win_rate_ci95_hi"]] == d["sides"][0]["pair_win_rate_ci95"]
    assert [r["draw_rate_ci95_lo"], r["draw_rate_ci95_hi"]] == d["draw_rate_ci95"]
    assert r["position0_seats"] == "0" and r["policies"] == "heuristic,random" and r["endgame"] == "free"
    assert r["mean_points_diff"] == d["mean_points_diff"]
    t = three.to_row()
    assert t["mean_points_diff_ci95_lo"] is None and "mean_points_diff_ci95" not in t and t["players"] == 3
    assert t["side2_policy"] == "greedy" and t["remove"] == "2B"
    df = pd.DataFrame([r, t])
    assert len(df) == 2 and df["side2_wins"].isna().tolist() == [True, False]
