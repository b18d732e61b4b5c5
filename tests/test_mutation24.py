"""Mutation testing, 24th pass (helper, 2026-12-07): the functions today's reviews moved or made in
sim/cli.py (_outputs, _write_failed, _interrupted, _ending, the option hints' helpers, cmd_simulate's
statuses), solver/selfplay.py (_check_outputs, _fill_row, _in_solving_thread, play_open_batch's per-deal
reuse), solver/api.py (_solve_known_stock, solve_many's thread choice), sim.checks.sequence_problem and
find_puzzles' players check.

Hand-made mutants, one at a time, each run against the test files that target its code. The tests below
each kill a mutant that survived them (named in the docstring) and pass on the code. Expected values come
from the docstrings, RULES.md and NOTATION.md, not from the function under test. No numba compile beyond
the package's cache; a few seconds in all.
"""
from __future__ import annotations

import errno
import types

import numpy as np
import pytest
from conftest import first_moves_play, run_main


# ----------------------------------------------------------------- sim.cli: cmd_simulate's statuses
def test_simulate_tricks_dash_is_refused_naming_tricks(tmp_path, monkeypatch, capsys):
    """``--tricks -`` is refused as ``--out -`` is (exit 2, nothing played), the error naming --tricks
    (the flag of the pair _outputs gives). Mutant: the error naming ``--out`` whatever the flag."""
    monkeypatch.chdir(tmp_path)
    assert run_main(["simulate", "--deals", "1", "--no-progress", "--tricks", "-"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("brisca: error: --tricks: '-' is not standard output here"), err
    assert list(tmp_path.iterdir()) == []


def test_simulate_with_stdout_closed_and_no_output_exits_1(monkeypatch, capsys):
    """cmd_simulate's status 1 for "a closed stdout with no --out/--tricks" (its docstring), not the 2 of
    bad input. Mutant: ``except _StdoutClosed: return 2``."""
    from sim import cli as scli
    monkeypatch.setattr("sys.stdout", scli._ClosedStream())
    assert run_main(["simulate", "--deals", "1", "--no-progress"]) == 1
    assert "standard output is closed" in capsys.readouterr().err


def test_simulate_engine_error_exits_1(monkeypatch, capsys):
    """An engine error (``RuntimeError``) is status 1 with its one error line, not the 2 of bad input
    (cmd_simulate's docstring). Mutant: ``_fail(str(e))`` (status 2)."""
    import sim.batch

    def broken(*args, **kwargs):
        raise RuntimeError("engine failed: deal 3")
    monkeypatch.setattr(sim.batch, "simulate", broken)
    assert run_main(["simulate", "--deals", "1", "--no-progress"]) == 1
    assert capsys.readouterr().err == "brisca: error: engine failed: deal 3\n"


# ----------------------------------------------------------------- sim.cli._write_failed
def _args(out=None, tricks=None, deals=5, json=False):
    return types.SimpleNamespace(out=out, tricks=tricks, deals=deals, json=json)


def _part(deals, rotations):
    return types.SimpleNamespace(deals=deals, rotations=rotations, format_table=lambda: "TABLE",
                                 to_dict=lambda: {"deals": deals})


def test_write_failed_summarizes_the_deals_played_of_every_rotation(capsys):
    """The partial summary is printed and its note counts the run's rows, ``deals x rotations`` (a
    --duplicate run of 5 deals with 2 rotations plays 10). Mutant: ``args.deals`` alone."""
    from sim.cli import _write_failed
    e = OSError(errno.ENOSPC, "No space left on device")
    e.partial_summary = _part(4, 2)
    assert _write_failed(e, _args(out="a.parquet")) == 1
    got = capsys.readouterr()
    assert got.out == "TABLE\n"
    assert got.err == ("brisca: the summary covers the 4 of 10 deals played before writing failed; no file was "
                       "written\nbrisca: error: --out: cannot write a.parquet: No space left on device\n")


@pytest.mark.parametrize("filename, outs, line", [
    (None, ("a.parquet", None), "--out: cannot write a.parquet: No space left on device"),
    (None, (None, "t.parquet"), "--tricks: cannot write t.parquet: No space left on device"),
    ("t.parquet", ("a.parquet", "t.parquet"), "--tricks: cannot write t.parquet: No space left on device"),
    (None, ("a.parquet", "t.parquet"), "writing the output failed: No space left on device (a.parquet and "
                                       "t.parquet)"),
    ("/tmp/x/.a.parquet.tmp", ("a.parquet", None), "writing the output failed: No space left on device "
                                                   "(/tmp/x/.a.parquet.tmp)"),
])
def test_write_failed_names_the_file(capsys, filename, outs, line):
    """One error line, status 1: the flag and file when the error names one of them or none and one file is
    written (the run's files stand for a nameless error), else the error's file or the run's files in
    parentheses; the reason is the error's strerror alone. Mutants: ``where = e.filename`` (no file named
    for a nameless error), status 2."""
    from sim.cli import _write_failed
    e = OSError(errno.ENOSPC, "No space left on device", filename) if filename else OSError(
        errno.ENOSPC, "No space left on device")
    assert _write_failed(e, _args(*outs)) == 1
    assert capsys.readouterr().err == f"brisca: error: {line}\n"


# ----------------------------------------------------------------- sim.cli._interrupted, _ending


@pytest.mark.parametrize("term", [False, True])
@pytest.mark.parametrize("written", [[], ["a.parquet", "t.parquet"]])
def test_interrupted_without_a_partial_summary(capsys, term, written):
    """No partial summary: whether the outputs renamed into place (``written``) were written in full, and
    130 or 143. Mutant: ``return 130`` in this branch."""
    from sim.cli import _interrupted, _Terminated
    e = _Terminated() if term else KeyboardInterrupt()
    assert _interrupted(e, _args("a.parquet", "t.parquet"), written) == (143 if term else 130)
    word = "terminated" if term else "interrupted"
    what = ("the output was written in full (a.parquet, t.parquet), the summary is not printed" if written
            else "no output written")
    assert capsys.readouterr().err == f"brisca: {word}; {what}\n"


# ----------------------------------------------------------------- sim.cli's option hints
def test_unknown_option_hint_suggests_long_options_only(capsys):
    """_known_long_options lists long option strings (``--file``, not ``-f``): ``brisca --f`` with no
    command is an unknown option with no suggestion ('--f' is as close to solve's ``-f`` as difflib's
    cutoff takes). Mutant: ``startswith("-")`` (``did you mean -f?``)."""
    from conftest import usage_error
    err = usage_error(["--f"], capsys)
    assert err == "brisca: error: the following arguments are required: COMMAND (unknown option --f)\n", err


# ----------------------------------------------------------------- solver.selfplay.play_open_batch
def _outs(rules, m, rows=None, hand=3):
    from sim.engine import R_SIZE, T_SIZE
    rows = m if rows is None else rows
    return {"res": np.zeros((rows, R_SIZE), np.int16), "hands0": np.zeros((rows, rules.players, hand), np.int8),
            "dseeds": np.zeros(rows, np.uint64), "tricks": np.zeros((rows, rules.tricks, T_SIZE), np.int16)}


def _never(*args, **kwargs):
    raise AssertionError("a deal was solved before the outputs were checked")


@pytest.mark.parametrize("name, rows, hand, match", [
    ("res", 2, 3, r"res: expected an ndarray of 2 dimensions with at least m=3 rows"),
    ("hands0", 3, 2, r"hands0: expected rows of shape \(2, 3\)"),
])
def test_play_open_batch_refuses_short_outputs_before_solving(monkeypatch, name, rows, hand, match):
    """An output with fewer than ``m`` rows, or hands0 rows shorter than ``(players, 3)``, is the documented
    ValueError naming it, raised before any deal is solved. Mutants: ``a.shape[0] < m - 1``; hands0's
    shape ``(players, 2)``."""
    from sim.rules import Rules
    from solver import selfplay
    monkeypatch.setattr(selfplay, "play_open_deal", _never)
    rules = Rules(players=2, deck="rapida20")
    outs = _outs(rules, 3)
    outs[name] = _outs(rules, 3, rows=rows, hand=hand)[name]
    with pytest.raises(ValueError, match=match):
        selfplay.play_open_batch(rules, 1, 0, 3, 1, outs["res"], outs["hands0"], outs["dseeds"], outs["tricks"],
                                 True)


def test_play_open_batch_unused_exchange_slots_are_minus_one_and_tricks_untouched_without_rec(monkeypatch):
    """res's two exchange slots (seat, card given, trick) are -1 while unused (play_open_batch's docstring:
    "an unused exchange slot [is] -1"), and without ``rec`` the tricks output is untouched. The moves come
    from a stand-in for the solver (the exchange whenever it is legal, R7, else the first legal move), so no
    search runs and the rows hold none, one and two exchanges: the used slots are the exchanges the stand-in
    made (with conftest's first_moves_play, which never exchanges, every row had none, and the used slots'
    check ran on nothing). Mutant: unused slots 0."""
    from sim.cards import SWAP
    from sim.engine import R_EX, R_NEX
    from sim.rules import Rules
    from solver import selfplay
    from solver.position import deal_position
    made = {}  # deal -> [(seat, card given, trick)] as the stand-in played them

    def swap_first_play(rules, seed, d, ws=None):
        pos = deal_position(rules, seed, d)
        cur, moves, made[d] = pos, [], []
        while not cur.is_terminal:
            legal = cur.legal_moves()
            mv = SWAP if SWAP in legal else sorted(legal)[0]
            nxt = cur.apply(mv)
            if mv == SWAP:
                (given,) = set(cur.hands[cur.turn]) - set(nxt.hands[cur.turn])
                made[d].append((cur.turn, int(given), sum(x != SWAP for x in moves) // rules.players))
            moves.append(mv)
            cur = nxt
        return {"moves": moves, "value": None, "position": pos, "nodes": 0}

    monkeypatch.setattr(selfplay, "play_open_deal", swap_first_play)
    rules = Rules(players=2)
    m = 6
    outs = _outs(rules, m)
    outs["tricks"][:] = 77
    selfplay.play_open_batch(rules, 3, 0, m, 1, outs["res"], outs["hands0"], outs["dseeds"], outs["tricks"], False)
    assert (outs["tricks"] == 77).all()
    res = outs["res"]
    assert {int(r[R_NEX]) for r in res} == {0, 1, 2}  # (rows with two, one and no unused slot were met)
    for d, r in enumerate(res):
        nex = int(r[R_NEX])
        assert 0 <= nex <= 2
        assert [int(x) for x in r[R_EX + 3 * nex:R_EX + 6]] == [-1] * (6 - 3 * nex)
        assert all(int(x) >= 0 for x in r[R_EX:R_EX + 3 * nex])
        assert [tuple(int(x) for x in r[R_EX + 3 * k:R_EX + 3 * k + 3]) for k in range(nex)] == made[d], d


@pytest.mark.parametrize("players", [2, 4])
def test_play_open_batch_seat_and_side_columns_follow_the_tricks_table(monkeypatch, players):
    """Each seat's card points and tricks are those of the tricks it took (the tricks table's winner and
    points), a side's points its seats' (seat s on side s % sides, R3), and the capote flag is 1 only for
    a side with all 120 card points (R8). Stand-in moves as above. Mutants: the seat points column given
    the seat's tricks; capote for any side reaching 61."""
    from sim.engine import (R_CAPOTE, R_SEAT_POINTS, R_SEAT_TRICKS, R_SIDE_POINTS, T_POINTS, T_WINNER)
    from sim.rules import Rules
    from solver import selfplay
    monkeypatch.setattr(selfplay, "play_open_deal", first_moves_play)
    rules = Rules(players=players)
    m = 4
    outs = _outs(rules, m)
    selfplay.play_open_batch(rules, 5, 0, m, 1, outs["res"], outs["hands0"], outs["dseeds"], outs["tricks"], True)
    for r, tr in zip(outs["res"], outs["tricks"]):
        pts, won = [0] * players, [0] * players
        for t in tr[:rules.tricks]:
            pts[int(t[T_WINNER])] += int(t[T_POINTS])
            won[int(t[T_WINNER])] += 1
        assert [int(r[R_SEAT_POINTS + s]) for s in range(players)] == pts
        assert [int(r[R_SEAT_TRICKS + s]) for s in range(players)] == won
        sides = [sum(pts[s::rules.sides]) for s in range(rules.sides)]
        assert [int(r[R_SIDE_POINTS + s]) for s in range(rules.sides)] == sides
        assert int(r[R_CAPOTE]) == (max(sides) == 120)
    assert any(max(int(r[R_SIDE_POINTS + s]) for s in range(rules.sides)) >= 61 for r in outs["res"])


def test_in_solving_thread_replaces_a_solving_thread_that_ended():
    """A calling thread whose solving thread has ended (its claim gone, e.g. an interruption between the new
    claim and the new thread's place in ``_local``) gets a new one: the job is not put on a dead thread's
    queue to wait for good. Mutant: ``if w is None`` (no ``is_alive()`` check). About 0.1 s."""
    import threading

    from solver import selfplay
    seen = {}

    def caller():
        claim = selfplay._Claim()
        dead = selfplay._SolvingThread(claim)
        del claim  # (its weakref's callback ends the thread)
        dead.join(5)
        seen["dead"] = not dead.is_alive()
        selfplay._local.solver, selfplay._local.claim = dead, None
        seen["value"] = selfplay._in_solving_thread(lambda x: x + 1, 4)

    t = threading.Thread(target=caller, daemon=True)  # (daemon: a mutant's caller waits for good)
    t.start()
    t.join(10)
    assert seen == {"dead": True, "value": 5}


# ----------------------------------------------------------------- solver.api._solve_known_stock, solve_many
EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"  # (solve's)


def test_solve_nodes_per_call_and_in_target_mode():
    """``nodes`` counts this call's search (the same again for the same position: the counter starts at 0
    each call) and a target-mode search's nodes (not 0: that is for a target decided without a search).
    Mutants: the counter not reset; target mode leaving nodes 0."""
    from solver import solve
    assert solve(EX).nodes == solve(EX).nodes > 0
    assert solve(EX, target=20).nodes > 0


def test_solve_target_seat_reads_that_seats_side():
    """``seat`` in target mode: seat 0 (not to move) holds 41 - 26 = 15 of the 41 points left with best
    play (EX: the side to move gets 26), so 15 is reached and 16 is not. Mutant: the search's arrays made
    for the side to move whatever the seat."""
    from solver import solve
    assert solve(EX).value == 26
    assert solve(EX, target=15, seat=0).reached is True
    assert solve(EX, target=16, seat=0).reached is False


def test_solve_many_thread_choice(monkeypatch):
    """``threads=1`` and a single position ("never more [threads] than there are positions") are solved in
    the calling thread, more positions with ``threads=2`` in the pool. Mutants: ``max(2, n)``;
    ``threads == 0`` for the in-caller path."""
    import threading

    from solver import api
    where = []
    real = api.solve

    def tracked(*args, **kwargs):
        where.append(threading.current_thread() is threading.main_thread())
        return real(*args, **kwargs)
    monkeypatch.setattr(api, "solve", tracked)
    assert [r.value for r in api.solve_many([EX], threads=4, pv=False)] == [26]
    assert [r.value for r in api.solve_many([EX, EX], threads=1, pv=False)] == [26, 26]
    assert where == [True, True, True]
    where.clear()
    api.solve_many([EX, EX], threads=2, pv=False)
    assert where == [False, False]


def test_solve_pv_only_when_asked():
    """"SolveResult.pv is empty with pv=False" (solve's Returns); with pv the line starts with a best move.
    Mutant: the principal variation computed whatever ``pv``."""
    from solver import solve
    assert solve(EX, pv=False).pv == []
    r = solve(EX)
    assert r.pv and r.pv[0] in r.best


# ----------------------------------------------------------------- sim.checks.sequence_problem, find_puzzles
def test_sequence_problem_reads_a_dataframe_as_keys_and_sets_by_order():
    """A pandas DataFrame iterates as its column labels: "its keys would be read", ordered or not; a set is
    refused only when the order matters; a dict's items() are taken (insertion order). Mutant: a set
    refused with ``ordered=False``."""
    import pandas as pd

    from sim.checks import ARBITRARY_ORDER, KEYS_READ, sequence_problem
    df = pd.DataFrame({"random": [1], "greedy": [2]})
    assert sequence_problem(df) == KEYS_READ and sequence_problem(df, ordered=False) == KEYS_READ
    assert sequence_problem({"a", "b"}, ordered=False) is None
    assert sequence_problem(frozenset({"a"})) == ARBITRARY_ORDER
    assert sequence_problem({"a": 1}.items()) is None and sequence_problem({"a": 1}.keys()) is None


@pytest.mark.parametrize("players", [True, np.bool_(True), 1, 5, 2.0, "2", np.int64(5)])
def test_find_puzzles_players_is_an_integer_2_3_4_or_6(players):
    """"players: 2, 3, 4 or 6" (a bool is not an integer here, as check_int has it; 2.0 and "2" not integers;
    2 only until the sixth part of 2026-12-07).
    Mutant: ``players > 2`` (1 taken)."""
    from solver.puzzles import find_puzzles
    with pytest.raises(ValueError, match="players: puzzles are generated for 2, 3, 4 or 6 players"):
        find_puzzles(1, players=players)
    find_puzzles(0, players=np.int64(2))  # (a numpy integer 2 is taken)
