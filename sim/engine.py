"""The jitted batch engine: deals played in parallel (RULES R3-R9).

:func:`play_batch` plays rows ``[row0, row0 + m)`` of a run. Row ``r`` is
deal ``r // rotations`` played with the policies rotated by ``r % rotations``
seats (``--duplicate``: the same deal with the sides' policies swapped). The
deal (shuffle) of deal ``d`` comes from :func:`sim.rng.deal_seed` ``(seed, d)``
and the policies' random choices from a second stream of the same seed, so a
row's result never depends on threads, chunks or the other rows.

Outputs are structs of arrays (one row per deal, ``R_*`` columns of ``res``).
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from .cards import SWAP
from .policies import N_PARAMS, choose
from .rng import POLICY_STREAM, below, deal_seed
from .rules import (P_DECK_MASK, P_EX_WON, P_EXCHANGE, P_ENDGAME, P_NCARDS, P_PLAYERS, P_REMOVE, P_SIDES,
                    P_TRICKS, RM_TRUMP2, deal_winner, exchange_card, legal_mask, trick_winner)
from .view import (V_DECK_MASK, V_HAND, V_KNOWN, V_LEADER, V_LEFT, V_LEGAL, V_NTRICK, V_PINTA, V_PINTA_SEAT,
                   V_PLAYED, V_PLAYERS, V_POINTS, V_SEAT, V_SIDES, V_SIZE, V_SWAP, V_TRICK, V_TRICKNO, V_TRUMP, V_WON)

# --- columns of the per-deal result array res (int16) ---------------------
R_PINTA = 0        # the pinta turned at the deal (card id)
R_TRUMP = 1        # trump suit
R_FIRST = 2        # seat of the first lead
R_WINNER = 3       # winning side, -1 draw (R8)
R_CAPOTE = 4       # 1 if one side took all 120 points
R_NEX = 5          # exchanges made (0..2)
R_EX = 6           # R_EX + 3*k: seat, card given up, trick number of exchange k
R_REMOVED = 12     # card set aside by remove=trump2, else -1
R_STATUS = 13      # 0 ok; else an ST_* code
R_SEAT_POINTS = 16  # + seat
R_SEAT_TRICKS = 22  # + seat
R_SIDE_POINTS = 28  # + side
R_SIZE = 32
# --- columns of the per-trick array (int16) -------------------------------
T_LEADER = 0
T_WINNER = 1
T_POINTS = 2
T_CARDS = 3        # + position in play order
T_SIZE = 9

ST_OK = 0
ST_ILLEGAL = 1     # a policy returned an illegal action
ST_SWAPS = 2       # more exchanges than R7 allows

BLOCK = 256        # rows per parallel work item


@njit(cache=True)
def shuffle_deal(rules, deck, dseed, order, rng):
    """Shuffle and lay out deal ``dseed`` (RULES R3, R4).

    Fills ``order[:ncards]`` with: the dealt cards (card ``k`` to seat
    ``k % players``, one at a time from seat 0), the face-down stock top card
    first, and the pinta last. Returns the card set aside by ``remove=trump2``
    (-1 otherwise).

    Parameters
    ----------
    rules : ndarray(int64, shape=(P_SIZE,))
    deck : ndarray(int8, shape=(n,))
        Cards shuffled for a deal (``Rules.deck_cards``).
    dseed : uint64
        The deal's seed.
    order : ndarray(int8, shape=(>= n,))
        Output.
    rng : ndarray(uint64, shape=(1,))
        Deal stream (reseeded here).
    """
    n = deck.shape[0]
    rng[0] = dseed
    for i in range(n):
        order[i] = deck[i]
    # Fisher-Yates
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        t = order[i]
        order[i] = order[j]
        order[j] = t
    removed = -1
    if rules[P_PLAYERS] == 3 and rules[P_REMOVE] == RM_TRUMP2:
        # R3 remove=trump2: turn a card; its 2 of trumps is set aside. If the turned
        # card is itself a 2 it is set aside and the next card turned is the pinta.
        # order[n-1] is the first card turned; n-1 = 39 cards stay in play.
        turned = order[n - 1]
        if turned % 12 == 0:
            removed = turned
        else:
            two = (turned // 12) * 12
            removed = two
            for k in range(n - 1):
                if order[k] == two:
                    order[k] = order[n - 2]
                    break
            order[n - 2] = turned
    return removed


@njit(cache=True)
def play_deal(rules, deck, dseed, pol, par, view, hands, order, rng, prng, res, r, tricks, rec):
    """Play one deal; write row ``r`` of ``res`` (and of ``tricks`` when ``rec``).

    Parameters
    ----------
    rules : ndarray(int64, shape=(P_SIZE,))
    deck : ndarray(int8)
    dseed : uint64
    pol : ndarray(int64, shape=(players,))
        Policy id per seat.
    par : ndarray(float64, shape=(players, N_PARAMS))
    view, hands, order, rng, prng : scratch arrays
    res : ndarray(int16, shape=(m, R_SIZE))
    r : int
    tricks : ndarray(int16, shape=(m, tricks, T_SIZE))
    rec : bool
    """
    n = rules[P_PLAYERS]
    nsides = rules[P_SIDES]
    ncards = rules[P_NCARDS]
    exch = rules[P_EXCHANGE]
    if rules[P_REMOVE] == RM_TRUMP2 and n == 3:
        exch = 1 if exch == 2 else (0 if exch == 3 else exch)  # trump2 disables the 2-exchange (R3)
    exwon = rules[P_EX_WON]
    endgame = rules[P_ENDGAME]
    removed = shuffle_deal(rules, deck, dseed, order, rng)
    prng[0] = dseed ^ POLICY_STREAM
    for i in range(V_SIZE):
        view[i] = 0
    for s in range(n):
        hands[s] = 0
        view[V_KNOWN + s] = 0
    for k in range(3 * n):  # R4: one card at a time from seat 0
        hands[k % n] |= np.int64(1) << np.int64(order[k])
    pinta = np.int64(order[ncards - 1])
    trump = pinta // 12
    view[V_TRUMP] = trump
    view[V_PINTA] = pinta
    view[V_PINTA_SEAT] = -1
    view[V_PLAYERS] = n
    view[V_SIDES] = nsides
    view[V_DECK_MASK] = rules[P_DECK_MASK]
    dp = 3 * n  # next card to draw
    view[V_LEFT] = ncards - dp
    res[r, R_PINTA] = pinta
    res[r, R_TRUMP] = trump
    res[r, R_FIRST] = 0
    res[r, R_REMOVED] = removed
    res[r, R_NEX] = 0
    for k in range(6):
        res[r, R_EX + k] = -1
    status = ST_OK
    nex = 0
    side_won = 0  # bitmask of sides that won a trick
    leader = 0
    played = np.int64(0)
    ntr = rules[P_TRICKS]
    for t in range(ntr):
        view[V_LEADER] = leader
        view[V_TRICKNO] = t
        view[V_NTRICK] = 0
        stock_empty = dp >= ncards
        for j in range(n):
            seat = (leader + j) % n
            view[V_SEAT] = seat
            while True:
                hand = hands[seat]
                view[V_HAND] = hand
                view[V_LEGAL] = legal_mask(hand, view[V_TRICK:V_TRICK + j], j, trump, endgame, stock_empty)
                pin = pinta if dp < ncards else np.int64(-1)
                ex = exchange_card(hand, pin, ncards - dp, exch, (side_won >> (seat % nsides)) & 1, exwon)
                view[V_SWAP] = ex
                a = choose(pol[seat], par[seat], view, prng)
                if a == SWAP:
                    if ex < 0 or nex >= 2:
                        status = ST_ILLEGAL if ex < 0 else ST_SWAPS
                        break
                    # R7: the 7 or 2 of trumps becomes the new pinta, still last in the stock
                    hands[seat] = (hand & ~(np.int64(1) << ex)) | (np.int64(1) << pinta)
                    view[V_KNOWN + seat] |= np.int64(1) << pinta
                    res[r, R_EX + 3 * nex] = seat
                    res[r, R_EX + 3 * nex + 1] = ex
                    res[r, R_EX + 3 * nex + 2] = t
                    nex += 1
                    pinta = ex
                    order[ncards - 1] = ex
                    view[V_PINTA] = ex
                    continue
                if a < 0 or a >= 48 or not (view[V_LEGAL] >> a) & 1:
                    status = ST_ILLEGAL
                break
            if status != ST_OK:
                break
            bit = np.int64(1) << a
            hands[seat] = hands[seat] & ~bit
            view[V_KNOWN + seat] &= ~bit
            view[V_TRICK + j] = a
            view[V_NTRICK] = j + 1
        if status != ST_OK:
            break
        w = trick_winner(view[V_TRICK:V_TRICK + n], n, trump)
        wseat = (leader + w) % n
        pts = 0
        for j in range(n):
            c = view[V_TRICK + j]
            played |= np.int64(1) << c
            k = c % 12
            pts += 11 if k == 11 else (10 if k == 10 else (k - 5 if k >= 7 else 0))
        view[V_POINTS + wseat] += pts
        view[V_WON + wseat] += 1
        view[V_PLAYED] = played
        side_won |= 1 << (wseat % nsides)
        if rec:
            tricks[r, t, T_LEADER] = leader
            tricks[r, t, T_WINNER] = wseat
            tricks[r, t, T_POINTS] = pts
            for j in range(n):
                tricks[r, t, T_CARDS + j] = view[V_TRICK + j]
        # R6: winner draws first, then the others in playing order; the pinta last
        if dp < ncards:
            for k in range(n):
                s = (wseat + k) % n
                hands[s] |= np.int64(1) << np.int64(order[dp])
                dp += 1
            if dp == ncards:
                s = (wseat + n - 1) % n
                view[V_PINTA_SEAT] = s
                view[V_KNOWN + s] |= np.int64(1) << pinta
            view[V_LEFT] = ncards - dp
        leader = wseat
    res[r, R_STATUS] = status
    res[r, R_NEX] = nex
    for s in range(nsides):
        res[r, R_SIDE_POINTS + s] = 0
    for s in range(n):
        res[r, R_SEAT_POINTS + s] = view[V_POINTS + s]
        res[r, R_SEAT_TRICKS + s] = view[V_WON + s]
        res[r, R_SIDE_POINTS + s % nsides] += view[V_POINTS + s]
    res[r, R_WINNER] = deal_winner(res[r, R_SIDE_POINTS:R_SIDE_POINTS + nsides], nsides)
    cap = 0
    for s in range(nsides):
        if res[r, R_SIDE_POINTS + s] == 120:
            cap = 1
    res[r, R_CAPOTE] = cap


@njit(cache=True, parallel=True)
def play_batch(rules, deck, seed, row0, m, rotations, pol, par, res, hands0, dseeds, tricks, rec):
    """Play rows ``row0 .. row0+m-1`` of a run in parallel (``prange`` over blocks).

    Parameters
    ----------
    rules : ndarray(int64, shape=(P_SIZE,))
    deck : ndarray(int8, shape=(cards,))
    seed : int
        Run seed (uint64 range).
    row0, m : int
        First row and number of rows.
    rotations : int
        Rows per deal (1, or the number of sides with ``--duplicate``).
    pol : ndarray(int64, shape=(players,))
        Policy id per seat in rotation 0; rotation ``k`` gives seat ``s``
        the policy of seat ``(s + k) % players``.
    par : ndarray(float64, shape=(players, N_PARAMS))
    res : ndarray(int16, shape=(m, R_SIZE))
        Output, one row per played deal.
    hands0 : ndarray(int8, shape=(m, players, 3))
        Output: initial hands, cards in the order dealt.
    dseeds : ndarray(uint64, shape=(m,))
        Output: the deal seeds.
    tricks : ndarray(int16, shape=(m or 1, tricks, T_SIZE))
        Output when ``rec``.
    rec : bool
        Record the tricks.
    """
    n = rules[P_PLAYERS]
    nblocks = (m + BLOCK - 1) // BLOCK
    for b in prange(nblocks):
        view = np.zeros(V_SIZE, dtype=np.int64)
        hands = np.zeros(8, dtype=np.int64)
        order = np.zeros(48, dtype=np.int8)
        rng = np.zeros(1, dtype=np.uint64)
        prng = np.zeros(1, dtype=np.uint64)
        polr = np.zeros(n, dtype=np.int64)
        parr = np.zeros((n, par.shape[1]), dtype=np.float64)
        lo = b * BLOCK
        hi = min(m, lo + BLOCK)
        for i in range(lo, hi):
            row = row0 + i
            d = row // rotations
            k = row % rotations
            for s in range(n):
                polr[s] = pol[(s + k) % n]
                for q in range(par.shape[1]):
                    parr[s, q] = par[(s + k) % n, q]
            ds = deal_seed(seed, d)
            dseeds[i] = ds
            play_deal(rules, deck, ds, polr, parr, view, hands, order, rng, prng, res, i, tricks, rec)
            for k2 in range(3 * n):
                hands0[i, k2 % n, k2 // n] = order[k2]
