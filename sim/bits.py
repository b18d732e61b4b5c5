"""Bit helpers for ``int64`` card sets (jitted, allocation-free)."""
from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros


@njit(cache=True, inline="always")
def lowest(x):
    """Index of the lowest set bit of non-zero int64 ``x``."""
    return np.int64(trailing_zeros(x))


@njit(cache=True, inline="always")
def highest(x):
    """Index of the highest set bit of non-zero int64 ``x``."""
    return np.int64(63 - leading_zeros(x))


@njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits of int64 ``x`` (card sets are small: clears bits one by one)."""
    n = 0
    while x != 0:
        x &= x - np.int64(1)
        n += 1
    return n


@njit(cache=True, inline="always")
def nth_bit(x, k):
    """Index of the ``k``-th (0-based, from the lowest) set bit of ``x``."""
    for _ in range(k):
        x &= x - np.int64(1)
    return np.int64(trailing_zeros(x))
