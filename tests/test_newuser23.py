"""New-user pass 23 (helper, 2026-12-07, README only): what tripped a new user, each test failing before its
fix."""
from __future__ import annotations

import pytest

from conftest import usage_error as _error

EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"


@pytest.mark.parametrize("word, meant", [("simluate", "simulate"), ("slove", "solve"), ("puzzle", "puzzles"),
                                         ("SIMULATE", "simulate")])
def test_a_mistyped_command_gets_its_likely_spelling(word, meant, capsys):
    """``brisca simluate --deals 5`` said only ``invalid choice: 'simluate'`` (and, for a while the same day,
    told ``--deals`` to go after the command, where it was)."""
    err = _error([word, "--deals", "5"], capsys)
    assert err.rstrip().endswith(f"(did you mean {meant}?)"), err
    assert "after the command" not in err


def test_an_unknown_command_without_a_likely_spelling_gets_no_hint(capsys):
    err = _error(["xyz"], capsys)
    assert err.rstrip().endswith("(choose from 'simulate', 'solve', 'puzzles')"), err


def test_another_commands_option_before_a_quoted_position_says_what_was_read_as_the_position(capsys):
    """``brisca solve --seed 1 "<pos>"``: argparse reads 1 as the position and reports the position as
    unrecognized, which looked like the position was refused; the hint named only --seed."""
    err = _error(["solve", "--seed", "1", EX], capsys)
    assert "(--seed is an option of brisca simulate, puzzles, not of brisca solve) ('1' was read as the position)" \
        in err, err
    err = _error(["solve", "--tagret", "5", EX], capsys)  # (new-user pass 22's case: the same addition)
    assert "did you mean --target?) ('5' was read as the position)" in err, err
