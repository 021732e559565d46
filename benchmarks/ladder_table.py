"""The ladder's rows as one markdown table, computed from the ladder logs.

Each log (a ``benchmarks/ladder.py --log`` file) gives one row per engine pairing it holds
(game, board size, new and old commits, seconds a move, openings): the games, the new
engine's wins, draws and losses, its score with the 95 % Wilson interval, the Elo
difference with its interval (a bound only where the score is 0 or 1), and the mean game
length. ``docs/engine.md`` quotes this table; ``tests/test_ladder_table.py`` checks that
the quote is the table of :data:`PUBLISHED`; ``--docs`` rewrites that quote.

    .venv/bin/python benchmarks/ladder_table.py [LOG ...]   # default: PUBLISHED
    .venv/bin/python benchmarks/ladder_table.py --docs      # docs/engine.md's copy
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from ladder import elo, tally, wilson  # noqa: E402

#: the logs of the engine issue's ladder rows, in the table's order
PUBLISHED = tuple(f"benchmarks/ladder-{name}.jsonl" for name in (
    "9x9-1s-vs-1s", "13x13-1s-vs-1s", "15x15-1s-vs-1s", "13x13-1s-vs-10s",
    "carpniches-1s-vs-1s", "candy2-175fedc-1s-vs-1s",
))  # fmt: skip

DOCS = ROOT / "docs" / "engine.md"
#: the lines around the table in :data:`DOCS`
START, END = "<!-- ladder-table -->\n", "\n<!-- /ladder-table -->"

GAMES = {"minefield": "Minefield", "carpniches": "Carpniches", "candy": "Candy Conquest (2)"}
HEADER = ("| game | new engine | old engine | seconds a move (new / old) | games | "
          "wins / draws / losses | score [95 %] | Elo [95 %] | mean plies |\n"
          "|---|---|---|---|---:|---|---|---|---:|")  # fmt: skip


def pairing(line: dict[str, Any]) -> tuple[Any, ...]:
    """What makes two games of a log the same row."""
    return (line.get("name", "minefield"), line.get("size"), line["new"], line["base"],
            line["seconds"], line["old_seconds"], line.get("undecided", 0))  # fmt: skip


def elo_text(score: float) -> str:
    """The Elo difference, a bound where the score is 0 or 1.

    >>> elo_text(0.9), elo_text(0.5), elo_text(1.0), elo_text(0.0)
    ('+382', '+0', 'inf', '-inf')
    """
    value = elo(score) + 0.0  # no "-0" at an even score
    return f"{value:+.0f}" if abs(value) != float("inf") else str(value)


def row(lines: list[dict[str, Any]]) -> str:
    """One markdown row of games of one pairing.

    >>> game = {"size": 9, "new": "n", "base": "b", "seconds": 1.0, "old_seconds": 1.0,
    ...         "moves": ["a1", "b2"], "new_score": 1.0}
    >>> print(row([game, dict(game, new_score=0.0)]))
    | Minefield 9x9 | n | b | 1 / 1 | 2 | 1 / 0 / 1 | 50.0 % [9.5, 90.5] | +0 [-393, +393] | 2.0 |
    """
    name, size, new, base, seconds, old_seconds, undecided = pairing(lines[0])
    game = GAMES[name] + (f" {size}x{size}" if size else "")
    if undecided:
        game += f", openings not proved in {undecided:,} nodes"
    games, score, wins, draws, plies = tally(lines)
    low, high = wilson(score, games)
    elo_cell = f"{elo_text(score)} [{elo_text(low)}, {elo_text(high)}]"
    if score in (0.0, 1.0):  # the interval's inner end is the only finite figure
        elo_cell = f"≥ {elo_text(low)}" if score == 1.0 else f"≤ {elo_text(high)}"
    return (f"| {game} | {new} | {base} | {seconds:g} / {old_seconds:g} | {games} | "
            f"{wins} / {draws} / {games - wins - draws} | "
            f"{100 * score:.1f} % [{100 * low:.1f}, {100 * high:.1f}] | {elo_cell} | "
            f"{plies:.1f} |")  # fmt: skip


def table(logs: Iterable[Path]) -> str:
    """The markdown table of every pairing of ``logs``, a row each, in the logs' order."""
    rows = [HEADER]
    for log in logs:
        groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
        for text in log.read_text().splitlines():
            line = json.loads(text)
            groups.setdefault(pairing(line), []).append(line)
        rows.extend(row(lines) for lines in groups.values())
    return "\n".join(rows)


def quoted(text: str) -> str:
    """The table between the markers of a page.

    >>> quoted("a\\n" + START + "| x |" + END + "\\nb")
    '| x |'
    """
    return text[text.index(START) + len(START) : text.index(END)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="*", help="ladder logs [the published rows]")
    parser.add_argument("--docs", action="store_true",
                        help="write the published rows' table into docs/engine.md")  # fmt: skip
    args = parser.parse_args()
    if args.docs and args.logs:
        parser.error("--docs: writes the published rows only, got logs too")
    paths = [Path(p) for p in args.logs] or [ROOT / p for p in PUBLISHED]
    for path in paths:
        if not path.is_file():
            print(f"logs: no such file: {path}", file=sys.stderr)
            return 2
    if args.docs:
        page = DOCS.read_text()
        old = quoted(page)
        DOCS.write_text(page.replace(START + old + END, START + table(paths) + END))
        print(f"wrote {DOCS.relative_to(ROOT)}")
        return 0
    print(table(paths))
    return 0


if __name__ == "__main__":
    sys.exit(main())
