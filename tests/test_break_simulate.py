"""Faults found by attacking ``brisca simulate`` and ``sim.simulate`` (issue 2), one test each.

Kept lean: tiny deal counts, few subprocesses (each loads the numba cache).
"""
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim.batch import simulate
from sim.rules import Rules
from sim.stats import wilson_interval

ROOT = Path(__file__).resolve().parents[1]
_TIMES = ("seconds", "sim_seconds", "deals_per_s")


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _brisca(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "sim.cli", "simulate", *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, env=_env(), timeout=timeout)


# --- statistics -------------------------------------------------------------

@pytest.mark.parametrize("n", [3, 6, 7, 10, 12, 1000])
def test_wilson_interval_holds_the_rate_at_0_and_1(n):
    # was: wilson_interval(0, 3)[0] == 5.6e-17 > 0 and wilson_interval(10, 10)[1] == 0.9999999999999999 < 1
    assert wilson_interval(0, n)[0] == 0.0
    assert wilson_interval(n, n)[1] == 1.0


def test_duplicate_summary_does_not_depend_on_chunk():
    # was: pair_score_ci95 summed in floating point chunk by chunk, so its last digits changed with --chunk
    rules, pols = Rules(players=3), ["heuristic", "greedy", "random"]
    dicts = []
    for chunk in (None, 3, 30):
        d = simulate(rules, pols, deals=301, seed=5, duplicate=True, chunk=chunk).summary.to_dict()
        dicts.append({k: v for k, v in d.items() if k not in _TIMES})
    assert dicts[0] == dicts[1] == dicts[2]


# --- validation -------------------------------------------------------------

def test_deal_count_beyond_int64_rows_is_refused(monkeypatch):
    # was: deals=1e20 accepted (row numbers are int64) and ran forever
    import sim.engine

    def never(*a, **k):
        raise AssertionError("simulated although the deal count cannot be numbered")

    monkeypatch.setattr(sim.engine, "play_batch", never)
    # the numbers exact, not rounded to 3 digits (break-it pass of 2026-12-03: "got 1e+23")
    with pytest.raises(ValueError, match="deals must be below 9,223,372,036,854,775,808, got "
                                         "100,000,000,000,000,000,000$"):
        simulate(Rules(players=2), "random", deals=10 ** 20)
    with pytest.raises(ValueError, match="deals must be below"):
        simulate(Rules(players=3), "random", deals=2 ** 62, duplicate=True)


def test_output_path_of_wrong_type_is_a_value_error():
    with pytest.raises(ValueError, match="output path"):
        simulate(Rules(players=2), "random", deals=2, out=5)


def test_solver_with_a_seed_above_2_63_plays_the_engine_deals():
    # was: OverflowError from solver.selfplay (the unsigned seed passed where the kernels take int64 bits)
    rules, seed = Rules(players=2, deck="rapida20"), 2 ** 64 - 1
    a = simulate(rules, "solver", deals=2, seed=seed).frame
    b = simulate(rules, "random", deals=2, seed=seed).frame
    cols = ["deal_seed", "pinta"] + [f"hand_{s}_{k}" for s in range(2) for k in range(3)]
    pd.testing.assert_frame_equal(a[cols], b[cols])
    assert (a.side_points_0.astype(int) + a.side_points_1 == 120).all()


# --- output files -------------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs mkfifo")
def test_existing_pipe_or_device_is_written_in_place_not_replaced(tmp_path):
    # was: the finished temporary file was renamed over it: `--out /dev/null` run as root replaced the
    # device /dev/null by a regular file (a FIFO stands in for the device here)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = tmp_path / "got.parquet"
    with open(got, "wb") as sink:
        reader = subprocess.Popen(["cat", str(fifo)], stdout=sink)
        try:
            simulate(Rules(players=2), "random", deals=7, seed=1, out=fifo)
            reader.wait(timeout=30)
        finally:
            if reader.poll() is None:
                reader.kill()
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert len(pd.read_parquet(got)) == 7


def test_deal_and_trick_tables_aliased_through_links_are_refused(tmp_path):
    # was: only the absolute paths were compared: --tricks a symlink (or hard link) to --out was accepted
    a = tmp_path / "a.parquet"
    a.write_text("old")
    (tmp_path / "sym.parquet").symlink_to(a)
    os.link(a, tmp_path / "hard.parquet")
    for other in ("sym.parquet", "hard.parquet"):
        with pytest.raises(ValueError, match="two different files"):
            simulate(Rules(players=2), "random", deals=2, out=a, tricks_out=tmp_path / other)
    assert a.read_text() == "old"


def test_output_symlink_is_written_through(tmp_path):
    # was: the symlink itself was replaced by a regular file, its target left stale
    target = tmp_path / "real" / "run.parquet"
    target.parent.mkdir()
    target.write_text("stale")
    link = tmp_path / "run.parquet"
    link.symlink_to(target)
    simulate(Rules(players=2), "random", deals=3, out=link)
    assert link.is_symlink() and len(pd.read_parquet(target)) == 3
    assert sorted(os.listdir(tmp_path)) == ["real", "run.parquet"] and os.listdir(target.parent) == ["run.parquet"]


# --- command line -------------------------------------------------------------

@pytest.mark.parametrize("args, words", [
    (["--players", "2", "--remove", "2B"], "--remove applies to 3 players"),  # was: silently ignored
    (["--players", "3", "--deck", "catalan48", "--remove", "2B"], "--remove applies to 3 players"),  # idem
    (["--deals", "1e20"], "deals must be below"),  # was: ran forever
    # exact from the command line too (break-it pass of 2026-12-04: float parsing gave 99,999,...,611,392)
    (["--deals", "1e23"], "deals must be below 9,223,372,036,854,775,808, got 100,000,000,000,000,000,000,000"),
    (["--deals", "1e400"], "'1e400' is too large"),
])
def test_cli_refuses_input_it_used_to_ignore(args, words, tmp_path):
    p = _brisca(*args, "--out", tmp_path / "x.parquet", "--no-progress")
    assert p.returncode == 2, (p.stdout, p.stderr)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("brisca: error: ") and words in lines[0], p.stderr
    assert p.stdout == "" and os.listdir(tmp_path) == []


def test_cli_help_shows_the_seed_default():
    # was: a default of 0 compared equal to False and was hidden
    from sim.cli import build_parser
    sub = build_parser()._subparsers._group_actions[0].choices["simulate"]
    text = " ".join(sub.format_help().split())
    start = text.index("--seed SEED run seed, 0 <= seed < 2**64")
    seed = text[start:text.index("--threads N", start)]
    assert seed.endswith("(default: 0) ")  # (after the words on comparing runs: user study 65c)
    # new-user pass of 2026-12-04: "(default: 2B)" read as a default for every game, yet 2 players refuse it
    assert "(default with 3 players and spanish40: 2B)" in text and "refused otherwise" in text


@pytest.mark.parametrize("sig, code, word", [(signal.SIGINT, 130, "interrupted"),
                                             (signal.SIGTERM, 143, "terminated")])  # was: -15, .tmp files left
def test_cli_signal_mid_run_keeps_finished_chunks_marked_incomplete(sig, code, word, tmp_path):
    # (was: no file, and .tmp files left; since the sixth part of 2026-12-06 the chunks finished are kept,
    # marked incomplete: tests/test_simulate_interrupt.py)
    out, tricks = tmp_path / "d.parquet", tmp_path / "t.parquet"
    p = subprocess.Popen([sys.executable, "-m", "sim.cli", "simulate", "--deals", "1e9", "--threads", "1",
                          "--chunk", "20000", "--out", str(out), "--tricks", str(tricks), "--no-progress"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=_env(),
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        t0 = time.time()
        while not any(f.endswith(".tmp") for f in os.listdir(tmp_path)) and time.time() - t0 < 300:
            time.sleep(0.05)
        time.sleep(2.0)  # past the warm-up (cache load), inside the chunk loop
        assert p.poll() is None, p.communicate()
        p.send_signal(sig)
        stdout, stderr = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == code, stderr
    assert f"{word}; the summary covers the " in stderr and "marked incomplete" in stderr
    assert stdout.startswith("rules: 2 players") and f"wrote deals: {out}" in stdout
    assert sorted(os.listdir(tmp_path)) == ["d.parquet", "t.parquet"]  # no temporary file left
    from sim.batch import read_metadata
    md, mt = read_metadata(out), read_metadata(tricks)
    assert md["complete"] is False and md["total"] == 10 ** 9 and md["rows"] == mt["rows"]
    assert 0 < md["rows"] and md["rows"] % 20000 == 0


def test_pair_interval_of_a_single_pair_is_not_zero_width():
    # was: `--deals 1 --duplicate` printed pair_score_ci95 [0.333, 0.333] (standard error 0 from one pair)
    from sim.stats import RunningStats
    st = RunningStats(players=3, sides=3, rotations=3)
    st.update(np.array([[70, 30, 20], [20, 70, 30], [30, 20, 70]]), np.array([0, 1, 2]), np.zeros(3, bool), 0)
    d = st.summary(["a", "b", "c"], distinct_deals=1, seconds=1.0, sim_seconds=1.0).to_dict()
    for side in d["sides"]:
        lo, hi = side["pair_score_ci95"]
        assert lo < side["score"] < hi


def test_summary_dict_holds_python_numbers():
    # was: Summary.to_dict() kept numpy floats (np.float64 is a float subclass, so _finite passed them on)
    from sim.stats import RunningStats
    st = RunningStats(players=2, sides=2, rotations=2)
    st.update(np.array([[70, 50], [50, 70]]), np.array([0, 1]), np.zeros(2, bool), 0)
    d = st.summary(["a", "b"], distinct_deals=1, seconds=1.0, sim_seconds=1.0).to_dict()

    def walk(x):
        if isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        else:
            assert not isinstance(x, np.generic), (type(x), x)
    walk(d)
    assert any(isinstance(side["score"], float) for side in d["sides"])


# --- second break-it round (fast 2-player kernel, fast heuristic) -----------

def test_huge_chunk_is_refused_before_allocating(tmp_path):
    # was: numpy _ArrayMemoryError traceback ("Unable to allocate 596. GiB"), exit status 1
    out = tmp_path / "x.parquet"
    with pytest.raises(ValueError, match="chunk must be at most"):
        simulate(Rules(players=2), "heuristic", deals=10 ** 10, chunk=10 ** 10, out=out)
    with pytest.raises(ValueError, match="with tricks recorded"):
        simulate(Rules(players=2), "random", deals=10, chunk=1 << 21, tricks_out=tmp_path / "t.parquet")
    assert not list(tmp_path.iterdir())
    p = _brisca("--deals", "1e10", "--chunk", "1e10", "--no-progress", "--out", out)
    assert p.returncode == 2 and p.stderr.startswith("brisca: error: --chunk must be at most")  # (the flag: 2026-12-04)
    assert p.stderr.count("\n") == 1 and not out.exists()


def test_output_under_a_file_says_not_a_directory(tmp_path):
    # new-user pass: `simulate --out afile/x.parquet` said "cannot create directory afile (File exists)"
    # while solve and puzzles say "not a directory: afile"
    (tmp_path / "afile").write_text("x")
    for kw in ({"out": tmp_path / "afile" / "x.parquet"}, {"tricks_out": tmp_path / "afile" / "sub" / "t.parquet"}):
        with pytest.raises(ValueError, match="not a directory: .*afile$"):
            simulate(Rules(players=2), "random", deals=2, **kw)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_cli_out_write_error_names_the_file(tmp_path):
    """Break-it pass of 2026-12-04: `--out /dev/full` said "[Errno 28] No space left on device" without
    the file; now the error text and the file, worded as `brisca solve --out` words it (since the session of
    2026-12-05, third part: "--out: cannot write F: ..." where it said "writing the output failed: ... (F)")."""
    # the deals played are summarized all the same (new-user pass of 2026-12-05, third part: the summary was
    # lost with the file, so a long run whose disk filled kept nothing)
    note = "brisca: the summary covers the 50 of 50 deals played before writing failed; no file was written"
    p = _brisca("--deals", "50", "--out", "/dev/full", "--no-progress")
    assert p.returncode == 1 and "50 deals, seed 0" in p.stdout and "wrote deals" not in p.stdout
    lines = [x for x in p.stderr.strip().splitlines() if not x.startswith("brisca: compiling")]
    assert lines == [note, "brisca: error: --out: cannot write /dev/full: No space left on device"], p.stderr
    p = _brisca("--deals", "50", "--tricks", "/dev/full", "--no-progress", "--json")
    d = json.loads(p.stdout)
    assert p.returncode == 1 and d["deals"] == 50 and d["complete"] is False
    lines = [x for x in p.stderr.strip().splitlines() if not x.startswith("brisca: compiling")]
    assert lines == [note, "brisca: error: --tricks: cannot write /dev/full: No space left on device"], p.stderr
    # with both files, the one that failed (its write errors carry its name: said "(a.parquet and /dev/full)")
    for args, flag in ((["--out", "/dev/full", "--tricks", str(tmp_path / "t.parquet")], "--out"),
                       (["--out", str(tmp_path / "a.parquet"), "--tricks", "/dev/full"], "--tricks")):
        p = _brisca("--deals", "50", *args, "--no-progress")
        lines = [x for x in p.stderr.strip().splitlines() if not x.startswith("brisca: compiling")]
        assert p.returncode == 1 and lines == [note, f"brisca: error: {flag}: cannot write /dev/full: No space "
                                               "left on device"], p.stderr
    assert list(tmp_path.iterdir()) == []  # (the other file is not left either)
    # a failure after some chunks were written: the summary of every deal played, none of them in a file
    with pytest.raises(OSError) as e:
        simulate(Rules(players=2), "random", deals=3000, chunk=1000, out="/dev/full")
    part = e.value.partial_summary
    assert part.extra["complete"] is False and part.deals in (1000, 2000, 3000) and part.extra.get("out") is None
    # (the keys of every other run's --json, null: they were missing here; docs audit of 2026-12-07, ninth part)
    assert part.to_dict()["out"] is None and part.to_dict()["tricks_out"] is None
    # with duplicate (mutation testing, third pass: the distinct deals were given as the rows played): rows
    # played = distinct deals x rotations (2 sides: 2 rotations)
    with pytest.raises(OSError) as e:
        simulate(Rules(players=2), ["random", "greedy"], deals=1500, chunk=1000, duplicate=True, out="/dev/full")
    part = e.value.partial_summary
    assert part.rotations == 2 and part.deals in (1000, 2000, 3000) and part.distinct_deals == part.deals // 2
    assert part.to_dict()["distinct_deals"] == part.deals // 2


def test_empty_out_path_is_named_as_given(tmp_path):
    """Break-it pass of 2026-12-04: `--out ""` was refused as "output path '.' is not a file name"
    (Path("") is "."); the message now names the path given, as `brisca solve --out ""` does."""
    with pytest.raises(ValueError, match=r"^output path '' is not a file name$"):
        simulate(Rules(players=2), "random", deals=3, out="")
    with pytest.raises(ValueError, match=r"^tricks output path '' is not a file name$"):
        simulate(Rules(players=2), "random", deals=3, tricks_out="")


def test_count_parses_exactly():
    """`--deals`/`--chunk` counts: ints, underscores and exponents read exactly (1e23 was read through a
    float as 99,999,999,999,999,991,611,392: break-it pass of 2026-12-04), float's syntax kept."""
    import argparse
    from sim.cli import _count
    assert [_count(t) for t in ("12", "1_000", "1e6", "1E6", "2.5e3", "1e23", " 7 ")] == \
        [12, 1000, 10 ** 6, 10 ** 6, 2500, 10 ** 23, 7]
    for bad in ("1.5", "nan", "inf", "Infinity", "_1", "1__0", "1e_3", "0x10", "abc", "", "1e-3"):
        with pytest.raises(argparse.ArgumentTypeError, match="invalid integer"):
            _count(bad)
    with pytest.raises(argparse.ArgumentTypeError, match="too large"):
        _count("1e400")


@pytest.mark.parametrize("kw, words", [
    (dict(policies=b"random"), "policies must be a name or a list of names, got b'random'"),  # was: policy '114'
    (dict(policies=[None]), "policies must be a name or a list of names, got \\[None\\]"),  # was: policy 'none'
    (dict(out=b"x.parquet"), "output path must be a str or os.PathLike, got b'x.parquet'"),  # was: TypeError
])
def test_simulate_refuses_bytes_and_non_names(kw, words, tmp_path, monkeypatch):
    """Break-it pass of 2026-12-04 (second part)."""
    monkeypatch.chdir(tmp_path)
    kw = {"policies": "random", **kw}
    with pytest.raises(ValueError, match=words):
        simulate(Rules(players=2), kw.pop("policies"), deals=10, **kw)
    assert not list(tmp_path.iterdir())


def test_simulate_takes_a_generator_of_policies():
    from sim.batch import resolve_policies
    assert resolve_policies(Rules(players=2), (p for p in ["heuristic", "random"])) == ("heuristic", "random")


def test_cli_notes_an_out_name_of_another_format(tmp_path):
    """`--out run.csv` gets a parquet file, as documented; since the session of 2026-12-04, fifth part,
    one stderr line says so (a name suggesting CSV or JSON had been written as parquet without a
    word); a .parquet name or one without a known ending gets no note."""
    p = _brisca("--deals", "20", "--out", tmp_path / "run.csv", "--tricks", tmp_path / "t.json", "--no-progress")
    assert p.returncode == 0, p.stderr
    notes = [x for x in p.stderr.splitlines() if x.startswith("brisca: note: ")]
    assert notes == [f"brisca: note: --out {tmp_path / 'run.csv'} is written as parquet, not CSV "
                     "(pandas.read_parquet reads it)",
                     f"brisca: note: --tricks {tmp_path / 't.json'} is written as parquet, not JSON lines "
                     "(pandas.read_parquet reads it)"]
    assert len(pd.read_parquet(tmp_path / "run.csv")) == 20
    p = _brisca("--deals", "20", "--out", tmp_path / "run.parquet", "--tricks", tmp_path / "t.data", "--no-progress")
    assert p.returncode == 0 and "note" not in p.stderr


@pytest.mark.skipif(not os.path.exists("/dev/tty"), reason="no /dev/tty device")
def test_cli_out_device_that_cannot_be_opened_is_refused_before_the_run(tmp_path):
    """`--out /dev/tty` without a controlling terminal (cron, CI, setsid) played the whole batch and
    then failed with exit 1, as `brisca solve` did before 1946974: the shared check
    (`sim.batch.device_open_problem`) now refuses it before the run, exit 2."""
    p = subprocess.run([sys.executable, "-m", "sim.cli", "simulate", "--deals", "20", "--out", "/dev/tty",
                        "--no-progress"], capture_output=True, text=True, cwd=ROOT, env=_env(),
                       stdin=subprocess.DEVNULL, start_new_session=True, timeout=120)
    assert p.returncode == 2, p.stderr
    assert "cannot be opened for writing: /dev/tty" in p.stderr and p.stdout == ""


def test_out_with_a_trailing_slash_is_refused_and_the_file_kept(tmp_path):
    """Break-it pass of 2026-12-05: `--out notes.txt/` (or `--tricks`) wrote the parquet file over notes.txt
    (pathlib drops the slash); now refused as brisca solve refuses it, the file untouched."""
    f = tmp_path / "notes.txt"
    f.write_text("precious")
    for kw in ({"out": str(f) + "/"}, {"tricks_out": str(f) + "/"}, {"out": str(tmp_path / "new.parquet") + "/"},
               {"out": str(tmp_path / "d") + "/."}):
        with pytest.raises(ValueError, match=r"path '.*' is not a file name$"):
            simulate(Rules(players=2), "random", deals=2, **kw)
    assert f.read_text() == "precious" and sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize("players, deck, remove", [(2, None, None), (3, "spanish40", "2B"), (3, "catalan48", None),
                                                   (4, "rapida20", None), (6, "spanish40", None), (6, None, None)])
def test_rules_metadata_names_remove_only_where_it_applies(players, deck, remove):
    """Break-it pass of 2026-12-05: `simulate --players 6 --deck spanish40 --json` and the parquet metadata said
    `"remove": "2B"` (R3 removes the four 2s there; with 2 players nothing); the field is None wherever it does
    not apply, and the dict gives the same rules back."""
    r = Rules(players=players, deck=deck)
    d = r.to_dict()
    assert d["remove"] == remove and Rules(**d) == r
    assert Rules(players=3, remove="all2s").to_dict()["remove"] == "all2s"
    assert Rules(**Rules(players=3, remove="trump2").to_dict()) == Rules(players=3, remove="trump2")


def test_dangling_link_into_a_missing_directory_is_written_through(tmp_path):
    """Break-it pass of 2026-12-05: `simulate --out dl`, dl a symlink to nd/x.parquet with nd missing, was refused
    ("cannot create a file in nd") while brisca solve and puzzles create nd and write; simulate now does the same,
    the link kept."""
    link = tmp_path / "dl"
    link.symlink_to(tmp_path / "nd" / "sub" / "x.parquet")
    simulate(Rules(players=2), "random", deals=3, out=link)
    assert link.is_symlink() and pd.read_parquet(tmp_path / "nd" / "sub" / "x.parquet").shape[0] == 3


# --- break-it pass on the public Python API (2026-12-06) ---------------------------------------------------------

@pytest.mark.parametrize("policies", [{"heuristic", "random"}, {"heuristic": 1, "random": 2},
                                      pd.DataFrame({"heuristic": [1], "random": [2]})])
def test_policies_as_a_set_or_mapping_are_refused(policies):
    """simulate's policies as a set were seated in string-hash order, which changes with PYTHONHASHSEED
    (PYTHONHASHSEED=1 gave ('random', 'heuristic'), =3 ('heuristic', 'random')); a dict (or a DataFrame)
    gave its keys. A list in seat order, or a dict's keys() (insertion order), is what is asked for."""
    from sim.batch import resolve_policies
    with pytest.raises(ValueError, match="policies must be .* in seat order, got a (set|dict|DataFrame) \\(its"):
        resolve_policies(Rules(players=2), policies)
    assert resolve_policies(Rules(players=2), {"heuristic": 1, "random": 2}.keys()) == ("heuristic", "random")


@pytest.mark.parametrize("kw", [dict(duplicate="no"), dict(keep_frame="no"), dict(progress="no"), dict(tricks="no"),
                                dict(duplicate=2), dict(tricks=None)])
def test_simulate_refuses_flags_that_are_not_bools(kw):
    """simulate(duplicate="no") played every deal twice (duplicate on); keep_frame="no" kept the frame;
    as solve()'s flags, a yes/no option is a bool (or 0/1), refused before anything is played."""
    name = next(iter(kw))
    with pytest.raises(ValueError, match=f"^{name}: expected True or False, got {kw[name]!r}"):
        simulate(2, "random", deals=2, seed=1, **kw)


def test_simulate_tricks_without_the_frame_is_refused():
    """tricks=True with keep_frame=False returned tricks=None silently (the docstring: "needs keep_frame")."""
    with pytest.raises(ValueError, match="^tricks: .*needs keep_frame"):
        simulate(2, "random", deals=2, seed=1, tricks=True, keep_frame=False)


def test_simulate_tricks_beyond_the_default_frame_is_refused():
    """The same with keep_frame left to its default on a run of more than FRAME_ROWS rows (no frame kept)."""
    from sim.batch import FRAME_ROWS
    with pytest.raises(ValueError, match=f"^tricks: .*a run of {FRAME_ROWS + 1:,} rows.*pass keep_frame=True"):
        simulate(2, "random", deals=FRAME_ROWS + 1, seed=1, tricks=True)


def test_seed_2_63_after_a_smaller_seed_plays_deal_seed_of_it():
    """Seeds 0 <= seed < 2**64 (simulate docstring): 2**63, the first seed above the int64 range,
    after a smaller seed has compiled the kernels, plays deal d = deal_seed(2**63, d)."""
    from sim.rng import deal_seed
    simulate(Rules(players=2), "random", deals=2, seed=5)
    for seed in (2 ** 63, 2 ** 63 - 1):
        df = simulate(Rules(players=2), "random", deals=2, seed=seed).frame
        assert df.deal_seed.tolist() == [int(deal_seed(np.uint64(seed), np.uint64(d))) for d in range(2)]
