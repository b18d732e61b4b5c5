"""Shared helpers of the benchmark scripts: machine facts and JSON-line output."""
from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "results" / "benchmarks"


def cpu_name() -> str:
    """The CPU model as /proc/cpuinfo names it (or platform.processor())."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def commit() -> str:
    """Current git commit of the project, or "unknown"."""
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
    except Exception:
        return "unknown"


def machine() -> dict:
    """Facts every benchmark line carries: CPU, cores, versions, commit, time (UTC)."""
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


def emit(path: Path, record: dict) -> None:
    """Print ``record`` as one JSON line and append it to ``path``."""
    line = json.dumps(record, sort_keys=False)
    print(line, flush=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as f:
        f.write(line + "\n")
