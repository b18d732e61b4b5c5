"""Break-it pass 9 (helper, 2026-12-06, third part): sim.batch.commit_all's all-or-none renames under a signal
landing just after a system call (os.replace, os.link, os.unlink return, then the command thread's
asynchronous exception is raised), the kept old file's mode, and the message matching what is on disk.
Each test failed on 681976d."""
from __future__ import annotations

import os

import pytest
from conftest import run_main


def _replace_then_interrupt(monkeypatch, which):
    """os.replace that renames, then raises KeyboardInterrupt on its call number ``which``: the signal
    (delivered to the command thread as an asynchronous exception, sim.cli.run_interruptible) arrives while
    the rename syscall runs and is raised at the next bytecode boundary, just after os.replace returned."""
    real = os.replace
    calls = []

    def replace(a, b, *args, **kw):
        real(a, b, *args, **kw)
        calls.append(b)
        if len(calls) == which:
            raise KeyboardInterrupt
    monkeypatch.setattr(os, "replace", replace)
    return real


@pytest.mark.parametrize("which", [1, 2])
def test_interrupt_right_after_a_rename_leaves_half_committed_run(which, tmp_path, monkeypatch, capsys):
    """Fault: sim.batch.commit_all's undo (_Target.undo) removes a renamed NEW file only when
    ``self.tmp is None``, which commit() sets AFTER os.replace. A Ctrl-C/SIGTERM arriving during the rename
    is raised just after os.replace returns (before ``self.tmp = None``): the new file is then neither
    removed nor counted, so --out holds the old deal table and --tricks the NEW (first run's: absent) tricks
    table (or --out a new deal table and no tricks), while the command says 'interrupted; no output
    written'. Expected: all or none (commit_all's docstring, README)."""
    out, tricks = tmp_path / "d.parquet", tmp_path / "t.parquet"
    assert run_main(["simulate", "--deals", "50", "--seed", "1", "--out", str(out), "--no-progress"]) == 0
    old_deals = out.read_bytes()
    if which == 1:
        out.unlink()  # --out new, --tricks new: the first rename interrupted
    capsys.readouterr()
    real = _replace_then_interrupt(monkeypatch, which)
    rc = run_main(["simulate", "--deals", "60", "--seed", "2", "--out", str(out), "--tricks", str(tricks),
                    "--no-progress"])
    monkeypatch.setattr(os, "replace", real)
    err = capsys.readouterr().err
    assert rc == 130
    deals_new = out.exists() and (which == 1 or out.read_bytes() != old_deals)
    tricks_new = tricks.exists()
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert deals_new == tricks_new, f"deal table new: {deals_new}, tricks table new: {tricks_new}; stderr {err!r}"
    if "no output written" in err:
        assert not deals_new and not tricks_new, f"files written but stderr says {err!r}"


def test_interrupt_right_after_the_backup_link_leaves_a_stray_backup(tmp_path, monkeypatch, capsys):
    """Fault: sim.batch._Target.keep_old makes the backup `.NAME.<hex>.old` by os.link and returns its name;
    commit_all records it (`saved.append((t, t.keep_old()))`) only once keep_old has returned. A Ctrl-C/SIGTERM
    arriving during the link() syscall is raised as soon as os.link returns (the command thread's
    asynchronous exception, checked after a builtin call), before the name is recorded: the finally that
    removes backups never sees it and `.d.parquet.<hex>.old` (a full hard link of the old deal table) stays
    beside the output. Expected: no temporary or backup file left (README: no half-written/stray file)."""
    out, tricks = tmp_path / "d.parquet", tmp_path / "t.parquet"
    assert run_main(["simulate", "--deals", "50", "--seed", "1", "--out", str(out), "--tricks", str(tricks),
                      "--no-progress"]) == 0
    capsys.readouterr()
    real = os.link

    def link(a, b, *args, **kw):
        real(a, b, *args, **kw)
        raise KeyboardInterrupt
    monkeypatch.setattr(os, "link", link)
    rc = run_main(["simulate", "--deals", "60", "--seed", "2", "--out", str(out), "--tricks", str(tricks),
                    "--no-progress"])
    monkeypatch.setattr(os, "link", real)
    assert rc == 130
    stray = [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert not stray, f"left beside the outputs: {stray}"


def test_interrupt_while_backups_are_removed_says_no_output_but_both_written(tmp_path, monkeypatch, capsys):
    """Fault: commit_all's `finally` removes the backups after BOTH renames succeeded; a Ctrl-C/SIGTERM raised
    there (just after the first backup's unlink returns) propagates out of simulate(): the command says
    'interrupted; no output written' (exit 130) although --out and --tricks both hold the NEW tables, and
    the second backup `.t.parquet.<hex>.old` is left beside them. Expected: the message matches the files
    (both new: the run's output was written) and no backup is left."""
    out, tricks = tmp_path / "d.parquet", tmp_path / "t.parquet"
    assert run_main(["simulate", "--deals", "50", "--seed", "1", "--out", str(out), "--tricks", str(tricks),
                      "--no-progress"]) == 0
    old = out.read_bytes(), tricks.read_bytes()
    capsys.readouterr()
    real = os.unlink

    def unlink(p, *args, **kw):
        real(p, *args, **kw)
        if str(p).endswith(".old"):
            raise KeyboardInterrupt
    monkeypatch.setattr(os, "unlink", unlink)
    rc = run_main(["simulate", "--deals", "60", "--seed", "2", "--out", str(out), "--tricks", str(tricks),
                    "--no-progress"])
    monkeypatch.setattr(os, "unlink", real)
    err = capsys.readouterr().err
    written = out.read_bytes() != old[0] and tricks.read_bytes() != old[1]
    stray = [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert not stray, f"left beside the outputs: {stray}; stderr {err!r}"
    assert not (written and "no output written" in err), f"both tables replaced, yet stderr {err!r} (rc {rc})"


def test_interrupt_right_after_the_only_rename_says_no_output_written(tmp_path, monkeypatch, capsys):
    """Fault (also in df89c45): `brisca simulate --out d.parquet` (one output, new): a Ctrl-C/SIGTERM during
    the final rename is raised just after os.replace returns; commit_all undoes nothing for one target and
    the command says 'interrupted; no output written' while d.parquet is there, complete. Expected: the
    message matches the file (either removed, or said written)."""
    out = tmp_path / "d.parquet"
    real = _replace_then_interrupt(monkeypatch, 1)
    rc = run_main(["simulate", "--deals", "60", "--seed", "2", "--out", str(out), "--no-progress"])
    monkeypatch.setattr(os, "replace", real)
    err = capsys.readouterr().err
    assert rc == 130
    assert not (out.exists() and "no output written" in err), f"{out.name} written, yet stderr {err!r}"


def test_undo_from_a_copied_backup_loses_the_old_files_mode(tmp_path, monkeypatch, capsys):
    """Fault: where the filesystem makes no hard link (os.link fails: vfat, some FUSE/network mounts),
    _Target.keep_old backs the old output up as a COPY in a mkstemp file (mode 0600); when the second rename
    then fails, undo renames that copy over the final name: the 'restored' deal table is now mode 0600 (was
    0644: other users can no longer read it) and a new inode. Expected: the old file back as it was (its
    mode kept, as commit() keeps an existing file's mode). Modelled: os.link raises EPERM, the second
    os.replace raises EACCES."""
    import errno
    import stat
    out, tricks = tmp_path / "d.parquet", tmp_path / "t.parquet"
    assert run_main(["simulate", "--deals", "50", "--seed", "1", "--out", str(out), "--tricks", str(tricks),
                      "--no-progress"]) == 0
    os.chmod(out, 0o644)
    old = out.read_bytes()
    capsys.readouterr()

    def link(a, b, *args, **kw):
        raise PermissionError(errno.EPERM, "Operation not permitted", str(a))
    real = os.replace
    calls = []

    def replace(a, b, *args, **kw):
        calls.append(b)
        if len(calls) == 2:
            raise PermissionError(errno.EACCES, "Permission denied", str(b))
        return real(a, b, *args, **kw)
    monkeypatch.setattr(os, "link", link)
    monkeypatch.setattr(os, "replace", replace)
    rc = run_main(["simulate", "--deals", "60", "--seed", "2", "--out", str(out), "--tricks", str(tricks),
                    "--no-progress"])
    monkeypatch.undo()
    capsys.readouterr()
    assert rc != 0
    assert out.read_bytes() == old
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o644, oct(stat.S_IMODE(os.stat(out).st_mode))


def test_interrupt_just_after_commit_all_returns_says_the_output_was_written(tmp_path, monkeypatch, capsys):
    """A signal landing in simulate() just after commit_all has returned (every output in place) says the
    files were written, as one inside commit_all does (simulate's ``written`` list, filled by commit_all, is
    the command's). Later, outside simulate's handling, the message is the bare "interrupted"."""
    from sim import batch
    out = tmp_path / "d.parquet"
    real = batch.commit_all

    def commit_then_interrupted(targets, written=None):
        real(targets, written)
        raise KeyboardInterrupt
    monkeypatch.setattr(batch, "commit_all", commit_then_interrupted)
    rc = run_main(["simulate", "--deals", "40", "--seed", "2", "--out", str(out), "--no-progress"])
    err = capsys.readouterr().err
    assert rc == 130 and out.exists()
    assert "no output written" not in err and "the output was written in full" in err, err
