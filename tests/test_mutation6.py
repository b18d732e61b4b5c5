"""Mutation testing, sixth pass (helper, 2026-12-06): the command line's and the output code's Python
(solver/cli.py's --file readers, keepers and writers; sim/cli.py's argument and interruption handling;
sim/batch.py's atomic writes and path checks).

Each test failed on one hand-made mutant that the rest of the suite let through, and passes on the code
(but the last, a check of what the helper suspected and the code does right).
"""
from __future__ import annotations

import io
import json
import os
import stat
import sys

import pytest

from sim import batch
from sim import cli as scli
from solver import cli

EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
EX2 = "players=2 trump=11E hands=10O,2C,4E/11O,11C stock=12C turn=0 trick=10C points=27,76"


def _lines(text):
    return [json.loads(x) for x in text.splitlines() if x.strip()]


def test_file_line_of_exactly_max_line_characters_is_read(capsys, tmp_path):
    """A last line of exactly MAX_LINE characters (no line end) is a line, not "longer than MAX_LINE"
    (mutant: ``len(line) >= MAX_LINE`` refused the file with exit 2)."""
    f = tmp_path / "p.txt"
    f.write_text(EX + "\n" + "#" + "x" * (cli.MAX_LINE - 1))  # (a comment line: skipped)
    assert cli.main(["solve", "--file", str(f), "--no-progress"]) == 0
    assert [r["line"] for r in _lines(capsys.readouterr().out)] == [1]
    f.write_text(EX + "\n" + "#" + "x" * cli.MAX_LINE)  # one more: refused, as documented
    assert cli.main(["solve", "--file", str(f), "--no-progress"]) == 2
    assert "longer than" in capsys.readouterr().err


def _parquet_file(path, array):
    import pyarrow as pa
    import pyarrow.parquet as pq
    pq.write_table(pa.table({"position": array}), path)


def test_file_parquet_null_position_is_an_error_record(capsys, tmp_path):
    """A null in a parquet --file's position column is that row's error record (exit 1), not a row
    silently left out (mutant: nulls skipped, exit 0)."""
    import pyarrow as pa
    f = tmp_path / "p.parquet"
    _parquet_file(f, pa.array([None, EX], pa.string()))
    assert cli.main(["solve", "--file", str(f), "--no-progress"]) == 1
    recs = _lines(capsys.readouterr().out)
    assert [r["line"] for r in recs] == [1, 2]
    assert "empty (null) position" in recs[0]["error"] and recs[1]["value"] == 26


def test_file_parquet_large_string_positions_are_read(capsys, tmp_path):
    """A position column of arrow's large_string (pandas' pyarrow strings, polars' default) is text too
    (mutant: only ``string`` accepted: "its position column holds large_string, not text", exit 2)."""
    import pyarrow as pa
    f = tmp_path / "p.parquet"
    _parquet_file(f, pa.array([EX], pa.large_string()))
    assert cli.main(["solve", "--file", str(f), "--no-progress"]) == 0
    assert [(r["line"], r["value"]) for r in _lines(capsys.readouterr().out)] == [(1, 26)]


def test_file_json_position_is_stripped_and_marker_lines_need_int_counts(capsys, tmp_path):
    """A JSON line's "position" loses its surrounding blanks (its error record names the text as a notation
    line's does; mutant: kept them); a line that looks like an interrupted run's marker but whose counts
    are not integers is an invalid line, not skipped."""
    f = tmp_path / "p.jsonl"
    f.write_text(json.dumps({"position": "  players=2 bad  "}) + "\n"
                 + json.dumps({"complete": False, "rows": "x", "total": 2}) + "\n"
                 + json.dumps({"complete": False, "rows": 1, "total": 2}) + "\n")
    assert cli.main(["solve", "--file", str(f), "--no-progress"]) == 1
    recs = _lines(capsys.readouterr().out)
    assert [r["line"] for r in recs] == [1, 2] and all("error" in r for r in recs)
    assert recs[0]["position"] == "players=2 bad"


def test_puzzles_out_write_failure_exits_1(capsys, tmp_path):
    """``brisca puzzles --out /dev/full``: the puzzles are found, the write fails: one line and exit 1
    (mutant: the keeper's ``whole["rc"] = 1`` dropped: exit 0 after the error)."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    rc = cli.main(["puzzles", "--count", "1", "--seed", "3", "--out", "/dev/full", "--no-progress"])
    err = capsys.readouterr().err
    assert rc == 1 and "--out: cannot write /dev/full" in err and "1 puzzle found" in err


def test_solve_out_jsonl_new_file_mode_follows_the_umask(capsys, tmp_path):
    """A new JSON-lines --out file is 0o644 less the umask, as a parquet --out (mutant: the temporary
    file's 0o600 kept: other users could not read the run's records)."""
    out = tmp_path / "o.jsonl"
    assert cli.main(["solve", EX, "--out", str(out), "--no-progress"]) == 0
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o644 & ~umask
    assert _lines(out.read_text())[0]["value"] == 26


def test_solve_file_flushes_each_record(monkeypatch, tmp_path):
    """Each record goes out as it is made (flushed): a stdout whose flush fails (a block-buffered pipe
    whose reader went away) is seen during the run, exit 141, --out still written whole (mutant: no
    flush: the failure went unseen and the run said 0)."""
    class Pipe(io.StringIO):
        def flush(self):
            if self.getvalue():
                raise BrokenPipeError(32, "Broken pipe")

    f = tmp_path / "p.txt"
    f.write_text(EX + "\n" + EX + "\n")
    out = tmp_path / "o.jsonl"
    monkeypatch.setattr("sys.stdout", Pipe())
    assert cli.main(["solve", "--file", str(f), "--out", str(out), "--no-progress"]) == 141
    assert [r["line"] for r in _lines(out.read_text())] == [1, 2]


def test_count_of_exactly_the_limit_is_too_large(capsys):
    """10**31 written out is "too large", as 1e31 is (mutant: ``abs(v) > _COUNT_LIMIT``)."""
    with pytest.raises(Exception, match="too large"):
        scli._count("1" + "0" * 31)
    assert scli._count("9" * 31) == 10 ** 31 - 1
    with pytest.raises(SystemExit):
        cli.main(["puzzles", "--count", "1" + "0" * 31])
    assert "is too large" in capsys.readouterr().err


def test_hard_exit_hooks_register_and_drop_quietly():
    """on_hard_exit returns its hook (a decorator); drop_hard_exit of a hook not registered (twice) is no
    error, as documented (mutant: ValueError)."""
    def hook():
        pass
    assert scli.on_hard_exit(hook) is hook
    scli.drop_hard_exit(hook)
    scli.drop_hard_exit(hook)
    assert hook not in scli._HARD_EXIT_HOOKS


def test_hard_exit_hooks_run_in_order_and_an_interrupted_one_is_ignored(monkeypatch, capsys):
    """Ctrl-C, the command stuck past the grace period: stdout is flushed (what was printed is kept:
    mutant, no flush before the hard exit), the hooks run in order of registration (mutant: newest
    first), one that is itself interrupted (a second Ctrl-C in the keeper's write) is ignored and the
    process still ends with 130 (mutant: only Exception ignored: the KeyboardInterrupt escaped
    run_interruptible, no exit)."""
    import signal
    import threading
    import time

    class Buffered(io.StringIO):
        flushed = ""

        def flush(self):
            self.flushed = self.getvalue()

    ran, codes = [], []

    def broken():
        ran.append("broken")
        raise KeyboardInterrupt

    def second():
        ran.append("second")

    def stuck(args):
        print("record 1")  # (a record printed, not yet flushed)
        time.sleep(2)  # (stands in for a compiled search)

    monkeypatch.setattr("sys.stdout", Buffered())
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    scli.on_hard_exit(broken)
    scli.on_hard_exit(second)
    try:
        threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)).start()
        try:
            scli.run_interruptible(stuck, None, unwind=0.2,
                                   hard_exit=lambda code: codes.append((code, sys.stdout.flushed)))
        except KeyboardInterrupt:  # (the hook's interruption escaped: caught here, or it would stop pytest)
            codes.append("escaped")
    finally:
        scli.drop_hard_exit(broken)
        scli.drop_hard_exit(second)
        signal.signal(signal.SIGINT, old)
    assert codes == [(130, "record 1\n")] and ran == ["broken", "second"]
    assert "interrupted (stopped without unwinding" in capsys.readouterr().err


def test_remove_temporaries_removes_the_empty_directories_made(tmp_path):
    """remove_temporaries (a process ending without unwinding) also removes the directories made for
    outputs and left empty (mutant: only the temporary files went)."""
    made = batch.make_parents(str(tmp_path / "new" / "deeper" / "o.parquet"))
    assert len(made) == 2 and (tmp_path / "new" / "deeper").is_dir()
    batch.remove_temporaries()
    assert not (tmp_path / "new").exists()


def test_out_hard_link_of_the_file_is_refused(capsys, tmp_path):
    """--out naming the --file input through a hard link is refused, the input kept (mutant: same_file by
    resolved names: the input was overwritten by the records)."""
    f = tmp_path / "p.txt"
    f.write_text(EX + "\n")
    link = tmp_path / "o.jsonl"
    os.link(f, link)
    assert batch.same_file(f, link) and not batch.same_file(f, tmp_path / "missing")
    assert cli.main(["solve", "--file", str(f), "--out", str(link), "--no-progress"]) == 2
    assert "it is the --file input" in capsys.readouterr().err
    assert f.read_text() == EX + "\n"


def test_device_open_problem_only_for_character_devices(tmp_path):
    """device_open_problem says nothing of what is no character device: a FIFO with no reader yet (which a
    non-blocking write-only open refuses with ENXIO) and a regular file (mutant: opened anyway)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    plain = tmp_path / "f"
    plain.write_text("x")
    assert batch.device_open_problem(fifo) is None
    assert batch.device_open_problem(plain) is None
    assert batch.device_open_problem("/dev/null") is None
    assert "cannot be opened" in batch.device_open_problem(tmp_path / "missing")


def test_write_table_of_no_rows_has_no_row_group(tmp_path):
    """An empty table is a file with the schema and no row group, as documented (mutant: an empty row
    group written)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    out = tmp_path / "e.parquet"
    batch.write_table(pa.table({"a": pa.array([], pa.int64())}), out, "--out")
    f = pq.ParquetFile(out)
    assert f.metadata.num_row_groups == 0 and f.metadata.num_rows == 0 and f.schema_arrow.names == ["a"]


def test_solve_file_interrupted_before_any_record_writes_nothing(capsys, monkeypatch, tmp_path):
    """Ctrl-C during the first line's solve: nothing made, so no --out file (not an empty table) and the
    directory --out made is removed (mutant: ``_keep_partial`` wrote an empty part)."""
    import solver.api

    real = solver.api.solve

    def first_interrupts(p, *a, **kw):
        if str(p) == EX2:  # (not EX: the warm-up solves that one)
            raise KeyboardInterrupt
        return real(p, *a, **kw)

    f = tmp_path / "p.txt"
    f.write_text(EX2 + "\n" + EX + "\n")
    out = tmp_path / "new" / "o.parquet"
    monkeypatch.setattr(solver.api, "solve", first_interrupts)
    with pytest.raises(KeyboardInterrupt):
        cli.main(["solve", "--file", str(f), "--no-progress", "--out", str(out)])
    assert not out.exists() and not (tmp_path / "new").exists()
    assert "wrote" not in capsys.readouterr().err


def test_solve_file_threads_signal_keeps_the_line_being_waited_for(capsys, monkeypatch, tmp_path):
    """--threads 2, Ctrl-C while the command waits for line 1 (still being solved): the executor lets the
    running solves finish, and the keeper writes every line solved, the one waited for included (mutant:
    ``futures[len(made) + 1:]`` lost that line)."""
    import signal
    import threading
    import time

    import solver.api

    real = solver.api.solve

    def slow_first(p, *a, **kw):
        if str(p) == EX2 and threading.current_thread() is not threading.main_thread():  # (not the warm-up)
            time.sleep(0.2)  # (every line submitted: the command waits for this one)
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C while the command waits for this line
            time.sleep(0.3)
        return real(p, *a, **kw)

    f = tmp_path / "p.txt"
    f.write_text(EX2 + "\n" + EX + "\n")
    out = tmp_path / "o.jsonl"
    monkeypatch.setattr(solver.api, "solve", slow_first)
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            cli.main(["solve", "--file", str(f), "--threads", "2", "--no-progress", "--out", str(out)])
    finally:
        signal.signal(signal.SIGINT, old)
    recs = _lines(out.read_text())
    assert [r.get("line") for r in recs[:-1]] == [1, 2] and recs[-1]["complete"] is False


def test_puzzles_with_stdout_closed_still_write_out(monkeypatch, capsys, tmp_path):
    """``brisca puzzles --out F >&-``: the puzzles go to F, so a closed stdout is no reason to refuse (it
    is without --out: exit 1 before searching; mutant: refused with --out too)."""
    out = tmp_path / "p.jsonl"
    monkeypatch.setattr("sys.stdout", scli._ClosedStream())
    assert cli.main(["puzzles", "--count", "1", "--seed", "3", "--out", str(out), "--no-progress"]) == 0
    assert len(_lines(out.read_text())) == 1
    assert cli.main(["puzzles", "--count", "1", "--seed", "3", "--no-progress"]) == 1
    assert "standard output is closed" in capsys.readouterr().err


def test_solve_file_threads_signal_while_lines_are_submitted_keeps_the_lines_solved(capsys, monkeypatch,
                                                                                      tmp_path):
    """--threads 2, Ctrl-C while the lines are still being handed to the workers (tens of thousands of
    lines take a while): the lines already solved are kept (the helper of the mutation pass of 2026-12-06
    suspected ``futures.extend(generator)`` of hiding the futures until every line was submitted; it
    appends them one by one, and this checks it)."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    real = ThreadPoolExecutor.submit
    n = []

    def submit(self, fn, *a, **kw):
        n.append(1)
        if len(n) == 3:  # the third line: the first two are solved by now, then Ctrl-C
            for _ in range(200):
                if all(x.done() for x in handed):
                    break
                time.sleep(0.01)
            raise KeyboardInterrupt
        fu = real(self, fn, *a, **kw)
        handed.append(fu)
        return fu

    handed = []
    f = tmp_path / "p.txt"
    f.write_text((EX + "\n" + EX2 + "\n") * 3)
    out = tmp_path / "o.jsonl"
    monkeypatch.setattr(ThreadPoolExecutor, "submit", submit)
    with pytest.raises(KeyboardInterrupt):
        cli.main(["solve", "--file", str(f), "--threads", "2", "--no-progress", "--out", str(out)])
    recs = _lines(out.read_text())
    assert [r.get("line") for r in recs[:-1]] == [1, 2] and [r["value"] for r in recs[:-1]] == [26, 10]
    assert recs[-1] == {"complete": False, "rows": 2, "total": 6}
