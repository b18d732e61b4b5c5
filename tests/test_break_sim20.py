"""Break-it pass 20 (helper, 2026-12-06): the simulator's Python API (``sim.simulate``, ``sim.Rules``).

The pass found no wrong result (576 rule sets x 2 policy mixes replayed through tests/oracle.py, 0
disagreements); these are its argument faults, each test failing on the code before the fix:

* ``simulate(..., deals=10**18, keep_frame=True)`` started and grew until the machine killed it: a frame that
  cannot fit in memory is refused before anything is played.
* ``written="abc"`` played every deal, wrote the files, then raised a bare ``AttributeError`` and lost the
  summary; ``on_start=1`` a bare ``TypeError``: both are checked with the other arguments.
* ``deals=np.float32(2.0)`` was refused where ``2.0`` and ``np.float64(2.0)`` were taken.
* ``Rules(tie="replay")`` was named in the summary's dict only: the ``rules:`` line says it and that a 60-60
  deal is still counted as a draw (R8's replay and double deal are match play, R10, not built).
* ``Rules(players=3, deck="catalan48", remove="2B")`` (and 6 players on spanish40, 2 or 4 players) was taken
  and removed nothing, where ``brisca simulate --remove 2B`` and a position's ``remove=`` refuse it (R3: the
  field is the 3-player spanish40 game's); ``Rules(players=2).remove`` now reads None, as ``to_dict`` and the
  command's JSON say.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import sim.batch as B
from sim import simulate
from sim.rules import P_REMOVE, REMOVES, Rules


# ----------------------------------------------------------------- keep_frame that cannot fit
def _started():
    raise RuntimeError("the run started")  # (on code without the check: fail here, not by filling the memory)


def test_keep_frame_of_a_huge_run_is_refused_before_playing():
    with pytest.raises(ValueError, match=r"keep_frame: a frame of 1,000,000,000,000,000,000 rows needs about .* GB, "
                                         r"more than this machine's .* GB of memory: write the table with out="):
        simulate(2, "random", deals=10 ** 18, keep_frame=True, on_start=_started)
    with pytest.raises(ValueError, match=r"with their tricks .* out= and tricks_out="):
        simulate(2, "random", deals=10 ** 18, keep_frame=True, tricks=True, on_start=_started)


def test_keep_frame_limit_follows_the_memory(monkeypatch, tmp_path):
    """The limit is the machine's memory against about FRAME_ROW_BYTES a row (TRICK_ROW_BYTES more with
    tricks); no limit where the memory cannot be read."""
    rows = 1000
    monkeypatch.setattr(B, "_physical_memory", lambda: rows * B.FRAME_ROW_BYTES - 1)
    out = tmp_path / "d.parquet"
    with pytest.raises(ValueError, match="keep_frame: a frame of 1,000 rows"):
        simulate(2, "random", deals=rows, keep_frame=True, out=out, on_start=_started)
    assert not out.exists()
    monkeypatch.setattr(B, "_physical_memory", lambda: rows * B.FRAME_ROW_BYTES)
    B._check_frame_memory(rows, False)
    with pytest.raises(ValueError, match="with their tricks"):
        B._check_frame_memory(rows, True)
    monkeypatch.setattr(B, "_physical_memory", lambda: None)
    B._check_frame_memory(10 ** 18, True)
    assert B._physical_memory is not None and B.FRAME_ROW_BYTES >= 70 and B.TRICK_ROW_BYTES >= 280


# ----------------------------------------------------------------- written / on_start
def test_written_that_is_not_a_list_is_refused_before_playing(tmp_path):
    out = tmp_path / "w.parquet"
    with pytest.raises(ValueError, match="written: expected a list .* got str"):
        simulate(2, "random", deals=10, written="abc", out=out)
    assert not out.exists() and list(tmp_path.iterdir()) == []
    got = []
    simulate(2, "random", deals=10, written=got, out=out)
    assert got == [str(out)]  # (as given: the command line's strings)


def test_on_start_that_is_not_callable_is_refused():
    with pytest.raises(ValueError, match="on_start: expected a callable, got int"):
        simulate(2, "random", deals=10, on_start=1)


# ----------------------------------------------------------------- counts as floats
@pytest.mark.parametrize("deals", [2.0, np.float64(2.0), np.float32(2.0), np.float16(2.0)])
def test_integer_valued_floats_of_any_width_are_counts(deals):
    assert simulate(2, "random", deals=deals, seed=1).summary.deals == 2


@pytest.mark.parametrize("deals", [1.5, np.float32(1.5), float("inf"), np.float32("nan")])
def test_other_floats_are_refused(deals):
    with pytest.raises(ValueError, match="deals must be a positive integer"):
        simulate(2, "random", deals=deals)


# ----------------------------------------------------------------- remove (R3)
@pytest.mark.parametrize("players, deck", [(2, None), (3, "catalan48"), (4, "spanish40"), (6, "spanish40"),
                                           (6, "catalan48"), (2, "rapida20")])
@pytest.mark.parametrize("remove", REMOVES)
def test_remove_of_another_game_is_refused(players, deck, remove):
    """R3: ``remove`` is the 3-player spanish40 game's; given for another game it would remove nothing (6
    players on spanish40 take the four 2s out by the table, whatever it says)."""
    with pytest.raises(ValueError, match=f"remove={remove} applies to "
                                         + ("3 players only" if players != 3 else "the spanish40 deck only")):
        Rules(players=players, deck=deck, remove=remove)
    r = Rules(players=players, deck=deck)
    assert r.remove is None and r.to_dict()["remove"] is None and Rules(**r.to_dict()) == r
    assert Rules(players=players, deck=deck, remove=None) == r
    assert r.to_array()[P_REMOVE] == 0  # (the kernels' "no variant", as before)


def test_remove_defaults_to_2B_in_its_game():
    r = Rules(players=3)
    assert r.remove == "2B" and r == Rules(players=3, remove="2B") == Rules(players=3, remove=None)
    assert len(r.deck_cards) == 39 and r.to_dict()["remove"] == "2B"


def test_rules_derived_with_replace_keep_working():
    """``dataclasses.replace`` passes every field on: a 2-player rule set's None carries to other games."""
    r = dataclasses.replace(Rules(players=2), deck="catalan48", players=4)
    assert (r.players, r.deck, r.remove) == (4, "catalan48", None)
    assert dataclasses.replace(Rules(players=2), players=3).remove == "2B"
    with pytest.raises(ValueError, match="remove=trump2 applies to 3 players only"):
        dataclasses.replace(Rules(players=3, remove="trump2"), players=2)


def test_rules_read_back_from_the_kernels_array():
    """``solver.selfplay`` reads the kernels' array back (index 0 is "no variant" in every game)."""
    from solver.selfplay import _rules_of
    for r in (Rules(players=2), Rules(players=6, deck="spanish40"), Rules(players=3), Rules(players=3, remove="all2s"),
              Rules(players=3, deck="catalan48")):
        assert _rules_of(r.to_array()) == r


def test_rules_line_says_tie_replay_and_what_it_does_here():
    from sim.stats import _rules_line
    assert "tie" not in _rules_line(Rules(players=2).to_dict())
    line = _rules_line(Rules(players=2, tie="replay").to_dict())
    assert line.endswith(", tie replay (R8: a replay and a double deal are match play, R10; each 60-60 deal is "
                         "counted here as a draw)")
    r = simulate(Rules(players=2, tie="replay"), "random", deals=2000, seed=1)
    assert r.summary.extra["rules"]["tie"] == "replay" and "tie replay" in r.summary.format_table()
    assert r.summary.draws > 0  # (60-60 deals: draws, as with tie=draw)
