"""Per-size figures of the no-draw fill step, its certificate and the second solver.

The figures are those measured by the ``verify`` run that wrote the report (solver
times inside the workers, check times of each checker), read back from its JSON::

    python benchmarks/certificates.py reports/minefield-no-draw.json

Prints a Markdown table: per n, CaDiCaL's fill-step time (with DRUP logging), the
second solver's time, the proof's lines and gzip size, and each checker's time (the own
backward checker's with the number of lemmas it checked, out of those it read).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def core(c: dict | None) -> str:
    """Lemmas checked / lemmas read by the backward checker."""
    return "-" if c is None else f"{c['steps']} / {c.get('lemmas', '-')}"


def rows(report: dict) -> list[list[str]]:
    out = []
    for size in report["sizes"]:
        for step in size.get("steps", []):
            if step["step"] != "fill":
                continue
            cert = step.get("certificate") or {}
            if "checks" not in cert:  # an older record: no size, one checker
                cert = {}
            checks = {c["checker"]: c for c in cert.get("checks", [])}
            other = step.get("second") or {}

            def check(name: str, checks: dict = checks) -> str:
                c = checks.get(name)
                return "-" if c is None else f"{c['seconds']:.1f}" + ("" if c["ok"] else " FAIL")

            out.append([
                str(size["n"]), f"{step['seconds']:.2f}",
                f"{other['seconds']:.2f}" if other else "-",
                str(step.get("proof_lines", "-")),
                f"{cert['compressed_bytes'] / 1e6:.2f}" if cert else "-",
                check("dratify"), check("backward"), core(checks.get("backward")),
                check("boardproof"),
                "yes" if step.get("second_agree") and cert.get("ok") else "-",
            ])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("report", type=Path)
    args = parser.parse_args()
    report = json.loads(args.report.read_text(encoding="utf-8"))
    header = ["n", "CaDiCaL s (with proof)", "CryptoMiniSat s", "proof lines", "gzip MB",
              "dratify s", "own backward s", "lemmas checked / read", "own forward s",
              "all agree"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows(report):
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
