"""View audit (RULES R11): every view the engine hands a policy, compared field by field with the view
computed in plain Python from the replayed deal (tests/oracle.py's model of R1-R9), for 2, 3, 4 and 6
players, every deck and ``remove`` R3 allows, every R7 exchange rule and condition, every R9 endgame and
mixed policies; and a direct check that no field depends on hidden cards.

How: the deal kernels run as Python (:func:`sim.engine.play_deal` for any table, ``_play_deal2`` for two
players; their jitted helpers kept) with the policy call replaced by a recorder (``choose`` /
``_choose_view``). Seat ``9`` is a Python policy that reads only the view and picks a legal action at random,
the exchange included, so declined and chained exchanges are seen by a view reader. The deal is then replayed
in :class:`oracle.Game` from the engine's layout and record; before every decision of a seat whose policy reads
the view the expected view is built from that seat's own hand and the public facts only (:func:`expected`):
so (b), no hidden information, holds by construction for every field compared. :func:`test_views_do_not_depend
_on_hidden_cards` also checks it directly: the cards the seat cannot see are permuted in the deal's layout and
the deal is played again (every seat scripted with the recorded actions) up to that decision; the view must
be the same array. The view scratch starts each deal with junk in the fields a previous deal of the table
could have left (the batch kernels reuse it), so a field the engine forgets to reset shows.

Audit of 2026-12-07 (helper): 360 deals (288 rule sets: 12 tables x 4 exchange rules x 2 conditions x 3
endgames; two players through both kernels), 10,919 views (2 players: 2,101 general kernel + 1,766
``_play_deal2``; 3: 3,315; 4: 2,083; 6: 1,654), 0 differences; 132 layouts with hidden cards
permuted (52 decisions; 2/3/4/6 players: 47/39/26/20), every view equal.
The one finding is a documented omission, not a wrong field: the view does not say who played which card of a
finished trick, so voids shown under R9 ``follow``/``arrastre`` are lost (sim/view.py's docstring now says so).
Mutation check (scratch worktree, fresh NUMBA_CACHE_DIR each): 44 one-field mutants of the engine's filling of
the view (both kernels; every field, the R7 offer's stock/won-trick/trump2 conditions, the R9 legal set, the
resets between deals, a hidden hand leaked into a spare slot) all fail here; 2 more (``_play_deal2``'s
V_TRICK + 1 and V_NTRICK = 2 after the follower's card) are dead stores no policy reads, and
``can_ex``'s ``>= 2`` as ``>= 1`` (cards left to draw is 0 or at least the seat count) and V_HAND from
``hands[seat]`` (kept equal to ``hand``) are equivalent.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

import oracle as O
from sim import view as V
from sim.rules import Rules

SWAP = 48
PYRAND = 9  # a Python policy: a uniform legal action (SWAP included) read from the view alone
EXCH = ("seven-two", "none", "seven", "two-any")
COND = ("any", "won-trick")
ENDG = ("free", "follow", "arrastre")
TABLES = [(2, "spanish40", None), (2, "catalan48", None), (2, "rapida20", None),
          (3, "spanish40", "2B"), (3, "spanish40", "trump2"), (3, "spanish40", "all2s"), (3, "catalan48", None),
          (4, "spanish40", None), (4, "catalan48", None), (4, "rapida20", None),
          (6, "catalan48", None), (6, "spanish40", None)]
POLS = (0, 1, 2, 3, 4, PYRAND)


def _mask(cards):
    m = 0
    for c in cards:
        m |= 1 << O.to_engine_id(c)
    return m


class _Stop(Exception):
    pass


class _Recorder:
    """The policy call of a kernel run as Python: records every view, then plays ``pid`` (or the script)."""

    def __init__(self, rng, script=None, stop_at=None):
        self.views, self.rng, self.script, self.stop_at = [], rng, script, stop_at
        self.declined = 0

    def act(self, pid, par, seat, view, prng):
        self.views.append(view.copy())
        if self.stop_at is not None and len(self.views) > self.stop_at:
            raise _Stop
        if self.script is not None:
            return self.script[len(self.views) - 1]
        if pid == PYRAND:
            legal = [c for c in range(48) if int(view[V.V_LEGAL]) >> c & 1]
            a = self.rng.choice(legal + ([SWAP] if view[V.V_SWAP] >= 0 else []))
        else:
            from sim.policies import choose
            a = int(choose(pid, par, seat, view, prng))
        self.declined += view[V.V_SWAP] >= 0 and a != SWAP
        return a


def run_engine(rules, dseed, pol, two=False, rec_rng=None, script=None, stop_at=None, layout=None):
    """Play one deal with the kernel run as Python; returns (views, res, tricks, order).

    ``two``: ``_play_deal2`` (two players) instead of ``play_deal``. ``layout``: (order, removed) to play
    instead of the shuffle of ``dseed``."""
    import sim.engine as E
    rec = _Recorder(rec_rng or random.Random(0), script, stop_at)
    saved = {k: getattr(E, k) for k in ("choose", "_choose_view", "_decide2", "below32_regs", "_random_pick",
                                        "shuffle_deal", "_shuffle")}

    def u(x):
        return np.uint64(int(x) & (2 ** 64 - 1))

    def choose_view(pid, par, seat, view, prng, ps, pbuf):
        prng[0], prng[1] = u(ps), u(pbuf)
        a = rec.act(pid, par, seat, view, prng)
        return np.int64(a), u(prng[0]), u(prng[1])

    def b32(ps, pbuf, n):
        r, ps, pbuf = saved["below32_regs"](u(ps), u(pbuf), n)
        return r, u(ps), u(pbuf)

    def shuffle_deal(ra, deck, ds, order, rng):
        order[:len(layout[0])] = layout[0]
        return layout[1]

    def shuffle(deck, n, ds, order):
        order[:n] = layout[0]
        return u(ds)

    E.choose = lambda pid, par, seat, view, prng: np.int64(rec.act(pid, par, seat, view, prng))
    E._choose_view, E._decide2, E.below32_regs, E._random_pick = (choose_view, saved["_decide2"].py_func, b32,
                                                                       saved["_random_pick"].py_func)
    if layout is not None:
        E.shuffle_deal, E._shuffle = shuffle_deal, shuffle
    ra = rules.to_array()
    deck = np.array(rules.deck_cards, dtype=np.int8)
    res = np.zeros((1, E.R_SIZE), dtype=np.int16)
    tricks = np.zeros((1, rules.tricks, E.T_SIZE), dtype=np.int16)
    order = np.zeros(48, dtype=np.int8)
    # the batch kernels reuse one view scratch for every deal of a block: start from junk where a previous
    # deal of this table could have left values (seat slots >= players stay 0)
    view = np.random.default_rng(int(dseed) & 0xFFFF).integers(-3, 2 ** 40, V.V_SIZE)
    for s in range(len(pol), V.MAX_SEATS):
        view[V.V_KNOWN + s] = view[V.V_POINTS + s] = view[V.V_WON + s] = 0
    args = (ra, deck, u(dseed), np.array(pol, dtype=np.int64), np.zeros((len(pol), 4)), view)
    try:
        if two:
            E._play_deal2.py_func(*args, order, np.zeros(1, np.uint64), np.zeros(2, np.uint64), res, 0, tricks, True,
                                  ra[4], ra[5], ra[6], ra[7], ra[8])
        else:
            E.play_deal.py_func(*args, np.zeros(8, np.int64), order, np.zeros(1, np.uint64), np.zeros(2, np.uint64),
                                res, 0, tricks, True)
    except _Stop:
        pass
    finally:
        for k, f in saved.items():
            setattr(E, k, f)
    run_engine.declined += rec.declined
    return rec.views, res[0], tricks[0], order


run_engine.declined = 0  # exchanges offered to a view reader and declined (the coverage test)


class Tracker:
    """A deal replayed in :class:`oracle.Game`, with the public facts every seat learns (R11): the exchanges
    and the pinta drawn at the last draw, kept in ``known`` until the card is played."""

    def __init__(self, orules, layout, removed):
        self.g = O.Game(orules, layout, removed)
        self.known = [set() for _ in range(orules.players)]
        self.played = set()  # cards of finished tricks
        self.last_pinta = self.g.pinta

    def exchange(self, give):
        g = self.g
        seat = g.to_move
        self.known[seat].add(g.pinta)  # the old pinta, taken face up
        self.known[seat].discard(give)
        g.exchange(give)
        self.last_pinta = g.pinta

    def play(self, c):
        g = self.g
        had_stock = bool(g.stock)
        ntrick = len(g.trick)
        g.play(c)
        for k in self.known:
            k.discard(c)
        if ntrick + 1 == g.n:  # trick finished
            self.played |= set(g.history[-1][3])
            if had_stock and not g.stock:
                self.known[g.pinta_taker].add(g.pinta_final)


def expected(tr, orules, deck_mask):
    """The view of the seat to move, from its own hand and public facts only (sim/view.py's docstring)."""
    g = tr.g
    n = g.n
    seat = g.to_move
    v = {}
    v[V.V_SEAT] = seat
    v[V.V_HAND] = _mask(g.hands[seat])
    v[V.V_LEGAL] = _mask(g.legal())  # R5, R9
    opts = g.exchange_options()  # R7, R3 trump2
    assert len(opts) <= 1
    v[V.V_SWAP] = O.to_engine_id(opts[0]) if opts else -1
    v[V.V_TRUMP] = O.SUITS.index(g.trump)
    v[V.V_PINTA] = O.to_engine_id(tr.last_pinta)
    v[V.V_PINTA_SEAT] = -1 if g.pinta_taker is None else g.pinta_taker
    v[V.V_LEFT] = len(g.stock)
    v[V.V_PLAYED] = _mask(tr.played)
    v[V.V_LEADER] = g.leader
    v[V.V_NTRICK] = len(g.trick)
    v[V.V_TRICKNO] = g.trick_no
    v[V.V_PLAYERS] = n
    v[V.V_SIDES] = O.n_sides(n)
    v[V.V_DECK_MASK] = deck_mask
    v[V.V_ENDGAME] = ENDG.index(orules.endgame)
    for i, c in enumerate(g.trick):
        v[V.V_TRICK + i] = O.to_engine_id(c)
    for s in range(V.MAX_SEATS):
        v[V.V_KNOWN + s] = _mask(tr.known[s]) if s < n else 0
        v[V.V_POINTS + s] = g.seat_points[s] if s < n else 0
        v[V.V_WON + s] = g.seat_tricks[s] if s < n else 0
    return v


NAMES = {getattr(V, k): k for k in dir(V) if k.startswith("V_") and k != "V_SIZE"}


def _name(i):
    for base in ("V_TRICK", "V_KNOWN", "V_POINTS", "V_WON"):
        b = getattr(V, base)
        if b <= i < b + 8:
            return f"{base}+{i - b}"
    return NAMES.get(i, str(i))


def audit_deal(players, deck, remove, exch, cond, endg, pol, dseed, two=False, rng=None):
    """Play one deal, replay it in the oracle, compare every recorded view.

    Returns (views, diffs, tracker at the end, (rules, layout ids, removed card, every action in order))."""
    rules = Rules(players=players, deck=deck, remove=remove, exchange=exch, exchange_condition=cond, endgame=endg)
    orules = O.OracleRules(players=players, deck=deck, exchange=exch, condition=cond, endgame=endg, remove=remove)
    views, res, tricks, order = run_engine(rules, dseed, pol, two=two, rec_rng=rng)
    import sim.engine as E
    assert res[E.R_STATUS] == 0, "engine status"
    ncards = rules.ncards
    lay = [int(x) for x in order[:ncards]]
    lay[ncards - 1] = int(res[E.R_PINTA])  # the pinta as turned (order's slot holds the last pinta)
    removed = int(res[E.R_REMOVED])
    layout = [O.from_engine_id(c) for c in lay]
    tr = Tracker(orules, layout, O.from_engine_id(removed) if removed >= 0 else None)
    in_play = set(O.shuffled_cards(players, deck, orules.remove)) - {tr.g.removed}  # R1, R3 (trump2: the 2 aside)
    deck_mask = _mask(in_play)
    exchanges = [(int(res[E.R_EX + 3 * k]), int(res[E.R_EX + 3 * k + 1]), int(res[E.R_EX + 3 * k + 2]))
                 for k in range(int(res[E.R_NEX]))]
    reads = [p not in ((0, 2) if two else (0,)) for p in pol]
    diffs, actions, vi = [], [], 0
    for t in range(rules.tricks):
        cards = [int(tricks[t, E.T_CARDS + j]) for j in range(players)]
        for c in cards:
            seat = tr.g.to_move
            while True:
                ex = exchanges[0] if exchanges and exchanges[0][0] == seat and exchanges[0][2] == t else None
                if reads[seat]:
                    want = expected(tr, orules, deck_mask)
                    got = views[vi]
                    for i in range(V.V_SIZE):
                        if i in want and int(got[i]) != want[i]:
                            diffs.append((_name(i), int(got[i]), want[i], vi))
                    vi += 1
                if ex is None:
                    break
                exchanges.pop(0)
                actions.append(SWAP)
                tr.exchange(O.from_engine_id(ex[1]))
            actions.append(c)
            tr.play(O.from_engine_id(c))
        w = tr.g.history[-1][1]
        assert (w, tr.g.history[-1][2]) == (int(tricks[t, E.T_WINNER]), int(tricks[t, E.T_POINTS]))
    assert vi == len(views) and not exchanges
    return views, diffs, tr, (rules, lay, removed, actions)


def all_configs():
    """Every table x exchange x condition x endgame, with a policy mix and a seed each."""
    out = []
    k = 0
    for players, deck, remove in TABLES:
        for exch in EXCH:
            for cond in COND:
                for endg in ENDG:
                    rng = random.Random(k)
                    pol = tuple(rng.choice(POLS) for _ in range(players))
                    if all(p == 0 for p in pol):
                        pol = (PYRAND,) + pol[1:]
                    out.append((players, deck, remove, exch, cond, endg, pol, 1000 + k))
                    k += 1
    return out


@pytest.fixture(scope="module")
def audited():
    """(config, two, views, diffs, tracker) of every config; two players in both kernels."""
    out = []
    for cfg in all_configs():
        kernels = (False, True) if cfg[0] == 2 else (False,)
        for two in kernels:
            pol = cfg[6]
            if two and all(p in (0, 2) for p in pol):
                pol = (PYRAND, pol[1])
            views, diffs, tr, acts = audit_deal(*cfg[:6], pol, cfg[7], two=two, rng=random.Random(cfg[7]))
            out.append((cfg[:6] + (pol, cfg[7]), two, views, diffs, tr, acts))
    return out


def test_every_view_is_what_the_seat_may_see(audited):
    """Field by field (every field of sim/view.py; V_TRICK + i for i < V_NTRICK, unused seats' slots 0)."""
    bad = [(c, two, d[:3]) for c, two, _, d, _, _ in audited if d]
    assert not bad, bad[:5]
    by = {}
    for c, two, views, _, _, _ in audited:
        by[c[0], two] = by.get((c[0], two), 0) + len(views)
    for key in ((2, False), (2, True), (3, False), (4, False), (6, False)):
        assert by[key] >= 400, by


def test_the_audit_reaches_every_case(audited):
    """The deals above hold exchanges offered, declined and chained, the pinta drawn and known, a known card
    played, restricted endgames, and remove=trump2 deals whose turned card was a 2 (set aside, the next card
    turned is the pinta, R3): a wrong field in any of them would show."""
    seen = {"swap_offer": 0, "known": 0, "pinta_seat": 0, "restricted": 0, "two_ex": 0, "trump2": 0,
            "declined": run_engine.declined}
    for c, two, views, _, tr, acts in audited:
        for v in views:
            seen["swap_offer"] += v[V.V_SWAP] >= 0
            seen["known"] += any(v[V.V_KNOWN + s] for s in range(6)) and v[V.V_PINTA_SEAT] < 0
            seen["pinta_seat"] += v[V.V_PINTA_SEAT] >= 0 and v[V.V_KNOWN + v[V.V_PINTA_SEAT]] != 0
            seen["restricted"] += v[V.V_LEGAL] != v[V.V_HAND]
        seen["two_ex"] += len(tr.g.exchanges) == 2
        rules, lay, removed, _ = acts
        seen["trump2"] += removed >= 0 and O.SUITS[removed // 12] != tr.g.trump  # R3: the turned 2 set aside
    assert min(seen.values()) >= 2, seen


def test_views_do_not_depend_on_hidden_cards(audited):
    """(b) directly: permute, in the deal's layout, the cards the deciding seat cannot see (other hands but
    the known cards, the face-down stock), replay the recorded actions (every seat scripted) up to that decision:
    the view is the same array. 52 decisions over 2, 3, 4 and 6 players, up to 3 layouts each."""
    rng = random.Random(5)
    checked = {}
    for c, two, views, _, tr0, (rules, lay, removed, actions) in audited[::7]:
        players = c[0]
        orules = O.OracleRules(players=players, deck=c[1], exchange=c[3], condition=c[4], endgame=c[5], remove=c[2])
        # decision points of the full action list: replay, and at a random one compute what is hidden
        k = rng.randrange(len(actions))
        tr = Tracker(orules, [O.from_engine_id(x) for x in lay], O.from_engine_id(removed) if removed >= 0 else None)
        for a in actions[:k]:
            tr.exchange(tr.g.exchange_options()[0]) if a == SWAP else tr.play(O.from_engine_id(a))
        g = tr.g
        seat = g.to_move
        seen = set(g.hands[seat]) | tr.played | set(g.trick) | set().union(*tr.known)
        if g.stock:
            seen.add(g.pinta)
        hid = [i for i, x in enumerate(lay) if O.from_engine_id(x) not in seen and i != len(lay) - 1]
        base = run_engine(rules, 0, (PYRAND,) * players, two=two, script=actions, stop_at=k,
                          layout=(np.array(lay, np.int8), removed))[0][k]
        for _ in range(3):
            perm = list(lay)
            vals = [lay[i] for i in hid]
            rng.shuffle(vals)
            for i, x in zip(hid, vals):
                perm[i] = x
            try:  # the recorded prefix must stay legal under the permuted hands (R9)
                t2 = Tracker(orules, [O.from_engine_id(x) for x in perm],
                             O.from_engine_id(removed) if removed >= 0 else None)
                for a in actions[:k]:
                    t2.exchange(t2.g.exchange_options()[0]) if a == SWAP else t2.play(O.from_engine_id(a))
            except (O.OracleError, IndexError):
                continue
            got = run_engine(rules, 0, (PYRAND,) * players, two=two, script=actions, stop_at=k,
                             layout=(np.array(perm, np.int8), removed))[0][k]
            assert np.array_equal(got, base), (c, k, [(_name(i), base[i], got[i]) for i in range(V.V_SIZE)
                                                      if base[i] != got[i]])
            checked[players] = checked.get(players, 0) + (perm != lay)
    assert all(checked.get(p, 0) >= 3 for p in (2, 3, 4, 6)), checked
