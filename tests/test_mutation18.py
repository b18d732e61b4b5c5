"""Mutation pass 18 (helper, 2026-12-06): sim/cli.py (``brisca simulate``'s parsing and checks, the notes,
the top-level parser's hints, exit statuses) and benchmarks/_common.py.

42 hand-made mutants, one at a time, each against the test files of its code (test_cli, test_newuser17/22,
test_break_cli7/11, test_break_simulate*, test_parquet, test_simulate_interrupt, test_mutation6/9/13,
test_benchmarks' check_out/json-lines/chunk tests, test_mutation11, test_break21). Killed by those (24):
the parser's exit 1, the hint from every subcommand, the quote hint first, cutoff 0.9, the help's default by
``==``, the ASCII check, "too small"/"too large" swapped, the remainder check, the sign, the note for the
format written, ``_fail``'s default 1, --remove's 2B passed on, its ``and``, the write failure exit 2, the
interrupt statuses swapped in cmd_simulate and run_interruptible, "chunk" and "remove=" and the two-files
message left out of ``_as_flag``, the 141 of a closed pipe, note_format silenced; _common's empty file
refused, chunks not cut at the end, ``seed < SEED_MAX``. Bare ``brisca`` exiting 0 survived those files but
is killed by test_break_solver.py::test_bare_brisca_prints_the_commands.

Each test below failed on one surviving mutant (named in its docstring) and passes on the code; expected
values come from the docstrings, the help text and README. Equivalent: check_out without the
permission-denied check (root: os.access says yes), ``emit`` with ``sort_keys=True`` (a JSON object's key
order is not part of it; no reader depends on it). The last test is a bug the pass found, mended: an option of
a subcommand given before the command was "unknown option --json: did you mean --json?"."""
from __future__ import annotations

import json
import os
import sys

import pytest

import sim.cli as scli


def _parse_error(argv, capsys):
    with pytest.raises(SystemExit) as e:
        scli.build_parser().parse_args(argv)
    assert e.value.code == 2
    return capsys.readouterr().err


def _main(argv):
    with pytest.raises(SystemExit) as e:
        scli.main(argv)
    return e.value.code


# ----------------------------------------------------------------- _option_hint

def test_option_hint_names_the_option_without_its_value(capsys):
    """``--deels=5``: the hint names the option, ``--deels``, and suggests ``--deals`` (``_option_hint``
    takes the name before ``=``; mutant: the whole word, "unknown option --deels=5")."""
    err = _parse_error(["simulate", "--deels=5"], capsys)
    assert "unknown option --deels: did you mean --deals?" in err
    assert "--deels=5:" not in err


def test_option_hint_only_for_unrecognized_arguments(capsys):
    """The hint is for argparse's ``unrecognized arguments`` error only (docstring); an ambiguous
    abbreviation's error already names the options (mutant: the message check dropped: "unknown option
    --de" added to "ambiguous option: --de could match --deck, --deals")."""
    err = _parse_error(["simulate", "--de", "5"], capsys)
    assert "ambiguous option" in err and "unknown option" not in err
    assert err.count("\n") == 1  # (one line)


def test_count_reads_zero_with_a_point_as_other_whole_numbers():
    """``10.0`` is read as 10 (an exact whole number), so ``0.0`` is 0 (mutant: the ``n == 0`` shortcut
    dropped: "0.0" refused as an invalid integer; ``0e5`` still 0)."""
    assert scli._count("10.0") == 10
    assert scli._count("0.0") == 0
    assert scli._count("-0.0") == 0
    assert scli._count("0e5") == 0


def test_negative_seed_with_a_leading_point_is_a_value(capsys):
    """``--seed -.5``: a value (numbers_as_values: -.5 is one of the forms read), refused as an invalid
    integer, not "expected one argument" (mutant: the pattern without ``\\.?``)."""
    err = _parse_error(["simulate", "--seed", "-.5"], capsys)
    assert "invalid integer '-.5'" in err and "expected one argument" not in err


# ----------------------------------------------------------------- suffix_format

def test_suffix_format_any_case():
    """suffix_format: "the ending of path's file name ..., any case" (mutant: case kept: None)."""
    assert scli.suffix_format("dir/RUN.CSV") == "csv"
    assert scli.suffix_format("Run.Parquet") == "parquet"
    assert scli.suffix_format("noext") is None


# ----------------------------------------------------------------- refuse_closed_stdout

def test_refuse_closed_stdout_only_when_no_output_is_given(monkeypatch, capsys):
    """"any one given is an output besides stdout" (mutant: ``all``: refused with --out but not --tricks)."""
    monkeypatch.setattr(sys, "stdout", scli._ClosedStream())
    assert scli.refuse_closed_stdout("a.parquet", None) is False
    assert scli.refuse_closed_stdout(None, "t.parquet") is False
    assert scli.refuse_closed_stdout(None, None) is True
    assert "standard output is closed" in capsys.readouterr().err


# ----------------------------------------------------------------- main

@pytest.mark.parametrize("exc, code, word", [(KeyboardInterrupt, 130, "interrupted"),
                                             (scli._Terminated, 143, "terminated")])
def test_main_interrupted_command_status(monkeypatch, capsys, exc, code, word):
    """A command interrupted without its own report: one line, 130 for Ctrl-C, 143 for SIGTERM (main's
    docstring and run_interruptible's; mutant: the two swapped)."""
    def boom(fn, args):
        raise exc()
    monkeypatch.setattr(scli, "run_interruptible", boom)
    assert _main(["simulate", "--deals", "1"]) == code
    assert capsys.readouterr().err == f"brisca: {word}\n"


# ----------------------------------------------------------------- cmd_simulate

def test_simulate_tricks_dash_is_refused(capsys, tmp_path, monkeypatch):
    """``--tricks -`` is refused as ``--out -`` is (dash_output; mutant: only --out checked: a file named
    '-' written)."""
    monkeypatch.chdir(tmp_path)
    assert _main(["simulate", "--deals", "1", "--no-progress", "--tricks", "-"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("brisca: error: --tricks: '-' is not standard output") and err.count("\n") == 1
    assert not (tmp_path / "-").exists()


def test_simulate_default_policy_and_quiet_run(capsys):
    """--policy defaults to random on every seat (help: "default: random on every seat"; mutant: greedy);
    --no-progress: nothing on stderr."""
    assert _main(["simulate", "--deals", "3", "--seed", "1", "--json", "--no-progress"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["policies"] == ["random", "random"]
    assert captured.err == ""


# ----------------------------------------------------------------- benchmarks/_common.py

@pytest.fixture()
def common():
    from conftest import bench_script
    return bench_script("_common")


def test_check_out_name_of_exactly_200_characters(common, tmp_path):
    """"a name of at most 200 characters" (mutant: ``>= 200``: 200 refused)."""
    assert common.check_out(str(tmp_path / ("a" * 200))) is None
    assert "longer than 200" in common.check_out(str(tmp_path / ("a" * 201)))


def test_check_out_dot_dot_names_a_directory(common, tmp_path):
    """A path ending in ``..`` names a directory (mutant: only ``.`` refused by name)."""
    assert "names a directory" in common.check_out(os.path.join(str(tmp_path), "x", ".."))
    assert "names a directory" in common.check_out(os.path.join(str(tmp_path), "."))


def test_check_out_jsonl_empty_file_and_non_object_last_line(common, tmp_path):
    """jsonl=True: a last line that is JSON but not an object is refused ("its last line be a JSON
    object"; mutant: any JSON value taken); only the last line counts; an empty file is taken."""
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert common.check_out(str(empty), jsonl=True) is None
    arr = tmp_path / "arr.jsonl"
    arr.write_text('{"a": 1}\n[1, 2]\n')
    assert "not a JSON object" in common.check_out(str(arr), jsonl=True)
    ok = tmp_path / "ok.jsonl"
    ok.write_text('[1]\n{"a": 1}\n')
    assert common.check_out(str(ok), jsonl=True) is None


def test_write_atomic_through_a_link_replaces_the_target(common, tmp_path):
    """write_atomic: "a symbolic link is followed: its target is replaced, the link kept" (mutant: the
    temporary file renamed over the link)."""
    target = tmp_path / "target.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    common.write_atomic(str(link), lambda tmp: open(tmp, "w").write("new"))
    assert link.is_symlink() and target.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.txt", "target.txt"]


def test_simulate_no_progress_asks_for_no_bar(monkeypatch, capsys):
    """--no-progress: "no progress bar on stderr" (help), and a bar without it (sim.batch.simulate's
    ``progress``; mutant: progress always on: a run of a second or more drew its bar anyway; a short one
    draws nothing either way, tqdm's delay of 0.5 s)."""
    seen = []

    def record(*a, **k):
        seen.append(k["progress"])
        raise RuntimeError("stop here")
    monkeypatch.setattr("sim.batch.simulate", record)
    assert _main(["simulate", "--deals", "1", "--no-progress"]) == 1
    assert _main(["simulate", "--deals", "1"]) == 1
    assert seen == [False, True]
    assert capsys.readouterr().err == "brisca: error: stop here\n" * 2


def test_options_without_a_command_say_the_command_is_missing(capsys):
    """``brisca --json``: the command is what is missing (COMMAND is required); not "unrecognized
    arguments: --json (unknown option --json: did you mean --json?)" (mutant: the subcommand not
    required)."""
    err = _parse_error(["--json"], capsys)
    assert "required: COMMAND" in err and "did you mean" not in err


def test_subcommand_option_before_the_command_is_not_suggested_as_itself(capsys):
    """``brisca --json simulate``: --json is simulate's option given before the command; the hint said
    "unknown option --json: did you mean --json?" (bug found by pass 18); it says to put it after the
    command."""
    err = _parse_error(["--json", "simulate", "--deals", "1"], capsys)
    assert "did you mean --json?" not in err
    assert "--json is an option of brisca simulate: give it after the command, brisca simulate --json" in err
    err = _parse_error(["--no-progress", "solve", "x"], capsys)
    assert "give it after the command, brisca solve --no-progress" in err
