"""First-run cost: how long the README's commands take on a cold numba cache, and what compiles.

Every jitted function is compiled on its first call and cached (``cache=True``); a new user's first
``brisca simulate`` and first ``brisca solve`` pay for it, and so does every CI run (a fresh cache).
This benchmark runs each stage below in its own child process, in order, sharing one fresh
``NUMBA_CACHE_DIR`` (a temporary directory, removed at the end), then runs them again on the warm
cache. Each child records numba's compile events (``numba.core.event``, ``"numba:compile"``): the
function, its argument types and the seconds spent on it (its callees' compiles excluded).

A function compiled for more than one argument-type tuple is listed under ``repeated``: usually a
literal argument (``Literal[int](0)``, ``Literal[bool](True)``), either a constant passed directly or
a loop variable whose first type is a literal while numba infers the loop's types, which costs a
whole extra compile of that function. Pass ``np.int64(...)`` / a runtime bool instead.

One JSON line into ``results/benchmarks/compile.jsonl``: ``kind`` (``"compile"``), ``stages`` (per stage
``stage``, ``command``, ``cold_seconds`` (wall, process start to exit), ``compile_seconds`` (sum of the
compile events), ``compiles`` (their count) and ``warm_seconds``), ``cold_seconds_total`` and
``compile_seconds_total`` (over the stages), ``slowest`` (the 8 functions that took longest to compile:
``function``, ``compile_seconds``), ``repeated`` (above: ``function``, ``signatures``, ``compile_seconds``),
``unit`` (``"s"``) and the machine's facts (``benchmarks/_common.py``'s ``machine``).

Usage::

    python benchmarks/bench_compile.py [--out results/benchmarks/compile.jsonl]

It takes a few minutes (about 2 on the 2-core Intel Xeon of results/README.md, 5-8 on the slower machines of
earlier sessions); run it on a quiet machine.
"""
from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's sim, not an installed one
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import (ArgumentParser, OUT_DIR, ROOT, Terminated, check_out, emit, machine,  # noqa: E402
                     stops_raise)

POSITION = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
#: README's ``stock=?`` example (expectimax over the draw orders).
HIDDEN = ("players=2 trump=5B hands=3C,6C/10O,2C,12E stock=? turn=1 trick=1O points=62,17 "
          "played=3O,4O,5O,6O,7O,11O,12O,1C,4C,5C,10C,11C,12C,1E,2E,4E,5E,6E,7E,10E,11E,1B,2B,3B,6B,7B,10B,11B")

#: A 4-player position (4 tricks left): its first solve compiles the four-player kernel (solver.search.FOUR),
#: which a 2-player solve no longer does.
POSITION4 = "players=4 trump=4O hands=12O,7C,6O/10O,6B,7E/11C,4C,1O/5C,1B,3B stock=3C,10C,5B turn=2 trick= points=16,0,24,27"

#: (stage name, brisca arguments); ``{tmp}`` is the run's temporary directory.
STAGES = (
    ("simulate", ["simulate", "--players", "2", "--deals", "1000", "--policy", "heuristic", "--policy", "random",
                  "--seed", "1", "--out", "{tmp}/run.parquet", "--no-progress"]),
    ("solve", ["solve", POSITION]),
    ("simulate-solver", ["simulate", "--players", "2", "--deals", "2", "--policy", "solver", "--seed", "1",
                         "--out", "{tmp}/open.parquet", "--no-progress"]),
    ("solve-win", ["solve", "--win", POSITION]),
    ("solve-hidden-stock", ["solve", HIDDEN]),
    ("solve-4-players", ["solve", POSITION4]),
)


def _child(out_json: str, argv: list) -> int:
    """Run ``brisca argv`` in this process with a compile-event recorder; write the events to
    ``out_json`` (``[[function, argument types, own seconds], ...]``) and return its exit status."""
    from numba.core import event

    stack, rec = [], []

    class _Recorder(event.Listener):
        def on_start(self, ev):
            d = ev.data.get("dispatcher")
            name = f"{d.py_func.__module__}.{d.py_func.__qualname__}" if d is not None else "?"
            stack.append([name, str(ev.data.get("args")), time.perf_counter(), 0.0])

        def on_end(self, ev):
            name, args, t0, child = stack.pop()
            dt = time.perf_counter() - t0
            rec.append([name, args, round(dt - child, 4)])
            if stack:
                stack[-1][3] += dt

    event.register("numba:compile", _Recorder())
    from sim.cli import main

    try:
        main(argv)
        status = 0
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else 1
    with open(out_json, "w") as fh:
        json.dump(rec, fh)
    return status


def _run_stage(argv: list, cache: str, tmp: str) -> dict:
    """One stage in a child process: wall seconds, exit status and the compile events."""
    ev_file = os.path.join(tmp, "events.json")
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
    args = [a.replace("{tmp}", tmp) for a in argv]
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, __file__, "--child", ev_file, "--", *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        _, err = proc.communicate()
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"brisca {' '.join(args)} exited {proc.returncode}: {err.strip()[-500:]}")
    with open(ev_file) as fh:
        events = json.load(fh)
    return {"seconds": round(wall, 2), "events": events}


def run() -> dict:
    """Every stage cold, then warm; the benchmark's record."""
    tmp = tempfile.mkdtemp(prefix="bench_compile_")
    cache = os.path.join(tmp, "numba_cache")
    try:
        stages, sigs, own = [], {}, {}
        for name, argv in STAGES:
            print(f"{name}: cold...", file=sys.stderr, flush=True)
            cold = _run_stage(argv, cache, tmp)
            for fn, args, sec in cold["events"]:
                sigs.setdefault(fn, set()).add(args)
                own[fn] = own.get(fn, 0.0) + sec
            stages.append({"stage": name, "command": _command(argv),
                           "cold_seconds": cold["seconds"],
                           "compile_seconds": round(sum(e[2] for e in cold["events"]), 2),
                           "compiles": len(cold["events"])})
        for st, (name, argv) in zip(stages, STAGES):
            print(f"{name}: warm...", file=sys.stderr, flush=True)
            st["warm_seconds"] = _run_stage(argv, cache, tmp)["seconds"]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    repeated = sorted(({"function": fn, "signatures": len(s), "compile_seconds": round(own[fn], 2)}
                       for fn, s in sigs.items() if len(s) > 1 and not fn.startswith("numba.")),
                      key=lambda r: -r["compile_seconds"])
    slowest = sorted(own.items(), key=lambda kv: -kv[1])[:8]
    return {"kind": "compile", "stages": stages,
            "cold_seconds_total": round(sum(s["cold_seconds"] for s in stages), 2),
            "compile_seconds_total": round(sum(s["compile_seconds"] for s in stages), 2),
            "slowest": [{"function": fn, "compile_seconds": round(sec, 2)} for fn, sec in slowest],
            "repeated": repeated, "unit": "s", **machine()}


_Terminated = Terminated  # SIGTERM or SIGHUP: unwinds like Ctrl-C (the child killed, the cache removed)


def _command(argv) -> str:
    """A stage's command line as a user would type it: ``brisca`` and its arguments shell-quoted (a
    position's spaces and ``?`` pasted unquoted were split and globbed: break-it pass of 2026-12-06), the
    temporary directory's prefix dropped."""
    return "brisca " + shlex.join(a.replace("{tmp}/", "") for a in argv)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        if len(argv) < 3 or argv[2] != "--":
            print("bench_compile.py: error: usage: --child EVENTS.json -- BRISCA-ARGS... (internal mode)",
                  file=sys.stderr)
            return 2
        return _child(argv[1], argv[3:])
    ap = ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(OUT_DIR / "compile.jsonl"),
                    help="JSON-lines file to append to (default: results/benchmarks/compile.jsonl)")
    args = ap.parse_args(argv)
    bad = check_out(args.out, make_dirs=True, jsonl=True)
    if bad:
        ap.error(f"--out: {bad}")
    try:
        with stops_raise():
            rec = run()
    except KeyboardInterrupt:
        print("\ninterrupted: nothing written", file=sys.stderr)
        return 130
    except _Terminated as e:
        print("\nterminated: nothing written", file=sys.stderr)
        return 128 + e.signum
    except RuntimeError as e:
        print(f"bench_compile.py: error: {e}", file=sys.stderr)
        return 1
    try:
        emit(Path(os.path.realpath(args.out)), rec)
    except OSError as e:
        print(f"bench_compile.py: error: cannot write {args.out}: {e.strerror or e} (the line is printed above)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
