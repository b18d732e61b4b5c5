"""Break-it pass 8 of ``brisca simulate`` (helper, 2026-12-06, third part): the two renames of --out and
--tricks all or none (sim.batch.commit_all), temporary files made by mkstemp with a shortened name
(sim.batch.temp_beside), output names printable in the summary and notes, the summary in one write (`| head
-1` under PYTHONUNBUFFERED), `--out -` refused, "1 deal". Each test failed on b2c5f24 and passes since."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from conftest import run_main

ROOT = Path(__file__).resolve().parents[1]  # (the checkout: its code runs in the subprocesses)


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def brisca(*args, timeout=600, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "sim.cli", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=_env(), timeout=timeout)


@pytest.mark.parametrize("exc", [KeyboardInterrupt, PermissionError])
def test_failure_between_the_two_renames_leaves_no_half_committed_run(exc, tmp_path, monkeypatch, capsys):
    """Fault: simulate() renames the deal file, then the tricks file (sim/batch.py: `for t in targets:
    t.commit()`), inside the try whose except discards "every" temporary. A Ctrl-C/SIGTERM (or a failed
    rename) landing between the two renames leaves the NEW deal table in place of the old one while the
    tricks file is the OLD one (or missing), and the command says "interrupted; no output written" (for an
    OSError: "no file was written"). README: "output files are written to a temporary name and renamed only
    when the run succeeds". Simulated: the second os.replace raises, as the signal / error would."""
    out, tricks = tmp_path / "d.parquet", tmp_path / "t.parquet"
    assert run_main(["simulate", "--deals", "50", "--seed", "1", "--out", str(out), "--tricks", str(tricks),
                      "--no-progress"]) == 0
    old_deals, old_tricks = out.read_bytes(), tricks.read_bytes()
    capsys.readouterr()
    real = os.replace
    calls = []

    def replace(a, b, *args, **kw):
        calls.append(b)
        if len(calls) == 2:
            raise exc() if exc is KeyboardInterrupt else exc(13, "Permission denied", str(b))
        return real(a, b, *args, **kw)

    monkeypatch.setattr(os, "replace", replace)
    rc = run_main(["simulate", "--deals", "60", "--seed", "2", "--out", str(out), "--tricks", str(tricks),
                    "--no-progress"])
    monkeypatch.setattr(os, "replace", real)
    err = capsys.readouterr().err
    assert rc != 0
    new_deals = out.read_bytes() != old_deals
    new_tricks = tricks.exists() and tricks.read_bytes() != old_tricks
    # either the whole run is kept (both new) or nothing is (both old); and a written file is not denied
    assert new_deals == new_tricks, (f"deal file replaced: {new_deals}, tricks file replaced: {new_tricks}; "
                                     f"stderr: {err!r}")



class _PipeReadOnce(__import__("io").RawIOBase):
    """A pipe whose reader (`head -1`) takes what the first write brings and goes: later writes get EPIPE."""

    def __init__(self):
        self.writes = []

    def writable(self):
        return True

    def write(self, b):
        if self.writes:
            raise BrokenPipeError(32, "Broken pipe")
        self.writes.append(bytes(b))
        return len(b)


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_summary_read_by_head_exits_0_with_unbuffered_python(json_flag, monkeypatch, capsys):
    """Fault (racy in real pipes: 141 in about 1 run of 2-8 here): with PYTHONUNBUFFERED=1 (set on this project's
    machines, common in containers) `brisca simulate --deals 1000 | head -1` (or `--json | head -c 1`) exits
    141 instead of 0: print() of the summary makes two writes to the unbuffered stdout (the table, then
    "\\n"; strace shows write(1, "rules: ...", 575) then write(1, "\\n", 1)), and once head has read its line
    and gone, the second write gets EPIPE. README: "141 ... (a short output that fits the pipe's buffer, such
    as `simulate`'s summary, ends with 0)". Modelled: stdout as Python builds it under PYTHONUNBUFFERED (a
    write-through text layer over the raw pipe) over a pipe whose reader goes after the first write."""
    import io
    raw = _PipeReadOnce()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, encoding="utf-8", write_through=True))
    rc = run_main(["simulate", "--deals", "20", "--no-progress", *json_flag])
    assert rc == 0 and len(raw.writes) == 1, (rc, raw.writes)


def test_out_dash_is_not_silently_a_file_named_dash(tmp_path):
    """Fault: `brisca simulate --out -` (the usual spelling of standard output, and `brisca solve --file -`
    reads standard input) silently writes a parquet file literally named "-" in the current directory and
    ends "wrote deals: -", exit 0. It should be refused with one line (stdout carries the summary: README
    refuses --out naming the command's standard output), or at least not pass silently."""
    p = brisca("simulate", "--deals", "5", "--no-progress", "--out", "-", cwd=tmp_path)
    made = os.path.exists(tmp_path / "-")
    assert not (p.returncode == 0 and made and "-" not in p.stderr), (p.returncode, made, p.stderr)
    assert p.returncode == 2 and p.stderr.startswith("brisca: error:") and not made, (p.returncode, p.stderr)


def test_output_names_in_the_summary_and_notes_are_printable(tmp_path):
    """Fault: error lines escape control characters of echoed input (sim.cards.printable: "no ESC or BEL reaches
    the terminal", break-it pass of 2026-12-05), but the summary's `wrote deals: F` line and the `brisca: note:
    --out F is written as parquet` line print the file name raw: an ESC sequence reaches the terminal, and a
    newline in the name forges a summary line (`--out $'a\\nwrote tricks: fake.parquet'` prints a
    "wrote tricks: fake.parquet" line for a file that was never written)."""
    name = "a\x1b[31mred\nwrote tricks: fake.csv"
    p = brisca("simulate", "--deals", "5", "--no-progress", "--out", name, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "\x1b" not in p.stdout and "\x1b" not in p.stderr, (p.stdout[-200:], p.stderr)
    assert not any(line.startswith("wrote tricks:") for line in p.stdout.splitlines()), p.stdout[-200:]
    assert not any(line.startswith("wrote tricks:") for line in p.stderr.splitlines()), p.stderr


def test_out_name_near_the_name_length_limit_is_written(tmp_path):
    """Fault: `--out` with a 253-character file name (the filesystem takes it: NAME_MAX is 255) is refused,
    exit 2, "cannot write aaa...parquet: cannot create a file in . (File name too long)": the temporary
    name `.<name>.<pid>.tmp` (sim/batch.py _Target._prepare) is 10-13 characters longer than the name given
    and passes NAME_MAX, so a valid output name cannot be used, and the message blames the user's name."""
    name = "a" * 245 + ".parquet"
    (tmp_path / name).write_bytes(b"")  # the filesystem takes the name
    (tmp_path / name).unlink()
    p = brisca("simulate", "--deals", "5", "--no-progress", "--out", name, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert len(pd.read_parquet(tmp_path / name)) == 5
    assert os.listdir(tmp_path) == [name]


def test_temporary_name_planted_as_a_symlink_does_not_clobber_its_target(tmp_path, capsys):
    """Fault: the temporary file is `.<name>.<pid>.tmp`, opened with O_CREAT|O_TRUNC and no O_EXCL/O_NOFOLLOW
    (sim/batch.py _Target._prepare). A symlink already at that predictable name (a shared directory such as
    /tmp: another user plants `.run.parquet.<pid>.tmp -> ~/notes.txt`) is followed: the link's target is
    truncated and filled with parquet, and the link itself is then renamed to the output. A file that is not
    the output is destroyed."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    out = tmp_path / "run.parquet"
    (tmp_path / f".run.parquet.{os.getpid()}.tmp").symlink_to(victim)
    rc = run_main(["simulate", "--deals", "5", "--no-progress", "--out", str(out)])
    capsys.readouterr()
    assert victim.read_bytes() == b"precious\n", f"rc {rc}: victim.txt now holds {victim.read_bytes()[:12]!r}"


def test_one_deal_is_singular_in_the_summary():
    """Cosmetic fault: `brisca simulate --deals 1` prints "1 deals, seed 0, 2 threads" (and with --duplicate
    "2 deals (1 distinct deals x 2 rotations, duplicate)"), while the same line already says "1 thread"
    with --threads 1."""
    p = brisca("simulate", "--deals", "1", "--duplicate", "--no-progress", "--threads", "1")
    assert p.returncode == 0, p.stderr
    line = p.stdout.splitlines()[1]
    assert "1 thread" in line and "1 distinct deals" not in line, line
    p = brisca("simulate", "--deals", "1", "--no-progress")
    assert not p.stdout.splitlines()[1].startswith("1 deals"), p.stdout.splitlines()[1]


def test_failure_between_the_two_renames_of_a_first_run_leaves_neither_file(tmp_path, monkeypatch, capsys):
    """The same with no earlier files: the deal table renamed first is removed again (and no temporary
    file or backup is left)."""
    out, tricks = tmp_path / "d.parquet", tmp_path / "t.parquet"
    real = os.replace
    calls = []

    def replace(a, b, *args, **kw):
        calls.append(b)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(a, b, *args, **kw)

    monkeypatch.setattr(os, "replace", replace)
    rc = run_main(["simulate", "--deals", "30", "--seed", "3", "--out", str(out), "--tricks", str(tricks),
                    "--no-progress"])
    monkeypatch.setattr(os, "replace", real)
    assert rc == 130 and "no output written" in capsys.readouterr().err
    assert os.listdir(tmp_path) == []
