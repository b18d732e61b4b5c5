"""Mutation pass 34 (helper, 2026-12-07): the code changed since f7341aa in sim/ and solver/ (SolveResult.wins,
analyse_play's check of every move before any solve and its messages, Position's duplicate-card hint and the
empty-stock pinta message, sim/stats.py's positions' pair figures and the seven-two rules-line note, simulate's
refusal of one output inside the other, resolve_policies' bounded read, check_int's timedelta refusal).

Each test kills a hand-made mutant that the test files touching that code (test_carried66, test_user65b,
test_user66, test_newuser31, test_break_solver's test_api_moves_and_ids_checked, test_break43, test_break44,
test_break40, test_stats, test_mutation32/33; of 58 mutants they killed 42, 6 are equivalent) let through;
expected values come from RULES.md (R4, R6, R7, R8),
NOTATION.md and the docstrings, never from the code under test. No kernel is compiled (the analyse_play tests
replace the search's driver by one that fails the test: the moves are checked before any solve).
Mutants (pass 34 numbering):

M05  ``SolveResult.to_dict`` handing out its own ``wins`` list (the docstring: new lists)
M09  ``brisca solve``'s wins line at exactly 61 held: "moves that win (61 or more with the side's 61" instead
     of "every move wins" (R8: 61 or more wins)
M13  analyse_play's "(trick t, seat s to move)" given for a move after the deal is over too (no seat is to move)
M17  ``_card_of`` reading only card strings: moves given as card ids lost the "before the start position" hint
M20  the duplicate-card hint's ``fname == "stock"`` dropped: a card twice in the hands with ``stock=?`` or an
     empty stock raised TypeError / IndexError (``self.stock[-1]``) instead of the ValueError
M26  ``_exchange_can_give_up``'s suit check dropped: a 7 of a plain suit repeated last in the stock got the
     R7 exchange hint
M27  ``_exchange_can_give_up``'s ``c == trump`` dropped: the pinta, a 2, repeated in the stock got the hint
     (no exchange gives up the pinta for itself, R7)
M28  the empty-stock pinta message keyed on ``self.stock`` being falsy: ``stock=?`` (None) said "with the
     stock empty it is not still to draw" of a pinta that may be under an unknown stock
M38  the rules line's "(the 7 only: the 2 of trumps is out, R3)" for any exchange, not only ``seven-two``
     (``exchange=seven`` makes the 7-exchange only whatever R3 removes)
M43  resolve_policies reading an unsized iterable to two names more than the seats (the docstring: one more)

Survivors judged equivalent (no test): ``_card_of`` catching ValueError only (parse_move takes only strings and
numbers.Integral, for which ``int`` raises no TypeError, and ``_card_of`` runs only after parse_move took the
move as a card); ``many`` as ``len(names) >= n`` (that branch is reached only with ``len(names) != n``);
``_as_flag``'s regex without ``re.S`` (``show_repr`` escapes every line break in the names); ``trump > base + 4``
as ``>=`` or ``> base + 3`` in ``_exchange_can_give_up`` (the only pinta in between is the 7 of trumps itself,
which ``c == trump`` excludes); ``_card_of`` without ``move.strip()`` (``sim.cards.parse_card`` strips its input).
"""
import itertools
import json

import pytest

from test_user66 import DRAWS, HANDS, MOVES

HINT = "before the start position (it is in none of its hands, trick or stock"
EXCHANGE_HINT = "a stock written from a game's draws leaves out the last card drawn"


def _play_error(start, moves):
    from solver import analyse_play
    with pytest.raises(ValueError) as e:
        analyse_play(start, moves, perspective=0)
    return str(e.value)


def test_a_move_after_the_end_names_no_trick_nor_seat(no_solve):  # M13
    """The 42 moves end the deal (20 tricks of 2 and two swaps): a 43rd has no trick and no seat to move."""
    msg = _play_error(HANDS + ",".join(DRAWS[:-1]), MOVES + ["1O"])
    assert msg.startswith("moves[42]: ") and "deal is over" in msg and "to move)" not in msg, msg


def test_moves_as_card_ids_keep_the_before_the_start_hint(no_solve):  # M17
    """analyse_play takes card ids as moves (parse_move); the stock left two draws short reads the same."""
    from sim.cards import parse_card
    ids = [m if m == "swap" else parse_card(m, "spanish40") for m in MOVES]
    stock = [c for c in DRAWS[:-1] if c not in ("1O", "5O")]
    msg = _play_error(HANDS + ",".join(stock), ids)
    assert msg.startswith("moves[7] ") and HINT in msg, msg


def _parse_error(text):
    from solver import Position
    with pytest.raises(ValueError) as e:
        Position.parse(text)
    return str(e.value)


@pytest.mark.parametrize("stock", ["stock=?", "stock="])
def test_a_card_twice_in_the_hands_with_no_known_last_stock_card(stock):  # M20
    msg = _parse_error(f"players=2 trump=12E hands=7E,7E,3C/6O,11E,4B {stock}")
    assert msg == "hands: card 7E appears twice"


def test_no_exchange_hint_for_a_plain_suit_7_or_the_pinta_itself():  # M26, M27
    msg = _parse_error("players=2 trump=12E hands=10O,6C,3C/6O,11E,4B stock=7C,5O,7C")  # 7C: not a trump
    assert "appears twice" in msg and EXCHANGE_HINT not in msg, msg
    msg = _parse_error("players=2 trump=2E hands=10O,6C,3C/6O,11E,4B stock=2E,5O,2E")  # 2E: the pinta itself
    assert "appears twice" in msg and EXCHANGE_HINT not in msg, msg
    # (control: a 7 of trumps, pinta stronger, is the case the hint is for, R7)
    assert EXCHANGE_HINT in _parse_error("players=2 trump=12E hands=10O,6C,3C/6O,11E,4B stock=7E,5O,7E")


def test_a_pinta_placed_nowhere_under_an_unknown_stock_is_still_to_draw():  # M28
    """R4/R6: with ``stock=?`` nothing says the stock is empty; the pinta placed nowhere may be under it."""
    played = ("1O,2O,3O,4O,5O,6O,7O,10O,12O,1C,2C,4C,5C,6C,7C,10C,11C,12C,1E,2E,3E,4E,5E,6E,7E,10E,11E,12E,"
              "1B,2B,3B,4B,5B,7B,10B,11B,12B")
    msg = _parse_error("players=2 trump=3C hands=6B/ stock=? turn=0 trick=11O points=50,67 played=" + played)
    assert "(the pinta 3C included: it is placed nowhere, so it is still to draw)" in msg, msg
    assert "with the stock empty" not in msg


def test_the_7_only_note_is_for_seven_two_alone():  # M38
    from sim.rules import Rules
    from sim.stats import _rules_line
    for rules in (Rules(players=3, exchange="seven", remove="trump2"), Rules(players=6, deck="spanish40",
                                                                             exchange="seven")):
        assert "the 7 only" not in _rules_line(rules.to_dict()), rules


def test_an_unsized_policies_iterable_is_read_to_one_name_more_than_the_seats():  # M43
    from sim.batch import resolve_policies
    from sim.rules import Rules
    names = iter(["random", "heuristic"] * 4)
    with pytest.raises(ValueError, match=r"^got more than 4 policies for 4 players"):
        resolve_policies(Rules(players=4), names)
    assert len(list(names)) == 8 - 5  # (five names read, the rest left)
    endless = itertools.cycle(["random"])
    with pytest.raises(ValueError, match=r"^got more than 2 policies for 2 players"):
        resolve_policies(Rules(players=2), endless)


EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
MOVES_EX = {"2C": 26, "10O": 18, "12E": 16}  # (seat 1's move values in EX: test_carried66)


def test_to_dict_wins_is_a_new_list():  # M05
    from solver.api import SolveResult
    r = SolveResult(position=EX, value=26, moves=dict(MOVES_EX), best=["2C"], wins=["2C"])
    d = r.to_dict()
    d["wins"].append("10O")
    assert r.wins == ["2C"] and json.loads(json.dumps(d))["wins"] == ["2C", "10O"]


def test_exactly_61_held_is_every_move_wins():  # M09
    """R8: 61 or more of 120 wins, so a side holding exactly 61 has won whatever it plays."""
    from solver import Position
    from solver.api import SolveResult
    from solver.cli import _wins_text
    pos = Position.parse(EX.replace("points=62,17", "points=18,61"))
    r = SolveResult(position=EX, value=26, moves=dict(MOVES_EX), best=["2C"], wins=list(MOVES_EX))
    assert _wins_text(r, pos) == "every move wins: the side already holds 61 card points (61 or more, R8)"
