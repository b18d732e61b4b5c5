"""brisca's open-hand solver (issue 3): positions, exact search, API, CLI.

Kept light: names are re-exported lazily, so ``import solver`` loads nothing heavy
(no numba compile) until a name is used.

* :class:`Position` (``solver.position``) - parse/format/validate NOTATION.md positions;
  :func:`deal_position` and :func:`deal_moves` - a simulated deal's start and its moves.
* :func:`solve`, :func:`solve_many`, :func:`analyse_play`, :func:`release_workers`, :class:`SolveResult`
  (``solver.api``).
* :func:`play_open_batch` (``solver.selfplay``) - both sides perfect, engine output arrays.

Every hand must be known to solve: a seat's view (an observation, NOTATION.md: ``?`` hands, ``stock=?``,
``played=``) parses, and the stock order alone may stay hidden (``stock=?``: the expectation over the draws);
to decide from a seat's view, solve determinizations, its unknown cards (``Position.unknown``) dealt at
random, and average each move's value (PIMC; the README's "Playing from a seat's view", user study 68).
"""
from __future__ import annotations

import importlib

_EXPORTS = {
    "Position": "solver.position",
    "deal_position": "solver.position",
    "deal_moves": "solver.position",
    "solve": "solver.api",
    "solve_many": "solver.api",
    "analyse_play": "solver.api",
    "release_workers": "solver.api",
    "SolveResult": "solver.api",
    "play_open_batch": "solver.selfplay",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    mod = _EXPORTS.get(name)
    if mod is None:
        raise AttributeError(f"module 'solver' has no attribute {name!r}")
    value = getattr(importlib.import_module(mod), name)
    globals()[name] = value
    return value


def __dir__():
    # each name once (a name used is in globals() too), without this module's own imports (new-user pass of
    # 2026-12-06, sixth part: solve, solve_many and analyse_play were listed twice, importlib shown)
    return sorted((set(globals()) - {"annotations", "importlib"}) | set(_EXPORTS))
