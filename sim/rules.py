"""The ``Rules`` config and the jitted rule kernels (RULES R1-R9).

``Rules`` is validated in Python and packed into a small ``int64`` array
(:meth:`Rules.to_array`, layout ``P_*``) that the kernels read. The kernels
trust their input and never allocate.

Card sets are ``int64`` bitmasks over the card ids of :mod:`sim.cards`.
"""
from __future__ import annotations

from dataclasses import dataclass, asdict
from functools import lru_cache

import numpy as np
from numba import njit

from .cards import DECKS, card_id, deck_cards, mask_of, show_repr
from .checks import check_int

# --- variant codes --------------------------------------------------------
EXCHANGES = ("none", "seven", "seven-two", "two-any")  # RULES R7
EXCHANGE_CONDITIONS = ("any", "won-trick")  # RULES R7
ENDGAMES = ("free", "follow", "arrastre")  # RULES R9
REMOVES = ("2B", "trump2", "all2s")  # RULES R3, three players
TIES = ("draw", "replay")  # RULES R8
# the indices of the names above, as the rules array holds them (module-level ints: numba
# compiles them as constants)
EX_NONE, EX_SEVEN, EX_SEVEN_TWO, EX_TWO_ANY = range(4)
END_FREE, END_FOLLOW, END_ARRASTRE = range(3)
RM_2B, RM_TRUMP2, RM_ALL2S = range(3)

# --- layout of the rules array (int64) -----------------------------------
P_PLAYERS = 0      # 2, 3, 4, 6
P_SIDES = 1        # 2, or 3 for three players (side of seat s = s % P_SIDES)
P_DECK = 2         # index in sim.cards.DECKS
P_DECK_MASK = 3    # bitmask of the cards in play (R3 removals applied; trump2: all 40)
P_NCARDS = 4       # cards in play
P_TRICKS = 5       # tricks a deal
P_EXCHANGE = 6     # EX_*
P_EX_WON = 7       # 1: exchange only after the side won a trick (R7 won-trick)
P_ENDGAME = 8      # END_*
P_REMOVE = 9       # RM_* (three players)
P_HAND = 10        # cards dealt to each seat (3)
P_TIE = 11         # 0 draw, 1 replay (R8; matters for match play only)
P_SIZE = 12

# player count -> default deck (RULES R3)
_DEFAULT_DECK = {2: "spanish40", 3: "spanish40", 4: "spanish40", 6: "catalan48"}
# (players, deck) -> allowed (RULES R3)
_ALLOWED = {
    (2, "spanish40"), (3, "spanish40"), (4, "spanish40"), (6, "catalan48"),
    (2, "catalan48"), (3, "catalan48"), (4, "catalan48"), (6, "spanish40"),
    (2, "rapida20"), (4, "rapida20"),
}


@lru_cache(maxsize=None)
def _removed_cards(players: int, deck: str, remove: str) -> tuple[int, ...]:
    """:attr:`Rules.removed_cards` (R3), computed once a game (a position's parse reads it)."""
    if players == 3 and deck == "spanish40":
        if remove == "2B":
            return (card_id(2, "B"),)
        if remove == "all2s":
            return tuple(card_id(2, s) for s in range(4))
        return ()
    if players == 6 and deck == "spanish40":
        return tuple(card_id(2, s) for s in range(4))
    return ()


@lru_cache(maxsize=None)
def _deck_in_play(players: int, deck: str, remove: str) -> tuple[int, ...]:
    """:attr:`Rules.deck_cards` (R1, R3), computed once a game."""
    rm = set(_removed_cards(players, deck, remove))
    return tuple(c for c in deck_cards(deck) if c not in rm)


@dataclass(frozen=True)
class Rules:
    """One rule set of RULES.md, validated on construction.

    Parameters
    ----------
    players : int
        2, 3, 4 or 6 (RULES R3). Sides: 2 and 3 players play every seat for
        itself; 4 and 6 players play two teams, seats of equal parity together.
    deck : str, optional
        ``spanish40``, ``catalan48`` or ``rapida20`` (R1); default per R3.
    exchange : str
        ``none``, ``seven``, ``seven-two`` (default) or ``two-any`` (R7).
    exchange_condition : str
        ``any`` (default) or ``won-trick`` (R7).
    endgame : str
        ``free`` (default), ``follow`` or ``arrastre`` (R9).
    remove : str or None
        Three players with ``spanish40`` only: ``2B`` (default), ``trump2`` or ``all2s`` (R3). None (the
        default) is ``2B`` in that game and stays None in the others, where R3 removes by the table (6
        players on ``spanish40``: the four 2s) or nothing; a ``remove`` given for them is refused, as
        ``brisca simulate --remove`` and a position's ``remove=`` are (break-it pass 20:
        ``Rules(players=3, deck="catalan48", remove="2B")`` was taken and removed nothing).
    tie : str
        ``draw`` (default) or ``replay`` (R8, match play).

    Raises
    ------
    ValueError
        For an unknown value or a combination R3 refuses (for example
        ``Rules(players=6, deck="rapida20")``).

    Examples
    --------
    >>> Rules(players=4).tricks
    10
    """

    players: int = 2
    deck: str | None = None
    exchange: str = "seven-two"
    exchange_condition: str = "any"
    endgame: str = "free"
    remove: str | None = None
    tie: str = "draw"

    def __post_init__(self):
        if isinstance(self.players, bool) or not isinstance(self.players, (int, np.integer)):
            raise ValueError(f"players must be an integer, got {show_repr(self.players)}")
        if self.players not in (2, 3, 4, 6):
            raise ValueError(f"players must be 2, 3, 4 or 6 (RULES R3), got {show_repr(self.players)}"
                             + ("; five players play Brisca Subastada (R12), not supported yet" if self.players == 5 else ""))
        object.__setattr__(self, "players", int(self.players))
        if self.deck is None:
            object.__setattr__(self, "deck", _DEFAULT_DECK[self.players])
        # the names as plain str (numpy's str_ too); anything else refused by name (break-it pass 40: a 0-d
        # array, np.array("none"), passed ``in`` by numpy's elementwise ==: deck= and remove= raised "unhashable
        # type: 'numpy.ndarray'", exchange= was kept as an array, and the Rules could not be hashed)
        for name in ("deck", "exchange", "exchange_condition", "endgame", "remove", "tie"):
            value = getattr(self, name)
            if isinstance(value, str) and type(value) is not str:
                object.__setattr__(self, name, str(value))
        if not isinstance(self.deck, str) or self.deck not in DECKS:
            raise ValueError(f"unknown deck {show_repr(self.deck)}: expected one of {', '.join(DECKS)}")
        if (self.players, self.deck) not in _ALLOWED:
            raise ValueError(f"deck {self.deck} cannot be played by {self.players} players (RULES R3)")
        for name, value, allowed in (("exchange", self.exchange, EXCHANGES),
                                     ("exchange_condition", self.exchange_condition, EXCHANGE_CONDITIONS),
                                     ("endgame", self.endgame, ENDGAMES),
                                     ("remove", "2B" if self.remove is None else self.remove, REMOVES),
                                     ("tie", self.tie, TIES)):
            if not isinstance(value, str) or value not in allowed:
                raise ValueError(f"unknown {name} {show_repr(value)}: expected one of {', '.join(allowed)}")
        if self.remove is not None and self.players != 3:
            raise ValueError(f"remove={self.remove} applies to 3 players only (RULES R3)")
        if self.remove is not None and self.deck != "spanish40":
            raise ValueError(f"remove={self.remove} applies to the spanish40 deck only (RULES R3)")
        if self.remove is None and self.players == 3 and self.deck == "spanish40":
            object.__setattr__(self, "remove", "2B")
        if self.ncards % self.players:
            raise ValueError("internal: cards do not divide among the seats")

    # -- derived facts (RULES R3) --------------------------------------
    @property
    def sides(self) -> int:
        """Number of sides: 3 for three players, else 2 (RULES R3).

        Returns
        -------
        int
            3 or 2.
        """
        return 3 if self.players == 3 else 2

    @property
    def teams(self) -> bool:
        """True for 4 and 6 players (seats of equal parity are partners, R3).

        Returns
        -------
        bool
            Whether ``players`` is 4 or 6.
        """
        return self.players in (4, 6)

    def side_of(self, seat: int) -> int:
        """Side of ``seat``: ``seat % sides`` (R3).

        Parameters
        ----------
        seat : int
            A seat, 0 to ``players - 1`` (Python or numpy integer; a bool is refused).

        Returns
        -------
        int
            The side, 0 to ``sides - 1``.

        Raises
        ------
        ValueError
            If ``seat`` is not an integer 0 to ``players - 1`` (``side_of(5)`` of 2 players was 1, as
            ``Position.side_of``'s was before break-it pass 19).
        """
        return check_int(seat, "seat", 0, self.players, expected=f"a seat 0-{self.players - 1}") % self.sides

    def side_seats(self, side: int) -> tuple[int, ...]:
        """Seats of ``side``, ascending (R3).

        Parameters
        ----------
        side : int
            A side, 0 to ``sides - 1``.

        Returns
        -------
        tuple of int
            The seats ``s`` with ``s % sides == side``: one seat with 2 or 3 players, every other seat
            with 4 and 6 (``Rules(players=4).side_seats(1) == (1, 3)``).

        Raises
        ------
        ValueError
            If ``side`` is not an integer 0 to ``sides - 1`` (it returned an empty tuple).
        """
        side = check_int(side, "side", 0, self.sides, expected=f"a side 0-{self.sides - 1}")
        return tuple(s for s in range(self.players) if s % self.sides == side)

    @property
    def removed_cards(self) -> tuple[int, ...]:
        """Card ids R3 removes before the deal, ascending (``trump2``: decided per deal, so empty here).

        Returns
        -------
        tuple of int
            Card ids (0-47); empty when nothing is removed.
        """
        return _removed_cards(self.players, self.deck, self.remove)

    @property
    def deck_cards(self) -> tuple[int, ...]:
        """Card ids shuffled for a deal, ascending: the deck (R1) less :attr:`removed_cards` (R3;
        ``trump2``: all 40, one 2 is set aside per deal).

        Returns
        -------
        tuple of int
            Card ids (0-47).
        """
        return _deck_in_play(self.players, self.deck, self.remove)

    @property
    def exchange_possible(self) -> bool:
        """Whether an R7 exchange can ever be made in this game: ``exchange`` names a rule whose card is
        in the deck in play (the 7 of trumps for ``seven``/``seven-two``, the 2 for ``seven-two``/``two-any``;
        R1: ``rapida20`` has neither; R3: 6 players on ``spanish40`` and ``remove=all2s`` take the 2s out,
        ``remove=trump2`` the 2 of trumps, disabling the 2-exchange).

        Returns
        -------
        bool
            Whether some exchange card of ``exchange`` is in :attr:`deck_cards` (a 7 for ``seven`` and
            ``seven-two``, a 2 for ``seven-two`` and ``two-any``); under ``remove=trump2`` the 2s never count,
            though all four are in :attr:`deck_cards`.
        """
        cards = set(self.deck_cards)
        sevens = any(card_id(7, s) in cards for s in range(4))
        twos = any(card_id(2, s) in cards for s in range(4)) and self.remove != "trump2"  # (3p spanish40 only)
        return (self.exchange in ("seven", "seven-two") and sevens) or (self.exchange in ("seven-two", "two-any") and twos)

    @property
    def ncards(self) -> int:
        """Cards in play in a deal (R1, R3: :attr:`deck_cards`; ``trump2``: 39).

        Returns
        -------
        int
            ``len(deck_cards)``, less one for 3 players with ``remove=trump2``.
        """
        n = len(self.deck_cards)
        return n - 1 if self.players == 3 and self.remove == "trump2" else n

    @property
    def tricks(self) -> int:
        """Tricks in a deal (R3).

        Returns
        -------
        int
            ``ncards // players``.
        """
        return self.ncards // self.players

    @property
    def stock_size(self) -> int:
        """Face-down stock after the deal, pinta excluded (R3).

        Returns
        -------
        int
            ``ncards - 3 * players - 1`` (cards).
        """
        return self.ncards - 3 * self.players - 1

    def to_array(self) -> np.ndarray:
        """The rules as an array for the kernels (layout ``P_*``).

        Returns
        -------
        ndarray(int64, shape=(P_SIZE,))
            A new array: the option indices (``DECKS``, ``EXCHANGES``, ...; ``remove`` None as ``2B``'s
            index, 0), the derived counts and the deck's card mask (:func:`sim.cards.mask_of`);
            :meth:`from_array` reads it back.
        """
        a = np.zeros(P_SIZE, dtype=np.int64)
        a[P_PLAYERS] = self.players
        a[P_SIDES] = self.sides
        a[P_DECK] = DECKS.index(self.deck)
        a[P_DECK_MASK] = mask_of(self.deck_cards)
        a[P_NCARDS] = self.ncards
        a[P_TRICKS] = self.tricks
        a[P_EXCHANGE] = EXCHANGES.index(self.exchange)
        a[P_EX_WON] = EXCHANGE_CONDITIONS.index(self.exchange_condition)
        a[P_ENDGAME] = ENDGAMES.index(self.endgame)
        a[P_REMOVE] = REMOVES.index(self.remove or "2B")  # (the kernels' spelling of "no variant": 0)
        a[P_HAND] = 3
        a[P_TIE] = TIES.index(self.tie)
        return a

    @classmethod
    def from_array(cls, a) -> "Rules":
        """The rules of a :meth:`to_array` array read back (``Rules.from_array(r.to_array()) == r``).

        Parameters
        ----------
        a : ndarray(int64, shape=(P_SIZE,))
            Layout ``P_*``; the derived fields (sides, deck mask, counts) are not read.

        Returns
        -------
        Rules

        Raises
        ------
        ValueError
            ``"rules: expected a sim.rules.Rules or its to_array() (int64, shape (P_SIZE,)), got ..."``,
            ``"rules: <field> index k at position i of the array is out of range (0-m)"``, or
            :class:`Rules`' own errors (RULES R1, R3, R7-R9) for a combination it refuses.
        """
        given = type(a).__name__
        a = np.asarray(a)
        if a.shape != (P_SIZE,) or a.dtype.kind not in "iu":
            # (mutation pass 16: a shorter array raised a bare IndexError; solver.selfplay's message, whose
            # check this was)
            raise ValueError(f"rules: expected a sim.rules.Rules or its to_array() (int64, shape ({P_SIZE},)), "
                             f"got {given} of shape {a.shape}, dtype {a.dtype}")
        fields = {}
        for i, names, what in ((P_DECK, DECKS, "deck"), (P_EXCHANGE, EXCHANGES, "exchange"),
                               (P_EX_WON, EXCHANGE_CONDITIONS, "exchange_condition"),
                               (P_ENDGAME, ENDGAMES, "endgame"), (P_REMOVE, REMOVES, "remove"), (P_TIE, TIES, "tie")):
            k = int(a[i])
            if not 0 <= k < len(names):
                raise ValueError(f"rules: {what} index {k} at position {i} of the array is out of range "
                                 f"(0-{len(names) - 1})")
            fields[what] = names[k]
        if fields["remove"] == "2B":  # (to_array's "no variant", every game's: None, the default)
            fields["remove"] = None
        return cls(players=int(a[P_PLAYERS]), **fields)

    def to_dict(self) -> dict:
        """Plain dict of the fields (JSON-able); ``remove`` is None except with 3 players and ``spanish40``,
        the only game it applies to (R3: 6 players with ``spanish40`` remove the four 2s whatever it says;
        break-it pass of 2026-12-05: the metadata said ``"2B"`` for every game). ``Rules(**d)`` gives the
        same rules back.

        Returns
        -------
        dict
            ``dataclasses.asdict`` of the rules: field name to value (``players`` an int, the others str,
            ``remove`` str or None).
        """
        return asdict(self)


# ======================================================================
# Kernels. Card ids: suit * 12 + strength (sim.cards).
# ======================================================================

@njit(cache=True, inline="always", error_model="numpy")
def suit_of(c):
    """Suit 0..3 of card id ``c >= 0`` (``c // 12``, :mod:`sim.cards` layout, RULES R1): int64.

    Divides unsigned: a signed floor division costs a rounding fix-up for negative numbers
    (measured in the solver: 3-4% of a full deal's solve time with :func:`strength_of`,
    results/README.md). A negative ``c`` gives a number that is no suit.

    Parameters
    ----------
    c : int
        Card id (0..47).

    Returns
    -------
    int64
        ``c // 12``.
    """
    return np.int64(np.uint64(c) // np.uint64(12))


@njit(cache=True, inline="always", error_model="numpy")
def strength_of(c):
    """Strength 0..11 of card id ``c >= 0`` inside its suit (``c % 12``, weakest first, RULES R2):
    int64, divided unsigned as :func:`suit_of`.

    Parameters
    ----------
    c : int
        Card id (0..47).

    Returns
    -------
    int64
        ``c % 12``.
    """
    return np.int64(np.uint64(c) % np.uint64(12))


@njit(cache=True, inline="always", error_model="numpy")
def suit_mask(s):
    """Bitmask of every id of suit ``s`` (int64): its 12 strengths, whether or not the deck has them (R1).

    Parameters
    ----------
    s : int
        Suit 0..3.

    Returns
    -------
    int64
        ``0xFFF << (12 * s)``.
    """
    return np.int64(0xFFF) << np.int64(12 * s)


@njit(cache=True, inline="always", error_model="numpy")
def above_mask(c):
    """Bitmask of the ids of ``c``'s suit stronger than ``c`` (RULES R2).

    Parameters
    ----------
    c : int
        Card id (0..47).

    Returns
    -------
    int64
        Bits ``c + 1`` up to the suit's last id (``12 * (c // 12) + 11``); 0 for strength 11. The deck is
        not consulted: ids the deck lacks are included.
    """
    top = np.int64(0xFFF) << np.int64(12 * (c // 12))
    return top & ~((np.int64(2) << np.int64(c)) - np.int64(1))


@njit(cache=True, error_model="numpy")
def trick_winner(cards, n, trump):
    """Index (0..n-1, play order) of the card that wins a trick (RULES R5).

    Parameters
    ----------
    cards : ndarray(int8 or int64, shape=(>= n,))
        Card ids in play order, leader first.
    n : int
        Cards in the trick.
    trump : int
        Trump suit 0..3.

    Returns
    -------
    int
        Index in ``cards`` of the winning card: the highest trump if any trump
        was played, else the highest card of the suit led; strength by id order
        inside a suit (R2).
    """
    return trick_winner_at(cards, 0, n, trump)


@njit(cache=True, inline="always", error_model="numpy")
def trick_winner_at(cards, off, n, trump):
    """:func:`trick_winner` of ``cards[off:off + n]`` (no slice: hot loops).

    Parameters
    ----------
    cards : ndarray(int8 or int64, shape=(>= off + n,))
        Card ids; the trick, leader first, at ``off``.
    off : int
        Index of the trick's first card in ``cards``.
    n : int
        Cards in the trick (>= 1).
    trump : int
        Trump suit 0..3.

    Returns
    -------
    int
        Index (0..n-1, relative to ``off``) of the winning card (R5).
    """
    best = 0
    bc = np.int64(cards[off])
    for i in range(1, n):
        c = np.int64(cards[off + i])
        if beats(c, bc, trump):
            best = i
            bc = c
    return best


@njit(cache=True, inline="always", error_model="numpy")
def beats(c, win, trump):
    """Whether card ``c`` played now beats ``win``, the card winning the trick (RULES R5).

    ``c`` is a card id (>= 0); ``win`` may be negative for "no card yet", which only a trump beats
    (:func:`suit_of` gives a negative id no suit).

    True when ``c`` is of ``win``'s suit and stronger (R2), or a trump played
    on a non-trump. Branch-free (random play would mispredict branches).

    Parameters
    ----------
    c : int
        The card played (id >= 0).
    win : int
        The card winning the trick so far, or a negative number for none.
    trump : int
        Trump suit 0..3.

    Returns
    -------
    bool
        Whether ``c`` takes the trick from ``win``.
    """
    sc = suit_of(c)
    sw = suit_of(win)  # (win < 0: no suit, never equal to c's nor to trump)
    return ((sc == sw) & (c > win)) | ((sc == trump) & (sw != trump))


@njit(cache=True, error_model="numpy")
def legal_mask(hand, trick, n, trump, endgame, stock_empty):
    """Bitmask of the cards of ``hand`` that may be played (RULES R5, R9).

    Parameters
    ----------
    hand : int64
        Bitmask of the seat's cards.
    trick : ndarray(int8 or int64, shape=(>= n,))
        Cards already in the trick, leader first; ``n`` of them.
    n : int
        Cards already played to the trick (0: the seat leads).
    trump : int
        Trump suit 0..3.
    endgame : int
        ``END_FREE``, ``END_FOLLOW`` or ``END_ARRASTRE`` (R9); applies only
        when ``stock_empty``.
    stock_empty : bool
        True once the last card was drawn (R9).

    Returns
    -------
    int64
        Non-empty subset of ``hand`` when ``hand`` is non-empty.
    """
    return legal_mask_at(hand, trick, 0, n, trump, endgame, stock_empty)


@njit(cache=True, inline="always", error_model="numpy")
def legal_mask_at(hand, trick, off, n, trump, endgame, stock_empty):
    """:func:`legal_mask` with the trick at ``trick[off:off + n]`` (no slice: hot loops).

    Parameters
    ----------
    hand : int64
        Bitmask of the seat's cards.
    trick : ndarray(int8 or int64, shape=(>= off + n,))
        Card ids; the trick, leader first, at ``off``.
    off : int
        Index of the trick's first card in ``trick``.
    n, trump, endgame, stock_empty
        As :func:`legal_mask`.

    Returns
    -------
    int64
        ``hand`` itself when the seat leads, the endgame is ``END_FREE`` or the stock is not empty;
        otherwise the R9 obligations (:func:`legal_follow`).
    """
    if n == 0 or endgame == END_FREE or not stock_empty:
        return hand
    w = trick_winner_at(trick, off, n, trump)
    return legal_follow(hand, np.int64(trick[off]) // 12, np.int64(trick[off + w]), trump, endgame)


@njit(cache=True, inline="always", error_model="numpy")
def legal_follow(hand, led, win, trump, endgame):
    """Legal cards of a seat following once the stock is exhausted (RULES R9).

    Parameters
    ----------
    hand : int64
        Bitmask of the seat's cards.
    led : int
        Suit led.
    win : int
        Card id now winning the trick (R5). It is the best card of the suit
        led unless the trick was trumped, and then the best trump.
    trump : int
        Trump suit.
    endgame : int
        ``END_FREE`` (any card), ``END_FOLLOW`` or ``END_ARRASTRE``.

    Returns
    -------
    int64
        Subset of ``hand``.
    """
    if endgame == END_FREE:
        return hand
    inled = hand & suit_mask(led)
    if endgame == END_FOLLOW:  # a seat holding the suit led must play it
        return inled if inled != 0 else hand
    # END_ARRASTRE: follow and beat when possible, unless trumped; void: trump, overtrump when possible
    trumped = led != trump and win // 12 == trump
    if inled != 0:
        if trumped:
            return inled
        higher = inled & above_mask(win)
        return higher if higher != 0 else inled
    tm = hand & suit_mask(trump)
    if tm == 0:
        return hand
    if trumped:
        over = tm & above_mask(win)
        return over if over != 0 else hand
    return tm


@njit(cache=True, inline="always", error_model="numpy")
def exchange_card(hand, pinta, left_to_draw, exchange, side_won, ex_won):
    """Card the seat may give up for the pinta now, or -1 (RULES R7).

    Parameters
    ----------
    hand : int64
        Bitmask of the seat's cards.
    pinta : int
        Card id of the pinta still under the stock, or -1 (no exchange).
    left_to_draw : int
        Cards still to draw, the pinta included; an exchange needs at least
        one face-down card besides the pinta (``left_to_draw >= 2``).
    exchange : int
        ``EX_*`` code. Under ``remove=trump2`` (R3: no 2-exchange) the caller
        passes ``seven-two`` as ``EX_SEVEN`` and ``two-any`` as ``EX_NONE``
        (:func:`sim.engine.play_deal`).
    side_won : bool
        Whether the seat's side has won a trick this deal.
    ex_won : int
        1 under the ``won-trick`` condition (``P_EX_WON``), else 0.

    Returns
    -------
    int
        Card id of the 7 or the 2 of trumps (never both can be eligible at
        once: the 7 needs a pinta stronger than the 7, the 2 under
        ``seven-two`` a pinta 4-7), else -1.
    """
    if exchange == EX_NONE or pinta < 0 or left_to_draw < 2:
        return -1
    if ex_won != 0 and not side_won:
        return -1
    t = pinta // 12
    base = t * 12
    if exchange == EX_SEVEN or exchange == EX_SEVEN_TWO:
        seven = base + 4  # strength index of rank 7
        if (hand >> seven) & 1 and pinta > seven:
            return seven
    two = base  # strength index 0 is rank 2
    if exchange == EX_SEVEN_TWO:  # the 2 for a pinta 4, 5, 6 or 7
        ps = pinta - base  # 1..4 are ranks 4, 5, 6, 7
        if (hand >> two) & 1 and 1 <= ps <= 4:
            return two
    elif exchange == EX_TWO_ANY:  # the 2 for any pinta
        if (hand >> two) & 1:
            return two
    return -1


@njit(cache=True, error_model="numpy")
def deal_winner(side_points, n_sides):
    """Winning side of a finished deal, or -1 for a draw (RULES R8).

    Parameters
    ----------
    side_points : ndarray(int, shape=(>= n_sides,))
        Card points per side, summing to 120.
    n_sides : int
        2 or 3.

    Returns
    -------
    int
        The winning side (0 .. n_sides-1), or -1 for a draw (equal highest totals below 61, 60-60
        included); see :func:`deal_winner3`.
    """
    return deal_winner3(side_points[0], side_points[1], side_points[2] if n_sides == 3 else 0, n_sides)


@njit(cache=True, inline="always", error_model="numpy")
def deal_winner3(p0, p1, p2, n_sides):
    """:func:`deal_winner` of side points ``p0, p1`` (and ``p2`` when ``n_sides == 3``).

    R8: a side with 61 or more wins; otherwise (three players) the highest
    total wins; equal highest totals draw (-1), 60-60 included.

    Parameters
    ----------
    p0, p1, p2 : int
        Card points of sides 0, 1 and 2 (``p2`` is read only when ``n_sides == 3``).
    n_sides : int
        2 or 3.

    Returns
    -------
    int
        The winning side (0 .. n_sides-1), or -1 for a draw.
    """
    best = 0 if p0 >= p1 else 1
    bp = p0 if p0 >= p1 else p1
    if n_sides == 3 and p2 > bp:
        best = 2
        bp = p2
    if bp >= 61:
        return best
    tie = (best != 0 and p0 == bp) or (best != 1 and p1 == bp) or (n_sides == 3 and best != 2 and p2 == bp)
    return -1 if tie else best
