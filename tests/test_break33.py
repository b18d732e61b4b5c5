"""Break-it pass 33 (2026-12-07): concurrency, reuse and signals. Ctrl-C while a benchmark script was still
importing numba, numpy and the engine (its first second or so, before ``main`` catches KeyboardInterrupt)
printed a KeyboardInterrupt traceback from inside an import and ended the process by SIGINT; the scripts now
call ``_common.quiet_startup`` first: "interrupted: nothing written", exit 130."""
from __future__ import annotations

import errno
import os
import signal
import stat
import subprocess
import sys
import time

import pytest
from conftest import default_stop_signals, read_line, stop_process

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks")

# the child: an import of numpy or numba that says "ready" on stdout and then waits (a slow first import),
# then the script run as a script
_CHILD = """import runpy, sys, time
class Slow:
    def find_spec(self, name, path=None, target=None):
        if name in ("numpy", "numba"):
            sys.stdout.write("ready\\n")
            sys.stdout.flush()
            time.sleep(30)
        return None
sys.meta_path.insert(0, Slow())
sys.argv = [sys.argv[1], "--out", sys.argv[2]]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


@pytest.mark.parametrize("script", ["bench_solver", "bench_engine", "bench_minimal_loop", "eval_heuristic",
                                    "open_values"])
def test_ctrl_c_while_a_benchmark_imports_exits_130_quietly(script, tmp_path):
    out = str(tmp_path / "out.jsonl")
    p = subprocess.Popen([sys.executable, "-c", _CHILD, os.path.join(BENCH, script + ".py"), out],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_stop_signals)
    try:
        assert read_line(p.stdout, 120) == "ready\n"  # (a child that never says so fails the test, not hangs it)
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=20)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    assert "Traceback" not in err, err
    assert err.strip().endswith("interrupted: nothing written"), err
    assert p.returncode == 130, (p.returncode, err)
    assert not os.path.exists(out)


@pytest.mark.parametrize("value", ["0", "-2"])
def test_numba_num_threads_below_one_is_one_error_line(value):
    """NUMBA_NUM_THREADS=0 made numba's import raise ValueError: every brisca command, --help included, ended
    with its 20-line traceback and exit status 1. Bad input: one line, exit 2."""
    env = dict(os.environ, NUMBA_NUM_THREADS=value)
    r = subprocess.run([sys.executable, "-m", "sim.cli", "simulate", "--players", "2", "--deals", "10"], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.stderr == (f"brisca: error: NUMBA_NUM_THREADS={value} in the environment: numba needs at least 1 "
                        "thread (unset it to use every core)\n"), r.stderr
    assert r.returncode == 2 and r.stdout == ""


@pytest.mark.parametrize("script", ["bench_solver", "bench_engine", "bench_minimal_loop", "eval_heuristic",
                                    "open_values"])
def test_benchmark_numba_num_threads_below_one_is_one_error_line(script, tmp_path):
    """The benchmark scripts ended with numba's traceback under NUMBA_NUM_THREADS=0 too (left by break-it pass
    33): ``_common.quiet_startup`` refuses it as ``brisca`` does, one line and exit 2, nothing written."""
    out = tmp_path / "out.jsonl"
    env = dict(os.environ, NUMBA_NUM_THREADS="0")
    r = subprocess.run([sys.executable, os.path.join(BENCH, script + ".py"), "--out", str(out)], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.stderr == (f"{script}.py: error: NUMBA_NUM_THREADS=0 in the environment: numba needs at least 1 "
                        "thread (unset it to use every core)\n"), r.stderr
    assert r.returncode == 2 and r.stdout == "" and not out.exists()


# --out a FIFO nobody reads (left by break-it pass 33): the keeper's open blocked in the kernel, and the hard-exit
# hook waited 60 s for it
EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
_FIFOS = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs mkfifo")


def _line_of(stream, want, timeout):
    """The first line of ``stream`` (text, universal newlines: a bar's ``\\r`` ends a line) containing ``want``,
    read in a thread (None after ``timeout`` seconds or at the end)."""
    import threading
    box = []

    def read():
        for line in stream:
            if want in line:
                box.append(line)
                return
    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(timeout)
    return box[0] if box else None


@pytest.fixture(scope="module")
def _warm():
    from solver import cli
    cli._warm_up(False, {(2, False)}, note=False)  # (the kernels the subprocesses load)


@_FIFOS
@pytest.mark.parametrize("sig,rc,name", [(signal.SIGINT, 130, "o.jsonl"), (signal.SIGHUP, 129, "o.parquet")])
def test_solve_file_signal_with_out_a_fifo_nobody_reads_ends_in_seconds(tmp_path, _warm, sig, rc, name):
    """``mkfifo ff; brisca solve --file F --out ff`` and nobody reads ff: Ctrl-C (or SIGHUP) once a record is
    made. The keeper's write opened the FIFO in the kernel (no reader: the open blocks where no signal lands),
    and sim.cli's hard-exit hook waited up to 60 s for that "write in progress": exit 130 about 62 s after the
    signal, a second Ctrl-C ignored. Now the open waits for a reader where a signal lands and gives up when the
    process ends without unwinding: one line says nothing was written (nobody reads the FIFO), within seconds."""
    src, out = tmp_path / "in", tmp_path / name
    os.mkfifo(src)
    os.mkfifo(out)
    p = subprocess.Popen([sys.executable, "-m", "sim.cli", "solve", "--no-progress", "--no-pv", "--file", str(src),
                          "--out", str(out)], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, preexec_fn=default_stop_signals)
    w = None
    try:
        w = open(src, "w")  # (kept open: the run waits for line 2)
        w.write(EX + "\n")
        w.flush()
        assert _line_of(p.stdout, '"line": 1', 120), (p.poll(), p.stderr.read() if p.poll() is not None else "")
        time.sleep(0.3)
        p.send_signal(sig)
        t0 = time.monotonic()
        code = p.wait(40)  # (60 s before the fix)
        took = time.monotonic() - t0
        err = p.stderr.read()
    finally:
        stop_process(p, w)
    assert code == rc, (code, err)
    assert f"cannot write {out}: nobody reads the FIFO (1 record made)" in err, err
    assert "Traceback" not in err and took < 20, (took, err)  # (the 2 s grace, then the hooks: slow CI room)
    assert stat.S_ISFIFO(os.lstat(out).st_mode)


@_FIFOS
def test_puzzles_signal_with_out_a_fifo_nobody_reads_ends_in_seconds(tmp_path, _warm):
    """``brisca puzzles --count 1 --out ff`` (ff a FIFO nobody reads), Ctrl-C once the puzzle is found: exit 130
    came 62 s later (the final write's open blocked in the kernel, the hard-exit hook waited for it). Now
    within seconds, the puzzle found said not written."""
    out = tmp_path / "ff"
    os.mkfifo(out)
    p = subprocess.Popen([sys.executable, "-m", "sim.cli", "puzzles", "--count", "1", "--out", str(out)],
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=default_stop_signals)
    try:
        assert _line_of(p.stderr, "1/1", 120), p.poll()  # (the bar at its end: the search is over)
        time.sleep(0.3)
        p.send_signal(signal.SIGINT)
        t0 = time.monotonic()
        code = p.wait(40)  # (60 s before the fix)
        took = time.monotonic() - t0
        err = p.stderr.read()
    finally:
        stop_process(p)
    assert code == 130, (code, err)
    assert f"cannot write {out}: nobody reads the FIFO (1 puzzle found)" in err, err
    assert "Traceback" not in err and took < 20, (took, err)  # (the 2 s grace, then the hooks: slow CI room)


@_FIFOS
def test_out_fifo_waits_for_a_late_reader_and_gives_up_when_the_process_ends(tmp_path):
    """What the fix keeps: a FIFO's reader that comes after the run ended (``cat ff`` started later) still gets
    the whole output; only while the process ends without unwinding does the wait give up (ENXIO, at once)."""
    import threading

    from sim import batch
    from solver import cli
    fifo = tmp_path / "ff"
    os.mkfifo(fifo)
    errors = []

    def write():
        try:
            cli._write_text(iter(["a\n", "b\n"]), str(fifo))
        except BaseException as e:  # (said by the assertion below)
            errors.append(e)
    t = threading.Thread(target=write, daemon=True)
    t.start()
    time.sleep(0.3)  # (the writer waits for its reader)
    assert t.is_alive()
    with open(fifo) as fh:
        assert fh.read() == "a\nb\n"
    t.join(10)
    assert not t.is_alive() and not errors, errors
    t0 = time.monotonic()
    with batch.giving_up_on_readers():
        with pytest.raises(OSError, match="nobody reads the FIFO") as e:
            batch.open_for_writing(fifo)
    assert e.value.errno == errno.ENXIO and time.monotonic() - t0 < 1
