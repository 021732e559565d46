"""The Minefield fairness report: Markdown, JSON and one SVG heat map per size and variant.

The computing is :func:`.fairness.run_campaign`; this module only renders its result.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from boardproof.models.drawing import SvgDocument
from boardproof.models.minefield.research.fairness import FILES

#: the report's files (the maps add ``minefield-fairness-<n>-<variant>.svg``)
NAME = "minefield-fairness"
#: the colours of the heat map: White's end (0 %), the middle (50 %), Black's end (100 %)
LOW, MIDDLE, HIGH = (33, 102, 172), (247, 247, 247), (178, 24, 43)


def colour(score: float | None) -> str:
    """The heat map's colour of Black's win rate (grey: no game yet).

    >>> colour(0.0), colour(0.5), colour(1.0), colour(None)
    ('#2166ac', '#f7f7f7', '#b2182b', '#cccccc')
    """
    if score is None:
        return "#cccccc"
    far, t = (LOW, 1 - 2 * score) if score < 0.5 else (HIGH, 2 * score - 1)
    mixed = (round(m + (f - m) * t) for m, f in zip(MIDDLE, far, strict=True))
    return "#" + "".join(f"{c:02x}" for c in mixed)


def mark(cls: dict[str, Any]) -> str:
    """A class's policy in a word: ``swap``/``keep``, with ``?`` when uncertain.

    >>> mark({"games": 10, "swap": True, "certain": False}), mark({"games": 0})
    ('swap?', '-')
    """
    if not cls["games"]:
        return "-"
    return ("swap" if cls["swap"] else "keep") + ("" if cls["certain"] else "?")


def svg_name(size: dict[str, Any]) -> str:
    return f"{NAME}-{size['n']}-{size['variant']}.svg"


def heat_map_svg(size: dict[str, Any]) -> str:
    """One map: each point coloured by Black's estimated win rate after a stone there,
    with the rate, the policy and (outlined) the proved value where one is known."""
    n = size["n"]
    cell = 44
    board = 26 + n * cell + 8
    width = max(board, 330)
    margin = 26 + (width - board) / 2
    doc = SvgDocument(width, 26 + n * cell + 72)
    doc.rect(0, 0, doc.width, doc.height, fill="#ffffff")
    by_point = {p: cls for cls in size["classes"] for p in cls["points"]}
    for r in range(n):
        y = 8 + (n - 1 - r) * cell
        doc.text(margin - 13, y + cell / 2 + 4, str(r + 1), size=11, fill="#444")
        for f in range(n):
            x = margin + f * cell
            point = f"{FILES[f]}{r + 1}"
            cls = by_point[point]
            score = cls["score"] if cls["games"] else None
            proved = (cls["proved"] or {}).get(point)
            doc.rect(x, y, cell, cell, fill=colour(score), stroke="#888", stroke_width=1)
            if proved:
                doc.rect(x + 2, y + 2, cell - 4, cell - 4, fill="none",
                         stroke="#000000" if proved == "b" else "#ffffff",
                         stroke_width=3)  # fmt: skip
            dark = score is not None and abs(score - 0.5) > 0.3
            ink = "#ffffff" if dark else "#222222"
            rate = "-" if score is None else f"{round(100 * score)}%"
            doc.text(x + cell / 2, y + 13, point, size=9, fill=ink)
            doc.text(x + cell / 2, y + 26, rate, size=11, fill=ink)
            doc.text(x + cell / 2, y + 38, mark(cls) + (f" ={proved.upper()}" if proved else ""),
                     size=8, fill=ink)  # fmt: skip
    for f in range(n):
        doc.text(margin + f * cell + cell / 2, 8 + n * cell + 14, FILES[f], size=11, fill="#444")
    games, its = size["games_per_class"], size["iterations"]
    lines = [
        f"{n}x{n} {size['variant']}: Black's self-play win rate after a black stone there",
        f"(ESTIMATES: {games} games a class, {its} MCTS iterations a move; pie off)"
        if size["complete"] else f"(ESTIMATES, PARTIAL: {size['games']} of "
        f"{size['games_asked']} games; {its} MCTS iterations a move; pie off)",
        "red: Black ahead (White should swap), blue: White ahead; ? = interval holds 50%;",
        "outlined =B / =W: the proved winner (pie off), where one is known",
    ]
    for k, text in enumerate(lines):
        doc.text(doc.width / 2, 26 + n * cell + 14 + 13 * k, text, size=9, fill="#444")
    return doc.to_string()


def grid(size: dict[str, Any]) -> list[str]:
    """The map as a Markdown table: Black's win rate in % and the policy, top rank first."""
    n = size["n"]
    by_point = {p: cls for cls in size["classes"] for p in cls["points"]}
    lines = ["| | " + " | ".join(FILES[:n]) + " |", "|---" * (n + 1) + "|"]
    for r in range(n - 1, -1, -1):
        cells = []
        for f in range(n):
            point = f"{FILES[f]}{r + 1}"
            cls = by_point[point]
            text = f"{round(100 * cls['score'])} {mark(cls)}" if cls["games"] else "-"
            proved = (cls["proved"] or {}).get(point)
            cells.append(text + (f" ={proved.upper()}" if proved else ""))
        lines.append(f"| {r + 1} | " + " | ".join(cells) + " |")
    return lines


def proved_counts(size: dict[str, Any]) -> tuple[int, list[str]]:
    """How many proved cells (with games) the estimate points the right way at, and the
    others (a rate of exactly 50 % points nowhere).

    >>> proved_counts({"classes": [{"games": 8, "score": 0.75, "proved": {"a1": "b"}},
    ...                            {"games": 8, "score": 0.5, "proved": {"b1": "w"}}]})
    (1, ['b1'])
    """
    agree, other = 0, []
    for cls in size["classes"]:
        for point, winner in (cls["proved"] or {}).items():
            if not cls["games"]:
                continue
            if (cls["score"] > 0.5) == (winner == "b") and cls["score"] != 0.5:
                agree += 1
            else:
                other.append(point)
    return agree, other


def proved_agreement(size: dict[str, Any]) -> str | None:
    """How the estimates compare with the proved cells (None when none is proved).

    >>> proved_agreement({"classes": [{"games": 8, "score": 0.75, "proved": {"a1": "b"}},
    ...                               {"games": 8, "score": 0.5, "proved": {"b1": "w"}}]})
    '2 proved cells: the estimate points to the proved winner at 1, not at 1 (b1)'
    """
    agree, other = proved_counts(size)
    total = agree + len(other)
    if not total:
        return None
    text = f"{total} proved cells: the estimate points to the proved winner at {agree}"
    return text + (f", not at {len(other)} ({', '.join(other)})" if other else "")


def render_markdown(report: dict[str, Any]) -> str:
    """The Markdown report."""
    settings = report["settings"]
    lines = [
        "# Minefield fairness maps (estimates)",
        "",
        "**Every number here is an estimate from self-play, not a proof.** For each first "
        "point of Black (the pie rule off), the engine played itself from the position with "
        "that one black stone, White to move; the maps give the share of those games Black "
        "won, with its 95 % Wilson score interval. The swap policy it implies: White "
        "swaps a first stone whose estimated win rate for Black is above 50 % (`swap`), and "
        "keeps the others (`keep`); `?` marks a point whose interval holds 50 % (uncertain "
        "at this budget). Cells marked `=B`/`=W` are proved wins (pie off) from "
        + (", ".join(f"`{p}`" for p in report.get("proved_from") or []) or "no opening table")
        + ".",
        "",
        f"- Engine: {report['engine']}.",
        "- Budget: " + "; ".join(
            f"{n}x{n}: {settings['games_per_class'][str(n)]} games a class, "
            f"{settings['iterations_per_move'][str(n)]} iterations a move"
            for n in settings["sizes"]) + f"; seed {settings['seed']}.",
        "- First points are pooled by the symmetries that keep each colour's edges (half "
        "turn, the two mirrors); the games of a class go round its points in turn. "
        "Transposes exchange the colours' edges and are not used.",
        "- Standard games stop at the first ortho-diagonal path, whose owner wins by "
        "Theorem O (`reports/minefield-orthodiagonal.md`); pinwheel games are played to "
        "the end.",
        f"- Interval: {report['interval']}.",
        "",
        "Made by:",
        "",
        "```",
        report.get("command", ""),
        "```",
        "",
    ]  # fmt: skip
    if any(proved_counts(size) != (0, []) for size in report["sizes"]):
        lines += ["Where the opening tables are proved (pie off, standard glyphs), the maps "
                  "are a check of the estimates themselves: the column *proved cells right* "
                  "counts the proved cells whose estimate is on the proved winner's side of "
                  "50 %. The engine at this budget can be wrong there, and so can be its "
                  "maps of the larger boards.", ""]  # fmt: skip
    if report.get("journal"):
        lines += [f"Every game is in the journal `{report['journal']}` (one line per block "
                  "of games of a class: first point, winner, plies, how it ended); the "
                  "command resumes or extends the campaign from it.", ""]  # fmt: skip
    if not report["complete"]:
        lines += ["**Partial run:** not every game asked for is played yet (the same "
                  "command resumes from its journal).", ""]  # fmt: skip
    lines += ["| map | classes | games | Black wins | swap points | uncertain points | "
              "proved cells right | mean plies | ended |",
              "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for size in report["sizes"]:
        black = sum(cls["black_wins"] for cls in size["classes"])
        ends = ", ".join(f"{count} {end}" for end, count in size["ends"].items())
        share = f"{100 * black / size['games']:.1f} %" if size["games"] else "-"
        agree, other = proved_counts(size)
        right = f"{agree} of {agree + len(other)}" if agree or other else "-"
        lines.append(
            f"| {size['n']}x{size['n']} {size['variant']} | {len(size['classes'])} | "
            f"{size['games']} of {size['games_asked']} | {share} | "
            f"{size['swap_points']} of {size['n'] ** 2} | {size['uncertain_points']} | {right} | "
            f"{size['mean_plies'] if size['mean_plies'] is not None else '-'} | {ends or '-'} |"
        )
    for size in report["sizes"]:
        n = size["n"]
        lines += ["", f"## {n}x{n} {size['variant']}", "",
                  f"![fairness map {n}x{n} {size['variant']}]({svg_name(size)})", "",
                  f"{size['games_per_class']} games a class, {size['iterations']} iterations "
                  "a move" + ("" if size["complete"] else
                              f" (partial: {size['games']} of {size['games_asked']} games "
                              "played)") + ". Black's win rate in %, then the policy:",
                  ""]  # fmt: skip
        lines += grid(size)
        agreement = proved_agreement(size)
        if agreement:
            lines += ["", agreement + "."]
        lines += ["", "| class | points | games | Black | White | rate | 95 % interval | "
                  "policy | proved |", "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
        for cls in size["classes"]:
            low, high = cls["interval"]
            proved = ", ".join(f"{p} {w.upper()}" for p, w in (cls["proved"] or {}).items())
            lines.append(
                f"| {cls['representative']} | {' '.join(cls['points'])} | {cls['games']} | "
                f"{cls['black_wins']} | {cls['white_wins']} | "
                + (f"{100 * cls['score']:.1f} % | {100 * low:.1f}-{100 * high:.1f} % | "
                   if cls["games"] else "- | - | ")
                + f"{mark(cls)} | {proved or '-'} |"
            )  # fmt: skip
    return "\n".join(lines) + "\n"


def report_files(out_dir: str | os.PathLike[str], report: dict[str, Any]) -> list[Path]:
    """The paths :func:`write_report` writes."""
    out = Path(out_dir)
    return [out / f"{NAME}.md", out / f"{NAME}.json",
            *(out / svg_name(size) for size in report["sizes"])]  # fmt: skip


def file_data(report: dict[str, Any]) -> dict[str, Any]:
    """The report's JSON (without the machine's timings)."""
    return {**report, "sizes": [{k: v for k, v in size.items() if k != "cpu_seconds"}
                                for size in report["sizes"]]}  # fmt: skip


def write_report(report: dict[str, Any], out_dir: str | os.PathLike[str]) -> list[Path]:
    """Write the .md, .json and one SVG per size and variant; returns the paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    md_path, json_path, *svgs = report_files(out, report)
    json_path.write_text(json.dumps(file_data(report), indent=1) + "\n", encoding="utf-8")
    md_path.write_text(render_markdown(report), encoding="utf-8")
    for size, path in zip(report["sizes"], svgs, strict=True):
        path.write_text(heat_map_svg(size), encoding="utf-8")
    return [md_path, json_path, *svgs]
