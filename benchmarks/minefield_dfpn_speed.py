"""Per-node speed of the native df-pn prover, two builds compared in one run (issue 18,
session 6).

Usage: ``.venv/bin/python benchmarks/minefield_dfpn_speed.py --builds OLD_CHECKOUT,.
[--rounds 2] [--json FILE]``

Each build is a checkout whose ``boardproof/solvers/native/_minefield*.so`` is built; it is
imported in a child process of its own (``sys.path`` starting at the checkout). The
workloads, the same for every build:

- ``6x6 b3 must3``: the 6x6 entry b3 with the ``must3`` rule (the 6x6 attempts' rule),
  the ``quad`` table of 2**24 entries, a budget of 3 M nodes (unsettled: the same nodes);
- ``6x6 b3 plain``: the same without rules;
- ``5x5 c1 must3``: the 5x5 entry c1 proved with ``must3`` and ``quad``, 2**22 entries;
- ``6x6 b3 c4 must3`` (session 7): the 6x6 line b3 c4 (Black wins, 2.5 M nodes) proved
  with ``must3`` and ``quad`` in a table of 2**26 entries (2 GiB, as big as the attempts'
  tables are: most children's buckets are cache misses).

The builds alternate (old, new, old, new, ...) so that a change of load hits both; a row
gives nodes, CPU seconds and nodes per CPU second, the summary the ratio of the medians.
Both builds must report the same nodes and winners wherever they search the same tree.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

WORKLOADS = [("6x6 b3 must3", 6, "b3", ["must3"], 24, 3_000_000),
             ("6x6 b3 plain", 6, "b3", [], 24, 3_000_000),
             ("5x5 c1 must3", 5, "c1", ["must3"], 22, 200_000_000),
             ("6x6 b3 c4 must3", 6, "b3 c4", ["must3"], 26, 30_000_000)]  # fmt: skip

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from boardproof import models
from boardproof.models.minefield.native import prover
out = []
for name, n, point, rules, bits, limit in json.loads(sys.argv[2]):
    pos = models.get("minefield").start(size=n, pie=False)
    for move in point.split():
        pos = pos.play(pos.parse_move(move))
    prover.who_wins(pos, tt_bits=bits, node_limit=1000, table="quad", use=rules)  # warm
    start = time.process_time()
    found = prover.who_wins(pos, tt_bits=bits, node_limit=limit, table="quad", use=rules)
    cpu = time.process_time() - start
    out.append({"workload": name, "winner": found.winner, "nodes": found.nodes,
                "cpu": round(cpu, 3)})
print(json.dumps(out))
"""


def run_build(path: str) -> list[dict]:
    """The workloads in a child process importing the build at ``path``."""
    command = [sys.executable, "-c", CHILD, str(Path(path).resolve()), json.dumps(WORKLOADS)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builds", required=True, help="checkouts, comma-separated")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    builds = args.builds.split(",")
    print(f"# load {os.getloadavg()[0]:.2f}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print("| round | build | workload | winner | nodes | cpu-s | nodes per cpu-s |")
    print("|---:|---|---|---|---:|---:|---:|")
    rows = []
    for r in range(args.rounds):
        for build in builds:
            for row in run_build(build):
                row.update(round=r + 1, build=build)
                rows.append(row)
                rate = row["nodes"] / row["cpu"] if row["cpu"] else 0
                print(f"| {r + 1} | {build} | {row['workload']} | {row['winner']} | "
                      f"{row['nodes']:,} | {row['cpu']:.2f} | {rate:,.0f} |",
                      flush=True)  # fmt: skip
    print(f"# load {os.getloadavg()[0]:.2f} at the end")
    for name, *_ in WORKLOADS:
        same = {(row["nodes"], row["winner"]) for row in rows if row["workload"] == name}
        medians = [statistics.median(row["nodes"] / row["cpu"] for row in rows
                                     if row["workload"] == name and row["build"] == b)
                   for b in builds]  # fmt: skip
        ratio = " / ".join(f"{m / medians[0]:.2f}x" for m in medians)
        print(f"# {name}: median nodes per cpu-s {', '.join(f'{m:,.0f}' for m in medians)} "
              f"({ratio}); {'same' if len(same) == 1 else 'DIFFERENT'} nodes and winners")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(rows, handle, indent=1)


if __name__ == "__main__":
    main()
