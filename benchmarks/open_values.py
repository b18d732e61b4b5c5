"""Open-hand values of seeded 2-player deals -> results/open_values.parquet (issue 3, item 10).

Usage: python benchmarks/open_values.py --deals 100000 --seed 1 --minutes 25 [--threads 2]

Solves deal d (d = 0, 1, ...) of the seed exactly from the first lead (known stock order, both
sides perfect) with :func:`solver.selfplay.play_open_batch`, stopping at --deals or after
--minutes, and rewrites the parquet atomically (a temporary file renamed over it) after every
chunk of deals, so a stopped run keeps what it solved.

Resumes: the deals already in --out are kept and the run continues after them, so 100,000 deals
can be made in several bounded runs. An --out that is not this script's file of the same seed
(another seed, missing columns, deals other than 0..n-1 once each, not parquet) is refused, never
overwritten; so is --summary of such a file. Ctrl-C, SIGTERM and SIGHUP (not under nohup) keep every
finished chunk (exit 130 / 143 / 129). Exit status: 0 done or stopped at --minutes (the last line says
which), 1 the file could not be written (the previous file is kept), 2 bad input.

Columns (all int64 but ms, float64): deal, seed, pinta (the card turned at the deal as its card id,
an index into sim.cards.CARD_NAMES, 0-47: not the card string the simulate deal table's pinta shows;
CARD_NAMES[pinta] gives it), pinta_rank (its rank, 1-12), trump (the trump suit's index 0-3, O C E B:
the deal table's trump letter is "OCEB"[trump]), first_points (seat 0, the first leader),
second_points, winner (0, 1, -1 draw), nex (exchanges, 0-2, R7), ms (wall time of the deal's solve; with
more --threads than cores it includes waiting for a core; compile time is excluded: before
that fix, the first deal of every run included it).
"""
from __future__ import annotations

import os
import signal
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _common import (ArgumentParser, ROOT, Terminated, check_out, check_seed, quiet_startup,  # noqa: E402
                     raise_terminated, startup_done, write_atomic)

if __name__ == "__main__":  # (Ctrl-C while numba and the engine load: exit 130, no traceback)
    quiet_startup()

import numba  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from tqdm import tqdm  # noqa: E402

from sim.cards import CARD_RANK, RANKS_BY_STRENGTH, printable  # noqa: E402
from sim.batch import progress_intervals  # noqa: E402
from sim.cli import note_format  # noqa: E402
from sim.engine import R_NEX, R_PINTA, R_SIDE_POINTS, R_SIZE, R_TRUMP, R_WINNER, T_SIZE  # noqa: E402
from sim.rules import Rules  # noqa: E402
from solver.selfplay import play_open_batch, warm_up  # noqa: E402

COLUMNS = ["deal", "seed", "pinta", "pinta_rank", "trump", "first_points", "second_points", "winner", "nex", "ms"]


_Terminated = Terminated  # SIGTERM or SIGHUP (benchmarks/_common)
_on_sigterm = raise_terminated  # (the handler main sets for SIGTERM and SIGHUP)
_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)  # (main sets, ignores in cleanup, puts back)


def _status(e: BaseException) -> int:
    """The exit status of a run stopped by ``e``: 128 + the signal's number for :class:`_Terminated` (143
    SIGTERM, 129 SIGHUP), 130 for Ctrl-C."""
    return 128 + e.signum if isinstance(e, _Terminated) else 130


def _fail(msg, status=2):
    """One-line error on stderr and exit ``status`` (2: bad input, nothing written)."""
    print(f"open_values.py: error: {printable(msg)}", file=sys.stderr)  # (a path echoed: break-it pass 22)
    sys.exit(status)


#: The end of load()'s other-seed message, which gives its own advice.
_NEVER_OVERWRITTEN = "(it is never overwritten)"


def load(path, seed=None):
    """The deals in ``path`` as written by this script, sorted by deal.

    Parameters
    ----------
    path : str
        A parquet file.
    seed : int, optional
        The run seed its deals must have (any single seed if None).

    Returns
    -------
    pandas.DataFrame
        One row a deal, the columns of :data:`COLUMNS`: integers (card points 0-120, R2; winner
        0, 1 or -1 for a 60-60 draw, R8; pinta card id and its rank, trump suit 0-3, exchanges
        0-2, R7) and ``ms`` (float, wall time of the deal's solve in milliseconds).

    Raises
    ------
    ValueError
        If ``path`` is not a parquet file with this script's columns, holding deals 0..n-1 once each
        of one seed (``seed`` when given); the message says what is wrong.
    """
    try:
        df = pd.read_parquet(path)
    except Exception as e:  # noqa: BLE001 - any unreadable file is refused, never overwritten
        raise ValueError(f"{path} is not a parquet file of this script ({type(e).__name__})") from None
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"{path} lacks the columns {', '.join(missing)}")
    extra = [str(c) for c in df.columns if c not in COLUMNS]
    if extra:
        raise ValueError(f"{path} has columns this script does not write: {', '.join(extra)}")
    for c in COLUMNS:
        kind = df[c].dtype.kind
        if kind not in ("f" if c == "ms" else "iu") or (kind == "f" and not np.isfinite(df[c]).all()):
            raise ValueError(f"{path}: column {c} is {df[c].dtype}, expected "
                             f"{'finite numbers' if c == 'ms' else 'integers'}")
    pts = df["first_points"].to_numpy()
    checks = (("seed", (df["seed"] >= 0).all()),
              ("first_points", ((pts >= 0) & (pts <= 120)).all()),
              ("second_points", ((df["first_points"] + df["second_points"]) == 120).all()),
              ("winner", df["winner"].isin([-1, 0, 1]).all()),
              ("pinta", df["pinta"].between(0, 47).all()), ("trump", df["trump"].between(0, 3).all()),
              ("nex", df["nex"].between(0, 2).all()), ("ms", (df["ms"] >= 0).all()))
    bad = [c for c, ok in checks if not ok]
    if bad:
        raise ValueError(f"{path}: values out of range in {', '.join(bad)} (card points 0-120 summing to 120, "
                         "winner -1/0/1, pinta 0-47, trump 0-3, nex 0-2, seed and ms >= 0)")
    if len(df):
        seeds = sorted({int(x) for x in df["seed"].unique()})
        if seed is not None and seeds != [seed]:
            raise ValueError(f"{path} holds deals of seed {', '.join(map(str, seeds))}, not --seed {seed}; "
                             f"give that seed to continue it, or another --out {_NEVER_OVERWRITTEN}")
        if len(seeds) != 1:
            raise ValueError(f"{path} holds deals of several seeds ({', '.join(map(str, seeds))})")
        deals = df["deal"].to_numpy()
        if deals.dtype.kind not in "iu" or not np.array_equal(np.sort(deals), np.arange(len(df))):
            raise ValueError(f"{path} does not hold deals 0..{len(df) - 1} once each")
    return df.sort_values("deal", kind="stable").reset_index(drop=True)


#: The tracked table (results/README.md's open-hand statistics), in this checkout whatever the working
#: directory (a run from elsewhere started a new file there: break-it pass of 2026-12-06).
DEFAULT_OUT = str(ROOT / "results" / "open_values.parquet")


def parse_args(argv=None):
    """Command line, checked before any solve: ranges, --out, and an existing --out's content (a
    run never replaces deals of another seed: they take hours to solve)."""
    ap = ArgumentParser(
        description="Exact open-hand values of seeded 2-player deals (both sides perfect, known stock "
                    "order) to a parquet file; resumes a stopped run (see the module docstring).")
    ap.add_argument("--deals", type=int, default=100000,
                    help="total deals in --out when done, deals 0..N-1 of the seed (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=1, help="deal seed, 0 <= seed < 2**64 (default: %(default)s)")
    ap.add_argument("--minutes", type=float, default=25.0,
                    help="stop after this many minutes, keeping every finished chunk (checked between "
                         "chunks of 50 deals or 2 per thread; default: %(default)s)")
    ap.add_argument("--out", default=DEFAULT_OUT,
                    help="parquet file: created (a missing directory too), or continued if it holds deals of "
                         "the same seed (default: results/open_values.parquet in this checkout, wherever the "
                         "script is run from)")
    ap.add_argument("--summary", action="store_true", help="print a markdown summary of --out and exit")
    ap.add_argument("--threads", type=int, default=1,
                    help="deals solved at once, 1-256 (one solver workspace of 32 MB each; the kernels "
                         "release the GIL; more than the cores only makes each deal's ms longer; "
                         "default: %(default)s)")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    a = ap.parse_args(argv)
    if a.summary:
        # (the run's options with --summary were ignored silently: break-it pass of 2026-12-06)
        given = [f"--{k.replace('_', '-')}" for k in ("deals", "seed", "minutes", "threads", "no_progress")
                 if getattr(a, k) != ap.get_default(k)]
        if given:
            _fail(f"--summary: prints the summary of --out only (not with {', '.join(given)})")
        if not os.path.isfile(a.out):
            _fail(f"--out: {a.out} is not a file (nothing to summarize)")
        try:
            df = load(a.out)
        except ValueError as e:
            _fail(f"--out: {e}")
        if len(df) < 2:
            _fail(f"--out: {a.out} holds {len(df)} deal{'' if len(df) == 1 else 's'}: a summary needs at least 2")
        return a, df
    if a.deals < 1:
        _fail(f"--deals: {a.deals}, expected at least 1")
    bad = check_seed(a.seed)
    if bad:
        _fail(f"--seed: {bad}")
    if not a.minutes > 0:
        _fail(f"--minutes: {a.minutes}, expected more than 0")
    if not 1 <= a.threads <= 256:
        _fail(f"--threads: {a.threads}, expected 1-256")
    bad = check_out(a.out, make_dirs=True)  # (a missing directory created, as the other scripts do)
    if bad:
        _fail(f"--out: {bad}")
    real = os.path.realpath(a.out)
    old = None
    if os.path.exists(real):
        try:
            old = load(real, a.seed)
        except ValueError as e:
            # (the other-seed message says what to do already: the advice was given twice, break-it pass 21;
            # its end, not the path, tells it: break-it pass 22)
            advice = "" if str(e).endswith(_NEVER_OVERWRITTEN) else "; move it or give another --out"
            _fail(f"--out: {e}{advice}")
    # (as brisca simulate's note for --out run.csv, break-it pass 21; after the checks, so that a refused
    # run prints its error alone, break-it pass 22)
    note_format("--out", a.out, "parquet", prog="open_values.py")
    return a, old


def main(argv=None, restore_handlers=True):
    """Run the script with ``argv`` (default: the command line).

    ``restore_handlers``: put the caller's SIGINT/SIGTERM/SIGHUP handlers back on return (called in-process, e.g.
    by the tests). The script itself passes False: after an interruption the signals stay ignored until the
    process has exited (a second Ctrl-C during the interpreter's exit printed "Exception ignored ...
    KeyboardInterrupt" tracebacks, or ended the process by the signal instead of exit 130 / 143: break-it
    pass 30).

    Parameters
    ----------
    argv : list of str or None
        The script's arguments (``--help`` lists them); None reads ``sys.argv``.
    restore_handlers : bool
        Whether SIGINT's, SIGTERM's and SIGHUP's handlers are put back on return (main thread only).

    Raises
    ------
    SystemExit
        2 for bad arguments (argparse), 130 on Ctrl-C, 143 on SIGTERM and 129 on SIGHUP (the terminal
        closed; not under ``nohup``, which ignores it) (the deals solved so far saved to ``--out``), 141 when
        stdout's reader went away.
    """
    main_thread = threading.current_thread() is threading.main_thread()
    saved = {sig: signal.getsignal(sig) for sig in _SIGNALS} if main_thread else {}
    if main_thread:
        signal.signal(signal.SIGTERM, _on_sigterm)
        if saved[signal.SIGHUP] != signal.SIG_IGN:  # (SIGHUP, a closed terminal, as SIGTERM; under nohup: ignored)
            signal.signal(signal.SIGHUP, _on_sigterm)
    try:
        return _main_unwrapped(argv)
    finally:  # (called in-process, e.g. by the tests: the caller gets its handlers back, Ctrl-C included)
        if restore_handlers:
            for sig, handler in saved.items():
                signal.signal(sig, handler)


def _main_unwrapped(argv):
    try:
        return _main(argv)
    except BrokenPipeError:
        # stdout's reader went away (--summary | head): no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(141)
    except (KeyboardInterrupt, _Terminated) as e:
        # interrupted before the run (arguments, reading --out, compiling): nothing was written
        print("\ninterrupted: nothing written", file=sys.stderr)
        sys.exit(_status(e))


def _main(argv):
    a, old = parse_args(argv)
    if a.summary:
        print(summary(old))
        return
    numba.set_num_threads(1)
    rules = Rules(players=2)
    real = os.path.realpath(a.out)
    # the table so far, one frame a chunk (the file is rewritten whole after every chunk)
    frames = [old[COLUMNS]] if old is not None and len(old) else []
    d = len(old) if old is not None else 0
    if d >= a.deals:
        print(f"{d} deals in {a.out} already (--deals {a.deals}): nothing to do")
        return
    # compile or load the kernels outside every deal's ms (the first deal's ms used to include it),
    # in every worker thread (each first solve of a thread also sets up that thread's workspace)
    t0 = time.time()
    print("open_values.py: compiling or loading the solver (a first run takes up to a minute or two)...",
          file=sys.stderr, flush=True)
    pool = None
    if a.threads > 1:
        from concurrent.futures import ThreadPoolExecutor
        pool = ThreadPoolExecutor(max_workers=a.threads)
        warm_up(rules)  # compile once, then let every worker thread load it
        barrier = threading.Barrier(a.threads)

        def warm(_):
            barrier.wait()  # one warm-up on each thread
            warm_up(rules)

        list(pool.map(warm, range(a.threads)))
    else:
        warm_up(rules)
    print(f"open_values.py: ready in {time.time() - t0:.1f} s", file=sys.stderr, flush=True)
    t_end = time.time() + 60 * a.minutes
    chunk = max(50, 2 * a.threads)
    saved = d
    bar = tqdm(total=a.deals, initial=d, unit="deal", desc="open values", file=sys.stderr,
               disable=a.no_progress, delay=1.0, **progress_intervals(sys.stderr))  # (30 s off a terminal,
    #                                                                    as brisca's bars: new-user pass 22)
    try:
        while d < a.deals and time.time() < t_end:
            m = min(chunk, a.deals - d)
            res = np.zeros((m, R_SIZE), np.int16)
            h0 = np.zeros((m, 2, 3), np.int8)
            ds = np.zeros(m, np.uint64)
            tr = np.zeros((1, rules.tricks, T_SIZE), np.int16)

            def one(i):
                t1 = time.perf_counter()
                play_open_batch(rules, a.seed, d + i, 1, 1, res[i:i + 1], h0[i:i + 1], ds[i:i + 1], tr, False)
                bar.update(1)
                return (time.perf_counter() - t1) * 1000

            times = list(pool.map(one, range(m))) if pool is not None else [one(i) for i in range(m)]
            frames.append(_chunk_frame(d, a.seed, res, times))
            d += m
            # the whole table again, to a temporary file renamed when complete: a stopped run keeps
            # every finished chunk and never leaves a half-written --out
            try:
                frame = pd.concat(frames, ignore_index=True)
                frames = [frame]
                write_atomic(real, lambda tmp: frame.to_parquet(tmp, index=False))
            except OSError as e:
                bar.close()
                kept = f"{saved} deals kept in it" if os.path.exists(real) else "nothing written"
                _fail(f"cannot write {a.out}: {e.strerror or e}; {kept}", status=1)
            saved = d
    except (KeyboardInterrupt, _Terminated) as e:
        for sig in _SIGNALS:  # a second signal must not break the cleanup
            signal.signal(sig, signal.SIG_IGN)
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        bar.close()
        kept = (f"{saved} deals kept in {a.out} (the unfinished chunk is dropped; run again to continue)"
                if os.path.exists(real) else "nothing written")
        print(f"\ninterrupted: {kept}", file=sys.stderr)
        sys.exit(_status(e))
    if pool is not None:
        pool.shutdown()
    bar.close()
    if d >= a.deals:
        print(f"done: {d} deals in {a.out}")
    elif saved:
        print(f"stopped at --minutes {a.minutes:g}: {saved} of {a.deals} deals in {a.out}; run again to continue")
    else:
        print(f"stopped at --minutes {a.minutes:g}: no chunk finished, nothing written")


def _chunk_frame(d0, seed, res, times):
    """The rows of a chunk, deals ``d0 .. d0+m-1`` of ``seed``: :data:`COLUMNS` from the engine's result rows
    ``res`` (``m`` rows) and each deal's solve time ``times`` (ms, rounded to 0.01)."""
    m = len(res)
    pinta = res[:, R_PINTA].astype(np.int64)
    return pd.DataFrame({
        "deal": np.arange(d0, d0 + m, dtype=np.int64),
        "seed": np.full(m, seed, dtype=np.uint64 if seed >= 2 ** 63 else np.int64),
        "pinta": pinta, "pinta_rank": CARD_RANK[pinta], "trump": res[:, R_TRUMP].astype(np.int64),
        "first_points": res[:, R_SIDE_POINTS].astype(np.int64),
        "second_points": res[:, R_SIDE_POINTS + 1].astype(np.int64),
        "winner": res[:, R_WINNER].astype(np.int64), "nex": res[:, R_NEX].astype(np.int64),
        "ms": np.round(times, 2)})


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
             "- quantiles of the first leader's points: "
             + ", ".join(f"q{int(q * 100)}={x.quantile(q):.0f}" for q in (0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99)),
             f"- capote (120-0 either way): {100 * ((x == 120) | (x == 0)).mean():.3f}%;"
             f" solve time per deal: median {df['ms'].median():.0f} ms, p99 {df['ms'].quantile(0.99):.0f} ms", "",
             "| first leader's points | share |", "|---|---|"]
    bins = [0, 20, 40, 50, 60, 61, 70, 80, 100, 121]
    cut = pd.cut(x, bins, right=False)
    for iv, c in cut.value_counts(sort=False).items():
        lines.append(f"| {int(iv.left)}-{int(iv.right) - 1} | {100 * c / n:.1f}% |")
    lines += ["", "pinta ranks in trick-strength order (R2), strongest first:", "",
              "| pinta rank | deals | mean points of the first leader | first leader wins |", "|---|---|---|---|"]
    for rk in reversed(RANKS_BY_STRENGTH):
        g = df[df["pinta_rank"] == rk]
        if len(g):
            lines.append(f"| {rk} | {len(g)} | {g['first_points'].mean():.2f} | {100 * (g['winner'] == 0).mean():.1f}% |")
    return "\n".join(lines)


if __name__ == "__main__":
    startup_done()
    main(restore_handlers=False)
