"""An independent plain-Python reading of NOTATION.md (with RULES.md R1 and R3), written from the
spec and the shared test vectors only, not from solver/position.py.

``read(text)`` returns ``("ok", canonical)`` or ``("err", field)``.

Decisions where the spec leaves a choice (see the test file and the report of notation pass 31):

- Canonical field order: ``players trump hands stock turn trick points`` (the order of every line of
  /work/shared/testdata/solver), then ``played`` when it was given, then the rule fields that differ
  from their default, ``endgame`` last among them as in ``2p-follow.jsonl`` (``deck remove exchange
  endgame``). The spec does not place ``played`` against the rule fields; this follows the project. ``stock``, ``turn``, ``trick`` and ``points`` are always written (the vectors
  write ``trick=`` and ``turn=0``); rule fields equal to their default are left out.
- Cards keep their order in hands, stock and trick; ``played`` is written in deck order (suits
  O, C, E, B, ranks ascending), as in the observation example of NOTATION.md.
- Keys and keyword values are read case-insensitively like cards (NOTATION.md says so for cards
  only); fields are separated by runs of whitespace.
- ``points=`` (empty) means all 0 ("an empty value is allowed where it means 'none'").
- ``points`` per side may not exceed the points in ``played``; without ``played`` in its default,
  the complement (the spec names the check with ``played`` given; the project checks both). The
  sides together may not exceed them either: the spec says "per side", but captured cards are
  disjoint, and the project refuses ``points=100,100`` with 120 points played.
- A pinta taken (in a hand, the trick or played) leaves no face-down card: R4 draws it last (the
  validity list of NOTATION.md does not say so; the project refuses it, rightly by R4/R6).
- Hands hold at most 3 cards (R4 deals 3; the spec's k is 3 while cards remain to be drawn).
"""

from __future__ import annotations

SUITS = "OCEB"
RANKS = {"spanish40": (1, 2, 3, 4, 5, 6, 7, 10, 11, 12),
         "catalan48": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12),
         "rapida20": (1, 3, 10, 11, 12)}
COMBOS = {2: ("spanish40", "catalan48", "rapida20"), 3: ("spanish40", "catalan48"),
          4: ("spanish40", "catalan48", "rapida20"), 6: ("spanish40", "catalan48")}
POINTS = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}
KEYS = ("players", "deck", "remove", "exchange", "endgame", "trump", "hands", "stock", "turn",
        "trick", "points", "played")
EXCHANGES = ("none", "seven", "seven-two", "two-any")
ENDGAMES = ("free", "follow", "arrastre")
REMOVES = ("2B", "trump2", "all2s")


class Bad(Exception):
    def __init__(self, field):
        super().__init__(field)
        self.field = field


def _digits(text):
    return text != "" and all("0" <= ch <= "9" for ch in text)


def card(text, field):
    """(rank, suit) of a card string, any case."""
    t = text.upper()
    if len(t) < 2 or t[-1] not in SUITS or not _digits(t[:-1]) or t[:-1] != str(int(t[:-1])):
        raise Bad(field)
    r = int(t[:-1])
    if not 1 <= r <= 12:
        raise Bad(field)
    return (r, t[-1])


def show(c):
    return f"{c[0]}{c[1]}"


def deck_of(players, deck, remove, trump):
    cards = [(r, s) for s in SUITS for r in RANKS[deck]]
    gone = set()
    if players == 3 and deck == "spanish40":
        gone = {"2B": {(2, "B")}, "trump2": {(2, trump[1])}, "all2s": {(2, s) for s in SUITS}}[remove]
    if players == 6 and deck == "spanish40":
        gone = {(2, s) for s in SUITS}
    return [c for c in cards if c not in gone]


def card_list(text, field, deck, unknown=False):
    """Cards of a comma list ('' is none); with unknown, a trailing '?' gives (cards, True)."""
    if text == "":
        return ([], False) if unknown else []
    items = text.split(",")
    more = False
    if unknown and items[-1] == "?":
        more = True
        items = items[:-1]
    out = []
    for it in items:
        c = card(it, field)
        if c not in deck:
            raise Bad(field)
        out.append(c)
    return (out, more) if unknown else out


def side(players, seat):
    return seat % 2 if players in (4, 6) else seat


def read(text):
    try:
        return ("ok", _read(text))
    except Bad as e:
        return ("err", e.field)


def _read(text):
    fields = {}
    for tok in text.split():
        if "=" not in tok:
            raise Bad(tok.split("=")[0].lower())
        k, v = tok.split("=", 1)
        k = k.lower()
        if k not in KEYS or k in fields:
            raise Bad(k)
        fields[k] = v
    for k in ("players", "trump", "hands"):
        if k not in fields:
            raise Bad(k)
    p = fields["players"]
    if p not in ("2", "3", "4", "6"):  # ASCII digits only
        raise Bad("players")
    n = int(p)
    deck = fields.get("deck", "catalan48" if n == 6 else "spanish40").lower()
    if deck not in COMBOS[n]:
        raise Bad("deck")
    remove = fields.get("remove")
    if remove is not None:
        if n != 3 or deck != "spanish40":
            raise Bad("remove")
        remove = {r.lower(): r for r in REMOVES}.get(remove.lower())
        if remove is None:
            raise Bad("remove")
    elif n == 3 and deck == "spanish40":
        remove = "2B"
    exchange = fields.get("exchange", "seven-two").lower()
    if exchange not in EXCHANGES:
        raise Bad("exchange")
    endgame = fields.get("endgame", "free").lower()
    if endgame not in ENDGAMES:
        raise Bad("endgame")
    trump = card(fields["trump"], "trump")
    cards = deck_of(n, deck, remove, trump)
    if trump not in cards:
        raise Bad("trump")
    seen = set()

    def place(cs, field):
        for c in cs:
            if c in seen:
                raise Bad(field)
            seen.add(c)

    seats = fields["hands"].split("/")
    if len(seats) != n:
        raise Bad("hands")
    hands = []  # (known cards, has unknown cards)
    for s in seats:
        if s == "?":
            hands.append(([], True))
        else:
            hands.append(card_list(s, "hands", cards, unknown=True))
    for h, _ in hands:
        place(h, "hands")
    trick = card_list(fields.get("trick", ""), "trick", cards)
    if len(trick) >= n:
        raise Bad("trick")
    place(trick, "trick")
    stock_text = fields.get("stock", "")
    stock_hidden = stock_text == "?"
    stock = [] if stock_hidden else card_list(stock_text, "stock", cards)
    if trump in stock:
        raise Bad("stock")
    place(stock, "stock")
    t = fields.get("turn", "0")
    if not _digits(t) or int(t) >= n:
        raise Bad("turn")
    turn = int(t)
    pts_text = fields.get("points", "")
    if pts_text == "":
        pts = [0] * n
    else:
        items = pts_text.split(",")
        if len(items) != n or not all(_digits(x) for x in items):
            raise Bad("points")
        pts = [int(x) for x in items]
    hidden = stock_hidden or any(more for _, more in hands)
    played = None
    if "played" in fields:
        played = card_list(fields["played"], "played", cards)
        place(played, "played")
    elif hidden:
        raise Bad("played")
    # the pinta: taken if in a hand, the trick or played; else under the stock
    if played is None:
        pinta_under = trump not in seen and len(stock) > 0
    else:
        pinta_under = trump not in seen
    if played is not None:
        pool = [c for c in cards if c not in seen and not (pinta_under and c == trump)]
    else:
        pool = []
    # hand sizes
    leader = (turn - len(trick)) % n
    has_played = {(leader + i) % n for i in range(len(trick))}

    def fits(k):
        if k < 0 or k > 3 or (trick and k < 1):
            return False
        want = [k - 1 if s in has_played else k for s in range(n)]
        hidden_cards = 0
        for s, (h, more) in enumerate(hands):
            if more:
                if want[s] <= len(h):
                    return False
                hidden_cards += want[s] - len(h)
            elif want[s] != len(h):
                return False
        face_down = (len(pool) - hidden_cards) if stock_hidden else len(stock)
        if face_down < 0:
            return False
        if not stock_hidden and played is not None and len(pool) != hidden_cards:
            return False
        if face_down and not pinta_under:  # R4: the pinta is drawn last
            return False
        left = face_down + (1 if pinta_under else 0)
        if left and (k != 3 or left % n):
            return False
        return True

    ok = [k for k in range(4) if fits(k)]
    if not ok:
        # which field: a hand size problem or the stock count
        raise Bad("hands" if not any(_sizes_ok(hands, has_played, k, n) for k in range(4)) else "stock")
    gone = played if played is not None else [c for c in cards if c not in seen and not (pinta_under and c == trump)]
    if True:
        total = sum(POINTS.get(c[0], 0) for c in gone)
        for sd in set(side(n, s) for s in range(n)):
            if sum(pts[s] for s in range(n) if side(n, s) == sd) > total:
                raise Bad("points")
        if sum(pts) > total:  # the sides capture disjoint cards (see the module docstring)
            raise Bad("points")
    out = [f"players={n}", f"trump={show(trump)}",
           "hands=" + "/".join("?" if (more and not h) else ",".join([show(c) for c in h] + (["?"] if more else []))
                               for h, more in hands),
           "stock=" + ("?" if stock_hidden else ",".join(show(c) for c in stock)),
           f"turn={turn}", "trick=" + ",".join(show(c) for c in trick),
           "points=" + ",".join(str(x) for x in pts)]
    if played is not None:
        order = {c: i for i, c in enumerate(cards)}
        out.append("played=" + ",".join(show(c) for c in sorted(played, key=order.get)))
    if deck != ("catalan48" if n == 6 else "spanish40"):
        out.append(f"deck={deck}")
    if remove not in (None, "2B"):
        out.append(f"remove={remove}")
    if exchange != "seven-two":
        out.append(f"exchange={exchange}")
    if endgame != "free":
        out.append(f"endgame={endgame}")
    return " ".join(out)


def _sizes_ok(hands, has_played, k, n):
    if k < 0 or k > 3 or (has_played and k < 1):
        return False
    for s, (h, more) in enumerate(hands):
        want = k - 1 if s in has_played else k
        if (more and want <= len(h)) or (not more and want != len(h)):
            return False
    return True
