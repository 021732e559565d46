"""Certificates of UNSAT answers: compressed DRUP proofs and two independent checkers.

A SAT solver's "unsatisfiable" is a claim; its DRUP proof (every learnt clause, every
deletion) is the certificate. This module stores a proof gzip-compressed (deterministic
bytes: no name, no time stamp), publishes its size and SHA-256, and checks it with
checkers that share no code with the solver (CaDiCaL):

- ``dratify``: the registry DRAT checker (PyPI ``dratify``, forward RUP/RAT checking),
  on its Rust engine when ``cdclkit-native`` is installed, else its pure-Python one;
- ``backward``: the project's own backward checker in C
  (:mod:`boardproof.solvers.sat.backward`: checks only the lemmas the final conflict
  uses), fast enough for every size;
- ``boardproof``: the project's own forward RUP checker in pure Python
  (:mod:`boardproof.solvers.sat.drat`), slow, used on small sizes, where all of them
  must agree.

>>> import tempfile, pathlib
>>> formula = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
>>> path = pathlib.Path(tempfile.mkdtemp()) / "p.drup.gz"
>>> info = write_proof(["2 0", "0"], path)
>>> info["lines"], len(info["sha256"])
(2, 64)
>>> [c["ok"] for c in check(formula, 2, path, checkers=CHECKERS)]
[True, True, True]
>>> sat_formula = [[1, 2], [-1, 2]]                # satisfiable: no proof exists
>>> bad = write_proof(["-2 0", "0"], path)         # -2 does not follow
>>> [c["ok"] for c in check(sat_formula, 2, path, checkers=CHECKERS)]
[False, False, False]
"""

from __future__ import annotations

import gzip
import hashlib
import io
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from boardproof.solvers.sat import backward, drat

#: the checkers, by name (see the module docstring)
CHECKERS = ("dratify", "backward", "boardproof")
#: proofs are read this many lines at a time (dratify parses each chunk)
_CHUNK = 200_000


def write_proof(lines: Iterable[str], path: str | Path) -> dict[str, Any]:
    """Write proof ``lines`` gzip-compressed (reproducible bytes); size, lines, SHA-256."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    count = raw = 0
    with target.open("wb") as handle, gzip.GzipFile(
            filename="", mode="wb", fileobj=handle, mtime=0, compresslevel=6) as gz:
        for line in lines:
            data = (line + "\n").encode("ascii")
            gz.write(data)
            count += 1
            raw += len(data)
    return {"file": str(target), "lines": count, "bytes": raw,
            "compressed_bytes": target.stat().st_size, "sha256": sha256(target)}


def sha256(path: str | Path) -> str:
    """The SHA-256 of a file, in hex."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_lines(path: str | Path) -> Iterator[str]:
    """The text lines of a proof file, compressed (``.gz``) or not."""
    target = Path(path)
    raw = target.open("rb")
    with raw:
        head = raw.read(2)
        raw.seek(0)
        stream: Any = gzip.GzipFile(fileobj=raw) if head == b"\x1f\x8b" else raw
        yield from io.TextIOWrapper(stream, encoding="ascii")


def dratify_name() -> str:
    """The registry checker and its engine, e.g. ``'dratify 0.1.10 (rust engine ...)'``."""
    import dratify

    _register_native()
    engine = "pure-Python engine"
    if dratify.native_available():
        import cdclkit_native

        engine = f"Rust engine from cdclkit-native {cdclkit_native.__version__}"
    return f"dratify {dratify.__version__} ({engine})"


def _register_native() -> None:
    import dratify

    if dratify.native_available():
        return
    try:
        import cdclkit_native
    except ImportError:
        return
    dratify.register_native(cdclkit_native)


def check_dratify(formula: Sequence[Sequence[int]], nvars: int,
                  path: str | Path) -> dict[str, Any]:
    """Check the proof in ``path`` with ``dratify`` (native engine when present)."""
    import dratify

    _register_native()
    began = time.perf_counter()
    cnf = dratify.CNF(nvars)
    for clause in formula:
        cnf.add([dratify.from_dimacs(lit) for lit in clause])
    steps: list[Any] = []
    chunk: list[str] = []
    try:
        for line in read_lines(path):
            chunk.append(line)
            if len(chunk) >= _CHUNK:
                steps += dratify.parse_proof("".join(chunk))
                chunk = []
        steps += dratify.parse_proof("".join(chunk))
        result = dratify.check_proof(cnf, steps)
    except (ValueError, OSError, EOFError, UnicodeDecodeError) as error:  # not a proof
        return _verdict("dratify", False, 0, began, f"not a DRUP proof: {error}")
    del steps
    ok = bool(result.ok and result.reached_empty)
    return _verdict("dratify", ok, int(result.steps), began, str(result.reason))


def check_own(formula: Sequence[Sequence[int]], path: str | Path) -> dict[str, Any]:
    """Check the proof in ``path`` with the project's forward RUP checker."""
    began = time.perf_counter()
    try:
        result = drat.check(formula, read_lines(path))
    except (ValueError, OSError, EOFError, UnicodeDecodeError) as error:  # not a proof
        return _verdict("boardproof", False, 0, began, f"not a DRUP proof: {error}")
    return _verdict("boardproof", result.ok, result.lemmas, began, result.message)


def check_backward(formula: Sequence[Sequence[int]], path: str | Path) -> dict[str, Any]:
    """Check the proof in ``path`` with the project's backward checker (C).

    ``steps`` counts the lemmas it checked (the used core); ``lemmas`` those it read.
    """
    began = time.perf_counter()
    result = backward.check_file(formula, path)
    out = _verdict("backward", result.ok, result.checked, began, result.message)
    out["lemmas"] = result.lemmas
    out["core_clauses"] = int(result.stats.get("core_clauses", 0))
    return out


_LABELS = {"boardproof": "boardproof.solvers.sat.drat (forward RUP)",
           "backward": backward.NAME}


def _verdict(name: str, ok: bool, steps: int, began: float, message: str) -> dict[str, Any]:
    label = dratify_name() if name == "dratify" else _LABELS[name]
    return {"checker": name, "name": label, "ok": ok, "steps": steps,
            "seconds": round(time.perf_counter() - began, 3), "message": message}


def check(formula: Sequence[Sequence[int]], nvars: int, path: str | Path,
          checkers: Sequence[str] = ("dratify",)) -> list[dict[str, Any]]:
    """Run each named checker on the proof in ``path``; one verdict per checker."""
    out = []
    for name in checkers:
        if name == "dratify":
            out.append(check_dratify(formula, nvars, path))
        elif name == "boardproof":
            out.append(check_own(formula, path))
        elif name == "backward":
            out.append(check_backward(formula, path))
        else:
            raise ValueError(f"unknown checker: {name!r}")
    return out


def certificate(formula: Sequence[Sequence[int]], nvars: int, path: str | Path,
                checkers: Sequence[str] = ("dratify",)) -> dict[str, Any]:
    """The certificate record of a report row: the proof file, its hash, every verdict.

    ``ok``: every checker accepted; ``agree``: every checker gave the same verdict;
    ``lemmas`` and ``seconds`` are the first checker's (the proof's steps, its time).
    """
    target = Path(path)
    verdicts = check(formula, nvars, target, checkers)
    return with_checks({
        "format": "DRUP (gzip)",
        "file": str(target),
        "compressed_bytes": target.stat().st_size,
        "sha256": sha256(target),
    }, verdicts)


def with_checks(cert: dict[str, Any], verdicts: list[dict[str, Any]]) -> dict[str, Any]:
    """``cert`` with these verdicts and the summary fields that depend on them.

    >>> c = with_checks({}, [{"name": "a", "ok": True, "steps": 3, "seconds": 1.0}])
    >>> c = with_checks(c, c["checks"] + [{"name": "b", "ok": False, "steps": 0,
    ...                                    "seconds": 0.1}])
    >>> c["checker"], c["ok"], c["agree"], c["lemmas"]
    ('a + b', False, False, 3)
    """
    return {
        **cert,
        "checker": " + ".join(v["name"] for v in verdicts),
        "checks": verdicts,
        "ok": all(v["ok"] for v in verdicts),
        "agree": len({v["ok"] for v in verdicts}) == 1,
        "lemmas": verdicts[0]["steps"] if verdicts else 0,
        "seconds": verdicts[0]["seconds"] if verdicts else 0.0,
    }
