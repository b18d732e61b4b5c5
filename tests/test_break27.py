"""Break-it pass 27 (helper) on ``simulate`` with 3, 4 and 6 players: no fault was found; these tests
keep the invariants that pass checked, where the earlier passes were mostly 2-player: every deal of
every R3 deck/removal holds 120 points (R2) split consistently between seats, sides and the trick
table; the trick table's winners follow R5 and its leaders chain from seat 0 (R3); and with
``duplicate`` (2 or 3 rotations) the summary's wins, draws and mean points are those of a pandas
reading of the rows, each side's policies counted wherever they sit."""
from __future__ import annotations

import numpy as np
import pytest

from sim.batch import simulate
from sim.rules import Rules

STRENGTH = {1: 12, 3: 11, 12: 10, 11: 9, 10: 8, 9: 7, 8: 6, 7: 5, 6: 4, 5: 3, 4: 2, 2: 1}  # R2
POINTS = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}  # R2
POLICIES = ["expert", "random", "greedy", "counter", "heuristic", "random"]
GAMES = [(3, "spanish40", "2B", "free"), (3, "spanish40", "trump2", "arrastre"), (3, "spanish40", "all2s", "follow"),
         (3, "catalan48", None, "arrastre"), (4, "spanish40", None, "follow"), (4, "catalan48", None, "free"),
         (4, "rapida20", None, "arrastre"), (6, "catalan48", None, "follow"), (6, "spanish40", None, "arrastre")]


@pytest.mark.parametrize("players,deck,remove,endgame", GAMES)
def test_points_tricks_and_summary_agree(players, deck, remove, endgame):
    rules = Rules(players=players, deck=deck, remove=remove, endgame=endgame, exchange_condition="won-trick")
    r = simulate(rules, POLICIES[:players], deals=60, seed=2 ** 64 - 1, duplicate=True, tricks=True, keep_frame=True)
    df, tf, S = r.frame, r.tricks, rules.sides
    sp = df[[f"side_points_{k}" for k in range(S)]].to_numpy(int)
    seat = df[[f"points_{s}" for s in range(players)]].to_numpy(int)
    assert (sp.sum(1) == 120).all() and (seat.sum(1) == 120).all()
    for k in range(S):
        assert (seat[:, k::S].sum(1) == sp[:, k]).all()
    assert (df[[f"tricks_{s}" for s in range(players)]].to_numpy(int).sum(1) == rules.tricks).all()
    # the trick table: R5 winners, points, leaders from seat 0 (R3), seat totals
    trump = df.trump.astype(str).to_numpy()
    got = np.zeros((len(df), players), int)
    for t in tf.itertuples(index=False):
        cards = [str(getattr(t, f"card_{i}")) for i in range(players)]
        best = 0
        for i, c in enumerate(cards[1:], 1):
            b = cards[best]
            if (c[-1] == b[-1] and STRENGTH[int(c[:-1])] > STRENGTH[int(b[:-1])]) or \
                    (c[-1] != b[-1] and c[-1] == trump[t.deal]):
                best = i
        assert (t.leader + best) % players == t.winner
        assert sum(POINTS.get(int(c[:-1]), 0) for c in cards) == t.points
        got[t.deal, t.winner] += t.points
    assert (got == seat).all()
    lead = tf.leader.to_numpy().reshape(len(df), rules.tricks)
    win = tf.winner.to_numpy().reshape(len(df), rules.tricks)
    assert (lead[:, 0] == 0).all() and (lead[:, 1:] == win[:, :-1]).all()
    # the summary against the rows: side k's policies sit on side (k - rotation) % S
    d = r.summary.to_dict()
    rot = df.rotation.to_numpy()
    draw = df.winner.to_numpy() == -1
    for k in range(S):
        j = (k - rot) % S
        own = sp[np.arange(len(df)), j]
        assert d["sides"][k]["wins"] == int((df.winner.to_numpy() == j).sum())
        assert d["sides"][k]["draws"] == int((draw & (own == sp.max(1))).sum())
        assert d["sides"][k]["mean_points"] == pytest.approx(own.mean())
    assert d["draws"] == int(draw.sum()) and d["capotes"] == int((sp == 120).any(1).sum())
