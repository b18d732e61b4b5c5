"""``brisca solve --file`` keeps what it must and no more (2026-12-06, third part): without ``--out`` a
solved line's record is printed and dropped, and with ``--threads`` the lines are handed to the workers
a window ahead of the line printed, not all at once (a finished future holds its record). Before, a
million-line file held every record (about 2.4 KB each) however it was run. Also the position argument
with a UTF-8 byte-order mark in front, which ``--file`` already skipped."""
from __future__ import annotations

import json

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
                        "best": json.loads(r["best"]), "pv": json.loads(r["pv"])} for r in df.to_dict("records")]
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
