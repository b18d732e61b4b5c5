"""``brisca solve --file`` benchmark: lines per second and peak memory of the command itself.

What a user pays per line of a position file: reading, parsing and checking the position (NOTATION.md),
the solve (:func:`solver.solve`: every move's value and the principal variation), the JSON record
printed, and with ``--out`` the table written. Positions with few tricks left solve in microseconds, so
for them the command's own Python is most of the cost; this benchmark measures it.

The positions are :mod:`bench_solver`'s seeded configurations (default ``2p-4left``: 2-player positions
with 4 tricks left), written to a temporary file, then ``brisca solve --file`` is run as its own process
(``python -m sim.cli``, compiled kernels loaded from the numba cache after one warm-up run): once on a
file of one line (the process's fixed cost: start-up, imports, kernel loading) and once on the whole
file, each without ``--out`` and with ``--out`` a parquet file. ``--input stdin`` gives the file as
standard input (``--file -``, read once as it is solved: :class:`solver.cli._Stream`) instead of its name
(read twice: :class:`solver.cli._TextFile`). Per run: wall time and peak resident
memory (``ru_maxrss`` of that process, ``os.wait4``), the fastest of ``--repeat`` runs, and from the
two: lines/s and KB per line beyond the one-line run. One JSON line per run to ``results/benchmarks/solve_file.jsonl``:
``config``, ``lines``, ``seed``, ``threads``, ``repeat``, ``input`` (``file`` or ``stdin``), ``out`` (``"parquet"``, or
null without ``--out``), ``wall_s`` and ``one_line_wall_s`` (the fastest runs, s), ``lines_per_s`` (``(lines - 1) /
(wall_s - one_line_wall_s)``; null when the file took no longer), ``peak_rss_mb`` (the whole file's run, ``ru_maxrss``
in MiB), ``kb_per_line`` (the peak beyond the one-line run's, KiB a line; null when below it), ``rate_unit``, and the
machine's facts (``benchmarks/_common.py``'s ``machine``).

Usage::

    python benchmarks/bench_solve_file.py          # 100,000 lines: about 4 minutes, most of it making the positions
    python benchmarks/bench_solve_file.py --lines 20000 --threads 2 --configs 2p-4left,4p-4left
    python benchmarks/bench_solve_file.py --input file,stdin     # the file by name and as standard input
"""
from __future__ import annotations

import itertools
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# (importing _common puts the checkout first on sys.path)
from _common import (ArgumentParser, OUT_DIR, ROOT, Terminated, check_out, check_seed, emit, machine,  # noqa: E402
                     stops_raise)

CONFIGS = ("2p-4left", "4p-4left", "2p-10left")


def _run(args, env, stdin=None):
    """Run ``python -m sim.cli`` with ``args`` (stdout discarded; standard input the file named ``stdin``, else
    none); returns (wall s, peak RSS in KB).

    Raises
    ------
    RuntimeError
        If the command exits with a status other than 0.
    """
    t0 = time.perf_counter()
    with open(stdin or os.devnull, "rb") as fin:
        p = subprocess.Popen([sys.executable, "-m", "sim.cli", *args], stdin=fin, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, env=env)
        try:
            err = p.stderr.read()
        except BaseException:  # (Ctrl-C or SIGTERM: no orphan left solving, as bench_engine's; break-it pass 26)
            p.kill()
            p.wait()
            raise
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        raise RuntimeError(f"brisca {' '.join(args[:3])}... exited {p.returncode}: {err.decode()[-400:]}")
    return dt, ru.ru_maxrss  # (KB on Linux)


def measure(config, lines, seed, threads, tmp, repeat=3, inputs=("file",)):
    """The records of one configuration: for each of ``inputs`` (``"file"``: ``--file F``; ``"stdin"``:
    ``--file -`` with F as standard input), without ``--out`` and with ``--out`` parquet.

    Returns
    -------
    list of dict
        ``lines_per_s`` (lines/s of the whole file beyond the one-line run's time), ``peak_rss_mb`` (MB),
        ``kb_per_line`` (peak RSS beyond the one-line run's, KB per line), ``wall_s`` and
        ``one_line_wall_s`` (s).
    """
    from bench_solver import positions

    text = "\n".join(str(p) for p in positions(config, lines, seed)) + "\n"
    big = os.path.join(tmp, f"{config}.txt")
    one = os.path.join(tmp, f"{config}-1.txt")
    with open(big, "w") as f:
        f.write(text)
    with open(one, "w") as f:
        f.write(text.split("\n", 1)[0] + "\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    base = ["solve", "--no-progress", "--threads", str(threads), "--file"]
    _run(base + [one], env)  # (warm-up: compiles or loads the kernels into the numba cache)
    recs = []
    for how, out in itertools.product(inputs, (None, os.path.join(tmp, "out.parquet"))):
        extra = [] if out is None else ["--out", out]

        def run(path):
            return _run(base + [path] + extra, env) if how == "file" else _run(base + ["-"] + extra, env, path)
        # the fastest of `repeat` runs of each (the machine's other work only ever adds time); peak memory
        # does not depend on the run
        t1, rss1 = min(run(one) for _ in range(repeat))
        tn, rssn = min(run(big) for _ in range(repeat))
        recs.append({"config": config, "lines": lines, "seed": seed, "threads": threads, "repeat": repeat,
                     "input": how,
                     "out": "parquet" if out else None, "wall_s": round(tn, 3), "one_line_wall_s": round(t1, 3),
                     # (null when the file took no longer than one line: too few lines to measure)
                     "lines_per_s": round((lines - 1) / (tn - t1), 1) if tn > t1 else None,
                     "peak_rss_mb": round(rssn / 1024, 1),
                     # (null too when the file's peak came out below the one line's: break-it pass 26 saw -88)
                     "kb_per_line": round((rssn - rss1) / max(lines - 1, 1), 3) if rssn >= rss1 else None})
    return recs


def main(argv=None):
    ap = ArgumentParser(description="brisca solve --file: lines/s and peak memory (see the module "
                                             "docstring).")
    ap.add_argument("--configs", default="2p-4left", help=f"comma-separated: {', '.join(CONFIGS)} "
                                                          "(default: %(default)s)")
    ap.add_argument("--lines", type=int, default=100_000, help="positions in the file (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=1, help="deal seed (default: %(default)s)")
    ap.add_argument("--threads", type=int, default=1, help="brisca solve --threads (default: %(default)s)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each, the fastest kept (default: %(default)s)")
    ap.add_argument("--input", default="file", help="comma-separated: file (--file F), stdin (--file - with F as "
                                                    "standard input) (default: %(default)s)")
    ap.add_argument("--out", default=str(OUT_DIR / "solve_file.jsonl"),
                    help="JSON-lines file to append to (default: results/benchmarks/solve_file.jsonl in this checkout)")
    a = ap.parse_args(argv)
    configs = a.configs.split(",")
    bad = [c for c in configs if c not in CONFIGS]
    if bad or len(set(configs)) != len(configs):
        ap.error(f"--configs: expected distinct names among {', '.join(CONFIGS)}, got {a.configs!r}")
    inputs = a.input.split(",")
    if not inputs or any(i not in ("file", "stdin") for i in inputs) or len(set(inputs)) != len(inputs):
        ap.error(f"--input: expected distinct names among file, stdin, got {a.input!r}")
    if a.lines < 2:
        ap.error(f"--lines: {a.lines}, expected at least 2")
    if not 1 <= a.threads <= 256:
        ap.error(f"--threads: {a.threads}, expected 1 to 256")
    if not 1 <= a.repeat <= 100:
        ap.error(f"--repeat: {a.repeat}, expected 1 to 100")
    bad = check_seed(a.seed)
    if bad:
        ap.error(f"--seed: {bad}")
    out = a.out  # (`--out ''` is refused here: `a.out or default` took it for the default, break-it pass 26)
    bad = check_out(out, make_dirs=True, jsonl=True)
    if bad:
        ap.error(f"--out: {bad}")
    facts = machine()
    # SIGTERM and SIGHUP unwind as Ctrl-C does: the child killed, the temporary positions removed (break-it
    # pass 26: the directory and a solving child were left behind)
    try:
        with stops_raise(), tempfile.TemporaryDirectory() as tmp:
            for config in configs:
                print(f"{config}: {a.lines:,} positions, brisca solve --file with and without --out...",
                      file=sys.stderr, flush=True)
                for rec in measure(config, a.lines, a.seed, a.threads, tmp, a.repeat, inputs):
                    emit(Path(out), {**rec, "rate_unit": "lines/s (wall, beyond a one-line run)", **facts})
    except Terminated as e:
        print("\nterminated: the lines printed above are kept in the output file", file=sys.stderr)
        sys.exit(128 + e.signum)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        print("\ninterrupted: the lines printed above are kept in the output file", file=sys.stderr)
        sys.exit(130)
