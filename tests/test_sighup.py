"""``brisca`` survives a hang-up as it survives SIGTERM (review of 2026-12-07).

SIGHUP (the terminal or ssh session closing, ``kill -HUP``) was not handled: the process died at once by
the default action, so ``brisca simulate --out f.parquet`` lost every deal it had played (no file, no
summary) and left its ``.f.parquet.*.tmp`` beside the output, where SIGTERM keeps the deals finished
(exit 143). Now SIGHUP is a :class:`sim.cli._Terminated` too (:class:`sim.cli._HungUp`): the same
unwinding, "brisca: hung up" and exit 129 (128 + 1). A SIGHUP ignored on entry (``nohup brisca ... &``)
stays ignored, so such a run outlives its terminal. The subprocess tests fail on the code before (the
child killed by SIGHUP: return code -1, the temporary file left); the ``nohup`` one guards the fix
(a handler installed whatever the entry state ended that run with 129).
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from conftest import read_line, run_main

import sim

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="needs SIGHUP")

ROOT = Path(__file__).resolve().parents[1]
EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"


def _popen(args, hup_ignored=False, term_ignored=False, **kw):
    """``python -m sim.cli *args`` running the checkout's code, SIGINT at its default (a CI shell may
    ignore it), SIGHUP ignored with ``hup_ignored`` (as ``nohup`` does) and SIGTERM with ``term_ignored``."""
    def pre():
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGHUP, signal.SIG_IGN if hup_ignored else signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_IGN if term_ignored else signal.SIG_DFL)
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen([sys.executable, "-m", "sim.cli", *map(str, args)], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=pre, **kw)


def _rows_written(d: Path, p, limit=240.0) -> bool:
    """Wait (up to ``limit`` s: a cold numba cache compiles first) until the run's temporary output in
    ``d`` holds a row group (more than parquet's 4-byte magic); False if the run ended first."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if p.poll() is not None:
            return False
        if any(f.name.endswith(".tmp") and f.stat().st_size > 4 for f in d.iterdir()):
            return True
        time.sleep(0.02)
    raise AssertionError(f"no row group written within {limit:g} s")


def _simulate(tmp_path, deals, hup_ignored, sig=signal.SIGHUP, term_ignored=False):
    """``brisca simulate --deals deals --out f.parquet`` sent ``sig`` (SIGHUP) once a row group is written:
    ``(returncode, stdout, stderr, out, sent)``, the child killed if the test fails meanwhile."""
    d = tmp_path / "o"
    d.mkdir()
    out = d / "f.parquet"
    p = _popen(["simulate", "--deals", deals, "--chunk", 2000, "--seed", 3, "--no-progress", "--json",
                "--out", out], hup_ignored=hup_ignored, term_ignored=term_ignored)
    try:
        sent = _rows_written(d, p)
        if sent:
            p.send_signal(sig)
        stdout, stderr = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    return p.returncode, stdout, stderr, out, sent


def test_sighup_keeps_the_deals_finished(tmp_path):
    """SIGHUP during a long run: exit 129, "brisca: hung up", the summary of the deals played on stdout,
    the parquet readable and marked incomplete with those rows, no temporary file left (before: killed,
    return code -1, nothing kept and ``.f.parquet.*.tmp`` left)."""
    code, stdout, stderr, out, sent = _simulate(tmp_path, 5_000_000, hup_ignored=False)
    assert sent and code == 129, (code, stderr)
    assert "brisca: hung up;" in stderr and "marked incomplete" in stderr and "Traceback" not in stderr, stderr
    assert sorted(f.name for f in out.parent.iterdir()) == ["f.parquet"]  # (no .tmp left)
    meta = sim.read_metadata(out)
    rows = pq.read_metadata(out).num_rows
    assert meta["complete"] is False and meta["rows"] == rows and 0 < rows < 5_000_000, (meta, rows)
    assert json.loads(stdout.splitlines()[-1])["deals"] == rows


def test_sighup_ignored_on_entry_stays_ignored(tmp_path):
    """``nohup brisca simulate ... &``: a SIGHUP ignored on entry stays ignored, so the run outlives its
    terminal (the signal sent while deals are played): exit 0 and the whole run's file."""
    deals = 300_000
    code, stdout, stderr, out, sent = _simulate(tmp_path, deals, hup_ignored=True)
    assert sent, "the run ended before a row group was written: no SIGHUP sent"
    assert code == 0, (code, stderr)
    assert sorted(f.name for f in out.parent.iterdir()) == ["f.parquet"]
    meta = sim.read_metadata(out)
    assert meta["complete"] is True and meta["rows"] == deals, meta
    assert json.loads(stdout.splitlines()[-1])["deals"] == deals


def test_sigterm_ignored_on_entry_stays_ignored(tmp_path):
    """A parent that ignored SIGTERM for its child meant it, as Python leaves an ignored SIGINT ignored and
    ``benchmarks/_common.stops_raise`` does: the run goes on through a SIGTERM to its end (exit 0, the whole
    file). Before (2026-12-07, fifth part), ``main`` took SIGTERM over, ignored or not: exit 143, the run cut."""
    deals = 300_000
    code, stdout, stderr, out, sent = _simulate(tmp_path, deals, hup_ignored=False, sig=signal.SIGTERM,
                                                term_ignored=True)
    assert sent, "the run ended before a row group was written: no SIGTERM sent"
    assert code == 0, (code, stderr)
    meta = sim.read_metadata(out)
    assert meta["complete"] is True and meta["rows"] == deals, meta


def test_solve_file_out_sighup_keeps_the_records_made(tmp_path):
    """``brisca solve --file - --out o.jsonl`` hung up while it waits for its second line: exit 129 with the
    record made kept, marked incomplete, no temporary file left."""
    from solver import Position, solve
    solve(Position.parse(EX))  # (the kernels the subprocess loads: a cold cache compiles them here first)
    d = tmp_path / "o"
    d.mkdir()
    out = d / "o.jsonl"
    p = _popen(["solve", "--file", "-", "--no-progress", "--no-pv", "--out", out], stdin=subprocess.PIPE)
    try:
        p.stdin.write(EX + "\n")
        p.stdin.flush()
        line = read_line(p.stdout, 240)
        assert line and json.loads(line)["line"] == 1, line
        p.send_signal(signal.SIGHUP)
        rc = p.wait(30)
        err = p.stderr.read()
        assert rc == 129 and "hung up" in err and "Traceback" not in err, (rc, err)
        assert f"to {out} (hung up)" in err, err  # (the keeper said "(interrupted)" for every signal before)
        lines = [json.loads(x) for x in out.read_text().splitlines()]
        assert lines[0]["line"] == 1 and lines[-1] == {"complete": False, "rows": 1, "total": 1}, lines
        assert [f.name for f in d.iterdir()] == ["o.jsonl"]
    finally:
        p.kill()
        p.wait()
        for fh in (p.stdin, p.stdout, p.stderr):
            fh.close()


def test_hard_exit_hooks_run_with_sighup_ignored():
    """The hooks of a command that cannot unwind run with SIGHUP ignored, as SIGINT and SIGTERM (a hook may
    wait for a write), and the handler is put back after."""
    from sim import cli
    seen = []
    hook = cli.on_hard_exit(lambda: seen.append(signal.getsignal(signal.SIGHUP)))
    old = signal.signal(signal.SIGHUP, cli._on_sighup)
    try:
        cli._run_hard_exit_hooks()
        assert seen == [signal.SIG_IGN]
        assert signal.getsignal(signal.SIGHUP) is cli._on_sighup
    finally:
        cli.drop_hard_exit(hook)
        signal.signal(signal.SIGHUP, old)


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM], ids=["SIGHUP", "SIGTERM"])
@pytest.mark.parametrize("entry", [signal.SIG_DFL, signal.SIG_IGN], ids=["default", "ignored"])
def test_main_puts_sighup_back(sig, entry):
    """``main`` restores the SIGHUP and SIGTERM handlers it found (an ignored one is never replaced: SIGTERM
    since 2026-12-07, fifth part), and a hang-up ends as "hung up", 129."""
    from sim import cli
    assert cli._ending(cli._HungUp()) == ("hung up", 129)
    assert cli._ending(cli._Terminated()) == ("terminated", 143)
    old = signal.signal(sig, entry)
    try:
        assert run_main(["--version"]) == 0
        assert signal.getsignal(sig) == entry
    finally:
        signal.signal(sig, old)


def test_open_values_hung_up_keeps_its_file_and_nohup_is_kept(tmp_path, capsys, monkeypatch):
    """benchmarks/open_values.py took SIGINT and SIGTERM over (130/143, finished chunks kept) but a SIGHUP ended
    it by the default action, the last chunk and its temporary file lost; it is a Terminated now (exit 129),
    unless ignored on entry (nohup), and main gives every handler back."""
    from conftest import bench_script
    ov = bench_script("open_values")
    out = tmp_path / "v.parquet"

    def hup(*a, **k):
        raise ov._Terminated(signal.SIGHUP)

    monkeypatch.setattr(ov, "write_atomic", hup)
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    with pytest.raises(SystemExit) as e:
        ov.main(["--deals", "1", "--seed", "3", "--out", str(out), "--no-progress"])
    assert e.value.code == 129 and "interrupted" in capsys.readouterr().err
    assert {s: signal.getsignal(s) for s in before} == before
    seen = []
    monkeypatch.setattr(ov, "write_atomic", lambda *a, **k: seen.append(signal.getsignal(signal.SIGHUP)))
    old = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        ov.main(["--deals", "1", "--seed", "3", "--out", str(out), "--no-progress"])
        assert seen == [signal.SIG_IGN] and signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, old)
