"""Notation pass 31: an independent reading of NOTATION.md (tests/notation_reading.py, written from
the spec, RULES R1/R3 and the shared vectors, not from solver/position.py) compared with
Position.parse and its formatter on a seeded sample of generated strings (tests/notation_gen.py):
valid positions from random deals of every player count and deck (remove, exchange, endgame,
mid-trick, with and without played, observations of each seat with stock=? and hands of known
cards followed by ?) and their mutations (a card twice, wrong hand or seat counts, cards out of the
deck, unknown or duplicated keys, bad values, case, whitespace, ...). About 4,000 strings, a few
seconds once the package is imported."""

import json
import random

import pytest

from solver.position import Position
from tests import notation_reading as R
from tests.notation_gen import mutants, valid

from conftest import solver_vectors_dir

VECTORS = solver_vectors_dir()

# where the spec does not say which field a problem names, the two readings may differ:
# a count that does not add up (hands or stock), a card twice (the field checked first or last),
# a token without '=' (the project names the whole position)
FIELD_AMBIGUOUS = {("stock", "hands"), ("trick", "played"), ("stock", "played"), ("turn", "position")}


def project(text):
    try:
        return ("ok", str(Position.parse(text)))
    except ValueError as e:
        return ("err", str(e).split(":")[0])


def sample(seed=31, deals=160):
    rng = random.Random(seed)
    out = []
    for _ in range(deals):
        f, s = valid(rng)
        out.append(("valid", s))
        out.extend(mutants(f, rng))
    return out


SAMPLE = sample()


def compare(read):
    """Disagreements of a reading with the project on SAMPLE, and the counts compared."""
    bad, counts = [], {"valid": 0, "invalid": 0, "round trips": 0}
    for name, text in SAMPLE:
        mine, theirs = read(text), project(text)
        if mine[0] != theirs[0]:
            bad.append((name, text, mine, theirs))
            continue
        if mine[0] == "err":
            counts["invalid"] += 1
            if mine[1] != theirs[1] and (mine[1], theirs[1]) not in FIELD_AMBIGUOUS:
                bad.append((name, text, mine, theirs))
            continue
        counts["valid"] += 1
        if mine[1] != theirs[1]:
            bad.append((name, text, mine, theirs))
            continue
        counts["round trips"] += 1
    return bad, counts


def test_sample_is_broad():
    names = {n for n, _ in SAMPLE}
    assert len(SAMPLE) > 3000
    assert {"valid", "dup-trick", "hand+1", "8O-in-40", "2s-in-rapida", "remove-non3", "dup-key",
            "points-high", "obs-no-played", "played-1", "stock+pinta"} <= names
    texts = [t for n, t in SAMPLE if n == "valid"]
    for n in ("players=2", "players=3", "players=4", "players=6", "stock=?", ",?", "remove=trump2",
              "remove=all2s", "deck=rapida20", "deck=catalan48", "played="):
        assert any(n in t for t in texts), n


def test_reading_agrees_with_project():
    bad, counts = compare(R.read)
    assert not bad, bad[:5]
    assert counts["valid"] > 500 and counts["invalid"] > 2500, counts


def test_canonical_is_a_fixed_point_and_case_free():
    for name, text in SAMPLE:
        if name != "valid":
            continue
        canon = str(Position.parse(text))
        assert str(Position.parse(canon)) == canon
        assert str(Position.parse(text.lower())) == canon
        assert str(Position.parse(canon.lower())) == canon


def test_vectors_are_canonical_for_both():
    files = sorted(VECTORS.glob("*.jsonl"))
    # (fails, naming the folder, as conftest.solver_vectors_dir says and tests/test_solver.py does: a skip
    # passed the suite with the vectors moved away or $BRISCA_SHARED mistyped, checking nothing)
    assert len(files) >= 9, f"no shared solver test vectors (testdata/solver/*.jsonl) in {VECTORS}"
    for path in files:
        for line in path.read_text().splitlines():
            pos = json.loads(line)["position"]
            assert R.read(pos) == ("ok", pos), pos
            assert str(Position.parse(pos)) == pos


@pytest.mark.parametrize("broken", ["six-rapida", "eight-in-40", "no-points", "foo-key", "played-unsorted"])
def test_a_broken_reading_disagrees(broken, monkeypatch):
    """The comparison is not vacuous: each deliberately broken copy of the reading disagrees."""
    if broken == "six-rapida":
        monkeypatch.setitem(R.COMBOS, 6, R.COMBOS[6] + ("rapida20",))
        monkeypatch.setitem(R.COMBOS, 3, R.COMBOS[3] + ("rapida20",))
    elif broken == "eight-in-40":
        monkeypatch.setitem(R.RANKS, "spanish40", R.RANKS["spanish40"] + (8, 9))
    elif broken == "no-points":
        monkeypatch.setattr(R, "POINTS", {1: 200})
    elif broken == "foo-key":
        monkeypatch.setattr(R, "KEYS", R.KEYS + ("foo",))
    elif broken == "played-unsorted":
        real = R.deck_of
        monkeypatch.setattr(R, "deck_of", lambda *a: real(*a)[::-1])
    bad, _ = compare(R.read)
    assert bad
