"""Mutation testing, fifteenth pass (helper b, 2026-12-06): solver/search.py's 3-player relative-rank
draw key keeps the leader.

Mutant: ``draw_key_n_pw`` without the leader field (``np.int64(leader) << 56``) for 3 players (4 players
key the leader as seat 0 under FL_MIRROR, so only 3 read it). Earlier passes (750 random positions, the
suite) did not kill it. Two trick-boundary positions of one deal whose hands have equal relative-rank
codes (the key) but different leaders must have different entries. Built by hand: from the root below,
the first trick 6O 4C 6E (seat 0 wins with a trump, draws 5O; seat 1 5C; seat 2 5E) and the first trick
4E 4O 6C (seat 1 trumps, draws 5O; seat 2 5C; seat 0 5E) leave hands that differ card by card but hold
the same suits and the same ranks among the live cards of each suit (the dead 4O/4C/6E against 6O/6C/4E
shift them alike), so the mutant keys both positions alike although seat 0 leads one and seat 1 the
other. analyse_play keeps its table along the deal (one stamp), so the position after 4E 4O 6C read
the entry the root's search stored for the other (seat 0's 11 instead of 0).

Expected values: tests/solver_oracle.py (``solve_for(position, seat=0)`` at each position of the line,
plus the points seat 0 gained on the way; all 0 here), computed 2026-12-06, never from the solver.
"""
from __future__ import annotations

POS = "players=3 trump=12O hands=6O,4E,1B/4O,4C,7E/6E,6C,3C stock=5O,5C,5E,3E,7B"
LINE = ["4E", "4O", "6C"]
#: tests/solver_oracle.py: seat 0's values along LINE (the position after 6O 4C 6E, seat 0 to lead: 11)
ORACLE = [11, 0, 0, 0]


def test_three_player_relative_key_keeps_the_leader():
    from solver import analyse_play
    assert analyse_play(POS, LINE) == ORACLE
