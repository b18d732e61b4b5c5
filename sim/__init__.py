"""brisca: a simulator for Brisca, the Spanish trick-taking card game.

Light on import: the names below are loaded on first use (``sim.simulate``
imports numba and the engine only when called for).
"""
from __future__ import annotations

_LAZY = {
    "simulate": ("sim.simulate", "simulate"),
    "SimResult": ("sim.simulate", "SimResult"),
    "read_metadata": ("sim.simulate", "read_metadata"),
    "Rules": ("sim.rules", "Rules"),
    "Summary": ("sim.stats", "Summary"),
}

__all__ = sorted(_LAZY)


def __getattr__(name):
    if name in _LAZY:
        import importlib
        mod, attr = _LAZY[name]
        value = getattr(importlib.import_module(mod), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'sim' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
