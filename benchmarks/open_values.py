"""Open-hand values of seeded 2-player deals -> results/open_values.parquet (issue 3, item 10).

Usage: python benchmarks/open_values.py --deals 100000 --seed 1 --minutes 25

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
    a = ap.parse_args()
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
    chunk = 50
    while d < a.deals and time.time() < t_end:
        m = min(chunk, a.deals - d)
        res = np.zeros((m, R_SIZE), np.int16)
        h0 = np.zeros((m, 2, 3), np.int8)
        ds = np.zeros(m, np.uint64)
        tr = np.zeros((1, rules.tricks, T_SIZE), np.int16)
        for i in range(m):
            t0 = time.perf_counter()
            play_open_batch(rules, a.seed, d + i, 1, 1, res[i:i + 1], h0[i:i + 1], ds[i:i + 1], tr, False)
            ms = (time.perf_counter() - t0) * 1000
            r = res[i]
            rows.append({"deal": d + i, "seed": a.seed, "pinta": int(r[R_PINTA]),
                         "pinta_rank": int(CARD_RANK[int(r[R_PINTA])]), "trump": int(r[R_TRUMP]),
                         "first_points": int(r[R_SIDE_POINTS]), "second_points": int(r[R_SIDE_POINTS + 1]),
                         "winner": int(r[R_WINNER]), "nex": int(r[R_NEX]), "ms": round(ms, 2)})
            if time.time() >= t_end:
                break
        d += m
        df = pd.DataFrame(rows)
        tmp = a.out + ".tmp"
        df.to_parquet(tmp, index=False)
        os.replace(tmp, a.out)
    print(f"{len(rows)} deals in {a.out}")


if __name__ == "__main__":
    main()
