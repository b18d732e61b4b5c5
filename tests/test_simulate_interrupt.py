"""An interrupted ``brisca simulate`` keeps the deals it finished (session of 2026-12-06, sixth part; the
new-user pass found a Ctrl-C 5 s into a million-deal run threw away the ~400,000 deals played, summary
included: "brisca: interrupted; no output written").

Now the chunks finished are summarized on stdout and written to output files that were not there,
marked incomplete in their footer (``sim.read_metadata``: ``complete`` false, ``rows`` of ``total``);
an existing file is kept (only a complete run replaces it). The interruption is raised in this process
where the signal's exception would land: after a chunk's compiled play returns, while its rows are
counted, between its two tables, right after it is handed to the writer.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from conftest import run_main

import sim
import sim.batch
import sim.engine
import sim.stats
from sim.cli import _Terminated

DEALS, CHUNK = 1000, 100


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """A complete run's deal and trick tables and its JSON summary (the reference)."""
    d = tmp_path_factory.mktemp("whole")
    out, tricks = d / "d.parquet", d / "t.parquet"
    assert run_main(_args(out, tricks)) == 0
    return pd.read_parquet(out), pd.read_parquet(tricks), sim.read_metadata(out), sim.read_metadata(tricks)


def _args(out=None, tricks=None, *more):
    a = ["simulate", "--deals", DEALS, "--seed", 5, "--chunk", CHUNK, "--no-progress", "--json", *more]
    if out is not None:
        a += ["--out", out]
    if tricks is not None:
        a += ["--tricks", tricks]
    return [str(x) for x in a]


def _raise_on_call(monkeypatch, owner, name, n, exc=KeyboardInterrupt, after=True):
    """``owner.name`` raising ``exc`` at its ``n``-th call (after doing its work with ``after``)."""
    real = getattr(owner, name)
    calls = [0]

    def wrapper(*a, **kw):
        calls[0] += 1
        if calls[0] == n and not after:
            raise exc
        r = real(*a, **kw)
        if calls[0] == n:
            raise exc
        return r

    monkeypatch.setattr(owner, name, wrapper)
    return calls


def _run_signalled(script, args, sig, ready, **env):
    """``python -c script *args`` running the checkout's code (``env``: variables added; SIGINT at its default:
    a background job inherits it ignored), sent ``sig`` once ``ready(p)`` returns (it may read the child's
    stderr); ``(returncode, stdout, stderr)``, the child killed if the test fails meanwhile."""
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""), **env)
    p = subprocess.Popen([sys.executable, "-c", script, *map(str, args)], cwd=root, env=env, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        ready(p)
        p.send_signal(sig)
        stdout, stderr = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    return p.returncode, stdout, stderr


def _summary(capsys):
    cap = capsys.readouterr()
    return json.loads(cap.out), cap.err


def test_complete_run_says_complete_in_footer_and_json(whole, capsys):
    deals, tricks, md, mt = whole
    assert (md["complete"], md["rows"], md["total"], md["deals"]) == (True, DEALS, DEALS, DEALS)
    assert (mt["complete"], mt["rows"], mt["total"], mt["table"]) == (True, DEALS, DEALS, "tricks")
    assert len(deals) == DEALS and len(tricks) == 20 * DEALS


def test_interrupt_after_a_chunk_keeps_the_chunks_before(tmp_path, monkeypatch, capsys, whole):
    out, tricks = tmp_path / "d.parquet", tmp_path / "t.parquet"
    # call 1 is the warm-up; calls 2-4 play chunks 1-3; the signal lands as the fourth chunk's play returns
    _raise_on_call(monkeypatch, sim.engine, "play_batch", 5)
    assert run_main(_args(out, tricks)) == 130
    d, err = _summary(capsys)
    assert d["complete"] is False and d["deals"] == 300 and d["out"] == str(out) and d["tricks_out"] == str(tricks)
    # (the files named: with --json no "wrote" line is printed above it; new-user pass)
    assert f"interrupted; the summary covers the 300 deals played of 1,000; written to {out} and {tricks}, marked " \
           "incomplete (sim.read_metadata: complete false)" in err
    md, mt = sim.read_metadata(out), sim.read_metadata(tricks)
    assert (md["complete"], md["rows"], md["total"]) == (False, 300, DEALS)
    assert (mt["complete"], mt["rows"], mt["total"]) == (False, 300, DEALS)
    wd, wt, _, _ = whole
    pd.testing.assert_frame_equal(pd.read_parquet(out), wd.iloc[:300])
    pd.testing.assert_frame_equal(pd.read_parquet(tricks), wt.iloc[:300 * 20])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.parquet", "t.parquet"]  # no temporary file left


def test_partial_summary_is_the_summary_of_the_deals_kept(tmp_path, monkeypatch, capsys):
    _raise_on_call(monkeypatch, sim.engine, "play_batch", 4)
    assert run_main(_args()) == 130
    part, err = _summary(capsys)
    assert "no file asked for" in err
    r = sim.simulate(sim.Rules(players=2), "random", deals=200, seed=5)  # the same first 200 deals
    ref = r.summary.to_dict()
    for k in ("deals", "draws", "capotes", "sides", "positions"):
        assert part[k] == ref[k], k


@pytest.mark.parametrize("where, kept", [
    ("update", 200),        # while the third chunk's rows are counted: its counts are dropped whole
    ("trick_table", 200),   # between the third chunk's two tables: neither file gets it
    ("put", 300),           # just after the third chunk is handed to the writer: both files and the summary have it
])
def test_interrupt_inside_a_chunk_keeps_files_and_summary_alike(tmp_path, monkeypatch, capsys, where, kept):
    out, tricks = tmp_path / "d.parquet", tmp_path / "t.parquet"
    owner = {"update": sim.stats.RunningStats, "trick_table": sim.batch._Tables,
             "put": sim.batch._WriterThread}[where]
    if where != "update":  # one call a chunk (the warm-up makes no table and hands nothing over)
        _raise_on_call(monkeypatch, owner, where, 3)
    else:  # halfway through the third chunk's counting: the copy's first counters changed, then the signal
        real = sim.stats.RunningStats.update
        calls = [0]

        def half(self, side_points, winner, capote, row0):
            calls[0] += 1
            if calls[0] == 3:
                self.rows += 50
                self.draws += 7
                raise KeyboardInterrupt
            return real(self, side_points, winner, capote, row0)

        monkeypatch.setattr(sim.stats.RunningStats, "update", half)
    assert run_main(_args(out, tricks)) == 130
    d, err = _summary(capsys)
    assert d["deals"] == kept
    assert sim.read_metadata(out)["rows"] == sim.read_metadata(tricks)["rows"] == kept
    assert len(pd.read_parquet(out)) == kept and len(pd.read_parquet(tricks)) == 20 * kept
    ref = sim.simulate(sim.Rules(players=2), "random", deals=kept, seed=5).summary.to_dict()
    assert d["draws"] == ref["draws"] and d["sides"] == ref["sides"]


def test_existing_output_is_kept_and_nothing_written(tmp_path, monkeypatch, capsys):
    out, tricks = tmp_path / "d.parquet", tmp_path / "t.parquet"
    out.write_text("an earlier run")
    _raise_on_call(monkeypatch, sim.engine, "play_batch", 3, exc=_Terminated)
    assert run_main(_args(out, tricks)) == 143
    d, err = _summary(capsys)
    assert d["complete"] is False and d["deals"] == 100 and d["out"] is None
    assert f"terminated; the summary covers the 100 deals played of 1,000; no file written: {out} already " \
           f"existed and is kept (only a complete run replaces a file), so {tricks} was not written either" in err
    assert out.read_text() == "an earlier run" and not tricks.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["d.parquet"]


def test_two_existing_outputs_are_named_in_the_plural(tmp_path, monkeypatch, capsys):
    out, tricks = tmp_path / "d.parquet", tmp_path / "t.parquet"
    out.write_text("an earlier run")
    tricks.write_text("its tricks")
    _raise_on_call(monkeypatch, sim.engine, "play_batch", 3)
    assert run_main(_args(out, tricks)) == 130
    _, err = _summary(capsys)
    assert f"no file written: {out} and {tricks} already existed and are kept (only a complete run replaces a " \
           "file)\n" in err
    assert out.read_text() == "an earlier run" and tricks.read_text() == "its tricks"


def test_interrupt_before_any_chunk_writes_nothing(tmp_path, monkeypatch, capsys):
    out = tmp_path / "d.parquet"
    _raise_on_call(monkeypatch, sim.engine, "play_batch", 1)  # in the warm-up
    assert run_main(_args(out)) == 130
    cap = capsys.readouterr()
    assert cap.out == "" and "interrupted; no output written" in cap.err
    assert list(tmp_path.iterdir()) == []


def test_duplicate_interrupted_keeps_whole_pairs_text_summary(tmp_path, monkeypatch, capsys):
    out = tmp_path / "d.parquet"
    _raise_on_call(monkeypatch, sim.engine, "play_batch", 3)
    args = [a for a in _args(out, None, "--duplicate") if a != "--json"]
    assert run_main(args) == 130
    cap = capsys.readouterr()
    assert "100 deals (50 distinct deals x 2 rotations, duplicate)" in cap.out and f"wrote deals: {out}" in cap.out
    assert "the summary covers the 100 deals played of 2,000" in cap.err
    df = pd.read_parquet(out)
    assert len(df) == 100 and df.pair.nunique() == 50 and (df.groupby("pair").size() == 2).all()
    md = sim.read_metadata(out)
    assert (md["rows"], md["total"], md["complete"]) == (100, 2000, False)


def test_api_interrupt_carries_what_was_kept(tmp_path, monkeypatch):
    out = tmp_path / "d.parquet"
    _raise_on_call(monkeypatch, sim.engine, "play_batch", 4)
    with pytest.raises(KeyboardInterrupt) as e:
        sim.simulate(sim.Rules(players=2), "random", deals=DEALS, seed=5, chunk=CHUNK, out=out)
    assert e.value.kept_rows == 200 and e.value.kept_files is True and e.value.existing == []
    assert e.value.partial_summary.deals == 200 and e.value.partial_summary.extra["complete"] is False
    assert len(pd.read_parquet(out)) == 200


def _fake_solver(monkeypatch, calls, stop_at=None):
    """``solver.selfplay`` replaced by a stand-in playing greedy on every seat (recording its batches),
    raising KeyboardInterrupt in the middle of batch ``stop_at`` as the real Python loop would."""
    import types

    import numpy as np

    from sim.policies import POLICIES

    def play_open_batch(rules, seed, row0, m, rotations, res, hands0, dseeds, tricks, rec):
        calls.append((row0, m))
        if len(calls) == stop_at:
            raise KeyboardInterrupt
        pol = np.full(rules.players, POLICIES.index("greedy"), np.int64)
        sim.engine.play_batch(rules.to_array(), np.array(rules.deck_cards, np.int8), seed, row0, m, rotations, pol,
                              np.zeros((rules.players, 4)), res, hands0, dseeds, tricks, rec)

    fake = types.ModuleType("solver.selfplay")
    fake.play_open_batch = play_open_batch
    fake.warm_up = lambda rules: None
    monkeypatch.setitem(sys.modules, "solver.selfplay", fake)


def test_solver_policy_plays_small_chunks_written_as_one_row_group(tmp_path, monkeypatch):
    # (was: the default chunk, 262,144 rows, made a solver run of 100,000 deals (about 25 minutes at 70 deals/s) one chunk:
    # its progress bar stayed at 0 and an interruption lost every deal)
    import pyarrow.parquet as pq
    calls = []
    _fake_solver(monkeypatch, calls)
    out = tmp_path / "s.parquet"
    sim.simulate(sim.Rules(players=2), "solver", deals=500, seed=4, out=out)
    # the first chunk SOLVER_CHUNK deals, the next ones sized by time (this stand-in is fast: 4x each)
    assert calls[:3] == [(0, 1), (1, 4), (5, 16)] and sim.batch.SOLVER_CHUNK == 1  # (8 before break-it pass 28)
    assert [r for r, _ in calls] == [sum(m for _, m in calls[:i]) for i in range(len(calls))]
    assert sum(m for _, m in calls) == 500
    f = pq.ParquetFile(out)
    assert f.metadata.num_row_groups == 1 and f.metadata.num_rows == 500  # (not one row group a chunk)
    calls.clear()
    sim.simulate(sim.Rules(players=4), "solver", deals=10, seed=4, duplicate=True)
    assert calls[0] == (0, 2 * sim.batch.SOLVER_CHUNK) and all(m % 2 == 0 for _, m in calls)  # whole pairs


def test_solver_policy_interrupted_keeps_its_finished_chunks(tmp_path, monkeypatch):
    calls = []
    _fake_solver(monkeypatch, calls, stop_at=4)
    out = tmp_path / "s.parquet"
    with pytest.raises(KeyboardInterrupt) as e:
        sim.simulate(sim.Rules(players=2), "solver", deals=1000, seed=4, out=out)
    kept = sum(m for _, m in calls[:3])
    assert kept == 1 + 4 + 16
    assert e.value.kept_rows == kept and len(pd.read_parquet(out)) == kept
    assert sim.read_metadata(out)["rows"] == kept


def test_next_chunk_aims_at_a_quarter_second():
    from sim.batch import CHUNK_SECONDS, _next_step
    assert CHUNK_SECONDS == 0.25
    assert _next_step(4096, 1.0, 262144, 1) == 1024  # a slow policy: a quarter of the rows
    assert _next_step(4096, 0.001, 262144, 1) == 4 * 4096  # a fast one grows 4x a chunk
    assert _next_step(200_000, 0.01, 262144, 1) == 262144  # up to the cap
    assert _next_step(4096, 0.0, 262144, 2) == 4 * 4096  # (no time measured)
    assert _next_step(10, 100.0, 262144, 3) == 3  # at least one pair of whole rotations
    assert _next_step(1001, 0.5, 262144, 2) == 500  # whole pairs


def test_default_chunks_follow_the_time_they_take(monkeypatch):
    """A policy 1,000 times slower than random (the stand-in sleeps 1 ms a row): the first chunk is
    FIRST_CHUNK... here 64 rows (patched), the next ones about a quarter second (~250 rows), so that a
    signal finds the run between chunks; results are those of any chunking."""
    real = sim.engine.play_batch
    sizes = []

    def slow(rules, deck, seed, row0, m, *rest):
        sizes.append(m)
        time.sleep(m * 0.001)
        real(rules, deck, seed, row0, m, *rest)

    monkeypatch.setattr(sim.batch, "FIRST_CHUNK", 64)
    monkeypatch.setattr(sim.engine, "play_batch", slow)
    r = sim.simulate(sim.Rules(players=2), "random", deals=1000, seed=5)
    assert sizes[0] == 1 and sizes[1] == 64 and 150 <= sizes[2] <= 256  # (the warm-up's one row first)
    monkeypatch.setattr(sim.engine, "play_batch", real)
    ref = sim.simulate(sim.Rules(players=2), "random", deals=1000, seed=5, chunk=1000)
    pd.testing.assert_frame_equal(r.frame, ref.frame)


# --- break-it pass 17 (helper, 2026-12-06, sixth part; each test failed on de1ece5) ------------------------

_SLOW_WRITER = """
import os, sys, time
import sim.batch, sim.engine
real_write, real_play = sim.batch._Target.write, sim.engine.play_batch
def write(self, table):
    time.sleep(1.5)  # a slow disk: the held chunks take 3 s to write at the end
    real_write(self, table)
def play(*a):
    time.sleep(0.3)  # a slow policy: chunks of 0.3 s
    real_play(*a)
    with open(os.environ["BRISCA_TEST_MARK"], "a") as f:  # (a line a batch played, the warm-up's first)
        f.write("played\\n")
sim.batch._Target.write, sim.engine.play_batch = write, play
from sim.cli import main
main(sys.argv[1:])
"""


def test_signal_while_finished_chunks_are_written_waits_for_them(tmp_path):
    """Writing what was finished took longer than run_interruptible's 2 s grace (a large --chunk's queued
    tables, or a slow disk): the process was ended 'without unwinding' and every finished deal lost. The
    run now says it is keeping (sim.batch.keeping) and is waited for; a second signal still ends it."""
    out, tricks = tmp_path / "d.parquet", tmp_path / "t.parquet"
    mark = tmp_path.parent / f"{tmp_path.name}.played"

    def ready(p):  # the warm-up's batch and two chunks played (0.3 s each), held by the writer
        end = time.monotonic() + 120
        while not (mark.exists() and mark.read_text().count("played") >= 3) and time.monotonic() < end \
                and p.poll() is None:
            time.sleep(0.02)

    code, stdout, stderr = _run_signalled(
        _SLOW_WRITER, ["simulate", "--deals", "4000", "--seed", "5", "--chunk", "1000", "--out", out,
                       "--tricks", tricks, "--json"], signal.SIGINT, ready, BRISCA_TEST_MARK=str(mark))
    assert code == 130 and "without unwinding" not in stderr, stderr
    md = sim.read_metadata(out)
    assert md["complete"] is False and md["rows"] in (1000, 2000, 3000) and md["rows"] == json.loads(stdout)["deals"]
    assert sim.read_metadata(tricks)["rows"] == md["rows"]
    ref = sim.simulate(sim.Rules(players=2), "random", deals=md["rows"], seed=5)
    pd.testing.assert_frame_equal(pd.read_parquet(out), ref.frame)


def test_signal_after_every_chunk_was_played_leaves_complete_files(tmp_path, monkeypatch, capsys):
    """A signal in the writer's final close, every deal played and handed over: the files and summary said
    complete false with rows == total; and an existing file was kept, the whole run's not written."""
    out = tmp_path / "d.parquet"
    out.write_text("an earlier run")
    real = sim.batch._WriterThread.close
    calls = []

    def close(self):
        calls.append(1)
        if len(calls) == 1:  # the loop's close after the last chunk
            raise KeyboardInterrupt
        return real(self)

    monkeypatch.setattr(sim.batch._WriterThread, "close", close)
    assert run_main(_args(out)) == 130
    d, err = _summary(capsys)
    assert d["complete"] is True and d["deals"] == DEALS and d["out"] == str(out)
    assert f"interrupted; every deal was played (1,000); written to {out}, complete" in err
    md = sim.read_metadata(out)
    assert (md["complete"], md["rows"], md["total"]) == (True, DEALS, DEALS)


# --- break-it pass 18 (helper, 2026-12-06, sixth part; each test failed on bddba4c) ------------------------

_LATE_SIGNAL = r'''
import sys, time
import sim.batch as B, sim.cli as C
if sys.argv[1] == "writer":  # a slow disk: the held row group takes 3 s to write in the final close
    ow = B._Target.write
    def write(self, table):
        time.sleep(3.0)
        return ow(self, table)
    B._Target.write = write
    oc = B._WriterThread.close
    def close(self):
        print("MARK", file=sys.__stderr__, flush=True)
        return oc(self)
    B._WriterThread.close = close
else:  # a slow footer: every row group written, the file's close takes 1 s
    oc = B._Target.close
    def close(self, footer=None):
        print("MARK", file=sys.__stderr__, flush=True)
        for _ in range(100):
            time.sleep(0.01)
        return oc(self, footer)
    B._Target.close = close
C.main(sys.argv[2:])
'''


@pytest.mark.parametrize("where", ["writer", "footer"])
def test_signal_after_every_deal_was_played_keeps_the_complete_files(tmp_path, where, whole):
    """Every deal played, a SIGTERM while the writer writes the last row group (the run's thread in a plain
    Thread.join ran no bytecode: the signal's exception did not land, keeping() was never asked, and the 2 s
    grace ended the process: the whole run lost) or while the footer is written (outside the chunks' except:
    'no output written'). Now the files are finished and complete, exit 143."""
    out = tmp_path / "o.parquet"

    def ready(p):
        head = ""
        while "MARK" not in head:
            line = p.stderr.readline()
            assert line, head
            head += line
        time.sleep(0.3 if where == "writer" else 0.1)

    code, stdout, stderr = _run_signalled(_LATE_SIGNAL, [where, *_args(out)], signal.SIGTERM, ready)
    assert code == 143 and "without unwinding" not in stderr, stderr
    assert f"terminated; every deal was played (1,000); written to {out}, complete" in stderr
    d = json.loads(stdout)
    assert d["complete"] is True and d["deals"] == DEALS
    md = sim.read_metadata(out)
    assert (md["complete"], md["rows"], md["total"]) == (True, DEALS, DEALS)
    pd.testing.assert_frame_equal(pd.read_parquet(out), whole[0])


def test_no_stale_keep_request_after_an_interrupted_run(tmp_path, monkeypatch):
    """An interrupted simulate asks to be waited for 60 s (keeping) and never cleared it: a later command in
    the same process (sim.cli.main, run_interruptible) would wait up to 60 s for a stuck worker instead of its
    2 s grace. Cleared by run_interruptible when a command starts and by simulate when a run starts (not
    when it ends: the command's last steps then raced the expired grace, break-it pass 18's test)."""
    from sim.cli import run_interruptible
    _raise_on_call(monkeypatch, sim.engine, "play_batch", 3)
    with pytest.raises(KeyboardInterrupt) as e:
        sim.simulate(sim.Rules(players=2), "random", deals=DEALS, seed=5, chunk=CHUNK, out=tmp_path / "o.parquet")
    assert e.value.kept_files and sim.batch.keep_deadline() > time.monotonic()
    seen = run_interruptible(lambda a: sim.batch.keep_deadline(), None)
    assert seen <= time.monotonic()
    sim.batch.keeping()
    seen = []
    sim.simulate(sim.Rules(players=2), "random", deals=10, on_start=lambda: seen.append(sim.batch.keep_deadline()))
    assert seen[0] <= time.monotonic()


@pytest.mark.parametrize("existed", [False, True])
def test_writing_note_only_when_the_deals_are_kept(tmp_path, monkeypatch, capsys, existed):
    """With the progress bar on, an interrupted run said "writing the deals finished..." and then, when --out
    already existed, "no file written: ... already existed and is kept" (new-user pass 26): the note is given
    only when the deals it writes are kept."""
    out = tmp_path / "d.parquet"
    if existed:
        out.write_text("an earlier run")
    _raise_on_call(monkeypatch, sim.engine, "play_batch", 3, exc=_Terminated)
    args = [a for a in _args(out) if a != "--no-progress"]
    assert run_main(args) == 143
    err = capsys.readouterr().err
    assert ("writing the deals finished" in err) is (not existed), err[-600:]
    assert ("already existed and is kept" in err) is existed
