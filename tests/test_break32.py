"""Break-it pass 32 (2026-12-07): odd values at the public entry points. An int past ``str``'s digit limit
(``10**5000``) made an error message fail with Python's own "Exceeds the limit (4300 digits) for integer
string conversion", naming no argument, and a 1 MB string was echoed whole; such values are now shown by
:func:`sim.cards.show_repr` (``repr`` cut after 100 characters, a too-long int by its size)."""
import pytest

from sim.batch import simulate

BIG = 10 ** 5000
MB = "x" * 10 ** 6
SIZE = r"a (negative )?16610-bit integer"


def _short(excinfo):
    """The message is short (a 1 MB value is not echoed whole) and names the length it cut."""
    text = str(excinfo.value)
    assert len(text) < 400, len(text)
    return text


@pytest.mark.parametrize("kwargs, match", [
    ({"seed": BIG}, r"^seed must be an integer in \[0, 2\*\*64\), got " + SIZE + "$"),
    ({"seed": -BIG}, r"^seed must be an integer in \[0, 2\*\*64\), got " + SIZE + "$"),
    ({"deals": BIG}, r"^deals must be below 9,223,372,036,854,775,808, got " + SIZE + "$"),
    ({"deals": 2 ** 63}, r"^deals must be below 9,223,372,036,854,775,808, got 9,223,372,036,854,775,808$"),
    ({"deals": -BIG}, r"^deals must be a positive integer, got " + SIZE + "$"),
    ({"threads": BIG}, r"^threads must be between 1 and \d+ \(numba.config.NUMBA_NUM_THREADS\), got " + SIZE + "$"),
    ({"threads": -BIG}, r"^threads must be a positive integer, got " + SIZE + "$"),
    ({"chunk": -BIG}, r"^chunk must be a positive integer, got " + SIZE + "$"),
    ({"rules": [BIG]}, r"^rules must be .* got a list holding an integer of more than 4300 digits$"),
    ({"chunk": BIG}, r"^chunk must be at most \d+ rows \(memory: about 200 bytes a row in flight\), got " + SIZE + "$"),
    ({"policies": BIG}, r"^policies must be a name or a list of names, got " + SIZE + "$"),
    ({"out": BIG}, r"^output path must be a str or os.PathLike, got " + SIZE + "$"),
    ({"tricks_out": -BIG}, r"^tricks output path must be a str or os.PathLike, got " + SIZE + "$"),
    ({"seed": MB}, r"^seed must be an integer in \[0, 2\*\*64\), got 'x{99}\.\.\. \(1000002 characters\)$"),
    ({"deals": MB}, r"^deals must be a positive integer, got 'x+\.\.\. \(1000002 characters\)$"),
    ({"rules": MB}, r"^rules must be a sim.rules.Rules, .* got 'x+\.\.\. \(1000002 characters\)$"),
    ({"policies": MB}, r"^unknown policy 'x+\.\.\. \(1000002 characters\): expected one of"),
    ({"policies": [1, MB]}, r"^policies must be a name or a list of names, got \[1, 'x+\.\.\. \(1000007 characters\)$"),
])
def test_simulate_odd_values_named_and_cut(kwargs, match):
    """simulate(..., seed=10**5000) and the others raised Python's digit-limit message (about line 1619's
    ``{seed!r}``), simulate(..., seed="x" * 10**6) echoed the megabyte."""
    args = {"rules": 2, "policies": "random", "deals": 2, **kwargs}
    with pytest.raises(ValueError, match=match) as e:
        simulate(**args)
    _short(e)


@pytest.mark.parametrize("field", ["players", "deck", "exchange", "exchange_condition", "endgame", "remove", "tie"])
@pytest.mark.parametrize("value, shown", [(BIG, SIZE), (-BIG, SIZE), (MB, r"'x{99}\.\.\. \(1000002 characters\)"),
                                          ([BIG], "a list holding an integer of more than 4300 digits")],
                         ids=["big", "-big", "1MB", "[big]"])
def test_rules_fields_odd_values_named_and_cut(field, value, shown):
    """Rules(players=10**5000) (its '{self.players}'), Rules(deck=10**5000), Rules(tie=-10**5000), ... raised
    Python's digit-limit message; Rules(exchange="x" * 10**6) echoed the megabyte."""
    from sim.rules import Rules
    what = (r"players must be (an integer|2, 3, 4 or 6 \(RULES R3\)), got " if field == "players"
            else f"unknown {field} ")
    with pytest.raises(ValueError, match="^" + what + shown) as e:
        Rules(**{field: value})
    _short(e)


def test_checked_flags_and_ints_cut_a_long_value():
    """sim.checks.check_flag and check_int (solve's pv, win and seat, simulate's duplicate, Rules.side_of,
    find_puzzles' count, solve_chance's moves, ...) echoed a 1 MB string whole."""
    from sim.checks import check_flag, check_int
    from sim.rules import Rules
    shown = r"'x{99}\.\.\. \(1000002 characters\)$"
    with pytest.raises(ValueError, match=r"^duplicate: expected True or False, got " + shown) as e:
        check_flag(MB, "duplicate")
    _short(e)
    with pytest.raises(ValueError, match=r"^count: expected an integer 0 or more, got \['x{98}\.\.\. \(1000004 ") as e:
        check_int([MB], "count")
    _short(e)
    with pytest.raises(ValueError, match=r"^seat: expected a seat 0-1, got " + shown) as e:
        Rules(players=2).side_of(MB)
    _short(e)


def test_cards_echo_cut():
    """sim.cards.deck_cards(10**5000) raised Python's digit-limit message; deck_cards, format_card's
    non-integer branch and card_id's suit echoed a 1 MB string whole (parse_card cut it already)."""
    from sim.cards import card_id, deck_cards, format_card
    shown = r"'x{99}\.\.\. \(1000002 characters\)"
    for value, text in ((BIG, SIZE), (-BIG, SIZE), (MB, shown)):
        with pytest.raises(ValueError, match="^unknown deck " + text + ": expected one of spanish40") as e:
            deck_cards(value)
        _short(e)
    with pytest.raises(ValueError, match="^card id " + shown + r" is not a card id \(an integer 0-47") as e:
        format_card(MB)
    _short(e)
    with pytest.raises(ValueError, match="^card id a list holding an integer of more than 4300 digits is not") as e:
        format_card([BIG])
    with pytest.raises(ValueError, match="^unknown suit " + shown + ": expected one of O, C, E, B$") as e:
        card_id(1, MB)
    _short(e)


POS = "players=2 trump=1O hands=7O,2O,1C/3B,4B,5B stock=6O,1B,3C turn=0 trick= points=0,0"


def test_solver_echo_named_and_cut():
    """Position.parse_move(10**5000) and apply, analyse_play(pos, [10**5000]), solve_many(..., errors=10**5000)
    and solve(pos, target=Fraction(10**5000, 3)) raised Python's digit-limit message (analyse_play's named
    only 'moves[0]'); Position.make(..., turn="x" * 10**6), its trump, hands and stock, deal_position's seed
    and solve(pos, target="x" * 10**6) echoed the megabyte."""
    from fractions import Fraction

    from sim.rules import Rules
    from solver.api import analyse_play, solve, solve_many
    from solver.position import Position, deal_position
    p = Position.parse(POS)
    shown = r"'x{99}\.\.\. \(1000002 characters\)"
    bad_move = r"^move: expected a card such as '1O', 'swap' or a move id, got " + SIZE + "$"
    for f in (p.parse_move, p.apply):
        for v in (BIG, -BIG):
            with pytest.raises(ValueError, match=bad_move):
                f(v)
    with pytest.raises(ValueError, match=r"^moves\[0\] \(trick \d+, seat \d+ to move\): expected a card .* got "
                       + SIZE + "$"):
        analyse_play(POS, [BIG])
    with pytest.raises(ValueError, match=r"^move: expected a card .* got \['x{38}\.\.\. \(1000004 characters\)$"):
        p.parse_move([MB])  # (a list: cut as before)
    with pytest.raises(ValueError, match=r"^errors: expected 'raise' or 'return', got " + SIZE + "$"):
        solve_many([POS], errors=BIG)
    with pytest.raises(ValueError, match=r"^target: expected a whole number of card points, got a Fraction holding"):
        solve(POS, target=Fraction(10 ** 5000, 3))
    with pytest.raises(ValueError, match=r"^target: expected a whole number of card points, got " + shown + "$") as e:
        solve(POS, target=MB)
    _short(e)
    r2 = Rules(players=2)
    for kw, field in ((dict(turn=MB), "turn"), (dict(trump=MB), "trump"), (dict(stock=[MB]), "stock"),
                      (dict(hands=[[MB, 2, 3], [4, 5, 6]]), "hands"), (dict(points=[MB, 0]), "points")):
        args = {"rules": r2, "trump": 0, "hands": [[1, 2, 3], [4, 5, 6]], "stock": [7, 8, 9], **kw}
        with pytest.raises(ValueError, match=f"^{field}: " + shown) as e:
            Position.make(**args)
        _short(e)
    with pytest.raises(ValueError, match=r"^seed must be an integer in \[0, 2\*\*64\), got " + shown + "$") as e:
        deal_position(r2, MB, 0)
    _short(e)


@pytest.mark.parametrize("name", ["x" * 10 ** 6, "d/" + "x" * 10 ** 5], ids=["name", "dir/name"])
def test_simulate_long_file_name_cut(name, tmp_path, monkeypatch):
    """simulate(..., out="x" * 10**6) ('cannot write output <name>: File name too long') echoed the megabyte
    (brisca simulate --out too); a name past the file system's limit is cut now, checked before any deal."""
    monkeypatch.chdir(tmp_path)
    for kw, label in (("out", "output"), ("tricks_out", "tricks output")):
        with pytest.raises(ValueError, match=f"^cannot write {label} " + r"\S{100}\.\.\. \(\d+ characters\): "
                                             "File name too long$") as e:
            simulate(2, "random", deals=2, **{kw: name})
        _short(e)


@pytest.mark.parametrize("argv", [
    ["solve", "--file", "x" * 5000],
    ["solve", "--file", "d/" + "x" * 5000, "--no-progress"],
    ["puzzles", "--count", "1", "--out", "x" * 5000 + ".parquet", "--no-progress"],
], ids=["solve-file", "solve-file-dir", "puzzles-out"])
def test_cli_error_line_cuts_a_long_file_name(argv, capsys, tmp_path, monkeypatch):
    """brisca solve --file and puzzles --out echoed a 5,000-character file name whole in their one error line
    ('--file: File name too long: xxx...'); every command's error line (sim.cli._fail) now cuts a run of
    over 1,000 non-blank characters after 100, naming its length (as brisca simulate's own messages and
    argparse's errors cut theirs)."""
    from sim.cli import main
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as ex:
        main(argv)
    assert ex.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("brisca: error: ") and err.count("\n") == 1, err[:300]
    assert len(err) < 400 and "... (50" in err, err[:300]


def test_cut_long_words_leaves_short_runs():
    from sim.cards import cut_long_words
    text = "cannot write " + "y" * 1000 + " (a directory)"
    assert cut_long_words(text) == text  # (1,000: not cut)
    assert cut_long_words("a " + "z" * 1001 + " b") == "a " + "z" * 100 + "... (1001 characters) b"
    assert cut_long_words("q" * 300, longest=200, keep=60) == "q" * 60 + "... (300 characters)"
    assert cut_long_words("cannot write " + "n" * 1500 + ": File name too long", keep=2) == \
        "cannot write nn... (1500 characters): File name too long"


def test_simulate_long_directory_name_cut(tmp_path, monkeypatch):
    """A directory path of nested names can be thousands of characters long: simulate(out=<that directory>)
    echoed it whole in 'cannot write output <path>: it is a directory' (mutation pass 26's note); every
    message of the output check cuts the path as the file-name-too-long one does."""
    monkeypatch.chdir(tmp_path)
    d = "/".join(["d" * 200] * 6)  # 1,205 characters, each name under NAME_MAX
    (tmp_path / d).mkdir(parents=True)
    with pytest.raises(ValueError, match=r"^cannot write output d{100}\.\.\. \(1205 characters\): it is a "
                                         r"directory$") as e:
        simulate(2, "random", deals=2, out=d)
    _short(e)
