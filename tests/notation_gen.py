"""Seeded generators of position strings for tests/test_notation_reading.py: valid positions from
random deals (every player count and deck, remove, exchange, endgame, mid-trick, observations of
each seat) and invalid ones by mutating valid ones."""

from tests.notation_reading import COMBOS, POINTS, REMOVES, EXCHANGES, ENDGAMES, deck_of, show, side

def valid(rng):
    n = rng.choice((2, 3, 4, 6))
    deck = rng.choice(COMBOS[n])
    remove = rng.choice(REMOVES) if (n == 3 and deck == "spanish40") else None
    while True:
        r, s = rng.choice(deck_of(n, deck, "2B", (1, "O"))) if remove else rng.choice(deck_of(n, deck, None, (1, "O")))
        trump = (r, s)
        cards = deck_of(n, deck, remove or "2B", trump)
        if trump in cards:
            break
    rest = [c for c in cards if c != trump]
    rng.shuffle(rest)
    max_left = len(cards) - 3 * n
    lefts = [L for L in range(n, max_left + 1, n)]
    if rng.random() < 0.5 and lefts:
        left = rng.choice(lefts)
        k = 3
    else:
        left = 0
        k = rng.choice((0, 1, 2, 3, 3))
    m = rng.randrange(n) if k >= 1 else 0
    turn = rng.randrange(n)
    leader = (turn - m) % n
    has = {(leader + i) % n for i in range(m)}
    stock = rest[:max(left - 1, 0)]
    pool = rest[len(stock):]
    if left == 0:
        pool.append(trump)
        rng.shuffle(pool)
    hands = []
    for s_ in range(n):
        h = k - 1 if s_ in has else k
        hands.append(pool[:h]); pool = pool[h:]
    trick = pool[:m]; pool = pool[m:]
    played = pool
    total = sum(POINTS.get(c[0], 0) for c in played)
    sides = sorted(set(side(n, x) for x in range(n)))
    cut = sorted(rng.randint(0, total) for _ in range(len(sides) - 1))
    sp = [b - a for a, b in zip([0] + cut, cut + [total])]
    pts = [0] * n
    for x in range(n):
        if x == min(y for y in range(n) if side(n, y) == side(n, x)):
            pts[x] = sp[sides.index(side(n, x))]
    f = {"players": str(n), "trump": show(trump),
         "hands": "/".join(",".join(map(show, h)) for h in hands),
         "stock": ",".join(map(show, stock)), "turn": str(turn), "trick": ",".join(map(show, trick)),
         "points": ",".join(map(str, pts))}
    if rng.random() < 0.5 or deck != ("catalan48" if n == 6 else "spanish40"):
        f["deck"] = deck
    if remove and (rng.random() < 0.7 or remove != "2B"):
        f["remove"] = remove
    if rng.random() < 0.4:
        f["exchange"] = rng.choice(EXCHANGES)
    if rng.random() < 0.4:
        f["endgame"] = rng.choice(ENDGAMES)
    mode = rng.random()
    if mode < 0.3:
        pl = list(played); rng.shuffle(pl)
        f["played"] = ",".join(map(show, pl))
    elif mode < 0.7:  # observation of one seat
        seat = rng.randrange(n)
        hs = []
        for x, h in enumerate(hands):
            if x == seat or not h:
                hs.append(",".join(map(show, h)))
            else:
                j = rng.randrange(len(h))
                if trump in h:  # the pinta drawn at the last draw is known (NOTATION.md)
                    h = [trump] + [c for c in h if c != trump]
                    j = max(j, 1)
                if j == len(h):
                    hs.append(",".join(map(show, h)))
                    continue
                hs.append(",".join(list(map(show, h[:j])) + ["?"]))
        f["hands"] = "/".join(hs)
        if rng.random() < 0.8:
            f["stock"] = "?"
        pl = list(played); rng.shuffle(pl)
        f["played"] = ",".join(map(show, pl))
    keys = list(f)
    if rng.random() < 0.5:
        rng.shuffle(keys)
    return f, " ".join(f"{k}={f[k]}" for k in keys)


def join(f, rng):
    keys = list(f)
    rng.shuffle(keys)
    return " ".join(f"{k}={f[k]}" for k in keys)


def first_card(f, key):
    for it in f.get(key, "").replace("/", ",").split(","):
        if it and it != "?":
            return it
    return None


def mutants(f, rng):
    """(name, string) mutations of a valid position's fields f."""
    out = []
    n = int(f["players"])
    def m(name, **kw):
        g = dict(f)
        for k, v in kw.items():
            if v is None:
                g.pop(k, None)
            else:
                g[k] = v
        out.append((name, join(g, rng)))
    c = first_card(f, "hands") or first_card(f, "played")
    if c:
        m("dup-trick", trick=(f.get("trick") + "," + c) if f.get("trick") else c)
        m("dup-stock", stock=c if f.get("stock") in ("", "?", None) else f["stock"] + "," + c)
    seats = f["hands"].split("/")
    s0 = seats[0]
    extra = "12O" if "12O" not in f["hands"] else "1O"
    m("hand+1", hands="/".join([(s0 + "," + extra) if s0 else extra] + seats[1:]))
    if s0 and s0 != "?":
        m("hand-1", hands="/".join([",".join(s0.split(",")[:-1])] + seats[1:]))
    m("seats+1", hands=f["hands"] + "/")
    m("seats-1", hands="/".join(seats[:-1]))
    m("turn-range", turn=str(n))
    m("turn-neg", turn="-1")
    m("turn-word", turn="one")
    m("turn-non-ascii", turn="\u0661")  # ARABIC-INDIC DIGIT ONE: str.isdigit says yes
    m("points-non-ascii", points=",".join(["\u0663"] + ["0"] * (n - 1)))
    m("players-5", players="5")
    m("players-empty", players="")
    m("unknown-key", foo="1")
    m("no-trump", trump=None)
    m("no-hands", hands=None)
    m("no-players", players=None)
    m("trump-bad", trump="13O")
    m("trump-suit", trump="1X")
    m("trump-empty", trump="")
    m("deck-bad", deck="french52")
    m("exchange-bad", exchange="always")
    m("endgame-bad", endgame="never")
    m("remove-bad", remove="3B")
    if n != 3:
        m("remove-non3", remove="2B")
    m("points-count", points=",".join(["0"] * (n + 1)))
    m("points-neg", points=",".join(["-1"] + ["0"] * (n - 1)))
    m("points-high", points=",".join(["121"] + ["0"] * (n - 1)))
    if n in (3, 6):
        m("deck-rapida", deck="rapida20")
    out.append(("dup-key", join(f, rng) + f" turn={f.get('turn', '0')}"))
    out.append(("no-equals", join(f, rng) + " turn"))
    out.append(("bad-case-key", join(f, rng).replace("players=", "PLAYERS=")))
    out.append(("lower-cards", join(f, rng).lower()))
    out.append(("tab", join(f, rng).replace(" ", "\t", 1)))
    out.append(("lead-space", " " + join(f, rng)))
    out.append(("double-space", join(f, rng).replace(" ", "  ", 1)))
    deck = f.get("deck", "catalan48" if n == 6 else "spanish40")
    if deck == "spanish40" and c:
        out.append(("8O-in-40", join(f, rng).replace(c, "8O", 1) if "8O" not in f["hands"] else ""))
        out.append(("9E-in-40", join(f, rng).replace(c, "9E", 1)))
    if deck == "rapida20" and c:
        out.append(("2s-in-rapida", join(f, rng).replace(c, "2C", 1)))
        out.append(("7s-in-rapida", join(f, rng).replace(c, "7O", 1)))
    if "played" in f and f["played"]:
        pl = f["played"].split(",")
        m("played-1", played=",".join(pl[1:]))
        m("played-dup", played=f["played"] + "," + pl[0])
    if "played" in f and not any("?" in x for x in [f["stock"], f["hands"]]):
        m("no-played-ok", played=None)
    if "?" in f["hands"] or f.get("stock") == "?":
        m("obs-no-played", played=None)
    st = f.get("stock", "")
    if st not in ("", "?"):
        m("stock-1", stock=",".join(st.split(",")[1:]))
        m("stock+pinta", stock=st + "," + f["trump"])
    return [(a, b) for a, b in out if b]
