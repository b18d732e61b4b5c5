"""The jitted batch engine: deals played in parallel (RULES R3-R9).

:func:`play_batch` plays rows ``[row0, row0 + m)`` of a run. Row ``r`` is
deal ``r // rotations`` played with the policies rotated by ``r % rotations``
seats (``--duplicate``: ``rotations`` is the number of sides, so every side's
policies play every side's seats of the same deal). The shuffle of deal ``d`` comes from
:func:`sim.rng.deal_seed` ``(seed, d)`` and the policies' random choices from
a second stream of that deal seed (``^ POLICY_STREAM``), so a row's result
never depends on threads, chunks or the other rows.

Outputs are structs of arrays (one row per deal, ``R_*`` columns of ``res``).

Two kernels play a deal: :func:`play_deal` for any table, and
:func:`play_deal2` for two players: the same deal played the same way (tests
compare them on every 2-player variant and policy pair), with its state in
registers and the ``random`` and ``heuristic`` policies inline
(``benchmarks/bench_engine.py``). ``play_batch`` calls one of three compiled
batch kernels (:func:`batch_kernel`): :func:`play_batch2_default` (two
players, default rules as constants), :func:`play_batch2_rules` (two players,
any rules) or :func:`play_batchn` (3-6 players), so a first run compiles only
the deal kernel its table needs (``benchmarks/bench_compile.py``).
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from .cards import CARD_POINTS, N_IDS, SWAP
from .bits import lowest, nth_bit, popcount
from .policies import choose
from .heuristic import heuristic2
from .rng import _GOLDEN, POLICY_STREAM, below32_regs, deal_seed, mix64
from .rules import (END_FREE, EX_NONE, EX_SEVEN, EX_SEVEN_TWO, EX_TWO_ANY, P_DECK_MASK, P_EX_WON, P_EXCHANGE,
                    P_ENDGAME, P_NCARDS, P_PLAYERS, P_REMOVE, P_SIDES, P_TRICKS, RM_TRUMP2, beats, deal_winner3,
                    exchange_card, legal_follow)
from .view import (V_DECK_MASK, V_ENDGAME, V_HAND, V_KNOWN, V_LEADER, V_LEFT, V_LEGAL, V_NTRICK, V_PINTA, V_PINTA_SEAT,
                   V_PLAYED, V_PLAYERS, V_POINTS, V_SEAT, V_SIDES, V_SIZE, V_SWAP, V_TRICK, V_TRICKNO, V_TRUMP, V_WON)

# --- columns of the per-deal result array res (int16) ---------------------
R_PINTA = 0        # the pinta turned at the deal (card id)
R_TRUMP = 1        # trump suit
R_FIRST = 2        # seat of the first lead
R_WINNER = 3       # winning side, -1 draw (R8)
R_CAPOTE = 4       # 1 if one side took all 120 points
R_NEX = 5          # exchanges made (0..2, R7)
R_EX = 6           # R_EX + 3*k: seat, card given up, trick number of exchange k (k < MAX_EXCHANGES; -1 if none)
R_REMOVED = 12     # card set aside by remove=trump2 (R3), else -1
R_STATUS = 13      # 0 ok; else an ST_* code
# (columns 14, 15 and 31 are unused)
R_SEAT_POINTS = 16  # + seat (6 seats at most), card points won (R2)
R_SEAT_TRICKS = 22  # + seat, tricks won
R_SIDE_POINTS = 28  # + side (3 sides at most; the third 0 with two sides), card points
R_SIZE = 32
# --- columns of the per-trick array (int16) -------------------------------
T_LEADER = 0       # seat that led the trick
T_WINNER = 1       # seat that won it (R5)
T_POINTS = 2       # card points in it (R2)
T_CARDS = 3        # + position in play order (6 seats at most); columns past the table's seats are unwritten
T_SIZE = 9

ST_OK = 0
ST_ILLEGAL = 1     # a policy returned an illegal action
ST_SWAPS = 2       # more exchanges than R7 allows

MAX_EXCHANGES = 2  # R7: each exchange strictly lowers the pinta, so a deal has at most two

BLOCK = 256        # rows per parallel work item


@njit(cache=True, inline="always", error_model="numpy")
def _shuffle(deck, n, dseed, order):
    """Fisher-Yates of ``deck[:n]`` into ``order`` on the deal stream ``dseed``,
    two 32-bit multiply-shift indices from each 64-bit draw. Returns the
    stream state. Inlined, so a constant ``n`` unrolls it."""
    st = np.uint64(dseed)  # the deal stream, kept in a register (arrays alias each other)
    for i in range(n):
        order[i] = deck[i]
    i = n - 1
    while i > 0:
        st += _GOLDEN
        x = mix64(st)
        j = np.int64(((x >> np.uint64(32)) * np.uint64(i + 1)) >> np.uint64(32))
        t = order[i]
        order[i] = order[j]
        order[j] = t
        i -= 1
        if i > 0:
            j = np.int64(((x & np.uint64(0xFFFFFFFF)) * np.uint64(i + 1)) >> np.uint64(32))
            t = order[i]
            order[i] = order[j]
            order[j] = t
            i -= 1
    return st


@njit(cache=True, error_model="numpy")
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
        Output: the layout in ``order[:ncards]``; with ``remove=trump2``
        ``order[n - 1]``, past it, still holds the card turned first (the
        pinta's copy, or the 2 set aside).
    rng : ndarray(uint64, shape=(1,))
        Deal stream (reseeded here).

    Returns
    -------
    int
        Card id set aside by ``remove=trump2`` (R3), else -1.
    """
    n = deck.shape[0]
    rng[0] = _shuffle(deck, n, dseed, order)
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


@njit(cache=True, error_model="numpy", _nrt=False)
def play_deal(rules, deck, dseed, pol, par, view, hands, order, rng, prng, res, r, tricks, rec):
    """Play one deal; write row ``r`` of ``res`` (and of ``tricks`` when ``rec``).

    The deal follows RULES R3-R9: the layout and the pinta of :func:`shuffle_deal` (R3, R4), each
    trick's legal cards and winner (R5; the endgame obligations R9 once the stock is exhausted), the
    draws, winner first and the pinta last (R6), the trump exchange when a policy asks for it (R7),
    and the card points (R2), winning side and capote of the row (R8).

    Parameters
    ----------
    rules : ndarray(int64, shape=(P_SIZE,))
    deck : ndarray(int8, shape=(cards,))
    dseed : uint64
        The deal's seed (:func:`sim.rng.deal_seed`).
    pol : ndarray(int64, shape=(players,))
        Policy id per seat.
    par : ndarray(float64, shape=(players, sim.policies.N_PARAMS))
        Policy parameters per seat.
    view : ndarray(int64, shape=(V_SIZE,))
        Scratch: the public view (:mod:`sim.view`).
    hands : ndarray(int64, shape=(>= players,))
        Scratch: the hands (bitmasks).
    order : ndarray(int8, shape=(48,))
        Scratch: the deal layout (:func:`shuffle_deal`); on return it still
        holds the deal as dealt, except the pinta slot holds the last pinta.
    rng : ndarray(uint64, shape=(1,))
        Scratch: the deal stream.
    prng : ndarray(uint64, shape=(2,))
        Scratch: the policies' stream (:func:`sim.rng.below32`).
    res : ndarray(int16, shape=(m, R_SIZE))
        Output row ``r`` (``R_*`` columns).
    r : int
        Output row of ``res`` (and of ``tricks``).
    tricks : ndarray(int16, shape=(m or 1, tricks, T_SIZE))
        Output row ``r`` when ``rec`` (``T_*`` columns).
    rec : bool
        Record the tricks.
    """
    n = rules[P_PLAYERS]
    nsides = rules[P_SIDES]
    ncards = rules[P_NCARDS]
    exch = rules[P_EXCHANGE]
    if rules[P_REMOVE] == RM_TRUMP2 and n == 3:
        # trump2 disables the 2-exchange (R3): seven-two plays as seven, two-any as none
        exch = EX_SEVEN if exch == EX_SEVEN_TWO else (EX_NONE if exch == EX_TWO_ANY else exch)
    exwon = rules[P_EX_WON]
    endgame = rules[P_ENDGAME]
    removed = shuffle_deal(rules, deck, dseed, order, rng)
    # The policies' stream (sim.rng.below32 semantics) lives in locals: the random
    # policy is played inline; prng is synced only around the other policies.
    ps = dseed ^ POLICY_STREAM
    pbuf = np.uint64(0)
    s = 0
    for k in range(n):
        hands[k] = 0
        view[V_KNOWN + k] = 0
        view[V_POINTS + k] = 0
        view[V_WON + k] = 0
    for k in range(3 * n):  # R4: one card at a time from seat 0
        hands[s] |= np.int64(1) << np.int64(order[k])
        s = s + 1 if s + 1 < n else 0
    pinta = np.int64(order[ncards - 1])
    trump = pinta // 12
    view[V_TRUMP] = trump
    view[V_PINTA] = pinta
    view[V_PINTA_SEAT] = -1
    view[V_PLAYERS] = n
    view[V_SIDES] = nsides
    view[V_DECK_MASK] = rules[P_DECK_MASK] & ~(np.int64(1) << removed) if removed >= 0 else rules[P_DECK_MASK]
    view[V_ENDGAME] = endgame
    view[V_PLAYED] = 0
    dp = 3 * n  # next card to draw; order[ncards - 1] is the pinta
    view[V_LEFT] = ncards - dp
    res[r, R_PINTA] = pinta
    res[r, R_TRUMP] = trump
    res[r, R_FIRST] = 0
    res[r, R_REMOVED] = removed
    for k in range(3 * MAX_EXCHANGES):
        res[r, R_EX + k] = -1
    status = ST_OK
    nex = 0
    side_won = 0  # bitmask of the sides that won a trick (R7 won-trick)
    leader = 0
    played = np.int64(0)
    ntr = rules[P_TRICKS]
    for t in range(ntr):
        view[V_LEADER] = leader
        view[V_TRICKNO] = t
        view[V_NTRICK] = 0
        restricted = endgame != END_FREE and dp >= ncards  # R9 applies once the stock is exhausted
        can_ex = exch != EX_NONE and ncards - dp >= 2    # R7: a face-down card besides the pinta
        exm = (np.int64(0x11) << (trump * 12)) if can_ex else np.int64(0)  # the 2 and the 7 of trumps
        seat = leader
        led = np.int64(-1)
        win = np.int64(-1)
        wi = 0
        pts = 0
        for j in range(n):
            view[V_SEAT] = seat
            hand = hands[seat]
            while True:  # one pass per decision: exchanges (R7) leave the seat to move
                if j > 0 and restricted:
                    legal = legal_follow(hand, led, win, trump, endgame)
                else:
                    legal = hand
                view[V_LEGAL] = legal
                view[V_HAND] = hand
                ex = np.int64(-1)
                if hand & exm:
                    ex = exchange_card(hand, pinta, ncards - dp, exch,
                                       (side_won >> (seat if nsides == 3 else seat & 1)) & 1, exwon)
                view[V_SWAP] = ex
                pid = pol[seat]
                if pid == 0:  # random (sim.policies.random_action), inline
                    a, ps, pbuf = _random_pick(legal, ex, ps, pbuf)
                else:  # choose inlined here: a call costs the general kernel ~15% with 4 players
                    prng[0] = ps
                    prng[1] = pbuf
                    a = choose(pid, par, seat, view, prng)
                    ps = prng[0]
                    pbuf = prng[1]
                if a != SWAP:
                    break
                if ex < 0 or nex >= MAX_EXCHANGES:
                    status = ST_ILLEGAL if ex < 0 else ST_SWAPS
                    break
                # R7: the 7 or 2 of trumps becomes the new pinta, still last in the stock
                hand = (hand & ~(np.int64(1) << ex)) | (np.int64(1) << pinta)
                hands[seat] = hand
                view[V_KNOWN + seat] |= np.int64(1) << pinta
                res[r, R_EX + 3 * nex] = seat
                res[r, R_EX + 3 * nex + 1] = ex
                res[r, R_EX + 3 * nex + 2] = t
                nex += 1
                pinta = ex
                order[ncards - 1] = ex
                view[V_PINTA] = ex
            if status != ST_OK:
                break
            if a < 0 or a >= N_IDS or not (legal >> a) & 1:
                status = ST_ILLEGAL
                break
            bit = np.int64(1) << a
            hands[seat] = hand & ~bit
            view[V_KNOWN + seat] &= ~bit
            view[V_TRICK + j] = a
            view[V_NTRICK] = j + 1
            played |= bit
            pts += CARD_POINTS[a]
            if j == 0:
                led = a // 12
                win = a
            else:
                bt = beats(a, win, trump)  # R5
                win = a if bt else win
                wi = j if bt else wi
            seat = seat + 1 if seat + 1 < n else 0
        if status != ST_OK:
            break
        wseat = leader + wi
        wseat = wseat - n if wseat >= n else wseat
        view[V_POINTS + wseat] += pts
        view[V_WON + wseat] += 1
        view[V_PLAYED] = played
        side_won |= 1 << (wseat if nsides == 3 else wseat & 1)
        if rec:
            tricks[r, t, T_LEADER] = leader
            tricks[r, t, T_WINNER] = wseat
            tricks[r, t, T_POINTS] = pts
            for j in range(n):
                tricks[r, t, T_CARDS + j] = view[V_TRICK + j]
        # R6: winner draws first, then the others in playing order; the pinta last
        if dp < ncards:
            s = wseat
            for k in range(n):
                hands[s] |= np.int64(1) << np.int64(order[dp])
                dp += 1
                s = s + 1 if s + 1 < n else 0
            if dp == ncards:
                s = wseat - 1 if wseat > 0 else n - 1
                view[V_PINTA_SEAT] = s
                view[V_KNOWN + s] |= np.int64(1) << pinta
            view[V_LEFT] = ncards - dp
        leader = wseat
    res[r, R_STATUS] = status
    res[r, R_NEX] = nex
    sp0 = 0
    sp1 = 0
    sp2 = 0
    for s in range(n):
        p = view[V_POINTS + s]
        res[r, R_SEAT_POINTS + s] = p
        res[r, R_SEAT_TRICKS + s] = view[V_WON + s]
        side = s if nsides == 3 else s & 1
        if side == 0:
            sp0 += p
        elif side == 1:
            sp1 += p
        else:
            sp2 += p
    res[r, R_SIDE_POINTS] = sp0
    res[r, R_SIDE_POINTS + 1] = sp1
    res[r, R_SIDE_POINTS + 2] = sp2 if nsides == 3 else 0
    bp = max(sp0, sp1, sp2)
    res[r, R_WINNER] = deal_winner3(sp0, sp1, sp2, nsides)  # R8
    res[r, R_CAPOTE] = 1 if bp == 120 else 0


@njit(cache=True, inline="always", error_model="numpy")
def _random_pick(legal, ex, ps, pbuf):
    """The random policy inline (:func:`sim.policies.random_action` on the same stream).

    ``ps``/``pbuf`` are the two words of the ``below32`` state held in locals.
    Returns (action, ps, pbuf).
    """
    k = popcount(legal)
    rr, ps, pbuf = below32_regs(ps, pbuf, k + 1 if ex >= 0 else k)
    a = nth_bit(legal, rr) if rr < k else np.int64(SWAP)
    return a, ps, pbuf


@njit(cache=True, inline="always", error_model="numpy")
def _exchange_bits(pinta, exch):
    """Bitmask of the trump cards that may be given up for ``pinta`` (RULES R7).

    The rank conditions of :func:`sim.rules.exchange_card` as a mask: with
    ``hand & bits`` non-zero (and the stock and won-trick conditions met),
    ``exchange_card`` returns its lowest card (tested equal).
    """
    base = (pinta // 12) * 12
    seven = base + 4  # strength index of rank 7
    ps = pinta - base  # 1..4 are ranks 4, 5, 6, 7
    b7 = (np.int64(1) << seven) if (exch == EX_SEVEN or exch == EX_SEVEN_TWO) and pinta > seven else np.int64(0)
    b2 = (np.int64(1) << base) if (exch == EX_SEVEN_TWO and 1 <= ps <= 4) or exch == EX_TWO_ANY else np.int64(0)
    return b7 | b2


@njit(cache=True, error_model="numpy")
def _choose_view(pid, par, seat, view, prng, ps, pbuf):
    """:func:`sim.policies.choose` with the policies' stream held in two locals
    (``ps``, ``pbuf``; ``prng`` is scratch). Returns ``(action, ps, pbuf)``. One
    compiled function: the kernels call it from several inlined sites."""
    prng[0] = ps
    prng[1] = pbuf
    a = choose(pid, par, seat, view, prng)
    return a, prng[0], prng[1]


@njit(cache=True, inline="always", error_model="numpy")
def _decide2(seat, hand, legal, lead, trump, outside, exb, lm, wm, pinta, exch, pid, ps, pbuf, nex, t,
             par, view, prng, res, r, order, ncards, vw):
    """One seat's decision with two players, exchanges (R7) included.

    ``lead`` is the card led (-1 when ``seat`` leads), ``outside`` the cards the
    seat cannot see (read by the heuristic only), ``pid`` the seat's policy id,
    ``exb`` :func:`_exchange_bits` of the pinta, ``lm``/``wm`` all ones when
    the stock and the won-trick conditions of R7 allow an exchange (else 0),
    ``vw`` whether the view is kept (a seat's policy reads it).
    Returns ``(action, hand, pinta, exb, nex, ps, pbuf, status)``. ``legal``
    is the seat's legal cards; an exchange is possible only while the stock
    holds a face-down card, so never under the endgame obligations (R9), and
    after it every card of the hand is legal.
    """
    status = ST_OK
    while True:
        hit = hand & exb & lm & wm
        if pid == 2:  # heuristic, from the view's values held in registers
            a = heuristic2(legal, hand, lowest(hit) if hit != 0 else np.int64(-1), trump, lead, outside)
            if a != SWAP:
                break
            ex = lowest(hit)
        elif pid == 0:  # the random policy inline (sim.policies.random_action, same stream)
            k = popcount(legal)
            rr, ps, pbuf = below32_regs(ps, pbuf, k + np.int64(hit != 0))
            if rr < k:
                a = nth_bit(legal, rr)
                break
            a = np.int64(SWAP)
            ex = lowest(hit)
        else:
            ex = lowest(hit) if hit != 0 else np.int64(-1)
            view[V_SEAT] = seat
            view[V_LEGAL] = legal
            view[V_HAND] = hand
            view[V_SWAP] = ex
            a, ps, pbuf = _choose_view(pid, par, seat, view, prng, ps, pbuf)
            if a != SWAP:
                if a < 0 or a >= N_IDS or not (legal >> a) & 1:
                    status = ST_ILLEGAL
                break
            if ex < 0 or nex >= MAX_EXCHANGES:
                status = ST_ILLEGAL if ex < 0 else ST_SWAPS
                break
        # R7: the 7 or 2 of trumps becomes the new pinta, still last in the stock
        hand = (hand & ~(np.int64(1) << ex)) | (np.int64(1) << pinta)
        legal = hand
        if vw:
            view[V_KNOWN + seat] |= np.int64(1) << pinta
            view[V_PINTA] = ex
        res[r, R_EX + 3 * nex] = seat
        res[r, R_EX + 3 * nex + 1] = ex
        res[r, R_EX + 3 * nex + 2] = t
        nex += 1
        pinta = ex
        outside &= ~(np.int64(1) << ex)  # the card given up lies under the stock now
        exb = _exchange_bits(pinta, exch)
        order[ncards - 1] = ex
    return a, hand, pinta, exb, nex, ps, pbuf, status


@njit(cache=True, inline="always", error_model="numpy")
def _play_deal2(rules, deck, dseed, pol, par, view, order, rng, prng, res, r, tricks, rec,
                ncards, ntr, exch, exwon, endgame):
    """Body of :func:`play_deal2`; the rule values are arguments so that a caller
    passing constants gets a copy specialised for them."""
    rng[0] = _shuffle(deck, ncards, dseed, order)  # two players: no R3 removal
    ps = dseed ^ POLICY_STREAM
    pbuf = np.uint64(0)
    p0 = pol[0]
    p1 = pol[1]
    vw = not ((p0 == 0 or p0 == 2) and (p1 == 0 or p1 == 2))  # keep the view: a policy reads it
    hv = p0 == 2 or p1 == 2
    # hands by role: hl the leader's, hf the follower's (swapped by masks, the winner is random)
    hl = (np.int64(1) << np.int64(order[0])) | (np.int64(1) << np.int64(order[2])) | (np.int64(1) << np.int64(order[4]))
    hf = (np.int64(1) << np.int64(order[1])) | (np.int64(1) << np.int64(order[3])) | (np.int64(1) << np.int64(order[5]))
    pinta = np.int64(order[ncards - 1])
    trump = pinta // 12
    exb = _exchange_bits(pinta, exch)
    deckm = rules[P_DECK_MASK]
    nexw = -np.int64(exwon == 0)  # all ones: no won-trick condition (R7)
    if vw:
        for k in range(2):
            view[V_KNOWN + k] = 0
            view[V_POINTS + k] = 0
            view[V_WON + k] = 0
        view[V_TRUMP] = trump
        view[V_PINTA] = pinta
        view[V_PINTA_SEAT] = -1
        view[V_PLAYERS] = 2
        view[V_SIDES] = 2
        view[V_DECK_MASK] = rules[P_DECK_MASK]
        view[V_ENDGAME] = endgame
        view[V_PLAYED] = 0
        view[V_LEFT] = ncards - 6
    res[r, R_PINTA] = pinta
    res[r, R_TRUMP] = trump
    res[r, R_FIRST] = 0
    res[r, R_REMOVED] = -1
    for k in range(3 * MAX_EXCHANGES):
        res[r, R_EX + k] = -1
    dp = 6  # next card to draw; order[ncards - 1] is the pinta
    status = ST_OK
    nex = 0
    won0 = 0  # seat 0 / seat 1 has won a trick (R7 won-trick)
    won1 = 0
    pts0 = 0
    pts1 = 0
    tr0 = 0
    tr1 = 0
    played = np.int64(0)
    leader = np.int64(0)
    for t in range(ntr):
        if vw:
            view[V_LEADER] = leader
            view[V_TRICKNO] = t
            view[V_NTRICK] = 0
        lm = -np.int64(ncards - dp >= 2)  # R7: a face-down card besides the pinta
        # what a seat cannot see (before its own hand is removed): not played, not the pinta under the stock
        outside = np.int64(0)
        if hv:  # only the heuristic reads it
            outside = deckm & ~played & ~((np.int64(1) << pinta) & -np.int64(dp < ncards))
        ml = -leader  # all ones when seat 1 leads
        pl = (p0 & ~ml) | (p1 & ml)
        pf = (p1 & ~ml) | (p0 & ml)
        wl = nexw | -((won0 & ~ml) | (won1 & ml))
        wf = nexw | -((won1 & ~ml) | (won0 & ml))
        a, hl, pinta, exb, nex, ps, pbuf, status = _decide2(
            leader, hl, hl, np.int64(-1), trump, outside, exb, lm, wl, pinta, exch, pl, ps, pbuf,
            nex, t, par, view, prng, res, r, order, ncards, vw)
        if status != ST_OK:
            break
        hl &= ~(np.int64(1) << a)
        if vw:
            view[V_KNOWN + leader] &= ~(np.int64(1) << a)
            view[V_TRICK] = a
            view[V_NTRICK] = 1
        restricted = endgame != END_FREE and dp >= ncards  # R9 once the stock is exhausted
        legal = legal_follow(hf, a // 12, a, trump, endgame) if restricted else hf
        b, hf, pinta, exb, nex, ps, pbuf, status = _decide2(
            leader ^ 1, hf, legal, a, trump, outside & ~(np.int64(1) << a), exb, lm, wf, pinta, exch, pf, ps, pbuf,
            nex, t, par, view, prng, res, r, order, ncards, vw)
        if status != ST_OK:
            break
        hf &= ~(np.int64(1) << b)
        if vw:
            view[V_KNOWN + (leader ^ 1)] &= ~(np.int64(1) << b)
            view[V_TRICK + 1] = b
            view[V_NTRICK] = 2
        if hv or vw:
            played |= (np.int64(1) << a) | (np.int64(1) << b)
        pts = CARD_POINTS[a] + CARD_POINTS[b]
        wi = np.int64(beats(b, a, trump))  # R5
        wseat = leader ^ wi
        mw = -wseat  # all ones when seat 1 won
        pts0 += pts & ~mw
        pts1 += pts & mw
        tr0 += 1 - wseat
        tr1 += wseat
        won0 |= 1 - wseat
        won1 |= wseat
        mi = -wi  # the follower won: swap the roles
        x = (hl ^ hf) & mi
        hl ^= x
        hf ^= x
        if vw:
            view[V_POINTS + wseat] += pts
            view[V_WON + wseat] += 1
            view[V_PLAYED] = played
        if rec:
            tricks[r, t, T_LEADER] = leader
            tricks[r, t, T_WINNER] = wseat
            tricks[r, t, T_POINTS] = pts
            tricks[r, t, T_CARDS] = a
            tricks[r, t, T_CARDS + 1] = b
        # R6: the winner draws first; the pinta last
        if dp < ncards:
            hl |= np.int64(1) << np.int64(order[dp])
            hf |= np.int64(1) << np.int64(order[dp + 1])
            dp += 2
            if vw:
                if dp == ncards:
                    s = wseat ^ 1
                    view[V_PINTA_SEAT] = s
                    view[V_KNOWN + s] |= np.int64(1) << pinta
                view[V_LEFT] = ncards - dp
        leader = wseat
    res[r, R_STATUS] = status
    res[r, R_NEX] = nex
    res[r, R_SEAT_POINTS] = pts0
    res[r, R_SEAT_POINTS + 1] = pts1
    res[r, R_SEAT_TRICKS] = tr0
    res[r, R_SEAT_TRICKS + 1] = tr1
    res[r, R_SIDE_POINTS] = pts0
    res[r, R_SIDE_POINTS + 1] = pts1
    res[r, R_SIDE_POINTS + 2] = 0
    res[r, R_WINNER] = deal_winner3(pts0, pts1, 0, 2)  # R8
    res[r, R_CAPOTE] = 1 if max(pts0, pts1) == 120 else 0


@njit(cache=True, inline="always", error_model="numpy")
def _default2(rules):
    """True when ``rules`` are the 2-player defaults :func:`play_deal2_default` has as constants."""
    return (rules[P_NCARDS] == 40 and rules[P_EXCHANGE] == EX_SEVEN_TWO and rules[P_EX_WON] == 0
            and rules[P_ENDGAME] == END_FREE)


@njit(cache=True, error_model="numpy", _nrt=False)
def play_deal2_default(rules, deck, dseed, pol, par, view, order, rng, prng, res, r, tricks, rec):
    """:func:`play_deal2` compiled with the default rules (``spanish40``, ``seven-two``,
    ``any``, ``free``) as constants; only for ``rules`` that are those defaults.

    Parameters
    ----------
    rules, deck, dseed, pol, par, view, order, rng, prng, res, r, tricks, rec
        As :func:`play_deal` (``rules``: ndarray(int64, shape=(P_SIZE,)) with ``rules[P_PLAYERS] == 2``;
        ``res``: ndarray(int16, shape=(m, R_SIZE)), row ``r`` written); no ``hands`` scratch: the two hands
        live in locals.
    """
    _play_deal2(rules, deck, dseed, pol, par, view, order, rng, prng, res, r, tricks, rec,
                40, 20, EX_SEVEN_TWO, 0, END_FREE)  # ncards, tricks (R3), exchange, won-trick off, endgame


@njit(cache=True, error_model="numpy", _nrt=False)
def play_deal2_rules(rules, deck, dseed, pol, par, view, order, rng, prng, res, r, tricks, rec):
    """:func:`play_deal2` with the rule values read from ``rules`` (any 2-player variant).

    Parameters
    ----------
    rules, deck, dseed, pol, par, view, order, rng, prng, res, r, tricks, rec
        As :func:`play_deal` (``rules``: ndarray(int64, shape=(P_SIZE,)) with ``rules[P_PLAYERS] == 2``;
        ``res``: ndarray(int16, shape=(m, R_SIZE)), row ``r`` written); no ``hands`` scratch: the two hands
        live in locals.
    """
    _play_deal2(rules, deck, dseed, pol, par, view, order, rng, prng, res, r, tricks, rec,
                rules[P_NCARDS], rules[P_TRICKS], rules[P_EXCHANGE], rules[P_EX_WON], rules[P_ENDGAME])


@njit(cache=True, error_model="numpy", _nrt=False)
def play_deal2(rules, deck, dseed, pol, par, view, order, rng, prng, res, r, tricks, rec):
    """:func:`play_deal` for two players: the same deal, played the same way, faster.

    Hands, points and the policies' stream live in locals, hands are kept by
    role (leader, follower) and swapped with masks, the random policy is
    played inline, and the view is written only when a seat plays a policy
    that reads it. The default rules (``spanish40``, ``seven-two``, ``any``,
    ``free``) go to :func:`play_deal2_default`, a copy compiled with those
    values as constants, the others to :func:`play_deal2_rules`. Same
    parameters and outputs as :func:`play_deal`; tests check the two equal on
    every 2-player variant and policy.

    Parameters
    ----------
    rules, deck, dseed, pol, par, view, order, rng, prng, res, r, tricks, rec
        As :func:`play_deal` (``rules``: ndarray(int64, shape=(P_SIZE,)) with ``rules[P_PLAYERS] == 2``;
        ``res``: ndarray(int16, shape=(m, R_SIZE)), row ``r`` written); no ``hands`` scratch: the two hands
        live in locals.
    """
    if _default2(rules):
        play_deal2_default(rules, deck, dseed, pol, par, view, order, rng, prng, res, r, tricks, rec)
    else:
        play_deal2_rules(rules, deck, dseed, pol, par, view, order, rng, prng, res, r, tricks, rec)


@njit(cache=True, inline="always", error_model="numpy")
def _block_scratch(n, npar):
    """One parallel block's scratch arrays: view, hands, order, rng, prng, polr, parr."""
    return (np.zeros(V_SIZE, dtype=np.int64), np.zeros(8, dtype=np.int64), np.zeros(48, dtype=np.int8),
            np.zeros(1, dtype=np.uint64), np.zeros(2, dtype=np.uint64), np.zeros(n, dtype=np.int64),
            np.zeros((n, npar), dtype=np.float64))


@njit(cache=True, inline="always", error_model="numpy")
def _start_row(seed, row, rotations, i, krot, pol, par, polr, parr, dseeds):
    """Set up run row ``row`` (output row ``i``): deal ``row // rotations`` with the policies rotated by
    ``row % rotations`` seats (seat ``s`` plays seat ``(s + k) % n``'s policy and parameters, copied
    into ``polr``/``parr`` when the rotation ``krot`` of the previous row differs). Returns the deal
    seed (also written to ``dseeds[i]``) and the row's rotation."""
    if rotations == 1:
        d = row
        k = 0
    else:
        d = row // rotations
        k = row - d * rotations
    if k != krot:
        n = polr.shape[0]
        for s in range(n):
            src = s + k
            while src >= n:
                src -= n
            polr[s] = pol[src]
            for q in range(parr.shape[1]):
                parr[s, q] = par[src, q]
    ds = deal_seed(seed, d)
    dseeds[i] = ds
    return ds, k


@njit(cache=True, inline="always", error_model="numpy")
def _hands0_2(order, hands0, i):
    """The two initial hands of row ``i`` from the shuffled ``order`` (dealt one card each in turn)."""
    for c in range(3):
        hands0[i, 0, c] = order[2 * c]
        hands0[i, 1, c] = order[2 * c + 1]


# The three batch kernels below differ only in the deal kernel they call, so that a run
# compiles only the one its table needs (numba compiles every branch of a function: a
# runtime test on the player count would compile all three deal kernels, 60-70 s).

@njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def play_batch2_default(rules, deck, seed, row0, m, rotations, pol, par, res, hands0, dseeds, tricks, rec):
    """:func:`play_batch` for two players and the default rules (:func:`play_deal2_default`).

    Parameters
    ----------
    rules, deck, seed, row0, m, rotations, pol, par, res, hands0, dseeds, tricks, rec
        As :func:`play_batch` (``res``: ndarray(int16, shape=(>= m, R_SIZE)); ``hands0``: ndarray(int8,
        shape=(>= m, 2, 3)); ``dseeds``: ndarray(uint64, shape=(>= m,)); rows ``0 .. m-1`` written).
    """
    for b in prange((m + BLOCK - 1) // BLOCK):
        view, _, order, rng, prng, polr, parr = _block_scratch(2, par.shape[1])
        krot = -1
        for i in range(b * BLOCK, min(m, b * BLOCK + BLOCK)):
            ds, krot = _start_row(seed, row0 + i, rotations, i, krot, pol, par, polr, parr, dseeds)
            play_deal2_default(rules, deck, ds, polr, parr, view, order, rng, prng, res, i, tricks, rec)
            _hands0_2(order, hands0, i)


@njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def play_batch2_rules(rules, deck, seed, row0, m, rotations, pol, par, res, hands0, dseeds, tricks, rec):
    """:func:`play_batch` for two players and any rules (:func:`play_deal2_rules`).

    Parameters
    ----------
    rules, deck, seed, row0, m, rotations, pol, par, res, hands0, dseeds, tricks, rec
        As :func:`play_batch` (``res``: ndarray(int16, shape=(>= m, R_SIZE)); ``hands0``: ndarray(int8,
        shape=(>= m, 2, 3)); ``dseeds``: ndarray(uint64, shape=(>= m,)); rows ``0 .. m-1`` written).
    """
    for b in prange((m + BLOCK - 1) // BLOCK):
        view, _, order, rng, prng, polr, parr = _block_scratch(2, par.shape[1])
        krot = -1
        for i in range(b * BLOCK, min(m, b * BLOCK + BLOCK)):
            ds, krot = _start_row(seed, row0 + i, rotations, i, krot, pol, par, polr, parr, dseeds)
            play_deal2_rules(rules, deck, ds, polr, parr, view, order, rng, prng, res, i, tricks, rec)
            _hands0_2(order, hands0, i)


@njit(cache=True, parallel=True, nogil=True, error_model="numpy")
def play_batchn(rules, deck, seed, row0, m, rotations, pol, par, res, hands0, dseeds, tricks, rec):
    """:func:`play_batch` for any table (:func:`play_deal`).

    Parameters
    ----------
    rules, deck, seed, row0, m, rotations, pol, par, res, hands0, dseeds, tricks, rec
        As :func:`play_batch` (``res``: ndarray(int16, shape=(>= m, R_SIZE)); ``hands0``: ndarray(int8,
        shape=(>= m, players, 3)), cards in the order dealt; ``dseeds``: ndarray(uint64, shape=(>= m,));
        rows ``0 .. m-1`` written).
    """
    n = rules[P_PLAYERS]
    for b in prange((m + BLOCK - 1) // BLOCK):
        view, hands, order, rng, prng, polr, parr = _block_scratch(n, par.shape[1])
        krot = -1
        for i in range(b * BLOCK, min(m, b * BLOCK + BLOCK)):
            ds, krot = _start_row(seed, row0 + i, rotations, i, krot, pol, par, polr, parr, dseeds)
            play_deal(rules, deck, ds, polr, parr, view, hands, order, rng, prng, res, i, tricks, rec)
            s = 0
            c = 0
            for k2 in range(3 * n):  # dealt one card a seat in turn
                hands0[i, s, c] = order[k2]
                s += 1
                if s == n:
                    s = 0
                    c += 1


def batch_kernel(rules):
    """The batch kernel for ``rules``: the one of :func:`play_batch2_default`,
    :func:`play_batch2_rules` and :func:`play_batchn` that a table needs.

    Parameters
    ----------
    rules : ndarray(int64, shape=(P_SIZE,))
        :meth:`sim.rules.Rules.to_array`: 2 players with the default rules (R1 ``spanish40``, R7
        ``seven-two`` and ``any``, R9 ``free``), 2 players with others, or 3-6 players (R3).

    Returns
    -------
    numba dispatcher
        Called with :func:`play_batch`'s arguments.
    """
    if rules[P_PLAYERS] != 2:
        return play_batchn
    return play_batch2_default if _default2(rules) else play_batch2_rules


def play_batch(rules, deck, seed, row0, m, rotations, pol, par, res, hands0, dseeds, tricks, rec):
    """Play rows ``row0 .. row0+m-1`` of a run in parallel (``prange`` over blocks).

    Calls the one compiled kernel the table needs (:func:`batch_kernel`), so a
    run compiles one deal kernel, not all three. Releases the GIL.

    Parameters
    ----------
    rules : ndarray(int64, shape=(P_SIZE,))
        :meth:`sim.rules.Rules.to_array`.
    deck : ndarray(int8, shape=(cards,))
        :attr:`sim.rules.Rules.deck_cards`.
    seed : int
        Run seed as an int64: :func:`sim.rng.seed_bits` of the run seed ``0 <= seed < 2**64`` (a seed
        of ``2**63`` or more is passed as ``seed - 2**64``); the kernels read its bits as a uint64.
    row0, m : int
        First row and number of rows.
    rotations : int
        Rows per deal (1, or the number of sides with ``--duplicate``).
    pol : ndarray(int64, shape=(players,))
        Policy id per seat in rotation 0; rotation ``k`` gives seat ``s``
        the policy of seat ``(s + k) % players``.
    par : ndarray(float64, shape=(players, sim.policies.N_PARAMS))
        Policy parameters per seat in rotation 0 (rotated likewise).
    res : ndarray(int16, shape=(>= m, R_SIZE))
        Output, one row per played deal (``R_*`` columns), rows ``0 .. m-1`` (:func:`sim.batch.simulate`
        passes arrays of its chunk size and ``m`` up to it).
    hands0 : ndarray(int8, shape=(>= m, players, 3))
        Output: initial hands, cards in the order dealt.
    dseeds : ndarray(uint64, shape=(>= m,))
        Output: the deal seeds.
    tricks : ndarray(int16, shape=(>= m, tricks, T_SIZE), or (1, tricks, T_SIZE) without ``rec``)
        Output when ``rec`` (``T_*`` columns).
    rec : bool
        Record the tricks.
    """
    batch_kernel(rules)(rules, deck, seed, row0, m, rotations, pol, par, res, hands0, dseeds, tricks, rec)
