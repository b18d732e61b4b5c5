"""Mutation pass 32 over the benchmark scripts' shared code (benchmarks/_common.py) and bench_engine.py,
bench_compile.py: the survivors' tests. Nothing is benchmarked: the clocks, the engine, the child processes and
the compile events are stand-ins; what is checked is the bookkeeping that turns them into a results line."""
from __future__ import annotations

import datetime
import json
import os
import subprocess
import time
import types

import pytest
from conftest import bench_script


def test_timed_in_chunks_sums_the_calls_wall_and_cpu_time(monkeypatch):
    """Wall and CPU seconds are each clock's time inside ``run``, summed over the chunks. Stand-in clocks: a call
    of ``count`` items takes ``count`` wall seconds and ``count / 4`` CPU seconds. Mutants: only the last chunk's
    wall time kept (``wall =``); the CPU figure taken from the wall clock (deals_per_cpu_s = deals_per_s)."""
    c = bench_script("_common")
    clock = {"wall": 0.0, "cpu": 0.0}
    monkeypatch.setattr(c, "time", types.SimpleNamespace(perf_counter=lambda: clock["wall"],
                                                         process_time=lambda: clock["cpu"]))
    calls = []

    def run(start, count):
        calls.append((start, count))
        clock["wall"] += count
        clock["cpu"] += count / 4

    assert c.timed_in_chunks(10, 4, run) == (10.0, 2.5)
    assert calls == [(0, 4), (4, 4), (8, 2)]


def test_timed_in_chunks_leaves_out_time_between_chunks(monkeypatch):
    """Time spent outside ``run`` (between chunks) is not counted: a stand-in wall clock that jumps 100 s at
    every read outside a call. Mutant family: the timer started once before the loop."""
    c = bench_script("_common")
    state = {"wall": 0.0, "inside": False}

    def perf():
        if not state["inside"]:
            state["wall"] += 100.0  # (reads made between calls: the loop's own time)
        return state["wall"]

    monkeypatch.setattr(c, "time", types.SimpleNamespace(perf_counter=perf, process_time=lambda: 0.0))

    def run(start, count):
        state["wall"] += count
    wall, _ = c.timed_in_chunks(6, 4, run)
    # each chunk: t0 read (+100), the call (+count), the end read (+100): 100 + count per chunk
    assert wall == 2 * 100.0 + 6


def test_emit_makes_the_missing_parent_directories(tmp_path, capsys):
    """emit's docstring: the file's missing parent directories are made. Mutant: the mkdir dropped (the
    record printed, then FileNotFoundError)."""
    c = bench_script("_common")
    out = tmp_path / "a" / "b" / "r.jsonl"
    c.emit(out, {"x": 1})
    c.emit(out, {"x": 2})
    assert [json.loads(x) for x in out.read_text().splitlines()] == [{"x": 1}, {"x": 2}]
    assert capsys.readouterr().out.splitlines() == ['{"x": 1}', '{"x": 2}']


def test_commit_is_the_checkouts_from_any_directory_and_unknown_outside_git(tmp_path, monkeypatch):
    """Every line's ``commit`` is that of the checkout measured (git run in ROOT), whatever the current
    directory, and "unknown" where git fails. Mutants: git run in the current directory (another repository's
    commit, or "unknown"); git's failure not checked (an empty commit)."""
    c = bench_script("_common")
    want = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=c.ROOT, capture_output=True, text=True)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    monkeypatch.chdir(tmp_path)
    if want.returncode == 0:
        assert c.commit() == want.stdout.strip() != ""
    monkeypatch.setattr(c, "ROOT", tmp_path)  # (not a git repository)
    assert c.commit() == "unknown"


def test_cpu_name_is_the_model_name_lines_value(monkeypatch):
    """cpu_name: the value of /proc/cpuinfo's first ``model name`` line. Mutant: the key ("model name")
    returned instead of the value."""
    c = bench_script("_common")
    text = "processor\t: 0\nvendor_id\t: X\nmodel name\t: Test CPU @ 1.00GHz\nmodel name\t: Other\n"
    monkeypatch.setattr(c, "Path", lambda p: types.SimpleNamespace(read_text=lambda: text))
    assert c.cpu_name() == "Test CPU @ 1.00GHz"


def test_machine_time_is_utc_with_its_offset():
    """machine()'s ``utc``: ISO 8601 in UTC, seconds, with its offset. Mutant: local naive time."""
    c = bench_script("_common")
    utc = datetime.datetime.fromisoformat(c.machine()["utc"])
    assert utc.utcoffset() == datetime.timedelta(0) and utc.microsecond == 0


def test_bench_engine_sets_threads_warms_up_then_times_every_deal_once(monkeypatch):
    """bench_engine: numba's threads set before the engine runs, one untimed warm-up call (compile), then the
    timed chunks over deals 0..N-1 each once. Stand-in engine and chunk of 2. Mutants: the warm-up dropped
    (compiling inside the timed figure), set_num_threads dropped (a 1-thread line run on every core), every
    chunk replaying deals 0..k-1."""
    mod = bench_script("bench_engine")
    log = []
    monkeypatch.setattr(mod, "CHUNK", 2)
    monkeypatch.setattr(mod.numba, "set_num_threads", lambda k: log.append(("threads", k)))
    monkeypatch.setattr(mod, "play_batch", lambda ra, deck, seed, d0, k, *rest: log.append(("play", d0, k)))
    timed = mod.timed_in_chunks

    def mark(total, chunk, run):
        log.append("timed")
        return timed(total, chunk, run)

    monkeypatch.setattr(mod, "timed_in_chunks", mark)
    r = mod.bench_engine(2, "random", 3, 5)
    assert log == [("threads", 3), ("play", 0, 2), "timed", ("play", 0, 2), ("play", 2, 2), ("play", 4, 1)]
    assert r["threads"] == 3 and r["deals"] == 5


@pytest.mark.parametrize("cores", [1, 2])
def test_bench_engine_main_one_line_per_configuration(cores, tmp_path, monkeypatch, capsys):
    """main: players 2 and 4, both policies, 1 thread and every core: 8 lines, 4 on one core (not each
    1-thread configuration twice). Mutant: threads (1, cores) not deduplicated."""
    mod = bench_script("bench_engine")
    monkeypatch.setattr(mod.os, "cpu_count", lambda: cores)
    monkeypatch.setattr(mod, "machine", lambda: {"cpu": "x"})
    monkeypatch.setattr(mod, "bench_engine", lambda p, pol, t, d: {"players": p, "policy": pol, "threads": t})
    out = tmp_path / "e.jsonl"
    assert mod.main(["--deals", "1", "--skip-e2e", "--out", str(out)]) == 0
    got = [(r["players"], r["policy"], r["threads"]) for r in map(json.loads, out.read_text().splitlines())]
    want = [(p, pol, t) for p in (2, 4) for pol in ("random", "heuristic") for t in sorted({1, cores})]
    assert got == want


class _FakePopen:
    """subprocess.Popen stand-in: records the command and environment; communicate raises ``raises`` or answers
    (stdout, stderr) with ``returncode``."""
    raises = None
    answer = ("", "")
    returncode = 0
    made: list = []

    def __init__(self, cmd, env=None, **kw):
        self.cmd, self.env, self.killed, self.waited = cmd, env, False, False
        type(self).made.append(self)

    def communicate(self):
        if self.raises:
            raise self.raises
        return self.answer

    def kill(self):
        self.killed = True

    def wait(self):
        self.waited = True


def test_bench_engine_simulate_child_runs_this_checkout_and_is_killed_when_interrupted(tmp_path, monkeypatch):
    """_simulate: the child runs with this checkout first on PYTHONPATH, and a Ctrl-C (or Terminated) while it
    runs kills it (no orphan writing a large parquet file). Mutants: kill dropped; PYTHONPATH not set."""
    mod = bench_script("bench_engine")
    fake = type("P", (_FakePopen,), {"raises": KeyboardInterrupt(), "made": []})
    monkeypatch.setattr(mod.subprocess, "Popen", fake)
    monkeypatch.setenv("PYTHONPATH", "/elsewhere")
    with pytest.raises(KeyboardInterrupt):
        mod._simulate(10, tmp_path / "o.parquet")
    (p,) = fake.made
    assert p.killed and p.waited
    assert p.env["PYTHONPATH"].split(os.pathsep) == [str(mod.ROOT), "/elsewhere"]
    assert p.cmd[p.cmd.index("--deals") + 1] == "10"


def test_bench_end_to_end_record_and_failed_child(monkeypatch):
    """bench_end_to_end's line: peak RSS in MiB (KiB / 1024), threads = the cores the CLI uses, the child's
    own figures; a failed child ends the script with its error. Stand-ins for the warm-up, the child and
    getrusage. Mutants: KiB / 1000; threads 1; the child's failure ignored (json.loads of an empty stdout)."""
    import sim.batch
    mod = bench_script("bench_engine")
    monkeypatch.setattr(sim.batch, "simulate", lambda *a, **k: None)
    monkeypatch.setattr(mod.resource, "getrusage", lambda who: types.SimpleNamespace(ru_maxrss=102400))
    monkeypatch.setattr(mod.os, "cpu_count", lambda: 3)

    def child(deals, out):
        out.write_bytes(b"\0" * 2 ** 19)
        return subprocess.CompletedProcess([], 0, json.dumps({"seconds": 1.5, "sim_seconds": 1.25,
                                                              "deals_per_s": 8}), "")

    monkeypatch.setattr(mod, "_simulate", child)
    r = mod.bench_end_to_end(7)
    assert (r["peak_rss_mib"], r["threads"], r["deals"], r["parquet_mib"]) == (100.0, 3, 7, 0.5)
    assert (r["run_seconds"], r["sim_seconds"], r["deals_per_s"]) == (1.5, 1.25, 8)
    monkeypatch.setattr(mod, "_simulate", lambda d, o: subprocess.CompletedProcess([], 1, "", "boom\n"))
    with pytest.raises(SystemExit, match="brisca simulate failed: boom"):
        mod.bench_end_to_end(7)


def test_bench_compile_child_records_own_seconds_and_status(tmp_path, monkeypatch):
    """_child: a compile's seconds exclude its callees' compiles (nested numba:compile events), and a
    SystemExit with a message (not a number) is status 1. Stand-in ``brisca`` main firing nested events.
    Mutants: the outer compile's seconds counting the inner one (``dt``, or the child time not added up);
    a message exit reported as 0."""
    from numba.core import event

    import sim.cli
    mod = bench_script("bench_compile")
    listeners = []
    real_register = event.register
    monkeypatch.setattr(event, "register", lambda kind, lsn: (listeners.append((kind, lsn)), real_register(kind, lsn)))

    def f():
        pass

    def g():
        pass

    def fake_main(argv):
        with event.trigger_event("numba:compile", data={"dispatcher": types.SimpleNamespace(py_func=f), "args": "(a)"}):
            time.sleep(0.02)
            with event.trigger_event("numba:compile",
                                     data={"dispatcher": types.SimpleNamespace(py_func=g), "args": "(b)"}):
                time.sleep(0.5)
        raise SystemExit(argv[0])

    monkeypatch.setattr(sim.cli, "main", fake_main)
    ev = tmp_path / "ev.json"
    try:
        assert mod._child(str(ev), ["a message"]) == 1
        assert mod._child(str(ev), [3]) == 3
    finally:
        for kind, lsn in listeners:
            event.unregister(kind, lsn)
    rec = json.loads(ev.read_text())
    assert [r[1] for r in rec] == ["(b)", "(a)"] and rec[0][0].endswith(".g") and rec[1][0].endswith(".f")
    assert rec[0][2] >= 0.49 and rec[1][2] < 0.4, rec  # (0.02 s own, 0.52 s with the mutants: slack for load)


def test_bench_compile_stage_child_environment_and_failure(tmp_path, monkeypatch):
    """_run_stage: the child gets the run's fresh NUMBA_CACHE_DIR and this checkout on PYTHONPATH, ``{tmp}``
    in an argument becomes the run's directory, and a failed stage raises RuntimeError with its status. Mutants:
    NUMBA_CACHE_DIR not passed (a warm user cache: no compile measured); a failure not raised."""
    mod = bench_script("bench_compile")
    made: list = []

    class P(_FakePopen):
        def __init__(self, cmd, env=None, **kw):
            super().__init__(cmd, env, **kw)
            made.append(self)
            with open(cmd[cmd.index("--child") + 1], "w") as fh:
                json.dump([["m.f", "(x)", 0.5]], fh)

    monkeypatch.setattr(mod.subprocess, "Popen", P)
    res = mod._run_stage(["simulate", "--out", "{tmp}/r.parquet"], "/c/cache", str(tmp_path))
    assert res["events"] == [["m.f", "(x)", 0.5]]
    (p,) = made
    assert p.env["NUMBA_CACHE_DIR"] == "/c/cache" and p.env["PYTHONPATH"] == str(mod.ROOT)
    assert p.cmd[-3:] == ["simulate", "--out", f"{tmp_path}/r.parquet"] and p.cmd[-4] == "--"
    P.returncode, P.answer = 3, ("", "bad things\n")
    with pytest.raises(RuntimeError, match="exited 3: bad things"):
        mod._run_stage(["solve", "x"], "/c/cache", str(tmp_path))


def test_bench_compile_run_sums_stages_and_lists_repeated_and_slowest(tmp_path, monkeypatch):
    """run(): per stage compile seconds (sum of its events) and compiles; a function's own seconds summed over
    the stages; ``repeated`` only the functions compiled for more than one signature, slowest first; the 8
    slowest; the temporary directory removed. Stand-in stages. Mutants: ``repeated`` with every function, or
    fastest first; a stage's largest event for its sum; a function's seconds of its last stage only; 7
    slowest; the directory kept."""
    mod = bench_script("bench_compile")
    ev = {"s1": [["m.a", "(i)", 1.0], ["m.b", "(i)", 0.5], ["m.c", "(i)", 0.25]],
          "s2": [["m.a", "(j)", 2.0], ["m.b", "(j)", 4.0]] + [[f"m.z{i}", "(i)", 0.01 * (i + 1)] for i in range(7)]}
    seen = []

    def stage(argv, cache, tmp):
        seen.append(tmp)
        return {"seconds": 9.0, "events": ev[argv[0]]}

    monkeypatch.setattr(mod, "STAGES", (("one", ["s1"]), ("two", ["s2"])))
    monkeypatch.setattr(mod, "_run_stage", stage)
    monkeypatch.setattr(mod, "machine", lambda: {})
    r = mod.run()
    assert [(s["stage"], s["compile_seconds"], s["compiles"], s["warm_seconds"]) for s in r["stages"]] == [
        ("one", 1.75, 3, 9.0), ("two", 6.28, 9, 9.0)]
    assert r["repeated"] == [{"function": "m.b", "signatures": 2, "compile_seconds": 4.5},
                             {"function": "m.a", "signatures": 2, "compile_seconds": 3.0}]
    assert [s["function"] for s in r["slowest"]] == ["m.b", "m.a", "m.c", "m.z6", "m.z5", "m.z4", "m.z3", "m.z2"]
    assert r["compile_seconds_total"] == 8.03 and r["cold_seconds_total"] == 18.0
    assert seen and not any(os.path.exists(t) for t in seen)


def test_bench_compile_child_mode_needs_its_separator_and_a_failed_stage_is_one_line(tmp_path, monkeypatch,
                                                                                      capsys):
    """main: ``--child EVENTS`` followed by anything but ``--`` is the usage error (nothing run, no events file);
    a stage that fails (RuntimeError) exits 1 with one line and nothing written. Mutants: the separator not
    checked (brisca run with the wrong arguments); the RuntimeError handler dropped (a traceback)."""
    mod = bench_script("bench_compile")
    ev = tmp_path / "ev.json"
    assert mod.main(["--child", str(ev), "solve", "x"]) == 2 and not ev.exists()
    assert "usage: --child" in capsys.readouterr().err

    def fail():
        raise RuntimeError("brisca solve x exited 2: no")

    monkeypatch.setattr(mod, "run", fail)
    out = tmp_path / "c.jsonl"
    assert mod.main(["--out", str(out)]) == 1 and not out.exists()
    assert capsys.readouterr().err == "bench_compile.py: error: brisca solve x exited 2: no\n"
