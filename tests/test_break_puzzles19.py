"""Break-it pass 19 on ``brisca puzzles`` (CLI and ``solver.puzzles.find_puzzles``), the solver's Python
API beyond ``solve`` (``analyse_play``, ``solve_many``, ``release_workers``, ``Position``, ``SolveResult``,
``solver.selfplay``) and ``brisca solve --play`` / ``--win`` (at 6bf7913).

Tried (about 330 checks):

* ``brisca puzzles`` arguments (26 runs): ``--count`` 0, -1, 1e9, 1_0, 1.5, 1e-1, inf, nan, Arabic-Indic
  digits, 0x10, 1e19, 1e100000, 1e4300, spaces; ``--seed`` -1, 2**64, 2**64-1, 1e3, 1.5, 1_000, '', a
  5,000-digit number; ``--max-tries`` -1, 1.5, 2**63, 1e100000; ``--players`` 3, 2.0, ' 2'. All refused with
  one line (exit 2) or run as documented.
* ``--out`` (16 names): a directory, ``dir/``, an existing read-only file, a read-only directory (root:
  written), ``.parquet``, ``x.PARQUET``, ``x.Pq``, ``-``, ``/dev/stdout``, ``/dev/null``, ``/dev/full``
  (exit 1), ``x.parquet.jsonl``, missing parents, ``x.json``, ``x.csv`` (noted), a trailing space, a newline
  in the name, a symlink to a file (the target replaced, the link kept), a dangling symlink; stdout closed
  (refused), ``| head -1`` (141), a ``--max-tries`` run finding nothing (an empty JSON-lines file, a
  0-row table with ``complete`` true and ``total`` 2; ``solve --file`` on both says "no positions").
* 30 signalled runs (SIGINT/SIGTERM at 0.05-4 s, ``--out`` new or existing, JSON lines, parquet, stdout):
  exit 130/143, a new file marked ``complete: false`` with ``rows``, an existing file kept and named, no
  traceback after start-up; ``brisca solve --file`` reads the partial files (the marker line skipped).
* Every puzzle genuine (172 puzzles of seeds 1, 12345 and 2**64-1): the position re-parsed and solved
  gives the record's ``moves``; exactly one move reaches ``need`` = 61 - points held; ``value`` is that
  move's; ``pv`` starts with it and ``analyse_play`` along it is constant at ``value``; ``ply`` equals the
  cards played plus 0-2 exchanges; grading each move with ``solve(pos.apply(m), win=True, seat=turn)``
  (and ``brisca solve --play M --win --seat S`` for a swap puzzle) says reached for the answer only.
* ``brisca solve --play``/``--win`` (27 runs): case, spaces, trailing/lone commas, ``SWAP``, full-width
  letters, a whole deal played out (``--win`` then target <= 0, reached), a move after the end, ``--seat``
  out of range, negative, without a target, stock=? with a draw, a hidden hand; control characters
  (escaped); 100,000-character inputs (fault 1).
* ``analyse_play`` (30 lines of 2-, 3- and 4-player deals with exchanges, perspective random) against
  tests/solver_oracle.py: equal; wrong types (None, bytes, numpy arrays of strings and ids, generators,
  dicts, a string, ints, bools, floats for ``perspective``), a move after the end, stock=? with nothing
  left to draw (as the known stock).
* ``solve`` with ``win``/``seat`` on 72 positions of 2, 3 and 4 players against the oracle (``target`` the
  exact value reached, one more not); ``solve_many`` with threads 1 and 2 identical (also stock=?),
  empty lists, generators, numpy ints and string arrays, ``errors="return"``.
* ``find_puzzles`` arguments (23 calls): fault 2. ``Position`` methods (31 calls): fault 4.
  ``play_open_batch`` output arrays (10 calls): fault 6; its 3-player ties (ascending cards, swap last) hold.

Faults (each ``test_fault_*`` fails at 6bf7913):

1. ``brisca solve --play`` echoes its whole input in its error: a 100,000-character ``--play`` gives a
   100 KB error line (twice the bad move with ``move 1 (...)`` and then ``invalid card ...``), where every
   other input is cut by ``sim.cards.show_input`` ("so that a 2 MB bad token is not echoed whole");
   ``--play ',,,,...'`` the same.
2. ``find_puzzles`` takes any ``count``, ``seed`` and ``max_tries``: ``count=1.5`` yields 2 puzzles ("up
   to count"), ``count=True`` is a count of 1, ``max_tries=1.5`` or ``-5`` run silently, ``count="2"`` or
   ``None`` raise ``TypeError: '<' not supported``, ``seed=1.5``/``"1"`` numpy's ``TypeError`` (SeedSequence)
   and ``seed=-1`` numpy's "expected non-negative integer" (not naming the seed). ``play_open_batch``
   refuses the same with a ``ValueError`` naming the argument (break-it pass of 2026-12-06).
3. ``solve_many(positions, seat=1, errors="return")`` (a seat without a target or ``win``), or a seat that
   is not an integer, returns one copy of the error per position instead of raising once, as it does for
   ``target`` with ``win``, bad ``threads``, ``target`` or ``errors`` (a call's argument, not a position's).
4. ``Position.side_points(seat)`` and ``side_of(seat)`` take any seat: ``side_points(5)`` of a 2-player
   position is seat 1's 17 points, ``side_points(-1)`` also, ``side_points(1.5)`` is 0, ``side_points(None)``
   a ``TypeError``; ``side_of(5)`` is 1. (``to_arrays(perspective=5)`` refuses: "seat 5 does not exist".)
   ``61 - pos.side_points(seat)`` is how a puzzle's ``need`` is made and how ``--win`` grades.
5. ``brisca puzzles --count 1`` that finds none says "found 0 of 1 puzzles" (``count_of`` words the
   others: "1 position tried").
6. ``play_open_batch`` checks its output arrays' rows only: ``res`` with too few columns, ``hands0`` with
   too few seats or cards, ``tricks`` with too few tricks raise ``IndexError`` (after the deal was solved
   and ``res`` partly written), ``dseeds`` of int8 an ``OverflowError``; ``rec="no"`` (truthy) records
   the tricks where solve's flags refuse anything but a bool.
"""
from __future__ import annotations

import numpy as np
import pytest

from solver import Position, cli, solve, solve_many
from solver.puzzles import find_puzzles

P = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
PUZZLE1 = "players=2 trump=4B hands=10C,11C,1E/7E,11O,6E stock=7B,6O,7C turn=1 trick= points=47,54"


@pytest.fixture(scope="module", autouse=True)
def _warm():
    """Load the 2-player kernels (exact and target mode) once."""
    solve(P)
    solve(P, win=True)


# -- fault 1 ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("play", ["X" * 100_000, "," * 100_000, "11O," + "X" * 100_000])
def test_fault_1_play_error_does_not_echo_a_huge_input(capsys, play):
    """A 100,000-character --play is refused with a short line (its text cut as show_input cuts every other
    input), not the whole input echoed (100 KB of stderr)."""
    rc = cli.main(["solve", "--no-progress", "--play", play, PUZZLE1])
    err = capsys.readouterr().err
    assert rc == 2
    assert err.startswith("brisca: error: --play")
    assert len(err) < 1000, f"{len(err):,} characters of error"


def test_play_errors_still_name_the_move():
    """(Held) a bad move is named with its index."""
    with pytest.raises(ValueError, match=r"--play: move 2 \(2C\)"):
        cli._play(Position.parse(PUZZLE1), "11O,2C")


# -- fault 2 ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kw, name", [
    ({"count": 1.5}, "count"),
    ({"count": True}, "count"),
    ({"count": "2"}, "count"),
    ({"count": None}, "count"),
    ({"count": 1, "max_tries": 1.5}, "max_tries"),
    ({"count": 1, "max_tries": -5}, "max_tries"),
    ({"count": 1, "max_tries": "30"}, "max_tries"),  # (None is the default since 2026-12-07: 500 x count)
    ({"count": 1, "seed": 1.5}, "seed"),
    ({"count": 1, "seed": "1"}, "seed"),
    ({"count": 1, "seed": -1}, "seed"),
])
def test_fault_2_find_puzzles_refuses_bad_arguments_by_name(kw, name):
    """find_puzzles refuses a count, seed or max_tries that is not an integer in range with a ValueError
    naming it (count=1.5 yielded 2 puzzles, count=True one; "2"/None a bare TypeError; seed=-1 numpy's
    "expected non-negative integer")."""
    kw = {"max_tries": 30, **kw}
    with pytest.raises(ValueError, match=name):
        list(find_puzzles(**kw))


def test_find_puzzles_integer_like_arguments_still_work():
    """(Held) numpy integers are integers: the first puzzle of seed 1 (deal 22, 11O)."""
    recs = list(find_puzzles(np.int64(1), seed=np.uint64(1), max_tries=np.int32(30)))
    assert [(r["deal"], r["move"]) for r in recs] == [(22, "11O")]


# -- fault 3 ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kw", [{"seat": 1}, {"seat": "1", "win": True}, {"seat": True, "win": True}])
def test_fault_3_solve_many_call_errors_are_raised_not_returned_per_position(kw):
    """A seat without a target (or not an integer) is the call's error: raised once, as target with win, bad
    threads or errors are, not returned as one copy of the error per position with errors="return"."""
    with pytest.raises(ValueError, match="seat"):
        solve_many([P, P, P], errors="return", **kw)


# -- fault 4 ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seat", [5, -1, 2, 1.5, None, True])
def test_fault_4_side_points_refuses_a_seat_not_at_the_table(seat):
    """Position.side_points(seat) refuses a seat that is not 0..players-1 (5 and -1 gave seat 1's 17 points,
    1.5 gave 0, None a TypeError), as to_arrays(perspective=...) does."""
    p = Position.parse(P)
    with pytest.raises(ValueError, match="seat"):
        p.side_points(seat)


@pytest.mark.parametrize("seat", [5, -1, 1.5])
def test_fault_4_side_of_refuses_a_seat_not_at_the_table(seat):
    """Position.side_of(5) of a 2-player position was 1."""
    p = Position.parse(P)
    with pytest.raises(ValueError, match="seat"):
        p.side_of(seat)


def test_side_points_of_real_seats():
    """(Held) numpy seats and the 4-player sides."""
    p = Position.parse(P)
    assert (p.side_points(0), p.side_points(np.int64(1))) == (62, 17)


# -- fault 5 ----------------------------------------------------------------------------------------------

def test_fault_5_count_one_is_worded_in_the_singular(capsys):
    """--count 1 that finds none: "found 0 of 1 puzzle", not "of 1 puzzles"."""
    rc = cli.main(["puzzles", "--no-progress", "--count", "1", "--max-tries", "1"])
    err = capsys.readouterr().err
    assert rc == 1
    assert "found 0 of 1 puzzle in 1 position tried" in err, err


# -- fault 6 ----------------------------------------------------------------------------------------------

def _open_batch_args(**over):
    from sim.engine import R_SIZE, T_SIZE
    a = dict(res=np.zeros((1, R_SIZE), np.int16), hands0=np.zeros((1, 2, 3), np.int8),
             dseeds=np.zeros(1, np.uint64), tricks=np.zeros((1, 20, T_SIZE), np.int16), rec=True)
    a.update(over)
    return a


@pytest.mark.parametrize("name, shape, dtype", [
    ("res", (1, 5), np.int16),            # too few R_* columns: IndexError 12 out of bounds
    ("hands0", (1, 1, 3), np.int8),       # one seat for a 2-player table: IndexError
    ("hands0", (1, 2, 2), np.int8),       # two cards a hand: IndexError
    ("tricks", (1, 5, 9), np.int16),      # 5 tricks of 20: IndexError after 5 tricks written
    ("dseeds", (1,), np.int8),            # a deal seed does not fit: OverflowError
])
def test_fault_6_play_open_batch_refuses_output_arrays_of_the_wrong_shape(name, shape, dtype):
    """play_open_batch refuses an output array whose shape or dtype cannot hold its outputs with a ValueError
    naming it, before playing (an IndexError or OverflowError came after the deal was solved and res
    partly written)."""
    from sim.rules import Rules
    from solver.selfplay import play_open_batch

    if name == "tricks":
        from sim.engine import T_SIZE
        shape = (1, 5, T_SIZE)
    a = _open_batch_args(**{name: np.zeros(shape, dtype)})
    with pytest.raises(ValueError, match=name):
        play_open_batch(Rules(players=2), 1, 0, 1, 1, a["res"], a["hands0"], a["dseeds"], a["tricks"], a["rec"])


def test_fault_6_play_open_batch_rec_is_a_flag():
    """rec="no" (truthy) recorded the tricks: a flag is True or False, as solve's pv/moves/win
    (sim.checks.check_flag)."""
    from sim.rules import Rules
    from solver.selfplay import play_open_batch

    a = _open_batch_args(rec="no")
    with pytest.raises(ValueError, match="rec"):
        play_open_batch(Rules(players=2), 1, 0, 1, 1, a["res"], a["hands0"], a["dseeds"], a["tricks"], a["rec"])


def test_play_open_batch_good_arrays():
    """(Held) deal 0 of seed 1 both sides perfect: the first leader's 62 (README's solve_many example)."""
    from sim.engine import R_SIDE_POINTS
    from sim.rules import Rules
    from solver.selfplay import play_open_batch

    a = _open_batch_args()
    play_open_batch(Rules(players=2), 1, 0, 1, 1, a["res"], a["hands0"], a["dseeds"], a["tricks"], a["rec"])
    assert int(a["res"][0, R_SIDE_POINTS]) == 62
