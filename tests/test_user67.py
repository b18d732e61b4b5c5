"""User study 67 (a notebook analyst sweeping rule variants from Python): what tripped.

- Nothing showed how to sweep rule variants in Python: ``summary.to_dict()`` nests the sides, so a run's
  figures had to be picked by hand into a DataFrame row, and which side leads the first trick (R3) was said
  only on the text summary's last line. The README now has a recipe (the Common tasks table points to it):
  each run's summary a row, side 0 named as the first leader.
- Reloading the runs' deals as one table: ``pd.read_parquet("runs/")`` reads a folder with the first file's
  columns (pyarrow's dataset), so 4-player files read after a 2-player one silently lost ``hand_2_0``,
  ``points_2``, ..., and no column said which variant a row came from; the rules are in each file's metadata
  (``sim.read_metadata``), which nothing showed how to use for that. The recipe adds them as columns.
- The question "does R9's ``arrastre`` change the first lead's edge?" compared the two runs' own intervals
  side by side, which overlap; the recipe pairs the runs of one seed on ``deal`` (the same cards) with
  ``sim.stats.mean_se``, and says scipy and statsmodels are not needed.

Lean: the recipe's reading and pairing half runs on small parquet files written here with a run's metadata
(no kernel); one test runs the whole recipe (2- and 4-player engine kernels, compiled once for the suite).
"""
import json
import os
import re

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from test_docs import _readme_block, _run_block

ANCHOR = '<a id="sweeping-rule-variants"></a>'


def _write_run(path, players, endgame, points0):
    """A deal table as ``simulate`` names its columns (a few of them), with the run's rules in its metadata."""
    cols = {"deal": pa.array(range(len(points0)), pa.int64()),
            "side_points_0": pa.array(points0, pa.int16()),
            "winner": pa.array([0 if p > 60 else 1 if p < 60 else -1 for p in points0], pa.int8())}
    if players == 4:
        cols["hand_2_0"] = pa.array(["1O"] * len(points0))
    rules = {"players": players, "deck": "spanish40", "exchange": "seven-two", "exchange_condition": "any",
             "endgame": endgame, "remove": None, "tie": "draw"}
    table = pa.table(cols).replace_schema_metadata({"brisca.rules": json.dumps(rules), "brisca.table": '"deals"'})
    pq.write_table(table, path)


def test_readme_recipe_reads_every_run_with_its_rules_and_pairs_them(tmp_path, monkeypatch):
    code = _readme_block(ANCHOR)
    head, rest = code[:code.index("rows = []")], code[code.index("frames = []"):]
    monkeypatch.chdir(tmp_path)
    os.mkdir("runs")
    points = {(2, "free"): [70, 50, 60, 40], (2, "arrastre"): [72, 50, 61, 40],
              (4, "free"): [30, 90, 61], (4, "arrastre"): [30, 88, 60]}
    for (players, endgame), p in points.items():
        _write_run(f"runs/{players}p_{endgame}.parquet", players, endgame, p)
    names = {}
    out = _run_block(head + rest, names).splitlines()
    deals = names["deals"]
    assert len(deals) == 14 and {"players", "endgame", "file", "hand_2_0"} <= set(deals.columns)
    assert deals.groupby(["players", "endgame"]).size().to_dict() == {k: len(v) for k, v in points.items()}
    assert deals[deals.players == 2].hand_2_0.isna().all() and (deals[deals.players == 4].hand_2_0 == "1O").all()
    # 2 players: side 0 - side 1 changes by 2 * (2, 0, 1, 0) = mean 1.5; 4 players: 2 * (0, -2, -1) = mean -2
    assert out[0].startswith("2 players: +1.50 points, 95% CI [") and out[1].startswith("4 players: -2.00 points")
    # what the README warns of: the folder read as one table keeps the first file's (2-player) columns
    assert "hand_2_0" not in pd.read_parquet("runs/").columns
    text = " ".join(open(os.path.join(os.path.dirname(__file__), "..", "README.md")).read().split())
    assert "silently lose `hand_2_0`" in text and "(#sweeping-rule-variants)" in text


def test_readme_recipe_prints_what_it_says(tmp_path, monkeypatch):
    """The whole recipe (4 runs of 5,000 deals) prints the figures its comments and the text after it give."""
    monkeypatch.chdir(tmp_path)
    code = _readme_block(ANCHOR)
    names = {}
    out = _run_block(code, names)
    said = re.search(r"# (0\.\d+) (-\d\.\d+) \.\.\. (0\.\d+) (-\d\.\d+)", code).groups()
    rows = out.splitlines()
    assert rows[1].split()[-2:] == list(said[:2]) and rows[4].split()[-2:] == list(said[2:]), out
    readme = " ".join(open(os.path.join(os.path.dirname(__file__), "..", "README.md")).read().split())
    for line in rows[5:7]:
        assert f"`{line}`" in readme, line
    assert len(names["runs"]) == 4 and names["deals"].file.nunique() == 4


def test_summary_docstring_names_the_first_leader():
    """``to_dict()`` has no key for who leads; the ``positions`` attribute's doc says side 0 (seat 0) does."""
    from sim.stats import Summary
    doc = " ".join(Summary.__doc__.split())
    assert "``positions[0]`` is the side of seat 0, which leads the first trick of every deal (R3" in doc


def test_help_sim_names_its_lazy_names():
    """``help(sim)`` shows no function (they load lazily) and its docstring said "the names below" with none
    below; it now names each of ``sim.__all__`` and where the columns and the interval helpers are."""
    import sim
    doc = sim.__doc__
    for name in sim.__all__:
        assert f"- ``{name}" in doc, name
    for words in ("help(sim.batch)", "sim.stats.wilson_interval", "sim.stats.mean_se"):
        assert words in doc, words
