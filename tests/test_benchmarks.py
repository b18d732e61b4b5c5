"""The benchmark scripts' inputs (break-it pass of 2026-11-30): each runs this checkout's code,
refuses bad arguments before any work with one line (exit 2), and writes strict JSON."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import bench_script, default_stop_signals

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks")
ROOT = os.path.realpath(os.path.join(BENCH, ".."))


@pytest.mark.parametrize("script", ["bench_solver", "bench_engine", "bench_minimal_loop", "eval_heuristic",
                                    "open_values", "bench_compile", "bench_solve_file"])
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
    ("bench_engine", ["--deals", "0", "--skip-e2e"], "--deals: 0, expected 1 to 2**63 - 1"),
    ("bench_engine", ["--e2e-deals", "-3"], "--e2e-deals: -3, expected 1 to 2**63 - 1"),
    # (break-it pass of 2026-12-06: refused by the child after every engine configuration had run)
    # (an --out that is refused too: were the check to come late again, no line reaches results/)
    ("bench_engine", ["--e2e-deals", str(10 ** 19), "--out", "/dev/null"],
     "--e2e-deals: 10000000000000000000, expected 1 to 2**63 - 1"),
    ("bench_engine", ["--skip-e2e", "--e2e-deals", "5", "--out", "/dev/null"], "--e2e-deals: not with --skip-e2e"),
    ("bench_engine", ["--out", "/dev/full"], "--out: cannot write /dev/full: not a regular file"),
    ("bench_minimal_loop", ["--deals", "-5"], "--deals: -5, expected 1 to 2**62"),
    ("bench_minimal_loop", ["--deals", str(2 ** 63)], "expected 1 to 2**62"),
    ("bench_minimal_loop", ["--out", "/"], "--out: cannot write /: names a directory"),
    ("bench_minimal_loop", ["--out", ""], "--out: empty path"),
    ("bench_engine", ["--out", ""], "--out: empty path"),
    ("bench_compile", ["--out", ""], "--out: empty path"),
    ("bench_compile", ["--out", "/"], "--out: cannot write /: names a directory"),
    ("bench_solve_file", ["--lines", "1"], "--lines: 1, expected at least 2"),
    ("bench_solve_file", ["--configs", "2p-4left,2p-4left"], "--configs: expected distinct names"),
    ("bench_solve_file", ["--configs", "9p-4left"], "--configs: expected distinct names"),
    ("bench_solve_file", ["--seed", "-1"], "--seed: -1, expected 0 <= seed < 2**64"),
    ("bench_solve_file", ["--threads", "0"], "--threads: 0, expected 1 to 256"),
    ("bench_solve_file", ["--input", "pipe"], "--input: expected distinct names among file, stdin"),
    ("bench_solve_file", ["--input", "file,file"], "--input: expected distinct names among file, stdin"),
    ("bench_solve_file", ["--out", "/"], "--out: cannot write /: names a directory"),
])
def test_benchmark_scripts_refuse_bad_arguments_first(script, args, msg, capsys, monkeypatch, tmp_path):
    """bench_engine used to fail with tracebacks (ZeroDivisionError, negative dimensions) or only
    after its whole run (a bad --e2e-deals or --out); bench_minimal_loop wrote negative deals/s. The
    work itself is replaced by a failure and the default output moved to tmp_path: a check that let a bad
    argument through ran the real benchmark and appended to results/ (mutation pass 21: 7.5 minutes)."""
    mod = bench_script(script)

    def never(*a, **k):
        raise AssertionError(f"{script} went on to its work with {args}")

    for name in ("machine", "run", "measure", "bench_engine", "bench_end_to_end", "minimal"):
        if hasattr(mod, name):
            monkeypatch.setattr(mod, name, never)
    monkeypatch.setattr(mod, "OUT_DIR", tmp_path)
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


# --- break-it pass on the benchmark scripts (2026-12-06) ---------------------------------------------------------

def _check_out():
    return bench_script("_common").check_out


def test_json_lines_are_appended_only_to_json_lines(tmp_path):
    """A JSON-lines script appended its record to any regular file: to a parquet file named by a typo (left
    unreadable; `--out results/open_values.parquet` would have destroyed the tracked table), or glued to a
    cut last line (pandas then could not read the file). An empty file or whole JSON lines are appended to."""
    check_out = _check_out()
    (tmp_path / "t.parquet").write_bytes(b"PAR1\x00\x01binaryPAR1")
    (tmp_path / "cut.jsonl").write_text('{"a": 1}\n{"b": ')
    (tmp_path / "text.jsonl").write_text("not json\n")
    (tmp_path / "ok.jsonl").write_text('{"a": 1}\n{"b": 2}\n')
    (tmp_path / "empty.jsonl").write_text("")
    assert "does not end with a newline" in check_out(str(tmp_path / "t.parquet"), jsonl=True)
    assert "does not end with a newline" in check_out(str(tmp_path / "cut.jsonl"), jsonl=True)
    assert "not a JSON object" in check_out(str(tmp_path / "text.jsonl"), jsonl=True)
    for ok in ("ok.jsonl", "empty.jsonl", "new.jsonl"):
        assert check_out(str(tmp_path / ok), jsonl=True) is None, ok
    assert check_out(str(tmp_path / "t.parquet")) is None  # (open_values' own parquet check is its own)
    mod = bench_script("bench_minimal_loop")
    with pytest.raises(SystemExit) as e:
        mod.main(["--deals", "1", "--out", str(tmp_path / "t.parquet")])
    assert e.value.code == 2 and (tmp_path / "t.parquet").read_bytes() == b"PAR1\x00\x01binaryPAR1"


def test_bench_solver_refuses_before_solving(tmp_path, monkeypatch, capsys):
    """bench_solver: --threads 2 with one position crashed with a KeyError after solving; a repeated
    configuration ran and appended twice; a default output that cannot be written (a directory in its place)
    failed only after the run. Each is refused first (exit 2), naming the option or the default path."""
    mod = bench_script("bench_solver")
    out = str(tmp_path / "s.jsonl")
    for argv, msg in ((["--threads", "2", "--configs", "2p-4left", "--deals", "1", "--out", out],
                       "--threads 2: needs --deals 2 or more"),
                      (["--configs", "2p-4left,2p-4left", "--deals", "1", "--out", out],
                       "--configs: '2p-4left' given more than once")):
        monkeypatch.setattr(sys, "argv", ["bench_solver.py", *argv])
        with pytest.raises(SystemExit) as e:
            mod.main()
        assert e.value.code == 2 and msg in capsys.readouterr().err
    with pytest.raises(SystemExit, match="gave 1 position"):  # (the function itself: the KeyError's place)
        mod.threads_run("2p-4left", 1, 1, 2)
    (tmp_path / "d" / "solver.jsonl").mkdir(parents=True)
    monkeypatch.setattr(mod, "OUT_DIR", tmp_path / "d")
    monkeypatch.setattr(sys, "argv", ["bench_solver.py", "--configs", "2p-4left", "--deals", "1"])
    with pytest.raises(SystemExit) as e:
        mod.main()
    assert e.value.code == 2 and "the default output" in capsys.readouterr().err
    assert not os.path.exists(out)


def test_open_values_default_and_summary_options(capsys):
    """open_values: the default --out was relative to the working directory (a run from elsewhere started a
    new table there instead of continuing the tracked one); --summary ignored the run's options silently."""
    mod = bench_script("open_values")
    assert mod.DEFAULT_OUT == os.path.join(ROOT, "results", "open_values.parquet")
    with pytest.raises(SystemExit) as e:
        mod.parse_args(["--summary", "--deals", "-5", "--threads", "9"])
    assert e.value.code == 2 and "--summary: prints the summary of --out only (not with --deals, --threads)" in \
        capsys.readouterr().err


def test_eval_heuristic_options_and_pair_interval(tmp_path, capsys):
    """eval_heuristic: --no-save ignored --out; --pairs 1e20 failed in numpy ("Maximum allowed dimension
    exceeded"); the pair interval of 3 pairs reached 1.16 (now clipped to [0, 1], as the simulator's)."""
    mod = bench_script("eval_heuristic")
    assert mod.main(["--no-save", "--out", str(tmp_path / "x.jsonl")]) == 2
    assert "--no-save: prints only (not with --out)" in capsys.readouterr().err
    assert mod.main(["--pairs", str(10 ** 20), "--no-save"]) == 2
    assert "--pairs must be at most 1,000,000,000" in capsys.readouterr().err
    assert mod.main(["--pairs", "3", "--opponent", "random", "--seed", "1", "--no-save"]) == 0
    rec = json.loads(capsys.readouterr().out)
    lo, hi = rec["win_rate_ci95_pairs"]
    assert 0.0 <= lo <= rec["win_rate"] <= hi <= 1.0 and hi == 1.0


def test_timed_runs_are_chunked_with_the_same_result():
    """bench_minimal_loop and eval_heuristic ran their timed work as one numba call, so Ctrl-C waited for the
    whole run (10 minutes and more); both now run chunks, with the same deals: the minimal loop's points over
    deals 0..N-1 are the sum over its chunks, and eval_heuristic's chunk is a whole number of pairs."""
    mod = bench_script("bench_minimal_loop")
    assert mod.minimal(0, 700) == mod.minimal(0, 300) + mod.minimal(300, 400)
    assert bench_script("eval_heuristic").CHUNK % 2 == 0 and mod.CHUNK >= 1


def test_bench_compile_commands_are_shell_quoted():
    """compile.jsonl's stage commands were joined with spaces: a pasted position split at its spaces and its
    `?` globbed. They are shell-quoted, and split back into the stage's arguments."""
    import shlex
    mod = bench_script("bench_compile")
    for _, argv in mod.STAGES:
        cmd = mod._command(argv)
        assert shlex.split(cmd) == ["brisca", *(a.replace("{tmp}/", "") for a in argv)], cmd
    assert any("?" in a for _, argv in mod.STAGES for a in argv)  # (the stock=? stage)


def test_bench_solve_file_runs_and_writes_one_line_per_run(tmp_path, capsys):
    """bench_solve_file (2026-12-06): a small run writes one strict-JSON line without --out and one with
    --out parquet for each input (the file by name, and as standard input: --file -), each with positive
    memory and a rate that is positive or null (too few lines)."""
    mod = bench_script("bench_solve_file")
    out = tmp_path / "sf.jsonl"
    mod.main(["--lines", "6", "--repeat", "1", "--out", str(out), "--input", "file,stdin"])
    recs = [json.loads(x, parse_constant=lambda c: pytest.fail(f"non-standard JSON {c}"))
            for x in out.read_text().splitlines()]
    assert [(r["input"], r["out"]) for r in recs] == [("file", None), ("file", "parquet"), ("stdin", None),
                                                      ("stdin", "parquet")]
    for r in recs:
        assert r["config"] == "2p-4left" and r["lines"] == 6 and r["threads"] == 1 and r["repeat"] == 1
        assert r["peak_rss_mb"] > 0 and r["wall_s"] > 0 and r["one_line_wall_s"] > 0
        assert r["lines_per_s"] is None or r["lines_per_s"] > 0


def test_bench_engine_stopping_signals(tmp_path):
    """bench_engine: SIGHUP (`kill -HUP`, a closed ssh session) killed the script outright, leaving the end-to-end
    child writing its parquet file in a temporary directory never removed, where SIGTERM unwound; and main left its
    SIGTERM handler installed after returning (an in-process caller's SIGTERM then raised SystemExit(143)). Both
    signals unwind now (exit 128 + signal, the lines already written kept), the caller's handlers put back. The
    work is replaced by a signal sent to the script itself (no engine run)."""
    code = f"""
import os, signal, sys
sys.path.insert(0, {os.path.join(ROOT, "tests")!r})
from conftest import bench_script
mod = bench_script("bench_engine")
mod.machine = lambda: {{}}
def engine(players, policy, threads, deals):
    os.kill(os.getpid(), signal.SIG{{sig}})
    raise AssertionError("not stopped")
mod.bench_engine = engine
before = signal.getsignal(signal.SIGTERM)
try:
    status = mod.main(["--deals", "1", "--skip-e2e", "--out", {str(tmp_path / "e.jsonl")!r}])
except SystemExit as e:
    status = e.code
print("restored" if signal.getsignal(signal.SIGTERM) is before else "left installed")
sys.exit(status)
"""
    for sig, num in (("TERM", 15), ("HUP", 1)):
        r = subprocess.run([sys.executable, "-c", code.replace("{sig}", sig)], capture_output=True, text=True,
                           timeout=120, cwd=ROOT, preexec_fn=default_stop_signals)
        assert r.returncode == 128 + num, (sig, r.returncode, r.stderr[-500:])
        assert r.stdout.strip() == "restored" and "terminated" in r.stderr, (sig, r.stdout, r.stderr[-500:])


def test_stops_raise_leaves_an_ignored_signal_ignored():
    """_common.stops_raise made SIGHUP raise Terminated even when it was ignored on entry: `nohup python
    benchmarks/bench_engine.py &` (and bench_compile, bench_solve_file) stopped when the terminal closed, which
    nohup is for (review of 2026-12-07). An ignored signal stays ignored; SIGTERM still unwinds."""
    code = f"""
import os, signal, sys, time
sys.path.insert(0, {os.path.join(ROOT, "benchmarks")!r})
from _common import Terminated, stops_raise
signal.signal(signal.SIGHUP, signal.SIG_IGN)
with stops_raise():
    os.kill(os.getpid(), signal.SIGHUP)
    time.sleep(0.05)
    print("outlived SIGHUP")
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)
    except Terminated as e:
        print("SIGTERM raised", e.signum)
print("ignored after" if signal.getsignal(signal.SIGHUP) == signal.SIG_IGN else "changed")
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-500:]
    assert r.stdout.split("\n")[:3] == ["outlived SIGHUP", "SIGTERM raised 15", "ignored after"], r.stdout


def test_stops_raise_outside_the_main_thread_changes_nothing():
    """A script's ``main`` run in a thread: stops_raise leaves the handlers alone instead of raising ValueError
    from ``signal.signal`` (bench_engine.py wrapped it in its own main-thread check; bench_solve_file.py and
    bench_compile.py raised there)."""
    import signal
    import threading

    common = bench_script("_common")
    before = signal.getsignal(signal.SIGTERM)
    errors, inside = [], []

    def run():
        try:
            with common.stops_raise():
                inside.append(signal.getsignal(signal.SIGTERM))
        except BaseException as e:  # (said by the assertion)
            errors.append(e)
    t = threading.Thread(target=run)
    t.start()
    t.join(10)
    assert not errors and inside == [before], (errors, inside)
    assert signal.getsignal(signal.SIGTERM) is before


def test_emit_keeps_the_record_when_stdout_reader_is_gone(tmp_path):
    """``bench_solver.py | head -1`` (stdout's reader gone): ``_common.emit`` raised BrokenPipeError before
    appending to the file, so the record was lost and bench_solver blamed its --out ("cannot write F: Broken
    pipe"). Now stdout goes to the null device and every record still reaches the file, exit 0, no
    "Exception ignored" at the interpreter's exit (review of 2026-12-07, fifth part)."""
    out = tmp_path / "o.jsonl"
    code = (f"import sys; sys.path.insert(0, {BENCH!r}); import _common; from pathlib import Path\n"
            f"for i in range(3): _common.emit(Path({str(out)!r}), {{'i': i}})\n")
    r, w = os.pipe()
    os.close(r)  # (the reader is gone before the first line)
    try:
        p = subprocess.run([sys.executable, "-c", code], stdout=w, stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(w)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert [json.loads(x)["i"] for x in out.read_text().splitlines()] == [0, 1, 2]
