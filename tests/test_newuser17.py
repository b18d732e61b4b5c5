"""New-user research pass of 2026-12-06 (sixth part): what a researcher using ``brisca simulate`` and
the solver tripped on, one test each. Each failed on the code before its fix (b632756).

Kept lean: summaries are built from :class:`sim.stats.RunningStats` with hand-made rows (no engine
run), the policy checks call :func:`sim.batch.resolve_policies`.
"""
from __future__ import annotations

import numpy as np
import pytest

from sim.batch import resolve_policies
from sim.rules import Rules
from sim.stats import RunningStats


def _summary(rules: Rules, rows, rotations: int = 1, **extra):
    """The summary of hand-made deal rows ``(side points..., winner)`` under ``rules``."""
    st = RunningStats(rules.players, rules.sides, rotations)
    a = np.array(rows, dtype=np.int64)
    pts, win = a[:, :rules.sides], a[:, rules.sides]
    st.update(pts, win, (pts == 120).any(axis=1), 0)
    pol = ["random"] * rules.sides
    return st.summary(pol, distinct_deals=len(rows) // rotations, seconds=1.0, sim_seconds=1.0,
                      rules=rules.to_dict(), **extra)


def _rules_line(rules: Rules) -> str:
    return _summary(rules, [[60] * rules.sides + [-1]] * rules.sides, rotations=1).format_table().splitlines()[0]


def test_rules_line_says_six_players_spanish40_removes_the_2s():
    # R3: spanish40 with 6 players removes the four 2s; the line said only "deck spanish40"
    line = _rules_line(Rules(players=6, deck="spanish40"))
    assert "deck spanish40 (the four 2s removed, R3)" in line
    assert "removed" not in _rules_line(Rules(players=6, deck="catalan48"))
    assert "removed" not in _rules_line(Rules(players=4, deck="spanish40"))


def test_rules_line_says_rapida20_makes_no_exchange():
    # R1/R7: rapida20 has no 7 or 2, so no exchange can be made whatever --exchange says
    line = _rules_line(Rules(players=2, deck="rapida20"))
    assert "exchange seven-two (condition any) (never made: rapida20 has no 7 or 2)" in line
    assert "never made" not in _rules_line(Rules(players=2, deck="rapida20", exchange="none"))
    assert "never made" not in _rules_line(Rules(players=2))


def test_rules_line_says_two_any_makes_no_exchange_without_the_2_of_trumps():
    # R3: remove=trump2 and remove=all2s take the 2 of trumps out, so two-any never exchanges
    for remove in ("trump2", "all2s"):
        line = _rules_line(Rules(players=3, exchange="two-any", remove=remove))
        assert "exchange two-any (condition any) (never made: the 2 of trumps is out, R3)" in line
    assert "never made" not in _rules_line(Rules(players=3, exchange="two-any"))
    # 6 players with spanish40 have no 2 at all (R3; break-it pass 18: 0 exchanges in 2,000 deals, no note)
    line = _rules_line(Rules(players=6, deck="spanish40", exchange="two-any"))
    assert "exchange two-any (condition any) (never made: the 2 of trumps is out, R3)" in line
    assert "never made" not in _rules_line(Rules(players=6, exchange="two-any"))  # (catalan48 has its 2s)
    assert "never made" not in _rules_line(Rules(players=3, exchange="seven-two", remove="trump2"))


def test_rules_line_labels_the_exchange_condition():
    line = _rules_line(Rules(players=4, exchange_condition="won-trick"))
    assert line == "rules: 4 players, deck spanish40, exchange seven-two (condition won-trick), endgame free"


def test_tiny_capote_rate_is_not_printed_as_zero():
    rules = Rules(players=2)
    rows = [[120, 0, 0]] * 4 + [[70, 50, 0]] * 99_996
    text = _summary(rules, rows).format_table()
    assert "capotes: 4 (4e-05)" in text
    text = _summary(rules, [[120, 0, 0]] * 3 + [[70, 50, 0]] * 97).format_table()
    assert "capotes: 3 (0.03000)" in text  # (rates from 0.0001 up keep five decimals)


def test_three_sides_print_each_sides_draws():
    # the footer's (wins + draws/2) / games uses a side's own draws, which the text table did not show
    rules = Rules(players=3)
    rows = [[40, 40, 39, -1]] * 3 + [[60, 40, 19, 0]] * 5 + [[40, 40, 40, -1]] * 2
    s = _summary(rules, rows)
    text = s.format_table()
    assert "draws by side: 0: 5, 1: 5, 2: 2" in text
    assert "score = (wins + draws/2) / games (a side's own draws)" in text
    d = {x["side"]: x for x in s.to_dict()["sides"]}
    assert d[0]["score"] == pytest.approx((5 + 5 / 2) / 10) and d[2]["score"] == pytest.approx(1 / 10)
    two = _summary(Rules(players=2), [[60, 60, -1], [70, 50, 0]]).format_table()
    assert "draws by side" not in two and "(a side's own draws)" not in two


def test_duplicate_positions_give_a_score():
    # by seat position (the seat-fair first-lead effect): win rate and points were printed, not the score
    rules = Rules(players=2)
    rows = [[70, 50, 0], [60, 60, -1], [50, 70, 1], [80, 40, 0]]
    s = _summary(rules, rows, rotations=2)
    pos = s.to_dict()["positions"]
    assert pos[0]["score"] == pytest.approx((2 + 0.5) / 4) and pos[1]["score"] == pytest.approx((1 + 0.5) / 4)
    lo, hi = pos[0]["score_ci95"]
    assert 0 < lo < 0.625 < hi < 1
    text = s.format_table()
    assert "  position 0 (seats 0): win rate 0.5000" in text and ", score 0.6250 [" in text
    assert "  side 0 (seats 0)" not in text


def test_policy_list_in_one_flag_gets_a_hint():
    with pytest.raises(ValueError, match=r"unknown policy 'heuristic,random'.*--policy once per name"):
        resolve_policies(Rules(players=2), ["heuristic,random"])
    with pytest.raises(ValueError) as e:
        resolve_policies(Rules(players=2), ["heuristic,nonsense"])
    assert "once per name" not in str(e.value)


def test_policy_count_message_names_each_count_once():
    with pytest.raises(ValueError) as e:
        resolve_policies(Rules(players=3), ["random", "greedy"])
    assert str(e.value) == "got 2 policies for 3 players: give 1 (every seat) or 3 (one per seat)"
    with pytest.raises(ValueError) as e:
        resolve_policies(Rules(players=4), ["random"] * 3)
    assert str(e.value) == "got 3 policies for 4 players: give 1 (every seat) or 2 (one per side) or 4 (one per seat)"


# --- the solver side (helper's pass on brisca solve and the API) -------------------------------------------

EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
SUITS_RANKS = [f"{r}{s}" for s in "OCEB" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]


def test_solve_many_names_the_position_that_failed():
    from solver import solve_many
    with pytest.raises(ValueError, match=r"^positions\[0\]: trump: missing \(required\)$"):
        solve_many(["players=2", EX])
    with pytest.raises(ValueError, match=r"^positions\[1\]: trump: missing \(required\)$"):
        solve_many([EX, "players=2"], pv=False)
    out = solve_many(["players=2"], errors="return")  # (the list says which: the error as solve raised it)
    assert str(out[0]) == "trump: missing (required)"


def test_solver_module_lists_each_name_once():
    import inspect

    import solver
    solver.solve  # (a name used is in the module's globals too)
    names = [n for n in dir(solver) if not n.startswith("_")]
    assert names == sorted(set(names)) and "importlib" not in names and "annotations" not in names
    assert {"solve", "solve_many", "analyse_play", "Position"} <= set(names)
    assert "_ws" not in inspect.signature(solver.solve).parameters


def test_json_array_line_is_named_as_such():
    from solver.cli import _json_position
    text, problem = _json_position('["players=2"]  # a list')
    assert text == '["players=2"]'
    assert str(problem).startswith("position: the line starts with [ (a JSON array?); a JSON line must be an object")


@pytest.mark.parametrize("text, msg", [
    (EX.replace("62,17", "62"), "points: 1 value given, expected 2 (one per seat)"),
    (EX.replace("62,17", "62,-5"), "points: seat 1 has negative points (-5)"),
    # played= short of cards: the stock's count follows from it, and the message says so
    (EX + " played=1B", "stock: 5 face-down cards given, but hands, trick and played (1 card) and the pinta under the "
                        "stock leave 32 (with played given, every card of the deck is placed once)"),
    # with played given, a pinta placed nowhere is still to draw (NOTATION "Where the pinta is")
    ("players=2 trump=1B hands=1O,3O,5O/2E,6B,12C stock= played="
     + ",".join(c for c in SUITS_RANKS if c not in ("1O", "3O", "5O", "2E", "6B", "12C", "1B")),
     "stock: 1 card left to draw (face-down stock plus the pinta) is not a multiple of players=2; the pinta 1B is in "
     "no hand, trick or played, so it is still to draw"),
])
def test_position_messages_name_the_cause(text, msg):
    from solver import Position
    with pytest.raises(ValueError) as e:
        Position.parse(text)
    assert str(e.value) == msg


def test_one_node_is_singular(capsys):
    from solver.api import SolveResult
    from solver.cli import _print_human
    _print_human(SolveResult(position=EX, target=31, reached=False, seat=0, nodes=1, ms=0.4))
    _print_human(SolveResult(position=EX, value=26, nodes=1, ms=0.4))
    out = capsys.readouterr().out
    assert "not reached  (1 node, 0.4 ms)" in out and "value 26  (1 node, 0.4 ms)" in out and "1 nodes" not in out
