"""The benchmark scripts' inputs (break-it pass of 2026-11-30): each runs this checkout's code,
refuses bad arguments before any work with one line (exit 2), and writes strict JSON."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import bench_script

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks")
ROOT = os.path.realpath(os.path.join(BENCH, ".."))


@pytest.mark.parametrize("script", ["bench_solver", "bench_engine", "bench_minimal_loop", "eval_heuristic",
                                    "open_values", "bench_compile"])
def test_benchmark_scripts_import_this_checkout(script):
    """A script measures the code beside it, not an installed copy (open_values, bench_engine and
    bench_minimal_loop imported whichever `sim` was installed: a checkout's edits went unmeasured,
    while the lines carried the checkout's commit)."""
    code = ("import runpy, sys\n"
            f"sys.argv = [{os.path.join(BENCH, script + '.py')!r}, '--help']\n"
            "try:\n    runpy.run_path(sys.argv[0], run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "import sim, solver\nprint(sim.__file__)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd="/")
    assert r.returncode == 0, r.stderr
    assert os.path.realpath(r.stdout.strip().splitlines()[-1]).startswith(os.path.join(ROOT, "sim")), r.stdout


@pytest.mark.parametrize("script,args,msg", [
    ("bench_engine", ["--deals", "0", "--skip-e2e"], "--deals: 0, expected at least 1"),
    ("bench_engine", ["--e2e-deals", "-3"], "--e2e-deals: -3, expected at least 1"),
    ("bench_engine", ["--out", "/dev/full"], "--out: cannot write /dev/full: not a regular file"),
    ("bench_minimal_loop", ["--deals", "-5"], "--deals: -5, expected 1 to 2**62"),
    ("bench_minimal_loop", ["--deals", str(2 ** 63)], "expected 1 to 2**62"),
    ("bench_minimal_loop", ["--out", "/"], "--out: cannot write /: names a directory"),
    ("bench_minimal_loop", ["--out", ""], "--out: empty path"),
    ("bench_engine", ["--out", ""], "--out: empty path"),
    ("bench_compile", ["--out", ""], "--out: empty path"),
    ("bench_compile", ["--out", "/"], "--out: cannot write /: names a directory"),
])
def test_benchmark_scripts_refuse_bad_arguments_first(script, args, msg, capsys):
    """bench_engine used to fail with tracebacks (ZeroDivisionError, negative dimensions) or only
    after its whole run (a bad --e2e-deals or --out); bench_minimal_loop wrote negative deals/s."""
    mod = bench_script(script)
    with pytest.raises(SystemExit) as e:
        mod.main(args)
    assert e.value.code == 2 and msg in capsys.readouterr().err


def test_eval_heuristic_inputs_and_strict_json(tmp_path, capsys):
    """eval_heuristic: a seed outside 0..2**64-1, more parameters than a row holds or NaN are
    refused (exit 2, one line, nothing written); the last seed runs (its warm-up's seed used to
    leave the uint64 range); one pair's pair interval is null, not NaN (invalid JSON)."""
    mod = bench_script("eval_heuristic")
    out = tmp_path / "h.jsonl"
    for args, msg in ((["--seed", "-1"], "seed: -1"), (["--par", "1", "2", "3", "4", "5"], "par: 5 values"),
                      (["--policy", "expert", "--par", "nan"], "par: [nan], expected finite numbers"),
                      (["--pairs", "0"], "pairs must be positive"), (["--threads", "0"], "--threads: 0"),
                      (["--policy", "expert", "--opp-par", "1", "2"], "--opp-par: greedy reads no parameters")):
        assert mod.main(["--pairs", "2", "--out", str(out), *args]) == 2
        assert msg in capsys.readouterr().err
    assert not out.exists()
    # refused before the output's directories are made (second break-it pass)
    assert mod.main(["--seed", "-1", "--out", str(tmp_path / "new" / "a" / "x.jsonl")]) == 2
    assert not (tmp_path / "new").exists()
    assert mod.main(["--pairs", "1", "--seed", str(2 ** 64 - 1), "--out", str(out)]) == 0
    rec = json.loads(out.read_text(), parse_constant=lambda c: pytest.fail(f"non-standard JSON {c}"))
    assert rec["seed"] == 2 ** 64 - 1 and rec["games"] == 2 and rec["win_rate_ci95_pairs"] == [None, None]


def test_check_out_paths(tmp_path):
    """benchmarks/_common.check_out: the output checks every script makes before its run (empty
    path, missing directory, directory, FIFO, device refused; a dangling symbolic link accepted and
    resolved to its target, which bench_solver used to delete with the link left dangling)."""
    sys.path.insert(0, BENCH)
    try:
        from _common import check_out, check_seed, other_seed
    finally:
        sys.path.remove(BENCH)
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "link").symlink_to(tmp_path / "target.jsonl")
    assert check_out("") == "empty path"
    assert "does not exist" in check_out(str(tmp_path / "no" / "x.jsonl"))
    assert check_out(str(tmp_path / "no" / "x.jsonl"), make_dirs=True) is None and (tmp_path / "no").is_dir()
    # a path through a regular file: not "does not exist" (new-user pass)
    (tmp_path / "afile").write_text("x")
    assert check_out(str(tmp_path / "afile" / "x.jsonl")) == f"{tmp_path / 'afile'} is not a directory"
    assert check_out(str(tmp_path / "afile" / "x.jsonl"), make_dirs=True) == f"{tmp_path / 'afile'} is not a directory"
    for bad in (tmp_path, tmp_path / "fifo", "/dev/null"):
        assert "not a regular file" in check_out(str(bad)), bad
    assert check_out(str(tmp_path / "link")) is None
    assert not (tmp_path / "target.jsonl").exists() and (tmp_path / "link").is_symlink()
    assert os.path.realpath(tmp_path / "link") == str(tmp_path / "target.jsonl")
    (tmp_path / "loopA").symlink_to(tmp_path / "loopB")
    (tmp_path / "loopB").symlink_to(tmp_path / "loopA")
    assert "loop of symbolic links" in check_out(str(tmp_path / "loopA"))
    assert "names a directory" in check_out(str(tmp_path / "x.jsonl") + "/")
    (tmp_path / "far").symlink_to("/nonexistent-dir/x.jsonl")
    assert check_out(str(tmp_path / "far")) == "directory /nonexistent-dir does not exist"
    assert "longer than 200" in check_out(str(tmp_path / ("a" * 201)))
    assert check_seed(2 ** 64 - 1) is None and check_seed(2 ** 64) and check_seed(-1)
    assert other_seed(2 ** 64 - 1, 1) == 0 and other_seed(5, 2) == 7
    # /proc accepts no new file, though os.access says yes to root (break-it pass of 2026-11-30:
    # bench_compile failed only after its whole run); the probe leaves an existing file as it was
    if os.path.isdir("/proc/self"):
        assert "cannot write" in check_out("/proc/x.jsonl")
    (tmp_path / "old.jsonl").write_text("kept\n")
    assert check_out(str(tmp_path / "old.jsonl")) is None
    assert (tmp_path / "old.jsonl").read_text() == "kept\n"
    assert check_out(str(tmp_path / "new.jsonl")) is None and not (tmp_path / "new.jsonl").exists()


def test_bench_compile_stage_errors_and_signals(tmp_path, monkeypatch, capsys):
    """bench_compile.py (break-it pass of 2026-11-30): a stage runs in a child process with its
    compile events recorded; an output that fails at the end exits 1 with one line (it raised a
    traceback after the whole run), SIGTERM/SIGHUP exit 128+signal with nothing written (SIGTERM
    said "interrupted" and exited 130; SIGHUP left the temporary cache behind), and the internal
    --child mode without its arguments is a usage error (it raised IndexError)."""
    mod = bench_script("bench_compile")
    assert mod.main(["--child"]) == 2 and "usage: --child" in capsys.readouterr().err
    monkeypatch.setattr(mod, "STAGES", (("help", ["--help"]),))
    res = mod._run_stage(["--help"], str(tmp_path / "cache"), str(tmp_path))
    assert res["events"] == [] and res["seconds"] > 0

    def fail(path, rec):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(mod, "emit", fail)
    assert mod.main(["--out", str(tmp_path / "c.jsonl")]) == 1
    assert "cannot write" in capsys.readouterr().err

    def term():
        raise mod._Terminated(15)

    monkeypatch.setattr(mod, "run", term)
    out = tmp_path / "t.jsonl"
    assert mod.main(["--out", str(out)]) == 143 and not out.exists()
    assert "terminated: nothing written" in capsys.readouterr().err
