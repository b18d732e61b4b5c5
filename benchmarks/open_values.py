"""Open-hand values of seeded 2-player deals -> results/open_values.parquet (issue 3, item 10).

Usage: python benchmarks/open_values.py --deals 100000 --seed 1 --minutes 25 [--threads 2]

Resumes: deals already in --out are kept and the run continues after the last one, so
100,000 deals can be made in several bounded runs. Solves deal d (d = 0, 1, ...) of the seed exactly from the first lead (known stock order,
both sides perfect) with :func:`solver.selfplay.play_open_batch`, stopping at --deals or
after --minutes; rewrites the parquet atomically every chunk, so a stopped run keeps
what it solved. Columns: deal, seed, pinta, pinta_rank, trump, first_points (seat 0,
the first leader), second_points, winner (0, 1, -1 draw), nex (exchanges), ms.
"""
from __future__ import annotations

import argparse
import os
import time

import numba
import numpy as np
import pandas as pd

from sim.cards import CARD_RANK
from sim.engine import R_NEX, R_PINTA, R_SIDE_POINTS, R_SIZE, R_TRUMP, R_WINNER, T_SIZE
from sim.rules import Rules
from solver.selfplay import play_open_batch


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--minutes", type=float, default=25.0)
    ap.add_argument("--out", default="results/open_values.parquet")
    ap.add_argument("--summary", action="store_true", help="print a markdown summary of --out and exit")
    ap.add_argument("--threads", type=int, default=1,
                    help="deals solved at once (one solver workspace each; the kernels release the GIL)")
    a = ap.parse_args()
    if a.summary:
        print(summary(pd.read_parquet(a.out)))
        return
    numba.set_num_threads(1)
    rules = Rules(players=2)
    t_end = time.time() + 60 * a.minutes
    rows = []
    d = 0
    if os.path.exists(a.out):
        old = pd.read_parquet(a.out)
        if len(old) and int(old["seed"].iloc[0]) == a.seed:
            rows = old.to_dict("records")
            d = int(old["deal"].max()) + 1
    chunk = 50 * max(1, a.threads)
    while d < a.deals and time.time() < t_end:
        m = min(chunk, a.deals - d)
        res = np.zeros((m, R_SIZE), np.int16)
        h0 = np.zeros((m, 2, 3), np.int8)
        ds = np.zeros(m, np.uint64)
        tr = np.zeros((1, rules.tricks, T_SIZE), np.int16)

        def one(i):
            t0 = time.perf_counter()
            play_open_batch(rules, a.seed, d + i, 1, 1, res[i:i + 1], h0[i:i + 1], ds[i:i + 1], tr, False)
            return (time.perf_counter() - t0) * 1000

        if a.threads > 1:
            from concurrent.futures import ThreadPoolExecutor
            with ThreadPoolExecutor(max_workers=a.threads) as ex:
                times = list(ex.map(one, range(m)))
        else:
            times = [one(i) for i in range(m)]
        for i in range(m):
            r = res[i]
            rows.append({"deal": d + i, "seed": a.seed, "pinta": int(r[R_PINTA]),
                         "pinta_rank": int(CARD_RANK[int(r[R_PINTA])]), "trump": int(r[R_TRUMP]),
                         "first_points": int(r[R_SIDE_POINTS]), "second_points": int(r[R_SIDE_POINTS + 1]),
                         "winner": int(r[R_WINNER]), "nex": int(r[R_NEX]), "ms": round(times[i], 2)})
        d += m
        df = pd.DataFrame(rows)
        tmp = a.out + ".tmp"
        df.to_parquet(tmp, index=False)
        os.replace(tmp, a.out)
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
