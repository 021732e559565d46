"""Nodes and seconds per opening-table entry, per technique (issue 18; RESULTS.md).

Usage: ``.venv/bin/python benchmarks/minefield_prover.py [--size 5] [--entries c1,b2]
[--configs ab,dfpn,...] [--bits 26] [--limit NODES] [--json FILE]``

Each entry (the empty board, then one black stone on each class representative, White
to move) is solved by each configuration in turn, in one process, one after the other:

- ``ab``: today's native alpha-beta (who wins, orthogonal rule, a fresh table);
- ``dfpn``: today's native df-pn, asked "does the side to move win?" (a fresh table);
- ``ab+O`` / ``dfpn+O``: the same in the ortho-diagonal game (Theorem O);
- ``dfpn+H``: ``dfpn``, then the alpha-beta confirmation ordered by its table (hints);
- ``all``: ``dfpn+O``, then the confirmation with Theorem O and hints;
- ``all+keep``: ``all`` with one df-pn table for the whole run (entries in order), every
  question asked for Black (the table keeps proofs per attacker).

Any configuration may end with pruning rules of session 5 (``prover.RULES``), each a
suffix: ``+heur`` (heuristic initial df-pn numbers, ``--scale``), ``+frozen``, ``+blocked``,
``+must3``, ``+order`` (the fitted move order), or ``+rules`` for all five; e.g.
``dfpn+O+must3`` or ``all+rules``. The rules act in both searches of a configuration
(heuristic numbers and frozen points only in df-pn).

A row: nodes and CPU seconds of the first method and of the confirmation, the winner,
and whether the confirmation agrees. ``--limit`` caps every single search (nodes).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from typing import Any

from boardproof import models
from boardproof.models.minefield import native
from boardproof.models.minefield.native import prover
from boardproof.models.minefield.research.openings import point_classes

CONFIGS = ("ab", "dfpn", "ab+O", "dfpn+O", "dfpn+H", "all", "all+keep")
#: the suffixes of the pruning rules (``prover.RULES``)
SUFFIXES = {"heur": ("heuristic",), "frozen": ("frozen",), "blocked": ("blocked",),
            "must3": ("must3",), "order": ("order",), "rules": tuple(prover.RULES)}  # fmt: skip


def split_config(config: str) -> tuple[str, tuple[str, ...]]:
    """(base configuration, rules): ``dfpn+O+must3`` -> (``dfpn+O``, (``must3``,)).

    >>> split_config("all+keep+rules")
    ('all+keep', ('heuristic', 'frozen', 'blocked', 'must3', 'order'))
    """
    parts = config.split("+")
    use: list[str] = []
    while len(parts) > 1 and parts[-1] in SUFFIXES:
        use[:0] = SUFFIXES[parts.pop()]
    return "+".join(parts), tuple(use)


def entry(n: int, point: str) -> Any:
    pos = models.get("minefield").start(size=n, pie=False)
    return pos if point == "empty" else pos.play(pos.parse_move(point))


def run_ab(pos: Any, theorem_o: bool, bits: int, limit: int,
           use: tuple[str, ...] = ()) -> dict[str, Any]:  # fmt: skip
    target = prover.as_orthodiagonal(pos) if theorem_o else pos
    native.reset()
    search = native.search_for(pos.n, theorem_o, bits)
    start = time.process_time()
    with prover.rules(use):
        found = search.solve(target, node_limit=limit)
    winner = None
    if found.value in ("win", "loss"):
        winner = pos.to_move if found.value == "win" else 1 - pos.to_move
    return {"winner": winner, "nodes": found.nodes, "cpu": time.process_time() - start}


def run_config(pos: Any, config: str, bits: int, limit: int, first: bool,
               scale: int = prover.DEFAULT_SCALE) -> dict[str, Any]:  # fmt: skip
    """One entry by one configuration (``first``: the run's first entry of the config)."""
    config, use = split_config(config)
    if config in ("ab", "ab+O"):
        return run_ab(pos, config == "ab+O", bits, limit, use)
    theorem_o = config in ("dfpn+O", "all", "all+keep")
    start = time.process_time()
    found = prover.who_wins(pos, theorem_o=theorem_o, keep=config == "all+keep" and not first,
                            attacker=0 if config == "all+keep" else None,
                            tt_bits=bits, node_limit=limit, use=use, scale=scale)  # fmt: skip
    row: dict[str, Any] = {"winner": found.winner, "nodes": found.nodes,
                           "cpu": time.process_time() - start}  # fmt: skip
    if config in ("dfpn+H", "all", "all+keep") and found.winner is not None:
        start = time.process_time()
        check = prover.confirm(pos, found.winner, theorem_o=theorem_o, hints=True,
                               tt_bits=bits, node_limit=limit, use=use)  # fmt: skip
        row.update(check_nodes=check.nodes, check_cpu=time.process_time() - start,
                   agrees=check.agrees, hinted=check.hinted)  # fmt: skip
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--entries", default="", help="empty and first points (default all)")
    parser.add_argument("--configs", default=",".join(CONFIGS))
    parser.add_argument("--bits", type=int, default=26, help="tables of 2**bits entries")
    parser.add_argument("--limit", type=int, default=0, help="node cap per search (0 none)")
    parser.add_argument("--json", default=None, help="also write the rows here")
    parser.add_argument("--scale", type=int, default=prover.DEFAULT_SCALE,
                        help="the heuristic numbers' scale (+heur)")  # fmt: skip
    args = parser.parse_args()
    n = args.size
    entries = args.entries.split(",") if args.entries else (
        ["empty"] + [rep for rep, _ in point_classes(n)])  # fmt: skip
    configs = args.configs.split(",")
    for config in configs:
        if split_config(config)[0] not in CONFIGS:
            parser.error(f"invalid --configs: expected some of {', '.join(CONFIGS)} "
                         f"(each with +heur, +frozen, +blocked, +must3 or +rules), "
                         f"got {config!r}")
    print(f"# {platform.node()} {platform.machine()} python {platform.python_version()}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load {os.getloadavg()}, "
          f"n={n}, tables 2**{args.bits}, limit {args.limit or 'none'}")  # fmt: skip
    print("| config | entry | winner | first nodes | first cpu-s | check nodes | check cpu-s "
          "| agrees | hinted |")  # fmt: skip
    print("|---|---|---|---:|---:|---:|---:|---|---:|")
    rows = []
    totals: dict[str, list[float]] = {}
    for config in configs:
        for index, point in enumerate(entries):
            row = run_config(entry(n, point), config, args.bits, args.limit, index == 0,
                             args.scale)  # fmt: skip
            row.update(config=config, entry=point)
            rows.append(row)
            total = totals.setdefault(config, [0, 0.0, 0, 0.0])
            total[0] += row["nodes"]
            total[1] += row["cpu"]
            total[2] += row.get("check_nodes", 0)
            total[3] += row.get("check_cpu", 0.0)
            winner = {0: "b", 1: "w", None: "?"}[row["winner"]]
            print(f"| {config} | {point} | {winner} | {row['nodes']:,} | {row['cpu']:.2f} | "
                  f"{row.get('check_nodes', '-'):,} | {row.get('check_cpu', 0):.2f} | "
                  f"{row.get('agrees', '-')} | {row.get('hinted', '-')} |"
                  if "check_nodes" in row else
                  f"| {config} | {point} | {winner} | {row['nodes']:,} | {row['cpu']:.2f} | - | - "
                  f"| - | - |", flush=True)  # fmt: skip
    print()
    print("| config | first nodes | first cpu-s | check nodes | check cpu-s | total cpu-s |")
    print("|---|---:|---:|---:|---:|---:|")
    for config, (nodes, cpu, cnodes, ccpu) in totals.items():
        print(f"| {config} | {int(nodes):,} | {cpu:.1f} | {int(cnodes):,} | {ccpu:.1f} | "
              f"{cpu + ccpu:.1f} |")  # fmt: skip
    print(f"# load {os.getloadavg()} at {time.strftime('%H:%M UTC', time.gmtime())}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(rows, out, indent=1)


if __name__ == "__main__":
    main()
