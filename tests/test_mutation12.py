"""Mutation testing, twelfth pass (helper, 2026-12-06): solver/search.py, the search core (sequence
dominance, sure-points cuts, relative-rank keys, the exchange look-ahead).

Eight hand-made mutants were tried in the time given (50 minutes, each needs a fresh numba compile of the
solver, 3-4 minutes on the shared machine). Each ran against tests/test_solver.py (not the vectors, the
``stock=?`` tests, the CLI, README and import tests), test_mutation5.py and test_break_solver10.py, with ``-x``,
then a random differential against tests/solver_oracle.py (about 750 positions: 2 players with a stock and
the seven-two and two-any exchanges, 2-player endgames under free, follow and arrastre, 3 and 4 players with
a stock and in the endgame) when the tests passed:

1. ``_seq_dominance``: the pinta left out of the other seat's replies while an exchange can still happen
   (``elif spec and pin >= 0: rep |= 1 << pin`` disabled). Killed by test_solver.py's
   test_sequence_dominance_rule (a unit test of the rule), but the random differential found no changed
   value in ~750 positions: the test below is the value that changes (found by hand).
2. ``_seq_dominance``: ``won = won or ally`` as ``won = won``. Killed by test_oracle_agrees (3 players).
3. ``_sure_points``: a hand's top live trumps counted past a gap (``break`` as skip the card). Killed by
   test_oracle_agrees_stock_phase_and_swap.
4. ``_seq_next``: the 7 and the 2 of trumps no longer kept out of sequences while ``spec``. Killed by
   test_sequence_dominance_rule.
5. ``_rel_code``: the exchange classes 6/7 of the 7 and 2 of trumps dropped (``sp & 0``): two keys merged.
   Killed by test_oracle_agrees_stock_phase_and_swap.
6. ``_exchange_ahead``: ``left`` as ``left - 1`` (spec false with one face-down card left). Killed by
   test_oracle_agrees_stock_phase_and_swap.
7. ``_seq_dominance_mid``: the check that no later card beats ``win`` dropped. Killed by test_oracle_agrees
   (3 players).
8. ``_quick_bound2``: the sure points taken whichever side the hand holding the top trump is on
   (the ``!= up`` side test dropped). Killed by test_oracle_agrees (2 players).

Every mutant tried was killed (none was equivalent); no wrong value of the code was found. Not tried for lack of time:
``draw_key_n``'s leader and hand-size fields, ``_draw_k1``'s won-trick bits, the
payoff-similarity bounds (``_similar_bounds``), ``endgame_key``'s leader, the draw edges (move ordering only:
equivalent for values) and ``_no_sequence`` (a prefilter: returning False more often only costs time).

Expected values come from tests/solver_oracle.py (an unpruned plain-Python minimax written from RULES.md),
never from the function under test.
"""
from __future__ import annotations

import pytest

import solver_oracle as oracle


@pytest.mark.parametrize("text", [
    # seat 1 answers the 2E; after the draws (4B to the trick's winner, 6E to the other) seat 0 may lead
    # the 10O or the 11O with 1B and the pinta 12O still under the stock: seat 1's 7O can take the 12O
    # (R7) before answering, so leading the 11O is not a sure win and the cheaper 10O must be searched
    "players=2 trump=12O hands=10O,11O/7O,1C,3C stock=4B,6E,1B turn=1 trick=2E",
])
def test_pinta_is_a_reply_of_the_other_seat_in_sequence_dominance(text):
    """R7: while an exchange can still happen, the other seat may take the pinta before it replies, so a
    lead that no card of its hand beats is not a sure win when the pinta beats it. Mutant: _seq_dominance
    without ``rep |= 1 << pin`` (the pinta among the other seat's replies) pruned seat 0's 10O after seat
    1's 1C and valued the 1C 17 instead of 16 (the oracle's value); test_oracle_agrees_stock_phase_and_swap
    and ~750 random positions did not show it."""
    from solver import solve
    v, vals = oracle.solve(text)
    assert vals["1C"] == 16 and v == 17  # (the oracle's values, checked by hand above)
    r = solve(text, pv=False)
    assert r.value == v and r.moves == vals, text
    assert solve(text, moves=False, pv=False).value == v
