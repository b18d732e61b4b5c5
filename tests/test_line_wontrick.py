"""Line differential under RULES R7's ``won-trick`` exchange condition: :func:`solver.api.analyse_play`
(one transposition table along a line), :func:`solver.api.solve` and :func:`solver.api.solve_many` on every
position of random lines of play against the plain-Python oracle (tests/solver_oracle.py), which is told the
sides that have won a trick (``won``; not in the notation). Positions are small and late in the stock phase
(cards still to draw, so the exchange of R7 is in play) for 2, 3 and 4 players, every exchange rule, random
sets of sides that have won, and lines that take the exchange when it is legal. ``Position.apply``'s
``side_won`` is checked against the trick winners computed here (R5: the winner's side is added)."""
from __future__ import annotations

import numpy as np
import pytest

from sim.cards import CARD_POINTS, CARD_SUIT, SWAP, card_id, format_card
from sim.rules import Rules

import solver_oracle as oracle


def random_position(rng, players, exchange, deck=None, remove=None, rounds=1, trick_len=0, side_won=None):
    """A valid position under ``exchange_condition="won-trick"``: ``rounds * players`` cards left to draw
    (the pinta included), ``trick_len`` cards in the current trick, every other card played and its points
    given to random seats, a random ``side_won`` (every bitmask of the sides) unless given. The 7 and the 2
    of trumps are placed in play more often than at random, so that exchanges happen (R7)."""
    from solver.position import Position
    rules = Rules(players=players, deck=deck, exchange=exchange, exchange_condition="won-trick", remove=remove)
    n = players
    cards = list(rules.deck_cards)
    pinta = int(cards[int(rng.integers(len(cards)))])
    suit = int(CARD_SUIT[pinta])
    chosen = [pinta]
    for rank in (7, 2):
        c = card_id(rank, suit)
        if c in cards and c != pinta and rng.random() < 0.7:
            chosen.append(c)
    rest = [c for c in cards if c not in chosen]
    rng.shuffle(rest)
    total = 3 * n + rounds * n
    others = chosen[1:] + rest[:total - len(chosen)]
    rng.shuffle(others)
    leader, trick, hands, stock, points = place(rng, n, cards, chosen, others, trick_len)
    assert len(stock) == rounds * n - 1
    if side_won is None:
        side_won = int(rng.integers(1 << rules.sides))
    return Position.make(rules, pinta, hands, stock, turn=(leader + trick_len) % n, trick=trick, points=points,
                         side_won=side_won)


def place(rng, n, cards, chosen, others, trick_len):
    """Seat the cards of a position: a random leader, the first ``trick_len`` of ``others`` in the trick,
    three cards a hand (two for the seats that have played to it), the rest of ``others`` in the stock, and
    the points of every card of ``cards`` in neither ``chosen`` (the pinta first) nor ``others`` to random
    seats. Returns ``(leader, trick, hands, stock, points)``."""
    leader = int(rng.integers(n))
    trick = others[:trick_len]
    at = trick_len
    hands = []
    for s in range(n):
        k = 2 if (s - leader) % n < trick_len else 3
        hands.append(others[at:at + k])
        at += k
    points = [0] * n
    for c in cards:
        if c not in chosen and c not in others:
            points[int(rng.integers(n))] += int(CARD_POINTS[c])
    return leader, trick, hands, others[at:], points


def random_line(rng, pos, p_swap=0.6):
    """Random legal moves from ``pos`` to the end of the deal (the exchange taken with ``p_swap`` when
    legal). Returns the move strings and the positions along the line (``len(moves) + 1``)."""
    moves, line = [], [pos]
    while not pos.is_terminal:
        legal = pos.legal_moves()
        if SWAP in legal and rng.random() < p_swap:
            mv = SWAP
        else:
            cards = [m for m in legal if m != SWAP]
            mv = cards[int(rng.integers(len(cards)))]
        moves.append(format_card(mv))
        pos = pos.apply(mv)
        line.append(pos)
    return moves, line


def _ocard(c):
    return oracle.card(format_card(c))


def check_side_won(line, moves):
    """``side_won`` along the line as ``Position.apply`` keeps it = the start's bits plus the side of each
    trick's winner (R5, computed with the oracle's own ``winner``); a swap changes nothing."""
    sw = line[0].side_won
    sides = line[0].rules.sides
    n = line[0].rules.players
    for i, mv in enumerate(moves):
        p = line[i]
        if mv != "swap" and len(p.trick) == n - 1:
            trick = tuple(_ocard(c) for c in p.trick) + (oracle.card(mv),)
            w = (p.leader + oracle.winner(trick, oracle.card(format_card(p.trump))[1])) % n
            sw |= 1 << (w % sides)
        assert line[i + 1].side_won == sw, (str(line[0]), line[0].side_won, moves[:i + 1])


def compare_line(rng, pos, threads=1, stats=None):
    """Every comparison on one random line from ``pos``; returns the number of values compared. Raises
    AssertionError naming the start position, its ``side_won`` and the line on a disagreement."""
    from solver.api import analyse_play, solve, solve_many
    moves, line = random_line(rng, pos)
    check_side_won(line, moves)
    n = pos.rules.players
    sides = pos.rules.sides
    tag = (str(pos), pos.side_won, moves)
    compared = 0
    persp = int(rng.integers(n))
    persps = [persp] if sides == 3 else [persp, (persp + 1) % n]
    ov = {}  # (i, seat) -> oracle future points of seat's side
    results = []
    for i, p in enumerate(line):
        if p.is_terminal:
            for s in persps:
                ov[(i, s)] = 0
            continue
        text = str(p)
        v, vals = oracle.solve(text, won=p.side_won)
        r = solve(p, pv=False)
        assert r.value == v and r.moves == vals, (tag, i, text, p.side_won, r.moves, vals)
        compared += 1 + len(vals)
        results.append((p, r))
        if stats is not None:
            stats["positions"] = stats.get("positions", 0) + 1
        for s in persps:
            if s % sides == p.turn % sides:
                ov[(i, s)] = v
            elif sides == 2:
                ov[(i, s)] = p.future_points() - v
            else:
                ov[(i, s)] = oracle.solve_for(text, seat=s, won=p.side_won)[0]
        if stats is not None and p.side_won != (1 << sides) - 1 and p.left > 0 and \
                stats.get("cutchecks", 0) < 400:
            stats["cutchecks"] = stats.get("cutchecks", 0) + 1
            stats["cut"] = stats.get("cut", 0) + (oracle.solve(text)[1] != vals)
    for s in persps:
        got = analyse_play(pos, moves, perspective=s)
        want = [line[i].side_points(s) - pos.side_points(s) + ov[(i, s)] for i in range(len(line))]
        assert got == want, (tag, "analyse_play perspective", s, got, want)
        compared += len(want)
    many = solve_many([p for p, _ in results], threads=threads, pv=False)
    for (p, r), m in zip(results, many):
        assert m.value == r.value and m.moves == r.moves, (tag, str(p), p.side_won, m.moves, r.moves)
        compared += 1 + len(m.moves)
    return compared


#: (players, exchange, extra Rules fields, rounds of draws, trick lengths, lines)
CASES = [
    (2, "seven-two", {}, 3, (0, 1), 20), (2, "seven", {}, 2, (0, 1), 6), (2, "two-any", {}, 2, (0, 1), 6),
    (2, "none", {}, 1, (0,), 2), (2, "seven-two", {"deck": "catalan48"}, 1, (0, 1), 3),
    (3, "seven-two", {}, 1, (0, 1, 2), 6), (3, "two-any", {"remove": "all2s"}, 1, (1, 2), 3),
    (3, "seven", {}, 1, (1, 2), 3),
    (4, "seven-two", {}, 1, (1, 2, 3), 8), (4, "two-any", {}, 1, (2, 3), 4),
]


@pytest.mark.parametrize("players,exchange,kw,rounds,tricks,lines", CASES,
                         ids=[f"{c[0]}p-{c[1]}-{'-'.join(c[2].values()) or 'default'}" for c in CASES])
def test_line_values_won_trick(players, exchange, kw, rounds, tricks, lines):
    """analyse_play, solve and solve_many = the oracle on every position of random lines under won-trick."""
    rng = np.random.default_rng(1000 * players + len(exchange) + rounds)
    total = 0
    for j in range(lines):
        pos = random_position(rng, players, exchange, rounds=1 + j % rounds,
                              trick_len=tricks[j % len(tricks)], **kw)
        total += compare_line(rng, pos, threads=1 + (j % 3 == 2))
    assert total > 0


def test_won_trick_condition_changes_values():
    """The comparisons above could pass with the condition ignored unless it changes values: on these
    lines the oracle with the condition (``won``) and without it disagree on some position, and the solver
    follows the one with it."""
    from solver.api import solve
    rng = np.random.default_rng(77)
    changed = 0
    for j in range(40):
        pos = random_position(rng, 2, "seven-two", rounds=2, side_won=int(rng.integers(3)))
        moves, line = random_line(rng, pos)
        for p in line:
            if p.is_terminal or p.left == 0:
                continue
            text = str(p)
            with_c = oracle.solve(text, won=p.side_won)[1]
            without = oracle.solve(text)[1]
            if with_c != without:
                changed += 1
                assert solve(p, pv=False).moves == with_c, (text, p.side_won)
        if changed >= 5:
            break
    assert changed >= 5, changed


def test_side_won_of_apply_on_a_line():
    """R5/R7: the sides ``Position.apply`` records as having won a trick, on lines from no side won."""
    rng = np.random.default_rng(5)
    for players in (2, 3, 4):
        for _ in range(20):
            pos = random_position(rng, players, "seven-two", rounds=1, side_won=0)
            moves, line = random_line(rng, pos)
            check_side_won(line, moves)
            assert line[-1].side_won != 0
