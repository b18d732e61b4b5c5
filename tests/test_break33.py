"""Break-it pass 33 (2026-12-07): concurrency, reuse and signals. Ctrl-C while a benchmark script was still
importing numba, numpy and the engine (its first second or so, before ``main`` catches KeyboardInterrupt)
printed a KeyboardInterrupt traceback from inside an import and ended the process by SIGINT; the scripts now
call ``_common.quiet_startup`` first: "interrupted: nothing written", exit 130."""
from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

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


def _default_signals():
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


@pytest.mark.parametrize("script", ["bench_solver", "bench_engine", "bench_minimal_loop", "eval_heuristic",
                                    "open_values"])
def test_ctrl_c_while_a_benchmark_imports_exits_130_quietly(script, tmp_path):
    out = str(tmp_path / "out.jsonl")
    p = subprocess.Popen([sys.executable, "-c", _CHILD, os.path.join(BENCH, script + ".py"), out],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_default_signals)
    try:
        assert p.stdout.readline() == "ready\n"
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
