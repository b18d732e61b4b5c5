"""Break-it pass 31: ``sim.cli.run_interruptible``'s interruption against thread starts (CPython 3.11).

Fault found: on Ctrl-C / SIGTERM, ``run_interruptible`` raises the exception in the command's thread with
``PyThreadState_SetAsyncExc``. A thread being started by that thread has, until its bootstrap runs, a thread
state carrying its creator's id, and the exception can land in it: the new thread died in its bootstrap
("Exception ignored in thread started by ... KeyboardInterrupt"), its creator waited in ``Thread.start()``
for good, and ``brisca`` was ended without unwinding after its 2 s grace (``hard_exit``), every finished
deal of ``simulate --solver`` lost. The command's thread starts threads often: a solving thread per
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
    for attempt in range(40):
        started, stop = threading.Event(), threading.Event()

        def command(args):
            started.set()
            while not stop.is_set():
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
            except KeyboardInterrupt:
                pass
            assert not exits, f"try {attempt + 1}: the command hung in a thread start (ended by hard_exit)"
        finally:
            stop.set()
            sender.join(10)
