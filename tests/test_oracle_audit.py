"""Audit of the plain-Python oracles (tests/oracle.py, tests/solver_oracle.py) against RULES.md and
NOTATION.md: where an oracle left a clause unchecked, the clause is checked here against the project
code straight from the rule's text; where an oracle misread the notation, the case that showed it.
Each test takes seconds."""
from __future__ import annotations

import solver_oracle

from sim.cards import deck_cards, format_card


def test_solver_oracle_pinta_in_played_has_been_taken():
    """NOTATION.md: the pinta has been taken when the trump card is in a hand, in ``trick`` or in
    ``played``. The oracle looked at hands and trick only, so with ``stock=?`` and the pinta played it
    drew the pinta again (two players: ZeroDivisionError over an empty pool of face-down cards)."""
    from solver import solve
    keep = {"3C", "6C", "10O", "2C"}
    played = [format_card(c) for c in deck_cards("spanish40") if format_card(c) not in keep]
    assert "5B" in played
    hidden = f"players=2 trump=5B hands=3C,6C/10O,2C stock=? turn=0 points=50,50 played={','.join(played)}"
    known = hidden.replace("stock=?", "stock=")
    v, vals = solver_oracle.solve(hidden, unknown=[])
    assert (v, vals) == solver_oracle.solve(known) == (12, {"3C": 12, "6C": 12})
    r = solve(hidden, pv=False)
    assert r.value == v and r.moves == vals
