"""Break-it pass 44 on the ninth part's new code (SolveResult.wins, analyse_play's early move check, the
duplicate-card hint of a stock written from a game's draws, the README's recipe for a game on paper).

- The duplicate-card hint ("a 7 or 2 of trumps given up in an exchange, R7, is the pinta, drawn last: a stock
  written from a game's draws leaves out the last card drawn") was given for any 7 or 2 of trumps repeated in
  the stock with exchanges on, whatever R7's variant and the pinta: a 2 under ``exchange=seven`` (no
  2-exchange), a 7 under ``two-any`` or under R3's ``remove=trump2`` with ``two-any`` (no exchange at all),
  a 7 with the pinta a 4, 5 or 6 (the 7 is exchanged only for a pinta stronger than the 7, R7), and a
  repeated card that is not the stock's last (leaving out the last card drawn does not mend it). The hint
  now needs an exchange that can give the card up and the card last in the stock.

Lean: position parsing only (no kernel compile).
"""
import pytest

from solver import Position

HINT = "a stock written from a game's draws leaves out the last card drawn"
HANDS = "hands=10O,7C,3C/6O,11E,4B"
THREE = "players=3 remove=trump2 hands=10O,7C,3C/6O,11E,4B/1O,1C,1B"


def _message(text):
    with pytest.raises(ValueError) as e:
        Position.parse(text)
    return str(e.value)


@pytest.mark.parametrize("text", [
    f"players=2 exchange=seven trump=12E {HANDS} stock=2E,5O,2E",  # R7 seven: no 2-exchange
    f"players=2 exchange=two-any trump=12E {HANDS} stock=7E,5O,7E",  # R7 two-any: no 7-exchange
    f"players=2 trump=4E {HANDS} stock=7E,5O,7E",  # R7: the 7 only for a pinta stronger than the 7
    f"players=2 trump=6E {HANDS} stock=7E,5O,7E",
    f"{THREE} exchange=two-any trump=12E stock=7E,5O,7E",  # R3 trump2: two-any plays as no exchange
    f"players=2 trump=12E {HANDS} stock=2E,2E,5O",  # repeated, but the last card drawn is the 5O
    f"players=2 trump=12E {HANDS} stock=7E,7E,5O",
])
def test_no_exchange_hint_where_no_exchange_gives_the_card_up(text):
    msg = _message(text)
    assert "appears twice" in msg and HINT not in msg, msg


@pytest.mark.parametrize("text", [
    f"players=2 trump=12E {HANDS} stock=2E,5O,2E",  # (controls: the hint stays where it is right)
    f"players=2 trump=12E {HANDS} stock=7E,5O,7E",
    f"players=2 trump=4E {HANDS} stock=2E,5O,2E",
    f"players=2 exchange=two-any trump=1E {HANDS} stock=2E,5O,2E",
    f"players=2 exchange=seven trump=3E {HANDS} stock=7E,5O,7E",
    f"players=2 deck=catalan48 trump=8E {HANDS} stock=7E,5O,7E",  # (an 8 is stronger than the 7, R7)
    f"{THREE} trump=12E stock=7E,5O,7E",  # (trump2 disables the 2-exchange only, R3)
    "players=2 trump=12E hands=10O,7E,3C/6O,11E,4B stock=5O,7E",  # dealt, then drawn as the pinta
])
def test_exchange_hint_kept_where_an_exchange_gives_the_card_up(text):
    assert HINT in _message(text)
