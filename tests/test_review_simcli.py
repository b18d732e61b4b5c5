"""Faults the review of sim/cli.py (2026-12-07) found.

- ``--policy``'s help, when the engine cannot be imported, listed ``random, greedy, heuristic, solver``:
  ``expert`` and ``counter`` (sim.policies) were missing from the fixed list.
"""
import pytest

import sim.batch
from sim import cli


def test_policy_names_fallback_is_every_policy(monkeypatch):
    names = ", ".join(sim.batch._policy_names())

    def broken():
        raise ImportError("the engine is being edited")

    monkeypatch.setattr(sim.batch, "_policy_names", broken)
    assert cli._policy_names_text() == names


def test_simulate_help_gives_the_exit_statuses(capsys):
    """brisca simulate --help had no exit-status paragraph where solve's and puzzles' have one (new-user pass
    26); it lists 0, 1, 2, 141 and 130/143/129."""
    from sim.cli import main
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--help"])
    assert e.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    part = text[text.index("exit status:"):text.index("examples:")]
    for piece in ("0 ok", "1 an output could not be written", "2 bad input", "141 stdout's reader went away",
                  "130/143/129 interrupted by Ctrl-C/SIGTERM/SIGHUP"):
        assert piece in part, (piece, part)
