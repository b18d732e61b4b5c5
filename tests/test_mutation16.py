"""Mutation pass 16: the code changed last (sim.checks, Rules.remove / to_array / from_array / tie, simulate's
keep_frame memory refusal, solver.api's argument checks, sim.stats' rules line and mean_se). Each test kills a
mutant that survived the suite; expected values come from RULES.md, the docstrings or plain reasoning."""
import itertools

import pytest

import sim.batch as B
from sim import simulate
from sim.rules import (ENDGAMES, EXCHANGE_CONDITIONS, EXCHANGES, P_DECK, P_ENDGAME, P_EX_WON, P_EXCHANGE, P_REMOVE,
                       P_TIE, REMOVES, TIES, Rules)


# ----------------------------------------------------------------- Rules.from_array (inverse of to_array)
# R3's table: the decks each player count may use (rapida20: 2 and 4 players only)
GAMES = [(2, "spanish40"), (3, "spanish40"), (4, "spanish40"), (6, "catalan48"), (2, "catalan48"),
         (3, "catalan48"), (4, "catalan48"), (6, "spanish40"), (2, "rapida20"), (4, "rapida20")]


def test_from_array_reads_back_every_field_tie_included():
    """Rules.from_array(r.to_array()) == r (its docstring) for every variant of R3, R7, R8 and R9 (mutants:
    to_array wrote tie 0 for replay; from_array read tie back as draw: the pass-20 test kept the default tie)."""
    seen = 0
    for (players, deck), exchange, cond, endgame, tie in itertools.product(GAMES, EXCHANGES, EXCHANGE_CONDITIONS,
                                                                           ENDGAMES, TIES):
        removes = REMOVES if (players, deck) == (3, "spanish40") else (None,)
        for remove in removes:
            r = Rules(players=players, deck=deck, exchange=exchange, exchange_condition=cond, endgame=endgame,
                      remove=remove, tie=tie)
            assert Rules.from_array(r.to_array()) == r, r
            seen += 1
    assert seen == (len(GAMES) + 2) * 4 * 2 * 3 * 2


@pytest.mark.parametrize("pos, names, what", [(P_DECK, ("spanish40", "catalan48", "rapida20"), "deck"),
                                              (P_EXCHANGE, EXCHANGES, "exchange"),
                                              (P_EX_WON, EXCHANGE_CONDITIONS, "exchange_condition"),
                                              (P_ENDGAME, ENDGAMES, "endgame"), (P_REMOVE, REMOVES, "remove"),
                                              (P_TIE, TIES, "tie")])
def test_from_array_refuses_the_indices_just_outside_each_table(pos, names, what):
    """from_array's docstring: "<field> index k at position i of the array is out of range (0-m)". The first
    index past the table and -1 are refused (mutants: ``k <= len`` read past it as an IndexError; without
    ``0 <=`` the index -1 silently named the table's last entry)."""
    for k in (len(names), -1):
        a = Rules(players=3).to_array()
        a[pos] = k
        with pytest.raises(ValueError, match=f"^rules: {what} index {k} at position {pos} of the array is out of "
                                             f"range \\(0-{len(names) - 1}\\)"):
            Rules.from_array(a)


# ----------------------------------------------------------------- keep_frame memory: rows, not deals
def _started():
    raise RuntimeError("the run started")


def test_keep_frame_memory_counts_the_rows_of_a_duplicate_run(monkeypatch):
    """With duplicate each deal is played once a side (2 players: 2 rows a deal), so 1,000 deals make 2,000
    frame rows; memory for 1,000 rows only must refuse the run before it starts (mutant: the check was
    given the deal count)."""
    monkeypatch.setattr(B, "_physical_memory", lambda: 1000 * B.FRAME_ROW_BYTES)
    with pytest.raises(ValueError, match="^keep_frame: a frame of 2,000 rows needs about"):
        simulate(2, "random", deals=1000, duplicate=True, keep_frame=True, on_start=_started)


# ----------------------------------------------------------------- solver.api checks at their bounds
def test_check_threads_takes_1_to_max_threads():
    """check_threads' docstring: 1 to MAX_THREADS (mutants: MAX_THREADS refused; MAX_THREADS + 1 taken)."""
    from solver.api import MAX_THREADS, check_threads
    assert MAX_THREADS == 256
    assert check_threads(1) == 1 and check_threads(256) == 256
    with pytest.raises(ValueError, match="^threads: expected an integer 1-256 "):
        check_threads(257)


def test_check_target_takes_the_whole_int64_range():
    """check_target refuses what "lies outside the int64 range": its two ends are inside (mutant: -2**63 was
    refused)."""
    from solver.api import check_target
    assert check_target(-2 ** 63) == -2 ** 63 and check_target(2 ** 63 - 1) == 2 ** 63 - 1
    for bad in (-2 ** 63 - 1, 2 ** 63):
        with pytest.raises(ValueError, match="^target: .* is out of range"):
            check_target(bad)


# ----------------------------------------------------------------- sim.checks message
def test_check_int_default_top_is_named_2_to_the_64():
    """check_int's default range is 0 to 2**64 (a 64-bit seed's); the message names that bound as 2**64
    (mutant: its 20 digits)."""
    from sim.checks import check_int
    assert check_int(2 ** 64 - 1, "seed") == 2 ** 64 - 1
    with pytest.raises(ValueError, match=r"^seed: expected an integer below 2\*\*64, got 18446744073709551616$"):
        check_int(2 ** 64, "seed")


# ----------------------------------------------------------------- sim.stats
def test_rules_line_of_a_dict_without_tie():
    """_rules_line takes a summary's rules dict as it is ("a dict not of Rules.to_dict: no note"), e.g. one
    written before R8's tie existed: no tie is said, and no KeyError (mutant: rules["tie"])."""
    from sim.stats import _rules_line
    d = Rules(players=2).to_dict()
    del d["tie"]
    line = _rules_line(d)
    assert line.startswith("rules: 2 players, deck spanish40") and "tie" not in line


@pytest.mark.parametrize("x, n", [(0.1, 3), (0.7, 10), (2.3, 7)])
def test_mean_se_of_equal_values_is_zero(x, n):
    """n equal values have no spread: the error is 0 even when rounding makes the sum of squares fall a
    hair below n * mean**2 (mutant: without the clamp at 0, math.sqrt of a negative raised ValueError)."""
    from sim.stats import mean_se
    mean, se = mean_se(sum([x] * n), sum([x * x] * n), n)
    assert mean == pytest.approx(x) and se == pytest.approx(0.0, abs=1e-6)


def test_from_array_refuses_a_wrong_shape_or_dtype():
    """Rules.from_array's docstring asks for an integer array of shape (P_SIZE,): a shorter array raised a
    bare IndexError and a float array was read as indices (mutation pass 16's observation)."""
    import numpy as np
    from sim.rules import P_SIZE, Rules
    good = Rules(players=2).to_array()
    assert good.shape == (P_SIZE,)
    for bad in (np.array([2, 2, 2]), good.astype(np.float64), good.reshape(1, -1)):
        with pytest.raises(ValueError, match=r"shape \(%d,\)" % P_SIZE):
            Rules.from_array(bad)


def test_format_card_refuses_ids_that_are_not_cards():
    """The docstring audit of 2026-12-06 (ninth part): format_card(-1), the kernels' "no card", gave "1B"
    (the last name, read from the end) and 49 a bare IndexError. Ids 0-47 are cards (R2), 48 is swap (R7)."""
    import numpy as np
    from sim.cards import CARD_NAMES, SWAP, format_card
    assert [format_card(c) for c in range(48)] == list(CARD_NAMES[:48])
    assert format_card(SWAP) == "swap" and format_card(np.int64(47)) == CARD_NAMES[47]
    for bad in (-1, 49, np.int8(-1), 10 ** 6):
        with pytest.raises(ValueError, match="is not a card id"):
            format_card(bad)


def test_parse_card_refuses_a_bad_deck_or_a_non_string_with_value_error():
    """The docstring audit of 2026-12-06 (ninth part): parse_card raised KeyError for an unknown deck and
    AttributeError for a non-string; every other bad input is a ValueError naming it (NOTATION.md cards,
    RULES R1 decks)."""
    from sim.cards import parse_card
    assert parse_card("12b", "spanish40") == parse_card("12B")
    for text, deck, msg in (("1O", "foo", "unknown deck"), ("1O", ["spanish40"], "unknown deck"),
                            (11, None, "expected a string"), (None, "spanish40", "expected a string"),
                            ("8O", "spanish40", "not in deck spanish40"), ("13O", None, "invalid card")):
        with pytest.raises(ValueError, match=msg):
            parse_card(text, deck)
