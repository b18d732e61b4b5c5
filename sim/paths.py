"""Output path checks shared by the CLI and the benchmark scripts (standard library only, so the
benchmarks' parent processes stay free of numba)."""
from __future__ import annotations

import os


def open_probe(path: str, real: str) -> str | None:
    """Whether ``real`` (``path`` with its links resolved) can be opened for writing, by trying it.

    ``os.access`` says yes to root in ``/proc`` and ``/sys``, where opening fails. An existing file
    is opened for append and left as it was; a file the probe makes is removed again.

    Parameters
    ----------
    path : str
        The path as the user gave it (for the message).
    real : str
        The file that would be written.

    Returns
    -------
    str or None
        ``"cannot write PATH: REASON"``, or None when it opens.
    """
    existed = os.path.exists(real)
    try:
        with open(real, "ab"):
            pass
    except OSError as e:
        return f"cannot write {path}: {e.strerror or e}"
    if not existed:
        try:
            os.unlink(real)
        except OSError:
            pass
    return None
