"""Break-it pass 6 of ``brisca solve --file`` / ``brisca puzzles`` (helper, 2026-12-06).

Each test failed on the code it was written against (27888e5) and passes since the faults were mended.
"""
from __future__ import annotations

import json

import pytest

from sim.batch import read_metadata
from solver import cli

EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
EX2 = "players=2 trump=11E hands=10O,2C,4E/11O,11C stock=12C turn=0 trick=10C points=27,76"


def _interrupt_first_write(monkeypatch, name):
    """Ctrl-C (or SIGTERM) arriving while the finished run's --out file is being written: the first call
    of cli.<name> raises KeyboardInterrupt, as the signal does in the middle of the write; later calls
    (the keeper's) go through."""
    real = getattr(cli, name)
    calls = []

    def write(*a, **kw):
        calls.append(kw)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return real(*a, **kw)

    monkeypatch.setattr(cli, name, write)
    return calls


@pytest.mark.parametrize("suffix,writer", [(".parquet", "_write_parquet"), (".jsonl", "_write_text")])
def test_solve_file_interrupted_during_final_out_write_keeps_the_whole_run(capsys, monkeypatch, tmp_path,
                                                                          suffix, writer):
    """Was a fault: every line was solved (and printed), then Ctrl-C landed while --out was being written (about
    0.6 s for 60,000 records: `kill -INT` right after the last stdout line): exit 130, "brisca: interrupted",
    and NO --out file at all: the whole run's records are thrown away, although the help promises that an
    interrupted --file run writes the records made so far to an --out file that did not exist. The
    keeper (_keep_partial) is unregistered (drop_hard_exit) before _write_or_fail, and _write_or_fail is
    outside the `except KeyboardInterrupt: keep()`."""
    f = tmp_path / "p.txt"
    f.write_text(EX + "\n" + EX2 + "\n")
    out = tmp_path / ("o" + suffix)
    _interrupt_first_write(monkeypatch, writer)
    with pytest.raises(KeyboardInterrupt):
        cli.main(["solve", "--file", str(f), "--no-progress", "--out", str(out)])
    assert out.exists(), "the records of a finished run were all lost: no --out file"
    if suffix == ".parquet":
        md = read_metadata(out)
        assert md["rows"] == 2 and md["complete"] in (True, "true", "True"), md
    else:
        recs = [json.loads(x) for x in out.read_text().splitlines()]
        assert [r.get("line") for r in recs if "line" in r] == [1, 2]


def test_puzzles_interrupted_during_final_out_write_keeps_the_whole_run(capsys, monkeypatch, tmp_path):
    """Was a fault, the same in brisca puzzles: the puzzles were all found, Ctrl-C during the final --out write:
    no file (the help: interrupted, the puzzles found so far are written to an --out file that did not
    exist)."""
    out = tmp_path / "p.jsonl"
    _interrupt_first_write(monkeypatch, "_write_text")
    with pytest.raises(KeyboardInterrupt):
        cli.main(["puzzles", "--count", "2", "--seed", "3", "--out", str(out), "--no-progress"])
    assert out.exists(), "the puzzles found were all lost: no --out file"


def test_interrupt_as_the_command_returns_prints_no_traceback(monkeypatch):
    """Was a fault (a race, seen for real): `brisca solve --file F --out O.jsonl` (60,000 lines) interrupted with
    SIGINT just as it finished printed

        brisca: wrote 60000 records to f.jsonl
        Exception in thread brisca-command:
        Traceback (most recent call last):
          ...
          File ".../sim/cli.py", line 537, in work
            done.set()
          ...
        KeyboardInterrupt
        brisca: interrupted (stopped without unwinding, still running after 2 s: ...)

    run_interruptible's worker catches the injected KeyboardInterrupt around fn and in its except clause,
    but not when it lands in the `finally: done.set()`: the thread dies with a traceback, `done` is never
    set, and the main thread waits the whole unwind time and then ends the process "without unwinding"
    (a wrong message: the command had finished). Here Event.set is slowed (as the GIL hand-over slows it
    in the real run) so that the injected exception lands there."""
    import os
    import signal
    import threading
    import time

    import sim.cli as scli

    returning = []

    class SlowEvent(threading.Event):
        def set(self):
            if returning:  # (only `done`, once the command has returned)
                time.sleep(0.3)  # (the injected exception is raised at the next bytecode after this)
            super().set()

    seen = []
    monkeypatch.setattr(threading, "Event", SlowEvent)
    monkeypatch.setattr(threading, "excepthook", lambda a: seen.append(a.exc_type))
    exits = []

    def fn(args):
        time.sleep(0.2)  # (the main thread is waiting for the command)
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C as the command returns
        returning.append(1)
        return 0

    try:
        scli.run_interruptible(fn, None, unwind=1.0, hard_exit=exits.append)
    except KeyboardInterrupt:
        pass  # (an interruption reported as such is fine)
    time.sleep(0.5)
    assert seen == [], f"a traceback from the command thread: {seen}"
    assert exits == [], "the process was ended 'without unwinding' although the command had returned"


def test_solve_file_reads_utf16_with_a_byte_order_mark(capsys, tmp_path):
    """Was a fault: a UTF-16 file (what Windows PowerShell 5's `>` and Notepad's "Unicode" save write; byte-order
    mark FF FE) of 2 positions gave 5 "invalid" records (line numbers 1-5 for a 2-line file: the NUL bytes
    of "\\r\\0\\n\\0" split the lines again), each an error such as
    '\\ufffd\\ufffdp\\x00l\\x00a\\x00...: unknown field', exit 1: nothing says the file is UTF-16. The UTF-8
    byte-order mark is skipped on purpose; a UTF-16 one should be decoded (both positions solved, lines 1
    and 2) or refused with one clear line (exit 2, naming UTF-16)."""
    f = tmp_path / "p.txt"
    for enc in ("utf-16", "utf-16-be", "utf-32"):
        bom = {"utf-16-be": "\ufeff"}.get(enc, "")  # (utf-16 and utf-32 write their own mark)
        f.write_bytes((bom + EX + "\r\n# a comment\r\n" + EX2 + "\r\n").encode(enc))
        rc = cli.main(["solve", "--file", str(f), "--no-progress", "--no-pv"])
        out, err = capsys.readouterr()
        recs = [json.loads(x) for x in out.splitlines()]
        assert rc == 0 and [r["line"] for r in recs] == [1, 3] and [r["value"] for r in recs] == [26, 10], (enc, recs)


def test_solve_file_reads_a_parquet_tables_position_column(capsys, tmp_path):
    """Was a fault: `brisca puzzles --out p.parquet` (a documented format), then `brisca solve --file p.parquet`
    (the --file help: "a JSON object line (brisca puzzles, solve --json) gives its position"): the binary
    table is read as text, 51 garbage "error" records for 5 puzzles ("position: 'PAR1\\x15\\x04...' is not a
    key=value field"), exit 1. A binary file should be refused with one clear line (exit 2: --file reads
    text, one position a line; this is a parquet table), or its position column read."""
    pz = tmp_path / "p.parquet"
    assert cli.main(["puzzles", "--count", "2", "--seed", "3", "--out", str(pz), "--no-progress"]) == 0
    capsys.readouterr()
    rc = cli.main(["solve", "--file", str(pz), "--no-progress", "--no-pv"])
    out, err = capsys.readouterr()
    recs = [json.loads(x) for x in out.splitlines()]
    import pandas as pd
    want = pd.read_parquet(pz)
    assert rc == 0 and [r["line"] for r in recs] == [1, 2] and all("error" not in r for r in recs), recs
    assert [r["position"] for r in recs] == list(want["position"])
    # a puzzle's value is the puzzle's: the answer's value, the best
    assert [r["value"] for r in recs] == list(want["value"]) and [r["best"] for r in recs] == [[m] for m in want["move"]]
    # what is not a table of positions: one line naming it, exit 2, nothing on stdout
    pd.DataFrame({"x": ["a"]}).to_parquet(tmp_path / "nopos.parquet")
    pd.DataFrame({"position": [1, 2]}).to_parquet(tmp_path / "int.parquet")
    (tmp_path / "cut.parquet").write_bytes(pz.read_bytes()[:1000])
    for name, says in (("nopos", 'without a "position" column (its columns: x)'), ("int", "holds int64, not text"),
                       ("cut", "cannot be read")):
        rc = cli.main(["solve", "--file", str(tmp_path / f"{name}.parquet"), "--no-progress"])
        out, err = capsys.readouterr()
        assert rc == 2 and out == "" and says in err and len(err.strip().splitlines()) == 1, (name, err)


def test_solve_file_with_a_huge_line_gives_an_error_not_a_traceback(tmp_path):
    """Was a fault: --file read each line whole before looking at it, with no length limit: a 4 GB file of one
    line (here sparse: `truncate -s 4G F`, no disk used; the same for `--file /dev/zero`, a binary file
    without newlines, a file of one giant JSON value) grows the process until memory runs out. On this
    machine (24 GB, no swap) the kernel's OOM killer would end it, or a neighbour; under a memory limit
    (ulimit -v 3000000, as here) it ends on a Python traceback, `MemoryError`, exit 1. A line far beyond any
    position (positions are under 1 KB) should be refused by its number, exit 1 or 2, without reading it
    into memory and without a traceback."""
    import os
    import resource
    import subprocess
    import sys

    f = tmp_path / "huge.txt"
    with open(f, "wb") as fh:
        fh.truncate(4 << 30)

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

    p = subprocess.run([sys.executable, "-m", "sim.cli", "solve", "--file", str(f), "--no-progress"],
                       capture_output=True, text=True, timeout=300, preexec_fn=limit,
                       cwd=os.path.join(os.path.dirname(__file__), ".."))
    assert "Traceback" not in p.stderr and "MemoryError" not in p.stderr, p.stderr[-800:]
    assert p.returncode in (1, 2) and p.stderr.strip(), p.stderr[-800:]


def test_solve_file_from_stdin_utf16_parquet_and_an_overlong_line(capsys, monkeypatch, tmp_path):
    """--file - decodes standard input as a file: UTF-16 with its mark, a parquet table's position column;
    a line longer than MAX_LINE (lowered here) refuses the input by its line number, exit 2 (break-it pass of
    2026-12-06), nothing solved when it is the first: standard input streams, so the lines before it are
    solved and printed (2026-12-06, fifth part)."""
    import io

    def stdin(data):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(data))))

    stdin((EX + "\n" + EX2 + "\n").encode("utf-16"))
    assert cli.main(["solve", "--file", "-", "--no-progress", "--no-pv"]) == 0
    assert [json.loads(x)["value"] for x in capsys.readouterr().out.splitlines()] == [26, 10]
    pz = tmp_path / "p.parquet"
    assert cli.main(["solve", EX2, "--out", str(pz)]) == 0
    capsys.readouterr()
    stdin(pz.read_bytes())
    assert cli.main(["solve", "--file", "-", "--no-progress", "--no-pv"]) == 0
    assert [json.loads(x)["value"] for x in capsys.readouterr().out.splitlines()] == [10]
    monkeypatch.setattr(cli, "MAX_LINE", len(EX) + 10)
    stdin((EX + "\n" + EX + " " * 10 + "# too long\n" + EX2 + "\n").encode())
    assert cli.main(["solve", "--file", "-", "--no-progress", "--no-pv"]) == 2
    out, err = capsys.readouterr()  # (standard input streams: the line before it is solved and printed)
    assert [json.loads(x)["line"] for x in out.splitlines()] == [1], out
    assert "line 2 of standard input is longer than" in err, err
    stdin((EX + " " * 10 + "# too long\n" + EX2 + "\n").encode())  # (a first line: nothing solved)
    assert cli.main(["solve", "--file", "-", "--no-progress"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "line 1 of standard input is longer than" in err, err
    stdin((EX + " " * 9 + "\n").encode())  # (MAX_LINE characters and its newline: read)
    assert cli.main(["solve", "--file", "-", "--no-progress", "--no-pv"]) == 0
    assert [json.loads(x)["value"] for x in capsys.readouterr().out.splitlines()] == [26]
