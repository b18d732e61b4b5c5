"""New-user pass of 2026-12-06, seventh part (helper, fresh clone, README only): every quoted figure,
column and exit status matched but the test count and a few busy-machine timings (README updated). One
finding is code: a puzzle record did not say which seat answers, so grading puzzle 2 of ``--seed 1``
(``turn=0``) with the README's ``--seat 1`` said "not reached" for the right answer, without a word.
Records now carry ``seat``, the seat to move (the position's turn), which ``--win --seat`` grades.
"""
from __future__ import annotations

import json

import pandas as pd

from solver import solve
from solver.cli import main
from solver.position import Position
from solver.puzzles import find_puzzles


def test_puzzle_record_names_the_seat_that_answers():
    """``seat`` is the seat to move (its side needs ``need``: 61 less its side's points, RULES R8), and
    grading with ``win=True, seat=rec["seat"]`` says reached for the record's move only, whoever moves
    after it (R5: a card that ends a trick can hand the turn to the other side)."""
    passed_turn = 0
    recs = list(find_puzzles(4, seed=1))
    assert {r["seat"] for r in recs} == {0, 1}  # (the README's first puzzle has seat 1; the second seat 0)
    for rec in recs:
        pos = Position.parse(rec["position"])
        assert rec["seat"] == pos.turn
        assert rec["need"] == 61 - sum(pos.points[s] for s in range(2) if s == rec["seat"])
        for m in rec["moves"]:
            after = pos.apply(pos.parse_move(m))
            if after.is_terminal:
                continue
            passed_turn += after.turn != rec["seat"]
            assert solve(after, win=True, seat=rec["seat"]).reached == (m == rec["move"]), (rec["position"], m)
    assert passed_turn


def test_puzzle_seat_column_in_the_parquet_table_and_json_lines(tmp_path, capsys):
    """``--out F.parquet`` has the ``seat`` column (int64) holding the JSON lines' values."""
    j, pq = tmp_path / "p.jsonl", tmp_path / "p.parquet"
    for f in (j, pq):
        assert main(["puzzles", "--count", "3", "--seed", "1", "--out", str(f), "--no-progress"]) == 0
    capsys.readouterr()
    lines = [json.loads(x) for x in j.read_text().splitlines()]
    df = pd.read_parquet(pq)
    assert str(df["seat"].dtype) == "int64"
    assert df["seat"].tolist() == [r["seat"] for r in lines] == [Position.parse(r["position"]).turn for r in lines]
