"""Mutation testing, thirteenth pass (helper, 2026-12-06): the newest code of the simulate batch runner —
sim/batch.py's interrupt machinery (``_WriterThread``, ``_keep_interrupted``, ``_footer``, ``_Target.close``,
``keeping``/``keep_deadline``, row-group gathering), its time-based chunk sizing and ``read_metadata``;
sim/stats.py ``RunningStats.copy``; sim/rules.py ``Rules.exchange_possible``; sim/cli.py cmd_simulate's
``_print_summary``, ``_kept_note``, the ``complete`` key and the rules line's notes.

50 hand-made mutants (two more argued, not run), one at a time, each run against
test_simulate_interrupt.py, test_parquet.py, test_mutation8.py and test_mutation9.py (and test_stats.py,
test_rules.py, test_newuser17.py, test_break_simulate.py for their modules).

Killed by the existing tests (29): the held row groups not written at the end, ``_keep_interrupted``'s
``whole`` as False, the existing outputs kept when every row was played, ``keep`` without ``bool(targets)``,
the footer's ``complete`` as ``n > total`` and its ``rows`` as ``total``, ``read_metadata`` without the
footer, the first chunk without ``* rotations``, ``_next_step`` without its 4x bound or with ``step`` when
no time was measured, the interrupted run's mark as ``done`` instead of the writer's ``delivered``,
``keeping(0)`` at the start dropped, ``keeping`` an absolute time, one held list for both targets, ``abort``
not setting ``stopping`` (hangs), the summary's out/tricks_out swapped, ``existing`` always empty, ``abort``
instead of ``close`` after the signal, ``keeping()`` dropped before that close, a shallow
``RunningStats.copy`` (arrays too), four of ``exchange_possible`` (the trump2 clause dropped, ``seven-two``
not looking for the 7, the 7s always there, ``or`` as ``and``), ``_kept_note``'s total without rotations and
its new files or plural, the rules line's note for ``exchange none``, the failed write's summary without
``complete``.

Survivors, each killed by a test below (15): ROW_GROUP_ROWS compared with ``>``; the held rows' counter
not reset, or the held tables not cleared (rows written twice); ``close`` and ``put`` not re-raising the
writer's error; ``put``'s depth bound one too many; ``delivered`` set before the chunk's parts are taken
(no simulate output shows it: a failed write is raised, not kept; the writer test reads the documented
mark); ``keeping()`` dropped from ``_keep_interrupted`` (a signal in the footers' close asked no wait);
``_Target.close`` without its ``is_open`` check (pyarrow's add_key_value_metadata on a closed writer
raises); the adaptive step capped by DEFAULT_CHUNK instead of the chunk (chunks past the trick-sized
arrays: a segfault in the compiled play) and the trick-row bound of the default chunk dropped;
``RunningStats.copy`` sharing its lists (``pair_q``); ``if not n`` as ``if mark is None`` (a run without
files interrupted in its first chunk printed a summary of 0 deals); the finished run's summary
``complete=False`` (the JSON's ``"complete"`` of a whole run is read by no other test); ``_print_summary``
through ``print`` (two writes).

Equivalent (8): ``_Target.close`` not forgetting its writer (pyarrow's close is idempotent, ``is_open``
guards the footer); ``read_metadata`` merging the schema over the footer (no key is in both in a simulate
file; solve's tables write the same values in both); ``exchange_possible`` looking for the 2 only under
``two-any`` or the 7 of Oros only (no deck of R1/R3 has 2s without 7s, or removes a 7); ``_kept_note``
reading ``complete`` with a default (always set); the rules line's "no 7 or 2" test on the 7s alone (the
note is reached only without a 2 of trumps); the writer's idle check ``closing and not items`` as
``closing`` (closing is set after the last append) and the first step's ``min(chunk, ...)`` dropped (``m``
is bounded by the rows left) were argued, not run.

Each test below failed on at least one of the survivors (named in its docstring) and passes on the code.
Expected values come from the docstrings (``ROW_GROUP_ROWS``: rows a row group gathers before it is
written; ``RunningStats.copy``: an independent copy; ``MAX_TRICK_ROWS``: the bound of trick rows held per
chunk; ``_Target.close``: called again after a signal landed in it), RULES.md R1/R3/R7 (which decks hold
the 7s and the 2 of trumps) and the module docstring of sim.batch, never from the function under test.
No subprocess and no signal: the writer thread, ``_Target`` and ``RunningStats`` are driven directly, an
interruption is raised where the signal's exception would land.
"""
from __future__ import annotations

import threading
import time

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import sim
import sim.batch
import sim.engine
from sim.rules import DECKS, EXCHANGES, REMOVES, Rules
from sim.stats import RunningStats


# ----------------------------------------------------------------- sim.batch._WriterThread: row groups
class _Recorder:
    """A stand-in for a :class:`sim.batch._Target`: records the row counts and the values it is given."""

    def __init__(self, fail=False):
        self.writes, self.values, self.fail = [], [], fail

    def write(self, table):
        if self.fail:
            raise OSError(28, "No space left on device")
        self.writes.append(table.num_rows)
        self.values.extend(table.column("x").to_pylist())


def _chunk(start, rows):
    return pa.table({"x": np.arange(start, start + rows, dtype=np.int64)})


def _drain(w, timeout=30.0):
    """Wait until the writer thread took every chunk handed over (so that the test's puts never wait)."""
    end = time.monotonic() + timeout
    while w.items and not w.finished and time.monotonic() < end:
        time.sleep(0.001)


def test_writer_gathers_small_chunks_into_row_groups_of_ROW_GROUP_ROWS(monkeypatch):
    """Mutants: ``rows[0] >= ROW_GROUP_ROWS`` as ``>`` (a row group of ROW_GROUP_ROWS rows waited for one more
    chunk); ``rows[0] = 0`` dropped after a write (every later chunk its own row group); ``tables.clear()``
    dropped (rows written twice); the held tables not written at the end (rows lost). ROW_GROUP_ROWS is the
    number of rows a row group gathers before it is written; what is held is written at the end; each target
    gathers its own chunks."""
    monkeypatch.setattr(sim.batch, "ROW_GROUP_ROWS", 12)
    a, b = _Recorder(), _Recorder()
    w = sim.batch._WriterThread()
    try:
        for k in range(7):  # 7 chunks of 4 rows each in a, of 6 rows each in b
            w.put((4 * (k + 1), f"counts {k}"), [(a, _chunk(4 * k, 4)), (b, _chunk(100 + 6 * k, 6))])
            _drain(w)
        w.close()
    finally:
        w.abort()
    assert a.writes == [12, 12, 4] and a.values == list(range(28))
    assert b.writes == [12, 12, 12, 6] and b.values == list(range(100, 142))
    assert w.delivered == (28, "counts 6")


def test_writer_error_reaches_the_runs_thread():
    """Mutants: ``close`` not re-raising the writer's error (a full disk gave a file with chunks missing and
    no error); ``put`` not re-raising it (the run played every remaining deal before the error was said).
    The writer's error is re-raised in the run's thread: by the next ``put`` and by ``close``."""
    bad = _Recorder(fail=True)
    w = sim.batch._WriterThread()
    try:
        w.put((1, None), [(bad, _chunk(0, sim.batch.ROW_GROUP_ROWS + 1))])  # (a row group: written at once)
        end = time.monotonic() + 30
        while not w.finished and time.monotonic() < end:
            time.sleep(0.001)
        assert w.finished
        with pytest.raises(OSError, match="No space left"):
            w.put((2, None), [(bad, _chunk(0, 1))])
        with pytest.raises(OSError, match="No space left"):
            w.close()
    finally:
        w.abort()
    assert w.delivered is None  # (the chunk that failed was not taken whole)


def test_writer_holds_at_most_depth_chunks_waiting(monkeypatch):
    """Mutant: ``len(self.items) >= self.depth`` as ``>`` in ``put`` (one more chunk's tables in flight than
    the bound). At most ``depth`` chunks wait while one is written: the next ``put`` waits for room."""
    monkeypatch.setattr(sim.batch, "ROW_GROUP_ROWS", 1)  # (every chunk written as it is taken)
    gate = threading.Event()

    class Slow(_Recorder):
        def write(self, table):
            gate.wait(60)
            super().write(table)

    t = Slow()
    w = sim.batch._WriterThread(depth=2)
    try:
        w.put((1, None), [(t, _chunk(0, 1))])
        _drain(w)  # the first chunk taken, its write waiting on the gate
        w.put((2, None), [(t, _chunk(1, 1))])
        w.put((3, None), [(t, _chunk(2, 1))])
        late = threading.Thread(target=w.put, args=((4, None), [(t, _chunk(3, 1))]), daemon=True)
        late.start()
        late.join(0.3)
        assert late.is_alive() and len(w.items) == 2  # (it cannot return while the writer is held)
        gate.set()
        late.join(60)
        w.close()
    finally:
        gate.set()
        w.abort()
    assert t.writes == [1, 1, 1, 1] and t.values == [0, 1, 2, 3] and w.delivered == (4, None)


def test_simulate_writes_row_groups_of_ROW_GROUP_ROWS(tmp_path, monkeypatch):
    """Mutants of the row-group gathering seen through simulate (see the writer test above): chunks of 100
    rows gathered into row groups of at least ROW_GROUP_ROWS (here 250) rows, in order, each row once."""
    import pyarrow.parquet as pq
    monkeypatch.setattr(sim.batch, "ROW_GROUP_ROWS", 250)
    out, tricks = tmp_path / "d.parquet", tmp_path / "t.parquet"
    sim.simulate(Rules(players=2), "random", deals=1000, seed=5, chunk=100, out=out, tricks_out=tricks)
    md = pq.ParquetFile(out).metadata
    assert [md.row_group(i).num_rows for i in range(md.num_row_groups)] == [300, 300, 300, 100]
    mt = pq.ParquetFile(tricks).metadata  # (20 tricks a deal: every chunk of 2,000 trick rows is a row group)
    assert [mt.row_group(i).num_rows for i in range(mt.num_row_groups)] == [2000] * 10
    ref = sim.simulate(Rules(players=2), "random", deals=1000, seed=5, chunk=1000, keep_frame=True, tricks=True)
    pd.testing.assert_frame_equal(pd.read_parquet(out), ref.frame)
    pd.testing.assert_frame_equal(pd.read_parquet(tricks), ref.tricks)


# ----------------------------------------------------------------- sim.batch._Target.close: idempotent
def test_target_close_again_after_its_writer_closed(tmp_path):
    """Mutant: ``if footer and self.writer.is_open`` as ``if footer`` (pyarrow's add_key_value_metadata on a
    closed writer raises AssertionError). ``_Target.close`` is called again after a signal landed in it,
    here after pyarrow's own close returned and before the target forgot its writer: what is done is not
    done twice, and the file, footer written the first time, is whole."""
    t = sim.batch._Target(tmp_path / "o.parquet", "output")
    t.prepare()
    try:
        table = _chunk(0, 5)
        t.open(table.schema)
        t.write(table)
        t.writer.add_key_value_metadata({k: str(v) for k, v in sim.batch._footer(5, 5).items()})
        t.writer.close()  # (the first close, interrupted just after pyarrow's close)
        t.close(sim.batch._footer(5, 5))
        md = sim.read_metadata(t.tmp)
        assert (md["rows"], md["total"], md["complete"]) == (5, 5, True)
        assert pd.read_parquet(t.tmp).x.tolist() == list(range(5))
    finally:
        t.discard()


# ----------------------------------------------------------------- sim.batch: keeping while the footer is written
def test_interrupt_in_the_final_close_asks_to_be_waited_for(tmp_path, monkeypatch):
    """Mutant: ``keeping()`` dropped from ``_keep_interrupted`` (a signal while the footers were written: the
    files were finished and renamed without asking run_interruptible to wait, and a slow disk past its 2 s
    grace lost the whole run). Every deal played, the footer's close interrupted: the run asks to be waited
    for while it finishes the files, which are complete."""
    real = sim.batch._Target.close
    calls = []

    def close(self, footer=None):
        calls.append(footer)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return real(self, footer)

    monkeypatch.setattr(sim.batch._Target, "close", close)
    out = tmp_path / "o.parquet"
    sim.batch.keeping(0)
    with pytest.raises(KeyboardInterrupt) as e:
        sim.simulate(Rules(players=2), "random", deals=300, seed=3, chunk=100, out=out)
    assert sim.batch.keep_deadline() > time.monotonic()
    sim.batch.keeping(0)
    assert e.value.kept_rows == 300 and e.value.kept_files is True
    assert e.value.partial_summary.extra["complete"] is True
    md = sim.read_metadata(out)
    assert (md["rows"], md["total"], md["complete"]) == (300, 300, True)


@pytest.mark.parametrize("out", [False, True])
def test_interrupt_in_the_first_chunk_keeps_nothing(tmp_path, monkeypatch, capsys, out):
    """Mutant: ``_keep_interrupted``'s ``if not n`` as ``if mark is None`` (a run without output files
    interrupted in its first chunk printed a summary of 0 deals, rates n/a, "the summary covers the 0 deals
    played"). No chunk finished: ``partial_summary`` None, ``kept_rows`` 0, no file, and the command line
    says it wrote nothing."""
    from conftest import run_main
    real, calls = sim.engine.play_batch, []

    def play(*a):
        calls.append(1)
        if len(calls) == 2:  # (call 1 is the warm-up: the signal lands as the first chunk's play returns)
            real(*a)
            raise KeyboardInterrupt
        return real(*a)

    monkeypatch.setattr(sim.engine, "play_batch", play)
    path = tmp_path / "o.parquet" if out else None
    with pytest.raises(KeyboardInterrupt) as e:
        sim.simulate(Rules(players=2), "random", deals=300, seed=3, chunk=100, out=path)
    assert e.value.partial_summary is None and e.value.kept_rows == 0 and e.value.kept_files is False
    calls.clear()
    args = ["simulate", "--deals", "300", "--chunk", "100", "--no-progress", "--json"]
    assert run_main(args + (["--out", str(path)] if out else [])) == 130
    cap = capsys.readouterr()
    assert cap.out == "" and cap.err.strip().splitlines()[-1] == "brisca: interrupted; no output written"
    assert list(tmp_path.iterdir()) == []


# ----------------------------------------------------------------- sim.batch.simulate: the chunk cap with tricks
def test_default_chunks_with_tricks_stay_under_the_trick_rows_bound(tmp_path, monkeypatch):
    """Mutants: ``_next_step(m, took, chunk, rotations)`` capped by DEFAULT_CHUNK instead of ``chunk`` (the
    growing chunks passed the arrays sized for the trick-row bound); the trick-row bound of the default
    chunk dropped (chunks of DEFAULT_CHUNK rows with their tricks held). With tricks recorded, a chunk holds
    at most MAX_TRICK_ROWS trick rows (here patched to 300 deals of 20 tricks); the files are those of any
    chunking."""
    monkeypatch.setattr(sim.batch, "MAX_TRICK_ROWS", 300 * 20)
    monkeypatch.setattr(sim.batch, "FIRST_CHUNK", 64)
    real_step, caps = sim.batch._next_step, []

    def step(m, took, cap, rotations):
        caps.append(cap)
        return real_step(m, took, cap, rotations)

    def play(rules, deck, seed, row0, m, *rest):
        sizes.append(m)
        if m > 300:  # (failing here, not in the compiled play, whose arrays hold 300 rows: it would crash)
            raise AssertionError(f"a chunk of {m} rows with tricks recorded, more than 300")
        real(rules, deck, seed, row0, m, *rest)

    real, sizes = sim.engine.play_batch, []
    monkeypatch.setattr(sim.batch, "_next_step", step)
    monkeypatch.setattr(sim.engine, "play_batch", play)
    out, tricks = tmp_path / "d.parquet", tmp_path / "t.parquet"
    sim.simulate(Rules(players=2), "random", deals=2000, seed=7, out=out, tricks_out=tricks)
    assert caps and set(caps) == {300} and max(sizes) <= 300 and sum(sizes[1:]) == 2000
    monkeypatch.setattr(sim.engine, "play_batch", real)
    ref = sim.simulate(Rules(players=2), "random", deals=2000, seed=7, chunk=2000, keep_frame=True, tricks=True)
    pd.testing.assert_frame_equal(pd.read_parquet(out), ref.frame)
    pd.testing.assert_frame_equal(pd.read_parquet(tricks), ref.tricks)


# ----------------------------------------------------------------- sim.stats.RunningStats.copy
def test_running_stats_copy_is_independent():
    """Mutants: ``copy`` sharing the lists (``pair_q``, ``pair_q2``) or the arrays with the original (an
    interruption while a chunk was counted on the copy left its pairs, or its wins and points, in the counts
    kept). ``RunningStats.copy`` is an independent copy: updating it leaves the original as it was."""
    st = RunningStats(4, 2, 2)
    st.update(np.array([[70, 50], [40, 80]]), np.array([0, 1]), np.array([False, False]), 0)
    before = {k: (v.copy() if isinstance(v, (np.ndarray, list)) else v) for k, v in vars(st).items()}
    c = st.copy()
    c.update(np.array([[120, 0], [61, 59], [60, 60], [10, 110]]), np.array([0, 0, -1, 1]),
             np.array([True, False, False, False]), 2)
    for k, v in vars(st).items():
        assert np.array_equal(v, before[k]) if isinstance(v, np.ndarray) else v == before[k], k
    assert c.rows == 6 and st.rows == 2 and c.pairs == 3 and st.pairs == 1
    assert c.pair_q != st.pair_q and c.pos_wins.tolist() != st.pos_wins.tolist()


# ----------------------------------------------------------------- sim.rules.Rules.exchange_possible
def _games():
    for players in (2, 3, 4, 6):
        for deck in DECKS:
            for remove in (*REMOVES, None):  # (None: every game's default; remove= is spanish40's with 3)
                for exchange in EXCHANGES:
                    try:
                        yield Rules(players=players, deck=deck, remove=remove, exchange=exchange)
                    except ValueError:
                        pass


def test_exchange_possible_follows_the_decks_of_R1_and_R3():
    """Mutants of ``Rules.exchange_possible``: which rule's card is looked for, the 2s' removals by R3. From
    RULES R1/R3/R7: every deck but rapida20 holds the 7s; the 2 of trumps is in play unless the deck is
    rapida20, 6 players on spanish40 (the four 2s out), or 3 players with remove=trump2 or all2s (2B removes
    only the 2 of Bastos); ``seven`` needs the 7, ``two-any`` the 2, ``seven-two`` either, ``none`` never."""
    seen = 0
    for r in _games():
        has7 = r.deck != "rapida20"
        has2 = (r.deck != "rapida20" and not (r.players == 6 and r.deck == "spanish40")
                and not (r.players == 3 and r.remove in ("trump2", "all2s")))
        want = {"none": False, "seven": has7, "seven-two": has7 or has2, "two-any": has2}[r.exchange]
        assert r.exchange_possible is want, r
        seen += 1
    assert seen >= 40


def test_complete_run_json_says_complete(tmp_path, capsys):
    """Mutant: the finished run's summary made with ``complete=False`` (survived every simulate test:
    test_simulate_interrupt's ``test_complete_run_says_complete_in_footer_and_json`` reads the footer only).
    ``brisca simulate --json`` of a run that played every deal says ``"complete": true``, as its file's
    footer does."""
    import json

    from conftest import run_main
    out = tmp_path / "o.parquet"
    assert run_main(["simulate", "--deals", "30", "--seed", "2", "--no-progress", "--json", "--out", str(out)]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["complete"] is True and d["deals"] == 30 and d["out"] == str(out)
    md = sim.read_metadata(out)
    assert (md["complete"], md["rows"], md["total"]) == (True, 30, 30)

# ----------------------------------------------------------------- sim.cli._print_summary
def test_print_summary_is_one_write_with_its_line_break(monkeypatch):
    """Mutant: ``_print_summary`` through ``print`` (two writes, the text then its line break: with
    PYTHONUNBUFFERED, ``| head -1`` had gone before the second and the run ended 141). The summary, a JSON
    object or the table, goes to stdout in one write ending in its line break, and is flushed."""
    import json
    import sys

    from sim.cli import _print_summary

    class Out:
        def __init__(self):
            self.writes, self.flushes = [], 0

        def write(self, text):
            self.writes.append(text)
            return len(text)

        def flush(self):
            self.flushes += 1

    summary = sim.simulate(Rules(players=2), "random", deals=20, seed=1).summary
    for as_json in (True, False):
        out = Out()
        monkeypatch.setattr(sys, "stdout", out)
        _print_summary(summary, as_json)
        monkeypatch.undo()
        assert len(out.writes) == 1 and out.writes[0].endswith("\n") and out.flushes >= 1
        text = out.writes[0][:-1]
        if as_json:
            d = json.loads(text)
            assert d["deals"] == 20 and d["complete"] is True and "\n" not in text
        else:
            assert text == str(summary) and text.startswith("rules: 2 players")
