"""How good are the opening report's cost estimates? (issue 18, session 6)

Usage: ``.venv/bin/python benchmarks/minefield_estimates.py [--size 6] [--rules must3]
[--journal FILE] [--json FILE]``

The report orders a budgeted size's entries by an estimate from the same entries' df-pn
nodes on the three sizes below (``boardproof.models.minefield.research.subtrees.estimates``). This
script
measures those nodes with the attempts' search (Theorem O, the ``quad`` table, the
``--rules``; ``none``: plain df-pn) on every size from 2x2 up to ``--size - 1``, one entry
after the other in this process (``subtrees.basis_nodes``, as the report run does), and
prints:

- the nodes and CPU seconds per entry and size;
- the backtest: the estimates of size ``--size - 1`` from the three sizes below it,
  against what that size then took (measured / estimated);
- the estimates of ``--size``, and, with ``--journal`` (a report run's journal, read
  only), each entry's own attempts of the same rules: the nodes it settled in, or the
  biggest budget it did not settle in (a lower bound of measured / estimated).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from typing import Any

from boardproof.models.minefield.research import subtrees
from boardproof.models.minefield.research.openings import point_classes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=6)
    parser.add_argument("--rules", default=",".join(subtrees.RULES))
    parser.add_argument("--journal", default=None)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    n = args.size
    rules = tuple(r for r in args.rules.split(",") if r and r != "none")
    print(f"# {platform.node()} {platform.machine()}, load {os.getloadavg()[0]:.2f}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, rules "
          f"{'+'.join(rules) or 'none'}")  # fmt: skip
    nodes: dict[int, dict[str, int]] = {}
    rows = []
    for k in range(2, n):
        nodes[k] = {}
        cpu_total = 0.0
        for line in [None] + [rep for rep, _ in point_classes(k)]:
            cpu = time.process_time()
            found = subtrees.basis_nodes((k, line, "orthogonal", rules))
            cpu = time.process_time() - cpu
            cpu_total += cpu
            nodes[k][line or "empty"] = found["nodes"]
            rows.append({"n": k, "entry": line or "empty", "nodes": found["nodes"],
                         "winner": found["winner"], "cpu": round(cpu, 3)})  # fmt: skip
        print(f"{k}x{k}: {sum(nodes[k].values()):,} nodes, {cpu_total:.1f} CPU s: "
              + ", ".join(f"{p} {v:,}" for p, v in nodes[k].items()))
    reps = [rep for rep, _ in point_classes(n)]
    back = {}
    if n - 4 >= 2:
        back = subtrees.backtest(n - 1, nodes, [rep for rep, _ in point_classes(n - 1)])
        print(f"\nbacktest: {n - 1}x{n - 1} estimated from {n - 4}x{n - 4}..{n - 2}x{n - 2}")
        print("| entry | estimated | measured | measured / estimated |")
        print("|---|---:|---:|---:|")
        for point, b in back.items():
            print(f"| {point} | {b['estimate']:,.0f} | {b['nodes']:,} | {b['ratio']:g} |")
    guess = subtrees.estimates(n, nodes, reps)
    done: dict[str, Any] = {}
    if args.journal:
        from boardproof.jobs.checkpoints import JournalCheckpoint

        with open(args.journal, encoding="utf-8") as handle:
            header = json.loads(handle.readline())["run"]
        done = JournalCheckpoint(args.journal, header).done
    print(f"\n{n}x{n} estimates" + (f" against {args.journal}" if done else ""))
    print("| entry | from | estimated | attempts (same rules) | measured / estimated |")
    print("|---|---|---:|---|---:|")
    out = []
    for point in ["empty", *reps]:
        g = guess[point]
        line = "" if point == "empty" else point
        same = [v for k, v in done.items()
                if (p := subtrees.parse_key(k)) and p[0] == n and p[1] == line
                and p[3] == rules]  # fmt: skip
        settled = [v for v in same if v.get("winner")]
        if settled:
            what, ratio = f"settled in {settled[0]['nodes']:,}", settled[0]["nodes"] / g["nodes"]
        elif same:
            most = max(v["nodes"] for v in same)
            what, ratio = f"not in {most:,}", most / g["nodes"]
        else:
            what, ratio = "-", None
        shown = "-" if ratio is None else (f"{ratio:.3g}" if settled else f"> {ratio:.3g}")
        print(f"| {point} | {', '.join(f'{v:,}' for v in g['from'])} | {g['nodes']:.3g} | "
              f"{what} | {shown} |")
        out.append({"entry": point, **g, "attempts": what, "ratio": ratio})
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"rules": list(rules), "basis": rows, "backtest": back,
                       "estimates": out}, handle, indent=1)  # fmt: skip


if __name__ == "__main__":
    main()
