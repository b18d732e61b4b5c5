"""Break-it and mutation pass 25 (helper) on what changed in a6fa4d4..479aba4: the hints of brisca's parser for
options given before the command (sim/cli.py), mask_of's checks, play_open_deal's ws check.

Each test asserts what should hold. The faults found (each mended the same day, its test failing before):

* ``brisca -- simulate``: ``invalid choice: '--'`` (Python 3.11's argparse hands ``--`` to the subparsers
  action as the command); ``--`` ends the options, the command after it is the command;
* ``brisca simulat --deals 5``: the hint says to give ``--deals`` after the command, where it already is
  (the typo is the command; every word is read as "before the command" when no command is found);
* ``brisca --tagret 5 solve``: ``did you mean --target?`` alone, where ``--tagret solve`` and
  ``--tagret=5 solve`` also say where ``--target`` goes (``--target 5 solve`` is refused too);
* ``brisca --seat=1 simulate`` / ``brisca --no-pv simulate``: ``unknown option --seat`` where ``--seat 1
  simulate`` says ``--seat is an option of brisca solve, not of brisca simulate``;
* ``brisca --jsn simulate --jsn``: the second ``--jsn``, after the command, is told to go after the command
  (``_before_the_command`` looks up the word's first occurrence);
* a 10,000-character option or command is echoed whole in argparse's part of the message (the hints cut it
  after 40 characters, as show_input does elsewhere);
* ``mask_of(bytearray(b"\\x01"))`` is bit 1 (bytes are refused, a bytearray is read as its byte values);
  ``mask_of(np.array(3))`` raises TypeError (documented: ValueError for what is not iterable);
* ``play_open_deal(ws=...)`` with six arrays of the right dtypes and dimensions but too small: the
  interpreter crashes (SIGSEGV) in the search kernels; the check lets them through;
* ``play_open_deal(ws=own)`` in a thread allocates that thread's own 32 MB workspace to compare dtypes;
* ``solve_chance`` refused ``stock=`` (nothing left to draw) as a position giving "the stock order".

The other tests passed when written and kill mutants of the changed lines that survived the existing tests.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

from conftest import usage_error as _error


# ------------------------------------------------------------------ faults (fail now)
def test_double_dash_before_the_command_is_not_called_an_invalid_command(capsys):
    """``--`` ends the options: ``brisca -- simulate`` names simulate (or, refused, does not say that ``--``
    is an invalid choice of command)."""
    from sim.cli import build_parser
    try:
        ns = build_parser().parse_args(["--", "simulate"])
    except SystemExit:
        err = capsys.readouterr().err
        assert "invalid choice: '--'" not in err, err
    else:
        assert ns.command == "simulate"


def test_options_after_a_mistyped_command_are_not_told_to_move(capsys):
    """``brisca simulat --deals 5``: --deals stands after the word meant as the command."""
    err = _error(["simulat", "--deals", "5"], capsys)
    assert "invalid choice: 'simulat'" in err
    assert "give it after the command" not in err, err


def test_a_suggestion_before_the_command_says_where_it_goes_with_a_value_too(capsys):
    """``brisca --tagret 5 solve`` (5 read as the command) names --target as ``--tagret solve`` does: where
    it goes."""
    err = _error(["--tagret", "5", "solve"], capsys)
    assert "did you mean --target?" in err
    assert "give it after the command, brisca solve --target ..." in err, err


@pytest.mark.parametrize("argv", [["--seat=1", "simulate"], ["--no-pv", "simulate"]])
def test_another_commands_option_is_named_with_or_without_a_value(argv, capsys):
    """``--seat 1 simulate`` says ``--seat is an option of brisca solve, not of brisca simulate``; the same
    option given as ``--seat=1`` (or a flag) said ``unknown option``."""
    err = _error(argv, capsys)
    assert "brisca solve" in err, err


def test_a_repeated_option_after_the_command_is_not_told_to_move(capsys):
    err = _error(["--jsn", "simulate", "--jsn"], capsys)
    assert err.count("give it after the command") == 1, err


@pytest.mark.parametrize("argv", [["--" + "x" * 10000, "simulate"], ["x" * 10000]])
def test_a_huge_word_is_not_echoed_whole(argv, capsys):
    err = _error(argv, capsys)
    assert len(err) < 1000, len(err)


@pytest.mark.parametrize("cards", [bytearray(b"\x01"), np.array(3)])
def test_mask_of_refuses_a_bytearray_and_a_0d_array_with_value_error(cards):
    from sim.cards import mask_of
    with pytest.raises(ValueError, match="cards"):
        mask_of(cards)


def test_play_open_deal_refuses_buffers_too_small_instead_of_crashing():
    code = textwrap.dedent("""
        import numpy as np
        from sim.rules import Rules
        from solver.search import new_workspace
        from solver.selfplay import play_open_deal
        ref = new_workspace(tt_bits=4)
        ws = tuple(np.zeros((1,) * a.ndim, dtype=a.dtype) for a in ref[:5]) + (ref[5],)
        try:
            play_open_deal(Rules(players=2, deck="rapida20"), 1, 0, ws=ws)
        except ValueError as e:
            print("ValueError", e)
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, (r.returncode, r.stderr[-500:])
    assert r.stdout.startswith("ValueError ws"), r.stdout


def test_play_open_deal_with_its_own_ws_allocates_no_other_workspace():
    """The ws check compared against ``workspace()``: a thread passing its own buffers got a 32 MB table too."""
    import solver.api as A
    from sim.rules import Rules
    from solver.search import new_workspace
    from solver.selfplay import play_open_deal
    ws = new_workspace(tt_bits=4)
    seen = {}

    def run():
        seen["value"] = play_open_deal(Rules(players=2, deck="rapida20"), 1, 0, ws=ws)["value"]
        seen["allocated"] = getattr(A._local, "ws", None) is not None

    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert seen["value"] == 48 and seen["allocated"] is False, seen


# ------------------------------------------------------------------ held (kill surviving mutants)
def test_an_unquoted_position_beside_a_mistyped_option_gets_both_hints(capsys):
    err = _error(["solve", "--tagret", "5", "players=2", "trump=5B"], capsys)
    assert "unknown option --tagret: did you mean --target?" in err
    assert "a position is one argument: quote it" in err


def test_options_after_the_command_get_no_before_the_command_hint(capsys):
    err = _error(["5", "simulate", "--deals", "5"], capsys)
    assert err.strip().endswith("'puzzles')"), err


def test_a_double_dash_is_not_named_as_an_unknown_option(capsys):
    err = _error(["--deals", "--", "simulate"], capsys)
    assert "--deals is an option of brisca simulate" in err
    assert "unknown option --" not in err, err


@pytest.mark.parametrize("argv, hint", [
    (["--deels"], "unknown option --deels: did you mean --deals?"),  # (no command: every command's options)
    (["--dea", "5", "simulate"], "unknown option --dea: did you mean --deals?"),  # (the command's options)
    (["-f", "x"], "-f is an option of brisca solve: give it after the command"),  # (short options too)
    (["--deals=5"], "--deals is an option of brisca simulate: give it after the command"),  # (=value cut)
    (["--threads", "2"], "--threads is an option of brisca simulate (and of brisca solve): give it after"),
])
def test_before_the_command_hints(argv, hint, capsys):
    err = _error(argv, capsys)
    assert hint in err, err


def test_no_empty_hint_without_an_option(capsys):
    err = _error(["5", "simulate"], capsys)
    assert err.strip().endswith("'puzzles')"), err


@pytest.mark.parametrize("cards", [b"\x01\x02", 5, None])
def test_mask_of_refuses_bytes_and_non_iterables(cards):
    from sim.cards import mask_of
    with pytest.raises(ValueError, match="cards: expected an iterable"):
        mask_of(cards)


@pytest.mark.parametrize("change", ["dtype", "ndim"])
def test_play_open_deal_checks_the_ws_dtypes_and_dimensions(change):
    from sim.rules import Rules
    from solver.search import new_workspace
    from solver.selfplay import play_open_deal
    ws = list(new_workspace(tt_bits=4))
    ws[0] = ws[0].astype(np.int32) if change == "dtype" else ws[0].reshape(4, -1)
    with pytest.raises(ValueError, match="ws: "):
        play_open_deal(Rules(players=2, deck="rapida20"), 1, 0, ws=tuple(ws))


def test_solve_chance_takes_an_empty_known_stock():
    """``stock=`` (nothing left to draw) has no order to drop: solve_chance solves it as solve does (it said
    "this one gives the stock order"); a non-empty order is still refused."""
    from sim.rules import Rules
    from solver import solve
    from solver.chance import solve_chance
    from solver.position import deal_position
    pos = deal_position(Rules(players=2), 3, 0)
    while pos.left > 0:
        pos = pos.apply(pos.legal_moves()[0])
    assert pos.stock == () or list(pos.stock) == []
    r, want = solve_chance(str(pos)), solve(pos)
    assert (r.value, r.moves) == (want.value, want.moves)
    with pytest.raises(ValueError, match="^stock: solve_chance takes a stock=\\? position"):
        solve_chance("players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17")
