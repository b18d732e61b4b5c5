"""The batch simulator: many deals, played in chunks, summarized and written to parquet.

:func:`simulate` is the Python API behind ``brisca simulate``. It validates its
input, plays rows with the jitted :func:`sim.engine.play_batch` in chunks (so
memory stays bounded for any deal count), checks every row's status, adds the
rows to a running summary (:mod:`sim.stats`), and streams them to parquet.

Rows, deals and ``duplicate``
-----------------------------
Without ``duplicate`` row ``r`` is deal ``r``. With ``duplicate`` every deal
is played ``rotations = rules.sides`` times (2, or 3 with three players), the
policies moved one seat further each time (rotation ``k`` gives seat ``s`` the
policy of seat ``(s + k) % players``, so every side's policies sit once on
every side of the table, RULES R3); row ``r`` is deal ``r // rotations``,
rotation ``r % rotations``, and ``deals`` counts distinct deals
(``deals * rotations`` rows). Deal ``d`` of seed ``s`` is the same shuffle,
played the same way, whatever the thread count and the chunk size; and the same
shuffle (hands, pinta and stock as dealt) whatever the policies, ``exchange``,
``exchange_condition`` and ``endgame`` (the same players, deck and ``remove``),
so two runs of one seed compare rule variants or policies deal by deal.

Parquet: the deal table (``out``), one row per row played
---------------------------------------------------------
=====================  ============================  =====================================================
column                 type (pandas)                 meaning
=====================  ============================  =====================================================
``deal``               int64                         row number of the run, 0 .. rows-1
``pair``               int64                         ``duplicate`` only: deal index ``row // rotations``
``rotation``           int8                          ``duplicate`` only: ``row % rotations``
``deal_seed``          uint64                        :func:`sim.rng.deal_seed` (seed, deal index)
``first_lead``         int8                          seat that led the first trick (R3: seat 0)
``pinta``              category (card)               card turned at the deal (R4), before any exchange
``trump``              category ``O C E B``          trump suit (R4)
``removed``            category (card)               ``remove=trump2`` only: the 2 set aside (R3)
``hand_{s}_{k}``       category (card)               seat ``s``'s ``k``-th card as dealt (R4), k = 0, 1, 2
``policy_{s}``         category                      policy of seat ``s`` in this row
``points_{s}``         int8                          card points seat ``s`` captured (R8)
``tricks_{s}``         int8                          tricks seat ``s`` won
``side_points_{k}``    int16                         card points of side ``k`` (seats ``s % sides == k``)
``winner``             int8                          winning side, -1 draw (R8)
``capote``             bool                          one side took all 120 points (R8)
``exchanges``          int8                          trump exchanges made, 0..2 (R7)
``exchange{k}_seat``   int8                          seat of exchange ``k`` (k = 0, 1), -1 none
``exchange{k}_card``   category (card)               card given up for the pinta (7 or 2 of trumps), null none
``exchange{k}_trick``  int8                          trick number (0-based) it was made in, -1 none
=====================  ============================  =====================================================

Card columns are dictionary-encoded over :data:`sim.cards.CARD_NAMES` (all 48
card strings of NOTATION.md in card-id order), so in pandas
``df.pinta.cat.codes`` are the engine's card ids and ``df.pinta`` reads as
``"1O"``, ``"12B"`` ... The policy columns are dictionary-encoded over
:data:`POLICY_NAMES`.

Parquet: the trick table (``tricks_out``), one row per trick
------------------------------------------------------------
``deal`` (int64, the deal table's row), ``pair``/``rotation`` (``duplicate``),
``trick`` (int8, 0-based), ``leader`` (int8 seat), ``card_{i}`` (card
category, the ``i``-th card in play order, leader first), ``winner`` (int8
seat, R5), ``points`` (int8, card points of the trick, R2). Summing
``points`` per winning seat gives the deal table's ``points_{s}``.

File metadata
-------------
Both files carry key-value metadata (values are JSON): ``brisca.table``
(``"deals"`` or ``"tricks"``), ``brisca.rules`` (the :class:`sim.rules.Rules`
fields), ``brisca.policies`` (policy per seat in rotation 0), ``brisca.seed``,
``brisca.deals`` (distinct deals asked for), ``brisca.duplicate``,
``brisca.rotations``, ``brisca.version``, ``brisca.numba_version``,
``brisca.card_names`` (the card dictionary), in the schema; and in the footer,
written when the run ends, ``brisca.rows`` (deal rows written, in the tricks
file too), ``brisca.total`` (deal rows asked for) and ``brisca.complete``
(false when the run was interrupted). :func:`read_metadata` decodes them
(pyarrow's ``read_schema`` shows only the schema's).

Files are written to a temporary file in the target directory and renamed
when the run succeeds: a failed run leaves no file. An interrupted run's
finished chunks are written as files marked incomplete (``brisca.complete``
false, ``brisca.rows`` of ``brisca.total``), unless an output file was
already there (:func:`simulate`, Raises). A symbolic link is written through (its target is replaced,
the link kept); an existing device or pipe (``/dev/null``) is written in place.
"""
from __future__ import annotations

import contextlib
import errno
import itertools
import json
import os
import re
import stat
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

import numpy as np

from .cards import CARD_NAMES, SUITS, show_input, show_repr
from .checks import check_callable, check_flag, is_iterable, sequence_problem
from .rng import seed_bits
from .rules import Rules
from .stats import RunningStats, Summary
from .threads import start_thread, starting_threads

#: Most rows a chunk holds when ``chunk`` is not given (the chunks are sized by time, :data:`CHUNK_SECONDS`,
#: up to it; a chunk costs about 200 bytes a row in flight).
DEFAULT_CHUNK = 1 << 18
#: Seconds of play a chunk aims at when ``chunk`` is not given (:func:`simulate`): short enough that a
#: signal finds the run between chunks within the command line's 2 s grace, long enough that a chunk's
#: own cost (tables, counts) stays under 1% of it.
CHUNK_SECONDS = 0.25
#: Deals in the first chunk when ``chunk`` is not given (the next ones sized by the time it took), and
#: with the policy ``solver`` (one deal: 73 deals a second with 2 players, but a 6-player ``catalan48`` deal takes
#: minutes, and a first chunk of 8 such deals kept none of them when interrupted; break-it pass 28).
FIRST_CHUNK = 4096
SOLVER_CHUNK = 1
#: Rows a parquet row group gathers before it is written (small chunks are written together).
ROW_GROUP_ROWS = 1 << 16
#: Upper bound of trick-table rows held per chunk when tricks are recorded and ``chunk`` is not given
#: (a ``chunk`` given is bounded by :data:`MAX_CHUNK_TRICK_ROWS` instead).
MAX_TRICK_ROWS = 1 << 21
#: Largest ``chunk`` accepted (rows; about 0.8 GB in flight), and trick rows of a chunk with tricks.
MAX_CHUNK = 1 << 22
MAX_CHUNK_TRICK_ROWS = 1 << 24
#: Runs of at most this many rows keep a DataFrame in the result by default.
FRAME_ROWS = 100_000
#: Bytes a deal row of the returned frames costs at most while they are built (the deal table 45-70
#: bytes a row with 2-6 players, its trick rows 145-280 more; twice that while the arrow tables are
#: turned into DataFrames): :func:`simulate` refuses ``keep_frame`` when the run's frames would not fit
#: in the machine's memory (break-it pass 20: ``deals=10**18, keep_frame=True`` grew until killed).
FRAME_ROW_BYTES = 160
TRICK_ROW_BYTES = 600
#: The open-hand oracle (RULES R11: a labelled oracle, never a player).
SOLVER = "solver"
_COMPRESSION = "zstd"


def _policy_names() -> tuple[str, ...]:
    from .policies import POLICIES
    names = tuple(POLICIES)
    return names if SOLVER in names else names + (SOLVER,)


def __getattr__(name):  # POLICY_NAMES is computed lazily (it imports the policies)
    if name == "POLICY_NAMES":
        return _policy_names()
    raise AttributeError(name)


@dataclass
class SimResult:
    """What :func:`simulate` returns.

    Attributes
    ----------
    summary : sim.stats.Summary
        Win rates, points, draws, capotes, timings (``summary.to_dict()`` is the
        ``--json`` object).
    frame : pandas.DataFrame or None
        The deal table (columns as in the module docstring) when kept.
    tricks : pandas.DataFrame or None
        The trick table when kept.
    out, tricks_out : pathlib.Path or None
        Files written.
    """

    summary: Summary
    frame: object = None
    tricks: object = None
    out: Path | None = None
    tricks_out: Path | None = None


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------

def _as_rules(rules) -> Rules:
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, Mapping):
        try:
            return Rules(**rules)
        except TypeError as e:
            raise ValueError(f"invalid rules: {e}") from None
    if isinstance(rules, (int, np.integer)) and not isinstance(rules, bool):
        return Rules(players=int(rules))
    raise ValueError(f"rules must be a sim.rules.Rules, a dict of its fields or a player count, got {show_repr(rules)}")


def _as_count(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        # an integer-valued float of any width (np.float32(2.0) was refused where 2.0 was taken: break-it
        # pass 20)
        if isinstance(value, (float, np.floating)) and np.isfinite(value) and float(value).is_integer():
            value = int(value)
        else:
            raise ValueError(f"{name} must be a positive integer, got {show_repr(value)}")
    value = int(value)
    if value <= 0:
        raise ValueError(f"{name} must be a positive integer, got {show_repr(value)}")
    return value


def resolve_policies(rules: Rules, policies) -> tuple[str, ...]:
    """Policy name of every seat from one name, one per side, or one per seat.

    Parameters
    ----------
    rules : Rules
    policies : str or sequence of str
        One name (every seat), ``rules.sides`` names (seat ``s`` plays the
        policy of side ``s % sides``) or ``rules.players`` names (seat order); a list, a tuple or
        any ordered iterable (a set, a dict or a DataFrame is refused: :func:`sim.checks.sequence_problem`;
        one without a length is read to one name more than the seats). Names are read with surrounding
        blanks stripped and in any case (``" Heuristic"`` is ``heuristic``).

    Returns
    -------
    tuple of str
        One name per seat, lower case.

    Raises
    ------
    ValueError
        For an unknown name, a wrong count, an unordered collection, or ``solver`` mixed with other policies.

    Examples
    --------
    >>> resolve_policies(Rules(players=4), ["heuristic", "random"])
    ('heuristic', 'random', 'heuristic', 'random')
    """
    if isinstance(policies, str):
        policies = [policies]
    # (a generator too; b"random" was read as the names '114', '97', ...)
    iterable = is_iterable(policies) and not isinstance(policies, (bytes, bytearray))  # (a 0-d array: not)
    why = sequence_problem(policies) if iterable else None  # (a set seated its names in hash order, a dict its
    if why:  # keys: break-it pass of 2026-12-06)
        raise ValueError(f"policies must be a name or a list of names in seat order, got a {type(policies).__name__} "
                         f"({why})")
    n, S = rules.players, rules.sides
    # (an unsized iterable is read to one name more than the seats: an endless one was read whole, break-it
    # pass 40)
    sized = hasattr(policies, "__len__")
    if iterable:
        policies = list(policies if sized else itertools.islice(policies, n + 1))
    if not iterable or not all(isinstance(p, str) for p in policies):
        raise ValueError(f"policies must be a name or a list of names, got {show_repr(policies)}")
    names = [p.strip().lower() for p in policies]
    known = _policy_names()
    for p in names:
        if p not in known:
            hint = (" (one name each: --policy once per name on the command line, a list in Python)"
                    if "," in p and all(q.strip() in known for q in p.split(",")) else "")
            raise ValueError(f"unknown policy {show_repr(p)}: expected one of {', '.join(known)}{hint}")
    if len(names) == 1:
        seats = names * n
    elif len(names) == n:
        seats = names
    elif len(names) == S:
        seats = [names[s % S] for s in range(n)]
    else:
        ways = {1: "1 (every seat)", S: f"{S} (one per side)", n: f"{n} (one per seat)"}  # (3 players: S == n)
        many = not sized and len(names) > n  # (an unsized iterable is read to one name more than the seats)
        raise ValueError(f"got {f'more than {n}' if many else len(names)} policies for {n} players: give "
                         + " or ".join(ways[c] for c in sorted(ways)))
    if SOLVER in seats and any(p != SOLVER for p in seats):
        raise ValueError("policy 'solver' (the open-hand oracle, RULES R11) must play every seat or none")
    return tuple(seats)


def side_labels(rules: Rules, seat_policies) -> list[str]:
    """Label of each side's policies: the name, or names joined by ``+`` when its seats differ.

    Parameters
    ----------
    rules : Rules
    seat_policies : sequence of str
        Policy name of every seat (:func:`resolve_policies`), ``rules.players`` of them.

    Returns
    -------
    list of str
        One label per side (``rules.sides``), its seats' distinct names in seat order.

    Raises
    ------
    IndexError
        If ``seat_policies`` has fewer than ``rules.players`` names (not checked here: callers pass
        :func:`resolve_policies`' tuple).
    """
    out = []
    for k in range(rules.sides):
        names = []
        for s in rules.side_seats(k):
            if seat_policies[s] not in names:
                names.append(seat_policies[s])
        out.append("+".join(names))
    return out


def _max_threads() -> int:
    import numba
    return int(numba.config.NUMBA_NUM_THREADS)


# ---------------------------------------------------------------------------
# output files: temporary file in the target directory, renamed on success
# ---------------------------------------------------------------------------

#: Temporary files of the outputs being written (removed by :func:`remove_temporaries`).
_TEMPORARIES: set = set()
#: Directories :func:`make_parents` created, ``(path, st_dev, st_ino)``, for outputs not known to be
#: written: removed if still empty by :func:`remove_created`, :func:`remove_pending_dirs` and
#: :func:`remove_temporaries` (an interrupted run leaves no empty directory behind).
_CREATED: list = []


def new_file_mode() -> int:
    """The mode of a new output file: ``0o644`` less the process's umask (as ``open`` would make it).

    Returns
    -------
    int
        Permission bits, for ``os.fchmod`` / ``os.chmod``.
    """
    m = os.umask(0)
    os.umask(m)
    return 0o644 & ~m


def _short_name(name: str) -> str:
    """``name`` cut to its first 100 bytes, for the hidden files made beside an output (a temporary file,
    a kept old file): a name near the filesystem's 255-byte limit still leaves room for the rest."""
    return os.fsdecode(os.fsencode(name)[:100])


def temp_beside(real: str, suffix: str = ".tmp"):
    """A new temporary file in the directory of the output ``real`` (a path, symlinks resolved), to be
    renamed over it: ``(fd, path)``, made by :func:`tempfile.mkstemp` (``O_EXCL``: nothing already at
    the name is followed or truncated, and the name has random characters: break-it pass of 2026-12-06,
    a symlink planted at the predictable ``.<name>.<pid>.tmp`` had its target overwritten). The name is
    ``.`` and the output's name cut to 100 bytes (a name near the filesystem's 255-byte limit still
    leaves room; the full name was refused as too long), then random characters and ``suffix``.

    Parameters
    ----------
    real : str
        The output's path (symlinks resolved); the temporary file is made in its directory.
    suffix : str
        End of the temporary file's name.

    Returns
    -------
    (int, str)
        An open descriptor of the new file (mode 0600; the caller closes it) and its path.

    Raises
    ------
    OSError
        If the file cannot be created (the directory refuses it)."""
    import tempfile

    return tempfile.mkstemp(dir=os.path.dirname(real) or ".", prefix=f".{_short_name(os.path.basename(real))}.",
                            suffix=suffix)


def make_parents(path) -> list:
    """Create the missing parent directories of ``path``, one component at a time as the kernel
    resolves it (a ``..`` after a new directory included).

    Parameters
    ----------
    path : str or os.PathLike
        The file to be written; its directory part is created.

    Returns
    -------
    list
        The directories created, ``(path, st_dev, st_ino)``, for :func:`remove_created` when the
        run is refused or fails afterwards; until then (or :func:`forget_created` once the output
        is written) they are also listed for :func:`remove_pending_dirs`.

    Raises
    ------
    ValueError
        ``not a directory: X`` (a file or a dangling link where a directory should be) or
        ``cannot create directory X: <reason>``; whatever was created is removed first.
    """
    p = os.fspath(path)
    d = os.path.dirname(p)
    cur = "/" if p.startswith("/") else ""
    created = []
    try:
        for c in d.split("/"):
            if c == "":
                continue
            cur = os.path.join(cur, c) if cur else c
            if os.path.isdir(cur):
                continue
            if os.path.lexists(cur):
                raise ValueError(f"not a directory: {cur}")
            try:
                os.mkdir(cur)
            except FileExistsError:
                if os.path.isdir(cur):  # made meanwhile by another process
                    continue
                raise ValueError(f"not a directory: {cur}") from None
            except OSError as e:
                raise ValueError(f"cannot create directory {cur}: {e.strerror or e}") from None
            st = os.stat(cur)
            created.append((cur, st.st_dev, st.st_ino))
    except ValueError:
        remove_created(created)
        raise
    _CREATED.extend(created)
    return created


def remove_created(created) -> None:
    """Remove the directories :func:`make_parents` created, deepest first, if they are still those
    directories and empty (anything else is left alone). One still holding something (another
    output's temporary file) stays listed for :func:`remove_pending_dirs`.

    Parameters
    ----------
    created : list of (str, int, int)
        ``(path, st_dev, st_ino)`` as :func:`make_parents` returns them, shallowest first.
    """
    for entry in reversed(created):
        cur, dev, ino = entry
        try:
            st = os.stat(cur)
        except OSError:
            st = None  # gone already
        if st is not None and (st.st_dev, st.st_ino) == (dev, ino):  # (else not ours any more)
            try:
                os.rmdir(cur)
            except OSError:
                continue  # not empty (yet): still listed
        forget_created([entry])


def forget_created(created) -> None:
    """Take the directories of ``created`` (``(path, st_dev, st_ino)`` from :func:`make_parents`)
    off the list of those to remove: their output was written.

    Parameters
    ----------
    created : iterable of tuple
        ``(path, st_dev, st_ino)`` entries as :func:`make_parents` returns them; an entry not on the list
        (taken off already) is skipped.
    """
    for entry in created:
        try:
            _CREATED.remove(entry)
        except ValueError:
            pass


def remove_pending_dirs() -> None:
    """:func:`remove_created` for every directory :func:`make_parents` created in this process and
    not yet removed: those still empty go (an output written since keeps its directory). For the
    end of a command, however it ends: an interrupted ``brisca solve --out new/x.parquet`` leaves no
    ``new/``."""
    remove_created(list(_CREATED))
    _CREATED.clear()


#: Seconds an interrupted run may take to write what it finished (:func:`keeping`).
KEEP_SECONDS = 60.0
_KEEP_UNTIL = [0.0]


def keeping(seconds: float = KEEP_SECONDS) -> None:
    """Say that the run, interrupted, is writing what it finished and may take up to ``seconds`` more:
    ``sim.cli.run_interruptible`` then waits for it instead of ending the process after its 2 s grace
    (a second signal still ends it at once). Break-it pass 17 (2026-12-06): the writer's queued chunks of
    a large ``--chunk`` took longer than the grace, and the hard exit lost every finished deal.
    ``keeping(0)`` clears the request: :func:`simulate` and ``run_interruptible`` do when they start, not
    when a run ends (its command's last steps would then race the grace's end: break-it pass 18).

    Parameters
    ----------
    seconds : float
        How long from now to be waited for (:data:`KEEP_SECONDS` by default; 0 clears the request).
    """
    _KEEP_UNTIL[0] = time.monotonic() + seconds


def keep_deadline() -> float:
    """The ``time.monotonic()`` until which :func:`keeping` asked to be waited for (0 or past: not asked;
    ``keeping(0)`` clears a request).

    Returns
    -------
    float
        A ``time.monotonic()`` value, in seconds.
    """
    return _KEEP_UNTIL[0]


def remove_temporaries() -> None:
    """Remove the temporary files of every output still being written, and the directories made for
    them if empty (:func:`remove_pending_dirs`): for a process about to end without unwinding
    (``sim.cli.run_interruptible``), so that no partial file or empty directory is left behind."""
    for tmp in list(_TEMPORARIES):
        try:
            tmp.unlink()
        except OSError:
            pass
        _TEMPORARIES.discard(tmp)
    remove_pending_dirs()


def _show_name(path) -> str:
    """An output path for an error message: whole up to 1,000 characters, cut after 100 then
    (:func:`sim.cards.show_input`; break-it pass 32: ``simulate(..., out="x" * 10**6)`` echoed it whole; a
    directory of nested names can be 4,000 characters long)."""
    text = str(path)
    return text if len(text) <= 1000 else show_input(text, limit=100, quote=False)


class _Target:
    """A parquet file being written: checked and opened before the run, renamed when done."""

    def __init__(self, path, label: str):
        try:
            raw = os.fspath(path)
        except TypeError:
            raw = None
        if not isinstance(raw, str):  # (bytes: os.fspath passes them, pathlib refuses them)
            raise ValueError(f"{label} path must be a str or os.PathLike, got {show_repr(path)}")
        if os.path.basename(raw) in ("", ".", ".."):
            # (Path("") is "." and Path("notes.txt/") is notes.txt: a trailing slash wrote over that file;
            # break-it pass of 2026-12-05)
            raise ValueError(f"{label} path {show_repr(raw)} is not a file name")
        self.final = Path(raw)
        self.raw = raw  # (named in write errors, as the caller gave it)
        self.label = label
        self.tmp: Path | None = None
        self.direct = False  # an existing device or pipe (e.g. /dev/null): written in place, never replaced
        self.created = []  # parent directories this run created (removed again if it fails)
        self.fh = None
        self.writer = None
        self.existed = False  # a regular file was at the final name before the run (a partial run keeps it)

    def real(self) -> str:
        """The path that is written: symlinks resolved (a link to a file writes that file, keeps the link)."""
        return os.path.realpath(self.final)

    def prepare(self) -> None:
        """Check the target, create missing parent directories and the temporary file (a refusal
        removes the directories it created; :meth:`discard` removes them after a failed run)."""
        try:
            self._prepare()
        except BaseException:
            remove_created(self.created)
            self.created = []
            raise

    def _prepare(self) -> None:
        f = self.final  # (a name, never "", "." or "..": __init__ refuses those)
        try:
            f.exists()
        except OSError as e:  # (a file name too long: exists() raises instead of saying False; cut, break-it
            # pass 32: a 1 MB name was echoed whole)
            raise ValueError(f"cannot write {self.label} {_show_name(f)}: {e.strerror or e}") from None
        if f.is_dir():
            raise ValueError(f"cannot write {self.label} {_show_name(f)}: it is a directory")
        try:  # (a symlink: its target's directories, as brisca solve --out makes them; break-it pass of
            # 2026-12-05: a link into a missing directory was refused here and written by solve)
            self.created = make_parents(self.real() if os.path.islink(f) else f)
        except ValueError as e:
            raise ValueError(f"cannot write {self.label} {_show_name(f)}: {e}") from None
        if os.path.exists(f) and not os.access(f, os.W_OK):
            raise ValueError(f"cannot write {self.label} {_show_name(f)}: file is not writable")
        try:
            direct = special_target(f)
        except ValueError as e:
            raise ValueError(f"cannot write {self.label} {_show_name(f)}: {e}") from None
        self.existed = not direct and os.path.isfile(f)
        if direct:  # renaming over /dev/null would replace the device; a FIFO's reader waits on it
            bad = device_open_problem(f)  # (/dev/tty without a controlling terminal: before the run, not after)
            if bad:
                raise ValueError(f"{self.label}: {bad}")
            self.direct = True
            return
        if os.path.islink(f):
            f = Path(self.real())
            self.final = f
        parent = f.parent
        try:  # (the temporary file's name is shorter: the final name's length is checked here, not at the rename)
            name_max = os.pathconf(parent, "PC_NAME_MAX")
        except (OSError, ValueError):
            name_max = 255
        if len(os.fsencode(f.name)) > name_max:
            raise ValueError(f"cannot write {self.label} {_show_name(f)}: {os.strerror(errno.ENAMETOOLONG)}")
        try:
            fd, name = temp_beside(os.path.join(parent, f.name))
        except OSError as e:
            raise ValueError(f"cannot write {self.label} {_show_name(f)}: cannot create a file in {_show_name(parent)}"
                             f" ({e.strerror or e})") from None
        tmp = Path(name)
        _TEMPORARIES.add(tmp)
        self.tmp = tmp
        try:
            os.fchmod(fd, new_file_mode())  # (mkstemp makes it 0600; a new output is 0644 less the umask)
        finally:
            os.close(fd)

    def open(self, schema) -> None:
        import pyarrow.parquet as pq
        # zstd level 1: the size of the default level, faster; min/max statistics on the row keys only
        # (row groups can be skipped by deal/pair; the other columns' statistics cost 20% of the time)
        stats = [c for c in ("deal", "pair") if c in schema.names]
        # a device or pipe through a Python file object (pyarrow's own file seeks, which a pipe cannot)
        # ... and a name that is not UTF-8 (bytes a filesystem allows: arrow takes only UTF-8 names; break-it
        # pass of 2026-12-05: the run's work was lost at the end) through one too
        with self._named():
            if self.direct:  # (a FIFO: waiting for its reader where a signal can land)
                self.fh = open_for_writing(self.final)
            elif not _utf8_name(self.tmp):
                self.fh = open(self.tmp, "wb")
            self.writer = pq.ParquetWriter(self.fh if self.fh is not None else str(self.tmp), schema,
                                           compression=_COMPRESSION, compression_level=1, write_statistics=stats)

    @contextlib.contextmanager
    def _named(self):
        """Put this file's name (as the caller gave it) on a write error that names none (pyarrow's and
        a full device's do not), so that a run writing two files says which one failed (session of
        2026-12-05, third part)."""
        try:
            yield
        except OSError as e:
            if e.filename is None:
                e.filename = self.raw
            raise

    def write(self, table) -> None:
        with self._named():
            self.writer.write_table(table, row_group_size=table.num_rows)

    def close(self, footer: Mapping | None = None) -> None:
        """Finish the file (footer) under its temporary name, with the key-value metadata ``footer``
        (``brisca.*`` keys, JSON values: what is known only at the end, such as ``rows``) added to
        the footer's."""
        with self._named():  # (called again after a signal landed in it: what is done is not done twice)
            if self.writer is not None:
                if footer and self.writer.is_open:
                    self.writer.add_key_value_metadata({k: str(v) for k, v in footer.items()})
                self.writer.close()
                self.writer = None
            if self.fh is not None:
                self.fh.close()
                self.fh = None

    def commit(self) -> None:
        """Rename the finished file to its final name (keeping an existing file's permissions)."""
        if self.tmp is not None:
            try:
                os.chmod(self.tmp, stat.S_IMODE(os.stat(self.final).st_mode))
            except OSError:
                pass  # no file there yet
            os.replace(self.tmp, self.final)
            _TEMPORARIES.discard(self.tmp)
        self.tmp = None
        forget_created(self.created)  # (they hold the file now)

    def new_file(self):
        """Before :meth:`commit`: ``(st_dev, st_ino)`` of the finished temporary file, which
        :meth:`placed` looks for under the final name; None when nothing is renamed (a device or pipe)."""
        if self.tmp is None:
            return None
        st = os.stat(self.tmp)
        return st.st_dev, st.st_ino

    def placed(self, new) -> bool:
        """Whether the file :meth:`new_file` named is under the final name (renamed, whatever
        interrupted :meth:`commit` after its rename); True when nothing is renamed."""
        if new is None:
            return True
        try:
            st = os.stat(self.final)
        except OSError:
            return False
        return (st.st_dev, st.st_ino) == new

    def old_name(self):
        """Before :meth:`commit`: a new name beside the final file for :meth:`keep_old` to keep the file
        the rename will replace under, or None when no file is there (or nothing is renamed). Named
        first, so that a caller records it before the file exists (a signal right after the link must
        not leave it behind)."""
        if self.tmp is None or not os.path.isfile(self.final):
            return None
        import secrets

        return self.final.parent / f".{_short_name(self.final.name)}.{secrets.token_hex(8)}.old"

    def keep_old(self, old) -> None:
        """Keep the file at the final name under ``old`` (:meth:`old_name`) too: a hard link, or where the
        filesystem has none a copy with the file's mode (``O_EXCL``: nothing already at ``old`` is
        followed), so that :meth:`undo` can put it back."""
        try:
            os.link(self.final, old)  # (never follows anything already at old: EEXIST)
            return
        except FileExistsError:
            raise
        except OSError:
            pass
        import shutil

        mode = stat.S_IMODE(os.stat(self.final).st_mode)
        fd = os.open(old, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with open(self.final, "rb") as src, open(fd, "wb") as dst:
            os.fchmod(dst.fileno(), mode)
            shutil.copyfileobj(src, dst)

    def undo(self, new, old) -> None:
        """Undo :meth:`commit` (or its attempt): when the new file (:meth:`new_file`) is under the final
        name, the kept old file (``old``, :meth:`keep_old`) renamed back over it, or with none the new
        file removed."""
        if new is None or not self.placed(new):
            return
        if old is not None:
            os.replace(old, self.final)
        else:
            os.unlink(self.final)

    def discard(self, dirs: bool = True) -> None:
        """Remove the temporary file and, with ``dirs``, the directories :meth:`prepare` made if
        empty (a caller discarding several outputs removes them once every file is gone)."""
        for name in ("writer", "fh"):  # the parquet writer first: it may write through fh
            opened = getattr(self, name)
            if opened is not None:
                try:
                    opened.close()
                except BaseException:
                    pass
                setattr(self, name, None)
        if self.tmp is not None:
            try:
                self.tmp.unlink()
            except OSError:
                pass
            _TEMPORARIES.discard(self.tmp)
            self.tmp = None
        if dirs:
            remove_created(self.created)  # (only empty ones: a committed file keeps its directory)
            self.created = []


def commit_all(targets, written=None) -> None:
    """Rename every finished target (:class:`_Target`) to its final name: all of them, or none. When a
    rename fails or is interrupted (Ctrl-C, SIGTERM, SIGHUP) before every new file is in place, the ones in place
    are undone, each old file put back (kept under a second name until every rename is done) or the new
    one removed (break-it passes of 2026-12-06: a signal between ``--out``'s and ``--tricks``' renames
    left the new deal table beside the old tricks table, and said "no output written"). Whether a new
    file is in place is read from the file system (its inode under the final name), so a signal landing
    just after a rename is undone too. The second names are removed at the end, a signal then waiting
    until they are.

    Parameters
    ----------
    targets : list of _Target
        Finished (closed) targets.
    written : list, optional
        Gets the targets' names (as given) once every new file is in place, whatever stops the function
        after that: the caller's message can say the output was written.

    Raises
    ------
    OSError, KeyboardInterrupt
        What stopped the renames (once they are undone), or a signal that came after them (with every new
        file in place and ``written`` filled)."""
    saved = []  # (target, its new file, its old file's second name or None), in rename order
    try:
        for t in targets:
            saved.append((t, t.new_file(), t.old_name()))
            if saved[-1][2] is not None:
                t.keep_old(saved[-1][2])
        for t in targets:
            t.commit()
        if written is not None:
            written.extend(t.raw for t in targets)
    except BaseException:
        done = len(saved) == len(targets) and all(t.placed(new) for t, new, _ in saved)
        if done:  # (every rename happened: the signal came after the last one)
            if written is not None and not written:
                written.extend(t.raw for t in targets)
        else:
            for t, new, old in reversed(saved):
                try:
                    t.undo(new, old)
                except OSError:
                    pass
        raise
    finally:
        _remove_all([old for _, _, old in saved if old is not None])


def _remove_all(paths) -> None:
    """Remove ``paths`` (missing ones skipped), all of them even when a signal comes meanwhile; that
    signal is raised again once they are gone."""
    pending = list(paths)
    caught = None
    while pending:
        try:
            while pending:
                try:
                    os.unlink(pending[-1])
                except FileNotFoundError:
                    pass
                pending.pop()
        except OSError:
            pending.pop()
        except BaseException as e:  # (KeyboardInterrupt, SystemExit: after the removals)
            caught = caught or e
    if caught is not None:
        raise caught


def utf8_text(text: str) -> str:
    """``text`` with any lone surrogate (``"\\udcff"``: a name's bytes that are not UTF-8, kept by
    ``os.fsdecode``; a ``\\ud800`` escape in JSON input) written as a backslash escape, so that arrow
    and strict UTF-8 writers take it; ``text`` itself when it has none.

    Parameters
    ----------
    text : str

    Returns
    -------
    str
        Text that encodes as UTF-8.
    """
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _utf8_name(path) -> bool:
    """Whether ``path`` can be given to arrow as a string (:func:`utf8_text` leaves it as it is)."""
    return utf8_text(str(path)) == str(path)


#: Paths that name an already open descriptor (``/dev/stdout``, ``/dev/fd/3``, ``/proc/self/fd/4``).
_FD_PATH = re.compile(r"/dev/(stdin|stdout|stderr|fd/\d+)|/proc/(self|thread-self|\d+)(/task/\d+)?/fd/\d+")


def _names_descriptor(path) -> bool:
    """True when ``path`` names an open file descriptor (``/dev/stdout``, ``/dev/fd/3``,
    ``/proc/self/fd/3``) in any spelling: resolved one component at a time, as the kernel does, so a
    symlink to ``/dev/fd`` or a chain of links to ``/dev/fd/3`` is seen too.

    Raises
    ------
    OSError
        ``ELOOP`` after 40 symbolic links (the kernel's limit: a loop, or a chain it would not open).
    """
    todo = os.path.abspath(os.fspath(path)).split("/")
    resolved = "/"
    hops = 0
    while todo:
        c = todo.pop(0)
        if c in ("", "."):
            continue
        if c == "..":
            resolved = os.path.dirname(resolved)
            continue
        cand = os.path.join(resolved, c)
        if _FD_PATH.fullmatch(cand):
            return True
        if os.path.islink(cand):
            hops += 1
            if hops > 40:
                raise OSError(errno.ELOOP, "too many levels of symbolic links", os.fspath(path))
            target = os.readlink(cand)
            if target.startswith("/"):
                resolved = "/"
            todo = target.split("/") + todo
            continue
        resolved = cand
    return False


#: Seconds between a progress bar's updates when stderr is not a terminal (a log file, a pipe):
#: a line of carriage-return updates every PROGRESS_LOG_SECONDS, not every 0.1 s.
PROGRESS_LOG_SECONDS = 30.0


def progress_interval(stream) -> float:
    """Seconds between a progress bar's redraws on ``stream`` (tqdm's ``mininterval``).

    Parameters
    ----------
    stream : file-like
        Where the bar is drawn (``sys.stderr``).

    Returns
    -------
    float
        0.1 s on a terminal or in a Jupyter kernel (watched live), else
        :data:`PROGRESS_LOG_SECONDS`, so that a log file is not filled with redraws. A closed or
        replaced stream counts as no terminal; nothing is raised.
    """
    if "ipykernel" in sys.modules:  # (a notebook's stderr is no terminal but is watched live)
        return 0.1
    return 0.1 if stream_is_terminal(stream) else PROGRESS_LOG_SECONDS


def stream_is_terminal(stream) -> bool:
    """Whether ``stream`` is a terminal.

    Parameters
    ----------
    stream : file object
        ``sys.stdout``, ``sys.stderr`` or any object with ``isatty()``.

    Returns
    -------
    bool
        False for a closed stream or one without ``isatty`` (a replaced stream); nothing is raised.
    """
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def progress_intervals(stream) -> dict:
    """tqdm keyword arguments for a bar drawn on ``stream``.

    Parameters
    ----------
    stream : file-like
        Where the bar is drawn (``sys.stderr``).

    Returns
    -------
    dict
        ``mininterval``: :func:`progress_interval` (seconds); ``maxinterval``: as long off a
        terminal, else tqdm's default 10 s (its monitor thread would otherwise redraw every 10 s).
    """
    m = progress_interval(stream)
    return {"mininterval": m, "maxinterval": max(m, 10.0)}


def progress_bar(**kwargs):
    """A tqdm progress bar on stderr, redrawn as :func:`progress_intervals` says, made under
    :func:`sim.threads.starting_threads` (the first bar starts tqdm's monitor thread, disabled or not, and a
    thread start must not take in an interruption meant for the command's thread: break-it pass 31). The
    one way ``brisca simulate``, ``solve --file`` and ``puzzles`` make their bars.

    Parameters
    ----------
    **kwargs
        tqdm's other arguments (``total``, ``unit``, ``desc``, ``disable``, ...).

    Returns
    -------
    tqdm.tqdm
        The bar.
    """
    from tqdm import tqdm
    with starting_threads():
        return tqdm(file=sys.stderr, **progress_intervals(sys.stderr), **kwargs)


#: How a device is opened to be looked at: for writing, never as the controlling terminal, never blocking.
_PROBE_FLAGS = os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK


def _is_terminal(path) -> bool:
    try:
        fd = os.open(path, _PROBE_FLAGS)
    except OSError:
        return False
    try:
        return os.isatty(fd)
    finally:
        os.close(fd)


def device_open_problem(path):
    """Why the character device ``path`` cannot be opened for writing (``/dev/tty`` without a
    controlling terminal: ENXIO). Opened as :func:`_is_terminal` opens it (write-only, never as the
    controlling terminal, non-blocking) and closed at once.

    Parameters
    ----------
    path : str or os.PathLike

    Returns
    -------
    str or None
        ``"cannot be opened for writing: PATH: REASON"`` (also when ``os.stat`` of ``path`` fails);
        None when it opens, or when ``path`` is no character device. Nothing is raised.
    """
    try:
        if not stat.S_ISCHR(os.stat(path).st_mode):
            return None
        os.close(os.open(path, _PROBE_FLAGS))
    except OSError as e:
        return f"cannot be opened for writing: {path}: {e.strerror or e}"
    return None


#: Seconds between tries to open a FIFO that has no reader yet (:func:`open_for_writing`).
FIFO_POLL = 0.03
#: Set while ``sim.cli``'s hard-exit hooks run (:func:`giving_up_on_readers`): a write still waiting for
#: a FIFO's reader gives up instead of waiting.
_NO_MORE_WAITING = []


@contextlib.contextmanager
def giving_up_on_readers():
    """While this context is open, :func:`open_for_writing` stops waiting for a FIFO's reader (in any
    thread): ``sim.cli`` opens it while the hard-exit hooks of a process ending without unwinding run,
    so that a keeper whose file is a FIFO nobody reads ends at once, said, instead of the hook waiting
    for it (break-it pass 33: a run ended 62 s after Ctrl-C). A write already under way is not
    affected (the hook still waits for it).

    Yields
    ------
    None
        Nothing: the effect is the module-wide flag, for every thread, until the block ends (blocks
        nest; the outermost one's end lets :func:`open_for_writing` wait again).
    """
    _NO_MORE_WAITING.append(True)
    try:
        yield
    finally:
        _NO_MORE_WAITING.pop()


def open_for_writing(path, mode: str = "wb"):
    """``open(path, mode)`` for a table or text written in place (:func:`special_target`: a device or a
    FIFO). A FIFO is opened without blocking in the kernel until a reader comes (where Ctrl-C, SIGTERM
    and SIGHUP cannot land in the command's thread: break-it pass 33): tried again every
    :data:`FIFO_POLL` seconds while nobody reads it (``ENXIO``), its descriptor made blocking once
    open (as ``brisca solve --file``'s FIFO is for reading). A reader that comes late is waited for,
    unless the process is ending without unwinding (:func:`giving_up_on_readers`).

    Parameters
    ----------
    path : str or os.PathLike
        The file to write (a FIFO, a device such as ``/dev/null`` or ``/dev/stdout``, or any other file,
        opened as ``open`` does).
    mode : str
        ``open``'s write mode: ``"wb"`` for a parquet table (:class:`_Target`), ``"w"`` for text
        (``brisca solve --out``, ``puzzles --out``).

    Returns
    -------
    file object
        Open for writing, blocking: a binary file for ``"wb"``, a text file for ``"w"``. The caller
        closes it.

    Raises
    ------
    OSError
        As ``open``; ``ENXIO`` "nobody reads the FIFO" when the process ends before a reader comes.
    """
    try:
        fifo = stat.S_ISFIFO(os.stat(path).st_mode)
    except OSError:
        fifo = False  # (open names the problem)
    if not fifo:
        return open(path, mode)
    while True:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError as e:
            if e.errno != errno.ENXIO:  # (ENXIO: no reader yet)
                raise
        if _NO_MORE_WAITING:
            raise OSError(errno.ENXIO, "nobody reads the FIFO", os.fspath(path))
        time.sleep(FIFO_POLL)
    try:
        os.set_blocking(fd, True)
        return open(fd, mode)
    except BaseException:
        os.close(fd)
        raise


def special_target(path) -> bool:
    """How a table path that is not a plain file name is written; True: in place (a device or pipe).

    Returns False for a regular file (or a new one, or a symlink to one): written under a temporary
    name and renamed. Returns True for ``/dev/null``-like character devices and FIFOs, written in
    place. Block devices and sockets are refused, and so are symlink loops and chains of more than
    40 links (the kernel's limit).

    Parameters
    ----------
    path : str or os.PathLike
        The table's path (``--out``, ``--tricks``).

    Returns
    -------
    bool
        True: write in place (a character device or a FIFO); False: a regular file, a new one, or one
        :func:`os.stat` cannot reach (written under a temporary name and renamed).

    Raises
    ------
    ValueError
        Naming the problem: the path is a directory, a symlink loop, this process's standard input,
        output or error (a file or
        pipe that also carries the command's own text, or its input), a terminal (parquet is
        binary), a socket or other special file, a closed file descriptor, or a descriptor name
        (``/dev/fd/3``) that leads to a regular file (give the file's own name: writing through the
        descriptor would append to or replace whatever it was opened on).
    """
    p = os.fspath(path)
    fdname = False
    try:
        fdname = _names_descriptor(p)
        st = os.stat(p)
    except OSError as e:
        if e.errno == errno.ELOOP:  # (os.path.realpath would follow the chain the kernel refuses)
            raise ValueError("too many levels of symbolic links (a loop?)") from None
        if fdname:
            raise ValueError("no such open file descriptor") from None
        return False
    if stat.S_ISDIR(st.st_mode):
        raise ValueError("it is a directory")
    chr_dev = stat.S_ISCHR(st.st_mode)
    if chr_dev and _is_terminal(p):
        raise ValueError("it is a terminal (parquet is binary; give a file name)")
    if not chr_dev:  # /dev/null as stdout and as the table is fine
        for fd, name in ((0, "input"), (1, "output"), (2, "error")):
            try:
                sf = os.fstat(fd)
            except OSError:
                continue
            if (sf.st_dev, sf.st_ino) == (st.st_dev, st.st_ino):
                raise ValueError(f"it is this command's standard {name}" + (
                    ", which also carries its text (give a file name)" if fd else " (give another file name)"))
    if stat.S_ISREG(st.st_mode):
        if fdname:
            raise ValueError("it names an open file descriptor of a regular file (give the file's own name)")
        return False
    if chr_dev or stat.S_ISFIFO(st.st_mode):
        return True
    raise ValueError("it is not a regular file, a character device or a pipe")


def write_table(table, path, label: str = "out") -> None:
    """Write one ``pyarrow.Table`` to a parquet file the way ``simulate`` writes its output: under a
    temporary name in the same directory, renamed when complete (removed if anything fails, so no
    half-written file is left); an existing device or pipe (``/dev/null``) is written in place, never
    replaced; a symlink writes its target and stays a link (:func:`special_target`).

    Parameters
    ----------
    table : pyarrow.Table
        Any columns; no rows gives a file with the schema and no row group.
    path : str or os.PathLike
        The parquet file; missing parent directories are created.
    label : str
        How error messages name the file (``"--out"``).

    Raises
    ------
    ValueError
        If ``path`` is a directory, not a file name, not writable, or its directory cannot be created
        (the message names ``label``).
    OSError
        If writing fails (disk full, file size limit); the temporary file is removed.
    """
    write_tables(table.schema, [table], path, label)


def write_tables(schema, tables, path, label: str = "out") -> None:
    """:func:`write_table` for a table given in parts: each part written as it comes, one row group a part
    with rows, so that only one part is in memory (``brisca solve --file --out`` makes them from its
    records as it writes).

    Parameters
    ----------
    schema : pyarrow.Schema
        The file's columns and key-value metadata; every part has them.
    tables : iterable of pyarrow.Table
        The parts, in row order; none, or parts without rows, give a file with the schema and no row group.
    path : str or os.PathLike
        The parquet file (as :func:`write_table`'s).
    label : str
        How error messages name the file (``"--out"``).

    Raises
    ------
    ValueError, OSError
        As :func:`write_table`; an error raised by ``tables`` itself removes the temporary file too."""
    t = _Target(path, label)
    t.prepare()
    try:
        t.open(schema)
        for table in tables:
            if table.num_rows:  # (no rows: a file with the schema and no row group)
                t.write(table)
        t.close()
        t.commit()
    except BaseException:
        t.discard()
        raise


def _is_char_device(path) -> bool:
    try:
        return stat.S_ISCHR(os.stat(path).st_mode)
    except OSError:
        return False


def same_file(a, b) -> bool:
    """True when paths ``a`` and ``b`` name one existing file (also through hard links and symlinks);
    False when either does not exist.

    Parameters
    ----------
    a, b : str or os.PathLike

    Returns
    -------
    bool
        False also when ``os.stat`` of either path fails (``OSError``).
    """
    try:
        return os.path.samefile(a, b)  # hard links too
    except OSError:
        return False


def _concat(tables):
    """One table of ``tables`` (the same schema), without a copy for one."""
    if len(tables) == 1:
        return tables[0]
    import pyarrow as pa
    return pa.concat_tables(tables)


class _WriterThread:
    """Writes the tables of each chunk in a background thread while the engine plays the next.

    pyarrow releases the GIL while it encodes, so writing one chunk overlaps playing the next. At most
    ``depth`` chunks wait (bounded memory). A chunk is handed over by one ``deque.append``, which an
    interruption raised in the run's thread lands before or after, never inside (the run's thread
    takes no lock here: one left held would stop the writer), and the thread records the mark of the
    last chunk it took (:attr:`delivered`): after an interruption, :meth:`close` writes the files
    with exactly the chunks up to it (session of 2026-12-06, sixth part). Chunks of fewer rows than
    :data:`ROW_GROUP_ROWS` are held and written together as one row group (the ``solver`` policy's
    chunks of a few deals each would have made a row group each).
    """

    #: Seconds between looks at the queue (the writer's idle wait and the run's wait for room).
    POLL = 0.005

    def __init__(self, depth: int = 2):
        import collections
        import threading
        self.items = collections.deque()
        self.depth = depth
        self.error = None
        self.delivered = None  # the mark of the last chunk taken (written, or held for the next row group)
        self.closing = False  # every chunk is handed over: write them and what is held, and end
        self.stopping = False  # end after the chunk being written, dropping the others and what is held
        self.finished = False  # set by the thread as it ends (read instead of join: see close)
        self.thread = threading.Thread(target=self._run, name="brisca-parquet-writer", daemon=True)
        start_thread(self.thread)  # (sim.threads: an interruption of the command cannot land in it)

    def _run(self):
        held = {}  # id(target) -> (target, tables not yet written, their rows)
        try:
            while not self.stopping:
                try:
                    mark, parts = self.items.popleft()
                except IndexError:
                    if self.closing and not self.items:  # (closing is set after the last append)
                        for target, tables, _ in held.values():  # what is held is written at the end
                            if tables:
                                target.write(_concat(tables))
                        return
                    time.sleep(self.POLL)
                    continue
                for target, table in parts:  # small chunks are gathered into one row group
                    _, tables, rows = held.setdefault(id(target), (target, [], [0]))
                    tables.append(table)
                    rows[0] += table.num_rows
                    if rows[0] >= ROW_GROUP_ROWS:
                        target.write(_concat(tables))
                        tables.clear()
                        rows[0] = 0
                self.delivered = mark  # (held or written: written by close, lost only with the run)
        except BaseException as e:  # re-raised in the run's thread
            self.error = e
        finally:
            self.finished = True

    def put(self, mark, parts) -> None:
        """Hand over one chunk: ``parts``, ``(target, table)`` pairs written in order, and its ``mark``
        (what :attr:`delivered` says once they are taken); waits while ``depth`` chunks wait."""
        while len(self.items) >= self.depth and self.error is None and not self.finished:
            time.sleep(self.POLL)
        if self.error is not None:
            raise self.error
        self.items.append((mark, parts))

    def close(self) -> None:
        """Wait until every chunk is written; re-raise a writer error. Waits by sleeping in steps, so
        that a signal's exception reaches the run's thread meanwhile (a plain join runs no bytecode:
        break-it pass 18 found the run ended without unwinding, every deal played), and reads
        :attr:`finished`, not ``Thread.is_alive``: an exception landing in ``Thread.join`` marks the
        thread finished while it still runs (CPython 3.11-3.12), and the files were then closed under
        the writer, with no rows."""
        self.closing = True
        while not self.finished:
            time.sleep(self.POLL)
        if self.error is not None:
            raise self.error

    def abort(self) -> None:
        """Let the chunk being written finish, drop the others, and wait for the thread to end."""
        self.stopping = True
        while not self.finished:
            time.sleep(self.POLL)


# ---------------------------------------------------------------------------
# arrow tables
# ---------------------------------------------------------------------------

class _Tables:
    """Builds the arrow schemas and the per-chunk tables of a run."""

    def __init__(self, rules: Rules, seat_pol: tuple[str, ...], rotations: int, meta: dict):
        import pyarrow as pa
        self.pa = pa
        self.n = rules.players
        self.S = rules.sides
        self.R = rotations
        self.dup = rotations > 1
        self.trump2 = rules.players == 3 and rules.remove == "trump2"
        self.card_dict = pa.array(CARD_NAMES, pa.string())
        self.suit_dict = pa.array(list(SUITS), pa.string())
        names = _policy_names()
        self.pol_dict = pa.array(list(names), pa.string())
        # policy index of seat s in rotation k: seat (s + k) % n of rotation 0 (sim.engine.play_batch)
        ids = np.array([names.index(p) for p in seat_pol], dtype=np.int8)
        self.pol_by_rot = np.array([[ids[(s + k) % self.n] for k in range(rotations)] for s in range(self.n)],
                                   dtype=np.int8)
        card = pa.dictionary(pa.int8(), pa.string())
        i8, i16, i64 = pa.int8(), pa.int16(), pa.int64()
        keys = [("deal", i64)] + ([("pair", i64), ("rotation", i8)] if self.dup else [])  # both tables' row keys
        f = keys + [("deal_seed", pa.uint64()), ("first_lead", i8), ("pinta", card),
                    ("trump", pa.dictionary(pa.int8(), pa.string()))]
        if self.trump2:
            f += [("removed", card)]
        f += [(f"hand_{s}_{k}", card) for s in range(self.n) for k in range(3)]
        f += [(f"policy_{s}", pa.dictionary(pa.int8(), pa.string())) for s in range(self.n)]
        f += [(f"points_{s}", i8) for s in range(self.n)]
        f += [(f"tricks_{s}", i8) for s in range(self.n)]
        f += [(f"side_points_{k}", i16) for k in range(self.S)]
        f += [("winner", i8), ("capote", pa.bool_()), ("exchanges", i8)]
        for k in range(2):
            f += [(f"exchange{k}_seat", i8), (f"exchange{k}_card", card), (f"exchange{k}_trick", i8)]
        md = {f"brisca.{k}": json.dumps(v) for k, v in meta.items()}
        self.deal_schema = pa.schema(f, metadata={**md, "brisca.table": json.dumps("deals")})
        t = keys + [("trick", i8), ("leader", i8)]
        t += [(f"card_{i}", card) for i in range(self.n)]
        t += [("winner", i8), ("points", i8)]
        self.trick_schema = pa.schema(t, metadata={**md, "brisca.table": json.dumps("tricks")})

    def _cards(self, ids, nullable=False):
        pa = self.pa
        ids = np.asarray(ids)
        if nullable:
            mask = ids < 0
            idx = pa.array(np.where(mask, 0, ids).astype(np.int8), pa.int8(), mask=mask)
        else:
            idx = pa.array(ids.astype(np.int8), pa.int8())
        return pa.DictionaryArray.from_arrays(idx, self.card_dict)

    def _keys(self, rows):
        """The row-key columns of deal rows ``rows`` (int64): ``deal``, and ``pair`` and ``rotation`` with
        ``duplicate``."""
        return [rows, rows // self.R, (rows % self.R).astype(np.int8)] if self.dup else [rows]

    def _table(self, cols, schema):
        """An arrow table of ``cols`` (arrow arrays, or numpy arrays of the schema's types)."""
        pa = self.pa
        return pa.Table.from_arrays([c if isinstance(c, pa.Array) else pa.array(c) for c in cols], schema=schema)

    def _dict(self, idx, dictionary):
        pa = self.pa
        return pa.DictionaryArray.from_arrays(pa.array(np.asarray(idx, dtype=np.int8), pa.int8()), dictionary)

    def deal_table(self, E, res, hands0, dseeds, row0, m):
        """Arrow table of rows ``row0 .. row0+m-1`` (``E``: the engine module, for the ``R_*`` columns)."""
        res = res[:m]
        rows = np.arange(row0, row0 + m, dtype=np.int64)
        cols = self._keys(rows)
        cols += [dseeds[:m].copy(), res[:, E.R_FIRST].astype(np.int8), self._cards(res[:, E.R_PINTA]),
                 self._dict(res[:, E.R_TRUMP], self.suit_dict)]
        if self.trump2:
            cols.append(self._cards(res[:, E.R_REMOVED], nullable=True))
        cols += [self._cards(hands0[:m, s, k]) for s in range(self.n) for k in range(3)]
        rot = (rows % self.R).astype(np.intp)
        cols += [self._dict(self.pol_by_rot[s][rot], self.pol_dict) for s in range(self.n)]
        cols += [res[:, E.R_SEAT_POINTS + s].astype(np.int8) for s in range(self.n)]
        cols += [res[:, E.R_SEAT_TRICKS + s].astype(np.int8) for s in range(self.n)]
        cols += [res[:, E.R_SIDE_POINTS + k].astype(np.int16) for k in range(self.S)]
        cols += [res[:, E.R_WINNER].astype(np.int8), res[:, E.R_CAPOTE] != 0, res[:, E.R_NEX].astype(np.int8)]
        for k in range(2):
            cols += [res[:, E.R_EX + 3 * k].astype(np.int8), self._cards(res[:, E.R_EX + 3 * k + 1], nullable=True),
                     res[:, E.R_EX + 3 * k + 2].astype(np.int8)]
        return self._table(cols, self.deal_schema)

    def trick_table(self, E, tricks, row0, m):
        """Arrow table of the tricks of rows ``row0 .. row0+m-1``."""
        nt = tricks.shape[1]
        t = tricks[:m].reshape(m * nt, tricks.shape[2])
        rows = np.repeat(np.arange(row0, row0 + m, dtype=np.int64), nt)
        cols = self._keys(rows)
        cols += [np.tile(np.arange(nt, dtype=np.int8), m), t[:, E.T_LEADER].astype(np.int8)]
        cols += [self._cards(t[:, E.T_CARDS + i]) for i in range(self.n)]
        cols += [t[:, E.T_WINNER].astype(np.int8), t[:, E.T_POINTS].astype(np.int8)]
        return self._table(cols, self.trick_schema)


def read_metadata(path) -> dict:
    """The ``brisca.*`` key-value metadata of a parquet file written by :func:`simulate`, decoded
    (also of ``brisca solve --out`` and ``brisca puzzles --out`` tables: ``table``, ``complete``,
    ``rows``, ``total``, ``version``, ``numba_version``, and for a puzzles table its run's ``rules``,
    ``seed`` and ``max_tries``; ``complete`` is false in the file of an interrupted run).

    Parameters
    ----------
    path : str, bytes or os.PathLike
        A parquet file.

    Returns
    -------
    dict
        Key (without ``brisca.``) to decoded value; empty for a parquet file that brisca did not write.

    Raises
    ------
    OSError
        If the file cannot be reached or read (``FileNotFoundError``, ``PermissionError``, a symlink
        loop, ...), naming it.
    ValueError
        If ``path`` is not a file name, or names no regular parquet file (a directory, a FIFO, an
        empty or damaged file, JSON lines, ...), or a ``brisca.*`` value is not JSON: the message names
        the file (break-it passes of 2026-12-05: pyarrow's own errors came through, ``ArrowInvalid:
        Parquet magic bytes not found in footer``; a FIFO blocked).

    Examples
    --------
    >>> read_metadata("results/run.parquet")["rules"]["players"]  # doctest: +SKIP
    2
    """
    import pyarrow as pa
    import pyarrow.parquet as pq
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise ValueError(f"path: expected a parquet file name, got {type(path).__name__}")
    path = os.fsdecode(path)  # (bytes, and a PathLike giving bytes: a name that is not UTF-8 is kept as it is)
    try:
        st = os.stat(path)  # (its OSError names the file and the cause: no such file, a loop, permission)
    except ValueError:  # (an embedded NUL)
        raise ValueError(f"path: {path!r} is not a file name") from None
    if stat.S_ISDIR(st.st_mode):
        raise ValueError(f"{path}: is a directory, not a parquet file (read_metadata reads one file)")
    if not stat.S_ISREG(st.st_mode):  # (a FIFO would block until a writer came: break-it pass of 2026-12-05)
        raise ValueError(f"{path}: not a regular file, so not a parquet file")
    # read through a Python file: arrow takes only UTF-8 names (third break-it pass of 2026-12-05)
    with open(path, "rb") as fh:
        try:
            pf = pq.ParquetFile(fh)
            # the schema's keys (written when the run started), then the footer's (written at its end:
            # rows, total, complete; pyarrow's read_schema shows only the schema's)
            md = {**(pf.schema_arrow.metadata or {}), **(pf.metadata.metadata or {})}
        except (pa.ArrowException, OSError) as e:  # (ArrowInvalid; a damaged footer: "Couldn't deserialize")
            raise ValueError(f"{path}: not a parquet file ({e})") from None
    out = {}
    for k, v in md.items():
        k = k.decode(errors="replace")
        if k.startswith("brisca."):
            try:
                out[k[len("brisca."):]] = json.loads(v)
            except (ValueError, RecursionError):
                raise ValueError(f"{path}: metadata key {k!r} is not JSON, as brisca writes it") from None
    return out


# ---------------------------------------------------------------------------
# the run
# ---------------------------------------------------------------------------

_STATUS = {1: "a policy returned an illegal action", 2: "more trump exchanges than RULES R7 allows"}


def _check_status(E, res, row0, m, rotations, seat_pol):
    bad = np.flatnonzero(res[:m, E.R_STATUS] != 0)
    if bad.size:
        i = int(bad[0])
        row = row0 + i
        code = int(res[i, E.R_STATUS])
        raise RuntimeError(f"engine error in {bad.size} row(s) of this chunk; first at row {row} "
                           f"(deal {row // rotations}, rotation {row % rotations}): status {code}, "
                           f"{_STATUS.get(code, 'unknown status')} (policies {', '.join(seat_pol)})")


def _versions() -> dict:
    import numba
    try:
        from importlib.metadata import version
        v = version("brisca")
    except Exception:
        v = "unknown"
    return {"version": v, "numba_version": numba.__version__}


def _next_step(step: int, took: float, cap: int, rotations: int) -> int:
    """Rows of the next chunk after one of ``step`` rows took ``took`` s: about :data:`CHUNK_SECONDS` of
    play, at most 4 times ``step`` and ``cap``, at least one pair (``rotations`` rows), whole pairs."""
    want = cap if took <= 0 else int(step * CHUNK_SECONDS / took)
    want = min(cap, 4 * step, want)
    return max(rotations, want - want % rotations)


def _chunk_rows(chunk, rows: int, rotations: int, tricks_per_deal: int, rec: bool, solver: bool) -> tuple[int, int]:
    """The rows a chunk may hold and the rows of the first chunk, for :func:`simulate`.

    Parameters
    ----------
    chunk : int or None
        ``simulate``'s ``chunk`` as given (checked here); None: chunks sized by time (:func:`_next_step`).
    rows : int
        Rows of the run (deals times rotations).
    rotations : int
        Rows a deal is played in (1, or ``rules.sides`` with ``duplicate``): chunks hold whole deals.
    tricks_per_deal : int
        ``rules.tricks``: trick-table rows of a deal row.
    rec : bool
        Whether the trick table is recorded (it bounds the chunk further).
    solver : bool
        Whether the policy is ``solver`` (a smaller first chunk).

    Returns
    -------
    (int, int)
        The rows of the arrays a chunk is played in (at least ``rotations``, at most ``rows``, whole deals),
        and the rows of the first chunk (at most the first; whole deals).

    Raises
    ------
    ValueError
        For a ``chunk`` that is not a positive integer or above :data:`MAX_CHUNK` (with tricks recorded,
        :data:`MAX_CHUNK_TRICK_ROWS` trick rows).
    """
    adaptive = chunk is None
    if adaptive:
        # chunks of about CHUNK_SECONDS each, up to DEFAULT_CHUNK rows: a slow policy's chunk of DEFAULT_CHUNK
        # rows took seconds (expert) or was the whole run (solver: its progress bar at 0), and a signal then
        # found the run inside compiled code past the 2 s grace and lost every deal (session of 2026-12-06,
        # sixth part); the first chunk is small and the next ones sized from the time it took
        chunk = DEFAULT_CHUNK
        if rec:
            chunk = min(chunk, max(1, MAX_TRICK_ROWS // tricks_per_deal))
    else:
        chunk = _as_count("chunk", chunk)
        limit = min(MAX_CHUNK, MAX_CHUNK_TRICK_ROWS // tricks_per_deal) if rec else MAX_CHUNK
        if chunk > limit:
            raise ValueError(f"chunk must be at most {limit} rows{' with tricks recorded' if rec else ''}"
                             f" (memory: about 200 bytes a row in flight), got {show_repr(chunk)}")
    chunk = max(rotations, chunk - chunk % rotations)
    chunk = min(chunk, rows)
    step = min(chunk, (SOLVER_CHUNK if solver else FIRST_CHUNK) * rotations) if adaptive else chunk
    return chunk, step


def _footer(n: int, total: int) -> dict:
    """The footer keys of a simulate file holding ``n`` of the ``total`` deal rows asked for (complete when
    they are all there)."""
    return {"brisca.rows": n, "brisca.total": total, "brisca.complete": "true" if n == total else "false"}


def _replaces_nothing(targets, n: int, rows: int) -> bool:
    """Whether an interrupted :func:`simulate` that played ``n`` of its ``rows`` rows may put its outputs
    (``targets``) in place: when none of them replaces an existing file, or when every row was played
    (only a complete run replaces one). :func:`_keep_interrupted` decides by it, and the progress note
    "writing the deals finished" is said by it (new-user pass 26)."""
    return n == rows or not any(t.existed for t in targets)


def _keep_interrupted(exc, targets, mark, rows: int, summarize, written: list | None):
    """After Ctrl-C, SIGTERM or SIGHUP in :func:`simulate`'s loop: keep the chunks finished, and return
    ``exc`` (a ``KeyboardInterrupt``) to raise again, saying what was kept (``summarize(counts,
    **extra)`` makes the run's summary of a :class:`RunningStats`).

    The output files (``targets``, still open) are finished with the rows of ``mark`` (``(rows done,
    their RunningStats)``, or None for none) and renamed into place, marked incomplete in their footer
    (``brisca.complete`` false, ``brisca.rows`` of ``brisca.total``), unless one of them replaces an
    existing file (only a complete run does: then none is written and the caller discards them all, as
    ``brisca solve --file`` keeps an existing ``--out``; when every row was played, the signal having
    come while the last chunks were written, the files are complete and replace existing ones). While
    it writes it asks for time (:func:`keeping`). Sets on ``exc``: ``kept_rows`` (rows done),
    ``partial_summary`` (their :class:`sim.stats.Summary`, ``complete`` False unless every row was
    played, naming the files written; None when no row was done), ``kept_files`` (whether the files
    were written) and ``existing`` (the names of the outputs that were already there and kept).
    Session of 2026-12-06, sixth part: an interrupted run wrote nothing, and a long run's finished
    deals were lost.
    """
    n, counts = mark if mark is not None else (0, None)
    exc.kept_rows, exc.partial_summary, exc.kept_files = n, None, False
    exc.existing = [t.raw for t in targets if t.existed]
    if not n:
        return exc
    # every row played (the signal came while the last chunks were written): the run is whole, its files
    # complete and allowed to replace existing ones, as brisca solve --file does (break-it pass 17: they
    # said complete false with rows == total)
    whole = n == rows
    if whole:
        exc.existing = []
    keep = bool(targets) and _replaces_nothing(targets, n, rows)
    if keep:
        keeping()
        for t in targets:
            t.close(_footer(n, rows))
        commit_all(targets, written)
        exc.kept_files = True
    names = {t.label: str(t.raw) for t in targets} if keep else {}
    exc.partial_summary = summarize(counts, complete=whole, out=names.get("output"),
                                    tricks_out=names.get("tricks output"))
    return exc


def _physical_memory() -> int | None:
    """Bytes of memory of this machine (``os.sysconf``), or None where it cannot say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def _check_frame_memory(rows: int, tricks: bool) -> None:
    """Refuse frames of ``rows`` deal rows (and their tricks) that cannot fit in memory: about
    :data:`FRAME_ROW_BYTES` (+ :data:`TRICK_ROW_BYTES` with ``tricks``) a row against the machine's memory."""
    need = rows * (FRAME_ROW_BYTES + (TRICK_ROW_BYTES if tricks else 0))
    have = _physical_memory()
    if have is not None and need > have:
        raise ValueError(f"keep_frame: a frame of {rows:,} rows{' with their tricks' if tricks else ''} needs about "
                         f"{need / 1e9:,.1f} GB, more than this machine's {have / 1e9:,.1f} GB of memory: write the "
                         "table with out=" + (" and tricks_out=" if tricks else "") + " and keep_frame=False")


def simulate(rules, policies="random", deals: int = 1000, seed: int = 0, threads: int | None = None,
             duplicate: bool = False, out=None, tricks_out=None, chunk: int | None = None,
             progress: bool = False, keep_frame: bool | None = None, tricks: bool = False,
             on_start=None, written: list | None = None) -> SimResult:
    """Play ``deals`` deals (or pairs with ``duplicate``) and summarize them; optionally write parquet.

    Parameters
    ----------
    rules : Rules, dict or int
        The rule set (:class:`sim.rules.Rules`, a dict of its fields, or a player count).
    policies : str or sequence of str
        One policy name for every seat, one per side or one per seat
        (:func:`resolve_policies`); names of :data:`sim.policies.POLICIES`, or
        ``"solver"`` on every seat for the open-hand oracle (Descubierta,
        RULES R11: it sees every hand; a labelled oracle, never a player).
    deals : int
        Distinct deals, > 0. With ``duplicate`` each is played ``rules.sides`` times.
    seed : int
        Run seed, ``0 <= seed < 2**64``. Deal ``d`` is :func:`sim.rng.deal_seed` ``(seed, d)``.
    threads : int, optional
        Numba threads (default: all, ``numba.config.NUMBA_NUM_THREADS``).
        Results do not depend on it.
    duplicate : bool
        Play every deal once per rotation of the policies (module docstring).
    out : path, optional
        Parquet file for the deal table (parent directories are created).
    tricks_out : path, optional
        Parquet file for the trick table.
    chunk : int, optional
        Rows per chunk, rounded down to whole pairs. Default: chunks of about :data:`CHUNK_SECONDS`
        of play each (the first of :data:`FIRST_CHUNK` deals, :data:`SOLVER_CHUNK` with the policy
        ``solver``; the next ones sized by the time the last took), at most :data:`DEFAULT_CHUNK`
        rows (fewer when tricks are recorded). Results do not depend on it; the progress bar moves
        and an interruption keeps whole chunks, and the files' row groups gather chunks up to
        :data:`ROW_GROUP_ROWS` rows.
    progress : bool
        Show a progress bar on stderr (tqdm; it appears after 0.5 s).
    keep_frame : bool, optional
        Return the deal table as a DataFrame (default: when the run has at most
        :data:`FRAME_ROWS` rows).
    tricks : bool
        Also return the trick table as a DataFrame (needs ``keep_frame``: ``keep_frame=False`` with
        ``tricks=True`` is refused; a run of more than :data:`FRAME_ROWS` rows needs ``keep_frame=True``).
    on_start : callable, optional
        Called with no arguments once every argument is checked, before any file is touched or
        deal played; an exception it raises propagates (``brisca simulate`` refuses there when its
        only output, stdout, is closed: bad input is still reported first).
    written : list, optional
        Gets the output paths (as given) the moment every output is in place under its final name
        (:func:`commit_all`), so that a caller interrupted after that, in this function or its own
        code, can tell that the run's files were written (``brisca simulate`` then says so instead of
        "no output written").

    Returns
    -------
    SimResult
        ``summary`` (:class:`sim.stats.Summary`: ``summary.to_dict()`` is the ``--json`` object);
        ``frame`` (the deal table, a pandas DataFrame) when kept (``keep_frame``: by default for runs of
        at most :data:`FRAME_ROWS` rows) and ``tricks`` (the trick table) when ``tricks`` asked for it,
        else None; ``out`` and ``tricks_out``, the files written (:class:`pathlib.Path`), else None.

    Raises
    ------
    ValueError
        For invalid rules, policies, counts, seed, threads, a yes/no option that is not a bool
        (``duplicate="no"``: :func:`sim.checks.check_flag`), ``tricks`` without ``keep_frame``, a
        ``keep_frame`` run whose frames would not fit in the machine's memory (:data:`FRAME_ROW_BYTES`),
        an ``on_start`` that is not callable, a ``written`` that is not a list, or an unwritable output;
        raised before anything is simulated or written.
    RuntimeError
        If the engine reports a row with a non-zero status (a policy bug); no
        file is left behind.
    OSError
        If writing ``out`` or ``tricks_out`` fails during the run (a full disk; the error's
        ``filename`` names the file as given); no file is left behind. Its attribute
        ``partial_summary`` (:class:`sim.stats.Summary`, ``extra["complete"]`` False) summarizes
        the deals played before the failure.
    KeyboardInterrupt
        On Ctrl-C, SIGTERM or SIGHUP (the command line turns SIGTERM and SIGHUP into this exception) while
        deals are played: the
        chunks finished are kept. Output files that did not exist are written with them and renamed
        into place, marked incomplete (:func:`read_metadata`: ``complete`` False, ``rows`` of
        ``total``); when one was already there none is written (only a complete run replaces a
        file); when every deal was played (the signal came as the last chunks were written) the
        files are complete. The exception's ``partial_summary`` (:class:`sim.stats.Summary`,
        ``complete`` False unless every deal was played; None if no chunk was finished) summarizes
        the rows kept, ``kept_rows`` counts them,
        ``kept_files`` says whether the files were written and ``existing`` names the outputs that
        were already there. An interruption elsewhere (compiling, renaming) writes nothing.

    Examples
    --------
    >>> r = simulate(Rules(players=2), ["greedy", "random"], deals=1000, seed=1)
    >>> r.summary.deals, len(r.frame)
    (1000, 1000)
    """
    t_start = time.perf_counter()
    keeping(0.0)  # (an earlier run's request to be waited for is not this one's)
    rules = _as_rules(rules)
    deals = _as_count("deals", deals)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) < 2 ** 64:
        raise ValueError(f"seed must be an integer in [0, 2**64), got {show_repr(seed)}")
    seed = int(seed)
    if threads is not None:
        threads = _as_count("threads", threads)
        if threads > _max_threads():
            raise ValueError(f"threads must be between 1 and {_max_threads()} "
                             f"(numba.config.NUMBA_NUM_THREADS), got {show_repr(threads)}")
    duplicate, progress, tricks = (check_flag(duplicate, "duplicate"), check_flag(progress, "progress"),
                                   check_flag(tricks, "tricks"))  # (duplicate="no" played duplicate: 2026-12-06)
    if keep_frame is not None:
        keep_frame = check_flag(keep_frame, "keep_frame")
    # (break-it pass 20: written="abc" played every deal and wrote the files, then raised a bare
    # AttributeError and lost the summary; on_start=1 a bare TypeError)
    check_callable(on_start, "on_start")
    if written is not None and not isinstance(written, list):
        raise ValueError(f"written: expected a list (it gets the paths written), got {type(written).__name__}")
    seat_pol = resolve_policies(rules, policies)
    solver = seat_pol[0] == SOLVER
    rotations = rules.sides if duplicate else 1
    rows = deals * rotations
    if rows >= 2 ** 63:  # row and deal numbers are int64
        raise ValueError(f"deals must be below {(2 ** 63 - 1) // rotations + 1:,}"
                         f"{' with duplicate' if duplicate else ''}, got "  # (exact, not 1e+23; 10**5000 by its size)
                         f"{f'{deals:,}' if deals < 10 ** 40 else show_repr(deals)}")
    ntr = rules.tricks
    # tricks recorded (the trick table built): for tricks_out, or returned (tricks=True needs keep_frame, below)
    rec = tricks_out is not None or tricks
    adaptive = chunk is None  # (chunks sized by time: _next_step after each)
    chunk, step = _chunk_rows(chunk, rows, rotations, ntr, rec, solver)
    by_default = keep_frame is None
    if by_default:
        keep_frame = rows <= FRAME_ROWS
    if tricks and not keep_frame:  # (returned tricks=None silently: break-it pass of 2026-12-06)
        raise ValueError("tricks: the trick table is returned beside the deal table; tricks=True needs keep_frame"
                         + (f" (a run of {rows:,} rows, more than {FRAME_ROWS:,}, keeps no frame by default: pass "
                            "keep_frame=True, " if by_default else " (") + "or write it with tricks_out)")
    if keep_frame:
        _check_frame_memory(rows, tricks)

    deal_target = _Target(out, "output") if out is not None else None
    trick_target = _Target(tricks_out, "tricks output") if tricks_out is not None else None
    targets = [t for t in (deal_target, trick_target) if t is not None]
    if len(targets) == 2 and (deal_target.real() == trick_target.real() or same_file(out, tricks_out)) \
            and not _is_char_device(out):  # (/dev/null twice is fine)
        raise ValueError("the deal table and the tricks table need two different files")
    if len(targets) == 2:  # (one named inside the other: refused before any deal is played, break-it pass 43)
        for a, b, an, bn in ((deal_target, trick_target, "out", "tricks_out"),
                             (trick_target, deal_target, "tricks_out", "out")):
            if b.real().startswith(a.real().rstrip(os.sep) + os.sep):
                # (out="runs/new", tricks_out="runs/new/t.parquet": the tricks' directory was made, every deal
                # played, and the rename of the deal table onto that directory failed, no file written)
                raise ValueError(f"{an}={show_repr(a.raw)} would have to be a directory holding "
                                 f"{bn}={show_repr(b.raw)}: give two files, neither inside the other")

    play_open = None
    if solver:
        try:
            from solver.selfplay import play_open_batch as play_open
            from solver.selfplay import warm_up as solver_warm_up
        except ImportError as e:
            raise ValueError(f"policy 'solver' needs solver.selfplay.play_open_batch, which is not available ({e})") from None

    if on_start is not None:
        on_start()
    import numba
    from . import engine as E
    from .policies import N_PARAMS, POLICIES

    old_threads = numba.get_num_threads()
    done = None  # (rows done, their counts): a failed write or an interruption keeps them, below
    sim_seconds = 0.0

    def summarize(counts, **extra):
        """The run's summary of the rows ``counts`` (:class:`RunningStats`) holds (``extra``: keys added)."""
        return counts.summary(
            side_labels(rules, seat_pol), distinct_deals=counts.rows // rotations,
            seconds=time.perf_counter() - t_start,
            sim_seconds=sim_seconds, rules=rules.to_dict(), policies=list(seat_pol), seed=seed,
            duplicate=bool(duplicate), threads=1 if solver else threads if threads is not None else old_threads,
            **extra)  # (solver: one thread plays the batch, whatever --threads says; break-it pass 28)

    try:
        for t in targets:
            t.prepare()
        if threads is not None:
            numba.set_num_threads(threads)
        n = rules.players
        rules_arr = rules.to_array()
        deck = np.array(rules.deck_cards, dtype=np.int8)
        pol = np.array([POLICIES.index(p) if p in POLICIES else 0 for p in seat_pol], dtype=np.int64)
        par = np.zeros((n, N_PARAMS), dtype=np.float64)
        seed_arg = seed_bits(seed)

        def play(row0, m, res, hands0, dseeds, trk, record):
            if solver:
                play_open(rules, seed_arg, row0, m, rotations, res, hands0, dseeds, trk, record)
            else:
                E.play_batch(rules_arr, deck, seed_arg, row0, m, rotations, pol, par, res, hands0, dseeds, trk,
                             record)

        # warm-up (numba compile or cache load), excluded from sim_seconds
        w = rotations
        note = None
        if progress:
            import threading
            msg = ("brisca: compiling the solver (once: numba caches it)..." if solver else
                   "brisca: compiling the engine (once: numba caches it; one kernel for the default 2-player rules, "
                   "one for the other 2-player rules, one for 3, 4 and 6 players)...")
            note = threading.Timer(2.0, lambda: print(msg, file=sys.stderr, flush=True))
            note.daemon = True
            start_thread(note)
        try:
            if solver:  # a cheap position, not a whole deal (solved again in the timed run: minutes with 6)
                solver_warm_up(rules)
            else:
                play(0, w, np.zeros((w, E.R_SIZE), np.int16), np.zeros((w, n, 3), np.int8),
                     np.zeros(w, np.uint64), np.zeros((w, ntr, E.T_SIZE), np.int16), rec)
        finally:
            if note is not None:
                note.cancel()

        # (rows, complete and total are the footer's, written at the end: an interrupted run's file
        # holds fewer rows than asked for; session of 2026-12-06, sixth part)
        meta = {"rules": rules.to_dict(), "policies": list(seat_pol), "seed": seed, "deals": deals,
                "duplicate": bool(duplicate), "rotations": rotations, **_versions(), "card_names": list(CARD_NAMES)}
        tb = _Tables(rules, seat_pol, rotations, meta)
        for t, schema in ((deal_target, tb.deal_schema), (trick_target, tb.trick_schema)):
            if t is not None:
                t.open(schema)

        res = np.zeros((chunk, E.R_SIZE), np.int16)
        hands0 = np.zeros((chunk, n, 3), np.int8)
        dseeds = np.zeros(chunk, np.uint64)
        trk = np.zeros((chunk if rec else 1, ntr, E.T_SIZE), np.int16)
        # (rows done, their counts): replaced whole after each chunk, so that an interruption finds the
        # counts of whole chunks; with output files the writer's mark of the chunks written says it
        done = (0, RunningStats(n, rules.sides, rotations))
        kept, kept_tricks = [], []
        bar = None
        writer = _WriterThread() if targets else None
        wrote = writer
        interrupted = None
        if progress:
            bar = progress_bar(total=rows, unit="deal", unit_scale=True, delay=0.5, desc="brisca simulate",
                               dynamic_ncols=True, leave=False)
        try:
            row0 = 0
            while row0 < rows:
                m = min(step, rows - row0)
                t0 = time.perf_counter()
                play(row0, m, res, hands0, dseeds, trk, rec)
                took = time.perf_counter() - t0
                sim_seconds += took
                if adaptive:
                    step = _next_step(m, took, chunk, rotations)
                _check_status(E, res, row0, m, rotations, seat_pol)
                r = res[:m]
                counts = done[1].copy()
                counts.update(r[:, E.R_SIDE_POINTS:E.R_SIDE_POINTS + rules.sides], r[:, E.R_WINNER],
                              r[:, E.R_CAPOTE], row0)
                parts = []
                if deal_target is not None or keep_frame:
                    table = tb.deal_table(E, res, hands0, dseeds, row0, m)
                    if deal_target is not None:
                        parts.append((deal_target, table))
                    if keep_frame:
                        kept.append(table)
                if rec:
                    ttable = tb.trick_table(E, trk, row0, m)
                    if trick_target is not None:
                        parts.append((trick_target, ttable))
                    if keep_frame and tricks:
                        kept_tricks.append(ttable)
                mark = (row0 + m, counts)
                if writer is not None:
                    writer.put(mark, parts)  # (one append: the chunk is in the files whole or not at all)
                done = mark
                row0 += m
                if bar is not None:
                    bar.update(m)
            if writer is not None:
                writer.close()
                writer = None
        except KeyboardInterrupt as e:  # (Ctrl-C, SIGTERM, SIGHUP: the chunks finished are kept, below)
            interrupted = e
            if writer is not None:  # the chunks handed over (at most its depth) are written first
                # (said only when they will be kept: an existing output is replaced by a complete run alone,
                # so "writing" then preceded "no file written: ... kept", new-user pass 26)
                if progress and _replaces_nothing(targets, done[0] if done is not None else 0, rows):
                    print("brisca: writing the deals finished (a second signal stops at once)...", file=sys.stderr,
                          flush=True)
                keeping()
                writer.close()
                writer = None
        finally:
            if bar is not None:
                bar.close()
            if writer is not None:
                writer.abort()
        if interrupted is not None:
            raise _keep_interrupted(interrupted, targets, wrote.delivered if wrote is not None else done, rows,
                                    summarize, written)
        try:
            for t in targets:  # every file finished before any is renamed
                t.close(_footer(rows, rows))
        except KeyboardInterrupt as e:  # every deal played: the files are finished and kept all the same
            raise _keep_interrupted(e, targets, done, rows, summarize, written)
        commit_all(targets, written)
    except BaseException as exc:
        for t in targets:
            t.discard(dirs=False)
        # the directories once every temporary file is gone (two outputs may share one), newest first
        remove_created([e for t in targets for e in t.created])
        if isinstance(exc, OSError) and done is not None and done[1].rows:
            # a write failed (a full disk): the deals played are not written, but their summary is kept
            # on the error (the command line prints it; session of 2026-12-05, third part)
            # (out and tricks_out None: the same --json keys as every other run's, nothing written; docs
            # audit 66)
            exc.partial_summary = summarize(done[1], complete=False, out=None, tricks_out=None)
        raise
    finally:
        if threads is not None:
            numba.set_num_threads(old_threads)

    frame = tframe = None
    if keep_frame:
        import pyarrow as pa
        frame = pa.concat_tables(kept).to_pandas()
        if kept_tricks:
            tframe = pa.concat_tables(kept_tricks).to_pandas()
    summary = summarize(done[1], complete=True, out=str(out) if out is not None else None,
                        tricks_out=str(tricks_out) if tricks_out is not None else None)
    return SimResult(summary=summary, frame=frame, tricks=tframe,
                     out=Path(out) if out is not None else None,
                     tricks_out=Path(tricks_out) if tricks_out is not None else None)
