"""Mutation pass 35 over solver/position.py's newest code (user study 68, break-it pass 46): the '?' given twice
and '?' in a stock list messages, the last-draw pinta message (R6) and its suggested hand, the ``_unwritable`` /
``str()`` warning for ``remove=trump2`` views (R3), the solver's refusal of a hidden hand.

Survivors pinned here (parse/make only: no kernel, no solving):

- M5: the "'?' given N times" count written as 2 whatever the count.
- M6: the '?'s counted in the text (``text.count``) rather than among the cards: ``?,1O?`` said "'?' given 2
  times", one '?' and a bad card.
- M7: "(NOTATION.md)" dropped from the "'?' given N times" message.
- M16: one-hidden-hand branch taken for several hidden hands (``len(hid) >= 1``): named seat 0's hand.
- M17, M18: the mixed case (one hidden hand would hold only the pinta, another more) told as "all" or as ``X,?``.
- M20, M21: the "written in full, without '?'" clause dropped from the one-hand and all-hands suggestions.
- M26: ``_unwritable`` said "reads back with the 2 of trumps set aside" of every ``stock=?`` view with a recorded
  set-aside card, also one that reads back (the 2 of trumps set aside): a false warning.
- M28: the warning's ``stock=?`` / ``a hidden hand`` cause swapped.
- M29: the warning dropped the parse's refusal (``is refused`` without its reason).
- M31: the determinizations hint added to every ``_need_open`` refusal (``analyse_play`` too), not the solver's.

Equivalent survivors (not pinned): M9 (the last-draw hint shown also for ``stock=?`` with every hand known: a
pinta under the stock with no card left needs a card placed nowhere, which with every hand known the hands'
count check refuses first), M35 (``except Exception`` for ``except ValueError`` around ``Position.parse``,
which raises ValueError only).
"""
import warnings

import pytest

ALL = [f"{r}{s}" for s in "OCEB" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]
FULL = "every card of it then known, it is written in full, without '?'"
LAST = ("trump: the pinta 10O is under the stock but no card is left to draw; a seat's view knows who drew the "
        "pinta at the last draw (R6): write it in that hand, ")


def _played_but(*keep):
    return "played=" + ",".join(c for c in ALL if c not in keep)


def _err(text):
    from solver import Position
    with pytest.raises(ValueError) as e:
        Position.parse(text)
    return str(e.value)


def _hand_view(hand):
    return (f"players=2 trump=5B hands={hand}/10O,2C,12E stock=? turn=1 trick=1O points=62,17 "
            + _played_but("3C", "6C", "10O", "2C", "12E", "2O", "4B", "3E", "7C", "12B", "1O", "5B"))


@pytest.mark.parametrize("hand, n", [("?,?,?", 3), ("3C,?,?,?", 3), ("?,?", 2)])
def test_question_mark_given_n_times_counts_them(hand, n):  # mutants M5, M7
    assert _err(_hand_view(hand)) == (f"hands: '?' given {n} times in '{hand}': one '?' stands for all the hand's "
                                      "unknown cards (NOTATION.md)")


def test_a_question_mark_beside_a_bad_card_is_counted_once():  # mutant M6
    assert _err(_hand_view("?,1O?")) == "hands: '?' must come last, after the known cards, in '?,1O?'"


@pytest.mark.parametrize("view, suggestion", [
    # one hidden hand of one card: written in full (M20)
    ("players=2 trump=10O hands=?/3O stock=? turn=1 trick= points=0,0 " + _played_but("10O", "3O"),
     f"10O ({FULL}: NOTATION.md)"),
    # two hidden hands of one card each (M16, M21)
    ("players=4 trump=10O hands=?/3O/?/4O stock=? turn=1 trick= points=0,0,0,0 " + _played_but("10O", "3O", "4O", "5O"),
     f"10O in place of its '?' ({FULL}: NOTATION.md)"),
    # seat 0 would hold 6C and the pinta (in full), seat 2 the pinta and another card (M17, M18)
    ("players=4 trump=10O hands=6C,?/3O,6O/?/4O,7O stock=? turn=1 trick= points=0,0,0,0 "
     + _played_but("10O", "3O", "6O", "4O", "7O", "6C", "1C", "2C"),
     "10O,?, or 10O in place of the '?' where it is the hand's only unknown card (NOTATION.md)"),
])
def test_the_last_draw_message_whole(view, suggestion):
    assert _err(view) == LAST + suggestion


def _trump2_view(stock, removed):
    """Seat 0's view of a remove=trump2 deal (R3), pinta 5C: seat 0 holds 2O,1O,3O; ``removed`` set aside."""
    from sim.cards import parse_card
    from sim.rules import Rules
    from solver import Position
    c = lambda t: [parse_card(x) for x in t.split(",") if x]
    return Position.make(Rules(players=3, remove="trump2"), parse_card("5C"), [c(h) for h in stock[0]], stock[1],
                         hidden=[False, True, True], played=(), removed=parse_card(removed))


def test_a_trump2_view_that_reads_back_does_not_warn():  # mutant M26
    """2O set aside and recorded, seat 0 holding the other three 2s (2C the 2 of trumps): ``played=`` leaves one
    2 unplaced, the string reads back as this view (stock=?), so no warning and repr is the parse."""
    from solver import Position
    v = _trump2_view((["2C,2E,2B", "", ""], None), "2O")
    assert v.removed_hint >= 0 and v.stock is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        text = str(v)
        assert repr(v) == f"Position.parse({text!r})"
    assert Position.parse(text) == v


def _warning_of(v):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        text = str(v)
    assert len(w) == 1
    return text, str(w[0].message)


@pytest.mark.parametrize("known_stock", [False, True])
def test_the_trump2_warning_names_its_cause_and_the_refusal(known_stock):  # mutants M28, M29
    """Seat 0 holds the 2 of trumps 2C; 2O set aside, 2E and 2B unseen: the string is refused on reading back,
    and the warning says why (the parse's own message) and which hidden part made it unwritable."""
    from sim.cards import parse_card
    from solver import Position
    stock = None
    if known_stock:
        p0 = _trump2_view((["2C,1O,3O", "", ""], None), "2O")
        stock = [c for c in p0.unknown if parse_card("2E") != c != parse_card("2B")][4:]
    v = _trump2_view((["2C,1O,3O", "", ""], stock), "2O")
    text, msg = _warning_of(v)
    with pytest.raises(ValueError) as e:
        Position.parse(text)
    cause = "a hidden hand" if known_stock else "stock=?"
    assert msg == (f"{text}: the notation cannot say that 2O was set aside at the deal (remove=trump2, {cause}); "
                   f"the string is refused ({e.value})")


def test_analyse_play_refusal_has_no_determinization_hint():  # mutant M31
    """Only the solver's refusal points to determinizations (user study 68); analyse_play grades a line of one
    deal, and is refused before any kernel."""
    from solver import Position
    from solver.api import analyse_play
    with pytest.raises(ValueError) as e:
        analyse_play(Position.parse(_hand_view("?")), ["2C"])
    assert str(e.value) == "hands: seat 0 is hidden (?); analyse_play needs every hand known (open hands)"
