"""Mutation pass 26, second part (2026-12-07): the mutants of solver.chance.solve_chance and of the reworked
benchmark code that the first part wrote but did not run. Each test kills hand-made mutants that the suite
let live (named in its docstring)."""
import sys

import pytest
from conftest import bench_script


def test_bench_solver_ablation_trials():
    """bench_solver._ablation_trials (--ablation): the general-kernel baseline first with the two- and
    four-player kernels off; 2-player positions get no four-player switches and no four-player-kernel
    lines; 4p-6left no two-player-kernel lines; 2p-full only those; every line's flags differ from every
    other's. Mutants: the four-player switches kept for 2p, the four-player kernel's lines for 2p instead
    of 4p, the 4p-6left filter on 4p-full, exact-subtrees-8 set to 0, 2p-full unfiltered, FL_FOUR left on."""
    from solver import search as S
    mod = bench_script("bench_solver")
    t = {c: mod._ablation_trials(c) for c in ("2p-10left", "2p-full", "4p-6left")}
    for c, trials in t.items():
        labels = [lb for lb, _ in trials]
        assert len(set(labels)) == len(labels), c
        assert len({tuple(int(x) for x in f) for _, f in trials}) == len(trials), c
    two, full, four = ({lb: f for lb, f in t[c]} for c in ("2p-10left", "2p-full", "4p-6left"))
    for d in (two, four):
        assert next(iter(d)) == "all-general-kernel"
        base = d["all-general-kernel"]
        assert base[S.FL_TWO] == 0 and base[S.FL_FOUR] == 0
        assert d["with-exact-subtrees-8"][S.FL_EXACT] == 8
    assert "no-last-card-lookahead-4p" not in two and "no-endgame-table-4p" not in two
    assert "no-last-card-lookahead-4p" in four and "no-endgame-table-4p" in four
    assert "four-player-kernel" not in two and "four-player-kernel-no-payoff-similarity" not in two
    assert "four-player-kernel" in four and "four-player-kernel-no-payoff-similarity" in four
    assert "two-player-kernel" in two and not any(lb.startswith("two-player-kernel") for lb in four)
    assert "two-player-kernel" in full and all(lb.startswith("two-player-kernel") for lb in full)


def test_bench_solver_main_reads_its_argv(tmp_path, monkeypatch, capsys):
    """bench_solver.main(argv) parses argv, not the command line. Mutants: parse_args() without argv,
    main passing None to _main."""
    mod = bench_script("bench_solver")
    monkeypatch.setattr(sys, "argv", ["bench_solver.py", "--no-such-option"])
    with pytest.raises(SystemExit) as e:
        mod.main(["--configs", "2p-4left,2p-4left", "--deals", "1", "--out", str(tmp_path / "s.jsonl")])
    assert e.value.code == 2 and "--configs: '2p-4left' given more than once" in capsys.readouterr().err


def test_bench_solver_emit_exit_1_and_a_links_target(tmp_path, capsys):
    """bench_solver._emit: a file that cannot be written exits 1 with one line (the record printed); a
    symbolic link is written through to its target, whose directory is made. Mutants: exit 2, the link's
    own path (its target's missing directory not made: exit 1)."""
    mod = bench_script("bench_solver")
    (tmp_path / "dir.jsonl").mkdir()
    with pytest.raises(SystemExit) as e:
        mod._emit({"a": 1}, str(tmp_path / "dir.jsonl"))
    err = capsys.readouterr().err
    assert e.value.code == 1 and "cannot write" in err and "(the line is printed above)" in err
    link = tmp_path / "link.jsonl"
    link.symlink_to(tmp_path / "new" / "t.jsonl")
    mod._emit({"a": 2}, str(link))
    assert link.is_symlink() and (tmp_path / "new" / "t.jsonl").read_text() == '{"a": 2}\n'


def test_open_values_chunk_frame_columns():
    """open_values._chunk_frame: deals d0..d0+m-1, the seed as uint64 from 2**63 on (int64 below), each
    side's points from its own column, ms rounded to 0.01. Mutants: deals from 0, the seed always int64,
    ms rounded to units, second_points read from the first side's column."""
    import numpy as np
    from sim.engine import R_SIDE_POINTS, R_SIZE
    mod = bench_script("open_values")
    res = np.zeros((2, R_SIZE), np.int16)
    res[:, R_SIDE_POINTS], res[:, R_SIDE_POINTS + 1] = (70, 30), (50, 90)
    df = mod._chunk_frame(5, 2 ** 63 + 5, res, np.array([1.234, 2.5]))
    assert list(df["deal"]) == [5, 6] and df["seed"].dtype == np.uint64 and list(df["seed"]) == [2 ** 63 + 5] * 2
    assert list(df["first_points"]) == [70, 30] and list(df["second_points"]) == [50, 90]
    assert list(df["ms"]) == [1.23, 2.5]
    assert mod._chunk_frame(0, 7, res, np.zeros(2))["seed"].dtype == np.int64


def test_eval_heuristic_run_records_the_numba_version(monkeypatch):
    """eval_heuristic.run's record names the numba version it ran on (the engine replaced by a stand-in).
    Mutant: a constant."""
    import numba
    mod = bench_script("eval_heuristic")
    monkeypatch.setattr("sim.engine.play_batch", lambda *a: None)
    r = mod.run(1, 2, "counter", 5, 1)
    assert r["numba"] == numba.__version__


P_CHANCE = ("players=2 trump=5B hands=3C,6C/10O,2C,12E stock=? turn=1 trick=1O points=62,17 played=3O,4O,5O,6O,7O,"
            "11O,12O,1C,4C,5C,10C,11C,12C,1E,2E,4E,5E,6E,7E,10E,11E,1B,2B,3B,6B,7B,10B,11B")


def test_solve_chance_moves_best_first_and_none_for_a_perspective():
    """solve_chance: ``moves`` from the best move down (as solve's); with ``perspective`` moves and best stay
    empty (its docstring). Mutants: moves sorted worst first; moves filled whenever moves=True."""
    from solver.chance import solve_chance
    r = solve_chance(P_CHANCE)
    assert list(r.moves) == ["2C", "12E", "10O"] and r.best == ["2C"]
    assert r.moves == {"2C": pytest.approx(289 / 30), "12E": 9.5, "10O": 8.7}
    for seat in (0, 1):
        r = solve_chance(P_CHANCE, perspective=seat)
        assert (r.moves, r.best) == ({}, [])


def test_solve_chance_best_names_every_tied_move():
    """solve_chance: ``best`` is every move of the best value. Two clubs without points against two swords
    without points, no stock left: both leads are worth 0. Mutant: best cut to its first move."""
    from sim.cards import deck_cards, format_card
    from solver.chance import solve_chance
    played = [format_card(c) for c in deck_cards("spanish40") if format_card(c) not in ("2C", "4C", "5E", "6E")]
    r = solve_chance("players=2 trump=7O hands=2C,4C/5E,6E stock= turn=0 points=60,60 played=" + ",".join(played))
    assert (r.value, r.moves, r.best) == (0, {"2C": 0, "4C": 0}, ["2C", "4C"])
