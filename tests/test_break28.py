"""Break-it pass 28 (helper) on open-hand self-play: ``solver/selfplay.py`` and ``brisca simulate --policy solver``.

Faults found:

1. A signal (Ctrl-C, SIGTERM) that came while a deal was being solved lost every finished deal. ``sim.cli``
   runs the command in a worker thread and raises the interruption there, but it lands only when that thread
   runs Python again; ``play_open_batch`` called the compiled search (numba, no GIL) directly, so a solve longer
   than the 2 s grace (a 6-player ``catalan48`` deal takes minutes, so nearly every signal of such a run) ended
   the process "without unwinding": no summary, the temporary files holding the finished chunks removed. The
   solve now runs in a solving thread of the caller's own and is waited for in short steps, so the
   interruption unwinds at once as between deals: summary of the deals finished, files marked incomplete.
2. The solver's first chunk was 8 deals (``sim.batch.SOLVER_CHUNK``): a signal during a run's first 8 deals kept
   none of them (with 6 players and ``catalan48``, over half an hour of solving). Now one deal.
3. ``play_open_batch`` with a read-only output array raised numpy's "assignment destination is read-only",
   naming no argument, after the first deal was solved; now a ValueError naming it, before any solve.

Held (checked by hand, see the pass's report): every move of solver-played deals (2, 3, 4, 6 players, the three
decks, the remove variants, the four exchange rules and both conditions, the three endgames) legal by the
plain-Python oracle (tests/oracle.py) and value-preserving (its value equals the position's by solver.solve);
points summing to 120, winner and capote per R8; the same rows whatever the threads and chunks; the parquet,
the JSON and the table agreeing; the bad-argument refusals.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import pandas as pd

import sim
from sim.rules import Rules

RAPIDA2 = Rules(players=2, deck="rapida20")

_SLOW_SOLVE = """
import os, sys, time
import solver.selfplay as sp
real = sp.play_open_deal
def slow(rules, seed, d, ws=None):
    if d >= 3:  # a solve of minutes (a 6-player catalan48 deal): no Python runs in its thread meanwhile
        open(os.environ["BRISCA_TEST_MARK"], "w").close()
        time.sleep(60)
    return real(rules, seed, d, ws)
sp.play_open_deal = slow
from sim.cli import main
main(sys.argv[1:])
"""


def test_signal_during_a_long_solve_keeps_the_finished_deals(tmp_path):
    from solver.selfplay import warm_up
    warm_up(RAPIDA2)  # (numba's cache warm for the child)
    out = tmp_path / "d.parquet"
    mark = tmp_path / "solving"
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               BRISCA_TEST_MARK=str(mark))
    p = subprocess.Popen([sys.executable, "-c", _SLOW_SOLVE, "simulate", "--players", "2", "--deck", "rapida20",
                          "--policy", "solver", "--deals", "6", "--seed", "3", "--chunk", "1", "--out", str(out),
                          "--json", "--no-progress"], cwd=root, env=env, text=True, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        end = time.monotonic() + 120
        while not mark.exists() and p.poll() is None and time.monotonic() < end:
            time.sleep(0.02)
        time.sleep(0.2)
        p.send_signal(signal.SIGINT)
        stdout, stderr = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 130 and "without unwinding" not in stderr, stderr
    summary = json.loads(stdout)
    assert summary["complete"] is False and summary["deals"] == 3
    md = sim.read_metadata(out)
    assert md["complete"] is False and md["rows"] == 3
    ref = sim.simulate(RAPIDA2, "solver", deals=3, seed=3)
    pd.testing.assert_frame_equal(pd.read_parquet(out), ref.frame)


def test_parallel_callers_and_a_failing_solve():
    """Each calling thread solves in its own solving thread (open_values.py's --threads stay parallel, same
    rows); an exception in the solve reaches the caller as it is."""
    import threading

    from sim.engine import R_SIZE, T_SIZE
    from solver import selfplay

    def run(d):
        a = (np.zeros((1, R_SIZE), np.int16), np.zeros((1, 2, 3), np.int8), np.zeros(1, np.uint64),
             np.zeros((1, RAPIDA2.tricks, T_SIZE), np.int16))
        selfplay.play_open_batch(RAPIDA2, 7, d, 1, 1, *a, True)
        return [x.tolist() for x in a], selfplay._local.solver.ident
    alone = [run(d)[0] for d in range(4)]
    got = {}
    threads = [threading.Thread(target=lambda k=k: got.update({k: [run(d) for d in (k, k + 2)]})) for k in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [got[d % 2][d // 2][0] for d in range(4)] == alone
    assert len({ident for k in got for _, ident in got[k]}) == 2  # (one solving thread each)
    assert selfplay._in_solving_thread(int, "12") == 12
    try:
        selfplay._in_solving_thread(int, "x")
    except ValueError as e:
        assert "invalid literal" in str(e)
    else:
        raise AssertionError("no ValueError")


def test_interrupted_during_the_second_deal_keeps_the_first(tmp_path, monkeypatch):
    """The solver's first chunk was 8 deals (sim.batch.SOLVER_CHUNK): an interruption during any of a run's
    first 8 deals kept none (minutes each with 6 players and catalan48). Now one deal."""
    import pytest

    import sim.batch  # noqa: F401
    from solver import selfplay
    real = selfplay.play_open_batch

    def row_by_row(rules, seed, row0, m, rotations, res, hands0, dseeds, tricks, rec):
        for i in range(m):
            if row0 + i == 1:
                raise KeyboardInterrupt  # (the signal, landing while deal 1 is solved)
            real(rules, seed, row0 + i, 1, rotations, res[i:], hands0[i:], dseeds[i:], tricks[i:] if rec else tricks,
                 rec)

    monkeypatch.setattr(selfplay, "play_open_batch", row_by_row)
    out = tmp_path / "s.parquet"
    with pytest.raises(KeyboardInterrupt) as e:
        sim.simulate(RAPIDA2, "solver", deals=20, seed=4, out=out)
    assert e.value.kept_rows == 1 and sim.read_metadata(out)["rows"] == 1
    pd.testing.assert_frame_equal(pd.read_parquet(out), sim.simulate(RAPIDA2, "solver", deals=1, seed=4).frame)


def test_a_read_only_output_is_named_before_any_deal_is_solved(monkeypatch):
    """A read-only output array raised numpy's "assignment destination is read-only" (no argument named)
    after the first deal was solved."""
    import pytest

    from sim.engine import R_SIZE, T_SIZE
    from solver import selfplay
    monkeypatch.setattr(selfplay, "play_open_deal", lambda *a, **k: pytest.fail("a deal was solved"))
    for k, name in enumerate(("res", "hands0", "dseeds", "tricks")):
        a = [np.zeros((1, R_SIZE), np.int16), np.zeros((1, 2, 3), np.int8), np.zeros(1, np.uint64),
             np.zeros((1, RAPIDA2.tricks, T_SIZE), np.int16)]
        a[k].setflags(write=False)
        with pytest.raises(ValueError, match=f"^{name}: the output array is read-only"):
            selfplay.play_open_batch(RAPIDA2, 1, 0, 1, 1, *a, True)


def test_the_solver_summary_names_the_one_thread_that_played():
    """Observation of break-it pass 28: ``--threads 2 --policy solver`` played on one thread (the solver's batch
    is not split) while the summary said "2 threads"; it says 1 (the JSON's ``threads`` too). Other policies
    keep the threads asked for."""
    s = sim.simulate(RAPIDA2, "solver", deals=1, seed=5, threads=2).summary
    assert s.extra["threads"] == 1 and ", 1 thread" in str(s) and "2 threads" not in str(s)
    assert sim.simulate(RAPIDA2, "random", deals=10, seed=5, threads=2).summary.extra["threads"] == 2


def test_a_file_error_without_strerror_is_named(tmp_path, monkeypatch, capsys):
    """Review of solver/cli.py (2026-12-07): ``brisca solve --file`` reported an OSError of the reader as
    ``--file: {e.strerror}: F``, which printed ``None`` for an OSError made from a message alone; it prints
    the message."""
    import solver.cli as C
    from sim.cli import main

    def broken(path):
        raise OSError("the reader broke")

    monkeypatch.setattr(C, "_read_positions", broken)
    f = tmp_path / "p.txt"
    f.write_text("players=2\n")
    with pytest.raises(SystemExit) as ex:
        main(["solve", "--file", str(f), "--no-progress"])
    assert ex.value.code == 2
    err = capsys.readouterr().err
    assert "the reader broke" in err and "None" not in err
