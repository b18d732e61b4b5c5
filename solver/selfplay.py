"""Open-hand self-play: both sides perfect (Descubierta with a known stock order, RULES R11).

:func:`play_open_batch` fills the same output arrays as :func:`sim.engine.play_batch`
(``R_*`` result columns, ``T_*`` trick rows, initial hands, deal seeds) for the same
deals (deal ``d`` of seed ``s`` is :func:`sim.engine.shuffle_deal` with
:func:`sim.rng.deal_seed` ``(s, d)``), every seat playing the solver's move.

Two sides (2, 4, 6 players): the deal is solved once from the first lead with the
maximizing side fixed to the even seats and play follows the principal variation
(every move on it is optimal for the seat that makes it). Three players: each seat
in turn plays its best paranoid move (re-solved at every move); ties go to the
lowest card id, ``swap`` last.
"""
from __future__ import annotations

import queue
import threading
import weakref

import numpy as np

from sim.cards import SWAP
from sim.rules import Rules, trick_winner
from sim.threads import start_thread

from .position import ST_HAND, ST_LEADER, ST_NTRICK, ST_TRICK, deal_position


def _rules_of(rules) -> Rules:
    """``rules`` as :class:`~sim.rules.Rules`: a ``Rules`` as it is, or the kernels' array
    (:meth:`~sim.rules.Rules.to_array`, ``ndarray(int64, shape=(P_SIZE,))``) read back.

    Raises
    ------
    ValueError
        If ``rules`` is neither (``None``, an int, a dict, a string: the break-it pass of 2026-12-06 found
        an ``IndexError`` from the indexing below), or its array names no rule set (:class:`Rules` checks).
    """
    if isinstance(rules, Rules):
        return rules
    if not isinstance(rules, (np.ndarray, list, tuple)):
        from sim.rules import P_SIZE
        raise ValueError(f"rules: expected a sim.rules.Rules or its to_array() (int64, shape ({P_SIZE},)), "
                         f"got {type(rules).__name__}")
    return Rules.from_array(rules)  # (its shape and dtype check names them)


_local = threading.local()  # per calling thread: solver (its _SolvingThread) and claim (its _Claim)


class _SolvingThread(threading.Thread):
    """A daemon thread that runs the calls :func:`_in_solving_thread` hands it, one at a time.

    ``jobs`` takes ``(fn, args, box, done)`` tuples: the thread appends ``(True, result)`` or
    ``(False, exception)`` to ``box`` and sets the ``done`` event. Anything else on it (the weakref of the
    caller's :class:`_Claim`, put there by its callback) ends the thread. ``claim`` is that weakref, made
    before the thread starts (so no interruption can leave a started thread without it): held here because
    a weakref's callback runs only while the weakref itself lives.
    """

    def __init__(self, claim):
        super().__init__(name="brisca-selfplay", daemon=True)
        self.jobs = queue.SimpleQueue()
        self.claim = weakref.ref(claim, self.jobs.put)
        start_thread(self)  # (under sim.threads' lock: an interruption cannot land in the new thread)

    def run(self):
        while True:
            job = self.jobs.get()
            if type(job) is not tuple:  # (the weakref of its dropped _Claim: the caller ended or gave it up)
                return
            fn, args, box, done = job
            try:
                box.append((True, fn(*args)))
            except BaseException as e:  # (raised again in the caller)
                box.append((False, e))
            done.set()


class _Claim:
    """The calling thread's hold on its solving thread, kept only in that thread's locals (``_local.claim``).

    When the calling thread ends, its locals go and the claim with them (an interrupted call drops it
    too, :func:`_in_solving_thread`): a weakref callback (C code: no Python
    for an interruption to land in) puts the weakref on the solving thread's queue and that thread ends after
    the job it is on. (Break-it pass 29: a solving thread outlived the thread it served, blocked on its queue
    for good with its 32 MB of search buffers: one more for every thread that had called play_open_batch or
    warm_up, e.g. every in-process ``brisca`` command's worker, every open_values.py pool thread.)"""
    __slots__ = ("__weakref__",)


def _in_solving_thread(fn, *args):
    """``fn(*args)`` run in the calling thread's own solving thread and waited for in steps of 0.05 s.

    A compiled search (numba, no GIL) runs for seconds (4 players) or minutes (6 players with
    ``catalan48``), and an exception another thread raises in this one (``sim.cli.run_interruptible``'s
    Ctrl-C and SIGTERM) lands only when Python runs again: called directly, a signal during a deal's solve
    waited past the command's 2 s grace, and the process was ended without unwinding, every finished deal
    and the summary lost (break-it pass 28). Waiting here, the interruption lands at once; the search left
    running ends on its own (its thread is dropped; the next call starts another one). Each calling thread
    has its own solving thread (and so its own search buffers): parallel callers stay parallel."""
    w = getattr(_local, "solver", None)
    if w is None or not w.is_alive():
        # the claim first, then the thread that it ends: an interruption anywhere here drops the local claim
        # (ending a thread just started) or leaves it in _local, whose next replacement or end ends it
        claim = _Claim()
        w = _SolvingThread(claim)
        _local.claim = claim  # (replacing an earlier claim ends the earlier thread, if it still runs)
        _local.solver = w
        del claim  # (only _local holds it)
    box, done = [], threading.Event()
    try:
        w.jobs.put((fn, args, box, done))  # (inside the try: an interruption right after it abandons the job)
        while not done.wait(0.05):
            pass
    except BaseException:
        # busy with the abandoned search: dropping the claim ends it after that search (the callback above)
        _local.solver = _local.claim = None
        raise
    ok, value = box[0]
    if ok:
        return value
    raise value


def play_open_deal(rules, seed: int, d: int, ws=None):
    """Play deal ``d`` of ``seed`` with both sides perfect.

    Parameters
    ----------
    rules : sim.rules.Rules or ndarray(int64, shape=(P_SIZE,))
        The table (R1-R9).
    seed, d : int
        Run seed and deal number, each ``0 <= x < 2**64`` (:func:`solver.position.deal_position`).
    ws : tuple of 6 ndarray(int64), optional
        Search buffers (:func:`solver.search.new_workspace`); default: the calling thread's own
        (:func:`solver.api.workspace`).

    Returns
    -------
    dict
        ``moves`` (list of move ids: card ids and ``SWAP``, every seat's, to the end of the deal),
        ``value`` (card points the even seats capture, exact; None with three players, where each seat
        plays its own paranoid best move), ``position`` (start position, :class:`solver.Position`),
        ``nodes`` (nodes searched; three players: over every move's solve).

    Raises
    ------
    ValueError
        For an invalid ``rules``, ``seed`` or ``d``, or a ``ws`` that is not six buffers of
        :func:`solver.search.new_workspace`'s layout (:func:`solver.api.check_workspace`).
    """
    from . import search as S
    from .api import _next_stamp, check_workspace, workspace

    rules = _rules_of(rules)
    pos = deal_position(rules, seed, d)
    # (break-it pass 23: ws=5 said "cannot unpack non-iterable int object"; pass 25: buffers too small
    # crashed the interpreter, and the check allocated the thread's own 32 MB table)
    tk1, tk2, td, fr, mv, cnt = check_workspace(ws) if ws is not None else workspace()
    flags = S.default_flags()
    cnt[0] = 0
    n = rules.players
    if n != 3:
        cnt[1] = _next_stamp()
        st, stock, ismax = pos.to_arrays(perspective=0)
        D = S.drivers(st, flags)  # compiles only the kernel this table needs
        v = int(D.mtdf(st, stock, ismax, 60, tk1, tk2, td, fr, mv, cnt, flags))
        out = np.zeros(S.MAXD, dtype=np.int64)
        k = D.principal_variation(st, stock, ismax, v, out, tk1, tk2, td, fr, mv, cnt, flags)
        return {"moves": [int(x) for x in out[:k]], "value": v, "position": pos, "nodes": int(cnt[0])}
    # three players: each seat maximizes its own paranoid value
    moves = []
    cur = pos
    mvs = np.zeros(S.MAXM, dtype=np.int64)
    vals = np.zeros(S.MAXM, dtype=np.int64)
    while not cur.is_terminal:
        cnt[1] = _next_stamp()
        st, stock, ismax = cur.to_arrays()
        k = S.drivers(st, flags).solve_moves(st, stock, ismax, 30, mvs, vals, tk1, tk2, td, fr, mv, cnt, flags)
        best = int(mvs[int(np.argmax(vals[:k]))])
        moves.append(best)
        cur = cur.apply(best)
    return {"moves": moves, "value": None, "position": pos, "nodes": int(cnt[0])}


def warm_up(rules):
    """Compile or load what :func:`play_open_batch` calls (the deal shuffle and the solver's
    kernels) on a cheap position: deal 0 of seed 0 played by its first legal moves down to the
    last two tricks. ``sim.batch.simulate`` calls it before its timed run instead of playing a
    whole deal twice (a full 4-player deal takes seconds to solve, a 6-player one minutes).

    Parameters
    ----------
    rules : sim.rules.Rules or ndarray(int64, shape=(P_SIZE,))
        The table (players, deck, exchange and endgame rules, R1-R9).

    Raises
    ------
    ValueError
        For an invalid ``rules``.
    KeyboardInterrupt
        Raised into the calling thread while it compiles or loads (a minute on a cold cache): it lands
        within 0.05 s, as in :func:`play_open_batch`, whose solving thread this one is.
    """
    rules = _rules_of(rules)
    _in_solving_thread(_warm_up, rules)  # (the thread play_open_batch solves in: its buffers, no others)


def _warm_up(rules):
    """:func:`warm_up`'s work, run in the solving thread (``rules`` a :class:`~sim.rules.Rules`)."""
    from sim.engine import shuffle_deal
    from sim.rng import deal_seed
    from . import search as S
    from .api import workspace

    shuffle_deal(rules.to_array(), np.array(rules.deck_cards, dtype=np.int8),
                 np.uint64(deal_seed(np.uint64(0), np.uint64(0))), np.zeros(48, dtype=np.int8),
                 np.zeros(1, dtype=np.uint64))
    pos = deal_position(rules, 0, 0)
    while pos.left > 0 or pos.trick or sum(len(h) for h in pos.hands) > 2 * rules.players:
        pos = pos.apply(pos.legal_moves()[0])
    tk1, tk2, td, fr, mv, cnt = workspace()
    flags = S.default_flags()
    st, stock, ismax = pos.to_arrays(perspective=0)
    D = S.drivers(st, flags)
    v = int(D.mtdf(st, stock, ismax, 60, tk1, tk2, td, fr, mv, cnt, flags))
    D.principal_variation(st, stock, ismax, v, np.zeros(S.MAXD, dtype=np.int64), tk1, tk2, td, fr, mv, cnt, flags)
    D.solve_moves(st, stock, ismax, 30, np.zeros(S.MAXM, dtype=np.int64), np.zeros(S.MAXM, dtype=np.int64),
                  tk1, tk2, td, fr, mv, cnt, flags)


def play_open_batch(rules, seed, row0, m, rotations, res, hands0, dseeds, tricks, rec):
    """Play rows ``row0 .. row0+m-1`` with both sides perfect; same outputs as :func:`sim.engine.play_batch`.

    Parameters
    ----------
    rules : sim.rules.Rules or ndarray(int64, shape=(P_SIZE,))
        The table (R1-R9).
    seed : int
        Run seed, ``0 <= seed < 2**64``, or its int64 bits (:func:`sim.rng.seed_bits`, as
        :func:`sim.batch.simulate` passes it): any integer from ``-2**63`` is read modulo ``2**64``.
    row0, m : int
        First row and number of rows; row ``r`` plays deal ``r // rotations``.
    rotations : int
        Rows per deal (both sides perfect: every rotation plays the same, so a deal is solved once for
        its consecutive rows; a deal whose rows a chunk boundary splits is solved once in each chunk).
    res : ndarray(int16, shape=(m, R_SIZE))
        Output: ``R_*`` columns (card points per seat/side, tricks, winner, capote, exchanges, ...). Any
        signed integer dtype is taken (a draw's winner and an unused exchange slot are -1), any integer
        dtype in ``hands0`` and ``tricks``, and more rows or columns than these shapes.
    hands0 : ndarray(int8, shape=(m, players, 3))
        Output: initial hands in the order dealt.
    dseeds : ndarray(uint64, shape=(m,))
        Output: deal seeds.
    tricks : ndarray(int16, shape=(m or 1, tricks, T_SIZE))
        Output when ``rec``: leader, winner, card points, cards of every trick (untouched, and not
        checked, without ``rec``).
    rec : bool
        Record every trick in ``tricks``.

    Raises
    ------
    ValueError
        For an invalid ``rules``, a ``seed``, ``row0``, ``m`` or ``rotations`` that is not an integer in
        range (``seed``: the run seed or its int64 bits; ``rotations`` at least 1; the rows' last deal
        ``(row0 + m - 1) // rotations`` at most 2**64 - 1), a ``rec`` that is not a yes/no flag, or an
        output array with fewer than ``m`` rows, rows shorter than the shapes above, or another dtype than
        the ones above (``dseeds``: uint64), or a read-only output array.
    KeyboardInterrupt
        Raised into the calling thread (Ctrl-C; ``sim.cli`` turns SIGTERM into one) while a deal is solved:
        it lands within 0.05 s, because each solve runs in a solving thread of the caller's own (numba's
        search holds no Python to interrupt). The rows before that deal are filled; the abandoned search
        runs on in its daemon thread until it ends (seconds with 4 players, minutes with 6).

    Notes
    -----
    Each calling thread has its own solving thread and search buffers (32 MB), ended when the calling
    thread ends: parallel callers (``benchmarks/open_values.py --threads``) stay parallel.
    """
    from sim.checks import check_flag, check_int
    from sim.engine import shuffle_deal
    from sim.rng import deal_seed

    rules = _rules_of(rules)
    # (break-it pass of 2026-12-06: seed=1.5 was cut to 1, "1" read as 1, rotations=0 a ZeroDivisionError)
    seed, row0, m, rotations = (check_int(v, name, lo) for name, v, lo in (
        ("seed", seed, -2 ** 63), ("row0", row0, 0), ("m", m, 0), ("rotations", rotations, 1)))
    # (Python ints from here: a numpy uint8 row0 of 255 made row 256 deal 0, and rows past deal 2**64 - 1
    # raised OverflowError after the first deal was solved; break-it pass 23)
    if m and (row0 + m - 1) // rotations >= 2 ** 64:
        raise ValueError(f"row0, m: rows {row0}..{row0 + m - 1} play deals past the last deal number, 2**64 - 1")
    rec = check_flag(rec, "rec")
    _check_outputs(rules, m, rec, res, hands0, dseeds, tricks)
    # the batch passes the run seed as int64 bits (2**64 - 1 arrives as -1): keep the bits
    seed = int(seed) & 0xFFFFFFFFFFFFFFFF
    n = rules.players
    order = np.zeros(48, dtype=np.int8)
    rng = np.zeros(1, dtype=np.uint64)
    deck = np.array(rules.deck_cards, dtype=np.int8)
    ra = rules.to_array()
    solved, play = None, None  # (the deal whose solved play is held: a rotation's row reuses it)
    for i in range(m):
        d = (row0 + i) // rotations
        ds = np.uint64(deal_seed(np.uint64(seed), np.uint64(int(d))))
        dseeds[i] = ds
        removed = shuffle_deal(ra, deck, ds, order, rng)
        for k in range(3 * n):
            hands0[i, k % n, k // n] = order[k]
        if d != solved:  # (review of 2026-12-07: every rotation of a deal was solved again, the same play)
            play = _in_solving_thread(play_open_deal, rules, seed, d)  # (interruptible: see there)
            solved = d
        _fill_row(rules, play, removed, res[i], tricks[i] if rec else None)


def _check_outputs(rules, m, rec, res, hands0, dseeds, tricks):
    """Raise the ValueError :func:`play_open_batch` documents for an output array it cannot fill.

    Each output's row shape and the dtypes it takes (kinds, or a dtype's name) are checked before any deal
    is solved (break-it pass 19: a row too short was an IndexError, an int8 dseeds an OverflowError, after
    the deal): a deal seed is 64 bits; res holds -1 (a draw's winner, an unused exchange slot), so signed
    integers (an unsigned res: break-it pass 23); the other outputs any integers. ``tricks`` only when
    ``rec``.
    """
    from sim.engine import R_SIZE, T_SIZE

    need = {"res": (res, (R_SIZE,), ("i",), "signed integers"),
            "hands0": (hands0, (rules.players, 3), ("i", "u"), "integers"),
            "dseeds": (dseeds, (), ("uint64",), "uint64")} | (
        {"tricks": (tricks, (rules.tricks, T_SIZE), ("i", "u"), "integers")} if rec else {})
    for name, (a, inner, takes, what) in need.items():
        ndim = len(inner) + 1
        if not isinstance(a, np.ndarray) or a.ndim != ndim or a.shape[0] < m:
            raise ValueError(f"{name}: expected an ndarray of {ndim} dimensions with at least m={m} rows, got "
                             + (f"shape {a.shape}" if isinstance(a, np.ndarray) else type(a).__name__))
        if any(s < k for s, k in zip(a.shape[1:], inner)) or not {a.dtype.kind, a.dtype.name} & set(takes):
            raise ValueError(f"{name}: expected rows of shape {inner} ({what}), got shape {a.shape}, dtype {a.dtype}")
        if not a.flags.writeable:  # (numpy's "assignment destination is read-only", naming no output, after the
            raise ValueError(f"{name}: the output array is read-only")  # first deal's solve: break-it pass 28)


def _fill_row(rules, play, removed, res_row, tricks_row):
    """Replay a solved deal (:func:`play_open_deal`'s ``play``) and write its result columns.

    Parameters
    ----------
    rules : sim.rules.Rules
    play : dict
        :func:`play_open_deal`'s result: its ``position`` and ``moves`` are replayed.
    removed : int
        The card the deal left out (:func:`sim.engine.shuffle_deal`'s return), for ``R_REMOVED``.
    res_row : ndarray(signed int, shape=(R_SIZE,))
        Output: the deal's ``R_*`` columns.
    tricks_row : ndarray(int, shape=(tricks, T_SIZE)) or None
        Output, when given: leader, winner, card points and cards of every trick.
    """
    from sim.engine import (R_CAPOTE, R_EX, R_FIRST, R_NEX, R_PINTA, R_REMOVED, R_SEAT_POINTS, R_SEAT_TRICKS,
                            R_SIDE_POINTS, R_STATUS, R_TRUMP, R_WINNER, T_CARDS, T_LEADER, T_POINTS, T_WINNER)
    from . import search as S

    n = rules.players
    nsides = rules.sides
    pos = play["position"]
    st, stock, ismax = pos.to_arrays(perspective=0)
    res_row[R_PINTA] = pos.trump
    res_row[R_TRUMP] = pos.trump // 12
    res_row[R_FIRST] = 0
    res_row[R_REMOVED] = removed
    res_row[R_STATUS] = 0
    for k in range(6):  # two exchange slots (seat, card given, trick), -1 while unused
        res_row[R_EX + k] = -1
    pts = [0] * n  # card points each seat took
    won = [0] * n  # tricks each seat took
    nex = 0  # exchanges so far
    t = 0  # tricks so far
    for move in play["moves"]:
        ntr = int(st[ST_NTRICK])
        leader = int(st[ST_LEADER])
        seat = (leader + ntr) % n
        if move == SWAP:
            res_row[R_EX + 3 * nex] = seat
            hand_before = int(st[ST_HAND + seat])
            S.apply_move(st, stock, ismax, move)
            given = [c for c in range(48) if hand_before >> c & 1 and not int(st[ST_HAND + seat]) >> c & 1]
            res_row[R_EX + 3 * nex + 1] = given[0]
            res_row[R_EX + 3 * nex + 2] = t
            nex += 1
            continue
        if ntr == n - 1:  # this move ends the trick
            cards = [int(st[ST_TRICK + j]) for j in range(n - 1)] + [move]
            w = int(trick_winner(np.array(cards, dtype=np.int64), n, pos.trump // 12))
            taker = (leader + w) % n
            tp = sum(int(S.card_points(c)) for c in cards)
            pts[taker] += tp
            won[taker] += 1
            if tricks_row is not None:
                tricks_row[t, T_LEADER] = leader
                tricks_row[t, T_WINNER] = taker
                tricks_row[t, T_POINTS] = tp
                for j in range(n):
                    tricks_row[t, T_CARDS + j] = cards[j]
            t += 1
        S.apply_move(st, stock, ismax, move)
    res_row[R_NEX] = nex
    side = [0] * nsides
    for s in range(n):
        res_row[R_SEAT_POINTS + s] = pts[s]
        res_row[R_SEAT_TRICKS + s] = won[s]
        side[s % nsides] += pts[s]
    for s in range(nsides):
        res_row[R_SIDE_POINTS + s] = side[s]
    best = max(range(nsides), key=lambda s: side[s])
    if side[best] >= 61:
        winner = best
    elif sum(1 for s in range(nsides) if side[s] == side[best]) > 1:
        winner = -1
    else:
        winner = best
    res_row[R_WINNER] = winner  # RULES R8
    res_row[R_CAPOTE] = 1 if max(side) == 120 else 0
