"""The two-player kernel :func:`sim.engine.play_deal2` against the general :func:`sim.engine.play_deal`.

``play_deal2`` is the fast path ``play_batch`` takes with two players; it
must play every deal exactly as the general kernel does (same cards, same
tricks, same exchanges, same scores), for every 2-player variant of RULES
R1, R3, R7 and R9 and every policy pair. The general kernel calls the
``heuristic`` policy through its view array (``heuristic_action``), the
two-player kernel through registers (``heuristic2``), so this also checks
that the two decide alike. The general kernel itself is checked against the
plain-Python oracle in ``test_conformance.py``.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from numba import njit

from sim.engine import R_SIZE, T_SIZE, _exchange_bits, play_deal, play_deal2
from sim.bits import lowest
from sim.policies import N_PARAMS, POLICIES
from sim.rng import deal_seed
from sim.rules import Rules, exchange_card
from sim.view import V_SIZE


@njit  # (not cached: numba checks only this file, and the cached _run holds play_deal and play_deal2
#   compiled in: an edit of sim/engine.py went untested with a warm cache; mutation pass 11)
def _run(two, ra, deck, seed, m, pol, par, res, tricks, rec):
    view = np.zeros(V_SIZE, np.int64)
    hands = np.zeros(8, np.int64)
    order = np.zeros(48, np.int8)
    rng = np.zeros(1, np.uint64)
    prng = np.zeros(2, np.uint64)
    for i in range(m):
        ds = deal_seed(seed, i)
        if two:
            play_deal2(ra, deck, ds, pol, par, view, order, rng, prng, res, i, tricks, rec)
        else:
            play_deal(ra, deck, ds, pol, par, view, hands, order, rng, prng, res, i, tricks, rec)


def _both(rules: Rules, pols: tuple[str, str], m: int, seed: int):
    ra = rules.to_array()
    deck = np.array(rules.deck_cards, np.int8)
    pol = np.array([POLICIES.index(p) for p in pols], np.int64)
    par = np.zeros((2, N_PARAMS))
    out = []
    for two in (False, True):
        res = np.zeros((m, R_SIZE), np.int16)
        tricks = np.zeros((m, rules.tricks, T_SIZE), np.int16)
        _run(two, ra, deck, seed, m, pol, par, res, tricks, True)
        out.append((res, tricks))
    return out


VARIANTS = list(itertools.product(("spanish40", "catalan48", "rapida20"), ("none", "seven", "seven-two", "two-any"),
                                  ("any", "won-trick"), ("free", "follow", "arrastre")))


@pytest.mark.parametrize("deck,exchange,cond,endgame", VARIANTS)
def test_play_deal2_equals_play_deal_every_variant(deck, exchange, cond, endgame):
    """R1/R3 decks x R7 exchanges and condition x R9 endgames, every policy pair."""
    rules = Rules(players=2, deck=deck, exchange=exchange, exchange_condition=cond, endgame=endgame)
    for k, pols in enumerate(itertools.product(POLICIES, repeat=2)):
        (r1, t1), (r2, t2) = _both(rules, pols, 30, 1000 + k)
        assert (r1[:, 13] == 0).all(), "a deal ended with an error status"
        np.testing.assert_array_equal(r1, r2, err_msg=f"{pols}")
        np.testing.assert_array_equal(t1, t2, err_msg=f"{pols}")


def test_play_deal2_equals_play_deal_many_default_deals():
    """The default rules take a specialised copy: check it on more deals, with exchanges."""
    rules = Rules(players=2)
    for pols in (("random", "random"), ("heuristic", "random"), ("heuristic", "heuristic"), ("expert", "heuristic")):
        (r1, t1), (r2, t2) = _both(rules, pols, 3000, 7)
        np.testing.assert_array_equal(r1, r2, err_msg=f"{pols}")
        np.testing.assert_array_equal(t1, t2, err_msg=f"{pols}")
        assert r1[:, 5].sum() > 0  # exchanges happened (R7)


def test_exchange_bits_equal_exchange_card():
    """R7: the mask form used by the 2-player kernel gives exchange_card's answer."""
    rng = np.random.default_rng(3)
    for exch in range(4):
        for pinta in range(48):
            bits = _exchange_bits(pinta, exch)
            base = (pinta // 12) * 12
            for extra in range(8):
                hand = int(rng.integers(0, 1 << 48)) & ~(1 << pinta)
                hand &= ~((1 << base) | (1 << (base + 4)))
                hand |= ((extra & 1) << base) | (((extra >> 1) & 1) << (base + 4))
                for left in (1, 2, 10):
                    for won in (0, 1):
                        for exwon in (0, 1):
                            want = exchange_card(np.int64(hand), pinta, left, exch, won, exwon)
                            hit = hand & bits if (left >= 2 and (exwon == 0 or won)) else 0
                            got = lowest(np.int64(hit)) if hit else -1
                            assert got == want, (exch, pinta, hand, left, won, exwon)


def test_batch_kernel_compiles_only_the_deal_kernel_its_table_needs():
    """``play_batch`` hands each table to one compiled batch kernel, and each kernel calls one deal
    kernel, so a first run compiles one deal kernel (not ``play_deal2``'s two copies and
    ``play_deal``: about 35 s more on a cold cache, ``benchmarks/bench_compile.py``)."""
    import sim.engine as E
    assert E.batch_kernel(Rules(players=2).to_array()) is E.play_batch2_default
    for kw in ({"deck": "rapida20"}, {"exchange": "seven"}, {"exchange_condition": "won-trick"},
               {"endgame": "arrastre"}):
        assert E.batch_kernel(Rules(players=2, **kw).to_array()) is E.play_batch2_rules, kw
    for n in (3, 4, 6):
        assert E.batch_kernel(Rules(players=n).to_array()) is E.play_batchn
    deal_kernels = {"play_deal", "play_deal2", "play_deal2_default", "play_deal2_rules"}
    for kernel, calls in ((E.play_batch2_default, "play_deal2_default"), (E.play_batch2_rules, "play_deal2_rules"),
                          (E.play_batchn, "play_deal")):
        assert deal_kernels & set(kernel.py_func.__code__.co_names) == {calls}, kernel
