"""Mutation pass 29 over the seventh part of 2026-12-07 (``brisca puzzles``' rule options and players,
``sim.cli.add_rule_options`` / ``rules_from_args``, ``solver.puzzles``, ``benchmarks/_common``'s parser and
``check_seed``, ``eval_heuristic.check_args``): the surviving mutants' tests. Each fails with its mutant:
the benchmark parser's cut at 201 characters or keeping 61, its usage line dropped, ``check_seed(0)``
refused, puzzles' ``--exchange-condition`` help without its won-trick note, a ``--players`` default of 4,
``--players`` read by ``int`` (``4e0`` refused, which ``brisca simulate`` takes), the 6-player
table's default deck spanish40, a ``--remove`` refusal naming ``deck None``."""
from __future__ import annotations

import pytest

from conftest import bench_script, run_main
from sim.rules import Rules


def _error_line(message, capsys):
    ap = bench_script("_common").ArgumentParser(prog="bench")
    with pytest.raises(SystemExit) as e:
        ap.error(message)
    assert e.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("n", [200, 201])
def test_benchmark_parser_cuts_a_run_over_200_characters_after_60(n, capsys):
    """``_common.ArgumentParser.error`` leaves a run of 200 non-blank characters whole and cuts one of 201
    after 60, naming its length, below the usage line (as ``brisca``'s parser: argparse's errors pass 200)."""
    err = _error_line("invalid value: " + "7" * n, capsys)
    usage, line = err.splitlines()
    assert usage.startswith("usage: bench")
    if n == 200:
        assert line == "bench: error: invalid value: " + "7" * 200
    else:
        assert line == "bench: error: invalid value: " + "7" * 60 + "... (201 characters)"


def test_check_seed_takes_the_whole_uint64_range():
    check_seed = bench_script("_common").check_seed
    assert check_seed(0) is None and check_seed(2 ** 64 - 1) is None
    assert check_seed(-1) == "-1, expected 0 <= seed < 2**64"
    assert check_seed(2 ** 64) == f"{2 ** 64}, expected 0 <= seed < 2**64"


def _subparsers():
    from sim.cli import build_parser
    return next(a for a in build_parser()._actions if a.choices and "puzzles" in a.choices).choices


def test_puzzles_exchange_condition_help_says_won_trick_is_refused():
    """``brisca puzzles``' ``--exchange-condition`` help is simulate's with the note that only ``any`` is
    generated (add_rule_options' ``condition_note``); simulate's has no note."""
    def help_of(name):
        return next(a.help for a in _subparsers()[name]._actions if "--exchange-condition" in a.option_strings)
    note = "; puzzles: any only (a position string cannot say won-trick)"
    assert help_of("puzzles") == help_of("simulate") + note
    assert "won-trick" not in help_of("simulate").split("(R7)")[-1]


@pytest.mark.parametrize("argv, rules", [([], Rules()), (["--players", "4e0"], Rules(players=4)),
                                         (["--players", "6"], Rules(players=6, deck="catalan48")),
                                         (["--players", "1_0"], None)])
def test_cli_puzzles_players_default_and_number_forms(argv, rules, capsys, monkeypatch):
    """No ``--players`` is the 2-player table; ``--players`` is read as ``brisca simulate`` reads it (``4e0``
    is 4; ``1_0`` is 10, refused with simulate's message), not by ``int``."""
    import solver.cli as cli
    seen = []
    monkeypatch.setattr(cli, "_warm_up", lambda *a, **k: None)
    monkeypatch.setattr("solver.puzzles.find_puzzles", lambda *a, **k: seen.append(k["rules"]) or iter(()))
    code = run_main(["puzzles", "--count", "1", "--no-progress", *argv])
    err = capsys.readouterr().err
    if rules is None:
        assert code == 2 and err == "brisca: error: --players must be 2, 3, 4 or 6 (RULES R3), got 10\n", err
        assert run_main(["simulate", "--deals", "1", *argv]) == 2 and capsys.readouterr().err == err
    else:
        assert seen == [rules], (seen, err)


@pytest.mark.parametrize("command", ["puzzles", "simulate"])
def test_remove_refusal_names_the_tables_deck(command, capsys):
    """A ``--remove`` of another game names the table's players and deck, the default deck too (not
    ``deck None``: ``args.deck`` is None when ``--deck`` is not given)."""
    assert run_main([command, "--players", "4", "--remove", "2B", "--no-progress"]) == 2
    assert capsys.readouterr().err == ("brisca: error: --remove applies to 3 players with the spanish40 deck only "
                                       "(RULES R3); got 4 players, deck spanish40\n")
