"""The ``heuristic`` policy (id 2): a card-counting rule player in a few bit operations.

Built for speed (issue 2: at least 1.5 M two-player deals/s per core with
``heuristic`` in both seats) and still clearly stronger than ``greedy``. It
decides from one seat's view only (:mod:`sim.view`, RULES R11). Every rule is
a handful of ``int64`` mask operations on the card sets of :mod:`sim.cards`
(card id = suit * 12 + strength index, so "stronger cards of a suit" and
"lowest strength" are one mask or one bit scan); the choice between rules is
made with masks rather than branches, so random deals rarely mispredict it.

Definitions
-----------
*low card*: a card worth 0 points (the 2 and the 4 to 9: strength indices
0-6 of R2). *outside*: cards in play this deal that the seat has not seen
played (finished tricks, current trick), that are not in its hand and that
are not the pinta still lying under the stock (R4, R6): the cards the
opponents may hold or the stock hides. *Weakest first*: the lowest strength
index of R2 (ties: the lowest card id).

Rules, in the order they are tried
----------------------------------
1. **Exchange** (R7) whenever offered: the pinta taken is always stronger
   than the 7 or 2 given up (and the 7-then-2 chain follows).
2. **Leading.** Lead a low non-trump card, preferring (card counting) a suit
   whose 3 and ace are no longer outside, so the opponent cannot load 10 or
   11 points on it with a winner of the suit; else any low non-trump; else
   a non-trump; else a trump; weakest first within each choice (:func:`lead_card`).
3. **Following a trick the seat's side does not hold** (:func:`follow_card`; winning card ``w``,
   ``tp`` card points in it): win with the strongest card of the suit led
   that beats ``w`` (a trump when a trump was led; it banks its own points:
   a 3 or an ace that can still be taken); else, on a trick worth 10 or more, with the weakest card that
   wins (trumps included: the high trumps are kept for the counters); else, on
   a trick worth 2 to 9, with the weakest zero-point trump that wins; else
   shed in rule 2's order without its card counting (low non-trump,
   non-trump, trump; weakest first: :func:`shed`).
4. **Following a trick the seat's side holds** (teams of 4 and 6 players; with
   3 each seat is its own side, R3, so never): the last seat to play loads its
   strongest non-trump point card; the others shed.

Measured (``benchmarks/eval_heuristic.py``, 100,000 duplicate pairs, default
rules; ``benchmarks/bench_engine.py``): see the README and
``results/benchmarks/heuristic_vs_greedy.jsonl``, ``engine.jsonl``.

The engine's two-player kernel calls :func:`heuristic2` with the same view
values held in registers; :func:`heuristic_action` reads them from the view
array. Tests check the two decide alike on every two-player variant.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .bits import highest, lowest
from .cards import CARD_POINTS, SWAP
from .rules import beats
from .view import (V_DECK_MASK, V_HAND, V_LEADER, V_LEFT, V_LEGAL, V_NTRICK, V_PINTA, V_PINTA_SEAT, V_PLAYED,
                   V_PLAYERS, V_SEAT, V_SIDES, V_SWAP, V_TRICK, V_TRUMP)

#: Bitmask of each suit's 12 cards (int64, shape (4,)).
SUIT_MASK = np.array([0xFFF << (12 * s) for s in range(4)], np.int64)
#: ``ABOVE[c]``: cards of ``c``'s suit stronger than ``c`` (int64, shape (48,)).
ABOVE = np.array([(0xFFF << (12 * (c // 12))) & ~((2 << c) - 1) for c in range(48)], np.int64)
#: Cards worth points: Sota, Caballo, Rey, 3 and 1 (strength indices 7-11, R2).
POINTS_MASK = np.int64(sum(1 << c for c in range(48) if c % 12 >= 7))
#: The 3s and aces (10 and 11 points; strength indices 10 and 11).
BIG_MASK = np.int64(sum(1 << c for c in range(48) if c % 12 >= 10))
#: Zero-point cards: the 2 and the 4 to 9 (strength indices 0-6, R2).
LOW_MASK = np.int64(sum(1 << c for c in range(48) if c % 12 < 7))
#: One bit per suit at strength index 0 (``RANKS << k``: the four cards of strength index ``k``).
RANKS = np.int64(0x001001001001)


@njit(cache=True, inline="always", error_model="numpy")
def _fold(m):
    """12-bit mask of the strength indices present in ``m`` (any suit)."""
    return (m | (m >> np.int64(12)) | (m >> np.int64(24)) | (m >> np.int64(36))) & np.int64(0xFFF)


@njit(cache=True, inline="always", error_model="numpy")
def weakest(m):
    """Card of non-empty ``m`` with the lowest strength index (R2 order; ties: lowest id); branch-free.

    Parameters
    ----------
    m : int64
        A non-empty card set (bitmask of :mod:`sim.cards` ids).

    Returns
    -------
    int
        A card id of ``m``.
    """
    return lowest(m & (RANKS << lowest(_fold(m))))


@njit(cache=True, inline="always", error_model="numpy")
def _first(a, b):
    """``a`` if non-empty, else ``b`` (masks, no branch)."""
    return a | (b & -np.int64(a == 0))


@njit(cache=True, inline="always", error_model="numpy")
def shed(legal, tm):
    """The card to throw away (rules 3-4): low non-trump, else non-trump, else trump; weakest first.

    Parameters
    ----------
    legal : int64
        The legal cards (bitmask, non-empty).
    tm : int64
        The trump suit's cards (bitmask, ``SUIT_MASK[trump]``).

    Returns
    -------
    int
        A card id of ``legal``.
    """
    return weakest(_first(legal & LOW_MASK & ~tm, _first(legal & ~tm, legal)))


@njit(cache=True, inline="always", error_model="numpy")
def lead_card(hand, legal, trump, outside):
    """Rule 2: the card to lead.

    Parameters
    ----------
    hand, legal : int64
        The seat's hand and its legal cards (bitmasks).
    trump : int
        The trump suit, 0-3 (R4).
    outside : int64
        Cards not seen played and not the pinta under the stock (R4, R6; bitmask); it may include
        the seat's own hand, removed here.

    Returns
    -------
    int
        A card id of ``legal``.
    """
    tm = SUIT_MASK[trump]
    big = outside & ~hand & BIG_MASK
    ok = np.int64(0)  # suits whose 3 and ace are not outside
    for s in range(4):
        sm = SUIT_MASK[s]
        ok |= sm & -np.int64((big & sm) == 0)
    z = legal & LOW_MASK & ~tm
    return weakest(_first(z & ok, _first(z, _first(legal & ~tm, legal))))


@njit(cache=True, inline="always", error_model="numpy")
def follow_card(legal, trump, w, tp, lead):
    """Rule 3: the card to play on a trick the opponents hold with card ``w``.

    Parameters
    ----------
    legal : int64
        The legal cards (bitmask, non-empty).
    trump : int
        The trump suit, 0-3 (R4).
    w : int
        The card winning the trick so far (R5).
    tp : int
        Card points already in the trick (R2).
    lead : int
        The card led (``w`` itself with 2 players).

    Returns
    -------
    int
        A card id of ``legal``.
    """
    tm = SUIT_MASK[trump]
    nt = -np.int64(w // 12 != trump)  # all ones when w is not a trump
    beat = legal & (ABOVE[w] | (tm & nt))  # R5
    # winners of the suit led (trumps when a trump leads); none when a trump has taken a non-trump lead
    # (3-6 players: w's suit was read as the suit led, and the trump ace went on a trick worth 0 points;
    # break-it pass 23)
    same = beat & SUIT_MASK[lead // 12]
    c2 = lowest(_first(beat & -np.int64(tp >= 10),
                       _first(beat & LOW_MASK & -np.int64(tp >= 2), np.int64(1) << shed(legal, tm))))
    hs = highest(same | np.int64(1))
    return c2 ^ ((hs ^ c2) & -np.int64(same != 0))


@njit(cache=True, inline="always", error_model="numpy")
def heuristic2(legal, hand, swap, trump, lead, outside):
    """Two players: :func:`heuristic_action` from the view's values.

    Parameters
    ----------
    legal, hand : int64
        ``V_LEGAL``, ``V_HAND`` (bitmasks).
    swap : int
        ``V_SWAP``: the card the seat may exchange now (R7), else -1.
    trump : int
        ``V_TRUMP``.
    lead : int
        The card led (``V_TRICK``), -1 when the seat leads.
    outside : int64
        ``V_DECK_MASK`` minus ``V_PLAYED``, minus the pinta while it lies under
        the stock; the seat's hand may be included.

    Returns
    -------
    int
        A card id of ``legal``, or ``SWAP``.
    """
    if swap >= 0:
        return np.int64(SWAP)
    if lead < 0:
        return lead_card(hand, legal, trump, outside)
    return follow_card(legal, trump, lead, CARD_POINTS[lead], lead)


@njit(cache=True, error_model="numpy")
def heuristic_action(view):
    """The ``heuristic`` policy (module docstring) on one seat's view.

    Parameters
    ----------
    view : ndarray(int64, shape=(V_SIZE,))
        The seat's view (:mod:`sim.view`).

    Returns
    -------
    int
        A card id of ``view[V_LEGAL]``, or ``SWAP`` when ``view[V_SWAP] >= 0``.
    """
    legal = view[V_LEGAL]
    if view[V_SWAP] >= 0:
        return SWAP
    trump = view[V_TRUMP]
    tm = SUIT_MASK[trump]
    n = view[V_NTRICK]
    if n == 0:
        under = view[V_PINTA_SEAT] < 0 and view[V_LEFT] > 0  # the pinta still lies under the stock
        outside = view[V_DECK_MASK] & ~view[V_PLAYED] & ~((np.int64(1) << view[V_PINTA]) & -np.int64(under))
        return lead_card(view[V_HAND], legal, trump, outside)
    players = view[V_PLAYERS]
    w = view[V_TRICK]
    tp = CARD_POINTS[w]
    wi = 0
    for i in range(1, n):
        c = view[V_TRICK + i]
        tp += CARD_POINTS[c]
        if beats(c, w, trump):
            w = c
            wi = i
    sides = view[V_SIDES]
    wseat = (view[V_LEADER] + wi) % players
    if wseat % sides == view[V_SEAT] % sides:  # rule 4: the seat's side holds the trick
        if n == players - 1:
            z = legal & POINTS_MASK & ~tm
            if z != 0:
                return lowest(z & (RANKS << highest(_fold(z))))
        return shed(legal, tm)
    return follow_card(legal, trump, w, tp, view[V_TRICK])
