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
