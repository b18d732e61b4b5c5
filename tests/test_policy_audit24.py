"""Policy audit 24 (helper): ``greedy``, ``counter``, ``expert`` (sim/policies.py, sim/expert.py) and
``heuristic`` rule 4 (sim/heuristic.py) against their docstrings and RULES.md (R3 sides, R5 trick winner,
R6 drawing, R9 endgame obligations) with 3, 4 and 6 players.

No mismatch was found: the policies' choices equal plain-Python readings of their docstrings on random
3/4/6-player views (R9 ``follow``/``arrastre`` masks included) and no policy returned an illegal card in
``sim.batch.simulate`` runs of every multi-player table and endgame. The tests below pin the cases no
earlier test covered: six players on catalan48 (teams of seats 0+2+4 and 1+3+5, R3) with the trick holder
read from 3 to 5 cards, and the expert's documented team play (load on a trick the partner holds safely,
save when an opponent still to play can take it; the last-draw pinta term of R6).
"""
from __future__ import annotations

import numpy as np

from conftest import seat_view
from sim import view as V
from sim.cards import format_card, parse_card


def _heur(v):
    from sim.heuristic import heuristic_action
    return format_card(int(heuristic_action(v)))


def _greedy(v):
    from sim.policies import greedy_action
    return format_card(int(greedy_action(v)))


def _expert(v, mode):
    from sim.expert import expert_action
    return format_card(int(expert_action(v, np.zeros(4), mode)))


def _six(hand, trick, leader, **kw):
    return seat_view(hand, trick=trick, players=6, leader=leader, pinta="7B", deck="catalan48", left=18, **kw)


# ----------------------------------------------------------------- heuristic, six players (rules 3 and 4)
def test_heuristic_rule4_six_players_last_seat_loads_on_a_partner_trumped_trick():
    """Rule 4: seat 5 plays last; its partner seat 3 holds the trick with the 4 of trumps on an Oros lead
    (R5: a trump beats the suit led), so the last seat loads its strongest non-trump point card."""
    v = _six(["3C", "5E", "8C"], ["4O", "5O", "6O", "4B", "7O"], leader=0)
    assert v[V.V_SEAT] == 5
    assert _heur(v) == "3C"


def test_heuristic_rule4_six_players_not_last_sheds_and_an_opponent_trick_is_not_loaded():
    """Rule 4, 'the others shed': seat 3's partner seat 1 holds with the ace, seats 4 and 5 still to play: shed
    the low non-trump (the 8 is a low card in catalan48, R2). Same cards, the ace played by an opponent (seat 2):
    rule 3, a trick worth 11 with no winner of the suit led is taken with the weakest winning trump."""
    assert _heur(_six(["3C", "5E", "8C"], ["4O", "1O", "8O"], leader=0)) == "5E"
    v = _six(["3C", "2B", "8C"], ["4O", "8O", "1O"], leader=0)  # seat 3: the ace is seat 2's (opponent)
    assert _heur(v) == "2B"


def test_heuristic_rule3_six_players_trumped_non_trump_lead():
    """Rule 3 (the pass-23 fix) with six players: an Oros lead trumped by an opponent is over-trumped with the
    weakest winning trump when the trick holds 10 or more, and shed on (low non-trump) when it holds 0."""
    assert _heur(_six(["5B", "1B", "8C"], ["3O", "4B"], leader=1)) == "5B"
    assert _heur(_six(["5B", "1B", "8C"], ["4O", "4B"], leader=1)) == "8C"


# ----------------------------------------------------------------- greedy, six players
def test_greedy_six_players_reads_the_holder_of_a_five_card_trick():
    """greedy: a trick with points held by the seat's side is shed on; held by an opponent it is won with the
    cheapest winning card (fewest points, non-trump before trump, weakest first). Seat 5 last: the Rey of Oros
    led by seat 0 is trumped by seat 3 (partner) in one trick, by seat 2 (opponent) in the other."""
    assert _greedy(_six(["3C", "5B", "8C"], ["12O", "5O", "6O", "4B", "7O"], leader=0)) == "8C"
    assert _greedy(_six(["3C", "5B", "8C"], ["12O", "5O", "4B", "6O", "7O"], leader=0)) == "5B"


# ----------------------------------------------------------------- counter / expert, teams (rule 6)
def test_expert_loads_on_a_safe_partner_trick_and_saves_when_an_opponent_can_take_it():
    """sim.expert rule 6: 'a seat loads points on a trick its partner holds safely and saves them when an
    opponent still to play can take it'. Four and six players: the partner led the trump ace (nothing beats
    it, R5): the 3 of Copas is loaded, though seats still to play. The partner holds with the ace of Oros and
    the next seat, an opponent, is known to hold a trump (V_KNOWN, the old pinta): the 5 of Espadas is
    shed."""
    for players in (4, 6):
        kw = dict(deck="catalan48", left=18) if players == 6 else {}
        v = seat_view(["3C", "5E", "6C"], trick=["1B", "4O"], players=players, leader=0, pinta="7B", **kw)
        assert v[V.V_SEAT] == 2
        for mode in (1, 3):
            assert _expert(v, mode) == "3C", (players, mode)
        v = seat_view(["3C", "5E", "6C"], trick=["1O", "4O"], players=players, leader=0, pinta="7B", **kw)
        v[V.V_KNOWN + 3] = np.int64(1) << parse_card("12B")
        for mode in (1, 3):
            assert _expert(v, mode) == "5E", (players, mode)


def test_expert_teams_last_draw_leaves_a_small_trick_to_take_the_trump_ace_pinta():
    """sim.expert rule 6, teams at the last draw (V_LEFT == 4 with four players): the pinta goes to the seat
    just before the trick winner, a seat of the losing side (R6). Seat 3 plays last on a 4-point trick held
    by the opponent seat 0; winning it with the 7 of Copas sends the trump ace (the pinta) to seat 2, an
    opponent, so the counter sheds and draws the ace itself; one draw earlier (V_LEFT == 8) it takes the
    trick. greedy and heuristic, which do not look at the draw, take it."""
    def view(left):
        return seat_view(["7C", "2E", "4E"], trick=["6C", "5E", "12E"], players=4, leader=0, trump=0,
                         pinta="1O", left=left)
    assert view(4)[V.V_SEAT] == 3
    for mode in (1, 3):
        assert _expert(view(4), mode) == "2E"
        assert _expert(view(8), mode) == "7C"
    assert _greedy(view(4)) == "7C" and _heur(view(4)) == "7C"
