"""The project's backward DRUP checker (C) against brute force, the forward checker and
dratify, on random small formulas: it accepts the solver's real proofs, never accepts a
"proof" of a satisfiable formula (brute force decides satisfiability), accepts whatever
the forward checker accepts, and deliberately broken variants of it fail these tests."""

from __future__ import annotations

import itertools
import random

import pytest
from pysat.solvers import Solver

from boardproof.solvers.sat import backward, certify, drat

pytestmark = pytest.mark.skipif(not backward.available(), reason="C checker not built")


def _random_cnf(rng: random.Random, nvars: int, nclauses: int) -> list[list[int]]:
    return [[rng.choice((-1, 1)) * v for v in rng.sample(range(1, nvars + 1), 3)]
            for _ in range(nclauses)]


def _satisfiable(clauses: list[list[int]], nvars: int) -> bool:
    for bits in itertools.product((False, True), repeat=nvars):
        if all(any(bits[abs(lit) - 1] == (lit > 0) for lit in c) for c in clauses):
            return True
    return False


def _proof(clauses: list[list[int]]) -> list[str]:
    with Solver(name="cadical195", bootstrap_with=clauses, with_proof=True) as s:
        assert s.solve() is False
        return list(s.get_proof())


def _cases(seed: int, count: int) -> list[tuple[list[list[int]], int, list[str]]]:
    """Random UNSAT 3-CNFs (8-10 variables, beyond the threshold) with CaDiCaL's proofs."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        nvars = rng.randint(8, 10)
        clauses = _random_cnf(rng, nvars, int(5.5 * nvars))
        if _satisfiable(clauses, nvars):
            continue
        out.append((clauses, nvars, _proof(clauses)))
    return out


CASES = _cases(1, 25)


def _tampered(rng: random.Random, proof: list[str], nvars: int) -> list[str]:
    """The proof with one random change: a line dropped, a literal flipped or removed,
    a random clause inserted, or a deletion moved to the front."""
    lines = list(proof)
    i = rng.randrange(len(lines))
    kind = rng.randrange(4)
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lits = lines[i].split()
        body = [t for t in lits if t not in ("d", "0")]
        if body:
            j = rng.randrange(len(body))
            body[j] = str(-int(body[j])) if rng.random() < 0.5 else ""
            lines[i] = " ".join(([lits[0]] if lits[0] == "d" else []) + [t for t in body if t]
                                + ["0"])
    elif kind == 2:
        clause = [rng.choice((-1, 1)) * v for v in rng.sample(range(1, nvars + 1), 2)]
        lines.insert(i, " ".join(map(str, clause)) + " 0")
    else:
        lines.insert(0, "d " + lines[i].lstrip("d ").strip())
    return lines


def test_real_proofs_accepted_by_every_checker(tmp_path) -> None:
    for k, (clauses, nvars, proof) in enumerate(CASES):
        result = backward.check(clauses, proof)
        assert result.ok, (k, result.message)
        assert 0 < result.checked <= result.lemmas
        assert drat.check(clauses, proof).ok
        path = tmp_path / f"p{k}.drup.gz"
        certify.write_proof(proof, path)
        assert certify.check_dratify(clauses, nvars, path)["ok"]
        assert backward.check_file(clauses, path).ok


def _satisfiable_offers(seed: int) -> list[tuple[list[list[int]], list[str]]]:
    """Real proofs offered for satisfiable formulas: each UNSAT formula with clauses
    dropped until brute force finds it satisfiable; and random junk proofs."""
    rng = random.Random(seed)
    out = []
    for clauses, nvars, proof in CASES:
        weak = list(clauses)
        while not _satisfiable(weak, nvars):
            del weak[rng.randrange(len(weak))]
        out.append((weak, proof))
        out.append((weak, [*_tampered(rng, proof, nvars), "0"]))
        junk = [" ".join(map(str, [rng.choice((-1, 1)) * v
                                   for v in rng.sample(range(1, nvars + 1), rng.randint(1, 3))]))
                + " 0" for _ in range(rng.randint(1, 30))]
        out.append((weak, [*junk, "0"]))
    return out


OFFERS = _satisfiable_offers(2)


def _accepted(variant: str) -> int:
    return sum(backward.check(weak, proof, variant).ok for weak, proof in OFFERS)


def test_no_proof_of_a_satisfiable_formula_is_accepted() -> None:
    assert _accepted("checker") == 0


def test_the_broken_variants_accept_some() -> None:
    # the test above can fail: a checker that trusts lemmas accepts bad proofs
    assert _accepted("trust lemmas") > 0
    # one that does not follow the reasons of implied literals accepts this one: the
    # bogus unit -3 is used only as the reason of -2, which makes (1 2) and (-1 2) clash
    formula, proof = [[1, 2], [-1, 2], [-2, 3]], ["-3 0", "0"]
    assert _satisfiable(formula, 3)
    assert backward.check(formula, proof, "no reasons").ok
    assert not backward.check(formula, proof).ok
    assert not drat.check(formula, proof).ok


def test_whatever_the_forward_checker_accepts_backward_accepts() -> None:
    """On tampered proofs of UNSAT formulas either verdict is sound, but a proof whose
    every lemma is RUP in order (forward accepts) must pass the backward check too."""
    rng = random.Random(3)
    both = only_backward = 0
    for clauses, nvars, proof in CASES:
        for _ in range(8):
            lines = _tampered(rng, proof, nvars)
            fwd, bwd = drat.check(clauses, lines).ok, backward.check(clauses, lines).ok
            assert bwd or not fwd, lines
            both += fwd and bwd
            only_backward += bwd and not fwd  # an unused bad lemma: backward skips it
    assert both > 0


def test_bad_input_is_a_rejection_not_a_crash() -> None:
    formula = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    for proof in (["2 x 0", "0"], ["2 0", "0 1"], ["- 0"], ["d"], ["2"]):
        result = backward.check(formula, proof)
        assert not result.ok and result.message.startswith("not a DRUP proof"), proof
    assert backward.check(formula, ["c a comment", "2 0", "d 1 2 0", "0"]).ok
    assert not backward.check(formula, []).ok  # no conflict without lemmas
    assert backward.check([*formula, []], []).ok  # an empty clause in the formula


def test_deletions_are_honoured() -> None:
    formula = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    assert backward.check(formula, ["2 0", "0"]).ok
    # with (1 -2) and (-1 -2) deleted, 2 still follows but no conflict does
    assert not backward.check(formula, ["d 1 -2 0", "d -1 -2 0", "2 0", "0"]).ok
    assert not drat.check(formula, ["d 1 -2 0", "d -1 -2 0", "2 0", "0"]).ok
    # a deleted clause that is the reason of a top-level literal is kept (sound: it is
    # implied): 2 stays true, so 3 follows, and then the conflict
    kept = [[1], [-1, 2], [-2, 3, 4], [-3, 4], [3, -4], [-3, -4]]
    assert backward.check(kept, ["d -1 2 0", "3 0", "0"]).ok
