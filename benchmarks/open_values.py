"""Open-hand values of seeded 2-player deals -> results/open_values.parquet (issue 3, item 10).

Usage: python benchmarks/open_values.py --deals 100000 --seed 1 --minutes 25 [--threads 2]

Resumes: deals already in --out are kept and the run continues after the last one, so
100,000 deals can be made in several bounded runs; an --out holding another seed's deals (or
anything else) is refused, never overwritten. Ctrl-C keeps every finished chunk (exit 130). Solves deal d (d = 0, 1, ...) of the seed exactly from the first lead (known stock order,
both sides perfect) with :func:`solver.selfplay.play_open_batch`, stopping at --deals or
after --minutes; rewrites the parquet atomically every chunk, so a stopped run keeps
what it solved. Columns: deal, seed, pinta, pinta_rank, trump, first_points (seat 0,
the first leader), second_points, winner (0, 1, -1 draw), nex (exchanges), ms.
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time

import numba
import numpy as np
import pandas as pd
from tqdm import tqdm

from sim.cards import CARD_RANK
from sim.engine import R_NEX, R_PINTA, R_SIDE_POINTS, R_SIZE, R_TRUMP, R_WINNER, T_SIZE
from sim.rules import Rules
from solver.selfplay import play_open_batch


def _fail(msg):
    """One-line error on stderr and exit status 2 (bad input; nothing written)."""
    print(f"open_values.py: error: {msg}", file=sys.stderr)
    sys.exit(2)


def parse_args(argv=None):
    """Command line, checked before any solve: ranges, --out's directory, and an existing --out's
    seed (a run never replaces deals of another seed: they take hours to solve)."""
    ap = argparse.ArgumentParser(
        description="Exact open-hand values of seeded 2-player deals (both sides perfect, known stock "
                    "order) to a parquet file; resumes a stopped run (see the module docstring).")
    ap.add_argument("--deals", type=int, default=100000,
                    help="total deals in --out when done, deals 0..N-1 of the seed (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=1, help="deal seed, 0 <= seed < 2**64 (default: %(default)s)")
    ap.add_argument("--minutes", type=float, default=25.0,
                    help="stop after this many minutes, keeping every finished chunk (default: %(default)s)")
    ap.add_argument("--out", default="results/open_values.parquet",
                    help="parquet file: created, or continued if it holds deals of the same seed "
                         "(default: %(default)s)")
    ap.add_argument("--summary", action="store_true", help="print a markdown summary of --out and exit")
    ap.add_argument("--threads", type=int, default=1,
                    help="deals solved at once, 1-256 (one solver workspace of 32 MB each; the kernels "
                         "release the GIL; default: %(default)s)")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    a = ap.parse_args(argv)
    if a.summary:
        if not os.path.isfile(a.out):
            _fail(f"--out: {a.out} does not exist (nothing to summarize)")
        return a, None
    if a.deals < 1:
        _fail(f"--deals: {a.deals}, expected at least 1")
    if not 0 <= a.seed < 2 ** 64:
        _fail(f"--seed: {a.seed}, expected 0 <= seed < 2**64")
    if not a.minutes > 0:
        _fail(f"--minutes: {a.minutes}, expected more than 0")
    if not 1 <= a.threads <= 256:
        _fail(f"--threads: {a.threads}, expected 1-256")
    d = os.path.dirname(os.path.abspath(a.out))
    if not os.path.isdir(d):
        _fail(f"--out: directory {d} does not exist")
    if not os.access(d, os.W_OK) or os.path.isdir(a.out):
        _fail(f"--out: cannot write {a.out}")
    old = None
    if os.path.exists(a.out):
        try:
            old = pd.read_parquet(a.out)
        except Exception as e:  # noqa: BLE001 - any unreadable file: refuse rather than overwrite it
            _fail(f"--out: {a.out} exists and is not a parquet file of this script ({type(e).__name__}); "
                  "move it or give another --out")
        need = {"deal", "seed", "first_points"}
        if not need <= set(old.columns):
            _fail(f"--out: {a.out} exists and lacks the columns {sorted(need - set(old.columns))}; "
                  "move it or give another --out")
        if len(old):
            seeds = sorted({int(x) for x in old["seed"].unique()})
            if seeds != [a.seed]:
                _fail(f"--out: {a.out} holds deals of seed {', '.join(map(str, seeds))}, not --seed {a.seed}; "
                      "give that seed to continue it, or another --out (it is never overwritten)")
            deals = old["deal"].to_numpy()
            if not np.array_equal(np.sort(deals), np.arange(len(old))):
                _fail(f"--out: {a.out} does not hold deals 0..{len(old) - 1} once each; "
                      "move it or give another --out")
    return a, old


class _Terminated(Exception):
    """SIGTERM, raised in the main thread so that a stopped run ends as Ctrl-C does."""


def _on_sigterm(signum, frame):
    raise _Terminated()


def main(argv=None):
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _on_sigterm)
    a, old = parse_args(argv)
    if a.summary:
        print(summary(pd.read_parquet(a.out)))
        return
    numba.set_num_threads(1)
    rules = Rules(players=2)
    t_end = time.time() + 60 * a.minutes
    rows = []
    d = 0
    if old is not None and len(old):
        rows = old.sort_values("deal").to_dict("records")
        d = len(old)
    if d >= a.deals:
        print(f"{len(rows)} deals in {a.out} already (--deals {a.deals}): nothing to do")
        return
    chunk = 50 * max(1, a.threads)
    tmp = a.out + ".tmp"
    saved = d
    bar = tqdm(total=a.deals, initial=d, unit="deal", desc="open values", file=sys.stderr,
               disable=a.no_progress, delay=1.0)
    pool = None
    if a.threads > 1:
        from concurrent.futures import ThreadPoolExecutor
        pool = ThreadPoolExecutor(max_workers=a.threads)
    try:
        while d < a.deals and time.time() < t_end:
            m = min(chunk, a.deals - d)
            res = np.zeros((m, R_SIZE), np.int16)
            h0 = np.zeros((m, 2, 3), np.int8)
            ds = np.zeros(m, np.uint64)
            tr = np.zeros((1, rules.tricks, T_SIZE), np.int16)

            def one(i):
                t0 = time.perf_counter()
                play_open_batch(rules, a.seed, d + i, 1, 1, res[i:i + 1], h0[i:i + 1], ds[i:i + 1], tr, False)
                bar.update(1)
                return (time.perf_counter() - t0) * 1000

            times = list(pool.map(one, range(m))) if pool is not None else [one(i) for i in range(m)]
            for i in range(m):
                r = res[i]
                rows.append({"deal": d + i, "seed": a.seed, "pinta": int(r[R_PINTA]),
                             "pinta_rank": int(CARD_RANK[int(r[R_PINTA])]), "trump": int(r[R_TRUMP]),
                             "first_points": int(r[R_SIDE_POINTS]), "second_points": int(r[R_SIDE_POINTS + 1]),
                             "winner": int(r[R_WINNER]), "nex": int(r[R_NEX]), "ms": round(times[i], 2)})
            d += m
            # the whole table again, to a temporary file renamed when complete: a stopped run keeps
            # every finished chunk and never leaves a half-written --out
            pd.DataFrame(rows).to_parquet(tmp, index=False)
            os.replace(tmp, a.out)
            saved = d
    except (KeyboardInterrupt, _Terminated) as e:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        bar.close()
        if os.path.exists(tmp):
            os.remove(tmp)
        print(f"\ninterrupted: {saved} deals kept in {a.out} (the unfinished chunk is dropped; run again "
              "to continue)", file=sys.stderr)
        sys.exit(143 if isinstance(e, _Terminated) else 130)
    if pool is not None:
        pool.shutdown()
    bar.close()
    print(f"{len(rows)} deals in {a.out}")


def summary(df) -> str:
    """Markdown summary: first leader's mean points (95% CI), win/draw/loss, value quantiles and
    histogram, and the mean by pinta rank."""
    n = len(df)
    x = df["first_points"].astype(float)
    se = x.std(ddof=1) / np.sqrt(n)
    win = (df["winner"] == 0).mean()
    draw = (df["winner"] == -1).mean()
    lose = (df["winner"] == 1).mean()
    zw = 1.96 * np.sqrt(win * (1 - win) / n)
    lines = [f"deals: {n} (seed {int(df['seed'].iloc[0])}, deals 0..{int(df['deal'].max())})", "",
             f"- first leader (seat 0) mean optimal points: {x.mean():.2f} +- {1.96 * se:.2f} (95% CI), "
             f"sd {x.std(ddof=1):.2f}",
             f"- first leader wins {100 * win:.2f}% +- {100 * zw:.2f}, draws (60-60) {100 * draw:.2f}%, "
             f"loses {100 * lose:.2f}%",
             f"- quantiles of the first leader's points: "
             + ", ".join(f"q{int(q * 100)}={x.quantile(q):.0f}" for q in (0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99)),
             f"- capote (120-0 either way): {100 * ((x == 120) | (x == 0)).mean():.3f}%;"
             f" solve time per deal: median {df['ms'].median():.0f} ms, p99 {df['ms'].quantile(0.99):.0f} ms", "",
             "| first leader's points | share |", "|---|---|"]
    bins = [0, 20, 40, 50, 60, 61, 70, 80, 100, 121]
    cut = pd.cut(x, bins, right=False)
    for iv, c in cut.value_counts(sort=False).items():
        lines.append(f"| {int(iv.left)}-{int(iv.right) - 1} | {100 * c / n:.1f}% |")
    lines += ["", "| pinta rank | deals | mean points of the first leader | first leader wins |", "|---|---|---|---|"]
    order = [1, 3, 12, 11, 10, 7, 6, 5, 4, 2]
    for rk in order:
        g = df[df["pinta_rank"] == rk]
        if len(g):
            lines.append(f"| {rk} | {len(g)} | {g['first_points'].mean():.2f} | {100 * (g['winner'] == 0).mean():.1f}% |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
