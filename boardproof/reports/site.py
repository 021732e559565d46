"""The static puzzle site: an index and one page per day and game.

``build_site(out, days, last)`` writes, for the ``days`` days up to ``last``
(newest first)::

    out/index.html              a table: one row per day, one link per game
    out/style.css               the only style sheet (no network assets anywhere)
    out/<date>/<game>.html      the puzzle: SVG board, task, rating, a collapsible
                                solution (<details>), links to the neighbouring days
    out/<date>/<game>.jsonl     the puzzle file (``boardproof puzzle check`` reads it)

Pages hold no clock time, so the same arguments give the same bytes.

>>> page_name("minefield", "2026-01-02")
'2026-01-02/minefield.html'
"""

from __future__ import annotations

import datetime as dt
import html
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from boardproof import models
from boardproof.puzzles.daily import daily_puzzle
from boardproof.puzzles.store import dumps
from boardproof.reports import svg
from boardproof.solvers.executor import Executor, run_tasks

TITLE = "boardproof daily puzzles"

STYLE = """\
body { font-family: sans-serif; max-width: 52em; margin: 2em auto; padding: 0 1em;
       color: #222; background: #fdfdfb; }
h1, h2 { font-weight: 600; }
table { border-collapse: collapse; }
td, th { padding: 0.3em 0.8em; border-bottom: 1px solid #ddd; text-align: left; }
.board svg { max-width: 100%; height: auto; }
.task { font-size: 1.2em; }
code { background: #f0f0ea; padding: 0 0.2em; }
details { margin: 1em 0; padding: 0.5em 1em; background: #f4f4ee; }
summary { cursor: pointer; font-weight: 600; }
nav a { margin-right: 1em; }
"""


def display_name(game: str) -> str:
    """How a page names a game (its descriptor's long name).

    >>> display_name("candy")
    'Candy Conquest'
    """
    return models.info(game).long_name


def side_name(game: str, symbol: str) -> str:
    """How a page names a side (from the game's descriptor; the notation letters stay
    in the positions).

    >>> side_name("minefield", "b"), side_name("candy", "2")
    ('Black', 'Player 2')
    """
    return models.info(game).side_name(symbol)


def puzzle_games() -> list[str]:
    """The games that have puzzles (ColleXion does not)."""
    return [name for name in models.names() if models.info(name).puzzles is not None]


def page_name(game: str, date: str) -> str:
    return f"{date}/{game}.html"


def _page(title: str, body: str, depth: int) -> str:
    up = "../" * depth
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n"
        f'<link rel="stylesheet" href="{up}style.css">\n</head>\n<body>\n'
        f"{body}\n</body>\n</html>\n"
    )


def _moves(moves: Sequence[str]) -> str:
    return " ".join(f"<code>{html.escape(m)}</code>" for m in moves)


def puzzle_page(puzzle: dict[str, Any], previous: str | None, following: str | None) -> str:
    """The HTML page of one daily puzzle (links are relative to the page)."""
    game = models.get(puzzle["game"], **puzzle.get("options", {}))
    pos = game.parse_position(puzzle["position"])
    picture = svg.render(pos)
    if picture.startswith("<?xml"):
        picture = picture.split("?>", 1)[1].lstrip()
    rating = puzzle["rating"]
    side = html.escape(side_name(puzzle["game"], puzzle["to_move"]))
    plies = int(puzzle["plies"])
    own = (plies + 1) // 2
    date = html.escape(puzzle["date"])
    name = html.escape(display_name(puzzle["game"]))
    nav = ['<a href="../index.html">all puzzles</a>']
    if previous is not None:
        nav.append(f'<a href="../{html.escape(previous)}">previous day</a>')
    if following is not None:
        nav.append(f'<a href="../{html.escape(following)}">next day</a>')
    decoys = puzzle.get("decoys") or []
    decoy_text = (
        f"<p>Tempting but too slow (they win, in more plies): {_moves(decoys)}</p>\n"
        if decoys
        else ""
    )
    duals = puzzle.get("duals")
    if duals == []:
        dual_text = f"<p>{side} has exactly one winning move at every turn of this line.</p>\n"
    elif duals:
        where = ", ".join(str(n) for n in duals)
        dual_text = f"<p>At ply {where} of this line, {side} also has other winning moves.</p>\n"
    else:
        dual_text = ""
    body = (
        f"<nav>{' '.join(nav)}</nav>\n"
        f"<h1>{name} — {date}</h1>\n"
        f'<p class="task"><strong>{side}</strong> to play and win in {plies} plies '
        f"({own} move{'s' if own != 1 else ''} of {side}). Exactly one first move wins.</p>\n"
        f'<div class="board">\n{picture}</div>\n'
        f"<p>Position: <code>{html.escape(puzzle['position'])}</code></p>\n"
        f"<p>Rating: {rating['rating']} ({html.escape(rating['label'])}); "
        f"{rating['legal_moves']} legal first moves.</p>\n"
        "<details>\n<summary>Solution</summary>\n"
        f"<p>First move: {_moves([puzzle['solution']])}</p>\n"
        f"<p>Main line: {_moves(puzzle['pv'])}</p>\n"
        f"{dual_text}{decoy_text}"
        f"<p>Every other first move is refuted; the win is certified by a proof tree of "
        f"{len(puzzle['proof']['nodes'])} positions "
        f'(<a href="{html.escape(puzzle["game"])}.jsonl">puzzle file</a>, check it with '
        f"<code>boardproof puzzle check {html.escape(puzzle['game'])}.jsonl</code>).</p>\n"
        "</details>"
    )
    return _page(f"{puzzle['game']} puzzle {puzzle['date']}", body, 1)


def index_page(dates: Sequence[str], games: Sequence[str], ratings: dict[str, str]) -> str:
    """The index: one row per day (newest first), one cell per game."""
    head = "".join(f"<th>{html.escape(display_name(g))}</th>" for g in games)
    rows = []
    for date in dates:
        cells = []
        for game in games:
            page = page_name(game, date)
            cells.append(
                f'<td><a href="{page}">{html.escape(ratings.get(page, "puzzle"))}</a></td>'
            )
        rows.append(f"<tr><td>{html.escape(date)}</td>{''.join(cells)}</tr>")
    body = (
        f"<h1>{TITLE}</h1>\n"
        "<p>Every puzzle is a forced win with exactly one winning first move, proved by the "
        "boardproof solvers and shipped with its proof tree.</p>\n"
        f"<table>\n<tr><th>day</th>{head}</tr>\n" + "\n".join(rows) + "\n</table>"
    )
    return _page(TITLE, body, 0)


def daily_task(arg: tuple[str, str]) -> dict[str, Any]:
    """The puzzle of one (game, ISO date): a self-contained executor task."""
    game, date = arg
    return daily_puzzle(game, dt.date.fromisoformat(date))


def build_site(
    out: str | os.PathLike[str],
    days: int,
    last: dt.date,
    games: Sequence[str] | None = None,
    on_page: Callable[[str], None] | None = None,
    executor: Executor | None = None,
    progress: bool = False,
) -> list[str]:
    """Write the site; returns the written paths relative to ``out``, sorted.

    The day's puzzles are found first, one executor task per (game, day), then the
    pages are written in order (the same files whatever ran the tasks).
    """
    chosen = list(games) if games is not None else puzzle_games()
    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    dates = [(last - dt.timedelta(days=k)).isoformat() for k in range(days)]
    written: list[str] = []

    def write(relative: str, text: str) -> None:
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(relative)
        if on_page is not None:
            on_page(relative)

    write("style.css", STYLE)
    ratings: dict[str, str] = {}
    found = run_tasks(daily_task, [(f"{game} {date}", (game, date)) for game in chosen
                                   for date in dates],
                      executor=executor, progress=progress,
                      description="site puzzles")  # fmt: skip
    for game in chosen:
        for number, date in enumerate(dates):
            puzzle = found[f"{game} {date}"]
            following = page_name(game, dates[number - 1]) if number > 0 else None
            previous = page_name(game, dates[number + 1]) if number + 1 < len(dates) else None
            page = page_name(game, date)
            ratings[page] = f"{puzzle['rating']['label']} ({puzzle['rating']['rating']})"
            write(f"{date}/{game}.jsonl", dumps(puzzle) + "\n")
            write(page, puzzle_page(puzzle, previous, following))
    write("index.html", index_page(dates, chosen, ratings))
    return sorted(written)
