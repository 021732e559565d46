"""The Minefield SAT encodings against brute force, the lemma check, the DRUP checker."""

from __future__ import annotations

import itertools
import random

import pytest
from pysat.solvers import Solver

from boardproof.models.minefield.proofs import sat
from boardproof.models.minefield.research.claims import _handle_candidate
from boardproof.models.minefield.research.exhaustive import enumerate_reachable, reach_search
from boardproof.solvers.sat import drat

E, B, W = 0, 1, 2

# ---------------------------------------------------------------------------
# an independent brute-force reference, written from rules/minefield.md
# ---------------------------------------------------------------------------


def at(board, n, r, f):
    return board[r * n + f]


def has_glyph(board, n) -> bool:
    for r in range(n - 1):
        for f in range(n - 1):
            a, b = at(board, n, r, f), at(board, n, r, f + 1)
            c, d = at(board, n, r + 1, f), at(board, n, r + 1, f + 1)
            # diagonals: (a, d) and (b, c)
            for (x1, x2), (y1, y2) in (((a, d), (b, c)), ((b, c), (a, d))):
                if x1 == x2 != E and {y1, y2} == {E, 3 - x1}:
                    return True  # hard corner
    for k in (3, 4):
        for rows, cols in ((2, k), (k, 2)):
            for r in range(n - rows + 1):
                for f in range(n - cols + 1):
                    cells = [(r + i, f + j) for i in range(rows) for j in range(cols)]
                    corners = [(r, f), (r + rows - 1, f + cols - 1),
                               (r, f + cols - 1), (r + rows - 1, f)]
                    middle = [c for c in cells if c not in corners]
                    v = [at(board, n, *c) for c in corners]
                    if (E not in v and v[0] == v[1] and v[2] == v[3] and v[0] != v[2]
                            and all(at(board, n, *c) == E for c in middle)):
                        return True
    return False


def stuck(board, n) -> bool:
    for p in range(n * n):
        if board[p] == E:
            for colour in (B, W):
                trial = list(board)
                trial[p] = colour
                if not has_glyph(trial, n):
                    return False
    return True


def has_path(board, n, colour) -> bool:
    def start(p):
        return p // n == 0 if colour == B else p % n == 0

    def goal(p):
        return p // n == n - 1 if colour == B else p % n == n - 1

    todo = [p for p in range(n * n) if board[p] == colour and start(p)]
    seen = set(todo)
    while todo:
        p = todo.pop()
        if goal(p):
            return True
        r, f = divmod(p, n)
        for rr, ff in ((r + 1, f), (r - 1, f), (r, f + 1), (r, f - 1)):
            q = rr * n + ff
            if 0 <= rr < n and 0 <= ff < n and board[q] == colour and q not in seen:
                seen.add(q)
                todo.append(q)
    return False


def has_crosscut(board, n) -> bool:
    for r in range(n - 1):
        for f in range(n - 1):
            a, b = at(board, n, r, f), at(board, n, r, f + 1)
            c, d = at(board, n, r + 1, f), at(board, n, r + 1, f + 1)
            if a == d != E and b == c != E and a != b:
                return True
    return False


def no_path(board, n) -> bool:
    return not has_path(board, n, B) and not has_path(board, n, W)


def boards(n):
    return itertools.product((E, B, W), repeat=n * n)


PREDICATES = {
    "glyph": (sat.Options(lemmas=(), parts=("glyph",)), lambda b, n: not has_glyph(b, n)),
    "glyph+stuck": (sat.Options(lemmas=(), parts=("glyph", "stuck")),
                    lambda b, n: not has_glyph(b, n) and stuck(b, n)),
    "nopath": (sat.Options(lemmas=(), parts=("nopath",)), no_path),
    "nopath-closed-both": (
        sat.Options(lemmas=(), parts=("nopath",), closed_in_stones=True, both_sides=True),
        no_path),
    "crosscut": (sat.Options(parts=()), lambda b, n: not has_crosscut(b, n)),
    "static-draw": (sat.Options(lemmas=()),
                    lambda b, n: not has_glyph(b, n) and stuck(b, n) and no_path(b, n)),
    "plain": (sat.PLAIN, lambda b, n: False),
    "fill": (sat.Options(lemmas=(), parts=("glyph", "stuck"), fill="some_empty", equiv=True),
             lambda b, n: E in b and not has_glyph(b, n) and stuck(b, n)),
    "full": (sat.Options(parts=("nopath",), fill="full", closed_in_stones=True),
             lambda b, n: E not in b and not has_crosscut(b, n) and no_path(b, n)),
    "full-diagonal": (sat.Options(parts=("nopath",), fill="full", diagonal=True),
                      lambda b, n: E not in b and not has_crosscut(b, n) and no_path(b, n)),
    "full-no-lemma": (sat.Options(lemmas=(), parts=("nopath",), fill="full"),
                      lambda b, n: E not in b and no_path(b, n)),
}


@pytest.fixture(scope="module")
def brute3():
    """Every 3x3 board with the predicates evaluated once."""
    return {name: {b for b in boards(3) if pred(b, 3)} for name, (_, pred) in PREDICATES.items()}


@pytest.mark.parametrize("name", sorted(PREDICATES))
def test_models_equal_brute_force_n2(name) -> None:
    options, pred = PREDICATES[name]
    expected = {b for b in boards(2) if pred(b, 2)}
    assert set(sat.iter_boards(sat.encode(2, options))) == expected


@pytest.mark.parametrize("name", sorted(PREDICATES))
def test_models_equal_brute_force_n3(name, brute3) -> None:
    options, _ = PREDICATES[name]
    found = list(sat.iter_boards(sat.encode(3, options)))
    assert len(found) == len(set(found)) == len(brute3[name])
    assert set(found) == brute3[name]


def test_brute_force_counts_are_not_trivial(brute3) -> None:
    # the reference itself: the parts are non-trivial sets on 3x3
    sizes = {name: len(found) for name, found in brute3.items()}
    assert 0 < sizes["glyph+stuck"] < sizes["glyph"] < 3**9
    assert sizes["static-draw"] > 0 and sizes["plain"] == 0
    assert sizes["fill"] == 0  # a stuck glyph-free board is full


@pytest.mark.parametrize("name", ["glyph", "glyph+stuck", "nopath", "static-draw", "fill"])
def test_parts_on_sampled_4x4_boards(name) -> None:
    """n = 4: the solver under assumptions agrees with brute force on sampled boards."""
    options, pred = PREDICATES[name]
    enc = sat.encode(4, options)
    rng = random.Random(4)
    samples = []
    for _ in range(400):
        fill = rng.random()
        samples.append(tuple(E if rng.random() > fill else rng.choice((B, W))
                             for _ in range(16)))
    # boards near the interesting ones: full boards and full boards with one hole
    for _ in range(200):
        b = [rng.choice((B, W)) for _ in range(16)]
        if rng.random() < 0.5:
            b[rng.randrange(16)] = E
        samples.append(tuple(b))
    agree = positives = 0
    with Solver(name="cadical195", bootstrap_with=enc.clauses) as s:
        for b in samples:
            want = pred(b, 4)
            positives += want
            assert s.solve(assumptions=enc.assumptions(b)) == want, sat.board_fen(b, 4)
            agree += 1
    assert agree == len(samples)
    if name != "fill":
        assert positives > 0


def test_full_step_on_every_full_4x4_board() -> None:
    for options, lemma in ((sat.Options(lemmas=(), parts=("nopath",), fill="full"), False),
                           (sat.fast_steps(4)[1][1], True)):
        expected = set()
        for bits in range(1 << 16):
            b = tuple(B if bits >> p & 1 else W for p in range(16))
            if no_path(b, 4) and not (lemma and has_crosscut(b, 4)):
                expected.add(b)
        found = set(sat.iter_boards(sat.encode(4, options)))
        if lemma:  # symmetry breaking keeps one board per orbit at least: here none at all
            assert found == expected == set()
        else:
            assert found == expected and len(found) > 0


def _orbit(board, n):
    return frozenset(sat.transform_board(n, board, s) for s in sat.SYMMETRIES)


@pytest.mark.parametrize("base", [
    sat.Options(lemmas=()),
    sat.Options(lemmas=(), parts=("glyph", "stuck")),
    sat.Options(lemmas=(), parts=("nopath",), fill="full"),
])
def test_symmetry_breaking_keeps_every_orbit(base) -> None:
    n = 3
    plain = set(sat.iter_boards(sat.encode(n, base)))
    broken = set(sat.iter_boards(sat.encode(n, sat.with_options(base, symmetry=n * n))))
    assert broken <= plain
    assert {_orbit(b, n) for b in broken} == {_orbit(b, n) for b in plain}
    assert len(broken) < len(plain)
    # the predicate is invariant under the 8 symmetries (what makes this sound)
    assert all(_orbit(b, n) <= plain for b in plain)


def test_split_and_plain_agree_on_small_sizes() -> None:
    for n in range(2, 8):
        assert sat.solve(sat.encode(n, sat.PLAIN)).result == "unsat"
        assert [sat.solve(sat.encode(n, o)).result for _, o in sat.fast_steps(n)] == [
            "unsat", "unsat"]


def test_cubes_cover_everything() -> None:
    enc = sat.encode(3, sat.Options(lemmas=()))
    total = set(sat.iter_boards(enc))
    parts: set = set()
    for cube in sat.cubes(3, 2):
        fixed = sat.Encoding(3, enc.options, enc.clauses + [[lit] for lit in
                                                            sat.cube_assumptions(enc, cube)],
                             enc.nvars)
        parts |= set(sat.iter_boards(fixed))
    assert parts == total


# ---------------------------------------------------------------------------
# the lemma and the weakened encoding
# ---------------------------------------------------------------------------


def test_crosscut_lemma_on_every_reachable_position() -> None:
    for n in (2, 3):
        result = enumerate_reachable(n)
        assert result.glyph_violations == 0
        assert result.lemma_violations == 0
        assert result.dead == 0


def test_weakened_encoding_finds_unreachable_static_draws() -> None:
    """Without the lemma, n = 3 has static "draws"; none is reachable."""
    weak = sat.encode(3, sat.Options(lemmas=()))
    candidates = list(sat.iter_boards(weak))
    assert candidates
    for board in candidates:
        assert has_crosscut(board, 3)  # what the lemma excludes
        assert reach_search(sat.board_fen(board, 3)).line is None
    # the automatic candidate loop excludes them one by one and reaches UNSAT
    outcome = _handle_candidate(3, "cadical195", sat.Options(lemmas=()), limit=1000)
    assert outcome["holds"] is True and outcome["counterexample"] is None
    assert sorted(e["board"] for e in outcome["excluded"]) == sorted(
        sat.board_fen(b, 3) for b in candidates)
    assert _handle_candidate(3, "cadical195")["excluded"] == []  # plain has the lemma


def test_reach_search_finds_real_games() -> None:
    # a position from a real game is found, with a legal line
    from boardproof.models import get

    game = get("minefield")
    pos = game.start(size=4, pie=False)
    rng = random.Random(1)
    for _ in range(6):
        moves = [m for m in pos.legal_moves() if str(m) != "pass"]
        if not moves or pos.outcome() is not None:
            break
        pos = pos.play(rng.choice(moves))
    rows = pos.fen().split()[0]
    line = reach_search(rows).line
    assert line is not None
    replay = game.start(size=4, pie=False)
    for text in line:
        replay = replay.play(replay.parse_move(text))
    assert replay.fen().split()[0] == rows


def test_exhaustive_counts_match_an_unreduced_walk() -> None:
    from boardproof.models import get

    for n in (2, 3):
        start = get("minefield").start(size=n)
        seen = {start.key()}
        todo = [start]
        while todo:
            pos = todo.pop()
            for move in pos.legal_moves():
                nxt = pos.play(move)
                if nxt.key() not in seen:
                    seen.add(nxt.key())
                    todo.append(nxt)
        assert enumerate_reachable(n).positions_unreduced == len(seen)


@pytest.mark.long
def test_exhaustive_n4() -> None:
    result = enumerate_reachable(4)
    assert result.dead == 0 and result.lemma_violations == 0
    assert result.orthodiagonal_failures == 0


# ---------------------------------------------------------------------------
# DRUP proofs
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5])
def test_drup_proofs_check(n, tmp_path) -> None:
    for _, options in [("plain", sat.PLAIN), *sat.fast_steps(n)]:
        enc = sat.encode(n, options)
        result = sat.solve(enc, proof_file=tmp_path / "p.drup")
        assert result.result == "unsat"
        verdict = drat.check_files(enc.clauses, tmp_path / "p.drup")
        assert verdict.ok, verdict.message
        # the proof does not prove a weaker formula: drop the stuck part
        if options == sat.PLAIN:
            weaker = [c for c in enc.clauses[: enc.counts["cells"] + enc.counts["glyph"]]]
            assert not drat.check_files(weaker, tmp_path / "p.drup").ok


def test_drup_checker_rejects_bad_proofs() -> None:
    formula = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    assert drat.check(formula, ["2 0", "0"]).ok
    assert not drat.check(formula, ["0"]).ok  # the empty clause is not RUP at once
    assert not drat.check(formula[:3], ["2 0", "0"]).ok  # satisfiable formula
    assert not drat.check(formula, ["2 x"]).ok
    assert drat.check(formula, ["d 1 2 0", "2 0", "0"]).ok is False  # deleted what it needs


def test_diagonal_closure_needs_full_boards_and_the_lemma() -> None:
    with pytest.raises(sat.InvalidOptionError, match="diagonal"):
        sat.Options(diagonal=True)
    with pytest.raises(sat.InvalidOptionError, match="diagonal"):
        sat.Options(lemmas=(), fill="full", diagonal=True)
