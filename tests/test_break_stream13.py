"""Break-it pass 13 on ``brisca solve --file -`` streaming (697ec55: standard input, a pipe or a FIFO solved
line by line as it is read, ``solver.cli._Stream``). Each test fails on 697ec55 and says what should happen.

1. ``--threads N`` (N > 1) on a stream reads ``_AHEAD * N`` lines (or the end of the input) before it
   prints the first answer, and then reads the next line before it prints each answer: a program that
   writes a line and waits for its answer (a coprocess) deadlocks, a slow producer's answers come late,
   and a SIGTERM/Ctrl-C while it waits prints none of the lines it solved (they are only in --out).
2. A line ended by a lone ``\\r`` (line ends the reader accepts) is not answered until the next byte comes
   (the universal-newline decoder holds the ``\\r`` back to see whether ``\\n`` follows): the same deadlock
   for a coprocess writing ``\\r`` line ends.
3. Standard input in non-blocking mode (O_NONBLOCK left on a pipe by a parent): the first read that finds
   no data yet is taken for the end of the input: the lines after it are lost without a word, exit 0,
   and ``--out`` is written as a complete run.
4. An empty stream shows a progress bar ("solving: 0pos") after "no positions in standard input" (an
   empty file shows none).
"""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time

import pytest

from conftest import CoprocessStdin, read_line
from solver import cli

EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
EX2 = "players=2 trump=11E hands=10O,2C,4E/11O,11C stock=12C turn=0 trick=10C points=27,76"
ROOT = os.path.join(os.path.dirname(__file__), "..")


@pytest.fixture(scope="module", autouse=True)
def _warm():
    cli._warm_up(False, {(2, False)}, note=False)  # (fills the numba cache the subprocesses load)


@pytest.mark.parametrize("threads,end", [(2, "\n"), (3, "\n"), (1, "\r")], ids=["threads2", "threads3", "lone-cr"])
def test_each_answer_is_printed_before_the_next_line_is_read(monkeypatch, threads, end):
    """A coprocess: each line is answered before the next one is asked for (right: --threads reads ahead
    only what the pipe already holds, and a line ended by '\\r' is complete; 697ec55: the first answer
    waits for _AHEAD * threads lines, or a '\\r' for the next byte)."""
    out = io.StringIO()
    src = CoprocessStdin([(x + end).encode() for x in (EX, EX2, EX)], out)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(src)))
    monkeypatch.setattr("sys.stdout", out)
    rc = cli.main(["solve", "--file", "-", "--threads", str(threads), "--no-progress", "--no-pv"])
    assert not src.early, f"read ahead of the answers (lines given, answered): {src.early}"
    recs = [json.loads(x) for x in out.getvalue().splitlines()]
    assert rc == 0 and [(r["line"], r["value"]) for r in recs] == [(1, 26), (2, 10), (3, 26)]


def test_threads_coprocess_gets_its_answer_while_stdin_is_open():
    """The same as a user meets it: ``--threads 2``, one line written, its answer read while standard input
    stays open (697ec55: no answer until the input ends)."""
    p = subprocess.Popen([sys.executable, "-m", "sim.cli", "solve", "--file", "-", "--threads", "2",
                          "--no-progress", "--no-pv"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    try:
        p.stdin.write(EX + "\n")
        p.stdin.flush()
        line = read_line(p.stdout, 40)  # (the kernels are in the numba cache: loading them takes a few seconds)
        assert line, "no answer to line 1 while standard input is open (--threads 2)"
        assert json.loads(line)["value"] == 26
    finally:
        p.kill()
        p.wait()
        for fh in (p.stdin, p.stdout):
            fh.close()


def test_nonblocking_stdin_does_not_lose_lines(tmp_path):
    """Standard input a non-blocking pipe: line 1 is in the pipe at the start, line 2 written once line 1
    is answered (a second later). Right: both solved (wait for data), or a failure said (exit 1, --out
    marked incomplete); 697ec55: the empty read after line 1 ends the input: exit 0, one record, a 'complete' table."""
    from sim.batch import read_metadata
    out = tmp_path / "o.parquet"
    r, w = os.pipe()
    os.set_blocking(r, False)
    os.write(w, (EX + "\n").encode())
    p = subprocess.Popen([sys.executable, "-m", "sim.cli", "solve", "--file", "-", "--no-progress", "--no-pv",
                          "--out", str(out)], stdin=r, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=ROOT)
    os.close(r)
    try:
        first = p.stdout.readline()
        assert json.loads(first)["line"] == 1
        time.sleep(1.0)  # (line 2 comes a while after line 1's answer, as a slow producer's does)
        try:
            os.write(w, (EX2 + "\n").encode())
        except BrokenPipeError:
            pass
        os.close(w)
        rest, err = p.communicate(timeout=60)
    finally:
        p.kill()
        p.wait()
    recs = [json.loads(x) for x in (first + rest).splitlines()]
    md = read_metadata(out)
    if p.returncode == 0:
        assert [r["line"] for r in recs] == [1, 2], (recs, err)
        assert md["complete"] is True and md["rows"] == 2, md
    else:
        assert md["complete"] is False, ("a failed read wrote a complete table", md, err)
    assert not (p.returncode == 0 and len(recs) == 1), f"line 2 lost without a word, exit 0: {err!r}, {md}"


def test_an_empty_stream_shows_no_progress_bar(capsys, monkeypatch):
    """An input without positions says so, alone on stderr, as an empty file does (697ec55: a stream
    then drew an empty progress bar, 'solving: 0pos [00:00, ?pos/s]', after that message)."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"# nothing\n\n")))
    assert cli.main(["solve", "--file", "-"]) == 0
    err = capsys.readouterr().err
    assert "no positions in standard input" in err
    assert "solving" not in err, err
