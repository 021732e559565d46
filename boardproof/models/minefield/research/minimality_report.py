"""The report of ``verify minefield-minimal``: Markdown, JSON and one SVG per dead position.

>>> result = {"claim": "minefield-minimal", "statement": "S", "variants": ["standard"],
...           "sizes": [2, 3], "workers": 1, "wall_seconds": 0.1, "glyphs": [
...     {"variant": "standard", "glyph": "hard corner", "left": ["2x3 switch", "2x4 switch"],
...      "label": "s23+s24", "same_as_variant": None, "smallest": 2, "needed": True,
...      "found": {"n": 2, "board": "wb/bw", "line": ["a1", "b1", "b2", "a2"]},
...      "sizes": [{"n": 2, "result": "dead", "variables": 44, "clauses": 100,
...                 "encoding": "e", "seconds": 0.0, "excluded": [], "board": "wb/bw",
...                 "line": ["a1", "b1", "b2", "a2"]}]}]}
>>> print(text_table(result))
variant   glyph left out  smallest dead position  board  needed
--------  --------------  ----------------------  -----  ------
standard  hard corner     n = 2                   wb/bw  yes
>>> "![" in render_markdown(result)
True
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from boardproof.models.minefield.drawing import render
from boardproof.models.minefield.proofs import sat
from boardproof.models.minefield.proofs.glyph_sets import SHORT
from boardproof.models.minefield.research.claims_sections import cert_text
from boardproof.models.minefield.rules import make_game

HEADER = ["variant", "glyph left out", "smallest dead position", "board", "needed"]


def _needed(entry: dict[str, Any]) -> str:
    if entry["needed"]:
        return "yes"
    if entry["needed"] is None:
        return "undecided"
    sizes = [row["n"] for row in entry["sizes"]]
    return f"not for n = {sizes[0]}..{sizes[-1]}"


def _rows(result: dict[str, Any]) -> list[list[str]]:
    out = []
    for entry in result["glyphs"]:
        found = entry["found"]
        out.append([entry["variant"], entry["glyph"],
                    f"n = {entry['smallest']}" if found else "none found",
                    found["board"] if found else "-", _needed(entry)])
    return out


def text_table(result: dict[str, Any]) -> str:
    """A plain-text table for the terminal: one line per (variant, glyph)."""
    rows = [HEADER, *_rows(result)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(HEADER))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
             for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _table(header: list[str], rows: list[list[str]]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(out + ["| " + " | ".join(r) + " |" for r in rows])


def picture_name(entry: dict[str, Any]) -> str:
    """The SVG file of a glyph's dead position."""
    return f"minefield-minimal-{entry['variant']}-no-{SHORT[entry['glyph']]}.svg"


def _size_rows(entry: dict[str, Any]) -> list[list[str]]:
    rows = []
    for row in entry["sizes"]:
        exh = row.get("exhaustive")
        cert = cert_text({"steps": [{"step": "sat", **row}]}) if row.get("certificate") else "-"
        rows.append([str(row["n"]), row["result"], str(row["variables"]),
                     str(row["clauses"]), str(len(row["excluded"])), f"{row['seconds']:.2f}",
                     cert.replace(" (sat)", ""),
                     "-" if exh is None else f"{exh['positions']} pos, {exh['dead']} dead"])
    return rows


def render_markdown(result: dict[str, Any], command: str | None = None) -> str:
    """The Markdown report."""
    lines = ["# Minefield: `minefield-minimal` (is each glyph needed?)", "",
             f"**Claim.** {result['statement']}", "",
             "## Results", "", _table(HEADER, _rows(result)), "",
             "`needed: yes`: the rules without that glyph have a reachable dead position "
             "(found, replayed move by move and checked dead); `not for n = ..`: no dead "
             "position on any size checked (each size UNSAT after the unreachable "
             "candidates were excluded, with a checked DRUP proof where the certificate "
             "column says so).", ""]
    for entry in result["glyphs"]:
        title = f"{entry['variant']} variant without the {entry['glyph']}"
        lines += [f"## {title[0].upper()}{title[1:]}", "",
                  f"Glyphs left: {', '.join(entry['left'])} (`{entry['label']}`)."
                  + (f" These are exactly the {entry['same_as_variant']} variant's glyphs."
                     if entry.get("same_as_variant") else ""), ""]
        lines += [_table(["n", "result", "variables", "clauses", "candidates excluded",
                          "seconds", "certificate (none)", "exhaustive"],
                         _size_rows(entry)), ""]
        found = entry["found"]
        if found:
            board, n = sat.parse_board(found["board"])
            lines += [f"Smallest dead position: n = {n}, `{found['board']}` (Black `x`, "
                      "White `o`), reached by the game below (Black first; `pass` is a "
                      "forced skipped turn):", "", "```", sat.board_picture(board, n), "```",
                      "", "Game: `" + " ".join(found["line"]) + "`", "",
                      f"![dead position]({picture_name(entry)})", ""]
        elif entry.get("same_as_variant"):
            lines += [f"No dead position on the sizes checked. The rules without this "
                      f"glyph are the {entry['same_as_variant']} variant, whose no-draw "
                      f"claim is checked for more sizes in "
                      f"`minefield-no-draw-{entry['same_as_variant']}.md`.", ""]
        for item in (entry["sizes"][-1]["excluded"] if entry["sizes"] else [])[:3]:
            board, n = sat.parse_board(item["board"])
            lines += [f"Candidate excluded at n = {n} (no legal game reaches it: "
                      f"{item['explored']} positions searched):", "", "```",
                      sat.board_picture(board, n), "```", ""]
    lines += ["## Method", "",
              "For each glyph G of a variant, the sizes n = 2, 3, ... are taken in order. "
              "The plain SAT formula of the standard no-draw report (`reports/"
              "minefield-no-draw.md`, The encoding) with the glyphs of the variant less G: "
              "glyph-free, stuck, neither colour has a path, and the crosscut lemma only "
              "when the hard corner is left (its proof rests on that glyph alone; Lemma H "
              "and the ring and strip lemmas are not used). A model is a candidate: a "
              "depth-first search over the positions whose stones are a subset of it "
              "looks for a legal game of the reduced rules reaching it "
              "(`boardproof.models.minefield.research.glyph_games`). A reachable candidate "
              "is a dead position (its game is replayed and checked: every placement "
              "legal, every pass forced, nobody won before the end, neither colour can "
              "place at the end); an unreachable one is excluded by a blocking clause and "
              "the solver asked again. A size whose formula becomes UNSAT has no dead "
              "position; its DRUP proof covers the formula with the blocking clauses (each "
              "justified by its search). Sizes up to the exhaustive bound are also walked "
              "position by position in the reduced rules (`exhaustive`: every reachable "
              "position, no symmetry reduction), and the two must agree. Tested in "
              "`tests/test_minimality.py` against a brute-force reference of the glyphs "
              "written from the rules' text.", ""]
    if command:
        lines += ["## Reproduce", "", "```", command, "```", ""]
    return "\n".join(lines)


def write_report(result: dict[str, Any], out_dir: str | Path,
                 command: str | None = None) -> list[Path]:
    """Write ``minefield-minimal.md``, ``.json`` and one SVG per dead position."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "minefield-minimal.md", out / "minefield-minimal.json"]
    paths[0].write_text(render_markdown(result, command), encoding="utf-8")
    paths[1].write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    for entry in result["glyphs"]:
        if entry["found"]:
            pos = make_game().parse_position(entry["found"]["board"] + " b -")
            path = out / picture_name(entry)
            path.write_text(render(pos), encoding="utf-8")
            paths.append(path)
    return paths
