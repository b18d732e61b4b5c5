"""Rule-by-rule audit (RULES R3-R9): the solver's ``Position`` against the plain-Python oracle.

tests/test_rules.py pins each clause on the ``sim.rules`` kernels and tests/test_conformance.py the
engine's recorded deals; ``solver.position.Position`` (its own dealing layout, ``apply``'s draws and
exchanges, ``legal_moves``, ``swap_card``, ``side_won``) was compared with the oracle only through
solver values. Here whole deals are stepped through ``Position.apply`` and ``oracle.Game`` side by side
(every move, every table R3 allows), and the clauses with no direct test get one on a hand-built
position. Each test names its rule id.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

import oracle as O
from oracle import card, from_engine_id, to_engine_id

from sim.cards import SWAP
from sim.engine import shuffle_deal
from sim.rng import deal_seed
from sim.rules import Rules

TABLES = [  # every (players, deck, remove) R3 allows
    (2, "spanish40", None), (2, "catalan48", None), (2, "rapida20", None),
    (3, "spanish40", "2B"), (3, "spanish40", "trump2"), (3, "spanish40", "all2s"), (3, "catalan48", None),
    (4, "spanish40", None), (4, "catalan48", None), (4, "rapida20", None),
    (6, "catalan48", None), (6, "spanish40", None),
]


def _oracle_rules(r: Rules) -> O.OracleRules:
    return O.OracleRules(players=r.players, deck=r.deck, exchange=r.exchange, condition=r.exchange_condition,
                         endgame=r.endgame, remove=r.remove if r.players == 3 else None)


def _start(rules: Rules, seed: int, d: int):
    """Deal ``d`` of ``seed``: the solver's start position and the oracle's game of the same layout."""
    from solver.position import deal_position
    order = np.zeros(48, dtype=np.int8)
    removed = shuffle_deal(rules.to_array(), np.array(rules.deck_cards, dtype=np.int8),
                           np.uint64(deal_seed(seed, d)), order, np.zeros(1, dtype=np.uint64))
    layout = [from_engine_id(c) for c in order[:rules.ncards]]
    game = O.Game(_oracle_rules(rules), layout, from_engine_id(removed) if removed >= 0 else None)
    return deal_position(rules, seed, d), game


def _cards(ids):
    return {from_engine_id(c) for c in ids if c != SWAP}


def _same_state(pos, g, where):
    """Seat to move (R5), hands (R4, R6, R7), pinta (R4, R7), points (R2, R5) and legal moves (R5, R7, R9)."""
    assert pos.turn == g.to_move, f"{where}: R5 seat to move"
    assert [_cards(h) for h in pos.hands] == g.hands, f"{where}: hands"
    assert list(pos.points) == g.seat_points, f"{where}: R5 points"
    assert (from_engine_id(pos.trump) if pos.pinta_under else None) == g.pinta, f"{where}: R4/R7 pinta under the stock"
    assert from_engine_id(pos.trump).suit == g.trump, f"{where}: R4/R6 the trump suit"
    if g.over:
        assert pos.is_terminal and pos.legal_moves() == []
        return
    moves = pos.legal_moves()
    assert _cards(moves) == g.legal(), f"{where}: R5/R9 legal cards"
    sw = pos.swap_card()
    assert ([from_engine_id(sw)] if sw >= 0 else []) == g.exchange_options(), f"{where}: R7 exchange"
    assert (SWAP in moves) == (sw >= 0)


def _play_both(rules: Rules, seed: int, deals: int, p_swap: float = 0.8):
    """Step ``deals`` deals through Position.apply and oracle.Game with random legal moves (an exchange taken
    with probability ``p_swap`` when offered); the states must agree after every move. Returns counters."""
    rnd = random.Random(seed)
    seen = {"swaps": 0, "chains": 0, "restricted": 0, "moves": 0}
    for d in range(deals):
        pos, g = _start(rules, seed, d)
        assert pos.turn == 0 and g.leader == 0, "R3: seat 0 leads the first trick"
        swaps_this_deal = 0
        while True:
            where = f"{rules} seed {seed} deal {d} trick {g.trick_no} seat {g.to_move}"
            _same_state(pos, g, where)
            if g.over:
                break
            moves = pos.legal_moves()
            if SWAP in moves and rnd.random() < p_swap:
                give = from_engine_id(pos.swap_card())
                pos = pos.apply(SWAP)
                g.exchange(give)
                swaps_this_deal += 1
                seen["swaps"] += 1
                continue
            cards = [m for m in moves if m != SWAP]
            seen["restricted"] += len(cards) < len(pos.hands[pos.turn])
            c = rnd.choice(cards)
            pos = pos.apply(c)
            g.play(from_engine_id(c))
            seen["moves"] += 1
        assert sum(g.seat_points) == 120 and g.trick_no == rules.tricks, "R2/R3/R6: every card played"
        assert swaps_this_deal <= 2, "R7: at most two exchanges a deal"
        seen["chains"] += swaps_this_deal == 2
    return seen


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0]}p-{t[1]}" + (f"-{t[2]}" if t[2] else ""))
def test_R3_to_R9_position_steps_with_the_oracle(table):
    """R3-R9: whole deals of every table, default exchange (seven-two) and arrastre, stepped through
    ``Position.apply`` and the oracle together: the same seat to move, hands after each draw (R6: the winner
    first, the pinta last), pinta after each exchange (R7), points (R5) and legal moves (R9)."""
    players, deck, remove = table
    rules = Rules(players=players, deck=deck, remove=remove, endgame="arrastre")
    seen = _play_both(rules, seed=63 + players, deals=6)
    assert seen["restricted"] > 0, "R9 arrastre never restricted a play: the test lost its power"


@pytest.mark.parametrize("exchange,condition,endgame,players", [
    ("seven-two", "won-trick", "follow", 2), ("two-any", "any", "free", 2), ("seven", "won-trick", "arrastre", 4),
    ("seven-two", "won-trick", "free", 3), ("two-any", "won-trick", "follow", 6), ("seven-two", "any", "follow", 4),
])
def test_R7_R9_variants_position_steps_with_the_oracle(exchange, condition, endgame, players):
    """R7 variants and condition, R9 variants: Position and oracle agree move by move (won-trick: the
    side, partners included, that has won a trick; Position.apply's side_won)."""
    rules = Rules(players=players, exchange=exchange, exchange_condition=condition, endgame=endgame)
    seen = _play_both(rules, seed=7 * players + len(exchange), deals=8)
    # (power: exchanges were taken under every variant; follow and arrastre restricted a play, free never)
    assert seen["swaps"] > 0 and (seen["restricted"] > 0) == (endgame != "free"), seen


def test_R7_exchanges_happen_in_the_differential():
    """Power of the two tests above: exchanges, and chains of two in one deal (R7), do occur."""
    seen = _play_both(Rules(players=2), seed=5, deals=40, p_swap=1.0)
    assert seen["swaps"] >= 5 and seen["chains"] >= 1, seen


# ---------------------------------------------------------------- hand-built positions
def cards_of(text):
    return [card(t) for t in text.split()]


def _pos(text):
    from solver.position import Position
    return Position.parse(text)


def test_R7_chain_seven_then_two_same_seat_same_turn_position():
    """R7: a seat holding the 7 and the 2 of trumps, pinta the As: it gives the 7 (the 7 is now the pinta),
    is still to move, then gives the 2 for the 7; no third exchange (each lowers the pinta)."""
    pos = _pos("players=2 trump=1O hands=7O,2O,4C/5C,6C,10E stock=3B,4B,5B turn=0")
    assert from_engine_id(pos.swap_card()) == card("7O")
    pos = pos.apply("swap")
    assert pos.turn == 0 and from_engine_id(pos.trump) == card("7O") and pos.pinta_under
    assert from_engine_id(pos.swap_card()) == card("2O")
    pos = pos.apply("swap")
    assert pos.turn == 0 and from_engine_id(pos.trump) == card("2O")
    assert _cards(pos.hands[0]) == {card("1O"), card("7O"), card("4C")}
    assert pos.swap_card() == -1 and SWAP not in pos.legal_moves()


def test_R7_exchange_when_following_not_only_leading_position():
    """R7: the exchange is made at the start of the seat's own turn, leading or following."""
    pos = _pos("players=4 trump=3E hands=1O,4O/7E,5C,6C/10O,11O,12O/2B,4B,5B stock=1B,3B,7B turn=1 trick=2O")
    assert from_engine_id(pos.swap_card()) == card("7E")
    assert SWAP in pos.legal_moves()


def test_R7_won_trick_counts_the_partners_trick_four_players():
    """R7 won-trick: 'only a seat whose side has already won a trick': seat 2 may exchange once its
    partner seat 0 has won a trick, not when only seat 3 has; Position.apply's side_won and the oracle agree."""
    from solver.position import Position
    rules = Rules(players=4, exchange_condition="won-trick")
    c = lambda t: to_engine_id(card(t))  # noqa: E731
    hands = [[c("1O"), c("4O"), c("5O")], [c("2O"), c("4C"), c("5C")], [c("7E"), c("6C"), c("10C")],
             [c("6O"), c("11C"), c("12C")]]
    stock = [c(t) for t in ("2B", "3B", "4B", "5B", "6B", "7B", "10B")]
    for lead, winner in ((c("1O"), 0), (c("4O"), 3)):  # the As wins for seat 0; the 4O loses to seat 3's 6O
        pos = Position.make(rules, c("3E"), hands, stock, turn=0)
        assert pos.swap_card() == -1, "no trick won yet"
        for mv in (lead, c("2O"), c("6C"), c("6O")):
            pos = pos.apply(mv)
        assert pos.turn == winner and pos.side_won == 1 << (winner % 2)
        while pos.turn != 2:
            pos = pos.apply(pos.legal_moves()[0])
        want = O.exchange_options(_cards(pos.hands[2]), card("3E"), len(pos.stock), "seven-two", "won-trick",
                                  O.side_of(4, 2) == O.side_of(4, winner))
        got = [from_engine_id(pos.swap_card())] if pos.swap_card() >= 0 else []
        assert got == want == ([card("7E")] if winner == 0 else []), (winner, got, want)


def test_R3_trump2_turned_two_the_two_of_trumps_in_play_still_no_two_exchange():
    """R3 remove=trump2 disables the 2-exchange, also when the turned card was a 2 of another suit (set aside)
    and the 2 of the trump suit is in play: engine kernel (via Position) and oracle agree."""
    from solver.position import Position
    rules = Rules(players=3, remove="trump2")
    c = lambda t: to_engine_id(card(t))  # noqa: E731
    deck = [x for x in rules.deck_cards if x not in (c("2B"),)]  # 2B set aside at the deal (turned first)
    hands = [[c("2O"), c("1C"), c("3C")], [c("4C"), c("5C"), c("6C")], [c("7C"), c("10C"), c("11C")]]
    pinta = c("5O")
    used = {x for h in hands for x in h} | {pinta}
    stock = [x for x in deck if x not in used]
    pos = Position.make(rules, pinta, hands, stock, turn=0, removed=c("2B"))
    assert c("2B") in pos.removed and c("2O") not in pos.removed
    assert pos.swap_card() == -1 and SWAP not in pos.legal_moves()
    assert O.exchange_options({card("2O"), card("1C"), card("3C")}, card("5O"), len(stock), "seven-two", "any",
                              False, remove="trump2") == []
    # the default remove=2B: the same hand gives its 2 for the pinta 5 (R7 seven-two)
    assert from_engine_id(Position.make(Rules(players=3), pinta, hands, stock, turn=0).swap_card()) == card("2O")


def test_R9_obligations_start_after_the_last_draw_position():
    """R9 (arrastre): while the stock lasts (the last draw still to come) a follower plays any card; after
    the last draw it must beat, follow, trump. Four players: the pinta goes to the seat before the winner
    (R6) and stays trump (its suit), and the next trick is restricted."""
    pos = _pos("players=4 endgame=arrastre trump=5E hands=1O,4C,6C/3O,7C,10C/11O,2C,6B/12O,4B,7B "
               "stock=2O,4O,6O turn=0 exchange=none")
    assert pos.left == 4
    pos = pos.apply("1O")
    assert set(pos.legal_moves()) == set(pos.hands[1]), "R5/R9: stock not exhausted, any card"
    for mv in ("7C", "2C", "4B"):  # seat 0's As wins
        pos = pos.apply(mv)
    assert pos.turn == 0 and pos.left == 0 and not pos.pinta_under
    got = {s: _cards(h) for s, h in enumerate(pos.hands)}
    assert card("2O") in got[0] and card("4O") in got[1] and card("6O") in got[2], "R6: from the winner in order"
    assert card("5E") in got[3], "R6: the pinta to the seat just before the winner (four players)"
    pos = pos.apply("4C")
    assert _cards(pos.legal_moves()) == {card("10C")}, "R9 arrastre: must beat the best of the suit led"
    pos = pos.apply("10C")
    assert _cards(pos.legal_moves()) == set(cards_of("11O 6B 6O")), "R9 arrastre: void in both, any card"
    pos = pos.apply("6B")
    assert _cards(pos.legal_moves()) == {card("5E")}, "R9 arrastre: void in the suit led, must trump (the pinta)"


def test_R6_six_players_pinta_to_the_seat_before_the_winner_position():
    """R6, six players: the last draw goes from the winner round the table, the pinta to the seat before it."""
    from solver.position import Position
    rules = Rules(players=6, exchange="none")
    c = lambda t: to_engine_id(card(t))  # noqa: E731
    hands = [["1O", "2C", "4C"], ["3O", "5C", "6C"], ["1E", "7C", "8C"], ["12O", "9C", "10C"],
             ["11O", "11C", "12C"], ["10O", "2E", "4E"]]
    stock = ["5E", "6E", "7E", "8E", "9E"]
    pos = Position.make(rules, c("1B"), [[c(x) for x in h] for h in hands], [c(x) for x in stock], turn=2)
    for mv in ("1E", "12O", "11O", "10O", "1O", "3O"):  # seat 2 leads the As of Espadas and wins
        pos = pos.apply(mv)
    assert pos.turn == 2 and pos.points[2] == 11 + 4 + 3 + 2 + 11 + 10
    drew = {s: _cards(pos.hands[s]) - {card(x) for x in hands[s]} for s in range(6)}
    assert drew == {2: {card("5E")}, 3: {card("6E")}, 4: {card("7E")}, 5: {card("8E")}, 0: {card("9E")},
                    1: {card("1B")}}
