"""A certificate from the attempt's own df-pn table against a second search (issue 18,
session 8): for each line, the budgeted attempt's search (``prover.who_wins`` with the
attempts' rules, table and budget), then its certificate walked from that table
(``certify.certificate_from_table``), against ``make_certificate`` with the same
arguments (a second search, then the same walk). Both files must have the same bytes.

Usage: ``.venv/bin/python benchmarks/minefield_attempt_certificates.py [--lines "b2 c4,a1 c3"]
[--size 5] [--budget 30000000]``

Prints one Markdown row per line: the attempt's nodes and seconds, the listed positions,
the walk's seconds, the second search's seconds, and the ratio of the two ways' costs
(attempt + walk against attempt + second search and walk).
"""

from __future__ import annotations

import argparse
import time

from boardproof.models.minefield.native import certify, prover
from boardproof.models.minefield.research import subtrees

DEFAULT_LINES = "b2 c4,a1 c3,b2,b1,c2 b4"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", default=DEFAULT_LINES)
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--budget", type=int, default=30_000_000)
    args = parser.parse_args()
    bits = subtrees.table_bits(args.budget)
    print("| line | attempt nodes | attempt s | positions | walk s | make_certificate s | "
          "same bytes | cost ratio |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---|---:|")
    for line in args.lines.split(","):
        pos = subtrees.position(args.size, line, "orthogonal")
        start = time.perf_counter()
        found = prover.who_wins(pos, tt_bits=bits, node_limit=args.budget, table=subtrees.TABLE,
                                use=subtrees.RULES)  # fmt: skip
        searched = time.perf_counter() - start
        if found.winner != pos.to_move:
            print(f"| {line} | {found.nodes:,} | {searched:.2f} | (side to move loses: no "
                  "walk) | | | | |")  # fmt: skip
            continue
        start = time.perf_counter()
        walked = certify.certificate_from_table(pos, found.winner, found.nodes, tt_bits=bits,
                                                table=subtrees.TABLE, rules=subtrees.RULES)
        walk = time.perf_counter() - start
        start = time.perf_counter()
        made = certify.make_certificate(pos, winner=found.winner, theorem_o=True,
                                        rules=subtrees.RULES, table=subtrees.TABLE,
                                        node_limit=args.budget, tt_bits=bits)  # fmt: skip
        again = time.perf_counter() - start
        same = walked.to_bytes() == made.to_bytes()
        ratio = (searched + again) / (searched + walk)
        print(f"| {line} | {found.nodes:,} | {searched:.2f} | {len(walked.records):,} | "
              f"{walk:.2f} | {again:.2f} | {'yes' if same else '**no**'} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
