"""Break-it pass 37 (2026-12-07): ``brisca puzzles`` over players and rule variants. Nothing broke (every
player count x deck x exchange x exchange condition x endgame x remove of the CLI, 1,536 combinations: 1,296
refused as ``brisca simulate`` refuses them, 240 accepted, their 158 records re-parsed to the table and
solved to their ``moves``); these pin the two checks the earlier tests left open: the whole grid's
refusals against simulate's, and a variant table's parquet ``--out`` read back by ``brisca solve --file``
and graded with ``brisca solve --play MOVE --win --seat S`` as ``brisca puzzles --help`` says."""
from __future__ import annotations

import itertools
import json

from conftest import run_main

GRID = list(itertools.product(("2", "3", "4", "6"), (None, "spanish40", "catalan48", "rapida20"),
                              (None, "2B", "trump2", "all2s"), ("any", "won-trick")))


def test_puzzles_refuses_exactly_what_simulate_refuses(capsys):
    """Every player count x deck x remove x exchange condition: ``puzzles`` (``--count 0``) and ``simulate``
    (``--deals 0``) read the rules first, so a table either refuses gives the same one-line message (exit 2)
    from both, and a table both accept gets to the count's message; ``won-trick`` of an accepted table is
    puzzles' alone (a position string has no field for it)."""
    refused = 0
    for players, deck, remove, cond in GRID:
        rules = ["--players", players, "--exchange-condition", cond, "--endgame", "arrastre", "--exchange", "two-any"]
        rules += (["--deck", deck] if deck else []) + (["--remove", remove] if remove else [])
        assert run_main(["puzzles", "--count", "0", "--no-progress", *rules]) == 2
        puz = capsys.readouterr()
        assert run_main(["simulate", "--deals", "0", "--no-progress", *rules]) == 2
        sim = capsys.readouterr()
        assert puz.out == sim.out == "" and puz.err.count("\n") == sim.err.count("\n") == 1, rules
        if sim.err.startswith("brisca: error: --deals must be"):  # the table is simulate's
            want = ("brisca: error: --exchange-condition won-trick: puzzles are generated under the exchange "
                    "condition any" if cond == "won-trick" else "brisca: error: --count must be at least 1")
            assert puz.err.startswith(want), (rules, puz.err)
        else:
            refused += 1
            assert puz.err == sim.err, rules
    assert refused == 88  # of 128 (20 tables of the grid are played, each under both conditions)


def test_variant_parquet_out_solves_and_grades_as_the_help_says(tmp_path, capsys):
    """A 3-player (all2s, two-any, follow) and a 6-player spanish40 arrastre run to ``--out x.parquet``:
    ``brisca solve --file`` gives each record's ``moves``, and ``brisca solve --play M --win --seat S``
    reaches for the record's move alone."""
    for i, table in enumerate((["--players", "3", "--remove", "all2s", "--exchange", "two-any", "--endgame", "follow"],
                               ["--players", "6", "--deck", "spanish40", "--endgame", "arrastre"])):
        out = tmp_path / f"p{i}.parquet"
        assert run_main(["puzzles", "--count", "3", "--seed", "5", "--no-progress", "--out", str(out), *table]) == 0
        capsys.readouterr()
        import pandas as pd
        recs = pd.read_parquet(out).to_dict("records")
        assert len(recs) == 3
        assert run_main(["solve", "--file", str(out), "--no-progress"]) == 0
        solved = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert [s["moves"] for s in solved] == [json.loads(r["moves"]) for r in recs]
        for r in recs:
            for m in json.loads(r["moves"]):
                assert run_main(["solve", "--json", "--play", m, "--win", "--seat", str(r["seat"]), r["position"]]) == 0
                assert json.loads(capsys.readouterr().out)["reached"] is (m == r["move"]), (r["position"], m)
