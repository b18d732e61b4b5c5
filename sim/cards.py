"""Card ids, lookup tables and card strings (RULES R1, R2; NOTATION.md "Cards").

Card id
-------
A card id is ``suit * 12 + strength`` where ``suit`` is 0..3 for Oros ``O``,
Copas ``C``, Espadas ``E``, Bastos ``B`` and ``strength`` is the card's trick
strength inside its suit (RULES R2), weakest first::

    strength 0  1  2  3  4  5  6  7   8   9   10 11
    rank     2  4  5  6  7  8  9  10  11  12  3  1

So inside one suit a larger id is a stronger card, and a card set is an
``int64`` bitmask with bit ``id`` set (48 bits cover every deck of R1; decks
``spanish40`` and ``rapida20`` are subsets). The guide's ``suit * 10 + index``
layout was not used because ``catalan48`` needs 12 ranks a suit and because
strength-ordered bits make "highest card of a suit in a set" a single
highest-bit lookup in the engine and the solver.

The trump exchange (RULES R7) is the action id :data:`SWAP` (48).
"""
from __future__ import annotations

import re
import sys

import numpy as np

SUITS = "OCEB"
SUIT_NAMES = ("Oros", "Copas", "Espadas", "Bastos")
#: Ranks in trick-strength order, weakest first (RULES R2).
RANKS_BY_STRENGTH = (2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 3, 1)
RANK_POINTS = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}  # RULES R2; every other rank 0
N_IDS = 48
#: Action id of the trump exchange (RULES R7); card ids are 0..47.
SWAP = 48
NO_CARD = -1

_STRENGTH_OF_RANK = {r: i for i, r in enumerate(RANKS_BY_STRENGTH)}

#: ``CARD_SUIT[id]`` suit 0..3, ``CARD_RANK[id]`` rank 1..12, ``CARD_POINTS[id]`` card points (R2).
CARD_SUIT = np.array([i // 12 for i in range(N_IDS)], dtype=np.int64)
CARD_RANK = np.array([RANKS_BY_STRENGTH[i % 12] for i in range(N_IDS)], dtype=np.int64)
CARD_POINTS = np.array([RANK_POINTS.get(RANKS_BY_STRENGTH[i % 12], 0) for i in range(N_IDS)], dtype=np.int64)
#: Card strings indexed by id (``CARD_NAMES[0] == "2O"``).
CARD_NAMES = tuple(f"{RANKS_BY_STRENGTH[i % 12]}{SUITS[i // 12]}" for i in range(N_IDS))
_NAME_TO_ID = {n: i for i, n in enumerate(CARD_NAMES)}

#: Ranks of each deck (RULES R1).
DECK_RANKS = {
    "spanish40": (1, 2, 3, 4, 5, 6, 7, 10, 11, 12),
    "catalan48": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12),
    "rapida20": (1, 3, 10, 11, 12),
}
DECKS = tuple(DECK_RANKS)
#: Card ids of each deck, ascending, and as a set (read by :func:`deck_cards` and :func:`parse_card`,
#: which a position's parse calls for every card: computed once here).
_DECK_IDS = {d: tuple(i for i in range(N_IDS) if RANKS_BY_STRENGTH[i % 12] in r) for d, r in DECK_RANKS.items()}
_DECK_IDSET = {d: frozenset(ids) for d, ids in _DECK_IDS.items()}

#: ``SUIT_MASK[s]``: bitmask of every card id of suit ``s`` (int64).
SUIT_MASK = np.array([((1 << 12) - 1) << (12 * s) for s in range(4)], dtype=np.int64)
#: ``POINT_MASK``: bitmask of the cards worth points (1, 3, 12, 11, 10).
POINT_MASK = np.int64(sum(1 << i for i in range(N_IDS) if CARD_POINTS[i] > 0))


def card_id(rank: int, suit: int | str) -> int:
    """Card id of ``rank`` (1..12) of ``suit`` (0..3 or one of ``"OCEB"``): ``suit * 12 + strength``
    (strength 0..11, weakest first, RULES R2), whatever the deck (8 and 9 exist only in ``catalan48``, R1).

    Parameters
    ----------
    rank : int
        1 to 12 (Python or numpy integer).
    suit : int or str
        0 to 3, or the suit's letter ``O``, ``C``, ``E`` or ``B`` (either case: ``"o"`` is Oros).

    Returns
    -------
    int
        Card id 0..47 (``card_id(1, "O") == 11``: the ace is the strongest Oro).

    Raises
    ------
    ValueError
        If the rank or the suit does not exist, or is not an integer (a suit letter aside): a float or
        a bool (``card_id(1, 1.5)`` returned 29.0, ``card_id(1.0, True)`` 23), None (mutation pass 20).
    """
    if isinstance(suit, str):
        if suit.upper() not in SUITS or len(suit) != 1:
            raise ValueError(f"unknown suit {show_repr(suit)}: expected one of O, C, E, B")
        suit = SUITS.index(suit.upper())
    if not _is_int(rank) or int(rank) not in _STRENGTH_OF_RANK:
        raise ValueError(f"unknown rank {show_input(rank, quote=isinstance(rank, str))}: expected 1-12")
    if not _is_int(suit) or not 0 <= suit < 4:
        raise ValueError(f"unknown suit {show_input(suit, quote=False)}: expected 0-3")
    return int(suit) * 12 + _STRENGTH_OF_RANK[int(rank)]


def _is_int(x) -> bool:
    """Whether ``x`` is an integer (Python or numpy), not a bool."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def printable(text: str) -> str:
    r"""``text`` with every character that is not printable (control characters such as ESC and BEL,
    line breaks) written as its Python escape, so that input echoed on a terminal cannot drive it.

    Parameters
    ----------
    text : str
        Any text (user input to be echoed).

    Returns
    -------
    str
        ``text`` itself when every character is printable; else a copy with each other character replaced
        by its ``repr`` escape without the quotes (``\x1b``, ``\n``).

    >>> printable("bad\x1b]0;title\x07 line\nend")
    'bad\\x1b]0;title\\x07 line\\nend'
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def show_input(value, limit: int = 40, quote: bool = True) -> str:
    """How a piece of user input appears in an error message: its ``repr`` (``quote``) or its plain
    text, cut after ``limit`` characters with the full length named, so that a 2 MB bad token is not
    echoed whole.

    An int with more digits than ``str`` converts (``sys.get_int_max_str_digits()``, 4,300 by default,
    where ``str`` raises a ValueError that names no field) is described by its size, unquoted:
    ``"a 16610-bit integer"`` (the review of ``solver/position.py``, 2026-12-07: a ``turn`` of
    ``10**5000`` raised Python's own message).

    Parameters
    ----------
    value : object
        The input, shown as ``str(value)``.
    limit : int
        The number of characters shown before the cut (40 by default).
    quote : bool
        ``repr`` of the text (True, the default) or the plain text.

    Returns
    -------
    str
        The text (quoted or not); past ``limit`` characters, its first ``limit`` followed by
        ``"... (<n> characters)"``; for an int too long for ``str``, ``"a [negative ]<n>-bit integer"``.

    >>> show_input("13B"), show_input("9" * 50, limit=3, quote=False)
    ("'13B'", '999... (50 characters)')
    """
    try:
        text = str(value)
    except ValueError:  # (an int past the digit limit)
        return f"a {'negative ' if value < 0 else ''}{value.bit_length()}-bit integer"
    if len(text) <= limit:
        return repr(text) if quote else text
    head = repr(text[:limit]) if quote else text[:limit]
    return f"{head}... ({len(text)} characters)"


def show_int(n: int) -> str:
    """``str(n)`` for an error message, whole; ``"a 16610-bit integer"`` when ``n`` has more digits than
    ``str`` converts (:func:`show_input`; mutation pass 25: ``format_card(10**5000)`` raised Python's own
    "Exceeds the limit" message).

    Parameters
    ----------
    n : int
        Any Python or numpy integer.

    Returns
    -------
    str
        Its decimal digits, uncut, or ``"a [negative ]N-bit integer"``. Raises nothing.

    >>> show_int(-7), show_int(10 ** 5000)
    ('-7', 'a 16610-bit integer')
    """
    return show_input(n, limit=sys.maxsize, quote=False)


def show_repr(value, limit: int = 100) -> str:
    """``repr(value)`` for an error message, as ``{value!r}`` gave it, but cut after ``limit`` characters
    with the full length named (a 1 MB string was echoed whole: break-it pass 32), and an int past
    ``str``'s digit limit described by its size as :func:`show_input` does (its ``repr`` raised Python's
    own "Exceeds the limit (4300 digits)", naming no argument), a container holding one by its type.

    Parameters
    ----------
    value : object
        The bad input to echo.
    limit : int
        Characters of ``repr(value)`` kept (100 by default).

    Returns
    -------
    str
        ``repr(value)`` on one line (its line breaks written ``\\n``, ``\\r``); cut, ``"<first limit
        characters>... (N characters)"``; ``"a 16610-bit integer"``; or ``"a list holding an integer of more
        than 4300 digits"``. Raises what ``repr(value)`` raises
        other than a ValueError.

    >>> show_repr("13B"), show_repr("9" * 50, limit=3), show_repr(10 ** 5000)
    ("'13B'", "'99... (52 characters)", 'a 16610-bit integer')
    """
    try:
        text = repr(value)
    except ValueError:  # (an int past the digit limit, or a list or tuple holding one)
        if isinstance(value, int):
            return show_input(value)
        return f"a {type(value).__name__} holding an integer of more than {sys.get_int_max_str_digits()} digits"
    # one line: a multi-line repr (a pandas Series, a 2-D array) made a message of several lines (break-it
    # pass 37: find_puzzles(rules=pd.Series(...)), sim.simulate's too)
    text = text.replace("\r", "\\r").replace("\n", "\\n")
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"


def cut_long_words(text: str, longest: int = 1000, keep: int = 100) -> str:
    """``text`` with every run of more than ``longest`` non-blank characters cut after ``keep`` of them, the
    run's full length named: the last guard of an error line, so that a file name of 100 KB given to
    ``brisca solve --file`` or ``--out`` is not echoed whole (break-it pass 32; the messages of
    :func:`show_input` and :func:`show_repr` cut shorter already). Shorter runs are left as they are.

    Parameters
    ----------
    text : str
        A message.
    longest : int
        The longest run of non-blank characters left whole (1,000; argparse's errors pass 200).
    keep : int
        Characters kept of a longer run (100; argparse's errors 60), followed by ``... (N characters)``;
        a colon ending the run is kept after it.

    Returns
    -------
    str
        ``text`` itself when it is at most ``longest`` characters long.

    >>> cut_long_words("cannot write " + "x" * 2000 + ": File name too long", keep=3)
    'cannot write xxx... (2000 characters): File name too long'
    """
    if len(text) <= longest:
        return text

    def cut(m):
        run = m.group()
        end = ":" if run.endswith(":") else ""  # (the message's own colon after a name: kept)
        return f"{run[:keep]}... ({len(run) - len(end)} characters){end}"
    return re.sub(r"\S{%d,}" % (longest + 1), cut, text)


def parse_card(text: str, deck: str | None = None) -> int:
    """Card id of a card string such as ``"1O"`` or ``"12b"`` (NOTATION.md, case-insensitive).

    Parameters
    ----------
    text : str
        ``<rank><suit>``, rank 1-12, suit O, C, E or B.
    deck : str, optional
        When given, the card must belong to this deck (RULES R1).

    Returns
    -------
    int
        Card id 0..47 (``suit * 12 + strength``, R2).

    Raises
    ------
    ValueError
        If ``text`` is not a string of a card, or not a card of ``deck``, or ``deck`` is not a deck name
        (R1; a bad deck raised ``KeyError`` and a non-string ``AttributeError``: docstring audit of
        2026-12-06).

    Examples
    --------
    >>> parse_card("1O"), CARD_NAMES[parse_card("12b")]
    (11, '12B')
    """
    if not isinstance(text, str):
        raise ValueError(f"invalid card: expected a string such as 1O or 12B, got {type(text).__name__}")
    if deck is not None and (not isinstance(deck, str) or deck not in _DECK_IDSET):
        raise ValueError(f"unknown deck {show_input(deck)}: expected one of {', '.join(DECKS)}")
    t = text.strip().upper()
    cid = _NAME_TO_ID.get(t)
    if cid is None:
        raise ValueError(f"invalid card {show_input(text)}: expected <rank 1-12><suit O|C|E|B>, e.g. 1O or 12B")
    if deck is not None and cid not in _DECK_IDSET[deck]:
        raise ValueError(f"card {t} is not in deck {deck}")
    return cid


def format_card(cid: int) -> str:
    """Card string of card id ``cid`` (0..47: suit * 12 + strength, RULES R2), or ``"swap"`` for
    :data:`SWAP` (48).

    Parameters
    ----------
    cid : int
        A card id (Python or numpy integer, not a bool).

    Returns
    -------
    str
        The card's name from :data:`CARD_NAMES` (``"1O"``, ``"12B"``), or ``"swap"``.

    Raises
    ------
    ValueError
        ``"card id <cid> is not a card id (0-47, or 48 for swap)"`` for any other integer (a negative
        id, such as the kernels' -1 for "no card", once read :data:`CARD_NAMES` from its end: ``"1B"``);
        ``"card id <repr> is not a card id (an integer 0-47, or 48 for swap)"`` for a bool, a float or
        any other non-integer.
    """
    if not _is_int(cid):  # (a bool gave "4O", a float, str or None a TypeError: break-it pass 22)
        raise ValueError(f"card id {show_repr(cid)} is not a card id (an integer 0-47, or 48 for swap)")
    if cid == SWAP:
        return "swap"
    if not 0 <= cid < SWAP:
        raise ValueError(f"card id {show_int(cid)} is not a card id (0-47, or 48 for swap)")
    return CARD_NAMES[cid]


def mask_of(cards) -> int:
    """Bitmask (Python int, fits int64 for ids 0..47) of an iterable of card ids (bit ``c`` for card ``c``).

    Parameters
    ----------
    cards : iterable of int
        Card ids 0-47 (:data:`CARD_NAMES`; Python or numpy integers, a 1-D array, a set, a generator);
        a repeated id counts once.

    Returns
    -------
    int
        The set as a bitmask (the card sets of :mod:`sim.view` and the kernels, as int64).

    Raises
    ------
    ValueError
        For an id outside 0-47 (``"card id -1 is not in 0-47"``; a negative id raised Python's
        ``"negative shift count"`` and an id above 47 set a bit no deck has), an id that is not an integer
        (a bool, a float, a card name: ``mask_of([1.9])`` was bit 1), or ``cards`` a string or not
        iterable (``mask_of("12")`` read the digits; break-it pass 23).
    """
    if (isinstance(cards, (str, bytes, bytearray, memoryview)) or not hasattr(cards, "__iter__")
            or (isinstance(cards, np.ndarray) and cards.ndim == 0)):  # (break-it pass 25: a bytearray's bytes)
        raise ValueError(f"cards: expected an iterable of card ids, got {show_input(cards, quote=isinstance(cards, str))}")
    m = 0
    for c in cards:
        if not _is_int(c):
            raise ValueError(f"card id: expected an integer 0-47, got {show_input(c, quote=isinstance(c, (str, bytes)))}")
        i = int(c)
        if not 0 <= i < N_IDS:
            raise ValueError(f"card id {show_int(i)} is not in 0-47")
        m |= 1 << i
    return m


def cards_of(mask: int) -> list[int]:
    """Card ids in bitmask ``mask``, ascending (weakest first inside each suit).

    Parameters
    ----------
    mask : int
        A card set: bit ``c`` for card id ``c`` (Python int or int64, as :func:`mask_of` makes); bits
        past 47 are ignored.

    Returns
    -------
    list of int
        The card ids 0..47 set in ``mask``.
    """
    mask = int(mask)
    return [i for i in range(N_IDS) if mask >> i & 1]


def deck_cards(deck: str) -> list[int]:
    """Card ids of a full deck (RULES R1), ascending.

    Parameters
    ----------
    deck : str
        ``spanish40``, ``catalan48`` or ``rapida20`` (:data:`DECKS`).

    Returns
    -------
    list of int
        A new list of the deck's card ids (40, 48 or 20 of them), before any R3 removal
        (:attr:`sim.rules.Rules.deck_cards` makes it).

    Raises
    ------
    ValueError
        For an unknown deck name (anything not a string too: a list raised ``TypeError: unhashable``,
        mutation pass 20).
    """
    if not isinstance(deck, str) or deck not in DECK_RANKS:
        raise ValueError(f"unknown deck {show_repr(deck)}: expected one of {', '.join(DECKS)}")
    return list(_DECK_IDS[deck])
