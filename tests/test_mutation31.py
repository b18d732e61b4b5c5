"""Mutation pass 31 over solver/selfplay.py (open-hand self-play) and solver/chance.py (the ``stock=?``
expectimax): the survivors' tests. Self-play rows are played by stand-ins for ``play_open_deal`` (no search):
the bookkeeping in ``play_open_batch`` and ``_fill_row`` is what is checked."""
from __future__ import annotations

import numpy as np
from conftest import first_moves_play


def _outs(rules, m):
    from sim.engine import R_SIZE, T_SIZE
    return (np.zeros((m, R_SIZE), np.int16), np.zeros((m, rules.players, 3), np.int8), np.zeros(m, np.uint64),
            np.zeros((m, rules.tricks, T_SIZE), np.int16))


def test_play_open_batch_rotations_from_a_later_row(monkeypatch):
    """Row r plays deal r // rotations, row0 included: row0=1 with 2 rotations is the second row of deal 0,
    row0=3 the second of deal 1. Mutant: deal row0 + i // rotations (deal 1, then 3)."""
    from sim.rng import deal_seed
    from sim.rules import Rules
    from solver import selfplay
    monkeypatch.setattr(selfplay, "play_open_deal", first_moves_play)
    rules = Rules(players=2, deck="rapida20")
    outs = _outs(rules, 3)
    selfplay.play_open_batch(rules, 7, 1, 3, 2, *outs, False)
    want = [int(deal_seed(np.uint64(7), np.uint64(d))) for d in (0, 1, 1)]
    assert [int(x) for x in outs[2]] == want


def test_three_player_winner_below_61_is_the_best_seat(monkeypatch):
    """RULES R8: with three players the seat with the most card points wins even below 61; only a tie for
    the most is a draw (-1). Mutant: any best below 61 booked as a draw (the tie count taken >= 1)."""
    from sim.engine import R_SIDE_POINTS, R_WINNER
    from sim.rules import Rules
    from solver import selfplay
    monkeypatch.setattr(selfplay, "play_open_deal", first_moves_play)
    rules = Rules(players=3, deck="spanish40")
    m = 12
    outs = _outs(rules, m)
    selfplay.play_open_batch(rules, 3, 0, m, 1, *outs, False)
    seen = 0
    for row in outs[0]:
        side = [int(row[R_SIDE_POINTS + s]) for s in range(3)]
        top = max(side)
        want = side.index(top) if side.count(top) == 1 else -1
        assert int(row[R_WINNER]) == want, side
        seen += top < 61 and side.count(top) == 1
    assert seen  # (the case the mutant gets wrong is among these rows)


def _side0_takes_all(rules, seed, d, ws=None):
    """A stand-in for ``play_open_deal``: deal ``d`` of ``seed`` played so that the even seats take every
    trick (depth-first over the legal moves, a line dropped at its first trick the odd seats take); None
    when the deal has no such line."""
    from solver.position import deal_position
    pos = deal_position(rules, seed, d)
    n = rules.players
    budget = [20000]

    def go(cur, moves):
        if cur.is_terminal:
            return moves
        budget[0] -= 1
        if budget[0] < 0:
            return None
        for mv in sorted(cur.legal_moves()):
            nxt = cur.apply(mv)
            if len(nxt.trick) == 0 and len(cur.trick) == n - 1 and nxt.turn % 2:  # the odd side took it
                continue
            line = go(nxt, moves + [mv])
            if line is not None:
                return line
        return None

    line = go(pos, [])
    return None if line is None else {"moves": line, "value": None, "position": pos, "nodes": 0}


def test_capote_is_a_side_taking_every_point(monkeypatch):
    """R_CAPOTE: one side took all 120 card points, however its seats shared them (4 players: seats 0 and 2).
    Mutant: a capote only when one seat took them all."""
    from sim.engine import R_CAPOTE, R_SEAT_POINTS, R_SIDE_POINTS
    from sim.rules import Rules
    from solver import selfplay
    rules = Rules(players=4, deck="spanish40")
    d = 6  # (deal 6 of seed 1 has such a line, found at once; deals 0-5 have none)
    monkeypatch.setattr(selfplay, "play_open_deal", _side0_takes_all)
    outs = _outs(rules, 1)
    selfplay.play_open_batch(rules, 1, d, 1, 1, *outs, False)
    row = outs[0][0]
    assert int(row[R_SIDE_POINTS]) == 120 and int(row[R_SIDE_POINTS + 1]) == 0
    assert max(int(row[R_SEAT_POINTS + s]) for s in range(4)) < 120
    assert int(row[R_CAPOTE]) == 1


def test_solve_chance_ties_listed_lowest_card_id_first():
    """stock=?: moves of equal expectation keep the legal moves' order (lowest card id first, ``swap`` last),
    in ``moves`` and in ``best``. Mutant: ties sorted highest card id first."""
    from sim.cards import parse_card
    from solver.chance import solve_chance
    r = solve_chance("players=2 trump=10B hands=3E,3C,12B/10O,11O,11B stock=? turn=1 trick= points=42,34 "
                     "deck=rapida20 played=12O,3O,1O,10C,11C,12C,1C,10E,11E,12E,1E,1B")
    assert r.moves == {"10O": 25, "11O": 25, "11B": 12} and list(r.moves) == ["10O", "11O", "11B"]
    assert r.best == ["10O", "11O"] and parse_card("10O") < parse_card("11O")


def test_solve_chance_takes_an_empty_stock():
    """An empty known stock (``stock=``) has no order to drop: solve_chance solves it as ``stock=?`` with none
    to draw, the exact solver's value and moves. Mutant: any given stock refused (``is not None``)."""
    from solver import solve
    from solver.chance import solve_chance
    one = "players=2 trump=11E hands=/10C stock= turn=1 trick=4B"
    r, exact = solve_chance(one), solve(one)
    assert (r.value, r.moves, r.best) == (exact.value, exact.moves, exact.best) and r.moves == {"10C": 0}
