"""Mutation pass 17 (helper, 2026-12-06): solver/cli.py outside the --file readers and stream reader
mutated by passes 6, 9 and 11-16: the end-of-run note of invalid lines, ``brisca puzzles``' bounds,
default tries, --out format and keeper. Each test failed on one hand-made mutant that the suite let
through and passes on the code; expected values come from the README (``brisca solve``, ``brisca
puzzles``, exit statuses) and the help texts, not from the program's output.
"""
from __future__ import annotations

import io
import json

import pytest

from solver import cli

EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"


def _fake_record(i):
    return {"position": EX, "move": "2C", "value": 26 + i, "need": 44, "moves": {"2C": 26 + i}, "pv": ["2C"],
            "deal": i, "ply": 0, "seat": 1}


@pytest.fixture
def fake_search(monkeypatch):
    """``brisca puzzles`` without the search: ``find_puzzles`` replaced by ``calls[-1]["gen"]``'s records, the
    warm-up skipped; each call's arguments recorded."""
    import solver.puzzles

    calls = []

    def install(gen):
        def fake(count, players=None, seed=1, max_tries=0, on_try=None, *, rules=None):  # (rules: 2026-12-07)
            calls.append({"count": count, "max_tries": max_tries})
            yield from gen()
        monkeypatch.setattr(solver.puzzles, "find_puzzles", fake)
        return calls

    monkeypatch.setattr(cli, "_warm_up", lambda *a, **k: None)
    return install


@pytest.mark.parametrize("threads", ["1", "2"])
def test_solve_file_invalid_note_counts_the_position_lines(capsys, tmp_path, threads):
    """README exit status 1: stderr says how many of the lines were invalid and names the first, e.g.
    "brisca: 2 of 7 lines invalid (each an "error" record); the first, line 6: ...". Here 4 position
    lines (a comment and a blank line are not), 2 of them invalid, the first on line 3 (mutant: the
    total was the invalid count, "2 of 2 lines")."""
    f = tmp_path / "p.txt"
    f.write_text(f"# c\n{EX}\nplayers=9\n\nthis\n{EX}\n")
    assert cli.main(["solve", "--file", str(f), "--no-progress", "--no-pv", "--threads", threads]) == 1
    out, err = capsys.readouterr()
    assert [json.loads(x)["line"] for x in out.splitlines()] == [2, 3, 5, 6]
    note = [x for x in err.splitlines() if "invalid" in x]
    assert len(note) == 1 and note[0].startswith(
        'brisca: 2 of 4 lines invalid (each an "error" record); the first, line 3: players'), err


def test_puzzles_max_tries_of_2_pow_63_is_refused(capsys, fake_search):
    """deal and ply are int64 columns: --count and --max-tries must be below 2**63 (mutant: ``n > 2**63``
    let exactly 2**63 through, and the search ran)."""
    calls = fake_search(lambda: iter([_fake_record(0)]))
    for flag in ("--max-tries", "--count"):
        argv = ["puzzles", "--count", "1", "--no-progress", flag, str(2 ** 63)]
        assert cli.main(argv) == 2
        err = capsys.readouterr().err
        assert f"{flag} must be below 9,223,372,036,854,775,808" in err, err
    assert calls == []
    assert cli.main(["puzzles", "--count", "1", "--no-progress", "--max-tries", str(2 ** 63 - 1)]) == 0
    assert calls[-1]["max_tries"] == 2 ** 63 - 1


def test_puzzles_default_max_tries_is_500_times_count(capsys, fake_search):
    """README: --max-tries N bounds the positions tried, 500 x --count by default (200 before 2026-12-07:
    a single 3-player puzzle was missed about 3% of the time); exit status 1 when fewer than --count were
    found (mutant: 100 x count)."""
    calls = fake_search(lambda: iter(()))
    assert cli.main(["puzzles", "--count", "3", "--no-progress"]) == 1
    assert calls[-1]["max_tries"] == 1500
    assert "found 0 of 3 puzzles in 1,500 positions tried (--max-tries)" in capsys.readouterr().err


def test_puzzles_out_other_name_is_json_lines(capsys, fake_search, tmp_path):
    """README: puzzles --out writes JSON lines, or a parquet table when F ends in .parquet or .pq: a
    .csv name gets JSON lines, and the note says so (mutants: the default format parquet, in the note or
    in the writer)."""
    fake_search(lambda: iter([_fake_record(0), _fake_record(1)]))
    out = tmp_path / "p.csv"
    assert cli.main(["puzzles", "--count", "2", "--no-progress", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "is written as JSON lines, not CSV" in err and "parquet" not in err, err
    assert [json.loads(x) for x in out.read_text().splitlines()] == [_fake_record(0), _fake_record(1)]


def test_puzzles_signal_after_the_last_puzzle_found_writes_the_whole_run(capsys, fake_search, tmp_path):
    """README: a signal that comes once every puzzle is found still leaves the whole run's file (then exits
    130/143): no {"complete": false} line (mutant: the keeper wrote a part whenever the search had not
    returned)."""
    def gen():
        yield _fake_record(0)
        yield _fake_record(1)
        raise KeyboardInterrupt  # (the signal lands as the search would end)
    fake_search(gen)
    out = tmp_path / "p.jsonl"
    with pytest.raises(KeyboardInterrupt):
        cli.main(["puzzles", "--count", "2", "--no-progress", "--out", str(out)])
    assert [json.loads(x) for x in out.read_text().splitlines()] == [_fake_record(0), _fake_record(1)]


@pytest.mark.parametrize("cmd", ["solve", "puzzles"])
def test_out_dot_dot_is_not_a_file_name(capsys, fake_search, tmp_path, cmd):
    """--out 'missing/..' names no file (a directory once made): refused before any work with exit 2, and the
    missing directory is not left behind (mutant: '..' not refused by name)."""
    fake_search(lambda: iter([_fake_record(0)]))
    out = str(tmp_path / "missing" / "..")
    argv = ["solve", EX, "--no-pv"] if cmd == "solve" else ["puzzles", "--count", "1"]
    assert cli.main([*argv, "--no-progress", "--out", out]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "is not a file name" in captured.err, captured.err
    assert not (tmp_path / "missing").exists()


def test_solve_file_without_positions_and_stdout_closed_exits_0(capsys, monkeypatch, tmp_path):
    """README: an input without positions says so on stderr (exit 0); a closed stdout is refused only when
    the records would be the only output, and such an input has none (mutant: refused with exit 1)."""
    from sim import cli as scli

    f = tmp_path / "p.txt"
    f.write_text("# nothing\n\n")
    monkeypatch.setattr("sys.stdout", scli._ClosedStream())
    assert cli.main(["solve", "--file", str(f), "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "no positions in" in err and "closed" not in err, err


def test_solve_file_fewer_lines_on_the_second_read_names_the_counts(capsys, monkeypatch, tmp_path):
    """A file whose second read gives fewer position lines (its size and modification time kept) ends the
    run as a changed file (exit 1), saying "1 position line read this time, 2 at the start" (mutant: the
    plural of the count swapped: "1 position lines")."""
    import os

    f = tmp_path / "p.txt"
    f.write_text(f"{EX}\n{EX}\n")
    st = os.stat(f)

    def change(*a, **kw):
        f.write_text(f"{EX}\n#{EX[1:]}\n")  # (as long: line 2 now a comment)
        os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))
    monkeypatch.setattr(cli, "_warm_up", change)
    assert cli.main(["solve", "--file", str(f), "--no-progress", "--no-pv"]) == 1
    out, err = capsys.readouterr()
    assert [json.loads(x)["line"] for x in out.splitlines()] == [1]
    assert f"--file: {f} changed while it was solved: 1 position line read this time, 2 at the start" in err, err


def test_puzzles_seed_0_is_a_seed(capsys, fake_search):
    """--seed is a run seed, 0 <= seed < 2**64 (README, brisca simulate; the error says "[0, 2**64)"):
    seed 0 is searched (mutant: refused as out of range)."""
    fake_search(lambda: iter([_fake_record(0)]))
    assert cli.main(["puzzles", "--count", "1", "--seed", "0", "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert [json.loads(x) for x in out.splitlines()] == [_fake_record(0)] and "error" not in err


def test_solve_out_refused_by_the_writer_after_the_solve_exits_1(capsys, monkeypatch, tmp_path):
    """README exit status 1: an output that could not be written after solving (not 2, bad input: --out
    was checked before). The --out directory replaced by a file before the solve: the answer was printed,
    the write fails with one error line naming the path, exit 1 (mutant: exit 2)."""
    import shutil

    d = tmp_path / "d"

    def change(*a, **kw):  # (between the --out check and the solve)
        shutil.rmtree(d)
        d.write_text("now a file\n")
    monkeypatch.setattr(cli, "_warm_up", change)
    out_path = d / "o.jsonl"
    assert cli.main(["solve", "--json", "--no-pv", "--no-progress", EX, "--out", str(out_path)]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["value"] == 26  # (README: 26)
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("brisca: error: ") and str(d) in lines[0], err
    assert not out_path.exists()


def test_solve_json_of_one_position_has_the_documented_keys(capsys):
    """README: --json prints position, value, moves, best, wins, pv, nodes, ms; only --file records also carry
    line (mutant: one position's record got a "line")."""
    assert cli.main(["solve", "--json", "--no-progress", EX]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert set(rec) == {"position", "value", "moves", "best", "wins", "pv", "nodes", "ms"}
    assert rec["value"] == 26 and rec["best"] == ["2C"]  # (README: 26, 2C best)


def test_solve_human_output_without_pv_prints_no_pv_line(capsys):
    """--no-pv leaves out the principal variation: the text has the value (for seat 1, to move) and the moves
    best first (README: 2C 26, 10O 18, 12E 16) and no "pv" line (mutant: an empty "pv " line printed)."""
    assert cli.main(["solve", "--no-pv", "--no-progress", EX]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == EX and lines[1].startswith("value 26 for seat 1  (")
    assert [x.split() for x in lines[2:5]] == [["2C", "26", "*"], ["10O", "18"], ["12E", "16"]]
    # (then, since 2026-12-07, eighth part, the line naming the moves that win, R8: none here)
    assert lines[5:] == ["no move wins: at best 43 of the 61 needed (the side holds 17, R8)"]


def test_solve_stdin_threads_reads_ahead_at_most_32_lines_a_thread(capsys, monkeypatch):
    """README: with --threads N only lines that have already come are read ahead, up to 32N. 100 lines
    already in the pipe, 2 threads: 64 lines submitted when the first answer is printed (mutant: 65)."""
    import concurrent.futures
    import os

    r, w = os.pipe()
    os.write(w, (EX + "\n").encode() * 100)
    os.close(w)
    monkeypatch.setattr("sys.stdin", open(r, "r"))
    submitted, at_first = [], []
    real_submit = concurrent.futures.ThreadPoolExecutor.submit

    def submit(self, *a, **kw):
        submitted.append(1)
        return real_submit(self, *a, **kw)
    monkeypatch.setattr(concurrent.futures.ThreadPoolExecutor, "submit", submit)

    class Out(io.StringIO):
        def write(self, s):
            if not at_first:
                at_first.append(len(submitted))
            return super().write(s)
    out = Out()
    monkeypatch.setattr("sys.stdout", out)
    assert cli.main(["solve", "--file", "-", "--threads", "2", "--no-pv", "--no-progress"]) == 0
    assert at_first == [64]
    assert [json.loads(x)["line"] for x in out.getvalue().splitlines()] == list(range(1, 101))


def test_stream_read_failure_with_stdout_failed_and_out_threads_still_says_the_input_failed(capsys, monkeypatch,
                                                                                           tmp_path):
    """A read of standard input that fails mid-run ends the run with exit 1, its error on stderr, what was
    solved kept in a new --out file marked incomplete (README); with --threads, and stdout failed (a full
    device) while --out keeps the run going, the input's error still ends it as such (mutant: the reader's
    error dropped when stdout had failed: the file said "interrupted", the input error unsaid)."""
    from conftest import FailingStream

    class Input(io.TextIOBase):  # (a replaced text stream: no .buffer)
        def __init__(self):
            self.n = 0

        def readable(self):
            return True

        def readline(self, size=-1):
            self.n += 1
            if self.n > 3:
                raise OSError(5, "Input/output error")
            return EX + "\n"

    monkeypatch.setattr("sys.stdin", Input())
    monkeypatch.setattr("sys.stdout", FailingStream())
    out = tmp_path / "o.jsonl"
    assert cli.main(["solve", "--file", "-", "--threads", "2", "--no-pv", "--no-progress", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "brisca: error: --file: Input/output error: standard input" in err, err
    assert "stopped: the input failed" in err and "interrupted" not in err, err
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["line"] for r in lines[:-1]] == [1, 2, 3]
    assert lines[-1]["complete"] is False
