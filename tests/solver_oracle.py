"""A plain-Python minimax oracle for the solver tests (shares no code with ``sim`` or ``solver``).

Written from RULES.md and NOTATION.md alone: its own card tables, position parser
(fully known positions; ``played`` is read only to tell whether the pinta was taken), trick
winner (R5), draws (R6), trump exchange (R7; ``remove=trump2`` disables the 2-exchange, R3;
the ``won-trick`` condition when told the sides that have won a trick, which the notation does
not carry), endgame obligations (R9),
and an unpruned memoized minimax of the future card points of the side to move (three
players: paranoid), plus an expectimax for ``stock=?`` (every face-down order equally
likely).
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

STRENGTH = [2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 3, 1]   # R2, weakest first
POINTS = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}           # R2


def card(text):
    t = text.strip().upper()
    return int(t[:-1]), t[-1]


def name(c):
    return f"{c[0]}{c[1]}"


def strength(c):
    return STRENGTH.index(c[0])


def points(c):
    return POINTS.get(c[0], 0)


def winner(trick, trump):
    """Index of the winning card (R5)."""
    best = 0
    for i in range(1, len(trick)):
        c, b = trick[i], trick[best]
        if c[1] == b[1]:
            if strength(c) > strength(b):
                best = i
        elif c[1] == trump and b[1] != trump:
            best = i
    return best


def legal(hand, trick, trump, endgame, stock_empty):
    """R5 / R9."""
    if not trick or endgame == "free" or not stock_empty:
        return list(hand)
    led = trick[0][1]
    same = [c for c in hand if c[1] == led]
    if endgame == "follow":
        return same or list(hand)
    # arrastre
    trumped = led != trump and any(c[1] == trump for c in trick)
    if same:
        if trumped:
            return same
        top = max(strength(c) for c in trick if c[1] == led)
        higher = [c for c in same if strength(c) > top]
        return higher or same
    trumps = [c for c in hand if c[1] == trump]
    if not trumps:
        return list(hand)
    if trumped:
        top = max(strength(c) for c in trick if c[1] == trump)
        over = [c for c in trumps if strength(c) > top]
        return over or list(hand)
    return trumps


def exchange(hand, pinta, facedown, mode):
    """Card given up for the pinta (R7), or None. ``facedown``: face-down cards besides the pinta."""
    if pinta is None or facedown < 1 or mode == "none":
        return None
    t = pinta[1]
    if mode in ("seven", "seven-two") and (7, t) in hand and strength(pinta) > strength((7, t)):
        return (7, t)
    if mode == "seven-two" and (2, t) in hand and pinta[0] in (4, 5, 6, 7):
        return (2, t)
    if mode == "two-any" and (2, t) in hand:
        return (2, t)
    return None


def parse(text):
    f = dict(tok.split("=", 1) for tok in text.split())
    n = int(f["players"])
    trump_card = card(f["trump"])
    hands = [tuple(card(x) for x in h.split(",") if x) for h in f["hands"].split("/")]
    stock = tuple(card(x) for x in f.get("stock", "").split(",") if x) if f.get("stock", "") != "?" else None
    trick = tuple(card(x) for x in f.get("trick", "").split(",") if x)
    turn = int(f.get("turn", "0"))
    played = {card(x) for x in f.get("played", "").split(",") if x}
    # NOTATION.md: the pinta has been taken when the trump card is in a hand, in trick or in played
    taken = any(trump_card in h for h in hands) or trump_card in trick or trump_card in played
    under = (not taken) and (stock is None or len(stock) > 0)
    exmode = f.get("exchange", "seven-two")
    if n == 3 and f.get("remove") == "trump2":  # R3: remove=trump2 disables the 2-exchange (R7)
        exmode = {"seven-two": "seven", "two-any": "none"}.get(exmode, exmode)
    return {"n": n, "pinta": trump_card, "trump": trump_card[1], "hands": tuple(hands), "stock": stock,
            "trick": trick, "turn": turn, "under": under, "endgame": f.get("endgame", "free"),
            "exchange": exmode}


def _max_seats(n, seat):
    if n == 3:
        return frozenset([seat])
    return frozenset(s for s in range(n) if s % 2 == seat % 2)


def solve(text, unknown=None, won=None):
    """Value for the side to move and {move: value} (``swap`` included). ``stock=?`` needs ``unknown``
    (the face-down cards): then the expectimax value (Fractions). ``won``: R7's ``won-trick`` condition, the
    bitmask of sides (seat % sides) that have won a trick so far (not in the notation); None: no condition."""
    p = parse(text)
    n, trump, endgame, exmode = p["n"], p["trump"], p["endgame"], p["exchange"]
    mx = _max_seats(n, p["turn"])
    hidden = p["stock"] is None
    sides = 3 if n == 3 else 2

    @lru_cache(maxsize=None)
    def value(hands, stock, pinta, under, leader, trick, pool, wn):
        # future points of the max seats; stock: tuple (known) ; pool: frozenset (hidden stock); wn: won
        if not trick and all(len(h) == 0 for h in hands):
            return 0
        return max_min(hands, stock, pinta, under, leader, trick, pool, wn)[0]

    def children(hands, stock, pinta, under, leader, trick, pool, wn):
        seat = (leader + len(trick)) % n
        facedown = (len(pool) if hidden else len(stock)) if under else 0
        stock_empty = not under and (hidden or not stock)
        out = []
        for c in legal(hands[seat], trick, trump, endgame, stock_empty):
            out.append((name(c), c))
        ex = exchange(hands[seat], pinta if under else None, facedown, exmode)
        if wn is not None and not (wn >> (seat % sides)) & 1:  # R7 won-trick: the side has not won a trick
            ex = None
        if ex is not None:
            out.append(("swap", ex))
        return seat, out

    def play(hands, stock, pinta, under, leader, trick, pool, wn, seat, mvname, c):
        """Value after a move (expectation over draws when hidden)."""
        if mvname == "swap":
            h = list(hands)
            h[seat] = tuple(sorted([x for x in h[seat] if x != c] + [pinta]))
            return value(tuple(h), stock, c, under, leader, trick, pool, wn)
        h = list(hands)
        h[seat] = tuple(x for x in h[seat] if x != c)
        t = trick + (c,)
        if len(t) < n:
            return value(tuple(h), stock, pinta, under, leader, t, pool, wn)
        w = (leader + winner(t, trump)) % n
        gain = sum(points(x) for x in t) if w in mx else 0
        if wn is not None:
            wn |= 1 << (w % sides)
        if not under:
            return gain + value(tuple(h), stock, pinta, under, w, (), pool, wn)
        order = [(w + j) % n for j in range(n)]
        if not hidden:
            pile = list(stock) + [pinta]
            for j, s in enumerate(order):
                h[s] = tuple(sorted(h[s] + (pile[j],)))
            rest = tuple(pile[n:-1])
            still = len(pile) > n
            return gain + value(tuple(h), rest, pinta, still, w, (), pool, wn)
        # hidden stock: enumerate draws (R6; the pinta last)
        last_round = len(pool) + 1 == n

        def draw(j, h, pool):
            if j == n:
                return value(tuple(h), stock, pinta, not last_round, w, (), pool, wn)
            s = order[j]
            if last_round and j == n - 1:
                h2 = list(h)
                h2[s] = tuple(sorted(h2[s] + (pinta,)))
                return draw(j + 1, h2, pool)
            tot = Fraction(0)
            for x in sorted(pool):
                h2 = list(h)
                h2[s] = tuple(sorted(h2[s] + (x,)))
                tot += draw(j + 1, h2, pool - {x})
            return tot / len(pool)

        return gain + draw(0, h, pool)

    def max_min(hands, stock, pinta, under, leader, trick, pool, wn):
        seat, moves = children(hands, stock, pinta, under, leader, trick, pool, wn)
        vals = {m: play(hands, stock, pinta, under, leader, trick, pool, wn, seat, m, c) for m, c in moves}
        best = max(vals.values()) if seat in mx else min(vals.values())
        return best, vals

    hands = tuple(tuple(sorted(h)) for h in p["hands"])
    leader = (p["turn"] - len(p["trick"])) % n
    pool = frozenset(card(x) for x in unknown) if hidden else frozenset()
    stock = () if hidden else p["stock"]
    v, vals = max_min(hands, stock, p["pinta"], p["under"], leader, p["trick"], pool, won)
    return v, vals


def solve_for(text, unknown=None, seat=None, won=None):
    """:func:`solve` for the side of ``seat`` (default: the seat to move; 3 players: that seat alone, the
    paranoid value)."""
    global _max_seats
    if seat is None:
        return solve(text, unknown, won)
    orig = _max_seats
    _max_seats = lambda n, _s: orig(n, seat)  # noqa: E731
    try:
        return solve(text, unknown, won)
    finally:
        _max_seats = orig
