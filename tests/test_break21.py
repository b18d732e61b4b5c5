"""Break-it pass 21: read_metadata on odd files, the benchmark scripts' odd arguments, the 6-player
solver, odd seeds. Only two small faults, both in benchmarks/open_values.py; the rest held (see the
pass's report). No numba compile in this file: open_values' checks run before any solve."""
from __future__ import annotations

import pandas as pd
import pytest
from conftest import bench_script


def _table(path, seed):
    """A valid open_values table of one deal of ``seed`` (the columns its load() checks)."""
    pd.DataFrame({"deal": [0], "seed": pd.array([seed], dtype="uint64"), "pinta": [3], "pinta_rank": [6],
                  "trump": [0], "first_points": [72], "second_points": [48], "winner": [0], "nex": [0],
                  "ms": [1.0]}).to_parquet(path)


def test_open_values_other_seed_error_gives_its_advice_once(tmp_path, capsys):
    """An --out of another seed: the one-line error said its advice twice ("give that seed to continue
    it, or another --out (it is never overwritten); move it or give another --out"): load()'s message
    already says what to do, parse_args appended a second suggestion."""
    mod = bench_script("open_values")
    out = tmp_path / "ov.parquet"
    _table(out, 7)
    assert len(mod.load(str(out))) == 1  # (a valid table: only the seed differs)
    with pytest.raises(SystemExit) as e:
        mod.parse_args(["--deals", "2", "--seed", "5", "--out", str(out)])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "holds deals of seed 7, not --seed 5" in err
    assert err.count("another --out") == 1, err


@pytest.mark.parametrize("name", ["ov.jsonl", "ov.csv"])
def test_open_values_out_name_of_another_format_gets_a_note(tmp_path, capsys, name):
    """open_values writes parquet whatever --out's name (its help says so), silently: ``--out x.jsonl``
    (the other benchmark scripts' format) gave a parquet file named .jsonl with no word. brisca simulate
    says it on stderr for ``--out run.csv`` (sim.cli.note_format); open_values should too, before any
    work."""
    mod = bench_script("open_values")
    a, old = mod.parse_args(["--deals", "1", "--out", str(tmp_path / name)])
    assert old is None
    err = capsys.readouterr().err
    assert "note" in err and "parquet" in err, err
