"""A plain-Python oracle of RULES.md R1-R9 for checking the jitted engine.

It shares no code with ``sim`` (it imports nothing from it) and is written
straight from the rule text, in a different style from the engine: cards are
``Card(rank, suit)`` tuples, hands are Python sets, and every rule is a small
readable function. The tests feed it the engine's shuffles and recorded moves
(:func:`replay`) and compare.

The only engine fact it knows is the documented card-id layout
(:func:`from_engine_id`): ``id = suit * 12 + strength`` with suits ``O C E B``
and strength 0..11 weakest first (sim/cards.py docstring). The tests check
that layout against ``sim.cards`` separately.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

# ----------------------------------------------------------------- R1, R2
SUITS = ("O", "C", "E", "B")
#: R2: ranks in trick strength, highest first.
STRENGTH_HIGH_FIRST = (1, 3, 12, 11, 10, 9, 8, 7, 6, 5, 4, 2)
#: R2: card points by rank; every other rank 0.
RANK_POINTS = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}
#: R1: the ranks of each deck.
DECK_RANKS = {
    "spanish40": (1, 2, 3, 4, 5, 6, 7, 10, 11, 12),
    "catalan48": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12),
    "rapida20": (1, 3, 10, 11, 12),
}


class Card(NamedTuple):
    rank: int
    suit: str

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"

    __repr__ = __str__


def card(text: str) -> Card:
    """``Card`` of a card string such as ``"12B"`` (NOTATION.md)."""
    t = text.strip().upper()
    return Card(int(t[:-1]), t[-1])


def strength(c: Card) -> int:
    """Trick strength inside a suit (R2): larger is stronger."""
    return len(STRENGTH_HIGH_FIRST) - STRENGTH_HIGH_FIRST.index(c.rank)


def points(c: Card) -> int:
    """Card points (R2)."""
    return RANK_POINTS.get(c.rank, 0)


def deck(name: str) -> list[Card]:
    """Every card of deck ``name`` (R1)."""
    return [Card(r, s) for s in SUITS for r in DECK_RANKS[name]]


# Documented engine card-id layout (sim/cards.py): suit * 12 + strength, weakest first.
_ENGINE_RANKS_WEAK_FIRST = tuple(reversed(STRENGTH_HIGH_FIRST))


def from_engine_id(cid: int) -> Card:
    """``Card`` of an engine card id (documented layout, see module docstring)."""
    cid = int(cid)
    if not 0 <= cid < 48:
        raise ValueError(f"not a card id: {cid}")
    return Card(_ENGINE_RANKS_WEAK_FIRST[cid % 12], SUITS[cid // 12])


def to_engine_id(c: Card) -> int:
    return SUITS.index(c.suit) * 12 + _ENGINE_RANKS_WEAK_FIRST.index(c.rank)


# ----------------------------------------------------------------- R3
DEFAULT_DECK = {2: "spanish40", 3: "spanish40", 4: "spanish40", 6: "catalan48"}

#: R3, copied from the table and the paragraph under it:
#: (players, deck, remove) -> (cards used, face-down stock without the pinta, tricks).
#: ``remove`` is the three-player variant; ``None`` where it does not apply.
R3_TABLE = {
    (2, "spanish40", None): (40, 33, 20),
    (3, "spanish40", "2B"): (39, 29, 13),
    (4, "spanish40", None): (40, 27, 10),
    (6, "catalan48", None): (48, 29, 8),
    (2, "catalan48", None): (48, 41, 24),
    (3, "catalan48", None): (48, 38, 16),
    (4, "catalan48", None): (48, 35, 12),
    (6, "spanish40", None): (36, 17, 6),
    (2, "rapida20", None): (20, 13, 10),
    (4, "rapida20", None): (20, 7, 5),
    (3, "spanish40", "trump2"): (39, 29, 13),
    (3, "spanish40", "all2s"): (36, 26, 12),
}


def table_allows(players: int, deck_name: str, remove: str | None) -> bool:
    """Whether R3 allows the combination (``remove`` None: the default)."""
    if players == 3 and deck_name == "spanish40" and remove is None:
        remove = "2B"
    return (players, deck_name, remove) in R3_TABLE


def removed_cards(players: int, deck_name: str, remove: str | None) -> list[Card]:
    """Cards R3 removes before the shuffle (``trump2``: none fixed; one per deal)."""
    twos = [Card(2, s) for s in SUITS]
    if players == 3 and deck_name == "spanish40":
        if remove in (None, "2B"):
            return [Card(2, "B")]
        if remove == "all2s":
            return twos
        return []
    if players == 6 and deck_name == "spanish40":
        return twos
    return []


def shuffled_cards(players: int, deck_name: str, remove: str | None) -> list[Card]:
    """Cards that go into the shuffle (R1, R3; ``trump2``: all 40, one 2 set aside per deal)."""
    rm = set(removed_cards(players, deck_name, remove))
    return [c for c in deck(deck_name) if c not in rm]


def side_of(players: int, seat: int) -> int:
    """R3: 2 and 3 players play alone; 4: seats 0+2 vs 1+3; 6: 0+2+4 vs 1+3+5."""
    if players in (2, 3):
        return seat
    return {0: 0, 1: 1, 2: 0, 3: 1, 4: 0, 5: 1}[seat]


def n_sides(players: int) -> int:
    return 3 if players == 3 else 2


# ----------------------------------------------------------------- R5
def trick_winner(cards: list[Card], trump: str) -> int:
    """Index (play order) of the winning card (R5)."""
    led = cards[0].suit
    trumps = [i for i, c in enumerate(cards) if c.suit == trump]
    pool = trumps or [i for i, c in enumerate(cards) if c.suit == led]
    return max(pool, key=lambda i: strength(cards[i]))


def beats(a: Card, b: Card, trump: str) -> bool:
    """Whether ``a`` played after ``b`` takes the lead from it (R5)."""
    if a.suit == b.suit:
        return strength(a) > strength(b)
    return a.suit == trump


# ----------------------------------------------------------------- R9
def legal_cards(hand, trick: list[Card], trump: str, endgame: str, stock_empty: bool) -> set[Card]:
    """Cards of ``hand`` the seat may play (R5 free play; R9 once the stock is exhausted)."""
    hand = set(hand)
    if not trick or not stock_empty or endgame == "free":
        return hand
    led = trick[0].suit
    of_led = {c for c in hand if c.suit == led}
    if endgame == "follow":
        return of_led or hand
    assert endgame == "arrastre", endgame
    winning = trick[trick_winner(trick, trump)]
    trumped = winning.suit == trump and led != trump
    if of_led:
        if trumped:
            return of_led  # any card of the suit led
        top = max((c for c in trick if c.suit == led), key=strength)
        over = {c for c in of_led if strength(c) > strength(top)}
        return over or of_led
    trumps = {c for c in hand if c.suit == trump}
    if not trumps:
        return hand  # void in both
    if trumped:  # a trump is winning the trick: overtrump when it can
        over = {c for c in trumps if strength(c) > strength(winning)}
        return over or hand
    return trumps


# ----------------------------------------------------------------- R7
def exchange_options(hand, pinta: Card | None, facedown: int, exchange: str, condition: str,
                     side_won: bool, remove: str | None = None) -> list[Card]:
    """Cards the seat may give up for the pinta now (R7).

    ``facedown``: face-down cards left in the stock, the pinta excluded.
    ``remove="trump2"`` disables the 2-exchange (R3).
    """
    if pinta is None or facedown < 1 or exchange == "none":
        return []
    if condition == "won-trick" and not side_won:
        return []
    trump = pinta.suit
    seven, two = Card(7, trump), Card(2, trump)
    out = []
    if exchange in ("seven", "seven-two") and seven in hand and strength(pinta) > strength(seven):
        out.append(seven)
    if remove != "trump2" and two in hand:
        if exchange == "two-any" or (exchange == "seven-two" and pinta.rank in (4, 5, 6, 7)):
            out.append(two)
    return out


# ----------------------------------------------------------------- R8
def deal_result(side_points: list[int]) -> tuple[int, bool]:
    """(winning side or -1 for a draw, capote) of a finished deal (R8)."""
    capote = any(p == 120 for p in side_points)
    if len(side_points) == 2:
        a, b = side_points
        if a >= 61:
            return 0, capote
        if b >= 61:
            return 1, capote
        return -1, capote
    winners = [s for s, p in enumerate(side_points) if p >= 61]
    if winners:
        return winners[0], capote
    top = max(side_points)
    best = [s for s, p in enumerate(side_points) if p == top]
    return (best[0] if len(best) == 1 else -1), capote


# ----------------------------------------------------------------- a whole deal
class OracleError(AssertionError):
    """The engine's record disagrees with the rules."""


@dataclass
class OracleRules:
    players: int = 2
    deck: str | None = None
    exchange: str = "seven-two"
    condition: str = "any"
    endgame: str = "free"
    remove: str | None = None

    def __post_init__(self):
        if self.deck is None:
            self.deck = DEFAULT_DECK[self.players]
        if self.players != 3 or self.deck != "spanish40":
            self.remove = None
        elif self.remove is None:
            self.remove = "2B"
        if not table_allows(self.players, self.deck, self.remove):
            raise ValueError(f"R3 refuses players={self.players} deck={self.deck} remove={self.remove}")

    @property
    def counts(self):
        return R3_TABLE[(self.players, self.deck, self.remove)]


@dataclass
class Game:
    """One deal played card by card, from a laid-out shuffle (R4).

    ``order``: the cards in play, the dealt cards first (card ``k`` to seat
    ``k % players``), then the face-down stock top card first, the pinta last.
    """
    rules: OracleRules
    order: list
    removed: Card | None = None
    hands: list = field(init=False)
    stock: list = field(init=False)
    trump: str = field(init=False)

    def __post_init__(self):
        r = self.rules
        n = r.players
        ncards, facedown, ntricks = r.counts
        if len(self.order) != ncards:
            raise OracleError(f"R3: {len(self.order)} cards in play, expected {ncards}")
        if len(set(self.order)) != ncards:
            raise OracleError("R1: a card appears twice in the deal")
        want = set(shuffled_cards(n, r.deck, r.remove))
        got = set(self.order)
        if r.remove == "trump2":
            rm = self.removed
            if rm is None or rm.rank != 2 or rm in got or got | {rm} != want:
                raise OracleError(f"R3 trump2: set-aside card {rm} and deal {sorted(got)} do not make the deck")
            # rm is the 2 of trumps, or (when the first turned card was a 2) the 2 of
            # another suit: it is then set aside and the next card turned is the pinta.
        elif got != want:
            raise OracleError(f"R1/R3: cards in play differ: missing {want - got}, extra {got - want}")
        self.ntricks = ntricks
        self.hands = [set() for _ in range(n)]
        for k in range(3 * n):  # R4: one at a time from seat 0
            self.hands[k % n].add(self.order[k])
        self.initial_hands = [set(h) for h in self.hands]
        self.stock = list(self.order[3 * n:])  # top first, pinta last (R4)
        if len(self.stock) != facedown + 1:
            raise OracleError("R3: stock size")
        self.pinta0 = self.stock[-1]
        self.trump = self.pinta0.suit  # R4
        self.leader = 0  # R3: seat 0 leads the first trick
        self.trick: list[Card] = []
        self.trick_no = 0
        self.seat_points = [0] * n
        self.seat_tricks = [0] * n
        self.side_won = set()
        self.exchanges: list[tuple[int, Card, int]] = []
        self.pinta_taker = None
        self.pinta_final = None
        self.history: list[tuple[int, int, int, list[Card]]] = []

    # -- state
    @property
    def n(self) -> int:
        return self.rules.players

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.n

    @property
    def pinta(self) -> Card | None:
        return self.stock[-1] if self.stock else None

    @property
    def over(self) -> bool:
        return self.trick_no == self.ntricks

    def legal(self) -> set[Card]:
        return legal_cards(self.hands[self.to_move], self.trick, self.trump, self.rules.endgame, not self.stock)

    def exchange_options(self) -> list[Card]:
        seat = self.to_move
        return exchange_options(self.hands[seat], self.pinta, len(self.stock) - 1, self.rules.exchange,
                                self.rules.condition, side_of(self.n, seat) in self.side_won, self.rules.remove)

    # -- actions
    def exchange(self, give: Card) -> None:
        """R7: the seat to move gives ``give`` (7 or 2 of trumps) for the pinta."""
        seat = self.to_move
        opts = self.exchange_options()
        if give not in opts:
            raise OracleError(f"R7: seat {seat} may not exchange {give} for pinta {self.pinta} "
                              f"(trick {self.trick_no}, hand {sorted(self.hands[seat])}, allowed {opts})")
        if len(self.exchanges) >= 2:
            raise OracleError("R7: a third exchange")
        self.hands[seat].remove(give)
        self.hands[seat].add(self.stock[-1])
        self.stock[-1] = give  # still the last card of the stock
        self.exchanges.append((seat, give, self.trick_no))

    def play(self, c: Card) -> None:
        seat = self.to_move
        if c not in self.hands[seat]:
            raise OracleError(f"seat {seat} plays {c} not in its hand {sorted(self.hands[seat])} (trick {self.trick_no})")
        legal = self.legal()
        if c not in legal:
            raise OracleError(f"R9: seat {seat} plays {c}, legal {sorted(legal)}, trick {self.trick}, "
                              f"trump {self.trump}, endgame {self.rules.endgame} (trick {self.trick_no})")
        self.hands[seat].remove(c)
        self.trick.append(c)
        if len(self.trick) == self.n:
            self._finish_trick()

    def _finish_trick(self) -> None:
        n = self.n
        w = (self.leader + trick_winner(self.trick, self.trump)) % n  # R5
        pts = sum(points(c) for c in self.trick)
        self.seat_points[w] += pts
        self.seat_tricks[w] += 1
        self.side_won.add(side_of(n, w))
        self.history.append((self.leader, w, pts, list(self.trick)))
        if self.stock:  # R6: winner first, then in playing order; the pinta last
            for k in range(n):
                s = (w + k) % n
                if len(self.stock) == 1:
                    self.pinta_taker = s
                    self.pinta_final = self.stock[0]
                self.hands[s].add(self.stock.pop(0))
            if self.stock and len(self.stock) < n:
                raise OracleError("R6: stock does not divide among the seats")
        self.trick = []
        self.trick_no += 1
        self.leader = w  # R5: the winner leads

    # -- results
    def side_points(self) -> list[int]:
        out = [0] * n_sides(self.n)
        for s, p in enumerate(self.seat_points):
            out[side_of(self.n, s)] += p
        return out

    def result(self) -> tuple[int, bool]:
        return deal_result(self.side_points())


def replay(rules: OracleRules, order: list[Card], removed: Card | None, exchanges, tricks,
           must_exchange=(), on_play=None) -> Game:
    """Replay a recorded deal and check every step against the rules.

    Parameters
    ----------
    order : the engine's layout of the deal (see :class:`Game`).
    exchanges : list of (seat, card given, trick number), in the order made.
    tricks : list of (leader, winner seat, points, cards in play order).
    must_exchange : seats whose policy exchanges whenever allowed; checked.
    on_play : optional ``f(game, card)`` called before each card is played (policy checks).

    Raises
    ------
    OracleError
        At the first disagreement.
    """
    g = Game(rules, list(order), removed)
    pending = list(exchanges)
    if len(tricks) != g.ntricks:
        raise OracleError(f"R3: {len(tricks)} tricks recorded, expected {g.ntricks}")
    for t, (leader, winner, pts, cards) in enumerate(tricks):
        if leader != g.leader:
            raise OracleError(f"R5: trick {t} led by seat {leader}, expected {g.leader}")
        if len(cards) != g.n:
            raise OracleError(f"trick {t} has {len(cards)} cards")
        for c in cards:
            seat = g.to_move
            while pending and pending[0][0] == seat and pending[0][2] == t:
                g.exchange(pending.pop(0)[1])  # R7: before the seat plays
            if seat in must_exchange and g.exchange_options():
                raise OracleError(f"R7: seat {seat} could exchange {g.exchange_options()} for {g.pinta} "
                                  f"in trick {t} but the engine did not offer/apply it")
            if not g.legal():
                raise OracleError(f"no legal move for seat {seat} in trick {t}")
            if on_play is not None:
                on_play(g, c)
            g.play(c)
        lw, w, p, _ = g.history[-1]
        if (w, p) != (winner, pts):
            raise OracleError(f"R5: trick {t} {cards} trump {g.trump}: engine says seat {winner} "
                              f"takes {pts}, oracle seat {w} takes {p}")
    if pending:
        raise OracleError(f"R7: exchanges {pending} recorded but never reached in play order")
    if any(g.hands) or g.stock:
        raise OracleError("R6: cards left after the last trick")
    if sum(g.seat_points) != 120:
        raise OracleError(f"R2: points sum to {sum(g.seat_points)}")
    return g


_M64 = 2 ** 64 - 1


def splitmix64(state: int) -> tuple[int, int]:
    """Reference splitmix64 (Steele, Lea, Flood 2014; Vigna's C code): (next state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & _M64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return state, z ^ (z >> 31)
