"""Puzzle search: positions where exactly one legal move reaches 61 for the side to move (RULES R8).

A puzzle is taken from a random open deal (:func:`solver.position.deal_position`: each player count's
default rules, RULES R3, or a rule set of its deck, exchange, endgame and removal: R1, R3, R7, R9; not
R7's ``won-trick``, which a position string cannot say), played forward along random legal moves to a
random ply from half the cards in play to three short of them (2 and 4 players: 20 to 37 of 40; 3: 19 to
36 of 39; 6: 24 to 45 of 48; rapida20: 10 to 17 of 20; an exchange counts as a move, so at least half the
cards less two are played: the stock's last tricks or the endgame), kept when exactly one move lets the
side to move (a team with 4 and 6 players, the seat alone with 3, whose value is then the paranoid one)
end with 61 or more card points (points held plus value). Each record holds the position, the unique
winning move, its value and a solution line (principal variation). Graded with ``brisca solve --win --seat S``
on the position after the user's move, ``S`` the record's ``seat``, who answered (the turn may have passed
to another side, and ``--win`` alone asks for the side to move).
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from sim.cards import show_repr
from sim.checks import check_callable, check_int
from sim.rules import Rules

#: The player counts puzzles are generated for (RULES R3; five players are not a table of their own).
PLAYERS = (2, 3, 4, 6)

#: Positions tried a puzzle asked for by default (:func:`find_puzzles`' ``max_tries``, ``brisca puzzles
#: --max-tries``). Puzzles are 1.7% (3 players) to 4.2% (2 players) of the positions tried (``--seed 1``,
#: 50 puzzles a table), so 200 missed a single 3-player puzzle about 3% of the time (0.983**200); 500 misses
#: it about once in 5,000 runs (0.983**500), and costs more only in a run that finds fewer than asked.
TRIES_PER_PUZZLE = 500


def default_max_tries(count: int) -> int:
    """The positions tried by default for ``count`` puzzles: :data:`TRIES_PER_PUZZLE` x ``count``, at most
    2**63 - 1 (``brisca puzzles --max-tries``' bound: deal and ply are int64 columns; a ``--count`` of 10**17
    passed 2**64 and was a traceback, review 62).

    Parameters
    ----------
    count : int
        Puzzles asked for, 0 or more (checked by the caller).

    Returns
    -------
    int
        Positions, 0 to 2**63 - 1.
    """
    return min(TRIES_PER_PUZZLE * count, 2 ** 63 - 1)

#: Why a ``won-trick`` table is refused (R7; NOTATION.md has no field for the condition, nor for the sides
#: that have won a trick), after the name of what asked for it: ``rules:`` here, ``--exchange-condition
#: won-trick:`` in ``brisca puzzles``.
WON_TRICK = ("puzzles are generated under the exchange condition any (RULES R7): a position string has no "
             "field for won-trick (NOTATION.md), so a puzzle's position would be solved again under any")


def find_puzzles(count: int, players: int | None = None, seed: int = 1, max_tries: int | None = None, on_try=None, *,
                 rules=None):
    """Yield up to ``count`` puzzle records (dicts: ``position, move, value, need, moves, pv, deal, ply, seat``;
    ``seat`` is the seat to move, who answers: the position's turn).

    Parameters
    ----------
    count : int
        Puzzles wanted, 0 or more.
    players : int, optional
        2, 3, 4 or 6 (RULES R3; R8: 61 wins; with 4 and 6 the side to move is a team, with 3 the seat alone
        against the other two: the paranoid value). Default: ``rules.players``, or 2 without ``rules``;
        given with ``rules``, it must be ``rules.players``.
    seed : int
        Run seed: deal ``i`` is deal ``i`` of this seed (same as the engine); the walk uses
        ``numpy.random.default_rng(seed)``.
    max_tries : int, optional
        Positions examined at most. Default: :func:`default_max_tries` (:data:`TRIES_PER_PUZZLE` x ``count``), as
        ``brisca puzzles`` (2000 whatever the count before 2026-12-07, seventh part).
    on_try : callable, optional
        Called with no arguments after each position examined (a progress bar's tick).
    rules : sim.rules.Rules or mapping, optional
        The table (RULES R1, R3, R7, R9): a :class:`sim.rules.Rules`, or a mapping of its fields as
        :func:`sim.simulate` takes (``{"players": 4, "endgame": "arrastre"}``). Default:
        ``Rules(players=players)``, each player count's default deck. Every record's ``position`` carries
        the rules (``Position.parse(rec["position"]).rules`` is the table; ``tie``, R8's match play, is not
        part of the notation and plays no part in one deal: it reads back as ``draw``). R7's exchange
        condition ``won-trick`` is refused: the notation has no field for it, so a record's position would be
        re-solved under ``any``.

    Returns
    -------
    generator of dict
        Each record: ``position`` (NOTATION.md string), ``move`` (the one winning move), ``value`` (its exact
        value: card points the side to move still captures), ``need`` (card points it still needs to reach 61,
        R8), ``moves`` (every legal move's value, :attr:`solver.SolveResult.moves`), ``pv`` (a solution
        line), ``deal`` (deal number of ``seed``), ``ply`` (moves played from the deal's start), ``seat``.

    Raises
    ------
    ValueError
        For unsupported ``players`` (``"players: puzzles are generated for 2, 3, 4 or 6 players (RULES R3),
        got 5"``), or a ``count``, ``seed`` or ``max_tries`` that is not an integer in
        range (``count`` and ``max_tries`` 0 or more, ``seed`` in [0, 2**64)), or an ``on_try`` that is not
        callable (:func:`sim.checks.check_callable`), when called (break-it pass
        19: ``count=1.5`` yielded 2 puzzles, ``count="2"`` was a ``TypeError``, ``seed=-1`` numpy's message; mutation pass 23: ``players=2.0``
        was accepted). For ``rules`` that are not a Rules or a mapping of its fields, or that Rules refuses
        (:func:`sim.simulate`'s messages: ``"deck rapida20 cannot be played by 3 players (RULES R3)"``), a
        ``players`` other than ``rules.players`` (``"players: 3 given with rules of 4 players"``) or the
        exchange condition ``won-trick`` (``"rules: puzzles are generated under the exchange condition any
        ..."``).
    """
    count, seed = check_int(count, "count"), check_int(seed, "seed")
    max_tries = default_max_tries(count) if max_tries is None else check_int(max_tries, "max_tries")
    if players is not None and (isinstance(players, (bool, np.bool_)) or not isinstance(players, (int, np.integer))
                                or players not in PLAYERS):
        raise ValueError("players: puzzles are generated for 2, 3, 4 or 6 players (RULES R3), got "
                         + show_repr(players))
    if rules is None:
        rules = Rules(players=2 if players is None else int(players))
    else:
        if not isinstance(rules, (Rules, Mapping)):  # (sim.simulate's player count: that is players= here)
            raise ValueError("rules: expected a sim.rules.Rules or a mapping of its fields, got "
                             + show_repr(rules))
        from sim.batch import _as_rules
        rules = _as_rules(rules)  # (a mapping of its fields as sim.simulate takes it, its messages)
        if players is not None and int(players) != rules.players:
            raise ValueError(f"players: {int(players)} given with rules of {rules.players} players "
                             "(give one of them, or the same count)")
    if rules.exchange_condition == "won-trick":
        raise ValueError(f"rules: {WON_TRICK}")
    check_callable(on_try, "on_try")
    return _find(count, rules, seed, max_tries, on_try)


def _find(count, rules, seed, max_tries, on_try):
    """:func:`find_puzzles`' search, its arguments checked."""
    from .api import solve
    from .position import deal_position

    rng = np.random.default_rng(seed)
    found = 0
    for d in range(max_tries):  # one position a deal: deal d is the (d + 1)-th try
        if found >= count:
            break
        pos = deal_position(rules, seed, d)
        # walk to a random ply, preferring the late phase where puzzles are sharp (2 players: 20 to 37)
        target_ply = int(rng.integers(rules.ncards // 2, rules.ncards - 2))
        ply = 0
        while ply < target_ply and not pos.is_terminal:
            moves = pos.legal_moves()
            pos = pos.apply(moves[int(rng.integers(len(moves)))])
            ply += 1
        if on_try is not None:
            on_try()
        if pos.is_terminal:
            continue
        need = 61 - pos.side_points(pos.turn)
        if need <= 0:
            continue
        res = solve(pos)
        winners = [m for m, v in res.moves.items() if v >= need]
        if len(winners) != 1 or len(res.moves) < 2:
            continue
        found += 1
        yield {"position": str(pos), "move": winners[0], "value": res.moves[winners[0]], "need": need,
               "moves": res.moves, "pv": res.pv, "deal": d, "ply": ply, "seat": pos.turn}
