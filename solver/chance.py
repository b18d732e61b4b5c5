"""``stock=?``: expectimax over uniformly random draw orders (RULES R6, R11 Descubierta).

Every hand is known and the order of the face-down stock is not: at each draw the
drawing seat gets a uniformly random card of the unknown pool (the pinta is
drawn last, R4/R6). Seats decide knowing every hand and the draws so far, never
the future draws: decision nodes are max/min, draws are chance nodes. Once the
last card is drawn the rest is perfect information and is solved by the exact
search (the ``mtdf`` entry point, :func:`solver.search.mtdf2`, :func:`solver.search.mtdf4`
or :func:`solver.search.mtdfn`, of the kernel :func:`solver.search.drivers` picks).

Exact arithmetic: values are kept as integers scaled by ``U!`` (``U`` = unknown
face-down cards at the root), so every expectation is an exact fraction: a draw
from a pool of ``c`` cards averages children whose values are multiples of
``U! / (c - 1)!``, so the integer division by ``c`` leaves no remainder.
Exact while at most :data:`MAX_UNKNOWN_DRAWS` cards remain to be drawn (the pinta
included); beyond that the tree is refused.

The search is iterative with explicit stacks (Numba's cache and recursion do not mix).
"""
from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np
from numba import njit, types
from numba.typed import Dict

from sim.cards import format_card
from sim.checks import check_flag
from sim.rules import exchange_card, legal_mask, trick_winner

from .position import (ST_SIZE, ST_DP, ST_ENDGAME, ST_EXCH, ST_EXWON, ST_HAND, ST_L, ST_LEADER, ST_NOTDONE, ST_NTRICK,
                       ST_PLAYERS, ST_SIDES, ST_SIDEWON, ST_TRICK, ST_TRUMP, Position)
from .search import SWAP, card_points, mtdf2, mtdf4, mtdfn

#: Most cards left to draw (face-down plus the pinta) that ``stock=?`` solves exactly.
MAX_UNKNOWN_DRAWS = 8

_KEY = types.UniTuple(types.int64, 8)


MAXF = 160   # frames: plies plus draws plus R7 exchanges (under 50 with 6 hands of 3 and MAX_UNKNOWN_DRAWS to draw)


@njit(cache=True, nogil=True, inline="always")  # (inline: the solver it is given must not be a runtime object)
def _chance_run(value, st0, pin0, kind0, ws0, ismax, F, memo, tk1, tk2, td, fr, mv, cnt, flags):
    """Iterative expectimax (explicit stack; cached).

    ``value``: the exact solver for the positions whose draws are all known (an ``mtdf`` entry
    point of :mod:`solver.search`, bound by :func:`_chance2`, :func:`_chance4` or :func:`_chancen`).
    ``st0``: the root state (``ST_*`` layout of :meth:`solver.position.Position.to_arrays`), whose
    face-down cards are those of ``ST_NOTDONE`` in no hand, the trick and the pinta aside; ``pin0``: the pinta (card id) at the
    root; root frame ``kind0`` 0 a decision, 1 the draws after a trick won by seat ``ws0``;
    ``ismax``: 1 for the seats of the maximizing side; ``F``: the scale (``U!``, module doc);
    ``memo``: trick-boundary values by an 8-int64 key (:data:`_KEY`), shared by the root moves;
    ``tk1`` .. ``flags``: the exact solver's workspace (:func:`solver.api.workspace`), ``cnt[0]``
    counting nodes. Returns the card points the maximizing side still captures from the root,
    in expectation, times ``F`` (an exact integer)."""
    n = st0[ST_PLAYERS]
    L = st0[ST_L]
    S = np.zeros((MAXF, ST_SIZE), dtype=np.int64)  # the state at this frame
    PIN = np.zeros(MAXF, dtype=np.int64)     # the pinta (last card to draw) at this frame
    KIND = np.zeros(MAXF, dtype=np.int64)    # 0 decision (a card or the R7 exchange), 1 draw
    REM = np.zeros(MAXF, dtype=np.int64)     # decision: cards left to try; draw: pool cards left to try
    EX = np.zeros(MAXF, dtype=np.int64)      # decision: swap card still to try, else -1
    BEST = np.zeros(MAXF, dtype=np.int64)    # decision: best so far; draw: sum of children
    CNT = np.zeros(MAXF, dtype=np.int64)     # draw: children so far
    ISM = np.zeros(MAXF, dtype=np.int64)     # decision: the seat to move is of the maximizing side
    GAIN = np.zeros(MAXF, dtype=np.int64)    # decision: points of the child's completed trick (scaled)
    WS = np.zeros(MAXF, dtype=np.int64)      # draw: trick winner
    J = np.zeros(MAXF, dtype=np.int64)       # draw: index of the draw in the round
    HASK = np.zeros(MAXF, dtype=np.int64)    # decision: store the value in memo under K[d] when done
    K = np.zeros((MAXF, 8), dtype=np.int64)  # decision: its memo key (trick boundaries only)
    stk = np.zeros(max(L, 1), dtype=np.int8)  # the stock's dtype in Position.to_arrays: one compile of the search
    for i in range(ST_SIZE):
        S[0, i] = st0[i]
    PIN[0] = pin0
    KIND[0] = kind0
    WS[0] = ws0
    J[0] = 0
    d = 0
    enter = True
    v = np.int64(0)
    while True:
        if enter:
            enter = False
            if KIND[d] == 1:
                j = J[d]
                dp = S[d, ST_DP]
                if j == n:
                    # round drawn: continue with a decision frame
                    S[d + 1] = S[d]
                    S[d + 1, ST_DP] = dp + n
                    PIN[d + 1] = PIN[d]
                    KIND[d + 1] = 0
                    REM[d] = 0
                    BEST[d] = 0
                    CNT[d] = 0
                    d += 1
                    enter = True
                    continue
                seat = (WS[d] + j) % n
                if dp + j == L - 1:  # R6: the pinta is drawn last
                    S[d + 1] = S[d]
                    S[d + 1, ST_HAND + seat] |= np.int64(1) << PIN[d]
                    PIN[d + 1] = PIN[d]
                    KIND[d + 1] = 1
                    WS[d + 1] = WS[d]
                    J[d + 1] = j + 1
                    REM[d] = 0
                    BEST[d] = 0
                    CNT[d] = 0
                    d += 1
                    enter = True
                    continue
                u = np.int64(0)
                for s in range(n):
                    u |= S[d, ST_HAND + s]
                REM[d] = S[d, ST_NOTDONE] & ~u & ~(np.int64(1) << PIN[d])
                BEST[d] = 0
                CNT[d] = 0
            else:
                notdone = S[d, ST_NOTDONE]
                if notdone == 0:
                    v = np.int64(0)
                    d -= 1
                    if d < 0:
                        return v
                    continue
                else:
                    ntrick = S[d, ST_NTRICK]
                    dp = S[d, ST_DP]
                    leader = S[d, ST_LEADER]
                    done = False
                    if ntrick == 0 and dp >= L:
                        for i in range(L):
                            stk[i] = 0
                        if L > 0:
                            stk[L - 1] = PIN[d]
                        v = F * value(S[d], stk, ismax, np.int64(30), tk1, tk2, td, fr, mv, cnt, flags)
                        done = True
                    HASK[d] = 0
                    if not done and ntrick == 0:
                        pin = PIN[d] if dp < L else np.int64(0)
                        key = (notdone, leader | (pin << 8) | (dp << 16) | (S[d, ST_SIDEWON] << 24),
                               S[d, ST_HAND], S[d, ST_HAND + 1], S[d, ST_HAND + 2], S[d, ST_HAND + 3],
                               S[d, ST_HAND + 4], S[d, ST_HAND + 5])
                        if key in memo:
                            v = memo[key]
                            done = True
                        else:
                            HASK[d] = 1
                            for i in range(8):
                                K[d, i] = key[i]
                    if done:
                        d -= 1
                        if d < 0:
                            return v
                        continue
                    else:
                        cnt[0] += 1
                        seat = (leader + ntrick) % n
                        hand = S[d, ST_HAND + seat]
                        REM[d] = legal_mask(hand, S[d, ST_TRICK:ST_TRICK + 8], ntrick, S[d, ST_TRUMP],
                                            S[d, ST_ENDGAME], dp >= L)
                        pin = PIN[d] if dp < L else np.int64(-1)
                        EX[d] = exchange_card(hand, pin, L - dp, S[d, ST_EXCH],
                                              ((S[d, ST_SIDEWON] >> (seat % S[d, ST_SIDES])) & 1) != 0,
                                              S[d, ST_EXWON])
                        ISM[d] = ismax[seat]
                        BEST[d] = np.int64(-1) if ISM[d] != 0 else np.int64(1) << 60
        else:
            # child of frame d returned v
            if KIND[d] == 1:
                BEST[d] += v
                CNT[d] += 1
            else:
                w = GAIN[d] + v
                if ISM[d] != 0:
                    if w > BEST[d]:
                        BEST[d] = w
                elif w < BEST[d]:
                    BEST[d] = w
        # next child of frame d, or finish it
        if KIND[d] == 1:
            if REM[d] == 0:
                v = BEST[d] // CNT[d]
                d -= 1
                if d < 0:
                    return v
                continue
            x = REM[d]
            c = np.int64(0)
            while ((x >> c) & 1) == 0:
                c += 1
            REM[d] = x & (x - 1)
            seat = (WS[d] + J[d]) % n
            S[d + 1] = S[d]
            S[d + 1, ST_HAND + seat] |= np.int64(1) << c
            PIN[d + 1] = PIN[d]
            KIND[d + 1] = 1
            WS[d + 1] = WS[d]
            J[d + 1] = J[d] + 1
            d += 1
            enter = True
            continue
        # decision frame
        ntrick = S[d, ST_NTRICK]
        leader = S[d, ST_LEADER]
        seat = (leader + ntrick) % n
        dp = S[d, ST_DP]
        if REM[d] == 0 and EX[d] < 0:
            v = BEST[d]
            if HASK[d] != 0:
                key = (K[d, 0], K[d, 1], K[d, 2], K[d, 3], K[d, 4], K[d, 5], K[d, 6], K[d, 7])
                memo[key] = v
            d -= 1
            if d < 0:
                return v
            continue
        S[d + 1] = S[d]
        PIN[d + 1] = PIN[d]
        KIND[d + 1] = 0
        GAIN[d] = 0
        if REM[d] != 0:
            x = REM[d]
            m = np.int64(0)
            while ((x >> m) & 1) == 0:
                m += 1
            REM[d] = x & (x - 1)
            S[d + 1, ST_HAND + seat] &= ~(np.int64(1) << m)
            S[d + 1, ST_TRICK + ntrick] = m
            if ntrick + 1 < n:
                S[d + 1, ST_NTRICK] = ntrick + 1
            else:
                trump = S[d, ST_TRUMP]
                wi = trick_winner(S[d + 1, ST_TRICK:ST_TRICK + 8], n, trump)
                wseat = (leader + wi) % n
                tp = 0
                for q in range(n):
                    c = S[d + 1, ST_TRICK + q]
                    tp += card_points(c)
                    S[d + 1, ST_NOTDONE] &= ~(np.int64(1) << c)
                S[d + 1, ST_SIDEWON] |= np.int64(1) << (wseat % S[d, ST_SIDES])
                S[d + 1, ST_NTRICK] = 0
                S[d + 1, ST_LEADER] = wseat
                GAIN[d] = F * tp if ismax[wseat] != 0 else np.int64(0)
                if dp < L:
                    KIND[d + 1] = 1
                    WS[d + 1] = wseat
                    J[d + 1] = 0
        else:
            # R7: the 7 or the 2 of trumps becomes the pinta
            ex = EX[d]
            EX[d] = -1
            S[d + 1, ST_HAND + seat] = (S[d, ST_HAND + seat] & ~(np.int64(1) << ex)) | (np.int64(1) << PIN[d])
            PIN[d + 1] = ex
        d += 1
        enter = True


def check_solvable(pos) -> None:
    """Refuse, before any search or compilation, what :func:`solver.api.solve` refuses: a hidden
    hand (the solver is open-hand), or ``stock=?`` with more than :data:`MAX_UNKNOWN_DRAWS` cards
    left to draw (exact expectimax over draw orders only up to there).

    Parameters
    ----------
    pos : solver.position.Position or str
        A valid position (NOTATION.md; a string is parsed, as :func:`solver.solve` does).

    Raises
    ------
    ValueError
        ``hands: ...`` or ``stock: ...`` naming the problem; ``position: ...`` for what is not a position
        (a string or None raised ``AttributeError``: break-it pass 23).
    """
    from .api import _as_position
    pos = _as_position(pos)
    pos._need_open("the solver")
    if pos.stock is None and pos.left > MAX_UNKNOWN_DRAWS:
        raise ValueError(f"stock: stock=? is solved exactly only while at most {MAX_UNKNOWN_DRAWS} cards remain "
                         f"to be drawn (here {pos.left}); give the stock order")


@njit(cache=True, nogil=True)  # nogil: Ctrl-C is handled and solve_many's threads run in parallel
def _chance2(st0, pin0, kind0, ws0, ismax, F, memo, tk1, tk2, td, fr, mv, cnt, flags):
    """:func:`_chance_run` with the two-player kernel (:data:`solver.search.TWO`)."""
    return _chance_run(mtdf2, st0, pin0, kind0, ws0, ismax, F, memo, tk1, tk2, td, fr, mv, cnt, flags)


@njit(cache=True, nogil=True)
def _chance4(st0, pin0, kind0, ws0, ismax, F, memo, tk1, tk2, td, fr, mv, cnt, flags):
    """:func:`_chance_run` with the four-player kernel (:data:`solver.search.FOUR`)."""
    return _chance_run(mtdf4, st0, pin0, kind0, ws0, ismax, F, memo, tk1, tk2, td, fr, mv, cnt, flags)


@njit(cache=True, nogil=True)
def _chancen(st0, pin0, kind0, ws0, ismax, F, memo, tk1, tk2, td, fr, mv, cnt, flags):
    """:func:`_chance_run` with the general kernel (:data:`solver.search.GENERAL`)."""
    return _chance_run(mtdfn, st0, pin0, kind0, ws0, ismax, F, memo, tk1, tk2, td, fr, mv, cnt, flags)


def solve_chance(pos: Position, moves: bool = True, perspective: int | None = None, _since=None):
    """Expectimax value of a ``stock=?`` position (see module doc).

    Parameters
    ----------
    pos : Position or str
        Every hand known, ``stock=?`` (a string is parsed).
    moves : bool
        Fill ``moves`` and ``best`` (default True).
    perspective : int, optional
        A seat: ``value`` is then the expected points of its side (three players: that seat
        against the other two), whoever moves, and ``moves`` and ``best`` stay empty (target mode
        for any seat, :func:`solver.solve`'s ``seat``).
    _since : tuple of float, optional
        ``(time.perf_counter(), solver.api._compile_seconds())`` read where the timed solve starts
        (:func:`solver.solve` passes its own); default: on entry.

    Returns
    -------
    solver.api.SolveResult
        ``value`` and ``moves``' values in expected card points (R2) that the side of the seat to move
        (of ``perspective``, if given) still captures from this position on: an ``int`` when the
        expectation is a whole number, else a ``float`` (the exact fraction rounded); ``best``;
        ``nodes``; ``ms`` (milliseconds); no principal variation (the line depends on the draws).

    Raises
    ------
    ValueError
        ``stock: ...`` when more than :data:`MAX_UNKNOWN_DRAWS` cards remain to be drawn or when the
        position gives the stock order of cards still to draw (its exact value is :func:`solver.solve`'s;
        the order was dropped and the expectation returned: break-it pass 23); ``hands: ...`` when a hand
        is hidden (:func:`check_solvable`); ``perspective: ...`` when ``perspective`` is not a seat;
        ``moves: ...`` when ``moves`` is not a bool; ``position: ...`` for what is not a position.
    """
    from . import search as S
    from .api import SolveResult, _as_position, _compile_seconds, _elapsed_ms, _next_stamp, workspace

    # (a first call loads compiled code: left out of ms, as a table's allocation; solve() passes its own start)
    t0, c0 = _since if _since is not None else (time.perf_counter(), _compile_seconds())
    pos = _as_position(pos)
    moves = check_flag(moves, "moves")
    if pos.stock:  # (an empty stock, `stock=`, has no order to drop: solved as `stock=?` with none to draw)
        raise ValueError("stock: solve_chance takes a stock=? position; this one gives the stock order "
                         "(solver.solve solves it exactly)")
    check_solvable(pos)
    st, stk, ismax = pos.to_arrays(perspective=perspective)
    U = max(pos.left - (1 if pos.pinta_under else 0), 0)
    F = math.factorial(U)
    tw = time.perf_counter()
    tk1, tk2, td, fr, mv, cnt = workspace()
    t0 += time.perf_counter() - tw  # (a thread's first call allocates its table: not part of the solve)
    flags = S.default_flags()
    cnt[0] = 0
    cnt[1] = _next_stamp()
    memo = Dict.empty(key_type=_KEY, value_type=types.int64)
    res = SolveResult(position=str(pos))
    legal = pos.legal_moves()
    vals = {}
    ism = bool(ismax[pos.turn])  # (always without perspective: to_arrays' maximizing side is then the mover's)
    D = S.drivers(st, flags)
    run = _chance2 if D is S.TWO else (_chance4 if D is S.FOUR else _chancen)  # compiles one kernel set
    for m in legal:
        st2, stk2 = st.copy(), stk.copy()
        w = _root_move(run, st2, stk2, ismax, F, memo, m, tk1, tk2, td, fr, mv, cnt, flags)
        vals[m] = Fraction(int(w), F)
    # the side of `perspective` (default: of the seat to move) maximizes; the seat to move picks
    value = Fraction(0) if not legal else max(vals.values()) if ism else min(vals.values())
    res.value = _num(value)
    if perspective is None and moves:  # (best too, as its docstring says and as with a known stock)
        order = sorted(vals, key=lambda m: -vals[m])
        res.moves = {format_card(m): _num(vals[m]) for m in order}
        res.best = [format_card(m) for m in order if vals[m] == value]
    res.nodes = int(cnt[0])
    res.ms = _elapsed_ms(t0, c0)
    return res


def _num(f: Fraction):
    """``f`` as ``SolveResult`` gives it: an ``int`` when whole, else the nearest ``float``."""
    return int(f) if f.denominator == 1 else float(f)


def _root_move(_chance, st, stk, ismax, F, memo, m, tk1, tk2, td, fr, mv, cnt, flags):
    """Scaled value (max side) after root move ``m``, the move's own trick included; ``_chance``:
    the expectimax entry (:func:`_chance2`, :func:`_chance4` or :func:`_chancen`)."""
    n = int(st[ST_PLAYERS])
    ntrick = int(st[ST_NTRICK])
    leader = int(st[ST_LEADER])
    seat = (leader + ntrick) % n
    L = int(st[ST_L])
    dp = int(st[ST_DP])
    pin = int(stk[L - 1]) if L > 0 else 0
    if m == SWAP:
        hand = int(st[ST_HAND + seat])
        ex = int(exchange_card(np.int64(hand), np.int64(pin), L - dp, st[ST_EXCH],
                               bool((st[ST_SIDEWON] >> (seat % st[ST_SIDES])) & 1), st[ST_EXWON]))
        st[ST_HAND + seat] = (hand & ~(1 << ex)) | (1 << pin)
        return int(_chance(st, ex, 0, 0, ismax, F, memo, tk1, tk2, td, fr, mv, cnt, flags))
    st[ST_HAND + seat] &= ~(1 << m)
    st[ST_TRICK + ntrick] = m
    if ntrick + 1 < n:
        st[ST_NTRICK] = ntrick + 1
        return int(_chance(st, pin, 0, 0, ismax, F, memo, tk1, tk2, td, fr, mv, cnt, flags))
    trump = int(st[ST_TRUMP])
    wi = int(trick_winner(st[ST_TRICK:ST_TRICK + 8], n, trump))
    ws = (leader + wi) % n
    tp = 0
    for q in range(n):
        c = int(st[ST_TRICK + q])
        tp += int(card_points(c))
        st[ST_NOTDONE] &= ~(1 << c)
    st[ST_SIDEWON] |= 1 << (ws % int(st[ST_SIDES]))
    st[ST_NTRICK] = 0
    st[ST_LEADER] = ws
    gain = F * tp if ismax[ws] else 0
    kind = 1 if dp < L else 0
    return gain + int(_chance(st, pin, kind, ws, ismax, F, memo, tk1, tk2, td, fr, mv, cnt, flags))
