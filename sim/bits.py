"""Bit helpers for ``int64`` card sets (jitted, allocation-free)."""
from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import intrinsic
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros


@njit(cache=True, inline="always", error_model="numpy")
def lowest(x):
    """Index (0-63, an int64) of the lowest set bit of non-zero int64 ``x``; 64 for 0 (LLVM ``cttz``).

    Parameters
    ----------
    x : int64
        A bit set.

    Returns
    -------
    int64
        The lowest set bit's index, or 64.
    """
    return np.int64(trailing_zeros(x))


@njit(cache=True, inline="always", error_model="numpy")
def highest(x):
    """Index (0-63, an int64) of the highest set bit of non-zero int64 ``x`` (63 for a negative one); -1
    for 0 (LLVM ``ctlz``).

    Parameters
    ----------
    x : int64
        A bit set.

    Returns
    -------
    int64
        The highest set bit's index, or -1.
    """
    return np.int64(63 - leading_zeros(x))


@intrinsic
def _ctpop(typingctx, x):
    sig = x(x)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@njit(cache=True, inline="always", error_model="numpy")
def popcount(x):
    """Number of set bits (0-64, an int64) of int64 ``x`` (LLVM ``ctpop``; 64 for -1).

    Parameters
    ----------
    x : int64
        A bit set.

    Returns
    -------
    int64
        The number of set bits.
    """
    return np.int64(_ctpop(np.int64(x)))


@njit(cache=True, inline="always", error_model="numpy")
def nth_bit(x, k):
    """Index (an int64) of the ``k``-th (0-based, from the lowest) set bit of int64 ``x``, for
    ``0 <= k < popcount(x)``; 64 for any other ``k`` (a negative one too).

    Branch-free for ``k < 3`` (random play would mispredict a loop), a loop beyond.

    Parameters
    ----------
    x : int64
        A bit set.
    k : int
        Which set bit, 0-based from the lowest.

    Returns
    -------
    int64
        The bit's index (0-63), or 64.
    """
    x1 = x & (x - np.int64(1))
    x2 = x1 & (x1 - np.int64(1))
    # masks, not selects: LLVM turns a select chain into branches here
    y = (x & -np.int64(k == 0)) | (x1 & -np.int64(k == 1)) | (x2 & -np.int64(k >= 2))
    for _ in range(2, k):
        y &= y - np.int64(1)
    return np.int64(trailing_zeros(y))
