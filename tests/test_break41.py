"""Break-it pass 41: solver.deal_moves with trick tables that are not a run's whole table (indexed by their
own columns, a trick missing, two runs' tables together) and a deal table without its exchange columns."""
import pandas as pd
import pytest

import sim
from solver import deal_moves


@pytest.fixture(scope="module")
def run():
    r = sim.simulate(sim.Rules(players=2), ["heuristic", "random"], deals=4, seed=5, tricks=True)
    assert r.frame.loc[3, "exchanges"] == 1  # (deal 3 has an exchange, R7)
    return r


def test_trick_table_indexed_by_its_own_columns(run):
    # (sort_values raised pandas' "'trick' is both an index level and a column label, which is ambiguous")
    want = deal_moves(run.frame, run.tricks, 3)
    assert deal_moves(run.frame.set_index("deal", drop=False),
                      run.tricks.set_index(["deal", "trick"], drop=False), 3) == want


def _tricks(run, cut):
    t = run.tricks
    d3 = t["deal"] == 3
    if cut == "last":
        return t[~(d3 & (t["trick"] == 19))]
    if cut == "middle":
        return t[~(d3 & (t["trick"] == 5))]
    return pd.concat([t, t])


@pytest.mark.parametrize("cut, got", [("last", "got 19"), ("middle", "got 19"), ("twice", "got 40")])
def test_trick_missing_or_twice_is_refused(run, cut, got):
    # (a missing last trick gave 39 cards, which analyse_play graded short without a word; a missing trick
    # before it, a move refused later on; two runs' trick tables concatenated, every card twice)
    with pytest.raises(ValueError, match=rf"^deal: 3's tricks in the trick table are not 0 to 19 once each "
                                         rf"\(the deal table counts 20\): {got}, numbered "):
        deal_moves(run.frame, _tricks(run, cut), 3)


def test_exchange_columns_missing_is_named(run):
    with pytest.raises(ValueError, match=r"^deals: deal 3 has 1 exchange\(s\), but the table lacks "
                                         r"exchange0_trick, exchange0_seat$"):
        deal_moves(run.frame[["deal", "exchanges"]], run.tricks, 3)


def test_card_column_left_out_is_refused(run):
    # (card_1 left out gave seat 0's cards only, 20 of the 40, without a word)
    with pytest.raises(ValueError, match=r"^tricks: expected card_0 to card_1 \(one a seat, as the deal table "
                                         r"has 2\), got card_0$"):
        deal_moves(run.frame, run.tricks[["deal", "trick", "leader", "card_0"]], 0)
