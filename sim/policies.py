"""Jitted policies behind integer ids and their dispatcher (RULES R11).

A policy sees one seat's view only (:mod:`sim.view`): its own hand, the
pinta, the cards played, the trick, the points. It returns a card id or
:data:`sim.cards.SWAP` (the trump exchange, R7).

Policies
--------
``random`` (0)
    Uniform over the legal actions, the exchange included when eligible.
``greedy`` (1)
    One-trick lookahead. Exchange whenever allowed (the pinta taken is always
    stronger than the 7 or 2 given, R7). Following a trick that already holds
    card points and that the seat's side is not already winning: win it with
    the cheapest winning card (fewest points, non-trump before trump, weakest
    first). Otherwise shed the least valuable card (same order).
``heuristic`` (2)
    The fast rule-based card-counting player of :mod:`sim.heuristic`: a few
    mask operations a decision, about 66% against greedy.
``expert`` (3)
    The strongest player, :mod:`sim.expert` (rules 1-6 there): card counting,
    a probabilistic one-card evaluation, exact search of the last draw and of
    the last three tricks with two players (82.7% against greedy), about 20
    times slower than ``heuristic``.
``counter`` (4)
    ``expert`` without the last-draw search (rule 5): 77.7% against greedy,
    about three times faster than ``expert``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .bits import lowest, nth_bit, popcount
from .cards import CARD_POINTS, SWAP
from .expert import MODE_ENDGAME, MODE_LAST_DRAW, expert_action
from .heuristic import heuristic_action
from .rng import below32
from .rules import beats, trick_winner_at
from .view import V_LEGAL, V_LEADER, V_NTRICK, V_PLAYERS, V_SEAT, V_SIDES, V_SWAP, V_TRICK, V_TRUMP

RANDOM, GREEDY, HEURISTIC, EXPERT, COUNTER = 0, 1, 2, 3, 4
#: Policy names in id order (``POLICIES.index(name)`` is the id).
POLICIES = ("random", "greedy", "heuristic", "expert", "counter")
#: Parameters a policy row holds (float64): ``expert`` and ``counter`` read them (``par`` of
#: :func:`sim.expert.expert_action`; zeros give the tuned players), the other policies ignore them;
#: :func:`sim.batch.simulate` passes zeros, ``benchmarks/eval_heuristic.py --par`` others.
N_PARAMS = 4

@njit(cache=True, inline="always", error_model="numpy")
def shed_cost(c, trump):
    """Order for shedding and for cheapest wins: card points (R2), then trump, then strength.

    Parameters
    ----------
    c : int
        Card id (0..47: suit * 12 + strength, R2).
    trump : int
        Trump suit (0..3).

    Returns
    -------
    int
        ``CARD_POINTS[c] * 1000 + (100 if c is a trump else 0) + strength`` (strength ``c % 12``; lower
        sheds first).
    """
    return CARD_POINTS[c] * 1000 + (100 if c // 12 == trump else 0) + c % 12


@njit(cache=True, inline="always", error_model="numpy")
def random_action(view, prng):
    """Uniform over the legal cards plus the exchange when eligible (R7).

    Parameters
    ----------
    view : ndarray(int64, shape=(V_SIZE,))
        The seat's view (:mod:`sim.view`).
    prng : ndarray(uint64, shape=(2,))
        The policies' stream (:func:`sim.rng.below32`, advanced here).

    Returns
    -------
    int
        A card id of ``view[V_LEGAL]``, or ``SWAP`` (only when ``view[V_SWAP] >= 0``: one chance in
        ``k + 1`` for ``k`` legal cards).
    """
    legal = view[V_LEGAL]
    k = popcount(legal)
    if view[V_SWAP] >= 0:
        r = below32(prng, k + 1)
        if r == k:
            return SWAP
        return nth_bit(legal, r)
    return nth_bit(legal, below32(prng, k))


@njit(cache=True, inline="always", error_model="numpy")
def cheapest(mask, trump):
    """Card of ``mask`` (int64 bitmask) with the lowest :func:`shed_cost` (the lowest id on a tie); -1 for
    an empty mask.

    Parameters
    ----------
    mask : int64
        A set of card ids (bit ``c`` for card ``c``).
    trump : int
        Trump suit (0..3).

    Returns
    -------
    int
        The card id, or -1.
    """
    best = -1
    bc = 1 << 30
    m = mask
    while m != 0:
        c = lowest(m)
        m &= m - np.int64(1)
        k = shed_cost(c, trump)
        if k < bc:
            bc = k
            best = c
    return best


@njit(cache=True, inline="always", error_model="numpy")
def greedy_action(view):
    """The documented one-trick greedy player (module docstring): a card id of ``view[V_LEGAL]``, or
    ``SWAP`` whenever the R7 exchange is eligible (``view[V_SWAP] >= 0``).

    Parameters
    ----------
    view : ndarray(int64, shape=(V_SIZE,))
        The seat's view (:mod:`sim.view`).

    Returns
    -------
    int
        ``SWAP`` when the exchange is eligible; else, when the trick on the table holds card points and is
        not won by the seat's side, the :func:`cheapest` legal card that beats its winning card (if any);
        else the :func:`cheapest` legal card.
    """
    if view[V_SWAP] >= 0:
        return SWAP
    legal = view[V_LEGAL]
    trump = view[V_TRUMP]
    n = view[V_NTRICK]
    if n > 0:
        tp = 0
        for i in range(n):
            tp += CARD_POINTS[view[V_TRICK + i]]
        w = trick_winner_at(view, V_TRICK, n, trump)
        players = view[V_PLAYERS]
        wseat = (view[V_LEADER] + w) % players
        mine = wseat % view[V_SIDES] == view[V_SEAT] % view[V_SIDES]
        if tp > 0 and not mine:
            best = view[V_TRICK + w]
            wins = np.int64(0)
            m = legal
            while m != 0:
                c = lowest(m)
                m &= m - np.int64(1)
                if beats(c, best, trump):
                    wins |= np.int64(1) << c
            if wins != 0:
                return cheapest(wins, trump)
    return cheapest(legal, trump)


@njit(cache=True, inline="always", error_model="numpy")
def choose(pid, par, seat, view, prng):
    """Dispatch to policy ``pid`` (0 random, 1 greedy, 2 heuristic, 3 expert, 4 counter; any other id
    plays ``counter``: ids are checked by the caller, :func:`sim.batch.resolve_policies`).

    Parameters
    ----------
    pid : int
        Policy id (``POLICIES``).
    par : ndarray(float64, shape=(players, N_PARAMS))
        Policy parameters of every seat; ``expert`` and ``counter`` read row ``seat``, the others
        none.
    seat : int
        The seat to move (``view[V_SEAT]``).
    view : ndarray(int64, shape=(V_SIZE,))
        The seat's view (:mod:`sim.view`).
    prng : ndarray(uint64, shape=(2,))
        The policies' random stream of this deal (:func:`sim.rng.below32`).

    Returns
    -------
    int
        A card id in ``view[V_LEGAL]``, or ``SWAP`` when ``view[V_SWAP] >= 0``.

    Notes
    -----
    ``expert`` and ``counter`` are one function, :func:`sim.expert.expert_action`: its ``mode`` 3
    allows both exact two-player searches (rules 4 and 5 of :mod:`sim.expert`), 1 the stock-empty
    search only.
    """
    if pid == RANDOM:
        return random_action(view, prng)
    if pid == GREEDY:
        return greedy_action(view)
    if pid == HEURISTIC:
        return heuristic_action(view)
    return expert_action(view, par[seat], MODE_ENDGAME | MODE_LAST_DRAW if pid == EXPERT else MODE_ENDGAME)
