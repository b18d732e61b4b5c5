"""Break-it pass 7 of ``brisca solve --file`` (parquet and encoded input) and the final ``--out`` keeper
(helper, 2026-12-06). Each test failed on 84784a1 and passes since the faults were mended."""
from __future__ import annotations

import io
import json

import pytest

from solver import cli

EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
EX2 = "players=2 trump=11E hands=10O,2C,4E/11O,11C stock=12C turn=0 trick=10C points=27,76"


def _solve_file(capsys, path):
    rc = cli.main(["solve", "--file", str(path), "--no-progress", "--no-pv"])
    out, err = capsys.readouterr()
    return rc, [json.loads(x) for x in out.splitlines()], err


def test_parquet_with_two_position_columns_is_an_error_not_a_traceback(capsys, tmp_path):
    """Was a fault: a parquet table with two columns named "position" (pyarrow writes it; pandas reads it) passes the
    `"position" in names` check, then t.schema.field("position") raises KeyError: a Python traceback, exit 1.
    Should be one line naming the ambiguous column, exit 2."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    f = tmp_path / "dup.parquet"
    pq.write_table(pa.Table.from_arrays([pa.array([EX]), pa.array(["x"])], names=["position", "position"]), f)
    try:
        rc, recs, err = _solve_file(capsys, f)
    except KeyError as e:
        pytest.fail(f"a traceback (KeyError {e}) for a table with two position columns")
    assert rc == 2 and "position" in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("kind", ["pyarrow_dictionary", "pandas_categorical", "string_view"])
def test_parquet_position_column_of_text_in_another_arrow_type_is_read(capsys, tmp_path, kind):
    """Was a fault: a position column of text that is dictionary-encoded (pandas' `category` dtype, a common way to
    store a repeated string column; pyarrow's dictionary_encode) or pyarrow's string_view is refused,
    exit 2: 'its "position" column holds dictionary<values=string, indices=int8, ordered=0>, not text':
    it IS text. large_string is read (control)."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq
    f = tmp_path / "p.parquet"
    if kind == "pandas_categorical":
        pd.DataFrame({"position": pd.Categorical([EX, EX2, EX])}).to_parquet(f)
    else:
        arr = pa.array([EX, EX2, EX])
        arr = {"pyarrow_dictionary": lambda: arr.dictionary_encode(),
               "large_string": lambda: arr.cast(pa.large_string()),
               "string_view": lambda: arr.cast(pa.string_view())}[kind]()
        pq.write_table(pa.table({"position": arr}), f)
    rc, recs, err = _solve_file(capsys, f)
    assert rc == 0 and [r["value"] for r in recs] == [26, 10, 26], (kind, err)


def test_parquet_position_column_all_null_or_empty_from_pandas(capsys, tmp_path):
    """Was a fault (inconsistent): a string column with one null row gives that row an error record ("an empty
    (null) position in the table") and solves the others; but a column whose rows are ALL null, as
    pandas writes `position=[None, None]` (arrow type null), refuses the whole file, exit 2, 'holds null,
    not text'; and a zero-row table written by pandas (`pd.DataFrame({"position": []})`, type null) is
    refused while the same zero-row table with a string column is an empty run (exit 0). A null column
    holds no non-text value: all-null rows should be error records as a single null row is, zero rows an
    empty run."""
    import pandas as pd
    f = tmp_path / "n.parquet"
    pd.DataFrame({"position": [None, None]}).to_parquet(f)
    rc, recs, err = _solve_file(capsys, f)
    assert rc == 1 and [r["line"] for r in recs] == [1, 2] and all("error" in r for r in recs), err
    pd.DataFrame({"position": pd.Series([], dtype=object)}).to_parquet(f)
    rc, recs, err = _solve_file(capsys, f)
    assert rc == 0 and recs == [], err


class _Trickle(io.RawIOBase):
    """A pipe whose writer sends a few bytes first (a network stream, `(head -c 2 F; sleep 1; tail -c +3 F) |`):
    each read returns at most ``step`` bytes."""

    def __init__(self, data, step=2):
        self.data, self.pos, self.step = data, 0, step

    def readable(self):
        return True

    def readinto(self, b):
        n = min(len(b), self.step, len(self.data) - self.pos)
        b[:n] = self.data[self.pos:self.pos + n]
        self.pos += n
        return n


@pytest.mark.parametrize("what", ["parquet", "utf-16", "utf-32"])
def test_file_stdin_detects_parquet_and_byte_order_marks_when_the_pipe_delivers_few_bytes(capsys, monkeypatch,
                                                                                            tmp_path, what):
    """Was a fault: the format is decided by `raw.peek(4)[:4]`, but peek on a pipe (or FIFO) returns whatever one read
    gave, which can be fewer than 4 bytes: `(head -c 2 p.parquet; sleep 0.5; tail -c +3 p.parquet) | brisca
    solve --file -` reads the parquet as UTF-8 text (records 'PAR1\\u0015\\u0004...' errors, exit 1); UTF-16 with
    a mark after a 1-byte first read gives '\\ufffd\\ufffdp\\u0000l\\u0000...' errors; the same through
    `--file FIFO`. The first 4 bytes (or end of input) should be read before deciding."""
    if what == "parquet":
        pz = tmp_path / "p.parquet"
        assert cli.main(["solve", EX2, "--out", str(pz)]) == 0
        capsys.readouterr()
        data, step = pz.read_bytes(), 2
    else:
        data, step = (EX2 + "\n").encode(what), 1
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(_Trickle(data, step))))
    rc = cli.main(["solve", "--file", "-", "--no-progress", "--no-pv"])
    out, err = capsys.readouterr()
    assert rc == 0 and [json.loads(x).get("value") for x in out.splitlines()] == [10], (what, out[:300])


def test_sigterm_landing_as_the_command_returns_is_still_a_sigterm(monkeypatch):
    """Was a fault: seen for real: `brisca solve --file big2.txt --out o/r.parquet` (200,000 lines), `kill -TERM` 2.5 s
    after the last stdout line, as the final write ended: stderr "brisca: wrote 200000 records ..." then
    "brisca: interrupted", exit 130 instead of "brisca: terminated", exit 143 (README: 143 for SIGTERM).
    run_interruptible's worker records `KeyboardInterrupt()` whatever was injected when the exception lands
    after fn has returned (in done.set(), or in the inner except clause): a SIGTERM becomes a Ctrl-C. Same
    slowed Event as test_break_cli6's test of that race."""
    import os
    import signal
    import threading
    import time

    import sim.cli as scli

    returning = []

    class SlowEvent(threading.Event):
        def set(self):
            if returning:
                time.sleep(0.3)
            super().set()

    monkeypatch.setattr(threading, "Event", SlowEvent)
    old = signal.signal(signal.SIGTERM, scli._on_sigterm)

    def fn(args):
        time.sleep(0.2)
        os.kill(os.getpid(), signal.SIGTERM)  # SIGTERM as the command returns
        returning.append(1)
        return 0

    try:
        try:
            rc = scli.run_interruptible(fn, None, unwind=1.0, hard_exit=lambda c: c)
        except KeyboardInterrupt as e:
            assert isinstance(e, scli._Terminated), f"a SIGTERM reported as {type(e).__name__} (exit 130, 'interrupted')"
        else:
            assert rc in (0, 143), rc
    finally:
        signal.signal(signal.SIGTERM, old)
        time.sleep(0.5)


def _first_bar_close_interrupted(monkeypatch):
    """The progress bar's first ``close()`` raises ``KeyboardInterrupt``, as a signal landing there would.
    Only a bar made after this call counts: an earlier test's bar collected meanwhile (tqdm's ``__del__``
    closes it) took the one interruption now and then, and the command ran to its end (seen 2026-12-06)."""
    import tqdm
    real_init, real = tqdm.tqdm.__init__, tqdm.tqdm.close
    made = []  # ids of the bars made since the patch
    hit = []

    def init(self, *a, **kw):
        made.append(id(self))
        return real_init(self, *a, **kw)

    def close(self):
        if not hit and id(self) in made:
            hit.append(1)
            raise KeyboardInterrupt
        return real(self)

    monkeypatch.setattr(tqdm.tqdm, "__init__", init)
    monkeypatch.setattr(tqdm.tqdm, "close", close)


def test_signal_once_every_line_is_solved_but_before_the_final_write_keeps_the_whole_run(capsys, monkeypatch,
                                                                                        tmp_path):
    """Was a fault (a narrow race): every line solved, then Ctrl-C lands before `whole["rc"]` is set (in bar.close() or
    the `bad` list over all the records, or with --threads in ex.shutdown): keep() takes the interrupted
    path, _keep_partial: with an existing --out file, "interrupted: 2 records made and not written (F exists
    and is kept)": the whole run, all solved, is thrown away (README: "A signal that comes once every line is
    solved ... still leaves the whole run's file"); without one, the whole run is written with metadata
    complete=false although rows == total. Simulated: the bar's first close() raises KeyboardInterrupt, as the
    signal would."""
    from sim.batch import read_metadata
    f = tmp_path / "p.txt"
    f.write_text(EX + "\n" + EX2 + "\n")
    out = tmp_path / "o.parquet"
    assert cli.main(["solve", EX, "--out", str(out)]) == 0  # an existing --out file (1 record)
    capsys.readouterr()
    _first_bar_close_interrupted(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        cli.main(["solve", "--file", str(f), "--no-progress", "--no-pv", "--out", str(out)])
    md = read_metadata(out)
    assert md["rows"] == 2 and md["complete"] in (True, "true", "True"), (md, capsys.readouterr().err)


def test_a_further_signal_while_the_hard_exit_hook_waits_for_the_final_write_keeps_the_whole_run(tmp_path):
    """Was a fault: seen with the defaults: `brisca solve --file big2.txt --out o/r.parquet` (200,000 lines, all
    solved; the final write takes about 4 s), SIGINT 0.3 s into the final write, SIGINT again 2.3 s later:
    exit 130, "brisca: interrupted (stopped without unwinding, still running after 2 s ...; unfinished
    temporary files removed, files written above kept)" and NO o/r.parquet at all (also three SIGINTs 0.6 s
    apart). The first signal aborts the write and the keeper starts it again; after `unwind` seconds the main
    thread runs the hard-exit hooks, whose keep() waits (_once: finished.wait) for the worker's write; the
    next signal raises in that wait, the hook's `except BaseException: pass` swallows it, and
    remove_temporaries() deletes the worker's half-written file: the finished run is lost (README: a signal
    during the final write still leaves the whole run's file). Here unwind is 0.1 s so that a 40,000-line run
    shows it in seconds."""
    import os
    import signal
    import subprocess
    import sys
    import time

    f = tmp_path / "big.txt"
    f.write_text((EX + "\n" + EX2 + "\n") * 20000)
    out = tmp_path / "o.parquet"
    code = ("import os, sys; import sim.cli as s; s.run_interruptible.__defaults__ = (0.1, os._exit); "
            f"sys.argv = ['brisca', 'solve', '--file', {str(f)!r}, '--no-progress', '--out', {str(out)!r}]; s.main()")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         cwd=os.path.join(os.path.dirname(__file__), ".."))
    n = 0
    while n < 40000:
        chunk = p.stdout.read1(1 << 16)
        if not chunk:
            break
        n += chunk.count(b"\n")
    time.sleep(0.05)
    p.send_signal(signal.SIGINT)   # during the final write
    time.sleep(0.3)
    p.send_signal(signal.SIGTERM)  # while the hard-exit hook waits for the keeper's write
    p.stdout.read()
    err = p.stderr.read().decode()
    rc = p.wait(timeout=120)
    assert n == 40000 and rc in (130, 143), (n, rc, err)
    assert out.exists(), f"every line was solved and the --out file is gone: {err}"
    from sim.batch import read_metadata
    assert read_metadata(out)["rows"] == 40000
    assert not [x for x in os.listdir(tmp_path) if x.endswith(".tmp")]


def test_puzzles_signal_once_every_puzzle_is_found_but_before_the_final_write_keeps_the_whole_run(
        capsys, monkeypatch, tmp_path):
    """Was a fault (the same narrow race in brisca puzzles): all --count puzzles found, Ctrl-C lands in bar.close()
    before `whole["rc"] = 0`: keep() takes the interrupted path, and an existing --out file is kept while the
    whole run is dropped ("interrupted: 2 puzzles found and not written")."""
    out = tmp_path / "p.jsonl"
    out.write_text("old\n")
    _first_bar_close_interrupted(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        cli.main(["puzzles", "--count", "2", "--seed", "3", "--out", str(out), "--no-progress"])
    lines = out.read_text().splitlines()
    assert len(lines) == 2 and all(json.loads(x).get("position") for x in lines), (lines, capsys.readouterr().err)


def test_utf16_and_utf32_without_a_byte_order_mark_are_read(capsys, tmp_path):
    """Was a fault (lower severity; outside the documented "UTF-16 with a byte-order mark", but what `iconv -t UTF-16LE`
    and .NET's Encoding.Unicode.GetBytes write): 2 positions give 3 error records, exit 1, each an unclear
    message ("p\\x00l\\x00a\\x00y\\x00e\\x00r\\x00s\\x00: unknown field (expected one of players, ...)"; a
    phantom line 3, "\\x00", after the last newline). NUL bytes every other byte are unmistakable: the file
    should be decoded, or refused in one line naming UTF-16 (exit 2)."""
    f = tmp_path / "p.txt"
    for enc in ("utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"):
        for first in (EX, "# a comment", "{\"position\": \"" + EX + "\"}"):
            f.write_bytes((first + "\n" + EX2 + "\n").encode(enc))
            rc, recs, err = _solve_file(capsys, f)
            want = [26, 10] if first[0] != "#" else [10]
            assert rc == 0 and [r.get("value") for r in recs] == want, (enc, first, rc, recs[:1], err[:200])


def test_parquet_rows_are_read_as_lines_are(capsys, tmp_path):
    """A parquet table's position rows follow the text lines' rules: a '#' comment left out, a blank row
    skipped, a null row an error record, a row over MAX_LINE refusing the table (exit 2)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    f = tmp_path / "r.parquet"
    pq.write_table(pa.table({"position": [EX + "  # the README's", "  ", None, "# only a comment", EX2]}), f)
    rc, recs, err = _solve_file(capsys, f)
    assert rc == 1 and [r["line"] for r in recs] == [1, 3, 5], recs
    assert [r.get("value") for r in recs] == [26, None, 10] and "null" in recs[1]["error"], recs
    pq.write_table(pa.table({"position": [EX, "x" * (cli.MAX_LINE + 1)]}), f)
    rc, recs, err = _solve_file(capsys, f)
    assert rc == 2 and recs == [] and "row 2 of" in err and "longer than" in err, err


def test_file_without_positions_says_so(capsys, tmp_path):
    """An empty --file (or one of comments only, or a zero-row table) exits 0 as before but says that it
    held no positions (new-user pass of 2026-12-06: nothing at all was printed)."""
    f = tmp_path / "c.txt"
    for text in ("", "# only a comment\n\n"):
        f.write_text(text)
        rc, recs, err = _solve_file(capsys, f)
        assert rc == 0 and recs == [] and "no positions in" in err and str(f) in err, err
    f.write_text(EX + "\n")
    rc, recs, err = _solve_file(capsys, f)
    assert rc == 0 and len(recs) == 1 and "no positions" not in err
