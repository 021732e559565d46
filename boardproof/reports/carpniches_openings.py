"""Opening analysis of Carpniches: every first move searched as deep as the budget allows.

The start position is symmetric under 4 board symmetries (the half turn and both
diagonal mirrors), so its 18 first moves fall into 6 classes; one representative of
each is searched with the game-agnostic alpha-beta solver
(:class:`boardproof.solvers.search.AlphaBeta`: iterative deepening, transposition
table over the 8 symmetries, repetitions scored as draws and never used for a win).
For each class the report gives the deepest N such that neither side can force a win
within N plies after that first move (or the forced win found), and how the start
position follows from it.

>>> classes = first_move_classes()
>>> len(classes), sum(len(c) for c in classes)
(6, 18)
>>> [str(m) for m in classes[0]]
['f1-c1', 'f1-f4', 'a6-a3', 'a6-d6']
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from boardproof.models.carpniches import START_POSITION, CarpnichesMove, CarpnichesPosition
from boardproof.solvers.common import Budget
from boardproof.solvers.search import AlphaBeta


def first_move_classes(
    start: CarpnichesPosition = START_POSITION,
) -> list[list[CarpnichesMove]]:
    """The legal moves of ``start`` grouped by the symmetries that keep ``start``."""
    keep = [s for s in range(8) if start.transform(s) == start]
    classes: list[list[CarpnichesMove]] = []
    seen: set[CarpnichesMove] = set()
    for move in start.legal_moves():
        if move in seen:
            continue
        images = sorted(
            {start.transform_move(move, s) for s in keep}, key=start.legal_moves().index
        )
        seen.update(images)
        classes.append(images)
    return classes


def analyse_move(
    start: CarpnichesPosition, move: CarpnichesMove, max_plies: int, timeout: float | None
) -> dict[str, Any]:
    """Search the position after ``move``; a JSON-ready summary."""
    pos = start.play(move)
    began = time.perf_counter()
    search = AlphaBeta(pos, budget=Budget(timeout))
    result = search.iterate(max_plies)
    seconds = time.perf_counter() - began
    symbol = pos.game.symbol
    winner = None
    if result.value == "win":
        winner = symbol(pos.to_move)
    elif result.value == "loss":
        winner = symbol(1 - pos.to_move)
    return {
        "move": str(move),
        "position": pos.fen(),
        "result": result.value,
        "winner": winner,
        "plies": result.plies,
        "pv": [str(m) for m in result.pv] if result.proved else [],
        "no_forced_win_within": None if result.proved else result.depth,
        "stopped_by_budget": result.timed_out,
        "nodes": search.nodes,
        "seconds": round(seconds, 1),
        "iterations": [{"plies": d, "nodes": n} for d, _, n in result.iterations],
    }


def analyse_openings(
    max_plies: int = 9, timeout: float | None = None, start: CarpnichesPosition = START_POSITION
) -> dict[str, Any]:
    """The whole analysis as a JSON-ready dict."""
    rows = []
    for moves in first_move_classes(start):
        row = analyse_move(start, moves[0], max_plies, timeout)
        row["same_as"] = [str(m) for m in moves[1:]]
        rows.append(row)
    depths = [r["no_forced_win_within"] for r in rows]
    open_rows = [d for d in depths if d is not None]
    summary: dict[str, Any] = {
        "classes": len(rows),
        "first_moves": sum(1 + len(r["same_as"]) for r in rows),
        "forced_wins_found": [
            {"move": r["move"], "winner": r["winner"], "plies": r["plies"]}
            for r in rows
            if r["winner"] is not None
        ],
    }
    if open_rows and len(open_rows) == len(rows):
        # no first move wins for c within 1 + d_i plies, and p cannot win against every one
        summary["no_forced_win_from_start_within"] = 1 + min(open_rows)
    return {
        "game": "carpniches",
        "start": start.fen(),
        "method": "alpha-beta (iterative deepening, symmetric transposition table)",
        "max_plies": max_plies,
        "timeout_per_move": timeout,
        "moves": rows,
        "summary": summary,
    }


def to_markdown(report: dict[str, Any]) -> str:
    """The Markdown page of an analysis."""
    out = [
        "# Carpniches: the first moves",
        "",
        f"Start position `{report['start']}` (capybaras to move). The start is kept by the",
        "half turn and both diagonal mirrors, so its "
        f"{report['summary']['first_moves']} first moves fall into "
        f"{report['summary']['classes']} classes; one move of each class is searched.",
        "",
        f"Method: {report['method']}, at most {report['max_plies']} plies after the first "
        f"move, time limit per move: {_seconds(report['timeout_per_move'])}. Repeated "
        "positions count as draws and a proved win never relies on one.",
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
        out.append(
            "Forced wins found: "
            + ", ".join(
                f"{w['move']} ({w['winner']} in {w['plies']})" for w in summary["forced_wins_found"]
            )
            + "."
        )
    else:
        out.append("No forced win was found for either side.")
    if "no_forced_win_from_start_within" in summary:
        n = summary["no_forced_win_from_start_within"]
        out.append(
            f"From the start position, neither side can force a win within **{n} plies** "
            "(1 + the smallest depth above: every first move leaves no forced win for the "
            "poodles, and none gives the capybaras one)."
        )
    out.append("")
    out.append(
        "Reproduce: `boardproof openings carpniches --max-plies "
        f"{report['max_plies']}` (writes this page and its JSON)."
    )
    return "\n".join(out) + "\n"


def _seconds(value: float | None) -> str:
    return "none" if value is None else f"{value:g} s"


def write_report(report: dict[str, Any], out_dir: str | Path) -> tuple[Path, Path]:
    """Write ``carpniches-opening.md`` and ``.json`` into ``out_dir``."""
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    md = folder / "carpniches-opening.md"
    js = folder / "carpniches-opening.json"
    md.write_text(to_markdown(report), encoding="utf-8")
    js.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return md, js
