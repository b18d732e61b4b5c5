"""The documented columns and keys of the outputs against the outputs' real schemas (documentation audit
dc66). No kernel is compiled: the simulate tables' schemas come from ``sim.batch._Tables`` (what
``simulate`` writes), the solve and puzzles tables' from their column lists; each test runs in well
under a second."""
import re
from pathlib import Path

import pytest

import sim.batch as B
from sim.rules import Rules

_PANDAS = {"int8": "int8", "int16": "int16", "int64": "int64", "uint64": "uint64", "bool": "bool"}


def _pandas_type(arrow_type) -> str:
    """How ``pd.read_parquet`` shows a column of this arrow type (dictionaries: ``category``)."""
    import pyarrow as pa

    return "category" if pa.types.is_dictionary(arrow_type) else _PANDAS[str(arrow_type)]


def _expand(name: str, rules: Rules) -> list:
    """A documented column name with its ``{s}``/``{k}``/``{i}`` placeholders filled in for ``rules``."""
    if "{s}_{k}" in name:  # hand_{s}_{k}: seat s, card k of 3
        return [name.replace("{s}_{k}", f"{s}_{k}") for s in range(rules.players) for k in range(3)]
    if "{s}" in name or "{i}" in name:
        return [re.sub(r"\{[si]\}", str(s), name) for s in range(rules.players)]
    if "{k}" in name:  # side_points_{k} (sides) or exchange{k}_... (two exchanges, R7)
        n = rules.sides if name.startswith("side_points") else 2
        return [name.replace("{k}", str(k)) for k in range(n)]
    return [name]


def _deal_doc():
    """``help(sim.batch)``'s deal table: (column, pandas type, meaning) rows."""
    doc = B.__doc__
    part = doc[doc.index("Parquet: the deal table"):doc.index("Card columns are dictionary-encoded")]
    rows = []
    for line in part.splitlines():
        m = re.match(r"``([^`]+)``\s+(\S+)\s+(.*)", line)
        if m:
            rows.append((m.group(1), m.group(2), m.group(3)))
    return rows


def _tables(rules: Rules, duplicate: bool):
    return B._Tables(rules, ("random",) * rules.players, rules.sides if duplicate else 1, {"seed": 0})


CASES = [(Rules(players=2), False), (Rules(players=2), True), (Rules(players=3), False),
         (Rules(players=3, remove="trump2"), True), (Rules(players=4), True), (Rules(players=6), False)]


@pytest.mark.parametrize("rules,duplicate", CASES)
def test_deal_table_columns_and_types_are_the_documented_ones(rules, duplicate):
    want = {}
    for name, typ, meaning in _deal_doc():
        if "``duplicate`` only" in meaning and not duplicate:
            continue
        if "``remove=trump2`` only" in meaning and rules.remove != "trump2":
            continue
        for col in _expand(name, rules):
            want[col] = typ
    schema = _tables(rules, duplicate).deal_schema
    got = {f.name: _pandas_type(f.type) for f in schema}
    assert got == want  # every column documented with its type; none documented and absent


@pytest.mark.parametrize("rules,duplicate", CASES)
def test_trick_table_columns_and_types_are_the_documented_ones(rules, duplicate):
    doc = B.__doc__
    part = doc[doc.index("Parquet: the trick table"):doc.index("File metadata")]
    part = re.sub(r"\s+", " ", part)
    want = {}
    for name, typ in re.findall(r"``(\w+(?:\{i\})?)`` \((\w+)", part):
        for col in _expand(name, rules):
            want[col] = "category" if typ == "card" else typ
    if duplicate:  # ``pair``/``rotation`` (``duplicate``): the deal table's keys and types
        deal_types = {n: t for n, t, _ in _deal_doc()}
        want = {"deal": want.pop("deal"), "pair": deal_types["pair"], "rotation": deal_types["rotation"], **want}
    assert "``pair``/``rotation`` (``duplicate``)" in part
    schema = _tables(rules, duplicate).trick_schema
    got = {f.name: _pandas_type(f.type) for f in schema}
    assert list(got) == list(want)  # (in the file's order: the paragraph lists them so)
    assert got == want



def _extra_keys() -> set:
    """The keys ``sim.batch.simulate`` puts into a summary's ``extra`` (read from its source: the keywords of
    its ``summarize`` helper's ``counts.summary(...)`` call beyond :meth:`RunningStats.summary`'s own
    parameters, and of every ``summarize(...)`` call), so that no kernel need run."""
    import ast
    import inspect

    from sim.stats import RunningStats

    own = set(inspect.signature(RunningStats.summary).parameters)
    tree = ast.parse(inspect.getsource(B))
    keys = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr == "summary" and getattr(f.value, "id", None) == "counts":
                keys |= {k.arg for k in node.keywords if k.arg and k.arg not in own}
            elif isinstance(f, ast.Name) and f.id == "summarize":
                keys |= {k.arg for k in node.keywords if k.arg}
    assert {"rules", "seed", "complete"} <= keys  # (the source still reads as this test expects)
    return keys


def _summary_keys() -> list:
    """Every key of ``Summary.to_dict()`` (a summary made by hand) and of the run's ``extra``."""
    from sim.stats import Summary

    s = Summary(deals=0, distinct_deals=0, rotations=1, seconds=0.0, sim_seconds=0.0, sides=[], positions=[],
                draws=0, capotes=0)
    return list(s.to_dict()) + sorted(_extra_keys())


def test_summary_extra_keys_are_documented():
    """``Summary.extra``'s docstring names every key simulate puts there (it lacked ``duplicate`` and
    ``complete``, and named the output paths without their keys ``out``, ``tricks_out``)."""
    from sim.stats import Summary

    doc = Summary.__doc__
    part = doc[doc.index("extra : dict"):doc.index("margin : dict")]
    missing = [k for k in sorted(_extra_keys()) if f"``{k}``" not in part]
    assert not missing


def test_readme_json_row_names_every_summary_key():
    """The README's ``--json`` row names every key of the JSON object (it named eight and "...")."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `--json` |"))
    missing = [k for k in _summary_keys() if f"`{k}`" not in row]
    assert not missing


def _help(command: str) -> str:
    from sim.cli import build_parser

    sub = next(a for a in build_parser()._actions if "simulate" in (getattr(a, "choices", None) or {}))
    return " ".join(sub.choices[command].format_help().split())


_SOLVE_RECORD = {"position": "players=2 trump=5B hands=/ stock= turn=0 trick= points=62,58", "value": 0,
                 "moves": {}, "best": [], "wins": None, "pv": [], "nodes": 0, "ms": 0.1}


def test_solve_table_columns_and_types_are_the_documented_ones(tmp_path):
    """``brisca solve --out``'s table against the README's and ``--help``'s column lists and types, and a
    null ``wins`` (a finished deal's) as a null cell, not JSON text, as both now say."""
    import pyarrow.parquet as pq

    from solver.cli import _write_parquet

    path = tmp_path / "s.parquet"
    _write_parquet([dict(_SOLVE_RECORD, line=1)], path)
    schema = pq.read_schema(path)
    readme = " ".join((Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8").split())
    listed = readme[readme.index("writes the same records also as a table"):]
    listed = listed[:listed.index("null where they do not apply")]
    assert re.findall(r"`(\w+)`", listed) == schema.names
    text = _help("solve")
    cols = text[text.index("Its columns"):text.index("One schema")]
    named = re.findall(r"\b(line|position|value|moves|best|wins|pv|nodes|ms|target|reached|seat|error)\b", cols)
    assert sorted(set(named)) == sorted(schema.names)
    types = {f.name: str(f.type) for f in schema}
    assert types["value"] == "double" and "value float64" in text
    assert all(types[c] == "int64" for c in ("line", "nodes", "target", "seat")) and \
        "line/nodes/target/seat int64 with nulls" in text
    assert types["reached"] == "bool" and "reached bool" in text
    assert pq.read_table(path).column("wins").null_count == 1  # null cell
    assert "a null wins is a null cell" in text and "is a null cell, not the text `null`" in readme


def test_puzzle_table_columns_are_the_documented_ones(tmp_path):
    import pyarrow.parquet as pq

    from sim.batch import read_metadata
    from solver.cli import _write_puzzle_table

    rec = {"position": "p", "move": "1O", "value": 8, "need": 7, "moves": {"1O": 8}, "pv": ["1O"], "deal": 0,
           "ply": 30, "seat": 1}
    path = tmp_path / "p.parquet"
    _write_puzzle_table([rec], path, run={"rules": {}, "seed": 1, "max_tries": 500})
    text = _help("puzzles")
    listed = text[text.index("pv as JSON text): ") + 18:text.index("The table's rules")]
    named = [w.strip() for w in re.sub(r"\([^)]*\)", "", listed).split(",")]
    named[-1] = named[-1].rstrip(". ")
    assert named == pq.read_schema(path).names == list(rec)
    keys = set(read_metadata(path))
    assert keys == {"table", "complete", "rows", "total", "version", "numba_version", "rules", "seed", "max_tries"}
    doc = " ".join(read_metadata.__doc__.split())
    assert all(f"``{k}``" in doc for k in keys)
