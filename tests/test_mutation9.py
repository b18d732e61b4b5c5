"""Mutation pass 9 (helper, 2026-12-06): tests that kill mutants surviving the suite in sim/cards.py,
sim/batch.py's output-file machinery, solver/cli.py's --file loop and sim/cli.py's argument helpers.
Expected values are derived by hand from RULES R1/R2 and NOTATION.md, not from the functions tested."""
from __future__ import annotations

import os
import stat

import pytest

from sim import batch, cards


# ---------------------------------------------------------------- sim/cards.py

@pytest.mark.parametrize("suit", ["OC", "", "EB", 4, -1])
def test_card_id_refuses_a_suit_that_is_not_one_letter_or_0_to_3(suit):
    """"OC" and "" are substrings of "OCEB" (mutant: the one-letter check dropped: card_id(1, "OC") was 11);
    suit 4 is past Bastos (mutant: `suit < 5`: card_id(1, 4) was 59, not a card id)."""
    with pytest.raises(ValueError):
        cards.card_id(1, suit)


def test_card_id_layout_by_hand():
    # id = suit * 12 + strength; strength of the 1 is 11, of the 2 is 0 (RULES R2 order 2 4 5 6 7 8 9 10 11 12 3 1)
    assert cards.card_id(1, "b") == 3 * 12 + 11 == 47
    assert cards.card_id(2, 0) == 0


def test_printable_writes_control_characters_as_their_escape_without_quotes():
    # ESC is "\x1b" (4 characters), a newline "\n" (2): no quote marks around them (mutant: repr(ch) kept its quotes)
    assert cards.printable("a\x1bb\nc") == "a" + "\\x1b" + "b" + "\\n" + "c"
    assert cards.printable("plain 1O") == "plain 1O"


def test_show_input_keeps_a_text_of_exactly_limit_characters_whole():
    """A text of exactly ``limit`` characters is shown whole (mutant: `len < limit`: cut and said "40 characters")."""
    assert cards.show_input("x" * 40) == "'" + "x" * 40 + "'"
    assert cards.show_input("abc", limit=3, quote=False) == "abc"


def test_show_input_cut_names_the_full_length():
    """Cut after ``limit`` characters and the whole length named (mutants: one character fewer; the limit named)."""
    assert cards.show_input("9" * 50, limit=3, quote=False) == "999... (50 characters)"
    assert cards.show_input("abcdef", limit=4) == "'abcd'... (6 characters)"


def test_parse_card_ignores_surrounding_blanks_and_case():
    # 1O: Oros (suit 0), rank 1 has strength 11 -> id 11; 12b: Bastos (3), rank 12 strength 9 -> 45
    assert cards.parse_card(" 1O\t") == 11
    assert cards.parse_card("12b ") == 45


def test_format_card_of_the_swap_action_is_lower_case_swap():
    """NOTATION.md "Moves": the trump exchange is written `swap` (mutant: "SWAP")."""
    assert cards.format_card(48) == "swap"
    assert cards.format_card(0) == "2O" and cards.format_card(47) == "1B"


def test_point_mask_holds_exactly_the_cards_worth_points():
    """RULES R2: 1, 3, 12, 11, 10 score; they are strengths 7..11 (10, 11, 12, 3, 1) of each suit
    (mutant: `CARD_POINTS >= 0`: every card)."""
    per_suit = sum(1 << k for k in range(7, 12))
    assert int(cards.POINT_MASK) == sum(per_suit << (12 * s) for s in range(4))


def test_deck_cards_ascending_by_hand():
    """deck_cards is ascending (documented; mutant: reversed). rapida20 (RULES R1): ranks 1, 3, 10, 11, 12:
    strengths 7..11 of each suit."""
    assert cards.deck_cards("rapida20") == [s * 12 + k for s in range(4) for k in range(7, 12)]
    # spanish40: every rank but 8 and 9 (strengths 5 and 6)
    assert cards.deck_cards("spanish40") == [s * 12 + k for s in range(4) for k in range(12) if k not in (5, 6)]


@pytest.mark.parametrize("deck", ["", "Spanish40", "spanish"])
def test_deck_cards_unknown_deck_is_a_value_error(deck):
    with pytest.raises(ValueError, match="unknown deck"):
        cards.deck_cards(deck)


# ---------------------------------------------------------------- sim/batch.py

@pytest.fixture
def umask():
    old = os.umask(0o022)
    os.umask(old)

    def set_(m):
        os.umask(m)
    yield set_
    os.umask(old)


def test_new_file_mode_is_0644_less_the_umask_and_leaves_the_umask(umask):
    """mutants: the umask ignored (0o644 always); the umask left at 0 after the call."""
    umask(0o077)
    assert batch.new_file_mode() == 0o600
    assert os.umask(0o077) == 0o077  # (still the process's umask)
    umask(0o027)
    assert batch.new_file_mode() == 0o640
    umask(0o022)
    assert batch.new_file_mode() == 0o644
    assert os.umask(0o022) == 0o022


def test_written_table_mode_follows_the_umask_not_mkstemps_0600(tmp_path, umask):
    """A new output is 0o644 less the umask (mutant: the fchmod of the temporary file dropped: 0o600)."""
    import pyarrow as pa
    umask(0o022)
    out = tmp_path / "n.parquet"
    batch.write_table(pa.table({"a": [1]}), str(out), "--out")
    assert stat.S_IMODE(out.stat().st_mode) == 0o644


def test_temp_beside_is_hidden_in_the_outputs_directory(tmp_path):
    """The temporary file is `.<name>.<random>.tmp` beside the output (mutant: not hidden)."""
    fd, name = batch.temp_beside(str(tmp_path / "out.parquet"))
    try:
        os.close(fd)
        assert os.path.dirname(name) == str(tmp_path)
        base = os.path.basename(name)
        assert base.startswith(".out.parquet.") and base.endswith(".tmp") and len(base) > len(".out.parquet..tmp")
    finally:
        os.unlink(name)


def _name_max(d):
    try:
        return os.pathconf(d, "PC_NAME_MAX")
    except (OSError, ValueError):
        return 255


def test_prepare_accepts_a_name_of_exactly_name_max_bytes(tmp_path):
    """NAME_MAX bytes is a valid name (mutant: `>=`: refused as too long)."""
    n = _name_max(tmp_path)
    t = batch._Target(tmp_path / ("a" * (n - 8) + ".parquet"), "out")
    t.prepare()
    try:
        assert t.tmp is not None and t.tmp.exists()
    finally:
        t.discard()


def test_prepare_refuses_a_name_one_byte_past_name_max_before_the_run(tmp_path):
    """The final name's length is checked at prepare (the temporary file's name is cut, so it is made;
    mutant: the check dropped: the run went ahead and failed at the rename)."""
    n = _name_max(tmp_path)
    # (in a directory still to be made: an existing one already refuses the name at exists())
    t = batch._Target(tmp_path / "new" / ("a" * (n - 7) + ".parquet"), "out")
    with pytest.raises(ValueError, match="File name too long"):
        t.prepare()
    assert list(tmp_path.iterdir()) == []


def test_commit_all_replaces_an_existing_file_with_a_name_max_name(tmp_path):
    """The kept old file's second name is cut like the temporary file's (mutant: not cut: the second name
    was too long and the commit failed)."""
    import pyarrow as pa
    n = _name_max(tmp_path)
    out = tmp_path / ("b" * (n - 8) + ".parquet")
    out.write_bytes(b"old")
    t = batch._Target(out, "out")
    t.prepare()
    t.open(pa.schema([("a", pa.int64())]))
    t.write(pa.table({"a": [7]}))
    t.close()
    written = []
    batch.commit_all([t], written)
    assert written == [str(out)]
    assert out.read_bytes()[:4] == b"PAR1"
    assert [p.name for p in tmp_path.iterdir()] == [out.name]


def test_placed_is_true_when_nothing_is_renamed():
    """A device target renames nothing: always "placed" (mutant: False)."""
    t = batch._Target("/dev/null", "out")
    assert t.placed(None) is True


def test_commit_all_stopped_before_every_target_is_recorded_says_nothing_written(tmp_path, monkeypatch):
    """With a device first (nothing to rename: placed), a signal while the second target is being recorded
    (before its rename) must not fill ``written`` (mutant: `len(saved) == len(targets)` dropped: "done")."""
    import pyarrow as pa
    if not os.path.exists("/dev/null"):
        pytest.skip("no /dev/null")
    dev = batch._Target("/dev/null", "out")
    dev.prepare()
    assert dev.direct and dev.tmp is None
    out = tmp_path / "t.parquet"
    t = batch._Target(out, "tricks")
    t.prepare()
    t.open(pa.schema([("a", pa.int64())]))
    t.write(pa.table({"a": [1]}))
    t.close()

    def interrupted():
        raise KeyboardInterrupt
    monkeypatch.setattr(t, "new_file", interrupted)
    written = []
    try:
        with pytest.raises(KeyboardInterrupt):
            batch.commit_all([dev, t], written)
        assert written == []
        assert not out.exists()
    finally:
        t.discard()


def test_remove_all_reraises_a_signal_after_removing_every_path(tmp_path, monkeypatch):
    """A signal during the removals: every path still removed, then the signal raised (mutant: swallowed)."""
    paths = [tmp_path / f"f{i}" for i in range(3)]
    for p in paths:
        p.write_text("x")
    real = os.unlink
    calls = []

    def unlink(p, *a, **kw):
        real(p, *a, **kw)
        calls.append(p)
        if len(calls) == 1:
            raise KeyboardInterrupt
    monkeypatch.setattr(os, "unlink", unlink)
    with pytest.raises(KeyboardInterrupt):
        batch._remove_all([str(p) for p in paths] + [str(tmp_path / "missing")])
    monkeypatch.setattr(os, "unlink", real)
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- sim/cli.py: _quote_hint, dash_output

_FIELDS = ("players", "trump", "hands", "stock", "turn", "trick", "points", "played", "deck", "exchange",
           "endgame", "remove")  # NOTATION.md's position keys


@pytest.mark.parametrize("key", _FIELDS)
def test_quote_hint_for_every_position_field(key):
    from sim.cli import _quote_hint
    assert "quote it" in _quote_hint(f"unrecognized arguments: {key}=x")
    assert "quote it" in _quote_hint(f"unrecognized arguments: {key.upper()}=x")  # (case-insensitive)


def test_quote_hint_only_for_unrecognized_arguments_that_start_with_a_field():
    from sim.cli import _quote_hint
    assert "quote it" in _quote_hint("unrecognized arguments: foo trump=5B")  # (any word, not all)
    assert _quote_hint("unrecognized arguments: foo bar") == ""
    assert _quote_hint("unrecognized arguments: xtrump=5B nohands=1") == ""  # (a field at the word's start)
    assert _quote_hint("argument --deals: invalid int value: 'players=2'") == ""  # (another error)
    assert _quote_hint("argument --deck: invalid choice: deck=x") == ""


def test_dash_output_refuses_only_a_bare_dash():
    from sim.cli import dash_output
    assert dash_output("-") is not None and "./-" in dash_output("-")
    for ok in ("./-", "-.parquet", "--", "out.parquet", " -"):
        assert dash_output(ok) is None, ok


# ---------------------------------------------------------------- benchmarks/bench_solve_file.py

def _bench_solve_file(monkeypatch):
    import importlib.util
    import sys
    import types

    import sim
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(sim.__file__))), "benchmarks",
                        "bench_solve_file.py")
    spec = importlib.util.spec_from_file_location("bench_solve_file_m9", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    fake = types.ModuleType("bench_solver")
    fake.positions = lambda config, lines, seed: (f"pos{config}-{seed}-{i}" for i in range(lines))
    monkeypatch.setitem(sys.modules, "bench_solver", fake)
    return mod


def _fake_runs(mod, monkeypatch, one_runs, big_runs):
    """_run replaced: (wall, rss) cycling through ``one_runs`` for the one-line file and ``big_runs`` for
    the whole file; the calls' arguments and files' lines recorded."""
    calls = []

    def run(args, env):
        f = args[args.index("--file") + 1]
        with open(f) as fh:
            lines = fh.read().splitlines()
        big = not f.endswith("-1.txt")
        calls.append((list(args), lines))
        runs = big_runs if big else one_runs
        n = sum(1 for a, _ in calls if (not a[a.index("--file") + 1].endswith("-1.txt")) == big)
        return runs[(n - 1) % len(runs)]
    monkeypatch.setattr(mod, "_run", run)
    return calls


def test_bench_solve_file_measure_arithmetic(monkeypatch, tmp_path):
    """Fastest of the repeats (its memory with it), lines/s beyond the one-line run, KB per line beyond it,
    MB = KB / 1024 (mutants: lines not less 1, max for min, /1000, the one-line file not one line)."""
    mod = _bench_solve_file(monkeypatch)
    one = [(3.0, 110000), (1.0, 100000), (2.0, 120000)]
    big = [(9.0, 300000), (5.0, 204800), (7.0, 500000)]
    calls = _fake_runs(mod, monkeypatch, one, big)
    recs = mod.measure("2p-4left", 11, 4, 2, str(tmp_path), repeat=3)
    assert len(calls) == 1 + 2 * (3 + 3)  # the warm-up, then 3 of each file without and with --out
    assert [r["out"] for r in recs] == [None, "parquet"]
    for r in recs:
        assert r["wall_s"] == 5.0 and r["one_line_wall_s"] == 1.0
        assert r["lines_per_s"] == 2.5  # (11 - 1) lines / (5.0 - 1.0) s
        assert r["peak_rss_mb"] == 200.0  # 204800 KB
        assert r["kb_per_line"] == 10480.0  # (204800 - 100000) KB / 10 lines
        assert (r["config"], r["lines"], r["seed"], r["threads"], r["repeat"]) == ("2p-4left", 11, 4, 2, 3)
    want = [f"pos2p-4left-4-{i}" for i in range(11)]
    for args, lines in calls:
        assert args[:5] == ["solve", "--no-progress", "--threads", "2", "--file"]
        assert lines == (want if not args[5].endswith("-1.txt") else want[:1])
    assert sum("--out" in a for a, _ in calls) == 6
    assert all(a[a.index("--out") + 1].endswith("out.parquet") for a, _ in calls if "--out" in a)


def test_bench_solve_file_rate_is_null_when_the_file_took_no_longer(monkeypatch, tmp_path):
    mod = _bench_solve_file(monkeypatch)
    _fake_runs(mod, monkeypatch, [(2.0, 1000)], [(2.0, 1000)])
    recs = mod.measure("2p-4left", 2, 1, 1, str(tmp_path), repeat=1)
    assert [r["lines_per_s"] for r in recs] == [None, None]
    assert [r["kb_per_line"] for r in recs] == [0.0, 0.0]


@pytest.mark.parametrize("argv,ok", [
    (["--lines", "2"], True), (["--lines", "0"], False),
    (["--threads", "256"], True), (["--threads", "257"], False), (["--threads", "1"], True),
    (["--repeat", "1"], True), (["--repeat", "100"], True), (["--repeat", "0"], False), (["--repeat", "101"], False),
    (["--configs", "2p-4left,4p-4left,2p-10left"], True), (["--configs", "2p-4left,"], False),
])
def test_bench_solve_file_argument_bounds(argv, ok, monkeypatch, tmp_path, capsys):
    mod = _bench_solve_file(monkeypatch)
    ran = []
    monkeypatch.setattr(mod, "measure", lambda *a, **kw: ran.append(a) or [])
    monkeypatch.setattr(mod, "machine", lambda: {})
    out = str(tmp_path / "r.jsonl")
    if ok:
        mod.main(argv + ["--out", out])
        assert ran
    else:
        with pytest.raises(SystemExit) as e:
            mod.main(argv + ["--out", out])
        assert e.value.code == 2 and not ran


# ---------------------------------------------------------------- solver/cli.py: --file loop, _write_parquet

EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
EX2 = "players=2 trump=11E hands=10O,2C,4E/11O,11C stock=12C turn=0 trick=10C points=27,76"


def test_solve_file_threads_broken_stdout_still_solves_every_line_for_out(monkeypatch, tmp_path):
    """--threads 2 --out: stdout failing (a pipe whose reader left) stops the printing, not the solving: the
    --out file holds every line, and the run is complete (mutant: the threaded loop broke off at the failure
    with --out too: a partial table)."""
    import io
    import json

    from solver import cli

    class Pipe(io.StringIO):
        def flush(self):
            if self.getvalue():
                raise BrokenPipeError(32, "Broken pipe")

    f = tmp_path / "p.txt"
    n = 40
    f.write_text((EX + "\n" + EX2 + "\n") * (n // 2))
    out = tmp_path / "o.jsonl"
    monkeypatch.setattr("sys.stdout", Pipe())
    assert cli.main(["solve", "--file", str(f), "--threads", "2", "--out", str(out), "--no-progress", "--no-pv"]) == 141
    recs = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["line"] for r in recs] == list(range(1, n + 1))
    assert [r["value"] for r in recs[:1]] == [26]  # (NOTATION.md's example)


def test_write_parquet_takes_a_lone_surrogate(tmp_path):
    """A record's text holding a lone surrogate is written with it escaped (arrow refuses lone surrogates:
    mutant: the escape dropped, the whole table lost)."""
    import pyarrow.parquet as pq

    from solver import cli
    out = tmp_path / "o.parquet"
    cli._write_parquet([{"line": 1, "position": "x \ud800", "error": "bad \udcff"}, '{"line": 2, "position": "y"}'],
                       str(out))
    t = pq.read_table(out).to_pylist()
    assert [r["line"] for r in t] == [1, 2]
    assert t[0]["position"] == "x \\ud800" and t[0]["error"] == "bad \\udcff" and t[1]["position"] == "y"


def test_card_id_unknown_rank_is_a_value_error():
    for rank in (0, 13, -1):
        with pytest.raises(ValueError, match="unknown rank"):
            cards.card_id(rank, "O")


def test_mask_of_and_cards_of_by_hand():
    """A repeated card is one bit (mutant: `+=`); card 47 (1B) is read back (mutant: the range one short)."""
    assert cards.mask_of([0, 0, 5]) == 0b100001
    assert cards.mask_of([47]) == 2 ** 47
    assert cards.cards_of(2 ** 47 | 2 ** 12 | 1) == [0, 12, 47]


def test_solve_file_without_out_keeps_no_record_text(monkeypatch, tmp_path, capsys):
    """Without --out a printed record's JSON text is dropped (mutant: every line's text kept: a million-line
    file held them all). Counted through json.dumps's result while alive."""
    import json as real_json
    import types

    from solver import cli

    class Text(str):
        alive = most = 0

        def __new__(cls, s):
            Text.alive += 1
            Text.most = max(Text.most, Text.alive)
            return super().__new__(cls, s)

        def __del__(self):
            Text.alive -= 1

    fake = types.SimpleNamespace(**{k: getattr(real_json, k) for k in dir(real_json) if not k.startswith("__")})
    fake.dumps = lambda *a, **kw: Text(real_json.dumps(*a, **kw))
    monkeypatch.setattr(cli, "json", fake)
    n = 60
    f = tmp_path / "p.txt"
    f.write_text((EX + "\n" + EX2 + "\n") * (n // 2))
    assert cli.main(["solve", "--file", str(f), "--no-progress", "--no-pv"]) == 0
    monkeypatch.setattr(cli, "json", real_json)
    assert len(capsys.readouterr().out.splitlines()) == n
    assert Text.most <= 5 < n, Text.most


def test_solve_file_progress_bar_counts_every_line(tmp_path, capsys):
    """The progress bar ends at lines/lines (mutant: emit no longer advanced it: 0/5)."""
    from solver import cli
    f = tmp_path / "p.txt"
    f.write_text((EX + "\n") * 5)
    assert cli.main(["solve", "--file", str(f), "--no-pv"]) == 0
    err = capsys.readouterr().err
    assert "5/5" in err and "0/5" not in err.split("\r")[-1], err
