"""Shared pytest fixtures and fakes: one numba thread by default, a runner for the batch engine, a seat view,
and a coprocess's standard input and an stdout that marks its first line (the stream tests)."""
from __future__ import annotations

import io
import os
import pathlib
import threading

import numba
import numpy as np
import pytest


@pytest.fixture(scope="session", autouse=True)
def _one_numba_thread():
    """Tests run on one numba thread (CI has 2 shared cores); a test may raise it and restore."""
    numba.set_num_threads(1)
    yield


@pytest.fixture(autouse=True)
def _signal_handlers(request):
    """Each test starts with the SIGINT/SIGTERM handlers the session had and leaves them so: a test
    (or code under test) that changed them is reported by a warning naming it, and the handlers are
    put back, so a later test's Ctrl-C still raises KeyboardInterrupt."""
    import signal
    import threading
    import warnings

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    yield
    for s, h in before.items():
        now = signal.getsignal(s)
        if now is not h:
            signal.signal(s, h)
            warnings.warn(f"{request.node.nodeid} left the {signal.Signals(s).name} handler {now!r} "
                          f"(was {h!r}); put back", RuntimeWarning)


def run_engine(rules, policies, seed=1, m=200, row0=0, rotations=1, rec=True):
    """Play rows ``row0 .. row0+m-1`` with ``sim.engine.play_batch``; return its outputs.

    ``policies``: one policy name for every seat, or one per seat.
    Returns a dict with ``res``, ``hands0``, ``dseeds``, ``tricks`` (numpy arrays).
    """
    from sim.engine import R_SIZE, T_SIZE, play_batch
    from sim.policies import N_PARAMS, POLICIES

    n = rules.players
    if isinstance(policies, str):
        policies = [policies] * n
    pol = np.array([POLICIES.index(p) for p in policies], dtype=np.int64)
    par = np.zeros((n, N_PARAMS), dtype=np.float64)
    deck = np.array(rules.deck_cards, dtype=np.int8)
    res = np.zeros((m, R_SIZE), dtype=np.int16)
    hands0 = np.zeros((m, n, 3), dtype=np.int8)
    dseeds = np.zeros(m, dtype=np.uint64)
    tricks = np.zeros((m if rec else 1, rules.tricks, T_SIZE), dtype=np.int16)
    play_batch(rules.to_array(), deck, seed, row0, m, rotations, pol, par, res, hands0, dseeds, tricks, rec)
    return {"res": res, "hands0": hands0, "dseeds": dseeds, "tricks": tricks}


@pytest.fixture(scope="session")
def engine():
    """The :func:`run_engine` helper."""
    return run_engine


def run_main(argv):
    """``brisca`` (``sim.cli.main``) in this process: its exit status (``sys.exit``'s code, 0 if none)."""
    from sim import cli
    try:
        cli.main(argv)
    except SystemExit as e:
        return e.code
    return 0


def usage_error(argv, capsys):
    """The ``brisca`` parser's error for ``argv``: exit status 2 and one line ``brisca: error: ...`` on stderr
    (returned)."""
    from sim.cli import build_parser
    with pytest.raises(SystemExit) as e:
        build_parser().parse_args(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("brisca: error: ") and err.count("\n") == 1, err  # one line
    return err


def fake_floor_search(monkeypatch, mod, mtdf):
    """Replace the search of ``benchmarks/bench_solver.py`` (the module ``mod``) by a fake for ``floor()``:
    one position, no warm-up, ``mtdf(st, stock, ismax, guess, *workspace)`` as given (the workspace's
    counters are ``workspace[5]``), ``ab`` counting one node and returning 7. Returns the fake's flags."""
    class FakeS:
        MAXM = 8

        @staticmethod
        def new_workspace():
            return [None] * 5 + [np.zeros(8, np.int64)]

        @staticmethod
        def points_left(st):
            return 20

        @staticmethod
        def ab(*a):
            a[10][0] += 1  # (st, stock, ismax, alpha, beta, then the workspace: its counters)
            return 7

        @staticmethod
        def default_flags():
            return np.zeros(4, np.int64)

    FakeS.mtdf = staticmethod(mtdf)

    class Pos:
        def to_arrays(self):
            return (None, None, None)

    monkeypatch.setattr(mod, "S", FakeS)
    monkeypatch.setattr(mod, "positions", lambda config, deals, seed: iter([Pos()]))
    monkeypatch.setattr(mod, "_warm_up", lambda *a, **k: None)
    return FakeS.default_flags()


def bench_script(name):
    """The module ``benchmarks/<name>.py`` of this checkout, loaded afresh (the scripts are not a
    package; each load runs the script's imports, not its ``main``)."""
    import importlib.util
    import os

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks", name + ".py")
    spec = importlib.util.spec_from_file_location(f"{name}_under_test", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def read_line(stream, timeout: float):
    """One line read from a coprocess's ``stream`` in a daemon thread, or None when none came within
    ``timeout`` seconds (so a test fails rather than hangs on a coprocess that never answers)."""
    box = []
    t = threading.Thread(target=lambda: box.append(stream.readline()), daemon=True)
    t.start()
    t.join(timeout)
    return box[0] if box else None


def default_stop_signals():
    """``preexec_fn`` of a coprocess that a test signals: its SIGINT and SIGHUP at their default actions
    (a CI shell may start the suite with SIGINT ignored, ``nohup`` with SIGHUP ignored, and a child
    inherits both ignored: ``brisca`` and the benchmark scripts leave an ignored signal ignored)."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def stop_process(p, writer=None):
    """End a test's coprocess ``p`` (a ``subprocess.Popen``): killed if still running, waited for, its pipes
    closed (so a failing test leaves no child and no open descriptor behind); ``writer``, the test's end of
    a FIFO the coprocess reads (or None), is closed first, a reader already gone (BrokenPipeError) ignored."""
    if writer is not None:
        try:
            writer.close()
        except BrokenPipeError:
            pass
    if p.poll() is None:
        p.kill()
    p.wait()
    for fh in (p.stdin, p.stdout, p.stderr):
        if fh is not None:
            fh.close()


class FailingStream:
    """A stdout/stderr stand-in whose every write raises ``err`` (default: ENOSPC, as ``> /dev/full``)."""

    def __init__(self, err=None):
        self.err = err if err is not None else OSError(28, "No space left on device")

    def write(self, s):
        raise self.err

    def flush(self):
        pass


def seat_view(hand, trick=(), trump=3, pinta="1B", played=(), leader=0, seat=None, players=2, swap=None,
              sides=None, deck="spanish40", left=20):
    """A seat's view (``sim.view`` layout, int64) built by hand as the engine fills it (RULES R11: the
    seat's own hand and public facts only; Bastos trumps unless said): every card of ``hand`` legal,
    ``swap`` the card the exchange would take (None: no exchange), ``left`` cards still to draw."""
    from sim import view as V
    from sim.cards import deck_cards, mask_of, parse_card
    v = np.zeros(V.V_SIZE, dtype=np.int64)
    h = mask_of(parse_card(c) for c in hand)
    n = len(trick)
    v[V.V_SEAT] = (leader + n) % players if seat is None else seat
    v[V.V_HAND] = v[V.V_LEGAL] = h
    v[V.V_SWAP] = parse_card(swap) if swap else -1
    v[V.V_TRUMP] = trump
    v[V.V_PINTA] = parse_card(pinta)
    v[V.V_PINTA_SEAT] = -1 if left > 0 else 1
    v[V.V_LEFT] = left
    v[V.V_PLAYED] = mask_of(parse_card(c) for c in played)
    v[V.V_LEADER] = leader
    v[V.V_NTRICK] = n
    for i, c in enumerate(trick):
        v[V.V_TRICK + i] = parse_card(c)
    v[V.V_PLAYERS] = players
    v[V.V_SIDES] = sides if sides else (3 if players == 3 else 2)
    v[V.V_DECK_MASK] = mask_of(deck_cards(deck))
    return v


class CoprocessStdin(io.RawIOBase):
    """Standard input written by a program that waits for each answer before writing the next line
    (a coprocess): ``chunks`` are given one at a time; asking for the next chunk before as many answers
    as chunks given are printed is the deadlock a real pipe would have (here an ``OSError``, so that the
    test ends)."""

    def __init__(self, chunks, out):
        self.chunks, self.out, self.given, self.early = list(chunks), out, 0, []

    def readable(self):
        return True

    def readinto(self, b):
        if not self.chunks:
            return 0
        answered = len(self.out.getvalue().splitlines())
        if answered < self.given:
            self.early.append((self.given, answered))
            raise OSError(11, f"read for line {self.given + 1} before line {self.given}'s answer: a coprocess "
                              "would wait here forever")
        data = self.chunks.pop(0)
        b[:len(data)] = data
        self.given += 1
        return len(data)


class FirstLineOut(io.StringIO):
    """stdout: ``first`` set when a whole line is printed."""

    def __init__(self):
        super().__init__()
        self.first = threading.Event()

    def write(self, s):
        n = super().write(s)
        if "\n" in self.getvalue():
            self.first.set()
        return n


def solver_vectors_dir() -> pathlib.Path:
    """The shared solver vectors' folder (``testdata/solver``), found as tests/test_solver.py finds the shared
    folder (README): ``$BRISCA_SHARED`` when set (and then only it), else ``../shared`` beside the checkout,
    else ``/work/shared``; the last candidate's when none has it (a test reading it then fails naming it)."""
    if os.environ.get("BRISCA_SHARED"):
        shared = [pathlib.Path(os.environ["BRISCA_SHARED"])]
    else:
        shared = [pathlib.Path(__file__).resolve().parents[2] / "shared", pathlib.Path("/work/shared")]
    return next((d / "testdata" / "solver" for d in shared if (d / "testdata" / "solver").is_dir()),
                shared[-1] / "testdata" / "solver")


def first_moves_play(rules, seed, d, ws=None):
    """A stand-in for :func:`solver.selfplay.play_open_deal` (same arguments and result keys): deal ``d`` of
    ``seed`` played by the first legal move each turn (any legal play is booked the same way), no search."""
    from solver.position import deal_position
    pos = deal_position(rules, seed, d)
    cur, moves = pos, []
    while not cur.is_terminal:
        mv = sorted(cur.legal_moves())[0]
        moves.append(mv)
        cur = cur.apply(mv)
    return {"moves": moves, "value": None, "position": pos, "nodes": 0}


@pytest.fixture
def no_solve(monkeypatch):
    """Fails the test if a position is searched (``solver.search.drivers`` replaced): for checks that must
    refuse before any solve, such as ``analyse_play``'s pre-check of every move (user study 66)."""
    import solver.search as S

    def fail(*a, **kw):
        raise AssertionError("a position was solved before the moves were checked")
    monkeypatch.setattr(S, "drivers", fail)
