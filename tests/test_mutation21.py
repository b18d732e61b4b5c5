"""Mutation pass 21 (hand) of the benchmark scripts' argument checks and record fields and of sim/cli.py's
hints: each test kills a mutant that survived the matching tests. None compiles a kernel, runs a benchmark
or writes into results/."""
from __future__ import annotations

import json
import sys
import types

import pytest

from conftest import bench_script, fake_floor_search


# ----------------------------------------------------------------- benchmarks/eval_heuristic
def test_eval_heuristic_accepts_switches_3():
    """The fourth value of --par is 0, 1, 2 or 3: 3 (both bits) is accepted (mutant: (0, 1, 2))."""
    mod = bench_script("eval_heuristic")
    mod.check_args(1, 2, "expert", 1, 1, (0.0, 0.0, 0.0, 3.0), "expert", (0.0, 0.0, 0.0, 3.0))


def _fake_run(mod, monkeypatch, exc=None):
    def run(*a, **k):
        if exc is not None:
            raise exc
        return {"pairs": 1, "mean": 0.5}
    monkeypatch.setattr(mod, "run", run)


def test_eval_heuristic_no_save_checks_no_output(monkeypatch, capsys):
    """--no-save prints only: the default --out is not checked (nor its directories made)."""
    mod = bench_script("eval_heuristic")
    _fake_run(mod, monkeypatch)

    def check_out(*a, **k):
        raise AssertionError("check_out called under --no-save")
    monkeypatch.setattr(mod, "check_out", check_out)
    assert mod.main(["--pairs", "1", "--no-save"]) == 0
    assert json.loads(capsys.readouterr().out) == {"pairs": 1, "mean": 0.5}


def test_eval_heuristic_out_makes_missing_directories(tmp_path, monkeypatch, capsys):
    """--out in a missing directory: the directory is made and the line appended."""
    mod = bench_script("eval_heuristic")
    _fake_run(mod, monkeypatch)
    out = tmp_path / "a" / "b" / "r.jsonl"
    assert mod.main(["--pairs", "1", "--out", str(out)]) == 0
    assert json.loads(out.read_text()) == {"pairs": 1, "mean": 0.5}


def test_eval_heuristic_ctrl_c_exits_130(tmp_path, monkeypatch, capsys):
    mod = bench_script("eval_heuristic")
    _fake_run(mod, monkeypatch, KeyboardInterrupt())
    out = tmp_path / "r.jsonl"
    assert mod.main(["--pairs", "1", "--out", str(out)]) == 130
    assert "nothing written" in capsys.readouterr().err
    assert not out.exists() or out.read_text() == ""


# ----------------------------------------------------------------- benchmarks/bench_solve_file
def _measure(mod, monkeypatch, tmp_path, lines, one, big):
    fake = types.ModuleType("bench_solver")
    fake.positions = lambda config, n, seed: [f"pos{i}" for i in range(n)]
    monkeypatch.setitem(sys.modules, "bench_solver", fake)

    def run(args, env, stdin=None):
        path = stdin or args[args.index("--file") + 1]
        return one if path.endswith("-1.txt") else big

    monkeypatch.setattr(mod, "_run", run)
    return mod.measure("2p-4left", lines, 1, 1, str(tmp_path), repeat=1)


def test_bench_solve_file_record_fields(tmp_path, monkeypatch):
    """kb_per_line is the peak beyond the one-line run's per line beyond the first (not per line)."""
    mod = bench_script("bench_solve_file")
    recs = _measure(mod, monkeypatch, tmp_path, 5, (1.0, 100_000), (3.0, 100_400))
    assert len(recs) == 2
    for r in recs:
        assert r["kb_per_line"] == 100.0, r
        assert r["lines_per_s"] == 2.0, r
        assert r["wall_s"] == 3.0 and r["one_line_wall_s"] == 1.0 and r["peak_rss_mb"] == round(100_400 / 1024, 1)


def test_bench_solve_file_equal_runs(tmp_path, monkeypatch):
    """The whole file as fast as one line: lines_per_s null (no division by zero); the same peak: 0 KB a
    line (a measured zero, not null)."""
    mod = bench_script("bench_solve_file")
    for r in _measure(mod, monkeypatch, tmp_path, 3, (1.0, 100_000), (1.0, 100_000)):
        assert r["lines_per_s"] is None, r
        assert r["kb_per_line"] == 0.0, r


def test_bench_solve_file_repeat_above_100_is_refused(tmp_path, monkeypatch, capsys):
    mod = bench_script("bench_solve_file")
    monkeypatch.setattr(mod, "measure", lambda *a, **k: [])  # (a mutant accepting it runs nothing)
    monkeypatch.setattr(mod, "machine", lambda: {})
    with pytest.raises(SystemExit) as e:
        mod.main(["--repeat", "101", "--out", str(tmp_path / "r.jsonl")])
    assert e.value.code == 2
    assert "--repeat: 101, expected 1 to 100" in capsys.readouterr().err


# ----------------------------------------------------------------- sim/cli.py
def _parse(argv, capsys):
    from sim.cli import build_parser
    with pytest.raises(SystemExit) as e:
        build_parser().parse_args(argv)
    c = capsys.readouterr()
    return e.value.code, c.out, c.err


def test_double_dash_without_a_command_is_dropped(capsys):
    """``brisca -- --version``: no command follows, every ``--`` is dropped (mutant: none is)."""
    code, out, err = _parse(["--", "--version"], capsys)
    assert code == 0 and out.startswith("brisca "), (code, out, err)


def test_a_long_word_is_cut_to_60_characters(capsys):
    code, _, err = _parse(["x" * 500], capsys)
    assert code == 2
    assert "(502 characters)" in err, err  # (the word as argparse quotes it)
    assert "x" * 60 not in err and "'" + "x" * 59 + "..." in err, err
    assert len(err) < 300, err


def test_a_200_character_word_is_not_cut(capsys):
    code, _, err = _parse(["x" * 198], capsys)  # 200 characters quoted
    assert code == 2 and "x" * 198 in err and "characters)" not in err, err


def test_a_mistyped_command_after_an_option_names_the_option_only(capsys):
    """``brisca --deals=5 simluate``: the hint names --deals (where it goes), not a spelling of the command
    as well (that is for a mistyped command alone)."""
    code, _, err = _parse(["--deals=5", "simluate"], capsys)
    assert code == 2
    assert "--deals is an option of brisca simulate" in err, err
    assert "did you mean simulate?" not in err, err


# ----------------------------------------------------------------- benchmarks/bench_solver --floor
def test_bench_solver_floor_refuses_an_exact_guess_solve_that_disagrees(monkeypatch):
    """--floor checks the exact-guess solve's value against the first solve's (mutant: no check, the line
    recorded as if the driver were sound)."""
    mod = bench_script("bench_solver")
    values = iter([7, 6])

    def mtdf(st, stock, ismax, g, *rest):
        rest[5][0] += 5
        return next(values)

    flags = fake_floor_search(monkeypatch, mod, mtdf)
    with pytest.raises(RuntimeError, match="the exact-guess solve gave 6, the value is 7"):
        mod.floor("2p-4left", 1, 1, flags)


@pytest.mark.parametrize("argv", [["-=x"], ["-=x", "bogus"]])
def test_a_word_named_dash_equals_is_not_called_an_unknown_option(argv, capsys):
    """``brisca -=x``: the name before ``=`` is ``-``, not an option to hint at (mutant: "(unknown option -)")."""
    code, _, err = _parse(argv, capsys)
    assert code == 2 and "unknown option -" not in err, err
