"""A bare numba loop for scale: shuffle, deal, play random cards, count one side's points.

No rules beyond "same suit higher wins, else the leader" (no trump, exchanges,
draw order or policies): it only tells how fast this machine runs the
skeleton of a deal, to compare with :func:`sim.engine.play_batch`. One JSON
line into ``results/benchmarks/minimal_loop.jsonl`` (``--out`` to change).

Usage::

    python benchmarks/bench_minimal_loop.py [--deals 4000000] [--out FILE]
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's sim, not an installed one
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import (ArgumentParser, OUT_DIR, check_out, emit, machine, quiet_startup, startup_done,  # noqa: E402
                     timed_in_chunks)

if __name__ == "__main__":  # (Ctrl-C while numba and the engine load: exit 130, no traceback)
    quiet_startup()

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from sim.bits import nth_bit  # noqa: E402
from sim.rng import _GOLDEN, deal_seed, mix64  # noqa: E402

_PTS = np.array([0, 0, 0, 0, 0, 0, 0, 2, 3, 4, 10, 11] * 4, np.int64)


#: Deals a call of :func:`minimal` plays in the timed run (an interrupt is noticed between calls: a single
#: call of every deal kept Ctrl-C waiting for the whole run, break-it pass of 2026-12-06).
CHUNK = 1_000_000


@njit(error_model="numpy")
def minimal(d0, m):
    """Play deals ``d0 .. d0+m-1``; the first side's points in all (card points)."""
    order = np.zeros(40, np.int8)
    tot = 0
    for d in range(d0, d0 + m):
        st = deal_seed(1, d)  # stream state in a register
        for i in range(40):
            order[i] = i
        for i in range(39, 0, -1):
            st += _GOLDEN
            j = np.int64(((mix64(st) >> np.uint64(32)) * np.uint64(i + 1)) >> np.uint64(32))
            t = order[i]
            order[i] = order[j]
            order[j] = t
        h0 = np.int64(0)
        h1 = np.int64(0)
        for k in range(3):
            h0 |= np.int64(1) << order[2 * k]
            h1 |= np.int64(1) << order[2 * k + 1]
        dp = 6
        s0 = 0
        for t in range(20):
            st += _GOLDEN
            x = mix64(st)
            left = 3 if t < 18 else 20 - t
            # branch-free k-th card of a hand (sim.bits.nth_bit): a random index
            # in a select chain or a loop would mispredict on every card
            c0 = nth_bit(h0, np.int64(((x >> np.uint64(32)) * np.uint64(left)) >> np.uint64(32)))
            c1 = nth_bit(h1, np.int64(((x & np.uint64(0xFFFFFFFF)) * np.uint64(left)) >> np.uint64(32)))
            h0 &= ~(np.int64(1) << c0)
            h1 &= ~(np.int64(1) << c1)
            win0 = (c1 // 12 != c0 // 12) | (c0 > c1)
            s0 += (_PTS[c0] + _PTS[c1]) & -np.int64(win0)
            if dp < 40:
                h0 |= np.int64(1) << order[dp]
                h1 |= np.int64(1) << order[dp + 1]
                dp += 2
        tot += s0
    return tot


def main(argv=None) -> int:
    ap = ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=4_000_000,
                    help="deals to play, 1 to 2**62 (default: %(default)s)")
    ap.add_argument("--out", default=str(OUT_DIR / "minimal_loop.jsonl"),
                    help="JSON-lines file to append to (default: results/benchmarks/minimal_loop.jsonl)")
    args = ap.parse_args(argv)
    if not 1 <= args.deals <= 2 ** 62:
        ap.error(f"--deals: {args.deals}, expected 1 to 2**62")
    bad = check_out(args.out, make_dirs=True, jsonl=True)
    if bad:
        ap.error(f"--out: {bad}")
    args.out = Path(os.path.realpath(args.out))
    try:
        minimal(0, 10)
        wall, cpu = timed_in_chunks(args.deals, CHUNK, minimal)
    except KeyboardInterrupt:
        print("\ninterrupted: nothing written", file=sys.stderr)
        return 130
    emit(args.out, {"kind": "minimal_loop", "threads": 1, "deals": args.deals, "seconds": round(wall, 6),
                    "deals_per_s": round(args.deals / wall), "deals_per_cpu_s": round(args.deals / cpu) if cpu > 0 else None,
                    "unit": "deals/s", **machine()})
    return 0


if __name__ == "__main__":
    startup_done()
    raise SystemExit(main())
