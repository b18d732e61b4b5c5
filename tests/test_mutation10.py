"""Mutation testing, tenth pass (helper, 2026-12-06): sim/heuristic.py, sim/policies.py, sim/view.py,
solver/selfplay.py, the parts of sim/expert.py the fifth pass did not target, benchmarks/eval_heuristic.py and
benchmarks/bench_engine.py's Python.

Each test failed on at least one hand-made mutant that the rest of the suite let through, and passes on the
code. Expected values come from RULES.md, the documented contracts (docstrings) or plain-Python
re-derivations (tests/oracle.py's card tables and trick winner, tests/solver_oracle.py's minimax), never from
the function under test.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import oracle
from conftest import bench_script, seat_view
from sim import view as V
from sim.cards import SWAP, deck_cards, format_card, mask_of
from sim.rules import Rules


def _suit_letter(trump):
    return oracle.SUITS[trump]


# ----------------------------------------------------------------- solver.selfplay's bookkeeping
def _swap_first(rules, seed, d, ws=None):
    """Stand-in for the solver: exchange whenever allowed (R7), else the lowest legal card id."""
    from solver import selfplay
    pos = selfplay.deal_position(rules, seed, d)
    cur, moves = pos, []
    while not cur.is_terminal:
        legal = cur.legal_moves()
        mv = SWAP if SWAP in legal else min(legal)
        moves.append(mv)
        cur = cur.apply(mv)
    return {"moves": moves, "value": None, "position": pos, "nodes": 0}


def _run_batch(selfplay, rules, seed, m):
    from sim.engine import R_SIZE, T_SIZE
    n = rules.players
    res = np.zeros((m, R_SIZE), np.int16)
    h0 = np.zeros((m, n, 3), np.int8)
    ds = np.zeros(m, np.uint64)
    tr = np.zeros((m, rules.tricks, T_SIZE), np.int16)
    selfplay.play_open_batch(rules, seed, 0, m, 1, res, h0, ds, tr, True)
    return res, tr


@pytest.mark.parametrize("players,remove", [(2, None), (3, "trump2")])
def test_play_open_batch_books_tricks_exchanges_and_the_deal_columns(players, remove, monkeypatch):
    """Every column play_open_batch fills, replayed from the moves it was given: R_TRUMP is the pinta's suit
    (R4), R_FIRST seat 0, R_REMOVED the 2 of trumps with remove=trump2 (R3) else -1; each trick's leader is
    the previous trick's winner (R5), its winner the R5 winner, each seat's trick count its tricks won; an
    exchange (R7) books the seat that made it, a 7 or 2 of trumps given up and the number of tricks finished
    before it. Mutation testing, tenth pass: R_TRUMP as ``pinta % 4``, R_REMOVED always -1, the trick's
    leader as its winner, the tricks counted to the leader, the exchange's seat as the leader and its trick
    number plus one all passed every test."""
    from sim.engine import (R_EX, R_FIRST, R_NEX, R_PINTA, R_REMOVED, R_SEAT_TRICKS, R_TRUMP, T_CARDS, T_LEADER,
                            T_WINNER)
    from solver import selfplay
    monkeypatch.setattr(selfplay, "play_open_deal", _swap_first)
    rules = Rules(players=players, remove=remove) if remove else Rules(players=players)
    m = 6
    res, tr = _run_batch(selfplay, rules, 21, m)
    n = players
    swaps = 0
    for i in range(m):
        moves = _swap_first(rules, 21, i)["moves"]
        pinta = int(res[i, R_PINTA])
        trump = pinta // 12
        assert res[i, R_TRUMP] == trump
        assert res[i, R_FIRST] == 0
        assert res[i, R_REMOVED] == (12 * trump if remove == "trump2" else -1)  # id of a 2: strength index 0
        leader, trick, t, won, ex = 0, [], 0, [0] * n, []
        for mv in moves:
            seat = (leader + len(trick)) % n
            if mv == SWAP:
                ex.append((seat, t))
                continue
            trick.append(mv)
            if len(trick) == n:
                w = (leader + oracle.trick_winner([oracle.from_engine_id(c) for c in trick],
                                                  _suit_letter(trump))) % n
                assert tr[i, t, T_LEADER] == leader, (i, t)
                assert tr[i, t, T_WINNER] == w, (i, t)
                assert [int(c) for c in tr[i, t, T_CARDS:T_CARDS + n]] == trick
                won[w] += 1
                leader, trick, t = w, [], t + 1
        assert [int(res[i, R_SEAT_TRICKS + s]) for s in range(n)] == won
        assert res[i, R_NEX] == len(ex)
        for k, (seat, tno) in enumerate(ex):
            assert res[i, R_EX + 3 * k] == seat
            assert res[i, R_EX + 3 * k + 2] == tno
            given = oracle.from_engine_id(int(res[i, R_EX + 3 * k + 1]))
            assert given.suit == _suit_letter(trump) and given.rank in (7, 2)
        swaps += len(ex)
    assert swaps > 0


def _seat_cards(moves, n, trump, seat):
    """Cards ``seat`` plays in a move list (R5 leaders), plain Python."""
    leader, trick, mine = 0, [], set()
    for mv in moves:
        if mv == SWAP:
            continue
        if (leader + len(trick)) % n == seat:
            mine.add(mv)
        trick.append(mv)
        if len(trick) == n:
            leader = (leader + oracle.trick_winner([oracle.from_engine_id(c) for c in trick],
                                                   _suit_letter(trump))) % n
            trick = []
    return mine


def test_play_open_batch_books_a_capote_R8(monkeypatch):
    """R8: a capote is one side taking all 120 points. The trick winner is replaced by one that gives every
    trick to seat 0 (the booking must follow it): side 0 takes 120, wins, and the row says capote.
    Mutation testing, tenth pass: R_CAPOTE always 0 passed every test (open play rarely makes a capote)."""
    from sim.engine import R_CAPOTE, R_SIDE_POINTS, R_WINNER
    from solver import selfplay
    monkeypatch.setattr(selfplay, "play_open_deal", _swap_first)
    rules = Rules(players=2)
    play = _swap_first(rules, 4, 0)
    mine = _seat_cards(play["moves"], 2, play["position"].trump // 12, 0)
    monkeypatch.setattr(selfplay, "trick_winner",
                        lambda cards, n, trump: next(j for j, c in enumerate(cards) if int(c) in mine))
    res, _ = _run_batch(selfplay, rules, 4, 1)
    assert [int(res[0, R_SIDE_POINTS + s]) for s in range(2)] == [120, 0]
    assert res[0, R_WINNER] == 0
    assert res[0, R_CAPOTE] == 1


def test_play_open_deal_three_players_plays_each_seats_best_paranoid_move(monkeypatch):
    """Three players: each seat plays its best paranoid move (selfplay docstring). From a late position
    (the last two tricks, every card known) every move played has the largest value tests/solver_oracle.py's
    minimax gives the seat to move. Mutation testing, tenth pass: argmin instead of argmax passed every test."""
    import solver_oracle as SO
    from solver import selfplay
    from solver.position import deal_position
    rules = Rules(players=3)
    differ = 0
    for d in range(3):
        pos = deal_position(rules, 7, d)
        while pos.left > 0 or pos.trick or sum(len(h) for h in pos.hands) > 2 * 3:
            pos = pos.apply(pos.legal_moves()[0])
        monkeypatch.setattr(selfplay, "deal_position", lambda r, s, dd, _p=pos: _p)
        moves = selfplay.play_open_deal(rules, 7, d)["moves"]
        cur = pos
        for mv in moves:
            v, vals = SO.solve(str(cur))
            name = "swap" if mv == SWAP else format_card(mv)
            assert vals[name] == v == max(vals.values()), (str(cur), name, vals)
            differ += len(set(vals.values())) > 1
            cur = cur.apply(mv)
        assert cur.is_terminal
    assert differ > 0  # some decision had a worse move to avoid


# ----------------------------------------------------------------- benchmarks/eval_heuristic.py
def _wilson_textbook(k, n, z=1.959963984540054):
    """Wilson score interval, written from its textbook form (p +- z*sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)."""
    p = k / n
    c = (p + z ** 2 / (2 * n)) / (1 + z ** 2 / n)
    h = z / (1 + z ** 2 / n) * math.sqrt(p * (1 - p) / n + z ** 2 / (4 * n ** 2))
    return c - h, c + h


def test_eval_heuristic_wilson_interval_is_the_wilson_score_interval():
    """Mutation testing, tenth pass: the centre's z^2/(2n) as z^2/n and the half width's z^2/(4n^2) as
    z^2/(2n^2) passed every test. 5 of 10 is the textbook example: about 0.2366 to 0.7634."""
    mod = bench_script("eval_heuristic")
    lo, hi = mod.wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    for k, n in ((0, 3), (1, 2), (7.5, 20), (3, 3), (140, 200)):
        assert mod.wilson(k, n) == pytest.approx(_wilson_textbook(k, n), abs=1e-12), (k, n)


def test_eval_heuristic_check_args_bounds():
    """check_args' documented bounds: MAX_PAIRS is the largest --pairs (accepted), players other than 2, 4, 6
    are refused (3 players make three sides). Mutation testing, tenth pass: refusing MAX_PAIRS itself and
    accepting 3 players passed every test."""
    mod = bench_script("eval_heuristic")
    mod.check_args(mod.MAX_PAIRS, 2, "greedy", 1, 1, (), "heuristic", None)
    with pytest.raises(ValueError, match="at most"):
        mod.check_args(mod.MAX_PAIRS + 1, 2, "greedy", 1, 1, (), "heuristic", None)
    for players in (3, 5, 1):
        with pytest.raises(ValueError, match="players must be 2, 4 or 6"):
            mod.check_args(10, players, "greedy", 1, 1, (), "heuristic", None)


def test_eval_heuristic_run_scores_draws_half_and_reads_the_tested_sides_rows(monkeypatch):
    """run()'s summary from rows whose outcome is set by a stand-in for the engine (play_batch): 3 pairs, the
    tested policy on side 0 in rotation 0 and side 1 in rotation 1 (module docstring). Scores 1, 1 / draw,
    draw / loss, win: 3 wins, 2 draws, 1 loss, win rate (3 + 2/2) / 6; pair means 1, 1/2, 1/2 (sample
    standard deviation, ddof 1); mean points of the tested side; the parameter rows of both sides reach the
    engine (--par on the tested side's seats, --opp-par on the others). Mutation testing, tenth pass: draws
    scored 0, the population deviation, the tested side's points read from the other side and --opp-par
    dropped all passed every test."""
    from sim.engine import R_SIDE_POINTS, R_WINNER
    mod = bench_script("eval_heuristic")
    winners = [0, 1, -1, -1, 1, 1]
    points = [(70, 50), (40, 80), (60, 60), (60, 60), (30, 90), (55, 65)]
    seen = []

    def fake_play_batch(ra, deck, seed, row0, m, rotations, pol, par, res, hands0, dseeds, tricks, rec):
        seen.append((list(pol), par.copy(), rotations))
        for i in range(m):
            r = row0 + i
            if r < len(winners) and res.shape[0] >= len(winners) - row0:
                res[i, R_WINNER] = winners[r]
                res[i, R_SIDE_POINTS], res[i, R_SIDE_POINTS + 1] = points[r]

    monkeypatch.setattr("sim.engine.play_batch", fake_play_batch)
    r = mod.run(3, 2, "counter", 5, 1, (1.5, 0.0, 0.0, 0.0), None, "seven-two", "free", "expert",
                (0.25, 0.0, 0.5))
    assert (r["wins"], r["draws"], r["losses"]) == (3, 2, 1)
    assert r["win_rate"] == pytest.approx(4 / 6)
    assert r["win_rate_ci95"] == pytest.approx(list(_wilson_textbook(4, 6)))
    sd = math.sqrt(((1 - 2 / 3) ** 2 + 2 * (0.5 - 2 / 3) ** 2) / 2)
    se = sd / math.sqrt(3)
    assert r["win_rate_ci95_pairs"] == pytest.approx([2 / 3 - 1.96 * se, 2 / 3 + 1.96 * se])
    assert r["mean_points"] == pytest.approx((70 + 80 + 60 + 60 + 30 + 65) / 6)
    pol, par, rotations = seen[-1]
    assert rotations == 2 and pol == [3, 4]
    assert list(par[0]) == [1.5, 0.0, 0.0, 0.0] and list(par[1]) == [0.25, 0.0, 0.5, 0.0]


# ----------------------------------------------------------------- benchmarks/bench_engine.py
@pytest.mark.parametrize("args,msg", [(["--deals", str(2 ** 63), "--skip-e2e"], "--deals: 9223372036854775808"),
                                      (["--e2e-deals", "0"], "--e2e-deals: 0, expected 1 to 2**63 - 1")])
def test_bench_engine_deal_counts_are_1_to_2_63_minus_1(args, msg, capsys):
    """Mutation testing, tenth pass: --deals 2**63 accepted and --e2e-deals 0 accepted passed every test."""
    mod = bench_script("bench_engine")
    with pytest.raises(SystemExit) as e:
        mod.main(args + ["--out", "/dev/null"])
    assert e.value.code == 2 and msg in capsys.readouterr().err


def test_bench_engine_figures_divide_by_wall_cpu_and_threads(monkeypatch):
    """bench_engine's line: deals/s over wall time, deals per CPU second over process CPU time, per thread
    the wall figure divided by the threads, played in chunks of at most CHUNK (1,000,000) rows. The timing
    and the engine are replaced by stand-ins (wall 2 s, CPU 8 s). Mutation testing, tenth pass: per thread
    not divided, CPU figure over wall time and a chunk of half the deals passed every test."""
    mod = bench_script("bench_engine")
    calls = []

    def fake_timed(total, chunk, run):
        calls.append((total, chunk))
        return 2.0, 8.0

    monkeypatch.setattr(mod, "timed_in_chunks", fake_timed)
    monkeypatch.setattr(mod, "play_batch", lambda *a: None)
    monkeypatch.setattr(mod.numba, "set_num_threads", lambda k: None)
    r = mod.bench_engine(2, "random", 4, 1000)
    assert calls == [(1000, 1000)]
    assert (r["deals_per_s"], r["deals_per_cpu_s"], r["deals_per_s_per_thread"]) == (500, 125, 125)
    mod.bench_engine(2, "random", 1, 3_000_000)
    assert calls[-1] == (3_000_000, 1_000_000)


# ----------------------------------------------------------------- sim.heuristic's documented rules
_view = seat_view  # (tests/conftest.py: the view built by hand)


def _heur(v):
    from sim.heuristic import heuristic_action
    return format_card(heuristic_action(v))


def test_heuristic_rule2_counts_only_3s_and_aces_not_in_the_hand():
    """Rule 2: a suit is preferred when its 3 and ace are no longer outside (the seat's own hand is not
    outside). Copas: ace played, the 3 in the hand, so the 4 of Copas is led before the weaker 2 of Espadas;
    Espadas: ace played but the 3 still outside, so the 4 of Copas (weaker than the 6 of Espadas) is led
    when neither suit qualifies. Mutation testing, tenth pass: the hand's own 3 counted as outside, and only
    the aces counted, passed every test."""
    assert _heur(_view(["4C", "3C", "2E"], played=["1C"])) == "4C"
    assert _heur(_view(["4C", "6E", "1B"], played=["1E"])) == "4C"
    assert _heur(_view(["4C", "6E", "1B"], played=["1E", "3E"])) == "6E"


def test_heuristic_low_cards_are_the_zero_point_ranks_2_to_9():
    """A low card is worth 0 points: ranks 2-9, so the 9 of the 48-card deck is one (R1, R2). Led from a suit
    whose 3 and ace are gone (rule 2), and it is the zero-point trump that takes a figure (rule 3).
    Mutation testing, tenth pass: the 9 left out of the low cards passed every test."""
    assert _heur(_view(["9C", "4E", "1B"], played=["3C", "1C"], deck="catalan48")) == "9C"
    assert _heur(_view(["9B", "5E", "6C"], trick=["12O"], deck="catalan48")) == "9B"


def test_heuristic_rule3_a_trick_worth_exactly_2_takes_a_zero_point_trump():
    """Rule 3: "on a trick worth 2 to 9, with the weakest zero-point trump that wins": a Sota (2 points) led
    is trumped with the 4 of trumps. Mutation testing, tenth pass: "more than 2" passed every test."""
    assert _heur(_view(["4B", "5E", "6C"], trick=["10O"])) == "4B"
    assert _heur(_view(["4B", "5E", "6C"], trick=["7O"])) == "5E"  # worth 0: shed


def test_heuristic_trick_points_count_each_card_once_4_players():
    """Rule 3 with 4 players: the Caballo (3) and the Rey (4) of Oros make a 7-point trick, held by the
    opponent seat 1; a 2-9 trick is taken only with a zero-point trump, so seat 2 sheds instead of spending
    its Rey of trumps. Mutation testing, tenth pass: the lead's points counted twice (10) passed every test."""
    assert _heur(_view(["12B", "5E", "6C"], trick=["11O", "12O"], players=4)) == "5E"
    assert _heur(_view(["12B", "5E", "6C"], trick=["12O", "3O"], players=4)) == "12B"  # 14 points: taken


def test_heuristic_three_players_every_other_seat_is_an_opponent():
    """Three players play alone (R3): a trick held by seat 0 is an opponent's, so seat 2 wins it with the
    strongest card of the suit led (rule 3) rather than loading points (rule 4). Mutation testing, tenth
    pass: the holder's seat taken two seats on passed every test (with 4 and 6 players it keeps the side)."""
    assert _heur(_view(["1C", "6O", "2E"], trick=["5O", "4O"], players=3)) == "6O"


def test_heuristic_rule4_loads_the_strongest_non_trump_point_card():
    """Rule 4: the last seat, its partner holding the trick, loads its strongest non-trump point card: a
    Sota counts (2 points), the 3 goes before a Rey, a trump ace is not loaded. Mutation testing, tenth pass:
    the Sota left out of the point cards, the weakest point card loaded, and trump point cards loaded all
    passed every test."""
    trick = ["4O", "1O", "5O"]  # 4 players, seat 0 leads: seat 1 (partner of seat 3) holds it with the ace
    assert _heur(_view(["10C", "5E", "2B"], trick=trick, players=4)) == "10C"
    assert _heur(_view(["3C", "12E", "6C"], trick=trick, players=4)) == "3C"
    assert _heur(_view(["1B", "12C", "5E"], trick=trick, players=4)) == "12C"


# ----------------------------------------------------------------- sim.expert's exact searches and helpers
def test_expert_search_follower_obeys_R9_as_the_oracle():
    """The exact 2-player searches (rules 4 and 5) let the follower play the cards R9 allows once the stock
    is exhausted (``_fl``): tests/oracle.py's legal_cards on random hands, leads and trumps, each endgame.
    Mutation testing, tenth pass: ignoring the follow obligation, the "beat it in its suit" part of arrastre,
    and the "trump if void" part all passed every test."""
    import random
    from sim.expert import _fl
    rng = random.Random(10)
    deck = deck_cards("spanish40")
    for eg, name in enumerate(("free", "follow", "arrastre")):
        for _ in range(400):
            cards = rng.sample(deck, 1 + rng.randint(1, 3))
            a, hand = cards[0], cards[1:]
            trump = rng.randrange(4)
            want = oracle.legal_cards([oracle.from_engine_id(c) for c in hand], [oracle.from_engine_id(a)],
                                      _suit_letter(trump), name, True)
            got = _fl.py_func(np.int64(mask_of(hand)), a, trump, eg)
            assert int(got) == mask_of(oracle.to_engine_id(c) for c in want), (name, a, hand, trump)


def test_expert_p_holds_is_the_hypergeometric_chance_of_at_least_one():
    """``_p_holds(N, m, u)``: the chance that u slots drawn from N unseen cards hold at least one of m given
    cards, 1 - C(N - m, u) / C(N, u). Mutation testing, tenth pass: certainty already at N - m == u (one
    draw of the u cards still avoids all m) passed every test."""
    from sim.expert import _p_holds
    for N in range(1, 12):
        for m in range(0, N + 1):
            for u in range(0, N + 1):
                want = 0.0 if m == 0 or u == 0 else 1 - math.comb(N - m, u) / math.comb(N, u)
                assert _p_holds.py_func(N, m, u) == pytest.approx(want, abs=1e-12), (N, m, u)


def _last_draw_view(rng, follow):
    """Two players, spanish40, one face-down card and the pinta left (V_LEFT == 2): a random consistent view
    of seat ``1 if follow else 0`` (seat 0 leads)."""
    deck = list(deck_cards("spanish40"))
    rng.shuffle(deck)
    hand, opp, pinta, played = deck[:3], deck[3:6], deck[7], deck[8:]
    me = 1 if follow else 0
    v = np.zeros(V.V_SIZE, dtype=np.int64)
    v[V.V_SEAT], v[V.V_HAND], v[V.V_LEGAL], v[V.V_SWAP] = me, mask_of(hand), mask_of(hand), -1
    v[V.V_TRUMP], v[V.V_PINTA], v[V.V_PINTA_SEAT], v[V.V_LEFT] = pinta // 12, pinta, -1, 2
    v[V.V_PLAYED], v[V.V_LEADER], v[V.V_NTRICK] = mask_of(played), 0, 1 if follow else 0
    if follow:
        v[V.V_TRICK] = opp[0]
    v[V.V_PLAYERS], v[V.V_SIDES], v[V.V_DECK_MASK] = 2, 2, mask_of(deck_cards("spanish40"))
    pts = [oracle.points(oracle.from_engine_id(c)) for c in played]
    v[V.V_POINTS + me] = sum(pts[0::2])
    v[V.V_POINTS + 1 - me] = sum(pts[1::2])
    return v


def test_counter_is_expert_without_the_last_draw_search():
    """``counter`` is ``expert`` without rule 5 (mode 1: only the stock-empty search), i.e. expert with par[3]
    bit 2 set (module docstring); at the last draw the two differ on some views (rule 5 matters). Mutation
    testing, tenth pass: rule 5 switched on by mode bit 0 (so counter searched the last draw too) passed every
    test."""
    import random
    from sim.expert import expert_action
    rng = random.Random(3)
    zeros, no5 = np.zeros(4), np.array([0.0, 0.0, 0.0, 2.0])
    differ = 0
    for k in range(150):
        v = _last_draw_view(rng, follow=k % 2 == 1)
        c = expert_action(v, zeros, 1)
        assert c == expert_action(v, no5, 3)
        differ += expert_action(v, zeros, 3) != c
    assert differ > 0


def test_expert_utility_values_are_the_documented_bonuses():
    """Rule 4: "points + 1000 for a win (61 or more, R8), + 500 for a 60-60 draw" (rule 5 averages these
    utilities over worlds, so the size of the draw's bonus matters, not only the order). Mutation testing,
    tenth pass: a draw worth its 60 points alone passed every test."""
    from sim.expert import _util
    assert [_util.py_func(p) for p in (0, 59, 60, 61, 120)] == [0, 59, 560, 1061, 1120]


def _util_R8(p):
    return p + (1000 if p >= 61 else 500 if p == 60 else 0)


def _open_value(me_h, op_h, me_leads, pts, trump):
    """Plain-Python minimax of a 2-player open endgame (R5 winner, free play): utility of my final points.
    The leader picks a card, then the follower answers it."""
    if not me_h:
        return _util_R8(pts)
    if me_leads:
        return max(min(_after_trick(a, b, True, me_h - {a}, op_h - {b}, pts, trump) for b in op_h) for a in me_h)
    return min(max(_after_trick(b, a, False, me_h - {a}, op_h - {b}, pts, trump) for a in me_h) for b in op_h)


def _after_trick(lead, foll, me_leads, me_h, op_h, pts, trump):
    """Minimax value once the trick (lead, follow) is played: R5 winner, its points, then the rest."""
    mine = oracle.beats(oracle.from_engine_id(foll), oracle.from_engine_id(lead), trump) != me_leads
    p = pts + (oracle.points(oracle.from_engine_id(lead)) + oracle.points(oracle.from_engine_id(foll)) if mine else 0)
    return _open_value(me_h, op_h, mine, p, trump)


def test_expert_stock_empty_search_plays_a_best_card():
    """Rule 4 (two players, stock empty): the card played reaches the best utility of the exact search, here
    a plain-Python minimax over the remaining tricks; the opponent's hand is the unseen cards plus the card
    every seat knows it holds (the pinta it drew at the last draw, V_KNOWN). Mutation testing, tenth pass:
    the follower's win tested the wrong way round and the opponent's known card left out of its hand both
    passed every test."""
    import random
    from sim.expert import expert_action
    rng = random.Random(5)
    deck = list(deck_cards("spanish40"))
    suboptimal_exists = 0
    for k in range(120):
        rng.shuffle(deck)
        follow = k % 2 == 1
        me = 1 if follow else 0
        hand, opp, played = deck[:3], deck[3:6], deck[6:]
        pinta = opp[2]  # the opponent drew the pinta at the last draw
        trump = pinta // 12
        v = np.zeros(V.V_SIZE, dtype=np.int64)
        v[V.V_SEAT], v[V.V_HAND], v[V.V_LEGAL], v[V.V_SWAP] = me, mask_of(hand), mask_of(hand), -1
        v[V.V_TRUMP], v[V.V_PINTA], v[V.V_PINTA_SEAT], v[V.V_LEFT] = trump, pinta, 1 - me, 0
        v[V.V_PLAYED], v[V.V_LEADER], v[V.V_NTRICK] = mask_of(played), 0, 1 if follow else 0
        v[V.V_KNOWN + 1 - me] = 1 << pinta
        if follow:
            v[V.V_TRICK] = opp[0]
        v[V.V_PLAYERS], v[V.V_SIDES], v[V.V_DECK_MASK] = 2, 2, mask_of(deck_cards("spanish40"))
        pts = [oracle.points(oracle.from_engine_id(c)) for c in played]
        mypts = sum(pts[0::2])
        v[V.V_POINTS + me], v[V.V_POINTS + 1 - me] = mypts, sum(pts[1::2])
        T = _suit_letter(trump)
        vals = {}
        for a in hand:
            if follow:  # the opponent led opp[0]
                vals[a] = _after_trick(opp[0], a, False, set(hand) - {a}, set(opp[1:]), mypts, T)
            else:  # the opponent answers with its best reply
                vals[a] = min(_after_trick(a, b, True, set(hand) - {a}, set(opp) - {b}, mypts, T) for b in opp)
        c = expert_action(v, np.zeros(4), 1)
        assert vals[int(c)] == max(vals.values()), (follow, hand, opp, vals, c)
        suboptimal_exists += len(set(vals.values())) > 1
    assert suboptimal_exists > 20


def test_selfplay_rules_array_index_one_past_the_table_is_a_value_error():
    """_rules_of refuses an index outside 0..len-1 with a ValueError (docstring), the first one past the
    table included. Mutation testing, tenth pass: accepting len (then an IndexError) passed every test."""
    from sim.rules import DECKS, P_DECK
    from solver.selfplay import _rules_of
    a = Rules(players=2).to_array().copy()
    a[P_DECK] = len(DECKS)
    with pytest.raises(ValueError, match="out of range"):
        _rules_of(a)
