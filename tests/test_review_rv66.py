"""Review rv66 of the session f7341aa..9cdfc3e: what was wrong.

- analyse_play's error named the trick counting the cards the start position reads as played before it:
  a game kept on paper whose ``stock=`` left out two cards drawn (new-user pass 31's case) named trick 5
  for a card of the paper's trick 4. In that case the trick is now given both ways.
- Position's hint on a 7 or 2 of trumps listed twice (user study 66: the pinta after an exchange, R7) was
  given for a card no exchange of the rules could have given up: the 2 with ``exchange=seven``, the 7 with
  ``exchange=two-any``, the 7 when the card turned up is not above it (R7: the 7 takes a pinta stronger than
  the 7; a 2 taking a 4, 5 or 6 first leaves a 2 as the pinta), the card turned up itself.

Lean: no solve (the search's driver is replaced by one that fails), only parsing and replays.
"""
import os
import re

import pytest

from test_user66 import DRAWS, HANDS, MOVES


def test_a_stock_left_short_names_the_papers_trick_too(no_solve):
    from solver import analyse_play
    stock = [c for c in DRAWS[:-1] if c not in ("1O", "5O")]  # two draws forgotten (new-user pass 31)
    with pytest.raises(ValueError) as e:
        analyse_play(HANDS + ",".join(stock), MOVES, perspective=0)
    msg = str(e.value)
    # moves[7] is the 8th card played: 10O 6O | 10B 4B | 7C 6C | 4O 5O, trick 4 on paper
    assert MOVES[7] == "5O" and [m for m in MOVES[:8] if m == "swap"] == []
    where = ("moves[7] (trick 5 counting the 2 cards read as played before the start position, trick 4 without "
             "them; seat 1 to move): ")
    assert msg.startswith(where), msg
    readme = open(os.path.join(os.path.dirname(__file__), "..", "README.md"), encoding="utf-8").read()
    text = " ".join(readme[readme.index('<a id="grading-a-game-you-played"></a>'):][:7000].split())
    assert f"`{where[:-2]}`" in text


def test_a_card_played_twice_along_the_moves_keeps_one_trick(no_solve):
    """(control) A full stock: the trick counts from the deal's first, one count."""
    from solver import analyse_play
    moves = list(MOVES)
    moves[3] = "10O"
    with pytest.raises(ValueError) as e:
        analyse_play(HANDS + ",".join(DRAWS[:-1]), moves, perspective=0)
    assert str(e.value).startswith("moves[3] (trick 2, seat 1 to move): 10O is not legal here"), str(e.value)


HINT = "a 7 or 2 of trumps given up in an exchange, R7, is the pinta"


@pytest.mark.parametrize("trump, card, exchange, hinted", [
    ("12E", "7E", "seven-two", True),    # the user-study case: the 7 taken the 12, drawn again last
    ("12E", "2E", "seven-two", True),    # the 7 then the 2 (R7: exchanges chain)
    ("5E", "2E", "seven-two", True),     # the 2 for a 4, 5, 6 or 7
    ("12E", "7E", "seven", True),
    ("5E", "2E", "two-any", True),
    ("12E", "2E", "seven", False),       # seven: no 2-exchange
    ("12E", "7E", "two-any", False),     # two-any: no 7-exchange
    ("5E", "7E", "seven-two", False),    # the 7 takes only a pinta stronger than the 7
    ("2E", "7E", "seven-two", False),
    ("12E", "7E", "none", False),
])
def test_the_pinta_hint_only_for_a_card_an_exchange_can_give_up(trump, card, exchange, hinted):
    from solver import Position
    with pytest.raises(ValueError) as e:
        Position.parse(f"players=2 exchange={exchange} trump={trump} hands=10O,{card},3C/6O,11E,4B stock=1O,{card}")
    msg = str(e.value)
    assert re.search(rf"card {card} appears in both hands and stock", msg), msg
    assert (HINT in msg) == hinted, msg
