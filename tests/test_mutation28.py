"""Mutation pass 28 (2026-12-07) on the session's new code: benchmarks/_common.quiet_startup, startup_done and
_interrupted_at_startup; sim.batch.open_for_writing and giving_up_on_readers (a FIFO written in place);
sim.threads.numba_threads_problem; sim.cli._as_flag's --deck case. Each test kills hand-made mutants that the
suite let live (named in its docstring); seconds in all."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading

import pytest

from conftest import bench_script, default_stop_signals

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks")
_FIFOS = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs mkfifo")


@pytest.fixture
def common():
    return bench_script("_common")


@pytest.fixture
def sigint_kept():
    """The SIGINT handler as the test found it, put back after."""
    old = signal.getsignal(signal.SIGINT)
    yield
    signal.signal(signal.SIGINT, old)


def test_interrupted_at_startup_exits_130_with_stderr_closed():
    """Ctrl-C at startup with stderr closed (``2>&-``): the line cannot be written, the exit status is still 130.
    Mutant: the os.write not guarded (OSError raised from the handler: a traceback nowhere, exit 1)."""
    code = (f"import os, signal, sys; sys.path.insert(0, {BENCH!r}); import _common; os.close(2); "
            "_common._interrupted_at_startup(signal.SIGINT, None)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60, preexec_fn=default_stop_signals)
    assert r.returncode == 130, r


def test_quiet_startup_leaves_an_ignored_or_other_sigint_handler(common, sigint_kept, monkeypatch):
    """quiet_startup takes SIGINT over only from Python's default handler: an ignored SIGINT (``nohup``, ``&``)
    or a handler of the caller's stays. Mutant: the ``is signal.default_int_handler`` condition dropped."""
    monkeypatch.delenv("NUMBA_NUM_THREADS", raising=False)

    def mine(signum, frame):
        pass
    for handler in (signal.SIG_IGN, mine):
        signal.signal(signal.SIGINT, handler)
        common.quiet_startup()
        assert signal.getsignal(signal.SIGINT) is handler
        common.startup_done()
        assert signal.getsignal(signal.SIGINT) is handler
    signal.signal(signal.SIGINT, signal.default_int_handler)
    common.quiet_startup()
    assert signal.getsignal(signal.SIGINT) is common._interrupted_at_startup
    common.startup_done()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_quiet_startup_outside_the_main_thread_is_a_no_op(common, sigint_kept, monkeypatch):
    """A script run (runpy) in another thread: quiet_startup does not raise (signal.signal would: "signal only
    works in main thread"), and the main thread's handler is left. Mutant: the main-thread check dropped."""
    monkeypatch.delenv("NUMBA_NUM_THREADS", raising=False)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    errors = []

    def run():
        try:
            common.quiet_startup()
            common.startup_done()
        except BaseException as e:
            errors.append(e)
    t = threading.Thread(target=run)
    t.start()
    t.join(10)
    assert not errors, errors
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def _writer(target, *args):
    """``target(*args)`` in a daemon thread; its exception, if any, in the returned list."""
    errors = []

    def run():
        try:
            target(*args)
        except BaseException as e:  # (said by the test's assertion)
            errors.append(e)
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t, errors


def _write_all(path, data):
    from sim.batch import open_for_writing
    with open_for_writing(path) as fh:
        fh.write(data)


@_FIFOS
def test_open_for_writing_a_late_reader_is_served_within_a_poll(tmp_path):
    """A FIFO's reader that comes late is noticed within a poll interval (30 ms), not seconds later.
    Mutant: FIFO_POLL = 2.0 (the reader's open waited about 2 s)."""
    import time
    fifo = tmp_path / "ff"
    os.mkfifo(fifo)
    t, errors = _writer(_write_all, fifo, b"abc")
    time.sleep(0.2)
    t0 = time.monotonic()
    with open(fifo, "rb") as fh:  # (returns once the writer has opened its end)
        took = time.monotonic() - t0
        assert fh.read() == b"abc"
    t.join(10)
    assert not errors and not t.is_alive(), errors
    assert took < 1.0, took


@_FIFOS
def test_open_for_writing_a_fifo_is_blocking_once_open(tmp_path):
    """A write larger than the pipe's buffer, to a reader slower than the writer, is written whole: the
    descriptor opened with O_NONBLOCK is made blocking. Mutant: os.set_blocking dropped (BlockingIOError)."""
    import time
    fifo = tmp_path / "ff"
    os.mkfifo(fifo)
    data = os.urandom(1 << 20)
    t, errors = _writer(_write_all, fifo, data)
    with open(fifo, "rb") as fh:
        time.sleep(0.3)  # (the writer fills the pipe meanwhile)
        got = fh.read()
    t.join(10)
    assert not errors and not t.is_alive(), errors
    assert got == data


@_FIFOS
@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc/self/fd")
def test_open_for_writing_closes_its_descriptor_when_open_fails(tmp_path):
    """The FIFO opened, the file object not made (here a bad mode): the descriptor is closed, not leaked.
    Mutant: the ``except BaseException: os.close(fd)`` dropped."""
    from sim.batch import open_for_writing
    fifo = tmp_path / "ff"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # (a reader: the open succeeds at once)
    try:
        before = len(os.listdir("/proc/self/fd"))
        with pytest.raises(ValueError):
            open_for_writing(fifo, "wz")
        assert len(os.listdir("/proc/self/fd")) == before
    finally:
        os.close(reader)


@_FIFOS
def test_giving_up_on_readers_ends_with_its_context(tmp_path):
    """Once the context is closed a write waits for its reader again (and nested contexts end one at a time).
    Mutant: the ``_NO_MORE_WAITING.pop()`` dropped (every later write to a FIFO failed at once)."""
    import time

    from sim import batch
    fifo = tmp_path / "ff"
    os.mkfifo(fifo)
    with batch.giving_up_on_readers():
        with batch.giving_up_on_readers():
            pass
        with pytest.raises(OSError, match="nobody reads the FIFO"):
            batch.open_for_writing(fifo)
    t, errors = _writer(_write_all, fifo, b"late")
    time.sleep(0.3)
    assert t.is_alive() and not errors, errors  # (waiting for its reader)
    with open(fifo, "rb") as fh:
        assert fh.read() == b"late"
    t.join(10)
    assert not errors and not t.is_alive(), errors


@pytest.mark.parametrize("value, bad", [("1", False), ("2", False), (" 3 ", False), ("abc", False), ("1.5", False),
                                        ("", False), ("0", True), ("-1", True)])
def test_numba_threads_problem_refuses_below_one_only(monkeypatch, value, bad):
    """NUMBA_NUM_THREADS of 1 or more, or not a whole number (numba's to warn about), is no problem; 0 and below
    are. Mutants: ``n > 1`` (1 refused), a value not a whole number refused."""
    from sim.threads import numba_threads_problem
    monkeypatch.setenv("NUMBA_NUM_THREADS", value)
    why = numba_threads_problem()
    assert (why is not None) == bad, why
    if bad:
        assert why.startswith(f"NUMBA_NUM_THREADS={value} in the environment"), why
    monkeypatch.delenv("NUMBA_NUM_THREADS")
    assert numba_threads_problem() is None


def test_open_for_writing_a_path_not_a_fifo_is_a_plain_open(tmp_path):
    """A path that is not a FIFO is ``open(path, mode)``: a missing one is created (as open does; the FIFO
    checked before may be gone by then), a regular one written. Mutant: an os.stat failure raised, not left
    to open."""
    from sim.batch import open_for_writing
    new = tmp_path / "new.txt"
    with open_for_writing(new, "w") as fh:
        fh.write("x\n")
    assert new.read_text() == "x\n"
    with pytest.raises(FileNotFoundError):
        open_for_writing(tmp_path / "no" / "x.txt")


def test_summary_to_dict_writes_numpy_arrays_as_strict_json_lists():
    """An extra holding numpy arrays (1-D and 2-D, with NaN and inf) is written as lists of Python numbers, NaN
    and inf as None. Mutants: the ndarray case dropped (json cannot write an array), its NaN not replaced
    (``obj.tolist()`` returned unchecked)."""
    import json

    import numpy as np

    from sim.stats import RunningStats
    st = RunningStats(players=2, sides=2, rotations=1)
    st.update(np.array([[70, 50]], dtype=np.int16), np.array([0], dtype=np.int16), np.array([False]), 0)
    s = st.summary(["heuristic", "random"], distinct_deals=1, seconds=1.0, sim_seconds=0.5,
                   flat=np.array([1.5, np.nan, np.inf]), grid=np.array([[1, 2], [3, 4]], dtype=np.int16))
    d = json.loads(json.dumps(s.to_dict(), allow_nan=False))
    assert d["flat"] == [1.5, None, None]
    assert d["grid"] == [[1, 2], [3, 4]]


_AT_EXIT = """import atexit, runpy, signal, sys
atexit.register(lambda: print("SIGINT:", getattr(signal.getsignal(signal.SIGINT), "__name__", None)))
sys.argv = [sys.argv[1], "--help"]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


@pytest.mark.parametrize("script", ["bench_solver", "bench_engine", "bench_minimal_loop", "eval_heuristic",
                                    "open_values"])
def test_benchmark_main_runs_with_ctrl_c_its_own(script):
    """Once a script's imports are done its ``main`` answers Ctrl-C (KeyboardInterrupt: the lines written are
    kept and said), not quiet_startup's "nothing written" exit: the handler left when ``main`` ends (here by
    --help) is Python's. Mutants: the script's ``startup_done()`` call dropped (bench_engine.py, open_values.py)."""
    r = subprocess.run([sys.executable, "-c", _AT_EXIT, os.path.join(BENCH, script + ".py")], capture_output=True,
                       text=True, timeout=120, preexec_fn=default_stop_signals)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == "SIGINT: default_int_handler", r.stdout[-300:]
