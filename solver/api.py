"""The solver's Python API, in the shape of the bridge solver wrappers (endplay's dds).

* :func:`solve` - value of a position for the side to move, every legal move's value,
  the best moves, a principal variation, nodes and time; or, with ``target``, one
  null-window answer to "can the side to move still capture ``target`` points?".
* :func:`solve_many` - the same for many positions, in parallel over positions,
  one transposition table per thread.
* :func:`analyse_play` - one value before each move of a played sequence and after
  the last, to grade every move.

Values are card points (0-120) the side of the seat to move still captures from
the position on, the current trick included (NOTATION.md "Solver output"); with
three players the paranoid value (the two other seats together against it).
``stock=?`` positions are solved by expectimax over the draw orders
(:mod:`solver.chance`); their values are expectations (floats).
"""
from __future__ import annotations

import decimal
import itertools
import numbers
import threading
import time
from dataclasses import dataclass, field

import numba.core.event as numba_event
import numpy as np
from numba.core.compiler_lock import global_compiler_lock

from sim.cards import format_card, show_input, show_repr
from sim.checks import ARBITRARY_ORDER, check_flag, check_int, is_iterable, sequence_problem
from sim.threads import starting_threads

from .position import Position, count_of

_local = threading.local()
_stamp_lock = threading.Lock()
_stamp = [0]


def _next_stamp() -> int:
    with _stamp_lock:
        _stamp[0] += 1
        return _stamp[0]


if "_clock" not in globals():  # (kept if the module is reloaded: a running solve reads it at both ends)
    _clock = threading.local()  # numba's compiler lock, per thread: nesting depth, when it was taken, seconds in all


class _CompileClock(numba_event.Listener):
    """Counts the seconds each thread spends holding, or waiting for, numba's compiler lock: loading a
    compiled function from numba's cache or compiling it on its first call in the process (numba's
    event API, ``"numba:compiler_lock"``; nested holds count once). A solve's ``ms`` leaves them out
    (:func:`_elapsed_ms`): a process's first :func:`solve` reported 135-150 ms for a search of 0.4 ms,
    most of it loading the kernels (2026-12-05).

    Never raises: numba calls it inside its lock, in whatever thread compiles. An end without its
    start (the listener registered while another thread held the lock) is ignored, and a start in a
    thread that does not hold the lock is an outermost one, whatever depth an interrupted wait left
    (break-it pass of 2026-12-05)."""

    def on_start(self, event):
        depth = getattr(_clock, "depth", 0)
        if depth > 0 and not global_compiler_lock.is_locked():  # (is_locked: held by this thread)
            depth = 0  # (a wait for the lock was interrupted: its end never came)
        if depth == 0:
            _clock.since = time.perf_counter()
        _clock.depth = depth + 1

    def on_end(self, event):
        depth = getattr(_clock, "depth", 0)
        if depth <= 0:
            return  # (its start came before the listener was registered)
        _clock.depth = depth - 1
        if depth == 1:
            _clock.total = getattr(_clock, "total", 0.0) + time.perf_counter() - _clock.since


if "_compile_clock" not in globals():  # (once: a reloaded module keeps its globals, and two would count twice)
    _compile_clock = _CompileClock()
    numba_event.register("numba:compiler_lock", _compile_clock)


def _compile_seconds() -> float:
    """Seconds this thread has spent on numba's compiler lock so far (:class:`_CompileClock`)."""
    return getattr(_clock, "total", 0.0)


def _elapsed_ms(t0: float, c0: float) -> float:
    """Milliseconds since ``time.perf_counter()`` read ``t0``, less what this thread spent loading or
    compiling numba functions since :func:`_compile_seconds` read ``c0``: the solve alone."""
    return (time.perf_counter() - t0 - (_compile_seconds() - c0)) * 1000.0


_pool_lock = threading.Lock()
_pool = [None, 0]  # solve_many's worker threads (a ThreadPoolExecutor) and their number
_retired = []  # pools a larger one replaced, whose threads end once their running calls are done
_release_lock = threading.Lock()  # one release_workers at a time


def _submit_kept(threads: int, fn):
    """``threads`` calls of ``fn`` submitted to the process's pool of :func:`solve_many` worker threads
    (at least ``threads`` of them, made on first use and kept): each worker keeps its workspace
    (:func:`workspace`, 32 MB, about 10 ms to allocate and map) from one call to the next. A new pool
    for every call (as before the session of 2026-12-05, third part) paid that allocation for every
    thread of every call: ``solve_many`` of 20 positions with 4 tricks left ran 6x slower on 2 threads
    than on one. Returns the futures. (Submitted under the lock that replaces a pool grown for a larger
    call, so that no call submits to a pool already shut down.)"""
    from concurrent.futures import ThreadPoolExecutor

    with _pool_lock:
        if _pool[0] is None or _pool[1] < threads:
            old = _pool[0]
            _pool[0] = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="brisca-solve")
            _pool[1] = threads
            if old is not None:
                old.shutdown(wait=False)  # (its threads end once idle; a running call finishes on them)
                _retired.append(old)  # (release_workers waits for them too)
        with starting_threads():  # (submit starts the pool's threads as needed: sim.threads)
            return [_pool[0].submit(fn) for _ in range(threads)]


def release_workers() -> int:
    """End :func:`solve_many`'s kept worker threads and free their tables (32 MB each).

    The next ``solve_many`` with ``threads > 1`` starts new workers (about 10 ms each to allocate
    their tables). Calls running on the old workers finish first: this waits for them, also on the
    workers of a smaller pool that a call with more threads replaced. The calling thread's own table
    (:func:`solve`, ``threads=1``) is kept.

    Returns
    -------
    int
        The number of worker threads the released pool was made for (0: there was none).

    Examples
    --------
    >>> from solver.position import deal_position
    >>> from sim.rules import Rules
    >>> rs = solve_many([deal_position(Rules(players=2), 1, d) for d in range(4)], threads=2, pv=False)
    >>> release_workers()  # doctest: +SKIP
    2
    """
    with _release_lock:  # (a second release waits for the first one's threads to end: third break-it pass)
        with _pool_lock:
            old, count = _pool[0], _pool[1]
            _pool[0], _pool[1] = None, 0
            pools = _retired[:] + ([old] if old is not None else [])
            _retired.clear()
        for p in pools:  # (a pool a larger call replaced may still run an earlier call: break-it pass)
            p.shutdown(wait=True)  # (each worker's thread-local table goes with its thread)
    return count  # (0 when there was no pool)


def workspace():
    """This thread's search buffers (:func:`solver.search.new_workspace`), allocated on first use.

    Returns
    -------
    tuple of ndarray
        ``(tt_k1, tt_k2, tt_d, frames, moves, counters)``, int64 (:func:`check_workspace`'s layout): 32 MB,
        about 10 ms to allocate on a thread's first call, kept while the thread lives.
    """
    ws = getattr(_local, "ws", None)
    if ws is None:
        from .search import new_workspace
        ws = new_workspace()
        _local.ws = ws
    return ws


def check_workspace(ws, name: str = "ws"):
    """``ws`` when it is a set of search buffers the kernels can use (:func:`solver.search.new_workspace`'s
    layout), else a ValueError. The kernels index the buffers unchecked: a buffer too small crashed the
    interpreter (break-it pass 25).

    Parameters
    ----------
    ws : tuple of ndarray
        ``(tt_k1, tt_k2, tt_d, frames, moves, counters)``: three int64 table views of ``4 * 2**k`` words
        each (``2 <= k``), frames of at least ``MAXD * F_SIZE`` int64, moves of at least ``(MAXD, MAXM)``,
        at least 16 counters.
    name : str
        The argument's name, for the message.

    Returns
    -------
    tuple of ndarray
        The six buffers of ``ws``, unchanged, as a tuple (a list is turned into one).

    Raises
    ------
    ValueError
        ``"<name>: expected the 6 search buffers of solver.search.new_workspace() ..."``.
    """
    from .search import F_SIZE, MAXD, MAXM, TT_SHIFT, TT_WAYS

    ok = isinstance(ws, (tuple, list)) and len(ws) == 6 and all(
        isinstance(a, np.ndarray) and a.dtype == np.int64 and a.flags.writeable for a in ws)
    if ok:
        tk1, tk2, td, fr, mv, cnt = ws
        words = tk1.shape[0] if tk1.ndim == 1 else 0
        entries = words >> TT_SHIFT
        ok = (all(a.ndim == 1 and a.shape[0] == words for a in (tk1, tk2, td)) and entries >= TT_WAYS
              and entries & (entries - 1) == 0 and words == entries << TT_SHIFT
              and fr.ndim == 1 and fr.shape[0] >= MAXD * F_SIZE and mv.ndim == 2 and mv.shape[0] >= MAXD
              and mv.shape[1] >= MAXM and cnt.ndim == 1 and cnt.shape[0] >= 16)
    if not ok:
        got = (", ".join(f"{a.dtype}{list(a.shape)}" if isinstance(a, np.ndarray) else type(a).__name__
                         for a in ws) if isinstance(ws, (tuple, list)) else type(ws).__name__)
        raise ValueError(f"{name}: expected the 6 search buffers of solver.search.new_workspace() (int64 "
                         f"table views of 4 * 2**k words, frames, moves, counters), got {show_input(got, quote=False)}")
    return tuple(ws)


@dataclass
class SolveResult:
    """What :func:`solve` returns.

    Attributes
    ----------
    position : str
        The position (canonical string).
    value : int or float
        Card points the side of the seat to move still captures (``stock=?``: the expectation over the draw
        orders, an ``int`` when it is a whole number, else a ``float``).
        In target mode the exact value is not computed and this is ``None``.
    moves : dict[str, int or float]
        Every legal move (card string or ``swap``) and its value, best first (empty in target mode).
    best : list of str
        The moves that reach ``value`` (empty with ``moves=False`` and in target mode).
    wins : list of str or None
        The moves that win the deal for the side to move: with them its side ends with 61 card points or
        more (R8), counting the points it already holds; every move when it already holds 61, ``[]`` when
        none does. ``None`` where a win is not a sum of points: three players (the most points win),
        ``stock=?`` (the values are expectations), target mode, ``moves=False`` and a finished deal.
    pv : list of str
        A principal variation (moves of every seat, ``swap`` included) to the end of the deal (empty with
        ``pv=False``, in target mode and for ``stock=?``).
    nodes : int
        Nodes searched (0 when target mode decided without a search).
    ms : float
        Wall time of the solve in milliseconds, without a thread's first allocation of its table
        and without loading or compiling numba functions on their first call in the process (the
        first numba call of a process still counts about 10 ms of numba's own set-up).
    target : int or None
        The target of target mode.
    reached : bool or None
        Target mode: whether the side of ``seat`` can still capture ``target`` points (``stock=?``:
        whether its expected points reach ``target``).
    seat : int or None
        Target mode: the seat whose side ``target`` is for (the seat to move unless one was given).
    """

    position: str
    value: object = None
    moves: dict = field(default_factory=dict)
    best: list = field(default_factory=list)
    pv: list = field(default_factory=list)
    nodes: int = 0
    ms: float = 0.0
    target: int | None = None
    reached: bool | None = None
    seat: int | None = None
    wins: list | None = None

    def to_dict(self) -> dict:
        """JSON-able dict with keys ``position, value, moves, best, wins, pv, nodes, ms`` (+ ``target, reached,
        seat`` in target mode).

        Returns
        -------
        dict
            The attributes as plain Python values: ``moves`` a new dict, ``best``, ``wins`` (or None) and
            ``pv`` new lists, ``nodes`` an ``int``, ``ms`` a ``float`` in milliseconds rounded to 3 decimals
            (microseconds).
        """
        d = {"position": self.position, "value": self.value, "moves": dict(self.moves), "best": list(self.best),
             "wins": None if self.wins is None else list(self.wins), "pv": list(self.pv), "nodes": int(self.nodes),
             "ms": round(float(self.ms), 3)}
        if self.target is not None:
            d["target"] = self.target
            d["reached"] = self.reached
            d["seat"] = self.seat
        return d


def _as_position(position) -> Position:
    """``position`` as a :class:`Position` (a string is parsed); else the ValueError every public call raises."""
    if isinstance(position, Position):
        return position
    if isinstance(position, str):
        return Position.parse(position)
    raise ValueError(f"position: expected a Position or a string, got {type(position).__name__}")


#: ``solve_many`` / ``brisca solve --threads``: at most this many worker threads (each holds a 32 MB table).
MAX_THREADS = 256


def check_target(target):
    """A target of :func:`solve` as an ``int``, or None.

    Parameters
    ----------
    target : int, float, Fraction, Decimal or None
        Card points the side to move should still capture (RULES R8: 61 wins a deal); any whole number,
        of any numeric type.

    Returns
    -------
    int or None

    Raises
    ------
    ValueError
        If ``target`` is not a whole number (``26.5``, ``nan``, ``inf``, a string, a bool) or lies outside
        the int64 range (its parquet column).
    """
    if target is None:
        return None
    if isinstance(target, decimal.Decimal):  # (a numbers.Number, not a numbers.Real)
        if not target.is_finite():
            raise ValueError("target: expected a whole number of card points, got "
                             + show_input(str(target), limit=60, quote=False))
        if target != 0 and target.adjusted() >= 19:  # (|x| >= 10**19: before int() or rounding,
            # which take minutes or overflow for 1E+1000000)
            raise ValueError(f"target: {show_input(str(target), limit=60, quote=False)} is out of range (an int64)")
        if target != target.to_integral_value():
            raise ValueError("target: expected a whole number of card points, got "
                             + show_input(str(target), limit=60, quote=False))
        target = int(target)
    if isinstance(target, bool) or not isinstance(target, numbers.Real):
        raise ValueError(f"target: expected a whole number of card points, got {show_repr(target)}")
    if isinstance(target, numbers.Integral):
        t = int(target)
    elif isinstance(target, numbers.Rational):  # (Fraction: exact, not through float)
        if target.denominator != 1:
            raise ValueError("target: expected a whole number of card points, got "
                             + show_repr(target, limit=60))  # (Fraction(10**5000, 3): by its size)
        t = int(target.numerator)
    else:
        f = float(target)
        if not f.is_integer():  # nan and inf too
            raise ValueError(f"target: expected a whole number of card points, got {target!r}")
        t = int(f)
    if not -2 ** 63 <= t < 2 ** 63:
        text = f"a {t.bit_length()}-bit integer" if t.bit_length() > 4000 else show_input(t, quote=False)
        raise ValueError(f"target: {text} is out of range (an int64)")
    return t


def check_seat(seat, pos: Position):
    """A ``seat`` of :func:`solve` (target mode) as an ``int``, or None.

    Parameters
    ----------
    seat : int or None
        The seat whose side target mode asks about (sides: RULES R3; three players: that seat alone).
    pos : Position
        The position (its player count bounds the seat).

    Returns
    -------
    int or None

    Raises
    ------
    ValueError
        If it is not a seat of ``pos`` (0 to players-1; a bool is refused).
    """
    if seat is None:
        return None
    return check_int(seat, "seat", 0, pos.rules.players, expected=f"a seat 0-{pos.rules.players - 1}")


def check_threads(threads) -> int:
    """A worker thread count of :func:`solve_many` (``brisca solve --threads``) as an ``int``.

    Parameters
    ----------
    threads : int
        1 to :data:`MAX_THREADS`; each thread holds its own 32 MB transposition table.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If it is not an integer in that range.
    """
    return check_int(threads, "threads", 1, MAX_THREADS + 1,
                     expected=f"an integer 1-{MAX_THREADS} (each thread holds a 32 MB transposition table)")


def _names(moves):
    """Card strings (``swap`` included) of the move ids ``moves`` (:func:`sim.cards.format_card`)."""
    return [format_card(int(m)) for m in moves]


def solve(position, target=None, *, pv: bool = True, moves: bool = True, win: bool = False,
          seat: int | None = None) -> SolveResult:
    """Solve a position exactly (open hands).

    Parameters
    ----------
    position : Position or str
        Every hand known; the stock known, or ``stock=?`` (expectation over draw orders,
        at most :data:`solver.chance.MAX_UNKNOWN_DRAWS` cards left to draw).
    target : int, optional
        Target mode: answer only whether the side to move (or of ``seat``) can still capture at
        least ``target`` card points (one null-window search). With ``stock=?``: whether its
        expected points (over the draw orders) reach ``target``.
    pv : bool
        Compute a principal variation (default True).
    moves : bool
        Compute every move's value (default True); False gives only the value.
    win : bool
        Target mode with ``target = 61 - points the side already holds`` (RULES R8); not with
        ``target``.
    seat : int, optional
        Target mode only: ask for the side of this seat (0 to players-1) instead of the side to
        move, e.g. to grade a puzzle answer on the position after it, where the turn may have
        passed. With three players that seat alone against the other two (paranoid).

    Returns
    -------
    SolveResult
        ``value`` (card points the side to move still captures, R2/R8), ``moves`` (every legal move
        and its value, best first), ``best``, ``pv`` (the principal variation), ``nodes``, ``ms``
        (milliseconds); in target mode ``target``, ``seat`` and ``reached`` instead of the values
        (:class:`SolveResult` gives every field).

    Raises
    ------
    ValueError
        For an invalid position (``"position: expected a Position or a string, got int"`` for
        anything else), a hidden hand, ``stock=?`` with too many cards left to draw, a ``target``
        that is not a whole number (:func:`check_target`), ``pv``, ``moves`` or ``win`` not a yes/no
        flag (``"pv: expected True or False, got 'no'"``: :func:`sim.checks.check_flag`), ``target``
        and ``win`` both, or a ``seat`` outside target mode or not a seat of the position.

    Examples
    --------
    >>> r = solve("players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17")
    >>> r.value, r.moves
    (26, {'2C': 26, '10O': 18, '12E': 16})
    """
    from .chance import check_solvable, solve_chance

    t0 = time.perf_counter()
    c0 = _compile_seconds()  # (a first call loads compiled code: left out of ms, as a table's allocation)
    target = check_target(target)
    pv, moves, win = check_flag(pv, "pv"), check_flag(moves, "moves"), check_flag(win, "win")
    if win and target is not None:
        raise ValueError(f"target: give a target or win=True, not both (got target={target})")
    pos = _as_position(position)
    if seat is not None:
        if target is None and not win:
            raise ValueError("seat: only in target mode (with a target or win=True)")
        seat = check_seat(seat, pos)
    check_solvable(pos)
    if target is not None or win:
        seat = pos.turn if seat is None else seat
    if win:
        target = 61 - pos.side_points(seat)
    if target is not None and (pos.is_terminal or target <= 0 or target > pos.future_points()):
        # decided without a search, the stock known or not (card points left, RULES R2)
        return SolveResult(position=str(pos), target=int(target), seat=seat, reached=bool(target <= 0),
                           ms=_elapsed_ms(t0, c0))
    if pos.stock is None:
        if target is not None:
            r = solve_chance(pos, moves=False, perspective=seat, _since=(t0, c0))
            r.target = int(target)
            r.seat = seat
            r.reached = bool(r.value >= target)
            r.value = None  # (moves, best and pv stay empty with a perspective: target mode answers reached only)
            return r
        return solve_chance(pos, moves=moves, _since=(t0, c0))
    return _solve_known_stock(pos, target, seat, moves, pv, t0, c0)


def _solve_known_stock(pos: Position, target, seat, moves: bool, pv: bool, t0: float, c0: float) -> SolveResult:
    """:func:`solve`'s search of a position with a known stock, its arguments checked.

    ``target`` and ``seat`` are ``int`` in target mode (``win`` already turned into its target), else None;
    ``t0`` and ``c0`` are the call's start (``time.perf_counter()``, :func:`_compile_seconds`) for ``ms``.
    """
    from . import search as S

    st, stock, ismax = pos.to_arrays(perspective=seat)  # (seat: target mode only)
    tw = time.perf_counter()
    ws = workspace()
    t0 += time.perf_counter() - tw  # (a thread's first call allocates its table: not part of the solve)
    tk1, tk2, td, fr, mv, cnt = ws
    flags = S.default_flags()
    D = S.drivers(st, flags)  # compiles only the kernel this table needs
    cnt[0] = 0
    cnt[1] = _next_stamp()
    rem = int(S.points_left(st))
    res = SolveResult(position=str(pos))
    if pos.is_terminal:
        res.value = 0
        res.ms = _elapsed_ms(t0, c0)
        return res
    if target is not None:
        t = int(target)
        res.target = t
        res.seat = seat
        res.reached = bool(D.probe(st, stock, ismax, t - 1, t, tk1, tk2, td, fr, mv, cnt, flags) >= t)
        res.nodes = int(cnt[0])
        res.ms = _elapsed_ms(t0, c0)
        return res
    if moves:
        mvs = np.zeros(S.MAXM, dtype=np.int64)
        vals = np.zeros(S.MAXM, dtype=np.int64)
        k = D.solve_moves(st, stock, ismax, rem // 2, mvs, vals, tk1, tk2, td, fr, mv, cnt, flags)
        value = int(vals[:k].max())
        order = sorted(range(k), key=lambda i: -vals[i])
        res.moves = {format_card(int(mvs[i])): int(vals[i]) for i in order}
        res.best = [format_card(int(mvs[i])) for i in order if vals[i] == value]
        if pos.rules.sides == 2:  # (with three players the most points win, not 61: R8)
            held = pos.side_points(pos.turn)
            res.wins = [m for m, v in res.moves.items() if held + v >= 61]
    else:
        value = int(D.mtdf(st, stock, ismax, rem // 2, tk1, tk2, td, fr, mv, cnt, flags))
    res.value = value
    if pv:
        out = np.zeros(S.MAXD, dtype=np.int64)
        k = D.principal_variation(st, stock, ismax, value, out, tk1, tk2, td, fr, mv, cnt, flags)
        res.pv = _names(out[:k])
    res.nodes = int(cnt[0])
    res.ms = _elapsed_ms(t0, c0)
    return res


def solve_many(positions, threads: int | None = None, target=None, *, pv: bool = True, moves: bool = True,
               win: bool = False, seat: int | None = None, errors: str = "raise"):
    """Solve many positions in parallel over positions (one transposition table per thread).

    Parameters
    ----------
    positions : iterable of Position or str
    threads : int, optional
        Worker threads, 1 to :data:`MAX_THREADS` (default: ``numba.get_num_threads()``; never more than
        there are positions). The kernels release the GIL; each thread holds a 32 MB table. The
        worker threads are kept for the next call (one pool a process, grown to the largest
        ``threads`` asked for), so their tables are allocated once (about 10 ms each) and stay
        allocated until the process ends or :func:`release_workers` frees them. With ``threads=1``
        the positions are solved in the calling thread. Interrupted (``KeyboardInterrupt``), the call
        raises at once; each worker stops after the position it is solving (a compiled search cannot
        be stopped midway).
    target, pv, moves, win, seat
        As in :func:`solve`, for every position.
    errors : {"raise", "return"}
        ``"return"`` puts the ``ValueError`` in the result list instead of raising.

    Returns
    -------
    list of SolveResult
        In the order of ``positions``; with ``errors="return"`` a position's ``ValueError`` (its message
        not prefixed) stands in place of its result.

    Raises
    ------
    ValueError
        For an invalid position (with ``errors="raise"``: the first in order, its message prefixed
        ``positions[i]: ``), a single string or a mapping for ``positions``, bad ``threads``,
        ``target`` or ``errors``, ``pv``, ``moves`` or ``win`` not a yes/no flag, ``target`` and ``win``
        both, or a ``seat`` given without a target or ``win`` or not an integer 0 or more (a seat past a
        position's players is that position's error).

    Examples
    --------
    >>> from solver.position import deal_position
    >>> from sim.rules import Rules
    >>> deals = [deal_position(Rules(players=2), 1, d) for d in range(4)]  # run seed 1, deals 0-3
    >>> [r.value for r in solve_many(deals, threads=2, pv=False)]  # the first leader's optimal points
    [62, 45, 60, 57]
    >>> solve_many(["players=2"], errors="return")
    [ValueError('trump: missing (required)')]
    """
    if isinstance(positions, (str, bytes, Position)):
        raise ValueError("positions: expected an iterable of positions, got a single "
                         f"{type(positions).__name__} (wrap it in a list)")
    if not is_iterable(positions):
        # (a 0-d array, np.array(text): numpy's "iteration over a 0-d array", break-it pass 40)
        raise ValueError(f"positions: expected an iterable of positions, got {type(positions).__name__}")
    why = sequence_problem(positions, ordered=False)  # (a dict, a DataFrame: not its keys silently; a set is
    if why:  # taken, each result naming its position)
        raise ValueError(f"positions: expected an iterable of positions, got a {type(positions).__name__} ({why}; "
                         "pass a list)")
    if errors not in ("raise", "return"):
        raise ValueError(f"errors: expected 'raise' or 'return', got {show_repr(errors)}")
    pv, moves, win = check_flag(pv, "pv"), check_flag(moves, "moves"), check_flag(win, "win")  # (once, not a line each)
    target = check_target(target)
    if win and target is not None:
        raise ValueError(f"target: give a target or win=True, not both (got target={target})")
    if seat is not None:  # (the call's argument: raised once, not returned once a position; break-it pass 19)
        if target is None and not win:
            raise ValueError("seat: only in target mode (with a target or win=True)")
        check_int(seat, "seat")  # (its top, players-1, is each position's: checked there)
    positions = list(positions)
    n = len(positions)
    if threads is None:
        import numba
        threads = numba.get_num_threads()
    threads = min(check_threads(threads), max(1, n))  # (1 for a single position or none)

    def one(i):
        try:
            return solve(positions[i], target, pv=pv, moves=moves, win=win, seat=seat)
        except ValueError as e:
            if errors == "return":
                return e
            # (which one: new-user pass of 2026-12-06, sixth part; analyse_play names its move, --file its line)
            raise ValueError(f"positions[{i}]: {e}") from e

    if threads == 1:
        return [one(i) for i in range(n)]
    # ``threads`` loops on the kept pool, each taking the next position in order until none is left
    out = [None] * n
    failed = {}  # position index -> its exception
    take = threading.Lock()
    state = {"next": 0, "stop": False}

    def loop():
        while True:
            with take:
                i = state["next"]
                if state["stop"] or i >= n:
                    return
                state["next"] = i + 1
            try:
                out[i] = one(i)
            except BaseException as e:  # (the first in position order is raised below)
                failed[i] = e
                state["stop"] = True
                return

    futures = _submit_kept(threads, loop)
    try:
        for fu in futures:
            fu.result()
    finally:
        state["stop"] = True  # (interrupted: the workers stop after the position each is solving)
    if failed:
        # every position before the first failure was handed out before it, so all of them ended: this is
        # the error a loop in position order would have raised first
        raise failed[min(failed)]
    return out


def _card_of(move, pos: Position) -> int | None:
    """The card id that ``move`` names (a card string or id), None for anything else (for analyse_play's message)."""
    from sim.cards import parse_card
    try:
        return parse_card(move.strip(), pos.rules.deck) if isinstance(move, str) else int(move)
    except (ValueError, TypeError):
        return None


def analyse_play(deal, moves, *, perspective: int | None = None) -> list:
    """Grade a played sequence: one value before each move and one after the last.

    Parameters
    ----------
    deal : Position or str
        Start position (open hands, known stock; ``stock=?`` only when nothing is left to draw).
    moves : sequence of str or int
        Moves played from ``deal`` on (cards, ``swap``), by whichever seat is to move.
    perspective : int, optional
        Seat whose side the values are for (default: the seat to move in ``deal``;
        with three players the paranoid value of that seat).

    Returns
    -------
    list of int
        ``len(moves) + 1`` values. Value ``i`` is the card points the perspective side
        captures from ``deal`` to the end of the deal if play follows ``moves[:i]`` and is
        perfect afterwards: points it captured along ``moves[:i]`` plus its exact future
        points. The values stay constant along a principal variation; a drop marks an
        error of the perspective side, a rise an error of the other side.

    Raises
    ------
    ValueError
        For an invalid position, a hidden hand, ``stock=?`` with cards left to draw, an illegal move
        (naming its index, its trick counted from the deal's first and the seat to move; every move is
        checked before any solve; a card in no field of ``deal``, without ``played=``, is said to have been
        played before it: a card drawn but left out of ``stock=`` reads so, and the trick is then given counting
        those cards and without them), ``moves`` given as one string, as a mapping or in no order (a set), or a
        ``perspective`` that is not a seat of the position.

    Examples
    --------
    Seat 1 answers the As de Oros with the 10O (it should play the 2C), then seat 0 leads the 3C:

    >>> p = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
    >>> analyse_play(p, ["10O", "3C"])  # seat 1's side: its error costs 8 points, seat 0's gives back 6
    [26, 18, 24]
    """
    from . import search as S

    pos = _as_position(deal)
    if pos.stock is None and pos.is_open and pos.left == 0:
        # nothing left to draw: stock=? hides no order (break-it pass of 2026-12-04: was refused)
        pos = Position.make(pos.rules, pos.trump, pos.hands, (), turn=pos.turn, trick=pos.trick, points=pos.points,
                            played=pos.played_given, hidden=pos.hidden, side_won=pos.side_won,
                            removed=pos.removed_hint)
    pos._need_known_stock("analyse_play")
    if isinstance(moves, (str, bytes)):
        raise ValueError(f"moves: expected a sequence of moves, got the string {show_input(moves)} (wrap it in a list)")
    why = sequence_problem(moves)  # (break-it passes: a set replayed in hash order, 2026-12-05; a DataFrame's
    if why:  # column labels played, 2026-12-06)
        raise ValueError(f"moves: expected a sequence of moves{' in order' if why == ARBITRARY_ORDER else ''}, got a "
                         f"{type(moves).__name__} ({why}; pass a list)")
    # at most the moves the deal has left (every card in hand or to draw, R7's two exchanges) and one more,
    # whose error names it: range(10**9) or an endless generator was read whole first (break-it pass 40: a
    # MemoryError, or the machine's memory)
    most = sum(len(h) for h in pos.hands) + pos.left + 2 + 1
    try:
        moves = list(itertools.islice(moves, most))  # (a generator too)
    except TypeError:
        raise ValueError(f"moves: expected a sequence of moves, got {type(moves).__name__}") from None
    n = pos.rules.players
    persp = pos.turn if perspective is None else check_int(perspective, "perspective", 0, n,
                                                           expected=f"a seat 0-{n - 1}")
    # every move checked legal before any solve (user study 66: a card written wrong near the end of a game
    # kept on paper was refused only after a solve of every position before it, about a second each with 4
    # players); the positions along the moves are kept for the solves
    mids, path = [], [pos]
    for i, m in enumerate(moves):
        try:
            mids.append(path[-1].parse_move(m))
        except ValueError as e:
            raise _illegal_move(i, m, str(e), pos, path[-1]) from None
        path.append(path[-1].apply(mids[-1]))
    ws = workspace()
    tk1, tk2, td, fr, mv, cnt = ws
    flags = S.default_flags()
    cnt[1] = _next_stamp()  # one stamp: the TT stays valid along the deal (fixed perspective)
    out = []
    gained = 0
    for i, cur in enumerate(path):
        st, stock, ismax = cur.to_arrays(perspective=persp)
        rem = int(S.points_left(st))
        v = 0 if cur.is_terminal else int(S.drivers(st, flags).mtdf(st, stock, ismax, rem // 2, tk1, tk2, td, fr, mv,
                                                                   cnt, flags))
        out.append(gained + v)
        if i < len(mids):
            gained += int(S.apply_move(st.copy(), stock.copy(), ismax, mids[i]))
    return out


def _illegal_move(i: int, move, msg: str, start: Position, cur: Position) -> ValueError:
    """:func:`analyse_play`'s error for ``moves[i]``, refused by ``cur.parse_move`` with ``msg``: the index, the
    trick (counted from the deal's first, 1) and the seat to move, as a game kept on paper has them."""
    n = start.rules.players
    where = "" if cur.is_terminal else f" (trick {len(cur.played) // n + 1}, seat {cur.turn} to move)"
    if " has already been played (legal: " in msg and start.played_given is None \
            and _card_of(move, start) in start.played:
        # (new-user pass 31: a game kept on paper whose stock= left out two cards drawn parsed, the two read
        # as played before the start, and the first of them played said only "has already been played",
        # though the moves play it once: the card is in no field of the start position; review rv66: the
        # trick counted those cards, naming trick 5 for a card of the paper's trick 4: both counts are given)
        k = len(start.played)
        where = (f" (trick {len(cur.played) // n + 1} counting the {count_of(k, 'card')} read as played "
                 f"before the start position, trick {(len(cur.played) - k) // n + 1} without them; seat "
                 f"{cur.turn} to move)")
        msg = msg.replace(" has already been played (legal: ", " has already been played, before the start "
                          "position (it is in none of its hands, trick or stock: a card drawn in the game "
                          "but left out of stock= reads as played) (legal: ", 1)
    # ("move: 3C is not legal here": the index names the move; break-it pass of 2026-12-05)
    return ValueError(f"moves[{i}]{where}: {msg[len('move: '):] if msg.startswith('move: ') else msg}")
