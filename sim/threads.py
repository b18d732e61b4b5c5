"""Thread starts that an interruption of the command's thread cannot break, and the check of numba's thread
count before numba is imported (:func:`numba_threads_problem`); light: no numba, numpy only for a refusal.

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

import os
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


def numba_threads_problem() -> str | None:
    """Why numba cannot be imported with this environment's ``NUMBA_NUM_THREADS``, or None.

    A whole number below 1 makes numba's import raise ``ValueError: Number of threads specified must be > 0.``:
    every ``brisca`` command, ``--help`` included, ended with that 20-line traceback and exit status 1
    (break-it pass 33); it is bad input, refused in one line (exit 2). A value that is not a whole number is
    numba's to warn about (it then uses every core).

    Returns
    -------
    str or None
        The message for an error line (``brisca``'s :func:`sim.cli._fail`, the benchmark scripts'
        ``_common.quiet_startup``), or None when numba can start.
    """
    value = os.environ.get("NUMBA_NUM_THREADS")
    if value is None:
        return None
    try:
        n = int(value)  # (numba's own reading)
    except ValueError:
        return None
    if n >= 1:
        return None
    from .cards import show_input  # (numpy, not numba: this module stays light)
    return (f"NUMBA_NUM_THREADS={show_input(value, quote=False)} in the environment: numba needs at least 1 "
            "thread (unset it to use every core)")
