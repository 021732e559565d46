"""The df-pn table's replacement schemes, small tables against big ones (issue 18, session 5).

Usage: ``.venv/bin/python benchmarks/minefield_table.py [--size 5] [--entries a1,a2]
[--bits 18,20,22,26] [--tables pairs,quad] [--limit NODES] [--json FILE]``

Each entry (one black stone on the point, White to move; ``empty``: the empty board) is
proved by the native df-pn in the ortho-diagonal game (Theorem O, as the opening table
does), once per table size and scheme, one after the other in one process, so the ratios
come from one run:

- ``pairs``: session 4's table (buckets of 2, every solved entry first);
- ``quad``: buckets of 4 keeping the entries of most work and the newest one.

A row: the winner (``?``: the ``--limit`` node budget ran out first), nodes and CPU
seconds. The winners must agree wherever both settle (the table only saves work).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from typing import Any

from boardproof import models
from boardproof.models.minefield.native import DFPN_TABLES, prover


def entry(n: int, point: str) -> Any:
    pos = models.get("minefield").start(size=n, pie=False)
    return pos if point == "empty" else pos.play(pos.parse_move(point))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--entries", default="a1,a2")
    parser.add_argument("--bits", default="18,20,22,26")
    parser.add_argument("--tables", default=",".join(DFPN_TABLES))
    parser.add_argument("--limit", type=int, default=200_000_000, help="nodes per search")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    print(f"# {platform.machine()} {platform.python_version()}, load {os.getloadavg()[0]:.2f}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")  # fmt: skip
    print("| entry | table bits | scheme | winner | nodes | cpu-s |")
    print("|---|---:|---|---|---:|---:|")
    rows: list[dict[str, Any]] = []
    for point in args.entries.split(","):
        pos = entry(args.size, point)
        for bits in (int(b) for b in args.bits.split(",")):
            for table in args.tables.split(","):
                start = time.process_time()
                found = prover.who_wins(pos, tt_bits=bits, table=table, node_limit=args.limit)
                cpu = time.process_time() - start
                who = "?" if found.winner is None else pos.game.symbol(found.winner)
                rows.append({"entry": point, "bits": bits, "table": table, "winner": who,
                             "nodes": found.nodes, "cpu": round(cpu, 2)})  # fmt: skip
                print(f"| {point} | {bits} | {table} | {who} | {found.nodes:,} | {cpu:.2f} |",
                      flush=True)  # fmt: skip
    print(f"# load {os.getloadavg()[0]:.2f} at the end")
    settled = {(r["entry"], r["winner"]) for r in rows if r["winner"] != "?"}
    if len(settled) != len({e for e, _ in settled}):
        raise SystemExit("the schemes disagree on a winner")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(rows, handle, indent=1)


if __name__ == "__main__":
    main()
