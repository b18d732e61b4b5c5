"""Break-it pass 40 (2026-12-07): the public Python API (``sim`` and ``solver``'s exports, README's calls) with
the argument types a notebook hands it.

Faults found and fixed:

1. ``sim.Rules``' names (``deck``, ``exchange``, ``exchange_condition``, ``endgame``, ``remove``, ``tie``) took a
   numpy 0-d array (``np.array("none")``, passed ``in`` by numpy's elementwise ``==``): ``deck=`` and ``remove=``
   raised a bare ``TypeError: unhashable type: 'numpy.ndarray'``, ``exchange=`` (and the other three) was kept
   as an array, and the Rules could not be hashed. Now a ValueError with the message of any unknown name; a
   numpy ``str_`` is kept as a plain ``str``.
2. ``sim.simulate`` with ``policies=np.array("random")`` and ``solver.solve_many`` with
   ``positions=np.array(text)`` (0-d arrays) raised numpy's ``TypeError: iteration over a 0-d array``; now the
   ValueError naming the argument that other non-sequences get.
3. ``solver.Position.make(..., removed=c)`` took any card as the one set aside at the deal (RULES R3 sets a 2
   aside, under ``remove=trump2``): a 3-player ``trump2`` position with the 11B set aside and the 2O in the
   stock was taken, a deal of 117 card points whose string (``played=``, empty) did not read back. A card
   that is not a 2 is refused now, naming ``removed``.
4. ``solver.analyse_play`` read its ``moves`` whole before the first move was checked: ``range(10**9)`` raised
   a bare MemoryError (under a 3 GB limit; the machine's memory without one), an endless generator never
   returned. It reads at most the moves the deal has left (R7's two exchanges included) and one more, whose
   error names it (``moves[11]: 3C: the deal is over``).

What held: numpy integer, bool and float scalars, integer-valued floats, ``True``, None, bytes, strings with
spaces or non-ASCII digits for every count, seed, seat, target and flag; 2**63 and 2**64 at every bound;
every (players, deck) of R3 with every R7/R9 variant (and R3's three removals) played twice by ``simulate``
with other chunks and threads, identical, 120 points a deal, no exchange where none is possible; simulate
(engine policies and ``solver``) and solve/solve_many called from four threads at once, identical to serial
calls; solve_many's values, moves and principal variations the same as one-thread solves in either order.
"""
from __future__ import annotations

import numpy as np
import pytest

import sim
from sim.batch import resolve_policies
from sim.cards import card_id
from sim.rules import Rules
from solver import Position, analyse_play, solve_many
from solver.position import deal_position


@pytest.mark.parametrize("field,value", [("deck", "spanish40"), ("exchange", "none"),
                                         ("exchange_condition", "won-trick"), ("endgame", "follow"),
                                         ("tie", "replay"), ("remove", "all2s")])
def test_rules_names_given_as_0d_arrays_are_refused_by_name(field, value):
    players = 3 if field == "remove" else 2
    with pytest.raises(ValueError, match=rf"^unknown {field} array\('{value}'"):
        Rules(players=players, **{field: np.array(value)})
    r = Rules(players=players, **{field: np.str_(value)})  # (numpy's str_ is a str: kept, as a plain one)
    assert type(getattr(r, field)) is str and r == Rules(players=players, **{field: value})
    assert hash(r) == hash(Rules(players=players, **{field: value}))


def test_policies_as_a_0d_array_are_refused_by_name():
    with pytest.raises(ValueError, match=r"^policies must be a name or a list of names, got array\('random'"):
        resolve_policies(Rules(players=2), np.array("random"))
    with pytest.raises(ValueError, match=r"^policies must be a name or a list of names"):
        sim.simulate(Rules(players=2), np.array("random"), deals=1)
    assert resolve_policies(Rules(players=2), np.array(["random", "greedy"])) == ("random", "greedy")


def test_solve_many_positions_as_a_0d_array_are_refused_by_name():
    text = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
    with pytest.raises(ValueError, match=r"^positions: expected an iterable of positions, got ndarray$"):
        solve_many(np.array(text))


def test_a_card_set_aside_at_the_deal_must_be_a_2():
    rules = Rules(players=3, remove="trump2")
    p = deal_position(rules, 1, 0)  # (the 2O set aside, trump O)
    assert p.removed == (card_id(2, "O"),)
    stock = list(p.stock)
    other = stock.pop()  # the 11B set aside instead, the 2O put back
    stock.append(p.removed[0])
    with pytest.raises(ValueError, match=r"^removed: 11B is not a 2: RULES R3 sets only a 2 aside$"):
        Position.make(rules, p.trump, p.hands, stock, removed=other)
    p2 = deal_position(Rules(players=2), 1, 0)
    with pytest.raises(ValueError, match=r"^removed: 1O is not a 2"):
        Position.make(p2.rules, p2.trump, p2.hands, p2.stock, removed=card_id(1, "O"))
    # a 2 of another suit set aside (the turned card was the 2 of trumps, R3): deal 8 of seed 1
    q = deal_position(rules, 1, 8)
    assert q.removed_hint >= 0 and q.removed[0] == q.removed_hint
    assert Position.make(rules, q.trump, q.hands, q.stock, removed=q.removed_hint) == q


def test_analyse_play_reads_no_more_moves_than_the_deal_can_take():
    text = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
    pv = ["2C", "2O", "10O", "3E", "6C", "12E", "5B", "7C", "4B", "12B", "3C"]  # (README: the whole deal)

    def moves():  # the deal's 11 moves, and past its end as many as R7's two exchanges and one more
        yield from pv
        yield from ["3C"] * 3
        raise AssertionError("a move read past what the deal can take")  # (range(10**9) was read whole)

    with pytest.raises(ValueError, match=r"^moves\[11\]: 3C: the deal is over"):
        analyse_play(text, moves())
    assert analyse_play(text, iter(pv)) == [26] * 12
