"""Mutation pass 27 (2026-12-07) on solver/api.py, solver/selfplay.py and the Python parts of solver/chance.py:
solve, solve_many and its kept thread pool, release_workers, check_workspace, SolveResult.to_dict, the argument
checks and their messages, play_open_batch / play_open_deal, solve_chance. Each test kills hand-made mutants
that the suite let live (named in its docstring). Where the solver itself is not the point, solve is replaced by
a stand-in: seconds in all."""
import threading
import time
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from conftest import first_moves_play

EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"


def _brisca_solve_threads():
    return [t for t in threading.enumerate() if t.name.startswith("brisca-solve")]


@pytest.fixture
def echo(monkeypatch):
    """solve_many's solve replaced by one that returns its position (no search)."""
    import solver.api as api
    monkeypatch.setattr(api, "solve", lambda p, *a, **kw: p)
    api.release_workers()
    yield api
    api.release_workers()


def test_solve_many_runs_one_loop_on_each_of_its_threads(monkeypatch, echo):
    """threads=3 and three positions: the three are solved at once, each on its own worker (a barrier of 3
    passes). Mutant: _submit_kept submits threads - 1 loops (the barrier breaks)."""
    barrier = threading.Barrier(3, timeout=5)

    def together(p, *a, **kw):
        barrier.wait()
        return p

    monkeypatch.setattr(echo, "solve", together)
    assert echo.solve_many(["a", "b", "c"], threads=3) == ["a", "b", "c"]


def test_the_pool_is_kept_grown_and_released(echo):
    """One pool a process, grown to the largest threads asked for, kept for smaller calls; release_workers
    returns its size and leaves nothing behind. Mutants: the pool never grown (`_pool[1] < threads` dropped),
    replaced at an equal size (`<=`), the replaced pool not kept for release_workers, release_workers keeping
    the pool object or the retired list."""
    api = echo
    assert api.solve_many(["a", "b"], threads=2) == ["a", "b"]
    p2 = api._pool[0]
    api.solve_many(["a", "b"], threads=2)
    assert api._pool[0] is p2 and api._pool[1] == 2 and api._retired == []
    assert api.solve_many(["a", "b", "c"], threads=3) == ["a", "b", "c"]
    assert api._pool[1] == 3 and api._pool[0] is not p2 and api._retired == [p2]
    p3 = api._pool[0]
    api.solve_many(["a", "b"], threads=2)
    assert api._pool[0] is p3 and api._pool[1] == 3
    assert api.release_workers() == 3
    assert api._pool == [None, 0] and api._retired == []


def test_solve_many_takes_no_more_threads_than_positions(echo):
    """threads is capped at the number of positions, at least 1: one position is solved in the calling thread
    and none starts no pool. Mutants: the cap dropped (`check_threads(threads)`), `min(.., n)` without
    max(1, ..) (ThreadPoolExecutor(max_workers=0) for no positions)."""
    seen = []
    api = echo
    api_solve = api.solve
    api.solve = lambda p, *a, **kw: seen.append(threading.current_thread()) or p
    try:
        assert api.solve_many(["a"], threads=4) == ["a"]
        assert api.solve_many([], threads=4) == []
    finally:
        api.solve = api_solve
    assert seen == [threading.current_thread()] and api._pool == [None, 0]


def test_check_workspace_layout_bounds():
    """check_workspace takes new_workspace(2) (4 entries: one bucket of TT_WAYS) and returns a tuple; refuses 7
    buffers, a read-only one, 15 counters, moves rows shorter than MAXM. Mutants: `entries > TT_WAYS`,
    `len(ws) >= 6`, the writeable check dropped, 1 counter enough, 1 move a row enough, `return ws`."""
    from solver.api import check_workspace
    from solver.search import MAXD, MAXM, new_workspace
    ws = new_workspace(2)
    assert check_workspace(list(ws)) == ws and type(check_workspace(list(ws))) is tuple
    bad = [ws + (ws[5],)]
    ro = ws[5].copy()
    ro.flags.writeable = False
    bad.append(ws[:5] + (ro,))
    bad.append(ws[:5] + (np.zeros(15, np.int64),))
    bad.append(ws[:4] + (np.zeros((MAXD, MAXM - 1), np.int64), ws[5]))
    for b in bad:
        with pytest.raises(ValueError, match="^ws: expected the 6 search buffers"):
            check_workspace(b)


def test_to_dict_rounds_ms_and_copies_the_lists():
    """to_dict: ms rounded to 3 decimals, best and pv new lists. Mutants: ms not rounded, best the result's
    own list."""
    from solver.api import SolveResult
    r = SolveResult(position="p", value=3, best=["1O"], pv=["1O"], ms=1.23456789)
    d = r.to_dict()
    assert d["ms"] == 1.235 and d["best"] == ["1O"] and d["best"] is not r.best and d["pv"] is not r.pv


def test_not_a_position_names_its_type_only():
    """Mutant: the message shows the value (`{position!r}`) instead of its type's name."""
    from solver import solve
    with pytest.raises(ValueError, match="^position: expected a Position or a string, got int$"):
        solve(12345)


def test_check_target_edges_and_messages():
    """check_target: Decimal 1E+19 refused by its exponent, shown as given; True, 26.5 as a Fraction and a
    Decimal refused; a 101-bit int shown whole (cut to its bit count only past 4000 bits). Mutants: the
    Decimal bound at 1E+20, the Decimal wholeness check dropped, the bool check dropped,
    `denominator == 0`, the bit-count form past 40 bits."""
    from solver.api import check_target
    with pytest.raises(ValueError, match=r"^target: 1E\+19 is out of range \(an int64\)$"):
        check_target(Decimal("1E+19"))
    for bad in (True, Fraction(53, 2), Decimal("26.5")):
        with pytest.raises(ValueError, match="^target: expected a whole number of card points, got "):
            check_target(bad)
    with pytest.raises(ValueError, match=f"^target: {2 ** 100} is out of range"):
        check_target(2 ** 100)
    assert check_target(Fraction(52, 2)) == 26 and check_target(Decimal("-26")) == -26


def test_solve_seat_win_and_target_arguments():
    """solve: seat 2 of two players refused; target with win names the target; win for another seat takes that
    seat's points (seat 0 holds 62: target -1, reached without a search); target 0 is decided without a search.
    Mutants: seat bound players + 1, the message's `(got target=..)` dropped, win's target from the mover's
    points, `target < 0` (target 0 searched)."""
    from solver import solve
    with pytest.raises(ValueError, match="^seat: "):
        solve(EX, win=True, seat=2)
    with pytest.raises(ValueError, match=r"^target: give a target or win=True, not both \(got target=26\)$"):
        solve(EX, 26, win=True)
    r = solve(EX, win=True, seat=0)
    assert (r.target, r.reached, r.seat, r.nodes) == (-1, True, 0, 0)
    r = solve(EX, 0)
    assert (r.target, r.reached, r.nodes) == (0, True, 0)


def test_solve_ms_leaves_out_the_table_allocation(monkeypatch):
    """ms leaves out a thread's first allocation of its table (the time workspace() takes). Mutant: the
    `t0 += ...` correction dropped (a workspace() of 0.3 s counted)."""
    import solver.api as api
    from solver import solve
    real = api.workspace
    solve(EX, pv=False)  # (a cold numba cache compiles the kernels here, not inside the timed solve)

    def slow():
        time.sleep(0.3)
        return real()

    monkeypatch.setattr(api, "workspace", slow)
    assert solve(EX, pv=False).ms < 250


def test_solve_many_refuses_bytes_and_says_to_wrap():
    """Mutants: bytes taken as an iterable (each byte a position), the `(wrap it in a list)` hint dropped."""
    from solver import solve_many
    for bad, name in ((EX.encode(), "bytes"), (EX, "str")):
        with pytest.raises(ValueError, match=rf"^positions: expected an iterable of positions, got a single "
                                             rf"{name} \(wrap it in a list\)$"):
            solve_many(bad)


def test_solve_many_checks_seat_once_for_the_call(echo):
    """A seat that is not an integer is the call's error, raised even with errors="return" (not returned once
    a position). Mutant: solve_many's check_int(seat) dropped."""
    with pytest.raises(ValueError, match="^seat: "):
        echo.solve_many(["a", "b"], target=30, seat="1", errors="return")


def test_solve_many_stops_handing_out_positions_after_a_failure(monkeypatch, echo):
    """After a position fails, each worker stops after the position it is on. Mutant: the loops' `state["stop"]`
    check dropped (every later position still solved, then the error raised)."""
    failed, calls = threading.Event(), []

    def fake(p, *a, **kw):
        calls.append(p)
        if p == "bad":
            failed.set()
            raise ValueError("trump: missing (required)")
        failed.wait(5)
        time.sleep(0.2)  # (the failing loop has set stop by now)
        return p

    monkeypatch.setattr(echo, "solve", fake)
    with pytest.raises(ValueError, match=r"^positions\[0\]: trump: missing"):
        echo.solve_many(["bad"] + [f"x{i}" for i in range(9)], threads=2)
    assert len(calls) <= 3, calls


def test_solve_many_passes_seat_to_each_solve(monkeypatch, echo):
    """Mutant: solve_many's one() calls solve without seat."""
    monkeypatch.setattr(echo, "solve", lambda p, *a, seat=None, **kw: seat)
    assert echo.solve_many(["a", "b"], threads=1, target=30, seat=1) == [1, 1]


def test_analyse_play_messages_name_the_move_and_the_order():
    """analyse_play: an illegal move is `moves[i]: ...` without the `move: ` prefix; a set is refused as not `in
    order`. Mutants: the prefix kept, ` in order` dropped."""
    from solver import analyse_play
    with pytest.raises(ValueError) as e:
        analyse_play(EX, ["3C"])
    assert str(e.value).startswith("moves[0] (trick 15, seat 1 to move): ") and "move: " not in str(e.value), \
        str(e.value)
    with pytest.raises(ValueError, match="^moves: expected a sequence of moves in order, got a set"):
        analyse_play(EX, {"2C"})


def test_solving_thread_ends_cleanly_with_its_caller(monkeypatch):
    """The weakref its dropped _Claim puts on the queue ends the solving thread without an exception. Mutant:
    `if job is None` (the weakref unpacked as a job: a TypeError in the thread)."""
    from solver import selfplay
    hooks, seen = [], []
    monkeypatch.setattr(threading, "excepthook", hooks.append)

    def caller():
        seen.append(selfplay._in_solving_thread(lambda x: x + 1, 1))
        seen.append(selfplay._local.solver)

    t = threading.Thread(target=caller)
    t.start()
    t.join(10)
    seen[1].join(10)
    assert seen[0] == 2 and not seen[1].is_alive() and hooks == []


def test_an_interrupted_wait_lands_at_once_and_gives_up_the_solving_thread():
    """An exception raised into the caller while it waits lands within a step (0.05 s) and drops the busy
    solving thread, so the next call gets a new one. Mutants: waits of 5 s, `_local.solver = _local.claim =
    None` dropped (the next call queued behind the abandoned search)."""
    import ctypes

    from solver import selfplay
    entered, release, seen = threading.Event(), threading.Event(), {}

    def blocker():
        entered.set()
        release.wait(10)
        return "late"

    def caller():
        try:
            selfplay._in_solving_thread(blocker)
        except KeyboardInterrupt:
            seen["landed"] = time.perf_counter()
            seen["solver"] = selfplay._local.solver
            seen["next"] = selfplay._in_solving_thread(lambda: "next")  # (not behind the blocked search)

    t = threading.Thread(target=caller)
    t.start()
    try:
        assert entered.wait(10)
        sent = time.perf_counter()
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(t.ident), ctypes.py_object(KeyboardInterrupt))
        t.join(3)
        assert not t.is_alive()
    finally:
        release.set()
        t.join(10)
    assert seen["solver"] is None and seen["next"] == "next" and seen["landed"] - sent < 1.0, seen


def test_play_open_deal_three_players_value_is_none(monkeypatch):
    """Three players: each seat plays its own paranoid best, so no value (None). Mutant: value 0."""
    from sim.rules import Rules
    from solver import selfplay
    from solver.position import deal_position
    rules = Rules(players=3)
    pos = deal_position(rules, 1, 0)
    while pos.left > 0 or pos.trick or sum(len(h) for h in pos.hands) > 2 * 3:  # (the last two tricks)
        pos = pos.apply(pos.legal_moves()[0])
    monkeypatch.setattr(selfplay, "deal_position", lambda r, s, d: pos)
    r = selfplay.play_open_deal(rules, 1, 0)
    assert r["value"] is None and len(r["moves"]) == 6


def test_fill_row_books_a_tie_as_a_draw():
    """R8: a tie at the top (the replayed tricks give each side 0 points) is a draw, winner -1. Mutant: the
    tie's `winner = -1` dropped (the first side booked as the winner)."""
    from sim.engine import R_SIDE_POINTS, R_SIZE, R_WINNER
    from solver.position import Position
    from solver.selfplay import _fill_row
    p = Position.parse("players=2 trump=5B hands=4C/5C stock= turn=0 points=60,60")
    cur, moves = p, []
    while not cur.is_terminal:
        moves.append(cur.legal_moves()[0])
        cur = cur.apply(moves[-1])
    row = np.zeros(R_SIZE, np.int16)
    _fill_row(p.rules, {"position": p, "moves": moves}, -1, row, None)
    assert row[R_WINNER] == -1 and list(row[R_SIDE_POINTS:R_SIDE_POINTS + 2]) == [0, 0]


def _hidden_stock_with(players, left):
    """A stock=? position of deal 1 of seed 3 played by first legal moves until `left` cards remain to draw."""
    import re

    from sim.rules import Rules
    from solver.position import Position, deal_position
    pos = deal_position(Rules(players=players), 3, 1)
    while pos.left > left:
        pos = pos.apply(pos.legal_moves()[0])
    assert pos.left == left
    from sim.cards import format_card
    text = re.sub(r"stock=\S*", "stock=?", str(pos))
    if " played=" not in text:
        text += " played=" + ",".join(format_card(c) for c in sorted(pos.played))
    return Position.parse(text)


def test_check_solvable_draw_limit_and_hidden_hands():
    """check_solvable: 8 cards to draw taken, 9 refused naming the count; a hidden hand refused. Mutants:
    MAX_UNKNOWN_DRAWS 9, `left >= MAX_UNKNOWN_DRAWS`, the `(here N)` dropped, the _need_open check dropped."""
    from solver.chance import check_solvable
    check_solvable(_hidden_stock_with(2, 8))
    with pytest.raises(ValueError, match=r"^stock: stock=\? is solved exactly only while at most 8 cards remain "
                                         r"to be drawn \(here 9\); give the stock order$"):
        check_solvable(_hidden_stock_with(3, 9))
    hidden = ("players=2 trump=5B hands=?/10O,2C,12E stock=? turn=1 trick=1O points=62,17 played=3O,4O,5O,6O,7O,"
              "11O,12O,1C,4C,5C,10C,11C,12C,1E,2E,4E,5E,6E,7E,10E,11E,1B,2B,3B,6B,7B,10B,11B")  # (NOTATION.md)
    with pytest.raises(ValueError, match="^hands: "):
        check_solvable(hidden)


def test_solve_refuses_an_unsolvable_position_even_when_decided_without_a_search():
    """solve checks the position (check_solvable) before target mode's early answer, and a seat past the
    players is solve's `seat:` error in plain target mode too. Mutants: solve's check_solvable dropped (a
    hidden hand answered reached=True for target 0), check_seat's bound players + 1."""
    from solver import solve
    hidden = ("players=2 trump=5B hands=?/10O,2C,12E stock=? turn=1 trick=1O points=62,17 played=3O,4O,5O,6O,7O,"
              "11O,12O,1C,4C,5C,10C,11C,12C,1E,2E,4E,5E,6E,7E,10E,11E,1B,2B,3B,6B,7B,10B,11B")
    with pytest.raises(ValueError, match="^hands: "):
        solve(hidden, 0)
    with pytest.raises(ValueError, match="^seat: "):
        solve(EX, 30, seat=2)


def test_play_open_batch_row_bounds(monkeypatch):
    """Row 2**64 - 1 with one rotation plays the last deal number; row0 -1 is refused. Mutants: the last deal
    computed from row0 + m (the last row refused), row0's lower bound -1."""
    from sim.engine import R_SIZE, T_SIZE
    from sim.rules import Rules
    from solver import selfplay
    monkeypatch.setattr(selfplay, "play_open_deal", first_moves_play)
    rules = Rules(players=2, deck="rapida20")
    outs = (np.zeros((1, R_SIZE), np.int16), np.zeros((1, 2, 3), np.int8), np.zeros(1, np.uint64),
            np.zeros((1, rules.tricks, T_SIZE), np.int16))
    selfplay.play_open_batch(rules, 1, 2 ** 64 - 1, 1, 1, *outs, False)
    assert outs[2][0] != 0
    with pytest.raises(ValueError, match="^row0: "):
        selfplay.play_open_batch(rules, 1, -1, 1, 1, *outs, False)


def test_play_open_batch_hands_dealt_in_turn_and_rec_checked(monkeypatch):
    """hands0 holds each seat's hand as dealt (card k to seat k % players: the start position's hands); rec
    must be a yes/no flag. Mutants: hands0 filled three cards a seat in a row, rec taken through bool()."""
    from sim.engine import R_SIZE, T_SIZE
    from sim.rules import Rules
    from solver import selfplay
    from solver.position import deal_position
    monkeypatch.setattr(selfplay, "play_open_deal", first_moves_play)
    rules = Rules(players=2, deck="rapida20")
    outs = (np.zeros((2, R_SIZE), np.int16), np.zeros((2, 2, 3), np.int8), np.zeros(2, np.uint64),
            np.zeros((2, rules.tricks, T_SIZE), np.int16))
    selfplay.play_open_batch(rules, 5, 0, 2, 1, *outs, False)
    for d in range(2):
        pos = deal_position(rules, 5, d)
        assert [sorted(h) for h in outs[1][d].tolist()] == [sorted(h) for h in pos.hands]
    with pytest.raises(ValueError, match="^rec: "):
        selfplay.play_open_batch(rules, 5, 0, 1, 1, *outs, "no")


def test_play_open_batch_output_checks(monkeypatch):
    """Rows longer than needed are taken; a uint32 dseeds and a read-only res refused before any deal.
    Mutants: rows of exactly the shape required (`!=`), any unsigned dseeds, the read-only check dropped."""
    from sim.engine import R_SIZE, T_SIZE
    from sim.rules import Rules
    from solver import selfplay
    monkeypatch.setattr(selfplay, "play_open_deal", first_moves_play)
    rules = Rules(players=2, deck="rapida20")

    def outs(res=None, ds=None):
        return (np.zeros((1, R_SIZE + 2), np.int16) if res is None else res, np.zeros((1, 2, 3), np.int8),
                np.zeros(1, np.uint64) if ds is None else ds, np.zeros((1, rules.tricks, T_SIZE), np.int16))

    selfplay.play_open_batch(rules, 1, 0, 1, 1, *outs(), True)
    with pytest.raises(ValueError, match="^dseeds: expected rows of shape"):
        selfplay.play_open_batch(rules, 1, 0, 1, 1, *outs(ds=np.zeros(1, np.uint32)), False)
    ro = np.zeros((1, R_SIZE), np.int16)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="^res: the output array is read-only$"):
        selfplay.play_open_batch(rules, 1, 0, 1, 1, *outs(res=ro), False)


P_CHANCE = ("players=2 trump=5B hands=3C,6C/10O,2C,12E stock=? turn=1 trick=1O points=62,17 played=3O,4O,5O,6O,7O,"
            "11O,12O,1C,4C,5C,10C,11C,12C,1E,2E,4E,5E,6E,7E,10E,11E,1B,2B,3B,6B,7B,10B,11B")


def test_solve_chance_counts_nodes_times_from_since_and_gives_whole_values_as_int():
    """solve_chance: nodes counted, ms from the _since it is given, a whole expectation an int. Mutants: nodes
    left 0, _since ignored, _num always a float."""
    import solver.api as api
    from solver.chance import _num, solve_chance
    r = solve_chance(P_CHANCE, _since=(time.perf_counter() - 1.0, api._compile_seconds()))
    assert r.nodes > 0 and r.ms >= 1000.0
    assert type(_num(Fraction(26))) is int and _num(Fraction(1, 4)) == 0.25


def test_solve_chance_with_a_perspective_leaves_moves_empty():
    """Its docstring: with a perspective, moves and best stay empty. Mutant: `if moves:` (filled anyway)."""
    from solver.chance import solve_chance
    r = solve_chance(P_CHANCE, perspective=0)
    assert (r.moves, r.best) == ({}, []) and r.value == pytest.approx(41 - 289 / 30)


def test_solve_chance_moves_best_first():
    """moves are listed best first (as with a known stock). Mutant: sorted worst first."""
    from solver.chance import solve_chance
    vals = list(solve_chance(P_CHANCE).moves.values())
    assert len(vals) == 3 and vals == sorted(vals, reverse=True) and vals[0] != vals[-1]


def test_solve_chance_with_nothing_left_to_draw_matches_the_known_stock():
    """A stock=? position with nothing left to draw and a trick to finish has the exact value of its empty
    known stock. Mutant: the root move's trick followed by a draw when dp == L (`dp <= L`)."""
    import re

    from sim.cards import format_card
    from sim.rules import Rules
    from solver import solve
    from solver.chance import solve_chance
    from solver.position import Position, deal_position
    pos = deal_position(Rules(players=2), 3, 1)
    while pos.left > 0 or len(pos.trick) != 1:
        pos = pos.apply(pos.legal_moves()[0])
    text = re.sub(r"stock=\S*", "stock=?", str(pos))
    if " played=" not in text:
        text += " played=" + ",".join(format_card(c) for c in sorted(pos.played))
    r = solve_chance(Position.parse(text))
    assert r.value == solve(pos, pv=False).value and r.moves == solve(pos, pv=False).moves
