"""A small, independent DRUP proof checker (forward RUP checking).

A DRUP proof is a list of lines: ``l1 l2 ... 0`` adds a lemma, ``d l1 ... 0`` deletes
a clause. Forward checking verifies every added lemma by *reverse unit propagation*:
assign the negation of each of its literals, unit-propagate over the formula plus the
lemmas verified so far, and require a conflict. The proof is accepted when the empty
clause is derived (or the formula plus lemmas propagate to a conflict at the end).

The checker shares no code with any SAT solver: two watched literals, a trail, and
nothing else. Deletions are honoured except for clauses that are currently the reason
of a top-level assignment (as drat-trim does); keeping a clause is always sound, since
every clause kept is implied by the formula.

RAT lemmas (extended resolution) are not supported: such a lemma is reported as a
failure, never accepted.

>>> check([[1, 2], [-1, 2], [1, -2], [-1, -2]], ["2 0", "0"]).ok
True
>>> r = check([[1, 2], [-1, 2]], ["-2 0", "0"])   # -2 does not follow
>>> r.ok, r.message
(False, "proof line 1: lemma is not RUP: '-2 0'")
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass
class CheckResult:
    """The verdict: ``ok``, the lemmas checked, and the reason of a failure."""

    ok: bool
    lemmas: int
    deletions: int
    seconds: float
    message: str

    def as_dict(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "lemmas": self.lemmas,
            "deletions": self.deletions,
            "seconds": round(self.seconds, 3),
            "message": self.message,
        }


class _Checker:
    def __init__(self, nvars: int) -> None:
        self.value: list[int] = [0] * (nvars + 1)  # 0 unassigned, 1 true, -1 false
        self.reason: list[int] = [-1] * (nvars + 1)
        self.clauses: list[list[int] | None] = []
        self.watches: dict[int, list[int]] = {}
        self.trail: list[int] = []
        self.head = 0
        self.index: dict[tuple[int, ...], list[int]] = {}
        self.inconsistent = False

    def grow(self, var: int) -> None:
        if var >= len(self.value):
            extra = var + 1 - len(self.value)
            self.value += [0] * extra
            self.reason += [-1] * extra

    def lit_value(self, lit: int) -> int:
        v = self.value[abs(lit)]
        return v if lit > 0 else -v

    def assign(self, lit: int, reason: int) -> None:
        var = abs(lit)
        self.value[var] = 1 if lit > 0 else -1
        self.reason[var] = reason
        self.trail.append(lit)

    def add(self, clause: Sequence[int]) -> None:
        """Add a clause at top level (it is already known to be implied)."""
        lits = list(dict.fromkeys(clause))
        if any(-lit in lits for lit in lits):
            return  # tautology
        for lit in lits:
            self.grow(abs(lit))
        cid = len(self.clauses)
        self.clauses.append(lits)
        self.index.setdefault(tuple(sorted(lits)), []).append(cid)
        if self.inconsistent:
            return
        # order: non-false literals first, so the two watches are the best ones
        lits.sort(key=lambda lit: self.lit_value(lit) == -1)
        if not lits or self.lit_value(lits[0]) == -1:
            self.inconsistent = True
            return
        if len(lits) >= 2:
            for lit in lits[:2]:
                self.watches.setdefault(-lit, []).append(cid)
        if len(lits) == 1 or self.lit_value(lits[1]) == -1:
            if self.lit_value(lits[0]) == 0:
                self.assign(lits[0], cid)
            if not self.propagate():
                self.inconsistent = True

    def delete(self, clause: Sequence[int]) -> bool:
        key = tuple(sorted(dict.fromkeys(clause)))
        ids = self.index.get(key)
        if not ids:
            return False
        cid = ids[-1]
        lits = self.clauses[cid]
        assert lits is not None
        for lit in lits:
            if self.reason[abs(lit)] == cid and self.lit_value(lit) == 1:
                return False  # a reason at top level: keep it (sound)
        ids.pop()
        self.clauses[cid] = None
        return True

    def propagate(self) -> bool:
        """Unit propagation from the trail head; False on a conflict."""
        value = self.value
        clauses = self.clauses
        watches = self.watches
        while self.head < len(self.trail):
            lit = self.trail[self.head]
            self.head += 1
            false_lit = -lit
            watching = watches.get(lit)  # clauses watching false_lit are keyed by -false_lit
            if not watching:
                continue
            keep: list[int] = []
            i = 0
            conflict = False
            while i < len(watching):
                cid = watching[i]
                i += 1
                c = clauses[cid]
                if c is None:
                    continue
                if c[0] == false_lit:
                    c[0], c[1] = c[1], c[0]
                first = c[0]
                fv = value[abs(first)]
                if (fv if first > 0 else -fv) == 1:
                    keep.append(cid)
                    continue
                for k in range(2, len(c)):
                    other = c[k]
                    ov = value[abs(other)]
                    if (ov if other > 0 else -ov) != -1:
                        c[1], c[k] = c[k], c[1]
                        watches.setdefault(-c[1], []).append(cid)
                        break
                else:
                    keep.append(cid)
                    if (fv if first > 0 else -fv) == -1:
                        conflict = True
                        keep.extend(watching[i:])
                        break
                    self.assign(first, cid)
            watches[lit] = keep
            if conflict:
                return False
        return True

    def rup(self, lemma: Sequence[int]) -> bool:
        """Whether ``lemma`` follows by unit propagation (state restored afterwards)."""
        if self.inconsistent:
            return True
        mark = len(self.trail)
        head = self.head
        ok = False
        for lit in lemma:
            self.grow(abs(lit))
            v = self.lit_value(lit)
            if v == 1:
                ok = True
                break
            if v == 0:
                self.assign(-lit, -1)
        if not ok:
            ok = not self.propagate()
        for lit in self.trail[mark:]:
            self.value[abs(lit)] = 0
            self.reason[abs(lit)] = -1
        del self.trail[mark:]
        self.head = min(head, mark)
        return ok


def check(formula: Iterable[Sequence[int]], proof: Iterable[str]) -> CheckResult:
    """Check a DRUP ``proof`` (text lines) of the unsatisfiability of ``formula``."""
    began = time.perf_counter()
    clauses = [list(c) for c in formula]
    nvars = max((abs(lit) for c in clauses for lit in c), default=0)
    checker = _Checker(nvars)
    for c in clauses:
        checker.add(c)
    lemmas = deletions = 0
    for number, line in enumerate(proof, start=1):
        text = line.strip()
        if not text or text.startswith("c"):
            continue
        deleting = text.startswith("d")
        if deleting:
            text = text[1:]
        try:
            lits = [int(tok) for tok in text.split()]
        except ValueError:
            return CheckResult(False, lemmas, deletions, time.perf_counter() - began,
                               f"proof line {number}: not a clause: {line!r}")
        if not lits or lits[-1] != 0:
            return CheckResult(False, lemmas, deletions, time.perf_counter() - began,
                               f"proof line {number}: missing the final 0: {line!r}")
        lits.pop()
        if deleting:
            deletions += checker.delete(lits)
            continue
        lemmas += 1
        if not checker.rup(lits):
            return CheckResult(False, lemmas, deletions, time.perf_counter() - began,
                               f"proof line {number}: lemma is not RUP: {line.strip()!r}")
        if not lits:
            return CheckResult(True, lemmas, deletions, time.perf_counter() - began,
                               "empty clause derived")
        checker.add(lits)
    if checker.inconsistent or checker.rup([]):
        return CheckResult(True, lemmas, deletions, time.perf_counter() - began,
                           "conflict by unit propagation at the end")
    return CheckResult(False, lemmas, deletions, time.perf_counter() - began,
                       "the proof ends without a conflict")


def check_files(formula: Iterable[Sequence[int]], proof_file: str | Path) -> CheckResult:
    """Check the DRUP proof stored in ``proof_file``."""
    with Path(proof_file).open(encoding="ascii") as handle:
        return check(formula, handle)
