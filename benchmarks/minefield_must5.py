"""df-pn nodes of Minefield opening entries with and without ``must5`` (issue 32).

Each entry (a first move of Black, or ``empty``) is proved by the native df-pn
(``prover.who_wins``, Theorem O, a fresh table per entry) once per rule set, and the
winners must agree. One JSON line per (entry, rule set) is printed, and appended to
``--journal`` when given (entries already there are not run again: resumable chunks).

    .venv/bin/python benchmarks/minefield_must5.py --size 5 --configs must3 must3,must5
    .venv/bin/python benchmarks/minefield_must5.py --size 6 --entries b1 \\
        --configs must3,must5 --tt-bits 25 --node-limit 60000000 --journal j.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from boardproof import models
from boardproof.models.minefield import native
from boardproof.models.minefield.native import prover

GAME = models.get("minefield")


def entry_fen(n: int, entry: str) -> str:
    """The position of an entry: ``empty`` or Black's first point (``b1``), White to move.

    >>> entry_fen(5, "b1"), entry_fen(4, "empty")
    ('5/5/5/5/1b3 w -', '4/4/4/4 b -')
    """
    if entry == "empty" or "/" in entry:
        return f"{'/'.join([str(n)] * n)} b -" if entry == "empty" else entry
    file, rank = ord(entry[0]) - ord("a"), int(entry[1:]) - 1
    rows = []
    for r in range(n - 1, -1, -1):
        if r != rank:
            rows.append(str(n))
            continue
        row = (str(file) if file else "") + "b" + (str(n - 1 - file) if file < n - 1 else "")
        rows.append(row)
    return "/".join(rows) + " w -"


def classes(n: int) -> list[str]:
    """One first point per class of the mirrors and the half turn, and the empty board.

    >>> classes(5)
    ['empty', 'a1', 'b1', 'c1', 'a2', 'b2', 'c2', 'a3', 'b3', 'c3']
    """
    half = (n + 1) // 2
    return ["empty"] + [f"{chr(97 + f)}{r + 1}" for r in range(half) for f in range(half)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=5)
    ap.add_argument("--entries", nargs="*", help="entries (default: every class)")
    ap.add_argument("--configs", nargs="+", default=["must3", "must3,must5"],
                    help="rule sets, comma-separated names of prover.RULES")
    ap.add_argument("--depth", type=int, default=prover.DEFAULT_MUST_DEPTH,
                    help="must5's depth in threats")
    ap.add_argument("--scale", type=int, default=prover.DEFAULT_SCALE,
                    help="the heuristic initial numbers' scale (rule heuristic)")
    ap.add_argument("--eps-div", type=int, default=4,
                    help="df-pn's threshold: the second best times 1 + 1/EPS_DIV")
    ap.add_argument("--tt-bits", type=int, default=24)
    ap.add_argument("--table", default="quad")
    ap.add_argument("--node-limit", type=int, default=0)
    ap.add_argument("--journal", type=Path)
    args = ap.parse_args(argv)
    done = set()
    if args.journal and args.journal.exists():
        for line in args.journal.read_text().splitlines():
            row = json.loads(line)
            done.add((row["fen"], row["rules"], row["depth"], row["tt_bits"], row["node_limit"],
                      row.get("eps_div", 4), row.get("scale", prover.DEFAULT_SCALE)))
    winners: dict[str, set] = {}
    native._native.tune(0, args.eps_div)
    for entry in args.entries or classes(args.size):
        fen = entry_fen(args.size, entry)
        pos = GAME.parse_position(fen)
        for config in args.configs:
            use = [u for u in config.split(",") if u]
            key = (fen, config, args.depth, args.tt_bits, args.node_limit, args.eps_div,
                   args.scale)
            if key in done:
                continue
            cpu = time.process_time()
            # who_wins(use=()) leaves the rules of this block on
            with prover.rules(use, scale=args.scale, depth=args.depth):
                found = prover.who_wins(pos, tt_bits=args.tt_bits, table=args.table,
                                        node_limit=args.node_limit)  # fmt: skip
                counts = prover.rule_counts()
            row = {"entry": entry, "fen": fen, "rules": config, "depth": args.depth,
                   "tt_bits": args.tt_bits, "node_limit": args.node_limit,
                   "eps_div": args.eps_div, "scale": args.scale,
                   "winner": found.winner, "move": None if found.best_move is None
                   else str(found.best_move), "nodes": found.nodes,
                   "cpu_s": round(time.process_time() - cpu, 2),
                   "counts": counts, "load": os.getloadavg()[0],
                   "utc": time.strftime("%H:%M:%S", time.gmtime())}
            print(json.dumps(row), flush=True)
            if args.journal:
                with args.journal.open("a") as out:
                    out.write(json.dumps(row) + "\n")
            if found.winner is not None:
                winners.setdefault(fen, set()).add(found.winner)
    split = [fen for fen, w in winners.items() if len(w) > 1]
    if split:
        print(f"winners differ: {split}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
