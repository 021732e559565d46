"""The Carpniches opening report: Markdown and JSON.

The computing is :func:`boardproof.models.carpniches.research.openings.analyse_openings`; this
module only renders its result.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from boardproof.models.carpniches.research.openings import DFPN_TEXT, METHOD_NAMES


def to_markdown(report: dict[str, Any]) -> str:
    """The Markdown page of an analysis."""
    out = [
        "# Carpniches: the first moves",
        "",
        f"Start position `{report['start']}` (capybaras to move). The start is kept by",
        "the half turn and both diagonal mirrors, so its "
        f"{report['summary']['first_moves']} first moves fall",
        f"into {report['summary']['classes']} classes; one move of each class is searched.",
        "",
        f"Method: {report['method']},",
        f"at most {report['max_plies']} plies after the first move, time limit per move: "
        f"{_seconds(report['timeout_per_move'])}.",
        "Repeated positions count as draws and a proved win never relies on one.",
        "",
        "| first move | same as | result after it (poodles to move) | nodes | seconds |",
        "|---|---|---|---:|---:|",
    ]
    for row in report["moves"]:
        if row["winner"] is not None:
            text = f"**{row['winner']} wins** in {row['plies']} plies: {' '.join(row['pv'])}"
        else:
            text = f"no forced win for either side within {row['no_forced_win_within']} plies"
            if row["stopped_by_budget"]:
                text += " (next depth stopped by the time limit)"
        same = ", ".join(row["same_as"]) or "-"
        out.append(f"| {row['move']} | {same} | {text} | {row['nodes']} | {row['seconds']} |")
    summary = report["summary"]
    out.append("")
    if summary["forced_wins_found"]:
        for w in summary["forced_wins_found"]:
            same = f" (and {', '.join(w['same_as'])})" if w["same_as"] else ""
            line = (f"Forced win found: after {w['move']}{same}, "
                    f"**{w['winner']} wins in {w['plies']} plies**")  # fmt: skip
            dfpn_method = report["method"] == METHOD_NAMES["dfpn"]
            line += "." if dfpn_method else DFPN_TEXT[w.get("dfpn_confirms")]
            out.append(line + _certificate_text(w.get("certificate")))
    else:
        out.append("No forced win was found for either side.")
    large = [w["certificate"]["file"] for w in summary["forced_wins_found"]
             if (w.get("certificate") or {}).get("positions", 0) > LARGE_PROOF]  # fmt: skip
    if large:
        out.append(
            f"The proof trees of more than {LARGE_PROOF:,} positions ({', '.join(large)}) are "
            "kept in the repository compressed, as `FILE.xz` (`boardproof check-proof "
            "FILE.xz` reads it as it is)."
        )
    capybara_wins = [w for w in summary["forced_wins_found"] if w["winner"] == "c"]
    if capybara_wins:
        best = min(capybara_wins, key=lambda w: w["plies"])
        same = f" (or {', '.join(best['same_as'])})" if best["same_as"] else ""
        out.append(
            f"**The start position is a win for the capybaras** (who move first): "
            f"{best['move']}{same} leaves the poodles lost, the capybaras winning in "
            f"{best['plies']} more plies, so they win within **{1 + best['plies']} plies** "
            "of the start."
        )
    if "no_forced_win_from_start_within" in summary:
        n = summary["no_forced_win_from_start_within"]
        out.append(
            f"From the start position, neither side can force a win within **{n} plies**\n"
            "(1 + the smallest depth above: no first move gives the capybaras a forced win\n"
            "that soon, and the unresolved first moves leave the poodles none)."
        )
    out.append("")
    command = f"boardproof openings carpniches --max-plies {report['max_plies']}"
    if report["timeout_per_move"] is not None:
        command += f" --timeout {report['timeout_per_move']:g}"
    for name in ("native", "dfpn"):
        if report["method"] == METHOD_NAMES[name]:
            command += f" --method {name}"
    command += " --out reports"  # the default folder is ./openings, not the published one
    out.append(f"Reproduce: `{command}` (writes this page and its JSON; with a time limit,")
    out.append("the depth reached depends on the machine, every depth reported is proved).")
    return "\n".join(out) + "\n"


def _certificate_text(certificate: dict[str, Any] | None) -> str:
    """What the page says of a forced win's proof tree (native df-pn), if any."""
    if not certificate:
        return ""
    what = f"its proof tree ({certificate['positions']} positions)"
    if certificate.get("file"):
        name = certificate["file"]
        what = f"its proof tree `{name}` ({certificate['positions']} positions)"
        return (f" The native df-pn proves it and {what} passes the rules-only checker "
                f"(`boardproof check-proof {name}`).")  # fmt: skip
    return f" The native df-pn proves it and {what} passes the rules-only checker."


def _seconds(value: float | None) -> str:
    return "none" if value is None else f"{value:g} s"


#: proof trees above this many positions are published compressed (xz)
LARGE_PROOF = 100_000


def write_report(report: dict[str, Any], out_dir: str | Path) -> tuple[Path, Path]:
    """Write ``carpniches-opening.md`` and ``.json`` into ``out_dir``."""
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    md = folder / "carpniches-opening.md"
    js = folder / "carpniches-opening.json"
    md.write_text(to_markdown(report), encoding="utf-8")
    js.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return md, js
