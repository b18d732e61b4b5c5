"""Mutation testing, fourteenth pass (helper, 2026-12-06): the parts of solver/position.py and solver/api.py
that pass 7 (tests/test_mutation7.py) did not target: Position.apply (R5 trick winner, R6 draws with the
pinta drawn last, R7 exchange and the won-trick condition, R9 after the last draw), to_arrays (perspective,
stock=? slots, hidden hands), __str__ (NOTATION.md's canonical string), deal_position, side_points /
side_of, the properties; api.solve's result building (moves best first, best, pv, target / win / seat
modes, stock=? target mode, a terminal position, SolveResult.to_dict) and analyse_play's values.

67 hand-made mutants, one at a time (solver/position.py or solver/api.py restored between them), each run
against this file (warm: about 4 s); a few also against the related existing tests (test_solver.py,
test_break_solver.py, test_mutation5/7.py, test_break_puzzles19.py, test_break_chance11.py,
test_break_solver10.py, selected with -k). 59 are killed by this file, 2 only by existing tests, 6 are
equivalent.

Killed here (test in brackets):
- apply, R5/R6: the winner counted from the seat that played last, not the leader; the trick's points to
  ``ws % sides``; draws in reverse order from the winner; the pinta left at the end of the stock tuple; the last
  draw skipped (``left > n``); the turn after a trick to the leader; ``played`` not extended
  [test_apply_four_players_..., test_apply_two_players_mid_stock_..., test_apply_with_played_given_...,
  test_after_the_last_draw_follow_obliges, test_solve_moves_best_first_best_and_pv].
- apply, R7: the swap passing the turn, dropping the points or ``side_won``; ``side_won |= 1 << ws`` (seat,
  not side) and the win not recorded [test_apply_swap_..., test_apply_records_the_winning_side_...]; the
  set-aside card (R3 trump2 with a turned 2) dropped by a swap or by a card
  [test_trump2_deal_with_a_turned_two_plays_on_through_apply]; ``hidden`` not passed on
  [test_apply_on_an_observation_keeps_the_hidden_hand].
- to_arrays: three players read as teams; the default perspective seat 0; the stock=? pinta slot first; the
  unknown cards or the trick left out of ST_NOTDONE; no open-hands check (a seat's view solved as if its
  unknown cards were nobody's); ST_SIDEWON 0 and ST_EXWON 0 (R7 won-trick); ST_EXCH without R3's trump2
  adjustment (the 2 of trumps in play after a turned 2) [test_to_arrays_*, test_won_trick_*,
  test_trump2_disables_the_two_exchange_in_the_search].
- __str__ / __repr__: ``played`` unsorted; a hand's ``?`` dropped; the default deck written by the wrong rule;
  ``endgame`` before ``exchange``; ``remove`` before ``played``; ``stock=?`` written empty; trump2's
  ``played=`` for a turned 2 not written; ``repr`` the bare string [test_str_*, test_repr_*,
  test_deal_position_trump2_with_a_turned_two].
- deal_position: cards dealt three at a time; the stock reversed; the set-aside card not passed
  [test_deal_position_*]. side_points of the seat alone; side_of as ``seat % 2``; leader as
  ``turn + len(trick)``; is_open as ``not all`` [test_side_points_..., test_properties_...].
- api.solve: moves worst first; ``best`` by ``>= value - 1``; the value as the minimum; ``win`` from the
  seat's own points (not its side's); the no-search shortcut with ``>=`` and with ``reached=True``; target
  mode for the seat to move instead of ``seat`` (also ``seat = pos.turn`` always); the pv a move short; the
  probe compared with ``>``; to_dict's target keys only when reached and without ``best``; a finished deal's
  value None; stock=? target mode keeping the expectation as value or ignoring ``seat``; stock=? with
  ``moves=False`` still listing moves [test_solve_*].
- api.analyse_play: the points gained along the moves left out or reset; the perspective ignored; no fresh
  table stamp [test_analyse_play_*]. The last one is the one of note: without its stamp, analyse_play of
  3p-end vector 5 for the seat to move gave [3] after calls for seats 0 and 1 (value 0).

Killed only by existing tests: ``r.reached = r.value > target`` for stock=? target mode
(test_solver.py::test_stock_unknown_target_reached_at_exactly_the_expectation); ``_unwritable`` never true
(test_break_solver.py::test_trump2_hidden_stock_position_the_notation_cannot_write_warns).

Spot checks against the existing tests (the -k selections above): they miss moves worst first,
analyse_play without its stamp, ``repr`` the bare string, ``endgame`` before ``exchange`` in the canonical
string and apply dropping ``hidden`` (all killed here); they kill ST_SIDEWON 0, ST_EXWON 0, to_dict's target
keys only when reached (test_break_solver.py::test_cli_target_and_win) and stock=? with ``moves=False``
listing moves (test_break_chance11.py). The other mutants were not run against the whole existing suite
(about 2 minutes a run on the shared cores).

Equivalent (not tested): the swap writing the old pinta at the end of the hand instead of in the given card's
place (hand order is not part of a position: equality compares hands as sets, NOTATION.md fixes no order);
is_terminal as ``k == 0`` alone (a trick with every hand empty is refused by validation);
future_points ignoring the removed cards (every removed card, R3, is a 2: 0 points); the target shortcut
``target < 0`` instead of ``<= 0`` (target 0 then goes to the probe, which reaches 0 always); the first
guess 0 instead of half the points left (MTD(f) converges to the same value, only nodes differ);
``stock = tuple(draw[n:])`` without its ``len(draw) > n`` guard (the same empty tuple).

No real bug was found in the original code: a fuzz of 780 deals over 13 rule sets (random play through
apply with swaps, every position reading back from its string, the 120 points kept) and of analyse_play /
target mode against tests/solver_oracle.py on 40 vector positions found no difference.

Expected values come from RULES.md (R5 winner, R6 draw order and the pinta last, R7, R8's 61, R3 sides),
NOTATION.md (canonical field order, ``played`` sorted by suit then rank, the ``?`` observation, "Solver
output"), the shared test vectors (/work/shared/testdata/solver), the plain-Python oracle
tests/solver_oracle.py and sim.engine.shuffle_deal's documented layout (card ``k`` to seat ``k % players``,
the pinta last), never from the function under test.
"""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

import solver_oracle

from sim.cards import SWAP, format_card, parse_card
from sim.rules import Rules
from solver import position as P
from solver.api import analyse_play, solve
from solver.position import Position, deal_position

from conftest import solver_vectors_dir

VECTORS = solver_vectors_dir()  # (the shared folder as tests/test_solver.py finds it)

RANKS40 = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
POINTS = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}  # R2


def _pts(names):
    return sum(POINTS.get(int(c[:-1]), 0) for c in names)


def _ids(names, deck="spanish40"):
    return [parse_card(c, deck) for c in names]


def _hand_names(pos):
    return [sorted(format_card(c) for c in h) for h in pos.hands]


def _vector(name, i):
    line = (VECTORS / f"{name}.jsonl").read_text().splitlines()[i]
    return json.loads(line)


# ----------------------------------------------------------------- apply: R5 winner, R6 draws, pinta last
FOUR_LAST_DRAW = ("players=4 trump=5B hands=4C,6C/4E,6E/7E,11C/3O,7C,12E stock=10C,11E,12C turn=3 "
                  "trick=1O,2O,2B points=0,0,0,0")


def test_apply_four_players_trump_wins_and_pinta_goes_to_the_seat_before_the_winner():
    """Mutants: winner seat counted from the seat that played last instead of the leader; the trick's points
    to ``ws % sides``; draws in the reverse order from the winner; the last draw skipped (``left > n``).

    Seat 0 leads 1O, seat 1 2O, seat 2 trumps with 2B, seat 3 plays 3O: seat 2 wins (R5: a trump beats the
    led suit), takes 11 + 10 = 21 points, leads next; draws 10C (seat 2), 11E (seat 3), 12C (seat 0) and the
    pinta 5B to seat 1, the seat just before the winner (R6)."""
    pos = Position.parse(FOUR_LAST_DRAW)
    after = pos.apply("3O")
    assert after.turn == 2 and after.trick == ()
    assert after.points == (0, 0, 21, 0)
    assert _hand_names(after) == [sorted(["4C", "6C", "12C"]), sorted(["4E", "6E", "5B"]),
                                  sorted(["7E", "11C", "10C"]), sorted(["7C", "12E", "11E"])]
    assert after.stock == () and after.left == 0 and not after.pinta_under
    assert after.side_points(0) == 21 and after.side_points(1) == 0


def test_apply_two_players_mid_stock_keeps_the_pinta_under():
    """Mutants: the pinta kept at the end of the stock tuple after a draw (``stock[-1] == trump`` strip);
    the draws taken from the wrong end.

    NOTATION.md's example: seat 1 plays 2C on 1O, seat 0 wins, draws 2O, seat 1 draws 4B, the stock is
    3E,7C,12B with the pinta 5B still under it (4 cards left to draw)."""
    pos = Position.parse("players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O "
                         "points=62,17")
    after = pos.apply("2C")
    assert [format_card(c) for c in after.stock] == ["3E", "7C", "12B"]
    assert after.pinta_under and after.left == 4 and after.turn == 0
    assert after.points == (73, 17)
    assert _hand_names(after) == [sorted(["3C", "6C", "2O"]), sorted(["10O", "12E", "4B"])]


def test_apply_with_played_given_appends_the_trick_and_reads_back():
    """Mutant: ``played`` not extended by the finished trick (the next position is refused or wrong)."""
    pos = Position.parse(FOUR_LAST_DRAW)
    text = str(pos) + " played=" + ",".join(format_card(c) for c in pos.played)
    given = Position.parse(text)
    after = given.apply("3O")
    assert after.played_given is not None
    assert {format_card(c) for c in after.played} == {format_card(c) for c in pos.played} | {"1O", "2O", "2B", "3O"}
    assert Position.parse(str(after)) == after


WON_TRICK = ("players=4 trump=1B hands=4C,6C/4E,6E/7B,11C/4O,7C,12E stock=10C,11E,12C,2C,3C,5C,7E turn=3 "
             "trick=3O,2O,1O points=0,0,0,0")


def _won_trick_position(side_won):
    p = Position.parse(WON_TRICK)
    rules = Rules(players=4, exchange_condition="won-trick")
    return Position.make(rules, p.trump, p.hands, p.stock, turn=p.turn, trick=p.trick, points=p.points,
                         side_won=side_won)


def test_apply_records_the_winning_side_for_the_won_trick_exchange():
    """Mutants: ``side_won |= 1 << ws`` (seat, not side: refused as a bitmask of 2 sides); the side's win not
    recorded (the exchange withheld).

    R7 ``won-trick``: seat 2 wins the trick with 1O (side 0's first trick), draws 10C, and holds the 7 of
    trumps 7B with the 1B pinta and 3 face-down cards left: it may exchange."""
    pos = _won_trick_position(side_won=2)  # side 1 has won a trick before
    after = pos.apply("4O")
    assert after.turn == 2 and after.points == (0, 0, 21, 0)
    assert after.side_won == 3
    assert SWAP in after.legal_moves()
    swapped = after.apply("swap")
    assert format_card(swapped.trump) == "7B" and swapped.turn == 2 and swapped.side_won == 3
    assert sorted(format_card(c) for c in swapped.hands[2]) == sorted(["1B", "11C", "10C"])
    assert [format_card(c) for c in swapped.stock] == ["3C", "5C", "7E"] and swapped.pinta_under


def test_apply_swap_keeps_the_turn_stock_and_points():
    """Mutants: the swap passes the turn on; the swap drops the points or the stock.

    2p-swap vector: seat 1 holds 2E with the 5E pinta (R7 2-exchange); after it seat 1 still moves, holds
    5E, the pinta is 2E and the stock is unchanged."""
    d = _vector("2p-swap", 0)
    pos = Position.parse(d["position"])
    after = pos.apply("swap")
    assert after.turn == 1 and after.points == (42, 47) and after.stock == pos.stock
    assert format_card(after.trump) == "2E"
    assert sorted(format_card(c) for c in after.hands[1]) == sorted(["4C", "5E", "6O"])
    assert SWAP not in after.legal_moves()


def test_won_trick_exchange_reaches_the_search():
    """Mutant: to_arrays writing no side_won (the kernel then offers no won-trick exchange). After seat 2 wins
    the trick (both sides have now won one, R7 won-trick) the exchange is open to every seat, as under the
    default condition: tests/solver_oracle.py's values, ``swap`` 35 included."""
    after = _won_trick_position(side_won=2).apply("4O")
    want_value, want_moves = solver_oracle.solve(str(after))
    r = solve(after)
    assert r.value == want_value == 35 and r.moves == want_moves and "swap" in r.moves


def test_won_trick_exchange_withheld_from_a_side_that_has_not_won():
    """Mutant: to_arrays writing ST_EXWON 0 (the kernel then lets any seat exchange). The same cards with only
    side 1 having won a trick: seat 2 (side 0) holds 7B with the 1B pinta but may not exchange (R7 won-trick),
    in the legal moves and in the solver's move list."""
    after = _won_trick_position(side_won=2).apply("4O")
    held = Position.make(after.rules, after.trump, after.hands, after.stock, turn=after.turn, points=after.points,
                         side_won=2)
    assert SWAP not in held.legal_moves()
    r = solve(held)
    assert "swap" not in r.moves and sorted(r.moves) == sorted(["7B", "11C", "10C"])


def test_trump2_disables_the_two_exchange_in_the_search():
    """Mutant: to_arrays writing the exchange option without R3's trump2 adjustment. Three players,
    remove=trump2, the first turned card a 2 of Oros (set aside), so the 2 of trumps 2B is in play: seat 0 holds
    it under the 5B pinta, but R3 says trump2 disables the 2-exchange: no ``swap`` in the legal moves or in
    the solver's moves, and the values are tests/solver_oracle.py's (which reads trump2 the same way)."""
    rules = Rules(players=3, remove="trump2")
    hands = [_ids(["2B", "4C", "6C"]), _ids(["4E", "6E", "7E"]), _ids(["3O", "7C", "12E"])]
    stock = _ids(["10C", "11E"])
    played = [c for c in _ids(_all40_sorted({"2B", "4C", "6C", "4E", "6E", "7E", "3O", "7C", "12E", "10C", "11E",
                                             "5B", "2O"}))]
    pos = Position.make(rules, parse_card("5B"), hands, stock, played=played, removed=parse_card("2O"))
    assert SWAP not in pos.legal_moves()
    r = solve(pos)
    text = str(pos)
    assert "remove=trump2" in text
    v, vals = solver_oracle.solve(text)
    assert "swap" not in r.moves and (r.value, r.moves) == (v, vals)


def test_apply_on_an_observation_keeps_the_hidden_hand():
    """Mutant: apply not passing ``hidden`` on (an observation's next position refused). NOTATION.md
    observations: seat 0's one card is unknown; seat 1 answers 1O with 2C, seat 0 wins 11 points and leads,
    its hand still written ``?``."""
    played = _all40_sorted({"1O", "10O", "2C", "3C"})
    obs = Position.parse("players=2 trump=5B hands=?/10O,2C stock= turn=1 trick=1O points=62,17 played="
                         + ",".join(played))
    after = obs.apply("2C")
    want_played = _all40_sorted({"10O", "3C"})
    assert str(after) == ("players=2 trump=5B hands=?/10O stock= turn=0 trick= points=73,17 played="
                          + ",".join(want_played))
    assert after.hidden == (True, False) and not after.is_open


def test_after_the_last_draw_follow_obliges():
    """Mutant: the last draw skipped or the stock left non-empty, so R9 ``follow`` does not start.

    Two players, endgame=follow: seat 1 wins the trick and draws 12C, seat 0 draws the pinta 5O; the stock
    is exhausted, so a seat holding the suit led must follow (R9)."""
    pos = Position.parse("players=2 trump=5O hands=1C,4E,6E/3C,4C,7C stock=12C turn=0 trick= points=0,0 "
                         "endgame=follow")
    after = pos.apply("1C")  # seat 0 leads 1C
    after = after.apply("4C")  # seat 0 wins (1C beats 4C), draws 12C; seat 1 draws the pinta 5O
    assert after.turn == 0 and after.left == 0 and after.points == (11, 0)
    assert sorted(format_card(c) for c in after.hands[1]) == sorted(["3C", "7C", "5O"])
    after = after.apply("12C")
    assert sorted(format_card(c) for c in after.legal_moves()) == ["3C", "7C"]


# ----------------------------------------------------------------- to_arrays: perspective and hidden cards
@pytest.mark.parametrize("text,persp,want", [
    ("players=3 trump=2E hands=3B,11C/11O,10C,4E/12E,2C,12C stock=7E,5B turn=1 trick=10O points=58,20,14",
     None, [0, 1, 0]),
    ("players=3 trump=2E hands=3B,11C/11O,10C,4E/12E,2C,12C stock=7E,5B turn=1 trick=10O points=58,20,14",
     2, [0, 0, 1]),
    ("players=4 trump=6E hands=7B,4E,12C/2O,10C,7E/2E,11O,4B/4C,11C,6E stock= turn=0 trick= points=13,27,38,30",
     3, [0, 1, 0, 1]),
    ("players=4 trump=6E hands=7B,4E,12C/2O,10C,7E/2E,11O,4B/4C,11C,6E stock= turn=0 trick= points=13,27,38,30",
     None, [1, 0, 1, 0]),
])
def test_to_arrays_maximizing_seats(text, persp, want):
    """Mutants: three players read as teams (``s % 2``); the default perspective seat 0 instead of the seat
    to move. RULES R3 sides; NOTATION.md "Solver output": three players paranoid (the seat alone)."""
    _, _, ismax = Position.parse(text).to_arrays(perspective=persp)
    assert list(ismax) == want


NOTATION_VIEW = ("players=2 trump=5B hands=?/10O,2C,12E stock=? turn=1 trick=1O points=62,17 played=3O,4O,5O,6O,7O,"
                 "11O,12O,1C,4C,5C,10C,11C,12C,1E,2E,4E,5E,6E,7E,10E,11E,1B,2B,3B,6B,7B,10B,11B")


def test_to_arrays_refuses_a_hidden_hand():
    """Mutant: to_arrays without its open-hands check (a seat's view solved as if its unknown cards were
    nobody's: a value from cards the seat cannot see). NOTATION.md's observation of seat 1."""
    with pytest.raises(ValueError, match="hidden"):
        Position.parse(NOTATION_VIEW).to_arrays()


def test_to_arrays_unknown_stock_slots_and_pinta_last():
    """Mutants: the pinta slot first; the unknown cards left out of the not-done mask.

    NOTATION.md's example with ``stock=?``: five face-down cards plus the pinta 5B left to draw; the
    unknown cards are 2O, 4B, 3E, 7C, 12B."""
    text = NOTATION_VIEW.replace("hands=?/", "hands=3C,6C/")
    pos = Position.parse(text)
    st, stock, _ = pos.to_arrays()
    assert st[P.ST_L] == 6
    assert list(stock[:5]) == [-1] * 5 and int(stock[5]) == parse_card("5B")
    nd = int(st[P.ST_NOTDONE])
    on = {format_card(c) for c in range(48) if nd >> c & 1}
    assert on == {"3C", "6C", "10O", "2C", "12E", "1O", "2O", "4B", "3E", "7C", "12B", "5B"}


# ----------------------------------------------------------------- __str__: NOTATION.md's canonical string
def _all40_sorted(minus):
    return [f"{r}{s}" for s in "OCEB" for r in RANKS40 if f"{r}{s}" not in minus]


def test_str_canonical_field_order_options_and_sorted_played():
    """Mutants: ``exchange`` and ``endgame`` written in the other order; ``played`` written as given (not
    sorted by suit then rank); the default deck written; cards not upper case.

    Fields in any order and lower case cards in; NOTATION.md / the module docstring's canonical order out."""
    played = _all40_sorted({"3C", "10O", "12E", "2B"})
    text = ("endgame=follow exchange=none remove=trump2 points=0,0,0 turn=0 trick= stock= hands=3c/10o/12e "
            "trump=5b players=3 played=" + ",".join(reversed(played)))
    want = ("players=3 trump=5B hands=3C/10O/12E stock= turn=0 trick= points=0,0,0 played=" + ",".join(played)
            + " remove=trump2 exchange=none endgame=follow")
    assert str(Position.parse(text)) == want
    assert str(Position.parse(want)) == want


@pytest.mark.parametrize("text", [
    NOTATION_VIEW,
    "players=2 trump=11B hands=3C/10O stock= turn=0 trick= points=50,20 deck=rapida20 exchange=seven endgame=arrastre",
    "players=6 trump=11O hands=11C,11O/5B,7C/1E,12C/1B,2E/10C,8O/9O,10E stock= turn=1 trick= points=0,27,3,54,0,0",
    "players=6 trump=10O hands=1O/3O/4O/5O/6O/7O stock= turn=0 trick= points=0,0,0,0,0,0 deck=spanish40",
    "players=2 trump=1B hands=2C,4C/3O,? stock=? turn=1 trick=5C points=10,20 played=" + ",".join(
        _all40_sorted({"2C", "4C", "3O", "5C", "1O", "6O", "7O", "1B", "11O", "12O"})),
])
def test_str_round_trips_canonical_strings(text):
    """Mutants: a hidden hand's ``?`` dropped; the deck option written when it is the default of the player
    count, or not when it is not (6 players: catalan48); the known cards of a partly known hand.
    NOTATION.md: parsing then formatting a canonical string gives it back."""
    assert str(Position.parse(text)) == text


# ----------------------------------------------------------------- deal_position: the engine's layout
@pytest.mark.parametrize("kw,seed,d", [({"players": 2}, 5, 3), ({"players": 3}, 7, 1), ({"players": 4}, 9, 2),
                                       ({"players": 6}, 2, 4), ({"players": 3, "remove": "trump2"}, 4, 0)])
def test_deal_position_deals_one_card_at_a_time_from_seat_0(kw, seed, d):
    """Mutants: the three cards of a seat dealt together (``k // 3``); the pinta read from the top of the
    stock; the set-aside card not passed on.

    sim.engine.shuffle_deal's documented layout: card ``k`` to seat ``k % players`` (R4: one at a time from
    seat 0), then the face-down stock top first, the pinta last."""
    from sim.engine import shuffle_deal
    from sim.rng import deal_seed

    rules = Rules(**kw)
    n, ncards = rules.players, rules.ncards
    order = np.zeros(48, dtype=np.int8)
    removed = shuffle_deal(rules.to_array(), np.array(rules.deck_cards, dtype=np.int8),
                           np.uint64(deal_seed(np.uint64(seed), np.uint64(d))), order, np.zeros(1, np.uint64))
    pos = deal_position(rules, seed, d)
    assert [sorted(h) for h in pos.hands] == [sorted(int(order[k]) for k in range(s, 3 * n, n)) for s in range(n)]
    assert pos.trump == int(order[ncards - 1])
    assert list(pos.stock) == [int(c) for c in order[3 * n:ncards - 1]]
    assert pos.turn == 0 and pos.points == (0,) * n and pos.trick == ()
    if removed >= 0:
        assert pos.removed == (int(removed),)


def test_deal_position_trump2_with_a_turned_two():
    """Mutant: deal_position not passing the set-aside card: a deal whose first turned card was a 2 (set
    aside, R3 trump2) has the 2 of trumps in play and is then refused or read as another deal."""
    from sim.cards import CARD_RANK, CARD_SUIT
    rules = Rules(players=3, remove="trump2")
    for d in range(400):
        pos = deal_position(rules, 1, d)
        rm = pos.removed[0]
        if not (CARD_RANK[rm] == 2 and CARD_SUIT[rm] == CARD_SUIT[pos.trump]):
            break
    else:
        pytest.skip("no deal with a turned 2 in 400")
    assert CARD_RANK[rm] == 2 and CARD_SUIT[rm] != CARD_SUIT[pos.trump]
    assert pos.future_points() == 120
    assert Position.parse(str(pos)) == pos


def test_trump2_deal_with_a_turned_two_plays_on_through_apply():
    """Mutants: apply not passing the set-aside card on, after a swap or after a card (the next position then
    has the 2 of trumps both in play and set aside, and is refused).

    Run seed 1, deal 632 of three players with remove=trump2: the first turned card was a 2 of another suit (set
    aside, R3), the pinta is 10E and seat 0 holds 7E: it exchanges (R7 7-rule) and the seats play a trick; every
    position keeps the 120 points in play and reads back from its string."""
    from sim.cards import CARD_SUIT
    pos = deal_position(Rules(players=3, remove="trump2"), 1, 632)
    assert format_card(pos.trump) == "10E" and CARD_SUIT[pos.removed[0]] != CARD_SUIT[pos.trump]
    cur = pos.apply("swap")
    assert format_card(cur.trump) == "7E" and cur.removed == pos.removed
    for _ in range(3):
        assert Position.parse(str(cur)) == cur and cur.future_points() + sum(cur.points) == 120
        cur = cur.apply(cur.legal_moves()[0])
    assert cur.removed == pos.removed and Position.parse(str(cur)) == cur
    assert sum(len(h) for h in cur.hands) == 9


# ----------------------------------------------------------------- side_points / side_of / properties
def test_side_points_and_side_of_by_rules_r3():
    """Mutants: side_points summing the seat alone (``s == seat``); side_of as ``seat % 2`` for three
    players. RULES R3: 4 players seats 0+2 vs 1+3, 6 players 0+2+4 vs 1+3+5, 3 players no teams."""
    p4 = Position.parse("players=4 trump=6E hands=7B,4E,12C/2O,10C,7E/2E,11O,4B/4C,11C,6E stock= turn=0 trick= "
                        "points=13,27,38,30")
    assert [p4.side_points(s) for s in range(4)] == [51, 57, 51, 57]
    assert [p4.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    p3 = Position.parse("players=3 trump=2E hands=3B,11C/11O,10C,4E/12E,2C,12C stock=7E,5B turn=1 trick=10O "
                        "points=58,20,14")
    assert [p3.side_of(s) for s in range(3)] == [0, 1, 2]
    assert [p3.side_points(s) for s in range(3)] == [58, 20, 14]
    p6 = Position.parse(_vector("6p-end", 0)["position"])
    assert [p6.side_points(s) for s in range(6)] == [3, 81, 3, 81, 3, 81]
    assert [p6.side_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]


def test_repr_evaluates_back_to_the_position():
    """Mutant: ``repr`` giving the bare string (not the ``Position.parse(...)`` expression it documents)."""
    for text in (FOUR_LAST_DRAW, NOTATION_VIEW):
        p = Position.parse(text)
        assert repr(p) == f"Position.parse({text!r})"
        assert eval(repr(p), {"Position": Position}) == p


def test_properties_leader_open_terminal():
    """Mutants: leader as ``turn + len(trick)``; is_open as ``not all(hidden)``; is_terminal ignoring the
    hands."""
    p = Position.parse(FOUR_LAST_DRAW)
    assert p.leader == 0 and p.is_open and not p.is_terminal
    assert not Position.parse(NOTATION_VIEW).is_open
    q = Position.parse("players=2 trump=5B hands=4E/3C stock= turn=1 trick= points=50,20")
    assert q.leader == 1 and not q.is_terminal
    end = q.apply("3C").apply("4E")
    assert end.is_terminal and end.legal_moves() == [] and end.future_points() == 0


# ----------------------------------------------------------------- api.solve: result building
def _replay_pv(pos, pv):
    """Card points the side of ``pos.turn`` captures along ``pv`` (R8 sides; three players the seat alone),
    and the last position."""
    n = pos.rules.players
    mine = {pos.turn} if n == 3 else {s for s in range(n) if s % 2 == pos.turn % 2}
    start = sum(pos.points[s] for s in mine)
    cur = pos
    for m in pv:
        cur = cur.apply(m)
    return sum(cur.points[s] for s in mine) - start, cur


@pytest.mark.parametrize("name,i", [("2p-stock", 0), ("2p-swap", 2), ("4p-end", 1), ("3p-end", 0), ("2p-end", 0)])
def test_solve_moves_best_first_best_and_pv(name, i):
    """Mutants: moves sorted worst first; ``best`` with a wrong comparison; the pv cut one move short; the
    value as the minimum of the move values.

    The vector's value and move values; NOTATION.md/SolveResult: moves best first, ``best`` the moves
    reaching the value, the pv runs to the end of the deal and the side to move captures the value along it."""
    d = _vector(name, i)
    pos = Position.parse(d["position"])
    r = solve(d["position"])
    assert r.value == d["value"] and r.moves == d["moves"]
    vals = list(r.moves.values())
    assert vals == sorted(vals, reverse=True)
    assert sorted(r.best) == sorted(m for m, v in d["moves"].items() if v == d["value"])
    assert r.pv[0] in r.best
    gained, end = _replay_pv(pos, r.pv)
    assert end.is_terminal and gained == d["value"]
    out = r.to_dict()
    assert set(out) == {"position", "value", "moves", "best", "wins", "pv", "nodes", "ms"}
    assert out["position"] == d["position"] and list(out["moves"]) == list(r.moves)
    json.dumps(out)


def test_solve_target_mode_fields():
    """Mutants: ``reached`` with ``>`` (target equal to the value), target keys left out of to_dict, the value
    kept in target mode. SolveResult's documentation; value 45 from the 4p-end vector."""
    text = _vector("4p-end", 1)["position"]
    for t, want in ((45, True), (46, False)):
        r = solve(text, t)
        assert (r.value, r.moves, r.best, r.target, r.reached, r.seat) == (None, {}, [], t, want, 3)
        out = r.to_dict()
        assert (out["target"], out["reached"], out["seat"]) == (t, want, 3)


def test_solve_win_uses_the_side_points():
    """Mutant: ``win`` target from the seat's own points instead of its side's. 4p-end vector 1: seat 3 to move,
    side 1 holds 29 + 11 = 40, so 21 more win (RULES R8: 61); the side's value is 45."""
    r = solve(_vector("4p-end", 1)["position"], win=True)
    assert (r.target, r.reached, r.seat) == (21, True, 3)


def test_solve_target_mode_for_another_seat_matches_the_oracle():
    """Mutants: target mode solved for the seat to move instead of ``seat``; 3 players as teams.
    tests/solver_oracle.py's value for the side of that seat (paranoid for three players)."""
    for text in (_vector("3p-end", 0)["position"], _vector("4p-end", 1)["position"],
                 _vector("2p-stock", 1)["position"]):
        pos = Position.parse(text)
        for seat in range(pos.rules.players):
            if seat == pos.turn:
                continue
            v, _ = solver_oracle.solve_for(text, seat=seat)
            assert solve(text, v, seat=seat).reached is True
            assert solve(text, v + 1, seat=seat).reached is False


def test_solve_target_equal_to_all_points_left():
    """Mutants: the no-search shortcut with ``target >= future points`` (a capote of the rest said unreachable);
    ``reached`` True for a target above the points left. Seat 0 holds both top trumps: it takes all 21."""
    text = "players=2 trump=5B hands=1B,3B/2C,4C stock= turn=0 trick= points=50,49"
    assert solver_oracle.solve(text)[0] == 21
    assert solve(text, 21).reached is True
    r = solve(text, 22)
    assert r.reached is False and r.target == 22 and r.seat == 0
    assert solve(text, 0).reached is True


def test_solve_terminal_position():
    """Mutant: a finished deal's value ``None``. Nothing is left: value 0, no moves, no pv."""
    text = "players=2 trump=5B hands=/ stock= turn=1 trick= points=70,50"
    r = solve(text)
    assert (r.value, r.moves, r.best, r.pv) == (0, {}, [], [])


def test_solve_unknown_stock_target_mode():
    """Mutants: stock=? target mode keeping the expectation as ``value``; its ``seat`` not recorded or the
    expectation taken for the seat to move. tests/solver_oracle.py's expectimax for seat 0."""
    text = NOTATION_VIEW.replace("hands=?/", "hands=3C,6C/")
    unknown = ["2O", "4B", "3E", "7C", "12B"]
    e1, _ = solver_oracle.solve(text, unknown=unknown)
    e0, _ = solver_oracle.solve_for(text, unknown=unknown, seat=0)
    r = solve(text, math.floor(e0), seat=0)
    assert r.value is None and r.seat == 0 and r.reached is True
    assert solve(text, math.floor(e0) + 1, seat=0).reached is False
    assert solve(text, math.floor(e1) + 1).reached is False
    assert solve(text, math.floor(e1)).reached is True


def test_solve_unknown_stock_moves_false_gives_only_the_value():
    """Mutant: stock=? solved with every move's value even with ``moves=False`` (solve: "False gives only the
    value"). The expectation is tests/solver_oracle.py's expectimax."""
    text = NOTATION_VIEW.replace("hands=?/", "hands=3C,6C/")
    e, vals = solver_oracle.solve(text, unknown=["2O", "4B", "3E", "7C", "12B"])
    r = solve(text, moves=False)
    assert (r.moves, r.best) == ({}, [])
    assert r.value == pytest.approx(float(e), abs=1e-9)
    full = solve(text)
    assert full.moves == pytest.approx({m: float(v) for m, v in vals.items()}, abs=1e-9)


# ----------------------------------------------------------------- analyse_play
DOC = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"


def test_analyse_play_for_the_other_seat():
    """Mutants: the perspective ignored (values for the seat to move); the points gained along the moves
    left out. Two players share the 41 points left (future_points): seat 0's values are 41 minus seat 1's
    [26, 18, 24] (analyse_play's docstring)."""
    assert analyse_play(DOC, ["10O", "3C"], perspective=0) == [15, 23, 17]
    assert analyse_play(DOC, ["10O", "3C"]) == [26, 18, 24]


def test_analyse_play_calls_for_other_perspectives_do_not_leak_into_each_other():
    """Mutant: analyse_play without its fresh table stamp (the search reads back bounds a previous call stored
    for another perspective: 3p-end vector 5 (line 6) gave [3] for the seat to move after calls for seats 0 and 1,
    whose value is 0). Values from the vector and tests/solver_oracle.py (paranoid, the seat alone)."""
    d = _vector("3p-end", 5)
    text = d["position"]
    assert Position.parse(text).turn == 2
    want = {s: solver_oracle.solve_for(text, seat=s)[0] for s in (0, 1)}
    want[2] = d["value"]
    for seat in (0, 1, 2, 2, 1, 0, 2):
        assert analyse_play(text, [], perspective=seat) == [want[seat]]
