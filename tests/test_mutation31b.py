"""Mutation pass 31, second part: the survivor left by the first (tests/test_mutation31.py), the ``stock=?``
expectimax's memo key without ``ST_SIDEWON`` (solver/chance.py, ``_chance_run``)."""
from __future__ import annotations

from fractions import Fraction

import solver_oracle as oracle

TEXT = ("players=2 trump=3C hands=1E,6O,11C/7O,1B stock=? turn=0 trick=3O points=31,27 "
        "played=1O,2O,4O,5O,10O,11O,12O,1C,2C,4C,5C,6C,10C,12C,2E,3E,5E,6E,7E,10E,12E,2B,4B,5B,6B,7B,10B,11B")
UNKNOWN = ["7C", "4E", "11E", "3B", "12B"]  # face-down, the pinta 3C drawn last (R6)


def test_chance_memo_key_keeps_the_sides_that_won_a_trick():
    """R7 ``won-trick``: seat 1 has won no trick (``side_won=1``) and the 7 of trumps is face-down under the
    pinta 3C, so seat 1 may exchange it only after winning a trick. Within one solve, trick boundaries with the
    same hands, leader, pinta and draws are reached along lines where seat 1 has won a trick and along lines
    where it has not (the tricks' pairings swapped); their values differ, so the memo must tell them apart.
    Value 827/20 = 41.35 for seat 0 (11C), as the oracle's expectimax told the won sides. Mutant (the key
    without ``ST_SIDEWON << 24``): 39.4666... (592/15), 11C's value taken from the other line."""
    from sim.cards import parse_card
    from sim.rules import Rules
    from solver.chance import solve_chance
    from solver.position import Position

    f = dict(tok.split("=", 1) for tok in TEXT.split())
    ids = lambda s: [parse_card(c) for c in s.split(",") if c]  # noqa: E731
    pos = Position.make(Rules(players=2, exchange_condition="won-trick"), parse_card(f["trump"]),
                        [ids(h) for h in f["hands"].split("/")], None, turn=0, trick=ids(f["trick"]),
                        points=(31, 27), played=ids(f["played"]), side_won=1)
    assert str(pos) == TEXT and pos.side_won == 1
    r = solve_chance(pos)
    assert r.value == 41.35 and r.best == ["11C"]
    assert r.moves == {"11C": 41.35, "6O": 27.883333333333333, "1E": 22.725}

    v, vals = oracle.solve(TEXT, unknown=UNKNOWN, won=1)
    assert v == Fraction(827, 20) and {m: float(w) for m, w in vals.items()} == r.moves
