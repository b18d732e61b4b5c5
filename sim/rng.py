"""Per-deal counter-based random numbers (splitmix64).

Deal ``i`` of seed ``s`` draws from its own stream, seeded by
:func:`deal_seed` ``(s, i)``, so a deal is the same deal, played the same way,
whatever the thread count or chunk size. Kernels never call ``np.random``.

A stream's state is updated in place: a one-element ``ndarray(uint64)`` for :func:`next_u64`,
:func:`below` and :func:`uniform`, two elements (the stream and a buffered half draw) for
:func:`below32`, two locals for :func:`below32_regs`.
"""
from __future__ import annotations

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
#: XORed into a deal's seed to seed its policies' stream (``dseed ^ POLICY_STREAM``, sim.engine), so that the
#: policies' draws never change the deal.
POLICY_STREAM = np.uint64(0xD1B54A32D192ED03)


def seed_bits(seed: int) -> int:
    """The int64 with the bits of run seed ``seed`` (0 <= seed < 2**64): the one seed type the
    compiled batch kernels take (a Python int of 2**63 or more does not convert to the int64
    signature a smaller seed compiled first); they read it back as the same uint64.

    Parameters
    ----------
    seed : int
        The run seed, ``0 <= seed < 2**64`` (not checked here: :func:`sim.batch.simulate` checks it).

    Returns
    -------
    int
        ``seed - 2**64`` for a seed of ``2**63`` or more, else ``seed``: in ``[-2**63, 2**63)``.
    """
    return seed - 2 ** 64 if seed >= 2 ** 63 else seed


@njit(cache=True, inline="always", error_model="numpy")
def mix64(z):
    """splitmix64 finalizer of a uint64.

    Parameters
    ----------
    z : uint64
        The value to mix.

    Returns
    -------
    uint64
        ``z`` through splitmix64's xor-shift-multiply steps (shifts 30, 27, 31; wrapping).
    """
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, error_model="numpy")
def deal_seed(seed, i):
    """uint64 seed of deal ``i`` (int) of run seed ``seed`` (int).

    Parameters
    ----------
    seed : int
        The run seed, as a uint64 or as its int64 bits (:func:`seed_bits`): the same seed either way.
    i : int
        The deal number, ``0 <= i < 2**64``.

    Returns
    -------
    uint64
        ``mix64(seed * GOLDEN + mix64(i + GOLDEN))`` (splitmix64, wrapping), the deal stream's seed
        (a Python ``int`` in ``[0, 2**64)`` when called from Python).
    """
    return mix64(np.uint64(seed) * _GOLDEN + mix64(np.uint64(i) + _GOLDEN))


@njit(cache=True, inline="always", error_model="numpy")
def next_u64(state):
    """Next uint64 of the stream in ``state`` (ndarray(uint64, shape=(1,))).

    Parameters
    ----------
    state : ndarray(uint64, shape=(1,))
        The stream; ``state[0]`` is advanced by the golden-ratio increment in place.

    Returns
    -------
    uint64
        :func:`mix64` of the advanced ``state[0]``.
    """
    s = state[0] + _GOLDEN
    state[0] = s
    return mix64(s)


@njit(cache=True, inline="always", error_model="numpy")
def below(state, n):
    """Uniform int in ``[0, n)`` for ``1 <= n < 2**32`` (multiply-shift on the high 32 bits).

    ``state`` is the stream, ``ndarray(uint64, shape=(1,))``, advanced by one draw (:func:`next_u64`);
    returns an int64.

    Parameters
    ----------
    state : ndarray(uint64, shape=(1,))
        The stream, advanced by one draw.
    n : int
        The bound, ``1 <= n < 2**32`` (not checked).

    Returns
    -------
    int64
        ``(high 32 bits of the draw * n) >> 32``, in ``[0, n)``.
    """
    return np.int64(((next_u64(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always", error_model="numpy")
def below32_regs(ps, pbuf, n):
    """:func:`below32` on a state held in two locals: returns ``(value, ps, pbuf)``.

    Kernels keep the stream in registers this way (arrays alias each other,
    so a state in an array is reloaded after every store).

    Parameters
    ----------
    ps : uint64
        The stream (``state[0]`` of :func:`below32`).
    pbuf : uint64
        The buffered half draw (``state[1]``; 0: empty).
    n : int
        The bound, ``1 <= n < 2**32`` (not checked).

    Returns
    -------
    tuple of (int64, uint64, uint64)
        The value in ``[0, n)`` and the new ``ps`` and ``pbuf``: with an empty buffer the stream is
        advanced by one draw, its low half used and its high half buffered (top bit set so that it is not
        0); otherwise the buffered half is used and the buffer emptied.
    """
    if pbuf == np.uint64(0):
        ps += _GOLDEN
        x = mix64(ps)
        pbuf = (x >> np.uint64(32)) | np.uint64(1 << 63)
        h = x & np.uint64(0xFFFFFFFF)
    else:
        h = pbuf & np.uint64(0xFFFFFFFF)
        pbuf = np.uint64(0)
    return np.int64((h * np.uint64(n)) >> np.uint64(32)), ps, pbuf


@njit(cache=True, inline="always", error_model="numpy")
def below32(state, n):
    """Uniform int in ``[0, n)`` for ``1 <= n < 2**32`` from half a draw.

    ``state`` is ``ndarray(uint64, shape=(2,))``: the stream and a buffered
    draw whose low half is spent first (0: empty). Each 64-bit draw serves two
    calls (multiply-shift on 32 bits, bias below ``n / 2**32``).

    Parameters
    ----------
    state : ndarray(uint64, shape=(2,))
        The stream and the buffered draw, updated in place (:func:`below32_regs`).
    n : int
        The bound, ``1 <= n < 2**32`` (not checked).

    Returns
    -------
    int64
        A value in ``[0, n)``.
    """
    r, ps, pbuf = below32_regs(state[0], state[1], n)
    state[0] = ps
    state[1] = pbuf
    return r


@njit(cache=True, inline="always", error_model="numpy")
def uniform(state):
    """Uniform float64 in ``[0, 1)``: the top 53 bits of one draw of ``state`` (ndarray(uint64,
    shape=(1,)), advanced as by :func:`next_u64`), times ``2**-53``.

    Parameters
    ----------
    state : ndarray(uint64, shape=(1,))
        The stream, advanced by one draw.

    Returns
    -------
    float64
        A value in ``[0, 1)``, a multiple of ``2**-53``.
    """
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
