"""Break-it pass 45: ``Summary.to_row()``, the flat row of a run for a DataFrame of many runs.

- A key of ``extra`` named like a spread column (``side0_wins``, ``position0_side``, or a dict ``side0`` with
  a key ``wins``) was silently overwritten by the side's figure, and a rules dict holding a key named like a
  top-level one (``deals``) silently replaced the run's figure (a row saying 7 deals of a 4-deal run); an
  ``extra`` key ``players`` beside the rules was lost too. One column from two parts is now a ValueError.
- A key ending in ``ci95`` whose value was no ``[lo, hi]`` pair (three bounds, a text) was written as two
  Nones: the value lost without a word. It is now a ValueError (None and ``[None, None]`` stay two Nones).
- ``rules`` that were not a dict (a text) and a dict of ``extra`` holding a key ``sides``, ``positions`` or
  ``rules`` were dropped from the row; any list of ``extra`` other than ``policies`` stayed a list in the
  "flat" row (now JSON text), and a path (``out=Path(...)``) made neither ``to_json`` nor ``json.dumps`` of
  the row work (now its text).
The summaries of every player count (2, 3, 4, 6; R3's sides), with and without ``duplicate``, interrupted
or of no deal at all, still give rows that are JSON-able, flat, and go to parquet together.
No kernel is compiled: the summaries come from hand-made rows fed to ``RunningStats`` (R8: winner -1 a draw).
"""
import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim.rules import Rules
from sim.stats import RunningStats, Summary


def _summary(players: int, duplicate: bool, deals: int = 5, **extra) -> Summary:
    rules = Rules(players=players)
    S = rules.sides
    R = S if duplicate else 1
    st = RunningStats(players, S, R)
    rows = []
    for i in range(deals):
        pts = [60 + 10 * (i % 3) - 5 * i % 20, 0] if S == 2 else [40 + i, 40, 40 - i]
        if S == 2:
            pts[1] = 120 - pts[0]
        top = max(pts)
        rows += [pts + [pts.index(top) if pts.count(top) == 1 else -1]] * R
    if rows:
        a = np.array(rows, dtype=np.int64)
        st.update(a[:, :S], a[:, S], (a[:, :S] == 120).any(axis=1), 0)
    run = {"rules": rules.to_dict(), "policies": [f"p{s % S}" for s in range(players)], "seed": 3,
           "duplicate": duplicate, "threads": 2, "complete": True, "out": None, "tricks_out": None}
    run.update(extra)
    return st.summary([f"p{k}" for k in range(S)], distinct_deals=deals, seconds=1.0, sim_seconds=0.5, **run)


def _hand(**kw) -> Summary:
    d = dict(deals=4, distinct_deals=4, rotations=1, seconds=1.0, sim_seconds=0.5, draws=0, capotes=0,
             sides=[{"side": 0, "seats": [0], "wins": 3, "win_rate_ci95": [0.3, 0.95]}],
             positions=[{"side": 0, "seats": [0], "wins": 2}])
    d.update(kw)
    return Summary(**d)


@pytest.mark.parametrize("extra,column", [({"side0_wins": 99}, "side0_wins"),
                                          ({"side0": {"wins": 99}}, "side0_wins"),
                                          ({"position0_side": 5}, "position0_side"),
                                          ({"players": 99, "rules": Rules(players=3).to_dict()}, "players"),
                                          ({"rules": {"deals": 7, "players": 2}}, "deals")])
def test_one_column_from_two_parts_is_refused_not_overwritten(extra, column):
    with pytest.raises(ValueError, match=rf"^to_row: the column '{column}' comes from both "):
        _hand(extra=extra).to_row()


def test_an_interval_key_holding_no_pair_is_refused_not_lost():
    with pytest.raises(ValueError, match=r"^to_row: sides\[0\]'s 'win_rate_ci95' is no \[lo, hi\] interval: "
                                         r"\[0\.1, 0\.2, 0\.3\]$"):
        _hand(sides=[{"win_rate_ci95": [0.1, 0.2, 0.3]}]).to_row()
    with pytest.raises(ValueError, match=r"^to_row: the summary's 'method_ci95' is no \[lo, hi\] interval"):
        _hand(extra={"method_ci95": "wilson"}).to_row()
    for ci in (None, [None, None], [float("nan"), float("nan")]):  # (no interval: two empty ends)
        r = _hand(sides=[{"win_rate_ci95": ci}]).to_row()
        assert r["side0_win_rate_ci95_lo"] is None and r["side0_win_rate_ci95_hi"] is None


def test_extra_parts_are_kept_flat_and_json_able():
    r = _hand(extra={"rules": "default", "meta": {"sides": 3, "note": "x"}, "seeds": [1, 2],
                     "out": Path("runs") / "a.parquet"}).to_row()
    assert r["rules"] == "default" and r["meta_sides"] == 3 and r["meta_note"] == "x"
    assert r["seeds"] == "[1, 2]" and r["out"] == str(Path("runs") / "a.parquet")
    assert all(not isinstance(v, (list, dict, tuple)) for v in r.values())
    json.dumps(r, allow_nan=False)
    s = _hand(extra={"out": Path("a.parquet")})
    assert json.loads(s.to_json())["out"] == "a.parquet"


def test_rows_of_every_player_count_go_to_one_dataframe_and_parquet():
    """R3: 2, 3, 4, 6 players (two sides but for 3); duplicate or not; an interrupted run; a run of no deal."""
    summaries = [_summary(p, dup) for p in (2, 3, 4, 6) for dup in (False, True)]
    summaries += [_summary(3, True, deals=2, complete=False, out="part.parquet"), _summary(2, False, deals=0),
                  _summary(6, False, seed=None)]
    rows = [s.to_row() for s in summaries]
    for s, r in zip(summaries, rows):
        assert all(not isinstance(v, (list, dict, tuple)) for v in r.values())
        json.dumps(r, allow_nan=False)
        d = s.to_dict()
        assert r["deals"] == d["deals"] and r["players"] == d["rules"]["players"]
        assert len([k for k in r if k.startswith("side") and k.endswith("_side")]) == len(d["sides"])
    assert rows[2]["side2_seats"] == "2" and rows[2]["mean_margin"] is None  # (three sides: no margin)
    assert rows[6]["side0_seats"] == "0,2,4" and rows[6]["side1_policy"] == "p1"
    df = pd.DataFrame(rows)
    buf = io.BytesIO()
    df.to_parquet(buf)
    back = pd.read_parquet(io.BytesIO(buf.getvalue()))
    assert back.shape == df.shape and back["players"].tolist() == [2, 2, 3, 3, 4, 4, 6, 6, 3, 2, 6]
    assert back["out"].tolist()[8] == "part.parquet" and back["complete"].tolist()[8] == False  # noqa: E712
