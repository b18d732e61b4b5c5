"""User study 66 (a club player grading two games played on paper, 2 and 4 players): what tripped.

- The README graded only simulated deals (``deal_position``, ``deal_moves``): nothing said how to write a
  game played at the table as a start position and moves. The grading section now has a recipe for a game
  kept on paper: ``stock=`` the cards drawn in the order drawn (winner first, R6) without the last one
  drawn, the pinta (after a trump exchange, R7, the 7 or 2 given up); ``swap`` before an exchanging seat's
  card; each of seat 0's moves with its best moves and the points lost, the worst, saved with ``to_csv``.
  A row of the Common tasks table points to it.
- Listing every card drawn as the stock, the last one too, after an exchange said only ``stock: card 2E
  appears twice`` (or ``appears in both hands and stock``): the 7 or 2 of trumps given up is drawn again as
  the pinta. The message now says so when the card repeated in the stock is the 7 or 2 of trumps.
- ``analyse_play`` checked each move only after solving every position before it: a card written wrong near
  the end of the 4-player game was refused after some forty solves (about a second each), and its error,
  ``moves[24]: ...``, counted the moves, swaps included, which the paper does not. Every move is now checked
  before any solve, and the error names the trick and the seat to move: ``moves[24] (trick 12, seat 1 to
  move): ...``.

Lean: position parsing and the recipe's moves replayed with ``Position.apply``; one test runs the recipe
(its solves: the 2-player solver, compiled once for the suite).
"""
import pytest

from solver import Position
from test_docs import _readme_block, _run_block

RECIPE = '<a id="grading-a-game-you-played"></a>'
DRAWS = ("10B 6C 1O 5O 4O 2C 5B 4C 4E 11C 1C 3E 6B 2E 5C 10E 7E 1E 1B 5E 11O 12O 12C 11B 3B 2O 7O 2B "
         "6E 3O 7B 12B 10C 2E").split()
HANDS = "players=2 trump=12E hands=10O,7C,3C/6O,11E,4B stock="
HINT = "a stock written from a game's draws leaves out the last card drawn"


@pytest.mark.parametrize("stock, start", [
    (DRAWS, "stock: card 2E appears twice"),  # every draw listed, the exchanged 2E (the last pinta) too
    (DRAWS[:-1], None),  # (control: the draws without the last one parse)
])
def test_stock_listing_the_last_draw_after_an_exchange_says_to_leave_it_out(stock, start):
    text = HANDS + ",".join(stock)
    if start is None:
        Position.parse(text)
        return
    with pytest.raises(ValueError) as e:
        Position.parse(text)
    assert str(e.value).startswith(start) and HINT in str(e.value) and "R7" in str(e.value), e.value


def test_the_hint_names_only_an_exchangeable_trump():
    """The 7 of trumps dealt to a hand and listed last in the stock gets the hint; a repeated card that no
    exchange moves (not a 7 or 2 of trumps, or exchanges off) keeps the plain message."""
    seven = "players=2 trump=12E hands=10O,7E,3C/6O,11E,4B stock=" + ",".join(
        [d for d in DRAWS[:-1] if d != "7E"] + ["7E"])
    with pytest.raises(ValueError, match="stock: card 7E appears in both hands and stock") as e:
        Position.parse(seven)
    assert HINT in str(e.value)
    for text in (seven + " exchange=none", HANDS + ",".join(DRAWS[:-1] + ["6C"])):
        with pytest.raises(ValueError, match="appears") as e:
            Position.parse(text)
        assert HINT not in str(e.value), e.value


def test_readme_recipe_for_a_game_on_paper_replays_to_the_score_it_states():
    """The recipe's start position and moves are a legal whole game (no solve: its lines before the grading,
    then every move applied) ending 57-63, and its text says how the stock is written."""
    import os
    readme = open(os.path.join(os.path.dirname(__file__), "..", "README.md")).read()
    assert "(#grading-a-game-you-played)" in readme  # the Common tasks row
    text = readme[readme.index(RECIPE):][:1500]
    for words in ("without the last card drawn", "the winner draws", "`swap` just before"):
        assert words in text, words
    code = _readme_block(RECIPE)
    names = {}
    exec(code[:code.index("values = ")], names)
    p = names["start"]
    assert names["draws"] == DRAWS and len(p.stock) == 33 and str(p).startswith(HANDS[:-6])
    for m in names["moves"]:
        p = p.apply(m)
    assert p.is_terminal and p.points == (57, 63)
    assert "57-63" in readme[readme.index(RECIPE):][:4000]


def test_readme_recipe_for_a_game_on_paper_prints_what_it_says(tmp_path, monkeypatch):
    """Run whole: the open value, seat 0's losses, the end value and score, the worst move, and the CSV."""
    import pandas as pd
    code = _readme_block(RECIPE)
    monkeypatch.chdir(tmp_path)
    out = _run_block(code).splitlines()
    assert out == ["53 58 57 (57, 63)", "{'trick': 16, 'played': '11B', 'best': '1O', 'lost': 15}"], out
    for line in out:
        assert line in code  # the block's comments
    df = pd.read_csv(tmp_path / "graded.csv")
    assert list(df.columns) == ["trick", "played", "best", "lost"] and len(df) == 20 and df.lost.sum() == 58
    after = open(__file__.replace("tests/test_user66.py", "README.md")).read()
    after = after[after.index(RECIPE):][:4000]
    assert "worth 53" in after and "lost 58 points" in after and "gave back 62" in after  # 57 - 53 + 58


MOVES = ("10O 6O 10B 4B 7C 6C 4O 5O 11E 3C 2C 4C 11C 5B 6B 3E 4E 1C swap swap 12E 1E 10E 5E 1B 7E 5C 11O "
         "12C 2O 12O 2B 7O 11B 6E 12B 7B 2E 3O 3B 1O 10C").split()


@pytest.mark.parametrize("index, card, where", [
    (24, "7E", "(trick 12, seat 1 to move): 7E is not legal here: 7E is the pinta"),  # one swap of two written
    (41, "3C", "(trick 20, seat 1 to move): 3C is not legal here"),  # the last card written wrong
    (0, "6O", "(trick 1, seat 0 to move): 6O is not legal here: seat 0 is to move, and 6O is in seat 1's hand"),
])
def test_analyse_play_refuses_a_wrong_move_before_any_solve(monkeypatch, index, card, where):
    """No solve runs (the search's driver is replaced by one that fails the test) before the wrong move is
    refused, and the error names the trick and the seat to move."""
    import solver.search as S
    from solver import analyse_play

    def no_solve(*a, **kw):
        raise AssertionError("a position was solved before the moves were checked")
    monkeypatch.setattr(S, "drivers", no_solve)
    moves = list(MOVES)
    if card == "7E":
        del moves[18]  # one swap instead of two: the 7E is still the pinta at move 24 (was 25)
    else:
        moves[index] = card
    with pytest.raises(ValueError) as e:
        analyse_play(HANDS + ",".join(DRAWS[:-1]), moves, perspective=0)
    assert str(e.value).startswith(f"moves[{index}] {where}"), e.value
