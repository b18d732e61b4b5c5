"""brisca: a simulator for Brisca, the Spanish trick-taking card game.

Light on import: the names below are loaded on first use (numba and the
engine are imported only when called for). ``sim.simulate(rules, policies,
deals, ...)`` is :func:`sim.batch.simulate`.
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
