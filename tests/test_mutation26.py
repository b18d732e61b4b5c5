"""Mutation pass 26 (2026-12-07) on today's changes: sim.stats (_rates, RunningStats._seats, mean_se,
wilson_interval), solver.chance.solve_chance, sim.cards.show_repr and cut_long_words, sim.cli's error
lines, sim.batch's and sim.rules' echoes, sim.checks, solver.position and solver.api, and the reworked
benchmark code. Each test kills hand-made mutants that the suite let live (named in its docstring)."""
import math
from fractions import Fraction

import pytest


def test_rates_of_no_games_are_nan():
    """sim.stats._rates: rates NaN and intervals [0, 1] when n == 0 (its docstring). Mutant: win_rate 0.0."""
    from sim.stats import _rates
    r = _rates(0, 0, 0, 0, 0)
    assert math.isnan(r["win_rate"]) and math.isnan(r["score"]) and math.isnan(r["mean_points"])
    assert r["win_rate_ci95"] == [0.0, 1.0] and r["score_ci95"] == [0.0, 1.0]


def test_wilson_interval_holds_p_exactly_at_the_ends():
    """wilson_interval: "clamped to [0, 1] and so that it holds p": for 0 of 3 the formula's lower bound is
    5.6e-17 and for 10 of 10 its upper bound is below 1 by rounding. Mutant: the clamp to p dropped."""
    from sim.stats import wilson_interval
    for n in (3, 6, 7, 12):
        assert wilson_interval(0, n)[0] == 0.0
    for n in (10, 13, 25):
        assert wilson_interval(n, n)[1] == 1.0


def test_show_repr_keeps_a_repr_of_exactly_the_limit():
    """show_repr: cut only past `limit` characters. Mutant: `< limit` (a 100-character repr cut)."""
    from sim.cards import show_repr
    assert show_repr("x" * 98) == "'" + "x" * 98 + "'"
    assert show_repr("x" * 99) == "'" + "x" * 99 + "... (101 characters)"


def test_cut_long_words_cuts_any_non_blank_run():
    """cut_long_words cuts a run of non-blank characters, a path with slashes and dots included.
    Mutant: \\w instead of \\S (a name like x.x.x... was never cut)."""
    from sim.cards import cut_long_words
    assert cut_long_words("a " + "x." * 600) == "a " + "x." * 50 + "... (1200 characters)"


def test_card_id_out_of_range_is_shown_whole():
    """format_card and mask_of show an out-of-range int whole (limit=sys.maxsize), only one past the digit
    limit by its size. Mutants: show_input's default 40-character cut (or a shorter one)."""
    from sim.cards import format_card, mask_of
    big = 10 ** 50
    with pytest.raises(ValueError, match=f"^card id {big} is not a card id \\(0-47, or 48 for swap\\)$"):
        format_card(big)
    with pytest.raises(ValueError, match=f"^card id {big} is not in 0-47$"):
        mask_of([big])


def test_argparse_error_cuts_a_long_word_after_60(capsys):
    """sim.cli._Parser.error cuts a word of over 200 characters after 60 (cut_long_words(.., 200, 60)), one
    of 200 kept. Mutants: longest 1000, keep 100, the cut dropped."""
    from sim.cli import main
    for word, shown in (("y" * 298, "y" * 60 + "... (298 characters)"), ("z" * 200, "z" * 200)):
        with pytest.raises(SystemExit) as ex:
            main(["simulate", word])
        assert ex.value.code == 2
        assert capsys.readouterr().err == f"brisca: error: unrecognized arguments: {shown}\n"


def test_simulate_long_name_in_a_new_directory_cut(tmp_path, monkeypatch):
    """_Target._prepare: a name past NAME_MAX in a directory still to be made passes exists() and is refused
    by the NAME_MAX check, whose message cuts it too. Mutant: that message echoing the name whole."""
    from sim.batch import simulate
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=r"^cannot write output new/x{96}\.\.\. \(2004 characters\): "
                                         "File name too long$"):
        simulate(2, "random", deals=2, out="new/" + "x" * 2000)


def test_simulate_not_a_file_name_cut(tmp_path, monkeypatch):
    """_Target: 'output path ... is not a file name' (a trailing slash) shows the path by show_repr.
    Mutant: {raw!r}, a 5,000-character path echoed whole."""
    from sim.batch import simulate
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=r"^output path 'x{99}\.\.\. \(5003 characters\) is not a file name$"):
        simulate(2, "random", deals=2, out="x" * 5000 + "/")


def test_check_target_fraction_cut_after_60():
    """solver.api.check_target: a non-whole Fraction is shown by show_repr(target, limit=60).
    Mutant: the default limit 100 (an 83-character repr shown whole)."""
    from solver.api import check_target
    f = Fraction(10 ** 70 + 1, 3)
    text = repr(f)
    assert 60 < len(text) <= 100
    with pytest.raises(ValueError) as e:
        check_target(f)
    assert str(e.value).endswith(f"{text[:60]}... ({len(text)} characters)"), str(e.value)
