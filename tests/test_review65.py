"""Review of the eighth part's change (13f478c..e74ee40): solver.deal_moves with a trick table that has a
column labelled by a number beside its card columns (a bare AttributeError: 'int' object has no attribute
'startswith')."""
import pandas as pd

from solver import deal_moves


def _tables():
    # a 2-player deal cut to two tricks (deal_moves reads the tables only): seat 1 wins trick 0 and leads
    # trick 1; no exchange
    deals = pd.DataFrame({"deal": [0], "exchanges": [0], "tricks_0": [1], "tricks_1": [1]})
    tricks = pd.DataFrame({"deal": [0, 0], "trick": [0, 1], "leader": [0, 1],
                           "card_0": ["3C", "1O"], "card_1": ["1C", "2B"]})
    return deals, tricks


def test_trick_table_with_a_number_column_label():
    deals, tricks = _tables()
    assert deal_moves(deals, tricks, 0) == ["3C", "1C", "1O", "2B"]
    tricks[5] = 0  # (a column added with an int label: not one of the card columns)
    assert deal_moves(deals, tricks, 0) == ["3C", "1C", "1O", "2B"]
