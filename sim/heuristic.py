"""The ``heuristic`` policy (placeholder rules; see the module docstring once filled in)."""
from __future__ import annotations

import numpy as np
from numba import njit

from .cards import SWAP
from .view import V_LEGAL, V_SWAP


@njit(cache=True)
def heuristic_action(view, par):
    """Action of the heuristic player from ``view`` (ndarray(int64, V_SIZE))."""
    if view[V_SWAP] >= 0:
        return SWAP
    legal = view[V_LEGAL]
    return np.int64(63) - np.int64(0) if legal == 0 else _lowest(legal)


@njit(cache=True, inline="always")
def _lowest(x):
    c = 0
    while not (x >> c) & 1:
        c += 1
    return np.int64(c)
