"""Two items carried from the user study of 2026-12-07 (seventh part), mended.

- ``brisca solve --play "10O 3C"`` (moves separated by a space) said only "invalid card '10O 3C'"; the
  message now adds that moves are separated by commas, with the list written that way.
- ``--play`` (and :meth:`solver.Position.parse_move`) of a card out of every hand said only "not legal
  here"; it now says where the card is: in the current trick, the pinta under the stock (R4, R6), in the
  stock, removed from the deck at the deal (R3) or already played. A card placed nowhere (a hidden hand or
  ``stock=?``) is not located (the position does not know where it is).
"""
import pytest

from solver import Position
from solver.cli import _play

OPEN = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
HIDDEN = ("players=2 trump=5B hands=?/10O,2C,12E stock=? turn=1 trick=1O points=62,17 played=3O,4O,5O,6O,"
          "7O,11O,12O,1C,4C,5C,10C,11C,12C,1E,2E,4E,5E,6E,7E,10E,11E,1B,2B,3B,6B,7B,10B,11B")
THREE = "players=3 trump=12B hands=12O,7B,12B/4B,10B,12E/4E,6E,10C stock= turn=1 trick= points=44,60,0"


def _msg(text, moves):
    with pytest.raises(ValueError) as e:
        _play(Position.parse(text), moves)
    return str(e.value)


def test_space_separated_moves_get_the_comma_hint():
    assert _msg(OPEN, "10O 3C").endswith("; moves are separated by commas: 10O,3C")
    assert "moves are separated by commas: 2C,3C" in _msg(OPEN, "10O, 2C  3C")
    assert "separated by commas" not in _msg(OPEN, "10X")


@pytest.mark.parametrize("text, card, where", [
    (OPEN, "1O", "1O is already in the current trick"),
    (OPEN, "5B", "5B is the pinta, face up under the stock (R4; drawn last, R6)"),
    (OPEN, "2O", "2O is in the stock"),
    (OPEN, "12C", "12C has already been played"),
    (THREE, "2B", "2B was removed from the deck at the deal (R3)"),
    (HIDDEN, "3O", "3O has already been played"),
])
def test_a_card_out_of_every_hand_is_located(text, card, where):
    legal = "4B, 10B, 12E" if text is THREE else "10O, 2C, 12E"
    assert _msg(text, card) == f"--play: move 1 ({card}): {card} is not legal here: {where} (legal: {legal})"


def test_an_unknown_card_is_not_located():
    # 2O and 3C are somewhere among the hidden hand and stock=?: the position cannot say where
    assert _msg(HIDDEN, "2O") == "--play: move 1 (2O): 2O is not legal here (legal: 10O, 2C, 12E)"
    assert _msg(HIDDEN, "3C") == "--play: move 1 (3C): 3C is not legal here (legal: 10O, 2C, 12E)"


def test_summary_says_seat_0_leads_every_deal():
    """Carried from the seventh part's user study: the text summary did not say that seat 0 leads every
    deal (the README did), which a side's score reads differently with."""
    import sim
    rules = sim.Rules(players=2)
    assert "seat 0 leads every deal (--duplicate rotates the seats)" in str(sim.simulate(rules, deals=20).summary)
    assert "seat 0 leads" not in str(sim.simulate(rules, deals=10, duplicate=True).summary)


def test_a_first_hidden_stock_solve_names_the_solver_too():
    """Carried from the seventh part's user study: a first ``stock=?`` solve's compile note named only the
    expectimax, though the solver it calls compiles in the same minute."""
    from solver.cli import _compiling_what
    assert _compiling_what(2, True, {(2, True)}) == "the 2-player stock=? expectimax (and the solver it calls)"
    assert _compiling_what(2, True, {(2, False), (2, True)}) == "the 2-player stock=? expectimax"
    assert _compiling_what(3, False, {(3, False)}) == "the 3- and 6-player solver"
    assert _compiling_what(4, True, {(4, True), (2, False)}) == "the 4-player stock=? expectimax (and the solver it calls)"


def test_duplicate_win_rate_interval_over_pairs():
    """User study 65 (left by it, mended here): with duplicate the score's interval was over the deal pairs and
    the win rate's over games; ``pair_win_rate_ci95`` is the win rate's over pairs, and the table prints it."""
    import math

    import numpy as np

    import sim
    r = sim.simulate(sim.Rules(players=2), ["heuristic", "random"], deals=60, seed=5, duplicate=True)
    f = r.frame
    won = np.where(f["rotation"] == 0, f["winner"] == 0, f["winner"] == 1).astype(float)  # side 0's policy
    per_pair = won.reshape(-1, 2).mean(axis=1)
    m, se = per_pair.mean(), per_pair.std(ddof=1) / math.sqrt(len(per_pair))
    side = r.summary.to_dict()["sides"][0]
    assert side["win_rate"] == pytest.approx(m, abs=1e-12)
    assert side["pair_win_rate_ci95"] == pytest.approx([m - 1.959963984540054 * se, m + 1.959963984540054 * se],
                                                       rel=1e-9)
    lo, hi = side["pair_win_rate_ci95"]
    assert f"[{lo:.4f}, {hi:.4f}]" in str(r.summary) and side["win_rate_ci95"] != side["pair_win_rate_ci95"]


def test_a_played_pinta_is_not_called_under_the_stock():
    """Self-review mutation pass: the pinta once drawn and played is "already played", not "face up under the
    stock" (the check of ``pinta_under`` dropped passed every test); a tab separates moves as a space does."""
    p = Position.parse("players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O "
                       "points=62,17")
    while p.trump not in p.played:  # (the stock drawn to its end, then the pinta 5B played)
        legal = p.legal_moves()
        p = p.apply(p.trump if p.trump in legal else legal[0])
    assert not p.pinta_under and not p.is_terminal
    assert "5B has already been played" in _msg(str(p), "5B")
    assert _msg(OPEN, "10O\t3C").endswith("; moves are separated by commas: 10O,3C")


def test_duplicate_one_pair_win_rate_interval_says_nothing():
    import sim
    side = sim.simulate(sim.Rules(players=2), ["heuristic", "random"], deals=1, seed=5,
                        duplicate=True).summary.to_dict()["sides"][0]
    assert side["pair_win_rate_ci95"] == [0.0, 1.0] == side["pair_score_ci95"]


def test_a_field_given_twice_in_two_cases_says_names_are_case_insensitive():
    """User study 65b: ``Turn=0`` beside ``turn=1`` said only "turn: given twice"."""
    with pytest.raises(ValueError, match=r"^turn: given twice \(as turn= and Turn=: field names are "
                                         r"case-insensitive\)$"):
        Position.parse(OPEN.replace("turn=1", "turn=1 Turn=0"))
    with pytest.raises(ValueError, match=r"^turn: given twice$"):
        Position.parse(OPEN.replace("turn=1", "turn=1 turn=0"))


def test_readme_names_the_interval_helpers_as_they_are():
    """User study 65c wrote its own Wilson function before finding ``sim.stats.wilson_interval``; the README
    names both helpers with their parameters as the code has them."""
    import inspect
    import os

    from sim import stats
    readme = open(os.path.join(os.path.dirname(__file__), "..", "README.md")).read()
    for name in ("wilson_interval", "mean_se"):
        params = [p for p in inspect.signature(getattr(stats, name)).parameters if p != "z"]
        assert f"`sim.stats.{name}({', '.join(params)})`" in " ".join(readme.split()), name


def test_readme_paired_comparison_of_two_runs(tmp_path, monkeypatch):
    """User study 65c: comparing two rule variants deal by deal had no recipe; the README's block, after the
    two commands its comments give, prints what its comment says (R9's arrastre against free play)."""
    import re

    from conftest import run_main
    from test_docs import _readme_block, _run_block
    code = _readme_block("Two runs of one seed deal the same cards")
    monkeypatch.chdir(tmp_path)
    for cmd in re.findall(r"^# (?:after|and): +brisca (simulate .*)$", code, re.M):
        assert run_main(cmd.split()) == 0
    out = _run_block(code).strip()
    said = re.search(r"# (0\.\d\d ± se 0\.\d\d); (\d\.\d\d%) of deals", code).groups()
    assert out == f"seat 0's points, arrastre - free: {said[0]}; winner changed in {said[1]} of deals", out
