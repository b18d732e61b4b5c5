"""``brisca solve`` and ``brisca puzzles`` (issue 3).

``sim/cli.py`` (the ``brisca`` command) calls :func:`register` on its subparsers.
``python -m solver.cli ...`` runs that same command (``brisca``'s handling of
Ctrl-C, unwritable output and messages included); :func:`main` is the bare
in-process entry the tests call (parse, run, return the exit code).

Exit codes (each command's ``--help`` gives them in full): 0 ok; 1 some lines of
``--file`` were invalid (the others are still solved), fewer puzzles than
``--count`` were found, or the output could not be written; 2 bad input (one-line
error on stderr); 130/143/129 interrupted (Ctrl-C, SIGTERM, SIGHUP); 141 stdout's reader went away.
"""
from __future__ import annotations

import argparse
import codecs
import collections
import io
import itertools
import json
import os
import re
import select
import stat
import sys
import textwrap
from pathlib import Path

from sim.batch import (device_open_problem, progress_bar, same_file, stream_is_terminal, temp_beside,
                       utf8_text)
from sim.paths import open_probe
from sim.cli import (Wrapped, _Help, _count, _ending, _fail, add_rule_options, dash_output, drop_hard_exit, note_format,
                     numbers_as_values, on_hard_exit, refuse_closed_stdout, rules_from_args, stdout_failed,
                     suffix_format)
from sim.cards import printable, show_input
from sim.threads import start_thread, starting_threads

from .position import count_of
from .puzzles import TRIES_PER_PUZZLE, default_max_tries


def _paragraphs(*texts: str, width: int = 78) -> str:
    """Help text from paragraphs: each filled to ``width`` columns, except those starting with two
    spaces (examples), kept as written."""
    # (no break at hyphens: "--max-tries" stays whole, new-user pass of 2026-12-05)
    return "\n".join(t if t.startswith("  ") else textwrap.fill(t, width, break_on_hyphens=False) for t in texts)


def register(subparsers) -> None:
    """Add the ``solve`` and ``puzzles`` subcommands to an argparse ``subparsers`` object.

    Parameters
    ----------
    subparsers
        What :meth:`argparse.ArgumentParser.add_subparsers` returned; each subcommand's ``func``
        default is its runner (:func:`cmd_solve`, :func:`cmd_puzzles`).
    """
    p = subparsers.add_parser(
        "solve", help="exact value of a position with open hands (NOTATION.md)",
        description="Solve positions exactly: every move's value (card points the side to move still\n"
                    "captures) and a principal variation.",
        formatter_class=Wrapped,
        epilog=_paragraphs(
            "positions: the notation of NOTATION.md (in the shared folder; the README says where), e.g.",
            '  brisca solve "players=2 trump=5B hands=3C,6C/10O,2C,12E \\\n'
            '               stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"',
            "(value 26: seat 1 still captures 26 card points playing 2C, 18 with 10O, 16 with 12E). The "
            "moves are printed best first with their values, a * marking each move of the best value (the "
            "JSON key best), then the principal variation (pv): both sides' moves from here on under perfect "
            "play. The JSON key wins lists the moves after which the side to move ends with 61 card points or "
            "more, counting its points= (R8; [] when none; the text output's line before pv): null with 3 players, "
            "stock=?, --target/--win and a finished deal.",
            "values: card points the side to move still captures (points= not included) with every hand open "
            "and both sides playing perfectly; with 4 or 6 players the side is the mover's team (seats of "
            "the same parity, RULES R3); with 3 players it is the paranoid value: the mover alone against "
            "the other two seats playing together, a lower bound on what it gets against two players who "
            "each play for themselves.",
            "stock=? hides the draw order (expectation over orders, at most 8 cards to draw); it needs "
            "played=... so that the face-down cards are known as a set; its value is an expectation, and no "
            "principal variation is printed (the draws are chance events: pv is [] in --json); with "
            "--target/--win, reached says whether the expected points reach the target. Only the stock may "
            "be hidden: a hidden hand (hands=...? or ?, a seat's view in NOTATION.md) is refused, the solver "
            "needing every hand.",
            "--file prints one JSON line per position (with \"line\"; a bad line gives {\"line\": n, "
            "\"position\": its text, \"error\": ...} and the others are still solved).",
            "Exit status: 0 ok; 1 some --file lines were invalid, or the output could not be written; 2 bad "
            "input (one-line error on stderr); 141 stdout's reader went away (| head: with --out the file is "
            "still written in full); 130/143/129 interrupted by Ctrl-C/SIGTERM/SIGHUP (with --file, the "
            "records made so far are written to an --out file that did not exist, saying it is a part: "
            "complete false in a table's metadata, "
            "a last line {\"complete\": false, \"rows\": R, \"total\": T} in JSON lines; an existing one is "
            "kept; else no --out file).",
            "--out F.jsonl (or .ndjson, .json) writes the JSON lines --json prints; any other name a parquet "
            "table. Its columns (one row per record, as the JSON lines): line (--file), position, value, moves, "
            "best, wins and pv (JSON text: move -> value, list, list, list; a null wins is a null cell), nodes, "
            "ms, target/reached/seat (target mode), error (--file: an invalid line's message, and its other "
            "columns null except line and position; null for solved lines). One schema whatever the lines and the"
            " run (every table has every column, null where it does not apply): value float64 (exact integers "
            "with a known stock), line/nodes/target/seat int64 with nulls, reached bool; pandas.read_parquet(...,"
            " dtype_backend='numpy_nullable') keeps them integers."))
    p.add_argument("position", nargs="?", help="a position string (quote it)")
    p.add_argument("--file", "-f", help="one position per line ('-': standard input, solved line by line as "
                                        "it comes); blank lines and comments "
                                        "(from # to the end of the line) skipped; a JSON object line (brisca "
                                        "puzzles, solve --json) gives its \"position\" (a # in its strings is "
                                        "text), the line that ends an interrupted run's JSON lines skipped; "
                                        "UTF-8, UTF-16 or UTF-32; lines of at most 1,048,576 characters; a "
                                        "parquet table (a file or '-' starting with PAR1: puzzles or solve "
                                        "--out) gives its position column, row i as line i")
    p.add_argument("--json", action="store_true", help="print one JSON object per position")
    p.add_argument("--out", help="also write the records to this parquet file, or as JSON lines when its name ends "
                                 "in .jsonl, .ndjson or .json (atomic: a temporary file renamed "
                                 "when complete; missing parent directories are created; a device or pipe is "
                                 "written in place; not this command's own stdin/stdout/stderr or a terminal)")
    p.add_argument("--target", type=_count, help="only answer: can the side to move still capture TARGET points?")
    p.add_argument("--win", action="store_true", help="target = 61 minus the points the side already holds")
    p.add_argument("--seat", type=_count, help="with --target/--win: ask for the side of seat SEAT instead of the side "
                                            "to move (e.g. grading a puzzle answer on the position after it)")
    p.add_argument("--play", metavar="MOVES", help="comma-separated moves (cards or swap) to play first, checked "
                                                   "legal; the position after them is solved (one position only). "
                                                   "Grading a puzzle answer: --play ANSWER --win --seat S, S the "
                                                   "seat that answered")
    p.add_argument("--threads", type=_count, default=1, metavar="N",
                   help="worker threads for --file (default 1, at most 256; each holds a 32 MB table)")
    p.add_argument("--no-pv", action="store_true", help="skip the principal variation")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr for --file, nor the note "
                                                               "that a first run is compiling")
    p.set_defaults(func=cmd_solve)
    numbers_as_values(p)  # (--target -1e3; also under solver.cli.main's plain argparse)

    q = subparsers.add_parser(
        "puzzles", help="generate positions where exactly one move reaches 61",
        description=_paragraphs("Positions (any phase) of random open-hand deals where exactly one legal move "
                                "lets the side to move reach 61 card points, with a solution line."),
        formatter_class=_Help,  # (as brisca simulate's: the rule options' defaults shown, new-user pass 29)
        epilog=_paragraphs(
            "One JSON line per puzzle (with --out F.parquet one row per puzzle, moves and pv as JSON text): "
            "position, move (the only move reaching 61), value (its exact points for the side to move), need "
            "(future points it needs for 61), moves (every move's value), pv, deal (deal index of --seed), ply "
            "(moves played from the deal's start), seat (the seat to move, who answers: the position's turn). "
            "The table's rules are brisca simulate's options (--deck, --exchange, --endgame, --remove, with "
            "the same defaults) and each position carries them, so brisca solve reads them back; --exchange-condition "
            "won-trick is refused (a position has no field for it). "
            "Grading an answer: it is right when its value in moves is at "
            "least need (only the record's move is); or run brisca solve --play ANSWER --win --seat S on the "
            "puzzle's position, S the record's seat (the turn may have passed to another side), which "
            "tells whether that side can still reach 61. Exit status: 0 ok, 1 fewer than --count puzzles found "
            "within --max-tries (those found are written) or the output could not be written, 2 bad input, "
            "130/143/129 interrupted by Ctrl-C/SIGTERM/SIGHUP (the puzzles found so far are printed, or written "
            "to an --out file that did not exist, a JSON-lines file ending with a line {\"complete\": false, ...}: an "
            "existing one is only replaced by a complete run), 141 stdout's reader went away."))
    q.add_argument("--count", type=_count, default=10, metavar="N",
                   help="puzzles to find (1000, 1_000 or 1e3; default: 10)")
    q.add_argument("--players", type=_count, default=2, metavar="N",
                   help="players: 2, 3, 4 or 6 (R3): 4 and 6 play as two teams, 3 each for itself (the paranoid "
                        "value) (default: 2; any other count is refused with brisca simulate's message)")
    q.add_argument("--seed", type=_count, default=1, help="seed of the deals searched (default: 1)")
    q.add_argument("--out", help="JSON lines file, or a parquet table when its name ends in .parquet or .pq "
                                 "(moves and pv as JSON text; default: JSON lines on stdout; missing parent "
                                 "directories are created)")
    q.add_argument("--max-tries", type=_count, default=0, metavar="N",
                   help=f"positions to try (0, the default: {TRIES_PER_PUZZLE} * count, at most 2**63 - 1)")
    q.add_argument("--no-progress", action="store_true",
                   help="no progress bar on stderr (puzzles found, positions tried), nor the note that a first "
                        "run is compiling")
    add_rule_options(q.add_argument_group("rules (RULES.md), as brisca simulate's"),
                     condition_note="; puzzles: any only (a position string cannot say won-trick)")
    q.set_defaults(func=cmd_puzzles)
    numbers_as_values(q)


def _fmt_value(v):
    return f"{v:.4f}" if isinstance(v, float) else str(v)


def _record(res, line=None):
    d = res.to_dict()
    if line is not None:
        d = {"line": line, **d}
    return d


def _side_text(pos) -> str:
    """Whose value ``brisca solve`` prints: the side of the seat to move (`` for seat 1``; `` for seats 0
    and 2`` with 4 and 6 players, one team, R3; `` for seat 0 against seats 1 and 2`` with 3 players, the
    paranoid value). New-user pass 22: the line said ``value 26`` without the seat."""
    r, t = pos.rules, pos.turn
    team = r.side_seats(r.side_of(t))
    if len(team) > 1:
        return " for seats " + ", ".join(map(str, team[:-1])) + f" and {team[-1]}"
    if r.players == 3:
        a, b = (s for s in range(3) if s != t)
        return f" for seat {t} against seats {a} and {b}"
    return f" for seat {t}"


def _print_human(res, win=False, pos=None):
    print(res.position)
    if res.target is not None:
        t = res.target
        if t > 0:
            what = f"target {count_of(t, 'more point')}"
            why = ""
        else:  # answered without a search
            what = f"target {t}"
            why = (" (the side already holds 61 or more)" if win else " (a target of 0 or less is always reached)")
        print(f"{what} for the side of seat {res.seat}: {'reached' if res.reached else 'not reached'}{why}"
              f"  ({count_of(res.nodes, 'node')}, {res.ms:.1f} ms)")
        return
    whose = _side_text(pos) if pos is not None else ""
    if pos is not None and pos.stock is None:
        # stock=?: an expectation over the draw orders (user study 65b: the line read as exact points)
        whose += ", expected over the stock's orders"
    print(f"value {_fmt_value(res.value)}{whose}  ({count_of(res.nodes, 'node')}, {res.ms:.1f} ms)")
    for m, v in res.moves.items():
        print(f"  {m:>5} {_fmt_value(v)}{'  *' if m in res.best else ''}")
    wins = _wins_text(res, pos)
    if wins:
        print(wins)
    if res.pv:
        print("pv " + " ".join(res.pv))


def _wins_text(res, pos) -> str:
    """The line of ``brisca solve``'s text output naming the moves that win the deal for the side to move
    (61 card points or more, R8), two sides and a known stock only (with three players the most points win,
    and a ``stock=?`` value is an expectation); ``""`` otherwise. User study 65b: checking that a puzzle has
    exactly one winning move took a ``--play ... --win`` per move or sums by hand. The moves are
    :attr:`solver.api.SolveResult.wins` (the records' ``wins`` key)."""
    if pos is None or res.wins is None:
        return ""
    held = pos.side_points(pos.turn)
    if held >= 61:
        return f"every move wins: the side already holds {held} card points (61 or more, R8)"
    winning = res.wins
    if winning:
        return (f"{'the move that wins' if len(winning) == 1 else 'moves that win'} (61 or more with the "
                f"side's {held}, R8): {', '.join(winning)}")
    top = held + max(res.moves.values())
    return ("no move wins: at best a 60-60 draw (R8)" if top == 60
            else f"no move wins: at best {top} of the 61 needed (the side holds {held}, R8)")


#: The columns of every ``--out`` table with their arrow types (``SolveResult.to_dict``'s keys; every
#: table also has ``line`` and ``error`` (``--file``) and ``target``, ``reached``, ``seat`` (target mode),
#: null where they do not apply: :func:`_write_parquet`).
_COLUMNS = (("position", "string"), ("value", "float64"), ("moves", "string"), ("best", "string"),
            ("wins", "string"), ("pv", "string"), ("nodes", "int64"), ("ms", "float64"))


def _run_metadata(table, rows, total=None, complete=True, run=None):
    """The ``brisca.*`` key-value metadata of a ``brisca solve`` or ``brisca puzzles`` parquet file
    (values JSON, as :func:`sim.batch.simulate` writes them; :func:`sim.batch.read_metadata` decodes
    them): ``table`` (``"solve"``, ``"puzzles"``), ``complete`` (the run ran to its end; false: the
    records of an interrupted run), ``rows`` (records in the file), ``total`` (position lines of
    ``--file``, or the ``--count`` asked for; default ``rows``: a puzzles run that ran out of
    ``--max-tries`` is complete with fewer rows), ``version`` and ``numba_version``; and the keys of ``run``
    (a dict of JSON values, or None: ``brisca puzzles`` gives ``rules``, ``seed`` and ``max_tries``, what
    repeats the run)."""
    from sim.batch import _versions

    total = rows if total is None else total
    md = {"table": table, "complete": bool(complete), "rows": int(rows), "total": int(total), **(run or {}),
          **_versions()}
    return {f"brisca.{k}": json.dumps(v) for k, v in md.items()}


#: Records made into table rows at a time by :func:`_write_parquet`.
_CHUNK = 16384


def _write_parquet(records, path, total=None, complete=True):
    """Write the records (dicts, or their JSON text; a sized iterable) as one parquet table (moves, best, pv as
    JSON text) through :func:`sim.batch.write_tables`, :data:`_CHUNK` records a row group: a temporary file
    renamed when complete, removed on failure; an existing device or pipe written in place; a symlink's target
    written. The file's metadata (:func:`_run_metadata`) says whether the run was ``complete`` and how many
    records of ``total`` (default: the records given) it holds."""
    import pyarrow as pa

    from sim.batch import write_tables

    cols = (("line", "int64"),) + _COLUMNS + (("target", "int64"), ("reached", "bool"), ("seat", "int64"),
                                              ("error", "string"))
    # one schema whatever the records and the run (tables of several runs concatenate: pyarrow and
    # pd.read_parquet of a folder take the first file's schema, and dropped the target columns of the
    # others when only some runs were in target mode; noted 2026-12-05): an invalid --file line leaves
    # its row's columns null without turning the integer columns into float; line and error are null
    # for one position, target, reached and seat outside target mode; value is float64 (exact integers
    # with a known stock, expectations with stock=?)
    schema = pa.schema([pa.field(c, pa.type_for_alias(t)) for c, t in cols],
                       metadata=_run_metadata("solve", len(records), total, complete))
    write_tables(schema, _tables(records, schema), path, "--out")


def _tables(records, schema):
    """:func:`_write_parquet`'s records as tables of :data:`_CHUNK` rows, made one at a time (the rows'
    dicts of a whole run would take gigabytes; ``records`` may be a :class:`_Spill` read from disk)."""
    import pyarrow as pa

    it = iter(records)
    while chunk := list(itertools.islice(it, _CHUNK)):
        rows = []
        for r in chunk:
            row = json.loads(r) if isinstance(r, str) else dict(r)  # (brisca solve --file keeps JSON text)
            for k in ("moves", "best", "wins", "pv"):
                if row.get(k) is not None:  # (wins: null where a win is not 61 points, SolveResult.wins)
                    row[k] = json.dumps(row[k])
            for k, v in row.items():
                if isinstance(v, str) and not v.isascii():  # (a lone surrogate in an echoed input: arrow
                    row[k] = utf8_text(v)                    # refuses the whole table)
            rows.append(row)
        del chunk
        yield pa.Table.from_pylist(rows, schema=schema)


def _out_problem(path):
    """Why ``path`` cannot be written (no file name, a directory, a directory that cannot be created or
    written, an unwritable file), else None; checked before any solving, missing parent directories
    created (and removed again when refused). An existing device or pipe (``/dev/null``,
    ``/dev/stdout``) needs only to be writable; a symlink is checked where it points."""
    from sim.batch import make_parents, remove_created, special_target

    if os.path.basename(path) in ("", ".", ".."):
        return f"{path!r} is not a file name"
    if why := dash_output(path):
        return why
    if not os.path.isabs(path):
        try:
            os.getcwd()
        except OSError as e:
            return f"a relative path, and the working directory is gone ({e.strerror or e})"
    if os.path.isdir(path):
        return f"cannot write {path}: it is a directory"
    try:
        if special_target(path):  # a device or pipe, written in place
            if not os.access(path, os.W_OK):
                return f"cannot write {path}: it is not writable"
            return device_open_problem(path)  # (/dev/tty without a controlling terminal)
    except ValueError as e:
        return f"{path}: {e}"
    try:  # created as the kernel resolves the path as given (a symlink: its target's directories)
        created = make_parents(os.path.realpath(path) if os.path.islink(path) else path)
    except ValueError as e:  # (worded as brisca simulate words it: "cannot write P: not a directory: D")
        return f"cannot write {path}: {e}"
    bad = _out_checks(path)
    if bad:
        remove_created(created)  # a refused run leaves nothing behind
    return bad


def _out_checks(path):
    """:func:`_out_problem`'s checks once the directories exist."""
    real = os.path.realpath(path)
    d = os.path.dirname(real)
    if os.path.exists(real) and not os.access(real, os.W_OK):
        return f"cannot write {path}: file is not writable"
    # the write goes through a temporary file beside it: try making one first, so that
    try:  # a directory refused (root in /proc and /sys, where os.access says yes) reads as brisca simulate's
        fd, name = temp_beside(real, ".probe")
        os.close(fd)
        os.unlink(name)
    except OSError as e:  # (the directory named as given, as brisca simulate names it: not /proc/self as
        # /proc/<pid>, nor a relative path made absolute; a symlink's target directory: break-it pass of 2026-12-05)
        shown = d if os.path.islink(path) else (os.path.dirname(path) or ".")
        return f"cannot write {path}: cannot create a file in {shown} ({e.strerror or e})"
    return open_probe(path, real)  # (the file itself: an existing one that refuses writes)


def out_format(path, default: str) -> str:
    """The format an ``--out`` path asks for by its ending.

    Parameters
    ----------
    path : str
        The ``--out`` path.
    default : str
        The command's format (``"parquet"`` for ``brisca solve``, ``"jsonl"`` for ``brisca puzzles``),
        for any other ending and for a device or pipe (``/dev/null``).

    Returns
    -------
    str
        ``"parquet"`` (``.parquet``, ``.pq``) or ``"jsonl"`` (``.jsonl``, ``.ndjson``, ``.json``), in any
        case (:func:`sim.cli.suffix_format`), else ``default``.
    """
    fmt = suffix_format(path)
    return fmt if fmt in ("parquet", "jsonl") else default


def _json_lines(records, total=None, complete=True):
    """The JSON lines of ``records`` (a sized iterable), one a record, made as they are written; an interrupted
    run's (``complete`` false) end with one more line, ``{"complete": false, "rows": R, "total": T}``: the part
    of a run must not look like a whole one (a parquet file says it in its metadata, :func:`_run_metadata`; JSON
    lines have no other place for it, 2026-12-05)."""
    for r in records:
        yield (r if isinstance(r, str) else json.dumps(r)) + "\n"
    if not complete:
        part = (False, len(records), len(records) if total is None else int(total))
        yield json.dumps(dict(zip(_PART_KEYS, part))) + "\n"


#: The keys of the line that ends an interrupted run's JSON lines (:func:`_json_lines`, read back by
#: :func:`_json_position`).
_PART_KEYS = ("complete", "rows", "total")


def _write_records(records, path, total=None, complete=True):
    """``brisca solve``'s records to ``path``: the JSON lines ``--json`` prints (a ``.jsonl``, ``.ndjson``
    or ``.json`` name; :func:`_json_lines`), else one parquet table (:func:`_write_parquet`, its metadata
    saying whether the run was ``complete`` and its ``total``); whole or not at all."""
    if out_format(path, "parquet") == "jsonl":  # the lines --json prints, one a record
        _write_text(_json_lines(records, total, complete), path)
    else:
        _write_parquet(records, path, total, complete)


def _write_or_fail(records, path, rc):
    """``brisca solve``'s final ``--out`` write (:func:`_write_records`), said on stderr; returns ``rc``, or
    1 when the write failed (one error line)."""
    try:
        _write_records(records, path)
    except OSError as e:  # (disk full, file size limit): not bad input, as brisca simulate reports it
        return _fail(f"--out: cannot write {path}: {e.strerror or e}", 1)
    except ValueError as e:  # refused by the writer's own checks, after the run: not bad input either
        return _fail(str(e), 1)
    print(f"brisca: wrote {count_of(len(records), 'record')} to {printable(path)}", file=sys.stderr)
    return rc


# Small positions whose solves compile (or load) each kernel set, keyed by its player count: two players
# (solver.search.TWO), four (FOUR) and three, which stands for every other table (GENERAL: 3 and 6
# players), the stock known and hidden (stock=?: its expectimax binds that set).
_WARM = {2: "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17",
         3: "players=3 trump=12B hands=12O,7B,12B/4B,10B,12E/4E,6E,10C stock= turn=1 trick= points=44,60,0",
         4: "players=4 trump=4O hands=6O,3C/7E,10C/1O,5B/3B,4O stock= turn=0 trick= points=36,0,24,27"}
_WARM_HIDDEN = {2: "players=2 trump=11E hands=10O,2C,4E/11O,11C stock=12C turn=0 trick=10C points=27,76",
                3: "players=3 trump=12B hands=12O,7B,10E/1E,4B,10B/4E,6E,5O stock=12E,10C turn=0 trick= "
                   "points=44,47,0",
                4: "players=4 trump=4O hands=12O,7C,6O/10O,6B,7E/11C,4C,1O/5C,1B,3B stock=3C,10C,5B turn=2 "
                   "trick= points=16,0,24,27"}


def _kernel_set(players: int) -> int:
    """The player count that names the kernel set a table's solves use (:data:`_WARM`): 2 and 4 have
    their own, 3 and 6 share the general one."""
    return players if players in (2, 4) else 3


def _kinds(positions):
    """The kernel sets the positions need, for :func:`_warm_up`: ``{(kernel set, stock hidden)}``
    (:func:`_kernel_set`)."""
    return {(_kernel_set(p.rules.players), p.stock is None) for p in positions}


def _play(pos, moves: str):
    """``pos`` after the comma-separated ``moves`` (``--play``).

    Raises
    ------
    ValueError
        ``--play: move i (M): ...`` for a move that is not a card or swap, not legal, or needs a
        draw from a hidden stock.
    """
    items = [m.strip() for m in moves.split(",")]
    if not moves.strip() or any(not m for m in items):  # (its text cut: a 100 KB --play was echoed whole)
        raise ValueError(f"--play: expected comma-separated moves such as 1O,swap,3C, got {show_input(moves)}")
    for i, m in enumerate(items, 1):
        try:
            pos = pos.apply(pos.parse_move(m))
        except ValueError as e:  # (the API's "move: ..." already says which move: not "move" twice)
            msg = str(e).removeprefix("move: ")
            if len(m.split()) > 1:  # (user study 64: "10O 3C" read as one move; moves take commas)
                msg += f"; moves are separated by commas: {show_input(','.join(m.split()), quote=False)}"
            raise ValueError(f"--play: move {i} ({show_input(m, quote=False)}): {msg}") from None
    return pos


def _checked(pos, seat):
    """``pos``, checked: it can be solved (:func:`solver.chance.check_solvable`) and ``seat`` (``--seat``,
    or None) is one of its seats.

    Raises
    ------
    ValueError
        The position's own message, or ``--seat: ...`` (named as the flag, as the other flags' errors).
    """
    from .api import check_seat
    from .chance import check_solvable

    check_solvable(pos)
    try:
        check_seat(seat, pos)
    except ValueError as e:
        raise ValueError(f"--{e}") from None
    return pos


def _write_text(lines, path):
    """Write text ``lines`` to ``path`` the way tables are written (:func:`sim.batch.write_table`): a
    temporary file in the same directory renamed when complete (removed on failure or interrupt);
    a device or pipe written in place; a symlink's target written.

    Raises
    ------
    OSError
        If writing fails (the temporary file is removed).
    ValueError
        For a path :func:`sim.batch.special_target` refuses, or whose missing directories cannot be
        made again (:func:`sim.batch.make_parents`).
    """
    from sim.batch import _TEMPORARIES, make_parents, new_file_mode, open_for_writing, special_target

    if special_target(path):
        with open_for_writing(path, "w") as fh:  # (a FIFO: waiting for its reader where a signal can land)
            fh.writelines(lines)
        return
    real = os.path.realpath(path)
    make_parents(real)  # (again: another brisca run may have removed the empty directory meanwhile)
    fd, name = temp_beside(real)
    tmp = Path(name)  # (a new file of its own: never a link planted under a predictable name)
    _TEMPORARIES.add(tmp)  # (removed too if the process must end without unwinding)
    try:
        with open(fd, "w") as fh:
            fh.writelines(lines)
        try:  # an existing file keeps its mode (as brisca solve --out's tables do)
            mode = stat.S_IMODE(os.stat(real).st_mode)
        except OSError:
            mode = new_file_mode()
        os.chmod(tmp, mode)
        os.replace(tmp, real)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    finally:
        _TEMPORARIES.discard(tmp)


def _compiling_what(n: int, hid: bool, kinds) -> str:
    """What :func:`_warm_up`'s compile note names for kind ``(n, hid)`` of ``kinds``: the kernel set's
    solver, or its ``stock=?`` expectimax, which compiles the solver too when no known-stock request
    of that set came first (user study of 2026-12-07: a first ``stock=?`` solve's note named only the
    expectimax through a minute of compiling both)."""
    table = {2: "2-player", 4: "4-player"}.get(n, "3- and 6-player")
    if not hid:
        return f"the {table} solver"
    return f"the {table} stock=? expectimax" + ("" if (n, False) in kinds else " (and the solver it calls)")


def _warm_up(target: bool = False, kinds=frozenset({(2, False)}), note: bool = True) -> None:
    """Compile (or load from numba's cache) the search kernels a request uses before timing
    anything, so the ``ms`` reported is the solve alone: for each of ``kinds`` (:func:`_kinds`:
    the kernel set's player count, stock known or hidden) the exact search or the expectimax of
    ``stock=?``, and the target probe for ``--target``/``--win``. Each kind that takes more than
    1.5 s (a compile: loading from the cache takes well under a second) says so on stderr, naming
    itself alone (not with ``note=False``: ``--no-progress``)."""
    import threading

    from .api import solve
    from .position import Position

    for n, hid in sorted(kinds):
        what = _compiling_what(n, hid, kinds)
        timer = threading.Timer(1.5, lambda what=what: print(
            f"brisca: compiling {what} (once for each kind of request: numba caches it)...",
            file=sys.stderr, flush=True))
        timer.daemon = True
        if note:
            start_thread(timer)  # (sim.threads: an interruption of the command cannot land in it)
        try:
            if hid:  # a small relative with the stock order hidden (stock=?)
                h = Position.parse(_WARM_HIDDEN[n])
                solve(Position.make(h.rules, h.trump, h.hands, None, turn=h.turn, trick=h.trick, points=h.points,
                                    played=h.played))
            else:
                p = Position.parse(_WARM[n])
                solve(p)
                if target:
                    # a target the probe must search for (above the points left it is decided without
                    # loading the kernel's probe: 3-6 player --target timings then counted its loading)
                    solve(p, max(1, p.future_points() // 2))
        finally:
            timer.cancel()


def _json_position(text):
    """A ``--file`` line's position text and what is wrong with the line, ``(text, problem)``: a line in
    the notation as it is; a JSON object line (a line of ``brisca puzzles`` or of ``brisca solve
    --json``) its ``"position"``, so those files are read as they are; a line starting with ``{`` that
    is broken JSON or an object without a ``"position"`` string itself, with a ``ValueError`` naming
    that (``problem``, else None; the notation's own parse names a key=value line's problem); ``(None,
    None)`` for a blank or comment line and for the marker line that ends an interrupted run's JSON
    lines (:func:`_json_lines`). Each line is decoded once. ``text`` is the line with its surrounding
    blanks removed; a comment ('#' to the end of the line) is left out, after a JSON object's end for
    a JSON line (a '#' inside its strings is text: break-it pass of 2026-12-05)."""
    if text.startswith("["):  # (no notation line starts so: was "[\"players: unknown field", new-user pass of
        text = _uncommented(text)  # 2026-12-06, sixth part)
        return text, ValueError("position: the line starts with [ (a JSON array?); a JSON line must be an object "
                                "with a \"position\" string, as brisca puzzles and solve --json write")
    if not text.startswith("{"):
        text = _uncommented(text)
        return (text or None), None
    try:
        obj, end = json.JSONDecoder().raw_decode(text)  # (an object: the text starts with "{")
        rest = text[end:].strip()
        if rest and not rest.startswith("#"):
            raise json.JSONDecodeError("Extra data", text, len(text) - len(text[end:].lstrip()))
        text = text[:end]
    except RecursionError:  # (a line of 100,000 nested brackets: break-it pass of 2026-12-05)
        return _uncommented(text)[:60] + "...", ValueError("position: the line's JSON is nested too deeply")
    except ValueError as e:
        text = _uncommented(text)
        # (a plain ValueError too: int's limit of 4300 digits, third break-it pass of 2026-12-05)
        where = f"{e.msg} at column {e.colno}" if isinstance(e, json.JSONDecodeError) else str(e)
        return text, ValueError(f"position: the line starts with {{ but is not valid JSON ({where}); a JSON "
                                "line needs a \"position\" string, as brisca puzzles and solve --json write")
    if isinstance(obj.get("position"), str):
        text = obj["position"].strip()
        shown = utf8_text(text)
        if shown != text:  # (a lone surrogate escape, "\ud800": no table could hold the record)
            return shown, ValueError("position: holds a lone surrogate escape (\\ud800-\\udfff), not a character")
        return text, None
    if obj.get("complete") is False and set(obj) == set(_PART_KEYS) \
            and all(type(obj[k]) is int for k in _PART_KEYS[1:]):
        return None, None  # (the last line of an interrupted run's JSON lines, _json_lines: not a position)
    if "position" in obj:
        return text, ValueError("position: a JSON object line's \"position\" must be a string, got "
                                f"{type(obj['position']).__name__}")
    keys = f"the keys {show_input(', '.join(map(str, obj)), limit=60)}" if obj else "no keys"
    return text, ValueError("position: a JSON object line needs a \"position\" string (as brisca puzzles and "
                            f"solve --json write), got {keys}")


def _uncommented(text):
    """``text`` without a '#' comment and the blanks around what is left."""
    return text.split("#", 1)[0].strip()


#: Longest ``--file`` line read, in characters (a position is under 1 KB, a ``brisca solve --json``
#: record of a full 6-player deal a few KB): a longer one means the file is not a file of positions
#: (break-it pass of 2026-12-06: a 4 GB line was read whole until memory ran out).
MAX_LINE = 1 << 20

#: Byte-order marks of the UTF-16 and UTF-32 text ``--file`` decodes (UTF-32's first: its little-endian
#: mark begins with UTF-16's).
_BOMS = ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"), (b"\xff\xfe", "utf-16"),
         (b"\xfe\xff", "utf-16"))


#: Encodings of ``--file`` text without a byte-order mark, by which of its first 4 bytes are zero: where
#: an ASCII character's zero bytes fall in UTF-32 and UTF-16 (``iconv -t UTF-16LE`` writes no mark).
_NO_MARK = {(False, True, True, True): "utf-32-le", (True, True, True, False): "utf-32-be",
            (False, True, False, True): "utf-16-le", (True, False, True, False): "utf-16-be"}


def _text_encoding(head: bytes) -> str:
    """The encoding of ``--file`` text from its first 4 bytes: a byte-order mark's (:data:`_BOMS`); else
    UTF-16 or UTF-32 without a mark when the zero bytes fall as an ASCII character's do in them
    (:data:`_NO_MARK`: a position, a comment, a JSON line all start with one); else UTF-8 (its own mark
    skipped)."""
    for bom, enc in _BOMS:
        if head.startswith(bom):
            return enc
    return _NO_MARK.get(tuple(b == 0 for b in head), "utf-8-sig")


class _Prefixed(io.RawIOBase):
    """The binary stream ``rest`` with the bytes ``head`` already read from it put back in front (a pipe
    cannot seek back over the bytes that chose the format)."""

    def __init__(self, head: bytes, rest):
        super().__init__()
        self._head, self._rest = head, rest

    def readable(self):
        return True

    def fileno(self):
        return self._rest.fileno()

    def readinto(self, b):
        if self._head:
            n = min(len(b), len(self._head))
            b[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = _read_wait(self._rest, len(b))
        b[:len(data)] = data
        return len(data)


def _fileno(stream):
    """``stream``'s file descriptor, or None (an in-memory stream)."""
    try:
        return stream.fileno()
    except (OSError, ValueError, AttributeError):  # (io.UnsupportedOperation is both)
        return None


def _read_wait(stream, n: int) -> bytes:
    """Up to ``n`` bytes of the binary ``stream`` (``read1`` where it has one, else ``read``); ``b""`` only at
    the end of the input. A stream with
    a descriptor is read once :func:`_wait_readable` says it has data (a stream holding bytes of its own, as
    :class:`_Prefixed` does, reads through this from its source). A descriptor left non-blocking (``O_NONBLOCK``,
    by a parent sharing the pipe) gives nothing (``None``, or ``b""`` from a buffered reader) while no data has
    come yet: the read waits for data or the end (:func:`_readable`) instead of taking that for the end (break-it
    pass 13: lines written a moment later were lost, exit 0 and an ``--out`` table marked complete)."""
    read = stream.read1 if hasattr(stream, "read1") else stream.read
    fd = _fileno(stream)
    while True:
        if fd is not None:
            _wait_readable(fd)
        data = read(n)
        if data is not None and (data or fd is None or os.get_blocking(fd) or _readable(fd, 0)):
            return data  # (b"" from a non-blocking stream is the end only once the descriptor says so)


def _readable(fd: int, timeout, unknown: bool = True) -> bool:
    """``fd`` has data (or its end) within ``timeout`` seconds (``poll``, which watches any descriptor; break-it
    pass 16: ``select`` cannot watch one over 1023, and such a wait could not be interrupted; ``select`` where
    there is no ``poll``); ``unknown`` where neither can watch ``fd`` (True: a read then blocks as it would)."""
    try:
        if hasattr(select, "poll"):
            p = select.poll()
            p.register(fd, select.POLLIN | select.POLLPRI | select.POLLHUP | select.POLLERR)
            return bool(p.poll(None if timeout is None else int(timeout * 1000)))
        return bool(select.select([fd], [], [], timeout)[0])
    except (OSError, ValueError):  # (select's ValueError: a descriptor over its FD_SETSIZE)
        return unknown


def _wait_readable(fd: int) -> None:
    """Wait until ``fd`` has data or its end, a quarter second at a time, so that the worker thread waiting
    on a producer runs Python between the waits and a Ctrl-C or SIGTERM raised in it (sim.cli's
    run_interruptible) lands at once: in one blocking read it could not unwind and the process was ended
    after the 2 s grace as "stopped without unwinding" (new-user pass of 2026-12-06: the normal state of
    a stream that waits for its next line)."""
    while not _readable(fd, 0.25):
        pass


def _read_head(raw, n: int = 4) -> bytes:
    """The first ``n`` bytes of ``raw`` (fewer at the end of the input), whatever the pipe delivers a read
    (break-it pass of 2026-12-06: one ``peek`` gave 2 bytes of a parquet table through a pipe)."""
    head = b""
    while len(head) < n:
        more = _read_wait(raw, n - len(head))
        if not more:
            break
        head += more
    return head


#: A line's end in ``--file`` text: ``\n``, ``\r\n`` or ``\r`` (as a text file's universal newlines).
_EOL = re.compile(r"[\r\n]")

#: Bytes a :class:`_StreamLines` reads at a time.
_STREAM_READ = 1 << 16

#: Bytes :meth:`_StreamLines.ready` reads at most, looking for a line that has come.
_READY_BYTES = 1 << 16


class _StreamLines:
    """:func:`_read_positions`' items of a binary input that cannot seek (standard input, a pipe, a FIFO),
    each handed on as soon as its line's end is read: a text stream holds a line ended by ``\r`` back until
    the next byte comes, to see whether ``\n`` follows (break-it pass 13: a producer writing ``\r`` ends
    waited for an answer that never came). Lines end at ``\n``, ``\r\n`` or ``\r`` and are numbered as
    :func:`_position_lines` numbers them; one over :data:`MAX_LINE` characters raises its ``ValueError``
    once the items before it are handed on. A line is kept as the pieces that came, each searched for a
    line end once (break-it pass 14: a long line arriving in small reads was copied and searched again at
    every read, quadratic time). :meth:`ready` says whether the next item can be had without waiting for
    the producer."""

    def __init__(self, src, encoding: str, path: str):
        self._src, self._fd, self.path = src, _fileno(src), path
        self._dec = codecs.getincrementaldecoder(encoding)(errors="replace")
        self._items = collections.deque()  # the items of the lines read, not yet handed on
        self._parts, self._size = [], 0  # the pieces of the line not yet ended, and its characters so far
        self._n = 0  # lines ended so far (blank and comment lines included: the line numbers)
        self._cr = False  # the last line ended at a \r at the end of the text read: a \n next ends it too
        self._end = False  # the input has ended
        self._error = None  # a line over MAX_LINE's ValueError, or ready()'s read's OSError (raised after the
        #                     items before it)

    def _line(self, text: str) -> None:
        self._n += 1
        if len(text) > MAX_LINE:
            self._error = _too_long(self._n, self.path)
        elif item := _line_item(self._n, text):
            self._items.append(item)

    def _feed(self, text: str) -> None:
        """Split newly read ``text`` into lines (the first continuing the line not yet ended)."""
        pos = 0
        if self._cr and text:
            pos, self._cr = int(text[0] == "\n"), False
        while self._error is None and (m := _EOL.search(text, pos)):
            piece = text[pos:m.start()]
            self._line("".join(self._parts) + piece if self._parts else piece)
            self._parts, self._size = [], 0
            pos = m.end()
            if m.group() == "\r":
                if pos == len(text):
                    self._cr = True
                elif text[pos] == "\n":
                    pos += 1
        if self._error is None and pos < len(text):
            self._parts.append(text[pos:])
            self._size += len(text) - pos
            if self._size > MAX_LINE:
                self._error = _too_long(self._n + 1, self.path)

    def _more(self) -> int:
        """Read once (waiting for the producer) and split what came; returns the bytes read."""
        data = self._src.read(_STREAM_READ) or b""  # (a _Prefixed: its head, then _read_wait's reads)
        self._end = not data
        self._feed(self._dec.decode(data, final=self._end))
        if self._end and self._error is None and self._parts:  # (the last line, without an end)
            self._line("".join(self._parts))
            self._parts, self._size = [], 0
        return len(data)

    def _settled(self) -> bool:
        return bool(self._items) or self._error is not None or self._end

    def ready(self) -> bool:
        """The next item (or the end, or an error) is in hand, after reads made only while :func:`_readable` says the
        input has data (they do not wait), up to :data:`_READY_BYTES` bytes a call: blank and comment lines give
        no item, and part of a line is not one (break-it pass 14: taken for a line ready, they left the run
        waiting on the producer with an answer unprinted); the bound keeps a producer's flood of blank lines from
        holding the answers solved (pass 15: read until an item came, forever under ``yes ''``). A read error is
        kept and raised by the iteration after the items before it (pass 15: raised here, it escaped the run, its
        records lost). An input without a descriptor, or one neither ``poll`` nor ``select`` can watch, is not
        known to have data."""
        got = 0
        while not self._settled() and self._fd is not None and got < _READY_BYTES:
            if not _readable(self._fd, 0, unknown=False):
                break
            try:
                got += self._more()
            except OSError as e:
                self._error = e
        return self._settled()

    def __iter__(self):
        while True:
            while not self._settled():
                self._more()
            if self._items:
                yield self._items.popleft()
            elif self._error is not None:
                raise self._error
            else:
                return


def _open_input(path):
    """``--file``'s ``path`` opened for binary reading. A FIFO is opened without waiting for its writer (an
    open of a FIFO blocks in the kernel until one comes, where Ctrl-C or SIGTERM cannot land: break-it pass
    16) and read unbuffered, its descriptor blocking again: every read waits in :func:`_wait_readable`,
    which sees no data and no end until a writer has come and written or gone."""
    try:
        fifo = stat.S_ISFIFO(os.stat(path).st_mode)
    except OSError:
        fifo = False  # (open names the problem)
    if not fifo:
        return open(path, "rb")
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        os.set_blocking(fd, True)
        return open(fd, "rb", buffering=0)
    except BaseException:
        os.close(fd)
        raise


def _read_positions(path):
    """The position lines of ``--file``: ``(line number, text, problem)`` items (:func:`_json_position`), comments
    ('#' to the end of a line: the notation never uses it) and blank lines left out. Read line by line, so a
    file of blank lines costs no memory; lines end at ``\n``, ``\r\n`` or ``\r`` (``splitlines()`` would also
    split at form feeds and other separators, and the numbers would not match an editor's); a bad byte spoils
    its line only; a byte-order mark is skipped. UTF-8 text, or UTF-16/UTF-32 (:func:`_text_encoding`: Windows
    PowerShell 5's ``>``, Notepad's "Unicode", ``iconv``). A parquet table (``brisca puzzles --out F.parquet``,
    ``brisca solve --out F.parquet``) gives its ``position`` column, row ``i`` as line ``i``
    (:func:`_parquet_positions`). ``"-"`` reads standard input, decoded the same way. (Break-it passes of
    2026-12-06: UTF-16 and parquet files were read as UTF-8 text, a garbage error record a line.)

    A text file that can seek is not held in memory: the result is a :class:`_TextFile`, its lines read
    from the file each time it is iterated (``brisca solve --file`` reads it twice: to count and check
    the lines, then to solve them; a file of ten million lines held 11 GB, 2026-12-06). Standard input,
    a pipe or a FIFO give a :class:`_Stream`, read once as the lines are solved (a producer's lines
    are answered as they come; they were read whole first, 0.24 KB a line, and nothing was printed
    until the producer ended). A parquet table gives a list.

    Raises
    ------
    OSError
        If the file cannot be read.
    ValueError
        ``--file: ...`` for a line longer than :data:`MAX_LINE` characters (not a file of positions)
        and a parquet table without one ``position`` column of text or that cannot be read (a
        :class:`_TextFile` or :class:`_Stream` raises these as it is iterated).
    """
    if path != "-":
        raw = _open_input(path)
    elif hasattr(sys.stdin, "buffer"):
        raw = sys.stdin.buffer
    else:  # (a replaced text stream)
        return _Stream(_position_lines(sys.stdin, path), path)
    kept = False
    try:
        seekable = path != "-" and raw.seekable()
        if not seekable and hasattr(raw, "raw"):  # (a pipe read unbuffered: bytes a buffer held would be hidden
            # from poll, and a wait on the pipe could block with a line in hand; a file opened here is detached
            # from its buffer, whose collection would close it, standard input's is kept by sys.stdin)
            raw = raw.raw if path == "-" else raw.detach()
        head = _read_head(raw)
        if seekable:
            raw.seek(0)
        if head == b"PAR1":  # (a table is read whole: from a pipe, into memory)
            table = raw if seekable else io.BytesIO(io.BufferedReader(_Prefixed(head, raw)).read())
            return _parquet_positions(table, path)
        kept = True
        if seekable:
            return _TextFile(raw, _text_encoding(head), path)
        lines = _StreamLines(_Prefixed(head, raw), _text_encoding(head), path)
        return _Stream(iter(lines), path, raw.close if path != "-" else None, lines.ready)
    finally:
        if path != "-" and not kept:
            raw.close()


class _TextFile:
    """The position lines of a seekable ``--file`` text file (:func:`_read_positions`), read from the
    open file each time they are iterated, ``(line number, text, problem)`` items as a parquet table's
    list and a :class:`_Stream` hold them. The file stays open until :meth:`close` (a file renamed or removed meanwhile is still
    read). ``len()`` is ``count``, set by the reader that counted them (:func:`_solve_lines`' first pass),
    and :attr:`seen` the file's :meth:`stamp` taken before that pass."""

    def __init__(self, raw, encoding: str, path: str):
        self._raw, self._encoding, self.path = raw, encoding, path
        self.count = 0
        self.seen = None  # the file's (size, modification time) before the counting read

    def stamp(self):
        """The open file's ``(size, st_mtime_ns)``."""
        st = os.fstat(self._raw.fileno())
        return st.st_size, st.st_mtime_ns

    def __len__(self):
        return self.count

    def __iter__(self):
        self._raw.seek(0)
        fh = io.TextIOWrapper(self._raw, encoding=self._encoding, errors="replace")
        try:
            yield from _position_lines(fh, self.path)
        finally:
            if not self._raw.closed:
                fh.detach()  # (the file itself stays open for the next pass)

    def again(self):
        """The items once more, exactly :attr:`count` of them: a file written to since :attr:`seen` (its
        size or modification time changed: checked before the first item, and by the run after its
        last), that now gives more or fewer position lines, or whose read fails (a line now too long
        included) raises :class:`_ReadAgainFailed` where that shows (break-it pass 11: a file rewritten
        with as many lines was solved without a word, a line grown too long ended the run with a
        traceback)."""
        i = 0
        try:
            self.check("written to since it was read")
            for item in self:
                if i == self.count:
                    raise self._changed(f"it has more than the {_position_count(self.count)} read at the start")
                i += 1
                yield item
            if i != self.count:
                raise self._changed(f"{_position_count(i)} read this time, {self.count:,} at the start")
        except _ReadAgainFailed:
            raise
        except OSError as e:
            raise _ReadAgainFailed(f"--file: {e.strerror or e}: {self.path} (reading it again to solve it)") from None
        except ValueError as e:  # (a line now over MAX_LINE)
            raise self._changed(str(e)) from None

    def check(self, how: str) -> None:
        """Raise :class:`_ReadAgainFailed` saying ``how`` when the file's :meth:`stamp` is not :attr:`seen`."""
        try:
            if self.seen is not None and self.stamp() != self.seen:
                raise self._changed(how)
        except OSError as e:
            raise _ReadAgainFailed(f"--file: {e.strerror or e}: {self.path}") from None

    def _changed(self, how: str) -> "_ReadAgainFailed":
        return _ReadAgainFailed(f"--file: {self.path} changed while it was solved: {how}")

    def close(self):
        self._raw.close()


def _position_count(n: int) -> str:
    return f"{n:,} position line{'' if n == 1 else 's'}"


class _ReadAgainFailed(ValueError):
    """The input failed during the solving pass: a :class:`_TextFile` read for solving gave other lines
    than its first read (or failed), or a :class:`_Stream`'s read failed. ``code`` is the exit status
    (1; 2 for a line too long to be a position: the input is not a file of positions)."""

    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.code = code


class _Stream:
    """The position lines of a ``--file`` that cannot seek (standard input, a pipe, a FIFO;
    :func:`_read_positions`): ``(line number, text, problem)`` items read once, as they are
    iterated, and not held. ``len()`` is :attr:`count`, the position lines taken so far (an
    interrupted run's ``total``; lines the reader holds, at most one read's, are not counted), and
    :attr:`done` says the input was read to its end. :meth:`peek` reads the first line before the
    run starts (a first line that cannot be read refuses the input as a file's does); a read that
    fails later raises :class:`_ReadAgainFailed` (exit status 1; 2 for a line over
    :data:`MAX_LINE`), the lines before it solved and kept. ``close`` (given) ends the reading."""

    def __init__(self, items, path: str, close=None, ready=None):
        self._items, self.path, self._close, self._ready = items, path, close, ready
        self.count = 0
        self.done = False
        self._first = None  # (the peeked item while not handed on, a list of it: [] at the end of the input or
        #                     once handed on; peek() is for before the iteration)

    def peek(self):
        """The first item, or None for an input without position lines (read now: ``OSError``,
        ``ValueError`` as :func:`_read_positions` raises them)."""
        if self._first is None:
            self._first = list(itertools.islice(self._items, 1))
        return self._first[0] if self._first else None

    def __len__(self):
        return self.count

    def ready(self) -> bool:
        """The next item (or the end) can be read without waiting for the producer (``ready``, given;
        without it, not known: False)."""
        return bool(self._first) or (self._ready is not None and self._ready())

    def __iter__(self):
        self.peek()
        try:
            for item in itertools.chain(iter(self._take_first, None), self._items):
                self.count += 1
                yield item
        except OSError as e:
            raise _ReadAgainFailed(f"--file: {e.strerror or e}: {_where(self.path)}") from None
        except ValueError as e:  # (a line over MAX_LINE: not a file of positions)
            raise _ReadAgainFailed(str(e), 2) from None
        self.done = True

    def _take_first(self):
        """The peeked item, handed on (None once it has been, or at the end of the input)."""
        return self._first.pop() if self._first else None

    def close(self):
        if self._close is not None:
            self._close()
            self._close = None


def _position_lines(fh, path):
    """:func:`_read_positions`' items of the text stream ``fh``, one at a time."""
    i = 0
    while True:
        line = fh.readline(MAX_LINE + 1)
        if not line:
            return
        i += 1
        if len(line) > MAX_LINE and not line.endswith(("\n", "\r")):
            raise _too_long(i, path)
        if item := _line_item(i, line):
            yield item


def _line_item(i, text):
    """``--file`` line (or table row) ``i``, ``text``, as ``(i, text, problem)`` (:func:`_json_position`),
    or None for a blank or comment line."""
    item = (i, *_json_position(text.lstrip("\ufeff").strip()))
    return item if item[1] is not None else None


def _too_long(i, path, what="line", why="not a file of positions (one a line)"):
    """The ``ValueError`` of ``--file``'s ``what`` (a text line, a table's row) ``i`` over :data:`MAX_LINE`
    characters, saying ``why`` that matters."""
    return ValueError(f"--file: {what} {i:,} of {_where(path)} is longer than {MAX_LINE:,} characters: {why}")


def _where(path):
    """``--file``'s input named in a message."""
    return "standard input" if path == "-" else path


def _parquet_positions(src, path):
    """The ``position`` column of a parquet table (``src``: a seekable binary file), for
    :func:`_read_positions`: row ``i`` is read as line ``i`` of a text file is (comments, blank rows
    skipped, :data:`MAX_LINE`), a null row is an error record. The column may hold any kind
    of text (string, large string, string view, dictionary-encoded strings: pandas' ``category``) or
    nothing but nulls (pandas writes an all-None or empty ``object`` column so).

    Raises
    ------
    ValueError
        ``--file: ...`` for a table that cannot be read, without one ``position`` column, or whose
        ``position`` column holds something other than text.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq
    where = _where(path)
    try:
        f = pq.ParquetFile(src)
        names = f.schema_arrow.names
        if names.count("position") != 1:
            how = "without a" if "position" not in names else f"with {names.count('position')}"
            raise ValueError(f"--file: {where} is a parquet table {how} \"position\" column"
                             f"{'s, expected one' if 'position' in names else ''} (its columns: "
                             f"{show_input(', '.join(names), limit=120, quote=False)})")
        t = f.read(columns=["position"])
    except (pa.ArrowException, KeyError) as e:  # (a cut or corrupt file)
        raise ValueError(f"--file: {where} is a parquet table that cannot be read: "
                         f"{show_input(str(e), limit=160, quote=False)}") from None
    col = t.column(0)
    kind = col.type
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    texts = (pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_null(kind)
             or getattr(pa.types, "is_string_view", lambda _: False)(kind))
    if not texts:
        raise ValueError(f"--file: {where}: its \"position\" column holds {col.type}, not text")
    out = []
    for i, text in enumerate(col.to_pylist(), 1):
        if text is None:
            out.append((i, "", ValueError("position: an empty (null) position in the table")))
            continue
        if len(text) > MAX_LINE:
            raise _too_long(i, path, "row", "not a position")
        if item := _line_item(i, text):
            out.append(item)
    return out


def cmd_solve(args) -> int:
    """Run ``brisca solve``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed ``brisca solve`` arguments (:func:`register`).

    Returns
    -------
    int
        The exit code: 0 ok; 1 some ``--file`` lines invalid, stdout or the ``--out`` file could not be
        written; 2 bad input (one line on stderr); 141 stdout's reader went away.

    Raises
    ------
    KeyboardInterrupt
        Ctrl-C, SIGTERM or SIGHUP (:mod:`sim.cli`), once the records made are kept (``--file --out``).
    """
    from .api import check_target, check_threads, solve
    from .position import Position

    if args.position is None and args.file is None:
        return _fail("give a position (NOTATION.md) or --file F")
    if args.position is not None and args.file is not None:
        return _fail("give a position or --file F, not both")
    if args.win and args.target is not None:
        return _fail("give --target T or --win, not both")
    try:
        check_threads(args.threads)
        check_target(args.target)
    except ValueError as e:  # ("threads: ...", "target: ...")
        return _fail(f"--{e}")
    if args.seat is not None and args.target is None and not args.win:
        return _fail("--seat goes with --target T or --win")
    if args.seat is not None and args.seat < 0 and args.file is not None:  # (no position has it: refused
        # before any line; one position's check_seat names its own seats, "expected a seat 0-1")
        return _fail(f"--seat: expected a seat 0 to players-1, got {args.seat}")
    if args.play is not None and args.file is not None:
        return _fail("--play goes with one position, not --file")
    if args.file is None:
        try:
            # (a byte-order mark in front, as a Windows editor's copy or `$(cat file)` of a UTF-8 file with one
            # gives it: skipped, as --file skips it; new-user pass of 2026-12-06)
            pos = Position.parse(args.position.removeprefix("\ufeff"))
            if args.play is not None:
                pos = _play(pos, args.play)
            _checked(pos, args.seat)  # (a --seat it does not have refused now, not after a compile)
            if _out_refused(args):
                return 2
            if refuse_closed_stdout(args.out):  # the answer is the only output: refuse before solving
                return 1
            if args.threads != 1:  # (new-user pass of 2026-12-05: was accepted without a word; after the
                #                    checks, so that a refused run prints its error alone)
                print(f"brisca: note: --threads {args.threads} applies to --file; one position is solved on one "
                      "thread", file=sys.stderr)
            _warm_up(args.target is not None or args.win, _kinds([pos]), note=not args.no_progress)
            res = solve(pos, args.target, **_solve_options(args))
        except ValueError as e:  # (a position's message echoes its input: _fail prints it printable)
            return _fail(str(e))
        rc = 0
        try:
            if args.json:
                print(json.dumps(res.to_dict()), flush=True)
            else:
                _print_human(res, args.win, pos)
                sys.stdout.flush()
        except OSError as e:  # (`| head -1`, `> /dev/full`): the --out file is still written
            rc = stdout_failed(e)
        if args.out is not None:
            return _write_or_fail([res.to_dict()], args.out, rc)
        return rc
    if args.file == "-" and sys.stdin is None:
        return _fail("--file -: standard input is closed")
    try:
        work = _read_positions(args.file)
    except OSError as e:
        return _fail(f"--file: {e.strerror or e}: {args.file}")
    except ValueError as e:  # (a line too long to be a position; a parquet table without positions)
        return _fail(str(e))
    try:
        return _solve_lines(args, work)
    finally:
        if hasattr(work, "close"):  # (_TextFile, _Stream)
            work.close()


def _solve_options(args):
    """The keyword arguments of :func:`solver.api.solve` that ``brisca solve``'s flags give (``pv``,
    ``win``, ``seat``; the target is its second argument)."""
    return dict(pv=not args.no_pv, win=args.win, seat=args.seat)


def _out_refused(args) -> bool:
    """``brisca solve``'s ``--out`` checked (its missing directories created) once every other input
    is: a refused run creates nothing. One line on stderr and True when it cannot be written; else
    the format note (:func:`sim.cli.note_format`) and False."""
    if args.out is None:
        return False
    err = _out_problem(args.out)
    if err is None and args.file is not None and same_file(args.out, args.file):
        err = f"cannot write {args.out}: it is the --file input; it would be overwritten"
    if err:
        _fail(f"--out: {err}")
    else:
        note_format("--out", args.out, out_format(args.out, "parquet"))
    return bool(err)


def _scan_kind(text):
    """The kernel set and stock visibility (:func:`_kinds`' ``(kernel set, stock hidden)``) of the position
    ``text`` as :meth:`Position.parse` reads them, from its ``players`` and ``stock`` fields alone; None
    when that is not plain (no ``players`` field of ASCII digits naming 2, 3, 4 or 6, or a field given
    twice): the position must be parsed to tell."""
    players = stock = None
    for tok in text.split():
        key, _, val = tok.partition("=")
        key = key.lower()
        if key == "players":
            if players is not None or not (val.isascii() and val.isdigit()):
                return None
            players = int(val)
        elif key == "stock":
            if stock is not None:
                return None
            stock = val
    if players not in (2, 3, 4, 6):
        return None
    return _kernel_set(players), stock == "?"


def _solve_lines(args, work) -> int:
    """``brisca solve --file``'s run over ``work`` (:func:`_read_positions`' items); returns the exit code.
    A first pass counts the position lines and finds the kernel sets the valid ones need
    (:func:`_warm_up`), parsing a line only when :func:`_scan_kind` cannot tell its kind or that kind is
    not yet known to be needed; the solving pass parses each line again as it comes and keeps nothing of
    it (a parsed position took 0.8 KB: a file of ten million lines held 11 GB, 2026-12-06). A
    :class:`_Stream` (standard input, a pipe) has no first pass: each line is solved as it is read, a
    kernel set warmed up when its first line comes, the progress bar without a total; the run is whole
    once the input has ended and every line read is solved."""
    from .api import solve
    from .position import Position

    def parse(text):
        """The line's Position, checked as one position's is (:func:`_checked`; ValueError)."""
        return _checked(Position.parse(text), args.seat)

    kinds = set()  # the kernel sets of the valid lines (the warm-up compiles only for lines that will be solved)

    def new_kinds(item):
        """The kernel sets ``item``'s line needs that are not in ``kinds`` (none for an invalid line)."""
        _, text, problem = item
        if problem is not None or _scan_kind(text) in kinds:
            return set()
        try:
            return _kinds([parse(text)]) - kinds
        except ValueError:
            return set()

    stream = isinstance(work, _Stream)
    n = 0
    if isinstance(work, _TextFile):  # (before the count: a change during it is one too; break-it pass 12)
        work.seen = work.stamp()
    try:
        if stream:  # (its first line read now: one that cannot be read refuses the input, nothing solved;
            if (first := work.peek()) is not None:  # its kernel set warmed up below, a later line's as it comes)
                kinds |= new_kinds(first)
        else:
            for item in work:
                n += 1
                kinds |= new_kinds(item)
    except OSError as e:
        return _fail(f"--file: {e.strerror or e}: {_where(args.file)}")
    except ValueError as e:  # (a line too long to be a position)
        return _fail(str(e))
    if isinstance(work, _TextFile):
        work.count = n
    if _out_refused(args):
        return 2
    empty = work.peek() is None if stream else not work
    if not empty and refuse_closed_stdout(args.out):  # the records are the only output: refuse before solving
        return 1
    if empty:  # (exit 0, as for any empty input, but said: new-user pass of 2026-12-06)
        print(f"brisca: no positions in {_where(args.file)} (blank lines and comments only, or empty)",
              file=sys.stderr)
    existed = _names_a_file(args.out)  # (an interrupted run replaces no file: _keep_partial)
    target = args.target is not None or args.win
    if kinds:
        _warm_up(target, kinds, note=not args.no_progress)

    def warmed(items):
        """A stream's items, each kernel set warmed up before its first line is handed on."""
        for item in items:
            if new := new_kinds(item):
                bar.clear()  # (a compile's note starts its own line)
                _warm_up(target, new, note=not args.no_progress)
                kinds.update(new)
                bar.refresh()
            yield item

    lines = work.again() if isinstance(work, _TextFile) else warmed(work) if stream else iter(work)
    options = _solve_options(args)

    def one(item):
        ln, text, problem = item
        try:
            if problem is not None:
                raise problem
            return _record(solve(parse(text), args.target, **options), ln)
        except ValueError as e:
            # the line's text as read (comment and surrounding blanks removed), so that a failed
            # record names its input as a solved one does
            return {"line": ln, "position": text, "error": str(e)}

    # a line's record as its JSON text with --out (what the writers take besides dicts; a dict held about
    # 2.4 KB, its text a tenth), kept in a temporary file (_Spill), else only counted: it was printed (a
    # million-line file held gigabytes of records)
    records = _Spill(args.out) if args.out is not None else _Counted()
    nbad, first_bad = 0, None  # invalid lines and the first one's record (the exit status, the end-of-run message)
    closed = None  # exit status once stdout failed (`| head`: 141; `> /dev/full`: 1): with --out keep solving
    #                for the file, else stop

    def emit(rec):
        nonlocal closed, nbad, first_bad
        text = json.dumps(rec)
        if "error" in rec:
            nbad += 1
            first_bad = first_bad or rec
        records.append(text)
        bar.update(1)
        if closed is not None:
            return
        try:
            print(text, flush=True)
        except OSError as e:  # BrokenPipeError included
            bar.clear()  # (the error line starts its own line, not the bar's)
            closed = stdout_failed(e)
            if args.out is None:
                bar.leave = False  # the run stops here: no bar left below the error
            else:
                bar.refresh()  # (solving goes on for --out)

    bar = progress_bar(total=None if stream else len(work), unit="pos", desc="solving",
                       disable=empty or (not stream and len(work) < 2) or args.no_progress)

    def finished():
        """Every position line of the input is solved (a stream: read to its end)."""
        return len(records) == len(work) and (not stream or work.done)
    futures = []  # with --threads: the lines' solves submitted so far, in line order (None once emitted)

    whole = {}  # the keeper's answer once every line is solved: {"rc": the run's exit status}
    changed = []  # the _ReadAgainFailed that ended the run (the file changed under it)

    @_once
    def keep():
        """The records made so far (on Ctrl-C/SIGTERM/SIGHUP, or from sim.cli when the worker cannot unwind
        from a compiled search), in line order: the lines emitted, and with --threads the later lines
        already solved (second break-it pass of 2026-12-05: they were lost). Once every line is solved
        (:func:`finished`, whatever comes after), the whole run, as a run that was not
        interrupted writes it (its exit status in ``whole["rc"]``): the final write is this keeper too,
        so a signal during it (the keeper runs again) or a process that cannot unwind (the hook waits
        for it) still leaves the file (break-it passes of 2026-12-06: a signal during the final write,
        or just before it, lost every record). A run the file changed under (``changed``) is never the whole
        run, whatever was solved: its records are kept as an interrupted run's (break-it pass 12: lines
        added were written as a complete run, replacing an existing file)."""
        if finished() and not changed:
            rc = closed if closed is not None else 1 if nbad else 0
            whole["rc"] = rc if args.out is None else _write_or_fail(records, args.out, rc)
            return
        later = list(futures)  # (before the records: a future is dropped only once its record is in them)
        n = len(records)  # (the records so far, and only they: the run's thread may be appending)
        made = _Joined(records, n, [fu.result() for fu in later[n:]
                                    if fu.done() and not fu.cancelled() and fu.exception() is None])
        _keep_partial(made, "record", "made", len(work), args.out, existed,
                      lambda rs, path: _write_records(rs, path, len(work), complete=False),
                      "stopped: the input failed" if changed else _stop_word())

    on_hard_exit(keep)
    try:
        if args.threads > 1 and (stream or len(work) > 1):  # one transposition table per worker thread (kernels
            from concurrent.futures import ThreadPoolExecutor  # release the GIL)
            ex = ThreadPoolExecutor(max_workers=args.threads if stream else min(args.threads, len(work)))
            try:
                # submitted a window ahead of the line printed, not all at once, and an emitted line's future
                # dropped: a finished future holds its record (a million-line file held every record)
                failed = []  # (a change of the file found by the reader: raised once the lines read are emitted)

                def read(it):
                    try:
                        yield from it
                    except _ReadAgainFailed as e:  # (break-it pass 11: raised here, it cancelled the lines
                        failed.append(e)           # submitted and printed none of them)
                todo = read(lines)
                while True:
                    # lines submitted while the window has room; a stream's only while the next can be read
                    # without waiting for the producer, or when none is in hand (break-it pass 13: a line's
                    # answer waited until the window's next 32N lines came, a program asking a line at a
                    # time hung)
                    while len(futures) - len(records) < _AHEAD * args.threads and (
                            len(futures) == len(records) or not stream or work.ready()):
                        nxt = next(todo, None)
                        if nxt is None:
                            break
                        with starting_threads():  # (submit starts the pool's threads as needed)
                            futures.append(ex.submit(one, nxt))
                    if len(records) == len(futures):  # (emit appends one record a line: the next line's index)
                        break
                    i = len(records)
                    emit(futures[i].result())
                    futures[i] = None  # (after emit: the keeper reads the futures past the records it has)
                    if closed is not None and args.out is None:
                        break
                if failed and (closed is None or args.out is not None):  # (a run stopped by its closed stdout
                    raise failed[0]  # ends as one thread's would, on that: break-it pass 12)
            finally:
                ex.shutdown(wait=True, cancel_futures=True)
        else:
            for item in lines:
                emit(one(item))
                if closed is not None and args.out is None:
                    break
        if isinstance(work, _TextFile) and (closed is None or args.out is not None):
            work.check("written to while it was solved")  # (after the last line: --threads reads ahead)
        bar.close()  # (the bar ends its line before the messages below)
        if nbad and finished():  # (exit status 1 says why: the errors are in the records alone;
            #   new-user pass of 2026-12-05; a run that stopped early, its stdout gone, ends on that error instead)
            n = len(work)
            print(f"brisca: {nbad:,} of {n:,} line{'' if n == 1 else 's'} invalid (each an \"error\" record); "
                  f"the first, line {first_bad['line']}: "
                  f"{printable(show_input(first_bad['error'], limit=120, quote=False))}", file=sys.stderr)
        keep()  # --out: the whole run
        return whole.get("rc", closed)  # (no "rc": stdout failed and the run stopped, no --out)
    except _ReadAgainFailed as e:  # (the file changed under the run, or a stream's read failed: what was
        bar.close()               # solved is kept, as on Ctrl-C)
        _fail(str(e), e.code)
        changed.append(e)
        try:
            keep()
        except KeyboardInterrupt:  # (a signal during that write: written again, as on Ctrl-C; break-it pass 12)
            keep()
            raise
        return e.code
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM or SIGHUP (sim.cli): the records made so far (or all) are kept
        bar.close()
        keep()
        raise
    finally:
        drop_hard_exit(keep)
        bar.close()  # (also on Ctrl-C: the bar ends its line before "brisca: interrupted")
        if hasattr(lines, "close"):  # (a run that stopped early: the file's reader ends before the file is closed)
            lines.close()
        if isinstance(records, _Spill):
            records.close()


class _Spill:
    """``brisca solve --file --out``'s records (their JSON text) as the run makes them, kept in an unnamed
    temporary file in the ``--out`` file's directory, not in memory (a record's text took 0.7 KB: a file
    of ten million lines held 7 GB until the end, 2026-12-06); a sized iterable of the texts, read back
    from the start each time it is iterated (:func:`_write_records` writes from it). Records are written
    :data:`_SPILL_WRITE` bytes at a time by unbuffered writes. Where no such file can be made (a device
    or pipe as ``--out``, a read-only directory) or a write to it fails (the disk full, the file size
    limit), the file is cut back to its last whole record and the records from there on are kept in
    memory: the run goes on, and the final write says what failed (break-it pass 11: a buffered file
    raised a failed write again at every later flush, the final write's and the close's). The file goes
    when the object is closed or collected, or the process ends however it ends."""

    def __init__(self, out: str):
        import tempfile

        from sim.batch import special_target
        self._fd = None  # the file's descriptor while records go to it
        self._fh = None
        self._n = self._size = 0  # records and bytes in the file
        self._pending, self._bytes = [], 0  # records not yet written to it, and their bytes
        self._tail = []  # records kept in memory (no file, or a write failed)
        try:
            if not special_target(out):
                self._fh = tempfile.TemporaryFile(dir=os.path.dirname(os.path.realpath(out)),
                                                  prefix=".brisca-records.", buffering=0)
                self._fd = self._fh.fileno()
        except (OSError, ValueError):
            self._fh = self._fd = None

    def append(self, text: str) -> None:
        if self._fd is None:
            self._tail.append(text)
            return
        self._pending.append(text)
        self._bytes += len(text) + 1
        if self._bytes >= _SPILL_WRITE:
            self._flush()

    def _flush(self) -> None:
        """Write the pending records to the file, whole; on a failed write, the file cut back to the
        records written before and these kept in memory with every later one."""
        data = "".join(t + "\n" for t in self._pending).encode("utf-8", "surrogatepass")
        try:
            self._write(data)
        except OSError:
            try:
                os.ftruncate(self._fd, self._size)
            except OSError:
                pass
            self._fd = None
            self._tail = self._pending  # (the file's records stay readable: self._n of them)
        else:
            self._size += len(data)
            self._n += len(self._pending)
        self._pending, self._bytes = [], 0

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view):]

    def __len__(self) -> int:
        return self._n + len(self._pending) + len(self._tail)

    def __iter__(self):
        # (the records now: a keeper reads while the run may still append)
        n, pending, tail = self._n, list(self._pending), len(self._tail)
        if n:
            fd, pos, buf = self._fh.fileno(), 0, b""
            while n:
                chunk = os.pread(fd, _SPILL_READ, pos)
                if not chunk:
                    raise OSError(f"the run's temporary file of records ended {n:,} records early")
                pos += len(chunk)
                lines = (buf + chunk).split(b"\n")
                buf = lines.pop()
                for line in lines[:n]:
                    yield line.decode("utf-8", "surrogatepass")
                n -= min(n, len(lines))
        yield from pending
        yield from self._tail[:tail]

    def close(self) -> None:
        """Remove the file (never raises: it runs on the way out of an interrupted run too)."""
        if self._fh is not None:
            try:
                self._fh.close()
            except OSError:
                pass
            self._fh = self._fd = None


class _Counted:
    """``brisca solve --file``'s records without ``--out``: printed, only counted (``len()``; iterating
    gives none: nothing is written)."""

    def __init__(self):
        self._n = 0

    def append(self, _text) -> None:
        self._n += 1

    def __len__(self) -> int:
        return self._n

    def __iter__(self):
        return iter(())


#: Bytes of :class:`_Spill`'s records written at a time.
_SPILL_WRITE = 1 << 18

#: Bytes of a :class:`_Spill`'s file read at a time.
_SPILL_READ = 1 << 20


class _Joined:
    """The sized iterable of the first ``n`` items of ``first`` then ``then``'s (an interrupted run's
    records: those of the :class:`_Spill` when it is read, then the later lines solved by ``--threads``
    workers)."""

    def __init__(self, first, n: int, then):
        self._first, self._n, self._then = first, n, then

    def __len__(self):
        return self._n + len(self._then)

    def __iter__(self):
        yield from itertools.islice(self._first, self._n)
        yield from self._then


#: ``brisca solve --file --threads N`` submits at most ``_AHEAD * N`` lines ahead of the line it prints.
_AHEAD = 32


def _stop_word() -> str:
    """What ended the run, for a keeper's message: ``"interrupted"`` (Ctrl-C), ``"terminated"`` (SIGTERM) or
    ``"hung up"`` (SIGHUP), from the interruption being handled (:func:`sim.cli._ending`; a keeper runs in
    the command's ``except KeyboardInterrupt``, or in ``sim.cli``'s while the process ends without
    unwinding); ``"interrupted"`` when none is. (The keepers said "interrupted" for every signal, and the
    line after them "terminated" or "hung up": 2026-12-07, fifth part.)"""
    e = sys.exc_info()[1]
    return _ending(e)[0] if isinstance(e, KeyboardInterrupt) else "interrupted"


def _keep_partial(items, noun, verb, total, path, existed, write, why="interrupted"):
    """What an interrupted ``--out`` run finished (``brisca solve --file``'s records, ``brisca puzzles``'
    puzzles), written by ``write(items, path)`` to ``path`` when it names no existing file; an existing
    one is kept (only a complete run replaces it) and stderr says so; nothing finished, nothing written.
    (Break-it passes of 2026-12-05: an interrupted run threw away everything it had finished. An
    existing file is not replaced by a part of a run: an earlier break-it pass found that fault,
    test_cli_puzzles_out_whole_or_not_at_all.)

    ``noun`` (``"record"``, ``"puzzle"``) and ``verb`` (``"made"``, ``"found"``) word the messages, and
    ``why`` says what ended the run (``"interrupted"``, ``"terminated"``, ``"hung up"``: :func:`_stop_word`;
    ``"stopped: the input failed"`` for a ``--file``
    that changed or failed to read: break-it pass 13 found "interrupted" there misleading); ``total`` is
    what the run was to make. Write errors are one line on stderr (the exit status is the
    interruption's, 130/143/129)."""
    if path is None or not items:
        return
    n = count_of(len(items), noun)
    if existed:
        print(f"brisca: {why}: {n} {verb} and not written ({printable(path)} exists and is kept: only a "
              "complete run replaces it)", file=sys.stderr)
        return
    try:
        write(items, path)
        print(f"brisca: wrote {n} of {total:,} to {printable(path)} ({why})", file=sys.stderr)
    except (OSError, ValueError) as e:
        _out_failed(path, e, f"{n} {verb}")


def _out_failed(path, e, finished):
    """The one stderr line of an ``--out`` write that failed after the work (``e``: the writer's
    ``OSError`` or ``ValueError``), saying what was ``finished`` and is not in the file."""
    msg = e.strerror or e if isinstance(e, OSError) else e
    _fail(f"--out: cannot write {path}: {msg} ({finished})")


def _once(fn, wait: float = 60.0):
    """``fn`` wrapped to run at most once, whichever thread calls it first: an interrupted command's
    keeper is called by the command itself and, when it cannot unwind, by sim.cli's hard-exit hooks
    (:func:`sim.cli.on_hard_exit`). A call that ends in an exception (a signal landing in the write) does
    not count: the next call runs ``fn`` again. A later call waits (up to ``wait`` seconds) until the
    first one has finished: the hard-exit hook must not return, and the process end, while the command's own thread is
    still writing the file (break-it pass of 2026-12-05, third part: a solve that ended just as the grace
    period ran out started the keeper in its thread, the hook returned at once, and the process ended
    under the write: no file, and no word of it)."""
    import threading
    claim = threading.Lock()
    finished = threading.Event()

    def run():
        if claim.acquire(blocking=False):
            try:
                fn()
            except BaseException:  # (a signal during the write: the next call runs it again, 2026-12-06)
                claim.release()
                raise
            finished.set()
        else:
            finished.wait(wait)
    return run


def _names_a_file(path):
    """Whether ``--out`` ``path`` names an existing regular file (through symlinks): an interrupted run
    does not replace it."""
    return path is not None and os.path.isfile(os.path.realpath(path))


#: The columns of ``brisca puzzles --out F.parquet`` (the JSON lines' keys; ``moves`` and ``pv`` as JSON text).
_PUZZLE_COLUMNS = (("position", "string"), ("move", "string"), ("value", "int64"), ("need", "int64"),
                   ("moves", "string"), ("pv", "string"), ("deal", "int64"), ("ply", "int64"), ("seat", "int64"))


def _write_puzzles(records, path, total=None, complete=True, run=None):
    """``brisca puzzles``' records to ``path``: a parquet table (:func:`_write_puzzle_table`, its
    metadata saying whether the run was ``complete``, the ``total`` asked for and the keys of ``run``)
    for a ``.parquet`` or ``.pq`` name, else JSON lines (:func:`_json_lines`: an interrupted run's end
    with a marker line); whole or not at all."""
    if out_format(path, "jsonl") == "parquet":
        _write_puzzle_table(records, path, total, complete, run)
    else:
        _write_text(_json_lines(records, total, complete), path)


def _write_puzzle_table(records, path, total=None, complete=True, run=None):
    """Write puzzle records as one parquet table (:data:`_PUZZLE_COLUMNS`) through
    :func:`sim.batch.write_table` (atomic, as every ``--out``), with the metadata of
    :func:`_run_metadata` (``total``: the puzzles asked for, default the records given; ``run``: the
    run's ``rules``, ``seed`` and ``max_tries``, or None).

    Raises
    ------
    OSError, ValueError
        As :func:`sim.batch.write_table`.
    """
    import pyarrow as pa

    from sim.batch import write_table

    rows = [{**r, "moves": json.dumps(r["moves"]), "pv": json.dumps(r["pv"])} for r in records]
    md = _run_metadata("puzzles", len(rows), total, complete, run)
    schema = pa.schema([pa.field(c, pa.type_for_alias(t)) for c, t in _PUZZLE_COLUMNS], metadata=md)
    write_table(pa.Table.from_pylist(rows, schema=schema), path, "--out")


def cmd_puzzles(args) -> int:
    """Run ``brisca puzzles``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed ``brisca puzzles`` arguments (:func:`register`).

    Returns
    -------
    int
        The exit code: 0 ok; 1 fewer than ``--count`` puzzles found, stdout closed, or the ``--out`` file
        could not be written; 2 bad input (one line on stderr).

    Raises
    ------
    KeyboardInterrupt
        Ctrl-C, SIGTERM or SIGHUP (:mod:`sim.cli`), once the puzzles found are kept (``--out``).
    OSError
        stdout failed (``| head``): :func:`sim.cli.main` gives its exit status.
    """
    from .puzzles import WON_TRICK, find_puzzles

    try:  # (brisca simulate's rules and messages: "--deck rapida20 cannot be played by 3 players (RULES R3)")
        rules = rules_from_args(args)
    except ValueError as e:
        return _fail(str(e))
    if rules.exchange_condition == "won-trick":
        return _fail(f"--exchange-condition won-trick: {WON_TRICK}")
    if args.count < 1:
        return _fail("--count must be at least 1")
    if not 0 <= args.seed < 2 ** 64:
        return _fail(f"--seed must be an integer in [0, 2**64), got {args.seed}")
    if args.max_tries < 0:
        return _fail(f"--max-tries must be >= 0, got {args.max_tries}")
    for flag, n in (("--count", args.count), ("--max-tries", args.max_tries)):
        if n >= 2 ** 63:  # (deal and ply are int64 columns; as brisca simulate bounds --deals)
            return _fail(f"{flag} must be below {2 ** 63:,}, got {n:,}")
    if args.out is not None:
        err = _out_problem(args.out)
        if err:
            return _fail(f"--out: {err}")
        note_format("--out", args.out, out_format(args.out, "jsonl"))
    existed = _names_a_file(args.out)  # (an interrupted run replaces no file: _keep_partial)
    if refuse_closed_stdout(args.out):  # the puzzles' lines are the only output: refuse before searching
        return 1

    # a first run compiles the table's solver (about 30-50 s): a note says so, not a bar sitting at 0% (the
    # 2-player one was warmed for every table: a 4-player run compiled its own silently behind the bar)
    _warm_up(kinds=frozenset({(_kernel_set(rules.players), False)}), note=not args.no_progress)
    tries = args.max_tries or default_max_tries(args.count)  # (find_puzzles' own default: one formula)
    # (what repeats the run, in a parquet table's metadata: the positions carry the rules, not the seed)
    run = {"rules": rules.to_dict(), "seed": args.seed, "max_tries": tries}
    found = []  # the records, written to --out at the end (whole or not at all)
    tried = 0
    # a bar of the puzzles found, with the positions tried (tens a puzzle; each is solved exactly)
    bar = progress_bar(total=args.count, unit="puzzle", desc="puzzles", disable=args.no_progress)
    # the bar is cleared before a puzzle's line and redrawn after it only where both share a terminal
    # (stdout a pipe or file: the bar has its line alone; stderr a log: no clearing sequences in it)
    shared = not bar.disable and stream_is_terminal(sys.stdout) and stream_is_terminal(sys.stderr)

    def on_try():
        nonlocal tried
        tried += 1
        bar.set_postfix_str(f"{tried:,} positions tried", refresh=False)

    whole = {}  # once the search has ended: {"rc": 1 if the --out write failed, else 0}

    @_once
    def keep():
        """The puzzles found so far (on Ctrl-C/SIGTERM/SIGHUP, or from sim.cli when the worker cannot unwind);
        once the search has ended, the whole run, whole or not at all, as ``brisca solve``'s keeper
        (a signal during the final write lost every puzzle: break-it pass of 2026-12-06)."""
        if "rc" not in whole and len(found) < args.count:
            _keep_partial(list(found), "puzzle", "found", args.count, args.out, existed,
                          lambda rs, path: _write_puzzles(rs, path, args.count, complete=False, run=run),
                          _stop_word())
        elif args.out is not None:  # (an interrupted run's keeper leaves the old file: _keep_partial)
            try:
                _write_puzzles(found, args.out, args.count, run=run)
            except (OSError, ValueError) as e:
                _out_failed(args.out, e, f"{count_of(len(found), 'puzzle')} found")
                whole["rc"] = 1
                return
            print(f"brisca: wrote {count_of(len(found), 'puzzle')} to {printable(args.out)}", file=sys.stderr)

    on_hard_exit(keep)
    try:
        try:
            for rec in find_puzzles(args.count, seed=args.seed, max_tries=tries, rules=rules,
                                    on_try=None if bar.disable else on_try):
                found.append(rec)
                if args.out is None:
                    if shared:
                        bar.clear()
                    print(json.dumps(rec), flush=True)  # one complete line a puzzle (stdout errors: sim.cli.main)
                bar.update(1)
                if shared:
                    bar.refresh()
        except OSError:
            bar.leave = False  # stdout failed (`| head`: exit 141 quietly): no bar left behind
            raise
        whole["rc"] = 0  # (the search has ended: from here on the keeper writes the whole run)
        bar.close()
        keep()  # --out: the whole run
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM or SIGHUP (sim.cli): the puzzles found so far (or all) are kept
        bar.close()
        keep()
        raise
    finally:
        drop_hard_exit(keep)
        bar.close()
    n = len(found)
    if whole["rc"]:
        return 1
    if n < args.count:
        print(f"brisca: warning: found {n} of {count_of(args.count, 'puzzle')} in {count_of(tries, 'position')} "
              "tried (--max-tries)",
              file=sys.stderr)
        return 1
    return 0


def main(argv=None) -> int:
    """In-process entry: parse ``argv`` (``solve ...`` or ``puzzles ...``), run it, return the exit
    code. Without ``brisca``'s process handling (:func:`sim.cli.main`): for tests and embedding.

    Parameters
    ----------
    argv : list of str, optional
        The arguments after ``brisca``; default ``sys.argv[1:]``.

    Returns
    -------
    int
        The command's exit code (:func:`cmd_solve`, :func:`cmd_puzzles`).

    Raises
    ------
    SystemExit
        From argparse, for arguments it refuses (status 2) and ``--help`` (status 0).
    """
    ap = argparse.ArgumentParser(prog="brisca")
    sub = ap.add_subparsers(dest="command", required=True)
    register(sub)
    args = ap.parse_args(argv)
    try:
        return args.func(args)
    finally:  # as sim.cli.main: the --out directories a run made and left empty go
        from sim.batch import remove_pending_dirs
        remove_pending_dirs()


if __name__ == "__main__":  # the brisca command itself (signals, stdout and stderr failures, --version)
    from sim.cli import main as _brisca

    _brisca()
