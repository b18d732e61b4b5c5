"""The ``brisca`` command line.

``brisca simulate`` plays a batch of deals (:func:`sim.batch.simulate`),
prints a summary (a table, or one JSON object with ``--json``) and optionally
writes the deals and the tricks to parquet. The solver's subcommands
(``solve``, ``puzzles``) are added when the :mod:`solver` package provides
them.

Every error in the input (unknown policy, impossible player/deck combination,
deals <= 0, unwritable output ...) prints one line ``brisca: error: ...`` on
stderr and exits with status 2, before anything is simulated or written.

Examples
--------
::

    brisca simulate --players 2 --deals 1000000 --policy heuristic --policy random --seed 1 \\
        --out results/run.parquet
    brisca simulate --players 2 --deals 100000 --policy heuristic --policy greedy --duplicate --json
"""
from __future__ import annotations

import argparse
import errno
import io
import json
import os
import re
import sys
import textwrap


PROG = "brisca"


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``brisca: error: <message>``, exit status 2."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        numbers_as_values(self)

    def parse_known_args(self, args=None, namespace=None):
        args = [str(a) for a in (sys.argv[1:] if args is None else args)]
        sub = _subcommands(self)
        if sub is not None and "--" in args:
            # ``--`` before the command: argparse passed it to the command's slot (``brisca -- simulate``:
            # "invalid choice: '--'", break-it pass 25); there are no positional arguments before the command
            first = next((i for i, w in enumerate(args) if w in sub.choices), len(args))
            args = [w for i, w in enumerate(args) if i >= first or w != "--"]
        # (the words as given, before argparse reads them: an error raised while parsing can then tell
        # what stood before the command; the names below are set on success)
        self._argv = args
        ns, extras = super().parse_known_args(args, namespace)
        self._command = getattr(ns, "command", None)  # (the subcommand whose options a hint may suggest)
        self._position = getattr(ns, "position", None)  # (what a second, quoted position lost to)
        self._extras = list(extras)
        return ns, extras

    def error(self, message):
        from .cards import cut_long_words, printable  # (argparse echoes the words as given: break-it pass 22)
        hint = ""
        if message.startswith("unrecognized arguments:"):
            hint = self._unrecognized_hint(message)
        elif message.startswith(("argument COMMAND: invalid choice:",
                                 "the following arguments are required: COMMAND")):
            hint = _before_command_hint(self, message)
        # (argparse's part echoes a word whole: a 10,000-character one made a 10 kB line, break-it pass 25)
        message = cut_long_words(message, longest=200, keep=60)
        self.exit(2, f"{PROG}: error: {printable(message + hint)}\n")

    def _unrecognized_hint(self, message):
        """The hint for argparse's ``unrecognized arguments`` error ``message`` (the words are
        ``self._extras``, just parsed): a mistyped or misplaced option (:func:`_option_hint`), a quoted
        position that lost its place to another word (:func:`_lost_position`), or an unquoted position
        (:func:`_quote_hint`); "" when none applies."""
        from .cards import show_input
        hint = _option_hint(self)
        lost = _lost_position(self)
        if hint:  # (and the position's fields given unquoted beside it: break-it pass 22 showed one hint)
            single = [w for w in self._extras if not any(c.isspace() for c in w)]
            hint += _quote_hint("unrecognized arguments: " + " ".join(single))
            if lost is not None:  # (`solve --seed 1 "<pos>"`: the option's value was read as the position,
                # and the position looked refused: new-user pass 23)
                hint += f" ({show_input(lost)} was read as the position)"
        elif lost is not None:  # (`brisca solve -5 "<position>"`: the quote hint blamed the quoting of what
            # was quoted, break-it pass 22)
            hint = (f" (one position per run: {show_input(lost)} was read as the position, the quoted "
                    "position is an extra argument)")
        else:
            hint = _quote_hint(message)
        return hint

    def _print_message(self, message, file=None):
        # argparse ignores a failed write; --help and --version on stdout report it as every command's
        # output does (main: exit 1 on `> /dev/full`, 141 on a closed pipe)
        if message and file is sys.stdout:
            file.write(message)
            file.flush()
        else:
            super()._print_message(message, file)


def _known_long_options(parser) -> list[str]:
    """The long option strings of ``parser`` and of the subcommand it parsed (``--target``, ``--deals`` ...;
    every subcommand's when none is known)."""
    found = []
    command = getattr(parser, "_command", None)
    for action in parser._actions:
        found.extend(o for o in action.option_strings if o.startswith("--"))
        if isinstance(action, argparse._SubParsersAction):
            subs = [action.choices[command]] if command in action.choices else action.choices.values()
            for sub in dict.fromkeys(subs):
                found.extend(_known_long_options(sub))
    return list(dict.fromkeys(found))


def _option_hint(parser) -> str:
    """A hint for argparse's ``unrecognized arguments`` error when one of the extra words (``parser``'s
    last :meth:`_Parser.parse_known_args`) is an option: ``(unknown option --tagret: did you mean
    --target?)``. A mistyped option before a quoted position made argparse take the option's value as the
    position and report the position as the extra words, which the quote hint then blamed on the quoting
    (new-user pass 22 of 2026-12-06)."""
    words = [w for w in getattr(parser, "_extras", ()) if w.startswith("--") and len(w) > 2]
    if not words:
        return ""
    argv = getattr(parser, "_argv", [])
    command = getattr(parser, "_command", None)
    at = argv.index(command) if command in argv else -1
    parts, seen = [], {}
    for w in words:  # (the k-th copy of a word is the k-th in argv: `--jsn simulate --jsn`, break-it pass 25)
        k = seen[w] = seen.get(w, -1) + 1
        places = [i for i, a in enumerate(argv) if a == w]
        before = k < len(places) and places[k] < at
        parts.append(_option_text(parser, w, command, before))
    return " (" + "; ".join(parts) + ")"


def _option_text(parser, word: str, command, before: bool) -> str:
    """What a hint says of the option ``word`` (``--deals``, ``--seat=1``) that argparse could not place:
    an option of ``command`` given before it (``before``: ``--deals is an option of brisca simulate: give it
    after the command, brisca simulate --deals ...``), of another command (``--seat is an option of brisca
    solve, not of brisca simulate``), or unknown with its likely spelling (``unknown option --tagret: did you
    mean --target?``, where it goes when it stood before the command). ``command`` is None when none was
    given: an option of any command is then named with it (mutation pass 18, break-it passes 22 and 25)."""
    import difflib

    from .cards import show_input

    name = word.partition("=")[0]
    shown = show_input(name, quote=False)  # (a 5000-character word is not echoed whole a second time)
    sub = _subcommands(parser)
    choices = sub.choices if sub is not None else {}
    owners = [c for c, p in choices.items() if name in _own_option_strings(p)]
    if owners and (command in owners or command is None):
        c = command if command in owners else owners[0]
        also = "" if c == command or len(owners) == 1 else " (and of " + ", ".join(
            f"{PROG} {o}" for o in owners[1:]) + ")"
        return f"{shown} is an option of {PROG} {c}{also}: give it after the command, {PROG} {c} {shown} ..."
    if owners:
        return f"{shown} is an option of {PROG} {', '.join(owners)}, not of {PROG} {command}"
    # (the top level's options and the command's; every command's when none was given)
    known = _known_long_options(parser) if command not in choices else (
        _own_option_strings(parser) + _own_option_strings(choices[command]))
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.75)
    if not close:
        return f"unknown option {shown}"
    where = ""
    if before and command in choices and close[0] not in _own_option_strings(parser):
        where = f" give it after the command, {PROG} {command} {close[0]} ..."  # (`brisca --tagret solve`)
    return f"unknown option {shown}: did you mean {close[0]}?{where}"


def _subcommands(parser):
    """``parser``'s subcommands action (its ``choices``: name to parser), or None."""
    return next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)


def _own_option_strings(parser) -> list[str]:
    """Every option string of ``parser`` itself (short and long; not its subcommands')."""
    return [o for a in parser._actions for o in a.option_strings]


def _before_command_hint(parser, message: str) -> str:
    """A hint for argparse's errors about the command (``argument COMMAND: invalid choice: '5'``, ``the
    following arguments are required: COMMAND``) when options stood before it: ``brisca --deals 5
    simulate`` read ``5`` as the command, ``brisca --verison`` no command at all (carried from mutation
    pass 18 and break-it pass 22). Names each option that stood before the word read as the command
    (:func:`_option_text`); the command is the first command named after that word, if any."""
    argv = getattr(parser, "_argv", [])
    sub = _subcommands(parser)
    if sub is None:
        return ""
    m = re.match(r"argument COMMAND: invalid choice: '(.*?)' \(choose from", message)
    read = argv.index(m.group(1)) if m and m.group(1) in argv else len(argv)  # (`simulat --deals 5`: none)
    command = next((w for w in argv[read:] if w in sub.choices), None)
    parts = [_option_text(parser, w, command, True) for w in argv[:read]
             if w.startswith("-") and w.partition("=")[0] not in ("-", "--")]
    if m and not parts:  # a mistyped command (`brisca simluate`: new-user pass 23)
        import difflib
        close = difflib.get_close_matches(m.group(1).lower(), list(sub.choices), n=1, cutoff=0.6)
        if close:
            parts.append(f"did you mean {close[0]}?")
    return " (" + "; ".join(parts) + ")" if parts else ""


def _lost_position(parser):
    """The word argparse read as the position when one of the extra words (``parser``'s last
    :meth:`_Parser.parse_known_args`) is a whole quoted position (``brisca solve -5 "<position>"``, ``brisca
    solve --seed 1 "<position>"``); else None."""
    from solver.position import FIELDS

    position = getattr(parser, "_position", None)
    for w in getattr(parser, "_extras", ()):
        tokens = w.split()
        if len(tokens) > 1 and any("=" in t and t.partition("=")[0].lower() in FIELDS for t in tokens):
            return position
    return None


def _quote_hint(message: str) -> str:
    """A hint for argparse's ``unrecognized arguments`` error when the extra words look like the fields of
    a position (``trump=5B``): ``brisca solve players=2 trump=5B ...`` unquoted is several arguments
    (new-user pass of 2026-12-06: the error did not say so)."""
    if not message.startswith("unrecognized arguments:"):
        return ""
    from solver.position import FIELDS  # (the notation's field names; loaded on this error only)

    words = message.split(":", 1)[1].split()
    if not any(w.partition("=")[0].lower() in FIELDS and "=" in w for w in words):
        return ""
    return ' (a position is one argument: quote it, brisca solve "players=2 trump=... hands=...")'


class Wrapped(argparse.RawDescriptionHelpFormatter):
    """Raw description/epilog; option help wrapped without breaking at hyphens (a flag such as
    ``--max-tries`` stays on one line; new-user pass of 2026-12-05)."""

    def _split_lines(self, text, width):
        return textwrap.wrap(self._whitespace_matcher.sub(" ", text).strip(), width, break_on_hyphens=False)


class _Help(Wrapped):
    """:class:`Wrapped`, with ``(default: X)`` appended to options whose default is a value."""

    def _get_help_string(self, action):
        h = action.help or ""
        # identity, not ==: a default of 0 (--seed) equals False but is shown
        if "%(default)" not in h and "default:" not in h \
                and not any(action.default is d for d in (None, False, argparse.SUPPRESS)) and action.option_strings:
            h += " (default: %(default)s)"
        return h


# a value such as -1e3, -1_000 or -.5 after a flag: argparse's own pattern in Python 3.11 (-5, -0.5) takes
# "-1e3" for an option and says "expected one argument"
_NEGATIVE_NUMBER = re.compile(r"^-\.?\d")

# every integer option's bound is far below this in size: a larger value is "too large" here, so that no
# range message prints a 100-digit number (below it, the option's own range message, with the exact value)
_COUNT_LIMIT = 10 ** 31


def numbers_as_values(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Make ``parser`` take a negative number in any form ``_count`` reads (``--target -1e3``, ``--seed
    -1_000``) as an option's value, not as an unknown option; none of brisca's options looks like a
    number. Returns ``parser``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The parser, changed in place (its private ``_negative_number_matcher`` is set).

    Returns
    -------
    argparse.ArgumentParser
        ``parser`` itself.
    """
    parser._negative_number_matcher = _NEGATIVE_NUMBER
    return parser


def _count(text: str) -> int:
    """An integer option's value (every integer flag of ``brisca``): ``1000000``, ``1_000_000`` or
    ``1e6``, ASCII digits only (as positions' numbers, NOTATION.md; ``int`` alone also reads other
    scripts' digits, which the break-it pass of 2026-12-05 found ``--deals`` and ``--target`` taking).
    The option's own range is checked by the command, not here.

    Raises
    ------
    argparse.ArgumentTypeError
        ``invalid integer '...'`` for a value that is not an integer (``1.5``, ``1e-3``, ``inf``, other
        scripts' digits); ``'...' is too large`` / ``too small`` for one of :data:`_COUNT_LIMIT` or more
        in size.
    """
    t = text.strip()
    shown = repr(text) if len(text) <= 40 else repr(text[:37]) + "..."  # (a 5000-digit argument: not all of it)
    if not t.isascii():
        raise argparse.ArgumentTypeError(f"invalid integer {shown} (digits 0-9)")
    huge = f"{shown} is too {'small' if t.startswith('-') else 'large'}"  # (10**31 or more in size)
    try:
        v = int(t)
        if abs(v) >= _COUNT_LIMIT:
            raise argparse.ArgumentTypeError(huge)
        return v
    except ValueError as e:
        if "digits" in str(e):  # (int's limit of 4300 digits)
            raise argparse.ArgumentTypeError(huge) from None
    from decimal import Decimal, InvalidOperation
    try:
        float(t)  # float's syntax: Decimal alone also accepts "_1" and "1e_3"
        m, _, e = t.replace("_", "").lower().partition("e")
        # exact, and the exponent apart: Decimal refuses exponents beyond its limits (1e10**18)
        sign, digits, dexp = Decimal(m).as_tuple()
        k = dexp + (int(e) if e else 0)
    except (ValueError, InvalidOperation, TypeError):  # (TypeError: dexp of inf or nan is a letter)
        raise argparse.ArgumentTypeError(f"invalid integer {shown}") from None
    n = int("".join(map(str, digits)) or "0")
    if n == 0:
        return 0
    adjusted = len(str(n)) - 1 + k  # the power of ten of the leading digit: 1e23 is 10**23, exactly
    if adjusted > 100:  # (far beyond any limit; keeps 1e999999 from building a huge int)
        raise argparse.ArgumentTypeError(huge)
    if adjusted < 0:
        raise argparse.ArgumentTypeError(f"invalid integer {shown}")
    if k >= 0:
        v = n * 10 ** k
    else:
        v, r = divmod(n, 10 ** -k)
        if r:
            raise argparse.ArgumentTypeError(f"invalid integer {shown}")
    if v >= _COUNT_LIMIT:
        raise argparse.ArgumentTypeError(huge)
    return -v if sign else v


def _policy_names_text() -> str:
    """The policy names for ``--policy``'s help, comma-separated (``"random, greedy, ..."``: those of
    :mod:`sim.policies` and ``solver``); a fixed list when the engine cannot be imported."""
    try:
        from .batch import _policy_names
        names = ", ".join(_policy_names())
    except Exception:  # the engine is being edited: help must still work
        names = "random, greedy, heuristic, expert, counter, solver"
    return names


SIMULATE_EPILOG = """\
policies:
  --policy is given once (every seat), once per side (seat s plays side s % sides:
  seats 0+2(+4) and 1+3(+5) with 4 or 6 players) or once per seat. 'solver' is the
  open-hand oracle (Descubierta, RULES R11): it sees every hand, so it is a labelled
  oracle, never a player, and it must play every seat.

duplicate:
  --duplicate plays every deal once per rotation of the policies (rotations = sides:
  2, or 3 with three players), moving every policy one seat further each time, so
  each side's policies hold every side's cards. --deals counts distinct deals; the
  run plays deals x rotations rows, marked by the 'pair' and 'rotation' columns.
  The summary then counts each side's policies wherever they sit, with the score
  (draws half) and its 95% interval over pairs.

output files and summary:
  one parquet row per deal played (sim/batch.py documents every column; card
  columns are categoricals over the card strings of NOTATION.md, codes = card ids);
  --tricks writes one row per trick. Files are put in place when the run ends: a
  complete run writes (or replaces) them; Ctrl-C, SIGTERM or SIGHUP keeps the deals
  finished in new files marked incomplete (an existing file is left as it was;
  sim.read_metadata says complete and rows); an error leaves no file.
  The summary's 'deals' counts rows played and deals_per_s = deals / sim_seconds
  (simulation only, numba compile excluded); 'seconds' is the whole run.

exit status:
  0 ok; 1 an output could not be written (the summary is still printed), stdout is
  closed with no --out/--tricks, or an engine error; 2 bad input (one-line error on
  stderr, nothing played or written);
  141 stdout's reader went away; 130/143/129 interrupted by Ctrl-C/SIGTERM/SIGHUP
  (the deals finished kept, as above; a SIGTERM or SIGHUP ignored on entry, as
  SIGHUP under nohup, stays ignored).

examples:
  brisca simulate --players 2 --deals 1000000 --policy heuristic --policy random \\
      --seed 1 --out results/run.parquet
  brisca simulate --deals 100000 --policy heuristic --policy greedy --duplicate --json
  brisca simulate --players 4 --deck rapida20 --endgame arrastre --deals 1e6
"""


def add_rule_options(group, condition_note: str = "") -> None:
    """Add the rule options ``--deck``, ``--exchange``, ``--exchange-condition``, ``--endgame`` and
    ``--remove`` (RULES R1, R3, R7, R9) to ``group``, as ``brisca simulate`` and ``brisca puzzles`` take
    them (read back by :func:`rules_from_args`; ``--players`` is each command's own).

    Parameters
    ----------
    group
        An argparse parser or argument group.
    condition_note : str
        Text added to ``--exchange-condition``'s help (``brisca puzzles``: won-trick is refused).
    """
    # (here, not at the top: sim.rules loads numba, half a second; a Ctrl-C meanwhile, inside main,
    # is then one line and not a traceback)
    from .rules import ENDGAMES, EXCHANGE_CONDITIONS, EXCHANGES, REMOVES
    group.add_argument("--deck", choices=("spanish40", "catalan48", "rapida20"), default=None,
                       help="deck (R1, R3); default: catalan48 for 6 players, else spanish40")
    group.add_argument("--exchange", choices=EXCHANGES, default="seven-two", help="trump exchange (R7)")
    group.add_argument("--exchange-condition", choices=EXCHANGE_CONDITIONS, default="any",
                       help="who may exchange: any seat, or only a side that has won a trick (R7)" + condition_note)
    group.add_argument("--endgame", choices=ENDGAMES, default="free",
                       help="obligations once the stock is exhausted (R9)")
    group.add_argument("--remove", choices=REMOVES, default=None,
                       help="3 players with spanish40 only (refused otherwise): card(s) removed (R3) "
                            "(default with 3 players and spanish40: 2B)")


def rules_from_args(args):
    """The :class:`sim.rules.Rules` of ``args.players`` and the options of :func:`add_rule_options`.

    Parameters
    ----------
    args : argparse.Namespace
        ``players``, ``deck``, ``exchange``, ``exchange_condition``, ``endgame`` and ``remove``.

    Returns
    -------
    sim.rules.Rules

    Raises
    ------
    ValueError
        A combination RULES R3 refuses, its message naming the flag as ``brisca simulate`` prints it
        (``--deck rapida20 cannot be played by 3 players (RULES R3)``; a ``--remove`` of another game
        than 3 players with spanish40, ``2B`` included, names the players and the deck).
    """
    from .rules import Rules
    try:
        rules = Rules(players=args.players, deck=args.deck, exchange=args.exchange,
                      exchange_condition=args.exchange_condition, endgame=args.endgame,
                      remove=None if args.remove == "2B" else args.remove)  # (a --remove 2B of another game: below)
    except ValueError as e:
        raise ValueError(_as_flag(str(e))) from None
    if args.remove is not None and (rules.players != 3 or rules.deck != "spanish40"):
        # (a --remove that would be ignored is an error; this message names the players and the deck)
        raise ValueError(f"--remove applies to 3 players with the spanish40 deck only (RULES R3); "
                         f"got {rules.players} players, deck {rules.deck}")
    return rules


def add_simulate(sub) -> argparse.ArgumentParser:
    """Add the ``simulate`` subcommand to ``sub``: the rules' options (RULES R1, R3, R7, R9), the run's and
    the output's, and :func:`cmd_simulate` as its ``func``.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        The subparsers object of the ``brisca`` parser (:func:`build_parser`).

    Returns
    -------
    argparse.ArgumentParser
        The ``simulate`` parser.
    """
    p = sub.add_parser(
        "simulate", help="play a batch of deals, print a summary, write parquet",
        description=textwrap.fill("Play a batch of Brisca deals with the engine's policies, print win rates "
                                  "(95% Wilson intervals), points, draws and capotes, and optionally write one "
                                  "parquet row per deal (--out) and per trick (--tricks).", 78),
        epilog=SIMULATE_EPILOG, formatter_class=_Help)
    g = p.add_argument_group("rules (RULES.md)")
    g.add_argument("--players", type=_count, default=2, metavar="N", help="players: 2, 3, 4 or 6 (R3)")
    add_rule_options(g)
    r = p.add_argument_group("run")
    r.add_argument("--deals", type=_count, default=1_000_000, metavar="N",
                   help="deals to play (1e6 and 1_000_000 accepted); with --duplicate, distinct deals")
    r.add_argument("--policy", action="append", default=None, metavar="NAME",
                   help=f"policy: once, once per side or once per seat; one of {_policy_names_text()} "
                        "(default: random on every seat)")
    r.add_argument("--seed", type=_count, default=0, help="run seed, 0 <= seed < 2**64; deal i of a seed is the same "
                        "shuffle whatever the policies, --exchange, --exchange-condition and --endgame (the "
                        "same players, deck and --remove), so two runs of one seed compare rule variants or "
                        "policies deal by deal (rows joined on 'deal'; a --duplicate run's 'deal' is its row, "
                        "its deal is the 'pair' column)")
    r.add_argument("--threads", type=_count, default=None, metavar="N",
                   help="numba threads; results do not depend on it (default: all cores; the solver policy plays on one)")
    r.add_argument("--duplicate", action="store_true",
                   help="play every deal once per rotation of the policies (see below)")
    r.add_argument("--chunk", type=_count, default=None, metavar="ROWS",
                   help="rows per chunk (bounds memory; a signal keeps whole chunks); results do not depend on it "
                        "(default: about 0.25 s of play each, from 4096 deals (one with solver) up to 262144 rows, "
                        "fewer with --tricks)")
    o = p.add_argument_group("output")
    o.add_argument("--out", default=None, metavar="PATH",
                   help="parquet file, one row per deal (parent directories are created); "
                        "without it only the summary is printed")
    o.add_argument("--tricks", default=None, metavar="PATH", help="parquet file, one row per trick")
    o.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    o.add_argument("--no-progress", action="store_true",
                   help="no progress bar on stderr, nor the note that the first run is compiling")
    p.set_defaults(func=cmd_simulate)
    return p


#: File name endings and the format they suggest (:func:`suffix_format`): format codes.
_SUFFIX_FORMATS = {".csv": "csv", ".tsv": "tsv", ".txt": "text", ".json": "jsonl", ".jsonl": "jsonl",
                   ".ndjson": "jsonl", ".parquet": "parquet", ".pq": "parquet", ".feather": "arrow",
                   ".arrow": "arrow", ".xlsx": "excel", ".xls": "excel"}
#: How messages name the format codes.
_FORMAT_NAMES = {"csv": "CSV", "tsv": "TSV", "text": "text", "jsonl": "JSON lines", "parquet": "parquet",
                 "arrow": "Arrow", "excel": "Excel"}


def suffix_format(path):
    """The format the ending of ``path``'s file name suggests.

    Parameters
    ----------
    path : str or os.PathLike
        A file name; its last ``.``-ending is read, in any case.

    Returns
    -------
    str or None
        A format code of :data:`_SUFFIX_FORMATS` (``"parquet"``, ``"jsonl"``, ``"csv"``, ...), or None for an
        ending not listed or none.
    """
    name = os.path.basename(str(path)).lower()
    i = name.rfind(".")
    return _SUFFIX_FORMATS.get(name[i:]) if i >= 0 else None


def note_format(flag: str, path, written: str, prog: str = PROG) -> None:
    """Say on stderr when an output's name suggests another format than the one written
    (``--out run.csv`` gets a parquet file): one ``brisca: note:`` line, the run goes on.

    Parameters
    ----------
    flag : str
        The option naming the file (``"--out"``).
    path : str or None
        The file name (None: nothing to say).
    written : str
        The format code written: ``"parquet"`` or ``"jsonl"``.
    prog : str
        The program named at the start of the line (``benchmarks/open_values.py`` gives its own).
    """
    if path is None:
        return
    meant = suffix_format(path)
    if meant is not None and meant != written:
        from .cards import printable
        how = "pandas.read_parquet reads it" if written == "parquet" else "pandas.read_json(..., lines=True) reads it"
        print(f"{prog}: note: {flag} {printable(str(path))} is written as {_FORMAT_NAMES[written]}, "
              f"not {_FORMAT_NAMES[meant]} ({how})", file=sys.stderr)


def _fail(message: str, code: int = 2) -> int:
    """Print every ``brisca`` command's one error line, ``brisca: error: <message>``, on stderr and return
    ``code`` (2: bad input). A message may echo input: its control characters are escapes
    (:func:`sim.cards.printable`: no ESC or BEL reaches the terminal; break-it pass of 2026-12-05), and a
    run of over 1,000 non-blank characters (a file name) is cut after 100 (:func:`sim.cards.cut_long_words`:
    ``brisca solve --file`` echoed a 100 KB name whole; break-it pass 32)."""
    from .cards import cut_long_words, printable
    print(f"{PROG}: error: {printable(cut_long_words(message))}", file=sys.stderr)
    return code


class _Terminated(KeyboardInterrupt):
    """SIGTERM (``kill``, ``timeout``, a job scheduler): unwinds like Ctrl-C so temporary files are removed."""


class _HungUp(_Terminated):
    """SIGHUP (the terminal or ssh session closed, ``kill -HUP``): handled as SIGTERM is (a
    :class:`_Terminated`, so every command keeps what it finished), its own word and exit status
    (:func:`_ending`). Before, the default action ended the process at once: the deals finished were
    lost and the temporary files left beside the outputs (review of 2026-12-07)."""


def _on_sigterm(signum, frame):
    raise _Terminated()


def _on_sighup(signum, frame):
    raise _HungUp()


def _ending(e: KeyboardInterrupt) -> tuple[str, int]:
    """How a command stopped by the signal ``e`` says it ended, and its exit status: ``("hung up", 129)``
    for SIGHUP (:class:`_HungUp`, 128 + 1), ``("terminated", 143)`` for SIGTERM (:class:`_Terminated`,
    128 + 15), else ``("interrupted", 130)`` (Ctrl-C, 128 + 2)."""
    if isinstance(e, _HungUp):
        return ("hung up", 129)
    return ("terminated", 143) if isinstance(e, _Terminated) else ("interrupted", 130)


def _stopping_signals():
    """The signals :func:`main` turns into an interruption besides Ctrl-C's SIGINT, with their handlers:
    SIGTERM, and SIGHUP where the platform has it."""
    import signal
    sigs = [(signal.SIGTERM, _on_sigterm)]
    if hasattr(signal, "SIGHUP"):  # (not on Windows)
        sigs.append((signal.SIGHUP, _on_sighup))
    return sigs


class _StdoutClosed(Exception):
    """Raised by ``brisca simulate``'s start hook when it refused a closed stdout."""


def refuse_closed_stdout(*outputs) -> bool:
    """Refuse a command whose only output is a closed stdout (``brisca ... >&-``, see
    :class:`_ClosedStream`) before it runs a whole batch to lose it.

    Parameters
    ----------
    *outputs : str or None
        The command's ``--out``-style paths; any one given is an output besides stdout.

    Returns
    -------
    bool
        True when stdout is closed and no output is given: the error is reported as its first write
        would be (:func:`stdout_failed`: one line on stderr) and the caller exits 1. Else False.
    """
    if not isinstance(sys.stdout, _ClosedStream) or any(o is not None for o in outputs):
        return False
    stdout_failed(_ClosedStream.error())
    return True


def dash_output(path) -> str | None:
    """Why an output path ``"-"`` is refused: ``-`` reads as standard output (``--file -`` is standard
    input), but the command would write a file named ``-`` (break-it pass of 2026-12-06: ``brisca simulate
    --out -`` did, and said ``wrote deals: -``).

    Parameters
    ----------
    path : str or None
        An output option's value as given.

    Returns
    -------
    str or None
        The reason, to follow the flag in an error line (``--out: '-' is not standard output here ...``),
        for ``"-"``; None for any other path.
    """
    if path != "-":
        return None
    return "'-' is not standard output here (stdout carries the command's own output); give a file name (./- for " \
           "a file named '-')"


def _outputs(args) -> list[tuple[str, str]]:
    """The files ``brisca simulate`` was asked to write, as (flag, path) pairs in the order ``--out``,
    ``--tricks`` (the flags not given left out)."""
    return [(flag, path) for flag, path in (("--out", args.out), ("--tricks", args.tricks)) if path is not None]


def cmd_simulate(args) -> int:
    """Run ``brisca simulate``: check the input, play the deals (:func:`sim.batch.simulate`), print the
    summary on stdout (a table, or one JSON object with ``--json``) and write ``--out``/``--tricks``.

    Parameters
    ----------
    args : argparse.Namespace
        The options of :func:`add_simulate`'s parser.

    Returns
    -------
    int
        The exit status: 0 ok; 2 bad input (one ``brisca: error:`` line, nothing played or written); 1 an
        engine error (``RuntimeError``), a failed write of the outputs (:func:`_write_failed`) or a closed
        stdout with no ``--out``/``--tricks`` (:func:`refuse_closed_stdout`); 130 interrupted (Ctrl-C), 143
        terminated (SIGTERM, which :func:`main` turns into :class:`_Terminated` for every command unless
        it was ignored on entry; :func:`_interrupted`), 129 hung up (SIGHUP, :class:`_HungUp`, likewise).

    Raises
    ------
    OSError
        Writing the summary to stdout failed (:func:`main` reports it: :func:`stdout_failed`).
    """
    from .batch import simulate
    try:
        rules = rules_from_args(args)
    except ValueError as e:
        return _fail(str(e))
    for flag, path in _outputs(args):
        if why := dash_output(path):
            return _fail(f"{flag}: {why}")

    written = []  # the outputs, once simulate has renamed them into place

    def on_start():  # (after simulate's input checks: bad input is still exit 2)
        if refuse_closed_stdout(args.out, args.tricks):
            raise _StdoutClosed
        note_format("--out", args.out, "parquet")
        note_format("--tricks", args.tricks, "parquet")
    try:
        result = simulate(rules, args.policy or ["random"], deals=args.deals, seed=args.seed,
                          threads=args.threads, duplicate=args.duplicate, out=args.out, tricks_out=args.tricks,
                          chunk=args.chunk, progress=not args.no_progress, keep_frame=False, on_start=on_start,
                          written=written)
    except _StdoutClosed:
        return 1
    except ValueError as e:
        return _fail(_as_flag(str(e)))
    except RuntimeError as e:
        return _fail(str(e), 1)
    except OSError as e:  # e.g. the disk filled up while writing; no output file is left
        return _write_failed(e, args)
    except KeyboardInterrupt as e:
        return _interrupted(e, args, written)
    _print_summary(result.summary, args.json)
    return 0


def _write_failed(e: OSError, args) -> int:
    """Report ``simulate``'s failed write ``e`` (no output file is left): the summary of the deals played
    when ``e`` carries one (``partial_summary``), then one error line naming the file; returns 1."""
    part = getattr(e, "partial_summary", None)
    if part is not None:  # the deals played are summarized all the same (new-user pass of 2026-12-05)
        try:
            _print_summary(part, args.json)
            print(f"{PROG}: the summary covers the {part.deals:,} of {args.deals * part.rotations:,} deals "
                  "played before writing failed; no file was written", file=sys.stderr)
        except OSError:
            pass  # (stdout failing too: the write error below is the one to report)
    files = " and ".join(f for _, f in _outputs(args))
    where = e.filename or files  # (a write error without a file name: the files the run writes)
    for flag, f in _outputs(args):
        if where == f:  # (the writer names its file as given) worded as brisca solve's --out
            return _fail(f"{flag}: cannot write {f}: {e.strerror or e}", 1)
    return _fail(f"writing the output failed: {e.strerror or e}" + (f" ({where})" if where else ""), 1)


def _interrupted(e: KeyboardInterrupt, args, written: list) -> int:
    """Report an interrupted ``simulate`` (``e``: Ctrl-C, or :class:`_Terminated` for SIGTERM, :class:`_HungUp`
    for SIGHUP): the summary of the deals finished and what was kept (:func:`_kept_note`) when ``e`` carries
    a ``partial_summary``, else whether the outputs (``written``: the ones renamed into place) were written
    in full. Returns 130, 143 for SIGTERM or 129 for SIGHUP (:func:`_ending`)."""
    from .cards import printable
    how, code = _ending(e)
    part = getattr(e, "partial_summary", None)
    if part is not None:  # the deals finished are summarized, and kept in files that were not there
        try:
            _print_summary(part, args.json)
        except OSError:
            pass
        print(f"{PROG}: {how}; {_kept_note(e, part, args)}", file=sys.stderr)
        return code
    # (a signal after the outputs were renamed into place: in simulate or here, before the summary)
    what = (f"the output was written in full ({', '.join(printable(w) for w in written)}), the summary is "
            "not printed" if written else "no output written")
    print(f"{PROG}: {how}; {what}", file=sys.stderr)
    return code


def _print_summary(summary, as_json: bool) -> None:
    """``simulate``'s summary on stdout, a JSON object or the table, in one write with its line break
    (print makes two: with PYTHONUNBUFFERED, `| head -1` had gone before the second and the run ended
    141, about one run in two; break-it pass of 2026-12-06)."""
    sys.stdout.write((json.dumps(summary.to_dict()) if as_json else summary.format_table()) + "\n")
    sys.stdout.flush()


def _kept_note(e, part, args) -> str:
    """What an interrupted ``simulate`` kept (``e``: its ``KeyboardInterrupt``, with the attributes of
    :func:`sim.batch._keep_interrupted`; ``part``: its summary): the deals it covers and the files."""
    from .cards import printable
    total = args.deals * part.rotations
    outs = [f for _, f in _outputs(args)]
    whole = part.extra.get("complete") is True  # (the signal came as the last chunks were written)
    covers = (f"every deal was played ({total:,})" if whole else
              f"the summary covers the {part.deals:,} deals played of {total:,}")
    if e.kept_files:
        named = " and ".join(printable(f) for f in outs)
        return covers + "; " + (f"written to {named}, complete" if whole else
                                f"written to {named}, marked incomplete (sim.read_metadata: complete false)")
    if not e.existing:
        return covers + "; no file asked for"
    # (each named: the new-user pass of 2026-12-06 found "... and ... is kept", and the new file not written
    # not said)
    old = [f for f in outs if f in e.existing]
    new = [f for f in outs if f not in e.existing]
    return (covers + "; no file written: " + " and ".join(printable(f) for f in old)
            + (" already existed and is kept" if len(old) == 1 else " already existed and are kept")
            + " (only a complete run replaces a file)"
            + (f", so {' and '.join(printable(f) for f in new)} was not written either" if new else ""))


#: The parameters of :func:`sim.batch.simulate` and :class:`sim.rules.Rules` whose errors name them
#: first ("deals must be ..."): the command line names them as its flags ("--deals must be ...").
_FLAG_NAMED = ("deals", "seed", "threads", "chunk", "players")


def _as_flag(msg: str) -> str:
    """``msg`` of the API with a leading parameter name written as its flag (``seed must`` -> ``--seed
    must``; ``cannot write output F: ...`` -> ``--out: cannot write F: ...``), as the command line's own
    checks and ``brisca solve`` and ``brisca puzzles`` name them."""
    for name in _FLAG_NAMED:
        if msg.startswith(name + " must "):
            return "--" + msg
    if msg.startswith("remove="):  # (Rules' "remove=all2s applies to ...": as the CLI's own --remove check)
        return "--remove " + msg[len("remove="):]
    if msg.startswith("deck ") and " cannot be played by " in msg:  # (as --remove's: break-it pass 34)
        return "--" + msg
    for label, flag in (("tricks output", "--tricks"), ("output", "--out")):  # (simulate's file labels)
        if msg.startswith(f"{label} path "):  # "output path '' is not a file name"
            return f"{flag}: " + msg[len(f"{label} path "):]
        if msg.startswith(f"cannot write {label} "):  # as brisca solve/puzzles: "--out: cannot write F: ..."
            return f"{flag}: cannot write " + msg[len(f"cannot write {label} "):]
        if msg.startswith(f"{label}: "):  # "output: cannot be opened for writing: /dev/tty" (break-it pass of
            return f"{flag}: " + msg[len(f"{label}: "):]  # 2026-12-05: named "output", not --out)
    if msg == "the deal table and the tricks table need two different files":
        return "--out and --tricks need two different files"
    nested = re.fullmatch(r"(out|tricks_out)=(.*) would have to be a directory holding (out|tricks_out)=(.*)", msg, re.S)
    if nested:  # (simulate's out= inside tricks_out= or the reverse, named by their flags: break-it pass 43)
        flag = {"out": "--out", "tricks_out": "--tricks"}
        return (f"{flag[nested[1]]} {nested[2]} would have to be a directory holding {flag[nested[3]]} "
                f"{nested[4]}")
    return msg


def _version() -> str:
    """The installed distribution's version (pyproject.toml), or "unknown" when run from a bare checkout."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("brisca")
    except PackageNotFoundError:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    """The ``brisca`` parser with its subcommands (``simulate``, and the solver's when available: a
    :mod:`solver.cli` that cannot be imported or registered prints one ``brisca: warning:`` line on stderr
    and leaves them out).

    Returns
    -------
    argparse.ArgumentParser
        The parser (a :class:`_Parser`: one-line errors, exit status 2); each subcommand sets ``func``.
    """
    p = _Parser(prog=PROG, formatter_class=_Help,
                description="brisca: simulator and open-hand solver for Brisca, the Spanish trick-taking card game.")
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    add_simulate(sub)
    try:
        from solver import cli as solver_cli
        register = getattr(solver_cli, "register", None)
    except Exception as e:  # a broken solver import must not break `brisca simulate`, but must be seen
        print(f"{PROG}: warning: solver subcommands unavailable ({type(e).__name__}: {e})", file=sys.stderr)
        register = None
    if register is not None:
        try:
            register(sub)
        except Exception as e:
            print(f"{PROG}: warning: solver subcommands unavailable ({e})", file=sys.stderr)
    return p


def stdout_failed(e: OSError) -> int:
    """After writing to stdout raised ``e``: point stdout's descriptor at the null device (so that
    Python's flush at exit does not raise again) and return the exit status.

    Parameters
    ----------
    e : OSError
        What the write raised.

    Returns
    -------
    int
        141 (128 + SIGPIPE, quietly, as a shell reports a tool killed by a closed pipe) when the reader
        went away (``| head``: ``BrokenPipeError``), else 1 after a one-line error on stderr (``> /dev/full``).
    """
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, sys.stdout.fileno())
        finally:
            os.close(null)
    except (OSError, ValueError, AttributeError):  # no real descriptor (a captured or replaced stream)
        pass
    if isinstance(e, BrokenPipeError):
        return 141
    print(f"{PROG}: error: writing the output failed: {e.strerror or e}", file=sys.stderr)
    return 1


#: Seconds a command gets to unwind after Ctrl-C / SIGTERM / SIGHUP before the process exits without it.
UNWIND_SECONDS = 2.0

#: What :func:`run_interruptible` calls (in the main thread, in order, errors ignored) before the process
#: ends without unwinding: a command's way to keep what it finished (``brisca solve --file --out``
#: writes the records it made; break-it pass of 2026-12-05: they were lost when the signal came
#: during a compiled search). Added by :func:`on_hard_exit`, removed by :func:`drop_hard_exit`.
_HARD_EXIT_HOOKS = []


def on_hard_exit(hook):
    """Register ``hook`` to run if the command must end without unwinding.

    :func:`run_interruptible` calls every registered hook, in the main thread and in order of
    registration, after Ctrl-C, SIGTERM or SIGHUP found the command's thread still inside compiled code (or a
    blocking read) ``UNWIND_SECONDS`` later, before it removes the temporary files and ends the process
    with 130/143/129. A hook saves what the command finished (its own message on stderr); what it raises is
    ignored, and further signals are ignored while the hooks run (a hook may wait for a write). A
    command that unwinds calls its keeper itself and unregisters it (:func:`drop_hard_exit`), so a hook
    must be safe to call from either thread, once.

    Parameters
    ----------
    hook : callable
        ``hook()``, no arguments, result ignored.

    Returns
    -------
    callable
        ``hook`` itself (usable as a decorator).
    """
    _HARD_EXIT_HOOKS.append(hook)
    return hook


def drop_hard_exit(hook):
    """Unregister a hook of :func:`on_hard_exit`.

    Parameters
    ----------
    hook : callable
        A registered hook; one that is not registered is ignored (no error).
    """
    try:
        _HARD_EXIT_HOOKS.remove(hook)
    except ValueError:
        pass


def _run_hard_exit_hooks():
    """Call every :func:`on_hard_exit` hook in order, what they raise ignored, with SIGINT, SIGTERM and
    SIGHUP ignored meanwhile: a hook may wait for a write in progress (break-it pass of 2026-12-06: a third
    signal broke that wait, and the half-written file of a finished run was then removed as a temporary).
    A write still waiting for a FIFO's reader gives up meanwhile (:func:`sim.batch.giving_up_on_readers`:
    nothing written, nothing to wait for; break-it pass 33). The handlers are restored after."""
    import signal
    held = {}
    for sig in [signal.SIGINT] + [sig for sig, _ in _stopping_signals()]:
        try:
            held[sig] = signal.signal(sig, signal.SIG_IGN)
        except (ValueError, OSError):  # (not the main thread)
            pass
    try:
        from .batch import giving_up_on_readers  # (loaded already by every command that registers a hook)
        with giving_up_on_readers():  # (a keeper waiting for a FIFO's reader gives up: break-it pass 33)
            for hook in list(_HARD_EXIT_HOOKS):
                try:
                    hook()
                except BaseException:
                    pass
    finally:
        for sig, handler in held.items():
            try:
                signal.signal(sig, handler)
            except (ValueError, OSError, TypeError):
                pass


def _raise_in(t, exc_type, timeout: float) -> bool:
    """Raise ``exc_type`` in thread ``t`` (``PyThreadState_SetAsyncExc``) holding
    :data:`sim.threads.THREAD_START`, so never while ``t`` is starting a thread: on CPython 3.11 the new
    thread's state carries its creator's id until its bootstrap runs, and the exception could land in
    it instead (it died before saying it started, and ``t`` waited in ``Thread.start()`` for good: break-it
    pass 31). A start takes microseconds, but a progress bar made under the lock writes its first line to
    stderr, which a stalled pipe can block: after ``timeout`` seconds nothing is sent and False is returned
    (the grace then ends the process, as it ends one stuck in a write). A signal while this waits raises
    here (nothing sent); one landing after the lock is taken leaves it held, but :func:`run_interruptible`
    then ends the process at once (a second signal)."""
    import ctypes

    from .threads import THREAD_START
    if not THREAD_START.acquire(timeout=max(timeout, 0.0)):
        return False
    try:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(t.ident), ctypes.py_object(exc_type))
    finally:
        THREAD_START.release()
    return True


def run_interruptible(fn, args, unwind=UNWIND_SECONDS, hard_exit=os._exit):
    """``fn(args)`` in a worker thread, so that Ctrl-C, SIGTERM and SIGHUP are answered at once.

    A compiled solve (numba, no GIL) can run for minutes (a full 6-player deal), and Python runs
    signal handlers only between bytecodes of the main thread: called directly, ``brisca`` would
    ignore Ctrl-C until the solve returned. Here the main thread only waits; on Ctrl-C, SIGTERM or
    SIGHUP it raises the same exception in the worker (never while the worker starts a thread:
    :mod:`sim.threads`), which unwinds as before (temporary files removed,
    the command's own message; one writing what it finished, :func:`sim.batch.keeping`, is waited for
    up to the time it asked). A worker still inside compiled code after ``unwind`` seconds
    (or blocked reading a pipe) cannot be stopped: the temporary files of open outputs are removed
    (:func:`sim.batch.remove_temporaries`), stdout is flushed (records already printed are kept)
    and the process ends by ``hard_exit(130)`` (Ctrl-C), ``hard_exit(143)`` (SIGTERM) or
    ``hard_exit(129)`` (SIGHUP) after one line on stderr. A second signal during the ``unwind`` seconds
    ends it at once, its own kind naming the exit status.

    Parameters
    ----------
    fn : callable
        The command: ``fn(args)`` returns its exit status (int or None).
    args : argparse.Namespace
        Its parsed arguments.
    unwind : float
        Seconds the worker gets to unwind after the first signal (default ``UNWIND_SECONDS``, 2 s).
    hard_exit : callable
        Ends the process with a status, ``os._exit`` (tests pass a stand-in).

    Returns
    -------
    int or None
        The command's exit status (called outside the main thread: ``fn(args)`` directly).

    Raises
    ------
    BaseException
        Whatever the command raised (``SystemExit``, ``KeyboardInterrupt``, ``_Terminated``, ``_HungUp``, ...),
        raised again in the calling thread.
    """
    import threading
    import time
    if threading.current_thread() is not threading.main_thread():
        return fn(args)
    box = {}
    done = threading.Event()
    from .batch import keeping
    keeping(0.0)  # (an earlier command's request to be waited for is not this one's: break-it pass 18)

    def work():
        try:
            try:
                box["code"] = fn(args)
            except BaseException as e:  # (SystemExit, KeyboardInterrupt too: raised again below)
                box["exc"] = e
        except BaseException as e:  # the interruption landed just as the command ended (its own kind:
            box.setdefault("exc", e)  # a SIGTERM stays a SIGTERM, break-it pass of 2026-12-06)
        while True:  # (the interruption can land in done.set() itself: set it again, no traceback;
            try:     #  break-it pass of 2026-12-06: the thread died there and the process was ended
                done.set()  # "without unwinding" although the command had returned)
                return
            except BaseException as e:
                box.setdefault("exc", e)

    t = threading.Thread(target=work, name="brisca-command", daemon=True)
    t.start()
    # (polling with sleep, not Thread.join: a signal interrupting join's lock wait can mark the
    # thread finished while it still runs, CPython 3.11-3.12)
    try:
        while not done.is_set():
            time.sleep(0.05)
    except KeyboardInterrupt as e:
        how, code = _ending(e)
        second = False
        end = time.monotonic() + unwind
        from .batch import keep_deadline  # (a command writing what it finished asks for longer: sim.batch.keeping)
        try:
            if not done.is_set():  # (a command that has just returned is not interrupted)
                _raise_in(t, type(e), end - time.monotonic())  # (inside the try: a second signal while it waits)
            while not done.is_set() and time.monotonic() < max(end, keep_deadline()):
                time.sleep(0.05)
        except KeyboardInterrupt as e2:  # a second signal: stop now (the last one names the exit)
            how, code = _ending(e2)
            second = True
        if not done.is_set():
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except Exception:
                    pass
            try:
                # (a progress bar still open ends its line first)
                from tqdm import tqdm
                if getattr(tqdm, "_instances", None):
                    print(file=sys.stderr, flush=True)
            except Exception:
                pass
            _run_hard_exit_hooks()  # what the command finished is kept (its own message)
            from .batch import remove_temporaries
            remove_temporaries()
            try:
                why = ("a second signal" if second else
                       f"still running after {unwind:g} s: a compiled search, a blocking read or a long write")
                print(f"{PROG}: {how} (stopped "
                      f"without unwinding, {why}; unfinished temporary files removed, files written above kept)",
                      file=sys.stderr, flush=True)
            except Exception:
                pass
            return hard_exit(code)
    if "exc" in box:
        raise box["exc"]
    return box.get("code")


class _ClosedStream(io.TextIOBase):
    """``sys.stdout`` when the process started with it closed (Python sets it to None): every write
    raises ``OSError(EBADF)``, which ``main`` reports as other failed writes (one line, exit 1), so
    output such as ``brisca puzzles``' lines is never lost without a word; ``--out`` files are still
    written. Nothing written is an empty flush."""

    def writable(self):
        return True

    @staticmethod
    def error() -> OSError:
        """The error every write raises."""
        return OSError(errno.EBADF, "standard output is closed")

    def write(self, text):
        if not text:
            return 0
        raise self.error()

    def fileno(self):
        raise self.error()


class _Messages:
    """``sys.stderr`` while a command runs: a message or progress bar that cannot be written
    (``2>/dev/full``, ``2>&1 | head -1`` once the reader is gone) is dropped, so that the exit
    status stays the command's own (2 for bad input) and a progress bar's failed write cannot
    leave its lock held (tqdm: the process then hung at exit). Everything else is the stream's."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        try:
            return self._stream.write(text)
        except (OSError, ValueError):
            return len(text)

    def flush(self):
        try:
            self._stream.flush()
        except (OSError, ValueError):
            pass

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _quiet_interrupts(default):
    """``sys.unraisablehook`` for a command: the interruption :func:`run_interruptible` raises in the
    command's thread can land in a callback that cannot raise (numba's compiler calls Python through
    ctypes while it compiles), where Python would print it as "Exception ignored ..." with a traceback
    (break-it pass of 2026-12-05); such an interruption is dropped quietly (the command then ends as
    :func:`run_interruptible` says), anything else goes to ``default``."""
    def hook(u):
        if isinstance(u.exc_value, KeyboardInterrupt) or (
                isinstance(u.exc_type, type) and issubclass(u.exc_type, KeyboardInterrupt)):
            return
        default(u)
    return hook


def main(argv=None):
    """Console script ``brisca``: parse ``argv``, run the subcommand (:func:`run_interruptible`),
    ``sys.exit`` with its status.

    Parameters
    ----------
    argv : list of str, optional
        The words after the program name (default ``sys.argv[1:]``; none: the help on stderr, status 2).

    Raises
    ------
    SystemExit
        Always, with the command's exit status (0 ok, 2 bad input, 1 a failed command or write, 141 a
        closed pipe on stdout, 130 Ctrl-C, 143 SIGTERM, 129 SIGHUP).
    """
    import signal
    import threading

    if sys.stderr is None:  # started with stderr closed (`brisca ... 2>&-`): messages go nowhere
        sys.stderr = open(os.devnull, "w")
    if sys.stdout is None:  # started with stdout closed (`brisca ... >&-`): its first write fails (exit 1),
        sys.stdout = _ClosedStream()  # as other Unix tools do, instead of losing the output silently
    stderr = sys.stderr
    sys.stderr = _Messages(stderr)
    unraisable = sys.unraisablehook
    sys.unraisablehook = _quiet_interrupts(unraisable)
    # SIGTERM (kill, timeout, a scheduler) and SIGHUP (the terminal closed) unwind like Ctrl-C, so every command
    # keeps what it finished and removes its temporary files. A signal ignored on entry stays ignored, as Python
    # leaves an ignored SIGINT: `nohup brisca ... &` must outlive its terminal (review of 2026-12-07), and a
    # parent that ignored SIGTERM for its child meant it (2026-12-07, fifth part; as benchmarks/_common.stops_raise).
    held = {}
    if threading.current_thread() is threading.main_thread():
        for sig, handler in _stopping_signals():
            if signal.getsignal(sig) != signal.SIG_IGN:
                held[sig] = signal.signal(sig, handler)
    try:
        from .threads import numba_threads_problem
        bad = numba_threads_problem()  # (before build_parser, whose imports load numba)
        if bad:
            sys.exit(_fail(bad))
        parser = build_parser()
        if not (sys.argv[1:] if argv is None else argv):
            parser.print_help(sys.stderr)  # bare `brisca`: the commands, not only "COMMAND is required"
            sys.exit(2)
        args = parser.parse_args(argv)  # (--help prints here)
        code = run_interruptible(args.func, args)
        sys.stdout.flush()
    except KeyboardInterrupt as e:
        # (simulate reports its own interruption; this is the other commands': one line, no traceback)
        how, code = _ending(e)
        print(f"{PROG}: {how}", file=sys.stderr)
    except OSError as e:
        # the commands report their own files' errors; what reaches here is stdout itself: its reader went
        # away (`brisca solve ... | head`: stop quietly, like other Unix tools) or it is full (`> /dev/full`)
        code = stdout_failed(e)
    finally:
        batch = sys.modules.get("sim.batch")
        if batch is not None:  # the output directories this run made and left empty go (sim.batch.make_parents)
            batch.remove_pending_dirs()
        for sig, handler in held.items():
            if handler is not None:  # (None: a handler not set from Python, which cannot be put back)
                signal.signal(sig, handler)
        sys.stderr = stderr
        sys.unraisablehook = unraisable
        try:  # (a message that could not be written, `2>/dev/full`: Python's own flush at exit would
            stderr.flush()  # turn the command's status into 120; mutation pass of 2026-12-06)
        except (OSError, ValueError):
            sys.stderr = open(os.devnull, "w")
    sys.exit(code if code is not None else 0)


if __name__ == "__main__":  # (python -m sim.cli: the importable module's main, whose hard-exit hooks are the ones
    from sim.cli import main as _main  # solver.cli registers; this copy's list stayed empty and none ran)
    _main()
