"""Solver benchmark (issue 3): single thread, seeded deals, one JSON line per configuration.

Configurations
--------------
``2p-full``   full 2-player deals from the first lead, known stock order (20 tricks)
``4p-full``   full 4-player deals from the first lead (10 tricks)
``2p-4left``  2-player positions with 4 tricks left (reached by seeded random play)
``4p-4left``  4-player positions with 4 tricks left (the issue's "positions with 4 tricks left" for the
              other table size: the last draw trick and the 3-trick endgame, R9)
``2p-10left`` the same with 10 tricks left (used by ``--ablation``: without a TT a full deal takes too long)
``4p-6left``  4-player positions with 6 tricks left (``--ablation --ablation-config 4p-6left``: the
              general kernel's techniques where 4-player search spends its time, the last tricks)
``3p-full``   full 3-player deals (13 tricks; paranoid value, the first leader against the others)
``3p-7left``  3-player positions with 7 tricks left
``6p-5left``  6-player positions with 5 tricks left (of 8; a full 6-player deal takes minutes)

Each position is solved for its exact value (MTD(f) on null-window probes,
:func:`solver.search.mtdf`); ``--all-moves`` times :func:`solver.search.solve_moves`
(every legal move's exact value) instead. The first guess is half the points left, as
:func:`solver.solve` does (``--guess 60``: a fixed 60, as the lines before 9894ca3 did; the same
for full deals, 120 points left). Compile time is excluded (one warm-up solve).
Lines go to ``results/benchmarks/solver.jsonl`` (``--ablation``: the positions of ``--ablation-config``,
2p-10left by default, one line per technique switched off or on, to
``results/benchmarks/solver_ablation.jsonl``).

``--floor`` measures how much of a solve the MTD(f) driver itself costs, one line per
configuration to ``results/benchmarks/solver_floor.jsonl``: each position is solved by
:func:`~solver.search.mtdf` from the benchmark's first guess, then with a fresh table from its
exact value as the first guess (a perfect guess: two probes), then by one null-window probe at the
exact value alone (the proof that the value is reached: no driver of null-window probes does
less); with the probe count and the first probe's share of the nodes.

``--threads N`` measures :func:`solver.solve_many`, the API that solves many positions at once with
one transposition table per worker thread (what a search player sampling many determinizations
calls): each configuration's positions solved by ``solve_many`` with 1 thread and with N, values
only (``pv=False, moves=False``) and with every move's value and the principal variation (the API's
default), as positions per second and the speed-up; the values of both runs must agree. One line per
configuration to ``results/benchmarks/solver_threads.jsonl``.

Record keys (one JSON line each): ``config`` (``-allmoves`` appended with ``--all-moves``), ``deals`` (positions
solved: fewer than asked when ``--time-limit`` stopped the configuration), ``seed``, ``median_ms``, ``p99_ms``,
``mean_ms``, ``max_ms`` (a position's solve, wall time), ``nodes_median``, ``nodes_mean``, ``nodes_per_s`` (all
nodes over all the solves' time; ``rate_unit``), ``mean_value`` (the positions' mean value, card points: the same
for the same positions whatever the search), ``first_guess`` (``"half the points left"`` or the ``--guess``), then
``threads`` (1), ``flags`` (the search's technique switches and settings, in :func:`solver.search.default_flags`
order), ``cpu``, ``python``, ``numba``, ``numpy``, ``commit`` and ``date`` (UTC); ``--ablation`` lines add
``variant`` (the technique switched). ``--floor`` lines: ``config``, ``deals``, ``seed``, ``first_guess``,
``probes_median``, ``first_probe_node_share_median``, ``{mtdf,exact_guess,single_probe}_{median_ms,mean_ms,
nodes_median,nodes_mean}`` and the same ``threads`` to ``date``; ``--threads`` lines: ``config``, ``deals``,
``seed``, ``threads`` (N), ``{values,all_moves_pv}_positions_per_s_{1,n}`` and ``..._speedup``, ``rate_unit``, the
same machine keys and ``cpu_count`` (since ``2c99e84``: the file's earlier lines lack it).

Usage::

    python benchmarks/bench_solver.py                       # 100 deals per configuration: about a
                                                            # minute once compiled (4p-full: 0.5 s a deal
                                                            # on average on the 2-core Xeon);
                                                            # appends to results/benchmarks/solver.jsonl
    python benchmarks/bench_solver.py --configs 4p-full --deals 10 --time-limit 600
    python benchmarks/bench_solver.py --ablation --deals 20
    python benchmarks/bench_solver.py --ablation --ablation-config 2p-full --deals 30
    python benchmarks/bench_solver.py --floor --configs 2p-full,4p-6left --deals 100
    python benchmarks/bench_solver.py --threads 2 --configs 2p-full,2p-10left --deals 200
"""
from __future__ import annotations

import datetime
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _common import (ArgumentParser, OUT_DIR, check_out, check_seed, commit, cpu_name, emit, other_seed,  # noqa: E402
                     quiet_startup, startup_done)

if __name__ == "__main__":  # (Ctrl-C while numba and the engine load: exit 130, no traceback)
    quiet_startup()

import numba  # noqa: E402
import numpy as np  # noqa: E402
from tqdm import tqdm  # noqa: E402

from sim.batch import progress_intervals  # noqa: E402
from sim.cards import SWAP  # noqa: E402
from sim.rules import Rules  # noqa: E402
from solver import search as S  # noqa: E402
from solver.api import MAX_THREADS  # noqa: E402
from solver.position import deal_position  # noqa: E402


#: Configurations: full deals, and positions reached by seeded random play with N tricks left.
FULL = ("2p-full", "4p-full", "3p-full")
PARTIAL = ("2p-4left", "4p-4left", "2p-10left", "4p-6left", "3p-7left", "6p-5left")


def positions(config, deals, seed):
    """The configuration's ``deals`` seeded positions, made one at a time (a generator: a run stopped
    by ``--time-limit`` never builds the rest)."""
    if config in FULL:
        r = Rules(players=int(config[0]))
        for d in range(deals):
            yield deal_position(r, seed, d)
    elif config in PARTIAL:
        players = int(config[0])
        left = int(config[3:].split("left")[0])
        r = Rules(players=players)
        rng = np.random.default_rng(seed)
        for d in range(deals):
            p = deal_position(r, seed, d)
            played = 0  # cards played: a trump exchange (R7) is a move that plays none
            while played < (r.tricks - left) * players:
                mv = p.legal_moves()
                m = mv[int(rng.integers(len(mv)))]
                played += m != SWAP
                p = p.apply(m)
            yield p
    else:
        raise ValueError(f"unknown config {config!r}")


def _guess(st, guess):
    """The first guess of a solve: ``guess`` card points, or half the points left (``None``)."""
    return int(S.points_left(st)) // 2 if guess is None else int(guess)


def _guess_label(guess):
    """The record's ``first_guess`` field."""
    return "half the points left" if guess is None else int(guess)


_NOTED = []  # whether the first-run note was printed (once a process: the configurations share kernels)


def _warm_up(config, seed, ws, flags, mvs, vals, probe=False):
    """Compile or load every kernel a timed solve calls, on a cheap position (not timed); with ``probe``
    also the null-window search :func:`solver.search.ab` that ``--floor`` calls from Python (its first
    call took about 20 ms of loading inside the first timed probe: break-it pass of 2026-12-06)."""
    note = "" if _NOTED else (" (numba caches them; on a cold cache the default configurations compile "
                              "for 1-3 minutes in all, the first one longest)")
    _NOTED.append(1)
    print(f"{config}: compiling or loading the solver kernels{note}...", file=sys.stderr, flush=True)
    wst, wstock, wismax = next(positions("2p-4left", 1, other_seed(seed, 1))).to_arrays()
    ws[5][1] += 1
    S.mtdf(wst, wstock, wismax, 10, *ws, flags)
    S.solve_moves(wst, wstock, wismax, 10, mvs, vals, *ws, flags)
    S.points_left(wst)
    if probe:
        ws[5][1] += 1
        S.ab(wst, wstock, wismax, 9, 10, *ws, flags)


def _meta(flags):
    """The fields every record ends with: flags, machine, versions, commit, date."""
    return {"threads": 1, "flags": [int(x) for x in flags], "cpu": cpu_name(), "python": platform.python_version(),
            "numba": numba.__version__, "numpy": np.__version__, "commit": commit(),
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}


def _emit(rec, out):
    """Print a record and append it to the JSON-lines file ``out`` (a symbolic link's target): :func:`emit`.

    Raises
    ------
    SystemExit
        Status 1 with one line if the file cannot be written (the record is on stdout).
    """
    try:
        emit(Path(os.path.realpath(out)), rec)
    except OSError as e:
        print(f"bench_solver.py: error: cannot write {out}: {e.strerror or e} (the line is printed above)",
              file=sys.stderr)
        sys.exit(1)


def run(config, deals, seed, flags, all_moves=False, time_limit=None, guess=None):
    """Time ``deals`` positions of ``config`` (value, or every move's with ``all_moves``) under
    ``flags``: one record (times in ms, nodes, nodes/s)."""
    ws = S.new_workspace()
    pos = positions(config, deals, seed)
    mvs = np.zeros(S.MAXM, np.int64)
    vals = np.zeros(S.MAXM, np.int64)
    _warm_up(config, seed, ws, flags, mvs, vals)
    times, nodes, values = [], [], []
    t_start = time.time()
    for p in tqdm(pos, total=deals, desc=config, unit="pos", file=sys.stderr, delay=1.0, leave=False,
                  **progress_intervals(sys.stderr)):
        st, stock, ismax = p.to_arrays()
        ws[5][0] = 0
        ws[5][1] += 1
        g0 = _guess(st, guess)  # outside the timing (its first call loads points_left: ~2 ms)
        t0 = time.perf_counter()
        if all_moves:
            k = S.solve_moves(st, stock, ismax, g0, mvs, vals, *ws, flags)
            v = int(vals[:k].max())
        else:
            v = int(S.mtdf(st, stock, ismax, g0, *ws, flags))
        times.append((time.perf_counter() - t0) * 1000.0)
        nodes.append(int(ws[5][0]))
        values.append(v)
        if time_limit and time.time() - t_start > time_limit:
            break
    t = np.array(times)
    nd = np.array(nodes)
    return {
        "config": config + ("-allmoves" if all_moves else ""), "deals": len(t), "seed": seed,
        "median_ms": round(float(np.median(t)), 3), "p99_ms": round(float(np.percentile(t, 99)), 3),
        "mean_ms": round(float(t.mean()), 3), "max_ms": round(float(t.max()), 3),
        "nodes_median": int(np.median(nd)), "nodes_mean": int(nd.mean()),
        "nodes_per_s": int(nd.sum() / (t.sum() / 1000.0)), "rate_unit": "nodes/s",
        "mean_value": round(float(np.mean(values)), 3),
        "first_guess": _guess_label(guess), **_meta(flags),
    }


def floor(config, deals, seed, flags, time_limit=None, guess=None):
    """The driver's share of a solve (see the module docstring): one record per configuration."""
    ws = S.new_workspace()
    cnt = ws[5]
    pos = positions(config, deals, seed)
    _warm_up(config, seed, ws, flags, np.zeros(S.MAXM, np.int64), np.zeros(S.MAXM, np.int64), probe=True)
    rows = []
    t_start = time.time()
    for p in tqdm(pos, total=deals, desc=config + " floor", unit="pos", file=sys.stderr, delay=1.0, leave=False,
                  **progress_intervals(sys.stderr)):
        st, stock, ismax = p.to_arrays()
        row = {}
        cnt[1] += 1
        cnt[0] = 0
        g0 = _guess(st, guess)
        t0 = time.perf_counter()
        v = int(S.mtdf(st, stock, ismax, g0, *ws, flags))
        row["mtdf"] = ((time.perf_counter() - t0) * 1000.0, int(cnt[0]))
        row["probes"] = int(cnt[2])  # mtdf reports its probes and the first one's nodes
        row["first_share"] = int(cnt[3]) / max(int(cnt[0]), 1)
        for label in ("exact_guess", "single_probe"):  # fresh tables: from the exact value; one probe at it
            cnt[1] += 1
            cnt[0] = 0
            t0 = time.perf_counter()
            if label == "exact_guess":
                got = int(S.mtdf(st, stock, ismax, v, *ws, flags))  # (not inside an assert: `python -O`
                if got != v:  # dropped the solve and recorded 0 nodes, break-it pass 26)
                    raise RuntimeError(f"the exact-guess solve gave {got}, the value is {v}")
            elif v > 0:
                S.ab(st, stock, ismax, v - 1, v, *ws, flags)
            row[label] = ((time.perf_counter() - t0) * 1000.0, int(cnt[0]))
        rows.append(row)
        if time_limit and time.time() - t_start > time_limit:
            break
    rec = {"config": config, "deals": len(rows), "seed": seed,
           "first_guess": _guess_label(guess),
           "probes_median": float(np.median([r["probes"] for r in rows])),
           "first_probe_node_share_median": round(float(np.median([r["first_share"] for r in rows])), 3)}
    for label in ("mtdf", "exact_guess", "single_probe"):
        t = np.array([r[label][0] for r in rows])
        nd = np.array([r[label][1] for r in rows])
        rec[label + "_median_ms"] = round(float(np.median(t)), 3)
        rec[label + "_mean_ms"] = round(float(t.mean()), 3)
        rec[label + "_nodes_median"] = int(np.median(nd))
        rec[label + "_nodes_mean"] = int(nd.mean())
    rec.update(_meta(flags))
    return rec


#: ``--threads``' two runs of solve_many: its label in the record and the options
_THREAD_RUNS = (("values", dict(pv=False, moves=False)), ("all_moves_pv", {}))


def threads_run(config, deals, seed, threads):
    """:func:`solver.solve_many` over ``deals`` positions of ``config`` with 1 thread and with ``threads``
    (see the module docstring): one record, positions/s (wall time) and speed-ups.

    Raises
    ------
    RuntimeError
        If a position's value differs between the runs (the tables are per thread: it must not).
    """
    from solver import solve_many

    ps = list(positions(config, deals, seed))
    threads = min(threads, len(ps))  # (as solve_many: never more threads than positions; break-it pass)
    if threads < 2:  # (one position ran 1 thread against 1 and crashed with a KeyError: break-it pass of
        # 2026-12-06; the command line refuses --deals below --threads first)
        raise SystemExit(f"bench_solver.py: error: --threads: {config} gave {len(ps)} position(s); a speed-up "
                         "needs 2 or more")
    print(f"{config}: compiling or loading the solver kernels, a table for each of {threads} threads...",
          file=sys.stderr, flush=True)
    for _, kw in _THREAD_RUNS:  # (compiled or loaded for both runs; every worker's table and the calling
        for t in (1, threads):  # thread's allocated)
            solve_many(ps[:2 * threads], threads=t, **kw)
    rec = {"config": config, "deals": len(ps), "seed": seed, "threads": threads}
    for label, kw in _THREAD_RUNS:
        seen = None
        for t in (1, threads):
            t0 = time.perf_counter()
            res = solve_many(ps, threads=t, **kw)
            dt = time.perf_counter() - t0
            vals = [r.value for r in res]
            if seen is not None and vals != seen:
                raise RuntimeError(f"{config}: values differ between 1 and {threads} threads ({label})")
            seen = vals
            rec[f"{label}_positions_per_s_{'1' if t == 1 else 'n'}"] = round(len(ps) / dt, 2)
        rec[f"{label}_speedup"] = round(rec[f"{label}_positions_per_s_n"] / rec[f"{label}_positions_per_s_1"], 3)
    rec["rate_unit"] = "positions/s (wall time; _1: one thread, _n: --threads)"
    # (_meta's threads is the single-thread runs'; the record keeps the count solve_many used)
    rec.update((k, v) for k, v in _meta(S.default_flags()).items() if k != "threads")
    rec["cpu_count"] = os.cpu_count()
    return rec


def _ablation_trials(config):
    """``--ablation``'s variants on the positions of ``config`` (``--ablation-config``): (label, flags) pairs,
    the baseline first, in the order of the lines written."""
    # techniques are switched in the general kernel (ab2 and ab4 run only with the default set);
    # the two-player kernel and its look-ahead get their own lines, the four-player kernel one
    base = S.default_flags()
    base[S.FL_TWO] = 0
    base[S.FL_FOUR] = 0
    names = {S.FL_TT: "tt", S.FL_ORDER: "ordering", S.FL_EQUIV: "equivalent-cards",
             S.FL_SEQ: "sequence-dominance", S.FL_MIRROR: "mirror-key", S.FL_QUICK: "quick-bounds",
             S.FL_TTMOVE: "tt-move", S.FL_SURE: "sure-trumps", S.FL_CANON: "canonical-endgame-key",
             S.FL_RELKEY: "relative-rank-key", S.FL_EGN: "endgame-minimax-general",
             S.FL_LEAD: "safe-lead-order", S.FL_FOLLOW: "follower-order-v1", S.FL_SWAP: "exchange-first",
             S.FL_TUNED: "tuned-order", S.FL_ETC4: "last-card-lookahead-4p",
             S.FL_EGC4: "endgame-table-4p"}
    trials = [("all-general-kernel", base)]
    for fl, nm in names.items():
        if config.startswith("2p") and fl in (S.FL_ETC4, S.FL_EGC4):
            continue  # four-player switches: the 2-player line would repeat the baseline (break-it pass)
        f = base.copy()
        f[fl] = 0
        trials.append(("no-" + nm, f))
    for fl, nm, val in ((S.FL_HIST, "history-tiebreak", 1), (S.FL_KILLER, "killer", 1),
                        (S.FL_EXACT, "exact-subtrees-8", 8), (S.FL_BISECT, "mtdf-unit-steps", 0),
                        (S.FL_BISECT, "mtdf-middle-split", 3),
                        (S.FL_EGN, "endgame-minimax-level-1", 1)):
        if config.startswith("2p") and fl in (S.FL_BISECT, S.FL_EGN):
            continue  # switches only 3-6 players' search: the 2-player line would repeat the baseline
        f = base.copy()
        f[fl] = val
        trials.append(("with-" + nm, f))
    if config.startswith("4p"):
        # the default set, searched by the four-player register kernel ab4 (with payoff similarity,
        # which the general kernel lacks: fewer nodes; without it the same nodes as the general kernel)
        trials.append(("four-player-kernel", S.default_flags()))
        f = S.default_flags()
        f[S.FL_PAYOFF] = 0
        trials.append(("four-player-kernel-no-payoff-similarity", f))
    two = S.default_flags()
    trials.append(("two-player-kernel", two))
    for label, sets in (("two-player-kernel-no-payoff-similarity", ((S.FL_PAYOFF, 0),)),
                        ("two-player-kernel-no-etc", ((S.FL_ETC, 0),)),
                        ("two-player-kernel-no-sequence-dominance", ((S.FL_SEQ, 0),)),
                        ("two-player-kernel-no-mirror-key", ((S.FL_MIRROR, 0),)),
                        ("two-player-kernel-no-exchange-first", ((S.FL_SWAP, 0),)),
                        ("two-player-kernel-no-tuned-order", ((S.FL_TUNED, 0),)),
                        ("two-player-kernel-etc-every-depth", ((S.FL_ETCMIN, 0),)),
                        ("two-player-kernel-etc-ordering", ((S.FL_ETC, 2),)),
                        ("two-player-kernel-no-endgame-minimax", ((S.FL_EG, 0),)),
                        ("two-player-kernel-endgame-minimax-behind-probe", ((S.FL_EG, 1),)),
                        ("two-player-kernel-bisection", ((S.FL_BISECT, 2),)),
                        ("two-player-kernel-no-aspiration", ((S.FL_ASP, 0),)),
                        ("two-player-kernel-whole-table", ((S.FL_TT2, 0),)),
                        ("two-player-kernel-neither", ((S.FL_ETC, 0), (S.FL_EG, 0)))):
        f = two.copy()
        for fl, val in sets:
            f[fl] = val
        trials.append((label, f))
    if config == "2p-full":
        # without the two-player kernel's table a full deal takes minutes: its techniques only
        trials = [t for t in trials if t[0].startswith("two-player-kernel")]
    elif config == "4p-6left":
        trials = [t for t in trials if not t[0].startswith("two-player-kernel")]
    return trials


DEFAULT_CONFIGS = "2p-full,4p-full,2p-4left,4p-4left"


def main(argv=None):
    """Run the benchmark with ``argv`` (default: the command line); exit 130 on Ctrl-C.

    Parameters
    ----------
    argv : list of str or None
        The script's arguments (``--help`` lists them); None reads ``sys.argv``.

    Raises
    ------
    SystemExit
        2 for bad arguments (argparse, before any position is solved), 1 when ``--out`` cannot be written
        (:func:`_emit`: the line is on stdout), 130 on Ctrl-C (the lines of the configurations measured
        are kept in ``--out``; the current one is lost).
    """
    try:
        _main(argv)
    except KeyboardInterrupt:
        # the lines of the configurations already measured are in --out; the current one is lost
        print("\ninterrupted: the lines printed above are kept in the output file", file=sys.stderr)
        sys.exit(130)


def _main(argv):
    ap = ArgumentParser(description="Solver benchmark (issue 3): single thread, seeded positions, one "
                                             "JSON line per configuration (see the module docstring).")
    ap.add_argument("--configs", default=None,
                    help=f"comma-separated: {', '.join(FULL + PARTIAL)} (default: {DEFAULT_CONFIGS}; "
                         "100 4p-full deals take about 50 s on the 2-core Xeon of results/README.md)")
    ap.add_argument("--deals", type=int, default=100, help="positions per configuration (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=1, help="deal seed, 0 <= seed < 2**64 (default: %(default)s)")
    ap.add_argument("--all-moves", action="store_true", help="time every legal move's value (solve_moves)")
    ap.add_argument("--time-limit", type=float, default=None,
                    help="seconds per configuration (stops early; checked between positions)")
    ap.add_argument("--ablation", action="store_true",
                    help="one line per technique switched off or on, on the positions of --ablation-config")
    ap.add_argument("--ablation-config", default=None, choices=["2p-10left", "2p-full", "4p-6left"],
                    help="positions of --ablation (default 2p-10left; 2p-full: the two-player kernel's "
                         "techniques only; 4p-6left: the general kernel's, and the four-player kernel's line)")
    ap.add_argument("--guess", type=int, default=None,
                    help="first guess of every solve in card points, 0-120 (default: half the points left, as "
                         "solver.solve does; 60 reproduces the lines before 9894ca3)")
    ap.add_argument("--floor", action="store_true",
                    help="the MTD(f) driver's share: each position also solved from its exact value as the "
                         "first guess and by one probe at the value (results/benchmarks/solver_floor.jsonl)")
    ap.add_argument("--threads", type=int, default=None,
                    help=f"solver.solve_many's throughput with 1 thread and with this many, 2-{MAX_THREADS} "
                         "(positions/s and the speed-up; results/benchmarks/solver_threads.jsonl)")
    ap.add_argument("--out", default=None, help="JSON-lines file to append to, a missing directory created "
                                                "(default: results/benchmarks/"
                                                "solver.jsonl, solver_ablation.jsonl, solver_floor.jsonl or "
                                                "solver_threads.jsonl in this checkout)")
    a = ap.parse_args(argv)
    if a.ablation and a.configs is not None:
        ap.error("--configs: not with --ablation (its positions are --ablation-config's)")
    if a.ablation_config is not None and not a.ablation:
        ap.error("--ablation-config: only with --ablation")
    a.configs = a.configs if a.configs is not None else DEFAULT_CONFIGS
    a.ablation_config = a.ablation_config or "2p-10left"
    configs = a.configs.split(",")
    bad = [c for c in configs if c not in FULL + PARTIAL]
    if bad:
        ap.error(f"--configs: unknown {', '.join(map(repr, bad))}; expected some of {', '.join(FULL + PARTIAL)}")
    dup = sorted({c for c in configs if configs.count(c) > 1})
    if dup:  # (ran and appended twice: break-it pass of 2026-12-06)
        ap.error(f"--configs: {', '.join(map(repr, dup))} given more than once")
    if a.deals < 1:
        ap.error(f"--deals: {a.deals}, expected at least 1")
    bad = check_seed(a.seed)
    if bad:
        ap.error(f"--seed: {bad}")
    if a.guess is not None and not 0 <= a.guess <= 120:
        ap.error(f"--guess: {a.guess}, expected card points 0-120 (a guess above the points left counts as "
                 "the points left)")
    if a.time_limit is not None and not a.time_limit > 0:
        ap.error(f"--time-limit: {a.time_limit}, expected a positive number of seconds")
    if a.floor and (a.ablation or a.all_moves):
        ap.error("--floor: a run of its own (not with --ablation or --all-moves)")
    if a.ablation and a.all_moves:
        ap.error("--ablation times values only (not with --all-moves)")
    if a.threads is not None:
        if not 2 <= a.threads <= MAX_THREADS:
            ap.error(f"--threads: {a.threads}, expected 2 to {MAX_THREADS} (one thread is the default run)")
        if a.floor or a.ablation or a.all_moves or a.guess is not None or a.time_limit is not None:
            ap.error("--threads: a run of its own (not with --floor, --ablation, --all-moves, --guess or "
                     "--time-limit)")
        if a.deals < a.threads:
            ap.error(f"--threads {a.threads}: needs --deals {a.threads} or more (got {a.deals}; solve_many "
                     "runs no more threads than positions)")
    default = ("solver_ablation.jsonl" if a.ablation else "solver_threads.jsonl" if a.threads is not None
               else "solver_floor.jsonl" if a.floor else "solver.jsonl")
    out = str(OUT_DIR / default) if a.out is None else a.out  # (`--out ''` is refused below, not the default: break-it pass 26)
    # refuse a bad output now, not after minutes of solving (lines are appended; a missing directory is
    # created, as brisca solve --out does); the default one too (a directory in its place, or
    # results/benchmarks a file, failed after the run: break-it pass of 2026-12-06)
    bad = check_out(out, make_dirs=True, jsonl=True)
    if bad:
        ap.error(f"--out: {bad}" if a.out else f"the default output {out}: {bad} (or give --out)")
    numba.set_num_threads(1)
    if a.ablation:
        for label, f in _ablation_trials(a.ablation_config):
            rec = run(a.ablation_config, a.deals, a.seed, f, time_limit=a.time_limit, guess=a.guess)
            rec["variant"] = label
            _emit(rec, out)
        return
    if a.threads is not None:
        for cfg in configs:
            _emit(threads_run(cfg, a.deals, a.seed, a.threads), out)
        return
    if a.floor:
        for cfg in configs:
            _emit(floor(cfg, a.deals, a.seed, S.default_flags(), time_limit=a.time_limit, guess=a.guess), out)
        return
    for cfg in configs:
        _emit(run(cfg, a.deals, a.seed, S.default_flags(), all_moves=a.all_moves, time_limit=a.time_limit,
                  guess=a.guess), out)


if __name__ == "__main__":
    startup_done()
    main()
