"""Review 62 of the small modules (sim/bits.py, sim/paths.py, sim/threads.py, sim/rng.py, sim/checks.py,
solver/puzzles.py) and their callers: the faults found, one test each (each fails before its fix)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import bench_script
from solver.puzzles import find_puzzles

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks")


def _check_out():
    return bench_script("_common").check_out


def test_benchmark_out_refusal_escapes_control_characters_and_cuts_a_long_name(tmp_path):
    """benchmarks/_common.check_out's reason echoes ``--out``; the scripts print it as it is (``ap.error``),
    so an ``--out`` holding ESC drove the terminal (``bench_engine.py --out $'/proc/\\x1b[31mX.jsonl'``
    printed the ESC raw), and a 5,000-character name was echoed whole. ``brisca`` escapes and cuts its
    errors (sim.cards.printable, cut_long_words): the reason is now given so."""
    check_out = _check_out()
    why = check_out(str(tmp_path / "no\x1b[31m\x07" / "x.jsonl"))
    assert "\x1b" not in why and "\x07" not in why, why
    assert why == f"directory {tmp_path}/no\\x1b[31m\\x07 does not exist"
    why = check_out(str(tmp_path / ("d" * 5000) / "x.jsonl"))
    assert len(why) < 300 and "(5" in why, why
    assert check_out(str(tmp_path / "fine.jsonl")) is None


def test_benchmark_script_error_line_has_no_raw_escape(tmp_path):
    """The script's own error line (exit 2, before any work): no ESC reaches stderr."""
    (tmp_path / "gone\x1b]0;title\x07").write_text("a file, not a directory\n")
    bad = str(tmp_path / "gone\x1b]0;title\x07" / "x.jsonl")
    r = subprocess.run([sys.executable, os.path.join(BENCH, "bench_minimal_loop.py"), "--out", bad],
                       capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    assert "\x1b" not in r.stderr and "\x07" not in r.stderr and "gone\\x1b]0;title\\x07" in r.stderr, r.stderr


def test_puzzles_default_max_tries_stays_in_range(monkeypatch, capsys):
    """``brisca puzzles --count 10**17`` (below the 2**63 bound --count has) without --max-tries: the default
    200 * count passed 2**64 and the command ended in a traceback, find_puzzles' "max_tries: expected an
    integer below 2**64" (exit 1). The default is now capped at 2**63 - 1, --max-tries' own bound. The
    search itself is stood in for (its arguments checked by the real find_puzzles, none searched)."""
    import solver.puzzles
    from solver import cli

    real, seen = solver.puzzles.find_puzzles, {}

    def checked_only(count, **kw):
        real(count, **kw)  # (the argument checks: raises as the real call does)
        seen.update(kw, count=count)
        return iter(())

    monkeypatch.setattr(solver.puzzles, "find_puzzles", checked_only)
    monkeypatch.setattr(cli, "_warm_up", lambda *a, **k: None)
    rc = cli.main(["puzzles", "--no-progress", "--count", str(10 ** 17)])
    err = capsys.readouterr().err
    assert rc == 1 and "Traceback" not in err and "max_tries" not in err, err
    assert seen["count"] == 10 ** 17 and seen["max_tries"] == 2 ** 63 - 1
    assert "found 0 of 100,000,000,000,000,000 puzzles" in err, err


@pytest.mark.parametrize("value, shown", [(2.0, "2.0"), (5, "5"), (True, "True"), (10**5000, "a 16610-bit integer")],
                         ids=["float", "five", "bool", "huge"])
def test_find_puzzles_players_refusal_shows_the_value(value, shown):
    """``find_puzzles(players=2.0)`` said "puzzles are generated for 2 players" without the value given, so
    a float 2.0 read as a contradiction (small-module review of 2026-12-07, fifth part)."""
    with pytest.raises(ValueError, match=rf"^players: puzzles are generated for 2, 3, 4 or 6 players \(RULES R3\), got {shown}$"):
        find_puzzles(1, players=value)
