"""Report sections for the certificates, the second solver and the partial theorems.

Rendering only: the records come from :mod:`boardproof.solvers.sat.certify` (the
``certificate`` of a SAT step) and :mod:`boardproof.solvers.sat.second` (its
``second`` re-solve).

>>> size = {"n": 5, "steps": [{"step": "fill", "result": "unsat", "seconds": 0.1,
...     "solver": "cadical195",
...     "proof_lines": 9, "certificate": {"ok": True, "agree": True, "compressed_bytes": 2048,
...                     "sha256": "ab" * 32, "checks": [
...         {"checker": "dratify", "ok": True, "seconds": 0.5, "steps": 9},
...         {"checker": "backward", "ok": True, "seconds": 0.1, "steps": 5},
...         {"checker": "boardproof", "ok": True, "seconds": 2.0, "steps": 9}]},
...     "second": {"solver": "cryptominisat", "result": "unsat", "seconds": 0.2},
...     "second_agree": True}]}
>>> cert_text(size)
'dratify+bwd+fwd ok (fill)'
>>> print(certificate_table({"sizes": [size]}).splitlines()[2])
| 5 | fill | 9 | 2.0 | `abababababababab…` | ok 0.5 s | ok 0.1 s (5) | ok 2.0 s | yes |
>>> print(second_table({"sizes": [size]}).splitlines()[2])
| 5 | fill | unsat 0.10 s (cadical195) | unsat 0.20 s (cryptominisat) | yes |
"""

from __future__ import annotations

from typing import Any

from boardproof.models.minefield.proofs.ring import RING_LEMMA, STRIP_LEMMA

_SHORT = {"dratify": "dratify", "backward": "bwd", "boardproof": "fwd"}


def cert_text(size: dict[str, Any]) -> str:
    """The summary column: who checked the certificates, e.g. ``'dratify+bwd ok'``.

    ``bwd`` and ``fwd`` are the project's own backward (C) and forward (Python) checkers.

    One text when every certified step has the same; else one per step.
    """
    parts = []
    for step in size.get("steps", []):
        cert = step.get("certificate")
        if cert is None:
            continue
        checks = cert.get("checks")
        if checks is None:  # a record of the older format: one checker, the project's
            parts.append((step["step"], f"own {'ok' if cert['ok'] else 'FAILED'}"))
            continue
        names = "+".join(_SHORT.get(c["checker"], c["checker"]) for c in checks)
        verdict = "ok" if cert["ok"] else "FAILED" if cert.get("agree") else "DISAGREE"
        parts.append((step["step"], f"{names} {verdict}"))
    if not parts:
        return "-"
    if len({text for _, text in parts}) == 1:
        return parts[0][1] + ("" if len(parts) > 1 else f" ({parts[0][0]})")
    return "; ".join(f"{step}: {text}" for step, text in parts)


def _check(cert: dict[str, Any], name: str) -> str:
    for c in cert.get("checks", []):
        if c["checker"] == name:
            core = f" ({c['steps']})" if name == "backward" else ""
            return f"{'ok' if c['ok'] else 'REJECTED'} {c['seconds']:.1f} s{core}"
    return "-"


def _table(header: list[str], rows: list[list[str]]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(out + ["| " + " | ".join(r) + " |" for r in rows])


def certificate_table(result: dict[str, Any]) -> str:
    """One line per certified step (new format): proof size, SHA-256, each check."""
    rows = []
    for size in result["sizes"]:
        for step in size.get("steps", []):
            cert = step.get("certificate")
            if cert is None or "checks" not in cert:
                continue
            rows.append([str(size["n"]), step["step"], str(step.get("proof_lines", "-")),
                         f"{cert['compressed_bytes'] / 1e3:.1f}",
                         f"`{cert['sha256'][:16]}…`", _check(cert, "dratify"),
                         _check(cert, "backward"), _check(cert, "boardproof"),
                         "yes" if cert.get("agree") else "NO"])
    if not rows:
        return ""
    return _table(["n", "step", "proof lines", "gzip kB", "sha256 (first 16 hex)",
                   "dratify", "own backward (lemmas checked)", "own forward",
                   "checkers agree"], rows)


def second_table(result: dict[str, Any]) -> str:
    """One line per step re-solved by the second solver, with the main solver's answer."""
    rows = []
    for size in result["sizes"]:
        for step in size.get("steps", []):
            other = step.get("second")
            if other is None:
                continue
            rows.append([str(size["n"]), step["step"],
                         f"{step['result']} {step['seconds']:.2f} s ({step['solver']})",
                         f"{other['result']} {other['seconds']:.2f} s ({other['solver']})",
                         "yes" if step.get("second_agree") else "NO"])
    if not rows:
        return ""
    return _table(["n", "step", "main solver", "second solver", "agree"], rows)


def sections(result: dict[str, Any]) -> list[str]:
    """The Markdown lines of both sections (empty when the run has neither)."""
    lines: list[str] = []
    certs = certificate_table(result)
    if certs:
        names = sorted({c["name"] for s in result["sizes"] for st in s.get("steps", [])
                        for c in (st.get("certificate") or {}).get("checks", [])})
        lines += ["### Certificates", "",
                  "Every certified step's DRUP proof (CaDiCaL through python-sat), stored "
                  "gzip-compressed with reproducible bytes under `OUT/proofs/` (not in git: "
                  "rerun the command below to regenerate them; CaDiCaL is deterministic, so "
                  "the SHA-256 should match), and checked by checkers that share no code "
                  "with the solver: " + "; ".join(f"`{n}`" for n in names) + ". The full "
                  "SHA-256 of each file is in the JSON report. Times are wall seconds of "
                  "each check (reading and parsing included); the own backward checker "
                  "checks only the lemmas that the final conflict depends on (their number "
                  "in brackets), the forward ones every lemma. A certificate proves the formula as "
                  "encoded (with its symmetry-breaking clauses) UNSAT: it removes the need to "
                  "trust the solver, not the encoding, whose parts are tested against brute "
                  "force (see The encoding).", "", certs, ""]
    other = second_table(result)
    ring = result.get("ring")
    if other:
        lines += ["### Second solver", "",
                  "Every fill step re-solved by a second solver that shares no code with "
                  "CaDiCaL (a model it returned would be checked against every clause).",
                  "", other, ""]
    if ring:
        lines += ring_section(ring)
    return lines


def _certified(flag: bool | None, unsat: bool) -> str:
    if flag is None or not unsat:
        return "-"
    return "yes" if flag else "NO"


def ring_section(ring: dict[str, Any]) -> list[str]:
    """The partial theorems towards "no draw for every n" (the ring lemma)."""
    rows = []
    for w in ring["windows"]:
        for c in w["cases"]:
            rows.append([f"{w['rows']} x {w['files']}", str(w["depth"]), c["case"],
                         str(c["variables"]), str(c["clauses"]), c["result"],
                         _certified(c.get("certified"), c["result"] == "unsat")])
    return ["## Towards no draw for every n", "",
            "The fill step is the only part of the no-draw proof that is not proved for "
            "every n. Proved for every n so far:", "",
            f"- **{RING_LEMMA}**", "",
            "The window cases (depth: p's distance to the bottom edge; `sat` means the "
            "window alone does not exclude p, so no local proof of that size exists):", "",
            _table(["window (ranks x files)", "depth", "case", "variables", "clauses",
                    "result", "proof checked"], rows), "",
            "Depth 0 (the outer ring) is UNSAT in every case of both windows: the ring "
            "lemma. At depth 1 (the second ring, p on rank 2 with rank 1 full) the case "
            "far from the side edges is `sat`, also in larger windows (8 x 15 and 10 x 19, "
            "measured), as the known infinite glyph-free stuck corridors suggest: a proof "
            "for every n must be global (a strip or induction argument, or an invariant "
            "along a corridor). Not found here; the largest n verified is the largest n "
            "of the table above, by SAT with certificates. Checked by "
            "`tests/test_ring_lemma.py`: every case UNSAT; the window formula is a sound "
            "relaxation (every real 5x5 board of a weakened rule, only Black stuck, "
            "satisfies its window formula); the check fails (a `sat` case) when the rule "
            "is weakened so that the lemma is false; and whole-board formulas agree "
            "(n = 5, 6). Each UNSAT case's DRUP proof (CaDiCaL) is checked by the "
            "project's backward checker (`proof checked`). "
            f"Computed in {ring['seconds']:.1f} s.", "", *_strip_lines(ring)]


def _strip_lines(ring: dict[str, Any]) -> list[str]:
    strips = ring.get("strips") or []
    if not strips:
        return []
    proved = [s["width"] for s in strips if s["sat"] == 0]
    top = max(proved) if proved == list(range(1, len(proved) + 1)) and proved else 0
    rows = [[str(s["width"]), f"{s['width'] + 2} x {s['window_files']}", str(s["cases"]),
             str(s["unsat"]), str(s["sat"]), str(s.get("certified", "-")),
             f"{s['seconds']:.1f}"] for s in strips]
    return [f"- **{STRIP_LEMMA}**", "",
            f"Proved here for every width w <= {top} (window half-width h = max(2, w - 3); "
            "a narrower window leaves `sat` cases, e.g. w = 6 with h = 2). "
            "`tests/test_ring_lemma.py` checks the strip windows against real 6x6 boards "
            "of a weakened rule (sound relaxation) and shows the check failing on a "
            "weakened rule. Each UNSAT case's DRUP proof is checked by the project's "
            "backward checker (`unsat proofs checked`).", "",
            _table(["w", "window", "cases", "unsat", "sat", "unsat proofs checked",
                    "seconds"], rows), ""]
