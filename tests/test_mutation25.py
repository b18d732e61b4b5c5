"""Mutation pass 25 on the small ``sim`` modules (``sim/cards.py``, ``sim/checks.py``, ``sim/paths.py``,
``sim/threads.py``, ``sim/rng.py``'s ``seed_bits``): tests that kill the mutants the suite let live. Each
pins a documented behaviour: the messages' exact wording (a quoted string, an unquoted number), the edge of
a range, the sign and size of an integer past ``str``'s digit limit. Pure Python, under a second."""
import re

import numpy as np
import pytest

from sim.cards import card_id, deck_cards, format_card, mask_of, parse_card, show_input


def test_show_input_describes_an_int_past_the_digit_limit_by_its_sign_and_size():
    """(``except TypeError`` let Python's own ValueError out; ``value > 0`` called a positive int
    negative; ``bit_length() - 1`` named the wrong size.)"""
    big = 10 ** 5000
    assert show_input(big) == "a 16610-bit integer"
    assert show_input(-big) == "a negative 16610-bit integer"
    assert show_input(big, quote=False, limit=3) == "a 16610-bit integer"


def test_card_id_quotes_a_string_rank_only():
    """A float rank is echoed as a number, a string rank quoted (``quote=True`` quoted both)."""
    with pytest.raises(ValueError, match=r"^unknown rank 1\.5: expected 1-12$"):
        card_id(1.5, 0)
    with pytest.raises(ValueError, match=r"^unknown rank '1': expected 1-12$"):
        card_id("1", 0)


def test_parse_card_names_the_card_as_read_when_it_is_not_in_the_deck():
    """The message names the card in its normal form (``2O``), not the text as typed."""
    with pytest.raises(ValueError, match=r"^card 2O is not in deck rapida20$"):
        parse_card(" 2o ", deck="rapida20")


def test_format_card_message_names_the_range():
    for bad in (49, -1):
        with pytest.raises(ValueError, match=rf"^card id {bad} is not a card id \(0-47, or 48 for swap\)$"):
            format_card(bad)


@pytest.mark.parametrize("bad", [48, -1, np.int64(48)])
def test_mask_of_refuses_an_id_outside_0_47_by_its_own_message(bad):
    """48 (the swap action, no card) set bit 48 under ``i <= N_IDS``; -1 gave Python's
    ``negative shift count`` without the lower bound."""
    with pytest.raises(ValueError, match=rf"^card id {int(bad)} is not in 0-47$"):
        mask_of([3, bad])
    assert mask_of([47, 0]) == (1 << 47) | 1


def test_mask_of_messages_quote_strings_only():
    with pytest.raises(ValueError, match=r"^cards: expected an iterable of card ids, got '12'$"):
        mask_of("12")
    with pytest.raises(ValueError, match=r"^card id: expected an integer 0-47, got '1O'$"):
        mask_of(["1O"])
    with pytest.raises(ValueError, match=r"^card id: expected an integer 0-47, got 1\.5$"):
        mask_of([1.5])


def test_deck_cards_quotes_an_unknown_deck_name():
    with pytest.raises(ValueError, match=re.escape("unknown deck 'spanish48': expected one of spanish40, catalan48, rapida20")):
        deck_cards("spanish48")


def test_sequence_problem_refuses_any_set_type_where_order_matters():
    """A ``collections.abc.Set`` that is not a builtin set is refused too (``isinstance(value, (set,
    frozenset))`` let it through), and a dict's keys view still is not."""
    import collections.abc

    from sim.checks import ARBITRARY_ORDER, sequence_problem

    class Hand(collections.abc.Set):
        def __init__(self, items):
            self._items = frozenset(items)

        def __contains__(self, x):
            return x in self._items

        def __iter__(self):
            return iter(self._items)

        def __len__(self):
            return len(self._items)

    assert sequence_problem(Hand(["random", "greedy"])) == ARBITRARY_ORDER
    assert sequence_problem(Hand(["random", "greedy"]), ordered=False) is None
    assert sequence_problem({"random": 0}.keys()) is None


def test_check_flag_takes_numpy_integers_0_and_1():
    """Any integral 0 or 1, a numpy integer included (an ``isinstance(value, int)`` check refused
    ``np.int64(1)``, the type a flag read from an array has)."""
    from sim.checks import check_flag

    assert check_flag(np.int64(1), "win") is True
    assert check_flag(np.uint8(0), "win") is False
    with pytest.raises(ValueError, match=r"^win: expected True or False, got np\.int64\(2\)$"):
        check_flag(np.int64(2), "win")


def test_start_thread_returns_the_thread_started_and_frees_the_lock():
    """``start_thread(t)`` is ``t``, started (its numpydoc Returns; ``return None`` lived), and the lock is
    free again after it."""
    import threading

    from sim.threads import THREAD_START, start_thread, starting_threads

    ran = threading.Event()
    t = threading.Thread(target=ran.set)
    assert start_thread(t) is t
    t.join(5)
    assert ran.is_set() and not THREAD_START.locked()
    assert starting_threads() is THREAD_START


@pytest.mark.parametrize("call", [
    lambda v: __import__("sim.checks").checks.check_int(v, "seed"),
    lambda v: __import__("sim.checks").checks.check_int(-v, "seed"),
    lambda v: __import__("sim.checks").checks.check_int(v, "seat", hi=4, expected="a seat 0-3"),
    lambda v: __import__("sim.checks").checks.check_flag(v, "seed"),
    lambda v: format_card(v),
    lambda v: mask_of([v]),
])
def test_an_int_past_the_digit_limit_is_named_by_its_size_not_pythons_message(call):
    """``simulate(..., seed=10**5000)``, ``check_flag``, ``format_card`` and ``mask_of`` failed with Python's
    own ``Exceeds the limit (4300 digits) for integer string conversion`` (their messages' ``{value!r}`` /
    ``{cid}``), no argument named; they now say ``a 16610-bit integer`` as :func:`sim.cards.show_input` (and
    solver.position since its review) do. Ordinary values keep their messages (the tests above)."""
    with pytest.raises(ValueError, match=r"(seed|seat|card id)\b.* a (negative )?16610-bit integer"):
        call(10 ** 5000)


def test_the_public_api_names_its_argument_past_the_digit_limit():
    """Through the API: ``simulate``'s flags (sim.checks.check_flag) and a seat (check_int)."""
    from sim.batch import simulate
    from sim.rules import Rules

    with pytest.raises(ValueError, match=r"^duplicate: expected True or False, got a 16610-bit integer$"):
        simulate(Rules(players=2), ["random", "random"], deals=1, duplicate=10 ** 5000)
    with pytest.raises(ValueError, match=r"^seat: expected a seat 0-1, got a negative 16610-bit integer$"):
        Rules(players=2).side_of(-10 ** 5000)
