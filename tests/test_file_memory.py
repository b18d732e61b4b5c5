"""``brisca solve --file`` keeps what it must and no more (2026-12-06, third part): without ``--out`` a
solved line's record is printed and dropped, and with ``--threads`` the lines are handed to the workers
a window ahead of the line printed, not all at once (a finished future holds its record). Before, a
million-line file held every record (about 2.4 KB each) however it was run. Also the position argument
with a UTF-8 byte-order mark in front, which ``--file`` already skipped."""
from __future__ import annotations

import json
import os

import pytest

from solver import cli

EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
EX2 = "players=2 trump=11E hands=10O,2C,4E/11O,11C stock=12C turn=0 trick=10C points=27,76"


class _Counted(dict):
    """A record that counts how many of its kind are alive."""
    alive = 0
    most = 0

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        _Counted.alive += 1
        _Counted.most = max(_Counted.most, _Counted.alive)

    def __del__(self):
        _Counted.alive -= 1


@pytest.mark.parametrize("threads,out", [(1, None), (2, None), (1, "o.parquet"), (2, "o.jsonl")])
def test_solve_file_does_not_keep_every_record(capsys, monkeypatch, tmp_path, threads, out):
    """Without --out a record is printed and dropped; with --out its JSON text is kept, not the dict."""
    real = cli._record
    monkeypatch.setattr(cli, "_record", lambda res, line=None: _Counted(real(res, line)))
    monkeypatch.setattr(cli, "_CHUNK", 7)  # (the table made a few rows at a time)
    _Counted.alive = _Counted.most = 0
    n = 300
    f = tmp_path / "p.txt"
    f.write_text((EX + "\n" + EX2 + "\n") * (n // 2))
    extra = [] if out is None else ["--out", str(tmp_path / out)]
    assert cli.main(["solve", "--file", str(f), "--threads", str(threads), "--no-progress", "--no-pv", *extra]) == 0
    recs = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["line"] for r in recs] == list(range(1, n + 1))
    assert [r["value"] for r in recs[:4]] == [26, 10, 26, 10]
    if out is not None:  # the file holds every record as printed
        if out.endswith(".jsonl"):
            written = [json.loads(x) for x in (tmp_path / out).read_text().splitlines()]
        else:
            import pandas as pd
            df = pd.read_parquet(tmp_path / out)
            written = [{**{k: v for k, v in r.items() if k in recs[0]}, "moves": json.loads(r["moves"]),
                        "best": json.loads(r["best"]), "pv": json.loads(r["pv"]),
                        "wins": None if r["wins"] is None else json.loads(r["wins"])} for r in df.to_dict("records")]
            for r in written:
                r["line"], r["nodes"], r["value"] = int(r["line"]), int(r["nodes"]), int(r["value"])
        assert written == recs
    # one line at a time, or the window of --threads 2 (cli._AHEAD * 2 lines ahead, and the one printed)
    bound = 3 if threads == 1 else cli._AHEAD * threads + 3
    assert _Counted.most <= bound < n


def test_solve_file_with_out_and_threads_still_writes_every_record(capsys, tmp_path):
    f = tmp_path / "p.txt"
    n = 2 * cli._AHEAD * 2 + 7  # more lines than the window
    f.write_text("\n".join([EX, EX2, "players=9"] * n) + "\n")
    out = tmp_path / "o.jsonl"
    rc = cli.main(["solve", "--file", str(f), "--threads", "2", "--no-progress", "--no-pv", "--out", str(out)])
    assert rc == 1  # the invalid lines
    printed = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    written = [json.loads(x) for x in out.read_text().splitlines()]
    assert printed == written and [r["line"] for r in written] == list(range(1, 3 * n + 1))
    assert [("error" in r) for r in written] == [False, False, True] * n
    assert [r["value"] for r in written if "value" in r][:2] == [26, 10]


def test_position_argument_with_a_byte_order_mark_is_read(capsys):
    assert cli.main(["solve", "\ufeff" + EX, "--json", "--no-pv"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["position"] == EX and rec["value"] == 26


# ------------------------------------------------------------------ streamed --file (2026-12-06, fourth part)
# A seekable text file is read twice (count and kinds, then solve) and not held; a line is parsed as it is
# solved and dropped; --out's records go to an unnamed temporary file beside the output (cli._Spill) and
# the table is written a chunk at a time. Before, a position took about 0.8 KB until its line was solved
# and a record's JSON text 0.7 KB until the end: a file of ten million lines held 11-18 GB.

def _positions_alive():
    import gc

    from solver.position import Position
    return sum(type(o) is Position for o in gc.get_objects())


@pytest.mark.parametrize("threads", [1, 2])
def test_solve_file_parses_a_line_as_it_is_solved(capsys, monkeypatch, tmp_path, threads):
    import solver.api as api
    real, seen = api.solve, []

    def counting(p, *a, **k):
        if len(seen) % 40 == 0:
            seen.append(_positions_alive())
        else:
            seen.append(None)
        return real(p, *a, **k)
    monkeypatch.setattr(api, "solve", counting)
    n = 400
    f = tmp_path / "p.txt"
    f.write_text((EX + "\n" + EX2 + "\n") * (n // 2))
    before = _positions_alive()
    assert cli.main(["solve", "--file", str(f), "--threads", str(threads), "--no-progress", "--no-pv"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == n
    counts = [c - before for c in seen if c is not None]
    assert len(counts) >= n // 40  # (the warm-up solves too)
    # the lines in hand: one (or the --threads window), never the whole file (every line's Position was)
    bound = 4 if threads == 1 else cli._AHEAD * threads + 4
    assert max(counts) <= bound < n, counts


def test_solve_file_reads_a_text_file_without_holding_it(monkeypatch, tmp_path):
    """A seekable text file is a cli._TextFile (read from the file each pass); a pipe is a cli._Stream."""
    f = tmp_path / "p.txt"
    f.write_bytes(("\ufeff" + EX + "  # c\n\n#x\r\n" + EX2 + "\r" + "players=9\n").encode("utf-16"))
    work = cli._read_positions(str(f))
    try:
        assert isinstance(work, cli._TextFile)
        first = list(work)
        assert [(i, t) for i, t, _ in first] == [(1, EX), (4, EX2), (5, "players=9")]
        work.count = 3
        assert list(work.again()) == first == list(work)  # (read again from the start, the same items)
    finally:
        work.close()


@pytest.mark.parametrize("change", ["longer", "shorter"])
def test_solve_file_changed_while_solved_keeps_what_was_solved(capsys, monkeypatch, tmp_path, change):
    """A file written to between the two reads: exit 1 naming the change, and --out holds the records made,
    marked incomplete (never a table that looks whole)."""
    import solver.api as api
    from sim.batch import read_metadata
    f = tmp_path / "p.txt"
    n = 2000  # (more than the reader's buffer: a small file is read whole before it changes)
    f.write_text("\n".join([EX, EX2] * (n // 2)) + "\n")
    real, calls = api.solve, []

    def changing(p, *a, **k):
        calls.append(1)
        if len(calls) == 2:
            if change == "longer":
                with open(f, "a") as fh:
                    fh.write(EX + "\n")
            else:
                f.write_text(EX + "\n" + EX2 + "\n" + EX + "\n")
        return real(p, *a, **k)
    monkeypatch.setattr(api, "solve", changing)
    out = tmp_path / "o.parquet"
    rc = cli.main(["solve", "--file", str(f), "--no-progress", "--no-pv", "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 1 and "changed while it was solved" in err, err
    md = read_metadata(out)
    if change == "longer":  # every line counted was solved, kept as an interrupted run's (break-it pass 12)
        assert md["complete"] is False and md["rows"] == md["total"] == n, md
        assert f"more than the {n:,} position lines" in err
    else:  # the lines read before the end came early, of the 2,000 counted
        assert md["complete"] is False and 2 <= md["rows"] < n and md["total"] == n, md
        assert f"{md['rows']:,} position lines read this time, {n:,} at the start" in err


def test_spill_keeps_records_on_disk_and_in_memory_past_a_failed_write(tmp_path, monkeypatch):
    monkeypatch.setattr(cli, "_SPILL_READ", 7)  # (records split across reads)
    monkeypatch.setattr(cli, "_SPILL_WRITE", 50)  # (a few records a write)
    out = tmp_path / "o.parquet"
    sp = cli._Spill(str(out))
    try:
        assert sp._fd is not None and list(tmp_path.iterdir()) == []  # (unnamed: nothing to leave behind)
        texts = [json.dumps({"line": i, "position": "x" * (i % 13)}) for i in range(50)]
        for t in texts[:30]:
            sp.append(t)
        assert len(sp) == 30 and list(sp) == texts[:30] and sp._tail == [] and sp._n > 20
        written = sp._size
        assert os.fstat(sp._fh.fileno()).st_size == written

        def full(data):  # the disk full from here on, after a part of the write
            os.write(sp._fd, data[:5])
            raise OSError(28, "No space left on device")
        sp._write = full
        for t in texts[30:]:
            sp.append(t)
        assert sp._fd is None and os.fstat(sp._fh.fileno()).st_size == written  # (cut back to whole records)
        assert len(sp) == 50 and list(sp) == texts and list(sp) == texts
        assert list(cli._Joined(sp, 31, ["y"])) == texts[:31] + ["y"] and len(cli._Joined(sp, 31, ["y"])) == 32
    finally:
        sp.close()
    sp.close()  # (again: nothing to do, no error)
    dev = cli._Spill("/dev/null")  # (a device: nothing beside it to write; kept in memory)
    assert dev._fd is None
    dev.append("a")
    assert list(dev) == ["a"] and len(dev) == 1


def test_solve_file_out_leaves_only_the_output(capsys, tmp_path):
    d = tmp_path / "d"
    d.mkdir()
    f = tmp_path / "p.txt"
    f.write_text("\n".join([EX, EX2] * 20) + "\n")
    for name in ("o.parquet", "o.jsonl"):
        assert cli.main(["solve", "--file", str(f), "--no-progress", "--no-pv", "--out", str(d / name)]) == 0
    assert sorted(p.name for p in d.iterdir()) == ["o.jsonl", "o.parquet"]
    import pandas as pd
    import pyarrow.parquet as pq
    assert len(pd.read_parquet(d / "o.parquet")) == 40 and len((d / "o.jsonl").read_text().splitlines()) == 40
    assert pq.ParquetFile(d / "o.parquet").metadata.num_row_groups == 1  # (40 rows: one chunk)


@pytest.mark.parametrize("text,kind", [
    (EX, (2, False)), (EX.replace("stock=2O,4B,3E,7C,12B", "STOCK=?"), (2, True)),
    ("PLAYERS=4 stock=? x", (4, True)), ("players=6 trump=1O", (3, False)), ("players=3", (3, False)),
    ("players=+2 trump=1O", None), ("players=٢", None), ("players=5", None), ("players=2 players=2", None),
    ("players=2 stock=? stock=?", None), ("trump=1O", None), ("players=", None),
])
def test_scan_kind(text, kind):
    """The kind read from the fields agrees with the parse's for a valid line, and is None where only the
    parse can tell (then the line is parsed: the warm-up still covers it)."""
    assert cli._scan_kind(text) == kind
