"""Compact certificates of the Minefield opening table: size, time to make, time to check.

Usage::

    .venv/bin/python benchmarks/opening_certificates.py [--size 5] [--entries c3,b3]
        [--report reports/minefield-openings.json] [--dir DIR] [--phase make|check|both]
        [--json FILE]

Each entry of the published table (the empty board and each class representative; its
winner read from the report) gets a certificate made by the native df-pn
(:func:`boardproof.models.minefield.native.certify.make_certificate`, a fresh table, one entry
after the other in this process) and checked by the rules-only checker
(:func:`boardproof.models.minefield.proofs.certificate.check_certificate`). A row: listed positions,
file bytes (xz), CPU seconds to make (df-pn and the walk), df-pn nodes, CPU seconds to
check and the positions the checker rebuilt. ``--phase make`` only writes the files
into ``--dir``; ``--phase check`` only reads and checks them (so each phase fits a CPU
slot).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from typing import Any

from boardproof import models
from boardproof.models.minefield.proofs.certificate import check_certificate, load_certificate
from boardproof.models.minefield.research.opening_certificates import certificate_name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--entries", default="", help="e.g. empty,c3 (default: all)")
    parser.add_argument("--report", default="reports/minefield-openings.json")
    parser.add_argument("--dir", default="/tmp/opening-certificates")
    parser.add_argument("--phase", choices=("make", "check", "both"), default="both")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    with open(args.report, encoding="utf-8") as handle:
        report = json.load(handle)
    size = next(s for s in report["sizes"] if s["n"] == args.size)
    wanted = [e for e in args.entries.split(",") if e]
    entries = [e for e in size["entries"] if not wanted or e["class"] in wanted]
    os.makedirs(args.dir, exist_ok=True)
    game = models.get("minefield")
    rows: list[dict[str, Any]] = []
    print(f"# {platform.node()} {time.strftime('%Y-%m-%d %H:%M')} load "
          f"{os.getloadavg()[0]:.1f}")  # fmt: skip
    print("| entry | winner | positions | bytes | make s | df-pn nodes | check s | rebuilt |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for entry in entries:
        path = os.path.join(args.dir, certificate_name(args.size, entry["class"]))
        row: dict[str, Any] = {"entry": entry["class"], "winner": entry["winner"]}
        if args.phase in ("make", "both"):
            from boardproof.models.minefield.native.certify import make_certificate

            pos = game.parse_position(entry["position"])
            start = time.process_time()
            cert = make_certificate(pos, winner=game.player_of(entry["winner"]))
            data = cert.to_bytes()
            row["make_seconds"] = round(time.process_time() - start, 2)
            with open(path, "wb") as handle:
                handle.write(data)
            row["nodes"] = cert.header["made_by"]["nodes"]
        cert = load_certificate(path)
        row["positions"] = len(cert.records)
        row["bytes"] = os.path.getsize(path)
        row.setdefault("nodes", cert.header["made_by"]["nodes"])
        if args.phase in ("check", "both"):
            start = time.process_time()
            checked = check_certificate(cert)
            row["check_seconds"] = round(time.process_time() - start, 2)
            row["rebuilt"] = checked.replies
            assert checked.winner == entry["winner"]
        rows.append(row)
        print(f"| {row['entry']} | {row['winner']} | {row['positions']} | {row['bytes']} | "
              f"{row.get('make_seconds', '-')} | {row['nodes']} | "
              f"{row.get('check_seconds', '-')} | {row.get('rebuilt', '-')} |", flush=True)
    total = {k: round(sum(r.get(k, 0) for r in rows), 2)
             for k in ("positions", "bytes", "make_seconds", "check_seconds")}  # fmt: skip
    print(f"| all {len(rows)} | | {total['positions']} | {total['bytes']} | "
          f"{total['make_seconds']} | | {total['check_seconds']} | |")
    print(f"# load {os.getloadavg()[0]:.1f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"rows": rows, "total": total}, handle, indent=1)


if __name__ == "__main__":
    main()
