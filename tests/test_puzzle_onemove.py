"""solver/puzzles.py: a position with exactly one legal move is no puzzle (``len(res.moves) < 2``).

A puzzle is a position where exactly one of the legal moves reaches 61 (RULES R8): a choice with one right
answer. Where the side to move has a single legal move there is nothing to choose, even when that move
reaches 61, so ``find_puzzles`` skips the position. With two players and the default rules (R9 ``free``:
any card may be played) only a one-card hand has a single legal move, i.e. the last trick (plies 38 and
39), while the walk stops at ply 37 at most, so a real deal never reaches the branch: here ``deal_position``
hands the search a position written by hand with 22 plies left, and the walk of seed 49 (20 plies,
the first draw of ``numpy.random.default_rng(49)``, then random legal moves) ends on the last trick,
seat 0 to lead its only card."""
from __future__ import annotations

import numpy as np

#: Two players, 11 tricks left (6 cards in hand, 15 face-down plus the pinta 12O to draw), the 7 and 2
#: of trumps already played (no R7 exchange can change the ply count).
START = ("players=2 trump=12O hands=1O,7B,2E/6O,12E,1B "
         "stock=2B,10C,5C,2C,12B,3B,10B,7C,11E,5E,4B,10E,3E,10O,1E turn=0 trick= points=22,22")
SEED = 49


def test_one_legal_move_is_not_a_puzzle(monkeypatch):
    """The one examined position has a single legal move that reaches 61 (so the ``winners`` test alone
    would keep it): ``find_puzzles`` yields nothing for it, and still counts the try."""
    import solver.api
    import solver.position
    from solver.position import Position
    from solver.puzzles import find_puzzles

    start = Position.parse(START)
    # the walk's length is the first draw of the search's generator (20): START's 22 plies less 2
    assert int(np.random.default_rng(SEED).integers(20, 38)) == 22 - 2
    monkeypatch.setattr(solver.position, "deal_position", lambda rules, seed, d: start)
    seen = []
    real_solve = solver.api.solve

    def spy(pos, *a, **k):
        res = real_solve(pos, *a, **k)
        seen.append((pos, res))
        return res

    monkeypatch.setattr(solver.api, "solve", spy)
    ticks = []
    found = list(find_puzzles(1, seed=SEED, max_tries=1, on_try=lambda: ticks.append(1)))
    assert ticks == [1]
    assert len(seen) == 1, "the walk did not end on a position that was solved"
    pos, res = seen[0]
    need = 61 - pos.side_points(pos.turn)
    assert len(pos.legal_moves()) == 1 and len(res.moves) == 1, str(pos)  # the last trick: one card each
    (move, value), = res.moves.items()
    assert 0 < need <= value, (str(pos), need, res.moves)  # the one move reaches 61: a "winner"
    assert found == [], found  # ... but a forced move is no puzzle

