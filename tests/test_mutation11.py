"""Mutation testing, eleventh pass (helper, 2026-12-06): sim/engine.py (the jitted deal and batch kernels),
sim/rng.py, sim/bits.py, sim/paths.py and the Python of benchmarks/open_values.py, benchmarks/_common.py,
benchmarks/bench_solver.py and benchmarks/bench_solve_file.py.

33 hand-made mutants, one at a time, each run against the tests that touch its module. Most rule
mutants of the engine (R3 trump2 removal, R5 trick winner wrap, R6 draws, R7 won-trick side and exchange
bits, R8 capote, R9 obligations) are killed by test_conformance.py's
replays through tests/oracle.py and test_engine2.py; ``ncards - dp >= 2`` as ``>= 1`` (R7's face-down card)
is equivalent (the stock, pinta included, always holds a multiple of the players). The survivors were what
no deal outcome shows: the view's pinta seat and V_KNOWN after the last draw, the --duplicate rotation's
direction with 3-4 players, sim.rng's below/uniform (no kernel calls them) and below32's flag bit, the
_common helpers' long last line, file modes and last chunk (that one aborted a benchmark test
instead of failing it), open_values' chunk size and seed 2**63, bench_solver's first guess and all-moves value,
and the inline random policy's exchange slot
(killed by test_engine2 only on a fresh numba cache: its cached ``_run`` keeps the old kernels after an
edit of sim/engine.py).

Each test below failed on at least one of those mutants (named in its docstring) and passes on the code.
Expected values come from RULES.md (R6: the pinta is drawn last, by the seat before the trick's winner),
sim/view.py's field documentation, the docstrings (rotation ``k`` gives seat ``s`` the policy of seat
``(s + k) % players``; "half the points left"; a new file gets the mode a plain open would), a plain-Python
splitmix64 (its published outputs are checked in test_conformance.py) and its inverse, never from the
function under test.
"""
from __future__ import annotations

import numpy as np
import pytest

import oracle

from sim import view as V
from sim.rules import P_TRICKS, Rules

_M64 = 2 ** 64 - 1


_splitmix64 = oracle.splitmix64


# ----------------------------------------------------------------- sim.engine: the view when the stock runs out
def _play_one(rules, policies, dseed, ntricks=None):
    """Play one deal with sim.engine.play_deal (or play_deal2 for two players) on fresh scratch arrays,
    stopping after ``ntricks`` tricks (all by default). Returns (view, hands, order, res row, tricks)."""
    from sim import engine as E
    from sim.policies import N_PARAMS, POLICIES

    n = rules.players
    ra = rules.to_array()
    if ntricks is not None:
        ra[P_TRICKS] = ntricks
    deck = np.array(rules.deck_cards, np.int8)
    pol = np.array([POLICIES.index(p) for p in policies], np.int64)
    par = np.zeros((n, N_PARAMS), np.float64)
    view = np.zeros(V.V_SIZE, np.int64)
    hands = np.zeros(8, np.int64)
    order = np.zeros(48, np.int8)
    rng = np.zeros(1, np.uint64)
    prng = np.zeros(2, np.uint64)
    res = np.zeros((1, E.R_SIZE), np.int16)
    tricks = np.zeros((1, rules.tricks, E.T_SIZE), np.int16)
    if n == 2:
        E.play_deal2(ra, deck, np.uint64(dseed), pol, par, view, order, rng, prng, res, 0, tricks, True)
    else:
        E.play_deal(ra, deck, np.uint64(dseed), pol, par, view, hands, order, rng, prng, res, 0, tricks, True)
    return view, hands, order, res[0], tricks[0]


def _last_draw_trick(rules):
    """Index of the trick after which the stock (the pinta last) is drawn out: 3 cards a seat are dealt
    (R4), then one card a seat after every trick (R6)."""
    return (rules.ncards - 3 * rules.players) // rules.players - 1


@pytest.mark.parametrize("players,policies,variant", [
    (3, ["greedy"] * 3, {}), (4, ["greedy", "random", "greedy", "random"], {}), (6, ["greedy"] * 6, {}),
    (2, ["greedy", "greedy"], {}), (2, ["greedy", "random"], {"endgame": "follow"})])
def test_view_names_the_seat_that_drew_the_pinta(players, policies, variant):
    """V_PINTA_SEAT (sim/view.py: "the seat that drew it (R6)") after the stock runs out is the seat before
    the last drawing trick's winner (R6: the pinta is drawn last, by the seat before the winner), and it is
    the seat that later plays the pinta (the card in the pinta slot of ``order`` after any exchange, R7);
    V_KNOWN of that seat holds the pinta while it is in the hand (stopped right after the last draw).
    Mutants: play_deal's ``s = wseat - 1`` as ``wseat + 1`` (3-6 players), play_deal2's ``s = wseat ^ 1``
    as ``s = wseat`` (two players, a policy that reads the view), and the V_KNOWN update dropped; every
    deal outcome is unchanged, so the rest of the suite passed."""
    rules = Rules(players=players, **variant)
    tl = _last_draw_trick(rules)
    from sim.rng import deal_seed
    for d in range(12):
        ds = int(deal_seed(11, d))
        view, hands, order, res, tr = _play_one(rules, policies, ds)
        assert res[13] == 0  # R_STATUS ok
        w = int(tr[tl, 1])  # T_WINNER of the last drawing trick
        want = (w - 1) % players
        assert view[V.V_PINTA_SEAT] == want, (d, w)
        pinta = int(order[rules.ncards - 1])
        player = [s for t in range(rules.tricks) for j in range(players)
                  if tr[t, 3 + j] == pinta for s in [(int(tr[t, 0]) + j) % players]]
        assert player == [want], (d, player, want)
        if players == 2 and not variant:
            continue  # (play_deal2_default has the 20 tricks as a constant: it cannot stop early)
        # stopped right after that trick: the seat holds the pinta and every seat knows it
        view, hands, order, res, tr = _play_one(rules, policies, ds, ntricks=tl + 1)
        pinta = int(order[rules.ncards - 1])
        assert view[V.V_PINTA_SEAT] == want and view[V.V_LEFT] == 0, d
        assert (int(view[V.V_KNOWN + want]) >> pinta) & 1, d
        if players > 2:
            assert (int(hands[want]) >> pinta) & 1, d


# ----------------------------------------------------------------- sim.engine: --duplicate rotations
@pytest.mark.parametrize("players,policies", [(3, ["random", "greedy", "counter"]),
                                              (4, ["random", "greedy", "counter", "greedy"])])
def test_duplicate_rotation_k_gives_seat_s_the_policy_of_seat_s_plus_k(players, policies, engine):
    """play_batch's docstring: rotation ``k`` gives seat ``s`` the policy of seat ``(s + k) % players``, and row
    ``r`` is deal ``r // rotations`` with rotation ``r % rotations``. So row ``rot * d + k`` of a duplicate run
    is row ``d`` of a plain run with the policies listed rotated by ``k``. Mutant: _start_row's
    ``src = s + k`` as ``s + n - k`` (the other direction; the same with two players, so the 2-player
    duplicate test passed)."""
    rules = Rules(players=players)
    rot = rules.sides
    m = 40
    dup = engine(rules, policies, seed=5, m=rot * m, rotations=rot)
    for k in range(rot):
        turned = [policies[(s + k) % players] for s in range(players)]
        plain = engine(rules, turned, seed=5, m=m)
        for key in ("res", "tricks", "hands0", "dseeds"):
            assert np.array_equal(dup[key][k::rot], plain[key]), (k, key)


# ----------------------------------------------------------------- benchmarks/_common
def _common():
    """benchmarks/_common as bench_solve_file imports it (the scripts are not a package)."""
    from conftest import bench_script
    bench_script("bench_solve_file")  # (puts benchmarks/ first on sys.path)
    import _common
    return _common


def test_check_out_jsonl_reads_a_long_last_line_whole(tmp_path):
    """check_out(jsonl=True): an existing file whose last line is a JSON object ending with a newline may be
    appended to, however long that line (its docstring; a benchmark record with machine facts is 300-600
    characters). Mutant: _not_json_lines reading only the last 16 bytes instead of 64 KB (every test file's
    last line was shorter... or refused anyway)."""
    c = _common()
    rec = '{"config": "2p-full", "note": "' + "x" * 3000 + '"}\n'
    for text in (rec, '{"a": 1}\n' + rec, rec + rec):
        p = tmp_path / "long.jsonl"
        p.write_text(text)
        assert c.check_out(str(p), jsonl=True) is None
    p.write_text(rec[:-2] + "\n")  # the same line cut: not a JSON object
    assert "not a JSON object" in c.check_out(str(p), jsonl=True)


# ----------------------------------------------------------------- sim.rng: the helpers no kernel calls yet
def test_rng_below_and_uniform_follow_their_docstrings():
    """sim.rng.below: "uniform int in [0, n) (multiply-shift on the high 32 bits)" of the next splitmix64
    output; sim.rng.uniform: "uniform float64 in [0, 1)", the top 53 bits of the next output times 2**-53
    (the standard conversion). Checked draw by draw against a plain-Python splitmix64, and by the spread of
    many draws. Mutants: ``below`` on the low 32 bits, ``uniform`` shifting by 12 (every value below 0.5);
    no kernel calls either, so no other test noticed."""
    from sim.rng import below, uniform
    s, st = 987654321, np.array([987654321], np.uint64)
    for k in range(300):
        n = 1 + (k * 7919) % 48
        s, x = _splitmix64(s)
        assert int(below(st, n)) == ((x >> 32) * n) >> 32, k
        s, x = _splitmix64(s)
        assert float(uniform(st)) == (x >> 11) / 2.0 ** 53, k
    u = np.array([uniform(st) for _ in range(20000)])
    assert u.min() >= 0.0 and u.max() < 1.0 and u.max() > 0.99 and abs(u.mean() - 0.5) < 0.01


def test_write_atomic_gives_the_mode_a_plain_open_would(tmp_path):
    """write_atomic's docstring and comment: the result gets the mode a plain ``open`` would give, i.e. an
    existing file keeps its mode and a new one is 0o666 less the umask (mkstemp's file is 0o600).
    Mutants: the new file's mode as a fixed 0o644 (the same under the usual umask 022), and an existing
    file's mode replaced by 0o644."""
    import os
    import stat
    c = _common()
    old = os.umask(0o077)
    try:
        new = tmp_path / "new.parquet"
        c.write_atomic(str(new), lambda tmp: open(tmp, "w").write("x"))
        assert stat.S_IMODE(new.stat().st_mode) == 0o600 and new.read_text() == "x"
        os.umask(0o002)
        new2 = tmp_path / "new2.parquet"
        c.write_atomic(str(new2), lambda tmp: open(tmp, "w").write("y"))
        assert stat.S_IMODE(new2.stat().st_mode) == 0o664
    finally:
        os.umask(old)
    kept = tmp_path / "kept.parquet"
    kept.write_text("old")
    kept.chmod(0o640)
    c.write_atomic(str(kept), lambda tmp: open(tmp, "w").write("new"))
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640 and kept.read_text() == "new"


# ----------------------------------------------------------------- benchmarks/open_values (solver faked)
def _fake_open_values(monkeypatch):
    """benchmarks/open_values with the solver replaced by a stand-in that books deal ``d`` as pinta d % 40,
    seat 0 taking 60 + d % 3 points; returns (module, the written chunks' lengths)."""
    from conftest import bench_script
    from sim.engine import R_NEX, R_PINTA, R_SIDE_POINTS, R_TRUMP, R_WINNER
    ov = bench_script("open_values")
    writes = []

    def fake_play(rules, seed, row0, m, rot, res, h0, ds, tr, rec):
        for i in range(m):
            d = row0 + i
            p0 = 60 + d % 3
            res[i, R_PINTA], res[i, R_TRUMP] = d % 40, (d % 40) // 12
            res[i, R_SIDE_POINTS], res[i, R_SIDE_POINTS + 1] = p0, 120 - p0
            res[i, R_WINNER], res[i, R_NEX] = (-1 if p0 == 60 else 0), 0

    real_write = ov.write_atomic

    def counting_write(path, write):
        writes.append(1)
        real_write(path, write)

    monkeypatch.setattr(ov, "play_open_batch", fake_play)
    monkeypatch.setattr(ov, "warm_up", lambda rules: None)
    monkeypatch.setattr(ov, "write_atomic", counting_write)
    return ov, writes


def test_open_values_chunks_are_50_deals_or_2_per_thread(tmp_path, monkeypatch, capsys):
    """open_values' --minutes help: "checked between chunks of 50 deals or 2 per thread" (the file is
    rewritten after every chunk). 300 deals: 6 chunks with 1 thread, 3 chunks of 100 with 50 threads.
    Mutant: ``max(50, a.threads)`` (1 per thread)."""
    import pandas as pd
    ov, writes = _fake_open_values(monkeypatch)
    out = tmp_path / "one.parquet"
    ov.main(["--deals", "300", "--seed", "4", "--out", str(out), "--no-progress"])
    assert len(writes) == 6
    writes.clear()
    out = tmp_path / "many.parquet"
    ov.main(["--deals", "300", "--seed", "4", "--threads", "50", "--out", str(out), "--no-progress"])
    assert len(writes) == 3
    df = pd.read_parquet(out)
    assert list(df["deal"]) == list(range(300)) and list(df["first_points"]) == [60 + d % 3 for d in range(300)]


@pytest.mark.parametrize("seed", [2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1])
def test_open_values_keeps_every_uint64_seed(seed, tmp_path, monkeypatch, capsys):
    """--seed: "0 <= seed < 2**64"; the file's seed column holds it exactly and a second run continues it.
    Mutant: the uint64 column only for seeds above 2**63 (seed 2**63 overflowed an int64 column)."""
    import pandas as pd
    ov, _ = _fake_open_values(monkeypatch)
    out = tmp_path / "s.parquet"
    ov.main(["--deals", "3", "--seed", str(seed), "--out", str(out), "--no-progress"])
    ov.main(["--deals", "5", "--seed", str(seed), "--out", str(out), "--no-progress"])
    df = pd.read_parquet(out)
    assert [int(x) for x in df["seed"]] == [seed] * 5 and list(df["deal"]) == [0, 1, 2, 3, 4]


# ----------------------------------------------------------------- benchmarks/bench_solver
def test_bench_solver_first_guess_is_half_the_points_left():
    """bench_solver's default first guess is "half the points left" (_guess_label, the module docstring):
    (120 - the points already taken) // 2 for a position with no trick under way (R2: 120 points in all).
    Mutant: ``points_left // 3``."""
    from conftest import bench_script
    bench = bench_script("bench_solver")
    for config in ("2p-4left", "4p-4left", "2p-full"):
        for p in bench.positions(config, 4, 3):
            st = p.to_arrays()[0]
            assert not p.trick
            assert bench._guess(st, None) == (120 - sum(p.points)) // 2, str(p)
            assert bench._guess(st, 17) == 17


def test_bench_solver_all_moves_value_is_the_positions_value():
    """bench_solver.run with all_moves: a position's value is its best move's value (the value of the
    position), so the record's mean_value equals the plain run's over the same positions. Mutant: the
    all-moves value as the worst move's (``vals[:k].min()``)."""
    from conftest import bench_script
    from solver import search as S
    bench = bench_script("bench_solver")
    flags = S.default_flags()
    a = bench.run("2p-4left", 6, 2, flags)
    b = bench.run("2p-4left", 6, 2, flags, all_moves=True)
    assert a["deals"] == b["deals"] == 6 and b["config"] == "2p-4left-allmoves"
    assert a["mean_value"] == b["mean_value"], (a["mean_value"], b["mean_value"])


def _unmix64(x):
    """Inverse of the splitmix64 finalizer (sim.rng.mix64): xor-shifts undone by iteration, the multiplies by
    the modular inverses."""
    def unxorshift(y, k):
        z = y
        for _ in range(64 // k + 1):
            z = y ^ (z >> k)
        return z
    x = unxorshift(x, 31)
    x = (x * pow(0x94D049BB133111EB, -1, 2 ** 64)) & _M64
    x = unxorshift(x, 27)
    x = (x * pow(0xBF58476D1CE4E5B9, -1, 2 ** 64)) & _M64
    return unxorshift(x, 30)


def test_rng_below32_spends_a_draw_whose_high_half_is_zero_in_two_calls():
    """below32's docstring: each 64-bit draw serves two calls, the low half first; the buffer's flag bit
    tells a buffered high half of 0 from an empty buffer. A stream state whose next output has a zero high
    half (made with the inverse finalizer, one state in 2**32) gives the low half's value, then 0 from the
    buffer, then the next draw. Mutant: the flag bit ``1 << 63`` dropped (the zero high half was then taken
    for an empty buffer and a new draw made: one call in 2**32, which no sampled test meets)."""
    from sim.rng import below32, mix64
    x = 0x00000000_9E3779B9  # high half 0
    z = _unmix64(x)
    assert int(mix64(np.uint64(z))) == x  # (the inverse is right)
    s = (z - 0x9E3779B97F4A7C15) & _M64
    st = np.array([s, 0], np.uint64)
    assert int(below32(st, 40)) == ((x & 0xFFFFFFFF) * 40) >> 32
    assert int(below32(st, 40)) == 0
    s, x2 = _splitmix64(z)
    assert int(below32(st, 37)) == ((x2 & 0xFFFFFFFF) * 37) >> 32
    assert int(below32(st, 37)) == ((x2 >> 32) * 37) >> 32


# ----------------------------------------------------------------- sim.engine: the inline random policy
@pytest.mark.parametrize("players,exchange", [(3, "seven-two"), (4, "seven-two"), (4, "two-any")])
def test_random_policy_exchanges_in_the_general_kernel(players, exchange, engine):
    """sim.policies.random_action: "uniform over the legal cards plus the exchange when eligible"; play_deal
    plays it inline (_random_pick). Over 1500 deals the random seats exchange (R7) now and then, each
    exchange booked with a 7 or 2 of trumps given up. Mutant: _random_pick drawing over the legal cards
    only (``k`` for ``k + 1``: never an exchange). test_engine2's comparison with play_deal2 would see it,
    but its own jitted ``_run`` is cached by numba, which does not notice an edit of sim/engine.py (a stale
    cache replayed the old kernels and passed)."""
    from sim.engine import R_EX, R_NEX, R_TRUMP
    res = engine(Rules(players=players, exchange=exchange), "random", seed=21, m=1500, rec=False)["res"]
    assert (res[:, 13] == 0).all()
    nex = res[:, R_NEX]
    assert nex.sum() > 20, nex.sum()
    for row in res[nex > 0]:
        for k in range(int(row[R_NEX])):
            c = oracle.from_engine_id(int(row[R_EX + 3 * k + 1]))  # the 2 or the 7 of trumps given up
            ranks = (oracle.card("2O").rank, oracle.card("7O").rank)
            assert c.suit == oracle.SUITS[row[R_TRUMP]] and c.rank in ranks, row


def test_timed_in_chunks_calls_cover_the_items_once():
    """timed_in_chunks' docstring: ``run(start, count)`` over items 0..total-1 in chunks of at most ``chunk``
    items. Mutant: every call asks for a whole ``chunk`` (the last one past the end: the benchmark kernels
    then wrote past their arrays and the process aborted, rather than a test failing)."""
    c = _common()
    for total, chunk, want in ((10, 4, [(0, 4), (4, 4), (8, 2)]), (8, 4, [(0, 4), (4, 4)]), (3, 5, [(0, 3)]),
                               (1, 1, [(0, 1)])):
        calls = []
        wall, cpu = c.timed_in_chunks(total, chunk, lambda s, n: calls.append((s, n)))
        assert calls == want and wall >= 0 and cpu >= 0, (total, chunk, calls)
