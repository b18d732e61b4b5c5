"""Mutation testing, seventh pass (helper, 2026-12-06): the Python of solver/position.py (parse, legal
moves, parse_move), solver/api.py (solve_many, analyse_play argument checks), sim/stats.py and
sim/checks.py.

Each test failed on one hand-made mutant that the rest of the suite let through, and passes on the code.
Expectations come from NOTATION.md / RULES.md and the docstrings, not from the code's own output.
"""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from sim.cards import SWAP, parse_card
from sim.checks import check_flag
from sim.stats import Summary
from solver.position import Position

EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
PLAYED = ("3O,4O,5O,6O,7O,11O,12O,1C,4C,5C,10C,11C,12C,1E,2E,4E,5E,6E,7E,10E,11E,1B,2B,3B,6B,7B,10B,11B")
# NOTATION.md's observation of EX by seat 1, and the same deal seen by seat 0 (seat 1, to move, hidden)
SEAT1_VIEW = f"players=2 trump=5B hands=?/10O,2C,12E stock=? turn=1 trick=1O points=62,17 played={PLAYED}"
SEAT0_VIEW = f"players=2 trump=5B hands=3C,6C/? stock=? turn=1 trick=1O points=62,17 played={PLAYED}"
SWAP_POS = "players=2 trump=1O hands=7O,2O,1C/3B,4B,5B stock=6O,1B,3C turn=0 trick= points=0,0"  # R7: 7O for 1O


def test_unknown_mark_must_come_last_in_a_hand():
    """NOTATION.md: known cards are 'followed by ?'; '?' first is refused (mutant: the "must come last"
    check dropped, so ``?,3C`` was read as ``3C,?``)."""
    ok = Position.parse(f"players=2 trump=5B hands=3C,?/10O,2C,12E stock=? turn=1 trick=1O points=62,17 "
                        f"played={PLAYED}")
    assert ok.hands[0] == (parse_card("3C", "spanish40"),) and ok.hidden == (True, False)
    with pytest.raises(ValueError, match=r"^hands: '\?' must come last"):
        Position.parse(f"players=2 trump=5B hands=?,3C/10O,2C,12E stock=? turn=1 trick=1O points=62,17 "
                       f"played={PLAYED}")


def test_legal_moves_of_a_hidden_seat_to_move_is_refused():
    """Seat 0's view: seat 1 (to move) is hidden, so its legal moves are unknown (mutant: the check dropped,
    the empty known part of the hand gave [] - 'no legal move')."""
    p = Position.parse(SEAT0_VIEW)
    with pytest.raises(ValueError, match=r"^hands: seat 1 \(to move\) is hidden"):
        p.legal_moves()
    # seat 1's own view: its three cards, none constrained while the stock lasts (R5, R9 free)
    q = Position.parse(SEAT1_VIEW)
    assert sorted(q.legal_moves()) == sorted(parse_card(c, "spanish40") for c in ("10O", "2C", "12E"))


def test_parse_move_strips_blanks_and_reads_swap_in_any_case():
    """Input is case-insensitive (NOTATION.md) and a move string is stripped (mutants: ``move.strip()``
    dropped; ``t.lower() == "swap"`` made case-sensitive)."""
    p = Position.parse(EX)
    assert p.parse_move(" 2C ") == parse_card("2C", "spanish40")
    assert p.parse_move("12e") == parse_card("12E", "spanish40")
    s = Position.parse(SWAP_POS)
    assert s.parse_move("SWAP") == SWAP and s.parse_move(" Swap ") == SWAP
    # R7: the seven of trumps goes for the pinta 1O
    assert "trump=7O" in str(s.apply("SWAP"))


def test_check_flag_takes_numpy_bools():
    """check_flag documents ``numpy.bool_`` as a flag (numpy.bool_ is no numbers.Integral: mutant dropped it
    from the isinstance test and refused ``np.True_``)."""
    assert check_flag(np.True_, "pv") is True
    assert check_flag(np.False_, "pv") is False
    with pytest.raises(ValueError, match="^pv: expected True or False"):
        check_flag(np.int64(2), "pv")


def test_summary_json_replaces_nan_inside_tuples():
    """to_dict's JSON is strict: NaN becomes null and numpy scalars Python ones also inside a tuple of
    ``extra`` (mutant: only lists were walked, so json.dumps wrote NaN / failed on np.int64)."""
    s = Summary(deals=0, distinct_deals=0, rotations=1, seconds=0.0, sim_seconds=0.0, sides=[], positions=[],
                draws=0, capotes=0, extra={"pair": (float("nan"), np.int64(3), np.float64(0.5))})
    d = json.loads(s.to_json(), parse_constant=lambda c: pytest.fail(f"non-strict JSON constant {c}"))
    assert d["pair"] == [None, 3, 0.5]
    assert d["draw_rate"] is None and d["draw_rate_ci95"] == [0.0, 1.0]  # n = 0: no rate, the whole interval


def test_solve_many_errors_must_be_raise_or_return():
    """solve_many refuses any other ``errors`` (mutant accepted None and "" silently, as "raise")."""
    from solver import solve_many
    for bad in (None, "", "ignore", "Return"):
        with pytest.raises(ValueError, match="^errors: expected 'raise' or 'return'"):
            solve_many([EX], errors=bad)


def test_analyse_play_perspective_must_be_a_seat():
    """perspective = players is not a seat (mutant: ``<=`` let seat 2 of 2 through)."""
    from solver import analyse_play
    for bad in (2, -1, True):
        with pytest.raises(ValueError, match=r"^perspective: expected a seat 0-1"):
            analyse_play(EX, [], perspective=bad)
    # NOTATION.md: the value of EX is 26 for seat 1, so 120 - 62 - 17 - 26 = 15 for seat 0
    assert analyse_play(EX, [], perspective=0) == [15]


def test_solve_many_never_starts_more_workers_than_positions():
    """threads is capped at the number of positions (docstring: 'never more than there are positions';
    mutant: 4 workers, each with a 32 MB table, for 2 positions)."""
    from solver.api import release_workers, solve_many
    release_workers()
    rs = solve_many([EX, EX], threads=4, pv=False)
    assert [r.value for r in rs] == [26, 26]  # NOTATION.md
    assert release_workers() == 2


def _empty_summary(rules):
    from sim.stats import RunningStats
    return RunningStats(rules.players, rules.sides, 1).summary(
        ["random"] * rules.sides, distinct_deals=0, seconds=0.0, sim_seconds=0.0, rules=rules.to_dict())


def test_table_names_remove_only_for_three_players_with_spanish40():
    """R3: ``remove`` applies to 3 players with the spanish40 deck only (mutant: the deck condition dropped,
    the catalan48 table printed ", remove None")."""
    from sim.rules import Rules
    head = _empty_summary(Rules(players=3, deck="catalan48")).format_table().splitlines()[0]
    assert head == "rules: 3 players, deck catalan48, exchange seven-two (condition any), endgame free"
    head = _empty_summary(Rules(players=3)).format_table().splitlines()[0]
    assert head == "rules: 3 players, deck spanish40, exchange seven-two (condition any), endgame free, remove 2B"


def test_summary_of_no_deals_has_no_mean_points():
    """With no deal played the mean points are undefined like the win rate (null in the JSON), not 0
    (mutant: mean_se(0, 0, 0) gave (0.0, 0.0))."""
    from sim.rules import Rules
    from sim.stats import mean_se
    assert all(math.isnan(x) for x in mean_se(0, 0, 0))
    d = _empty_summary(Rules(players=2)).to_dict()
    for side in d["sides"] + d["positions"]:
        assert side["win_rate"] is None and side["mean_points"] is None and side["mean_points_se"] is None
