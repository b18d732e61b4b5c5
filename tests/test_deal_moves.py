"""solver.deal_moves: a simulated deal's moves for analyse_play (user studies 64b and 65: grading a deal
took a 20-line script joining the deal and trick tables and placing the exchanges)."""
import io

import pandas as pd
import pytest

import sim
from solver import deal_moves, deal_position


def _replay(rules, seed, r, dup):
    """Every deal of ``r`` replayed from deal_position with deal_moves ends where the engine's did (R5-R8)."""
    swaps = 0
    for row in r.frame.itertuples(index=False):
        moves = deal_moves(r.frame, r.tricks, row.deal)
        swaps += moves.count("swap")
        p = deal_position(rules, seed, row.pair if dup else row.deal)
        for m in moves:
            p = p.apply(m)
        assert p.is_terminal
        assert p.points == tuple(getattr(row, f"points_{s}") for s in range(rules.players))
    return swaps


@pytest.mark.parametrize("players, dup", [(2, False), (3, False), (4, True)])
def test_moves_replay_the_engines_deal(players, dup):
    rules = sim.Rules(players=players)
    r = sim.simulate(rules, ["heuristic", "random", "greedy"][:2 if players != 3 else 3], deals=12, seed=11,
                     duplicate=dup, tricks=True)
    assert _replay(rules, 11, r, dup) > 0  # (exchanges happened, R7: the swaps were placed right)


def test_parquet_tables_as_pandas_reads_them():
    rules = sim.Rules(players=2)
    r = sim.simulate(rules, "heuristic", deals=3, seed=3, tricks=True)
    back = []
    for t in (r.frame, r.tricks):
        buf = io.BytesIO()
        t.to_parquet(buf)
        back.append(pd.read_parquet(io.BytesIO(buf.getvalue())))
    assert deal_moves(*back, 0) == deal_moves(r.frame, r.tricks, 0)
    assert len(deal_moves(*back, 0)) == 40 + deal_moves(*back, 0).count("swap")


def test_bad_input_is_named():
    r = sim.simulate(sim.Rules(players=2), "random", deals=2, seed=1, tricks=True)
    with pytest.raises(ValueError, match=r"^deal: 5 is not in the deal table$"):
        deal_moves(r.frame, r.tricks, 5)
    with pytest.raises(ValueError, match=r"^deal must be an integer"):
        deal_moves(r.frame, r.tricks, True)
    with pytest.raises(ValueError, match=r"^tricks: expected the trick table .*missing trick, leader$"):
        deal_moves(r.frame, r.frame, 0)
    with pytest.raises(ValueError, match=r"^deals: expected the deal table"):
        deal_moves([1, 2], r.tricks, 0)
    with pytest.raises(ValueError, match=r"^deal: 1 has no tricks in the trick table"):
        deal_moves(r.frame, r.tricks[r.tricks["deal"] == 0], 1)


def test_readme_grading_example(tmp_path, monkeypatch):
    """The README's grading block, after the command its comment gives, gives the figures the text after it
    says: deal 0 of --seed 3, heuristic on both seats, worth 51 to seat 0 open, 47 at the end."""
    import re

    from conftest import run_main
    from test_docs import _readme_block, _run_block
    code = _readme_block("To grade a deal that `brisca simulate")
    cmd = re.search(r"# after: brisca (simulate .*)", code).group(1).split()
    monkeypatch.chdir(tmp_path)
    assert run_main(cmd + ["--no-progress"]) == 0
    names = {}
    _run_block(code, names)
    assert (names["values"][0], names["values"][-1]) == (51, 47)
    assert names["deals"].loc[0, "side_points_0"] == 47


def test_odd_tables():
    """Self-review mutation pass: the trick rows in any order, a deal twice in the deal table (two runs
    concatenated), an exchange in a trick the trick table lacks, two exchanges of one seat in one trick."""
    r = sim.simulate(sim.Rules(players=2), "heuristic", deals=6, seed=3, tricks=True)
    f, t = r.frame, r.tricks
    d = int(f.loc[f["exchanges"] > 0, "deal"].iloc[0])
    moves = deal_moves(f, t, d)
    assert deal_moves(f, t.sample(frac=1, random_state=0), d) == moves
    with pytest.raises(ValueError, match=rf"^deal: {d} is more than once in the deal table$"):
        deal_moves(pd.concat([f, f]), t, d)
    row = f[f["deal"] == d].iloc[0]
    k, s = int(row["exchange0_trick"]), int(row["exchange0_seat"])
    bad = f.copy()
    bad.loc[bad["deal"] == d, "exchange0_trick"] = 25  # (a trick missing is refused before: break-it pass 41)
    with pytest.raises(ValueError, match=rf"^deal: exchange at \(trick, seat\) \(25, {s}\) is in no trick"):
        deal_moves(bad, t, d)
    g = f.copy()
    g.loc[g["deal"] == d, ["exchanges", "exchange1_trick", "exchange1_seat"]] = [2, k, s]
    twice = deal_moves(g, t, d)
    i = moves.index("swap")
    assert twice == moves[:i] + ["swap"] + moves[i:]
