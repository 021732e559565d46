"""Best-first against breadth-first growth of the budgeted attempts (issue 18, session 9):
the same size, budget and depth, each in a fresh journal, one worker; how many entries
(and the empty board) each settles, with how many attempts and df-pn nodes.

Usage: ``.venv/bin/python benchmarks/minefield_best_first.py [--size 4] [--budgets 100,200]
[--depths 2,3,4]``

Prints one Markdown row per size, budget, depth and growth: settled entries, attempts,
df-pn nodes, wall seconds, and the ratio of best-first's attempts to breadth-first's.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from boardproof.models.minefield.research import openings


def run(n: int, budget: int, depth: int, grow: str) -> tuple[int, int, int, int, float]:
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        report = openings.build_report([n], budget=budget, depth=depth, split_from=n,
                                       checkpoint=Path(folder) / "j.jsonl", progress=False,
                                       grow=grow)  # fmt: skip
        seconds = time.perf_counter() - start
    size = report["sizes"][0]
    settled = sum(1 for e in size["entries"] if e["winner"])
    return settled, len(size["entries"]), size["run"]["attempts"], size["run"]["nodes"], seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--budgets", default="100,200")
    parser.add_argument("--depths", default="2,3,4")
    args = parser.parse_args()
    print("| size | budget | depth | grow | settled | attempts | df-pn nodes | seconds | "
          "best / breadth attempts |")  # fmt: skip
    print("|---|---:|---:|---|---|---:|---:|---:|---:|")
    for budget in map(int, args.budgets.split(",")):
        for depth in map(int, args.depths.split(",")):
            rows = {grow: run(args.size, budget, depth, grow) for grow in ("breadth", "best")}
            for grow, (settled, total, attempts, nodes, seconds) in rows.items():
                ratio = (f"{rows['best'][2] / rows['breadth'][2]:.2f}" if grow == "best"
                         else "")  # fmt: skip
                print(f"| {args.size}x{args.size} | {budget:,} | {depth} | {grow} | {settled} of "
                      f"{total} | {attempts:,} | {nodes:,} | {seconds:.1f} | {ratio} |")


if __name__ == "__main__":
    main()
