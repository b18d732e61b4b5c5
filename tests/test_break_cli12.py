"""Break-it pass 12 on pass 11's fixes to ``brisca solve --file`` (b1d2d3c): the deferred change of the
file with --threads, the spill's fallback to memory, the stamp check. Each test fails on b1d2d3c."""
from __future__ import annotations

import json

import pytest

from solver import cli
from test_break_cli11 import _change_at_solve, _solve  # (the file changed as a line is solved)

EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"


@pytest.mark.parametrize("threads", ["1", "2"])
def test_signal_during_the_write_after_a_change_still_keeps_the_records(monkeypatch, tmp_path, threads):
    """The file grows while line 1 is solved (every counted line is still solved), and Ctrl-C/SIGTERM
    lands in the final write (the keeper). A run without the change runs the keeper again on that
    interrupt (``except KeyboardInterrupt: keep()``) and leaves the whole run's file; the change's
    handler (``except _ReadAgainFailed``) calls keep() outside that clause: the interrupt aborts the
    write and nothing is written."""
    f, out = tmp_path / "p.txt", tmp_path / "o.jsonl"
    f.write_text((EX + "\n") * 300)  # (more than --threads 2 reads ahead: the append is met at the end)
    real, calls = cli._write_records, []

    def write(*a, **kw):
        calls.append(1)
        if len(calls) == 1:
            raise KeyboardInterrupt  # (the signal landing in the write)
        return real(*a, **kw)
    monkeypatch.setattr(cli, "_write_records", write)

    def grow():
        with open(f, "a") as fh:
            fh.write(EX + "\n")
    _change_at_solve(monkeypatch, 2, grow)
    with pytest.raises(KeyboardInterrupt):
        _solve(f, "--threads", threads, "--out", str(out))
    assert out.exists(), "every record lost"
    recs = [json.loads(x) for x in out.read_text().splitlines()]  # (a changed file's run: kept as interrupted)
    assert [r["line"] for r in recs[:-1]] == list(range(1, 301))
    assert recs[-1] == {"complete": False, "rows": 300, "total": 300}


class _Pipe:
    """A stdout whose reader goes away after the first line (``| head -1``)."""

    def __init__(self):
        self.lines = []

    def write(self, s):
        if self.lines and s.strip():
            raise BrokenPipeError(32, "Broken pipe")
        if s.strip():
            self.lines.append(s)
        return len(s)

    def flush(self):
        pass


def test_head_closed_then_a_change_ahead_is_still_a_closed_pipe(monkeypatch, tmp_path):
    """``brisca solve --file F --threads 2 | head -1``, F cut to its first 2 lines while line 1 is
    solved. The run stops at line 2 (stdout gone, no --out): one thread ends quietly with 141 (the
    cut, past where it stopped, is never read); with --threads 2 the reader, 64 lines ahead, has met
    the cut, and pass 11's deferred error is raised after the ``break``: exit 1 and "changed while it
    was solved" about lines nobody would see. A run stopped by its closed stdout must end as one
    (141, quiet) whatever --threads says, as pass 11 made the two agree on the lines emitted."""
    f = tmp_path / "p.txt"
    long = EX + " # " + "x" * 4000 + "\n"  # (a line past half the reader's 8 KB buffer)
    got = {}
    for threads in ("1", "2"):
        f.write_text(long * 300)
        pipe = _Pipe()
        with monkeypatch.context() as m:
            m.setattr("sys.stdout", pipe)
            _change_at_solve(m, 2, lambda: f.write_text(long * 2))
            got[threads] = (_solve(f, "--threads", threads), len(pipe.lines))
    assert got == {"1": (141, 1), "2": (141, 1)}


def test_a_change_during_the_count_is_one_too(capsys, monkeypatch, tmp_path):
    """The file's stamp was taken after the first read: a rewrite during it (as many lines) went unseen and
    the run solved lines its warm-up and checks had not read. The stamp is taken before the count now."""
    f = tmp_path / "p.txt"
    f.write_text((EX + "\n") * 3)
    real, calls = cli._scan_kind, []

    def scan(text):
        calls.append(1)
        if len(calls) == 1:
            f.write_text((EX.replace("points=62,17", "points=60,19") + "\n") * 3)
        return real(text)
    monkeypatch.setattr(cli, "_scan_kind", scan)
    assert _solve(f) == 1
    out = capsys.readouterr()
    assert out.out == "" and "written to since it was read" in out.err


def test_threads_report_a_write_after_the_reader_ended(capsys, monkeypatch, tmp_path):
    """With --threads 2 a file of fewer lines than the window is read to its end before line 1 is solved:
    a write after that went unreported (exit 0) where one thread reported it. Both report it now."""
    import os
    f = tmp_path / "p.txt"
    for threads in ("1", "2"):
        f.write_text((EX + "\n") * 10)
        st = f.stat()
        with monkeypatch.context() as m:
            _change_at_solve(m, 4, lambda: os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9)))
            assert _solve(f, "--threads", threads) == 1, threads
        out = capsys.readouterr()
        assert len(out.out.splitlines()) == 10 and "written to while it was solved" in out.err, threads


def test_a_changed_file_never_replaces_an_existing_output(capsys, monkeypatch, tmp_path):
    """Lines appended during the run, every counted line solved: the output was the whole run's,
    replacing an existing --out file though the run ended on the change (exit 1). It is kept now, as an
    interrupted run keeps it."""
    f, out = tmp_path / "p.txt", tmp_path / "o.jsonl"
    f.write_text((EX + "\n") * 300)
    out.write_text("old\n")

    def grow():
        with open(f, "a") as fh:
            fh.write(EX + "\n")
    _change_at_solve(monkeypatch, 2, grow)
    assert _solve(f, "--out", str(out)) == 1
    err = capsys.readouterr().err
    assert out.read_text() == "old\n" and "exists and is kept" in err, err
