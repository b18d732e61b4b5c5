"""``brisca puzzles`` / ``find_puzzles`` over the rule variants (issue 3 item 7; each table's default rules
only until the seventh part of 2026-12-07): ``rules=`` and ``--deck``, ``--exchange``, ``--endgame``,
``--remove`` as ``brisca simulate`` takes them (RULES R1, R3, R7, R9). Each record's position carries its
table's rules and solves again to the record's moves; R7's ``won-trick`` is refused, the notation having no
field for it (a puzzle's position would be solved again under ``any``)."""
from __future__ import annotations

import json

import pytest

from conftest import run_main
from sim.rules import Rules
from solver import Position, solve
from solver.puzzles import find_puzzles

TABLES = [dict(players=4, endgame="arrastre"), dict(players=3, remove="all2s"),
          dict(players=2, deck="rapida20", exchange="none"), dict(players=6, deck="spanish40"),
          dict(players=3, remove="trump2", exchange="two-any")]


@pytest.mark.parametrize("table", TABLES, ids=lambda t: ",".join(f"{k}={v}" for k, v in t.items()))
def test_records_of_a_variant_table_carry_its_rules(table):
    rules = Rules(**table)
    recs = list(find_puzzles(2, seed=1, max_tries=400, rules=rules))
    assert len(recs) == 2
    for r in recs:
        pos = Position.parse(r["position"])
        assert pos.rules == rules, r["position"]  # (the string says deck=, remove=, exchange=, endgame=)
        n = rules.ncards
        assert n // 2 <= r["ply"] <= n - 3 and r["seat"] == pos.turn
        assert r["need"] == 61 - pos.side_points(pos.turn) > 0
        res = solve(pos)
        assert res.moves == r["moves"] and len(res.moves) >= 2
        assert [m for m, v in res.moves.items() if v >= r["need"]] == [r["move"]]
        assert r["value"] == res.moves[r["move"]]
    # a mapping of the fields (as sim.simulate takes) and players= of the same count are the same table
    assert list(find_puzzles(2, rules.players, seed=1, max_tries=400, rules=table)) == recs


def test_default_rules_are_each_player_counts_table():
    """``players`` alone (or neither: 2) is ``Rules(players=players)``: the puzzles of before for a seed."""
    two = list(find_puzzles(2, seed=7, max_tries=200))
    assert two == list(find_puzzles(2, players=2, seed=7, max_tries=200))
    assert two == list(find_puzzles(2, seed=7, max_tries=200, rules=Rules()))
    assert [Position.parse(r["position"]).rules for r in two] == [Rules()] * 2
    four = list(find_puzzles(1, players=4, seed=3, max_tries=200))
    assert four == list(find_puzzles(1, seed=3, max_tries=200, rules={"players": 4}))


@pytest.mark.parametrize("kw, match", [
    (dict(rules=Rules(exchange_condition="won-trick")), "^rules: puzzles are generated under the exchange "
                                                        "condition any .*no field for won-trick"),
    (dict(rules={"players": 4, "exchange_condition": "won-trick"}), "^rules: .*won-trick"),
    (dict(players=3, rules=Rules(players=4)), r"^players: 3 given with rules of 4 players"),
    (dict(players=2, rules={"players": 6}), r"^players: 2 given with rules of 6 players"),
    (dict(players=5, rules=Rules(players=4)), r"^players: puzzles are generated for 2, 3, 4 or 6 players"),
    (dict(rules=4), r"^rules: expected a sim.rules.Rules or a mapping of its fields, got 4$"),
    (dict(rules="spanish40"), r"^rules: expected a sim.rules.Rules"),
    (dict(rules={"players": 3, "deck": "rapida20"}), r"^deck rapida20 cannot be played by 3 players \(RULES R3\)$"),
    (dict(rules={"players": 2, "remove": "all2s"}), r"^remove=all2s applies to 3 players only \(RULES R3\)$"),
    (dict(rules={"players": 2, "decks": "rapida20"}), r"^invalid rules: .*decks"),
], ids=["won-trick", "won-trick-mapping", "players-differ", "players-differ-mapping", "players-5",
        "rules-int", "rules-str", "deck", "remove", "unknown-field"])
def test_find_puzzles_refuses(kw, match):
    with pytest.raises(ValueError, match=match):
        find_puzzles(1, **kw)  # (when called, before any search)


def test_cli_puzzles_takes_the_rule_options(capsys):
    argv = ["puzzles", "--count", "1", "--players", "4", "--endgame", "arrastre", "--deck", "catalan48",
            "--exchange", "seven", "--seed", "3", "--no-progress"]
    assert run_main(argv) == 0
    rec = json.loads(capsys.readouterr().out)
    rules = Rules(players=4, deck="catalan48", exchange="seven", endgame="arrastre")
    assert rec == next(find_puzzles(1, seed=3, max_tries=200, rules=rules))
    assert Position.parse(rec["position"]).rules == rules
    assert run_main(["puzzles", "--count", "1", "--players", "3", "--remove", "all2s", "--seed", "3",
                     "--no-progress"]) == 0
    assert Position.parse(json.loads(capsys.readouterr().out)["position"]).rules == Rules(players=3, remove="all2s")


@pytest.mark.parametrize("args", [["--players", "2", "--remove", "all2s"], ["--players", "4", "--remove", "2B"],
                                  ["--players", "3", "--deck", "catalan48", "--remove", "trump2"],
                                  ["--players", "3", "--deck", "rapida20"], ["--players", "6", "--deck", "rapida20"],
                                  ["--deck", "spanish48"], ["--endgame", "arrastr"]])
def test_cli_puzzles_refuses_rules_as_simulate_does(args, capsys):
    """The same exit status 2 and one-line message as ``brisca simulate``'s, nothing searched."""
    def err_of(command):
        code = run_main([command, *args, "--no-progress"])
        out, err = capsys.readouterr()
        assert code == 2 and out == "" and err.startswith("brisca: error: ") and err.count("\n") == 1, (code, err)
        return err.replace("brisca simulate:", "brisca puzzles:")  # (argparse's usage line names the command)
    assert err_of("puzzles") == err_of("simulate")


def test_cli_puzzles_refuses_won_trick(capsys):
    assert run_main(["puzzles", "--count", "1", "--exchange-condition", "won-trick", "--no-progress"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("brisca: error: --exchange-condition won-trick: puzzles are generated "
                                        "under the exchange condition any (RULES R7)") and err.count("\n") == 1, err


def test_puzzles_and_simulate_share_the_rule_options():
    """Same flags, choices, defaults and help (puzzles' --exchange-condition adds its note)."""
    from sim.cli import build_parser
    sub = next(a for a in build_parser()._actions if a.choices and "puzzles" in a.choices).choices
    flags = ("--deck", "--exchange", "--exchange-condition", "--endgame", "--remove")

    def options(name):
        return {a.option_strings[0]: a for a in sub[name]._actions if a.option_strings[0] in flags}
    sim, puz = options("simulate"), options("puzzles")
    assert set(sim) == set(puz) == set(flags)
    for f in flags:
        assert (sim[f].choices, sim[f].default) == (puz[f].choices, puz[f].default), f
        assert puz[f].help.startswith(sim[f].help), f


@pytest.mark.parametrize("players, kernel_set", [(2, 2), (3, 3), (4, 4), (6, 3)])
def test_cli_puzzles_warms_up_the_tables_solver(players, kernel_set, capsys, monkeypatch):
    """``brisca puzzles`` warms up (and says it is compiling) the solver of its own table before the bar: it
    warmed the 2-player one for every table, so a first 4-player run compiled its kernels silently behind a
    bar at 0% for about 50 s (noticed by the rule-options helper, 2026-12-07, sixth part)."""
    import solver.cli as cli
    calls = []
    monkeypatch.setattr(cli, "_warm_up", lambda *a, **k: calls.append(k.get("kinds")))
    monkeypatch.setattr("solver.puzzles.find_puzzles", lambda *a, **k: iter(()))
    run_main(["puzzles", "--count", "1", "--players", str(players), "--no-progress"])
    capsys.readouterr()
    assert calls == [frozenset({(kernel_set, False)})]
