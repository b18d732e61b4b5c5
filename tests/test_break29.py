"""Break-it pass 29 (helper) on pass 28's solving thread (``solver/selfplay.py``: ``_in_solving_thread``,
``play_open_batch``, ``warm_up``) and ``sim/batch.py``'s refactor.

Fault found:

1. A solving thread outlived the thread it served: blocked on its queue for good, with its 32 MB of search
   buffers (``solver.api.workspace``), one more for every thread that had called ``play_open_batch`` or
   ``warm_up`` and ended (every in-process ``brisca simulate --policy solver``'s worker thread, every
   ``benchmarks/open_values.py --threads N`` pool thread of an in-process ``main``): 20 such threads left 20
   threads and 840 MB resident. The calling thread's locals now hold a claim whose weakref callback ends its
   solving thread when the caller ends.

The other tests here kill mutants of the solving thread the relevant test files let live (break-it pass 29's
mutation table): the interrupted call's thread not told to end, the wait step, the solve run in the caller,
warm_up run in the caller, a ``BaseException`` escaping the solving thread, the solving thread not a daemon.

Held (see the pass's report): ``--out``/``--tricks`` byte-identical to the code before the refactor (2, 3, 4
and 6 players, with and without ``--duplicate``, explicit ``--chunk`` 1 to 100000, ``--policy solver`` with 2
and 3 players); open_values.py ``--threads 2`` gives ``--threads 1``'s rows; SIGINT/SIGTERM of ``brisca
simulate --players 4 --policy solver`` during compile, warm-up and play (once, twice within 50 ms) exit at
once with 130/143 and the finished deals; no overhead measurable (2000 2-player deals, 73.5-76.7 deals/s
before and after).
"""
from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from sim.rules import Rules

RAPIDA2 = Rules(players=2, deck="rapida20")


def _solving_threads():
    return [t for t in threading.enumerate() if t.name == "brisca-selfplay"]


def _until(cond, seconds=5.0):
    end = time.monotonic() + seconds
    while not cond() and time.monotonic() < end:
        time.sleep(0.01)
    return cond()


def _batch(d, seed=7):
    from sim.engine import R_SIZE, T_SIZE
    from solver import selfplay
    a = (np.zeros((1, R_SIZE), np.int16), np.zeros((1, 2, 3), np.int8), np.zeros(1, np.uint64),
         np.zeros((1, RAPIDA2.tricks, T_SIZE), np.int16))
    selfplay.play_open_batch(RAPIDA2, seed, d, 1, 1, *a, True)
    return [x.tolist() for x in a]


def _raise_in(thread, exc=KeyboardInterrupt):
    """``exc`` raised in ``thread`` as ``sim.cli.run_interruptible`` does (an asynchronous exception)."""
    assert ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(exc)) == 1


def test_a_finished_callers_solving_thread_ends():
    """Fault 1: every thread that had called play_open_batch or warm_up left its solving thread (and its 32 MB
    of search buffers) behind for good."""
    from solver import selfplay
    selfplay.warm_up(RAPIDA2)
    before = len(_solving_threads())
    ref = [_batch(d) for d in range(3)]
    got = {}
    for d in range(3):
        t = threading.Thread(target=lambda d=d: got.update({d: _batch(d)}))
        t.start()
        t.join()
    t = threading.Thread(target=selfplay.warm_up, args=(RAPIDA2,))
    t.start()
    t.join()
    assert [got[d] for d in range(3)] == ref
    assert _until(lambda: len(_solving_threads()) <= before), [x.name for x in threading.enumerate()]


def _slow(monkeypatch, seconds):
    """play_open_deal that sleeps ``seconds`` first (a long compiled solve: the caller's Python does not run)."""
    from solver import selfplay
    real = selfplay.play_open_deal
    started = threading.Event()

    def slow(rules, seed, d, ws=None):
        started.set()
        time.sleep(seconds)
        return real(rules, seed, d, ws)
    monkeypatch.setattr(selfplay, "play_open_deal", slow)
    return started, real


def test_an_interruption_lands_at_once_and_the_abandoned_solve_ends(monkeypatch):
    """Kills: the solve run in the caller, a long wait step (the interruption must land within 2 s of a
    3 s solve; 0.05 s steps: the margin is for a loaded machine), the interrupted call's solving thread not told to end (it waited on its queue for good) or
    still used by the next call (its job queued behind the end marker: that call never returned)."""
    from solver import selfplay
    selfplay.warm_up(RAPIDA2)
    ref = _batch(1)
    before = len(_solving_threads())
    started, real = _slow(monkeypatch, 3.0)
    box = {}

    def caller():
        try:
            _batch(0)
            box["r"] = "returned"
        except KeyboardInterrupt:
            box["r"] = "interrupted"
            box["t"] = time.monotonic()
        monkeypatch.setattr(selfplay, "play_open_deal", real)
        box["next"] = _batch(1)  # the next call, in the same thread, after the interruption

    t = threading.Thread(target=caller, daemon=True)
    t.start()
    assert started.wait(30)
    time.sleep(0.1)
    t0 = time.monotonic()
    _raise_in(t)
    t.join(30)
    assert not t.is_alive() and box.get("r") == "interrupted" and box["t"] - t0 < 2.0, box
    assert box["next"] == ref
    # the abandoned solve (3 s) ends, and its thread with it; the caller's new solving thread ended with it
    assert _until(lambda: len(_solving_threads()) <= before, 10), [x.name for x in threading.enumerate()]


def test_warm_up_is_interruptible(monkeypatch):
    """warm_up compiles or loads in the solving thread too (a cold compile takes a minute): an interruption
    lands at once."""
    from solver import selfplay
    started = threading.Event()
    monkeypatch.setattr(selfplay, "_warm_up", lambda rules: (started.set(), time.sleep(6)))
    box = {}

    def caller():
        try:
            selfplay.warm_up(RAPIDA2)
        except KeyboardInterrupt:
            box["t"] = time.monotonic()

    t = threading.Thread(target=caller, daemon=True)
    t.start()
    assert started.wait(30)
    t0 = time.monotonic()
    _raise_in(t)
    t.join(10)
    assert "t" in box and box["t"] - t0 < 2.0, box  # (of a 6 s warm-up)


@pytest.mark.parametrize("exc", [SystemExit(3), KeyboardInterrupt()])
def test_a_base_exception_in_the_solve_comes_back_with_its_traceback(exc):
    """A SystemExit or KeyboardInterrupt raised in the solve itself comes back to the caller (the solving thread
    does not die with it, leaving the caller waiting for good), its traceback naming where it was raised."""
    import traceback

    from solver import selfplay

    def fails():
        raise exc
    box = {}

    def caller():
        try:
            selfplay._in_solving_thread(fails)
        except BaseException as e:
            box["e"] = e
    t = threading.Thread(target=caller, daemon=True)
    t.start()
    t.join(10)
    assert not t.is_alive() and box.get("e") is exc
    assert "in fails" in "".join(traceback.format_exception(exc))


_EXIT = """
import sys, threading, time
import solver.selfplay as sp
from sim.rules import Rules
sp.warm_up(Rules(players=2, deck="rapida20"))      # (the main thread's solving thread, idle)
def long_solve():
    sp._in_solving_thread(time.sleep, 60)        # (a solve of a minute, in a daemon caller)
threading.Thread(target=long_solve, daemon=True).start()
time.sleep(0.3)
print("exiting", flush=True)
sys.exit(7)
"""


def test_the_interpreter_exits_while_a_solving_thread_is_busy():
    """The solving threads are daemons: the process exits with its own status at once, an idle solving thread
    or one in a long solve does not hold it."""
    from solver import selfplay
    selfplay.warm_up(RAPIDA2)  # (numba's cache warm for the child)
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.Popen([sys.executable, "-c", _EXIT], cwd=root, env=env, text=True, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    try:
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 7 and out == "exiting\n", (p.returncode, out, err)


def test_an_interrupted_calls_solving_thread_ends_while_its_caller_lives_on(monkeypatch):
    """Kills: the interrupted call's solving thread not told to end (``w.jobs.put(None)`` dropped): with the
    caller alive and idle afterwards, it waited on its queue for good once the abandoned solve was over."""
    from solver import selfplay
    started, _ = _slow(monkeypatch, 0.5)
    box, idle = {}, threading.Event()

    def caller():
        selfplay.warm_up(RAPIDA2)
        box["w"] = selfplay._local.solver
        try:
            _batch(0)
        except KeyboardInterrupt:
            box["interrupted"] = True
        idle.wait(30)

    t = threading.Thread(target=caller, daemon=True)
    t.start()
    try:
        assert started.wait(30)
        _raise_in(t)
        assert _until(lambda: "interrupted" in box)
        assert _until(lambda: not box["w"].is_alive(), 10) and t.is_alive()
    finally:
        idle.set()
        t.join(10)


def test_chunk_rows_keeps_whole_deals_and_the_trick_row_cap():
    """Two mutants of the refactor's ``_chunk_rows`` that no test killed (break-it pass 29, M13 and M22): a chunk
    not rounded down to whole deals (``--chunk 5`` with 2 rotations split a deal pair across chunks), and the
    time-sized chunks' cap on trick rows dropped (``MAX_TRICK_ROWS``: 2**21 trick rows a chunk when tricks are
    recorded, about 400 MB in flight otherwise)."""
    from sim import batch as B
    assert B._chunk_rows(5, 1000, 2, 20, False, False) == (4, 4)
    assert B._chunk_rows(5, 1000, 3, 13, False, False) == (3, 3)
    assert B._chunk_rows(1, 1000, 3, 13, False, False) == (3, 3)  # (at least one whole deal)
    chunk, step = B._chunk_rows(None, 10 ** 9, 1, 20, True, False)
    assert chunk == B.MAX_TRICK_ROWS // 20 and step == B.FIRST_CHUNK
    assert B._chunk_rows(None, 10 ** 9, 1, 20, False, False)[0] == B.DEFAULT_CHUNK
    assert B._chunk_rows(None, 10 ** 9, 2, 20, False, True)[1] == 2 * B.SOLVER_CHUNK
