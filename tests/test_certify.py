"""Certificates of the no-draw fill step: every checker (dratify, our backward and forward
checkers) accepts real proofs, they agree, and all reject tampered proofs and "proofs" of
satisfiable formulas; the second solver agrees."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from boardproof.models.minefield.proofs import sat
from boardproof.solvers.sat import certify, second


def _fill(n: int) -> sat.Encoding:
    return sat.encode(n, sat.fast_steps(n)[0][1])


def _proof(n: int, tmp_path: Path) -> tuple[sat.Encoding, Path]:
    enc = _fill(n)
    path = tmp_path / f"n{n}.drup.gz"
    assert sat.solve(enc, proof_file=path).result == "unsat"
    return enc, path


def _lines(path: Path) -> list[str]:
    return [line.rstrip("\n") for line in certify.read_lines(path)]


def test_proof_file_is_reproducible(tmp_path: Path) -> None:
    enc, path = _proof(4, tmp_path)
    again = certify.write_proof(_lines(path), tmp_path / "again.drup.gz")
    assert again["sha256"] == certify.sha256(path)
    assert gzip.decompress(path.read_bytes()).decode().count("\n") == again["lines"]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_both_checkers_accept_and_agree(n: int, tmp_path: Path) -> None:
    enc, path = _proof(n, tmp_path)
    cert = certify.certificate(enc.clauses, enc.nvars, path, certify.CHECKERS)
    assert cert["ok"] and cert["agree"]
    assert [c["checker"] for c in cert["checks"]] == ["dratify", "backward", "boardproof"]
    dratify, backward, forward = cert["checks"]
    assert dratify["steps"] >= forward["steps"] > 0  # lemmas (+ deletions)
    assert 0 < backward["steps"] <= backward["lemmas"] <= forward["steps"]  # the used core


def _all_rejected(verdicts: list[dict]) -> bool:
    return [v["ok"] for v in verdicts] == [False] * len(certify.CHECKERS)


@pytest.mark.long
@pytest.mark.parametrize("n", [6, 7, 8])
def test_all_checkers_agree_up_to_8(n: int, tmp_path: Path) -> None:
    enc, path = _proof(n, tmp_path)
    cert = certify.certificate(enc.clauses, enc.nvars, path, certify.CHECKERS)
    assert cert["ok"] and cert["agree"]


def _rewrite(path: Path, lines: list[str]) -> Path:
    out = path.with_name("tampered.drup.gz")
    certify.write_proof(lines, out)
    return out


def test_tampered_proofs_rejected_by_both(tmp_path: Path) -> None:
    enc, path = _proof(5, tmp_path)
    lines = _lines(path)
    lemmas = [i for i, line in enumerate(lines) if line and not line.startswith("d")]
    # 1. a clause that does not follow (a single board literal) inserted first
    bogus = _rewrite(path, ["1 0", *lines])
    # 2. the proof cut before its end: no empty clause, no final conflict
    cut = path.with_name("cut.drup.gz")
    certify.write_proof(lines[: lemmas[len(lemmas) // 2]], cut)
    # 3. corrupted bytes of the compressed file
    broken = path.with_name("broken.drup.gz")
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    broken.write_bytes(bytes(data))
    for tampered in (bogus, cut, broken):
        verdicts = certify.check(enc.clauses, enc.nvars, tampered, certify.CHECKERS)
        assert _all_rejected(verdicts), (tampered.name, verdicts)
    # the untouched proof still passes (the tampering, not the set-up, is rejected)
    assert all(v["ok"] for v in certify.check(enc.clauses, enc.nvars, path, certify.CHECKERS))


def test_proof_of_a_satisfiable_formula_rejected(tmp_path: Path) -> None:
    _, path = _proof(3, tmp_path)  # a real refutation of the n = 3 fill step ...
    weak = sat.encode(3, sat.Options(lemmas=()))  # ... offered for a satisfiable formula
    assert sat.solve(weak).result == "sat"
    verdicts = certify.check(weak.clauses, weak.nvars, path, certify.CHECKERS)
    assert _all_rejected(verdicts)
    # and the solver's own "proof" of it (it stops at the model) is no refutation either
    empty = _rewrite(path, [])
    assert _all_rejected(certify.check(weak.clauses, weak.nvars, empty, certify.CHECKERS))


@pytest.mark.parametrize("name", second.SECOND_SOLVERS)
def test_second_solver_agrees_on_fill_steps(name: str) -> None:
    for n in (2, 3, 4, 5):
        assert second.resolve(_fill(n).clauses, name)["result"] == "unsat"
    weak = sat.encode(3, sat.Options(lemmas=()))
    found = second.resolve(weak.clauses, name)
    assert found["result"] == "sat" and found["model_checked"]


def test_second_solver_names_are_checked() -> None:
    with pytest.raises(Exception, match="^invalid option second_solver: "):
        second.check_second("cadical195")
