"""Break-it pass 15 on the reworked stream line reader of ``brisca solve --file -`` (bf7c766:
``solver.cli._StreamLines`` keeps a deque of items and ``ready()`` reads while ``select`` says data is
there until an item, the end or an error is in hand; ``_read_wait``, ``_Stream`` and the ``--threads``
loop of ``_solve_lines``).

Faults (each test named ``test_fault_*`` fails on bf7c766 and says what should happen):

1. A read error (EIO) in ``ready()``'s read escapes the run: ``ready()`` is called by the ``--threads``
   loop outside ``_Stream.__iter__``'s ``except OSError`` (and outside the loop's ``read`` wrapper), so
   the ``OSError`` leaves ``_solve_lines`` untouched: no ``_ReadAgainFailed``, no keeper. Observed
   (``--threads 2``, standard input a pty whose other end closed, 5 lines in it): exit 1 with
   ``brisca: error: writing the output failed: Input/output error`` (stdout blamed for a read of stdin),
   none of the 5 solved lines printed, no ``--out`` file (in-process, ``solver.cli.main`` raises the bare
   ``OSError: [Errno 5]``: a traceback under ``python -m solver.cli``). With ``--threads 1`` the same input gives the
   right run: ``--file: Input/output error: standard input``, the 5 lines printed and kept in ``--out``
   marked incomplete (rows = total = 5).
2. ``ready()`` reads for as long as ``select`` says data is there and no item has come: a producer that
   keeps blank (or comment) lines coming after a position (a keep-alive, or ``(echo POS; yes '')``) holds
   line 1's answer for as long as it writes, with ``--threads 2`` (``--threads 1`` answers at once):
   ``ready()`` never returns. ``(echo POS; yes '') | brisca solve --file - --threads 2`` prints nothing in
   15 s (``--threads 1``: line 1 at once); a subprocess given ``POS`` and 5 M blank lines at once answers
   line 1 after 3.9 s with ``--threads 2`` (0.5 s with ``--threads 1``): the delay grows with the backlog.
   Right: ``ready()`` reads a bounded amount (say one read) and then says "not now", so that the loop
   prints the answers it has before reading on. (Memory stays bounded: the blank lines are not held.)

Held (the passing tests): an over-long line after position lines through a real pipe with ``--threads 2``
(the lines before it printed in order, exit 2, ``--out`` marked incomplete with them); a coprocess through
a real pipe with ``--threads 3`` whose lines are followed by every kind of itemless line (blank, comment,
CRLF blank, a lone ``\\r`` end, a JSON ``"complete": false`` line) and by part of the next line; a
``KeyboardInterrupt`` landing in ``ready()``'s read with items pending in the deque (the records made are
kept, incomplete, nothing misordered); UTF-16 with a surrogate pair split across reads while ``select``
says readable (as the file reader); ``ready()`` after the end (True, the iteration ends, no extra read);
mixed lines (marks, CR/CRLF, blanks, comments, JSON lines, a bad line, no final end; UTF-8 and UTF-16) in a
real pipe with ``--threads 2`` and reads of 7 bytes or 64 KB: records, order and line numbers as the file's.
By hand: SIGTERM while ``ready()`` spins on ``yes ''`` (fault 2) exits 143 with the 2 solved lines kept in
``--out`` (``{"complete": false, "rows": 2, "total": 2}``).
Measured (`yes POS | head -n 2000000 | brisca solve --file - --threads 2`: 395 s on a loaded machine, about
5,100 lines/s, maxrss 302 MB, the same as 200,000 lines. 200,000 lines of one 2-player position, file / pipe, 2 shared cores, a 1-line run 0.6 s and
221 MB): ``--threads 1`` 24.9 s / 24.9 s (about 8,200 lines/s both), maxrss 230 MB / 231 MB;
``--threads 2`` 26.5 s / 25.9 s (7,700 / 7,900 lines/s), maxrss 298 MB / 298 MB: the pipe holds no more
than the file (the deque holds at most one 64 KB read's items). Note (no test): on Ctrl-C ``total`` is the
lines handed on (submitted), not the lines read: up to one read's items (about 650 lines) read into the
deque are in neither ``rows`` nor ``total`` (test_stdin_stream's docstring says "the lines read so far";
the README does not say; the old text-stream reader's buffer did the same).
"""
from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys
import threading
import tty

import pytest

from conftest import FirstLineOut
from solver import cli

EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
EX2 = "players=2 trump=11E hands=10O,2C,4E/11O,11C stock=12C turn=0 trick=10C points=27,76"
ROOT = os.path.join(os.path.dirname(__file__), "..")


@pytest.fixture(scope="module", autouse=True)
def _warm():
    cli._warm_up(False, {(2, False)}, note=False)


def _records(text):
    return [json.loads(x) for x in text.splitlines()]


# -- fault 1: EIO in ready()'s read ---------------------------------------------------------------------

def _pty_stdin(monkeypatch, data: bytes):
    """Standard input a pty's master with ``data`` in it and the slave closed: reads give ``data``, then
    EIO (as a terminal that went away); ``select`` says readable."""
    m, s = pty.openpty()
    tty.setraw(s)  # (no echo, no \n -> \r\n)
    os.write(s, data)
    os.close(s)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(io.FileIO(m, "rb"))))


@pytest.mark.parametrize("threads", [1, 2])
def test_fault_1_eio_in_ready_is_a_read_error_and_keeps_the_records(capsys, monkeypatch, tmp_path, threads):
    """Fault 1. Right (as ``--threads 1``, and as test_stdin_stream's EIO mid-stream): exit 1 and
    ``--file: Input/output error: standard input``, the lines read before it printed in order, ``--out``
    holds them marked incomplete (rows = total = 5). bf7c766 with ``--threads 2``: the OSError raised in
    ``ready()`` escapes ``_solve_lines``: "writing the output failed: Input/output error", nothing printed,
    no ``--out`` file."""
    _pty_stdin(monkeypatch, ((EX + "\n") * 5).encode())
    out = tmp_path / "o.jsonl"
    rc = cli.main(["solve", "--file", "-", "--threads", str(threads), "--no-progress", "--no-pv", "--out", str(out)])
    std = capsys.readouterr()
    assert "writing the output failed" not in std.err, std.err
    assert rc == 1 and "--file: Input/output error: standard input" in std.err, (rc, std.err)
    assert [r["line"] for r in _records(std.out)] == [1, 2, 3, 4, 5]
    assert out.exists(), "the 5 lines solved were not kept in --out"
    rows = _records(out.read_text())
    assert [r.get("line") for r in rows[:-1]] == [1, 2, 3, 4, 5]
    assert rows[-1] == {"complete": False, "rows": 5, "total": 5}, rows[-1]


# -- fault 2: ready() reads without bound while no item comes --------------------------------------------

@pytest.mark.parametrize("threads", [1, 2])
def test_fault_2_endless_blank_lines_do_not_hold_an_answer(monkeypatch, threads):
    """Fault 2. ``POS`` then blank lines written without end (``yes ''``) into a real pipe. Right: line 1's
    answer is printed at once (as with ``--threads 1``); bf7c766, ``--threads 2``: ``ready()`` reads the
    blank lines as long as they keep coming and the answer waits (here: until the producer is stopped after
    10 s)."""
    r, w = os.pipe()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(io.FileIO(r, "rb"))))
    out = FirstLineOut()
    monkeypatch.setattr("sys.stdout", out)
    os.write(w, (EX + "\n").encode())
    yes = subprocess.Popen(["yes", ""], stdout=w, stderr=subprocess.DEVNULL)
    os.close(w)
    rc = []
    t = threading.Thread(target=lambda: rc.append(cli.main(["solve", "--file", "-", "--threads", str(threads),
                                                            "--no-progress", "--no-pv"])), daemon=True)
    try:
        t.start()
        answered = out.first.wait(10)
    finally:
        yes.kill()
        yes.wait()
    t.join(60)
    assert rc == [0] and [r["value"] for r in _records(out.getvalue())] == [26]
    assert answered, f"line 1 unanswered for 10 s while blank lines kept coming (--threads {threads})"


# -- held ----------------------------------------------------------------------------------------------

def test_an_over_long_line_after_lines_threads_real_pipe(capsys, monkeypatch, tmp_path):
    """Holds: lines, then a line over MAX_LINE (read in ``ready()``: all of it is already in the pipe),
    then more lines, ``--threads 2``: the lines before it printed in order, exit 2 naming line 41, ``--out``
    holds the 40 lines marked incomplete; the lines after it are not solved."""
    monkeypatch.setattr(cli, "MAX_LINE", 1000)
    data = ((EX + "\n" + EX2 + "\n") * 20 + "x" * 1001 + "\n" + (EX + "\n") * 5).encode()
    r, w = os.pipe()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(io.FileIO(r, "rb"))))
    os.write(w, data)
    os.close(w)
    out = tmp_path / "o.jsonl"
    rc = cli.main(["solve", "--file", "-", "--threads", "2", "--no-progress", "--no-pv", "--out", str(out)])
    std = capsys.readouterr()
    assert rc == 2 and "line 41 of standard input is longer than" in std.err, (rc, std.err)
    assert [r["line"] for r in _records(std.out)] == list(range(1, 41))
    rows = _records(out.read_text())
    assert [r.get("line") for r in rows[:-1]] == list(range(1, 41))
    assert rows[-1] == {"complete": False, "rows": 40, "total": 40}, rows[-1]


def test_a_keyboard_interrupt_in_readys_read_keeps_what_was_made(capsys, monkeypatch, tmp_path):
    """Holds: Ctrl-C landing in the read ``ready()`` makes (items from an earlier read still pending):
    the records made are kept in ``--out``, in line order, marked incomplete, ``total`` the lines handed
    on (submitted) so far."""
    monkeypatch.setattr(cli, "_STREAM_READ", 300)  # (about 3 lines a read: items pending across reads)
    r, w = os.pipe()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(io.FileIO(r, "rb"), 1)))
    os.write(w, ((EX + "\n") * 40).encode())
    real, calls = cli._read_wait, []

    def read_wait(stream, n):
        calls.append(1)
        if len(calls) == 8:
            raise KeyboardInterrupt
        return real(stream, n)
    monkeypatch.setattr(cli, "_read_wait", read_wait)
    out = tmp_path / "o.jsonl"
    try:
        with pytest.raises(KeyboardInterrupt):
            cli.main(["solve", "--file", "-", "--threads", "2", "--no-progress", "--no-pv", "--out", str(out)])
    finally:
        os.close(w)
    std = capsys.readouterr()
    rows = _records(out.read_text())
    made = [r["line"] for r in rows[:-1]]
    assert made == list(range(1, len(made) + 1)) and made, made
    assert rows[-1]["complete"] is False and rows[-1]["rows"] == len(made) <= rows[-1]["total"], rows[-1]
    printed = [r["line"] for r in _records(std.out)]
    assert printed == made[:len(printed)]


def test_utf16_surrogate_pair_split_across_ready_reads(monkeypatch):
    """Holds: UTF-16-LE with a mark, a comment holding U+1F600 split between two reads of 3 bytes while
    ``select`` says readable: the items are the file reader's."""
    text = "\ufeff# \U0001F600 \U0001F600\n" + EX + "\n# \U0001F600\n" + EX2 + "\n"
    data = text.encode("utf-16-le")
    monkeypatch.setattr(cli, "_STREAM_READ", 3)
    r, w = os.pipe()
    os.write(w, data)
    os.close(w)
    raw = io.FileIO(r, "rb")
    head = cli._read_head(raw)
    lines = cli._StreamLines(cli._Prefixed(head, raw), cli._text_encoding(head), "-")
    got = []
    while True:
        assert lines.ready()
        item = next(iter(lines), None)
        if item is None:
            break
        got.append(item[:2])
    raw.close()
    assert got == [(2, EX), (4, EX2)]
    assert lines.ready()  # (after the end: True, and nothing more to read)


def test_coprocess_every_kind_of_line_threads_3_real_pipe():
    """Holds: a coprocess (``--threads 3``, a real pipe) writes a position followed by each kind of line that
    gives no item, or by part of its next line, and waits for the answer before writing more: every answer
    comes while the producer waits."""
    tails = ["\n\n", "\n# note\n", "\r\n\r\n", " \n   # note\r", '\n{"complete": false, "rows": 1, "total": 2}\n',
             "\n" + EX2[:25]]
    p = subprocess.Popen([sys.executable, "-m", "solver.cli", "solve", "--file", "-", "--threads", "3",
                          "--no-progress", "--no-pv"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=ROOT)
    try:
        got, pending = [], ""
        for k, tail in enumerate(tails):
            p.stdin.write((EX + tail).encode())
            p.stdin.flush()
            pending = EX2[25:] if tail.endswith(EX2[:25]) else ""
            box = []
            t = threading.Thread(target=lambda: box.append(p.stdout.readline()), daemon=True)
            t.start()
            t.join(240 if k == 0 else 15)  # (a cold numba cache compiles first)
            assert box and box[0], f"no answer after tail {tail!r} while the producer waits"
            got.append(json.loads(box[0])["value"])
        p.stdin.write((pending + "\n").encode())
        p.stdin.close()
        rest = p.stdout.read()
        assert p.wait(60) == 0
        got += [r["value"] for r in _records(rest.decode())]
        assert got == [26] * len(tails) + [10], got
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        for fh in (p.stdin, p.stdout, p.stderr):
            fh.close()


MIXED = ("\ufeff# head\r\n" + EX + "\r" + "\n\n  " + EX2 + "  # c\r\r\n" + "nonsense\n"
         + '{"position": "' + EX + '"}\n' + '{"complete": false, "rows": 3, "total": 4}\n' + "\u00e9\xff\n"
         + (EX2 + "\n# x\n") * 5 + EX)


@pytest.mark.parametrize("size", [7, 1 << 16])
@pytest.mark.parametrize("enc", ["utf-8", "utf-16"])
def test_threads_real_pipe_records_as_the_file(capsys, monkeypatch, tmp_path, size, enc):
    """Holds: mixed lines (marks, CR/CRLF ends, blanks, comments, JSON lines, a bad line, no final end)
    in a real pipe read by ``ready()`` with ``--threads 2``: the records, their order and line numbers are
    the file's."""
    data = MIXED.encode(enc, errors="replace")
    f = tmp_path / "in.txt"
    f.write_bytes(data)
    rc_file = cli.main(["solve", "--file", str(f), "--threads", "2", "--no-progress", "--no-pv"])
    want = [{k: v for k, v in r.items() if k != "ms"} for r in _records(capsys.readouterr().out)]
    monkeypatch.setattr(cli, "_STREAM_READ", size)
    r, w = os.pipe()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(io.FileIO(r, "rb"), 1)))
    os.write(w, data)
    os.close(w)
    rc = cli.main(["solve", "--file", "-", "--threads", "2", "--no-progress", "--no-pv"])
    got = [{k: v for k, v in r.items() if k != "ms"} for r in _records(capsys.readouterr().out)]
    assert (rc, got) == (rc_file, want)
    assert len(want) >= 8
