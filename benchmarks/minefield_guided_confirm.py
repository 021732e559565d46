"""The second algorithm guided by the certificates (issue 18, session 7): for each
certificate of a folder, the native alpha-beta (no pruning rule) with the certificate's
moves tried first (``boardproof.models.minefield.research.subtrees.guided_confirm``), against the
re-proof
that the published report records for the same entry (the blind alpha-beta, its moves
from the df-pn table).

Usage: ``.venv/bin/python benchmarks/minefield_guided_confirm.py [--folder
reports/certificates] [--report reports/minefield-openings.json]``

Prints one Markdown row per certificate: its listed positions, the guided alpha-beta's
verdict, nodes and seconds, and the report's re-proof (method, verdict, nodes).
"""

from __future__ import annotations

import argparse
import json
import os
import time

from boardproof.models.minefield.research import subtrees


def published_checks(path: str) -> dict[str, dict]:
    """The report's check of each entry, by certificate file name."""
    if not os.path.exists(path):
        return {}
    with open(path) as handle:
        report = json.load(handle)
    out = {}
    for size in report["sizes"]:
        for entry in size["entries"]:
            name = f"minefield-{size['n']}x{size['n']}-{entry['class']}.cert.xz"
            out[name] = entry.get("check") or {}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", default="reports/certificates")
    parser.add_argument("--report", default="reports/minefield-openings.json")
    args = parser.parse_args()
    before = published_checks(args.report)
    load = os.getloadavg()[0]
    print(f"# load {load:.2f}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print("| certificate | listed | guided verdict | guided nodes | guided s | "
          "report's re-proof | its verdict | its nodes |")
    print("|---|---:|---|---:|---:|---|---|---:|")
    from boardproof.models.minefield.proofs.certificate import load_certificate

    for name in sorted(os.listdir(args.folder)):
        if not name.endswith(".cert.xz"):
            continue
        path = os.path.join(args.folder, name)
        listed = len(load_certificate(path).records)
        check = subtrees.guided_confirm(path)
        old = before.get(name, {})
        verdict = {True: "agrees", False: "disagrees", None: "not settled"}
        theirs = "- | - | -"
        if "nodes" in old:
            theirs = f"{old.get('method', '-')} | {verdict[old.get('proved')]} | {old['nodes']:,}"
        print(f"| {name} | {listed:,} | {verdict[check['proved']]} | {check['nodes']:,} | "
              f"{check['seconds']} | {theirs} |", flush=True)

if __name__ == "__main__":
    main()
