"""Review of solver/api.py and solver/selfplay.py: a solving thread set up while an interruption lands.

``_in_solving_thread`` started its solving thread before it made the claim whose weakref callback ends it:
an interruption (``sim.cli``'s Ctrl-C or SIGTERM, raised asynchronously into the calling thread) landing in
between left a thread no caller's end could stop, blocked on its queue for good (with its 32 MB of search
buffers once it had solved). Simulated here by a ``weakref.ref`` that raises, as the interruption would at
that point. No numba compile: about 1 s.
"""
import threading
import time
import types
import weakref

from solver import selfplay


def _alive():
    return sum(t.name == "brisca-selfplay" and t.is_alive() for t in threading.enumerate())


def _ref_interrupted(*args, **kwargs):
    raise KeyboardInterrupt


def test_interrupted_setup_leaves_no_solving_thread(monkeypatch):
    before = _alive()
    seen = {}

    def caller():
        monkeypatch.setattr(selfplay, "weakref", types.SimpleNamespace(ref=_ref_interrupted))
        try:
            selfplay._in_solving_thread(lambda: 1)
        except KeyboardInterrupt:
            seen["interrupted"] = True
        monkeypatch.setattr(selfplay, "weakref", weakref)
        seen["next"] = selfplay._in_solving_thread(lambda: 2)  # (the next call still works)

    t = threading.Thread(target=caller)
    t.start()
    t.join(10)
    assert seen == {"interrupted": True, "next": 2}
    deadline = time.monotonic() + 5
    while _alive() > before and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _alive() == before  # (the caller ended: no solving thread of its own left)


def test_rotations_of_a_deal_are_solved_once(monkeypatch):
    """Review of 2026-12-07: ``play_open_batch`` solved a deal again for each of its rotations (duplicate
    mode: ``rotations = rules.sides``), the same play each time (both sides perfect). A deal is solved once
    for its consecutive rows now, and the rows are those of solving each."""
    import numpy as np

    from sim.engine import R_SIZE, T_SIZE
    from sim.rules import Rules

    rules = Rules(players=2, deck="rapida20")

    def outs(m):
        return (np.zeros((m, R_SIZE), np.int16), np.zeros((m, 2, 3), np.int8), np.zeros(m, np.uint64),
                np.zeros((m, 10, T_SIZE), np.int16))
    calls = []
    real = selfplay.play_open_deal

    def counted(rules, seed, d):
        calls.append(d)
        return real(rules, seed, d)
    monkeypatch.setattr(selfplay, "play_open_deal", counted)
    got = outs(5)
    selfplay.play_open_batch(rules, 7, 1, 5, 2, *got, True)  # rows 1..5: deals 0, 1, 1, 2, 2
    assert calls == [0, 1, 2]
    one = outs(3)
    selfplay.play_open_batch(rules, 7, 0, 3, 1, *one, True)  # each deal alone
    for x, y in zip(got, one):
        assert np.array_equal(x[[0, 1, 3]], y) and np.array_equal(x[[1, 3]], x[[2, 4]])
