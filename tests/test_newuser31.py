"""New-user pass 31 (a fresh clone, the README followed from the top, its "grading a game you played" recipe
included): what tripped.

- A game kept on paper whose ``stock=`` left out two of the cards drawn still parsed (33 cards to draw less
  two is a multiple of 2): the two cards, in no field of the start position, read as played before it
  (``played=`` defaults to the complement, NOTATION.md). ``analyse_play`` then refused the first of them
  played with only ``5O has already been played``, though the moves play it once: a new user looks for a
  card written twice in the moves. The message now says the card was played before the start position,
  being in none of its hands, trick or stock, and that a card drawn but left out of ``stock=`` reads so.
  A card played twice along the moves, or a start position with ``played=`` given, keeps the plain message.

Lean: no solve runs (the search's driver is replaced by one that fails the test); the moves are checked
before any solve.
"""
import pytest

from test_user66 import DRAWS, HANDS, MOVES

HINT = "before the start position (it is in none of its hands, trick or stock: a card drawn in the game but " \
       "left out of stock= reads as played)"


def _error(start, moves):
    from solver import analyse_play
    with pytest.raises(ValueError) as e:
        analyse_play(start, moves, perspective=0)
    return str(e.value)


def test_a_card_left_out_of_the_stock_is_named_as_not_in_the_start_position(no_solve):
    stock = [c for c in DRAWS[:-1] if c not in ("1O", "5O")]  # two draws forgotten: still parses
    msg = _error(HANDS + ",".join(stock), MOVES)
    assert msg.startswith("moves[7] ") and "5O is not legal here: 5O has already been played, " + HINT in msg, msg


@pytest.mark.parametrize("case", ["twice in the moves", "played= given"])
def test_a_card_really_played_keeps_the_plain_message(no_solve, case):
    """(controls) The 10O written again at move 3 was played at move 0; a start position that names its
    played cards (played=) says nothing of a stock left short."""
    if case == "twice in the moves":
        moves = list(MOVES)
        moves[3] = "10O"
        msg = _error(HANDS + ",".join(DRAWS[:-1]), moves)
        assert "10O has already been played (legal: " in msg, msg
    else:
        stock = [c for c in DRAWS[:-1] if c not in ("1O", "5O")]
        msg = _error(HANDS + ",".join(stock) + " played=1O,5O", MOVES)
        assert "5O has already been played (legal: " in msg, msg
    assert HINT not in msg


def test_readme_quotes_the_message(no_solve):
    """The recipe's paragraph says what a stock left short does, quoting the message as it reads."""
    import os
    import re
    readme = open(os.path.join(os.path.dirname(__file__), "..", "README.md"), encoding="utf-8").read()
    text = readme[readme.index('<a id="grading-a-game-you-played"></a>'):][:6000]
    quoted = re.search(r"refused as `(5O\s+has\s+already\s+been\s+played,\s+before\s+the\s+start\s+position[^`]*?): "
                       r"\.\.\.\)`", text)
    assert quoted, "the README's paper recipe does not quote the message"
    stock = [c for c in DRAWS[:-1] if c not in ("1O", "5O")]
    assert " ".join(quoted.group(1).split()) in _error(HANDS + ",".join(stock), MOVES)
