"""The cost of the Ctrl-C-safe solvers (:mod:`boardproof.solvers.sat.child`: a child
process, or a worker thread below ``SMALL`` clauses; CP-SAT in a thread) against the
solvers called in the main thread as before session 6 (python-sat's own SIGINT handler,
plain ``CpSolver.solve``): the same work both ways, interleaved, best of ``--repeat``.

Usage::

    python benchmarks/sat_child.py                 # fill sweep 2-14, small solves, CP-SAT
    python benchmarks/sat_child.py --sizes 2-16 --repeat 3

Prints a Markdown table (wall seconds; the load average is printed too).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable, Sequence
from typing import Any

from boardproof.models.minefield.proofs import sat
from boardproof.models.minefield.research import claims
from boardproof.solvers.sat import child, second, solving


class MainLocalSolver(child.LocalSolver):
    """The solver as before session 6: python-sat's ``solve`` in the main thread."""

    def solve(self, assumptions: Sequence[int] = ()) -> bool:
        return solving.run_solver(self.solver, assumptions)


def _before(name: str, bootstrap_with: Any = (), with_proof: bool = False) -> Any:
    return MainLocalSolver(name, bootstrap_with, with_proof)


def _timed(fn: Callable[[], object], before: bool) -> float:
    for module in (sat, second):
        module.open_solver = _before if before else child.open_solver  # type: ignore[attr-defined]
    began = time.perf_counter()
    fn()
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="2-14")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--small", type=int, default=200, help="small solves per run")
    args = parser.parse_args()
    lo, hi = (int(x) for x in args.sizes.split("-"))
    encs = [sat.encode(n, dict(claims._step_options(n, "fill"))["fill"])
            for n in range(lo, hi + 1)]
    tiny = sat.encode(3, sat.fast_steps(3)[0][1])
    weak = sat.encode(3, sat.Options(lemmas=()))
    import tempfile

    tmp = tempfile.mkdtemp()

    def sweep() -> None:
        for enc in encs:
            assert sat.solve(enc).result == "unsat"

    def proofs() -> None:
        for enc in encs[:5]:
            sat.solve(enc, proof_file=os.path.join(tmp, f"{enc.n}.drup.gz"))

    def small() -> None:
        for _ in range(args.small):
            sat.solve(tiny)

    def models() -> None:
        assert sat.count_boards(weak) > 1

    def second_cms() -> None:
        for enc in encs[-3:]:
            second.resolve(enc.clauses, "cryptominisat")

    from ortools.sat.python import cp_model

    from boardproof.models.carpniches import START_POSITION, parse_position
    from boardproof.models.carpniches.proofs import cp

    goal = parse_position("(cp)4(pcp)/1c4/6/6/1p4/(pc)4(cpc) c -")
    plain = cp_model.CpSolver.solve

    def reach() -> None:
        for _ in range(20):
            cp.reach(START_POSITION, goal, 3)

    rows = [("fill sweep, sizes " + args.sizes, sweep),
            (f"fill with DRUP proof (.gz), sizes {lo}-{lo + 4}", proofs),
            (f"{args.small} solves of a 3x3 formula", small),
            ("every model of a 3x3 formula (incremental)", models),
            (f"cryptominisat, sizes {hi - 2}-{hi}", second_cms)]
    print(f"load: {os.getloadavg()}")
    print("| work | main thread, before (s) | now (s) | ratio |")
    print("|---|---:|---:|---:|")
    for name, fn in rows:
        best = {True: float("inf"), False: float("inf")}
        for _ in range(args.repeat):
            for before in (True, False):
                best[before] = min(best[before], _timed(fn, before))
        print(f"| {name} | {best[True]:.3f} | {best[False]:.3f} | "
              f"{best[False] / best[True]:.2f} |")
    best = {True: float("inf"), False: float("inf")}
    wrapped = cp.solve_interruptibly
    for _ in range(args.repeat):
        for in_thread in (False, True):
            # plain: CP-SAT's own solve in this thread (its SIGINT handler on)
            cp.solve_interruptibly = wrapped if in_thread else plain  # type: ignore[assignment]
            began = time.perf_counter()
            reach()
            best[not in_thread] = min(best[not in_thread], time.perf_counter() - began)
    cp.solve_interruptibly = wrapped
    print(f"| 20 CP-SAT reach (3 plies) | {best[True]:.3f} | {best[False]:.3f} | "
          f"{best[False] / best[True]:.2f} |")
    print(f"load: {os.getloadavg()}")


if __name__ == "__main__":
    main()
