"""Engine throughput and end-to-end `brisca simulate` figures (issue 2, item 9).

Each configuration prints one JSON line and appends it to
``results/benchmarks/engine.jsonl`` (``--out`` to change):

* ``kind="engine"``: deals/s of :func:`sim.engine.play_batch` for the random
  and heuristic policies (every seat the same policy), 2 and 4 players, 1
  thread and every core; compile excluded (a warm-up batch first), wall time
  (``deals_per_s``) and process CPU time (``deals_per_cpu_s``) over
  ``--deals`` deals played in reused chunks of 1,000,000 rows. Keys: ``kind``,
  ``players``, ``policy``, ``threads``, ``deals``, ``seconds`` (wall),
  ``deals_per_s``, ``deals_per_cpu_s``, ``deals_per_s_per_thread``
  (``deals_per_s / threads``), ``unit``.
* ``kind="end_to_end"``: wall time and peak resident memory (MiB) of the CLI
  ``brisca simulate --players 2 --deals 10000000 --policy heuristic --policy
  random --seed 1 --out <tmp>.parquet --json`` in a child process. Keys:
  ``kind``, ``command``, ``deals``, ``threads`` (the machine's cores: the
  command's default), ``wall_seconds`` (process start to exit),
  ``peak_rss_mib``, ``run_seconds``, ``sim_seconds`` and ``deals_per_s`` (the
  summary's ``seconds``, ``sim_seconds`` and ``deals_per_s``), ``parquet_mib``
  (the file's size).

Every line also carries the machine and versions (``benchmarks/_common.py``'s
``machine``: ``cpu``, ``cores``, ``python``, ``numba``, ``numpy``, ``commit``,
``utc``).

Targets (issue 2): random 2-player >= 2.5 M deals/s per core; heuristic
>= 1.5 M per core; 10 M deals end to end < 15 s on 2 cores with peak memory
< 1 GiB.

Usage::

    python benchmarks/bench_engine.py [--deals 4000000] [--e2e-deals 10000000] [--skip-e2e] [--out FILE]
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's sim, not an installed one
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import (ArgumentParser, OUT_DIR, ROOT, Terminated, check_out, emit, machine, quiet_startup,  # noqa: E402
                     startup_done, stops_raise, timed_in_chunks)

if __name__ == "__main__":  # (Ctrl-C while numba and the engine load: exit 130, no traceback)
    quiet_startup()

import numba  # noqa: E402
import numpy as np  # noqa: E402

from sim.engine import R_SIZE, T_SIZE, play_batch  # noqa: E402
from sim.policies import POLICIES, N_PARAMS  # noqa: E402
from sim.rules import Rules  # noqa: E402

CHUNK = 1_000_000


def bench_engine(players: int, policy: str, threads: int, deals: int) -> dict:
    """Deals/s of play_batch, compile and allocation excluded."""
    rules = Rules(players=players)
    ra = rules.to_array()
    deck = np.array(rules.deck_cards, dtype=np.int8)
    pol = np.full(players, POLICIES.index(policy), dtype=np.int64)
    par = np.zeros((players, N_PARAMS))
    m = min(CHUNK, deals)
    res = np.zeros((m, R_SIZE), np.int16)
    hands0 = np.zeros((m, players, 3), np.int8)
    dseeds = np.zeros(m, np.uint64)
    tricks = np.zeros((1, rules.tricks, T_SIZE), np.int16)
    numba.set_num_threads(threads)
    play_batch(ra, deck, 1, 0, m, 1, pol, par, res, hands0, dseeds, tricks, False)  # compile + first touch
    wall, cpu = timed_in_chunks(deals, m, lambda d0, k: play_batch(ra, deck, 1, d0, k, 1, pol, par, res, hands0,
                                                                   dseeds, tricks, False))
    return {
        "kind": "engine", "players": players, "policy": policy, "threads": threads, "deals": deals,
        "seconds": round(wall, 6), "deals_per_s": round(deals / wall), "deals_per_cpu_s": round(deals / cpu),
        "deals_per_s_per_thread": round(deals / wall / threads), "unit": "deals/s",
    }


def _simulate(deals: int, out: Path) -> subprocess.CompletedProcess:
    """Run ``brisca simulate`` of this checkout (``python -m sim.cli`` with the checkout first on
    PYTHONPATH) on ``deals`` deals to ``out``; the child is killed if this process is interrupted."""
    cmd = [sys.executable, "-m", "sim.cli", "simulate", "--players", "2", "--deals", str(deals),
           "--policy", "heuristic", "--policy", "random", "--seed", "1", "--out", str(out), "--json",
           "--no-progress"]
    old = os.environ.get("PYTHONPATH")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + (os.pathsep + old if old else ""))
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    try:
        stdout, stderr = proc.communicate()
    except BaseException:
        proc.kill()  # no orphan left writing a large parquet file
        proc.wait()
        raise
    return subprocess.CompletedProcess(cmd, proc.returncode, stdout, stderr)


def bench_end_to_end(deals: int) -> dict:
    """Wall time and peak RSS of the CLI on ``deals`` deals (child process), after a small warm-up
    run of the same code in this process, so that the timed run loads compiled code from numba's
    cache instead of compiling (a cold cache used to put about 90 s of compiling into
    ``wall_seconds``)."""
    with tempfile.TemporaryDirectory() as tmp:
        # the warm-up runs in this process (same functions, same numba cache): a warm-up child would
        # count in RUSAGE_CHILDREN's peak, which is the largest child's
        from sim.batch import simulate
        simulate(Rules(players=2), ["heuristic", "random"], deals=1000, seed=1, out=str(Path(tmp) / "warm.parquet"))
        out = Path(tmp) / "run.parquet"
        t0 = time.perf_counter()
        proc = _simulate(deals, out)
        wall = time.perf_counter() - t0
        if proc.returncode != 0:
            raise SystemExit(f"brisca simulate failed: {proc.stderr.strip()}")
        peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # the larger child: the timed run
        summary = json.loads(proc.stdout)
        size = out.stat().st_size
    return {
        "kind": "end_to_end", "command": "brisca simulate --players 2 --deals %d --policy heuristic "
        "--policy random --seed 1 --out run.parquet --json" % deals, "deals": deals, "threads": os.cpu_count(),
        "wall_seconds": round(wall, 2), "peak_rss_mib": round(peak_kib / 1024, 1),
        "run_seconds": summary.get("seconds"), "sim_seconds": summary.get("sim_seconds"),
        "deals_per_s": summary.get("deals_per_s"), "parquet_mib": round(size / 2**20, 3),
    }


def main(argv=None) -> int:
    ap = ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=4_000_000, help="deals per engine configuration (default 4,000,000)")
    ap.add_argument("--e2e-deals", type=int, default=10_000_000, help="deals of the end-to-end run (default 10,000,000)")
    ap.add_argument("--skip-e2e", action="store_true", help="skip the end-to-end CLI run")
    ap.add_argument("--out", default=str(OUT_DIR / "engine.jsonl"),
                    help="JSON-lines file to append to (default: results/benchmarks/engine.jsonl)")
    args = ap.parse_args(argv)
    # (row and deal numbers are int64, as brisca simulate's --deals; a too large --e2e-deals was refused by the
    # child after every engine configuration had run, naming its --deals: break-it pass of 2026-12-06)
    if not 1 <= args.deals < 2 ** 63:
        ap.error(f"--deals: {args.deals}, expected 1 to 2**63 - 1")
    if not 1 <= args.e2e_deals < 2 ** 63:
        ap.error(f"--e2e-deals: {args.e2e_deals}, expected 1 to 2**63 - 1")
    if args.skip_e2e and args.e2e_deals != ap.get_default("e2e_deals"):
        ap.error("--e2e-deals: not with --skip-e2e")
    bad = check_out(args.out, make_dirs=True, jsonl=True)
    if bad:
        ap.error(f"--out: {bad}")
    args.out = Path(os.path.realpath(args.out))
    # SIGTERM and SIGHUP unwind as Ctrl-C does (the end-to-end child killed, its temporary directory removed),
    # the caller's handlers put back on return (in the main thread: stops_raise)
    try:
        with stops_raise():
            facts = machine()
            cores = os.cpu_count() or 1
            for players in (2, 4):
                for policy in ("random", "heuristic"):
                    for threads in sorted({1, cores}):
                        emit(args.out, {**bench_engine(players, policy, threads, args.deals), **facts})
            if not args.skip_e2e:
                emit(args.out, {**bench_end_to_end(args.e2e_deals), **facts})
    except KeyboardInterrupt:
        print("\ninterrupted: the lines printed above are kept in the output file", file=sys.stderr)
        return 130
    except Terminated as e:
        print("\nterminated: the lines printed above are kept in the output file", file=sys.stderr)
        return 128 + e.signum
    return 0


if __name__ == "__main__":
    startup_done()
    raise SystemExit(main())
