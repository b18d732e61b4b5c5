"""Mutation testing, eighth pass (helper, 2026-12-06): sim/batch.py, solver/puzzles.py, sim/rules.py.

Each test fails on a mutant that passed the rest of the suite; expectations come from RULES.md,
NOTATION.md, the documented contracts, or a plain-Python re-derivation.
"""
import re

import numpy as np
import pytest

from sim.batch import read_metadata, side_labels, simulate
from sim.rules import P_TIE, Rules


# --- sim/rules.py ------------------------------------------------------------------------------

def test_rules_array_tie_slot_is_documented_layout():
    """P_TIE: 0 draw, 1 replay (layout comment). Mutant: the slot always 0."""
    assert Rules(players=2, tie="replay").to_array()[P_TIE] == 1
    assert Rules(players=2, tie="draw").to_array()[P_TIE] == 0


# --- sim/batch.py ------------------------------------------------------------------------------

def test_metadata_deals_rows_rotations(tmp_path):
    """brisca.deals counts distinct deals, brisca.rows the rows (deals * rotations), brisca.rotations is 1
    without duplicate and rules.sides with it (module docstring). Mutants: deals = rows; rotations = sides."""
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    simulate(Rules(players=3), "random", deals=4, seed=5, duplicate=True, out=a)
    md = read_metadata(a)
    assert (md["deals"], md["rows"], md["rotations"], md["duplicate"]) == (4, 12, 3, True)
    simulate(Rules(players=3), "random", deals=4, seed=5, out=b)
    md = read_metadata(b)
    assert (md["deals"], md["rows"], md["rotations"], md["duplicate"]) == (4, 4, 1, False)


def test_frame_kept_up_to_frame_rows_inclusive(monkeypatch):
    """keep_frame default: runs of *at most* FRAME_ROWS rows keep a frame. Mutant: < instead of <=."""
    import sim.batch as B
    monkeypatch.setattr(B, "FRAME_ROWS", 6)
    assert simulate(2, "random", deals=6, seed=1).frame is not None
    assert simulate(2, "random", deals=7, seed=1).frame is None
    assert len(simulate(2, "random", deals=3, seed=1, duplicate=True).frame) == 6  # rows, not deals
    assert simulate(2, "random", deals=4, seed=1, duplicate=True).frame is None  # 8 rows


def test_side_labels_join_distinct_policies_of_a_side():
    """side_labels: the name, or names joined by '+' when the side's seats differ (R3: 4 players, seats
    0+2 vs 1+3). Mutant: only the first name."""
    r = Rules(players=4)
    assert side_labels(r, ("greedy", "random", "heuristic", "random")) == ["greedy+heuristic", "random"]
    assert side_labels(r, ("random", "greedy", "random", "greedy")) == ["random", "greedy"]


def test_engine_status_error_names_deal_and_rotation():
    """A bad status at row r names deal r // rotations and rotation r % rotations (module docstring).
    Mutant: deal r."""
    from sim import engine as E
    from sim.batch import _check_status
    res = np.zeros((4, E.R_SIZE), np.int16)
    res[1, E.R_STATUS] = 1
    with pytest.raises(RuntimeError, match=r"first at row 7 \(deal 3, rotation 1\)"):
        _check_status(E, res, 6, 4, 2, ("random", "random"))


def test_seed_two_to_the_64_refused():
    """seed: 0 <= seed < 2**64. Mutant: <= 2**64 accepted."""
    with pytest.raises(ValueError, match="seed"):
        simulate(2, "random", deals=1, seed=2 ** 64)
    simulate(2, "random", deals=1, seed=2 ** 64 - 1)


class _Started(Exception):
    pass


def _stop():
    raise _Started


def test_rows_of_two_to_the_63_refused_before_start():
    """Row numbers are int64: rows >= 2**63 are refused before anything starts (the largest deal count is
    2**63 - 1; with duplicate (2**63 - 1) // 2 + 1 would make 2**63 rows). Mutant: rows > 2**63."""
    with pytest.raises(ValueError, match="deals must be below"):
        simulate(2, "random", deals=2 ** 63, seed=0, on_start=_stop)
    with pytest.raises(ValueError, match="deals must be below"):
        simulate(2, "random", deals=2 ** 62, seed=0, duplicate=True, on_start=_stop)  # 2**63 rows
    with pytest.raises(_Started):  # 2**63 - 1 rows: accepted (stopped in on_start)
        simulate(2, "random", deals=2 ** 63 - 1, seed=0, on_start=_stop)


def test_tricks_frame_without_tricks_out():
    """tricks=True (keep_frame by default for a small run) returns the trick table even with no tricks_out:
    one row per trick (R3: 20 tricks a deal for 2 players), card points summing to 120 per deal (R2).
    Mutant: tricks recorded only for tricks_out (tricks None)."""
    r = simulate(2, "random", deals=5, seed=3, tricks=True)
    assert r.tricks is not None and len(r.tricks) == 5 * 20
    assert r.tricks.groupby("deal").points.sum().tolist() == [120] * 5


def test_second_exchange_trick_is_its_own():
    """exchange1_trick is the trick of the *second* exchange (R7 chains: the 7, then the 2 of trumps).
    The 2 given up in exchange 1 must be in that seat's hand then; a card not dealt to the seat (R4) is
    drawn after a trick (R6), so the exchange is in trick 1 or later. Mutant: exchange1_trick reads
    exchange0_trick (so a chain whose 7 went in trick 0 reported trick 0 for the 2 too)."""
    df = simulate(2, ["greedy", "greedy"], deals=20000, seed=11, keep_frame=True).frame
    two = df[df.exchanges == 2]
    assert len(two)
    met = 0
    for row in two.itertuples():
        s = row.exchange1_seat
        dealt = {str(getattr(row, f"hand_{s}_{k}")) for k in range(3)}
        assert row.exchange0_trick <= row.exchange1_trick
        if str(row.exchange1_card) not in dealt:
            assert row.exchange1_trick >= 1, row
            met += row.exchange0_trick == 0
    assert met  # the case that tells the mutant apart was met


# --- solver/puzzles.py -------------------------------------------------------------------------

def _fields(text):
    return dict(tok.split("=", 1) for tok in text.split())


def _cards(v):
    return [c for c in re.split(r"[,/]", v) if c]


def _reference_puzzles(seed, tries):
    """Plain re-derivation of the documented search: deal d of the seed (deal_position), walked along
    random legal moves drawn from numpy.random.default_rng(seed) to a random ply in [20, 2*tricks - 2),
    kept when the side to move still needs points (need = 61 - its points, R8) and exactly one move
    reaches need."""
    from solver.api import solve
    from solver.position import deal_position
    rules = Rules(players=2)
    rng = np.random.default_rng(seed)
    out = []
    for d in range(tries):
        pos = deal_position(rules, seed, d)
        target = int(rng.integers(20, 38))
        for _ in range(target):
            moves = pos.legal_moves()
            pos = pos.apply(moves[int(rng.integers(len(moves)))])
        pts = [int(x) for x in _fields(str(pos))["points"].split(",")]
        need = 61 - pts[pos.turn]
        if need <= 0:
            continue
        vals = solve(pos).moves
        win = [m for m, v in vals.items() if v >= need]
        if len(win) == 1 and len(vals) >= 2:
            out.append((d, target, need, win[0]))
    return out


def test_puzzles_match_the_documented_search():
    """Mutants: the walk's rng seeded otherwise, a walk from ply 0, need <= 5 skipped, ply off by one."""
    from solver.puzzles import find_puzzles
    ref = _reference_puzzles(0, 80)
    assert any(n <= 5 for _, _, n, _ in ref)  # (seed 0 holds a puzzle needing 4 points: deal 77)
    got = [(r["deal"], r["ply"], r["need"], r["move"]) for r in find_puzzles(10 ** 6, seed=0, max_tries=80)]
    assert got == ref


def test_puzzle_record_fields_from_the_position_text():
    """need = 61 - the points of the side to move (the position's points=, R8); pv is the whole solution
    line from the winning move to the end of the deal (one card for every card not yet played: hands,
    face-down stock and the pinta while it is under the stock, R3/R4/R6), and playing it gives the side
    to move exactly its points plus the record's value, 61 or more. Mutants: need + 1, pv without its
    first move."""
    from solver.position import Position
    from solver.puzzles import find_puzzles
    for rec in find_puzzles(4, seed=2, max_tries=400):
        f = _fields(rec["position"])
        pts = [int(x) for x in f["points"].split(",")]
        turn = int(f["turn"])
        assert rec["need"] == 61 - pts[turn]
        stock = _cards(f.get("stock", ""))
        left = len(_cards(f["hands"])) + len(stock) + (1 if stock else 0)  # cards not yet played
        pv = rec["pv"]
        assert pv[0] == rec["move"]
        pos = Position.parse(rec["position"])
        cards = [m for m in pv if m != "swap"]
        assert len(cards) == left
        for m in pv:
            pos = pos.apply(pos.parse_move(m))
        assert pos.is_terminal and pos.side_points(turn) >= 61
        assert pos.side_points(turn) - pts[turn] == rec["value"]


def test_puzzles_examine_at_most_max_tries_positions():
    """max_tries: positions examined at most; on_try is called once per position examined.
    Mutant: tries <= max_tries (one position too many)."""
    from solver.puzzles import find_puzzles
    calls = []
    list(find_puzzles(10 ** 6, seed=0, max_tries=7, on_try=lambda: calls.append(1)))
    assert len(calls) == 7


def test_puzzles_refuse_unsupported_players():
    """players: 2, 3, 4 or 6 (Raises ValueError for unsupported players; 2 only until the sixth part of
    2026-12-07). Mutant: 5 accepted."""
    from solver.puzzles import find_puzzles
    for n in (1, 5, 7):
        with pytest.raises(ValueError, match="players"):
            next(find_puzzles(1, players=n))


def test_chunk_rounded_down_to_whole_rotations():
    """chunk: rows per chunk, rounded down to whole pairs (triples with three players); results do not
    depend on it. Mutant: not rounded (a chunk of 5 rows split a triple: the run failed)."""
    ref = simulate(Rules(players=3), "random", deals=4, seed=9, duplicate=True).frame
    for chunk in (5, 4, 1):
        got = simulate(Rules(players=3), "random", deals=4, seed=9, duplicate=True, chunk=chunk).frame
        assert got.equals(ref), chunk
    assert len(ref) == 12 and ref.rotation.tolist() == [0, 1, 2] * 4 and ref.pair.tolist() == [0, 0, 0, 1, 1, 1,
                                                                                              2, 2, 2, 3, 3, 3]


# --- benchmarks/open_values.py -------------------------------------------------------------------

def _open_values():
    import importlib.util
    import os

    import sim
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(sim.__file__))), "benchmarks",
                        "open_values.py")
    spec = importlib.util.spec_from_file_location("open_values_m8", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _ov(**cols):
    import pandas as pd
    base = {"deal": [0, 1], "seed": [1, 1], "pinta": [0, 47], "pinta_rank": [2, 12], "trump": [0, 3],
            "first_points": [120, 0], "second_points": [0, 120], "winner": [0, 1], "nex": [0, 2], "ms": [1.0, 2.0]}
    base.update(cols)
    return pd.DataFrame(base)


@pytest.mark.parametrize("cols", [
    {"first_points": [121, 0], "second_points": [-1, 120]},  # points 0-120 (R2), summing to 120
    {"first_points": [70, 0], "second_points": [40, 120]},  # in range, not summing to 120
    {"winner": [2, 1]},  # two sides: 0, 1, -1 draw (R8)
    {"pinta": [48, 47]},  # card ids 0-47
    {"nex": [3, 2]},  # at most two exchanges (R7)
], ids=["points121", "sum", "winner2", "pinta48", "nex3"])
def test_open_values_load_refuses_values_just_out_of_range(tmp_path, cols):
    """load(): card points 0-120 summing to 120, winner -1/0/1, pinta 0-47, nex 0-2 (its docstring).
    The edges themselves load. Mutants: each bound one too wide, the sum check dropped."""
    ov = _open_values()
    ok = tmp_path / "ok.parquet"
    _ov().to_parquet(ok)
    assert len(ov.load(str(ok), seed=1)) == 2
    bad = tmp_path / "bad.parquet"
    _ov(**cols).to_parquet(bad)
    with pytest.raises(ValueError, match="values out of range"):
        ov.load(str(bad))


def test_open_values_summary_figures():
    """summary(): win/draw/loss shares of the first leader (winner 0 / -1 / 1, R8), capote either way
    (120 or 0 points), a 60-60 histogram row of its own, pinta ranks strongest first (R2: 1 before 2).
    Four deals by hand: points 120, 60, 30, 0; winners 0, -1, 1, 1. Mutants: win counted as not-lost,
    draws as losses, the 60 bin merged, ranks weakest first, capote only 120-0."""
    ov = _open_values()
    df = _ov(deal=[0, 1, 2, 3], seed=[5] * 4, pinta=[0, 1, 2, 3], pinta_rank=[1, 2, 1, 2], trump=[0] * 4,
             first_points=[120, 60, 30, 0], second_points=[0, 60, 90, 120], winner=[0, -1, 1, 1], nex=[0] * 4,
             ms=[1.0] * 4)
    s = ov.summary(df)
    assert "first leader wins 25.00% +-" in s and "draws (60-60) 25.00%" in s and "loses 50.00%" in s
    assert "capote (120-0 either way): 50.000%" in s
    assert "| 60-60 | 25.0% |" in s and "| 61-69 | 0.0% |" in s
    assert s.index("| 1 | 2 |") < s.index("| 2 | 2 |")
    # 95% CI of the mean: 1.96 * sd / sqrt(n); sd of 120, 60, 30, 0 (ddof 1) = sqrt(7875 / 3) = 51.23
    assert "mean optimal points: 52.50 +- 50.21 (95% CI), sd 51.23" in s


def test_open_values_load_types_and_order(tmp_path):
    """load(): integer columns stay integers (a float points column is refused), and the deals come back
    sorted by deal. Mutants: floats accepted; the file's row order returned."""
    ov = _open_values()
    f = tmp_path / "f.parquet"
    _ov(first_points=[120.0, 0.0]).to_parquet(f)
    with pytest.raises(ValueError, match="column first_points is float64, expected integers"):
        ov.load(str(f))
    u = tmp_path / "u.parquet"
    _ov(deal=[1, 0]).to_parquet(u)
    got = ov.load(str(u))
    assert got["deal"].tolist() == [0, 1] and got["first_points"].tolist() == [0, 120]
