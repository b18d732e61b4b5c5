"""Break-it pass 11 on ``brisca solve --file``'s streaming read (commit 25c8bbb): a seekable file is read
twice, and what the second read finds must end the run as a change of the file does (exit 1, what was
solved printed and kept, the --out file marked incomplete), whether the run uses one thread or two. Each test failed on a3cdb9e (five faults) and passes since."""
from __future__ import annotations

import json

import pytest

from solver import cli

EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"


def _change_after_warm_up(monkeypatch, change):
    """Run ``change()`` between the first read of --file and the second (after the kernels' warm-up)."""
    real = cli._warm_up

    def warm(*a, **kw):
        real(*a, **kw)
        change()
    monkeypatch.setattr(cli, "_warm_up", warm)


def _solve(path, *extra):
    return cli.main(["solve", "--file", str(path), "--no-progress", "--no-pv", *extra])


def _change_at_solve(monkeypatch, k, change):
    """Run ``change()`` as line ``k`` is solved (the second read under way)."""
    import solver.api as api
    real, calls = api.solve, []

    def solve(*a, **kw):
        calls.append(1)
        if len(calls) == k:
            change()
        return real(*a, **kw)
    monkeypatch.setattr(api, "solve", solve)


def test_line_grown_too_long_between_reads_is_a_change_not_a_traceback(capsys, monkeypatch, tmp_path):
    """Line 250 of 300 rewritten in place as a line over MAX_LINE while line 1 is solved (past the
    reader's buffer): the second read's ValueError escaped cmd_solve (a traceback, and --out's solved
    records lost); it ends the run as any change of the file does (exit 1, lines 1-249 kept, the file
    marked incomplete)."""
    f, out = tmp_path / "p.txt", tmp_path / "o.jsonl"
    f.write_text((EX + "\n") * 300)
    monkeypatch.setattr(cli, "MAX_LINE", 200)

    def rewrite():
        with open(f, "r+") as fh:
            fh.seek(249 * (len(EX) + 1))
            fh.write("x" * 300)
    _change_at_solve(monkeypatch, 2, rewrite)  # (the warm-up's solve is the first)
    assert _solve(f, "--out", str(out)) == 1
    err = capsys.readouterr().err
    assert "changed while it was solved: --file: line 250" in err and "longer than 200 characters" in err, err
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r.get("line") for r in lines[:-1]] == list(range(1, 250))
    assert lines[-1] == {"complete": False, "rows": 249, "total": 300}


@pytest.mark.parametrize("change", ["append", "truncate"])
def test_threads_keep_and_print_the_lines_read_before_the_change(capsys, monkeypatch, tmp_path, change):
    """The file grows (or shrinks to 2 lines) while line 1 is solved. One thread prints every line it read
    and keeps them; with --threads 2 the reader's error came out of the submitting loop and the pool was
    shut down with cancel_futures=True: no record was printed at all and lines already read (submitted)
    were cancelled. Now both runs print and keep the same lines."""
    f, out = tmp_path / "p.txt", tmp_path / "o.jsonl"
    n = 300  # (past the reader's buffer: a truncation is seen)

    def edit():
        if change == "append":
            with open(f, "a") as fh:
                fh.write(EX + "\n")
        else:
            f.write_text((EX + "\n") * 2)
    got = {}
    for threads in ("1", "2"):
        f.write_text((EX + "\n") * n)
        if out.exists():
            out.unlink()
        with monkeypatch.context() as m:
            _change_at_solve(m, 2, edit)
            rc = _solve(f, "--threads", threads, "--out", str(out))
        err = capsys.readouterr()
        printed = [json.loads(x)["line"] for x in err.out.splitlines()]
        assert "changed while it was solved" in err.err
        kept = [r.get("line", r) for r in map(json.loads, out.read_text().splitlines())]
        got[threads] = (rc, printed, kept)
    rc, printed, kept = got["1"]
    assert rc == 1
    if change == "append":  # every counted line solved, kept as an interrupted run's (break-it pass 12)
        assert printed == list(range(1, n + 1)) and kept == printed + [{"complete": False, "rows": n, "total": n}]
    else:  # the lines read before the cut (the reader's buffer), kept and marked incomplete
        k = len(printed)
        assert 2 <= k < n and printed == list(range(1, k + 1))
        assert kept == printed + [{"complete": False, "rows": k, "total": n}]
    assert got["2"] == got["1"]


EX2 = "players=2 trump=11E hands=10O,2C,4E/11O,11C stock=12C turn=0 trick=10C points=27,76"

_LIMITED = """
import resource, sys
from solver import api, cli
cli._warm_up(False, {(2, False)}, note=False)  # (before the limit: a cold numba cache is written here, not under it)
resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]), resource.RLIM_INFINITY))
from sim.cli import main
main(sys.argv[2:])
"""


def test_spill_over_the_file_size_limit_does_not_lose_a_table_that_fits(tmp_path):
    """A file size limit (``ulimit -f``; a nearly full disk likewise) that the run's temporary file of
    records (cli._Spill: JSON text, ~0.3 KB a record) outgrows but the parquet table (~5 KB here) does not.
    be42aa1 (records in memory) wrote the table, exit 0. Now the spill's buffered write fails at a
    flush, the records past it go to memory but the bytes stuck in the BufferedRandom's buffer are
    flushed again when the spill is read back (and again when it is closed): the final write fails
    "File too large", exit 1, no table; and the close in cmd_solve's finally raises once more
    ("writing the output failed")."""
    import subprocess
    import sys

    f, out = tmp_path / "p.txt", tmp_path / "o.parquet"
    f.write_text((EX + "\n" + EX2 + "\n") * 300)
    r = subprocess.run([sys.executable, "-c", _LIMITED, "60000", "solve", "--file", str(f), "--no-progress",
                        "--no-pv", "--out", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                       cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    from sim.batch import read_metadata
    meta = read_metadata(out)
    assert meta["complete"] and meta["rows"] == 600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.parquet", "p.txt"]  # (no stray file)


def test_interrupt_after_a_failed_spill_write_stays_an_interrupt(monkeypatch, tmp_path):
    """The spill's file fills up (ENOSPC: a full disk, space freed later for the table), then Ctrl-C at
    line 50. The run must end as an interrupted one (KeyboardInterrupt: exit 130/143) with the 49
    records made kept in --out, marked incomplete. Got (25c8bbb): the bytes left in the spill's BufferedRandom
    buffer made the keeper's read fail ("No space left on device (49 records made)", nothing written),
    and cmd_solve's ``finally: records.close()`` flushed them again and raised OSError, which replaced
    the KeyboardInterrupt (sim.cli: exit 1 "writing the output failed" instead of 130/143)."""
    import errno
    real_write = cli._Spill._write

    def full(self, data):
        if self._size + len(data) > 4000:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_write(self, data)
    monkeypatch.setattr(cli._Spill, "_write", full)
    monkeypatch.setattr(cli, "_SPILL_WRITE", 200)  # (a few records a write)
    real = cli._record

    def record(res, line=None):
        if line == 50:
            raise KeyboardInterrupt
        return real(res, line)
    monkeypatch.setattr(cli, "_record", record)
    f, out = tmp_path / "p.txt", tmp_path / "o.jsonl"
    f.write_text((EX + "\n") * 60)
    with pytest.raises(KeyboardInterrupt):
        _solve(f, "--out", str(out))
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["line"] for r in lines[:-1]] == list(range(1, 50))
    assert lines[-1] == {"complete": False, "rows": 49, "total": 60}


def test_rewritten_in_place_with_as_many_lines_is_a_change(capsys, monkeypatch, tmp_path):
    """The file rewritten in place (``open(f, "w")``: same inode, another size and time) with as many
    position lines after the first read: the run solved the new text without a word and exit 0, though
    the count, the kinds warmed up and the line checks came from the old one (a new 4-player line
    would be timed with its compile). A change the file's fstat shows (size, mtime_ns) must end the run
    as a change of the line count does: exit 1 naming it."""
    f = tmp_path / "p.txt"
    f.write_text((EX + "\n") * 3)
    _change_after_warm_up(monkeypatch, lambda: f.write_text((EX2 + "\n") * 3))
    assert _solve(f) == 1
    assert "changed while it was solved" in capsys.readouterr().err
