"""User study 65b (a puzzle author writing positions by hand).

Faults found and pinned here:

- With ``stock=?`` the text of ``brisca solve`` printed ``value 9.6333 for seat 1`` exactly as it prints an
  exact value: nothing on the line said it is an expectation over the hidden draw orders (only ``--help``'s
  epilog did), and with one face-down card left the expectation is a whole number (``value 22``), read as
  exact card points. The line now says ``, expected over the stock's orders`` after whose value it is.
- ``brisca solve --help`` said what ``stock=?`` does but not that a hidden hand (NOTATION.md's
  observations, ``hands=?``) is refused: it now says only the stock may be hidden.
- A card left out of ``played=`` (every card placed once) was blamed on the stock (``stock: 1 face-down
  cards given, but ... leave 2``) or on the hands (``hands: seat 0 holds 2 cards, expected 3; ...``), which
  count from ``played``: the author had to find which of the 40 cards it was. With every hand and the stock
  known and at most 6 cards placed nowhere, these messages now name them (``placed nowhere: 2O (list it in
  played= or the stock)``); ``1 face-down card`` in the singular.
"""
import pytest

from solver.api import SolveResult
from solver.cli import _print_human
from solver.position import Position

PLAYED = ("3O,4O,5O,6O,7O,11O,12O,1C,4C,5C,10C,11C,12C,1E,2E,4E,5E,6E,7E,10E,11E,"
          "1B,2B,3B,6B,7B,10B,11B")
HIDDEN = ("players=2 trump=5B hands=3C,6C/10O,2C,12E stock=? turn=1 trick=1O points=62,17 played=" + PLAYED)
KNOWN = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"


def _line(text, value, capsys):
    pos = Position.parse(text)
    _print_human(SolveResult(position=str(pos), value=value, nodes=1, ms=0.4), pos=pos)
    return capsys.readouterr().out.splitlines()[1]


def test_hidden_stock_value_says_it_is_an_expectation(capsys):
    assert _line(HIDDEN, 9.633333, capsys) == \
        "value 9.6333 for seat 1, expected over the stock's orders  (1 node, 0.4 ms)"
    assert "expected over the stock's orders" in _line(HIDDEN, 22, capsys)  # a whole-number expectation too


def test_known_stock_value_is_unchanged(capsys):
    assert _line(KNOWN, 26, capsys) == "value 26 for seat 1  (1 node, 0.4 ms)"


def test_readme_shows_the_expectation_line():
    from pathlib import Path
    text = " ".join((Path(__file__).resolve().parent.parent / "README.md").read_text().split())
    assert "`value 9.6333 for seat 1, expected over the stock's orders`" in text


def test_solve_help_says_a_hidden_hand_is_refused(capsys):
    """NOTATION.md writes a seat's view with hidden hands (``?``); ``brisca solve --help`` said only what
    ``stock=?`` does, so a puzzle author found out that a hidden hand is refused by trying it."""
    from sim.cli import build_parser
    with pytest.raises(SystemExit):
        build_parser().parse_args(["solve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "Only the stock may be hidden: a hidden hand (hands=...? or ?, a seat's view in NOTATION.md) " \
           "is refused, the solver needing every hand." in text


DECK = [f"{r}{s}" for s in "OCEB" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]


def _played(*left_out):
    """played= for the author's position below (hands 1O,3C,12E/3O,1C,5B, stock 7E, pinta 4O), less left_out."""
    used = {"1O", "3C", "12E", "3O", "1C", "5B", "7E", "4O", *left_out}
    return "played=" + ",".join(c for c in DECK if c not in used)


@pytest.mark.parametrize("text, msg", [
    ("players=2 trump=4O hands=1O,3C,12E/3O,1C,5B stock=7E turn=0 points=40,34 " + _played("2O"),
     "stock: 1 face-down card given, but hands, trick and played (31 cards) and the pinta under the stock leave 2 "
     "(with played given, every card of the deck is placed once); placed nowhere: 2O (list it in played= or the "
     "stock)"),
    # the endgame: the hands' count follows from played
    ("players=2 trump=4O hands=1O,3C/3O,1C stock= turn=0 points=40,34 " + _played("2O", "6B") + ",4O,7E,5B,12E",
     "hands: seat 0 holds 2 cards, expected 3; seat 1 holds 2 cards, expected 3; placed nowhere: 2O, 6B (list "
     "them in played=, a hand or the stock)"),
    ("players=2 trump=4O hands=1O,3C/3O,1C stock= turn=0 points=40,34 " + _played("6B") + ",4O,7E,5B,12E",
     "hands: 5 cards are left for the hands but with 0 in the trick they do not split evenly among 2 seats (the "
     "seats hold 2, 2: each holds the same number, so the hands hold a multiple of 2 cards, not 5); placed "
     "nowhere: 6B (list it in played=, a hand or the stock)"),
    # many cards left out: a sketch, not a typo; no list
    ("players=2 trump=4O hands=1O,3C,12E/3O,1C,5B stock=7E turn=0 points=40,34 played=1B",
     "stock: 1 face-down card given, but hands, trick and played (1 card) and the pinta under the stock leave 32 "
     "(with played given, every card of the deck is placed once)"),
])
def test_a_card_left_out_of_played_is_named(text, msg):
    with pytest.raises(ValueError) as e:
        Position.parse(text)
    assert str(e.value) == msg


def test_stock_unknown_takes_the_unplaced_cards():
    """With stock=? the cards placed nowhere are the face-down ones: still a valid position, nothing named."""
    p = Position.parse("players=2 trump=4O hands=1O,3C,12E/3O,1C,5B stock=? turn=0 points=40,34 "
                       + _played("2O", "6B"))
    assert p.stock is None


def test_text_output_names_the_moves_that_win(capsys):
    """User study 65b's first friction (mended after it): checking that a puzzle has exactly one winning move
    took a ``--play M --win`` per move or sums by hand; the text output names the moves that win (61 or more
    with the side's points, R8), two sides and a known stock only."""
    from solver import cli

    def text(pos):
        assert cli.main(["solve", "--no-progress", pos]) == 0
        return capsys.readouterr().out.splitlines()

    out = text("players=2 trump=4O hands=1O,3C,12E/3O,1C,5B stock=7E turn=0 points=40,34")
    assert out[-2] == "the move that wins (61 or more with the side's 40, R8): 12E" and out[-1].startswith("pv ")
    out = text("players=4 trump=6C hands=11O/3O/1C,10O/3C,1O stock= turn=2 trick=12E,1E points=15,20,10,13")
    assert "the move that wins (61 or more with the side's 25, R8): 1C" in out
    out = text("players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17")
    assert "no move wins: at best 43 of the 61 needed (the side holds 17, R8)" in out
    out = text("players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=17,62")
    assert out[2:] and "every move wins: the side already holds 62 card points (61 or more, R8)" in out


def test_text_output_moves_that_win_plural_and_a_draw_at_best(capsys):
    """The two other forms of the line: several moves win; the best is a 60-60 draw (R8)."""
    from solver import cli

    def text(pos):
        assert cli.main(["solve", "--no-progress", pos]) == 0
        return capsys.readouterr().out.splitlines()

    assert "moves that win (61 or more with the side's 50, R8): 6O, 2C, 11E" in text(
        "players=2 trump=6B hands=4E,1O/6O,2C,11E stock=3C,11B,4B turn=1 trick=7O points=43,50")
    assert "no move wins: at best a 60-60 draw (R8)" in text(
        "players=2 trump=1B hands=5B,7B/1E,5O,1B stock= turn=1 trick=6O points=49,49")
