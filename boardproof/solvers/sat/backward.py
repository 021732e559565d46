"""The project's own fast DRUP checker: backward checking in C (``native/drup.c``).

The forward checker (:mod:`boardproof.solvers.sat.drat`) verifies every lemma in order;
this one first runs the proof forward with unit propagation only, stops at the first
conflict, marks that conflict's antecedents, then walks the proof backward and checks
by reverse unit propagation only the lemmas that are marked (the *used core*), marking
their own antecedents in turn (two watched literals, deletions honoured, as drat-trim's
backward mode). It shares no code with any SAT solver, nor with the forward checker.

``variant`` selects a deliberately broken checker for the tests: ``"trust lemmas"``
never checks a lemma, ``"no reasons"`` does not mark the reasons of implied literals.

>>> check([[1, 2], [-1, 2], [1, -2], [-1, -2]], ["2 0", "0"]).ok
True
>>> r = check([[1, 2], [-1, 2]], ["-2 0", "0"])   # satisfiable: -2 does not follow
>>> r.ok, r.message
(False, 'proof step 1: lemma is not RUP (1 literals)')
>>> check([[1, 2], [-1, 2]], ["-2 0", "0"], variant="trust lemmas").ok   # broken: accepts
True
"""

from __future__ import annotations

import gzip
import time
import zlib
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:  # the compiled module is optional (no C compiler: the package installs without it)
    from boardproof.solvers.sat import _drup  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _drup = None

#: the broken variants (for tests only), by name
VARIANTS = {"checker": 0, "trust lemmas": 1, "no reasons": 2}
#: the checker's name in reports
NAME = "boardproof.solvers.sat.backward (backward RUP, C)"


@dataclass
class BackwardResult:
    """The verdict, the reason, and counts: lemmas read, lemmas checked (the core)."""

    ok: bool
    message: str
    seconds: float
    stats: dict[str, int] = field(default_factory=dict)

    @property
    def lemmas(self) -> int:
        return int(self.stats.get("lemmas", 0))

    @property
    def checked(self) -> int:
        return int(self.stats.get("checked", 0))


def available() -> bool:
    """Whether the C checker was built."""
    return _drup is not None


def formula_array(formula: Iterable[Sequence[int]]) -> array:
    """The clauses as one C-int array, each clause followed by 0."""
    flat = array("i")
    for clause in formula:
        flat.extend(clause)
        flat.append(0)
    return flat


def check_bytes(formula: Iterable[Sequence[int]], proof: bytes,
                variant: str = "checker") -> BackwardResult:
    """Check a DRUP ``proof`` (its text as bytes) of the unsatisfiability of ``formula``.

    A proof that is not DRUP text is rejected (``ok`` False), never an exception.
    """
    if _drup is None:  # pragma: no cover - depends on the build
        raise RuntimeError("the native DRUP checker is not built (no C compiler at install)")
    began = time.perf_counter()
    flat = formula_array(formula)
    try:
        ok, message, stats = _drup.check(flat.tobytes(), proof, VARIANTS[variant])
    except ValueError as error:
        return BackwardResult(False, f"not a DRUP proof: {error}", time.perf_counter() - began)
    return BackwardResult(bool(ok), str(message), time.perf_counter() - began, dict(stats))


def check(formula: Iterable[Sequence[int]], proof: Iterable[str],
          variant: str = "checker") -> BackwardResult:
    """Check a DRUP proof given as text lines."""
    return check_bytes(formula, "\n".join(proof).encode("ascii") + b"\n", variant)


def read_proof(path: str | Path) -> bytes:
    """The text of a proof file, gzip-compressed or not."""
    data = Path(path).read_bytes()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def check_file(formula: Iterable[Sequence[int]], path: str | Path,
               variant: str = "checker") -> BackwardResult:
    """Check the proof stored in ``path`` (reading and decompressing it is timed too)."""
    began = time.perf_counter()
    try:
        proof = read_proof(path)
    except (OSError, EOFError, zlib.error) as error:
        return BackwardResult(False, f"not a DRUP proof: {error}", time.perf_counter() - began)
    result = check_bytes(formula, proof, variant)
    result.seconds = time.perf_counter() - began
    return result


def as_dict(result: BackwardResult) -> dict[str, Any]:
    """The JSON record of a check."""
    return {"ok": result.ok, "message": result.message,
            "seconds": round(result.seconds, 3), **result.stats}
