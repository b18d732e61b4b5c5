"""Checks of the public API's arguments shared by ``sim`` and ``solver`` (light: numpy only).

* :func:`check_flag` - a yes/no option as a ``bool`` (``duplicate="no"`` must not count as true).
* :func:`check_int` - an integer argument in a range as an ``int`` (not a bool, a float or a string).
* :func:`check_callable` - a callback argument: None or a callable.
* :func:`sequence_problem` - why a value cannot stand for a sequence in order (a mapping or a
  DataFrame would be read as its keys, a set in an arbitrary order).
"""
from __future__ import annotations

import collections.abc
import numbers

import numpy as np

from .cards import show_repr  # (an int past str's digit limit by its size, a long value cut: mutation pass 25, break-it pass 32)

#: :func:`sequence_problem`'s reasons: a mapping or DataFrame, and a set where the order matters.
KEYS_READ = "its keys would be read"
ARBITRARY_ORDER = "its order is arbitrary"


def check_flag(value, name: str) -> bool:
    """A yes/no option (``solve``'s ``pv``, ``moves``, ``win``; ``simulate``'s ``duplicate``,
    ``progress``, ``keep_frame``, ``tricks``) as a ``bool``.

    Parameters
    ----------
    value : bool, numpy.bool_ or int
        The option as given; the integers 0 and 1 are taken as False and True.
    name : str
        The option's name, for the error message.

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        ``"<name>: expected True or False, got ..."`` for anything else: ``win="no"`` would
        otherwise count as true.

    Examples
    --------
    >>> check_flag(1, "duplicate")
    True
    >>> check_flag("no", "duplicate")
    Traceback (most recent call last):
    ...
    ValueError: duplicate: expected True or False, got 'no'
    """
    if isinstance(value, (bool, np.bool_)) or (isinstance(value, numbers.Integral) and value in (0, 1)):
        return bool(value)
    raise ValueError(f"{name}: expected True or False, got {show_repr(value)}")


def check_int(value, name: str, lo: int = 0, hi: int = 2 ** 64, expected: str | None = None) -> int:
    """An integer argument (a count, a seed, a seat) as an ``int``, checked to lie in ``[lo, hi)``.

    Parameters
    ----------
    value : int or numpy integer
        The argument as given (a bool, a float, a string, None or a ``numpy.timedelta64`` is refused).
    name : str
        The argument's name, for the error message.
    lo, hi : int
        Its range, ``hi`` excluded (default: 0 to 2**64, a 64-bit seed's).
    expected : str, optional
        What the message says is expected, for any refused value (``"a seat 0-3"``); default
        ``"an integer lo or more"`` (``"an integer below hi"`` for one too large).

    Returns
    -------
    int

    Raises
    ------
    ValueError
        ``"<name>: expected <expected>, got ..."`` otherwise (break-it pass 19:
        ``find_puzzles(count=1.5)`` yielded 2 puzzles, ``seed=-1`` gave numpy's message).

    Examples
    --------
    >>> check_int(3, "count")
    3
    >>> check_int(1.5, "count")
    Traceback (most recent call last):
    ...
    ValueError: count: expected an integer 0 or more, got 1.5
    """
    # (np.timedelta64 is a numpy integer type, so numbers.Integral: a duration is not a count, break-it pass 40)
    if (isinstance(value, (bool, np.bool_, np.timedelta64)) or not isinstance(value, numbers.Integral)
            or int(value) < lo):
        raise ValueError(f"{name}: expected {expected or f'an integer {lo} or more'}, got {show_repr(value)}")
    if int(value) >= hi:
        raise ValueError(f"{name}: expected {expected or 'an integer below ' + ('2**64' if hi == 2 ** 64 else str(hi))},"
                         f" got {show_repr(value)}")
    return int(value)


def check_callable(value, name: str):
    """A callback argument (``simulate``'s ``on_start``, ``find_puzzles``' ``on_try``): None or a callable,
    returned as given.

    Parameters
    ----------
    value : object
        The argument.
    name : str
        Its name, for the error message.

    Returns
    -------
    callable or None
        ``value``.

    Raises
    ------
    ValueError
        ``"<name>: expected a callable, got <type>"`` otherwise (break-it pass 20: ``on_start=1`` was a bare
        ``TypeError``).
    """
    if value is not None and not callable(value):
        raise ValueError(f"{name}: expected a callable, got {type(value).__name__}")
    return value


def is_iterable(value) -> bool:
    """Whether ``value`` can be iterated: it has ``__iter__`` and is no numpy 0-d array (which has one but
    raises numpy's "iteration over a 0-d array": break-it pass 40, where three callers each tested it).

    Parameters
    ----------
    value : object
        Anything given where an iterable is expected (policies, positions, a position's fields).

    Returns
    -------
    bool

    Examples
    --------
    >>> is_iterable(["random"]), is_iterable(np.array(["random"])), is_iterable(np.array("random"))
    (True, True, False)
    """
    return hasattr(value, "__iter__") and not (isinstance(value, np.ndarray) and value.ndim == 0)


def sequence_problem(value, ordered: bool = True) -> str | None:
    """Why ``value``, an iterable, cannot stand for a sequence of items, or None when it can.

    Parameters
    ----------
    value : object
        An iterable given where a list is expected (policies, positions, moves, a position's fields).
    ordered : bool
        Whether the order matters (seats, moves, a stock): then a set is refused too, its order being
        arbitrary (a set of strings changes order with ``PYTHONHASHSEED``); a dict's ``keys()`` and
        ``items()`` keep their insertion order and are not refused here (mutation pass 23: ``items()`` was
        refused as "its order is arbitrary"; its pairs are then refused by the caller's item check).

    Returns
    -------
    str or None
        :data:`KEYS_READ` (``"its keys would be read"``) for a mapping or a pandas DataFrame (iterated
        as its column labels), :data:`ARBITRARY_ORDER` (``"its order is arbitrary"``) for a set when
        ``ordered``, else None.

    Examples
    --------
    >>> sequence_problem({"heuristic", "random"})
    'its order is arbitrary'
    >>> sequence_problem({"heuristic": 1}), sequence_problem({"heuristic": 1}.keys())
    ('its keys would be read', None)
    >>> sequence_problem({"heuristic", "random"}, ordered=False) is None
    True
    """
    if isinstance(value, collections.abc.Mapping) or hasattr(value, "columns"):
        return KEYS_READ
    if ordered and isinstance(value, collections.abc.Set) and not isinstance(
            value, (collections.abc.KeysView, collections.abc.ItemsView)):
        return ARBITRARY_ORDER
    return None
