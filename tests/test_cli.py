"""The ``brisca`` command line (sim.cli): smoke runs and bad input, in subprocesses."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from conftest import FailingStream
from sim.batch import read_metadata

ROOT = Path(__file__).resolve().parents[1]


def _env():
    # the checkout's code (not a second installed copy, which numba would compile again)
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def brisca(*args, timeout=600):
    """Run ``python -m sim.cli`` (the same code as the ``brisca`` console script)."""
    return subprocess.run([sys.executable, "-m", "sim.cli", *map(str, args)], capture_output=True, text=True,
                          cwd=ROOT, env=_env(), timeout=timeout)


def test_simulate_json_and_parquet(tmp_path):
    out, tricks = tmp_path / "sub" / "run.parquet", tmp_path / "tricks.parquet"
    p = brisca("simulate", "--players", 2, "--deals", "3_000", "--policy", "heuristic", "--policy", "random",
               "--seed", 1, "--out", out, "--tricks", tricks, "--json", "--no-progress")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    for key in ("deals", "seconds", "sim_seconds", "deals_per_s", "sides", "draws", "capotes"):
        assert key in d
    assert d["deals"] == 3000 and d["deals_per_s"] == pytest.approx(3000 / d["sim_seconds"])
    assert 0 < d["sim_seconds"] <= d["seconds"]
    assert [s["policy"] for s in d["sides"]] == ["heuristic", "random"]
    for s in d["sides"]:
        assert set(s) >= {"seats", "policy", "wins", "win_rate", "win_rate_ci95", "mean_points"}
        lo, hi = s["win_rate_ci95"]
        assert lo <= s["win_rate"] <= hi
    assert sum(s["wins"] for s in d["sides"]) + d["draws"] == 3000
    df = pd.read_parquet(out)
    assert len(df) == 3000 and len(pd.read_parquet(tricks)) == 3000 * 20
    assert read_metadata(out)["seed"] == 1
    assert sorted(os.listdir(tmp_path)) == ["sub", "tricks.parquet"]


def _wilson(x, n, z=1.959963984540054):
    """Wilson's 95% score interval (Newcombe 1998, method 3), written out for the tests."""
    p = x / n
    den = 1 + z * z / n
    mid, half = (p + z * z / (2 * n)) / den, z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / den
    return [mid - half, mid + half]


def test_simulate_json_numbers_match_the_deal_table(tmp_path):
    """Mutation testing (third pass): the numbers of `brisca simulate --json`, end to end, recomputed from
    the deal table it wrote (RULES R8: a draw counts for the seats tied on top; ``sides`` follow the
    policies of rotation 0 wherever they sit, ``positions`` the seats). Three players, duplicate."""
    out = tmp_path / "run.parquet"
    pols = ["heuristic", "random", "greedy"]
    p = brisca("simulate", "--players", 3, "--deals", 200, *[a for x in pols for a in ("--policy", x)],
               "--duplicate", "--seed", 4, "--out", out, "--json", "--no-progress")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    df = pd.read_parquet(out)
    n = len(df)
    pts = df[[f"side_points_{s}" for s in range(3)]].to_numpy().astype(int)
    win = df["winner"].to_numpy().astype(int)
    top = pts.max(axis=1)
    drawn = win == -1
    assert (n, d["deals"], d["distinct_deals"], d["rotations"]) == (600, 600, 200, 3)
    assert d["draws"] == drawn.sum() > 0 and d["capotes"] == df["capote"].sum()
    assert d["draw_rate"] == pytest.approx(drawn.mean()) and d["capote_rate"] == pytest.approx(df["capote"].mean())
    assert d["draw_rate_ci95"] == pytest.approx(_wilson(drawn.sum() / 3, n // 3))  # over the pairs (review 64)
    for j, pos in enumerate(d["positions"]):
        draws = (drawn & (pts[:, j] == top)).sum()
        assert (pos["seats"], pos["wins"], pos["draws"]) == ([j], (win == j).sum(), draws)
        assert pos["win_rate_ci95"] == pytest.approx(_wilson((win == j).sum(), n))
        assert pos["mean_points"] == pytest.approx(pts[:, j].mean())
        assert pos["mean_points_se"] == pytest.approx(pts[:, j].std(ddof=1) / n ** 0.5)
    for k, side in enumerate(d["sides"]):
        seat = np.select([df[f"policy_{s}"].to_numpy() == pols[k] for s in range(3)], [0, 1, 2])
        mine = pts[np.arange(n), seat]
        wins, draws = (win == seat).sum(), (drawn & (mine == top)).sum()
        assert (side["policy"], side["games"], side["wins"], side["draws"], side["losses"]) == \
            (pols[k], n, wins, draws, n - wins - draws)
        assert side["win_rate"] == pytest.approx(wins / n) and side["score"] == pytest.approx((wins + draws / 2) / n)
        assert side["win_rate_ci95"] == pytest.approx(_wilson(wins, n))
        assert side["score_ci95"] == pytest.approx(_wilson(wins + draws / 2, n))
        assert side["mean_points"] == pytest.approx(mine.mean())
        assert side["mean_points_se"] == pytest.approx(mine.std(ddof=1) / n ** 0.5)
    assert sum(s["draws"] for s in d["positions"]) > d["draws"]  # some draws tie two seats on top


def test_simulate_table_duplicate_entry_point(tmp_path):
    exe = shutil.which("brisca") or str(Path(sys.executable).with_name("brisca"))
    cmd = [exe] if os.path.exists(exe) else [sys.executable, "-m", "sim.cli"]
    p = subprocess.run(cmd + ["simulate", "--players", "4", "--deals", "500", "--policy", "heuristic",
                              "--policy", "greedy", "--duplicate", "--threads", "1", "--exchange", "seven",
                              "--endgame", "arrastre", "--no-progress"], capture_output=True, text=True, cwd=ROOT,
                       env=_env(), timeout=600)
    assert p.returncode == 0, p.stderr
    assert "1,000 deals (500 distinct deals x 2 rotations, duplicate)" in p.stdout
    assert "heuristic" in p.stdout and "greedy" in p.stdout and "endgame arrastre" in p.stdout


def test_help():
    p = brisca("simulate", "--help")
    assert p.returncode == 0
    for flag in ("--players", "--deals", "--policy", "--seed", "--out", "--tricks", "--deck", "--exchange",
                 "--endgame", "--threads", "--duplicate", "--json", "(default: 2)"):
        assert flag in p.stdout


@pytest.mark.parametrize("argv", [
    ["simulate", "--deals", "\u0661\u0660"], ["simulate", "--seed", "\u0663"], ["simulate", "--threads", "\u0662"],
    ["simulate", "--players", "\u0662"], ["solve", "--target", "\u0662\u0666", "x"], ["solve", "--seat", "\u0661", "x"],
    ["solve", "--threads", "\u0662", "x"], ["puzzles", "--count", "\u0661"], ["puzzles", "--seed", "\u0661"]])
def test_integer_options_take_ascii_digits_only(capsys, argv):
    """Break-it pass (2026-12-05): `--deals ١٠` (Arabic-Indic digits) ran 10 deals and `--target ٢٦`
    answered for 26, while positions refuse such numbers (NOTATION.md); every integer flag now reads
    ASCII digits only, and all of them take 1e3 and 1_000 (`--seed 1e3` and `--threads 1e0` were refused)."""
    from sim.cli import _count, main

    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {argv[1]}: invalid integer" in err and "(digits 0-9)" in err, err
    assert [_count(t) for t in ("1e3", "1_000", " 7 ")] == [1000, 1000, 7]


@pytest.mark.parametrize("argv", [
    ["simulate", "--deals", "1e99"], ["simulate", "--seed", "1e31"], ["simulate", "--threads", "-1e99"],
    ["solve", "--seat", "1e99", "--target", "3", "x"], ["puzzles", "--count", "1" + "0" * 40],
    ["simulate", "--deals", "-1e101"], ["solve", "--target", "-1e999", "x"], ["simulate", "--deals", "-" + "9" * 5000],
    ["simulate", "--deals", "9" * 5000]])
def test_integer_options_refuse_huge_values_without_printing_them(capsys, argv):
    """Break-it pass (2026-12-05): `--seed 1e100` printed a 101-digit number in its range message.
    Every integer option's bound is far below 10**31, so a value that large is "too large" (or small)
    in the one parser, which shows the text as given (cut after 40 characters); below it each option's
    own range message names the exact value."""
    from sim.cli import main

    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    shown = repr(argv[2]) if len(argv[2]) <= 40 else repr(argv[2][:37]) + "..."
    word = "small" if argv[2].startswith("-") else "large"
    assert f"argument {argv[1]}: {shown} is too {word}" in err, err
    assert "0" * 38 not in err, err


def test_negative_numbers_in_any_form_are_option_values(capsys):
    """Noticed 2026-12-05: `solve --target -1e3 <position>` (with a space) was argparse's "expected one
    argument", since its pattern for negative numbers knows only -5 and -0.5; -1e3 and -1_000 are values
    now, in `brisca` and in solver.cli.main (plain argparse)."""
    from sim.cli import main
    from solver.cli import main as solver_main

    pos = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
    for run in (main, solver_main):
        for target in ("-1e3", "-1_000"):
            try:  # (sim.cli.main exits, solver.cli.main returns the status)
                code = run(["solve", "--json", "--target", target, pos])
            except SystemExit as e:
                code = e.code
            assert code in (0, None)
            rec = json.loads(capsys.readouterr().out)
            assert rec["target"] == -1000 and rec["reached"] is True
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--seed", "-1e3"])
    assert e.value.code == 2
    assert "--seed must be an integer in [0, 2**64), got -1000" in capsys.readouterr().err


@pytest.mark.parametrize("columns", ["50", "80", "200"])
def test_help_never_splits_a_flag(monkeypatch, capsys, columns):
    """New-user pass (2026-12-05): `brisca puzzles --help` wrapped "--max-" / "tries" over two lines
    (textwrap breaks at hyphens). No help line of any command ends inside a word at a hyphen."""
    import re

    from sim.cli import main

    monkeypatch.setenv("COLUMNS", columns)
    for argv in (["--help"], ["simulate", "--help"], ["solve", "--help"], ["puzzles", "--help"]):
        with pytest.raises(SystemExit) as e:
            main(argv)
        assert e.value.code == 0
        text = capsys.readouterr().out
        assert "--max-tries" in text or argv != ["puzzles", "--help"]
        split = [ln for ln in text.splitlines() if re.search(r"\w-$", ln)]
        assert split == [], (argv, split)


@pytest.mark.parametrize("args, words", [
    (["--policy", "bogus"], "unknown policy 'bogus'"),
    (["--policy", "random", "--policy", "random", "--policy", "random"], "3 policies"),
    (["--players", "5"], "--players must be 2, 3, 4 or 6"),  # (the API's names as flags: 2026-12-04)
    (["--players", "6", "--deck", "rapida20"], "--deck rapida20 cannot be played by 6 players"),
    (["--players", "2", "--remove", "all2s"], "--remove all2s applies to 3 players only"),
    (["--deals", "0"], "--deals must be a positive integer"),
    (["--deals", "-5"], "--deals must be a positive integer"),
    (["--seed", "-1"], "--seed must be an integer in [0, 2**64)"),  # (was "seed must", puzzles' "--seed must")
    (["--deals", "lots"], "--deals"),
    (["--threads", "0"], "--threads must be"),
    (["--deck", "french52"], "--deck"),
    (["--out", "{file}/x.parquet"], "--out: cannot write "),  # (as solve's --out: 2026-12-04, second part)
    (["--tricks", "{file}/t.parquet"], "--tricks: cannot write "),
    (["--out", ""], "--out: '' is not a file name"),
    (["--out", "{file}2", "--tricks", "{file}2"], "--out and --tricks need two different files"),
])
def test_bad_input_exit_2(args, words, tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    out = tmp_path / "run.parquet"
    args = [a.format(file=f) for a in args]
    if "--out" not in args:
        args += ["--out", str(out)]
    p = brisca("simulate", "--deals", 100, *args, "--no-progress", timeout=120)
    assert p.returncode == 2, (p.stdout, p.stderr)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("brisca: error: "), p.stderr
    assert words in lines[0]
    assert p.stdout == ""
    assert sorted(os.listdir(tmp_path)) == ["file"]


def test_version(capsys):
    """New-user pass: ``brisca --version`` was refused (exit 2)."""
    from sim.cli import main
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out.startswith("brisca ")


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["solve", "--help"], ["simulate", "--help"]])
def test_help_and_version_report_a_failed_write(monkeypatch, capsys, argv):
    """`brisca --version > /dev/full` (and --help) exited 0 with nothing written: argparse ignores
    the write error. Now one line and exit 1, as every command's output; a closed pipe exits 141."""
    from sim.cli import main

    for err, code in ((OSError(28, "No space left on device"), 1), (BrokenPipeError(32, "Broken pipe"), 141)):
        monkeypatch.setattr("sys.stdout", FailingStream(err))
        with pytest.raises(SystemExit) as e:
            main(argv)
        assert e.value.code == code
        lines = capsys.readouterr().err.strip().splitlines()
        assert lines == (["brisca: error: writing the output failed: No space left on device"] if code == 1 else [])


def test_cli_module_loads_without_numba():
    """Break-it pass (2026-12-01): a Ctrl-C in brisca's first half second, while ``sim.cli`` loaded
    numba through ``sim.rules``, printed a traceback; the rules are now loaded inside ``main`` (one
    line, 130)."""
    r = subprocess.run([sys.executable, "-c", "import sys, sim.cli; print('numba' in sys.modules)"],
                       capture_output=True, text=True, check=True)
    assert r.stdout.strip() == "False"


def test_unquoted_position_says_to_quote_it(capsys):
    """New-user pass of 2026-12-06: `brisca solve players=2 trump=5B ...` unquoted gave argparse's bare
    "unrecognized arguments"; the error now says a position is one argument. Other extra words get no hint."""
    from sim import cli as sim_cli
    with pytest.raises(SystemExit) as e:
        sim_cli.main(["solve", "players=2", "trump=5B", "hands=3C,6C/10O,2C,12E"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "unrecognized arguments: trump=5B" in err and "quote it" in err
    with pytest.raises(SystemExit) as e:
        sim_cli.main(["simulate", "--deals", "3", "foo"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "unrecognized arguments: foo" in err and "quote" not in err


def test_human_output_counts_nodes_with_thousands_separators(capsys):
    """``brisca solve`` prints the nodes searched as ``1,234,567`` as simulate prints its counts (new-user
    pass: "8945064 nodes" beside simulate's "1,000,000")."""
    import dataclasses
    from solver import cli as solver_cli
    from solver import Position, solve
    ex = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
    res = dataclasses.replace(solve(Position.parse(ex)), nodes=8945064)
    solver_cli._print_human(res)
    assert "(8,945,064 nodes, " in capsys.readouterr().out
