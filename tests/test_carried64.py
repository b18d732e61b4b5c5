"""Carried items mended on 2026-12-07 (seventh part).

1. A ``brisca puzzles --out F.parquet`` table's metadata gave ``table``, ``complete``, ``rows``, ``total`` and
   the versions only: the positions carry their rules, but not the seed or the positions tried, so the run
   could not be repeated from the file. It now also gives ``rules``, ``seed`` and ``max_tries``.
2. ``--max-tries``' default was 200 x ``--count``: 3-player puzzles are 1.7% of the positions tried, so
   ``--count 1`` found none about 3% of the time (0.983**200). It is 500 x ``--count`` now
   (``tests/test_mutation17.py`` pins the figure; here the reason: a single 3-player puzzle of a seed that
   needs more than 200 tries is found).
"""
import json

import pandas as pd

from sim.batch import read_metadata
from solver import cli
from solver.puzzles import find_puzzles


def test_puzzles_parquet_metadata_repeats_the_run(tmp_path, capsys):
    out = tmp_path / "p.parquet"
    argv = ["puzzles", "--count", "2", "--seed", "7", "--exchange", "none", "--no-progress", "--out", str(out)]
    assert cli.main(argv) == 0, capsys.readouterr().err
    md = read_metadata(out)
    assert (md["table"], md["complete"], md["rows"], md["total"]) == ("puzzles", True, 2, 2)
    assert md["seed"] == 7 and md["max_tries"] == 1000
    assert md["rules"]["players"] == 2 and md["rules"]["exchange"] == "none"
    again = list(find_puzzles(md["total"], seed=md["seed"], max_tries=md["max_tries"], rules=md["rules"]))
    assert [r["position"] for r in again] == list(pd.read_parquet(out)["position"])


def test_puzzles_default_tries_find_a_rare_3_player_puzzle(capsys):
    """Seed 62's first 3-player puzzle is the 316th position tried (deal 315: one position a deal): the old
    default of 200 tries exited 1 with none found; 500 finds it."""
    rc = cli.main(["puzzles", "--count", "1", "--players", "3", "--seed", "62", "--no-progress"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    rec = [json.loads(line) for line in out.splitlines()]
    assert len(rec) == 1 and rec[0]["deal"] == 315 and rec[0]["position"].startswith("players=3 ")
