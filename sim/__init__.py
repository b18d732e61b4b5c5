"""brisca: a simulator for Brisca, the Spanish trick-taking card game.

Light on import: the names below are loaded on first use (numba and the
engine are imported only when called for). ``sim.simulate`` is the module
:mod:`sim.simulate`, which is callable: ``sim.simulate(rules, policies,
deals, ...)`` calls :func:`sim.simulate.simulate`.
"""
from __future__ import annotations

_LAZY = {
    "simulate": ("sim.simulate", None),  # the callable module (see the docstring)
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
        module = importlib.import_module(mod)
        value = module if attr is None else getattr(module, attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'sim' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
