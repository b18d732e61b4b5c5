"""``brisca solve --file -`` (standard input, a pipe, a FIFO) streams (2026-12-06, fifth part): each
line is solved and printed as it is read, not after the producer has ended, and the input is not held
(it was read whole first: 0.24 KB a line, and ``producer | brisca solve --file -`` printed nothing until
the producer ended, so a program could not ask a position and read its answer). A kernel set is
warmed up when its first line comes; a read that fails mid-run keeps the records made, marked
incomplete, as an interrupted run's. Each test but the last failed on the code before (the whole input read
first); the last checks a whole stream's run is still complete."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading

import pytest

from conftest import read_line
from solver import cli

EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
EX2 = "players=2 trump=11E hands=10O,2C,4E/11O,11C stock=12C turn=0 trick=10C points=27,76"
FOUR = cli._WARM[4]  # (a small 4-player position: its own kernel set)
ROOT = os.path.join(os.path.dirname(__file__), "..")


class _Source(io.RawIOBase):
    """Standard input's bytes, counting how many were read; ``fail_at``: an ``OSError`` (EIO) once the
    reader asks past that many bytes."""

    def __init__(self, data: bytes, fail_at=None):
        self.data, self.pos, self.fail_at = data, 0, fail_at

    def readable(self):
        return True

    def readinto(self, b):
        if self.fail_at is not None and self.pos >= self.fail_at:
            raise OSError(5, "Input/output error")
        end = len(self.data) if self.fail_at is None else self.fail_at
        n = min(len(b), 4096, end - self.pos)  # (a pipe gives at most its buffer a read)
        b[:n] = self.data[self.pos:self.pos + n]
        self.pos += n
        return n


def _stdin(monkeypatch, data, fail_at=None):
    src = _Source(data, fail_at)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(src)))
    return src


def test_a_line_is_answered_before_the_next_is_written():
    """A program writes a position, reads its answer, then writes the next (a coprocess): each answer
    comes while standard input is still open (before: nothing until the input ended, a deadlock)."""
    p = subprocess.Popen([sys.executable, "-m", "sim.cli", "solve", "--file", "-", "--no-progress", "--no-pv"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        got = []
        for text in (EX, EX2):
            p.stdin.write(text + "\n")
            p.stdin.flush()
            line = read_line(p.stdout, 240)  # (a cold numba cache compiles the 2-player kernel first)
            assert line, "no answer while standard input is open"
            got.append(json.loads(line))
        p.stdin.close()
        assert p.wait(60) == 0 and p.stdout.read() == ""
        assert [(r["line"], r["value"]) for r in got] == [(1, 26), (2, 10)]
    finally:
        p.kill()
        p.wait()
        for fh in (p.stdin, p.stdout, p.stderr):
            fh.close()


@pytest.mark.parametrize("threads", [1, 2])
def test_stdin_is_not_read_whole_before_solving(capsys, monkeypatch, threads):
    """When the first line is solved, a few pipe reads of the input are in (the --threads window), not
    all of it; the records are the file's, in order."""
    import solver.api as api
    n = 4000  # (about 370 KB: many pipe reads)
    src = _stdin(monkeypatch, ((EX + "\n" + EX2 + "\n") * (n // 2)).encode())
    real, read_at_first = api.solve, []

    def solve(p, *a, **k):  # (the warm-up left out: the first call is line 1's)
        if not read_at_first:
            read_at_first.append(src.pos)
        return real(p, *a, **k)
    monkeypatch.setattr(api, "solve", solve)
    monkeypatch.setattr(cli, "_warm_up", lambda *a, **k: None)
    assert cli.main(["solve", "--file", "-", "--threads", str(threads), "--no-progress", "--no-pv"]) == 0
    recs = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["line"] for r in recs] == list(range(1, n + 1))
    assert [r["value"] for r in recs[:4]] == [26, 10, 26, 10]
    # at most the --threads window of lines (cli._AHEAD * threads) and the reader's buffers
    ahead = (cli._AHEAD * threads + 2) * (len(EX) + 1) + 3 * 8192
    assert read_at_first and read_at_first[0] <= ahead < len(src.data), (read_at_first, len(src.data))


def test_a_kernel_set_is_warmed_up_when_its_first_line_comes(capsys, monkeypatch):
    """A 4-player line after 2-player ones: its kernel set is warmed up when it is read, after the lines
    before it are printed (the ``ms`` of every line is its solve alone)."""
    real, calls, made = cli._warm_up, [], []
    record = cli._record

    def warm_up(target=False, kinds=frozenset(), note=True):
        calls.append((sorted(kinds), len(made)))
        real(target, kinds, note)
    monkeypatch.setattr(cli, "_warm_up", warm_up)
    monkeypatch.setattr(cli, "_record", lambda res, line=None: made.append(line) or record(res, line))
    lines = [EX, EX2, FOUR, EX, FOUR]
    _stdin(monkeypatch, "".join(x + "\n" for x in lines).encode())
    assert cli.main(["solve", "--file", "-", "--no-progress", "--no-pv"]) == 0
    # the 2-player set before any line is solved; the 4-player one after lines 1-2, once
    assert calls == [([(2, False)], 0), ([(4, False)], 2)], calls
    from solver import Position, solve
    recs = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["value"] for r in recs] == [solve(Position.parse(x)).value for x in lines]


def test_a_read_that_fails_mid_stream_keeps_the_records_made(capsys, monkeypatch, tmp_path):
    """A read error after some lines (EIO): exit 1 naming standard input, the lines before it printed,
    and --out holds them marked incomplete (never a table that looks whole)."""
    from sim.batch import read_metadata
    data = ((EX + "\n") * 300).encode()
    fail_at = 100 * (len(EX) + 1)  # (after line 100: the reader's read past it fails)
    _stdin(monkeypatch, data, fail_at)
    out = tmp_path / "o.parquet"
    rc = cli.main(["solve", "--file", "-", "--no-progress", "--no-pv", "--out", str(out)])
    std = capsys.readouterr()
    assert rc == 1 and "--file: Input/output error: standard input" in std.err, std.err
    # (said as what ended it, not "(interrupted)": break-it pass 13's note)
    assert f"wrote 100 records of 100 to {out} (stopped: the input failed)" in std.err, std.err
    printed = [json.loads(x)["line"] for x in std.out.splitlines()]
    assert printed == list(range(1, 101))
    md = read_metadata(out)
    assert md["complete"] is False and md["rows"] == md["total"] == 100, md


def test_an_interrupted_stream_writes_what_it_made_of_the_lines_read(capsys, monkeypatch, tmp_path):
    """Ctrl-C during a stream: --out holds the lines solved, the total the lines read so far, marked
    incomplete (JSON lines: the closing {"complete": false, ...} line)."""
    import solver.api as api
    real, calls = api.solve, []

    def solve(p, *a, **k):
        calls.append(1)
        if len(calls) == 5:
            raise KeyboardInterrupt
        return real(p, *a, **k)
    monkeypatch.setattr(api, "solve", solve)
    monkeypatch.setattr(cli, "_warm_up", lambda *a, **k: None)
    _stdin(monkeypatch, ((EX + "\n") * 50).encode())
    out = tmp_path / "o.jsonl"
    with pytest.raises(KeyboardInterrupt):
        cli.main(["solve", "--file", "-", "--no-progress", "--no-pv", "--out", str(out)])
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r.get("line") for r in lines[:-1]] == [1, 2, 3, 4]
    assert lines[-1] == {"complete": False, "rows": 4, "total": 5}, lines[-1]
    assert "wrote 4 records of 5" in capsys.readouterr().err


def test_a_whole_stream_is_a_complete_run(capsys, monkeypatch, tmp_path):
    """Read to its end, a stream's --out table is complete with every line; an empty stream says so."""
    from sim.batch import read_metadata
    _stdin(monkeypatch, f"# two\n{EX}\n\nnonsense\n{EX2}\n".encode())
    out = tmp_path / "o.parquet"
    assert cli.main(["solve", "--file", "-", "--threads", "2", "--no-progress", "--no-pv", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "1 of 3 lines invalid" in err and "the first, line 4" in err, err
    md = read_metadata(out)
    assert md["complete"] is True and md["rows"] == md["total"] == 3, md
    _stdin(monkeypatch, b"# nothing\n\n")
    assert cli.main(["solve", "--file", "-", "--no-progress"]) == 0
    assert "no positions in standard input" in capsys.readouterr().err


def test_a_stream_waiting_for_its_next_line_stops_at_once_on_sigterm(tmp_path):
    """SIGTERM while the run waits for the producer's next line: it unwinds at once (exit 143, "brisca:
    terminated", the record made kept, marked incomplete), not after the 2 s grace as a process that
    could not unwind (new-user pass, 2026-12-06: every stop of an idle stream printed "stopped without
    unwinding", the waiting read being one blocking call)."""
    import signal
    import time
    from solver import Position, solve
    solve(Position.parse(EX))  # (the kernels the subprocess loads: a cold cache compiles them here first)
    out = tmp_path / "o.jsonl"
    p = subprocess.Popen([sys.executable, "-m", "sim.cli", "solve", "--file", "-", "--no-progress", "--no-pv",
                          "--out", str(out)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        p.stdin.write(EX + "\n")
        p.stdin.flush()
        line = read_line(p.stdout, 240)
        assert line and json.loads(line)["line"] == 1
        time.sleep(0.3)  # (waiting for line 2 now)
        t0 = time.monotonic()
        p.send_signal(signal.SIGTERM)
        rc = p.wait(30)
        took = time.monotonic() - t0
        err = p.stderr.read()
        assert rc == 143 and "without unwinding" not in err and "terminated" in err, (rc, err)
        assert took < 1.8, took
        lines = [json.loads(x) for x in out.read_text().splitlines()]
        assert lines[0]["line"] == 1 and lines[-1] == {"complete": False, "rows": 1, "total": 1}, lines
    finally:
        p.kill()
        p.wait()
        for fh in (p.stdin, p.stdout, p.stderr):
            fh.close()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs mkfifo")
def test_a_fifo_named_as_the_file_streams(capsys, tmp_path):
    """``--file FIFO`` is read as a stream, unbuffered from its descriptor (a first cut of the interruptible
    wait dropped the buffered reader and with it the file: "I/O operation on closed file")."""
    fifo = tmp_path / "ff"
    os.mkfifo(fifo)

    def write():
        with open(fifo, "w") as fh:
            fh.write(f"{EX}\n# c\n{EX2}\r")
    t = threading.Thread(target=write, daemon=True)
    t.start()
    assert cli.main(["solve", "--file", str(fifo), "--no-progress", "--no-pv"]) == 0
    t.join(10)
    assert [(json.loads(x)["line"], json.loads(x)["value"]) for x in capsys.readouterr().out.splitlines()] == \
        [(1, 26), (3, 10)]

