"""Review of solver/position.py: a Python int past the digit limit of ``str`` (4,300 digits by default)
given to a library caller's field failed formatting its own message (ValueError "Exceeds the limit
(4300 digits) for integer string conversion", no field named) instead of the field's message."""
import dataclasses

import pytest

from solver.position import Position, deal_position
from sim.rules import Rules

EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
HUGE = 10 ** 5000


@pytest.mark.parametrize("change, field, word", [
    (dict(turn=HUGE), "turn", "seat a 16610-bit integer does not exist"),
    (dict(turn=-HUGE), "turn", "seat a negative 16610-bit integer does not exist"),
    (dict(points=(HUGE, 0)), "points", "seat 0 holds a 16610-bit integer points"),
    (dict(points=(-HUGE, 0)), "points", "seat 0 has negative points"),
    (dict(trump=HUGE), "trump", "a 16610-bit integer is not a card id"),
])
def test_huge_field_named(change, field, word):
    with pytest.raises(ValueError, match=f"^{field}: .*{word}"):
        dataclasses.replace(Position.parse(EX), **change)


def test_huge_side_won_dp_seed_named():
    won = Rules(players=2, exchange_condition="won-trick")
    with pytest.raises(ValueError, match="^side_won: a 16610-bit integer is not a bitmask"):
        dataclasses.replace(deal_position(won, 1, 0), side_won=HUGE)
    with pytest.raises(ValueError, match="^dp: a 16610-bit integer is not a draw index"):
        Position.from_engine(Rules(players=2), list(range(40)), HUGE, [7, 56])
    with pytest.raises(ValueError, match=r"^seed must be an integer in \[0, 2\*\*64\), got a 16610-bit integer"):
        deal_position(Rules(players=2), HUGE, 0)
