"""Running a SAT solver for the game encodings: solver names, Ctrl-C, DRUP proofs.

Game-agnostic plumbing of the SAT encodings (Minefield's among them): which python-sat
back ends may be asked for (:data:`SOLVERS`, :data:`PROOF_SOLVERS` for DRUP proofs), a
solve that turns python-sat's own interrupt into :class:`KeyboardInterrupt`, and the
proof written from inside the solver's process.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from boardproof.models.base import InvalidOptionError

#: the SAT backends offered (python-sat names); the first is the default
SOLVERS = ("cadical195", "cadical153", "glucose4", "lingeling", "minisat22", "kissat404")
PROOF_SOLVERS = ("cadical195", "cadical153", "glucose4", "lingeling")


def run_solver(s: Any, assumptions: Sequence[int] = ()) -> bool:
    """``s.solve(assumptions)``, with Ctrl-C raised as :class:`KeyboardInterrupt`.

    ``s`` comes from :func:`~boardproof.solvers.sat.child.open_solver`: a solver in a
    child process, which no signal reaches (Ctrl-C interrupts the wait for it), or a
    small one solved here without python-sat's handler. A python-sat solver called in
    the main thread turns SIGINT into its own ``pysolvers.error`` ("Caught keyboard
    interrupt"); the command line must see a plain interrupt (exit 130).
    """
    try:
        return bool(s.solve(assumptions=list(assumptions)))
    except Exception as error:
        if "keyboard interrupt" in str(error).lower():
            raise KeyboardInterrupt from None
        raise


def save_proof(s: Any, proof_file: str) -> int:
    """Write the solver's DRUP proof to ``proof_file`` (``.gz``: gzip); its line count.

    Run in the solver's process (``s.call(save_proof, path)``, see
    :meth:`~boardproof.solvers.sat.child.ChildSolver.call`): a proof of millions of
    lines never goes through the pipe.
    """
    proof = s.get_proof() or []
    path = Path(proof_file)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".gz":  # compressed, reproducible bytes
        from boardproof.solvers.sat.certify import write_proof

        write_proof(proof, path)
    else:
        with path.open("w", encoding="ascii") as handle:
            for line in proof:
                handle.write(line + "\n")
    return len(proof)


def check_solver(name: str, proof: bool = False) -> str:
    """Validate a solver name (``proof``: it must log DRUP proofs)."""
    allowed = PROOF_SOLVERS if proof else SOLVERS
    if name not in allowed:
        raise InvalidOptionError(
            f"invalid solver: expected one of {', '.join(allowed)}, got {name!r}"
        )
    return name
