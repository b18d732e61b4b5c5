"""Break-it pass 16: ``brisca solve --file`` waiting for a stream's producer (5ea611c: ``_wait_readable``
selects a quarter second at a time so that Ctrl-C/SIGTERM land at once). Two waits it does not cover: the
open of a FIFO whose producer has not opened it yet, and a descriptor ``select`` cannot watch (over
FD_SETSIZE, 1023): both still end after the 2 s grace, "stopped without unwinding"."""
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import read_line, stop_process

ROOT = Path(__file__).resolve().parent.parent
EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
SOLVE = ["-m", "sim.cli", "solve", "--no-progress", "--no-pv"]

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo") or not sys.platform.startswith("linux"),
                                reason="needs mkfifo and /proc")


@pytest.fixture(scope="module", autouse=True)
def _warm():
    from solver import cli
    cli._warm_up(False, {(2, False)}, note=False)  # (the kernels the subprocesses load)


def _wchans(pid):
    out = []
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            out.append(Path(f"/proc/{pid}/task/{t}/wchan").read_text())
        except OSError:
            pass
    return out


@pytest.mark.parametrize("sig,rc,word", [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted")])
def test_a_fifo_whose_producer_has_not_opened_it_yet_stops_at_once(tmp_path, sig, rc, word):
    """``mkfifo f; brisca solve --file f`` before the producer starts (the usual order: the reader waits for
    it), then Ctrl-C/SIGTERM: it should stop at once as a stream waiting for its next line does (exit
    143/130, "brisca: terminated"). Observed: ``open(path, "rb")`` blocks in the kernel (wait_for_partner)
    in the worker thread, the signal waits the 2 s grace and the message says "stopped without unwinding,
    still running after 2 s: a compiled search, a blocking read or a long write" (right: open the FIFO
    with O_NONBLOCK and wait for its writer as _wait_readable waits, or open it where a signal lands)."""
    fifo = tmp_path / "ff"
    os.mkfifo(fifo)
    # (SIGINT at its default in the child: a job a shell started in the background, as a CI runner may, has it
    # ignored, and the child inherits that: the SIGINT case then waited 30 s in .ci/run under nohup ... &)
    p = subprocess.Popen([sys.executable, *SOLVE, "--file", str(fifo)], stdin=subprocess.DEVNULL,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        # (waiting for a writer: 697ec55-b4f2282 in the FIFO's open, since in the poll of its first read)
        while not any(w.startswith(("wait_for_partner", "do_sys_poll", "poll_schedule", "do_select"))
                      for w in _wchans(p.pid)):
            assert p.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(0.2)
        t0 = time.monotonic()
        p.send_signal(sig)
        code = p.wait(30)
        took = time.monotonic() - t0
        err = p.stderr.read()
        assert code == rc and "without unwinding" not in err and word in err, (code, err)
        assert took < 1.5, took
    finally:
        stop_process(p)


# the child: its descriptors 3.. taken up to 1100, so that the FIFO it opens for --file is over FD_SETSIZE
_FILL = """
import os, sys, resource
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard), hard))
while True:
    fd = os.open(os.devnull, os.O_RDONLY)
    os.set_inheritable(fd, True)
    if fd >= 1100:
        break
os.execv(sys.executable, [sys.executable] + sys.argv[1:])
"""


@pytest.mark.skipif(resource.getrlimit(resource.RLIMIT_NOFILE)[1] < 1200, reason="needs 1200 descriptors")
def test_a_stream_on_a_descriptor_select_cannot_watch_stops_at_once(tmp_path):
    """``--file FIFO`` opened as descriptor 1101 (a process with many files open: select() cannot watch a
    descriptor over 1023, _readable says True and the read blocks as before 5ea611c). SIGTERM while it waits
    for line 2: it should stop at once (exit 143, "brisca: terminated", the record kept, marked incomplete).
    Observed: the 2 s grace and "stopped without unwinding" (right: poll(), which has no such limit, or a
    wait that does not rely on select for such a descriptor)."""
    fifo = tmp_path / "ff"
    os.mkfifo(fifo)
    out = tmp_path / "o.jsonl"
    p = subprocess.Popen([sys.executable, "-c", _FILL, *SOLVE, "--file", str(fifo), "--out", str(out)],
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         cwd=ROOT)
    w = None
    try:
        w = open(fifo, "w")
        w.write(EX + "\n")
        w.flush()
        line = read_line(p.stdout, 120)
        assert line and json.loads(line)["line"] == 1, (line, p.poll())
        fds = [int(f) for f in os.listdir(f"/proc/{p.pid}/fd") if os.readlink(f"/proc/{p.pid}/fd/{f}") == str(fifo)]
        assert fds and min(fds) > 1023, fds  # (the setting this test is about)
        time.sleep(0.3)  # (waiting for line 2 now)
        t0 = time.monotonic()
        p.send_signal(signal.SIGTERM)
        code = p.wait(30)
        took = time.monotonic() - t0
        err = p.stderr.read()
        assert code == 143 and "without unwinding" not in err and "terminated" in err, (code, err)
        assert took < 1.5, took
        lines = [json.loads(x) for x in out.read_text().splitlines()]
        assert lines[0]["line"] == 1 and lines[-1] == {"complete": False, "rows": 1, "total": 1}, lines
    finally:
        stop_process(p, w)
