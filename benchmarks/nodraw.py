"""Benchmark of the Minefield no-draw SAT check: plain baseline vs the split method.

Usage::

    python benchmarks/nodraw.py                    # sizes 2-12, plain vs split, same run
    python benchmarks/nodraw.py --big 16           # plus one large size (split only)
    python benchmarks/nodraw.py --big 18 --workers 2 --cubes 2   # cubes across workers
    python benchmarks/nodraw.py --sizes 2-2 --fill 20     # the fill step alone, n = 20

Prints a Markdown table (seconds are solver time; the load average is printed too,
since the machine is shared).
"""

from __future__ import annotations

import argparse
import os
import time

from boardproof.models.minefield.proofs import sat
from boardproof.models.minefield.research.claims import verify


def solve_seconds(n: int, method: str, solver: str) -> tuple[float, str, int, int]:
    steps = sat.fast_steps(n) if method == "split" else [(method, sat.ENCODINGS[method])]
    total, results, variables, clauses = 0.0, [], 0, 0
    for _, options in steps:
        enc = sat.encode(n, options)
        r = sat.solve(enc, solver)
        total += r.seconds
        results.append(r.result)
        variables += r.variables
        clauses += r.clauses
    return total, "+".join(results), variables, clauses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="2-12")
    parser.add_argument("--methods", default="plain,fast,split")
    parser.add_argument("--solver", default="cadical195")
    parser.add_argument("--big", type=int, default=0, help="also one large size (split)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cubes", type=int, default=0)
    parser.add_argument("--fill", type=int, default=0, help="the fill step alone for this n")
    args = parser.parse_args()
    lo, hi = (int(x) for x in args.sizes.split("-"))
    methods = args.methods.split(",")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    totals = dict.fromkeys(methods, 0.0)
    print("| n | " + " | ".join(f"{m} s" for m in methods) + " | result |")
    print("|---|" + "---|" * (len(methods) + 1))
    for n in range(lo, hi + 1):
        cells = []
        verdicts = set()
        for m in methods:
            seconds, result, _, _ = solve_seconds(n, m, args.solver)
            totals[m] += seconds
            cells.append(f"{seconds:.2f}")
            verdicts.add(result.replace("unsat+unsat", "unsat"))
        print(f"| {n} | " + " | ".join(cells) + f" | {'/'.join(sorted(verdicts))} |",
              flush=True)
    print("| total | " + " | ".join(f"{totals[m]:.2f}" for m in methods) + " | |")
    if "plain" in totals and "split" in totals and totals["split"] > 0:
        print(f"\nspeed-up split vs plain, sizes {lo}-{hi}: "
              f"{totals['plain'] / totals['split']:.2f}x")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    if args.fill:
        enc = sat.encode(args.fill, sat.fast_steps(args.fill)[0][1])
        r = sat.solve(enc, args.solver)
        print(f"\nfill step alone, n = {args.fill}: {r.result}, {r.variables} variables, "
              f"{r.clauses} clauses, {r.seconds:.1f} s, load average {os.getloadavg()[0]:.2f}")
    if args.big:
        began = time.perf_counter()
        result = verify("minefield-no-draw", [args.big], workers=args.workers,
                        cubes=args.cubes, exhaustive_max=0, progress=True)
        wall = time.perf_counter() - began
        [row] = result["sizes"]
        steps = ", ".join(f"{s['step']} {s['seconds']:.1f} s ({s['cubes']} cubes)"
                          for s in row["steps"])
        print(f"\nn = {args.big}: {row['holds']=} wall {wall:.1f} s, solver time "
              f"{row['seconds']:.1f} s: {steps}; workers {args.workers}, "
              f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
