"""Six players (two teams of three, side = seat % 2, RULES R3) with cards still to draw: :func:`solver.api.solve`
(value and every move's value), :func:`solver.api.analyse_play` along random lines, and ``stock=?`` (expectation
over the draw orders, R6) against the plain-Python oracle (tests/solver_oracle.py). Positions have one draw
round left (six cards, the pinta last, R6) and 4-5 cards already in the trick (the oracle is unpruned: a
6-player trick start with the ``free`` endgame takes it minutes), on ``catalan48`` and ``spanish40`` (R3: no
2s), every exchange rule (R7; the 7 and the 2 of trumps are often in the hand of the seat to move) and the
``follow``/``arrastre`` endgames of R9 (``free`` only with a cheap line)."""
from __future__ import annotations

import numpy as np
import pytest

from sim.cards import CARD_POINTS, CARD_SUIT, SWAP, card_id, format_card
from sim.rules import Rules

import solver_oracle as oracle

N = 6


def random_position(rng, deck, exchange, endgame, trick_len, hidden=False):
    """A valid 6-player position: six cards left to draw (five face down plus the pinta), ``trick_len``
    cards in the trick, every other card played with its points given to random seats. Returns the position
    and the face-down stock (the oracle's ``unknown`` when ``hidden``)."""
    from solver.position import Position
    rules = Rules(players=N, deck=deck, exchange=exchange, endgame=endgame)
    cards = list(rules.deck_cards)
    pinta = int(cards[int(rng.integers(len(cards)))])
    suit = int(CARD_SUIT[pinta])
    special = [c for c in (card_id(7, suit), card_id(2, suit)) if c in cards and c != pinta and rng.random() < 0.7]
    rest = [c for c in cards if c != pinta and c not in special]
    rng.shuffle(rest)
    leader = int(rng.integers(N))
    turn = (leader + trick_len) % N
    size = [2 if (s - leader) % N < trick_len else 3 for s in range(N)]
    tab = special + rest[:3 * N - len(special)]
    rng.shuffle(tab)
    if special and rng.random() < 0.5:  # the mover holds the 7 or the 2 of trumps (R7 in play)
        i, j = tab.index(special[0]), trick_len + sum(size[:turn])
        tab[i], tab[j] = tab[j], tab[i]
    stock = rest[3 * N - len(special):3 * N - len(special) + N - 1]
    trick, at, hands = tab[:trick_len], trick_len, []
    for s in range(N):
        hands.append(tab[at:at + size[s]])
        at += size[s]
    played = [c for c in cards if c not in set(tab) | set(stock) | {pinta}]
    points = [0] * N
    for c in played:
        points[int(rng.integers(N))] += int(CARD_POINTS[c])
    if hidden:
        pos = Position.make(rules, pinta, hands, None, turn=turn, trick=trick, points=points, played=played)
    else:
        pos = Position.make(rules, pinta, hands, stock, turn=turn, trick=trick, points=points)
    return pos, [format_card(c) for c in stock]


def random_line(rng, pos):
    """Random legal moves to the end of the deal (the exchange taken with probability 0.9 when legal)."""
    moves, line = [], [pos]
    while not pos.is_terminal:
        legal = pos.legal_moves()
        cs = [m for m in legal if m != SWAP]
        mv = SWAP if SWAP in legal and rng.random() < 0.9 else cs[int(rng.integers(len(cs)))]
        moves.append(format_card(mv))
        pos = pos.apply(mv)
        line.append(pos)
    return moves, line


#: (deck, exchange, endgame, trick length) for the known-stock sweep
CASES = [(d, e, g, t) for d in ("catalan48", "spanish40") for e in ("seven-two", "seven", "two-any", "none")
         for g, t in (("arrastre", 4), ("follow", 5))]


def test_six_known_stock_solve_and_lines():
    """solve = oracle on random positions and on every position of a random line from each; analyse_play
    for both sides along the line = points captured along it + the oracle's future points."""
    from solver.api import analyse_play, solve
    rng = np.random.default_rng(6062)
    stats = {"positions": 0, "swap": 0, "differ": 0, "swapped": 0}
    for deck, ex, eg, tl in CASES * 2:
        pos, _ = random_position(rng, deck, ex, eg, tl)
        moves, line = random_line(rng, pos)
        stats["swapped"] += "swap" in moves
        ov = []
        for i, p in enumerate(line):
            if p.is_terminal:
                ov.append(0)
                continue
            v, vals = oracle.solve(str(p))
            r = solve(p, pv=False)
            assert (r.value, r.moves) == (v, vals), (str(pos), moves[:i], str(p), r.moves, vals)
            ov.append(v)
            stats["positions"] += 1
            stats["swap"] += "swap" in vals
            stats["differ"] += len(set(vals.values())) > 1
        for s in (pos.turn, (pos.turn + 1) % N):
            want = [p.side_points(s) - pos.side_points(s) + (ov[i] if p.is_terminal or p.turn % 2 == s % 2
                                                              else p.future_points() - ov[i])
                    for i, p in enumerate(line)]
            assert analyse_play(pos, moves, perspective=s) == want, (str(pos), moves, s)
    # not vacuous: exchanges legal and taken, moves of different values
    assert stats["positions"] > 400 and stats["swap"] >= 3 and stats["swapped"] >= 2 and stats["differ"] >= 20, stats


def test_six_known_stock_free_endgame():
    """The ``free`` endgame (R9 default) with five cards in the trick: solve = oracle."""
    from solver.api import solve
    rng = np.random.default_rng(6063)
    pos, _ = random_position(rng, "catalan48", "seven-two", "free", 5)
    v, vals = oracle.solve(str(pos))
    r = solve(pos, pv=False)
    assert (r.value, r.moves) == (v, vals), (str(pos), r.moves, vals)
    assert len(vals) >= 2


@pytest.mark.parametrize("seed,deck,ex,eg", [(17, "catalan48", "seven-two", "arrastre"),  # swap legal and best
                                             (9, "catalan48", "two-any", "arrastre")])
def test_six_hidden_stock(seed, deck, ex, eg):
    """``stock=?``: solve's value and move values = the oracle's expectimax (every order of the five
    face-down cards equally likely, the pinta last, R6) to 1e-9."""
    from solver.api import solve
    rng = np.random.default_rng(seed)
    pos, unknown = random_position(rng, deck, ex, eg, 5, hidden=True)
    assert pos.stock is None
    assert seed != 17 or "swap" in [format_card(m) for m in pos.legal_moves()]  # (not vacuous: R7 in play)
    v, vals = oracle.solve(str(pos), unknown=unknown)
    r = solve(pos, pv=False)
    assert abs(float(r.value) - float(v)) < 1e-9, (str(pos), r.value, v)
    assert set(r.moves) == set(vals), (str(pos), r.moves, vals)
    for m in vals:
        assert abs(float(r.moves[m]) - float(vals[m])) < 1e-9, (str(pos), m, r.moves, vals)
