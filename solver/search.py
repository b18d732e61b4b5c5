"""The jitted open-hand search (perfect information, known stock order).

Value: card points the maximizing side still captures from the node on (cards of
the current trick included; NOTATION.md "Solver output"). ``ismax[seat]`` names
the maximizing seats: the seat to move's side (2 players; with 4 and 6 players
the seats of its parity, RULES R3), or the seat alone with 3 players (paranoid).

Techniques (DDS-style; their measured effect is in results/README.md):

* iterative fail-soft alpha-beta with explicit stacks (no recursion: Numba's
  cache and recursion do not mix);
* transposition table (TT) of lower/upper bounds on future points of the
  maximizing side, stored at trick boundaries under an exact two-word key
  (cards in hands, owner of each, leader, cards left to draw, current pinta), four
  entries a bucket in two adjacent cache lines, a generation stamp instead of clearing;
  with 2 to 4 players the key names hand cards by relative rank while cards
  remain to draw (:func:`draw_key2`, :func:`draw_key_n`; with 3 and 4 players not under
  R7's ``won-trick`` condition, whose positions keep the exact key, without payoff
  similarity, until the stock is empty) and, once the stock is
  empty, by suit patterns (:func:`endgame_key`); with two sides of alternate seats (2, 4
  and 6 players) a position is keyed with its leader as seat 0 and its entry holds the
  leader's side's points (``FL_MIRROR``), so a position and its seat rotation (2 players:
  the hands swapped) share one entry: the game is the same from either seat (R4-R7);
* payoff similarity (Furtak and Buro, "Using Payoff-Similarity to Speed Up Search", IJCAI 2011;
  Kupferschmid and Helmert's quasi-symmetry reduction for Skat is the same idea) with 2 to 4
  players, in every kernel (``FL_PAYOFF``): a trick boundary is keyed on its play structure alone
  (every hand card's suit and rank among the live cards of its suit, the 7 and 2 of trumps apart
  while an exchange can move them; once the stock is empty, each suit's owners in rank order),
  and the entry's fourth word holds the hand cards' points in key order. Two positions with one key
  play the same game but for the cards' points (R2, R5, R7, R9), so every line's points differ by
  at most the points lost or gained card by card, and an entry bounds every position of its
  structure by its own bounds moved by those changes (:func:`_tt_probe_pw`; both entries of the
  bucket combined; the look-aheads too). Full 2-player deals 42-45% fewer nodes and 35-37% less
  time, full 4-player deals 28% fewer nodes, full 3-player deals 33% fewer nodes and 41% less time
  at the median (results/README.md); 6 players keep exact keys;
* null-window probes and an MTD(f) driver for exact values (:func:`mtdf`); with 3 or
  more players it bisects the proven interval after two probes (``FL_BISECT``);
* move ordering: TT move first, then the trump exchange (R7; ``FL_SWAP``: it is
  nearly always worth making, and a cutoff on it skips the subtrees where the
  exchange is made at a later turn), then the cards by scores tuned on node counts
  (``FL_TUNED``, :func:`_lead_score`, :func:`_follow_score`: leads no opponent beats,
  then leads only a trump beats; winning the trick when it draws a trump the other
  seat would get (R6), cheapest winner; losing trumps last), giving points to a
  winning partner;
* equivalent adjacent zero-point cards of one suit in one hand searched once
  (no live card of that suit lies between them; never the 7 or 2 of trumps
  while an exchange (R7) can still happen), and sequence dominance (``FL_SEQ``,
  :func:`_seq_dominance`): of two such cards with different points, when the trick
  is surely lost (or won) with either, only the cheaper (dearer) one is searched;
  2 players at every node, 3-6 players at the trick's last card and before it
  when no card of the later seats can change who wins the trick;
* quick bounds: ``[acc, acc + points left]`` at every node, and the sure points
  of the top trumps held in one hand;
* endgames of at most 2 tricks (stock empty, R9) solved on a table miss by an exact
  alpha-beta minimax over the first trick's lines, the last trick forced
  (:func:`_eg_value_nw`, ``FL_EGN``; any number of players); with 4 players (``FL_EGN`` 2,
  the default) the same loops unrolled (:func:`_eg_value4`) answer 2-trick endgames in the
  node's window without a table probe, and 3-trick endgames are searched on a table miss, or
  on a hit whose bounds do not decide the node, by unrolled loops over their first trick
  (:func:`_eg_three4`; a line its trick's points decide is not searched further), stored as
  bounds; their 2-trick children are looked up first in a small direct-mapped table of bounds
  local to the search (2**12 entries, 64 KB: it stays in the core's cache, where a probe of the
  main table misses; :func:`_eg_value4_cached`, ``FL_EGC4``); with 3
  players 2-trick endgames are answered the same way by a stacked loop over the seats
  (:func:`_eg_value_nw`; with 6 players this measured no faster, so they keep the probe);
* with 4 players, enhanced transposition cutoffs at a trick's last card while at least ``FL_ETC4``
  (8) cards are left to draw (not under R7's ``won-trick`` condition): every card's next trick
  start is keyed and its bucket prefetched, then the table's bounds are read, and the first that
  decides the node cuts it; the child reuses the key (the same look-ahead as :func:`ab2`'s, one
  card later in the trick), and a card whose next position the bounds decide without cutting is
  valued by them, not entered;
* for 2 players with the default techniques, :func:`ab` hands the search to
  :func:`ab2`, the same search node for node with the state in registers, plus payoff
  similarity (above, as every kernel) and two techniques of its own: enhanced transposition cutoffs (at the second card of a
  trick with at least ``FL_ETCMIN`` cards left to draw, look up the next position of
  every reply before searching any, the table loads of all replies issued at once with
  a prefetch so their memory latencies overlap; the child reuses the computed key; a reply whose
  next position's bounds decide it without cutting this node (a bound on the side of the window
  that makes it no use to the side to move, or an exact value) takes that value and is not
  entered, where the child would only have returned a bound at once: 18-19% fewer nodes counted
  and 6-7% less time on full 2-player deals, session of 2026-12-05, second part) and
  endgames of 3 tricks (stock empty, R9) answered in the node's window by an unrolled
  alpha-beta without a table probe (:func:`_eg_three_w`, ``FL_EG`` 2, the default; level 1:
  the exact value by plain minimax on a table miss, stored as an exact entry); it uses only the
  first 2**17 entries of the table (``FL_TT2``, 4 MB): a probe of the small table misses the
  core's cache less often (full deals 5-7% faster than in 2**20 entries, with 0.7-0.9% more
  nodes from the extra overwrites);
* for 4 players in two sides with the default techniques, :func:`ab` hands the search to
  :func:`ab4`, the general kernel's search node for node with the state in registers
  (``FL_FOUR``).

Kernels trust their input (:meth:`solver.position.Position.to_arrays` builds it).

Compile time: only small helpers are ``inline="always"`` (Numba inlines them in its own IR, at
every call site, before type inference). The key builders (:func:`draw_key2`,
:func:`_endgame_key_planes`, :func:`draw_key_n` and their parts) and the 2-player endgame minimax
(:func:`_eg_two`, :func:`_eg_three`) are compiled once and called: on a cold cache :func:`ab2`
compiled in 20 s instead of 76 s and the general kernel in 41 s instead of 55 s, with the same
nodes and times within noise (results/README.md). :func:`ab` hands two-player searches to
:func:`ab2` and four-player ones to :func:`ab4` from inside compiled code, so compiling it compiles
the three kernels; the callers in :mod:`solver.api`, :mod:`solver.chance` and :mod:`solver.selfplay`
take their entry points from :func:`drivers` instead, which compile only the kernel the table needs
(a first two-player solve compiles neither the general kernel nor :func:`ab4`, a first four-player
solve only :func:`ab4`).

Reference counts: numba increfs an array passed to a compiled callee, and to an inlined helper
where its refcount-pruning pass cannot pair the increment with its decrement (a helper indexing
the table under a condition), with an atomic ``NRT_incref``/``NRT_decref`` pair. In :func:`ab2`
the endgame key's scratch arrays and the node store's table arrays cost 7 pairs at every trick
boundary, 19% of its time in a ``perf`` profile of full deals; the hot paths now pass only
scalars (:func:`_endgame_key_planes`, shared with :func:`endgame_key`; :func:`_node_data`), and
:func:`ab2`'s compiled code holds no reference-count call outside its entry and exit
(results/README.md). In :func:`abn` the 4-player endgame kernels (:func:`_eg_three4`,
:func:`_eg_value4`) and the key builders take scalars too (the maximizing seats as a bitmask):
the ``ismax`` array passed to each call cost 5% of a 4-player solve in reference counting; the
table of :func:`_eg_three4_cached` goes as its address and index shift (:func:`_addr`,
:func:`_peek`, :func:`_poke`), which spared 6% of a full 4-player solve's samples.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from sim.bits import highest, lowest, popcount
from sim.cards import CARD_POINTS, CARD_SUIT, N_IDS, SUIT_MASK, SWAP
from sim.rules import (beats, exchange_card, legal_follow, legal_mask, strength_of, suit_mask, suit_of,
                       trick_winner, trick_winner_at)
from solver.position import (ST_DP, ST_ENDGAME, ST_EXCH, ST_EXWON, ST_HAND, ST_L, ST_LEADER, ST_NOTDONE,
                             ST_NTRICK, ST_PLAYERS, ST_SIDES, ST_SIDEWON, ST_TRICK, ST_TRUMP)

@intrinsic
def _prefetch(typingctx, arr, idx):
    """Hint the CPU to load ``arr[idx]``'s cache line (LLVM ``llvm.prefetch``: read, keep in all
    cache levels); no effect on values. The look-ahead issues the table loads of every reply at
    once, so their memory latencies overlap instead of adding up."""
    sig = types.void(arr, idx)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        # the intrinsic's name carries the pointer type: "p0" (opaque pointers), "p0i8" (typed, older llvmlite)
        name = "llvm.prefetch.p0" if str(i8p) == "ptr" else "llvm.prefetch.p0i8"
        fn = cgutils.get_or_insert_function(builder.module, fnty, name)
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()
    return sig, codegen


@intrinsic
def _addr(typingctx, arr):
    """Address of ``arr``'s first element as an int64, for :func:`_peek` and :func:`_poke`: a compiled
    callee given the address instead of the array is called without a reference-count pair (the
    caller keeps the array alive)."""
    sig = types.int64(arr)

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        return builder.ptrtoint(ary.data, ir.IntType(64))
    return sig, codegen


@intrinsic
def _peek(typingctx, p, i):
    """The int64 word ``i`` of the array at address ``p`` (:func:`_addr`); no bounds check."""
    sig = types.int64(types.int64, types.int64)

    def codegen(context, builder, signature, args):
        ptr = builder.inttoptr(args[0], ir.IntType(64).as_pointer())
        return builder.load(builder.gep(ptr, [args[1]]))
    return sig, codegen


@intrinsic
def _poke(typingctx, p, i, v):
    """Store int64 ``v`` at word ``i`` of the array at address ``p`` (:func:`_addr`); no bounds check."""
    sig = types.void(types.int64, types.int64, types.int64)

    def codegen(context, builder, signature, args):
        ptr = builder.inttoptr(args[0], ir.IntType(64).as_pointer())
        builder.store(args[2], builder.gep(ptr, [args[1]]))
        return context.get_dummy_value()
    return sig, codegen


MAXD = 72          # plies: at most 48 cards + 2 exchanges
MAXM = 8           # moves a node: at most 3 cards + swap
TT_BITS = 20       # default TT entries = 2**TT_BITS
TT_SHIFT = 2       # log2 of the words an entry: key, key, data, points word (FL_PAYOFF; new_workspace's layout)
TT_WAYS = 4        # entries a bucket (two 64-byte cache lines): 5% fewer nodes than 2 on full 2-player deals

# technique switches (flags array); 1 = on
FL_TT = 0
FL_ORDER = 1
FL_EQUIV = 2
FL_QUICK = 3
FL_TTMOVE = 4
FL_SURE = 5
FL_CANON = 6
FL_KILLER = 11    # killer move per ply
FL_FOLLOW = 10    # follower ordering variant
FL_LEAD = 9       # leader ordering variant
FL_HIST = 8       # history heuristic weight mode (0 off, 1 tie-break, 2 primary)
FL_EXACT = 7      # value: solve trick-boundary nodes with at most this many cards left exactly (0: off)
FL_RELKEY = 12    # 2 players: relative-rank TT key while cards remain to draw
FL_TWO = 13       # 2 players with the default techniques: the register kernel ab2 (same nodes, faster)
FL_ETC = 14       # ab2: enhanced transposition cutoffs at the second card of a trick (1; 2 also orders by the bounds)
FL_EG = 15        # ab2: endgames of at most 3 tricks (stock empty): 1 exact minimax on a table miss; 2 also
                  # 3-trick endgames by alpha-beta in the node's window without a probe (_eg_three_w)
FL_ETCMIN = 16    # ab2: enhanced transposition cutoffs only with at least this many cards left to draw
FL_EGN = 17       # general kernel: endgames of at most 2 tricks (stock empty) by plain minimax on a table miss (1);
                  # 2 also, with 4 players: 2-trick endgames by an unrolled windowed minimax without a table
                  # probe and 3-trick endgames by a windowed search of their first trick on a table miss or
                  # on a hit whose bounds do not decide the node (the search's bounds stored);
                  # with 3 players 2-trick endgames by a windowed minimax (stacked loops) without a probe
FL_BISECT = 18    # mtdf: after two probes (one when the first guess is the interval's middle), split the proven
                  # interval (1: with 3+ players, at the middle for 3 players and at the median of a prior around
                  # the first guess for two sides of 4 and 6, _prior_split; 2: always at the middle; 3: with 3+
                  # players at the middle, the rule before the prior)
FL_SEQ = 19       # sequence dominance (_seq_dominance): 2 players every node; 3-6 players the trick's last card
                  # and the seats before it when no later card can change the outcome (_seq_dominance_mid)
FL_MIRROR = 20    # 2, 4 and 6 players (two sides): trick-boundary entries keyed with the leader as seat 0 and
                  # holding the leader's side's points, so a position and its seat rotation share one entry
                  # (entries of one generation must all be written with the same setting)
FL_SWAP = 21      # move ordering: 1 the trump exchange (R7) first after the table move; 0 after the cards that win or
                  # are safe (score 350)
FL_TUNED = 22     # move ordering (with FL_LEAD 1 and FL_FOLLOW 1): 1 the tuned scores (_lead_score, _follow_score:
                  # the trumps the trick's winner, or its side, draws next, R6; the suit's length; leads only a
                  # trump beats); 0 the hand-set scores before them
FL_ETC4 = 23      # 4 players (ab4, abn): enhanced transposition cutoffs at a trick's last card with at least
                  # this many cards left to draw (0: off)
FL_EGC4 = 24      # 4 players (ab4, abn): 1 the 2-trick endgames inside _eg_three4 looked up in a small
                  # table of bounds local to the search (_eg_value4_cached); 0 each searched afresh
FL_FOUR = 25      # 4 players in two sides with the default techniques: the register kernel ab4 (same nodes, faster)
FL_TT2 = 26       # ab2: log2 of the table entries it uses, the first ones of the table (0: all); a small table
                  # stays in the core's cache (17: 4 MB)
FL_PAYOFF = 27    # 2-4 players: payoff similarity (Furtak and Buro 2011): trick-boundary entries keyed on the
                  # play structure alone while cards remain to draw (suits and relative ranks, no points), each
                  # holding its hand cards' points, so that an entry bounds a position whose cards differ only
                  # in points by its bounds moved by the point changes (_tt_probe_pw); 0 exact keys
FL_ASP = 28       # mtdf without bisection (2 players): the first probe an aspiration window of this many card points
                  # either side of the first guess, then null windows from the bound it returns (0: MTD(f) from
                  # the first probe)
FL_SIZE = 29

# frame fields
F_ALPHA = 0
F_BETA = 1
F_BEST = 2
F_BMOVE = 3
F_NM = 4
F_I = 5
F_MAX = 6
F_SLOT = 7        # TT slot to store into (-1: not a boundary / TT off)
F_K1 = 8
F_K2 = 9
F_LB = 10
F_UB = 11
F_MOVE = 12
F_ULEADER = 13
F_UPTS = 14       # points added to acc by the trick this move completed
F_UDP = 15
F_USW = 16
F_UDONE = 17
F_UPINTA = 18
F_UTP = 19        # points of the completed trick
F_ACC = 20
F_A0 = 21
F_B0 = 22
F_REM = 23        # points left at a trick boundary (turns bounds over for F_FLIP)
F_TC = 24        # + j: cards of the trick this move completed (j < 6)
F_PW = 28         # ab2, ab4: the node's hand-card points word (FL_PAYOFF; abn's six-player F_TC + 4)
F_ETCD = 30      # ab2 (FL_ETC), ab4 and abn (FL_ETC4): 0 no look-ahead at this node; else it ran (its replies'
#                  keys are in ek1/ek2/eix) and did not cut: 1 | (decided << 1), ``decided`` the replies whose
#                  next position's table bounds decide them (card bitmask, their values in ev)
F_FLIP = 31       # the leader's side is the minimizing one: the entry holds the leader's side's points (FL_MIRROR)
F_SIZE = 32      # fields a frame: frame d of the flat frame array starts at d * F_SIZE



@njit(cache=True, inline="always")
def _u(i):
    """Array index ``i`` (never negative) as an unsigned integer: numba then leaves out the
    negative-index wraparound (a compare and select an access). In :func:`ab2` and the helpers it
    inlines: 4% faster on full 2-player deals; in :func:`card_points` and :func:`_draw_card`, which
    every kernel calls, full 4-player deals 1.7-2.4% faster (2 players unchanged); the whole of
    :func:`ab4` measured no faster (results/README.md)."""
    return np.uint64(i)


@njit(cache=True, inline="always")
def _fx(d, f):
    """Index of field ``f`` (``F_*``) of frame ``d`` in the flat frame array (:func:`new_workspace`),
    unsigned (:func:`_u`)."""
    return _u(d * F_SIZE + f)


@njit(cache=True, inline="always")
def card_points(c):
    """Card points of card id ``c`` (0-47, never negative: indexed unsigned, :func:`_u`; RULES R2;
    :data:`sim.cards.CARD_POINTS`).

    Parameters
    ----------
    c : int
        Card id (0-47).

    Returns
    -------
    int
        The card's points: 11, 10, 4, 3, 2 or 0 (an int64 element of ``CARD_POINTS``).
    """
    return CARD_POINTS[_u(c)]


# the ids worth each point value (R2), for _points_of; every card's points are one of these or 0
_POINT_VALUES = (2, 3, 4, 10, 11)
if not set(CARD_POINTS.tolist()) <= {0, *_POINT_VALUES}:
    raise ImportError(f"solver.search: card points {sorted(set(CARD_POINTS.tolist()))} outside {_POINT_VALUES}")
_PM2, _PM3, _PM4, _PM10, _PM11 = (np.int64(sum(1 << c for c in range(len(CARD_POINTS)) if CARD_POINTS[c] == v))
                                  for v in _POINT_VALUES)
# point class of each card id (R2): 0 for no points, else 1-5 by points (its place in _POINT_VALUES); the
# endgame key (_suit_code, through _key_tables) and the relative-rank key (_rel_code) name a card's points by it
_POINT_CLASS = np.array([_POINT_VALUES.index(int(p)) + 1 if p else 0 for p in CARD_POINTS], dtype=np.int64)


@njit(cache=True, inline="always")
def _points_of(x):
    """Card points of the cards of bitmask ``x`` (R2), by five popcounts."""
    return (2 * popcount(x & _PM2) + 3 * popcount(x & _PM3) + 4 * popcount(x & _PM4)
            + 10 * popcount(x & _PM10) + 11 * popcount(x & _PM11))


def new_workspace(tt_bits: int = TT_BITS):
    """Per-thread search buffers (allocated once, passed to every search).

    Parameters
    ----------
    tt_bits : int
        The transposition table holds ``2**tt_bits`` entries (32 bytes each), 2-30; default
        :data:`TT_BITS` (20: 32 MB).

    Returns
    -------
    tuple
        ``(tt_k1, tt_k2, tt_d, fr, mv, cnt)``: the TT as three contiguous views
        ``ndarray(int64, (4 * 2**tt_bits,))`` of one table of four words an entry (``2**TT_SHIFT``), starting one word
        apart: entry ``i``'s key words are ``tt_k1[4 * i]`` and ``tt_k2[4 * i]``, its data word
        ``tt_d[4 * i]`` (:func:`_tt_data`), its fourth word ``tt_d[4 * i + 1]`` the hand cards' points
        word of payoff similarity (``FL_PAYOFF``; 0 under exact keys) (the kernels index them by
        :func:`_tt_bucket`'s word offsets; the
        :data:`TT_WAYS` (4) entries of a bucket fill two adjacent 64-byte cache lines, 128-byte aligned
        (a bucket of two entries in one line was measured 8% faster than three separate arrays; four
        entries search 5% fewer nodes on full 2-player deals in the same time, within 1-2%);
        contiguous views index without a stride multiply, 0.5-1.4% faster on full 2-player deals than
        strided ones), frames ``ndarray(int64, (MAXD * F_SIZE,))`` (frame ``d``'s field ``F_X`` at
        ``d * F_SIZE + F_X``: a constant stride, about 1% faster than a 2-D array), moves
        ``ndarray(int64, (MAXD, MAXM))``,
        counters ``ndarray(int64, (16,))`` (``cnt[0]`` nodes, ``cnt[1]`` generation stamp: one
        generation for positions of one deal and one perspective, see :func:`ab`; ``cnt[2]``,
        ``cnt[3]``: probes and first-probe nodes of the last :func:`mtdf`; ``cnt[4]`` += the replies
        the look-ahead valued by their table bounds without entering them, ``FL_ETC``/``FL_ETC4``,
        not counted in ``cnt[0]``).
        The table takes ``2**tt_bits * 32`` bytes (32 MB at the default), its pages mapped at once;
        2-player searches use only its first ``2**17`` entries (``FL_TT2``, 4 MB).

    Raises
    ------
    ValueError
        ``"tt_bits: <value>, expected an integer 2-30 ..."`` if ``tt_bits`` is not an integer 2-30.
    """
    if not isinstance(tt_bits, (int, np.integer)) or not 2 <= tt_bits <= 30:
        raise ValueError(f"tt_bits: {tt_bits!r}, expected an integer 2-30 (a bucket holds {TT_WAYS} entries)")
    size = 1 << tt_bits
    # two 64-byte cache lines a bucket: slot j of the bucket at words 4j..4j+3 (key, key, data, points); the
    # three views start at words 0, 1, 2 of a 128-byte aligned run of size * 4 words
    words = size << TT_SHIFT
    raw = np.zeros(words + 32, dtype=np.int64)
    raw.fill(0)  # map every page now (about 10 ms for 2**20), not inside the first timed solves
    off = (-(raw.ctypes.data // 8)) % 16
    return (raw[off:off + words], raw[off + 1:off + 1 + words], raw[off + 2:off + 2 + words],
            np.zeros(MAXD * F_SIZE, dtype=np.int64), np.zeros((MAXD, MAXM), dtype=np.int64),
            np.zeros(16, dtype=np.int64))


def default_flags():
    """The technique switches that pay (measured): ``ndarray(int64, (FL_SIZE,))``.

    Returns
    -------
    ndarray(int64, shape=(FL_SIZE,))
        A new array, one entry per ``FL_*`` switch (0 off, 1 on, or the level, threshold or size chosen:
        ``FL_TT2`` a log2 of table entries, ``FL_ASP`` a window in card points; the comments of the body
        give the measurements, results/README.md).
    """
    f = np.ones(FL_SIZE, dtype=np.int64)
    f[FL_EXACT] = 0     # measured: exact small subtrees cost more nodes (results/README.md)
    f[FL_HIST] = 0      # measured: neutral as tie-break, 5x worse as primary order
    f[FL_KILLER] = 0    # measured: 2x more nodes
    f[FL_BISECT] = 1    # measured: 9-34% fewer nodes with 3-6 players, none with 2; the prior's split 5-6% fewer on
                        # full 4-player deals (results/README.md)
    f[FL_EG] = 2        # measured: positions with 10 and 4 tricks left 10% and 25% faster than level 1, full
                        # deals the same (results/README.md)
    f[FL_EGN] = 2       # measured: 4 players 2.3x faster than level 1, 3 players 1.2-1.8x (results/README.md)
    f[FL_ETC4] = 8      # measured: 3-4% faster on full 4-player deals from 12 or 16 cards left to draw, slower
                        # from 4; since decided cards are not entered, 8 takes 10% fewer nodes than 12 and
                        # 1-3% less mean time, the same median (results/README.md)
    f[FL_EGC4] = 1      # measured: about 2% faster on full 4-player deals, 3-4% with 6 tricks left
                        # (results/README.md)
    f[FL_ETCMIN] = 8    # measured: the look-ahead pays with 8+ cards left to draw (its key is reused by the
                        # child), costs more than it saves nearer the end (results/README.md)
    f[FL_ASP] = 2       # measured: full 2-player deals 2.5-3% fewer nodes and 3% less time (mean) than MTD(f)'s
                        # first null window, 300 deals of seeds 2-4 interleaved (results/README.md)
    f[FL_TT2] = 17      # measured: full 2-player deals 5-7% faster in 2**17 entries (4 MB) than in 2**20
                        # (32 MB), 0.7-0.9% more nodes (results/README.md)
    return f


@njit(cache=True)
def endgame_key(hands, n, trump, leader):
    """Canonical exact key of a trick-boundary position with nothing left to draw (n <= 4).

    Every suit is written as its live cards, strongest first, each as (owner, rank class): what
    is left of a suit matters only through the order and points of its cards (RULES R2, R5, R9),
    so positions differing only in which zero-point cards were played, or by a permutation of the
    non-trump suits, share one entry. Trump suit first, then the three other suits sorted.

    Parameters
    ----------
    hands : ndarray(int64, shape=(>= n,))
        Card bitmask of each seat's hand.
    n : int
        Players (2-4).
    trump : int
        Trump suit 0-3.
    leader : int
        Seat to lead.

    Returns
    -------
    (int64, int64)
        ``(k1, k2)``; ``k1`` has bit 63 set (the exact key never has).
    """
    u, ob0, ob1 = _owner_planes(hands, n)
    return _endgame_key_planes(u, ob0, ob1, trump, leader)


@njit(cache=True, inline="always")
def _owner_planes(hands, n):
    """``(all, plane 0, plane 1)`` of the ``n <= 4`` hands for :func:`_endgame_key_planes`: every card
    in them, and the owner bit planes (seat s's cards in plane 0 when s is odd, in plane 1 when s >= 2)."""
    u = np.int64(hands[0])
    ob0 = np.int64(0)
    ob1 = np.int64(0)
    for s in range(1, n):
        u |= hands[s]
        if s & 1:
            ob0 |= hands[s]
        if s & 2:
            ob1 |= hands[s]
    return u, ob0, ob1


def _rel_tables():
    """Per card id (0-47): the cards of its suit below it (bitmask) and the suit and point class
    part of :func:`_rel_code` (``_POINT_CLASS``; the 7 and the 2 of trumps in class 0, ``spec``
    adds theirs)."""
    ids = np.arange(N_IDS, dtype=np.int64)
    below = SUIT_MASK[CARD_SUIT] & ((np.int64(1) << ids) - 1)
    static = (CARD_SUIT << 7) | _POINT_CLASS
    return below, static


_REL_BELOW, _REL_STATIC = _rel_tables()


@njit(cache=True, inline="always")
def _rel_code(c, live, trump, spec):
    """9-bit code of hand card ``c`` for :func:`draw_key2`: suit, rank among the live cards of its
    suit, point class (0 no points, 1-5 by points, RULES R2; 6/7 the 7/2 of trumps while an
    exchange can still happen, R7). Read from per-card tables, the 7 and 2 of trumps by masks: full
    2-player deals 4.5-4.9% faster than computing the code (results/README.md)."""
    t0 = np.int64(trump) * np.int64(12)
    sp = (np.int64(c == t0 + 4) * np.int64(6)) | (np.int64(c == t0) * np.int64(7))
    sp = sp & -np.int64(spec != 0)
    rel = popcount(live & _REL_BELOW[_u(c)])
    return _REL_STATIC[_u(c)] | (rel << np.int64(3)) | sp


@njit(cache=True, inline="always")
def _seven_two(trump):
    """Bitmask of the 7 and the 2 of trump suit ``trump`` (0-3), the cards a trump exchange gives
    up (R7; strengths 4 and 0, :mod:`sim.cards`)."""
    return (np.int64(1) << np.int64(trump * 12 + 4)) | (np.int64(1) << np.int64(trump * 12))


@njit(cache=True, inline="always")
def _exchange_ahead(exch, pin, live, left, trump):
    """Whether a trump exchange (R7) may still happen in this deal: :func:`sim.rules.exchange_card`
    lets a hand holding every live (unplayed: in a hand or the stock) 7 and 2 of trumps but the
    pinta ``pin`` take it now, ``left`` cards left to draw. That covers the 2 taking the pinta after
    the 7's exchange too: the 7 can then take it now (each exchange lowers the pinta, the 7 goes
    before the 2). The won-trick condition is not looked at: true when unsure, so that the keys and
    the sequence dominance keep the 7 and the 2 of trumps apart (``spec``) whenever an exchange can
    still move them."""
    special = _seven_two(trump)
    pinta = (np.int64(1) << pin) if pin >= 0 else np.int64(0)
    return exchange_card(live & special & ~pinta, pin, left, exch, True, 0) >= 0


@njit(cache=True)
def draw_key2(h0, h1, live, trump, spec):
    """Relative-rank key word of a 2-player trick boundary while cards remain to draw.

    Every hand card (seat 0's, then seat 1's, ascending) as its suit, its rank among the live
    cards of its suit (hands and stock) and its point class. With the cards left to draw and the pinta
    (in the other key word) the stock's content is fixed, so the word determines the position up
    to cards that differ only in identity, never in play: a trick's winner depends only on suits
    and order within a suit (R5, R9), its value only on points (R2), the exchange only on the 7
    and 2 of trumps (R7, kept apart by their class while ``spec``). Positions that differ only in
    which of two such cards was played share one TT entry (DDS keys its table on relative ranks
    the same way). At most 6 cards x 9 bits = 54 bits.

    Parameters
    ----------
    h0, h1 : int64
        Hands of seats 0 and 1 (card bitmasks).
    live : int64
        Cards in hands and stock (bitmask).
    trump : int
        Trump suit 0-3.
    spec : bool
        True while an exchange (R7) can still happen.

    Returns
    -------
    int64
        The key word (the caller adds cards left to draw, pinta, leader and hand size in the other).
    """
    k = np.int64(0)
    x = h0
    while x != 0:
        c = lowest(x)
        x &= x - 1
        k = (k << np.int64(9)) | _rel_code(c, live, trump, spec)
    x = h1
    while x != 0:
        c = lowest(x)
        x &= x - 1
        k = (k << np.int64(9)) | _rel_code(c, live, trump, spec)
    return k


@njit(cache=True, inline="always")
def _rel_code_pw(c, live, trump, spec, payoff):
    """:func:`_rel_code` of hand card ``c``, without its point class when ``payoff`` (the play
    structure alone: suit, rank among the live cards of its suit, the 7 and 2 of trumps while an
    exchange can move them, R5, R7, R9), and the card's points (R2), 0-11."""
    code = _rel_code(c, live, trump, spec)
    pc = _POINT_CLASS[_u(c)]
    return code & ~(pc & -np.int64(payoff != 0)), card_points(c)


@njit(cache=True)
def draw_key2_pw(h0, h1, live, trump, spec, payoff):
    """:func:`draw_key2` and the hand cards' points word (``FL_PAYOFF``).

    With ``payoff`` 0 the key word is :func:`draw_key2`'s and the points word 0. Else the key word
    leaves out the point classes (two positions share it when their hands differ only in the points
    of cards in the same places of the play, R2) and the points word holds every hand card's points,
    4 bits a card in the key word's card order, so that :func:`_tt_probe_pw` can bound one position's
    value by the other's (payoff similarity, Furtak and Buro, IJCAI 2011).

    Parameters
    ----------
    h0, h1, live, trump, spec
        As :func:`draw_key2`.
    payoff : int
        ``FL_PAYOFF``'s switch: 0 off (:func:`draw_key2`'s key, points word 0), otherwise on.

    Returns
    -------
    (int64, int64)
        The key word and the points word (at most 6 cards x 4 bits).
    """
    k = np.int64(0)
    pw = np.int64(0)
    x = h0
    while x != 0:
        c = lowest(x)
        x &= x - 1
        code, p = _rel_code_pw(c, live, trump, spec, payoff)
        k = (k << np.int64(9)) | code
        pw = (pw << np.int64(4)) | p
    x = h1
    while x != 0:
        c = lowest(x)
        x &= x - 1
        code, p = _rel_code_pw(c, live, trump, spec, payoff)
        k = (k << np.int64(9)) | code
        pw = (pw << np.int64(4)) | p
    return k, pw & -np.int64(payoff != 0)


@njit(cache=True, inline="always")
def _point_changes(pw, ps):
    """``(down, up)``: the card points (R2) lost and gained from the position of points word ``ps`` to
    the one of ``pw`` (same structure key, the same cards in the same places of the play), card by
    card: the first position's value (any side's future points) minus ``down`` and plus ``up`` bounds
    the second's."""
    down = np.int64(0)
    up = np.int64(0)
    x = pw ^ ps
    while x != 0:
        a = pw & 15
        b = ps & 15
        up += max(a - b, 0)
        down += max(b - a, 0)
        pw >>= 4
        ps >>= 4
        x >>= 4
    return down, up


@njit(cache=True, inline="always")
def _push(k1, k2, pos, val, nb):
    """Append the ``nb`` low bits of ``val`` at bit ``pos`` of the 128-bit key ``(k1:k2)``."""
    if pos < 64:
        k2 |= val << np.int64(pos)
        if pos + nb > 64:
            k1 |= (val >> np.int64(64 - pos)) & ((np.int64(1) << np.int64(pos + nb - 64)) - 1)
    else:
        k1 |= val << np.int64(pos - 64)
    return k1, k2, pos + nb


@njit(cache=True)
def draw_key_n(h0, h1, h2, h3, n, live, trump, spec, left, pin, leader):
    """:func:`draw_key2` for 3 or 4 players: every hand card's 9-bit relative-rank code, seat by
    seat (at most 12 cards = 108 bits), then the cards left to draw, the pinta, the leader and the hand
    size; bits 62-63 set. The caller checks that every hand has the same size (trick boundary).
    Same equivalence as :func:`draw_key2` (R2, R5, R7, R9).

    Parameters
    ----------
    h0, h1, h2, h3 : int64
        Hands of seats 0-3 as keyed (card bitmasks; 0 beyond ``n``). Scalars, not an array: an array
        argument costs the caller a reference-count pair a call.
    n : int
        Players, 3 or 4.
    live : int64
        Cards in hands and stock (bitmask).
    trump : int
        Trump suit 0-3.
    spec : bool
        True while an exchange (R7) can still happen (:func:`_exchange_ahead`).
    left : int
        Cards left to draw, 1-63.
    pin : int
        Card id of the pinta (0-47).
    leader : int
        Seat to lead, as keyed (0 to ``n - 1``).

    Returns
    -------
    (int64, int64)
        ``(k1, k2)``.
    """
    k1 = np.int64(0)
    k2 = np.int64(0)
    pos = 0
    for s in range(n):
        x = _hand4(h0, h1, h2, h3, s)
        while x != 0:
            c = lowest(x)
            x &= x - 1
            k1, k2, pos = _push(k1, k2, pos, _rel_code(c, live, trump, spec), 9)
    k1 |= (np.int64(left) << np.int64(44)) | (np.int64(pin) << np.int64(50)) | (np.int64(leader) << np.int64(56))
    k1 |= popcount(h0) << np.int64(58)
    k1 |= np.int64(3) << np.int64(62)
    return k1, k2


@njit(cache=True)
def draw_key_n_pw(h0, h1, h2, h3, n, live, trump, spec, left, pin, leader, payoff):
    """:func:`draw_key_n` and the hand cards' points word, as :func:`draw_key2_pw` (``FL_PAYOFF``;
    at most 12 cards x 4 bits).

    Parameters
    ----------
    h0, h1, h2, h3, n, live, trump, spec, left, pin, leader
        As :func:`draw_key_n`.
    payoff : int
        ``FL_PAYOFF``'s switch: 0 off (:func:`draw_key_n`'s words, points word 0), otherwise on (the key
        leaves out the point classes, as :func:`draw_key2_pw`).

    Returns
    -------
    (int64, int64, int64)
        ``(k1, k2, pw)``: the two key words and the points word (4 bits a hand card, in key order; 0
        when ``payoff`` is 0).
    """
    k1 = np.int64(0)
    k2 = np.int64(0)
    pw = np.int64(0)
    pos = 0
    for s in range(n):
        x = _hand4(h0, h1, h2, h3, s)
        while x != 0:
            c = lowest(x)
            x &= x - 1
            code, p = _rel_code_pw(c, live, trump, spec, payoff)
            k1, k2, pos = _push(k1, k2, pos, code, 9)
            pw = (pw << np.int64(4)) | p
    k1 |= (np.int64(left) << np.int64(44)) | (np.int64(pin) << np.int64(50)) | (np.int64(leader) << np.int64(56))
    k1 |= popcount(h0) << np.int64(58)
    k1 |= np.int64(3) << np.int64(62)
    return k1, k2, pw & -np.int64(payoff != 0)


@njit(cache=True, inline="always")
def _wrap(s, n):
    """``s % n`` for ``0 <= s < 2 * n`` (seat arithmetic without a division)."""
    return s - n if s >= n else s


@njit(cache=True, inline="always")
def _equal_sizes(hands, n):
    """Whether the ``n`` hands hold the same number of cards."""
    c0 = popcount(hands[0])
    for s in range(1, n):
        if popcount(hands[s]) != c0:
            return False
    return True


@njit(cache=True, nogil=True)
def ab(st, stock0, ismax, alpha0, beta0, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags):
    """Fail-soft alpha-beta on future points of the maximizing side (iterative).

    Hands two-player searches with the default techniques (:func:`uses_ab2`) to :func:`ab2`
    (through :func:`ab2_probe`), four-player ones in two sides (:func:`uses_ab4`) to :func:`ab4`
    (through :func:`ab4_probe`), the others to the general kernel :func:`abn`. Compiling it
    compiles the three kernels; :func:`drivers` names entry points that compile only the one a
    position needs.

    Parameters
    ----------
    st : ndarray(int64, shape=(ST_SIZE,))
        Root state (layout ``solver.position.ST_*``); not modified.
    stock0 : ndarray(int8, shape=(>= L,))
        Cards to draw from ``st[ST_DP]`` on, top first, the pinta last; not modified.
    ismax : ndarray(int64, shape=(players,))
        1 for the maximizing seats.
    alpha0, beta0 : int
        Search window in card points (future points from the root).
    tt_k1, tt_k2, tt_d : ndarray(int64, shape=(4 * 2**k,))
        Transposition table (the layout of :func:`new_workspace`); entries of another generation
        (``cnt[1]``) are ignored.
    fr : ndarray(int64, shape=(MAXD * F_SIZE,))
        Stack buffer: one frame of ``F_SIZE`` words per ply.
    mv : ndarray(int64, shape=(MAXD, MAXM))
        Stack buffer: the move list of each ply.
    cnt : ndarray(int64, shape=(16,))
        ``cnt[0]`` += nodes searched (positions the endgame minimax solves are not counted);
        ``cnt[1]`` generation stamp. One generation may serve only positions of one deal (one
        stock order: keys name how many cards are left to draw, not which) seen from one side
        (one ``ismax``); bump the stamp for another deal or perspective (:func:`solver.solve`
        uses a fresh one per call, :func:`solver.analyse_play` one along a deal).
    flags : ndarray(int64, shape=(FL_SIZE,))
        Technique switches ``FL_*``.

    Returns
    -------
    int
        Fail-soft value: if ``alpha0 < v < beta0`` the exact value, ``v <= alpha0`` an upper
        bound, ``v >= beta0`` a lower bound (card points 0-120).
    """
    if uses_ab2(st, flags):
        return ab2_probe(st, stock0, ismax, alpha0, beta0, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags)
    if uses_ab4(st, flags):
        return ab4_probe(st, stock0, ismax, alpha0, beta0, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags)
    return abn(st, stock0, ismax, alpha0, beta0, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags)


@njit(cache=True, inline="always")
def _beaten_by(c, cards, trump):
    """The cards of ``cards`` that beat ``c`` played before them in a trick (R5): higher cards of
    its suit, and trumps when ``c`` is not one."""
    b = cards & (np.int64(0xFFF) << np.int64(12 * suit_of(c))) & ~((np.int64(2) << c) - 1)
    if suit_of(c) != trump:
        b |= cards & (np.int64(0xFFF) << np.int64(12 * trump))
    return b


@njit(cache=True, inline="always")
def _seq_next(c, lm, live, trump, spec):
    """The card that forms a sequence with ``c`` above it for :func:`_seq_dominance`: the next
    ``live`` card of its suit when the mover may play it too, else -1 (and -1 for the 2 and 7 of
    trumps while an exchange may take them, ``spec``, R7)."""
    if spec and ((_seven_two(trump) >> c) & 1) != 0:
        return np.int64(-1)
    above = live & (np.int64(0xFFF) << np.int64(12 * suit_of(c))) & ~((np.int64(2) << c) - 1)
    if above == 0:
        return np.int64(-1)
    nx = lowest(above)
    if ((lm >> nx) & 1) == 0 or (spec and ((_seven_two(trump) >> nx) & 1) != 0):
        return np.int64(-1)
    return nx


@njit(cache=True, inline="always")
def _no_sequence(lm, live):
    """True when no card of ``lm`` (a hand of at most three cards) has the next ``live`` card above
    it in its suit in ``lm`` too; a larger hand gives False. Then :func:`_seq_next` finds no pair,
    and :func:`_seq_dominance` and :func:`_seq_dominance_mid` leave ``lm`` as it is without their
    loop, whose branches mispredict: straight-line code over the two pairs of neighbouring ids
    (same nodes; 3-4% faster on full 2-player deals, 2% on 4-player ones, results/README.md)."""
    x1 = lm & (lm - 1)
    x2 = x1 & (x1 - 1)
    top = np.int64(1) << np.int64(62)  # (no card id: keeps lowest() of an empty set defined)
    a = lowest(lm | top)
    b = lowest(x1 | top)
    c = lowest(x2 | top)
    p1 = (x1 != 0) & (suit_of(a) == suit_of(b)) & ((live & ((np.int64(1) << b) - (np.int64(2) << a))) == 0)
    p2 = (x2 != 0) & (suit_of(b) == suit_of(c)) & ((live & ((np.int64(1) << c) - (np.int64(2) << b))) == 0)
    return ((x2 & (x2 - 1)) | np.int64(p1 | p2)) == 0


@njit(cache=True, inline="always")
def _seq_dominance(lm, live, win, ally, trump, spec, other, endg, stock_empty, pin, seq):
    """The legal cards of a node left to search after sequence dominance (``FL_SEQ``).

    Two cards ``f1 < f2`` of one suit in the mover's hand with no ``live`` card between them
    beat and lose to the same cards in every later trick (R2, R5) and are legal alike there
    (R9); neither may be a card of the trump exchange while one is still possible (``spec``,
    R7). If this trick is won by the same side with either card, swapping the two maps every
    line after one onto a line after the other with the same tricks won, and the mover's side
    captures ``(p2 - p1) * (won later - won now)`` more card points with ``f1`` played now:
    the trick lost, the cheaper card is never worse (the dearer one is not searched); won,
    the dearer one; equal points (adjacent zero-point cards, the equivalent cards), either.
    Points never fall with rank within a suit (R2). Leaving out a move that is never better
    keeps a fail-soft search exact.

    Parameters
    ----------
    lm : int64
        Legal cards of the mover (bitmask).
    live : int64
        Cards another hand may still play against these (bitmask: the other hands, the stock;
        with two players the card led to this trick is compared by ``win`` instead).
    win : int64
        Card now winning the trick when the mover plays its last card (``beats`` decides), -1
        when the mover leads a two-player trick (sure when no legal reply of ``other`` beats the
        card, or every one does), -2 otherwise (the outcome is open: equal points only).
    ally : bool
        ``win`` belongs to the mover's side.
    trump : int64
        Trump suit.
    spec : bool
        An exchange is still possible (R7): the 2 and the 7 of trumps are left alone.
    other : int64
        Two players, the mover leading: the other hand (bitmask).
    endg, stock_empty, pin
        Endgame rule (R9), whether the stock is empty, the pinta (card id, -1 once drawn;
        counted among ``other``'s replies while ``spec``: an exchange may put it in that hand).
    seq : bool
        False: only the equivalent zero-point cards (the rule before ``FL_SEQ``).

    Returns
    -------
    int64
        The subset of ``lm`` to search; of every chain of such pairs one card is kept.
    """
    cand = lm
    if _no_sequence(lm, live):
        return cand
    x = lm
    while x != 0:
        c = lowest(x)
        x &= x - 1
        nx = _seq_next(c, lm, live, trump, spec)
        if nx < 0:
            continue
        pc = card_points(c)
        pn = card_points(nx)
        if not seq and (pc != 0 or pn != 0):
            continue
        won = False
        if win >= 0:
            won = beats(c, win, trump)
            if won != beats(nx, win, trump):
                continue  # the winning card lies between them
            won = won or ally
        if pc == pn:
            cand &= ~(np.int64(1) << c)
            continue
        if win == -1:
            rep = other
            if endg != 0 and stock_empty:
                rep = legal_follow(other, suit_of(c), c, trump, endg)
            elif spec and pin >= 0:
                rep |= np.int64(1) << pin  # the other seat may take the pinta first (R7)
            bt = _beaten_by(c, rep, trump)
            if bt == 0:
                won = True
            elif bt != rep:
                continue
        elif win < -1:
            continue
        if won:
            cand &= ~(np.int64(1) << c)
        else:
            cand &= ~(np.int64(1) << nx)
    return cand


@njit(cache=True, inline="always")
def _seq_dominance_mid(lm, live, win, ally, trump, spec, later):
    """:func:`_seq_dominance` for a seat of 3-6 players that is not the trick's last: the trick's
    outcome is sure when no card the later seats hold (``later``, the pinta included while an
    exchange may bring it into a hand, R7) beats the card that will then be winning: the mover's
    (it leads, or beats ``win``: won) or ``win`` (the mover does not beat it: won when ``ally``,
    the seat of ``win`` on the mover's side, else lost). ``win`` is -1 when the mover leads;
    ``live`` includes the cards of the trick. Otherwise only equal points (the equivalent cards)."""
    cand = lm
    if _no_sequence(lm, live):
        return cand
    x = lm
    while x != 0:
        c = lowest(x)
        x &= x - 1
        nx = _seq_next(c, lm, live, trump, spec)
        if nx < 0:
            continue
        pc = card_points(c)
        pn = card_points(nx)
        if pc == pn:
            cand &= ~(np.int64(1) << c)
            continue
        if win < 0 or beats(c, win, trump):  # (win is live: it never lies between them)
            if _beaten_by(c, later, trump) != 0:
                continue
            won = True
        else:
            if _beaten_by(win, later, trump) != 0:
                continue
            won = ally
        if won:
            cand &= ~(np.int64(1) << c)
        else:
            cand &= ~(np.int64(1) << nx)
    return cand


@njit(cache=True, inline="always")
def _draw_edge(win_draw, next_draw, trump):
    """What winning the trick draws over losing it (R6: the winner draws the next card, the next
    seat the one after): 1 when only ``win_draw`` is a trump, -1 when only ``next_draw`` is, else 0
    (card ids). Measured: the points and the trump's strength of the two draws order no better."""
    return (1 if suit_of(win_draw) == trump else 0) - (1 if suit_of(next_draw) == trump else 0)


@njit(cache=True, inline="always")
def _draw_edge_n(stk, dp, n, trump):
    """:func:`_draw_edge` for ``n`` players drawing from ``stk[dp:]`` (R6: the winner first, then the
    seats after it): with two sides of alternate seats (4 and 6 players, R3) the trumps the winner's
    side draws minus those the other side draws (the pairs of seats summed); with 2 and 3 players
    the winner's card against the next seat's."""
    edge = 0
    for j in range(0, n if (n % 2 == 0) else 2, 2):
        edge += _draw_edge(stk[dp + j], stk[dp + j + 1], trump)
    return edge


@njit(cache=True, inline="always")
def _draw_edges(stock0, L, n, trump):
    """The draw edge (:func:`_draw_edge_n`, R6) of every stock index, built once a search.

    The edge depends only on where the draws start, and the pinta slot ``L - 1`` holds a trump
    before and after an exchange (R7), so the original stock gives every index's edge.

    Parameters
    ----------
    stock0 : ndarray(int8, shape=(>= L,))
        Card ids of the stock, top first, the pinta slot last.
    L : int
        Cards left to draw at the root (stock and pinta).
    n : int
        Players, 2-6.
    trump : int
        Trump suit, 0-3.

    Returns
    -------
    ndarray(int64, shape=(48,))
        ``edges[dp]``: trumps won over lost (-2 to 2 with two sides of 4 players) by winning the
        trick whose draws start at stock index ``dp``; 0 where fewer than a round of draws is left.
        Raises nothing. Read by the follow scores of ``ab2`` and ``ab4`` instead of looking up the
        draws at every follow node: 4.9% (2 players) and 1.3% (4 players) less time on full deals,
        same nodes (results/README.md, session of 2026-12-04, seventh part). Inlined, so the
        table is allocated in the kernel itself: as a called function returning the array, full
        2-player deals took about 5% longer (alternating runs).
    """
    edges = np.zeros(48, dtype=np.int64)
    span = n if n % 2 == 0 else 2
    for i in range(L - span + 1):
        edges[i] = _draw_edge_n(stock0, i, n, trump)
    return edges


@njit(cache=True, inline="always")
def _lead_score(c, hand, opp, trump, left):
    """Order score of leading ``c`` from ``hand`` against the opponents' cards ``opp`` (``FL_TUNED``).

    Leads no opponent can beat first (R5), then leads only a trump beats (a ruff costs the
    opponent a trump), long suits before short ones; ``left`` cards left to draw. The weights were
    tuned by coordinate descent on the nodes of 40 full 2-player deals (seed 7) and checked on
    other seeds and player counts (results/README.md); they order moves only, never change a value.
    """
    p = card_points(c)
    r = strength_of(c)
    it = 1 if suit_of(c) == trump else 0
    sc = 30 * popcount(hand & suit_mask(suit_of(c)))
    beat = _beaten_by(c, opp, trump)
    if beat == 0:
        return sc + 640 + 3 * p - 60 * it + 3 * r + (7 * left if p > 0 else 0)
    onlyt = 1 if (beat & ~suit_mask(trump)) == 0 else 0
    return sc + 500 - 4 * p - 70 * it - r + 60 * onlyt - card_points(lowest(beat))


@njit(cache=True, inline="always")
def _follow_score(c, win, tp, hand, trump, left, edge, players):
    """Order score of playing ``c`` from ``hand`` to a trick an opponent's ``win`` is winning,
    ``tp`` card points in it (``FL_TUNED``; R5). Winning it is worth the trump it may draw
    (``edge``: :func:`_draw_edge`, R6; 304 a trump with 2 ``players`` and with 4 while more than 12
    cards are left to draw, else 175). Of the losing
    cards a trump comes last, and a zero-point card loses 66 with 2 players (after a 2 or 3 while
    many cards are left to draw), 50 with more (tuned on 20 four-player positions with 8 tricks
    left). Measured, not reasoned: these scores order the search, they are no playing advice.
    Tuned as :func:`_lead_score`; the 2-player edge, zero-point loss and the sign of ``left`` in a
    trump's win of a trick of no points re-tuned with payoff similarity on (session of 2026-12-04,
    fifth part: 1.8-3.0% fewer nodes on full 2-player deals, results/README.md); the 4-player edge
    early in the deal in the sixth part (1.0% fewer nodes on 240 full 4-player deals of six seeds).

    Every case's score is computed and one picked by masks, without a branch (whether ``c`` wins
    mispredicts): 1.2-3.2% faster on full 2-player deals than the same scores behind branches
    (results/README.md)."""
    p = card_points(c)
    r = strength_of(c)
    istr = suit_of(c) == trump
    two = players == 2
    edge *= 304 if (two or (players == 4 and left > 12)) else 175
    it = np.int64(istr)
    z = np.int64(p == 0)
    nt = popcount(hand & suit_mask(trump))
    zero_loss = 66 if two else 50
    win_ruff0 = 130 + (-left if two else left) + edge               # a trump wins a trick of no points
    win_suit = 400 + 8 * (tp + p) - 3 * r + left + edge             # a card of the suit led wins
    win_trump = 410 + 6 * tp - 2 * r - p - 20 * z + 10 * nt + edge  # a trump wins a trick with points
    lose = 300 - 14 * p - r - 140 * it - zero_loss * z * (1 - it) - left * p - edge
    mw = -np.int64(beats(c, win, trump))                            # all ones: c wins the trick
    m0 = -np.int64((tp + p == 0) & istr)
    mt = -it
    won = (win_ruff0 & m0) | (((win_trump & mt) | (win_suit & ~mt)) & ~m0)
    return (won & mw) | (lose & ~mw)


@njit(cache=True, inline="always")
def _partner_score(c, trump, per_point, later):
    """Order score of playing ``c`` to a trick a partner is winning (3-6 players; R5): give points
    (``per_point`` a card point: 5 with two sides, 4 for the paranoid coalition of 3 players,
    measured in results/README.md), keep trumps, and a 10- or 11-point card scores 30 less while a
    later seat may still take the trick (``later``). Orders moves only, never changes a value."""
    p = card_points(c)
    sc = 300 + p * per_point - (60 if suit_of(c) == trump else 0) - strength_of(c)
    if later and p >= 10:
        sc -= 30
    return sc


@njit(cache=True, inline="always")
def _sure_points(tl, ho):
    """Card points hand ``ho`` surely wins (R5): those of the top live trumps ``tl`` (bitmask) it
    holds in an unbroken run from the top, each of which wins its trick."""
    sure = 0
    while tl != 0:
        c = highest(tl)
        b = np.int64(1) << c
        if (ho & b) == 0:
            break
        sure += card_points(c)
        tl &= ~b
    return sure


@njit(cache=True, inline="always")
def _quick_bound2(acc, rem, beta, tl, h0, h1, m0, m1):
    """Fail-soft value (card points) of a 2-player node the quick bounds decide (``acc >= beta``: a
    lower bound, else ``acc + rem <= alpha``: an upper bound), tightened by the sure points
    (:func:`_sure_points`, R5) of the hand holding the top live trump ``tl``'s highest card when that
    hand's side is the bound's (it maximizes for a lower bound, minimizes for an upper one); hands
    ``h0``, ``h1``, maximizing flags ``m0``, ``m1``. A tighter bound leaves tighter table entries:
    1.3-1.7% fewer nodes on full deals (results/README.md)."""
    up = acc < beta
    sure = 0
    if tl != 0:
        b = np.int64(1) << highest(tl)
        o = 0 if (h0 & b) != 0 else (1 if (h1 & b) != 0 else -1)
        if o >= 0 and ((m1 if o == 1 else m0) != 0) != up:
            sure = _sure_points(tl, h1 if o == 1 else h0)
    return acc + rem - sure if up else acc + sure


@njit(cache=True, inline="always")
def _sure_cut(acc, rem, alpha, beta, tl, ho, omax):
    """Quick bound from sure points (R5): ``ho``, the hand holding the top live trump, wins a trick
    with each of the top live trumps ``tl`` (bitmask) it holds in an unbroken run from the top, and
    their card points with it. Returns the node's fail-soft value (card points, ``acc`` taken so far,
    ``rem`` left) when that decides the window ``(alpha, beta)``: a lower bound ``>= beta`` when the
    hand's side maximizes (``omax``), else an upper bound ``<= alpha``; -1 when it does not."""
    sure = _sure_points(tl, ho)
    if omax:
        if acc + sure >= beta:
            return acc + sure
    elif acc + rem - sure <= alpha:
        return acc + rem - sure
    return -1


@njit(cache=True, inline="always")
def _owner4(h0, h1, h2, h3, b):
    """Seat 0-3 whose hand holds card bit ``b`` of four hands in registers, -1 if none."""
    return 0 if (h0 & b) != 0 else (1 if (h1 & b) != 0 else (2 if (h2 & b) != 0 else (3 if (h3 & b) != 0 else -1)))


@njit(cache=True, nogil=True)
def abn(st, stock0, ismax, alpha0, beta0, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags):
    """The general kernel of :func:`ab` (any number of players, every technique switch); same
    parameters and result. It never hands over to :func:`ab2`.

    Parameters
    ----------
    st, stock0, ismax, alpha0, beta0, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags
        As :func:`ab` (``st``: ndarray(int64, shape=(ST_SIZE,)), the root state; ``flags``:
        ndarray(int64, shape=(FL_SIZE,)), the technique switches).

    Returns
    -------
    int
        Fail-soft value in card points of the maximizing side (0-120), as :func:`ab`.
    """
    n = st[ST_PLAYERS]
    nsides = st[ST_SIDES]
    trump = st[ST_TRUMP]
    exch = st[ST_EXCH]
    exwon = st[ST_EXWON]
    endg = st[ST_ENDGAME]
    L = st[ST_L]
    use_tt = flags[FL_TT] != 0
    use_order = flags[FL_ORDER] != 0
    use_equiv = flags[FL_EQUIV] != 0
    use_seq = flags[FL_SEQ] != 0
    use_quick = flags[FL_QUICK] != 0
    use_ttmove = flags[FL_TTMOVE] != 0
    use_sure = flags[FL_SURE] != 0
    exact_ncl = flags[FL_EXACT]
    use_hist = flags[FL_HIST]
    lead_mode = flags[FL_LEAD]
    follow_mode = flags[FL_FOLLOW]
    use_killer = flags[FL_KILLER] != 0
    killer = np.full(MAXD, -1, dtype=np.int64)
    hist = np.zeros(2 * 64 * 8, dtype=np.int64)
    use_canon = flags[FL_CANON] != 0 and n <= 4
    use_rel = flags[FL_RELKEY] != 0
    # payoff similarity (FL_PAYOFF) with the relative-rank and canonical keys of 2-4 players (6 keep exact keys)
    payoff = flags[FL_PAYOFF] if (use_tt and n <= 4) else 0
    # seat rotation (FL_MIRROR): two sides of alternate seats (2, 4, 6 players), not the 3-player paranoid game
    use_mirror = flags[FL_MIRROR] != 0 and nsides == 2 and n % 2 == 0
    swap_first = flags[FL_SWAP] != 0
    tuned = flags[FL_TUNED] != 0 and lead_mode == 1 and follow_mode == 1
    kh = np.zeros(8, dtype=np.int64)  # the hands as keyed (rotated: the leader as seat 0)
    use_egn = flags[FL_EGN] != 0
    egn4 = flags[FL_EGN] >= 2 and n == 4
    egn3 = flags[FL_EGN] >= 2 and n == 3
    # the maximizing seats as a bitmask (bit s: seat s) for the 4-player endgame kernels: an array argument
    # to a compiled callee costs a reference-count pair and seven words a call
    mxb = np.int64(0)
    for s in range(n):
        if ismax[s] != 0:
            mxb |= np.int64(1) << s
    egs = np.zeros((7, 8), dtype=np.int64)  # endgame minimax scratch (_eg_value_nw)
    # the 2-trick endgames' table of _eg_three4 (FL_EGC4): 2**12 entries (64 KB), allocated at the first
    # 3-trick endgame; none when the search starts with at most 16 cards (measured: zeroing even 2**8
    # entries costs a 4-trick search more than the table saves)
    ec = np.zeros(0, dtype=np.int64)
    ecn = 2 << 12 if flags[FL_EGC4] != 0 and egn4 and popcount(st[ST_NOTDONE]) > 16 else 0
    # enhanced transposition cutoffs at a trick's last card (FL_ETC4): 4 players, relative-rank keys, no
    # won-trick exchange condition (its key bits), only while enough cards are left to draw
    etc4min = flags[FL_ETC4]
    etc4 = (etc4min > 0 and n == 4 and use_tt and use_rel and exwon == 0
            and L - st[ST_DP] >= etc4min)
    ne = MAXD if etc4 else 1  # the look-ahead's keys by depth and card, written before they are read
    ek1 = np.empty((ne, 48), dtype=np.int64)
    ek2 = np.empty((ne, 48), dtype=np.int64)
    eix = np.empty((ne, 48), dtype=np.int64)
    epw = np.empty((ne, 48), dtype=np.int64)
    ev = np.empty((ne, 48), dtype=np.int64)  # a card's value where its next position's bounds decide it
    pre = -1
    tsuit = np.int64(0xFFF) << np.int64(12 * trump)
    stamp = cnt[1]
    tmask = _tt_mask(tt_k1)
    side_of = np.zeros(8, dtype=np.int64)
    for s in range(n):
        side_of[s] = s % nsides
    hands = np.zeros(8, dtype=np.int64)
    for s in range(n):
        hands[s] = st[ST_HAND + s]
    trick = np.zeros(8, dtype=np.int64)
    ntrick = st[ST_NTRICK]
    for i in range(ntrick):
        trick[i] = st[ST_TRICK + i]
    stk = np.zeros(max(L, 1), dtype=np.int64)
    for i in range(L):
        stk[i] = stock0[i]
    leader = st[ST_LEADER]
    dp = st[ST_DP]
    sw = st[ST_SIDEWON]
    notdone = st[ST_NOTDONE]
    rem = _points_of(notdone)
    ncl = popcount(notdone)
    acc = 0
    scores = np.zeros(MAXM, dtype=np.int64)
    nodes = 0
    skipped = 0  # replies the look-ahead decided, valued without entering them (not counted in nodes)

    d = 0
    fr[F_ALPHA] = alpha0
    fr[F_BETA] = beta0
    mode = 0  # 0 enter, 1 next child, 2 return value v to parent
    v = 0
    while True:
        if mode == 0:
            nodes += 1
            upre = pre
            pre = -1
            alpha = fr[d * F_SIZE + F_ALPHA]
            beta = fr[d * F_SIZE + F_BETA]
            fr[d * F_SIZE + F_SLOT] = -1
            if notdone == 0:
                v = acc
                mode = 2
                continue
            if use_quick:
                if acc >= beta or acc + rem <= alpha:
                    if use_sure and n == 2:
                        # as ab2 (4 players measured no faster with it)
                        v = _quick_bound2(acc, rem, beta, notdone & tsuit, hands[0], hands[1], ismax[0], ismax[1])
                    else:
                        v = acc if acc >= beta else acc + rem
                    mode = 2
                    continue
            if use_sure:
                # sure points: the top live trumps in one hand always win their tricks (R5)
                tl = notdone & tsuit
                if tl != 0:
                    c = highest(tl)
                    b = np.int64(1) << c
                    o = -1
                    for s in range(n):
                        if (hands[s] & b) != 0:
                            o = s
                    if o >= 0:
                        v = _sure_cut(acc, rem, alpha, beta, tl, hands[o], ismax[o] != 0)
                        if v >= 0:
                            mode = 2
                            continue
            seat = _wrap(leader + ntrick, n)
            ttmove = -1
            if ntrick == 0 and egn4 and dp >= L and ncl <= 8 and _equal_sizes(hands, n):
                # stock empty, at most 2 tricks left (R9): the value by the unrolled minimax in this
                # node's window, no table probe (cheaper than the probe's cache miss; FL_EGN 2)
                v = acc + _eg_value4(hands[0], hands[1], hands[2], hands[3], leader, trump, endg, mxb,
                                     alpha - acc, beta - acc)
                mode = 2
                continue
            if ntrick == 0 and egn3 and dp >= L and ncl <= 6 and _equal_sizes(hands, n):
                # the same for 3 players by the stacked loop of _eg_value_nw (FL_EGN 2; with 6
                # players measured no faster than the exact minimax behind the probe)
                v = acc + _eg_value_nw(hands, n, leader, trump, endg, ismax, alpha - acc, beta - acc, egs)
                mode = 2
                continue
            # whether an exchange can still move the 7 or 2 of trumps (R7): keys and move pruning
            spec = _exchange_ahead(exch, stk[L - 1] if dp < L else np.int64(-1), notdone, L - dp, trump)
            if ntrick == 0 and use_tt:
                # exact key: cards in hands, their owners, leader, cards left to draw, pinta (+ sides won).
                # Cards left (not the draw pointer): positions of one deal solved under one stamp
                # (analyse_play) start their stock arrays at different cards, but the stock left
                # is always a suffix of the deal's stock, so its length and the pinta fix it.
                # keyed with the leader as seat 0 and the leader's side's points (FL_MIRROR)
                flip = use_mirror and ismax[leader] == 0
                fr[d * F_SIZE + F_FLIP] = 1 if flip else 0
                rot = leader if use_mirror else 0
                for s in range(n):
                    kh[s] = hands[_wrap(rot + s, n)]
                kl = leader - rot
                ksw = _swap_sides(sw) if (rot & 1) != 0 else sw
                u, ob0, ob1 = _owner_planes(kh, n)
                pin = stk[L - 1] if dp < L else 0
                k1 = u | (kl << 48) | (pin << 51) | ((L - dp) << 57)
                pw = np.int64(0)  # (exact keys: no points word)
                if upre >= 0:  # the look-ahead at the trick's last card made this key (FL_ETC4)
                    k1 = ek1[d - 1, upre]
                    k2 = ek2[d - 1, upre]
                    pw = epw[d - 1, upre]
                elif use_canon and dp >= L:
                    k1, k2, pw = _endgame_key_planes_pw(u, ob0, ob1, trump, kl, payoff)
                elif n == 2 and use_rel:
                    # relative ranks (bits 62-63 set: apart from the exact and endgame keys)
                    k2, pw = draw_key2_pw(kh[0], kh[1], notdone, trump, spec, payoff)
                    k1 = _draw_k1(L - dp, pin, kl, kh[0], ksw, exwon)
                elif n <= 4 and use_rel and exwon == 0 and popcount(kh[0]) <= 3 and _equal_sizes(kh, n):
                    k1, k2, pw = draw_key_n_pw(kh[0], kh[1], kh[2], kh[3], n, notdone, trump, spec, L - dp, pin, kl,
                                               payoff)
                elif n == 2:
                    k2 = kh[0]
                else:
                    k2 = np.int64(0)
                    sh = 0
                    bits = 3 if n > 4 else 2
                    x = u
                    while x != 0:
                        c = lowest(x)
                        b = np.int64(1) << c
                        o = 0
                        while (kh[o] & b) == 0:
                            o += 1
                        k2 |= np.int64(o) << sh
                        sh += bits
                        x &= x - 1
                if exwon != 0 and dp < L and (k1 >> 62) != -1:
                    # sides won (R7 won-trick) while an exchange can still happen; not with the relative-rank
                    # key (-1: already in k1), nor once the stock is empty: no exchange is left, and the
                    # endgame key holds card codes up to bit 63 (9 or more cards in hand)
                    k2 |= ksw << 58
                idx = _tt_bucket(k1, k2, tmask)
                # the same position's entry, and the bounds of every entry of its structure (FL_PAYOFF)
                slot, elb, eub, found = _tt_probe_pw(tt_k1, tt_k2, tt_d, idx, k1, k2, pw, stamp, rem)
                eg3 = egn4 and dp >= L and ncl == 12 and _equal_sizes(hands, n)
                lb = 0
                ub = rem
                if found:
                    lb, ub = _turned(elb, eub, rem, flip)
                    if slot >= 0:
                        ttmove = ((tt_d[slot] >> 16) & 255) - 1
                    if acc + lb >= beta or lb == ub:
                        v = acc + lb
                        mode = 2
                        continue
                    if acc + ub <= alpha:
                        v = acc + ub
                        mode = 2
                        continue
                    if acc + lb > alpha:
                        alpha = acc + lb
                    if acc + ub < beta:
                        beta = acc + ub
                    if not use_ttmove:
                        ttmove = -1
                if slot < 0:
                    slot = _tt_victim_pw(tt_d, idx, stamp, payoff)
                    tt_k1[slot] = k1
                    tt_k2[slot] = k2
                    tt_d[slot + 1] = pw
                    if use_egn and dp >= L and ncl <= 2 * n and _equal_sizes(hands, n):
                        # stock empty, at most 2 tricks left (R9): the exact value by plain minimax
                        # instead of a search of the subtree, stored as an exact entry (FL_EGN)
                        ve = _eg_value_nw(hands, n, leader, trump, endg, ismax, np.int64(-1), np.int64(1000), egs)
                        vs = _turned(ve, ve, rem, flip)[0]
                        tt_d[slot] = _tt_data(vs, vs, -1, ncl, stamp)
                        v = acc + ve
                        mode = 2
                        continue
                    if not eg3:  # (else stored below)
                        tt_d[slot] = _tt_data(elb, eub, -1, ncl, stamp)
                if eg3:
                    # stock empty, 3 tricks left (R9), on a table miss or a hit whose bounds do not decide
                    # the node: the first trick's lines searched in this node's window by the unrolled
                    # loops, their 2-trick children by _eg_value4; the fail-soft result stored as bounds
                    # (FL_EGN 2)
                    if ecn == 0:
                        rv = _eg_three4(hands[0], hands[1], hands[2], hands[3], leader, trump, endg, mxb,
                                        alpha - acc, beta - acc)
                    else:
                        if ec.shape[0] != ecn:
                            ec = np.zeros(ecn, dtype=np.int64)
                        rv = _eg_three4_cached(hands[0], hands[1], hands[2], hands[3], leader, trump, endg, mxb,
                                               alpha - acc, beta - acc, _ec_ref(ec))
                    v = acc + rv
                    lb2, ub2 = _searched_bounds(v, alpha, beta, rv, lb, ub)
                    lb2, ub2 = _turned(lb2, ub2, rem, flip)
                    tt_d[slot] = _tt_data(lb2, ub2, -1, ncl, stamp)
                    mode = 2
                    continue
                if ncl <= exact_ncl and lb < ub:
                    # small subtree: search it with a full window so the TT holds its exact value,
                    # reusable whatever the path's points (acc) and the probe's target
                    alpha = acc + lb - 1
                    beta = acc + ub + 1
                fr[d * F_SIZE + F_SLOT] = slot
                fr[d * F_SIZE + F_REM] = rem
                fr[d * F_SIZE + F_K1] = k1
                fr[d * F_SIZE + F_K2] = k2
                fr[d * F_SIZE + F_PW] = pw
                fr[d * F_SIZE + F_LB] = lb
                fr[d * F_SIZE + F_UB] = ub
            fr[d * F_SIZE + F_ALPHA] = alpha
            fr[d * F_SIZE + F_BETA] = beta
            fr[d * F_SIZE + F_A0] = alpha
            fr[d * F_SIZE + F_B0] = beta
            fr[d * F_SIZE + F_ACC] = acc
            ismx = ismax[seat]
            fr[d * F_SIZE + F_MAX] = ismx
            # ---- move generation (R5, R9, R7)
            hand = hands[seat]
            stock_empty = dp >= L
            wcard = -1
            wseat = -1
            tp = 0
            if ntrick > 0:
                wi = trick_winner_at(trick, 0, ntrick, trump)
                wcard = trick[wi]
                wseat = _wrap(leader + wi, n)
                for i in range(ntrick):
                    tp += card_points(trick[i])
            lm = hand
            if ntrick > 0 and stock_empty and endg != 0:
                lm = legal_follow(hand, suit_of(trick[0]), wcard, trump, endg)  # R9
            pin = stk[L - 1] if dp < L else -1
            ex = exchange_card(hand, pin, L - dp, exch, ((sw >> side_of[seat]) & 1) != 0, exwon)
            cand = lm
            if use_equiv:
                if n == 2:
                    win = trick[0] if ntrick > 0 else np.int64(-1)
                    live = notdone & ~(np.int64(1) << win) if (use_seq and ntrick > 0) else notdone
                    cand = _seq_dominance(lm, live, win, False, trump, spec, hands[1 - seat], endg, stock_empty,
                                          pin, use_seq)
                elif use_seq and ntrick == n - 1:  # the last card of the trick: its winner is known
                    cand = _seq_dominance(lm, notdone, wcard, ismax[wseat] == ismx, trump, spec, 0, endg,
                                          stock_empty, pin, True)
                elif use_seq:
                    later = np.int64(0)
                    for k in range(1, n - ntrick):
                        later |= hands[_wrap(seat + k, n)]
                    if spec and pin >= 0:
                        later |= np.int64(1) << pin  # a later seat may take the pinta first (R7)
                    cand = _seq_dominance_mid(lm, notdone, wcard, ntrick > 0 and ismax[wseat] == ismx, trump, spec,
                                              later)
                else:
                    cand = _seq_dominance(lm, notdone, np.int64(-2), False, trump, spec, 0, endg, stock_empty,
                                          pin, False)
            nm = 0
            # score the candidates
            oh = np.int64(0)
            if ntrick == 0 and use_order and lead_mode >= 1:
                for s in range(n):
                    if ismax[s] != ismx:
                        oh |= hands[s]
            edge = 0
            if tuned and ntrick > 0 and dp < L:  # (used by the follow scores only)
                edge = _draw_edge_n(stk, dp, n, trump)
            x = cand
            while x != 0:
                c = lowest(x)
                x &= x - 1
                p = card_points(c)
                istr = suit_of(c) == trump
                sc = 0
                if use_order and tuned and (ntrick == 0 or ismax[wseat] != ismx):
                    if ntrick == 0:
                        sc = _lead_score(c, hand, oh, trump, L - dp)
                    else:
                        sc = _follow_score(c, wcard, tp, hand, trump, L - dp, edge, n)
                elif use_order:
                    if ntrick == 0:
                        sc = 500 - p * 4 - (40 if istr else 0) - strength_of(c)
                        if lead_mode >= 1:
                            # a lead no opponent can beat with its hand wins the trick now (R5)
                            beat = _beaten_by(c, oh, trump)
                            if beat == 0:
                                sc = 600 + p * 4 - (40 if istr else 0)
                            elif lead_mode == 2:
                                # the opponent's cheapest way to beat it: a trump costs more than a card of the suit
                                mc = 1000
                                y = beat
                                while y != 0:
                                    bc = lowest(y)
                                    y &= y - 1
                                    cost = (30 if suit_of(bc) == trump and not istr else 0) + strength_of(bc)
                                    if cost < mc:
                                        mc = cost
                                sc += mc
                    elif ismax[wseat] == ismx:
                        sc = _partner_score(c, trump, 4 if n == 3 else 5, ntrick < n - 1)
                    elif beats(c, wcard, trump):
                        if tp + p == 0 and istr:
                            sc = 150 - strength_of(c)
                        elif follow_mode == 1 and not istr:
                            sc = 400 + tp + p - strength_of(c)
                        elif follow_mode == 1:
                            sc = 370 + tp - strength_of(c) - p
                        else:
                            sc = 400 + tp - (30 if istr else 0) - strength_of(c) - p
                    else:
                        sc = 300 - p * 8 - strength_of(c)
                if use_hist == 1:
                    sc = sc * 1024 + min(hist[(ismx * 8 + ntrick) * 64 + c], 1023)
                elif use_hist == 2:
                    sc = hist[(ismx * 8 + ntrick) * 64 + c] * 1024 + sc
                if use_killer and c == killer[d]:
                    sc += 5000
                if c == ttmove:
                    sc = 1 << 50
                mv[d, nm] = c
                scores[nm] = sc
                nm += 1
            fr[d * F_SIZE + F_ETCD] = 0
            if etc4 and ntrick == n - 1 and L - dp >= etc4min and L - dp > n:
                # enhanced transposition cutoff (FL_ETC4): every card's next trick start, its key
                # computed as the child would (rotated to its leader with FL_MIRROR; the child reuses
                # it) and its bucket prefetched; then the table's bounds, the first that decides
                # this node cuts it. Only while the child still has cards to draw: its key is then
                # draw_key_n's (an emptied stock is keyed by the canonical endgame key)
                cut = False
                dec = np.int64(0)  # the cards whose next position's table bounds decide them
                tmk0 = np.int64(0)  # the trick's cards before this seat's
                for j in range(ntrick):
                    tmk0 |= np.int64(1) << trick[j]
                for i in range(nm):
                    c = mv[d, i]
                    ws = seat if beats(c, wcard, trump) else wseat  # R5: the trick's winner
                    tmk = tmk0 | (np.int64(1) << c)
                    nnd = notdone & ~tmk
                    rot = ws if use_mirror else 0
                    for j in range(n):  # R6: the winner draws first, then in playing order
                        q = _wrap(ws + j, n)
                        kh[j if use_mirror else q] = (hands[q] & ~tmk) | (np.int64(1) << stk[dp + j])
                    k1, k2, npw = draw_key_n_pw(kh[0], kh[1], kh[2], kh[3], n, nnd, trump,
                                                _exchange_ahead(exch, pin, nnd, L - dp - n, trump), L - dp - n, pin,
                                                ws - rot, payoff)
                    epw[d, c] = npw
                    idx = _tt_bucket(k1, k2, tmask)
                    ek1[d, c] = k1
                    ek2[d, c] = k2
                    eix[d, c] = idx
                    _prefetch(tt_k1, idx)
                    _prefetch(tt_k1, idx + 8)  # (a bucket's second cache line)
                for i in range(nm):
                    c = mv[d, i]
                    idx = eix[d, c]
                    tpts = tp + card_points(c)
                    _sl, clo, chi, cfound = _tt_probe_pw(tt_k1, tt_k2, tt_d, idx, ek1[d, c], ek2[d, c], epw[d, c],
                                                         stamp, rem - tpts)
                    if cfound:
                        ws = seat if beats(c, wcard, trump) else wseat
                        gain = tpts if ismax[ws] != 0 else 0
                        # the entry holds the next leader's side's points (FL_MIRROR)
                        lo, hi = _turned(clo, chi, rem - tpts, use_mirror and ismax[ws] == 0)
                        lo += acc + gain
                        hi += acc + gain
                        kind, kv = _lookahead_verdict(lo, hi, alpha, beta, ismx)
                        if kind == 1:
                            v = kv
                            cut = True
                        elif kind == 2:
                            dec |= np.int64(1) << c
                            ev[d, c] = kv
                    if cut:
                        break
                if cut:
                    mode = 2
                    continue
                fr[d * F_SIZE + F_ETCD] = 1 | (dec << 1)
            if ex >= 0:
                mv[d, nm] = SWAP
                if ttmove == SWAP:
                    scores[nm] = 1 << 50
                else:
                    scores[nm] = (1 << 45) if swap_first else 350 * (1024 if use_hist == 1 else 1)
                nm += 1
            _sort_moves(mv, scores, d, nm)
            _open_node(fr, d, nm, ismx)
            mode = 1
            continue
        if mode == 1:
            i = fr[d * F_SIZE + F_I]
            if i >= fr[d * F_SIZE + F_NM]:
                # node finished: store, return
                v = fr[d * F_SIZE + F_BEST]
                slot = fr[d * F_SIZE + F_SLOT]
                if slot >= 0 and tt_k1[slot] == fr[d * F_SIZE + F_K1] and tt_k2[slot] == fr[d * F_SIZE + F_K2]:
                    tt_d[slot] = _node_data(fr, d, v, ncl, stamp)
                    tt_d[slot + 1] = fr[d * F_SIZE + F_PW]
                mode = 2
                continue
            fr[d * F_SIZE + F_I] = i + 1
            m = mv[d, i]
            fr[d * F_SIZE + F_MOVE] = m
            if m != SWAP and ((fr[d * F_SIZE + F_ETCD] >> (m + 1)) & 1) != 0:
                # the look-ahead found this card's next position decided by its table bounds: the value
                # it would return at once, without entering it (FL_ETC4; such a value never cuts: the
                # look-ahead cut on those that do)
                _fold_child(fr, d, ev[d, m], m)
                skipped += 1
                continue
            seat = _wrap(leader + ntrick, n)
            if m == SWAP:
                # R7: the 7 or the 2 of trumps becomes the pinta, still last in the stock
                e = exchange_card(hands[seat], stk[L - 1], L - dp, exch, ((sw >> side_of[seat]) & 1) != 0, exwon)
                old = stk[L - 1]
                fr[d * F_SIZE + F_UPINTA] = old
                hands[seat] = (hands[seat] & ~(np.int64(1) << e)) | (np.int64(1) << old)
                stk[L - 1] = e
            else:
                hands[seat] &= ~(np.int64(1) << m)
                trick[ntrick] = m
                ntrick += 1
                if ntrick == n:
                    wi = trick_winner_at(trick, 0, n, trump)
                    ws = _wrap(leader + wi, n)
                    tpts = 0
                    tm = np.int64(0)
                    for j in range(n):
                        tpts += card_points(trick[j])
                        tm |= np.int64(1) << trick[j]
                        fr[d * F_SIZE + F_TC + j] = trick[j]
                    fr[d * F_SIZE + F_ULEADER] = leader
                    fr[d * F_SIZE + F_UDP] = dp
                    fr[d * F_SIZE + F_USW] = sw
                    fr[d * F_SIZE + F_UTP] = tpts
                    gain = tpts if ismax[ws] != 0 else 0
                    fr[d * F_SIZE + F_UPTS] = gain
                    acc += gain
                    rem -= tpts
                    ncl -= n
                    sw |= np.int64(1) << side_of[ws]
                    notdone &= ~tm
                    if dp < L:  # R6: winner first, then in playing order; the pinta last
                        for j in range(n):
                            hands[_wrap(ws + j, n)] |= np.int64(1) << stk[dp]
                            dp += 1
                    leader = ws
                    ntrick = 0
                    fr[d * F_SIZE + F_UDONE] = 1
                    if fr[d * F_SIZE + F_ETCD] != 0 and notdone != 0:
                        pre = m
                else:
                    fr[d * F_SIZE + F_UDONE] = 0
            d += 1
            fr[d * F_SIZE + F_ALPHA] = fr[(d - 1) * F_SIZE + F_ALPHA]
            fr[d * F_SIZE + F_BETA] = fr[(d - 1) * F_SIZE + F_BETA]
            mode = 0
            continue
        # mode == 2: return v
        if d == 0:
            break
        d -= 1
        m = fr[d * F_SIZE + F_MOVE]
        if m == SWAP:
            seat = _wrap(leader + ntrick, n)
            e = stk[L - 1]
            old = fr[d * F_SIZE + F_UPINTA]
            hands[seat] = (hands[seat] & ~(np.int64(1) << old)) | (np.int64(1) << e)
            stk[L - 1] = old
        else:
            if fr[d * F_SIZE + F_UDONE] != 0:
                ws = leader
                odp = fr[d * F_SIZE + F_UDP]
                if odp < L:
                    for j in range(n):
                        hands[_wrap(ws + j, n)] &= ~(np.int64(1) << stk[odp + j])
                dp = odp
                leader = fr[d * F_SIZE + F_ULEADER]
                sw = fr[d * F_SIZE + F_USW]
                acc -= fr[d * F_SIZE + F_UPTS]
                rem += fr[d * F_SIZE + F_UTP]
                ncl += n
                ntrick = n
                for j in range(n):
                    trick[j] = fr[d * F_SIZE + F_TC + j]
                    notdone |= np.int64(1) << trick[j]
            ntrick -= 1
            seat = _wrap(leader + ntrick, n)
            hands[seat] |= np.int64(1) << m
        # update node d with child value v
        if fr[d * F_SIZE + F_MAX] != 0:
            if v > fr[d * F_SIZE + F_BEST]:
                fr[d * F_SIZE + F_BEST] = v
                fr[d * F_SIZE + F_BMOVE] = m
                if v > fr[d * F_SIZE + F_ALPHA]:
                    fr[d * F_SIZE + F_ALPHA] = v
            if fr[d * F_SIZE + F_ALPHA] >= fr[d * F_SIZE + F_BETA]:
                fr[d * F_SIZE + F_I] = fr[d * F_SIZE + F_NM]
                killer[d] = m
                if use_hist != 0 and m != SWAP:
                    hist[(8 + ntrick) * 64 + m] += ncl * ncl
        else:
            if v < fr[d * F_SIZE + F_BEST]:
                fr[d * F_SIZE + F_BEST] = v
                fr[d * F_SIZE + F_BMOVE] = m
                if v < fr[d * F_SIZE + F_BETA]:
                    fr[d * F_SIZE + F_BETA] = v
            if fr[d * F_SIZE + F_ALPHA] >= fr[d * F_SIZE + F_BETA]:
                fr[d * F_SIZE + F_I] = fr[d * F_SIZE + F_NM]
                killer[d] = m
                if use_hist != 0 and m != SWAP:
                    hist[ntrick * 64 + m] += ncl * ncl
        mode = 1
    cnt[0] += nodes
    cnt[4] += skipped
    return v


# ======================================================================
# Two-player kernel: the same search with the state in registers
# ======================================================================

@njit(cache=True, inline="always")
def _draw_card(stock0, i, L, pin):
    """Card at stock index ``i`` (the pinta slot ``L - 1`` holds ``pin`` after an exchange, R7)."""
    return pin if i == L - 1 else np.int64(stock0[_u(i)])


def _key_tables():
    """Tables of :func:`_suit_code`: the rank classes (:data:`_POINT_CLASS`, R2) of the live cards
    of a half suit, weakest first, 5 bits a card (``_KEY_CLO`` strength indices 0-5, ``_KEY_CHI``
    6-11; 64 entries each, by the half suit's 6-bit mask); and ``_KEY_OWN[a * 64 + x]``: the bits of
    ``x`` at the cards of the 6-bit mask ``a``, weakest first, 5 bits apart (4,096 entries)."""
    period = _POINT_CLASS[:12]
    if not all((_POINT_CLASS[s * 12:s * 12 + 12] == period).all() for s in range(len(_POINT_CLASS) // 12)):
        raise ImportError("solver.search: a card's point class is not the same in every suit")
    lo = np.zeros(64, dtype=np.int64)
    hi = np.zeros(64, dtype=np.int64)
    own = np.zeros(64 * 64, dtype=np.int64)
    for a in range(64):
        # the j-th card of the half suit (weakest first) has strength r and takes bits 5j..5j+4
        for j, r in enumerate(r for r in range(6) if (a >> r) & 1):
            lo[a] |= int(period[r]) << (5 * j)
            hi[a] |= int(period[r + 6]) << (5 * j)
            own[a * 64:(a + 1) * 64] |= ((np.arange(64) >> r) & 1) << (5 * j)
    return lo, hi, own


_KEY_CLO, _KEY_CHI, _KEY_OWN = _key_tables()


def _key_point_tables():
    """Tables of :func:`_suit_code_pw`: the points (R2) of the live cards of a half suit, weakest
    first, 4 bits a card (``_KEY_PLO`` strength indices 0-5, ``_KEY_PHI`` 6-11; by the 6-bit mask)."""
    period = CARD_POINTS[:12]
    lo = np.zeros(64, dtype=np.int64)
    hi = np.zeros(64, dtype=np.int64)
    for a in range(64):
        for j, r in enumerate(r for r in range(6) if (a >> r) & 1):
            lo[a] |= int(period[r]) << (4 * j)
            hi[a] |= int(period[r + 6]) << (4 * j)
    return lo, hi


_KEY_PLO, _KEY_PHI = _key_point_tables()


@njit(cache=True, inline="always")
def _suit_code(u, ob0, ob1, su):
    """One suit of the endgame key: ``(count, code)`` of the live cards ``u`` of suit ``su``,
    strongest first, 5 bits a card: its owner seat (bit 0 from ``ob0``, bit 1 from ``ob1``) and
    its rank class (``_POINT_CLASS``: 0 for no points, else 1-5 by points, R2); the weakest card in
    the low 5 bits.

    From the two half suits by table (:func:`_key_tables`), without a loop over the cards: the
    loop's exit, after 0-12 cards, mispredicted (4p-6left 1.7% faster, results/README.md)."""
    sh = np.int64(12 * su)
    a = _u((u >> sh) & 63)
    b = _u((u >> (sh + 6)) & 63)
    na = popcount(a)
    fs = np.int64(5) * na
    x0 = _u((ob0 >> sh) & 63)
    y0 = _u((ob0 >> (sh + 6)) & 63)
    x1 = _u((ob1 >> sh) & 63)
    y1 = _u((ob1 >> (sh + 6)) & 63)
    cls = _KEY_CLO[a] | (_KEY_CHI[b] << fs)
    o0 = _KEY_OWN[a * _u(64) + x0] | (_KEY_OWN[b * _u(64) + y0] << fs)
    o1 = _KEY_OWN[a * _u(64) + x1] | (_KEY_OWN[b * _u(64) + y1] << fs)
    return na + popcount(b), cls | (o0 << np.int64(3)) | (o1 << np.int64(4))


@njit(cache=True, inline="always")
def _suit_code_pw(u, ob0, ob1, su, payoff):
    """:func:`_suit_code` without the rank classes when ``payoff`` (``FL_PAYOFF``: the suit's play
    structure, its live cards' owners strongest first), and the live cards' points, 4 bits a card
    in the same order (0 without ``payoff``)."""
    cnt, code = _suit_code(u, ob0, ob1, su)
    sh = np.int64(12 * su)
    a = _u((u >> sh) & 63)
    b = _u((u >> (sh + 6)) & 63)
    na = popcount(a)
    cls = _KEY_CLO[a] | (_KEY_CHI[b] << (np.int64(5) * na))
    pts = _KEY_PLO[a] | (_KEY_PHI[b] << (np.int64(4) * na))
    on = -np.int64(payoff != 0)
    return cnt, code & ~(cls & on), pts & on


@njit(cache=True, inline="always")
def _sort_word(ck):
    """Suit ``(count, code)`` of :func:`_suit_code` as one uint64 whose order is the endgame key's
    order of suits, by count, then code: the count above bit 60, the code (5 bits a card, at most
    12 cards) below."""
    return (np.uint64(ck[0]) << np.uint64(60)) | np.uint64(ck[1])


@njit(cache=True, inline="always")
def _unsort_word(x):
    """``(count, code)`` of a :func:`_sort_word`."""
    return np.int64(x >> np.uint64(60)), np.int64(x & np.uint64((1 << 60) - 1))


@njit(cache=True)
def _endgame_key_planes(u, ob0, ob1, trump, leader):
    """:func:`endgame_key` from the live cards ``u`` and two owner bit planes (a card's seat is
    ``bit(ob0) + 2 bit(ob1)``; seats 0-3), all in registers: trump suit first, then the other
    three suits sorted by (count, code); the leader at bit 56 and bit 63 of ``k1`` set.

    Scalars only: the kernels call it at every trick boundary of an endgame, and an array
    argument costs an atomic reference-count pair a call (``NRT_incref``/``NRT_decref``, see the
    module notes); reading the hands from an array in :func:`ab2` (two stores per call) had made
    it 45% slower (80 -> 119 ms median on 20 full deals, same nodes). The suits' codes come from
    tables (:func:`_suit_code`) and the sort is a min/max network, neither branching on the cards:
    full 4-player deals 3.4% faster than a loop over each suit's cards and a compare-and-swap sort,
    the same keys (results/README.md)."""
    ct, kt = _suit_code(u, ob0, ob1, trump)
    sa = 0 if trump != 0 else 1
    sb = 1 if trump >= 2 else 2
    sc = 3 if trump != 3 else 2
    # the other three suits sorted by (count, code) as one unsigned number each (a code of at most
    # 12 cards has 60 bits): a network of min/max, no branch
    xa = _sort_word(_suit_code(u, ob0, ob1, sa))
    xb = _sort_word(_suit_code(u, ob0, ob1, sb))
    xc = _sort_word(_suit_code(u, ob0, ob1, sc))
    xa, xb = min(xa, xb), max(xa, xb)
    xb, xc = min(xb, xc), max(xb, xc)
    xa, xb = min(xa, xb), max(xa, xb)
    ca, ka = _unsort_word(xa)
    cb, kb = _unsort_word(xb)
    cc, kc = _unsort_word(xc)
    k1 = np.int64(0)
    k2 = np.int64(0)
    pos = 0
    k1, k2, pos = _push(k1, k2, pos, ct, 4)
    k1, k2, pos = _push(k1, k2, pos, kt, 5 * ct)
    k1, k2, pos = _push(k1, k2, pos, ca, 4)
    k1, k2, pos = _push(k1, k2, pos, ka, 5 * ca)
    k1, k2, pos = _push(k1, k2, pos, cb, 4)
    k1, k2, pos = _push(k1, k2, pos, kb, 5 * cb)
    k1, k2, pos = _push(k1, k2, pos, cc, 4)
    k1, k2, pos = _push(k1, k2, pos, kc, 5 * cc)
    k1 |= np.int64(leader) << np.int64(56)
    k1 |= np.int64(1) << np.int64(63)
    return k1, k2


@njit(cache=True)
def _endgame_key_planes_pw(u, ob0, ob1, trump, leader, payoff):
    """:func:`_endgame_key_planes` and a points word (``FL_PAYOFF``): with ``payoff`` the key leaves
    out the rank classes (the suits sorted by count and owners alone) and the points word holds the
    live cards' points, 4 bits a card, suit by suit in the key's order (of two suits with the same
    code either order: swapping two non-trump suits of the same structure is a symmetry of the
    rules, R5, R9); without it, :func:`_endgame_key_planes`'s key and 0."""
    if payoff == 0:
        k1, k2 = _endgame_key_planes(u, ob0, ob1, trump, leader)
        return k1, k2, np.int64(0)
    ct, kt, pt = _suit_code_pw(u, ob0, ob1, trump, payoff)
    sa = 0 if trump != 0 else 1
    sb = 1 if trump >= 2 else 2
    sc = 3 if trump != 3 else 2
    ca, ka, pa = _suit_code_pw(u, ob0, ob1, sa, payoff)
    cb, kb, pb = _suit_code_pw(u, ob0, ob1, sb, payoff)
    cc, kc, pc = _suit_code_pw(u, ob0, ob1, sc, payoff)
    xa = _sort_word((ca, ka))
    xb = _sort_word((cb, kb))
    xc = _sort_word((cc, kc))
    if xb < xa:
        xa, xb = xb, xa
        pa, pb = pb, pa
    if xc < xb:
        xb, xc = xc, xb
        pb, pc = pc, pb
    if xb < xa:
        xa, xb = xb, xa
        pa, pb = pb, pa
    ca, ka = _unsort_word(xa)
    cb, kb = _unsort_word(xb)
    cc, kc = _unsort_word(xc)
    k1 = np.int64(0)
    k2 = np.int64(0)
    pos = 0
    k1, k2, pos = _push(k1, k2, pos, ct, 4)
    k1, k2, pos = _push(k1, k2, pos, kt, 5 * ct)
    k1, k2, pos = _push(k1, k2, pos, ca, 4)
    k1, k2, pos = _push(k1, k2, pos, ka, 5 * ca)
    k1, k2, pos = _push(k1, k2, pos, cb, 4)
    k1, k2, pos = _push(k1, k2, pos, kb, 5 * cb)
    k1, k2, pos = _push(k1, k2, pos, cc, 4)
    k1, k2, pos = _push(k1, k2, pos, kc, 5 * cc)
    k1 |= np.int64(leader) << np.int64(56)
    k1 |= np.int64(1) << np.int64(63)
    pw = (((((pt << (np.int64(4) * ca)) | pa) << (np.int64(4) * cb)) | pb) << (np.int64(4) * cc)) | pc
    return k1, k2, pw


@njit(cache=True, inline="always")
def _endgame_key2(h0, h1, trump, leader):
    """:func:`endgame_key` of two hands held in registers (seat 1's cards are the owner plane)."""
    return _endgame_key_planes(h0 | h1, h1, np.int64(0), trump, leader)


@njit(cache=True, inline="always")
def _eg_trick(a, b, leader, trump, m0, m1):
    """A two-player trick, lead ``a`` by ``leader``, reply ``b`` (R5): ``(winner seat, card points
    it gives the maximizing side)``."""
    w = (1 - leader) if beats(b, a, trump) else leader
    return w, (card_points(a) + card_points(b) if (m1 if w == 1 else m0) != 0 else 0)


@njit(cache=True, inline="always")
def _eg_last(a, b, leader, trump, m0, m1):
    """Future points of the maximizing side from the last trick: the leader's card ``a``, the
    follower's ``b`` (R5)."""
    return _eg_trick(a, b, leader, trump, m0, m1)[1]


@njit(cache=True, inline="always")
def _eg_line(a, b, a2, b2, pab, ptot, trump, ml, mf):
    """Points of the maximizing side from a two-trick line (R5): the leader's ``a`` and the
    follower's reply ``b``, then the last cards ``a2`` and ``b2``, the first trick's winner leading
    (R6). ``pab``: card points of ``a`` and ``b``; ``ptot``: of all four; ``ml``/``mf``: whether
    the leader/follower maximizes (booleans). Branch-free."""
    f1 = beats(b, a, trump)  # the follower wins the first trick and leads the last
    f2 = (f1 & ~beats(a2, b2, trump)) | (~f1 & beats(b2, a2, trump))
    w1 = (f1 & mf) | (~f1 & ml)
    w2 = (f2 & mf) | (~f2 & ml)
    return (pab & -np.int64(w1)) + ((ptot - pab) & -np.int64(w2))


@njit(cache=True, inline="always")
def _pick(x, y, is_max):
    """The larger of ``x`` and ``y`` when ``is_max``, else the smaller (selects, no branch)."""
    hi = x if x > y else y
    lo = x if x < y else y
    return hi if is_max else lo


@njit(cache=True)
def _eg_two(h0, h1, leader, trump, endg, m0, m1):
    """Exact future points of the maximizing side with two cards in each hand, stock empty (R5, R9).

    The four lines (lead, reply) are valued without branches, :func:`_eg_line`; a reply the
    follower may not make (R9, :func:`sim.rules.legal_follow`) is replaced by the legal one. Full
    2-player deals 2.4-2.7% faster than a loop over the lines (results/README.md)."""
    lead1 = leader == 1
    hl = h1 if lead1 else h0
    hf = h0 if lead1 else h1
    ml = (m1 if lead1 else m0) != 0
    mf = (m0 if lead1 else m1) != 0
    a0 = lowest(hl)
    a1 = highest(hl)
    b0 = lowest(hf)
    b1 = highest(hf)
    pa0 = card_points(a0)
    pa1 = card_points(a1)
    pb0 = card_points(b0)
    pb1 = card_points(b1)
    pt = pa0 + pa1 + pb0 + pb1
    v00 = _eg_line(a0, b0, a1, b1, pa0 + pb0, pt, trump, ml, mf)
    v01 = _eg_line(a0, b1, a1, b0, pa0 + pb1, pt, trump, ml, mf)
    v10 = _eg_line(a1, b0, a0, b1, pa1 + pb0, pt, trump, ml, mf)
    v11 = _eg_line(a1, b1, a0, b0, pa1 + pb1, pt, trump, ml, mf)
    # an illegal reply takes the legal one's value (at least one reply is legal)
    y0 = legal_follow(hf, suit_of(a0), a0, trump, endg)
    y1 = legal_follow(hf, suit_of(a1), a1, trump, endg)
    ok00 = ((y0 >> b0) & 1) != 0
    ok01 = ((y0 >> b1) & 1) != 0
    ok10 = ((y1 >> b0) & 1) != 0
    ok11 = ((y1 >> b1) & 1) != 0
    v00 = v00 if ok00 else v01
    v01 = v01 if ok01 else v00
    v10 = v10 if ok10 else v11
    v11 = v11 if ok11 else v10
    return _pick(_pick(v00, v01, mf), _pick(v10, v11, mf), ml)


@njit(cache=True)
def _eg_three(h0, h1, leader, trump, endg, m0, m1):
    """Exact future points of the maximizing side with three cards in each hand, stock empty (R5, R9):
    :func:`_eg_three_w` from a full window (alpha-beta over at most 36 lines, cheaper than
    searching them with table probes)."""
    return _eg_three_w(h0, h1, leader, trump, endg, m0, m1, np.int64(-1), np.int64(1000))


@njit(cache=True)
def _eg_three_w(h0, h1, leader, trump, endg, m0, m1, alpha, beta):
    """:func:`_eg_three` by fail-soft alpha-beta in the window ``(alpha, beta)`` (the 2-trick
    children exact by :func:`_eg_two`): future points of the maximizing side, three cards in
    each hand, stock empty (R5, R9). Exact inside the window, else a bound on the side it fails."""
    hl = h1 if leader == 1 else h0
    hf = h0 if leader == 1 else h1
    ml = (m1 if leader == 1 else m0) != 0
    mf = (m0 if leader == 1 else m1) != 0
    best = -1 if ml else 1000
    al = alpha
    be = beta
    x = hl
    while x != 0:
        a = lowest(x)
        x &= x - 1
        bf = -1 if mf else 1000
        al2 = al
        be2 = be
        y = legal_follow(hf, suit_of(a), a, trump, endg)
        while y != 0:
            b = lowest(y)
            y &= y - 1
            w, v = _eg_trick(a, b, leader, trump, m0, m1)
            nl = hl & ~(np.int64(1) << a)
            nf = hf & ~(np.int64(1) << b)
            v += _eg_two(nf, nl, w, trump, endg, m0, m1) if leader == 1 else _eg_two(nl, nf, w, trump, endg, m0, m1)
            bf, al2, be2 = _fold(bf, al2, be2, v, mf)
            if al2 >= be2:
                break
        best, al, be = _fold(best, al, be, bf, ml)
        if al >= be:
            break
    return best


@njit(cache=True, inline="always")
def _tt_find(tt_k1, tt_k2, tt_d, idx, k1, k2, stamp):
    """Slot (word offset) of key ``(k1, k2)`` of this generation in the bucket of :data:`TT_WAYS`
    entries at word offset ``idx``, or -1 (the first such entry). Every entry compared, the slot chosen
    without branches (which one hits mispredicts; two entries: 0.7-1.6% faster on full 2-player
    deals, 0.8% on 4-player ones, results/README.md)."""
    r = np.int64(-1)
    for j in range(TT_WAYS - 1, -1, -1):
        sj = idx + (j << TT_SHIFT)
        hit = (tt_k1[_u(sj)] == k1) & (tt_k2[_u(sj)] == k2) & ((tt_d[_u(sj)] >> 32) == stamp)
        r = sj if hit else r
    return r


@njit(cache=True, inline="always")
def _tt_victim(tt_d, idx, stamp):
    """Slot of the bucket at ``idx`` to overwrite: the first stale entry, else the shallowest one
    (fewest cards left; the first on a tie). Without branches, as :func:`_tt_find`."""
    return _tt_victim_pw(tt_d, idx, stamp, 0)


@njit(cache=True, inline="always")
def _similar_bounds(dd, ps, pw, lb, ub):
    """``(lb, ub)`` narrowed by the entry of data word ``dd`` and points word ``ps`` under the node's
    structure key: its bounds as they are when ``ps == pw`` (the same position), else moved by the
    point changes (:func:`_point_changes`): payoff similarity (Furtak and Buro, IJCAI 2011). Sound
    because the two positions' game trees are the same but for the cards' points: every line's
    points differ by at most the points lost or gained card by card (R2)."""
    elb = dd & 255
    eub = (dd >> 8) & 255
    if ps != pw:
        down, up = _point_changes(pw, ps)
        elb -= down
        eub += up
    return max(lb, elb), min(ub, eub)


@njit(cache=True, inline="always")
def _tt_probe_pw(tt_k1, tt_k2, tt_d, idx, k1, k2, pw, stamp, rem):
    """Look-up of a trick boundary of key ``(k1, k2)`` and points word ``pw`` (``FL_PAYOFF``) in the
    bucket of :data:`TT_WAYS` entries at word offset ``idx``.

    Returns
    -------
    (int64, int64, int64, bool)
        The slot of the same position (same key and points word) or -1; bounds ``(lb, ub)`` on the
        future points of the entries' side (``0 <= lb <= ub <= rem``, card points) from every entry
        of this generation with the same key (the same position, or one whose cards differ only in
        points, :func:`_similar_bounds`); whether there was one. With exact keys (points words 0)
        the same as :func:`_tt_find` and :func:`_entry_bounds` unturned.
    """
    lb = np.int64(0)
    ub = np.int64(rem)
    ex = np.int64(-1)
    found = False
    for j in range(TT_WAYS - 1, -1, -1):  # (the first entry of the same position wins, as _tt_find)
        sj = idx + (j << TT_SHIFT)
        if (tt_k1[_u(sj)] == k1) & (tt_k2[_u(sj)] == k2) & ((tt_d[_u(sj)] >> 32) == stamp):
            found = True
            ps = tt_d[_u(sj + 1)]
            ex = sj if ps == pw else ex
            lb, ub = _similar_bounds(tt_d[_u(sj)], ps, pw, lb, ub)
    return ex, max(lb, 0), min(ub, rem), found


@njit(cache=True, inline="always")
def _tt_victim_pw(tt_d, idx, stamp, payoff):
    """:func:`_tt_victim`, and with ``payoff`` (``FL_PAYOFF``) of entries as deep the one with the
    widest bounds: the variants of one structure share a bucket at the same depth, and the narrower
    bounds (an exact entry first) are the ones worth keeping (two entries a bucket: full 2-player
    deals 4% fewer nodes and 4% less time, interleaved; 4-player positions 1% fewer nodes,
    results/README.md). Without branches: each entry's rank (a stale one below every live one, the
    first stale lowest; a live one by cards left, then by narrower bounds), the lowest taken, the
    first on a tie."""
    best = idx
    bn = np.int64(1) << 40
    for j in range(TT_WAYS):
        sj = idx + (j << TT_SHIFT)
        dj = tt_d[_u(sj)]
        wide = (((dj >> 8) & 255) - (dj & 255)) if payoff != 0 else np.int64(0)
        rank = np.int64(j - TT_WAYS) if (dj >> 32) != stamp else ((dj >> 24) & 255) * 512 - wide
        lower = rank < bn
        best = sj if lower else best
        bn = rank if lower else bn
    return best


@njit(cache=True, inline="always")
def _tt_data(lb, ub, move, ncl, stamp):
    """Data word of an entry: the lower and upper bounds on future card points (bits 0-7 and 8-15, 0-120;
    the maximizing side's, or the leader's side's under ``FL_MIRROR``: :func:`_node_data`), best move
    + 1 (bits 16-23; 0: none), cards left (bits 24-31), generation stamp (bit 32 on)."""
    return lb | (ub << 8) | ((move + 1) << 16) | (np.int64(ncl) << 24) | (stamp << 32)


@njit(cache=True, inline="always")
def _searched_bounds(v, a, b, rv, lb, ub):
    """A node's bounds ``(lb, ub)`` narrowed by its fail-soft result ``v`` in the window ``(a, b)``
    (``rv``: ``v`` as future points of the node)."""
    if v <= a:
        if rv < ub:
            ub = rv
    elif v >= b:
        if rv > lb:
            lb = rv
    else:
        lb = rv
        ub = rv
    if lb > ub:
        lb = ub
    return lb, ub


@njit(cache=True, inline="always")
def _open_node(fr, d, nm, ismx):
    """Frame ``d`` ready to search its ``nm`` ordered moves (best value so far: none)."""
    fr[_fx(d, F_NM)] = nm
    fr[_fx(d, F_I)] = 0
    fr[_fx(d, F_BEST)] = -1 if ismx else 1000
    fr[_fx(d, F_BMOVE)] = -1


@njit(cache=True, inline="always")
def _fold_child(fr, d, v, m):
    """Frame ``d`` after its move ``m`` returned the fail-soft value ``v`` (card points): the best value
    and move, the window narrowed, the remaining moves dropped on a cutoff."""
    if fr[_fx(d, F_MAX)] != 0:
        if v > fr[_fx(d, F_BEST)]:
            fr[_fx(d, F_BEST)] = v
            fr[_fx(d, F_BMOVE)] = m
            if v > fr[_fx(d, F_ALPHA)]:
                fr[_fx(d, F_ALPHA)] = v
    else:
        if v < fr[_fx(d, F_BEST)]:
            fr[_fx(d, F_BEST)] = v
            fr[_fx(d, F_BMOVE)] = m
            if v < fr[_fx(d, F_BETA)]:
                fr[_fx(d, F_BETA)] = v
    if fr[_fx(d, F_ALPHA)] >= fr[_fx(d, F_BETA)]:
        fr[_fx(d, F_I)] = fr[_fx(d, F_NM)]


@njit(cache=True, inline="always")
def _lookahead_verdict(lo, hi, alpha, beta, ismx):
    """What a reply's next-position table bounds ``[lo, hi]`` (card points of the maximizing side,
    the trick's points included) say at a node with window ``(alpha, beta)`` whose side to move
    maximizes when ``ismx``: ``(1, v)`` the reply cuts the node with fail-soft value ``v`` (enhanced
    transposition cutoff); ``(2, v)`` the reply is decided without a cutoff, by a bound on the side of
    the window that makes it no use to the side to move or by an exact value, and ``v`` is the value
    its child would return at once (a valid fail-soft bound; such a value never cuts, and stays
    decided as the window narrows); ``(0, 0)`` the reply must be searched."""
    if ismx != 0:
        if lo >= beta:
            return 1, lo
        if hi <= alpha or lo == hi:
            return 2, hi
    else:
        if hi <= alpha:
            return 1, hi
        if lo >= beta or lo == hi:
            return 2, lo
    return 0, 0


@njit(cache=True, inline="always")
def _turned(lb, ub, rem, flip):
    """Bounds ``(lb, ub)`` on one side's future card points as the other side's when ``flip``
    (``rem`` points left: the two sides share them, R2); else unchanged. Entries under
    ``FL_MIRROR`` hold the leader's side's points."""
    if flip:
        return rem - ub, rem - lb
    return lb, ub


@njit(cache=True, inline="always")
def _entry_bounds(dd, rem, flip):
    """The bounds ``(lb, ub)`` on future card points an entry's data word ``dd`` holds (the inverse of
    :func:`_tt_data`'s first two fields), turned to the other side's when ``flip`` (:func:`_turned`,
    ``rem`` points left at the entry's position)."""
    return _turned(dd & 255, (dd >> 8) & 255, rem, flip)


@njit(cache=True, inline="always")
def _swap_sides(sw):
    """The won-trick bits of two sides (R7 ``won-trick``) with the sides exchanged."""
    return ((sw & 1) << 1) | ((sw >> 1) & 1)


@njit(cache=True, inline="always")
def _node_data(fr, d, v, ncl, stamp):
    """The table data word of the searched node ``d``'s result ``v``: bounds on future points of the
    maximizing side, or of the leader's side when the frame's field ``F_FLIP`` says the leader's side
    is the minimizing one (``FL_MIRROR``; points left in ``F_REM``). The kernels store it in the
    node's slot (``F_SLOT``) if it has one and still owns it; they index the table themselves (a helper
    taking the table arrays cost four atomic reference-count pairs a node, ``NRT_incref``/``NRT_decref``)."""
    lb, ub = _searched_bounds(v, fr[_fx(d, F_A0)], fr[_fx(d, F_B0)], v - fr[_fx(d, F_ACC)],
                              fr[_fx(d, F_LB)], fr[_fx(d, F_UB)])
    lb, ub = _turned(lb, ub, fr[_fx(d, F_REM)], fr[_fx(d, F_FLIP)] != 0)
    return _tt_data(lb, ub, fr[_fx(d, F_BMOVE)], ncl, stamp)


@njit(cache=True, inline="always")
def _key2(h0, h1, leader, sw, exwon, dp, L, pin, live, trump, spec, mirror):
    """:func:`ab2`'s table key of a trick boundary. With ``mirror`` (``FL_MIRROR``) the same for a
    position and its mirror image (the seats' hands and their won-trick bits swapped, R7): written
    with the leader as seat 0; ``spec``: :func:`_exchange_ahead` of the position. Bit for bit
    :func:`abn`'s key of the position."""
    if mirror != 0 and leader == 1:
        hl = h1
        hf = h0
        swl = _swap_sides(sw)
    else:
        hl = h0
        hf = h1
        swl = sw
    kl = 0 if mirror != 0 else leader
    if dp >= L:
        # (no won-trick bits: once the stock is empty no exchange can happen, R7)
        k1, k2 = _endgame_key2(hl, hf, trump, kl)
    else:
        k2 = draw_key2(hl, hf, live, trump, spec)
        k1 = _draw_k1(L - dp, pin, kl, hl, swl, exwon)
    return k1, k2


@njit(cache=True, inline="always")
def _key2_pw(h0, h1, leader, sw, exwon, dp, L, pin, live, trump, spec, mirror, payoff):
    """:func:`_key2` and the points word of :func:`draw_key2_pw` (once the stock is empty, of
    :func:`_endgame_key_planes_pw`). With ``payoff`` 0, :func:`_key2`'s key and 0."""
    if mirror != 0 and leader == 1:
        hl = h1
        hf = h0
        swl = _swap_sides(sw)
    else:
        hl = h0
        hf = h1
        swl = sw
    kl = 0 if mirror != 0 else leader
    if dp >= L:
        k1, k2, pw = _endgame_key_planes_pw(hl | hf, hf, np.int64(0), trump, kl, payoff)
    else:
        k2, pw = draw_key2_pw(hl, hf, live, trump, spec, payoff)
        k1 = _draw_k1(L - dp, pin, kl, hl, swl, exwon)
    return k1, k2, pw


@njit(cache=True, inline="always")
def _sort_moves(mv, scores, d, nm):
    """Insertion sort of the ``nm`` moves ``mv[d, :nm]`` by ``scores``, best first (stable)."""
    for i in range(1, nm):
        sc = scores[_u(i)]
        m = mv[_u(d), _u(i)]
        j = i - 1
        while j >= 0 and scores[_u(j)] < sc:
            scores[_u(j + 1)] = scores[_u(j)]
            mv[_u(d), _u(j + 1)] = mv[_u(d), _u(j)]
            j -= 1
        scores[_u(j + 1)] = sc
        mv[_u(d), _u(j + 1)] = m


@njit(cache=True, inline="always")
def _last_trick_n(hands, n, first, trump, ismax, gone):
    """Card points the maximizing side takes in a forced last trick: every seat plays the one card
    of its hand not in ``gone`` (bitmask), seat ``first`` leading (R5)."""
    pts = 0
    bc = np.int64(-1)
    w = first
    for i in range(n):
        s = _wrap(first + i, n)
        c = lowest(hands[s] & ~gone)
        pts += card_points(c)
        if i == 0 or beats(c, bc, trump):
            bc = c
            w = s
    return pts if ismax[w] != 0 else 0


@njit(cache=True, inline="always")
def _strength(c, ls, trump):
    """Order of card ``c`` in a trick led in suit ``ls``: trumps above the suit led above the rest,
    by rank inside a suit (R2, R5); the trick's highest card wins it."""
    s = suit_of(c)
    return c + (200 if s == trump else (100 if s == ls else 0))


@njit(cache=True, inline="always")
def _hand4(h0, h1, h2, h3, s):
    """Hand of seat ``s`` (0-3) of four held in registers."""
    return h0 if s == 0 else (h1 if s == 1 else (h2 if s == 2 else h3))


@njit(cache=True, inline="always")
def _fold(best, al, be, v, ismx):
    """Fail-soft alpha-beta step: ``(best, alpha, beta)`` of a node after a child value ``v``."""
    if ismx:
        if v > best:
            best = v
            if v > al:
                al = v
    elif v < best:
        best = v
        if v < be:
            be = v
    return best, al, be


@njit(cache=True)
def _last_trick4(h0, h1, h2, h3, leader, trump, endg, mx, alpha, beta):
    """Card points the maximizing side takes in the forced last trick of 4 players, one card in
    each hand, ``leader`` leading (R5): the trick's strongest card wins it, by suit led and trumps
    whatever order the others play in. Exact (the window is not used)."""
    c0 = lowest(h0)
    c1 = lowest(h1)
    c2 = lowest(h2)
    c3 = lowest(h3)
    ls = suit_of(lowest(_hand4(h0, h1, h2, h3, leader)))
    s0 = _strength(c0, ls, trump)
    s1 = _strength(c1, ls, trump)
    s2 = _strength(c2, ls, trump)
    s3 = _strength(c3, ls, trump)
    wa = 0 if s0 > s1 else 1
    sa = s0 if s0 > s1 else s1
    wb = 2 if s2 > s3 else 3
    sb = s2 if s2 > s3 else s3
    w = wa if sa > sb else wb
    return card_points(c0) + card_points(c1) + card_points(c2) + card_points(c3) if ((mx >> w) & 1) != 0 else 0


@njit(cache=True, inline="always")
def _first_trick4(h0, h1, h2, h3, leader, trump, endg, mx, alpha, beta, rest, aux):
    """Fail-soft alpha-beta in the window ``(alpha, beta)`` over the lines of the next trick of 4
    players, stock empty (R5, R9), the 4 seats' loops unrolled: each line's trick points plus
    ``rest(h0', h1', h2', h3', winner, trump, endg, mx, a, b, aux)``, the value of the hands left
    with the trick's winner leading, searched in the line's window (``aux``: handed to ``rest``
    unchanged, the endgame table of :func:`_eg_value4_cached` or an unused 0). Future points of the
    maximizing side. A line whose trick points alone decide its window is not searched further:
    the rest lies between 0 and the points left after the trick (R2), so that bound stands for it.
    The window must not be empty (``alpha < beta``, as every caller's is: an
    empty window's result is neither a bound nor the value)."""
    s0 = leader
    s1 = (leader + 1) & 3
    s2 = (leader + 2) & 3
    s3 = (leader + 3) & 3
    a0 = _hand4(h0, h1, h2, h3, s0)
    a1 = _hand4(h0, h1, h2, h3, s1)
    a2 = _hand4(h0, h1, h2, h3, s2)
    a3 = _hand4(h0, h1, h2, h3, s3)
    x0 = ((mx >> s0) & 1) != 0
    x1 = ((mx >> s1) & 1) != 0
    x2 = ((mx >> s2) & 1) != 0
    x3 = ((mx >> s3) & 1) != 0
    rem = _points_of(h0 | h1 | h2 | h3)
    best0 = -1 if x0 else 1000
    al0 = alpha
    be0 = beta
    y0 = a0
    while y0 != 0:
        c0 = lowest(y0)
        y0 &= y0 - 1
        ls = suit_of(c0)
        best1 = -1 if x1 else 1000
        al1 = al0
        be1 = be0
        y1 = legal_follow(a1, ls, c0, trump, endg)
        while y1 != 0:
            c1 = lowest(y1)
            y1 &= y1 - 1
            w1 = c1 if beats(c1, c0, trump) else c0
            best2 = -1 if x2 else 1000
            al2 = al1
            be2 = be1
            y2 = legal_follow(a2, ls, w1, trump, endg)
            while y2 != 0:
                c2 = lowest(y2)
                y2 &= y2 - 1
                w2 = c2 if beats(c2, w1, trump) else w1
                best3 = -1 if x3 else 1000
                al3 = al2
                be3 = be2
                y3 = legal_follow(a3, ls, w2, trump, endg)
                while y3 != 0:
                    c3 = lowest(y3)
                    y3 &= y3 - 1
                    w3 = c3 if beats(c3, w2, trump) else w2
                    ws = s3 if w3 == c3 else (s2 if w3 == c2 else (s1 if w3 == c1 else s0))
                    tm = (np.int64(1) << c0) | (np.int64(1) << c1) | (np.int64(1) << c2) | (np.int64(1) << c3)
                    tp = card_points(c0) + card_points(c1) + card_points(c2) + card_points(c3)
                    v = tp if ((mx >> ws) & 1) != 0 else 0
                    left = rem - tp
                    # the rest's value lies in [0, left]: a line outside the window needs no search
                    if v + left <= al3:
                        v += left
                    elif v < be3:
                        v += rest(h0 & ~tm, h1 & ~tm, h2 & ~tm, h3 & ~tm, ws, trump, endg, mx, al3 - v, be3 - v, aux)
                    best3, al3, be3 = _fold(best3, al3, be3, v, x3)
                    if al3 >= be3:
                        break
                best2, al2, be2 = _fold(best2, al2, be2, best3, x2)
                if al2 >= be2:
                    break
            best1, al1, be1 = _fold(best1, al1, be1, best2, x1)
            if al1 >= be1:
                break
        best0, al0, be0 = _fold(best0, al0, be0, best1, x0)
        if al0 >= be0:
            break
    return best0


@njit(cache=True)
def _eg_value4(h0, h1, h2, h3, leader, trump, endg, mx, alpha, beta):
    """:func:`_eg_value_nw` for 4 players by unrolled loops (:func:`_first_trick4`), fail-soft in the
    window ``(alpha, beta)`` (exact from a full window, ``(-1, 1000)``): future points of the
    maximizing side with one or two cards in each hand, stock empty (R5, R9). The 4-player kernels
    take the hands as four int64 bitmasks and the maximizing seats as one, ``mx`` (bit s set when
    seat s maximizes), not as arrays: an array argument costs a reference-count pair a call."""
    if (h0 & (h0 - 1)) == 0:  # one card each
        return _last_trick4(h0, h1, h2, h3, leader, trump, endg, mx, alpha, beta)
    return _first_trick4(h0, h1, h2, h3, leader, trump, endg, mx, alpha, beta, _last_trick4_aux, 0)


@njit(cache=True, inline="always")
def _last_trick4_aux(h0, h1, h2, h3, leader, trump, endg, mx, alpha, beta, aux):
    """:func:`_last_trick4` with :func:`_first_trick4`'s ``rest`` parameters (``aux`` unused)."""
    return _last_trick4(h0, h1, h2, h3, leader, trump, endg, mx, alpha, beta)


#: golden-ratio multiplier of the endgame table's index (Fibonacci hashing)
_GOLD = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def _ec_ref(ec):
    """The reference :func:`_eg_value4_cached` and :func:`_eg_three4_cached` take for the endgame
    table ``ec`` (``ndarray(int64, (2 * m,))``, ``m`` a power of two): ``(address, index shift)``,
    scalars: :func:`_addr`, and the product shift of the table's index, 63 minus log2 of ``m``.
    The caller keeps ``ec`` alive while it is used."""
    return _addr(ec), np.int64(63) - popcount((ec.shape[0] >> 1) - 1)


@njit(cache=True, inline="always")
def _eg_value4_cached(h0, h1, h2, h3, leader, trump, endg, mx, alpha, beta, ec):
    """:func:`_eg_value4` for two cards in each hand through a direct-mapped table of bounds.

    ``ec`` is :func:`_ec_ref` of an ``ndarray(int64, (2 * m,))`` (``m`` a power of two; zeros when
    new): its address and index shift. Passed as scalars, it costs
    :func:`_eg_three4_cached`'s calls no reference-count pair (the array did: 3.5% of full 4-player
    deals' time, results/README.md); the caller keeps the array alive. The table holds
    ``m`` entries of two words: the key, each hand's two card ids (6 bits each; R1's 48 card
    ids fit) and the leader, exact for two cards a hand; then the lower and upper bounds on the
    value (card points, 8 bits each). A hit whose bounds decide the window ``(alpha, beta)`` answers
    without a search; else the position is searched in the window and the entry (always replaced)
    takes the bounds the fail-soft result proves. The entries hold future points of the
    maximizing side, so a table serves one kernel call (one trump, endgame rule and ``mx``).
    On full 4-player deals half or more of these calls repeat a position the same search met
    before, mostly soon after; a 2**12-entry table holds 38-46% of them (results/README.md).
    """
    key = (lowest(h0) | (highest(h0) << 6) | (lowest(h1) << 12) | (highest(h1) << 18)
           | (lowest(h2) << 24) | (highest(h2) << 30) | (lowest(h3) << 36) | (highest(h3) << 42)
           | (np.int64(leader) << 48))
    # the product's top log2(m) bits (they depend on every bit of the key; two shifts: no shift by 64
    # for m = 1)
    ecp, esh = ec
    idx = 2 * np.int64(((np.uint64(key) * _GOLD) >> np.uint64(esh)) >> np.uint64(1))
    lb = np.int64(0)
    ub = np.int64(255)
    if _peek(ecp, idx) == key:
        w = _peek(ecp, idx + 1)
        lb = w & 255
        ub = w >> 8
        if lb >= beta or lb == ub:
            return lb
        if ub <= alpha:
            return ub
    v = _eg_value4(h0, h1, h2, h3, leader, trump, endg, mx, alpha, beta)
    lb, ub = _searched_bounds(v, alpha, beta, v, lb, ub)
    _poke(ecp, idx, key)
    _poke(ecp, idx + 1, lb | (ub << 8))
    return v


@njit(cache=True, inline="always")
def _eg_value4_aux(h0, h1, h2, h3, leader, trump, endg, mx, alpha, beta, aux):
    """:func:`_eg_value4` with :func:`_first_trick4`'s ``rest`` parameters (``aux`` unused)."""
    return _eg_value4(h0, h1, h2, h3, leader, trump, endg, mx, alpha, beta)


@njit(cache=True)
def _eg_three4(h0, h1, h2, h3, leader, trump, endg, mx, alpha, beta):
    """Fail-soft alpha-beta in the window ``(alpha, beta)`` over the first trick of a 4-player
    endgame with three cards in each hand, stock empty (R5, R9); every 2-trick child by
    :func:`_eg_value4` in its line's window. Future points of the maximizing side."""
    return _first_trick4(h0, h1, h2, h3, leader, trump, endg, mx, alpha, beta, _eg_value4_aux, 0)


@njit(cache=True)
def _eg_three4_cached(h0, h1, h2, h3, leader, trump, endg, mx, alpha, beta, ec):
    """:func:`_eg_three4` with its 2-trick children looked up in, and stored to, the table ``ec``
    of :func:`_eg_value4_cached` (``FL_EGC4``; ``ec``: the table's address and index shift, scalars,
    so a call costs no reference-count pair)."""
    return _first_trick4(h0, h1, h2, h3, leader, trump, endg, mx, alpha, beta, _eg_value4_cached, ec)


@njit(cache=True)
def _eg_value_nw(hands, n, leader, trump, endg, ismax, alpha, beta, sc):
    """Future points of the maximizing side with one or two cards in each of the ``n`` hands, stock
    empty (R5, R9): alpha-beta over the first trick's lines (at most ``2**n``; an explicit stack of
    plies, the card winning the trick tracked per ply), the last trick forced (:func:`_last_trick_n`);
    fail-soft in the window ``(alpha, beta)``, exact from a full window ``(-1, 1000)``. The window
    must not be empty (``alpha < beta``, as every caller's is). ``sc``: int64 scratch ``(7, >= n)``.
    :func:`_eg_value4` is the same for 4 seats, the loops unrolled."""
    if (hands[leader] & (hands[leader] - 1)) == 0:  # one card each
        return _last_trick_n(hands, n, leader, trump, ismax, np.int64(0))
    trick = sc[0]
    lms = sc[1]
    best = sc[2]
    al = sc[3]
    be = sc[4]
    wc = sc[5]   # card winning the trick after ply p
    wi = sc[6]   # its ply
    p = 0
    lms[0] = hands[leader]
    best[0] = -1 if ismax[leader] != 0 else 1000
    al[0] = alpha
    be[0] = beta
    while True:
        if lms[p] == 0:
            v = best[p]
            if p == 0:
                return v
            p -= 1
        else:
            c = lowest(lms[p])
            lms[p] &= lms[p] - 1
            trick[p] = c
            if p == 0:
                wc[0] = c
                wi[0] = 0
            elif beats(c, wc[p - 1], trump):
                wc[p] = c
                wi[p] = p
            else:
                wc[p] = wc[p - 1]
                wi[p] = wi[p - 1]
            if p < n - 1:
                p += 1
                seat = _wrap(leader + p, n)
                lms[p] = legal_follow(hands[seat], suit_of(trick[0]), wc[p - 1], trump, endg)
                best[p] = -1 if ismax[seat] != 0 else 1000
                al[p] = al[p - 1]
                be[p] = be[p - 1]
                continue
            # the first trick is complete (R5); its winner leads the forced last trick
            w = _wrap(leader + wi[p], n)
            pts = 0
            gone = np.int64(0)
            for i in range(n):
                pts += card_points(trick[i])
                gone |= np.int64(1) << trick[i]
            v = (pts if ismax[w] != 0 else 0) + _last_trick_n(hands, n, w, trump, ismax, gone)
        # fold the child's value v into ply p (fail-soft)
        if ismax[_wrap(leader + p, n)] != 0:
            if v > best[p]:
                best[p] = v
                if v > al[p]:
                    al[p] = v
        elif v < best[p]:
            best[p] = v
            if v < be[p]:
                be[p] = v
        if al[p] >= be[p]:
            lms[p] = 0


@njit(cache=True, inline="always")
def _eg_value(h0, h1, leader, trump, endg, m0, m1, ncl):
    """Exact future points of the maximizing side, stock empty, ``ncl`` (2, 4 or 6) cards in the
    two hands (R5, R9)."""
    if ncl == 6:
        return _eg_three(h0, h1, leader, trump, endg, m0, m1)
    if ncl == 4:
        return _eg_two(h0, h1, leader, trump, endg, m0, m1)
    return _eg_last(lowest(h1 if leader == 1 else h0), lowest(h0 if leader == 1 else h1), leader, trump, m0, m1)


@njit(cache=True, inline="always")
def _tt_mask(tt_k1):
    """Entries of the table view ``tt_k1`` (:func:`new_workspace`'s layout, ``2**TT_SHIFT`` words an
    entry) less one: the index mask of :func:`_tt_bucket`."""
    return (tt_k1.shape[0] >> TT_SHIFT) - 1


@njit(cache=True, inline="always")
def _tt_bucket(k1, k2, tmask):
    """Word offset (4 words an entry, :func:`new_workspace`) of the :data:`TT_WAYS`-entry bucket of key ``(k1, k2)``
    in a table of ``tmask + 1`` entries; every bit of both words reaches the index (a plain product
    left the high bits out)."""
    h = k1 * np.int64(-7046029254386353131) ^ k2
    h ^= (h >> 32) & np.int64(0xFFFFFFFF)
    h *= np.int64(-4658895280553007687)
    h ^= (h >> 29) & np.int64(0x7FFFFFFFF)
    h *= np.int64(-7723592293110705685)
    h ^= (h >> 32) & np.int64(0xFFFFFFFF)
    return (h & tmask & ~np.int64(TT_WAYS - 1)) << np.int64(TT_SHIFT)


@njit(cache=True, inline="always")
def _draw_k1(left, pin, leader, h0, sw, exwon):
    """Other word of the 2-player relative-rank key (:func:`draw_key2`): cards left to draw, pinta,
    leader, seat 0's hand size, sides that won a trick (only under R7 won-trick); bits 62-63 set,
    apart from the exact and endgame keys."""
    k1 = left | (pin << 6) | (leader << 12) | (popcount(h0) << 16)
    if exwon != 0:
        k1 |= sw << 20
    return k1 | (np.int64(3) << np.int64(62))


@njit(cache=True, inline="always")
def uses_ab2(st, flags):
    """Whether :func:`ab` hands the search to :func:`ab2`: two players and the default techniques.

    Parameters
    ----------
    st : ndarray(int64, shape=(ST_SIZE,))
        The root state (``ST_PLAYERS`` read).
    flags : ndarray(int64, shape=(FL_SIZE,))
        Technique switches ``FL_*``.

    Returns
    -------
    bool
        True for 2 players with ``FL_TWO``, ``FL_TT``, ``FL_ORDER``, ``FL_EQUIV``, ``FL_QUICK``, ``FL_TTMOVE``,
        ``FL_SURE``, ``FL_CANON`` and ``FL_RELKEY`` on, ``FL_LEAD`` and ``FL_FOLLOW`` 1, ``FL_HIST``,
        ``FL_KILLER`` and ``FL_EXACT`` 0.
    """
    return (st[ST_PLAYERS] == 2 and flags[FL_TWO] != 0 and flags[FL_TT] != 0 and flags[FL_ORDER] != 0
            and flags[FL_EQUIV] != 0 and flags[FL_QUICK] != 0 and flags[FL_TTMOVE] != 0 and flags[FL_SURE] != 0
            and flags[FL_CANON] != 0 and flags[FL_RELKEY] != 0 and flags[FL_LEAD] == 1 and flags[FL_FOLLOW] == 1
            and flags[FL_HIST] == 0 and flags[FL_KILLER] == 0 and flags[FL_EXACT] == 0)


@njit(cache=True, nogil=True)
def ab2_probe(st, stock0, ismax, alpha0, beta0, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags):
    """:func:`ab2` with :func:`ab`'s parameters (the flags array); the caller ensures
    :func:`uses_ab2`. Same result as :func:`ab`.

    The search uses the first ``2**flags[FL_TT2]`` entries of the table (all of a smaller table, and
    all with ``FL_TT2`` 0): 2**17 entries (4 MB) solve full 2-player deals 5-7% faster than 2**20
    (32 MB), with 0.7-0.9% more nodes (results/README.md).

    Parameters
    ----------
    st, stock0, ismax, alpha0, beta0, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags
        As :func:`ab` (``st``: ndarray(int64, shape=(ST_SIZE,)), the root state; ``flags``:
        ndarray(int64, shape=(FL_SIZE,)), the technique switches).

    Returns
    -------
    int
        Fail-soft value in card points of the maximizing side (0-120), as :func:`ab`.
    """
    n = tt_k1.shape[0]
    k = np.int64(flags[FL_TT2])  # (an integer shift whatever the flags' dtype)
    if 1 < k < 62 - TT_SHIFT and (np.int64(1) << (k + TT_SHIFT)) < n:
        n = np.int64(1) << (k + TT_SHIFT)  # FL_TT2: the first 2**k entries
    return ab2(st, stock0, ismax, alpha0, beta0, tt_k1[:n], tt_k2[:n], tt_d[:n], fr, mv, cnt, flags[FL_ETC],
               flags[FL_ETCMIN], flags[FL_EG], flags[FL_SEQ], flags[FL_MIRROR], flags[FL_SWAP], flags[FL_TUNED], flags[FL_PAYOFF])


@njit(cache=True, nogil=True)
def ab2(st, stock0, ismax, alpha0, beta0, tt_k1, tt_k2, tt_d, fr, mv, cnt, etc=0, etcmin=0, eg=0, seq=0, mirror=0,
        swapfirst=0, tuned=0, payoff=0):
    """:func:`ab` for two players with the default techniques, the state in registers.

    With ``etc = eg = 0`` (``seq``, ``mirror``, ``swapfirst``, ``tuned`` and ``payoff`` as ``flags[FL_SEQ]``,
    ``flags[FL_MIRROR]``, ``flags[FL_SWAP]``, ``flags[FL_TUNED]`` and ``flags[FL_PAYOFF]``)
    the same search as :func:`abn` with ``flags[FL_EGN]`` 0, node for node (same move order, bounds, keys
    and table entries; tests/test_solver.py, payoff similarity on and off), with the
    hands, the led card and the pinta held in local variables instead of arrays (Numba reloads
    array elements after every store to another array), the seat loops unrolled and the endgame
    key built without allocation. Same parameters and result (fail-soft value, card points of the
    maximizing side) as :func:`ab`, with eight of the flags instead of the array (below; the table
    already cut to ``flags[FL_TT2]`` by :func:`ab2_probe`).

    Parameters
    ----------
    st, stock0, ismax, alpha0, beta0, tt_k1, tt_k2, tt_d, fr, mv, cnt
        As :func:`ab` (``st[ST_PLAYERS]`` 2; ``ismax`` of shape (>= 2,)).
    etc : int
        ``flags[FL_ETC]``: 1 looks up the next position of every reply at the second card of a
        trick before searching any (enhanced transposition cutoff; the reply searched reuses the
        computed key; a reply those bounds decide without a cutoff, by a bound on the side of the
        window that makes it no use to the side to move or by an exact value, takes that value
        without being entered, where its child would only have returned a bound at once), 2 also
        orders the replies by those bounds (measured: no better), 0 off.
    etcmin : int
        ``flags[FL_ETCMIN]``: the look-up only with at least this many cards left to draw (8 by
        default: nearer the end a look-up costs more than the subtrees it saves).
    eg : int
        ``flags[FL_EG]``: 1 answers a table miss once the stock is empty and at most 3 tricks
        remain by plain minimax (R5, R9), stored as an exact entry; 2 (the default) answers a
        3-trick endgame's trick start without a table probe, by alpha-beta in the node's window
        (:func:`_eg_three_w`; neither probed nor stored), and the rest as 1.
    seq : int
        ``flags[FL_SEQ]``: 1 leaves out the moves sequence dominance proves no better
        (:func:`_seq_dominance`), 0 only the equivalent zero-point cards.
    mirror : int
        ``flags[FL_MIRROR]``: 1 keys a trick boundary with its leader as seat 0 and stores the
        leader's side's points (:func:`_key2`), so a position and its mirror image share an entry.
    swapfirst : int
        ``flags[FL_SWAP]``: 1 tries the trump exchange (R7) first after the table move, 0 after the
        cards that win or are safe.
    tuned : int
        ``flags[FL_TUNED]``: 1 orders cards by the tuned scores (:func:`_lead_score`,
        :func:`_follow_score`), 0 by the hand-set scores before them.
    payoff : int
        ``flags[FL_PAYOFF]``: 1 keys trick boundaries with cards left to draw on their play structure
        and bounds a position by the entries of positions that differ from it only in card points
        (:func:`draw_key2_pw`, :func:`_tt_probe_pw`); 0 exact keys.

    Returns
    -------
    int
        Fail-soft value in card points of the maximizing side (0-120), as :func:`ab`.

    Notes
    -----
    Measured effects: results/README.md ("Speed").
    """
    trump = st[ST_TRUMP]
    exch = st[ST_EXCH]
    exwon = st[ST_EXWON]
    endg = st[ST_ENDGAME]
    L = st[ST_L]
    m0 = ismax[0]
    m1 = ismax[1]
    tsuit = np.int64(0xFFF) << np.int64(12 * trump)
    stamp = cnt[1]
    tmask = _tt_mask(tt_k1)
    scores = np.zeros(MAXM, dtype=np.int64)
    # the look-ahead's keys by depth and card (1 row without it); uninitialized: an entry is read
    # only after the look-ahead at that depth wrote it (the probes, and the child via F_ETCD)
    ne = MAXD if etc != 0 else 1
    ek1 = np.empty((ne, 48), dtype=np.int64)
    ek2 = np.empty((ne, 48), dtype=np.int64)
    eix = np.empty((ne, 48), dtype=np.int64)
    epw = np.empty((ne, 48), dtype=np.int64)
    ev = np.empty((ne, 48), dtype=np.int64)  # a reply's value where its next position's bounds decide it
    edges = _draw_edges(stock0, L, 2, trump)  # the follow scores' draw edge by stock index (R6)
    pre = -1
    h0 = st[ST_HAND]
    h1 = st[ST_HAND + 1]
    ntrick = st[ST_NTRICK]
    led = st[ST_TRICK] if ntrick == 1 else np.int64(-1)
    pin = np.int64(stock0[L - 1]) if L > 0 else np.int64(-1)
    leader = st[ST_LEADER]
    dp = st[ST_DP]
    sw = st[ST_SIDEWON]
    notdone = st[ST_NOTDONE]
    rem = _points_of(notdone)
    ncl = popcount(notdone)
    acc = 0
    nodes = 0
    skipped = 0  # replies the look-ahead decided, valued without entering them (not counted in nodes)
    d = 0
    fr[_u(F_ALPHA)] = alpha0
    fr[_u(F_BETA)] = beta0
    mode = 0
    v = 0
    while True:
        if mode == 0:
            nodes += 1
            upre = pre
            pre = -1
            alpha = fr[_fx(d, F_ALPHA)]
            beta = fr[_fx(d, F_BETA)]
            fr[_fx(d, F_SLOT)] = -1
            if notdone == 0:
                v = acc
                mode = 2
                continue
            if acc >= beta or acc + rem <= alpha:
                v = _quick_bound2(acc, rem, beta, notdone & tsuit, h0, h1, m0, m1)
                mode = 2
                continue
            tl = notdone & tsuit
            if tl != 0:
                # sure points: the top live trumps in one hand always win their tricks (R5)
                c = highest(tl)
                b = np.int64(1) << c
                o = 0 if (h0 & b) != 0 else (1 if (h1 & b) != 0 else -1)
                if o >= 0:
                    v = _sure_cut(acc, rem, alpha, beta, tl, h1 if o == 1 else h0, (m1 if o == 1 else m0) != 0)
                    if v >= 0:
                        mode = 2
                        continue
            seat = leader ^ ntrick
            ttmove = -1
            if eg == 2 and ntrick == 0 and dp >= L and ncl == 6:
                # stock empty, 3 tricks left (R9): alpha-beta in this node's window, no table probe
                v = acc + _eg_three_w(h0, h1, leader, trump, endg, m0, m1, alpha - acc, beta - acc)
                mode = 2
                continue
            # whether an exchange can still move the 7 or 2 of trumps (R7): the key and the move pruning
            spec = _exchange_ahead(exch, pin, notdone, L - dp, trump)
            if ntrick == 0:
                if upre >= 0:
                    k1 = ek1[_u(d - 1), _u(upre)]
                    k2 = ek2[_u(d - 1), _u(upre)]
                    idx = eix[_u(d - 1), _u(upre)]
                    pw = epw[_u(d - 1), _u(upre)]
                else:
                    k1, k2, pw = _key2_pw(h0, h1, leader, sw, exwon, dp, L, pin, notdone, trump, spec, mirror,
                                          payoff)
                    idx = _tt_bucket(k1, k2, tmask)
                # the same position's entry, and the bounds of every entry of its structure (FL_PAYOFF)
                slot, elb, eub, found = _tt_probe_pw(tt_k1, tt_k2, tt_d, idx, k1, k2, pw, stamp, rem)
                # entries hold the leader's side's future points (FL_MIRROR: the same game from either seat, R4-R7)
                flip = mirror != 0 and (m1 if leader == 1 else m0) == 0
                fr[_fx(d, F_FLIP)] = 1 if flip else 0
                lb = 0
                ub = rem
                if found:
                    lb, ub = _turned(elb, eub, rem, flip)
                    if slot >= 0:
                        ttmove = ((tt_d[_u(slot)] >> 16) & 255) - 1
                    if acc + lb >= beta or lb == ub:
                        v = acc + lb
                        mode = 2
                        continue
                    if acc + ub <= alpha:
                        v = acc + ub
                        mode = 2
                        continue
                    if acc + lb > alpha:
                        alpha = acc + lb
                    if acc + ub < beta:
                        beta = acc + ub
                if slot < 0:
                    # (of entries as deep, the one with the widest bounds goes: _tt_victim_pw)
                    slot = _tt_victim_pw(tt_d, idx, stamp, payoff)
                    tt_k1[_u(slot)] = k1
                    tt_k2[_u(slot)] = k2
                    tt_d[_u(slot + 1)] = pw
                    if eg != 0 and dp >= L and ncl <= 6:
                        # stock empty, at most 3 tricks left (R9): the exact value by plain minimax
                        # instead of a search of the subtree, stored as an exact entry (FL_EG)
                        ve = _eg_value(h0, h1, leader, trump, endg, m0, m1, ncl)
                        vs = _turned(ve, ve, rem, flip)[0]
                        tt_d[_u(slot)] = _tt_data(vs, vs, -1, ncl, stamp)
                        v = acc + ve
                        mode = 2
                        continue
                    tt_d[_u(slot)] = _tt_data(elb, eub, -1, ncl, stamp)
                fr[_fx(d, F_SLOT)] = slot
                fr[_fx(d, F_REM)] = rem
                fr[_fx(d, F_K1)] = k1
                fr[_fx(d, F_K2)] = k2
                fr[_fx(d, F_PW)] = pw
                fr[_fx(d, F_LB)] = lb
                fr[_fx(d, F_UB)] = ub
            fr[_fx(d, F_ALPHA)] = alpha
            fr[_fx(d, F_BETA)] = beta
            fr[_fx(d, F_A0)] = alpha
            fr[_fx(d, F_B0)] = beta
            fr[_fx(d, F_ACC)] = acc
            ismx = m1 if seat == 1 else m0
            fr[_fx(d, F_MAX)] = ismx
            # ---- move generation (R5, R9, R7)
            hand = h1 if seat == 1 else h0
            lm = hand
            if ntrick == 1 and endg != 0 and dp >= L:
                lm = legal_follow(hand, suit_of(led), led, trump, endg)
            ex = exchange_card(hand, pin if dp < L else np.int64(-1), L - dp, exch, ((sw >> seat) & 1) != 0, exwon)
            other = h0 if seat == 1 else h1
            live = notdone & ~(np.int64(1) << led) if (seq != 0 and ntrick == 1) else notdone
            cand = _seq_dominance(lm, live, led, False, trump, spec, other, endg, dp >= L,
                                  pin if dp < L else np.int64(-1), seq != 0)
            nm = 0
            mo = m0 if seat == 1 else m1
            oh = other if mo != ismx else np.int64(0)
            tp = card_points(led) if ntrick == 1 else 0
            edge = 0
            if tuned != 0 and ntrick == 1 and dp < L:  # (used by the follow scores only)
                edge = edges[_u(dp)]
            x = cand
            while x != 0:
                c = lowest(x)
                x &= x - 1
                p = card_points(c)
                istr = suit_of(c) == trump
                if tuned != 0 and ntrick == 0:
                    sc = _lead_score(c, hand, oh, trump, L - dp)
                elif tuned != 0 and mo != ismx:
                    sc = _follow_score(c, led, tp, hand, trump, L - dp, edge, 2)
                elif ntrick == 0:
                    beat = _beaten_by(c, oh, trump)
                    if beat == 0:
                        sc = 600 + p * 4 - (40 if istr else 0)
                    else:
                        sc = 500 - p * 4 - (40 if istr else 0) - strength_of(c)
                elif mo == ismx:
                    sc = 300 + p * 4 - (60 if istr else 0) - strength_of(c)
                elif beats(c, led, trump):
                    if tp + p == 0 and istr:
                        sc = 150 - strength_of(c)
                    elif not istr:
                        sc = 400 + tp + p - strength_of(c)
                    else:
                        sc = 370 + tp - strength_of(c) - p
                else:
                    sc = 300 - p * 8 - strength_of(c)
                if c == ttmove:
                    sc = 1 << 50
                mv[_u(d), _u(nm)] = c
                scores[_u(nm)] = sc
                nm += 1
            fr[_fx(d, F_ETCD)] = 0
            if etc != 0 and ntrick == 1 and L - dp >= etcmin:
                # enhanced transposition cutoff: a completed trick whose next position's table
                # bounds already decide this node (ordering: the best bound first)
                cut = False
                dec = np.int64(0)  # the replies whose next position's table bounds decide them
                for i in range(nm):
                    c = mv[_u(d), _u(i)]
                    ws = seat if beats(c, led, trump) else leader
                    nh0 = h0
                    nh1 = h1
                    if seat == 1:
                        nh1 &= ~(np.int64(1) << c)
                    else:
                        nh0 &= ~(np.int64(1) << c)
                    ndp = dp
                    if dp < L:
                        cw = np.int64(1) << _draw_card(stock0, dp, L, pin)
                        cl = np.int64(1) << _draw_card(stock0, dp + 1, L, pin)
                        if ws == 1:
                            nh1 |= cw
                            nh0 |= cl
                        else:
                            nh0 |= cw
                            nh1 |= cl
                        ndp = dp + 2
                    nnd = notdone & ~((np.int64(1) << led) | (np.int64(1) << c))
                    if nnd == 0:
                        eix[_u(d), _u(c)] = -1
                        continue
                    nsw = sw | (np.int64(1) << ws)
                    k1, k2, npw = _key2_pw(nh0, nh1, ws, nsw, exwon, ndp, L, pin, nnd, trump,
                                           _exchange_ahead(exch, pin, nnd, L - ndp, trump), mirror, payoff)
                    epw[_u(d), _u(c)] = npw
                    idx = _tt_bucket(k1, k2, tmask)
                    ek1[_u(d), _u(c)] = k1
                    ek2[_u(d), _u(c)] = k2
                    eix[_u(d), _u(c)] = idx
                    _prefetch(tt_k1, idx)
                    _prefetch(tt_k1, idx + 8)  # (a bucket's second cache line)
                # second pass: the loads were all issued above, their latencies overlap
                for i in range(nm):
                    c = mv[_u(d), _u(i)]
                    idx = eix[_u(d), _u(c)]
                    if idx < 0:
                        continue
                    ws, gain = _eg_trick(led, c, leader, trump, m0, m1)
                    crem = rem - card_points(led) - card_points(c)
                    _sl, clo, chi, cfound = _tt_probe_pw(tt_k1, tt_k2, tt_d, idx, ek1[_u(d), _u(c)],
                                                         ek2[_u(d), _u(c)], epw[_u(d), _u(c)], stamp, crem)
                    if cfound:
                        # the next leader's side's points when that side is the minimizing one
                        lo, hi = _turned(clo, chi, crem, mirror != 0 and (m1 if ws == 1 else m0) == 0)
                        lo += acc + gain
                        hi += acc + gain
                        kind, kv = _lookahead_verdict(lo, hi, alpha, beta, ismx)
                        if kind == 1:
                            v = kv
                            cut = True
                        elif kind == 2:
                            dec |= np.int64(1) << c
                            ev[_u(d), _u(c)] = kv
                        elif etc == 2:
                            scores[_u(i)] += (1 << 40) + ((lo << 20) if ismx != 0 else -(hi << 20))
                    if cut:
                        break
                if cut:
                    mode = 2
                    continue
                fr[_fx(d, F_ETCD)] = 1 | (dec << 1)
            if ex >= 0:
                mv[_u(d), _u(nm)] = SWAP
                scores[_u(nm)] = (1 << 50) if ttmove == SWAP else ((1 << 45) if swapfirst != 0 else 350)
                nm += 1
            _sort_moves(mv, scores, d, nm)
            _open_node(fr, d, nm, ismx)
            mode = 1
            continue
        if mode == 1:
            i = fr[_fx(d, F_I)]
            if i >= fr[_fx(d, F_NM)]:
                v = fr[_fx(d, F_BEST)]
                slot = fr[_fx(d, F_SLOT)]
                if (slot >= 0 and tt_k1[_u(slot)] == fr[_fx(d, F_K1)]
                        and tt_k2[_u(slot)] == fr[_fx(d, F_K2)]):
                    tt_d[_u(slot)] = _node_data(fr, d, v, ncl, stamp)
                    tt_d[_u(slot + 1)] = fr[_fx(d, F_PW)]
                mode = 2
                continue
            fr[_fx(d, F_I)] = i + 1
            m = mv[_u(d), _u(i)]
            fr[_fx(d, F_MOVE)] = m
            if m != SWAP and ((fr[_fx(d, F_ETCD)] >> (m + 1)) & 1) != 0:
                # the look-ahead found this reply's next position decided by its table bounds: the
                # value it would return at once, without entering it (FL_ETC)
                _fold_child(fr, d, ev[_u(d), _u(m)], m)
                skipped += 1
                continue
            seat = leader ^ ntrick
            if m == SWAP:
                # R7: the 7 or the 2 of trumps becomes the pinta, still last in the stock
                hand = h1 if seat == 1 else h0
                e = exchange_card(hand, pin, L - dp, exch, ((sw >> seat) & 1) != 0, exwon)
                fr[_fx(d, F_UPINTA)] = pin
                hand = (hand & ~(np.int64(1) << e)) | (np.int64(1) << pin)
                if seat == 1:
                    h1 = hand
                else:
                    h0 = hand
                pin = e
            elif ntrick == 0:
                if seat == 1:
                    h1 &= ~(np.int64(1) << m)
                else:
                    h0 &= ~(np.int64(1) << m)
                led = m
                ntrick = 1
                fr[_fx(d, F_UDONE)] = 0
            else:
                if seat == 1:
                    h1 &= ~(np.int64(1) << m)
                else:
                    h0 &= ~(np.int64(1) << m)
                ws = seat if beats(m, led, trump) else leader
                tpts = card_points(led) + card_points(m)
                fr[_fx(d, F_TC)] = led
                fr[_fx(d, F_ULEADER)] = leader
                fr[_fx(d, F_UDP)] = dp
                fr[_fx(d, F_USW)] = sw
                fr[_fx(d, F_UTP)] = tpts
                gain = tpts if (m1 if ws == 1 else m0) != 0 else 0
                fr[_fx(d, F_UPTS)] = gain
                acc += gain
                rem -= tpts
                ncl -= 2
                sw |= np.int64(1) << ws
                notdone &= ~((np.int64(1) << led) | (np.int64(1) << m))
                if dp < L:  # R6: the winner draws first; the pinta last
                    cw = np.int64(1) << _draw_card(stock0, dp, L, pin)
                    cl = np.int64(1) << _draw_card(stock0, dp + 1, L, pin)
                    if ws == 1:
                        h1 |= cw
                        h0 |= cl
                    else:
                        h0 |= cw
                        h1 |= cl
                    dp += 2
                leader = ws
                ntrick = 0
                led = -1
                fr[_fx(d, F_UDONE)] = 1
                if fr[_fx(d, F_ETCD)] != 0 and notdone != 0:
                    # the look-ahead above made this position's key and bucket
                    pre = m
            d += 1
            fr[_fx(d, F_ALPHA)] = fr[_fx(d - 1, F_ALPHA)]
            fr[_fx(d, F_BETA)] = fr[_fx(d - 1, F_BETA)]
            mode = 0
            continue
        # mode == 2: return v to the parent
        if d == 0:
            break
        d -= 1
        m = fr[_fx(d, F_MOVE)]
        if m == SWAP:
            seat = leader ^ ntrick
            old = fr[_fx(d, F_UPINTA)]
            hand = h1 if seat == 1 else h0
            hand = (hand & ~(np.int64(1) << old)) | (np.int64(1) << pin)
            if seat == 1:
                h1 = hand
            else:
                h0 = hand
            pin = old
        else:
            if fr[_fx(d, F_UDONE)] != 0:
                ws = leader
                odp = fr[_fx(d, F_UDP)]
                if odp < L:
                    cw = np.int64(1) << _draw_card(stock0, odp, L, pin)
                    cl = np.int64(1) << _draw_card(stock0, odp + 1, L, pin)
                    if ws == 1:
                        h1 &= ~cw
                        h0 &= ~cl
                    else:
                        h0 &= ~cw
                        h1 &= ~cl
                dp = odp
                leader = fr[_fx(d, F_ULEADER)]
                sw = fr[_fx(d, F_USW)]
                acc -= fr[_fx(d, F_UPTS)]
                rem += fr[_fx(d, F_UTP)]
                ncl += 2
                led = fr[_fx(d, F_TC)]
                notdone |= (np.int64(1) << led) | (np.int64(1) << m)
                ntrick = 1
                if leader == 0:
                    h1 |= np.int64(1) << m
                else:
                    h0 |= np.int64(1) << m
            else:
                ntrick = 0
                led = -1
                if leader == 1:
                    h1 |= np.int64(1) << m
                else:
                    h0 |= np.int64(1) << m
        _fold_child(fr, d, v, m)
        mode = 1
    cnt[0] += nodes
    cnt[4] += skipped
    return v


# ======================================================================
# Four-player kernel: the general search with the state in registers
# ======================================================================

@njit(cache=True, inline="always")
def _rot4(a0, a1, a2, a3, r):
    """``(a[r], a[r + 1], a[r + 2], a[r + 3])`` of four values, indices mod 4 (seat rotation)."""
    if r == 0:
        return a0, a1, a2, a3
    if r == 1:
        return a1, a2, a3, a0
    if r == 2:
        return a2, a3, a0, a1
    return a3, a0, a1, a2


@njit(cache=True, inline="always")
def _put4(a0, a1, a2, a3, s, x):
    """The four values with the one of index ``s`` (0-3) replaced by ``x``."""
    if s == 0:
        return x, a1, a2, a3
    if s == 1:
        return a0, x, a2, a3
    if s == 2:
        return a0, a1, x, a3
    return a0, a1, a2, x


@njit(cache=True, inline="always")
def _draws4(stock0, dp, L, pin, ws):
    """The cards four seats draw from stock index ``dp`` after a trick ``ws`` won (R6: the winner
    first, then in playing order; the pinta, ``pin``, last), as bitmasks by seat 0-3."""
    b0 = np.int64(1) << _draw_card(stock0, dp, L, pin)
    b1 = np.int64(1) << _draw_card(stock0, dp + 1, L, pin)
    b2 = np.int64(1) << _draw_card(stock0, dp + 2, L, pin)
    b3 = np.int64(1) << _draw_card(stock0, dp + 3, L, pin)
    return _rot4(b0, b1, b2, b3, (4 - ws) & 3)


@njit(cache=True, nogil=True)
def ab4_probe(st, stock0, ismax, alpha0, beta0, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags):
    """:func:`ab4` with :func:`ab`'s parameters (the flags array); the caller ensures
    :func:`uses_ab4`. Same result as :func:`ab`.

    Parameters
    ----------
    st, stock0, ismax, alpha0, beta0, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags
        As :func:`ab` (``st``: ndarray(int64, shape=(ST_SIZE,)), the root state; ``flags``:
        ndarray(int64, shape=(FL_SIZE,)), the technique switches).

    Returns
    -------
    int
        Fail-soft value in card points of the maximizing side (0-120), as :func:`ab`.
    """
    return ab4(st, stock0, ismax, alpha0, beta0, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags[FL_ETC4], flags[FL_EGC4],
               flags[FL_MIRROR], flags[FL_SWAP], flags[FL_PAYOFF])


@njit(cache=True, inline="always")
def uses_ab4(st, flags):
    """Whether :func:`ab` hands the search to :func:`ab4`: four players in two sides and the default
    techniques.

    Parameters
    ----------
    st : ndarray(int64, shape=(ST_SIZE,))
        The root state (``ST_PLAYERS`` and ``ST_SIDES`` read).
    flags : ndarray(int64, shape=(FL_SIZE,))
        Technique switches ``FL_*``.

    Returns
    -------
    bool
        True for 4 players in 2 sides with ``FL_FOUR``, ``FL_TT``, ``FL_ORDER``, ``FL_EQUIV``, ``FL_QUICK``,
        ``FL_TTMOVE``, ``FL_SURE``, ``FL_CANON``, ``FL_RELKEY``, ``FL_SEQ`` and ``FL_TUNED`` on, ``FL_LEAD`` and
        ``FL_FOLLOW`` 1, ``FL_EGN`` 2 or more, ``FL_HIST``, ``FL_KILLER`` and ``FL_EXACT`` 0.
    """
    return (st[ST_PLAYERS] == 4 and st[ST_SIDES] == 2 and flags[FL_FOUR] != 0 and flags[FL_TT] != 0
            and flags[FL_ORDER] != 0 and flags[FL_EQUIV] != 0 and flags[FL_QUICK] != 0 and flags[FL_TTMOVE] != 0
            and flags[FL_SURE] != 0 and flags[FL_CANON] != 0 and flags[FL_RELKEY] != 0 and flags[FL_LEAD] == 1
            and flags[FL_FOLLOW] == 1 and flags[FL_HIST] == 0 and flags[FL_KILLER] == 0 and flags[FL_EXACT] == 0
            and flags[FL_SEQ] != 0 and flags[FL_TUNED] != 0 and flags[FL_EGN] >= 2)


@njit(cache=True, nogil=True)
def ab4(st, stock0, ismax, alpha0, beta0, tt_k1, tt_k2, tt_d, fr, mv, cnt, etc4min=0, egc4=0, mirror=0,
        swapfirst=0, payoff=0):
    """:func:`abn` for four players in two sides with the default techniques, the state in registers.

    The same search node for node (same move order, bounds, keys and table entries) with the four
    hands, the trick's cards, the pinta and the maximizing seats in local variables instead of arrays
    (as :func:`ab2` for two players), the seat loops unrolled. Same parameters and result
    (fail-soft value, card points of the maximizing side) as :func:`ab`, with five of the flags
    instead of the array: ``etc4min`` (``flags[FL_ETC4]``), ``egc4`` (``flags[FL_EGC4]``),
    ``mirror`` (``flags[FL_MIRROR]``), ``swapfirst`` (``flags[FL_SWAP]``), ``payoff``
    (``flags[FL_PAYOFF]``: payoff similarity, :func:`draw_key_n_pw` and
    :func:`_endgame_key_planes_pw`); the others at the values :func:`uses_ab4` checks.

    Measured against :func:`abn` (interleaved, same nodes): 8-9% less time on full 4-player deals,
    7% with 6 tricks left (results/README.md). Tested node for node against :func:`abn`
    (tests/test_solver.py) with the three decks (R1, R3), the four exchange rules, the seven-two and
    two-any ones under both conditions (R7), and every endgame rule (R9).

    Parameters
    ----------
    st, stock0, ismax, alpha0, beta0, tt_k1, tt_k2, tt_d, fr, mv, cnt
        As :func:`ab` (``st[ST_PLAYERS]`` 4, ``st[ST_SIDES]`` 2; ``ismax`` of shape (>= 4,)).
    etc4min : int
        ``flags[FL_ETC4]``: enhanced transposition cutoffs (the next position of every reply looked up
        before any is searched) at a trick's last card, at nodes with at least this many cards, and more
        than 4, left to draw; off when the root has fewer or ``st[ST_EXWON]`` is 1 (R7's won-trick
        condition); 0 never.
    egc4 : int
        ``flags[FL_EGC4]``: nonzero keeps a table of the 2-trick endgames when more than 16 cards are not
        yet played at the root (``ST_NOTDONE``).
    mirror, swapfirst, payoff : int
        ``flags[FL_MIRROR]``, ``flags[FL_SWAP]``, ``flags[FL_PAYOFF]``, as for :func:`ab2`.

    Returns
    -------
    int
        Fail-soft value in card points of the maximizing side (0-120), as :func:`ab`.
    """
    trump = st[ST_TRUMP]
    exch = st[ST_EXCH]
    exwon = st[ST_EXWON]
    endg = st[ST_ENDGAME]
    L = st[ST_L]
    mxb = np.int64(0)
    for s in range(4):
        if ismax[s] != 0:
            mxb |= np.int64(1) << s
    use_mirror = mirror != 0
    # the 2-trick endgames' table of _eg_three4 (FL_EGC4), as in abn
    ec = np.zeros(0, dtype=np.int64)
    ecn = 2 << 12 if egc4 != 0 and popcount(st[ST_NOTDONE]) > 16 else 0
    etc4 = etc4min > 0 and exwon == 0 and L - st[ST_DP] >= etc4min
    ne = MAXD if etc4 else 1
    ek1 = np.empty((ne, 48), dtype=np.int64)
    ek2 = np.empty((ne, 48), dtype=np.int64)
    eix = np.empty((ne, 48), dtype=np.int64)
    epw = np.empty((ne, 48), dtype=np.int64)
    ev = np.empty((ne, 48), dtype=np.int64)  # a card's value where its next position's bounds decide it
    edges = _draw_edges(stock0, L, 4, trump)  # the follow scores' draw edge by stock index (R6)
    pre = -1
    tsuit = np.int64(0xFFF) << np.int64(12 * trump)
    stamp = cnt[1]
    tmask = _tt_mask(tt_k1)
    h0 = st[ST_HAND]
    h1 = st[ST_HAND + 1]
    h2 = st[ST_HAND + 2]
    h3 = st[ST_HAND + 3]
    ntrick = st[ST_NTRICK]
    t0 = st[ST_TRICK] if ntrick > 0 else np.int64(-1)
    t1 = st[ST_TRICK + 1] if ntrick > 1 else np.int64(-1)
    t2 = st[ST_TRICK + 2] if ntrick > 2 else np.int64(-1)
    pin = np.int64(stock0[L - 1]) if L > 0 else np.int64(-1)
    leader = st[ST_LEADER]
    dp = st[ST_DP]
    sw = st[ST_SIDEWON]
    notdone = st[ST_NOTDONE]
    rem = _points_of(notdone)
    ncl = popcount(notdone)
    acc = 0
    scores = np.zeros(MAXM, dtype=np.int64)
    nodes = 0
    skipped = 0  # replies the look-ahead decided, valued without entering them (not counted in nodes)
    d = 0
    fr[F_ALPHA] = alpha0
    fr[F_BETA] = beta0
    mode = 0
    v = 0
    while True:
        if mode == 0:
            nodes += 1
            upre = pre
            pre = -1
            alpha = fr[d * F_SIZE + F_ALPHA]
            beta = fr[d * F_SIZE + F_BETA]
            fr[d * F_SIZE + F_SLOT] = -1
            if notdone == 0:
                v = acc
                mode = 2
                continue
            if acc >= beta:
                v = acc
                mode = 2
                continue
            if acc + rem <= alpha:
                v = acc + rem
                mode = 2
                continue
            tl = notdone & tsuit
            if tl != 0:
                # sure points: the top live trumps in one hand always win their tricks (R5)
                c = highest(tl)
                b = np.int64(1) << c
                o = _owner4(h0, h1, h2, h3, b)
                if o >= 0:
                    v = _sure_cut(acc, rem, alpha, beta, tl, _hand4(h0, h1, h2, h3, o), ((mxb >> o) & 1) != 0)
                    if v >= 0:
                        mode = 2
                        continue
            seat = (leader + ntrick) & 3
            ttmove = -1
            c0 = popcount(h0)
            eqs = ntrick == 0 and popcount(h1) == c0 and popcount(h2) == c0 and popcount(h3) == c0
            if eqs and dp >= L and ncl <= 8:
                # stock empty, at most 2 tricks left (R9): the unrolled minimax in this node's window
                v = acc + _eg_value4(h0, h1, h2, h3, leader, trump, endg, mxb, alpha - acc, beta - acc)
                mode = 2
                continue
            # whether an exchange can still move the 7 or 2 of trumps (R7): keys and move pruning
            spec = _exchange_ahead(exch, pin if dp < L else np.int64(-1), notdone, L - dp, trump)
            if ntrick == 0:
                # abn's key (FL_MIRROR: the leader as seat 0, the leader's side's points)
                flip = use_mirror and ((mxb >> leader) & 1) == 0
                fr[d * F_SIZE + F_FLIP] = 1 if flip else 0
                rot = leader if use_mirror else 0
                kh0, kh1, kh2, kh3 = _rot4(h0, h1, h2, h3, rot)
                kl = leader - rot
                ksw = _swap_sides(sw) if (rot & 1) != 0 else sw
                u = kh0 | kh1 | kh2 | kh3
                pk = pin if dp < L else np.int64(0)
                pw = np.int64(0)  # (exact keys: no points word)
                if upre >= 0:  # the look-ahead at the trick's last card made this key (FL_ETC4)
                    k1 = ek1[d - 1, upre]
                    k2 = ek2[d - 1, upre]
                    pw = epw[d - 1, upre]
                elif dp >= L:
                    k1, k2, pw = _endgame_key_planes_pw(u, kh1 | kh3, kh2 | kh3, trump, kl, payoff)
                elif exwon == 0 and popcount(kh0) <= 3 and eqs:
                    k1, k2, pw = draw_key_n_pw(kh0, kh1, kh2, kh3, 4, notdone, trump, spec, L - dp, pk, kl,
                                               payoff)
                else:
                    k1 = u | (kl << 48) | (pk << 51) | ((L - dp) << 57)
                    k2 = np.int64(0)
                    sh = 0
                    x = u
                    while x != 0:
                        c = lowest(x)
                        b = np.int64(1) << c
                        k2 |= np.int64(_owner4(kh0, kh1, kh2, kh3, b)) << sh
                        sh += 2
                        x &= x - 1
                if exwon != 0 and dp < L and (k1 >> 62) != -1:
                    k2 |= ksw << 58
                idx = _tt_bucket(k1, k2, tmask)
                # the same position's entry, and the bounds of every entry of its structure (FL_PAYOFF)
                slot, elb, eub, found = _tt_probe_pw(tt_k1, tt_k2, tt_d, idx, k1, k2, pw, stamp, rem)
                eg3 = eqs and dp >= L and ncl == 12
                lb = 0
                ub = rem
                if found:
                    lb, ub = _turned(elb, eub, rem, flip)
                    if slot >= 0:
                        ttmove = ((tt_d[slot] >> 16) & 255) - 1
                    if acc + lb >= beta or lb == ub:
                        v = acc + lb
                        mode = 2
                        continue
                    if acc + ub <= alpha:
                        v = acc + ub
                        mode = 2
                        continue
                    if acc + lb > alpha:
                        alpha = acc + lb
                    if acc + ub < beta:
                        beta = acc + ub
                if slot < 0:
                    slot = _tt_victim_pw(tt_d, idx, stamp, payoff)
                    tt_k1[slot] = k1
                    tt_k2[slot] = k2
                    tt_d[slot + 1] = pw
                    if not eg3:  # (else stored below)
                        tt_d[slot] = _tt_data(elb, eub, -1, ncl, stamp)
                if eg3:
                    # stock empty, 3 tricks left (R9): as in abn
                    if ecn == 0:
                        rv = _eg_three4(h0, h1, h2, h3, leader, trump, endg, mxb, alpha - acc, beta - acc)
                    else:
                        if ec.shape[0] != ecn:
                            ec = np.zeros(ecn, dtype=np.int64)
                        rv = _eg_three4_cached(h0, h1, h2, h3, leader, trump, endg, mxb, alpha - acc,
                                               beta - acc, _ec_ref(ec))
                    v = acc + rv
                    lb2, ub2 = _searched_bounds(v, alpha, beta, rv, lb, ub)
                    lb2, ub2 = _turned(lb2, ub2, rem, flip)
                    tt_d[slot] = _tt_data(lb2, ub2, -1, ncl, stamp)
                    mode = 2
                    continue
                fr[d * F_SIZE + F_SLOT] = slot
                fr[d * F_SIZE + F_REM] = rem
                fr[d * F_SIZE + F_K1] = k1
                fr[d * F_SIZE + F_K2] = k2
                fr[d * F_SIZE + F_PW] = pw
                fr[d * F_SIZE + F_LB] = lb
                fr[d * F_SIZE + F_UB] = ub
            fr[d * F_SIZE + F_ALPHA] = alpha
            fr[d * F_SIZE + F_BETA] = beta
            fr[d * F_SIZE + F_A0] = alpha
            fr[d * F_SIZE + F_B0] = beta
            fr[d * F_SIZE + F_ACC] = acc
            ismx = (mxb >> seat) & 1
            fr[d * F_SIZE + F_MAX] = ismx
            # ---- move generation (R5, R9, R7)
            hand = _hand4(h0, h1, h2, h3, seat)
            stock_empty = dp >= L
            wcard = np.int64(-1)
            wseat = -1
            tp = 0
            if ntrick > 0:
                wcard = t0
                wi = 0
                tp = card_points(t0)
                if ntrick > 1:
                    tp += card_points(t1)
                    if beats(t1, wcard, trump):
                        wcard = t1
                        wi = 1
                    if ntrick > 2:
                        tp += card_points(t2)
                        if beats(t2, wcard, trump):
                            wcard = t2
                            wi = 2
                wseat = (leader + wi) & 3
            lm = hand
            if ntrick > 0 and stock_empty and endg != 0:
                lm = legal_follow(hand, suit_of(t0), wcard, trump, endg)  # R9
            pm = pin if dp < L else np.int64(-1)
            ex = exchange_card(hand, pm, L - dp, exch, ((sw >> (seat & 1)) & 1) != 0, exwon)
            wmx = ntrick > 0 and ((mxb >> wseat) & 1) == ismx
            if ntrick == 3:  # the last card of the trick: its winner is known
                cand = _seq_dominance(lm, notdone, wcard, wmx, trump, spec, 0, endg, stock_empty, pm, True)
            else:
                later = _hand4(h0, h1, h2, h3, (seat + 1) & 3)
                if ntrick < 2:
                    later |= _hand4(h0, h1, h2, h3, (seat + 2) & 3)
                if ntrick < 1:
                    later |= _hand4(h0, h1, h2, h3, (seat + 3) & 3)
                if spec and pm >= 0:
                    later |= np.int64(1) << pm  # a later seat may take the pinta first (R7)
                cand = _seq_dominance_mid(lm, notdone, wcard, wmx, trump, spec, later)
            nm = 0
            oh = np.int64(0)
            if ntrick == 0:  # the opponents' cards
                if (mxb & 1) != ismx:
                    oh |= h0
                if ((mxb >> 1) & 1) != ismx:
                    oh |= h1
                if ((mxb >> 2) & 1) != ismx:
                    oh |= h2
                if ((mxb >> 3) & 1) != ismx:
                    oh |= h3
            edge = 0
            if ntrick > 0 and dp < L:  # (used by the follow scores only)
                edge = edges[_u(dp)]
            x = cand
            while x != 0:
                c = lowest(x)
                x &= x - 1
                if ntrick == 0:
                    sc = _lead_score(c, hand, oh, trump, L - dp)
                elif not wmx:
                    sc = _follow_score(c, wcard, tp, hand, trump, L - dp, edge, 4)
                else:
                    sc = _partner_score(c, trump, 5, ntrick < 3)
                if c == ttmove:
                    sc = 1 << 50
                mv[d, nm] = c
                scores[nm] = sc
                nm += 1
            fr[d * F_SIZE + F_ETCD] = 0
            if etc4 and ntrick == 3 and L - dp >= etc4min and L - dp > 4:
                # enhanced transposition cutoff (FL_ETC4): as in abn
                cut = False
                dec = np.int64(0)  # the cards whose next position's table bounds decide them
                tmk0 = (np.int64(1) << t0) | (np.int64(1) << t1) | (np.int64(1) << t2)
                nleft = L - dp - 4
                for i in range(nm):
                    c = mv[d, i]
                    ws = seat if beats(c, wcard, trump) else wseat  # R5: the trick's winner
                    tmk = tmk0 | (np.int64(1) << c)
                    nnd = notdone & ~tmk
                    y0, y1, y2, y3 = _draws4(stock0, dp, L, pin, ws)
                    n0 = (h0 & ~tmk) | y0
                    n1 = (h1 & ~tmk) | y1
                    n2 = (h2 & ~tmk) | y2
                    n3 = (h3 & ~tmk) | y3
                    rot = ws if use_mirror else 0
                    n0, n1, n2, n3 = _rot4(n0, n1, n2, n3, rot)
                    k1, k2, npw = draw_key_n_pw(n0, n1, n2, n3, 4, nnd, trump,
                                                _exchange_ahead(exch, pin, nnd, nleft, trump), nleft, pin, ws - rot,
                                                payoff)
                    epw[d, c] = npw
                    idx = _tt_bucket(k1, k2, tmask)
                    ek1[d, c] = k1
                    ek2[d, c] = k2
                    eix[d, c] = idx
                    _prefetch(tt_k1, idx)
                    _prefetch(tt_k1, idx + 8)  # (a bucket's second cache line)
                for i in range(nm):
                    c = mv[d, i]
                    idx = eix[d, c]
                    tpts = tp + card_points(c)
                    _sl, clo, chi, cfound = _tt_probe_pw(tt_k1, tt_k2, tt_d, idx, ek1[d, c], ek2[d, c], epw[d, c],
                                                         stamp, rem - tpts)
                    if cfound:
                        ws = seat if beats(c, wcard, trump) else wseat
                        wsm = (mxb >> ws) & 1
                        gain = tpts if wsm != 0 else 0
                        # the entry holds the next leader's side's points (FL_MIRROR)
                        lo, hi = _turned(clo, chi, rem - tpts, use_mirror and wsm == 0)
                        lo += acc + gain
                        hi += acc + gain
                        kind, kv = _lookahead_verdict(lo, hi, alpha, beta, ismx)
                        if kind == 1:
                            v = kv
                            cut = True
                        elif kind == 2:
                            dec |= np.int64(1) << c
                            ev[d, c] = kv
                    if cut:
                        break
                if cut:
                    mode = 2
                    continue
                fr[d * F_SIZE + F_ETCD] = 1 | (dec << 1)
            if ex >= 0:
                mv[d, nm] = SWAP
                if ttmove == SWAP:
                    scores[nm] = 1 << 50
                else:
                    scores[nm] = (1 << 45) if swapfirst != 0 else 350
                nm += 1
            _sort_moves(mv, scores, d, nm)
            _open_node(fr, d, nm, ismx)
            mode = 1
            continue
        if mode == 1:
            i = fr[d * F_SIZE + F_I]
            if i >= fr[d * F_SIZE + F_NM]:
                v = fr[d * F_SIZE + F_BEST]
                slot = fr[d * F_SIZE + F_SLOT]
                if slot >= 0 and tt_k1[slot] == fr[d * F_SIZE + F_K1] and tt_k2[slot] == fr[d * F_SIZE + F_K2]:
                    tt_d[slot] = _node_data(fr, d, v, ncl, stamp)
                    tt_d[slot + 1] = fr[d * F_SIZE + F_PW]
                mode = 2
                continue
            fr[d * F_SIZE + F_I] = i + 1
            m = mv[d, i]
            fr[d * F_SIZE + F_MOVE] = m
            if m != SWAP and ((fr[d * F_SIZE + F_ETCD] >> (m + 1)) & 1) != 0:
                # the look-ahead found this card's next position decided by its table bounds: the value
                # it would return at once, without entering it (FL_ETC4)
                _fold_child(fr, d, ev[d, m], m)
                skipped += 1
                continue
            seat = (leader + ntrick) & 3
            hand = _hand4(h0, h1, h2, h3, seat)
            if m == SWAP:
                # R7: the 7 or the 2 of trumps becomes the pinta, still last in the stock
                e = exchange_card(hand, pin, L - dp, exch, ((sw >> (seat & 1)) & 1) != 0, exwon)
                fr[d * F_SIZE + F_UPINTA] = pin
                h0, h1, h2, h3 = _put4(h0, h1, h2, h3, seat, (hand & ~(np.int64(1) << e)) | (np.int64(1) << pin))
                pin = e
            else:
                h0, h1, h2, h3 = _put4(h0, h1, h2, h3, seat, hand & ~(np.int64(1) << m))
                if ntrick < 3:
                    if ntrick == 0:
                        t0 = m
                    elif ntrick == 1:
                        t1 = m
                    else:
                        t2 = m
                    ntrick += 1
                    fr[d * F_SIZE + F_UDONE] = 0
                else:
                    wc = t0
                    wi = 0
                    if beats(t1, wc, trump):
                        wc = t1
                        wi = 1
                    if beats(t2, wc, trump):
                        wc = t2
                        wi = 2
                    if beats(m, wc, trump):
                        wi = 3
                    ws = (leader + wi) & 3
                    tpts = card_points(t0) + card_points(t1) + card_points(t2) + card_points(m)
                    fr[d * F_SIZE + F_TC] = t0
                    fr[d * F_SIZE + F_TC + 1] = t1
                    fr[d * F_SIZE + F_TC + 2] = t2
                    fr[d * F_SIZE + F_TC + 3] = m
                    fr[d * F_SIZE + F_ULEADER] = leader
                    fr[d * F_SIZE + F_UDP] = dp
                    fr[d * F_SIZE + F_USW] = sw
                    fr[d * F_SIZE + F_UTP] = tpts
                    gain = tpts if ((mxb >> ws) & 1) != 0 else 0
                    fr[d * F_SIZE + F_UPTS] = gain
                    acc += gain
                    rem -= tpts
                    ncl -= 4
                    sw |= np.int64(1) << (ws & 1)
                    notdone &= ~((np.int64(1) << t0) | (np.int64(1) << t1) | (np.int64(1) << t2)
                                 | (np.int64(1) << m))
                    if dp < L:  # R6: winner first, then in playing order; the pinta last
                        y0, y1, y2, y3 = _draws4(stock0, dp, L, pin, ws)
                        h0 |= y0
                        h1 |= y1
                        h2 |= y2
                        h3 |= y3
                        dp += 4
                    leader = ws
                    ntrick = 0
                    t0 = -1
                    t1 = -1
                    t2 = -1
                    fr[d * F_SIZE + F_UDONE] = 1
                    if fr[d * F_SIZE + F_ETCD] != 0 and notdone != 0:
                        pre = m
            d += 1
            fr[d * F_SIZE + F_ALPHA] = fr[(d - 1) * F_SIZE + F_ALPHA]
            fr[d * F_SIZE + F_BETA] = fr[(d - 1) * F_SIZE + F_BETA]
            mode = 0
            continue
        # mode == 2: return v
        if d == 0:
            break
        d -= 1
        m = fr[d * F_SIZE + F_MOVE]
        if m == SWAP:
            seat = (leader + ntrick) & 3
            old = fr[d * F_SIZE + F_UPINTA]
            hand = _hand4(h0, h1, h2, h3, seat)
            h0, h1, h2, h3 = _put4(h0, h1, h2, h3, seat, (hand & ~(np.int64(1) << old)) | (np.int64(1) << pin))
            pin = old
        else:
            if fr[d * F_SIZE + F_UDONE] != 0:
                odp = fr[d * F_SIZE + F_UDP]
                if odp < L:
                    y0, y1, y2, y3 = _draws4(stock0, odp, L, pin, leader)
                    h0 &= ~y0
                    h1 &= ~y1
                    h2 &= ~y2
                    h3 &= ~y3
                dp = odp
                leader = fr[d * F_SIZE + F_ULEADER]
                sw = fr[d * F_SIZE + F_USW]
                acc -= fr[d * F_SIZE + F_UPTS]
                rem += fr[d * F_SIZE + F_UTP]
                ncl += 4
                t0 = fr[d * F_SIZE + F_TC]
                t1 = fr[d * F_SIZE + F_TC + 1]
                t2 = fr[d * F_SIZE + F_TC + 2]
                notdone |= ((np.int64(1) << t0) | (np.int64(1) << t1) | (np.int64(1) << t2)
                            | (np.int64(1) << m))
                ntrick = 3
            else:
                ntrick -= 1
            seat = (leader + ntrick) & 3
            h0, h1, h2, h3 = _put4(h0, h1, h2, h3, seat, _hand4(h0, h1, h2, h3, seat) | (np.int64(1) << m))
        if fr[d * F_SIZE + F_MAX] != 0:
            if v > fr[d * F_SIZE + F_BEST]:
                fr[d * F_SIZE + F_BEST] = v
                fr[d * F_SIZE + F_BMOVE] = m
                if v > fr[d * F_SIZE + F_ALPHA]:
                    fr[d * F_SIZE + F_ALPHA] = v
        else:
            if v < fr[d * F_SIZE + F_BEST]:
                fr[d * F_SIZE + F_BEST] = v
                fr[d * F_SIZE + F_BMOVE] = m
                if v < fr[d * F_SIZE + F_BETA]:
                    fr[d * F_SIZE + F_BETA] = v
        if fr[d * F_SIZE + F_ALPHA] >= fr[d * F_SIZE + F_BETA]:
            fr[d * F_SIZE + F_I] = fr[d * F_SIZE + F_NM]
        mode = 1
    cnt[0] += nodes
    cnt[4] += skipped
    return v


# ======================================================================
# Drivers: moves on state arrays, MTD(f), per-move values, principal variation
# ======================================================================

@njit(cache=True)
def legal_moves(st, stock, out):
    """Legal moves of the seat to move into ``out`` (card ids ascending, then SWAP); returns the count.

    RULES R5, R9 (endgame obligations once nothing is left to draw), R7 (exchange).

    Parameters
    ----------
    st : ndarray(int64, shape=(ST_SIZE,))
        The state, as :meth:`solver.Position.to_arrays` gives it; not modified.
    stock : ndarray(int8, shape=(>= L,))
        The cards to draw, as :meth:`solver.Position.to_arrays` gives them (the pinta last); not modified.
    out : ndarray(int64, shape=(>= MAXM,))
        Written: the moves in its first entries.

    Returns
    -------
    int
        The number of moves written; 0 when the seat to move has no card (the end of the deal).
    """
    n = st[ST_PLAYERS]
    ntrick = st[ST_NTRICK]
    seat = (st[ST_LEADER] + ntrick) % n
    hand = st[ST_HAND + seat]
    if hand == 0:
        return 0
    L = st[ST_L]
    dp = st[ST_DP]
    lm = legal_mask(hand, st[ST_TRICK:ST_TRICK + 8], ntrick, st[ST_TRUMP], st[ST_ENDGAME], dp >= L)
    k = 0
    x = lm
    while x != 0:
        out[k] = lowest(x)
        k += 1
        x &= x - 1
    pin = np.int64(stock[L - 1]) if dp < L else np.int64(-1)
    ex = exchange_card(hand, pin, L - dp, st[ST_EXCH], ((st[ST_SIDEWON] >> (seat % st[ST_SIDES])) & 1) != 0,
                       st[ST_EXWON])
    if ex >= 0:
        out[k] = SWAP
        k += 1
    return k


@njit(cache=True)
def apply_move(st, stock, ismax, m):
    """Play move ``m`` (card id or SWAP) in place on ``st``/``stock``; returns the card points it gives the
    maximizing side (non-zero only when it completes a trick the maximizing side wins).

    RULES R5 (winner), R6 (draws: winner first, the pinta last), R7 (exchange).

    Parameters
    ----------
    st : ndarray(int64, shape=(ST_SIZE,))
        The state, as :meth:`solver.Position.to_arrays` gives it; modified in place.
    stock : ndarray(int8, shape=(>= L,))
        The cards to draw (the pinta last); modified in place by an exchange.
    ismax : ndarray(int64, shape=(players,))
        1 for the maximizing seats.
    m : int
        The move: a card id or SWAP. Not checked: it must be one of :func:`legal_moves`.

    Returns
    -------
    int
        The trick's card points (R2) when ``m`` completes a trick won by a maximizing seat; 0 otherwise
        (an exchange, a card that does not complete the trick, a trick the other side wins).
    """
    n = st[ST_PLAYERS]
    ntrick = st[ST_NTRICK]
    leader = st[ST_LEADER]
    seat = (leader + ntrick) % n
    L = st[ST_L]
    dp = st[ST_DP]
    trump = st[ST_TRUMP]
    if m == SWAP:
        e = exchange_card(st[ST_HAND + seat], np.int64(stock[L - 1]), L - dp, st[ST_EXCH],
                          ((st[ST_SIDEWON] >> (seat % st[ST_SIDES])) & 1) != 0, st[ST_EXWON])
        old = np.int64(stock[L - 1])
        st[ST_HAND + seat] = (st[ST_HAND + seat] & ~(np.int64(1) << e)) | (np.int64(1) << old)
        stock[L - 1] = e
        return 0
    st[ST_HAND + seat] &= ~(np.int64(1) << m)
    st[ST_TRICK + ntrick] = m
    ntrick += 1
    st[ST_NTRICK] = ntrick
    if ntrick < n:
        return 0
    wi = trick_winner(st[ST_TRICK:ST_TRICK + 8], n, trump)
    ws = (leader + wi) % n
    tp = 0
    for j in range(n):
        c = st[ST_TRICK + j]
        tp += card_points(c)
        st[ST_NOTDONE] &= ~(np.int64(1) << c)
    st[ST_SIDEWON] |= np.int64(1) << (ws % st[ST_SIDES])
    if dp < L:
        for j in range(n):
            st[ST_HAND + (ws + j) % n] |= np.int64(1) << np.int64(stock[dp])
            dp += 1
    st[ST_DP] = dp
    st[ST_LEADER] = ws
    st[ST_NTRICK] = 0
    return tp if ismax[ws] != 0 else 0


@njit(cache=True)
def points_left(st):
    """Card points not yet captured: the cards in hands, the trick, the stock and the pinta (R2).

    Parameters
    ----------
    st : ndarray(int64, shape=(ST_SIZE,))
        Position state (:meth:`solver.Position.to_arrays`).

    Returns
    -------
    int
        Card points, 0-120.
    """
    return _points_of(st[ST_NOTDONE])


# ======================================================================
# Drivers. Each is compiled once for the kernel it is given (``probe``: a jitted function with
# :func:`ab`'s parameters and result), so an entry point compiles only its own kernel:
# ``mtdf`` and the others hand over through :func:`ab` (all three kernels), ``mtdf2`` and the
# others call :func:`ab2_probe` (two players, default techniques), ``mtdf4`` and the others
# :func:`ab4_probe` (four players in two sides, default techniques), ``mtdfn`` and the others
# :func:`abn` (any table, any techniques). :func:`drivers` picks the set a position needs.
# A kernel passed from Python would cost about 12 us a call, so the entry points bind it here;
# the generic bodies are inlined (numba IR) because a kernel passed on to a compiled callee is a
# runtime object and numba cannot cache a function holding one ("dynamic globals").
# ======================================================================

@njit(cache=True, nogil=True, inline="always")
def _mtdf(probe, st, stock, ismax, guess, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags):
    lo = 0
    hi = points_left(st)
    g = guess
    if g < lo:
        g = lo
    if g > hi:
        g = hi
    bis = flags[FL_BISECT] == 2 or (flags[FL_BISECT] != 0 and st[ST_PLAYERS] > 2)
    # two sides of 4 or 6 players: split at the median of a prior around the first guess (3 players'
    # paranoid values lie far from it)
    prior = flags[FL_BISECT] == 1 and st[ST_SIDES] == 2 and st[ST_PLAYERS] > 2
    mu = g
    sig = (0.10 + 0.0094 * max(0, 40 - popcount(st[ST_NOTDONE]))) * (hi + 1) if prior else 1.0
    # a first guess at the middle of the interval carries no information (the callers' "half the
    # points left"): bisect from the second probe; any other guess keeps two unit steps first, which
    # finish a solve from the exact value (solve_moves passes the previous move's value)
    kb = 1 if g == hi // 2 else 2
    k = 0
    n0 = cnt[0]
    cnt[3] = 0
    # where the driver does not bisect, the first probe may be an aspiration window around the guess
    w = 0 if bis else flags[FL_ASP]
    while lo < hi:
        if k == 0 and w > 0:
            a = max(lo, g - w) - 1
            b = min(hi, g + w) + 1
        else:
            if bis and k >= kb:
                b = _prior_split(lo, hi, mu, sig) if prior else (lo + hi + 1) // 2
            else:
                b = g if g > lo else lo + 1
            a = b - 1
        k += 1
        g = probe(st, stock, ismax, a, b, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags)
        if k == 1:
            cnt[3] = cnt[0] - n0
        # fail-soft: above the window a lower bound, below it an upper one, inside it both (exact)
        if g > a:
            lo = g
        if g < b:
            hi = g
    cnt[2] = k
    return lo


@njit(cache=True, inline="always")
def _prior_split(lo, hi, mu, sig):
    """The next probe's target ``b`` (``lo < b <= hi``, card points) of :func:`mtdf` with a prior: the
    median of a normal distribution of mean ``mu`` (the first guess) and standard deviation ``sig``,
    truncated to the proven interval ``[lo, hi]`` (each value ``v`` standing for ``[v - 0.5, v + 0.5]``),
    by binary search. The values of two-side deals lie near half the points left, the nearer the
    more cards are left: the callers' ``sig`` is 0.10 of the points left with 40 cards left, 0.25
    with 24 (fitted on seed 1's full 4-player deals and positions with 6 tricks left, checked on
    seed 2's: results/README.md)."""
    r = 1.0 / (sig * 1.4142135623730951)
    fa = math.erf((lo + 0.5 - mu) * r)
    fb = math.erf((hi + 0.5 - mu) * r)
    tgt = 0.5 * (fa + fb)
    a = lo + 1
    b = hi
    while a < b:  # the smallest b whose cumulative probability reaches the middle of [lo, hi]'s
        m = (a + b) // 2
        if math.erf((m + 0.5 - mu) * r) >= tgt:
            b = m
        else:
            a = m + 1
    return a


@njit(cache=True, nogil=True, inline="always")
def _solve_moves(probe, st, stock, ismax, guess, moves, vals, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags):
    k = legal_moves(st, stock, moves)
    g = guess
    for i in range(k):
        st2 = st.copy()
        stk2 = stock.copy()
        gain = apply_move(st2, stk2, ismax, moves[i])
        v = _mtdf(probe, st2, stk2, ismax, g - gain, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags)
        vals[i] = v + gain
        g = vals[i]
    return k


@njit(cache=True, nogil=True, inline="always")
def _principal_variation(probe, st, stock, ismax, value, out, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags):
    st2 = st.copy()
    stk2 = stock.copy()
    moves = np.zeros(MAXM, dtype=np.int64)
    n = st[ST_PLAYERS]
    v = value
    k = 0
    while True:
        nm = legal_moves(st2, stk2, moves)
        if nm == 0:
            break
        seat = (st2[ST_LEADER] + st2[ST_NTRICK]) % n
        ism = ismax[seat] != 0
        found = -1
        for i in range(nm):
            st3 = st2.copy()
            stk3 = stk2.copy()
            gain = apply_move(st3, stk3, ismax, moves[i])
            t = v - gain
            if ism:
                ok = t <= 0 or probe(st3, stk3, ismax, t - 1, t, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags) >= t
            else:
                ok = probe(st3, stk3, ismax, t, t + 1, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags) <= t
            if ok:
                found = i
                break
        if found < 0:  # pragma: no cover - cannot happen when value is exact
            break
        gain = apply_move(st2, stk2, ismax, moves[found])
        v -= gain
        out[k] = moves[found]
        k += 1
    return k


@njit(cache=True, nogil=True)
def mtdf(st, stock, ismax, guess, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags):
    """Exact value (future points of the maximizing side) by null-window probes of :func:`ab`.

    MTD(f) (Plaat et al. 1996): the first probe at ``guess`` (card points, clipped to the points
    left), each next one just past the bound the last returned. With ``flags[FL_BISECT]`` (1 and 3: with
    3 or more players, 2: always) the probes after the second bisect the interval the probes so far
    proved instead: the values of 3-6 player positions lie 10-27 points (median) from half the points left
    (the callers' guess), where unit steps cost 10-51% more nodes; two steps first keep a good
    guess's two-probe solve (:func:`solve_moves` passes the previous move's value). A first guess
    at the middle of the interval (``guess == points left // 2``, the callers' uninformed guess)
    bisects from the second probe: 1-5% fewer nodes on full 4-player deals, 5% with 6 tricks left.
    With two sides of 4 or 6 players (``FL_BISECT`` 1) the split is not the interval's middle but the
    median of a normal prior around the first guess truncated to the interval (:func:`_prior_split`):
    5-6% fewer nodes on full 4-player deals, 1.5-3% with 6 tricks left, 1.3% on 6-player positions
    with 5 left (``FL_BISECT`` 3 splits at the middle, the rule before the prior). With 2 players the
    steps are as good (results/README.md). Where the driver does not
    bisect (2 players by default), ``flags[FL_ASP]`` > 0 makes the first probe an aspiration window of
    that many card points either side of the guess (a fail-soft value inside it is exact at once; one
    outside it is a bound, and the null windows go on from there): with 2 (the default) full 2-player
    deals take 2.5-3% fewer nodes and about 3% less time. The value is the same either way.

    Parameters
    ----------
    st, stock, ismax, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags
        As in :func:`ab` (``st`` is not modified; ``cnt[0]`` += nodes of every probe; ``cnt[2]``
        := the number of probes, ``cnt[3]`` := the first probe's nodes).
    guess : int
        First guess of the value, card points (any int64; clipped to 0..points left).

    Returns
    -------
    int
        The exact value, card points 0-120.
    """
    return _mtdf(ab, st, stock, ismax, guess, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags)


@njit(cache=True, nogil=True)
def solve_moves(st, stock, ismax, guess, moves, vals, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags):
    """Exact value of every legal move (future points of the maximizing side, the move's own trick included).

    Parameters
    ----------
    st, stock, ismax, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags
        As in :func:`mtdf` (``st`` and ``stock`` are not modified).
    guess : int
        :func:`mtdf`'s first guess for the first move, card points; each next move is probed first at
        the value of the move before it.
    moves, vals : ndarray(int64, shape=(>= MAXM,))
        Output: moves (card ids, SWAP) in :func:`legal_moves` order and their values (card points).

    Returns
    -------
    int
        Number of moves (0 at the end of the deal).
    """
    return _solve_moves(ab, st, stock, ismax, guess, moves, vals, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags)


@njit(cache=True, nogil=True)
def principal_variation(st, stock, ismax, value, out, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags):
    """A principal variation from the state of exact value ``value`` into ``out``; returns its length.

    Each step takes the first move (TT-free order: ascending cards, then SWAP) whose null-window
    probe confirms it keeps the value.

    Parameters
    ----------
    st, stock, ismax, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags
        As in :func:`mtdf` (``st`` and ``stock`` are not modified).
    value : int
        The exact value of ``st`` (card points, :func:`mtdf`); with another value the line may stop early.
    out : ndarray(int64, shape=(>= MAXD,))
        Output: the moves of every seat (card ids, SWAP) to the end of the deal.

    Returns
    -------
    int
        Number of moves written to ``out``.
    """
    return _principal_variation(ab, st, stock, ismax, value, out, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags)


@njit(cache=True, nogil=True)
def mtdf2(st, stock, ismax, guess, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags):
    """:func:`mtdf` by :func:`ab2` alone (the caller ensures :func:`uses_ab2`).

    Parameters
    ----------
    st, stock, ismax, guess, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags
        As :func:`mtdf` (``st``: ndarray(int64, shape=(ST_SIZE,)); ``flags``: ndarray(int64, shape=(FL_SIZE,))).

    Returns
    -------
    int
        The exact value, card points 0-120.
    """
    return _mtdf(ab2_probe, st, stock, ismax, guess, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags)


@njit(cache=True, nogil=True)
def solve_moves2(st, stock, ismax, guess, moves, vals, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags):
    """:func:`solve_moves` by :func:`ab2` alone (the caller ensures :func:`uses_ab2`).

    Parameters
    ----------
    st, stock, ismax, guess, moves, vals, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags
        As :func:`solve_moves` (``st``: ndarray(int64, shape=(ST_SIZE,)); ``flags``: ndarray(int64,
        shape=(FL_SIZE,))).

    Returns
    -------
    int
        Number of moves (0 at the end of the deal); their values are written to ``vals``.
    """
    return _solve_moves(ab2_probe, st, stock, ismax, guess, moves, vals, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags)


@njit(cache=True, nogil=True)
def principal_variation2(st, stock, ismax, value, out, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags):
    """:func:`principal_variation` by :func:`ab2` alone (the caller ensures :func:`uses_ab2`).

    Parameters
    ----------
    st, stock, ismax, value, out, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags
        As :func:`principal_variation` (``st``: ndarray(int64, shape=(ST_SIZE,)); ``flags``: ndarray(int64,
        shape=(FL_SIZE,))).

    Returns
    -------
    int
        Number of moves written to ``out``.
    """
    return _principal_variation(ab2_probe, st, stock, ismax, value, out, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags)


@njit(cache=True, nogil=True)
def mtdfn(st, stock, ismax, guess, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags):
    """:func:`mtdf` by the general kernel :func:`abn` alone.

    Parameters
    ----------
    st, stock, ismax, guess, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags
        As :func:`mtdf` (``st``: ndarray(int64, shape=(ST_SIZE,)); ``flags``: ndarray(int64, shape=(FL_SIZE,))).

    Returns
    -------
    int
        The exact value, card points 0-120.
    """
    return _mtdf(abn, st, stock, ismax, guess, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags)


@njit(cache=True, nogil=True)
def solve_movesn(st, stock, ismax, guess, moves, vals, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags):
    """:func:`solve_moves` by the general kernel :func:`abn` alone.

    Parameters
    ----------
    st, stock, ismax, guess, moves, vals, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags
        As :func:`solve_moves` (``st``: ndarray(int64, shape=(ST_SIZE,)); ``flags``: ndarray(int64,
        shape=(FL_SIZE,))).

    Returns
    -------
    int
        Number of moves (0 at the end of the deal); their values are written to ``vals``.
    """
    return _solve_moves(abn, st, stock, ismax, guess, moves, vals, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags)


@njit(cache=True, nogil=True)
def mtdf4(st, stock, ismax, guess, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags):
    """:func:`mtdf` by :func:`ab4` alone (the caller ensures :func:`uses_ab4`).

    Parameters
    ----------
    st, stock, ismax, guess, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags
        As :func:`mtdf` (``st``: ndarray(int64, shape=(ST_SIZE,)); ``flags``: ndarray(int64, shape=(FL_SIZE,))).

    Returns
    -------
    int
        The exact value, card points 0-120.
    """
    return _mtdf(ab4_probe, st, stock, ismax, guess, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags)


@njit(cache=True, nogil=True)
def solve_moves4(st, stock, ismax, guess, moves, vals, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags):
    """:func:`solve_moves` by :func:`ab4` alone (the caller ensures :func:`uses_ab4`).

    Parameters
    ----------
    st, stock, ismax, guess, moves, vals, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags
        As :func:`solve_moves` (``st``: ndarray(int64, shape=(ST_SIZE,)); ``flags``: ndarray(int64,
        shape=(FL_SIZE,))).

    Returns
    -------
    int
        Number of moves (0 at the end of the deal); their values are written to ``vals``.
    """
    return _solve_moves(ab4_probe, st, stock, ismax, guess, moves, vals, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags)


@njit(cache=True, nogil=True)
def principal_variation4(st, stock, ismax, value, out, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags):
    """:func:`principal_variation` by :func:`ab4` alone (the caller ensures :func:`uses_ab4`).

    Parameters
    ----------
    st, stock, ismax, value, out, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags
        As :func:`principal_variation` (``st``: ndarray(int64, shape=(ST_SIZE,)); ``flags``: ndarray(int64,
        shape=(FL_SIZE,))).

    Returns
    -------
    int
        Number of moves written to ``out``.
    """
    return _principal_variation(ab4_probe, st, stock, ismax, value, out, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags)


@njit(cache=True, nogil=True)
def principal_variationn(st, stock, ismax, value, out, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags):
    """:func:`principal_variation` by the general kernel :func:`abn` alone.

    Parameters
    ----------
    st, stock, ismax, value, out, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags
        As :func:`principal_variation` (``st``: ndarray(int64, shape=(ST_SIZE,)); ``flags``: ndarray(int64,
        shape=(FL_SIZE,))).

    Returns
    -------
    int
        Number of moves written to ``out``.
    """
    return _principal_variation(abn, st, stock, ismax, value, out, tt_k1, tt_k2, tt_d, fr, mv, cnt, flags)


class Drivers(NamedTuple):
    """Entry points that compile one kernel: ``probe`` (:func:`ab`'s parameters), ``mtdf``,
    ``solve_moves``, ``principal_variation`` (the parameters of the functions of those names)."""
    probe: object
    mtdf: object
    solve_moves: object
    principal_variation: object


TWO = Drivers(ab2_probe, mtdf2, solve_moves2, principal_variation2)
FOUR = Drivers(ab4_probe, mtdf4, solve_moves4, principal_variation4)
GENERAL = Drivers(abn, mtdfn, solve_movesn, principal_variationn)


def drivers(st, flags) -> Drivers:
    """The entry points for searches from ``st`` with ``flags``: :data:`TWO` when :func:`ab`
    would hand them to :func:`ab2` (two players, the default techniques), :data:`FOUR` when to
    :func:`ab4` (four players in two sides, the default techniques), else :data:`GENERAL`.

    Every position reachable from ``st`` has its player count, so one choice serves a whole
    deal. Same values and nodes as :func:`ab`, :func:`mtdf` and the others; a first call compiles
    only the chosen kernel (about 30 s less for a two-player solve, results/README.md).

    Parameters
    ----------
    st : ndarray(int64, shape=(ST_SIZE,))
    flags : ndarray(int64, shape=(FL_SIZE,))

    Returns
    -------
    Drivers
    """
    if uses_ab2(st, flags):
        return TWO
    return FOUR if uses_ab4(st, flags) else GENERAL
