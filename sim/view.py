"""Layout of a seat's view (RULES R11): what a policy may see.

The engine keeps the public facts of a deal in one ``ndarray(int64,
shape=(V_SIZE,))`` and, before a seat decides, writes that seat's own fields
(``V_SEAT``, ``V_HAND``, ``V_LEGAL``, ``V_SWAP``). A policy receives only this
array: other hands and the stock order never reach it. Card sets are ``int64``
bitmasks (:mod:`sim.cards`).

Fields
------
V_SEAT        seat to move
V_HAND        its hand (bitmask)
V_LEGAL       its legal cards now (R5, R9; bitmask)
V_SWAP        card it may give up for the pinta now (R7), else -1
V_TRUMP       trump suit 0..3 (R4)
V_PINTA       the pinta card id (the current one after exchanges, R7)
V_PINTA_SEAT  -1 while the pinta lies under the stock, else the seat that drew it (R6)
V_LEFT        cards left to draw, the pinta included (0: stock exhausted)
V_PLAYED      cards of finished tricks (bitmask)
V_LEADER      seat that led the current trick
V_NTRICK      cards played to the current trick
V_TRICKNO     number of the current trick, 0-based
V_PLAYERS     seats at the table
V_SIDES       sides (2, or 3 for three players)
V_DECK_MASK   cards in play this deal (bitmask; a card set aside by remove=trump2 excluded)
V_ENDGAME     endgame obligations once the stock is exhausted: 0 free, 1 follow, 2 arrastre (R9)
V_TRICK + i   i-th card of the current trick (i < V_NTRICK)
V_KNOWN + s   cards every seat knows seat ``s`` holds (old pinta taken by an
              exchange, the pinta drawn at the last draw), bitmask
V_POINTS + s  card points seat ``s`` has captured
V_WON + s     tricks seat ``s`` has won

``V_TRICK``, ``V_KNOWN``, ``V_POINTS`` and ``V_WON`` open blocks of 8 slots; a table
uses the first ``V_PLAYERS`` of each (at most ``MAX_SEATS``, R3), ``V_TRICK`` the first
``V_NTRICK`` (later slots may hold an earlier trick's cards).

What the view leaves out: who played which card of a finished trick (``V_PLAYED`` is a set). Under the
default rules (R9 ``free``) that tells nothing about the hidden hands; under ``follow`` and ``arrastre``
a seat that did not follow (or trump, R9) in a finished trick once the stock was exhausted showed a void
that every seat saw, and the view cannot give it back (the current trick's plays can: ``V_LEADER`` and
``V_TRICK``). A search that samples hidden hands from the view alone may then deal a seat cards of a suit
it showed void in (tests/test_view_audit.py, view audit of 2026-12-07: 237 of 4,697 views of 3 to 6 players
under follow/arrastre).
"""
V_SEAT = 0
V_HAND = 1
V_LEGAL = 2
V_SWAP = 3
V_TRUMP = 4
V_PINTA = 5
V_PINTA_SEAT = 6
V_LEFT = 7
V_PLAYED = 8
V_LEADER = 9
V_NTRICK = 10
V_TRICKNO = 11
V_PLAYERS = 12
V_SIDES = 13
V_DECK_MASK = 14
V_ENDGAME = 15
V_TRICK = 16
V_KNOWN = 24
V_POINTS = 32
V_WON = 40
V_SIZE = 48
#: Most seats at a table (R3: 2, 3, 4 or 6 players); the per-seat blocks above hold 8.
MAX_SEATS = 6
