"""Batch simulator and parquet export (sim.batch): round trip, tricks, duplicate, reproducibility."""
import errno
import os

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

import sim
from sim import engine as E
from sim.cards import CARD_NAMES
from sim.rules import Rules
from sim.batch import read_metadata, simulate

POL = ["heuristic", "random"]


@pytest.fixture(scope="module")
def run2(tmp_path_factory):
    d = tmp_path_factory.mktemp("run2")
    out, tout = d / "deals.parquet", d / "tricks.parquet"
    r = simulate(Rules(players=2), POL, deals=700, seed=7, out=out, tricks_out=tout, chunk=256,
                 keep_frame=True, tricks=True)
    return r, out, tout


def _engine_arrays(rules, pol_names, rows, seed, rotations=1):
    from sim.policies import POLICIES
    n = rules.players
    res = np.zeros((rows, E.R_SIZE), np.int16)
    hands0 = np.zeros((rows, n, 3), np.int8)
    dseeds = np.zeros(rows, np.uint64)
    tricks = np.zeros((rows, rules.tricks, E.T_SIZE), np.int16)
    pol = np.array([POLICIES.index(p) for p in pol_names], np.int64)
    E.play_batch(rules.to_array(), np.array(rules.deck_cards, np.int8), seed, 0, rows, rotations, pol,
                 np.zeros((n, 4)), res, hands0, dseeds, tricks, True)
    return res, hands0, dseeds, tricks


def test_parquet_round_trip_values_dtypes_metadata(run2):
    r, out, tout = run2
    df = pd.read_parquet(out)
    assert len(df) == 700
    pd.testing.assert_frame_equal(df, r.frame)
    res, hands0, dseeds, _ = _engine_arrays(Rules(players=2), POL, 700, 7)
    assert (df.deal.to_numpy() == np.arange(700)).all()
    assert (df.deal_seed.to_numpy() == dseeds).all()
    assert (df.pinta.cat.codes.to_numpy() == res[:, E.R_PINTA]).all()
    assert (df.trump.cat.codes.to_numpy() == res[:, E.R_TRUMP]).all()
    for s in range(2):
        for k in range(3):
            assert (df[f"hand_{s}_{k}"].cat.codes.to_numpy() == hands0[:, s, k]).all()
        assert (df[f"points_{s}"].to_numpy() == res[:, E.R_SEAT_POINTS + s]).all()
        assert (df[f"tricks_{s}"].to_numpy() == res[:, E.R_SEAT_TRICKS + s]).all()
        assert (df[f"side_points_{s}"].to_numpy() == res[:, E.R_SIDE_POINTS + s]).all()
        assert (df[f"policy_{s}"] == POL[s]).all()
    assert (df.winner.to_numpy() == res[:, E.R_WINNER]).all()
    assert (df.capote.to_numpy() == (res[:, E.R_CAPOTE] == 1)).all()
    assert (df.exchanges.to_numpy() == res[:, E.R_NEX]).all()
    for k in range(2):
        seat = res[:, E.R_EX + 3 * k]
        assert (df[f"exchange{k}_seat"].to_numpy() == seat).all()
        card = df[f"exchange{k}_card"]
        assert (card.isna().to_numpy() == (seat < 0)).all()
        assert (card.cat.codes.to_numpy()[seat >= 0] == res[seat >= 0, E.R_EX + 3 * k + 1]).all()
    assert df.exchanges.gt(0).any()  # the sample exercises R7
    # pandas dtypes: categoricals over the card strings (codes = card ids), small ints
    assert list(df.pinta.cat.categories) == list(CARD_NAMES)
    assert list(df.trump.cat.categories) == ["O", "C", "E", "B"]
    assert isinstance(df.policy_0.dtype, pd.CategoricalDtype)
    assert df.deal.dtype == np.int64 and df.deal_seed.dtype == np.uint64
    assert df.points_0.dtype == np.int8 and df.tricks_1.dtype == np.int8 and df.winner.dtype == np.int8
    assert df.side_points_0.dtype == np.int16 and df.capote.dtype == bool
    assert (df.side_points_0.astype(int) + df.side_points_1 == 120).all()  # R2
    assert "removed" not in df and "pair" not in df
    # metadata
    md = read_metadata(out)
    assert md["table"] == "deals" and md["rules"] == Rules(players=2).to_dict()
    assert md["policies"] == POL and md["seed"] == 7 and md["duplicate"] is False and md["deals"] == 700
    assert md["version"] and md["numba_version"]
    # written chunk by chunk, chunks smaller than ROW_GROUP_ROWS gathered into one row group (was one a
    # chunk: the solver policy's chunks of 8 deals made a row group each)
    assert pq.ParquetFile(out).metadata.num_row_groups == 1 and pq.ParquetFile(out).metadata.num_rows == 700
    assert read_metadata(tout)["table"] == "tricks"
    assert not [p for p in os.listdir(out.parent) if p.endswith(".tmp")]


def test_tricks_table_matches_deal_table(run2):
    r, out, tout = run2
    df, tr = pd.read_parquet(out), pd.read_parquet(tout)
    pd.testing.assert_frame_equal(tr, r.tricks)
    nt = Rules(players=2).tricks
    assert len(tr) == 700 * nt
    assert tr.trick.dtype == np.int8 and tr.points.dtype == np.int8
    assert isinstance(tr.card_0.dtype, pd.CategoricalDtype)
    assert (tr.groupby("deal").size() == nt).all()
    got = tr.groupby(["deal", "winner"]).points.sum().unstack(fill_value=0)
    for s in range(2):
        assert (got[s].to_numpy() == df[f"points_{s}"].to_numpy()).all()
    won = tr.groupby(["deal", "winner"]).size().unstack(fill_value=0)
    assert (won[0].to_numpy() == df.tricks_0.to_numpy()).all()
    # each deal: 40 different cards; the winner of a trick leads the next (R5); seat 0 leads first (R3)
    codes = np.stack([tr.card_0.cat.codes, tr.card_1.cat.codes], axis=1).reshape(700, -1)
    assert all(len(set(row)) == 40 for row in codes)
    w = tr.winner.to_numpy().reshape(700, nt)
    lead = tr.leader.to_numpy().reshape(700, nt)
    assert (lead[:, 1:] == w[:, :-1]).all() and (lead[:, 0] == 0).all()
    # the dealt hands are the first cards played or still held: every hand card appears in the deal
    first = tr[tr.trick == 0]
    assert (first.leader == df.first_lead.to_numpy()).all()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_duplicate_pairs(players, tmp_path):
    rules = Rules(players=players)
    pols = ["heuristic", "random", "greedy"][:rules.sides]
    r = simulate(rules, pols, deals=60, seed=5, duplicate=True, chunk=7 * rules.sides, keep_frame=True,
                 out=tmp_path / "d.parquet")
    df = pd.read_parquet(tmp_path / "d.parquet")
    R = rules.sides
    assert len(df) == 60 * R and r.summary.deals == 60 * R and r.summary.distinct_deals == 60
    assert (df.pair.to_numpy() == np.arange(60 * R) // R).all()
    assert (df.rotation.to_numpy() == np.arange(60 * R) % R).all()
    hands = [f"hand_{s}_{k}" for s in range(players) for k in range(3)]
    for _, g in df.groupby("pair"):
        assert g.deal_seed.nunique() == 1 and g.pinta.nunique() == 1
        assert (g[hands].nunique() == 1).all()  # same cards in every row of a pair
        for _, row in g.iterrows():
            k = row.rotation
            for s in range(players):  # rotation k: seat s plays the policy of seat (s + k) % n
                assert row[f"policy_{s}"] == pols[((s + k) % players) % R]
    assert read_metadata(tmp_path / "d.parquet")["rotations"] == R
    d = r.summary.to_dict()
    assert sum(x["wins"] for x in d["sides"]) + d["draws"] == len(df) or players == 3
    assert all("pair_score_ci95" in x for x in d["sides"])


@pytest.mark.parametrize("players", [3, 4])
def test_duplicate_tricks_table_deal_pair_rotation(players, tmp_path):
    """Mutation testing (third pass): the tricks table's ``pair`` column with ``duplicate`` was read by no
    test (a pair of ``deal // players`` passed: the same as ``deal // rotations`` with 2 and 3 players).
    Row ``r`` is pair ``r // rotations``, rotation ``r % rotations`` (rotations = sides, R3), in both
    tables, across chunks; its tricks carry the row's number."""
    rules = Rules(players=players)
    R, nt = rules.sides, rules.tricks
    r = simulate(rules, ["heuristic", "random", "greedy"][:R], deals=25, seed=9, duplicate=True, chunk=4 * R,
                 out=tmp_path / "d.parquet", tricks_out=tmp_path / "t.parquet", keep_frame=True, tricks=True)
    df, tr = pd.read_parquet(tmp_path / "d.parquet"), pd.read_parquet(tmp_path / "t.parquet")
    pd.testing.assert_frame_equal(tr, r.tricks)
    rows = np.arange(25 * R)
    assert (df.deal.to_numpy() == rows).all()
    assert (tr.deal.to_numpy() == np.repeat(rows, nt)).all()
    assert (tr.trick.to_numpy() == np.tile(np.arange(nt), 25 * R)).all()
    assert (tr.pair.to_numpy() == np.repeat(rows // R, nt)).all()
    assert (tr.rotation.to_numpy() == np.repeat(rows % R, nt)).all()
    assert tr.pair.dtype == np.int64 and tr.rotation.dtype == np.int8


def test_same_content_whatever_threads_and_chunks(tmp_path):
    import numba
    rules = Rules(players=4, exchange="two-any")
    frames = []
    configs = [(1, 1000), (1, 97)]
    if numba.config.NUMBA_NUM_THREADS >= 2:
        configs += [(2, 1000), (2, 300)]
    for i, (threads, chunk) in enumerate(configs):
        p = tmp_path / f"r{i}.parquet"
        t = tmp_path / f"t{i}.parquet"
        simulate(rules, ["heuristic", "greedy"], deals=1000, seed=11, threads=threads, chunk=chunk, out=p,
                 tricks_out=t, keep_frame=False)
        frames.append((pd.read_parquet(p), pd.read_parquet(t)))
        assert read_metadata(p) == read_metadata(tmp_path / "r0.parquet")
    for df, tr in frames[1:]:
        pd.testing.assert_frame_equal(df, frames[0][0])
        pd.testing.assert_frame_equal(tr, frames[0][1])


def test_trump2_removed_column():
    r = simulate(Rules(players=3, remove="trump2"), "greedy", deals=200, seed=2)
    df = r.frame
    assert df.removed.notna().all()
    assert (df.removed.astype(str).str[0] == "2").all()
    hands = df[[f"hand_{s}_{k}" for s in range(3) for k in range(3)]].astype(str)
    assert not hands.eq(df.removed.astype(str), axis=0).any().any()
    # R3: the 2 of trumps, unless the turned card was that 2 (then the next card turned is the pinta)
    assert (df.removed.astype(str).str[-1] == df.trump.astype(str)).mean() > 0.9


def test_api_forms_and_lazy_export():
    a = sim.simulate(2, ["greedy", "random"], deals=50, seed=3)
    b = simulate({"players": 2}, ("greedy", "random"), deals=50, seed=3)
    pd.testing.assert_frame_equal(a.frame, b.frame)
    assert a.summary.to_dict()["sides"][0]["policy"] == "greedy"
    assert simulate(2, "random", deals=10, keep_frame=False).frame is None


@pytest.mark.parametrize("kwargs, words", [
    (dict(deals=0), "deals"),
    (dict(deals=-3), "deals"),
    (dict(deals=2.5), "deals"),
    (dict(deals="10"), "deals"),
    (dict(policies=["bogus"]), "unknown policy 'bogus'"),
    (dict(policies=["random"] * 3), "3 policies"),
    (dict(threads=0), "threads"),
    (dict(threads=10 ** 6), "threads"),
    (dict(seed=-1), "seed"),
    (dict(policies=["solver", "random"]), "solver"),
    (dict(rules={"players": 5}), "players"),
    (dict(rules={"players": 6, "deck": "rapida20"}), "rapida20"),
])
def test_bad_input(kwargs, words, tmp_path):
    args = dict(rules=Rules(players=2), policies="random", deals=10, out=tmp_path / "x.parquet")
    args.update(kwargs)
    rules = args.pop("rules")
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        simulate(rules, **args)
    assert os.listdir(tmp_path) == []


def test_unwritable_output(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="cannot write output"):
        simulate(2, "random", deals=10, out=tmp_path / "file" / "x.parquet")
    with pytest.raises(ValueError, match="directory"):
        simulate(2, "random", deals=10, out=tmp_path)
    assert os.listdir(tmp_path) == ["file"]


def test_engine_status_raises_and_leaves_no_file(tmp_path, monkeypatch):
    real = E.play_batch

    def buggy(rules, deck, seed, row0, m, *rest):
        real(rules, deck, seed, row0, m, *rest)
        if row0 >= 100:
            rest[3][5, E.R_STATUS] = 1  # res row 5 of this chunk
    monkeypatch.setattr(E, "play_batch", buggy)
    with pytest.raises(RuntimeError, match="row 105.*illegal action"):
        simulate(2, "random", deals=300, chunk=100, out=tmp_path / "x.parquet", tricks_out=tmp_path / "t.parquet")
    assert os.listdir(tmp_path) == []


def _interrupt_at_row(monkeypatch, row):
    """The engine's batches raise KeyboardInterrupt (Ctrl-C) from deal ``row`` on."""
    real = E.play_batch

    def interrupted(rules, deck, seed, row0, m, *rest):
        if row0 >= row:
            raise KeyboardInterrupt
        real(rules, deck, seed, row0, m, *rest)
    monkeypatch.setattr(E, "play_batch", interrupted)


def test_interrupt_keeps_an_existing_file(tmp_path, monkeypatch):
    (tmp_path / "x.parquet").write_text("old")  # an existing file is replaced only on success
    _interrupt_at_row(monkeypatch, 200)
    with pytest.raises(KeyboardInterrupt):
        simulate(2, "random", deals=1000, chunk=100, out=tmp_path / "x.parquet")
    assert os.listdir(tmp_path) == ["x.parquet"] and (tmp_path / "x.parquet").read_text() == "old"


def test_interrupt_removes_the_directories_it_made(tmp_path, monkeypatch):
    """Break-it pass (2026-12-01): with two outputs in directories the run made, an interrupted run
    left an empty directory (the first output's cleanup met the second's temporary file there). (Since
    the sixth part of 2026-12-06 a run interrupted after a chunk keeps it: the signal comes in the first
    chunk here, after the warm-up's one-row batch.)"""
    real = E.play_batch

    def interrupted(rules, deck, seed, row0, m, *rest):
        if m > 1:
            raise KeyboardInterrupt
        real(rules, deck, seed, row0, m, *rest)
    monkeypatch.setattr(E, "play_batch", interrupted)
    (tmp_path / "keep").mkdir()
    for out, tricks in (("new/a.parquet", "new/t.parquet"), ("new/s/a.parquet", "new/t/t.parquet"),
                        ("keep/new/a.parquet", "keep/t.parquet")):
        with pytest.raises(KeyboardInterrupt):
            simulate(2, "random", deals=1000, chunk=100, out=tmp_path / out, tricks_out=tmp_path / tricks)
        assert sorted(os.listdir(tmp_path)) == ["keep"] and os.listdir(tmp_path / "keep") == [], out


def test_interrupt_after_chunks_keeps_them_in_the_directories_it_made(tmp_path, monkeypatch):
    """The same run interrupted at row 200: its two chunks are written, marked incomplete, in the
    directories the run made (which stay)."""
    _interrupt_at_row(monkeypatch, 200)
    with pytest.raises(KeyboardInterrupt) as e:
        simulate(2, "random", deals=1000, chunk=100, out=tmp_path / "new/s/a.parquet",
                 tricks_out=tmp_path / "new/t/t.parquet")
    assert e.value.kept_rows == 200 and e.value.kept_files
    assert sorted(os.listdir(tmp_path / "new")) == ["s", "t"]
    assert os.listdir(tmp_path / "new/s") == ["a.parquet"] and os.listdir(tmp_path / "new/t") == ["t.parquet"]
    md = read_metadata(tmp_path / "new/s/a.parquet")
    assert (md["rows"], md["total"], md["complete"]) == (200, 1000, False)


def test_solver_policy_needs_selfplay(monkeypatch):
    """Policy 'solver' with solver.selfplay not importable: a ValueError naming it, not the bare ImportError
    (the module is made unimportable here: the test was skipped whenever it imports, that is always)."""
    import sys
    monkeypatch.setitem(sys.modules, "solver.selfplay", None)  # (import of it raises ImportError)
    with pytest.raises(ValueError, match=r"policy 'solver' needs solver\.selfplay\.play_open_batch"):
        simulate(2, "solver", deals=1)


def test_solver_rows_come_from_play_open_batch(monkeypatch):
    import sys
    import types

    from sim.policies import POLICIES
    calls = []

    def play_open_batch(rules, seed, row0, m, rotations, res, hands0, dseeds, tricks, rec):
        calls.append((row0, m, rotations))  # stand-in for the oracle: greedy on every seat
        pol = np.full(rules.players, POLICIES.index("greedy"), np.int64)
        E.play_batch(rules.to_array(), np.array(rules.deck_cards, np.int8), seed, row0, m, rotations, pol,
                     np.zeros((rules.players, 4)), res, hands0, dseeds, tricks, rec)

    warm = []
    fake = types.ModuleType("solver.selfplay")
    fake.play_open_batch = play_open_batch
    fake.warm_up = lambda rules: warm.append(rules.players)
    monkeypatch.setitem(sys.modules, "solver.selfplay", fake)
    r = simulate(2, "solver", deals=50, seed=4, chunk=20, duplicate=True)
    g = simulate(2, "greedy", deals=50, seed=4, duplicate=True)
    assert (r.frame.policy_0 == "solver").all() and (r.frame.policy_1 == "solver").all()
    cols = [c for c in g.frame if not c.startswith("policy_")]
    pd.testing.assert_frame_equal(r.frame[cols], g.frame[cols])
    # the warm-up is solver.selfplay.warm_up on a cheap position, not a deal played twice (minutes with 6 players)
    assert warm == [2] and calls == [(0, 20, 2), (20, 20, 2), (40, 20, 2), (60, 20, 2), (80, 20, 2)]
    assert r.summary.to_dict()["sides"][0]["policy"] == "solver"


def test_read_metadata_names_what_is_wrong(tmp_path):
    """Break-it pass (2026-12-05): read_metadata passed pyarrow's errors through (ArrowInvalid: Parquet
    magic bytes not found in footer; TypeError for None). Now FileNotFoundError for a missing file and
    a ValueError naming the file for anything that is not a parquet file; a parquet file brisca did not
    write gives {}."""
    import pandas as pd
    with pytest.raises(FileNotFoundError, match="nope.parquet"):
        read_metadata(tmp_path / "nope.parquet")
    (tmp_path / "x.jsonl").write_text('{"a": 1}\n')
    (tmp_path / "empty.parquet").write_bytes(b"")
    for name in ("x.jsonl", "empty.parquet"):
        with pytest.raises(ValueError, match=f"{name}: not a parquet file"):
            read_metadata(tmp_path / name)
    with pytest.raises(ValueError, match="is a directory"):
        read_metadata(tmp_path)
    for bad in (None, 3):
        with pytest.raises(ValueError, match="^path: expected a parquet file name"):
            read_metadata(bad)
    pd.DataFrame({"a": [1]}).to_parquet(tmp_path / "plain.parquet")
    assert read_metadata(str(tmp_path / "plain.parquet")) == {}
    # second break-it pass: a damaged footer (pyarrow's OSError), a FIFO (blocked for ever), a symlink loop
    # (said "no such file"), a NUL in the name, a brisca.* value that is not JSON
    (tmp_path / "damaged.parquet").write_bytes(b"PAR1" + b"\0" * 20 + b"\x05\0\0\0PAR1")
    with pytest.raises(ValueError, match="damaged.parquet: not a parquet file"):
        read_metadata(tmp_path / "damaged.parquet")
    os.mkfifo(tmp_path / "f.parquet")
    with pytest.raises(ValueError, match="f.parquet: not a regular file"):
        read_metadata(tmp_path / "f.parquet")
    os.symlink(tmp_path / "a", tmp_path / "b")
    os.symlink(tmp_path / "b", tmp_path / "a")
    with pytest.raises(OSError) as e:
        read_metadata(tmp_path / "a")
    assert e.value.errno == errno.ELOOP
    with pytest.raises(ValueError, match="is not a file name"):
        read_metadata("x\0.parquet")
    import pyarrow as pa
    pq.write_table(pa.table({"a": [1]}).replace_schema_metadata({"brisca.x": "not json"}), tmp_path / "bad.parquet")
    with pytest.raises(ValueError, match="bad.parquet: metadata key 'brisca.x' is not JSON"):
        read_metadata(tmp_path / "bad.parquet")
    # third break-it pass: deeply nested metadata (RecursionError), bytes names, a name that is not UTF-8
    pq.write_table(pa.table({"a": [1]}).replace_schema_metadata({"brisca.x": "[" * 100000 + "]" * 100000}),
                   tmp_path / "deep.parquet")
    with pytest.raises(ValueError, match="deep.parquet: metadata key 'brisca.x' is not JSON"):
        read_metadata(tmp_path / "deep.parquet")
    good = tmp_path / "good.parquet"
    pq.write_table(pa.table({"a": [1]}).replace_schema_metadata({"brisca.table": '"solve"'}), good)
    odd = os.fsencode(tmp_path) + b"/odd\xff.parquet"
    os.link(good, odd)
    assert read_metadata(os.fsencode(good)) == read_metadata(odd) == read_metadata(os.fsdecode(odd)) \
        == {"table": "solve"}
    with pytest.raises(FileNotFoundError):
        read_metadata(b"x.parquet")
