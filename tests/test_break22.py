"""Break-it pass 22 (helper) on what changed since 3f74191: the unknown-option hint of brisca's parser, the
value line of brisca solve, format_card/parse_card/Rules.from_array's new refusals, open_values.py's --out
note. Each test failed before its fix. No numba compile in this file."""
from __future__ import annotations

import pytest

from conftest import usage_error as _error
from conftest import bench_script

EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"


def test_option_before_the_subcommand_is_not_suggested_as_itself(capsys):
    """``brisca --json solve "<position>"`` said ``unknown option --json: did you mean --json?``: the option
    is solve's, given before the subcommand; the hint says where it goes."""
    for argv in (["--json", "solve", EX], ["--json=1", "solve", EX], ["--no-pv", "solve", EX]):
        err = _error(argv, capsys)
        name = argv[0].partition("=")[0]
        assert f"did you mean {name}?" not in err, err
        assert "give it after the command" in err, err


@pytest.mark.parametrize("word", ["--x\ny", "--tagret\x1b[31m", "--x\x07"])
def test_unrecognized_argument_error_is_one_printable_line(word, capsys):
    """argparse's ``unrecognized arguments`` message echoed the word raw (the hint a second time): a line
    break split the error over two lines, an ESC reached the terminal (brisca's own errors go through
    sim.cards.printable)."""
    err = _error(["solve", EX, word], capsys)
    assert "\x1b" not in err and "\x07" not in err


def test_long_unknown_option_is_not_echoed_whole_in_the_hint(capsys):
    """A 5000-character option was echoed whole by the hint too (show_input's limit elsewhere)."""
    err = _error(["solve", EX, "--" + "t" * 5000], capsys)
    assert len(err.split(" (unknown option", 1)[1]) < 200, len(err)


@pytest.mark.parametrize("first", ["-5", "5", "--"])
def test_a_quoted_position_after_another_argument_is_not_blamed_on_quoting(first, capsys):
    """``brisca solve -5 "<position>"``: argparse reads -5 as the position (numbers are values) and the
    quoted position as an extra argument; the hint said to quote the position, which was quoted (the
    mistake new-user pass 22 fixed for a mistyped option)."""
    argv = ["solve", first, EX] if first != "--" else ["solve", "--", "5", EX]
    err = _error(argv, capsys)
    assert "quote it" not in err, err
    assert "one position" in err, err


@pytest.mark.parametrize("cid", [True, False, 1.0, 47.5, "3", None])
def test_format_card_refuses_a_non_integer_with_value_error(cid):
    """format_card's docstring: ValueError for any value but 0-48. ``True`` gave '4O' (a bool is refused as a
    card id by Position), a float, a str and None raised TypeError (``tuple indices must be integers``)."""
    from sim.cards import format_card
    with pytest.raises(ValueError, match="not a card id"):
        format_card(cid)


def test_format_card_still_takes_numpy_integers():
    import numpy as np
    from sim.cards import format_card
    assert [format_card(c) for c in (np.int8(11), np.int64(48), np.uint8(0))] == ["1O", "swap", "2O"]


def _junk(path):
    path.write_text("hello\n")


def test_open_values_refused_out_prints_its_error_alone(tmp_path, capsys):
    """``open_values.py --out junk.csv`` (an existing file it refuses): the note that a .csv is written as
    parquet came first, then the error; brisca solve notes --out only once every check passed (a refused
    run prints its error alone)."""
    mod = bench_script("open_values")
    out = tmp_path / "junk.csv"
    _junk(out)
    with pytest.raises(SystemExit) as e:
        mod.parse_args(["--deals", "1", "--out", str(out)])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count("\n") == 1 and "error" in err and "note" not in err, err


def test_open_values_note_is_printable(tmp_path, capsys):
    """The new --out note echoed the name raw (sim.cli.note_format prints it through printable)."""
    mod = bench_script("open_values")
    mod.parse_args(["--deals", "1", "--out", str(tmp_path / "b\x1b[31m.csv")])
    err = capsys.readouterr().err
    assert "note" in err and "\x1b" not in err, err


def test_open_values_advice_kept_when_the_path_says_another_out(tmp_path, capsys):
    """The other-seed check looked for "another --out" anywhere in load()'s message, the path included: a
    directory named so lost the advice of every other refusal."""
    mod = bench_script("open_values")
    d = tmp_path / "another --out"
    d.mkdir()
    out = d / "ov.parquet"
    _junk(out)
    with pytest.raises(SystemExit) as e:
        mod.parse_args(["--deals", "1", "--out", str(out)])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "move it or give another --out" in err, err
