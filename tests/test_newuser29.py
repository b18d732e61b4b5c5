"""New-user pass 29 (a fresh clone, the README followed from the top): what tripped.

- ``brisca puzzles --help`` showed no default for ``--exchange``, ``--exchange-condition`` and
  ``--endgame`` (its parser used the plain :class:`sim.cli.Wrapped` formatter, which does not append
  defaults), while ``brisca simulate --help`` shows them for the same shared options
  (``sim.cli.add_rule_options``); the group is titled "as brisca simulate's" and the epilog says "with
  the same defaults" without naming them.
"""
import re

import pytest


def _help(capsys, command):
    from sim.cli import main

    with pytest.raises(SystemExit) as e:
        main([command, "--help"])
    assert e.value.code == 0
    return " ".join(capsys.readouterr().out.split())


def test_puzzles_help_shows_the_rule_defaults_as_simulate_does(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "100")
    simulate, puzzles = _help(capsys, "simulate"), _help(capsys, "puzzles")
    for flag, default in (("--exchange", "seven-two"), ("--exchange-condition", "any"), ("--endgame", "free")):
        for text in (simulate, puzzles):
            # the option's help entry: from its "--flag {choices}" to the next option
            entry = re.search(re.escape(flag) + r" \{[^}]*\} (.*?)(?= --|$)", text).group(1)
            assert f"(default: {default})" in entry, (flag, entry)
    assert puzzles.count("default: 10") == 1, puzzles  # (--count's own, not appended a second time)
