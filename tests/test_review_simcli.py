"""Faults the review of sim/cli.py (2026-12-07) found.

- ``--policy``'s help, when the engine cannot be imported, listed ``random, greedy, heuristic, solver``:
  ``expert`` and ``counter`` (sim.policies) were missing from the fixed list.
"""
import sim.batch
from sim import cli


def test_policy_names_fallback_is_every_policy(monkeypatch):
    names = ", ".join(sim.batch._policy_names())

    def broken():
        raise ImportError("the engine is being edited")

    monkeypatch.setattr(sim.batch, "_policy_names", broken)
    assert cli._policy_names_text() == names
