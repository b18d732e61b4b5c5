"""Mutation pass 33 (helper, 2026-12-07): the Python of sim/rules.py (``Rules``' checks, derived facts,
to_array/from_array) and of policy-name resolution (sim/policies.py's ``POLICIES``, read by
sim/batch.py's ``resolve_policies``).

Each test kills a hand-made mutant that the rules and policy-name test files (test_rules, test_rules_audit,
test_mutation7/9/10/13/16/19/20/25/29, test_break32/40, test_newuser17, test_puzzles_rules, test_carried58,
test_engine2) let through; expected values come from RULES.md (R3, R11), the docstrings and the P_* layout comment, never from the code under test.
No kernel is compiled. Mutants (pass 33 numbering):

M01  the bool check dropped (``players=True`` refused as "must be 2, 3, 4 or 6" instead of "an integer")
M02  ``players`` 8 taken by the count check (a KeyError from the default-deck table, not a ValueError)
M04  ``players`` kept as given (a numpy integer left in the rules: ``to_dict`` not JSON-able)
M25  ``to_array`` writing P_HAND as 0 (no kernel reads the slot; the layout comment says 3)
M41  ``solver`` mixed with other policies accepted (R11)
M42  ``solver`` left out of the known policy names (also killed by the solver runs of test_break28/38, which
     compile the solver)

Survivors judged equivalent or left alone (no test): the "cards do not divide among the seats" check dropped
(every R3 game divides: 40/2, 40/4, 39/3, 36/3, 36/6, 48/n, 20/2, 20/4); ``seven-two`` no longer counting the
2s in ``exchange_possible`` (every deck with a 2 has the four 7s and no R3 removal takes a 7, so ``sevens`` is
already true); a name outside R3 added to the accepted ``remove`` names (a widened table cannot be pinned
without guessing the added name).
"""
import json

import numpy as np
import pytest

from sim.rules import Rules


# ----------------------------------------------------------------- Rules' player count (R3)
def test_bool_players_refused_as_not_an_integer():
    """M01: True is an int to Python; the check names it as not an integer (1 is refused the other way)."""
    for value in (True, False, np.bool_(True)):
        with pytest.raises(ValueError, match="players must be an integer"):
            Rules(players=value)


@pytest.mark.parametrize("players", [0, 1, 7, 8, 12, -2])
def test_other_player_counts_refused_with_value_error(players):
    """M02: R3 allows 2, 3, 4 and 6 only; any other count is a ValueError naming them."""
    with pytest.raises(ValueError, match=r"players must be 2, 3, 4 or 6 \(RULES R3\)"):
        Rules(players=players)


def test_numpy_integer_players_stored_as_int():
    """M04: the docstring of to_dict: players an int, JSON-able."""
    r = Rules(players=np.int64(4))
    assert type(r.players) is int
    assert json.loads(json.dumps(r.to_dict()))["players"] == 4


# ----------------------------------------------------------------- Rules.to_array's layout (P_* comment)
@pytest.mark.parametrize("players,deck,remove,ncards", [(2, "spanish40", None, 40), (3, "spanish40", "trump2", 39),
                                                       (3, "spanish40", "all2s", 36), (4, "rapida20", None, 20),
                                                       (6, "spanish40", None, 36), (6, "catalan48", None, 48)])
def test_to_array_counts_follow_the_layout(players, deck, remove, ncards):
    """M25: the layout comment of sim/rules.py: P_PLAYERS, P_SIDES (3 for three players, R3), P_NCARDS, P_TRICKS
    (cards / players) and P_HAND (3 cards dealt to each seat, R3) - the hand slot was written as 0 unnoticed."""
    from sim.rules import P_HAND, P_NCARDS, P_PLAYERS, P_SIDES, P_TRICKS
    a = Rules(players=players, deck=deck, remove=remove).to_array()
    assert a[P_PLAYERS] == players
    assert a[P_SIDES] == (3 if players == 3 else 2)
    assert a[P_NCARDS] == ncards
    assert a[P_TRICKS] == ncards // players
    assert a[P_HAND] == 3


# ----------------------------------------------------------------- policy names (sim.batch.resolve_policies)
def test_solver_mixed_with_another_policy_refused():
    """M41: the open-hand solver plays every seat or none (R11); mixing it in is a ValueError."""
    from sim.batch import resolve_policies
    with pytest.raises(ValueError, match="policy 'solver' .* must play every seat or none"):
        resolve_policies(Rules(players=2), ["solver", "random"])
    with pytest.raises(ValueError, match="must play every seat or none"):
        resolve_policies(Rules(players=4), ["random", "solver", "random", "random"])
    assert resolve_policies(Rules(players=4), "solver") == ("solver",) * 4
