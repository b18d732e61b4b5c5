"""brisca: a simulator for Brisca, the Spanish trick-taking card game.

Light on import: the names below are loaded on first use (numba and the
engine are imported only when called for), so ``help(sim)`` lists none of
them (user study 67: this docstring said "the names below" and named none):

- ``simulate(rules, policies, deals, ...)``: :func:`sim.batch.simulate`, play deals, summarize them,
  optionally write parquet (``help(sim.simulate)``).
- ``Rules``: one rule set of RULES.md (:class:`sim.rules.Rules`: players, deck, exchange,
  exchange_condition, endgame, remove, tie).
- ``SimResult``: what ``simulate`` returns (``summary``, ``frame``, ``tricks``, ``out``, ``tricks_out``).
- ``Summary``: a run's figures (:class:`sim.stats.Summary`; ``to_dict()`` is ``brisca simulate
  --json``'s object).
- ``read_metadata(path)``: a written parquet file's run (rules, policies, seed, complete, ...).

The deal and trick tables' columns: ``help(sim.batch)``. Intervals for figures of your own:
``sim.stats.wilson_interval`` and ``sim.stats.mean_se``.
"""
from __future__ import annotations

_LAZY = {
    "simulate": ("sim.batch", "simulate"),
    "SimResult": ("sim.batch", "SimResult"),
    "read_metadata": ("sim.batch", "read_metadata"),
    "Rules": ("sim.rules", "Rules"),
    "Summary": ("sim.stats", "Summary"),
}

__all__ = sorted(_LAZY)


def __getattr__(name):
    if name in _LAZY:
        import importlib
        mod, attr = _LAZY[name]
        module = importlib.import_module(mod)
        value = getattr(module, attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'sim' has no attribute {name!r}")


def __dir__():
    return sorted((set(globals()) - {"annotations"}) | set(_LAZY))
