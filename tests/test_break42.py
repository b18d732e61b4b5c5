"""Break-it pass 42: ``brisca solve``'s moves-that-win line against ``--play M --win --seat S`` and the
plain-Python minimax (tests/solver_oracle.py), and the 'placed nowhere' ending of the count messages."""
import pytest

from solver.position import Position

# the deck less 3C (the pinta, taken and played) and 12B: seat 0 holds 6B, seat 1 has led 11O (stock empty)
_PLAYED = ("1O,2O,3O,4O,5O,6O,7O,10O,12O,1C,2C,4C,5C,6C,7C,10C,11C,12C,1E,2E,3E,4E,5E,6E,7E,10E,11E,12E,"
           "1B,2B,3B,4B,5B,7B,10B,11B").split(",")
_ENDGAME = "players=2 trump=3C hands=6B/ stock= turn=0 trick=11O points=50,67 played="


def _error(text):
    with pytest.raises(ValueError) as e:
        Position.parse(text)
    return str(e.value)


def test_a_pinta_left_out_of_played_is_named_when_the_stock_is_empty():
    """R4, R6: with the stock known and empty no card is left to draw, so a pinta in no hand, trick or
    played= is placed nowhere. It was read as still under the stock and left off the list: the pinta alone
    left out gave no list, the pinta and five others a list of five, the pinta and six others a list of six
    (seven missing)."""
    ok = _ENDGAME + ",".join(_PLAYED + ["3C", "12B"])
    Position.parse(ok)
    assert _error(_ENDGAME + ",".join(_PLAYED + ["12B"])).endswith(
        "; placed nowhere: 3C (list it in played=, a hand or the stock)")
    five = ["1O", "5O", "12E", "4E", "1B"]
    msg = _error(_ENDGAME + ",".join([c for c in _PLAYED if c not in five] + ["12B"]))
    assert msg.endswith("; placed nowhere: 1O, 5O, 3C, 4E, 12E, 1B (list them in played=, a hand or the stock)")
    six = five + ["2O"]
    assert "placed nowhere" not in _error(_ENDGAME + ",".join([c for c in _PLAYED if c not in six] + ["12B"]))


@pytest.mark.parametrize("pos", [
    "players=2 trump=4O hands=1O,3C,12E/3O,1C,5B stock=7E turn=0 points=40,34",
    "players=4 trump=6C hands=11O/3O/1C,10O/3C,1O stock= turn=2 trick=12E,1E points=15,20,10,13",
    "players=2 trump=6B hands=4E,1O/6O,2C,11E stock=3C,11B,4B turn=1 trick=7O points=43,50",
    "players=2 trump=1B hands=5B,7B/1E,5O,1B stock= turn=1 trick=6O points=49,49",
    "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=17,62",
])
def test_the_moves_that_win_line_against_play_win_and_the_oracle(pos, capsys):
    """The moves the line names are exactly those M that ``--play M --win --seat S`` says reach 61 (R8),
    and those the plain minimax gives 61 or more with the side's points."""
    import solver_oracle
    from solver import cli

    p = Position.parse(pos)
    assert cli.main(["solve", "--no-progress", pos]) == 0
    line = [ln for ln in capsys.readouterr().out.splitlines() if "win" in ln]
    reached = set()
    for m in solver_oracle.solve(pos)[1]:
        assert cli.main(["solve", "--no-progress", pos, "--play", m, "--win", "--seat", str(p.turn)]) == 0
        if ": reached" in capsys.readouterr().out:
            reached.add(m)
    held = p.side_points(p.turn)
    oracle = {m for m, v in solver_oracle.solve(pos)[1].items() if held + v >= 61}
    assert reached == oracle and len(line) == 1
    if held >= 61:
        assert line[0].startswith("every move wins")
    elif reached:
        assert set(line[0].split("): ")[1].split(", ")) == reached
    else:
        assert line[0].startswith("no move wins")
