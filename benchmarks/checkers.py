"""The DRUP checkers on the same no-draw fill-step proofs, one after the other.

    python benchmarks/checkers.py --proofs reports/proofs --sizes 6,8,10,14

For each n: the proof's lines, then the wall seconds of ``dratify`` (Rust engine), the
project's backward checker (C) and, for n <= 8, its forward checker (Python), each
including reading and decompressing the proof; the backward checker's lemmas checked out
of those read. Every checker must accept (the script stops otherwise).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from boardproof.models.minefield.proofs import sat
from boardproof.solvers.sat import backward, certify, drat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--proofs", type=Path, default=Path("out/proofs"))
    parser.add_argument("--sizes", default="6,8,10,14")
    parser.add_argument("--forward-max", type=int, default=8)
    args = parser.parse_args()
    print("| n | proof lines | dratify s | own backward s | lemmas checked / read | "
          "own forward s | backward speed-up over dratify |")
    print("|---|---|---|---|---|---|---|")
    for n in (int(x) for x in args.sizes.split(",")):
        enc = sat.encode(n, sat.fast_steps(n)[0][1])
        path = args.proofs / f"minefield-n{n}-fill.drup.gz"
        lines = sum(1 for _ in certify.read_lines(path))
        d = certify.check_dratify(enc.clauses, enc.nvars, path)
        b = backward.check_file(enc.clauses, path)
        forward = "-"
        if n <= args.forward_max:
            began = time.perf_counter()
            f = drat.check(enc.clauses, certify.read_lines(path))
            forward = f"{time.perf_counter() - began:.2f}"
            assert f.ok, f.message
        assert d["ok"] and b.ok, (d, b.message)
        print(f"| {n} | {lines} | {d['seconds']:.2f} | {b.seconds:.2f} | "
              f"{b.checked} / {b.lemmas} | {forward} | {d['seconds'] / b.seconds:.1f}x |",
              flush=True)


if __name__ == "__main__":
    main()
