"""Whole deals: the engine's recorded games replayed by the plain-Python oracle (RULES R1-R9).

For every player count, deck and variant, ``play_batch(rec=True)`` plays a few
thousand seeded deals; the oracle rebuilds each deal from the engine's shuffle
(``shuffle_deal`` with ``deal_seed(seed, d)``) and replays the recorded
exchanges and cards, checking every play and exchange is legal, the trick
winners and points, the draws (winner first, pinta last to the right seat),
the R3 trick counts, the points, the winner/draw and capote flags. Then the
reproducibility of a run across thread counts and chunk splits.
"""
from __future__ import annotations

import subprocess
import sys

import numba
import numpy as np
import pytest

from conftest import run_engine
from oracle import SUITS, OracleError, OracleRules, from_engine_id, replay, side_of, to_engine_id

from sim.engine import (R_CAPOTE, R_EX, R_FIRST, R_NEX, R_PINTA, R_REMOVED, R_SEAT_POINTS, R_SEAT_TRICKS,
                        R_SIDE_POINTS, R_STATUS, R_TRUMP, R_WINNER, T_CARDS, T_LEADER, T_POINTS, T_WINNER,
                        shuffle_deal)
from sim.rng import deal_seed
from sim.rules import Rules

TABLES = [  # (players, deck, remove): every combination R3 allows
    (2, "spanish40", "2B"), (2, "catalan48", "2B"), (2, "rapida20", "2B"),
    (3, "spanish40", "2B"), (3, "spanish40", "trump2"), (3, "spanish40", "all2s"), (3, "catalan48", "2B"),
    (4, "spanish40", "2B"), (4, "catalan48", "2B"), (4, "rapida20", "2B"),
    (6, "catalan48", "2B"), (6, "spanish40", "2B"),
]
EXCHANGES = ("none", "seven", "seven-two", "two-any")
CONDITIONS = ("any", "won-trick")
ENDGAMES = ("free", "follow", "arrastre")


def _id(t):
    return f"{t[0]}p-{t[1]}" + ("" if t[2] == "2B" else f"-{t[2]}")


def oracle_rules(r: Rules) -> OracleRules:
    return OracleRules(players=r.players, deck=r.deck, exchange=r.exchange, condition=r.exchange_condition,
                       endgame=r.endgame, remove=r.remove if r.players == 3 else None)


class Checker:
    """Replays a batch of ``run_engine`` output with the oracle; counts what it saw."""

    def __init__(self, rules: Rules, policies, seed, row0=0, rotations=1):
        self.rules = rules
        self.orules = oracle_rules(rules)
        self.policies = policies
        self.seed = seed
        self.row0 = row0
        self.rotations = rotations
        self.arr = rules.to_array()
        self.deck = np.array(rules.deck_cards, dtype=np.int8)
        self.buf = np.zeros(48, dtype=np.int8)
        self.rng = np.zeros(1, dtype=np.uint64)
        self.stats = {"deals": 0, "exchanges": 0, "ex7": 0, "ex2": 0, "chains": 0, "chain_same_turn": 0,
                      "draws": 0, "capotes": 0, "wins": [0, 0, 0], "restricted": 0}

    def order(self, dseed):
        removed = shuffle_deal(self.arr, self.deck, np.uint64(dseed), self.buf, self.rng)
        order = [from_engine_id(c) for c in self.buf[:self.rules.ncards]]
        return order, (from_engine_id(removed) if removed >= 0 else None)

    def check(self, out, i):
        res, n = out["res"], self.rules.players
        row = self.row0 + i
        d, rot = divmod(row, self.rotations)
        where = f"deal {d} (row {row}, seed {self.seed}, {self.rules})"
        try:
            self._check(out, i, d, rot, n, res[i])
        except OracleError as e:
            raise OracleError(f"{where}: {e}") from None
        except AssertionError as e:
            raise AssertionError(f"{where}: {e}") from None

    def _check(self, out, i, d, rot, n, res):
        assert res[R_STATUS] == 0, f"engine status {res[R_STATUS]}"
        ds = out["dseeds"][i]
        assert ds == deal_seed(self.seed, d), "deal seed is not deal_seed(seed, row // rotations)"
        order, removed = self.order(ds)
        # R4: three cards each, one at a time from seat 0
        for s in range(n):
            for j in range(3):
                assert out["hands0"][i, s, j] == to_engine_id(order[j * n + s]), "R4: initial hands"
        assert res[R_PINTA] == to_engine_id(order[-1]), "R4: pinta is the card under the stock"
        assert res[R_TRUMP] == SUITS.index(order[-1].suit), "R4: trump is the pinta's suit"
        assert res[R_FIRST] == 0, "R3: seat 0 leads the first trick"
        assert res[R_REMOVED] == (to_engine_id(removed) if removed is not None else -1)
        nex = int(res[R_NEX])
        assert 0 <= nex <= 2, f"R7: {nex} exchanges"
        exchanges = [(int(res[R_EX + 3 * k]), from_engine_id(res[R_EX + 3 * k + 1]), int(res[R_EX + 3 * k + 2]))
                     for k in range(nex)]
        tr = out["tricks"][i]
        tricks = [(int(tr[t, T_LEADER]), int(tr[t, T_WINNER]), int(tr[t, T_POINTS]),
                   [from_engine_id(tr[t, T_CARDS + j]) for j in range(n)]) for t in range(self.rules.tricks)]
        pols = [self.policies[(s + rot) % n] for s in range(n)]
        greedy = {s for s in range(n) if pols[s] == "greedy"}  # documented: exchanges whenever allowed
        g = replay(self.orules, order, removed, exchanges, tricks, must_exchange=greedy)
        # R6: the pinta (after exchanges) went to the seat before the last drawing trick's winner
        last_draw = self.rules.tricks - 4
        taker = (tricks[last_draw][1] + n - 1) % n
        assert g.pinta_taker == taker
        assert g.pinta_final == (exchanges[-1][1] if exchanges else order[-1]), "R7: card given up is the new pinta"
        plays = [(tricks[t][0] + j) % n for t in range(last_draw + 1, self.rules.tricks)
                 for j in range(n) if tricks[t][3][j] == g.pinta_final]
        assert plays == [taker], f"R6: pinta {g.pinta_final} played by {plays}, drawn by seat {taker}"
        # R8 and the result columns
        for s in range(n):
            assert res[R_SEAT_POINTS + s] == g.seat_points[s], f"seat {s} points"
            assert res[R_SEAT_TRICKS + s] == g.seat_tricks[s], f"seat {s} tricks"
        sp = g.side_points()
        assert [int(res[R_SIDE_POINTS + k]) for k in range(len(sp))] == sp, "side points"
        assert sum(sp) == 120, "R2: 120 points a deal"
        assert sum(g.seat_tricks) == self.orules.counts[2], "R3: tricks a deal"
        winner, capote = g.result()
        assert res[R_WINNER] == winner, f"R8: winner {res[R_WINNER]}, oracle {winner} for {sp}"
        assert bool(res[R_CAPOTE]) == capote, "R8: capote flag"
        # coverage counters
        st = self.stats
        st["deals"] += 1
        st["exchanges"] += nex
        st["ex7"] += sum(e[1].rank == 7 for e in exchanges)
        st["ex2"] += sum(e[1].rank == 2 for e in exchanges)
        st["chains"] += nex == 2
        st["chain_same_turn"] += nex == 2 and exchanges[0][0] == exchanges[1][0] and exchanges[0][2] == exchanges[1][2]
        st["draws"] += winner == -1
        st["capotes"] += capote
        st["wins"][winner] += winner >= 0

    def run(self, m):
        out = run_engine(self.rules, self.policies, seed=self.seed, m=m, row0=self.row0, rotations=self.rotations)
        for i in range(m):
            self.check(out, i)
        return out


def _policies(n, k):
    """Seat policies: mixes of random, greedy and heuristic."""
    mixes = (["random"] * n, ["greedy"] * n, [("random", "greedy")[s % 2] for s in range(n)],
             [("greedy", "heuristic", "random")[s % 3] for s in range(n)])
    return mixes[k % len(mixes)]


@pytest.mark.parametrize("table", TABLES, ids=_id)
def test_R1_to_R9_conformance_default_rules(table):
    """2,000 deals of each R3 combination under the default variants, four policy mixes."""
    players, deck, remove = table
    rules = Rules(players=players, deck=deck, remove=remove)
    total = {"deals": 0, "exchanges": 0, "ex7": 0, "ex2": 0}
    for k in range(4):
        c = Checker(rules, _policies(players, k), seed=1000 + k)
        c.run(500)
        for key in total:
            total[key] += c.stats[key]
    assert total["deals"] == 2000
    if deck != "rapida20":  # rapida20 has no 7 or 2: no exchange (R1, R7)
        assert total["ex7"] > 0, "no 7-exchange seen: the test would not notice a broken R7"
        # trump2 disables the 2-exchange; all2s and 6 players on spanish40 remove the 2s (R3)
        if remove == "2B" and not (players == 6 and deck == "spanish40"):
            assert total["ex2"] > 0, "no 2-exchange seen"
        else:
            assert total["ex2"] == 0
    else:
        assert total["exchanges"] == 0


VARIANT_TABLES = [(2, "spanish40", "2B"), (3, "spanish40", "2B"), (4, "spanish40", "2B"), (6, "catalan48", "2B")]


@pytest.mark.parametrize("endgame", ENDGAMES)
@pytest.mark.parametrize("condition", CONDITIONS)
@pytest.mark.parametrize("exchange", EXCHANGES)
@pytest.mark.parametrize("table", VARIANT_TABLES, ids=_id)
def test_R7_R9_conformance_variants(table, exchange, condition, endgame):
    """Every exchange variant x condition x endgame, 300 deals each (random and greedy seats)."""
    players, deck, remove = table
    rules = Rules(players=players, deck=deck, remove=remove, exchange=exchange, exchange_condition=condition,
                  endgame=endgame)
    seen = 0
    for k in range(2):
        c = Checker(rules, _policies(players, k + 1), seed=2000 + k)
        c.run(150)
        seen += c.stats["exchanges"]
        assert c.stats["ex7"] == 0 or exchange in ("seven", "seven-two")
        assert c.stats["ex2"] == 0 or exchange in ("seven-two", "two-any")
    assert (seen > 0) == (exchange != "none")


@pytest.mark.parametrize("exchange", EXCHANGES)
@pytest.mark.parametrize("condition", CONDITIONS)
def test_R3_trump2_conformance_and_no_two_exchange(exchange, condition):
    """remove=trump2: the 2 of trumps is set aside and the 2-exchange is disabled (R3, R7)."""
    rules = Rules(players=3, remove="trump2", exchange=exchange, exchange_condition=condition, endgame="arrastre")
    c = Checker(rules, ["greedy"] * 3, seed=3000)
    out = c.run(400)
    assert c.stats["ex2"] == 0
    assert (c.stats["ex7"] > 0) == (exchange in ("seven", "seven-two"))
    # R3: the set-aside card is a 2; it is the trump 2 unless the turned card was itself a 2
    removed = out["res"][:, R_REMOVED]
    same_suit = (removed // 12 == out["res"][:, R_TRUMP]).mean()
    assert np.all(removed % 12 == 0)
    assert same_suit > 0.85


def test_R7_exchange_chain_same_turn():
    """R7: exchanges chain (a 7 then a 2), also by one seat in one turn; never more than two."""
    rules = Rules(players=2, exchange="seven-two")
    c = Checker(rules, ["greedy", "greedy"], seed=4000)
    c.run(3000)
    assert c.stats["chains"] > 0
    assert c.stats["chain_same_turn"] > 0


def test_R8_draws_and_capotes_occur_and_agree():
    """R8: 60-60 draws and capotes are flagged as the oracle says (and do occur in the sample)."""
    rules = Rules(players=2, deck="rapida20")
    c = Checker(rules, ["greedy", "random"], seed=5000)
    c.run(3000)
    assert c.stats["draws"] > 0
    assert c.stats["capotes"] > 0
    assert c.stats["wins"][0] > 0 and c.stats["wins"][1] > 0


def test_R3_duplicate_rows_share_the_deal():
    """Rows 2d and 2d+1 (rotations=2) replay deal d with the policies rotated one seat."""
    rules = Rules(players=2)
    c = Checker(rules, ["greedy", "random"], seed=6000, rotations=2)
    out = c.run(400)
    assert np.array_equal(out["dseeds"][0::2], out["dseeds"][1::2])
    assert np.array_equal(out["hands0"][0::2], out["hands0"][1::2])


def _same(a, b):
    for k in a:
        assert np.array_equal(a[k], b[k]), f"{k} differs"


@pytest.mark.parametrize("players", [2, 4])
def test_reproducible_threads_and_chunks(players):
    """Deal d of seed s is played the same whatever the thread count and chunk split."""
    rules = Rules(players=players, endgame="arrastre")
    pol = _policies(players, 3)
    m = 1200
    base = run_engine(rules, pol, seed=77, m=m)
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = run_engine(rules, pol, seed=77, m=m)
    finally:
        numba.set_num_threads(old)
    _same(base, two)
    parts = [run_engine(rules, pol, seed=77, m=b - a, row0=a) for a, b in ((0, 1), (1, 300), (300, 777), (777, m))]
    _same(base, {k: np.concatenate([p[k] for p in parts]) for k in base})
    other = run_engine(rules, pol, seed=78, m=50)
    assert not np.array_equal(other["hands0"], base["hands0"][:50]), "the seed must change the deals"


@pytest.mark.parametrize("module", ["sim.cards", "sim.rules", "sim.rng", "sim.view", "sim.policies",
                                    "sim.engine", "solver"])
def test_module_imports_alone(module):
    """Each module imports alone in a fresh interpreter (layering, no import cycles)."""
    r = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
