"""Review 62 of the small modules (sim/bits.py, sim/paths.py, sim/threads.py, sim/rng.py, sim/checks.py,
solver/puzzles.py) and their callers: the faults found, one test each (each fails before its fix)."""
from __future__ import annotations

import os
import subprocess
import sys

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks")


def _check_out():
    sys.path.insert(0, BENCH)
    try:
        from _common import check_out
    finally:
        sys.path.remove(BENCH)
    return check_out


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
