"""Shared helpers of the benchmark scripts.

* :func:`machine` (with :func:`cpu_name`, :func:`commit`): the facts a benchmark line carries (bench_solver.py and
  eval_heuristic.py spell theirs out, with other keys);
* :func:`emit`: print a record as one JSON line and append it to the output file;
* :func:`check_out`: refuse an output path before the run (and one that is not JSON lines);
* :func:`write_atomic`: rewrite a whole file through a temporary file (``open_values.py``'s parquet);
* :class:`Terminated`, :func:`raise_terminated`, :func:`stops_raise`: SIGTERM and SIGHUP unwind as Ctrl-C;
* :func:`quiet_startup`, :func:`startup_done`: Ctrl-C while a script imports numba and the engine exits 130 quietly;
* :func:`timed_in_chunks`: time a run in chunks, so that Ctrl-C is noticed between them;
* :func:`check_seed`, :func:`other_seed`: run seeds (uint64) and warm-up seeds;
* :class:`ArgumentParser`: argparse's parser whose errors cut a long word and escape control characters.

Importing it puts this checkout (:data:`ROOT`) at the front of ``sys.path`` unless it is there already;
:data:`OUT_DIR` is the checkout's ``results/benchmarks``.
"""
from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import platform
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # (every script puts its checkout first; a bare import of this module too)
    sys.path.insert(0, str(ROOT))
from sim.paths import open_probe  # noqa: E402  (standard library only: no numba in this process)
OUT_DIR = ROOT / "results" / "benchmarks"


class ArgumentParser(argparse.ArgumentParser):
    """The scripts' argument parser: :class:`argparse.ArgumentParser` whose one-line errors (exit 2) cut a
    run of over 200 non-blank characters after 60 and write control characters as escapes
    (:func:`sim.cards.cut_long_words`, :func:`sim.cards.printable`), as ``brisca``'s parser does.

    argparse echoes a refused word whole: ``bench_solver.py --seed`` with 5,000 digits printed a 5 kB line,
    one holding ESC printed it raw, which drove the terminal (review of 2026-12-07, sixth part).
    """

    def error(self, message):
        """Print the usage and ``<prog>: error: <message>`` (cut and escaped) on stderr and exit 2.

        Parameters
        ----------
        message : str
            argparse's message, or the script's own (``ap.error(...)``).

        Raises
        ------
        SystemExit
            Always, with status 2.
        """
        from sim.cards import cut_long_words, printable  # (numpy: imported only for a refusal)
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {printable(cut_long_words(message, longest=200, keep=60))}\n")


def cpu_name() -> str:
    """The CPU model as /proc/cpuinfo names it (or platform.processor()).

    Returns
    -------
    str
        The first ``model name`` line's value; else ``platform.processor()``, or ``"unknown"`` if that is empty.
    """
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def commit() -> str:
    """Current git commit of the project, or "unknown".

    Returns
    -------
    str
        ``git rev-parse --short HEAD`` run in :data:`ROOT`; ``"unknown"`` if git fails or is missing.
    """
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
    except Exception:
        return "unknown"


def machine() -> dict:
    """Facts every benchmark line carries: CPU, cores, versions, commit, time (UTC).

    Returns
    -------
    dict
        Keys ``cpu`` (:func:`cpu_name`), ``cores`` (``os.cpu_count()``), ``python``, ``numba``, ``numpy``
        (version strings), ``commit`` (:func:`commit`) and ``utc`` (ISO 8601, seconds).
    """
    import numba
    import numpy

    return {
        "cpu": cpu_name(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": numpy.__version__,
        "commit": commit(),
        "utc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }


class Terminated(BaseException):
    """A stopping signal (SIGTERM, SIGHUP), raised in the main thread by :func:`raise_terminated` so
    that a stopped run unwinds as Ctrl-C does (a BaseException: no ``except Exception`` on the way
    mistakes it for a failure). ``signum``: the signal's number (exit status ``128 + signum``).

    Parameters
    ----------
    signum : int
        The signal's number (15, SIGTERM, by default); kept as the attribute ``signum``.
    """

    def __init__(self, signum: int = 15):
        super().__init__(signum)
        self.signum = signum


def _interrupted_at_startup(signum, frame):
    """SIGINT handler of :func:`quiet_startup`: say so and end the process with status 130 at once.

    ``os._exit``, not an exception: one raised by a signal handler can land in a callback of the import
    machinery, which prints it as "Exception ignored" and goes on (a SystemExit raised here was lost that
    way and the run went on, deaf to a second Ctrl-C). Nothing is written before ``main`` runs."""
    try:
        os.write(2, b"\ninterrupted: nothing written\n")
    except OSError:
        pass
    os._exit(130)


def quiet_startup() -> None:
    """Called by a script run as a script before it imports numba, numpy and the engine (a second or more):
    until :func:`startup_done`, Ctrl-C ends the process with exit status 130 and the line "interrupted:
    nothing written" instead of a KeyboardInterrupt traceback from inside an import and death by SIGINT
    (break-it pass 33: Ctrl-C in the first second of bench_solver.py, bench_engine.py, bench_minimal_loop.py,
    eval_heuristic.py or open_values.py). Only when SIGINT has Python's default handler, in the main
    thread (an ignored SIGINT, a script started with ``&`` or under ``nohup``, stays ignored).

    First it refuses a ``NUMBA_NUM_THREADS`` numba cannot start with (:func:`sim.threads.numba_threads_problem`:
    0 or below) in one line and exits 2, as ``brisca`` does, instead of numba's traceback at the import.

    Raises
    ------
    SystemExit
        Status 2 for such a ``NUMBA_NUM_THREADS``."""
    import threading

    from sim.threads import numba_threads_problem

    bad = numba_threads_problem()  # (numba's own traceback otherwise, at the script's import of it)
    if bad:
        print(f"{os.path.basename(sys.argv[0])}: error: {bad}", file=sys.stderr)
        sys.exit(2)
    if (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
        signal.signal(signal.SIGINT, _interrupted_at_startup)


def startup_done() -> None:
    """End :func:`quiet_startup`'s handling: Ctrl-C raises KeyboardInterrupt again, for the script's ``main``
    to answer (a SIGINT ignored or handled otherwise is left alone)."""
    if signal.getsignal(signal.SIGINT) is _interrupted_at_startup:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def raise_terminated(signum, frame):
    """Signal handler: raise :class:`Terminated` for ``signum``.

    Parameters
    ----------
    signum : int
        The signal's number.
    frame : frame or None
        The interrupted stack frame (unused).

    Raises
    ------
    Terminated
        Always, with ``signum``.
    """
    raise Terminated(signum)


@contextlib.contextmanager
def stops_raise(signals=(signal.SIGTERM, signal.SIGHUP)):
    """Within the block, the stopping ``signals`` raise :class:`Terminated` (:func:`raise_terminated`), so
    that a run stopped by ``kill`` or a closed terminal unwinds as Ctrl-C does (children killed, temporary
    files removed); the previous handlers are put back on leaving. A signal ignored on entry (SIGHUP under
    ``nohup``) stays ignored. Outside the main thread (a script's ``main`` run in a thread) nothing is changed:
    signal handlers are the main thread's (``signal.signal`` raises ValueError elsewhere), as
    :func:`quiet_startup` leaves them.

    Parameters
    ----------
    signals : tuple of signal.Signals
        The signals that raise :class:`Terminated` inside the block (SIGTERM and SIGHUP by default; SIGINT
        raises KeyboardInterrupt already).

    Yields
    ------
    None
        Nothing: the block runs with the handlers in place (in the main thread; elsewhere with none
        changed).
    """
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    # a signal ignored on entry stays ignored: ``nohup`` ignores SIGHUP so that a run outlives its terminal, and
    # a SIGHUP on logout stopped a nohup'ed benchmark (review of 2026-12-07)
    old = {sig: signal.signal(sig, raise_terminated) for sig in signals if signal.getsignal(sig) != signal.SIG_IGN}
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def emit(path: Path, record: dict) -> None:
    """Print ``record`` as one JSON line and append it to ``path``.

    Parameters
    ----------
    path : pathlib.Path
        The JSON-lines file (a symbolic link's target: the scripts pass ``os.path.realpath``); its missing
        parent directories are made.
    record : dict
        JSON-able values (one benchmark line).

    Raises
    ------
    OSError
        If stdout or the file cannot be written (the line is printed first). A reader of stdout that went
        away (``| head -1``: BrokenPipeError) is not an error: stdout is sent to the null device from then
        on and the line still goes to the file (the record was lost and the error blamed the file before).
    """
    line = json.dumps(record, sort_keys=False)
    try:
        print(line, flush=True)
    except BrokenPipeError:
        _stdout_to_null()
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as f:
        f.write(line + "\n")


def _stdout_to_null() -> None:
    """Send stdout to the null device once its reader has gone (Python's documented answer to
    BrokenPipeError: the interpreter's own flush at exit would fail again otherwise)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (AttributeError, ValueError, OSError):  # (no descriptor: a stand-in stream)
        sys.stdout = open(os.devnull, "w")
    finally:
        os.close(devnull)


def check_out(path: str, make_dirs: bool = False, jsonl: bool = False) -> str | None:
    """Why the output file ``path`` cannot be written, or ``None`` if it can (checked before a run,
    so that a bad path never costs the run's work).

    A path is writable when it is not empty, its directory exists and is writable, and it is
    either absent or a regular file that may be written (a directory, FIFO, device or socket is
    refused: a FIFO would block the check itself), with a name of at most 200 characters (room for
    a temporary name beside it), and opening it for append succeeds (a new file made by that probe
    is removed again). Symbolic links are followed (a loop is refused): write to
    ``os.path.realpath(path)``, so that a temporary file renamed over it replaces the link's target
    and keeps the link.

    Parameters
    ----------
    path : str
        The output path as given.
    make_dirs : bool
        Create a missing directory first (the JSON-lines benchmarks do, as :func:`emit` would).
    jsonl : bool
        The run appends JSON lines (:func:`emit`): an existing non-empty file must end with a
        newline and its last line be a JSON object, else it is refused (a parquet file named by a
        typo would be made unreadable, a cut last line glued to the new record: break-it pass of
        2026-12-06).

    Returns
    -------
    str or None
        The reason (for a one-line error naming the option), or None. The path it echoes has its control
        characters written as escapes and a run of over 1,000 non-blank characters cut after 100
        (:func:`sim.cards.printable`, :func:`sim.cards.cut_long_words`, as ``brisca``'s own errors: the
        scripts printed an ``--out`` holding ESC or BEL raw, which drove the terminal).
    """
    why = _out_problem(path, make_dirs, jsonl)
    if why is None:
        return None
    from sim.cards import cut_long_words, printable  # (numpy: imported only for a refusal)
    return printable(cut_long_words(why))


def _out_problem(path: str, make_dirs: bool, jsonl: bool) -> str | None:
    """:func:`check_out`'s checks, the reason as it is built (the path raw)."""
    import stat

    if not path:
        return "empty path"
    if path.endswith(os.sep) or os.path.basename(path) in (".", ".."):
        return f"cannot write {path}: names a directory, not a regular file"
    real = os.path.realpath(path)
    if os.path.islink(real):
        return f"cannot write {path}: a loop of symbolic links"
    if len(os.path.basename(real)) > 200:
        return f"cannot write {path}: file name longer than 200 characters"
    d = os.path.dirname(real)
    if make_dirs and not os.path.exists(d):
        try:
            os.makedirs(d)
        except OSError as e:
            return f"cannot create directory {d}: {e.strerror}"
    if not os.path.isdir(d):
        # (a path through a regular file: "not a directory", as brisca solve --out says)
        return f"{d} is not a directory" if os.path.exists(d) else f"directory {d} does not exist"
    if os.path.exists(real):
        if not stat.S_ISREG(os.stat(real).st_mode):
            return f"cannot write {path}: not a regular file"
        if not os.access(real, os.W_OK):
            return f"cannot write {path}: permission denied"
        if jsonl:
            why = _not_json_lines(real)
            if why:
                return f"cannot append to {path}: {why}"
    if not os.access(d, os.W_OK):
        return f"cannot write {path}: directory {d} is not writable"
    return open_probe(path, real)  # (os.access answers yes for root in /proc and /sys)


def _not_json_lines(real: str) -> str | None:
    """Why the existing file ``real`` is not one that JSON lines may be appended to, or None (empty, or
    its last line a JSON object ending with a newline)."""
    try:
        with open(real, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            if size == 0:
                return None
            f.seek(max(0, size - 65536))
            tail = f.read()
    except OSError as e:
        return e.strerror or str(e)
    if not tail.endswith(b"\n"):
        return "it does not end with a newline (not a JSON-lines file, or its last line is cut)"
    last = tail[:-1].rsplit(b"\n", 1)[-1]
    try:
        ok = isinstance(json.loads(last.decode("utf-8")), dict)
    except (UnicodeDecodeError, ValueError):
        ok = False
    return None if ok else "its last line is not a JSON object (not a JSON-lines file)"


def timed_in_chunks(total: int, chunk: int, run) -> tuple[float, float]:
    """Call ``run(start, count)`` over items ``0 .. total-1`` in chunks of at most ``chunk`` items and
    time the calls alone (a Ctrl-C lands between chunks instead of waiting for one call of the whole
    run: break-it pass of 2026-12-06).

    Parameters
    ----------
    total, chunk : int
        Items (deals, games) in all, and at most per call; ``chunk`` >= 1.
    run : callable
        ``run(start, count)`` plays items ``start .. start+count-1``.

    Returns
    -------
    (float, float)
        Wall-clock and process CPU seconds spent in ``run``.
    """
    wall = cpu = 0.0
    for start in range(0, total, chunk):
        t0, c0 = time.perf_counter(), time.process_time()
        run(start, min(chunk, total - start))
        wall += time.perf_counter() - t0
        cpu += time.process_time() - c0
    return wall, cpu


SEED_MAX = 2 ** 64 - 1


def check_seed(seed: int) -> str | None:
    """Why ``seed`` is not a run seed (0 <= seed < 2**64: every deal seed is a uint64), or None.

    Parameters
    ----------
    seed : int
        The run seed asked for.

    Returns
    -------
    str or None
        The message's text (``"<seed>, expected 0 <= seed < 2**64"``) for a seed out of range, else None;
        a seed too long for ``str`` is named by its size (``"a 16610-bit integer, ..."``,
        :func:`sim.cards.show_int`; it raised Python's own "Exceeds the limit" ValueError).
    """
    if not 0 <= seed <= SEED_MAX:
        from sim.cards import show_int  # (numpy: imported only for a refusal; 10**5000 has no str)
        return f"{show_int(seed)}, expected 0 <= seed < 2**64"
    return None


def other_seed(seed: int, k: int) -> int:
    """A seed ``k`` steps after ``seed``, wrapping at 2**64 (warm-ups use a seed the timed run does
    not: ``seed + k`` would leave the uint64 range for the last seeds).

    Parameters
    ----------
    seed : int
        A run seed (0 <= seed < 2**64).
    k : int
        The number of steps.

    Returns
    -------
    int
        ``(seed + k) % 2**64``.
    """
    return (seed + k) % (SEED_MAX + 1)


def write_atomic(path: str, write) -> None:
    """Write a file by ``write(tmp)`` to a private temporary file beside ``os.path.realpath(path)``
    (made with ``O_EXCL``, as ``tempfile.mkstemp``: never an existing file or link), then rename it over the target.

    Parameters
    ----------
    path : str
        The output file (a symbolic link is followed: its target is replaced, the link kept).
    write : callable
        ``write(tmp)`` writes the whole file to the path ``tmp`` (str).

    Raises
    ------
    OSError
        If writing or renaming fails; the temporary file is removed and the target left as it was.
    BaseException
        Whatever interrupts ``write`` (KeyboardInterrupt, a signal's exception): the temporary file
        is removed and the exception raised again.
    """
    import secrets

    real = os.path.realpath(path)
    d = os.path.dirname(real)
    # the name is chosen before the file is made, inside the try: a signal right after tempfile.mkstemp made
    # the file (or within it) left the file with no name to remove (break-it pass 30)
    tmp = None
    try:
        while True:  # (O_EXCL: never an existing file or link, as mkstemp)
            tmp = os.path.join(d, f".tmp-{secrets.token_hex(6)}.part")
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
                break
            except FileExistsError:
                tmp = None  # (not ours: never removed)
        os.close(fd)
        if os.path.exists(real):
            mode = os.stat(real).st_mode & 0o777
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)  # the new file is 0600; the result gets the mode a plain open would give
        write(tmp)
        os.replace(tmp, real)
    except BaseException:
        if tmp is not None:
            _remove_tmp(tmp)
        raise


def _remove_tmp(tmp: str) -> None:
    """Remove ``tmp`` if it exists, also when a second signal (Ctrl-C twice) lands during the removal: the
    first interruption is the one raised (a second Ctrl-C while a run was saving left the temporary file:
    break-it pass 30)."""
    for _ in range(100):
        try:
            try:
                os.remove(tmp)
            except OSError:  # (gone, or cannot be removed: nothing more to do)
                pass
            return
        except BaseException:  # noqa: BLE001 - KeyboardInterrupt, Terminated: remove it still
            continue
