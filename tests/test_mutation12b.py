"""Mutation testing, twelfth pass continued (helper, 2026-12-06): solver/search.py's transposition keys, the
payoff-similarity bounds and the look-ahead verdicts.

Each mutant ran against tests/test_solver.py (not the vectors, ``stock=?``, CLI, README and import tests),
test_mutation5.py and test_break_solver10.py with ``-x``, then (when they passed) the random differential
of test_mutation12.py against tests/solver_oracle.py (~750 positions):

A. ``_draw_k1`` (2 players): the pinta dropped from the key. Killed by
   test_relative_rank_key_agrees_with_exact_key[spanish40-seven-two-any].
B. ``draw_key_n_pw`` (3-4 players): the leader field dropped. SURVIVED the tests and the differential. With
   4 players (``FL_MIRROR``) the keyed leader is always 0, so only 3 players read it; two positions of one
   search with relative-rank-equal hands and different leaders need different trick winners whose draws
   still give equivalent hands: rare, not found in the time given. Not shown equivalent; no test.
C. ``_endgame_key_planes_pw``: the leader dropped. Killed by
   test_general_endgame_minimax_keeps_values[3-follow] (only 3 players read it: 2 and 4 key the leader as 0).
D. ``_endgame_key_planes_pw``: the points word not swapped with its suit in the sort's last step. Killed by
   test_oracle_agrees[2-follow].
E. ``_similar_bounds``: the point changes ``down`` and ``up`` swapped. Killed by test_oracle_agrees[2-free].
F. ``_lookahead_verdict``: a maximizing node's decided reply valued ``lo`` instead of ``hi``. Killed by
   test_analyse_play_matches_fresh_solves_along_random_lines.
G. ``draw_key_n_pw`` (3-4 players): the pinta field dropped. SURVIVED the tests and the differential; the
   test below kills it (hand-made position: a 7-of-trumps exchange for the pinta, then the two lines that
   play the 7 or the pinta meet with one key but different pintas left to draw).
H. ``ab4``'s look-ahead: the entry bounds turned with ``rem`` instead of ``rem - tpts``: not run (time).

Not tried: the hand-size fields of the draw keys (while cards remain to draw every hand holds 3 cards at a
trick boundary, R3/R6, so the field is redundant within a search: equivalent), the won-trick bits
(``exwon``: the oracle lacks that state). No wrong value of the original code was found.

Expected values come from tests/solver_oracle.py, never from the function under test: the oracle takes
about 27 s on this 4-player position, so its answer is written out below (recompute it with
``cd tests && python -c "import solver_oracle as o; print(o.solve(POS))"``).
"""
from __future__ import annotations

POS = "players=4 trump=1O hands=7O,4C,4E/3C,5E,6B/2C,10E,4B/7C,11E,5B stock=6C,12C,1C,10C,5C,6E,7E"
#: tests/solver_oracle.py's ``solve(POS)`` (value, move values), computed 2026-12-06
ORACLE = (24, {"4C": 24, "4E": 19, "7O": 15, "swap": 24})


def test_four_player_relative_key_keeps_the_pinta():
    """R7: seat 0 may exchange its 7O for the pinta 1O. Mutant G: draw_key_n_pw without the pinta field
    merged a position after the exchange (pinta 7O) with one without it (pinta 1O) and valued the swap
    26 instead of the oracle's 24."""
    from solver import solve
    v, vals = ORACLE
    r = solve(POS, pv=False)
    assert r.value == v and r.moves == vals, POS
