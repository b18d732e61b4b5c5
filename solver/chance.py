"""``stock=?``: expectimax over uniformly random draw orders (RULES R6, R11 Descubierta).

Every hand is known and the order of the face-down stock is not: at each draw the
drawing seat gets a uniformly random card of the unknown pool (the pinta is
drawn last, R4/R6). Seats decide knowing every hand and the draws so far, never
the future draws: decision nodes are max/min, draws are chance nodes. Once the
last card is drawn the rest is perfect information and is solved by the exact
search (:func:`solver.search.mtdf`).

Exact arithmetic: values are kept as integers scaled by ``U!`` (``U`` = unknown
face-down cards at the root), so every expectation is an exact fraction.
Exact while at most :data:`MAX_UNKNOWN_DRAWS` cards remain to be drawn (the pinta
included); beyond that the tree is refused.

This module uses recursion without Numba's cache (recursion plus ``cache=True``
crashes on a warm cache); it compiles once per process.
"""
from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np
from numba import njit, types
from numba.typed import Dict

from sim.cards import format_card
from sim.rules import exchange_card, legal_mask, trick_winner

from .position import (ST_DP, ST_ENDGAME, ST_EXCH, ST_EXWON, ST_HAND, ST_L, ST_LEADER, ST_NOTDONE, ST_NTRICK,
                       ST_PLAYERS, ST_SIDES, ST_SIDEWON, ST_TRICK, ST_TRUMP, Position)
from .search import SWAP, card_points, mtdf

#: Most cards left to draw (face-down plus the pinta) that ``stock=?`` solves exactly.
MAX_UNKNOWN_DRAWS = 8

_KEY = types.UniTuple(types.int64, 8)


@njit
def _rec(st, stk, ismax, F, memo, mode, ws, j, tk1, tk2, td, fr, mv, cnt, flags):
    """mode 0: decision node; mode 1: draw ``j`` of the round after a trick won by seat ``ws``."""
    n = st[ST_PLAYERS]
    L = st[ST_L]
    dp = st[ST_DP]
    if mode == 1:
        if j == n:
            st[ST_DP] = dp + n
            return _rec(st, stk, ismax, F, memo, 0, 0, 0, tk1, tk2, td, fr, mv, cnt, flags)
        seat = (ws + j) % n
        pin = np.int64(stk[L - 1])
        if dp + j == L - 1:  # R6: the pinta is the last card drawn
            st[ST_HAND + seat] |= np.int64(1) << pin
            return _rec(st, stk, ismax, F, memo, 1, ws, j + 1, tk1, tk2, td, fr, mv, cnt, flags)
        u = np.int64(0)
        for s in range(n):
            u |= st[ST_HAND + s]
        pool = st[ST_NOTDONE] & ~u & ~(np.int64(1) << pin)
        total = np.int64(0)
        k = 0
        x = pool
        while x != 0:
            c = np.int64(0)
            y = x
            while (y & 1) == 0:
                y >>= 1
                c += 1
            x &= x - 1
            st2 = st.copy()
            st2[ST_HAND + seat] |= np.int64(1) << c
            total += _rec(st2, stk, ismax, F, memo, 1, ws, j + 1, tk1, tk2, td, fr, mv, cnt, flags)
            k += 1
        return total // k
    # decision node
    notdone = st[ST_NOTDONE]
    if notdone == 0:
        return np.int64(0)
    ntrick = st[ST_NTRICK]
    leader = st[ST_LEADER]
    if ntrick == 0 and dp >= L:
        # nothing left to draw: perfect information, exact search (its TT stays valid: same ismax)
        return F * mtdf(st, stk, ismax, 30, tk1, tk2, td, fr, mv, cnt, flags)
    key = (np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0))
    if ntrick == 0:
        pin = np.int64(stk[L - 1]) if dp < L else np.int64(0)
        key = (notdone, leader | (pin << 8) | (dp << 16) | (st[ST_SIDEWON] << 24), st[ST_HAND], st[ST_HAND + 1],
               st[ST_HAND + 2], st[ST_HAND + 3], st[ST_HAND + 4], st[ST_HAND + 5])
        if key in memo:
            return memo[key]
    cnt[0] += 1
    seat = (leader + ntrick) % n
    trump = st[ST_TRUMP]
    hand = st[ST_HAND + seat]
    lm = legal_mask(hand, st[ST_TRICK:ST_TRICK + 8], ntrick, trump, st[ST_ENDGAME], dp >= L)
    pin = np.int64(stk[L - 1]) if dp < L else np.int64(-1)
    ex = exchange_card(hand, pin, L - dp, st[ST_EXCH], ((st[ST_SIDEWON] >> (seat % st[ST_SIDES])) & 1) != 0,
                       st[ST_EXWON])
    ism = ismax[seat] != 0
    best = np.int64(-1) if ism else np.int64(1) << 60
    x = lm
    while True:
        if x != 0:
            m = np.int64(0)
            y = x
            while (y & 1) == 0:
                y >>= 1
                m += 1
            x &= x - 1
        elif ex >= 0:
            m = np.int64(SWAP)
        else:
            break
        st2 = st.copy()
        if m == SWAP:
            stk2 = stk.copy()
            old = np.int64(stk2[L - 1])
            st2[ST_HAND + seat] = (hand & ~(np.int64(1) << ex)) | (np.int64(1) << old)
            stk2[L - 1] = ex
            ex = -1
            w = _rec(st2, stk2, ismax, F, memo, 0, 0, 0, tk1, tk2, td, fr, mv, cnt, flags)
        else:
            st2[ST_HAND + seat] = hand & ~(np.int64(1) << m)
            st2[ST_TRICK + ntrick] = m
            if ntrick + 1 < n:
                st2[ST_NTRICK] = ntrick + 1
                w = _rec(st2, stk, ismax, F, memo, 0, 0, 0, tk1, tk2, td, fr, mv, cnt, flags)
            else:
                wi = trick_winner(st2[ST_TRICK:ST_TRICK + 8], n, trump)
                wseat = (leader + wi) % n
                tp = 0
                for q in range(n):
                    c = st2[ST_TRICK + q]
                    tp += card_points(c)
                    st2[ST_NOTDONE] &= ~(np.int64(1) << c)
                st2[ST_SIDEWON] |= np.int64(1) << (wseat % st[ST_SIDES])
                st2[ST_NTRICK] = 0
                st2[ST_LEADER] = wseat
                gain = F * tp if ismax[wseat] != 0 else np.int64(0)
                if dp < L:
                    w = gain + _rec(st2, stk, ismax, F, memo, 1, wseat, 0, tk1, tk2, td, fr, mv, cnt, flags)
                else:
                    w = gain + _rec(st2, stk, ismax, F, memo, 0, 0, 0, tk1, tk2, td, fr, mv, cnt, flags)
        if ism:
            if w > best:
                best = w
        elif w < best:
            best = w
    if ntrick == 0:
        memo[key] = best
    return best


def solve_chance(pos: Position, moves: bool = True):
    """Expectimax value of a ``stock=?`` position (see module doc).

    Returns
    -------
    solver.api.SolveResult
        ``value`` and ``moves`` as floats (expected card points), ``nodes``; no principal
        variation (the line depends on the draws).

    Raises
    ------
    ValueError
        ``stock: ...`` when more than :data:`MAX_UNKNOWN_DRAWS` cards remain to be drawn.
    """
    from . import search as S
    from .api import SolveResult, _next_stamp, workspace

    t0 = time.perf_counter()
    if pos.left > MAX_UNKNOWN_DRAWS:
        raise ValueError(f"stock: stock=? is solved exactly only while at most {MAX_UNKNOWN_DRAWS} cards remain "
                         f"to be drawn (here {pos.left}); give the stock order")
    st, stk, ismax = pos.to_arrays()
    U = max(pos.left - (1 if pos.pinta_under else 0), 0)
    F = math.factorial(U)
    tk1, tk2, td, fr, mv, cnt = workspace()
    flags = S.default_flags()
    cnt[0] = 0
    cnt[1] = _next_stamp()
    memo = Dict.empty(key_type=_KEY, value_type=types.int64)
    res = SolveResult(position=str(pos))
    legal = pos.legal_moves()
    vals = {}
    ism = bool(ismax[pos.turn])
    rem = pos.future_points()
    for m in legal:
        st2, stk2 = st.copy(), stk.copy()
        # play the move at the root through _rec by restricting: simplest is to apply and recurse
        w = _root_move(st2, stk2, ismax, F, memo, m, tk1, tk2, td, fr, mv, cnt, flags)
        v = Fraction(int(w), F)
        vals[m] = v if ism else rem - v
    if not legal:
        value = Fraction(0)
    else:
        value = max(vals.values())
    order = sorted(vals, key=lambda m: -vals[m])
    res.value = _num(value)
    if moves:
        res.moves = {format_card(m): _num(vals[m]) for m in order}
    res.best = [format_card(m) for m in order if vals[m] == value]
    res.nodes = int(cnt[0])
    res.ms = (time.perf_counter() - t0) * 1000.0
    return res


def _num(f: Fraction):
    return int(f) if f.denominator == 1 else float(f)


def _root_move(st, stk, ismax, F, memo, m, tk1, tk2, td, fr, mv, cnt, flags):
    """Scaled value (max side) after root move ``m``, the move's own trick included."""
    n = int(st[ST_PLAYERS])
    ntrick = int(st[ST_NTRICK])
    leader = int(st[ST_LEADER])
    seat = (leader + ntrick) % n
    L = int(st[ST_L])
    dp = int(st[ST_DP])
    if m == SWAP:
        hand = int(st[ST_HAND + seat])
        ex = int(exchange_card(np.int64(hand), np.int64(stk[L - 1]), L - dp, st[ST_EXCH],
                               bool((st[ST_SIDEWON] >> (seat % st[ST_SIDES])) & 1), st[ST_EXWON]))
        old = int(stk[L - 1])
        st[ST_HAND + seat] = (hand & ~(1 << ex)) | (1 << old)
        stk[L - 1] = ex
        return _rec(st, stk, ismax, F, memo, 0, 0, 0, tk1, tk2, td, fr, mv, cnt, flags)
    st[ST_HAND + seat] &= ~(1 << m)
    st[ST_TRICK + ntrick] = m
    if ntrick + 1 < n:
        st[ST_NTRICK] = ntrick + 1
        return _rec(st, stk, ismax, F, memo, 0, 0, 0, tk1, tk2, td, fr, mv, cnt, flags)
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
    mode = 1 if dp < L else 0
    return gain + int(_rec(st, stk, ismax, F, memo, mode, ws, 0, tk1, tk2, td, fr, mv, cnt, flags))
