"""Duplicate match of the ``heuristic`` policy against another policy (default ``greedy``).

Every deal is played twice with the sides' policies swapped
(``play_batch(..., rotations=2, ...)``, the CLI's ``--duplicate``), so the luck
of the deal cancels. A game counts 1 for a win, 1/2 for a draw (RULES R8).
The script prints one JSON line and appends it to
``results/benchmarks/heuristic_vs_greedy.jsonl`` (``--out`` to change); the
line names the policies, players and rules, so the vs-random and 4-player
runs go to the same file.

Reported intervals
------------------
``win_rate``
    The tested side's score, ``(wins + draws / 2) / games``, whatever its name (``brisca simulate
    --json`` calls this ``score`` and keeps ``win_rate`` for wins only); ``wins``, ``draws``, ``losses``
    count games, ``mean_points`` is the tested side's mean card points a game.
``win_rate_ci95``
    95 % Wilson score interval over the ``2 * pairs`` games (draws half).
``win_rate_ci95_pairs``
    95 % normal interval over the pair means (each pair's two games
    averaged): the honest one, since the two games of a pair share a deal.

Other options: ``--policy`` (the tested side, default ``heuristic``; e.g.
``--policy greedy --opponent random`` for a baseline), ``--par`` and
``--opp-par`` (the parameter rows of the two sides, read by ``expert`` and
``counter``, so two settings of those players can play each other), ``--deck``, ``--exchange``, ``--endgame``,
``--threads``. Timing (``seconds``, ``games_per_s``) excludes compilation.

Numba's cache does not notice edits of a jitted function that another cached
function inlines (``choose``, the batch kernels of ``sim.engine.batch_kernel``): after editing
``sim/heuristic.py`` or ``sim/expert.py`` use a fresh ``NUMBA_CACHE_DIR``.

Examples
--------
::

    export NUMBA_CACHE_DIR=/tmp/numba_heur
    python benchmarks/eval_heuristic.py --pairs 100000 --players 2 --opponent greedy --seed 1
    python benchmarks/eval_heuristic.py --pairs 100000 --players 2 --opponent random --seed 1
    python benchmarks/eval_heuristic.py --pairs 100000 --players 4 --opponent greedy --seed 1
    python benchmarks/eval_heuristic.py --pairs 100000 --players 2 --policy expert --opponent greedy --seed 1
    python benchmarks/eval_heuristic.py --pairs 20000 --policy expert --opponent counter --no-save
"""
from __future__ import annotations

import json
import math
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _common import (ArgumentParser, check_out, check_seed, commit, cpu_name, other_seed, quiet_startup,  # noqa: E402
                     startup_done, timed_in_chunks)

if __name__ == "__main__":  # (Ctrl-C while numba and the engine load: exit 130, no traceback)
    quiet_startup()

import numpy as np  # noqa: E402

from sim.rng import seed_bits  # noqa: E402


def wilson(k: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion ``k / n`` (``k`` may be fractional: draws half)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (centre - half, centre + half)


def _finite_or_none(v):
    """``v`` with every float that is not finite (a NaN interval of a single pair) as None, lists
    element by element: strict JSON has no NaN."""
    if isinstance(v, list):
        return [_finite_or_none(x) for x in v]
    return None if isinstance(v, float) and not math.isfinite(v) else v


#: Games played by one engine call of the timed run (an interrupt is noticed between calls).
CHUNK = 1_000_000
#: Largest ``--pairs`` (2 * 10**9 games: about 200 GB of results held in memory; fewer fit anyway).
MAX_PAIRS = 10 ** 9


def _finite(x) -> bool:
    """``math.isfinite(x)``, False for an int too large for a float (``10**400``: OverflowError)."""
    try:
        return math.isfinite(x)
    except OverflowError:
        return False


def _grouped(n: int) -> str:
    """``f"{n:,}"``, or ``n`` named by its size when it has more digits than ``str`` converts
    (``10**5000``: Python's own "Exceeds the limit" ValueError, naming no argument)."""
    try:
        return f"{n:,}"
    except ValueError:
        from sim.cards import show_int
        return show_int(n)


def check_args(pairs: int, players: int, opponent: str, seed: int, threads: int, par, policy: str, opp_par) -> None:
    """Refuse bad inputs of :func:`run` before any work.

    Raises
    ------
    ValueError
        For an unknown policy, ``pairs <= 0``, a seed outside 0..2**64-1, a thread count outside
        1..numba's maximum, a parameter row longer than a policy reads, not finite, with switches
        (its fourth value) other than 0-3, or given to a policy that reads none, or players other than 2,
        4, 6 (two sides).
    """
    import numba

    from sim.cards import show_int, show_repr
    from sim.policies import N_PARAMS, POLICIES

    for p in (policy, opponent):
        if p not in POLICIES:
            raise ValueError(f"unknown policy {p!r}: expected one of {', '.join(POLICIES)}")
    if pairs <= 0:
        raise ValueError(f"--pairs must be positive, got {show_int(pairs)}")
    if pairs > MAX_PAIRS:  # (1e20 failed in numpy: "Maximum allowed dimension exceeded")
        raise ValueError(f"--pairs must be at most {MAX_PAIRS:,} (the results are held in memory: about 100 "
                         f"bytes a game), got {_grouped(pairs)}")
    bad = check_seed(seed)
    if bad:
        raise ValueError(f"--seed: {bad}")
    if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise ValueError(f"--threads: {show_int(threads)}, expected 1-{numba.config.NUMBA_NUM_THREADS}")
    for name, row in (("--par", par), ("--opp-par", opp_par or ())):
        if len(row) > N_PARAMS:
            raise ValueError(f"{name}: {len(row)} values, at most {N_PARAMS}")
        if not all(_finite(x) for x in row):
            raise ValueError(f"{name}: {show_repr(list(row))}, expected finite numbers")
        if len(row) > 3 and row[3] not in (0, 1, 2, 3):  # (read as integer switches, bits 1 and 2:
            # 0.5 played as 0 and was recorded as 0.5, break-it pass 26)
            raise ValueError(f"{name}: the fourth value is sim.expert's switches, 0, 1, 2 or 3, got {row[3]}")
    # only expert and counter read a parameter row (sim.policies.choose): a row for another policy
    # would be recorded as if it had been used
    for name, row, pol in (("--par", par, policy), ("--opp-par", opp_par or (), opponent)):
        if any(x != 0 for x in row) and pol not in ("expert", "counter"):
            raise ValueError(f"{name}: {pol} reads no parameters (only expert and counter do)")
    if players not in (2, 4, 6):
        raise ValueError(f"players must be 2, 4 or 6 (two sides), got {show_int(players)}")


def run(pairs: int, players: int = 2, opponent: str = "greedy", seed: int = 1, threads: int = 1,
        par: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0), deck: str | None = None, exchange: str = "seven-two",
        endgame: str = "free", policy: str = "heuristic", opp_par: tuple[float, ...] | None = None) -> dict:
    """Play ``pairs`` duplicate deal pairs, ``policy`` side vs ``opponent`` side; return the summary dict.

    Raises
    ------
    ValueError
        For the inputs :func:`check_args` refuses, or rules :class:`sim.rules.Rules` refuses.
    """
    import numba

    from sim.engine import R_SIDE_POINTS, R_SIZE, R_STATUS, R_WINNER, T_SIZE, play_batch
    from sim.policies import N_PARAMS, POLICIES
    from sim.rules import Rules

    check_args(pairs, players, opponent, seed, threads, par, policy, opp_par)
    rules = Rules(players=players, deck=deck, exchange=exchange, endgame=endgame)
    numba.set_num_threads(threads)
    ra = rules.to_array()
    deck_arr = np.array(rules.deck_cards, dtype=np.int8)
    tested, other = POLICIES.index(policy), POLICIES.index(opponent)
    # rotation 0: side 0 (even seats) plays the tested policy; rotation 1 shifts the policies one seat
    pol = np.array([tested if s % 2 == 0 else other for s in range(players)], dtype=np.int64)
    par_arr = np.zeros((players, N_PARAMS), dtype=np.float64)
    par_arr[0::2, :len(par)] = par  # rows follow the policies through the rotation
    par_arr[1::2, :len(opp_par or ())] = opp_par or ()
    m = 2 * pairs

    def batch(mm):
        res = np.zeros((mm, R_SIZE), dtype=np.int16)
        hands0 = np.zeros((mm, players, 3), dtype=np.int8)
        dseeds = np.zeros(mm, dtype=np.uint64)
        tricks = np.zeros((1, rules.tricks, T_SIZE), dtype=np.int16)
        return res, hands0, dseeds, tricks

    # warm-up (compile or cache load) excluded from the timing
    print("compiling or loading the engine (numba caches it; a first run takes one to two minutes)...",
          file=sys.stderr, flush=True)
    res, hands0, dseeds, tricks = batch(2)
    play_batch(ra, deck_arr, seed_bits(other_seed(seed, 12345)), 0, 2, 2, pol, par_arr, res, hands0, dseeds, tricks,
               False)
    res, hands0, dseeds, tricks = batch(m)
    secs, _ = timed_in_chunks(m, CHUNK, lambda r0, mm: play_batch(ra, deck_arr, seed_bits(seed), r0, mm, 2, pol,
                                                                  par_arr, res[r0:], hands0[r0:], dseeds[r0:],
                                                                  tricks, False))
    if (res[:, R_STATUS] != 0).any():
        bad = int((res[:, R_STATUS] != 0).sum())
        raise RuntimeError(f"{bad} deals ended with an illegal action")
    rot = np.arange(m) % 2
    # the tested policy's side: 0 in rotation 0; in rotation 1 seat s plays pol[s+1], so side 1
    tested_side = rot
    win = res[:, R_WINNER].astype(np.int64)
    score = np.where(win == tested_side, 1.0, np.where(win == -1, 0.5, 0.0))
    k = float(score.sum())
    lo, hi = wilson(k, m)
    pair_mean = score.reshape(pairs, 2).mean(axis=1)
    se = float(pair_mean.std(ddof=1) / math.sqrt(pairs)) if pairs > 1 else float("nan")
    tested_points = np.where(tested_side == 0, res[:, R_SIDE_POINTS], res[:, R_SIDE_POINTS + 1]).astype(np.float64)
    return {
        "benchmark": f"{policy}_vs_{opponent}",
        "policy": policy,
        "players": players,
        "deck": rules.deck,
        "exchange": exchange,
        "endgame": endgame,
        "opponent": opponent,
        "pairs": pairs,
        "games": m,
        "seed": seed,
        "par": list(map(float, par)),
        "opp_par": list(map(float, opp_par or ())),
        "wins": int((score == 1.0).sum()),
        "draws": int((score == 0.5).sum()),
        "losses": int((score == 0.0).sum()),
        "win_rate": k / m,
        "win_rate_ci95": [lo, hi],
        # (clipped to [0, 1], as the simulator's pair_score_ci95: 3 pairs gave [0.507, 1.16])
        "win_rate_ci95_pairs": [float(np.clip(k / m - 1.96 * se, 0.0, 1.0)), float(np.clip(k / m + 1.96 * se, 0.0, 1.0))],
        "mean_points": float(tested_points.mean()),
        "seconds": secs,
        "games_per_s": m / secs,
        "threads": threads,
        "cpu": cpu_name(),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "commit": commit(),
        "utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def main(argv=None) -> int:
    ap = ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=100_000,
                    help="duplicate deal pairs (games = 2 * pairs; default: %(default)s)")
    ap.add_argument("--players", type=int, default=2, choices=(2, 4, 6), help="players, two sides (default: %(default)s)")
    ap.add_argument("--opponent", default="greedy",
                    help="policy of the other side (greedy, random, ...; default: %(default)s)")
    ap.add_argument("--policy", default="heuristic", help="policy of the tested side (default heuristic)")
    ap.add_argument("--seed", type=int, default=1, help="run seed, 0 <= seed < 2**64 (default: %(default)s)")
    ap.add_argument("--threads", type=int, default=1, help="engine threads (default: %(default)s)")
    ap.add_argument("--par", type=float, nargs="*", default=[0.0, 0.0, 0.0, 0.0],
                    help="parameter row of the tested side, read by expert and counter (up to 4 floats; zeros = tuned)")
    ap.add_argument("--opp-par", type=float, nargs="*", default=None,
                    help="parameter row of the opponent side (expert or counter)")
    ap.add_argument("--deck", default=None, help="RULES R1 deck (default: the table size's, R3)")
    ap.add_argument("--exchange", default="seven-two", help="RULES R7 variant (default: %(default)s)")
    ap.add_argument("--endgame", default="free", help="RULES R9 variant (default: %(default)s)")
    ap.add_argument("--out", default=str(ROOT / "results" / "benchmarks" / "heuristic_vs_greedy.jsonl"),
                    help="JSONL file to append to (every configuration goes to this one file by default)")
    ap.add_argument("--no-save", action="store_true", help="print only")
    a = ap.parse_args(argv)
    if a.no_save and a.out != ap.get_default("out"):  # (--out was ignored silently)
        print("error: --no-save: prints only (not with --out)", file=sys.stderr)
        return 2
    try:
        check_args(a.pairs, a.players, a.opponent, a.seed, a.threads, tuple(a.par), a.policy,
                   tuple(a.opp_par) if a.opp_par else None)
        from sim.rules import Rules  # (the rules before --out's directories are made: break-it pass 26)
        Rules(players=a.players, deck=a.deck, exchange=a.exchange, endgame=a.endgame)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if not a.no_save:
        bad = check_out(a.out, make_dirs=True, jsonl=True)
        if bad:
            print(f"error: --out: {bad}", file=sys.stderr)
            return 2
    try:
        r = run(a.pairs, a.players, a.opponent, a.seed, a.threads, tuple(a.par), a.deck, a.exchange, a.endgame,
                a.policy, tuple(a.opp_par) if a.opp_par else None)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted: nothing written", file=sys.stderr)
        return 130
    except MemoryError:
        print(f"error: --pairs {a.pairs}: not enough memory for {2 * a.pairs} games' results; use fewer pairs",
              file=sys.stderr)
        return 2
    # strict JSON: a figure that does not exist (the pair interval of a single pair) is null, not NaN
    line = json.dumps({k: _finite_or_none(v) for k, v in r.items()}, allow_nan=False)
    print(line)
    if not a.no_save:
        try:
            with open(os.path.realpath(a.out), "a") as f:
                f.write(line + "\n")
        except OSError as e:
            print(f"error: cannot write {a.out}: {e.strerror or e} (the line is printed above)", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    startup_done()
    sys.exit(main())
