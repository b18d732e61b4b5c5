"""Break-it pass 31: ``sim.cli.run_interruptible``'s interruption against thread starts (CPython 3.11).

Fault found: on Ctrl-C / SIGTERM, ``run_interruptible`` raises the exception in the command's thread with
``PyThreadState_SetAsyncExc``. A thread being started by that thread has, until its bootstrap runs, a thread
state carrying its creator's id, and the exception can land in it: the new thread died in its bootstrap
("Exception ignored in thread started by ... KeyboardInterrupt"), its creator waited in ``Thread.start()``
for good, and ``brisca`` was ended without unwinding after its 2 s grace (``hard_exit``; the starts come
early in a run, so little was finished then, but nothing unwound). The command's thread starts threads often: a solving thread per
caller (``solver.selfplay``), the parquet writer, the compile notes' timers, the pool workers of ``solve
--threads`` and ``solve_many``, tqdm's monitor. They now start under ``sim.threads.THREAD_START``, which
``run_interruptible`` holds while it raises the exception (``sim.cli._raise_in``).
"""
from __future__ import annotations

import random
import signal
import threading
import time

import pytest


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="needs signal.pthread_kill")
def test_interruption_never_lands_in_a_thread_being_started():
    """A command that does nothing but start solving threads (``_in_solving_thread`` with its thread
    dropped, as after an interruption), Ctrl-C at a random moment: it unwinds every time. Before the fix,
    about 3 tries in 10 hung in ``Thread.start()`` and ended by ``hard_exit`` (40 tries here)."""
    from sim.cli import run_interruptible
    from solver import selfplay

    rng = random.Random(31)
    main = threading.main_thread().ident
    # (Python's own Ctrl-C handler, even where the test runner was started with SIGINT ignored, as a
    # background job is; the session's is put back after)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _tries(run_interruptible, selfplay, rng, main)
    finally:
        signal.signal(signal.SIGINT, before)


def _tries(run_interruptible, selfplay, rng, main):
    for attempt in range(40):
        started, stop = threading.Event(), threading.Event()

        def command(args):
            started.set()
            give_up = time.monotonic() + 10  # (a Ctrl-C that never came fails the test, not hangs it)
            while not stop.is_set() and time.monotonic() < give_up:
                selfplay._local.solver = selfplay._local.claim = None  # (the next call starts a new one)
                selfplay._in_solving_thread(int)

        def ctrl_c(delay=rng.uniform(0.002, 0.02)):
            if started.wait(10):
                time.sleep(delay)
                signal.pthread_kill(main, signal.SIGINT)

        exits = []
        sender = threading.Thread(target=ctrl_c, daemon=True)
        sender.start()
        try:
            try:
                run_interruptible(command, None, unwind=0.5, hard_exit=exits.append)
                interrupted = False
            except KeyboardInterrupt:
                interrupted = True
            assert not exits, f"try {attempt + 1}: the command hung in a thread start (ended by hard_exit)"
            assert interrupted, f"try {attempt + 1}: the command was not interrupted"
        finally:
            stop.set()
            sender.join(10)


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="needs signal.pthread_kill")
def test_a_start_that_blocks_does_not_hold_back_the_grace():
    """A command's thread stuck while it holds the lock (a progress bar made under it writes its first line
    to stderr, which a stalled pipe blocks): the Ctrl-C is not sent and the grace ends the command by
    ``hard_exit`` after ``unwind`` seconds, as before the lock (the main thread does not wait for it)."""
    from sim.cli import run_interruptible
    from sim.threads import THREAD_START

    main = threading.main_thread().ident
    started, release = threading.Event(), threading.Event()

    def command(args):
        with THREAD_START:
            started.set()
            release.wait(20)

    def ctrl_c():
        if started.wait(10):
            time.sleep(0.05)
            signal.pthread_kill(main, signal.SIGINT)

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    exits = []
    try:
        threading.Thread(target=ctrl_c, daemon=True).start()
        t0 = time.monotonic()
        run_interruptible(command, None, unwind=0.5, hard_exit=exits.append)
        took = time.monotonic() - t0
    finally:
        signal.signal(signal.SIGINT, before)
        release.set()
        assert THREAD_START.acquire(timeout=10)  # (the command let it go)
        THREAD_START.release()
    assert exits == [130] and took < 5, (exits, took)


def test_the_commands_start_their_threads_under_the_lock(monkeypatch, tmp_path):
    """Deterministic side of the fix (the race above is timing-bound): every thread the commands' code
    starts (the solving thread, the parquet writer, the compile note's timer and tqdm's monitor in
    ``simulate``, ``solve --file --threads``' and ``solve_many``'s pool workers) starts while
    :data:`sim.threads.THREAD_START` is held."""
    from sim.batch import simulate
    from sim.rules import Rules
    from sim.threads import THREAD_START
    from solver import selfplay
    from solver.api import release_workers, solve_many

    from conftest import run_main

    seen = []
    real = threading.Thread.start

    def start(self):
        seen.append((self.name, THREAD_START.locked()))
        return real(self)
    monkeypatch.setattr(threading.Thread, "start", start)
    import tqdm
    monkeypatch.setattr(tqdm.tqdm, "monitor", None)  # (a monitor thread already running is not started again)

    def in_fresh_thread(fn):
        box = []
        t = threading.Thread(target=lambda: box.append(fn()), name="test-caller")
        real(t)
        t.join(120)
        return box
    in_fresh_thread(lambda: selfplay._in_solving_thread(int))
    rules = Rules(players=2, deck="rapida20")
    in_fresh_thread(lambda: simulate(rules, "random", deals=50, out=str(tmp_path / "d.parquet"), progress=True))
    pos = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
    release_workers()  # (a pool an earlier test made would start no thread here)
    in_fresh_thread(lambda: solve_many([pos, pos, pos], threads=2))
    f = tmp_path / "p.txt"
    f.write_text(f"{pos}\n{pos}\n{pos}\n")
    assert run_main(["solve", "--file", str(f), "--threads", "2", "--no-progress"]) == 0
    names = {n for n, _ in seen}
    assert {"brisca-selfplay", "brisca-parquet-writer"} <= names and any(n.startswith("brisca-solve") for n in names)
    assert all(locked for n, locked in seen if n != "test-caller" and not n.startswith("brisca-command")), seen
