"""New-user pass 30 (a fresh clone, the README followed from the top, its new "Common tasks" table
included): what tripped.

- The files the README's commands write into the checkout were not all ignored by git: the Common
  tasks row "Load deals and tricks in pandas" and the grading block's command (``--out d.parquet
  --tricks t.parquet``) left ``d.parquet`` and ``t.parquet`` untracked at the top of the checkout
  (``git status`` listed them), while ``results/*.parquet``, ``positions.txt`` and the trial files are
  ignored. ``.gitignore`` now ignores ``/*.parquet``.
- The table's "grading a deal" link went to the top of the ``brisca solve`` section, about 3,800
  characters (the 4-player example and the solver's Python block) above the grading paragraph; it now
  goes to an anchor just before it. Its "pandas" row links First run too, where ``pd.read_parquet`` is
  shown; its ``brisca solve`` row gave ``hands=...``, which fails as written ("hands: 1 seat given").
- The grading paragraph stated seat 0's losses (135, 43 at worst) and seat 1's gifts (131) without
  saying how to tell whose move each one is; its block now records each move's seat (the position's
  ``turn`` before it) and prints the figures the text states.
"""
import os
import re
import shutil
import subprocess

import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def _readme() -> str:
    return open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()


def _common_tasks_rows(readme: str) -> list[list[str]]:
    """The Common tasks table's rows, each [task, how, details]."""
    section = readme[readme.index("## Common tasks"):]
    section = section[:section.index("\n## ", 1)]
    rows = [line for line in section.splitlines() if line.startswith("| ")][1:]  # (the header row left out)
    return [[cell.strip() for cell in row.split("|")[1:-1]] for row in rows]


def _anchors(readme: str) -> dict[str, int]:
    """Every link target of the README (GitHub's heading slugs and ``<a id>``) and where its text starts."""
    found = {}
    for m in re.finditer(r"^#+ (.*)$", readme, re.M):
        slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
        found.setdefault(slug, m.start())
    for m in re.finditer(r'<a id="([^"]+)"></a>', readme):
        found.setdefault(m.group(1), m.start())
    return found


def _tokens(how: str) -> list[str]:
    """What a row's command names: its subcommand, flags, functions (a code span's words otherwise)."""
    tokens = []
    for span in re.findall(r"`([^`]+)`", how):
        sub = re.match(r"brisca (\w+)", span)
        called = re.search(r"\.(\w+)\(", span)
        if sub:
            tokens.append(sub.group(0))
        elif called:
            tokens.append(called.group(1))
        elif not span.startswith("--"):
            tokens.append(span)
        tokens += re.findall(r"(?<!\w)--[a-z][\w-]*", span)
    return tokens


def test_common_tasks_links_land_on_what_the_row_names():
    """Every link of the Common tasks table exists, and each thing a row's command names (subcommand, flag,
    function) is in the README within 3,000 characters after one of the row's links (a screen or so): the
    grading row's link was the solve section's top, deal_moves 3,800 characters further."""
    readme = _readme()
    anchors = _anchors(readme)
    rows = _common_tasks_rows(readme)
    assert len(rows) >= 7, rows
    for task, how, details in rows:
        targets = re.findall(r"\]\(#([^)]+)\)", details)
        assert targets and all(t in anchors for t in targets), (task, targets)
        for token in _tokens(how):
            assert any(token in readme[anchors[t]:anchors[t] + 3000] for t in targets), (task, token, targets)


def test_common_tasks_commands_are_complete():
    """No placeholder in a row's command (``brisca solve "... hands=..."`` failed as written)."""
    for task, how, _ in _common_tasks_rows(_readme()):
        assert "..." not in how, (task, how)


def _written_paths(readme: str) -> set[str]:
    """The files the README's shell blocks, the Common tasks table and its blocks' ``# after:`` commands write."""
    texts = re.findall(r"```bash\n(.*?)```", readme, re.S)
    texts += [how for _, how, _ in _common_tasks_rows(readme)]
    texts += re.findall(r"# after: (brisca .*)", readme)
    paths = set()
    for text in texts:
        paths.update(re.findall(r"(?:--out|--tricks)\s+([\w./-]+)", text))
        paths.update(re.findall(r"(?<![>&\d])>\s*([\w.][\w./-]*)", text))
    return {p for p in paths if not p.startswith("/")}


@pytest.mark.skipif(shutil.which("git") is None or not os.path.exists(os.path.join(ROOT, ".git")),
                    reason="needs git and a checkout")
def test_files_the_readme_writes_are_ignored_by_git():
    """``git status`` stays clean after the README's commands: each file they write in the checkout is ignored
    (d.parquet and t.parquet of the pandas row and the grading block were not)."""
    paths = _written_paths(_readme())
    assert {"d.parquet", "t.parquet", "results/run.parquet", "positions.txt"} <= paths, paths
    for path in sorted(paths):
        done = subprocess.run(["git", "check-ignore", "-q", "--no-index", path], cwd=ROOT)
        assert done.returncode == 0, f"{path} is not ignored by git"


def test_grading_block_prints_the_figures_its_text_states(tmp_path, monkeypatch):
    """The grading block prints the open value, seat 0's losses, its worst move, seat 1's gifts and the end
    value that the paragraph after it states (51, 135, 43 at the 6E, 131, 47)."""
    from conftest import run_main
    from test_docs import _readme_block, _run_block
    code = _readme_block("To grade a deal that `brisca simulate")
    cmd = re.search(r"# after: brisca (simulate .*)", code).group(1).split()
    monkeypatch.chdir(tmp_path)
    assert run_main(cmd + ["--no-progress"]) == 0
    out = _run_block(code).strip()
    assert out == "51 135 (43, '6E', 15) 131 47", out
    assert out in code  # the block's comment
    readme = _readme()
    text = readme[readme.index("With `perspective=0`"):][:900]
    for figure in ("worth 51", "loses 135", "43 at its worst", "6E, move 15", "gives back 131", "ends with 47"):
        assert figure in text, figure
