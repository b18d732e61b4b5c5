"""Break-it pass 26 of the benchmark scripts' command lines: each test fails on the tree it was written
against (see the report of that pass); none writes into results/ or compiles a kernel."""
from __future__ import annotations

import os
import subprocess
import sys
import types

import pytest

from conftest import bench_script, fake_floor_search

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks")
TESTS = os.path.dirname(os.path.abspath(__file__))


def test_eval_heuristic_bad_rules_make_no_directories(tmp_path, capsys):
    """A bad --deck (--exchange, --endgame) is refused with exit 2, but only after check_out had made
    --out's missing directories: a refused run leaves new/a/ behind (a bad --seed does not)."""
    mod = bench_script("eval_heuristic")
    for opt in (["--deck", "bogus"], ["--exchange", "bogus"], ["--endgame", "bogus"]):
        assert mod.main(["--pairs", "2", *opt, "--out", str(tmp_path / "new" / "a" / "x.jsonl")]) == 2
        assert "unknown" in capsys.readouterr().err
        assert not (tmp_path / "new").exists(), f"{opt}: refused, yet --out's directories were made"


def test_eval_heuristic_refuses_a_switch_row_expert_cannot_read():
    """expert/counter read par[3] as integer switches (np.int64(par[3]): bit 0 (value 1) and bit 1 (value 2), sim/expert.py); a
    --par 0 0 0 0.5 plays exactly as 0 0 0 0 but is recorded as "par": [0, 0, 0, 0.5] (a misleading
    line in the shared heuristic_vs_greedy.jsonl). It should be refused as the other unread rows are."""
    mod = bench_script("eval_heuristic")
    for row in ((0.0, 0.0, 0.0, 0.5), (0.0, 0.0, 0.0, -1.0), (0.0, 0.0, 0.0, 1e30)):
        with pytest.raises(ValueError):
            mod.check_args(2, 2, "greedy", 1, 1, row, "expert", None)


def test_bench_solve_file_empty_out_is_refused(tmp_path, monkeypatch, capsys):
    """--out '' was taken as "no --out" (``a.out or default``): a trial run appended to the tracked
    results/benchmarks/solve_file.jsonl. bench_engine, bench_minimal_loop, bench_compile refuse it
    ("--out: empty path")."""
    mod = bench_script("bench_solve_file")
    monkeypatch.setattr(mod, "OUT_DIR", tmp_path)  # (never the tracked records)

    def measure(*a, **k):
        raise AssertionError("ran with --out ''")

    monkeypatch.setattr(mod, "measure", measure)
    with pytest.raises(SystemExit) as e:
        mod.main(["--lines", "2", "--out", ""])
    assert e.value.code == 2 and "--out" in capsys.readouterr().err


def test_bench_solver_empty_out_is_refused(tmp_path, monkeypatch, capsys):
    """The same for bench_solver: `--configs 2p-4left --deals 2 --out ''` appended its line to the tracked
    results/benchmarks/solver.jsonl (seen: git status ' M results/benchmarks/solver.jsonl')."""
    mod = bench_script("bench_solver")
    monkeypatch.setattr(mod, "OUT_DIR", tmp_path)

    def run(*a, **k):
        raise AssertionError("ran with --out ''")

    monkeypatch.setattr(mod, "run", run)
    monkeypatch.setattr(sys, "argv", ["bench_solver.py", "--configs", "2p-4left", "--deals", "2", "--out", ""])
    with pytest.raises(SystemExit) as e:
        mod.main()
    assert e.value.code == 2 and "--out" in capsys.readouterr().err


def test_bench_solve_file_interrupt_kills_its_child(monkeypatch):
    """Ctrl-C (SIGINT to the script) while `brisca solve --file` runs: _run let KeyboardInterrupt out
    without killing the child, which went on solving as an orphan (PPID 1) after the script exited 130
    and had removed the child's input directory (bench_engine and bench_compile kill theirs)."""
    mod = bench_script("bench_solve_file")
    seen = []

    class Err:
        def read(self):
            raise KeyboardInterrupt

    class FakePopen:
        def __init__(self, *a, **k):
            self.pid = 999999999
            self.stderr = Err()
            self.returncode = None

        def kill(self):
            seen.append("kill")

        def wait(self, timeout=None):
            seen.append("wait")
            return -9

    monkeypatch.setattr(mod.subprocess, "Popen", FakePopen)
    with pytest.raises(KeyboardInterrupt):
        mod._run(["solve", "--file", "x"], dict(os.environ))
    assert "kill" in seen, "the child was left running"


def test_bench_solve_file_sigterm_cleans_up(tmp_path):
    """SIGTERM (kill, a CI timeout) killed the script outright: its temporary directory of positions
    (400 KB for 5,000 lines) was left in $TMPDIR and the child orphaned; bench_engine and bench_compile
    unwind on SIGTERM."""
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    code = (f"import sys, os, signal, time; sys.path.insert(0, {TESTS!r}); from conftest import bench_script\n"
            "m = bench_script('bench_solve_file')\n"
            "def measure(*a, **k):\n"
            "    os.kill(os.getpid(), signal.SIGTERM); time.sleep(10); return []\n"
            "m.measure = measure\n"
            f"m.main(['--lines', '2', '--out', {str(tmp_path / 'o.jsonl')!r}])\n")
    env = dict(os.environ, TMPDIR=str(tmpdir))
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert p.returncode != 0
    assert list(tmpdir.iterdir()) == [], f"left behind: {list(tmpdir.iterdir())}"


def test_bench_solve_file_kb_per_line_never_negative(tmp_path, monkeypatch):
    """A run whose whole-file peak RSS came out below the one-line run's recorded "kb_per_line": -88.0
    (seen: `--lines 2 --repeat 100`); lines_per_s is null in the same case (tn <= t1), kb_per_line should
    be too rather than a negative memory cost."""
    mod = bench_script("bench_solve_file")
    fake = types.ModuleType("bench_solver")
    fake.positions = lambda config, lines, seed: [f"pos{i}" for i in range(lines)]
    monkeypatch.setitem(sys.modules, "bench_solver", fake)

    def run(args, env, stdin=None):
        path = stdin or args[args.index("--file") + 1]
        return (1.0, 200_000) if path.endswith("-1.txt") else (2.0, 150_000)

    monkeypatch.setattr(mod, "_run", run)
    recs = mod.measure("2p-4left", 3, 1, 1, str(tmp_path), repeat=1)
    # (null, as the docstring says: not only "not negative", which 0.0 or a clamp passed; and the two
    # records, without --out and with it, not an empty list that checked nothing)
    assert [(r["out"], r["kb_per_line"], r["lines_per_s"]) for r in recs] == [(None, None, 2.0),
                                                                             ("parquet", None, 2.0)], recs

    def grows(args, env, stdin=None):  # (the usual case: the whole file's peak above the one line's)
        path = stdin or args[args.index("--file") + 1]
        return (1.0, 100_000) if path.endswith("-1.txt") else (2.0, 150_000)

    monkeypatch.setattr(mod, "_run", grows)
    assert [r["kb_per_line"] for r in mod.measure("2p-4left", 3, 1, 1, str(tmp_path), repeat=1)] == [25_000.0] * 2


def test_bench_solver_floor_solves_under_python_O(monkeypatch):
    """--floor's exact-guess solve is the expression of an `assert` (`assert int(S.mtdf(...)) == v`):
    under `python -O` it is never run and the line records exact_guess_* of an empty timing (0 nodes)."""
    path = os.path.join(BENCH, "bench_solver.py")
    mod = types.ModuleType("bench_solver_O")
    mod.__file__ = path
    with open(path) as f:
        exec(compile(f.read(), path, "exec", optimize=1), mod.__dict__)
    calls = []

    def mtdf(st, stock, ismax, g, *rest):
        calls.append(g)
        rest[5][0] += 5
        rest[5][2] = 2
        return 7

    rec = mod.floor("2p-4left", 1, 1, fake_floor_search(monkeypatch, mod, mtdf))
    assert len(calls) == 2 and rec["exact_guess_nodes_mean"] > 0, (calls, rec)
