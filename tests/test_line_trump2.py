"""Line differential under RULES R3's ``remove=trump2`` (three players only): :func:`solver.api.solve`,
:func:`solver.api.analyse_play` (one transposition table along a line) and :func:`solver.api.solve_many` on
every position of random lines of play against the plain-Python oracle (tests/solver_oracle.py).

``remove=trump2`` sets the 2 of trumps aside and disables R7's 2-exchange. In the deal whose first turned
card is a 2 (R3: that 2 is set aside and the next card turned), the 2 of the new trump suit stays in play;
the positions below hold it often, with a pinta the 2-exchange would take (4, 5, 6, 7), so a solver that
let the 2 be exchanged disagrees with the oracle. Lines start late in the stock phase (cards still to draw,
so R7 is in play), under every exchange rule, both exchange conditions and every endgame rule (R9); some
start from real deals (:func:`solver.position.deal_position`) whose turned card was a 2. ``remove=trump2``
with 2 or 4 players is refused (R3: three players only). A wider sweep of the same comparison (about
485,000 values on 52,600 positions, no disagreement) was run once outside the suite."""
from __future__ import annotations

import numpy as np
import pytest

from sim.cards import CARD_RANK, CARD_SUIT, card_id
from sim.rules import Rules

import solver_oracle as oracle
from test_line_wontrick import place, random_line  # (seating the cards; random legal moves to the end)


def trump2_position(rng, exchange, condition, endgame, rounds=1, trick_len=0, turned2=False):
    """A valid three-player ``remove=trump2`` position with ``3 * rounds`` cards left to draw (the pinta
    included) and ``trick_len`` cards in the trick. ``turned2``: the deal whose turned card was the 2 of
    another suit (set aside, ``removed=``), the 2 of trumps then in play and dealt with p=0.8; the 7 of
    trumps with p=0.7; the pinta a 4-7 half the time (where R7's 2-exchange would apply)."""
    from solver.position import Position
    rules = Rules(players=3, remove="trump2", exchange=exchange, exchange_condition=condition, endgame=endgame)
    n = 3
    t = int(rng.integers(4))
    rank = int(rng.choice([4, 5, 6, 7])) if rng.random() < 0.5 else int(rng.choice([1, 3, 10, 11, 12, 5, 6]))
    pinta = card_id(rank, t)
    removed = card_id(2, int(rng.choice([s for s in range(4) if s != t]))) if turned2 else card_id(2, t)
    cards = [c for c in rules.deck_cards if c != removed]
    chosen = [pinta]
    for r, p in ((7, 0.7), (2, 0.8)):
        c = card_id(r, t)
        if c in cards and c not in chosen and rng.random() < p:
            chosen.append(c)
    rest = [c for c in cards if c not in chosen]
    rng.shuffle(rest)
    others = chosen[1:] + rest[:3 * n + rounds * n - len(chosen)]
    rng.shuffle(others)
    leader, trick, hands, stock, points = place(rng, n, cards, chosen, others, trick_len)
    side_won = int(rng.integers(1 << rules.sides)) if condition == "won-trick" else 0
    return Position.make(rules, pinta, hands, stock, turn=(leader + trick_len) % n, trick=trick,
                         points=points, side_won=side_won, removed=removed if turned2 else -1)


def compare_line(rng, pos, threads=1, stats=None):
    """Every comparison on one random line from ``pos``; returns the number of values compared. The oracle
    is told ``won`` only under won-trick. Under ``any`` the string also reads back as the position (the
    notation has no field for the won-trick condition) and solves the same; no swap gives up the 2 of
    trumps (R3)."""
    from solver.api import analyse_play, solve, solve_many
    from solver.position import Position
    moves, line = random_line(rng, pos)
    wt = pos.rules.exchange_condition == "won-trick"
    tag = (str(pos), pos.side_won, pos.removed, moves)
    persp = int(rng.integers(3))
    compared = 0
    ov = {}
    results = []
    for i, p in enumerate(line):
        if i < len(moves) and moves[i] == "swap":
            assert line[i + 1].trump != card_id(2, int(CARD_SUIT[p.trump])), (tag, i, "the 2 was exchanged")
        if p.is_terminal:
            ov[i] = 0
            continue
        text = str(p)
        won = p.side_won if wt else None
        v, vals = oracle.solve(text, won=won)
        r = solve(p, pv=False)
        assert r.value == v and r.moves == vals, (tag, i, text, p.side_won, r.moves, vals)
        compared += 1 + len(vals)
        if not wt:
            q = Position.parse(text)
            assert q == p and str(q) == text, (tag, i, text)
            rq = solve(q, pv=False)
            assert rq.value == r.value and rq.moves == r.moves, (tag, i, text)
        if stats is not None and card_id(2, int(CARD_SUIT[p.trump])) in p.hands[p.turn] and p.left > 0 \
                and CARD_RANK[p.trump] in (4, 5, 6, 7):
            stats["two_low_pinta"] = stats.get("two_low_pinta", 0) + 1
        results.append((p, r))
        ov[i] = v if persp == p.turn else oracle.solve_for(text, seat=persp, won=won)[0]
    got = analyse_play(pos, moves, perspective=persp)
    want = [line[i].side_points(persp) - pos.side_points(persp) + ov[i] for i in range(len(line))]
    assert got == want, (tag, "analyse_play", persp, got, want)
    compared += len(want)
    many = solve_many([p for p, _ in results], threads=threads, pv=False)
    for (p, r), m in zip(results, many):
        assert m.value == r.value and m.moves == r.moves, (tag, str(p), m.moves, r.moves)
        compared += 1 + len(m.moves)
    return compared


#: (exchange, condition, endgame, lines)
CASES = [
    ("seven-two", "any", "free", 8), ("seven-two", "won-trick", "arrastre", 6), ("two-any", "any", "follow", 5),
    ("two-any", "won-trick", "free", 4), ("seven", "won-trick", "follow", 3), ("none", "any", "arrastre", 2),
]


@pytest.mark.parametrize("exchange,condition,endgame,lines", CASES, ids=["-".join(c[:3]) for c in CASES])
def test_line_values_remove_trump2(exchange, condition, endgame, lines):
    """R3 remove=trump2: solve, analyse_play and solve_many = the oracle on every position of random lines,
    half from deals whose turned card was a 2 (the 2 of trumps in play, its exchange disabled)."""
    rng = np.random.default_rng(2300 + len(exchange) + 10 * len(endgame) + (condition == "any"))
    stats = {}
    total = 0
    for j in range(lines):
        pos = trump2_position(rng, exchange, condition, endgame, rounds=1 + (j % 4 == 3),
                              trick_len=j % 3, turned2=j % 2 == 0)
        total += compare_line(rng, pos, threads=1 + (j % 3 == 2), stats=stats)
    assert total > 0


def test_line_values_trump2_turned_two_deal():
    """Lines from real deals (the engine's shuffle) whose first turned card was a 2: the string carries
    ``played=`` (the 2 of trumps is in play), and the values still agree with the oracle."""
    from solver.position import deal_position
    rng = np.random.default_rng(23)
    found = 0
    for d in range(400):
        ex = ("seven-two", "two-any")[found % 2]
        rules = Rules(players=3, remove="trump2", exchange=ex)
        pos = deal_position(rules, 11, d)
        if pos.removed == (card_id(2, int(CARD_SUIT[pos.trump])),):
            continue  # the usual deal: the 2 of trumps is set aside
        assert "played=" in str(pos)
        while pos.left > 3:
            mv = pos.legal_moves()
            pos = pos.apply(mv[int(rng.integers(len(mv)))])
        compare_line(rng, pos)
        found += 1
        if found == 3:
            break
    assert found == 3, found


@pytest.mark.parametrize("players", [2, 4])
def test_trump2_refused_for_two_and_four_players(players):
    """R3: remove=trump2 is a three-player variant; Rules and the notation refuse it for 2 and 4 players."""
    from solver.position import Position
    with pytest.raises(ValueError, match="3 players only"):
        Rules(players=players, remove="trump2")
    text = {2: "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17",
            4: "players=4 trump=7O hands=10C,2O,4B/1E,12C,2C/1O,1C,6B/11C,6C,5B stock=5C,3C,12E turn=2 trick= "
               "points=0,0,54,10"}[players]
    Position.parse(text)
    with pytest.raises(ValueError, match="remove"):
        Position.parse(text + " remove=trump2")
