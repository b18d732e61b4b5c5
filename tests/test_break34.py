"""Break-it pass 34: every rule variant end to end (RULES R3, R7, R8, R9; NOTATION.md).

The pass replayed engine deals of all 288 allowed tables (12 player/deck/remove games x 4 exchanges x 2
conditions x 3 endgames) through ``solver.position.Position`` and compared the solver with
tests/solver_oracle.py on late positions of each: they agreed. The one fault found: a position's refused
``exchange``, ``endgame``, ``remove`` or ``deck`` value was echoed lower-cased, not as written
(``remove=3B`` reported as ``'3b'``).
"""
import pytest

from solver.position import Position

BASE = "players=3 trump=5B hands=1O/3O/4O"


@pytest.mark.parametrize("field,value", [("remove", "3B"), ("exchange", "Seven-Seven"), ("endgame", "STRICT"),
                                         ("deck", "French52")])
def test_refused_rule_value_is_echoed_as_written(field, value):
    with pytest.raises(ValueError, match=f"^{field}: unknown (value|deck) '{value}' "):
        Position.parse(f"{BASE} {field}={value}")
