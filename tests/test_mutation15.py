"""Mutation testing, fifteenth pass (helper, 2026-12-06): solver/search.py's endgame kernels, the 4-player
endgame table, the general kernel's 6-player exact endgame entries, the drivers and the table-bound helpers.

Eleven hand-made mutants were prepared (ten run) in the time given (50 minutes; each needs a fresh numba compile). Each
ran first against the tests of tests/test_solver.py that touch it (``-k``, ``-x``); every one run
was killed at that stage, so the rest of the file list (test_solver.py in full, test_mutation12.py,
test_mutation12b.py, test_mutation5.py, test_break_solver10.py) was not needed:

1. ``_first_trick4``: the trick winner's seat ``s1`` and ``s3`` swapped (the same side, so the trick's
   points are right, but the wrong seat leads the rest). Killed by test_oracle_agrees[4-free-2-250].
2. ``_mtdf``: ``if g > a: lo = g`` as ``if g >= a`` (a fail-low result at alpha taken as a lower bound).
   Killed by test_oracle_agrees[2-free-4-600].
3. ``_principal_variation``: the maximizing seat's move proved by the window ``(t, t + 1)`` instead of
   ``(t - 1, t)`` (a fail-low bound of exactly ``t`` accepted). Killed by test_analyse_play_constant_along_pv.
4. ``_searched_bounds``: ``if v <= a`` as ``if v < a`` (a fail-low result at alpha stored as exact).
   Killed by test_oracle_agrees[2-free-4-600].
5. ``_eg_two``: the reply to the leader's higher card checked against the lower card
   (``legal_follow(hf, suit_of(a1), a0, ...)``). Killed by test_oracle_agrees[2-arrastre-4-250].
6. ``_first_trick4``: the third seat's replies under ``arrastre`` checked against the second card played
   instead of the card winning the trick (``legal_follow(a2, ls, c1, ...)``; the 3-player kernel had this
   bug once). Killed by test_general_endgame_minimax_keeps_values[4-arrastre] only: the 4-player
   test_oracle_agrees cases (arrastre, 100 positions of at most 2 tricks) passed. The test below finds it
   directly against the oracle (4 of 450 positions differ, all with 3 cards a hand).
7. ``abn`` (FL_EGN exact endgame entry): ``vs = _turned(ve, ve, rem, flip)[0]`` as ``vs = ve`` (the entry
   not turned to the leader's side under FL_MIRROR). Killed by test_oracle_agrees[6-free-2-60].
8. ``ab4`` look-ahead (FL_ETC4): the child's bounds turned with ``rem`` instead of ``rem - tpts``.
   Killed by test_last_card_lookahead_keeps_values[1].
9. ``_eg_value4_cached``: a table hit whose upper bound is at or below alpha answered with ``lb`` instead
   of ``ub``. Killed by test_four_player_endgame_table_keeps_bounds.
10. ``_first_trick4``: the pruning test ``v + left <= al3`` as ``v <= al3`` (the points left after the trick
    dropped, so a line is cut with a value it may not reach). Killed by
    test_four_player_endgame_kernels_fail_soft[free]; the random sweep below did not finish in 400 s on it (the
    original: 1 s).
11. ``ab4``'s table key: the won-trick side bits swapped for every rotation (``rot != 0``) instead of odd
    ones only: not run in this pass; run in the follow-up (helper b, test_mutation15b.py): equivalent.
    At a trick boundary the leader's side has won a trick, so the bits are 3 (the swap does nothing) or
    the leader's side alone, which the original keys as 1 for every leader and the mutant as 2 for
    seat 2's leads only: the mutant's table classes split the original's (lost hits, no false one); the
    search's first root, which may carry any ``side_won``, has more cards left to draw than any other
    boundary under its stamp. 396 solves of 4-player ``won-trick`` positions (side_won forced to 1 and 2,
    4-16 cards to draw; lines of 8 positions on one table as analyse_play does) against FL_MIRROR off: 0
    differences.

No wrong value of the original code was found. Expected values come from tests/solver_oracle.py (an
unpruned plain-Python minimax written from RULES.md), never from the function under test.
"""
from __future__ import annotations

import numpy as np
import pytest

import solver_oracle as oracle

_SUITS = "OCEB"
_RANKS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)


def _endgames(seed, count, k):
    """Random 4-player ``arrastre`` endgames at a trick boundary, ``k`` cards a hand, stock empty: most
    cards from two suits (so the seats must follow, beat and trump, R9), the pinta a 2 (already drawn)."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        suits = rng.choice(4, 2, replace=False)
        deck = ([f"{r}{_SUITS[s]}" for s in suits for r in _RANKS]
                + [f"{r}{_SUITS[s]}" for s in range(4) if s not in suits for r in (1, 3)])
        cards = rng.permutation(deck)[:4 * k]
        trump = _SUITS[int(rng.choice(suits))] if rng.integers(3) else _SUITS[int(rng.integers(4))]
        hands = "/".join(",".join(cards[k * s:k * s + k]) for s in range(4))
        yield (f"players=4 trump=2{trump} hands={hands} stock= turn={int(rng.integers(4))} trick= "
               f"points=0,0,0,0 endgame=arrastre")


# found by the random sweep below against mutant 6 (the solver's values there: 12E 4, 6O/11O 16 and the
# value 16, 4C 25 and 3C 15, 3O 23)
FOUND = [
    "players=4 trump=2O hands=4O,5E,3O/12E,11O,12O/7O,1E,6O/2E,7E,1B stock= turn=1 trick= points=0,0,0,0 "
    "endgame=arrastre",
    "players=4 trump=2C hands=6B,11B,7O/12B,10O,7B/10B,5O,1O/3O,6O,11O stock= turn=3 trick= points=0,0,0,0 "
    "endgame=arrastre",
    "players=4 trump=2C hands=4C,3C,3O/1O,3B,1C/3E,12C,10B/7C,11B,2B stock= turn=0 trick= points=0,0,0,0 "
    "endgame=arrastre",
    "players=4 trump=2E hands=1O,12B,10C/3O,12C,7B/5C,11B,5B/1B,10B,2B stock= turn=1 trick= points=0,0,0,0 "
    "endgame=arrastre",
]


@pytest.mark.parametrize("text", FOUND)
def test_four_player_endgame_follows_the_winning_card(text):
    """R9 arrastre: a seat holding the suit led must beat the best card of that suit in the trick, not the
    last card played. Mutant 6 (_first_trick4's third seat checked against the second card) changed these
    values; the oracle's here."""
    from solver import solve
    v, vals = oracle.solve(text)
    r = solve(text, pv=False)
    assert r.value == v and r.moves == vals, text


def test_four_player_endgames_agree_with_oracle():
    """The unrolled 4-player endgame kernels (_eg_value4, _eg_three4 through _first_trick4, ab4's 2- and
    3-trick endgames) on 450 random arrastre endgames of 2 and 3 cards a hand = the oracle (about 1 s)."""
    from solver import solve
    for k, count in ((2, 300), (3, 150)):
        for text in _endgames(15 + k, count, k):
            v, vals = oracle.solve(text)
            r = solve(text, pv=False)
            assert r.value == v and r.moves == vals, text
