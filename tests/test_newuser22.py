"""New-user pass 22 (helper, 2026-12-06, ninth part, README only at 2f6752e): what tripped a new user, each
test failing before its fix."""
from __future__ import annotations

import pytest

from conftest import usage_error as _error

EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"


def test_mistyped_option_before_a_quoted_position_is_named(capsys):
    """``brisca solve --tagret 5 "<position>"``: argparse takes 5 as the position and reports the position's
    fields as unrecognized; the error blamed the quoting. It names the unknown option and its likely
    spelling, and no longer says to quote what was quoted."""
    err = _error(["solve", "--tagret", "5", EX], capsys)
    assert "unknown option --tagret: did you mean --target?" in err
    assert "quote it" not in err
    err = _error(["simulate", "--deels", "5"], capsys)
    assert "unknown option --deels: did you mean --deals?" in err
    # the suggestion comes from the subcommand given: simulate has no --target
    err = _error(["simulate", "--tagret", "5"], capsys)
    assert "unknown option --tagret" in err and "--target" not in err.split("(", 1)[1]
    # an unquoted position keeps the quote hint
    err = _error(["solve", "players=2", "trump=5B"], capsys)
    assert "a position is one argument: quote it" in err and "unknown option" not in err


@pytest.mark.parametrize("players, turn, whose", [
    (2, 1, "value 26 for seat 1  ("),
    (3, 2, "value 26 for seat 2 against seats 0 and 1  ("),
    (4, 1, "value 26 for seats 1 and 3  ("),
    (6, 0, "value 26 for seats 0, 2 and 4  ("),
    (6, 3, "value 26 for seats 1, 3 and 5  ("),
])
def test_value_line_names_the_side(players, turn, whose, capsys):
    """The value line said ``value 26`` without whose value it is; README: the value of the side of the
    seat to move (one team with 4 and 6 players, the mover against the other two with 3: NOTATION.md,
    Solver output). The seats come from the position (seat 0 leads a deal; a card played passes the
    turn), not from a solve."""
    from sim.rules import Rules
    from solver.api import SolveResult
    from solver.cli import _print_human
    from solver.position import deal_position
    pos = deal_position(Rules(players=players), 1, 0)
    while pos.turn != turn:
        pos = pos.apply(pos.legal_moves()[0])
    _print_human(SolveResult(position=str(pos), value=26, nodes=1, ms=0.4), pos=pos)
    out = capsys.readouterr().out
    assert whose in out
    _print_human(SolveResult(position=str(pos), value=26, nodes=1, ms=0.4))  # (no position: as before)
    assert "value 26  (" in capsys.readouterr().out


def test_open_values_bar_redraws_every_30_s_off_a_terminal(tmp_path, monkeypatch):
    """``open_values.py ... 2>log`` redrew its bar about every 0.1 s into the log; brisca's bars redraw every
    30 s off a terminal (README, "progress bars"), and the benchmark's bar now does too."""
    from conftest import bench_script
    from sim.batch import PROGRESS_LOG_SECONDS
    mod = bench_script("open_values")
    seen = {}

    class Stop(Exception):
        pass

    def bar(*args, **kw):
        seen.update(kw)
        raise Stop

    monkeypatch.setattr(mod, "tqdm", bar)
    monkeypatch.setattr(mod, "warm_up", lambda *a, **k: None)  # (no compile: the bar is all this reads)
    with pytest.raises(Stop):
        mod._main(["--deals", "1", "--out", str(tmp_path / "ov.parquet")])
    assert seen["mininterval"] == PROGRESS_LOG_SECONDS  # (pytest's captured stderr is no terminal)
