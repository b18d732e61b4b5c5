"""Mutation testing, pass 30 (sim/expert.py, the ``expert``/``counter`` policies): 43 hand-made mutants, 40
killed by the existing tests, 1 equivalent (the trick holder's seat wrapped at ``> nseats``: the unwrapped
seat has the parity of seat 0 with 2, 4 or 6 seats, and with 3 players seat 0 is never the seat to play
when it holds the trick). Both survivors are killed below: the pinta counted among the trumps still out when
seat 0 drew it (``V_PINTA_SEAT <= 0``), and the teams' last-draw mean (checked against the rule-6 reading
of tests/test_mutation5.py, module docstring and RULES R6)."""
from __future__ import annotations

import random

import numpy as np

from conftest import seat_view
from sim import view as V
from sim.cards import format_card, parse_card
from test_mutation5 import _random_view, _rule6_values


def _lowest_best(vals):
    best = max(vals.values())
    return min(c for c, x in vals.items() if x >= best - 1e-9)


def test_expert_own_pinta_drawn_is_not_a_trump_still_out():
    """Rule 3: trumps still out are the outside trumps plus the pinta *while under the stock*; rule 6 adds
    T_MASTER to keep(c) for the highest trump out. Two players, stock empty, seat 0 drew the pinta (the 1 of
    Bastos) and the 3 of Bastos is played, so its Rey of Bastos is the master trump: keep = 4 + T_BASE +
    T_STR * 9/11 + T_MASTER = 11.45 and trumping the 4 of Copas is worth 4 - 11.45 - LEAD_PEN = -7.95, below
    shedding the Rey of Espadas, -4 - (4 * NT_ALPHA + NT_STR * 9/11) = -7.22. Mode 0 (par[3] bit 0: no exact
    search). Pass 30: the pinta counted out once seat 0 held it (``V_PINTA_SEAT <= 0``, so no T_MASTER and
    the Rey of Bastos played, -5.95) passed every test."""
    from sim.expert import expert_action
    v = seat_view(["1B", "12B", "12E"], trick=["4C"], pinta="1B", played=["3B"], leader=1, left=0)
    assert v[V.V_SEAT] == 0
    v[V.V_PINTA_SEAT] = 0
    v[V.V_KNOWN + 0] = 1 << parse_card("1B")
    assert format_card(int(expert_action(v, np.zeros(4), 0))) == "12E"


def test_expert_teams_last_draw_term_is_the_mean_keep_of_the_unseen_cards():
    """Rule 6, teams at the last draw (V_LEFT == seats): LAST_DRAW_W * p_win * (mean keep(unseen) -
    keep(pinta)), the mean over all N unseen cards. Pass 30: the mean taken over N - 1 passed every test (the
    existing check allowed any card of the largest value)."""
    from sim.expert import expert_action
    rng = random.Random(31)
    for players, deck in ((4, "spanish40"), (6, "catalan48")):
        for i in range(600):
            v = _random_view(rng, players, deck, left=players)
            if int(v[V.V_LEGAL]) & (int(v[V.V_LEGAL]) - 1) == 0:
                continue
            a = int(expert_action(v, np.zeros(4), 0))
            assert a == _lowest_best(_rule6_values(v)), (players, i, a)
