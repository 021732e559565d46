"""A second, independent SAT solver to re-solve a formula (the no-draw fill step).

The main solver is CaDiCaL (python-sat). The second opinion comes from code that
shares nothing with it: CryptoMiniSat through ``pycryptosat`` (PyPI), or another
python-sat back end (Glucose 4, MiniSat 2.2). Like the main one, it runs in a child
process (:mod:`boardproof.solvers.sat.child`): pycryptosat's own SIGINT handler would
otherwise turn a Ctrl-C into a solve without an answer. A model returned by a second solver is
checked against every clause here, so a "sat" answer is never taken on trust either.

>>> resolve([[1, 2], [-1, 2], [1, -2], [-1, -2]], "cryptominisat")["result"]
'unsat'
>>> r = resolve([[1, 2], [-1, 2]], "glucose4"); r["result"], r["model_checked"]
('sat', True)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from boardproof.models.base import InvalidOptionError
from boardproof.solvers.sat.child import open_solver
from boardproof.solvers.sat.solving import run_solver

#: second solvers by name: ``cryptominisat`` (pycryptosat) or a python-sat back end
SECOND_SOLVERS = ("cryptominisat", "glucose4", "minisat22")


def check_second(name: str) -> str:
    """Validate a second-solver name."""
    if name not in SECOND_SOLVERS:
        raise InvalidOptionError(
            f"invalid option second_solver: expected one of {', '.join(SECOND_SOLVERS)}, "
            f"got {name!r}"
        )
    return name


def solver_label(name: str) -> str:
    """The solver and its version, e.g. ``'CryptoMiniSat 5.x (pycryptosat 5.17.0)'``."""
    if name == "cryptominisat":
        import pycryptosat

        return f"CryptoMiniSat (pycryptosat {pycryptosat.__version__})"
    import pysat

    return f"{name} (python-sat {pysat.__version__})"


def resolve(clauses: Sequence[Sequence[int]], name: str) -> dict[str, Any]:
    """Solve ``clauses`` with the second solver ``name``: result, seconds, label."""
    check_second(name)
    began = time.perf_counter()
    with open_solver(name, clauses) as s:
        sat = run_solver(s)
        model = list(s.get_model() or []) if sat else []
    seconds = time.perf_counter() - began
    out: dict[str, Any] = {"solver": name, "name": solver_label(name),
                           "result": "sat" if sat else "unsat", "seconds": round(seconds, 3)}
    if sat:
        true = set(model)
        out["model_checked"] = all(any(lit in true for lit in c) for c in clauses)
    return out
