"""Mutation pass 19: sim.stats' Summary / RunningStats (the printed table's helpers, the paired interval),
sim.batch's resolve_policies / read_metadata / summary assembly. Each test kills a hand-made mutant
that the rest of the suite let through; expected values come from RULES.md (R3 sides, R8 scoring), the
docstrings and plain arithmetic on small hand-built rows (never from the program's output)."""
import json
import math

import numpy as np
import pytest

from sim.stats import RunningStats, Summary, _small_rate

Z = 1.959963984540054


def _wilson(x, n):
    """Wilson's 95% score interval, written out (Newcombe 1998, method 3)."""
    p = x / n
    den = 1 + Z * Z / n
    mid = (p + Z * Z / (2 * n)) / den
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / den
    return [max(0.0, mid - half), min(1.0, mid + half)]


def _stats(players, sides, rotations, side_points, winners):
    sp = np.array(side_points, dtype=np.int16)
    w = np.array(winners, dtype=np.int16)
    st = RunningStats(players, sides, rotations)
    st.update(sp, w, (sp == 120).any(axis=1), 0)
    return st


# ----------------------------------------------------------------- the paired interval (duplicate)
def test_pair_interval_is_clamped_to_zero_and_one():
    """A score is in [0, 1], and so is its interval. 2 players, duplicate (rotation 1 swaps the seats), three
    pairs: side 0's policies lose, lose; lose, lose; win, lose -> pair scores 0, 0, 1/2 (side 1: 1, 1, 1/2).
    Mean 1/6, sample sd sqrt(1/12), se 1/6: 1/6 - 1.96/6 < 0 and 5/6 + 1.96/6 > 1 (mutants: either clamp
    dropped)."""
    st = _stats(2, 2, 2, [[40, 80], [70, 50], [40, 80], [70, 50], [70, 50], [70, 50]], [1, 0, 1, 0, 0, 0])
    a, b = st.summary(["heuristic", "random"], distinct_deals=3, seconds=1.0, sim_seconds=1.0).sides
    assert (a["wins"], a["losses"], b["wins"], b["losses"]) == (1, 5, 5, 1)
    half = Z * math.sqrt(1 / 12) / math.sqrt(3)
    assert a["pair_score_ci95"] == pytest.approx([0.0, 1 / 6 + half])
    assert b["pair_score_ci95"] == pytest.approx([5 / 6 - half, 1.0])
    assert a["pair_score_ci95"][0] == 0.0 and b["pair_score_ci95"][1] == 1.0


def test_positions_score_interval_counts_draws_half():
    """positions[j]['score_ci95'] is Wilson's at wins + draws/2 (Summary docstring: draws count half), not at
    the wins. Rows (2 players, duplicate): 60-60, 60-60 (draws, R8), 70-50, 30-90. Table side 0: 1 win,
    2 draws -> 2 of 4; table side 1 the same (mutant: the positions' interval over wins alone)."""
    st = _stats(2, 2, 2, [[60, 60], [60, 60], [70, 50], [30, 90]], [-1, -1, 0, 1])
    s = st.summary(["heuristic", "random"], distinct_deals=2, seconds=1.0, sim_seconds=1.0)
    for p in s.positions:
        assert (p["wins"], p["draws"], p["score"]) == (1, 2, 0.5)
        assert p["win_rate_ci95"] == pytest.approx(_wilson(1, 4))
        assert p["score_ci95"] == pytest.approx(_wilson(2, 4))
    # and the table's position lines print the score's interval, not the win rate's (over the pairs with
    # duplicate since break-it pass 43: pair scores 0.5 and 0.5, pair win rates 0 and 0.5 at each position)
    text = s.format_table()
    assert s.positions[0]["pair_score_ci95"] == pytest.approx([0.5, 0.5])
    assert s.positions[0]["pair_win_rate_ci95"] == pytest.approx([0.0, 0.25 + 1.959963984540054 * 0.25])
    lo, hi = s.positions[0]["pair_score_ci95"]
    assert f"score 0.5000 [{lo:.4f}, {hi:.4f}]" in text
    wlo, whi = s.positions[0]["pair_win_rate_ci95"]
    assert f"win rate 0.2500 [{wlo:.4f}, {whi:.4f}]" in text


# ----------------------------------------------------------------- Summary.format_table
def _table_summary(**kw):
    args = dict(deals=2, distinct_deals=2, rotations=1, seconds=1.0, sim_seconds=1.0, sides=[], positions=[],
                draws=0, capotes=0, extra={})
    args.update(kw)
    return Summary(**args)


def test_run_line_singular_and_plural():
    """One deal / one thread / one distinct deal read in the singular, more in the plural (mutants: always
    "deals", "threads", "distinct deals")."""
    one = _table_summary(deals=1, distinct_deals=1, extra={"seed": 3, "threads": 1}).format_table()
    assert one.splitlines()[0] == "1 deal, seed 3, 1 thread"
    two = _table_summary(extra={"seed": 3, "threads": 2}).format_table()
    assert two.splitlines()[0] == "2 deals, seed 3, 2 threads"
    dup = _table_summary(deals=2, distinct_deals=1, rotations=2, extra={"threads": 1}).format_table()
    assert dup.splitlines()[0] == "2 deals (1 distinct deal x 2 rotations, duplicate), 1 thread"
    dup = _table_summary(deals=4, distinct_deals=2, rotations=2).format_table()
    assert dup.splitlines()[0] == "4 deals (2 distinct deals x 2 rotations, duplicate)"


def test_deals_per_second_is_printed_with_thousands_separators():
    """Rates of 100 deals/s or more are whole numbers with thousands separators, as the README writes them
    (mutant: the separator dropped); a slow run keeps three significant digits; no time reads n/a."""
    assert "(123,456 deals/s, compile excluded)" in _table_summary(deals=123456, sim_seconds=1.0).format_table()
    assert "(2.5 deals/s, compile excluded)" in _table_summary(deals=5, sim_seconds=2.0).format_table()
    assert "(n/a deals/s, compile excluded)" in _table_summary(sim_seconds=0.0).format_table()


@pytest.mark.parametrize("x, text", [(0.0, "0.00000"), (1e-4, "0.00010"), (0.01234, "0.01234"),
                                     (4e-5, "4e-05"), (3.7e-6, "3.7e-06"), (float("nan"), "n/a")])
def test_small_rate_five_decimals_from_one_in_ten_thousand(x, text):
    """_small_rate: "five decimals, or two significant digits below 0.0001": 0.0001 is not below (mutant:
    ``x > 1e-4``), and 0 is five decimals (mutant: the ``x == 0`` case dropped gave "0")."""
    assert _small_rate(x) == text


def test_side_table_columns_and_paired_interval():
    """The side table: names left-aligned, figures right-aligned under their heads, no trailing blanks; with
    duplicate the seats head says "rotation 0" and the score's interval is the paired one (the footnote says
    "score CI over pairs"); the mean points' standard error has two decimals (mutants: policy column
    right-aligned, rstrip dropped, Wilson interval printed for the score, head without "rotation 0")."""
    st = _stats(2, 2, 2, [[40, 80], [70, 50], [40, 80], [70, 50], [70, 50], [70, 50]], [1, 0, 1, 0, 0, 0])
    s = st.summary(["heuristic", "random"], distinct_deals=3, seconds=1.0, sim_seconds=1.0)
    lines = s.format_table().splitlines()
    assert all(line == line.rstrip() for line in lines)
    head = next(line for line in lines if line.startswith("side "))
    assert "seats (rotation 0)" in head
    r0 = next(line for line in lines if line.startswith("0 "))
    r1 = next(line for line in lines if line.startswith("1 "))
    # policy names start under "policy" (left-aligned)
    assert r0.index("heuristic") == r1.index("random") == head.index("policy")
    # the win rates end where "win rate" ends (right-aligned): side 0 won 1 of 6, side 1 5 of 6
    end = head.index("win rate") + len("win rate")
    assert r0[end - 6:end] == f"{1 / 6:.4f}" and r1[end - 6:end] == f"{5 / 6:.4f}"
    # the score's interval is the paired one (side 0: [0, 1/6 + half], see the clamp test above)
    half = Z * math.sqrt(1 / 12) / math.sqrt(3)
    assert f"0.1667  [0.0000, {1 / 6 + half:.4f}]" in r0
    assert f"[{5 / 6 - half:.4f}, 1.0000]" in r1
    # mean points of side 0's policies: 40+50+40+50+70+50 = 300 over 6 = 50; se written with two decimals, over
    # the pairs' means 45, 45, 60 with duplicate (2026-12-07: over the games before)
    pts = np.array([45, 45, 60], float)
    assert r0.endswith(f"50.00  {pts.std(ddof=1) / math.sqrt(3):.2f}")


def test_written_files_are_labelled_deals_and_tricks():
    """The last lines name the files: ``wrote deals: F`` (README) for --out, ``wrote tricks: F`` for
    --tricks-out (mutant: the labels swapped)."""
    text = _table_summary(extra={"out": "a.parquet", "tricks_out": "b.parquet"}).format_table()
    assert text.splitlines()[-2:] == ["wrote deals: a.parquet", "wrote tricks: b.parquet"]


# ----------------------------------------------------------------- sim.batch
def test_resolve_policies_one_name_per_side_by_seat_parity():
    """R3: side k holds the seats s with s % sides == k, so two names for 4 players alternate (the docstring's
    example; mutant: seats filled side by side, a, a, b, b); names are read without case or blanks."""
    from sim.batch import resolve_policies
    from sim.rules import Rules
    assert resolve_policies(Rules(players=4), ["heuristic", "random"]) == ("heuristic", "random", "heuristic",
                                                                          "random")
    assert resolve_policies(Rules(players=6), ["greedy", "random"]) == ("greedy", "random") * 3
    assert resolve_policies(Rules(players=2), [" Random", "HEURISTIC "]) == ("random", "heuristic")


def _parquet(tmp_path, md):
    import pyarrow as pa
    import pyarrow.parquet as pq
    path = tmp_path / "x.parquet"
    pq.write_table(pa.table({"a": [1]}).replace_schema_metadata(md), path)
    return path


def test_read_metadata_reads_only_brisca_dot_keys(tmp_path):
    """Only the ``brisca.*`` keys, without ``brisca.`` (mutant: any key starting "brisca", e.g. a
    "briscas" key, came back with its first letter cut)."""
    from sim.batch import read_metadata
    path = _parquet(tmp_path, {"brisca.rows": "3", "briscas": "1", "other.rows": "5"})
    assert read_metadata(path) == {"rows": 3}


def test_summary_threads_default_is_the_thread_count_used(tmp_path):
    """Without ``threads`` the run uses numba's thread count, and its summary says so (``threads`` in the JSON;
    mutant: None, so the table had no thread count and the JSON a null); ``distinct_deals`` is rows /
    rotations."""
    import numba
    from sim import simulate
    from sim.rules import Rules
    r = simulate(Rules(players=2), "random", deals=2, seed=1)
    assert r.summary.extra["threads"] == numba.get_num_threads()
    assert json.loads(r.summary.to_json())["threads"] == numba.get_num_threads()
    assert r.summary.distinct_deals == 2
    # with duplicate every distinct deal is played once per rotation (2 sides: 2 rows a deal; mutant:
    # distinct_deals = rows)
    d = simulate(Rules(players=2), "random", deals=2, seed=1, duplicate=True, threads=1).summary
    assert (d.deals, d.distinct_deals, d.rotations) == (4, 2, 2) and d.extra["threads"] == 1
    assert d.format_table().splitlines()[1].startswith("4 deals (2 distinct deals x 2 rotations, duplicate)")
