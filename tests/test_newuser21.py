"""New-user pass 21 (helper, 2026-12-06, README only at db3959e): what tripped a new user, each test failing
before the fix."""
from __future__ import annotations

from pathlib import Path

import pytest

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def test_simulate_help_says_an_interrupted_run_keeps_its_deals(capsys):
    """The help said "Files appear only when the run succeeds", where Ctrl-C or SIGTERM keeps the finished
    deals in a file marked incomplete (README, sim.simulate's Raises)."""
    from sim.cli import main
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "appear only when the run succeeds" not in text
    assert "Ctrl-C, SIGTERM or SIGHUP keeps the deals finished in new files marked incomplete" in text
    assert "an error leaves no file" in text


def test_readme_says_what_apply_and_stdin_progress_do():
    """README: `Position.apply` "does the same" as `--play M1,M2,...` (it plays one move); `--file` shows a bar
    "from two positions up" (standard input, count unknown, from the first); `sim.Rules`' `tie` unnamed."""
    text = " ".join(README.split())
    assert "`Position.apply` does the same" not in text
    assert "`Position.apply(move)` plays one move" in text
    assert "standard input, `--file -`, whose count is not known ahead, from the first" in text
    assert "and `tie` (`draw`, or `replay`" in text
