"""Summary statistics (sim.stats): Wilson intervals, means, the running summary."""
import json
import math

import numpy as np
import pytest

from sim.stats import RunningStats, Summary, mean_se, wilson_interval


# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Stat. Med. 17,
# table I, method 3 (Wilson score interval without continuity correction).
@pytest.mark.parametrize("x, n, lo, hi", [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_known_values(x, n, lo, hi):
    got = wilson_interval(x, n)
    assert got[0] == pytest.approx(lo, abs=5e-5)
    assert got[1] == pytest.approx(hi, abs=5e-5)


def test_wilson_edges():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(20, 20)
    assert hi == 1.0 and lo == pytest.approx(1 - 0.1611, abs=5e-5)
    lo, hi = wilson_interval(5000.5, 10000)  # fractional successes: draws counted half
    assert lo < 0.50005 < hi and hi - lo == pytest.approx(2 * 1.96 * 0.005, rel=1e-3)
    for bad in ((-1, 10), (11, 10), (1, -1)):
        with pytest.raises(ValueError):
            wilson_interval(*bad)


def test_mean_se_matches_numpy():
    x = np.array([61, 59, 120, 0, 75, 45, 60, 60], dtype=float)
    m, se = mean_se(x.sum(), (x * x).sum(), len(x))
    assert m == pytest.approx(x.mean())
    assert se == pytest.approx(x.std(ddof=1) / math.sqrt(len(x)))
    m1, se1 = mean_se(5.0, 25.0, 1)  # one value: no spread to estimate (NaN, not a certain 0)
    assert m1 == 5.0 and math.isnan(se1)


def _rows(side_points, winners):
    sp = np.array(side_points, dtype=np.int16)
    w = np.array(winners, dtype=np.int16)
    cap = (sp == 120).any(axis=1)
    return sp, w, cap


def test_running_stats_plain():
    # 2 sides, no duplicate: side 0 wins twice, side 1 once, one 60-60 draw, one capote.
    sp, w, cap = _rows([[70, 50], [120, 0], [30, 90], [60, 60]], [0, 0, 1, -1])
    st = RunningStats(players=2, sides=2, rotations=1)
    st.update(sp[:2], w[:2], cap[:2], 0)  # in two chunks
    st.update(sp[2:], w[2:], cap[2:], 2)
    s = st.summary(["heuristic", "random"], distinct_deals=4, seconds=2.0, sim_seconds=0.5)
    d = s.to_dict()
    assert d["deals"] == 4 and d["draws"] == 1 and d["capotes"] == 1
    assert d["deals_per_s"] == 8.0
    a, b = d["sides"]
    assert (a["wins"], a["draws"], a["losses"]) == (2, 1, 1)
    assert (b["wins"], b["draws"], b["losses"]) == (1, 1, 2)
    assert a["win_rate"] == 0.5 and a["score"] == 0.625
    assert a["win_rate_ci95"] == pytest.approx(list(wilson_interval(2, 4)))
    # the score's interval is Wilson's at 2.5 of 4 (draws count half), written out here, not the code's
    # (mutation testing: an interval over wins alone passed every test)
    z, n, ph = 1.959963984540054, 4, 0.625
    mid, half = (ph + z * z / (2 * n)), z * math.sqrt(ph * (1 - ph) / n + z * z / (4 * n * n))
    assert a["score_ci95"] == pytest.approx([(mid - half) / (1 + z * z / n), (mid + half) / (1 + z * z / n)])
    assert a["score_ci95"] == pytest.approx([0.2194, 0.9081], abs=1e-4)
    assert a["mean_points"] == pytest.approx(70.0)
    assert a["mean_points_se"] == pytest.approx(np.std([70, 120, 30, 60], ddof=1) / 2)
    assert a["seats"] == [0] and b["policy"] == "random"
    assert "pair_score_ci95" not in a
    json.loads(s.to_json())
    assert "heuristic" in s.format_table()


def test_one_deal_has_no_standard_error():
    """One deal has no spread to estimate: its mean points' error is NaN (null in JSON, n/a in the table), not
    0.00, which claimed a certainty (review of 2026-12-07; as a single duplicate pair's interval is [0, 1])."""
    st = RunningStats(players=2, sides=2, rotations=1)
    st.update(np.array([[70, 50]], dtype=np.int16), np.array([0], dtype=np.int16), np.array([False]), 0)
    s = st.summary(["heuristic", "random"], distinct_deals=1, seconds=1.0, sim_seconds=0.5)
    a, b = json.loads(s.to_json())["sides"]
    assert (a["mean_points"], b["mean_points"]) == (70.0, 50.0)
    assert a["mean_points_se"] is None and b["mean_points_se"] is None
    row = [ln for ln in s.format_table().splitlines() if "heuristic" in ln][0]
    assert row.split()[-2:] == ["70.00", "n/a"]


def test_running_stats_duplicate_follows_the_policies():
    # Rotation 1 swaps the seats: row 1 side 1 is side 0's policies.
    sp, w, cap = _rows([[70, 50], [40, 80], [60, 60], [60, 60], [100, 20], [65, 55]],
                       [0, 1, -1, -1, 0, 0])
    st = RunningStats(players=4, sides=2, rotations=2)
    st.update(sp, w, cap, 0)
    s = st.summary(["heuristic", "greedy"], distinct_deals=3, seconds=1.0, sim_seconds=1.0).to_dict()
    a, b = s["sides"]
    # policies of side 0: win, win, draw, draw, win, loss
    assert (a["wins"], a["draws"], a["losses"]) == (3, 2, 1)
    assert (b["wins"], b["draws"], b["losses"]) == (1, 2, 3)
    assert a["mean_points"] == pytest.approx((70 + 80 + 60 + 60 + 100 + 55) / 6)
    assert a["seats"] == [0, 2]
    pair = np.array([1.0, 0.5, 0.5])  # side 0's mean score per pair
    lo, hi = a["pair_score_ci95"]
    half = 1.959963984540054 * pair.std(ddof=1) / math.sqrt(3)
    assert (lo + hi) / 2 == pytest.approx(pair.mean()) and hi - lo == pytest.approx(2 * half)
    pos = s["positions"]
    assert pos[0]["wins"] == 3 and pos[1]["wins"] == 1  # by seat: rows 0, 4, 5 won by side 0
    # by seat, whatever the policy: seats 0+2's points in each row (the policies' mean is above)
    assert pos[0]["mean_points"] == pytest.approx((70 + 40 + 60 + 60 + 100 + 65) / 6)
    assert pos[1]["mean_points"] == pytest.approx((50 + 80 + 60 + 60 + 20 + 55) / 6)
    with pytest.raises(ValueError):
        st.update(sp[:1], w[:1], cap[:1], 6)  # half a pair


def test_three_player_draw_counts_tied_seats_only():
    sp, w, cap = _rows([[50, 50, 20], [40, 40, 40]], [-1, -1])
    st = RunningStats(players=3, sides=3, rotations=1)
    st.update(sp, w, cap, 0)
    d = st.summary(["random"] * 3, distinct_deals=2, seconds=1, sim_seconds=1).to_dict()
    assert [x["draws"] for x in d["sides"]] == [2, 2, 1]
    assert [x["losses"] for x in d["sides"]] == [0, 0, 1]


def test_json_is_strict_with_no_time():
    s = Summary(deals=0, distinct_deals=0, rotations=1, seconds=0.0, sim_seconds=0.0, sides=[], positions=[],
                draws=0, capotes=0)
    assert json.loads(json.dumps(s.to_dict(), allow_nan=False))["deals_per_s"] is None


def test_json_takes_numpy_arrays_in_extra():
    """A numpy array in :attr:`Summary.extra` (``summary(..., extra=...)`` passes anything) is written as a
    list, NaN as null, instead of ``to_json`` raising TypeError (left from the review of 2026-12-07)."""
    s = Summary(deals=0, distinct_deals=0, rotations=1, seconds=0.0, sim_seconds=0.0, sides=[], positions=[],
                draws=0, capotes=0, extra={"seats": np.arange(3, dtype=np.int8),
                                           "w": np.array([[0.5, np.nan]])})
    d = json.loads(s.to_json())
    assert d["seats"] == [0, 1, 2] and d["w"] == [[0.5, None]]


def test_rates_and_positions_with_three_rotations():
    """Mutation testing (third pass): the run-level ``draw_rate``, ``draw_rate_ci95`` and ``capote_rate``
    were read by no test, nor the ``positions``' draws and standard errors (each passed when computed
    from the wrong counter). Three players, duplicate: 2 distinct deals x 3 rotations = 6 rows."""
    sp, w, cap = _rows([[50, 50, 20], [20, 50, 50], [30, 45, 45],     # pair 0: three draws
                        [120, 0, 0], [60, 40, 20], [30, 60, 30]],      # pair 1: a capote, seat 0, seat 1
                       [-1, -1, -1, 0, 0, 1])
    st = RunningStats(players=3, sides=3, rotations=3)
    st.update(sp, w, cap, 0)
    d = st.summary(["a", "b", "c"], distinct_deals=2, seconds=1.0, sim_seconds=1.0).to_dict()
    assert (d["deals"], d["distinct_deals"], d["draws"], d["capotes"]) == (6, 2, 3, 1)
    assert d["draw_rate"] == pytest.approx(3 / 6) and d["capote_rate"] == pytest.approx(1 / 6)
    # Wilson's interval at 1.5 of 2 pairs (duplicate: over the pairs, review 64), written out (p = 1/2:
    # centred on 1/2)
    z, n = 1.959963984540054, 2
    half = z * math.sqrt(0.25 / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert d["draw_rate_ci95"] == pytest.approx([0.5 - half, 0.5 + half])
    assert d["draw_rate_ci95"] == pytest.approx([0.0945, 0.9055], abs=1e-4)
    # by seat: a draw for the seats on top of a drawn row (R8); wins by winner
    pos = d["positions"]
    assert [p["draws"] for p in pos] == [1, 3, 2]
    assert [p["wins"] for p in pos] == [2, 1, 0]
    for j in range(3):
        col = sp[:, j].astype(float)
        assert pos[j]["mean_points"] == pytest.approx(col.mean())
        assert pos[j]["mean_points_se"] == pytest.approx(col.std(ddof=1) / math.sqrt(6))
    # by policy (rotation k: seat s holds the policies of seat (s + k) % 3): a sits at seats 0, 2, 1
    assert [x["draws"] for x in d["sides"]] == [3, 2, 1]


def test_printing_a_summary_prints_its_table():
    """print(result.summary) printed the dataclass's repr, with np.float64(...) around the mean points (the
    new-user pass of 2026-12-06); it prints the table brisca simulate prints, and the means are floats."""
    sp, w, cap = _rows([[70, 50], [40, 80]], [0, 1])
    st = RunningStats(players=2, sides=2, rotations=1)
    st.update(sp, w, cap, 0)
    s = st.summary(["heuristic", "random"], distinct_deals=2, seconds=1.0, sim_seconds=1.0)
    assert str(s) == s.format_table() and "heuristic" in str(s) and "np.float64" not in repr(s)
    assert type(s.sides[0]["mean_points"]) is float and s.sides[0]["mean_points"] == 55.0
