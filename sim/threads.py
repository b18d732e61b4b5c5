"""Thread starts that an interruption of the command's thread cannot break (light: threading only).

:func:`sim.cli.run_interruptible` answers Ctrl-C and SIGTERM by raising the exception in the command's
thread with ``PyThreadState_SetAsyncExc``. On CPython 3.11, a thread being started by
``threading.Thread.start()`` has, until its bootstrap runs, a thread state carrying its creator's thread
id, and ``PyThreadState_SetAsyncExc`` sets the exception on the first state with that id, which can be the
new thread's: the new thread then dies in its bootstrap before it says it started, and its creator waits
in ``Thread.start()`` for good (the exception meant for it lost; break-it pass 31: ``brisca`` was ended
without unwinding after its 2 s grace). Every thread start that can run in a command's thread holds
:data:`THREAD_START` (:func:`start_thread`, :func:`starting_threads`), and ``run_interruptible`` raises its
exception only while holding it too (``sim.cli._raise_in``).
"""
from __future__ import annotations

import threading

#: Held while a command's thread starts a thread, and while an exception is raised in a command's thread.
THREAD_START = threading.Lock()


def start_thread(t: threading.Thread) -> threading.Thread:
    """``t.start()`` holding :data:`THREAD_START` (a start takes microseconds).

    Parameters
    ----------
    t : threading.Thread
        A thread not yet started (a ``threading.Timer`` too).

    Returns
    -------
    threading.Thread
        ``t``, started.

    Raises
    ------
    RuntimeError
        From ``Thread.start``: ``t`` was started before, or cannot be (no more threads).
    """
    with THREAD_START:
        t.start()
    return t


def starting_threads():
    """:data:`THREAD_START` itself, for code that may start threads inside (``ThreadPoolExecutor.submit``
    starts its workers on demand, a tqdm bar its monitor thread): ``with starting_threads(): ex.submit(f)``.
    Keep the block short: it holds back the interruption of the command's thread. (The lock, not a
    generator-based context manager: the lock's own ``__enter__`` is C code, so no interruption can land
    between taking it and the ``with`` block that releases it.)

    Returns
    -------
    threading.Lock
        :data:`THREAD_START`, to be used as ``with starting_threads(): ...`` (not reentrant: no thread start
        through :func:`start_thread` inside the block).
    """
    return THREAD_START
