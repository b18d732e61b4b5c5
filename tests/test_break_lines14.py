"""Break-it pass 14 on the stream line reader of ``brisca solve --file -`` (cbbf356: ``solver.cli._StreamLines``,
``_read_wait``, ``_Prefixed``, ``_read_head``, ``_Stream.ready`` and the ``--threads`` loop of ``_solve_lines``
that reads ahead only while ``ready()``). The stream reader must give the items ``(line, text, problem)`` and
errors a seekable file's reader (``io.TextIOWrapper`` + ``_position_lines``) gives for the same bytes:
differential checks below (hand-made and seeded random inputs, tiny ``_STREAM_READ`` and ``MAX_LINE``) hold.

Faults (each test fails on cbbf356 and says what should happen):

1. ``ready()`` says a line can be had without waiting when the text in hand holds a line end, but the line
   it ends may be blank, a comment or a JSON "complete": false line (no item): the ``--threads`` loop then
   reads on, past it, and waits for the producer with an answer unprinted. A coprocess writing
   ``POS\\n\\n`` (or ``POS\\n# note\\n``, or ``POS\\r\\n\\r\\n``) and waiting for its answer hangs (same
   deadlock as break-it pass 13's fault 1).
2. ``ready()`` on a descriptor is ``select``'s "readable": some bytes have come, not a whole line. A
   producer that has written part of its next line (``POS1\\nPO``) and waits for line 1's answer before it
   writes the rest hangs with ``--threads 2``: the reader waits for the rest of line 2, line 1's answer unprinted.
3. A long line that comes in small reads costs time quadratic in its length (``_more`` copies the text
   in hand, and ``_EOL.search`` scans it again, at each read): a 512 KB line (under MAX_LINE) in 128-byte
   pieces takes ~2.5 s (the file reader: ~1 ms); by the same law a line of MAX_LINE characters that comes
   a byte a read takes ~20 minutes (estimated) before it is refused.

Held (the passing tests): identical items and errors for empty input, only line ends, \\r at a read edge then
\\n, \\r\\r\\n, a lone \\r at the end, UTF-8 with/without BOM (also a BOM cut short), UTF-16/32 LE/BE with and
without marks, surrogate pairs and multibyte characters split over reads, bad bytes, NUL, form feed, U+2028,
NEL, comments, JSON lines, lines of MAX_LINE and MAX_LINE + 1 characters with every line end (tiny and the
real MAX_LINE), reads of 1, 2, 3, 7 bytes and pipes giving 1-5 bytes a read (also a non-blocking real pipe);
the command's records as the file's with --threads 1 and 2; lines already in a real pipe submitted together.
Note (no test fails on it): ``ready`` does not see bytes held in standard input's own ``BufferedReader``
buffer (``_read_head``'s ``read(4)`` fills it); with the real ``_STREAM_READ`` (64 KB) the next read drains it,
so this only matters when ``_STREAM_READ`` is under the buffer size (8 KB).
"""
from __future__ import annotations

import concurrent.futures
import io
import json
import os
import random
import subprocess
import sys
import threading
import time

import pytest

from conftest import CoprocessStdin, FirstLineOut
from solver import cli

EX = "players=2 trump=5B hands=3C,6C/10O,2C,12E stock=2O,4B,3E,7C,12B turn=1 trick=1O points=62,17"
EX2 = "players=2 trump=11E hands=10O,2C,4E/11O,11C stock=12C turn=0 trick=10C points=27,76"
ROOT = os.path.join(os.path.dirname(__file__), "..")


@pytest.fixture(scope="module", autouse=True)
def _warm():
    cli._warm_up(False, {(2, False)}, note=False)


class _Raw(io.RawIOBase):
    """``data`` as a pipe gives it: at most ``chunk`` bytes a read (None: what is asked)."""

    def __init__(self, data: bytes, chunk=None):
        self.data, self.pos, self.chunk = data, 0, chunk

    def readable(self):
        return True

    def readinto(self, b):
        n = len(b) if self.chunk is None else min(len(b), self.chunk)
        d = self.data[self.pos:self.pos + n]
        self.pos += len(d)
        b[:len(d)] = d
        return len(d)


def _run(it):
    out = []
    try:
        for i, text, problem in it:
            out.append((i, text, None if problem is None else (type(problem).__name__, str(problem))))
    except ValueError as e:
        return out, str(e).replace("standard input", "INPUT")
    return out, None


def _file_items(data: bytes, tmp_path):
    p = tmp_path / "f.txt"
    p.write_bytes(data)
    w = cli._read_positions(str(p))
    try:
        out, err = _run(iter(w))
    finally:
        if hasattr(w, "close"):
            w.close()
    return out, err and err.replace(str(p), "INPUT")


def _stream_items(monkeypatch, data: bytes, chunk=None):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(_Raw(data, chunk))))
    s = cli._read_positions("-")
    assert isinstance(s, cli._Stream)
    return _run(s._items)


def _differs(monkeypatch, tmp_path, data, sizes=(1, 2, 3, 7, 1 << 16), chunks=(None, 1, 5)):
    want = _file_items(data, tmp_path)
    bad = []
    for size in sizes:
        monkeypatch.setattr(cli, "_STREAM_READ", size)
        for chunk in chunks:
            got = _stream_items(monkeypatch, data, chunk)
            if got != want:
                bad.append((size, chunk, got))
    return want, bad


HAND = [b"", b"\n", b"\r", b"\r\n", b"\n\r", b"\r\r\n", b"\r\n\r\n\r", b"a\rb", b"a\r", b"a\r\r", b" a \r\n\r\n b",
        "é\r\nñ\u2028z\x0cq\x00\x85\x1c\r".encode(), b"a\xffb\xe2\x82\n\xe2\x82\xacz\xf0\x9f", b"\xef\xbb\xbfab\r\n",
        b"\xef\xbb\xbf", b"\xef\xbb", b"\xef", b"\xef\xbb\xbf\xef\xbb\xbfx\n", b"\x00\x00\n",
        ("# c\n" + EX + " # note\r\n" + json.dumps({"position": EX2}) + "\r"
         + '{"complete": false, "rows": 1, "total": 2}\n{"position": 3}\n{}\n').encode()]
TEXT = "ab\r\ncd\r\re\U0001F600\u2028\nf\r"
HAND += [TEXT.encode(e) for e in ("utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be", "utf-8-sig")]
HAND += [b"\xff\xfe\x00\xd8a\x00\r\x00", b"\xff\xfea\x00\r", b"a\x00\r\x00\x00", b"\xfe\xff\x00a\x00\r\x00\n\xd8"]


@pytest.mark.parametrize("data", HAND, ids=range(len(HAND)))
def test_hand_made_bytes_read_as_a_file_reads_them(monkeypatch, tmp_path, data):
    """Holds on cbbf356: line ends split over reads, BOMs, UTF-16/32 with and without marks, bad bytes."""
    want, bad = _differs(monkeypatch, tmp_path, data)
    assert not bad, (want, bad[:2])


@pytest.mark.parametrize("body", [4, 5])
@pytest.mark.parametrize("end", ["", "\n", "\r", "\r\n", "\r\r\n"])
@pytest.mark.parametrize("enc", ["utf-8", "utf-16", "utf-32-be"])
def test_lines_at_max_line_as_a_file(monkeypatch, tmp_path, body, end, enc):
    """Holds: a line of MAX_LINE characters is read, one more refused, naming the same line, each line end,
    at the end of the input or not, after a first line or a BOM."""
    monkeypatch.setattr(cli, "MAX_LINE", 4)
    for pre in ("", "x\n", "\ufeff"):
        for post in ("", "z\n"):
            data = (pre + "é" * body + end + post).encode(enc)
            want, bad = _differs(monkeypatch, tmp_path, data, sizes=(1, 3, 1 << 16), chunks=(None, 2))
            assert not bad, (data, want, bad[:1])
            # (a U+FEFF after utf-16's own mark is a character of the line: both readers count it)
            fits = body == 4 and bool(end or not post) and not (pre == "\ufeff" and enc == "utf-16")
            assert (want[1] is None) == fits, want


@pytest.mark.parametrize("n", [1 << 20, (1 << 20) + 1])
def test_real_max_line_as_a_file(monkeypatch, tmp_path, n):
    """Holds: the real MAX_LINE, the line end at the file reader's 8 KB chunk edge."""
    for end in ("\r\n", "\r"):
        data = ("a" * n + end + "z\n").encode()
        want, bad = _differs(monkeypatch, tmp_path, data, sizes=(1 << 16, 8191), chunks=(None,))
        assert not bad and (want[1] is None) == (n == 1 << 20)


def test_random_bytes_read_as_a_file(monkeypatch, tmp_path):
    """Holds: seeded random texts in every encoding, some bytes spoiled or cut, small MAX_LINE."""
    rng = random.Random(14)
    alpha = ["a", "b", " ", "#", "\r", "\n", "\r\n", "\x00", "\x0c", "\u2028", "\x85", "é", "€", "\U0001F600",
             "\ufeff", "\ud800", "{", '"', "\t"]
    encs = ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"]
    for _ in range(400):
        monkeypatch.setattr(cli, "MAX_LINE", rng.choice([1, 2, 3, 5, 8, 1 << 20]))
        s = "".join(rng.choice(alpha) for _ in range(rng.randrange(0, 25)))
        if rng.random() < 0.5:
            s = "a" + s  # (an ASCII start: the encodings without a mark are found)
        data = s.encode(rng.choice(encs), "surrogatepass")
        if rng.random() < 0.2 and data:
            i = rng.randrange(len(data))
            data = data[:i] + bytes([rng.randrange(256)]) + data[i + 1:]
        if rng.random() < 0.1:
            data = data[:-1]
        want, bad = _differs(monkeypatch, tmp_path, data, sizes=(1, 3, 7, 1 << 16), chunks=(None, 2))
        assert not bad, (data, want, bad[:1])


def _records(out: str):
    return [{k: v for k, v in json.loads(x).items() if k not in ("seconds", "nodes", "input", "ms")}
            for x in out.splitlines()]


def test_non_blocking_pipe_in_small_writes_read_as_a_file(monkeypatch, tmp_path):
    """Holds: a real pipe left O_NONBLOCK, written 1-5 bytes at a time (a thread), gives the file's items."""
    rng = random.Random(7)
    text = "# c\r\nab\r\r\ncd \u00e9\u20ac\U0001F600\re\n\nf\r"
    for enc in ("utf-8", "utf-16", "utf-32-le", "utf-8-sig"):
        data = text.encode(enc) * 2
        want = _file_items(data, tmp_path)
        for size in (1, 3, 1 << 16):
            monkeypatch.setattr(cli, "_STREAM_READ", size)
            w = _pipe_stdin(monkeypatch)
            os.set_blocking(sys.stdin.fileno(), False)

            def produce():
                i = 0
                while i < len(data):
                    n = rng.randrange(1, 6)
                    os.write(w, data[i:i + n])
                    i += n
                    time.sleep(0.0005)
                os.close(w)

            t = threading.Thread(target=produce)
            t.start()
            try:
                got = _run(cli._read_positions("-")._items)
            finally:
                t.join()
                sys.stdin.close()
            assert got == want, (enc, size)


@pytest.mark.parametrize("threads", [1, 2])
def test_command_records_as_a_file(monkeypatch, tmp_path, capsys, threads):
    """Holds: ``solve --file -`` prints the records the file run prints (UTF-16 with \\r ends, comments,
    a bad line, a JSON line), read 3 bytes at a time."""
    text = f"# head\r\n{EX}\r\n\r\nnot a position\r{json.dumps({'position': EX2})}\n{EX2} # c"
    for data in (text.encode("utf-16"), text.encode("utf-8")):
        p = tmp_path / "in.txt"
        p.write_bytes(data)
        args = ["solve", "--threads", str(threads), "--no-progress", "--no-pv"]
        rc_file = cli.main([*args, "--file", str(p)])
        want = _records(capsys.readouterr().out)
        monkeypatch.setattr(cli, "_STREAM_READ", 3)
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(_Raw(data, 5))))
        rc = cli.main([*args, "--file", "-"])
        got = _records(capsys.readouterr().out)
        monkeypatch.setattr(cli, "_STREAM_READ", 1 << 16)
        assert (rc, got) == (rc_file, want) and [r["line"] for r in got] == [2, 4, 5, 6]


@pytest.mark.parametrize("first", [EX + "\n\n", EX + "\n# note\n", EX + "\r\n\r\n", EX + " \n   # note\r",
                                   EX + '\n{"complete": false, "rows": 1, "total": 2}\n'],
                         ids=["blank", "comment", "crlf-blank", "blank-comment-cr", "json-complete-false"])
def test_a_blank_or_comment_line_after_a_position_does_not_hold_its_answer(monkeypatch, first):
    """Fault 1. Right: the line's answer is printed before the reader waits for the producer again (a line
    without an item is not one that can be read without waiting; ``ready`` should look past blank and comment
    lines, or the loop should not wait when the read gives no item). cbbf356: ``ready()`` is True for the
    blank line in hand, the loop reads past it and waits for the next write, answer 1 unprinted: a coprocess
    that ends its line with a blank line or a comment hangs."""
    out = io.StringIO()
    src = CoprocessStdin([first.encode(), (EX2 + "\n").encode()], out)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(src)))
    monkeypatch.setattr("sys.stdout", out)
    rc = cli.main(["solve", "--file", "-", "--threads", "2", "--no-progress", "--no-pv"])
    assert not src.early, f"read ahead of the answers (chunks given, answered): {src.early}"
    recs = [json.loads(x) for x in out.getvalue().splitlines()]
    assert rc == 0 and [r["value"] for r in recs] == [26, 10]


def test_a_blank_line_after_a_position_real_pipe_coprocess():
    """Fault 1 through a real pipe: ``printf 'POS\\n\\n'`` then wait for the answer. Right: the answer comes;
    cbbf356: none comes until the producer writes again (here: closes its end after 10 s; a line without the blank one is answered in ~0.5 s)."""
    p = subprocess.Popen([sys.executable, "-m", "solver.cli", "solve", "--file", "-", "--threads", "2",
                          "--no-progress", "--no-pv"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=ROOT)
    try:
        p.stdin.write((EX + "\n\n").encode())
        p.stdin.flush()
        got = []
        t = threading.Thread(target=lambda: got.append(p.stdout.readline()), daemon=True)
        t.start()
        t.join(10)
        answered = bool(got)
        p.stdin.close()
        p.wait(60)
        assert answered, "no answer to line 1 within 10 s of 'POS\\n\\n' (it came only once stdin was closed)"
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def _pipe_stdin(monkeypatch, buffer_size=io.DEFAULT_BUFFER_SIZE):
    r, w = os.pipe()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(io.FileIO(r, "rb"), buffer_size)))
    return w


def test_part_of_the_next_line_in_the_pipe_does_not_hold_an_answer(monkeypatch):
    """Fault 2. A producer has written line 1 and the start of line 2, and waits for line 1's answer before
    it writes the rest. Right: line 1 is answered (``ready`` means a whole line, not some bytes); cbbf356:
    ``select`` says readable, the loop reads on and waits for the rest of line 2, answer 1 unprinted. (Reads
    of 16 bytes here leave the start of line 2 in the pipe when line 1 is read, as a producer writing it
    after the reader has line 1 does.)"""
    monkeypatch.setattr(cli, "_STREAM_READ", 16)
    w = _pipe_stdin(monkeypatch, 1)
    out = FirstLineOut()
    monkeypatch.setattr("sys.stdout", out)
    os.write(w, (EX + "\n" + EX2[:20]).encode())
    rc = []
    t = threading.Thread(target=lambda: rc.append(cli.main(["solve", "--file", "-", "--threads", "2",
                                                            "--no-progress", "--no-pv"])), daemon=True)
    t.start()
    answered = out.first.wait(5)
    os.write(w, (EX2[20:] + "\n").encode())
    os.close(w)
    t.join(60)
    assert rc == [0] and [json.loads(x)["value"] for x in out.getvalue().splitlines()] == [26, 10]
    assert answered, "line 1 unanswered while the producer waited with half of line 2 written"


@pytest.mark.parametrize("size", [1 << 16, 40])
def test_lines_already_written_are_solved_in_parallel(monkeypatch, size):
    """Holds: with all lines already in a real pipe (its writer still open) ``--threads 2`` submits them
    ahead of the first answer (the reader's text in hand, or ``select`` on the pipe when reads are small;
    standard input's own buffer is kept to 1 byte for those: ``ready`` does not see bytes held there, which
    with the real read size only the first read, ``_read_head``'s, leaves: note in the report)."""
    monkeypatch.setattr(cli, "_STREAM_READ", size)
    w = _pipe_stdin(monkeypatch, io.DEFAULT_BUFFER_SIZE if size > 1000 else 1)
    lines = [EX, EX2] * 4
    os.write(w, "".join(x + "\n" for x in lines).encode())
    submitted, at_first = [], []
    real = concurrent.futures.ThreadPoolExecutor

    class Counting(real):
        def submit(self, *a, **k):
            submitted.append(1)
            return super().submit(*a, **k)

    class Out(io.StringIO):
        def write(self, s):
            if not at_first:
                at_first.append(len(submitted))
            return super().write(s)

    out = Out()
    monkeypatch.setattr(concurrent.futures, "ThreadPoolExecutor", Counting)
    monkeypatch.setattr("sys.stdout", out)
    rc = []
    t = threading.Thread(target=lambda: rc.append(cli.main(["solve", "--file", "-", "--threads", "2",
                                                            "--no-progress", "--no-pv"])), daemon=True)
    t.start()
    deadline = time.time() + 30
    while len(out.getvalue().splitlines()) < len(lines) and time.time() < deadline:
        time.sleep(0.05)
    os.close(w)
    t.join(30)
    assert rc == [0] and len(out.getvalue().splitlines()) == len(lines)
    assert at_first == [len(lines)], f"lines submitted when the first answer was printed: {at_first}"


def test_a_long_line_in_small_reads_is_read_in_linear_time(monkeypatch, tmp_path):
    """Fault 3. Right: a line's cost grows with its length (the file reader: ~1 ms for 512 KB); cbbf356: each
    read copies and searches the whole line so far: 512 KB in 128-byte reads takes seconds (a 1 MB line
    a byte a read: ~20 minutes, estimated, before it is refused as too long)."""
    data = b"a" * (1 << 19) + b"\n"
    t = time.perf_counter()
    assert _file_items(data, tmp_path)[0][0][0] == 1
    file_time = time.perf_counter() - t
    t = time.perf_counter()
    got = _stream_items(monkeypatch, data, 128)
    took = time.perf_counter() - t
    assert got[0][0][0] == 1
    assert took < 1.0, f"{took:.1f} s for a 512 KB line in 128-byte reads (the file: {file_time:.3f} s)"


_CHILD = r"""
import concurrent.futures, sys
from solver import cli
submitted, at_first = [], []
real = concurrent.futures.ThreadPoolExecutor
class Counting(real):
    def submit(self, *a, **k):
        submitted.append(1)
        return super().submit(*a, **k)
concurrent.futures.ThreadPoolExecutor = Counting
out = sys.stdout
class Out:
    def write(self, s):
        if not at_first:
            at_first.append(len(submitted))
        return out.write(s)
    def __getattr__(self, name):
        return getattr(out, name)
sys.stdout = Out()
rc = cli.main(["solve", "--file", "-", "--threads", "2", "--no-progress", "--no-pv"])
print("submitted-at-first-answer", at_first, file=sys.stderr)
sys.exit(rc)
"""


def test_lines_already_written_are_solved_in_parallel_subprocess():
    """Holds: a real ``brisca solve --file - --threads 2`` process, all 8 lines already in its standard input
    (a pipe, the writer still open): the 8 are submitted before the first answer is printed."""
    lines = [EX, EX2] * 4
    p = subprocess.Popen([sys.executable, "-c", _CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=ROOT)
    try:
        p.stdin.write("".join(x + "\n" for x in lines).encode())
        p.stdin.flush()
        got = [p.stdout.readline() for _ in lines]  # (all answered with the writer still open)
        p.stdin.close()
        err = p.stderr.read().decode()
        assert p.wait(60) == 0 and all(got), err
        assert "submitted-at-first-answer [8]" in err, err
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
