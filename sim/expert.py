"""The ``expert`` (id 3) and ``counter`` (id 4) policies: card counting with exact endgames.

``counter`` applies rules 1-4 and 6 below; ``expert`` adds rule 5, the
exact last-draw search of two players (the ``mode`` argument of
:func:`expert_action`). Both are far stronger than the fast ``heuristic``
(:mod:`sim.heuristic`) and several times slower. (Until the fast rule player
took its name, ``counter`` was the ``heuristic`` policy: the figures below
name it so.)

:func:`expert_action` decides from one seat's view only (:mod:`sim.view`,
RULES R11): its hand, the legal cards (the R9 obligations already applied by
the engine), the trump suit and the pinta, the cards of finished tricks, the
current trick, the cards every seat knows another seat holds, and the points
taken. It is deterministic, allocation-free and uses no Python objects.

Rules, in the order they are tried
----------------------------------
1. **Exchange** (R7). Whenever ``view[V_SWAP] >= 0`` it exchanges: the pinta
   taken is always stronger than the 7 or 2 given up, and the chain 7 then 2
   (R7) follows because the engine offers the second exchange on the same turn.
2. **Single legal card**: play it.
3. **Card counting.** ``unseen`` = cards in play this deal that are neither
   played (finished tricks or current trick), nor in the hand, nor known to
   be held by another seat (``V_KNOWN``), nor the pinta still lying under the
   stock (R4, R6). The unseen cards are the other seats' unknown cards plus
   the face-down stock. ``outside`` = unseen plus the cards known in other
   hands; a card is *master* when no stronger card of its suit is outside
   (strength order of R2; the ids of :mod:`sim.cards` make that one mask
   test). Trumps still out = outside trumps plus the pinta while under the
   stock.
4. **Two players, stock empty** (``V_LEFT == 0``, R6): every card is known
   (the unseen cards are exactly the opponent's hand, plus its ``V_KNOWN``).
   An exact alpha-beta search over the remaining (at most 3) tricks picks the
   card maximising the utility of the final score: points + 1000 for a win
   (61 or more, R8), + 500 for a 60-60 draw (``WIN_BONUS``, ``DRAW_BONUS``),
   so winning comes first and points second (ties: the lowest id; they are
   common in these short endgames). The current card is always taken from
   ``V_LEGAL``; the future tricks follow the R9 obligations named by
   ``V_ENDGAME``.
5. **Two players, last draw pending** (``expert`` only) (``V_LEFT == 2``: one face-down card and
   the pinta): the trick winner draws the face-down card, the loser the pinta
   (R6). For each legal card, each unseen card in turn is the face-down card
   (equally likely) and the rest is the opponent's hand; every world is
   searched exactly as in rule 4 (opponent's reply minimising, then the three
   open tricks), and the card with the best mean utility is played (ties:
   the lowest id).
6. **Otherwise, one-card evaluation.** Every legal card ``c`` gets::

       value(c) = (2 * p_win - 1) * (trick points + points(c)) - keep(c) + extra

   and the largest value is played (ties: the lowest id).

   ``p_win`` is the probability that the seat's side takes the trick once
   ``c`` is played (sides of R3: seat ``s`` is on side ``s % V_SIDES``):

   * last to play: exactly 1 or 0 (R5 trick winner);
   * two players, leading a card worth at least 2 points or a trump: 1 minus
     the probability that the opponent holds a card that beats it (a stronger
     card of the suit, or any trump when ``c`` is not a trump), certain when
     ``V_KNOWN`` shows one, else hypergeometric as below (the opponent's
     unknown cards, as many as the seat's hand less ``V_KNOWN``);
   * two players, leading a non-trump worth 0 points (no card is worth 1,
     R2): it is rarely trumped, so ``p_win`` = 1 minus the probability that
     the opponent holds a stronger card of the suit, and ``extra`` =
     ``-LOAD_W * 10 *`` the probability that it holds a point card of that
     suit to load on it;
   * teams (4, 6 players) and 3 players, not last: when the seat's side
     holds the trick after ``c``, the probability that no opponent still to
     play can beat the best card; otherwise ``RESCUE`` times the probability
     that a partner still to play can. "Can beat" is certain when the seat
     is known to hold a beater (``V_KNOWN``), else hypergeometric: a seat's
     unknown cards are a uniform draw from the unseen cards.

   ``keep(c)`` is the value, in card points, of keeping ``c`` for later:

   * a trump: its points + ``T_BASE`` + ``T_STR * strength / 11`` +
     ``T_MASTER`` when it is the highest trump out, so low trumps are spent
     only on tricks worth it and the trump 1 and 3 are saved for counters
     (aces and threes);
   * a non-trump: its points times ``NT_ALPHA`` (``NT_ALPHA_M`` when
     master) + ``NT_STR * strength / 11``: a 3 or an ace that can still be
     taken is worth banking by winning a trick with it (for example with a
     high card of the suit led), and low cards without points are led and
     shed first.

   With two players a card that wins the trick also pays ``LEAD_PEN *
   p_win`` (leading second is the better seat). With 3, 4 or 6 players the
   weights ``T_BASE_M``, ``NT_ALPHA_NM_M``, ``NT_ALPHA_M_M`` replace
   ``T_BASE``, ``NT_ALPHA``, ``NT_ALPHA_M`` (trumps matter more when a trick
   holds 4 or 6 cards); partners are taken into account through ``p_win``: a
   seat loads points on a trick its partner holds safely and saves them when
   an opponent still to play can take it.

   Teams, last draw (``V_LEFT`` equal to the number of seats): the pinta goes
   to the seat just before the trick winner, always a seat of the side that
   loses the trick (R6), while the winners draw unseen cards; every card's
   value gets ``+ LAST_DRAW_W * p_win * (mean keep(unseen) - keep(pinta))``.
   (With two players rule 5 searches this exactly.)

Parameters row ``par`` (float64, 4 values, zeros = the tuned player)
-------------------------------------------------------------------
``par[0]``
    Added to ``T_BASE`` (``T_BASE_M``), card points.
``par[1]``
    Added to ``NT_ALPHA`` and ``NT_ALPHA_M`` (their ``_M`` twins).
``par[2]``
    Added to ``LEAD_PEN`` with two players, to ``LAST_DRAW_W`` with teams.
``par[3]``
    Switches (an integer): bit 0 (value 1) turns off the exact searches of
    rules 4 and 5; bit 1 (value 2) turns off rule 5 only. These trade strength
    for speed (see the measured figures below).

Measured figures
----------------
Duplicate matches (every deal played twice, sides swapped), default rules,
seed 1, draws count half; ``benchmarks/eval_heuristic.py``, lines in
``results/benchmarks/heuristic_vs_greedy.jsonl``:

=========================================  ========  ==========  =================
match                                      pairs     score       95 % Wilson
=========================================  ========  ==========  =================
2 players, ``counter`` vs greedy           100,000   0.7771      0.7753 - 0.7789
2 players, ``expert`` vs greedy            100,000   0.8267      0.8251 - 0.8284
2 players, ``expert`` vs random            100,000   0.9220      0.9208 - 0.9231
4 players, team vs greedy                  100,000   0.7425      0.7406 - 0.7445
6 players, team vs greedy                  100,000   0.6632      0.6612 - 0.6653
=========================================  ========  ==========  =================

(Score = wins plus half the draws over games. With 4 and 6 players the two
policies play alike: rules 4 and 5 are two-player searches.) Without rules 4
and 5 (``par[3] = 1``) the 2-player score against greedy is 0.7324. Seed 2
gives 0.8266 for ``expert``.

Cost (CPU time, 1 thread, AMD EPYC shared with other jobs, whole engine,
the policy in every seat): 2 players, ``expert`` about 10.5 us a deal
(95,000 deals/s), ``counter`` 3.2 us, 2.8 us with ``par[3] = 1``;
greedy in both seats 1.0 us. Rule 5 (up to 36 exact 3-trick searches when
leading at the last draw, 9 when following) is about 7 us of a deal, rule 4
about 0.4 us, the one-card evaluation about 48 ns a decision (of which,
measured by removing each: the probabilities about 11 ns, the keep values
about 12 ns). 4 players: 4.3 us a deal (greedy 1.3 us).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .bits import lowest, popcount
from .cards import CARD_POINTS, SWAP
from .heuristic import POINTS_MASK
from .rules import END_FOLLOW, END_FREE, above_mask, beats
from .view import (V_DECK_MASK, V_ENDGAME, V_HAND, V_KNOWN, V_LEADER, V_LEFT, V_LEGAL, V_NTRICK, V_PINTA, V_PINTA_SEAT,
                   V_PLAYED, V_PLAYERS, V_POINTS, V_SEAT, V_SIDES, V_SWAP, V_TRICK, V_TRUMP)


_BIG = 1 << 40
# Compile time: a jitted function called with a literal argument (a global such as _BIG, True,
# or a loop variable whose first value is a constant) is compiled once more for that literal's
# type. The searches below pass np.int64(_BIG) and runtime bools, so _s3 compiles once, not six
# times (70 s -> 13 s on a cold cache; benchmarks/bench_compile.py lists repeated compiles).
_INV11 = 1.0 / 11.0  # scales a strength index (0..11, R2) to 0..1 in _keep
_PMASK_ALL = POINTS_MASK  # point cards (strength 7..11) of every suit: sim.heuristic's, defined once

# ---- tuned weights (card points) -------------------------------------
T_BASE = 3.0      # value of keeping any trump, beyond its points
T_STR = 3.0       # extra for a strong trump (scaled by strength/11)
T_MASTER = 2.0    # extra for the highest trump still out
NT_ALPHA = 0.6    # share of a non-trump point card's points it is worth to keep (not master)
NT_ALPHA_M = 0.8  # same, master of its suit
NT_STR = 1.0      # value of strength of a non-trump card (scaled by strength/11)
LEAD_PEN = 0.5    # cost of winning the lead (2 players)
T_BASE_M = 8.0    # T_BASE with 3, 4 or 6 players
NT_ALPHA_NM_M = 0.2  # NT_ALPHA with 3, 4 or 6 players
NT_ALPHA_M_M = 0.4   # NT_ALPHA_M with 3, 4 or 6 players
RESCUE = 1.0      # weight of the chance that a partner after me can beat the opponents' best card
LAST_DRAW_W = 2.0  # teams: weight of getting unseen cards instead of the pinta at the last draw
LOAD_W = 0.5      # weight of the points a smart opponent can load on our low lead

# ---- the utility of a final score (_util; R8, two sides) --------------------
WIN_POINTS = 61    # card points that win a deal
DRAW_POINTS = 60   # 60-60 is a draw
WIN_BONUS = 1000   # utility added for a win: more than any points (120)
DRAW_BONUS = 500   # utility added for a draw

# ---- expert_action's mode bits (par[3] uses the same bits to turn a search off) ----
MODE_ENDGAME = 1    # rule 4: the exact search once the stock is empty (2 players)
MODE_LAST_DRAW = 2  # rule 5: the exact search of the last draw (2 players; needs MODE_ENDGAME)



@njit(cache=True, inline="always", error_model="numpy")
def _util(p):
    """Utility of my side's final card points ``p`` (R8): ``p + WIN_BONUS`` for a win (``WIN_POINTS``,
    61, or more), ``p + DRAW_BONUS`` for a 60-60 draw, else ``p``; wins dominate, then points."""
    if p >= WIN_POINTS:
        return p + WIN_BONUS
    if p == DRAW_POINTS:
        return p + DRAW_BONUS
    return p


@njit(cache=True, inline="always", error_model="numpy")
def _fl(hf, a, trump, eg):
    """Cards of ``hf`` the follower may play on the lead ``a`` once the stock is empty (R9, 2 players).

    ``hf`` is the follower's hand (int64 bitmask), ``trump`` the trump suit 0-3, ``eg`` the R9 rule
    (``V_ENDGAME``: 0 ``END_FREE``, 1 ``END_FOLLOW``, 2 ``END_ARRASTRE`` of :mod:`sim.rules`; with two
    players the trick holds only the lead, so arrastre means: beat it in its suit if possible, else
    follow, else trump if possible, else anything). Returns a bitmask, non-empty when ``hf`` is.
    """
    if eg == END_FREE:
        return hf
    inled = hf & (np.int64(0xFFF) << np.int64(12 * (a // 12)))
    if eg == END_FOLLOW:
        return inled if inled != 0 else hf
    if inled != 0:
        hi = inled & above_mask(a)
        return hi if hi != 0 else inled
    tm = hf & (np.int64(0xFFF) << np.int64(12 * trump))
    return tm if tm != 0 else hf


# ---- exact 2-player endgame (perfect information), 1..3 tricks ------------
# Values are utilities (_util of my side's final points), searched with
# fail-soft alpha-beta; one function per depth (no recursion, cache-safe).
# _sK(hme, hop, me_leads, mypts, trump[, alpha, beta, eg]) searches K tricks from a trick start:
# hme, hop my and the opponent's hands (int64 bitmasks, K cards each), me_leads whether I lead,
# mypts my side's card points so far, alpha/beta the window (utilities), eg the R9 rule (_fl).
@njit(cache=True, inline="always", error_model="numpy")
def _s1(hme, hop, me_leads, mypts, trump):
    a = lowest(hme)
    b = lowest(hop)
    if me_leads:
        mine = not beats(b, a, trump)
    else:
        mine = beats(a, b, trump)
    if mine:
        return _util(mypts + CARD_POINTS[a] + CARD_POINTS[b])
    return _util(mypts)


@njit(cache=True, inline="always", error_model="numpy")
def _s2(hme, hop, me_leads, mypts, trump, alpha, beta, eg):
    one = np.int64(1)
    if me_leads:
        v = -_BIG
        m = hme
        while m != 0:
            a = lowest(m)
            m &= m - one
            lo = alpha if alpha > v else v
            w = _BIG
            o = _fl(hop, a, trump, eg)
            while o != 0:
                b = lowest(o)
                o &= o - one
                mine = not beats(b, a, trump)
                p = mypts + (CARD_POINTS[a] + CARD_POINTS[b] if mine else 0)
                c = _s1(hme & ~(one << a), hop & ~(one << b), mine, p, trump)
                if c < w:
                    w = c
                    if w <= lo:
                        break
            if w > v:
                v = w
                if v >= beta:
                    break
        return v
    v = _BIG
    o = hop
    while o != 0:
        b = lowest(o)
        o &= o - one
        hi = beta if beta < v else v
        w = -_BIG
        m = _fl(hme, b, trump, eg)
        while m != 0:
            a = lowest(m)
            m &= m - one
            mine = beats(a, b, trump)
            p = mypts + (CARD_POINTS[a] + CARD_POINTS[b] if mine else 0)
            c = _s1(hme & ~(one << a), hop & ~(one << b), mine, p, trump)
            if c > w:
                w = c
                if w >= hi:
                    break
        if w < v:
            v = w
            if v <= alpha:
                break
    return v


@njit(cache=True, error_model="numpy")
def _s3(hme, hop, me_leads, mypts, trump, alpha, beta, eg):
    one = np.int64(1)
    if me_leads:
        v = -_BIG
        m = hme
        while m != 0:
            a = lowest(m)
            m &= m - one
            lo = alpha if alpha > v else v
            w = _BIG
            o = _fl(hop, a, trump, eg)
            while o != 0:
                b = lowest(o)
                o &= o - one
                mine = not beats(b, a, trump)
                p = mypts + (CARD_POINTS[a] + CARD_POINTS[b] if mine else 0)
                hi = beta if beta < w else w
                c = _s2(hme & ~(one << a), hop & ~(one << b), mine, p, trump, lo, hi, eg)
                if c < w:
                    w = c
                    if w <= lo:
                        break
            if w > v:
                v = w
                if v >= beta:
                    break
        return v
    v = _BIG
    o = hop
    while o != 0:
        b = lowest(o)
        o &= o - one
        hi = beta if beta < v else v
        w = -_BIG
        m = _fl(hme, b, trump, eg)
        while m != 0:
            a = lowest(m)
            m &= m - one
            mine = beats(a, b, trump)
            p = mypts + (CARD_POINTS[a] + CARD_POINTS[b] if mine else 0)
            lo = alpha if alpha > w else w
            c = _s2(hme & ~(one << a), hop & ~(one << b), mine, p, trump, lo, hi, eg)
            if c > w:
                w = c
                if w >= hi:
                    break
        if w < v:
            v = w
            if v <= alpha:
                break
    return v


@njit(cache=True, error_model="numpy")
def _solve(hme, hop, me_leads, mypts, trump, alpha, beta, eg):
    """Exact utility of a 2-player open position at a trick start (<= 3 cards a hand)."""
    k = popcount(hme)
    if k == 0:
        return _util(mypts)
    if k == 1:
        return _s1(hme, hop, me_leads, mypts, trump)
    if k == 2:
        return _s2(hme, hop, me_leads, mypts, trump, alpha, beta, eg)
    return _s3(hme, hop, me_leads, mypts, trump, alpha, beta, eg)


@njit(cache=True, error_model="numpy")
def _endgame2(view, legal, hme, hop, mypts, trump, eg):
    """Best card, 2 players, stock empty: every card is known (RULES R6).

    ``legal`` the seat's legal cards, ``hme`` its hand, ``hop`` the opponent's hand (int64
    bitmasks); ``mypts`` its side's card points; ``trump`` 0-3; ``eg`` the R9 rule (:func:`_fl`).
    Returns the card id of ``legal`` with the best exact utility (ties: the lowest id).
    """
    one = np.int64(1)
    n = view[V_NTRICK]
    bestc = lowest(legal)
    bestv = -_BIG
    m = legal
    if n == 1:
        b = view[V_TRICK]
        while m != 0:
            a = lowest(m)
            m &= m - one
            mine = beats(a, b, trump)
            p = mypts + (CARD_POINTS[a] + CARD_POINTS[b] if mine else 0)
            v = _solve(hme & ~(one << a), hop, mine, p, trump, bestv, np.int64(_BIG), eg)
            if v > bestv:
                bestv = v
                bestc = a
        return bestc
    while m != 0:
        a = lowest(m)
        m &= m - one
        worst = np.int64(_BIG)
        o = _fl(hop, a, trump, eg)
        while o != 0:
            b = lowest(o)
            o &= o - one
            mine = not beats(b, a, trump)
            p = mypts + (CARD_POINTS[a] + CARD_POINTS[b] if mine else 0)
            v = _solve(hme & ~(one << a), hop & ~(one << b), mine, p, trump, bestv, worst, eg)
            if v < worst:
                worst = v
                if worst <= bestv:
                    break
        if worst > bestv:
            bestv = worst
            bestc = a
    return bestc


@njit(cache=True, error_model="numpy")
def _last_draw2(view, legal, hme, hopk, unseen, pinta, mypts, trump, eg):
    """Best card, 2 players, one face-down card and the pinta left (V_LEFT == 2).

    The trick winner draws the face-down card, the loser the pinta (R6);
    the face-down card is each unseen card in turn (equally likely), the
    opponent's hand the rest; every world is then solved exactly. ``hopk`` is
    the opponent's known cards (``V_KNOWN``), ``unseen`` the face-down card
    and the opponent's other cards, ``pinta`` the pinta's card id; the other
    arguments as :func:`_endgame2`. Returns the card id of ``legal`` with the
    best total (so mean) utility (ties: the lowest id).
    """
    one = np.int64(1)
    n = view[V_NTRICK]
    bestc = lowest(legal)
    bestv = -1e300
    m = legal
    while m != 0:
        a = lowest(m)
        m &= m - one
        tot = 0
        u = unseen
        h1 = hme & ~(one << a)
        while u != 0:
            x = lowest(u)
            u &= u - one
            hop = hopk | (unseen & ~(one << x))
            if n == 1:
                b = view[V_TRICK]
                mine = beats(a, b, trump)
                p = mypts + (CARD_POINTS[a] + CARD_POINTS[b] if mine else 0)
                if mine:
                    tot += _s3(h1 | (one << x), hop | (one << pinta), mine, p, trump, -_BIG, np.int64(_BIG), eg)
                else:
                    tot += _s3(h1 | (one << pinta), hop | (one << x), mine, p, trump, -_BIG, np.int64(_BIG), eg)
            else:
                worst = np.int64(_BIG)
                o = hop
                while o != 0:
                    b = lowest(o)
                    o &= o - one
                    mine = not beats(b, a, trump)
                    p = mypts + (CARD_POINTS[a] + CARD_POINTS[b] if mine else 0)
                    h2 = hop & ~(one << b)
                    if mine:
                        v = _s3(h1 | (one << x), h2 | (one << pinta), mine, p, trump, -_BIG, worst, eg)
                    else:
                        v = _s3(h1 | (one << pinta), h2 | (one << x), mine, p, trump, -_BIG, worst, eg)
                    if v < worst:
                        worst = v
                tot += worst
        if tot > bestv:
            bestv = tot
            bestc = a
    return bestc


@njit(cache=True, inline="always", error_model="numpy")
def _p_holds(N, m, u):
    """Probability that u unknown slots, drawn from N unseen cards, hold at least one of m given cards."""
    if m <= 0 or u <= 0:
        return 0.0
    if N - m < u:
        return 1.0
    num = N - m
    den = N
    for i in range(1, u):
        num *= N - m - i
        den *= N - i
    return 1.0 - num / den


@njit(cache=True, inline="always", error_model="numpy")
def _keep(c, trump, trumps_out, outside, t_base, a_nm, a_m):
    """Value (card points) of keeping card ``c`` for later tricks (``keep(c)`` of rule 6).

    ``trumps_out``: trumps still out (bitmask, the pinta under the stock included); ``outside``:
    cards held by other seats or still in the stock (bitmask); ``t_base``, ``a_nm``, ``a_m``:
    ``T_BASE``, ``NT_ALPHA``, ``NT_ALPHA_M`` (or their ``_M`` twins) plus the ``par`` row.
    """
    k = c % 12
    pc = CARD_POINTS[c]
    if c // 12 == trump:
        r = pc + t_base + T_STR * _INV11 * k
        if trumps_out & above_mask(c) == 0:
            r += T_MASTER
        return r
    if outside & above_mask(c) == 0:
        return pc * a_m + NT_STR * _INV11 * k
    return pc * a_nm + NT_STR * _INV11 * k


@njit(cache=True, error_model="numpy")
def expert_action(view, par, mode=1):
    """Action of the expert / counter player (rules in the module docstring).

    Parameters
    ----------
    view : ndarray(int64, shape=(V_SIZE,))
        The seat's view (:mod:`sim.view`); read only.
    par : ndarray(float64, shape=(4,))
        Parameter row; zeros give the tuned player (module docstring).
    mode : int
        Searches allowed: bit 0 (``MODE_ENDGAME``) the stock-empty search
        (rule 4), bit 1 (``MODE_LAST_DRAW``) the last-draw search (rule 5),
        which needs bit 0 too: mode 2 searches nothing, as 0 (as ``par[3]``
        bit 0 turns off both). Policy ``counter`` uses 1, ``expert`` 3.

    Returns
    -------
    int
        A card id of ``view[V_LEGAL]``, or ``SWAP`` (48) when
        ``view[V_SWAP] >= 0`` (R7).

    Examples
    --------
    Two players, Bastos trump (pinta 1 of Bastos still under the stock); the
    opponent led the 1 of Oros. Holding the 2 of Bastos, the 4 of Copas and
    the 5 of Espadas, the counter trumps the ace:

    >>> import numpy as np
    >>> from sim.cards import parse_card, mask_of, deck_cards, format_card
    >>> from sim import view as V
    >>> v = np.zeros(V.V_SIZE, dtype=np.int64)
    >>> hand = mask_of(parse_card(c) for c in ("2B", "4C", "5E"))
    >>> v[V.V_SEAT], v[V.V_HAND], v[V.V_LEGAL], v[V.V_SWAP] = 1, hand, hand, -1
    >>> v[V.V_TRUMP], v[V.V_PINTA], v[V.V_PINTA_SEAT], v[V.V_LEFT] = 3, parse_card("1B"), -1, 34
    >>> v[V.V_PLAYERS], v[V.V_SIDES], v[V.V_DECK_MASK] = 2, 2, mask_of(deck_cards("spanish40"))
    >>> v[V.V_LEADER], v[V.V_NTRICK], v[V.V_TRICK] = 0, 1, parse_card("1O")
    >>> format_card(expert_action(v, np.zeros(4), 1))
    '2B'
    """
    if view[V_SWAP] >= 0:
        return SWAP
    one = np.int64(1)
    legal = view[V_LEGAL]
    if legal & (legal - one) == 0:
        return lowest(legal)
    hand = view[V_HAND]
    trump = view[V_TRUMP]
    me = view[V_SEAT]
    nseats = view[V_PLAYERS]
    nsides = view[V_SIDES]
    myside = me if nsides == 3 else me & 1  # R3: seat s is on side s % nsides (2 or 3 sides)
    n = view[V_NTRICK]
    leader = view[V_LEADER]
    left = view[V_LEFT]
    pinta = view[V_PINTA]
    played = view[V_PLAYED]
    tmask = np.int64(0xFFF) << np.int64(12 * trump)

    trick = np.int64(0)
    tp = 0
    bestc = np.int64(-1)
    bestpos = 0
    for i in range(n):
        c = view[V_TRICK + i]
        trick |= one << c
        tp += CARD_POINTS[c]
        if i == 0 or beats(c, bestc, trump):
            bestc = c
            bestpos = i
    bestseat = leader + bestpos
    bestseat = bestseat - nseats if bestseat >= nseats else bestseat
    bestside = bestseat if nsides == 3 else bestseat & 1

    known_oth = np.int64(0)
    for s in range(nseats):
        if s != me:
            known_oth |= view[V_KNOWN + s]
    unseen = view[V_DECK_MASK] & ~played & ~hand & ~trick & ~known_oth
    if view[V_PINTA_SEAT] < 0:
        unseen &= ~(one << pinta)

    mypts = np.int64(0)
    for s in range(nseats):
        if (s if nsides == 3 else s & 1) == myside:
            mypts += view[V_POINTS + s]

    # ---- parameters (par row; zeros = the tuned defaults) -----------------
    if nseats == 2:
        t_base = T_BASE + par[0]
        a_nm = NT_ALPHA + par[1]
        a_m = NT_ALPHA_M + par[1]
    else:
        t_base = T_BASE_M + par[0]
        a_nm = NT_ALPHA_NM_M + par[1]
        a_m = NT_ALPHA_M_M + par[1]
    lead_pen = LEAD_PEN + par[2]
    # searches turned off: par[3]'s bits, and the bits mode leaves out
    off = (np.int64(par[3]) | (0 if mode & MODE_ENDGAME else MODE_ENDGAME)
           | (0 if mode & MODE_LAST_DRAW else MODE_LAST_DRAW))

    # ---- 2 players, end of the stock: exact search ----------------------
    if nseats == 2 and off & MODE_ENDGAME == 0:
        opp = 1 - me
        eg = view[V_ENDGAME]  # R9 obligations of the future tricks searched
        if left == 0:
            # the unseen cards are exactly the opponent's hand
            return _endgame2(view, legal, hand, unseen | view[V_KNOWN + opp], mypts, trump, eg)
        if left == 2 and off & MODE_LAST_DRAW == 0:
            hopk = view[V_KNOWN + opp]
            need = popcount(hand) - n - popcount(hopk) + 1  # opponent's unknown cards + the face-down card
            if popcount(unseen) == need:
                return _last_draw2(view, legal, hand, hopk, unseen, pinta, mypts, trump, eg)

    # ---- card-counting evaluation of every legal card --------------------
    N = popcount(unseen)
    H = popcount(hand)
    outside = unseen | known_oth  # cards held by other seats or still in the stock
    trumps_out = outside & tmask
    if view[V_PINTA_SEAT] < 0:
        trumps_out |= one << pinta
    last = n == nseats - 1
    # teams: at the last draw the pinta goes to the seat just before the trick winner, i.e. to the
    # side that loses the trick (R6); the winner's side gets unseen cards
    ldw = 0.0
    if nseats > 2 and nsides == 2 and left == nseats:
        rp = _keep(pinta, trump, trumps_out, outside, t_base, a_nm, a_m)
        ru = 0.0
        u = unseen
        while u != 0:
            x = lowest(u)
            u &= u - one
            ru += _keep(x, trump, trumps_out, outside, t_base, a_nm, a_m)
        ldw = (LAST_DRAW_W + par[2]) * (ru / max(1, N) - rp)
    bestv = -1e300
    choice = lowest(legal)
    m = legal
    while m != 0:
        c = lowest(m)
        m &= m - one
        pc = CARD_POINTS[c]
        r = _keep(c, trump, trumps_out, outside, t_base, a_nm, a_m)
        if n == 0 or beats(c, bestc, trump):
            nb = c
            nside = myside
        else:
            nb = bestc
            nside = bestside
        stake = tp + pc
        extra = 0.0
        if last:
            # last to play: the outcome is known
            pmine = 1.0 if nside == myside else 0.0
        elif nseats == 2:
            # leading, 2 players
            ks = view[V_KNOWN + 1 - me]
            u = H - popcount(ks)
            same_hi = above_mask(nb)
            if nb // 12 != trump and stake < 2:
                # a 0-point lead is rarely trumped: the opponent wins it with a higher card of the
                # suit, and may load a point card of the suit on it
                pmine = 0.0 if ks & same_hi != 0 else 1.0 - _p_holds(N, popcount(unseen & same_hi), u)
                extra = -LOAD_W * 10.0 * _p_holds(N, popcount(unseen & same_hi & _PMASK_ALL), u)
            else:
                beat_set = same_hi
                if nb // 12 != trump:
                    beat_set |= tmask
                pmine = 0.0 if ks & beat_set != 0 else 1.0 - _p_holds(N, popcount(unseen & beat_set), u)
        else:
            # teams or three players, not last: the seats after me may beat the best card
            beat_set = above_mask(nb)
            if nb // 12 != trump:
                beat_set |= tmask
            mb = popcount(unseen & beat_set)
            q_opp = 1.0
            q_par = 1.0
            s = leader + n
            for j in range(n + 1, nseats):
                s += 1
                if s >= nseats:
                    s -= nseats
                ks = view[V_KNOWN + s]
                if ks & beat_set != 0:
                    ph = 1.0
                else:
                    ph = _p_holds(N, mb, H - popcount(ks))
                if (s if nsides == 3 else s & 1) == myside:
                    q_par *= 1.0 - ph
                else:
                    q_opp *= 1.0 - ph
            if nside == myside:
                pmine = q_opp
            else:
                pmine = (1.0 - q_par) * RESCUE
        v = (2.0 * pmine - 1.0) * stake - r + extra + ldw * pmine
        if nseats == 2:
            v -= lead_pen * pmine
        if v > bestv:
            bestv = v
            choice = c
    return choice
