"""Break-it pass 23 (helper) on the Python API: solver.chance, solver.selfplay, solver.api, sim.heuristic,
sim.expert, sim.policies, sim.bits / sim.cards.mask_of.

Each test asserts what should hold. The tests of the faults found fail at the pass's commit:

* ``solve_chance`` given a position whose stock order is known ignores the order and returns the
  ``stock=?`` expectation (9.63 for NOTATION.md's example, whose exact value is 26);
* ``solve_chance`` / ``check_solvable`` given a position string (which ``solve`` takes) or None: an
  ``AttributeError`` ('str' object has no attribute '_need_open');
* ``solve_chance(moves="no")``: the flag is not checked (``"no"`` counts as true);
* ``mask_of("12")`` is bit 1 | bit 2 (the string's digits), ``mask_of([1.9])`` bit 1, ``mask_of([True])``
  bit 1: silently;
* ``play_open_batch`` with an unsigned ``res`` (its docstring: any integer dtype) raises numpy's
  ``OverflowError`` (the -1 of an exchange slot); with ``row0=2**64-1, m=2`` an ``OverflowError`` after the
  first deal is solved; with ``row0=np.uint8(255), m=2`` the second row plays deal 0 instead of deal 256
  (the uint8 sum wraps, only a RuntimeWarning);
* ``play_open_deal(ws=5)``: "cannot unpack non-iterable int object" without naming ``ws``;
* ``heuristic`` (rule 3, "win with the strongest card of the suit led that beats w (a trump when a trump was
  led)"): with 3 or 4 players, a non-trump lead trumped by an opponent is over-trumped with the strongest
  trump held (the trump ace on a trick worth 0 points), where the docstring's rule sheds.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from conftest import seat_view
from sim.cards import SWAP, format_card, mask_of
from sim.rules import Rules

P_KNOWN = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
P_CHANCE = ("players=2 trump=5B hands=3C,6C/10O,2C,12E stock=? turn=1 trick=1O points=62,17 played=3O,4O,5O,6O,7O,"
            "11O,12O,1C,4C,5C,10C,11C,12C,1E,2E,4E,5E,6E,7E,10E,11E,1B,2B,3B,6B,7B,10B,11B")
RAPIDA2 = Rules(players=2, deck="rapida20")


# ----------------------------------------------------------------- solver.chance
def test_solve_chance_with_a_known_stock_is_exact_or_refused():
    """solve_chance's pos is documented as ``stock=?``; a known stock order must not be dropped silently."""
    from solver.chance import solve_chance
    from solver.position import Position
    try:
        r = solve_chance(Position.parse(P_KNOWN))
    except ValueError as e:
        assert "stock" in str(e)
    else:
        assert r.value == 26  # the exact value (NOTATION.md), not the expectation 9.63


@pytest.mark.parametrize("pos", [P_CHANCE, None, 5])
def test_solve_chance_and_check_solvable_name_a_bad_pos(pos):
    """A string (solve takes one), None or an int: solved as solve does, or a ValueError/TypeError that
    names the argument; never AttributeError: 'str' object has no attribute '_need_open'."""
    from solver.chance import check_solvable, solve_chance
    for f in (check_solvable, solve_chance):
        try:
            r = f(pos)
        except (ValueError, TypeError) as e:
            assert "pos" in str(e), (f.__name__, str(e))
        else:
            assert isinstance(pos, str)
            if f is solve_chance:
                assert r.value == pytest.approx(289 / 30)


def test_solve_chance_checks_its_moves_flag():
    from solver.chance import solve_chance
    from solver.position import Position
    with pytest.raises(ValueError, match="moves"):
        solve_chance(Position.parse(P_CHANCE), moves="no")


def test_solve_chance_perspective_and_terminal_hold():
    """(Held.) perspective is checked; both seats' expectations share the points left; a finished deal is 0."""
    from sim.cards import deck_cards
    from solver.chance import solve_chance
    from solver.position import Position
    pos = Position.parse(P_CHANCE)
    for bad in (True, 1.0, -1, 2):
        with pytest.raises(ValueError, match="perspective"):
            solve_chance(pos, perspective=bad)
    a, b = solve_chance(pos, perspective=0).value, solve_chance(pos, perspective=np.int64(1)).value
    assert a + b == pytest.approx(41) and b == pytest.approx(289 / 30)
    end = ("players=2 trump=11E hands=/ stock=? turn=0 points=60,60 played="
           + ",".join(format_card(c) for c in deck_cards("spanish40")))
    r = solve_chance(Position.parse(end))
    assert (r.value, r.moves, r.best) == (0, {}, [])


# ----------------------------------------------------------------- sim.cards.mask_of
@pytest.mark.parametrize("cards", ["12", [1.9], [True], ["1O"]])
def test_mask_of_refuses_what_is_not_a_card_id(cards):
    """mask_of reads card ids: the digits of a string, a float cut to an int or a bool are not ids."""
    with pytest.raises(ValueError):
        mask_of(cards)


def test_mask_of_card_ids_hold():
    """(Held.) ids of any integer type; duplicates once; a negative id refused as documented."""
    assert mask_of([np.int8(3), np.uint64(47), 3]) == (1 << 3) | (1 << 47)
    assert mask_of(np.array([1, 2])) == 6 and mask_of([]) == 0
    with pytest.raises(ValueError, match="card id -1 is not in 0-47"):
        mask_of([-1])


# ----------------------------------------------------------------- solver.selfplay
def _outs(m, dtype=np.int16, players=2, tricks=10):
    from sim.engine import R_SIZE, T_SIZE
    return (np.zeros((m, R_SIZE), dtype), np.zeros((m, players, 3), np.int8), np.zeros(m, np.uint64),
            np.zeros((m, tricks, T_SIZE), np.int16))


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint64])
def test_play_open_batch_unsigned_res(dtype):
    """Docstring: any integer dtype for res. An unsigned one cannot hold an unused exchange slot's -1: refuse
    it up front naming res (or fill it), not numpy's OverflowError after the deal is solved."""
    from solver.selfplay import play_open_batch
    res, h, ds, tk = _outs(1, dtype)
    try:
        play_open_batch(RAPIDA2, 1, 0, 1, 1, res, h, ds, tk, True)
    except ValueError as e:
        assert "res" in str(e)


def test_play_open_batch_rows_past_the_last_deal_number():
    """row0 + m - 1 past 2**64 - 1: a ValueError naming row0 or m (was an OverflowError from the second row)."""
    from solver.selfplay import play_open_batch
    res, h, ds, tk = _outs(2)
    with pytest.raises(ValueError, match=r"row0|\bm\b"):
        play_open_batch(RAPIDA2, 1, 2 ** 64 - 1, 2, 1, res, h, ds, tk, True)


def test_play_open_batch_small_numpy_row0_does_not_wrap():
    """row0=np.uint8(255), m=2: the rows are deals 255 and 256 (the second row played deal 0)."""
    from sim.rng import deal_seed
    from solver.selfplay import play_open_batch
    res, h, ds, tk = _outs(2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            play_open_batch(RAPIDA2, 1, np.uint8(255), 2, 1, res, h, ds, tk, True)
        except ValueError:
            return  # (refusing a numpy row0 is acceptable too)
    want = [int(np.uint64(deal_seed(np.uint64(1), np.uint64(d)))) for d in (255, 256)]
    assert [int(x) for x in ds] == want


def test_play_open_deal_names_a_bad_ws():
    from solver.selfplay import play_open_deal
    for ws in (5, ()):
        with pytest.raises((ValueError, TypeError), match="ws"):
            play_open_deal(RAPIDA2, 1, 0, ws=ws)


def test_play_open_batch_seed_bits_and_numpy_arguments_hold():
    """(Held.) seed -1 is seed 2**64-1 (int64 bits); numpy row0/m/rotations; rows of one deal alike."""
    from solver.selfplay import play_open_batch, play_open_deal
    from sim.engine import R_SIDE_POINTS
    a = _outs(2)
    b = _outs(2)
    play_open_batch(RAPIDA2, -1, 0, 2, 1, *a, True)
    play_open_batch(RAPIDA2, np.uint64(2 ** 64 - 1), np.int64(0), np.int32(2), np.uint8(1), *b, np.bool_(True))
    for x, y in zip(a, b):
        assert np.array_equal(x, y)
    assert a[0][0, R_SIDE_POINTS] == play_open_deal(RAPIDA2, 2 ** 64 - 1, 0)["value"]
    c = _outs(2)
    play_open_batch(RAPIDA2, 5, 0, 2, 2, *c, True)  # two rotations of deal 0
    assert np.array_equal(c[0][0], c[0][1]) and c[2][0] == c[2][1]


def test_play_open_deal_three_players_ties_go_to_the_lowest_card_id():
    """(Held; selfplay docstring: "ties go to the lowest card id, swap last"), from the last two tricks."""
    from solver import selfplay, solve
    from solver.position import deal_position
    rules = Rules(players=3)
    pos = deal_position(rules, 1, 0)
    while pos.left > 0 or pos.trick or sum(len(h) for h in pos.hands) > 2 * 3:
        pos = pos.apply(pos.legal_moves()[0])
    orig = selfplay.deal_position
    selfplay.deal_position = lambda r, s, d: pos
    try:
        moves = selfplay.play_open_deal(rules, 1, 0)["moves"]
    finally:
        selfplay.deal_position = orig
    cur = pos
    for mv in moves:
        best = [cur.parse_move(x) for x in solve(cur, pv=False).best]
        assert mv == min(best), (str(cur), format_card(mv), best)  # (SWAP is 48: last)
        cur = cur.apply(mv)
    assert cur.is_terminal


# ----------------------------------------------------------------- solver.api (held)
def test_api_end_of_deal_and_single_move_positions_hold():
    from solver import analyse_play, solve, solve_many
    end = "players=2 trump=11E hands=/ stock= turn=0 points=60,60"
    assert solve(end).to_dict()["value"] == 0 and analyse_play(end, []) == [0]
    assert solve(end, win=True).reached is False and solve(end, target=0).reached is True
    one = "players=2 trump=11E hands=/10C stock= turn=1 trick=4B"
    r = solve(one)
    assert (r.value, r.moves, r.pv) == (0, {"10C": 0}, ["10C"])
    assert analyse_play(one, ["10C"], perspective=np.uint8(0)) == [2, 2]
    assert [x.value for x in solve_many([one, one], threads=np.int64(2))] == [0, 0]
    with pytest.raises(ValueError, match="moves\\[0\\]"):
        analyse_play(one, [np.float64(22.0)])


# ----------------------------------------------------------------- sim.heuristic
@pytest.mark.parametrize("players,leader,trick", [(4, 1, ["4O", "5O", "4B"]), (3, 1, ["4O", "4B"])])
def test_heuristic_rule3_does_not_overtrump_a_worthless_trick(players, leader, trick):
    """Rule 3 (sim/heuristic.py): the strongest card *of the suit led* that beats w, a trump only when a
    trump was led; else a trick worth 0 points is shed on (low non-trump first). Oros led, an opponent
    trumped with the 4 of Bastos: shed the 5 of Copas, not the ace of trumps (played now)."""
    from sim.heuristic import heuristic_action
    v = seat_view(["1B", "5C", "6C"], trick=trick, players=players, leader=leader, pinta="7B")
    a = int(heuristic_action(v))
    assert a != SWAP and format_card(a) == "5C"


def test_policies_on_that_trick_shed():
    """(Held.) greedy and counter shed on the same trick (4 players)."""
    from sim.expert import expert_action
    from sim.policies import greedy_action
    v = seat_view(["1B", "5C", "6C"], trick=["4O", "5O", "4B"], players=4, leader=1, pinta="7B")
    assert format_card(int(greedy_action(v))) == "5C"
    assert format_card(int(expert_action(v, np.zeros(4), 1))) == "5C"
