"""The static puzzle site: an index and one page per day and game.

``build_site(out, days, last)`` writes, for the ``days`` days up to ``last``
(newest first)::

    out/index.html              today's puzzle per game, the archive (one row per puzzle)
                                with its game / theme / difficulty filters
    out/style.css, out/site.js  the only style sheet and script (no network assets anywhere;
                                see boardproof.reports.site_assets)
    out/<date>/<game>.html      the interactive puzzle: clickable SVG boards along the main
                                line, the legal moves of every step (the page knows no rules),
                                task, rating, a collapsible solution (<details>), links to
                                the neighbouring days
    out/<date>/<game>.jsonl     the puzzle file (``boardproof puzzle check`` reads it)
    out/variants.html           the glyph rules of the Minefield variants (when a day is in
                                one: its page names the variant and links there)

Pages hold no clock time, so the same arguments give the same bytes.

>>> page_name("minefield", "2026-01-02")
'2026-01-02/minefield.html'
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from boardproof import models
from boardproof.puzzles import PuzzleError
from boardproof.puzzles.compact import proof_phrase
from boardproof.puzzles.store import dumps
from boardproof.puzzles.themes import puzzle_themes, theme_title
from boardproof.reports import site_assets, site_variants
from boardproof.reports.play import hit_regions, puzzle_frames

TITLE = "boardproof daily puzzles"
#: a board with at least this many click targets (a Minefield 10x10 and up) is *dense*: on a
#: narrow screen it takes the whole width and its labels grow (site.css, ``.board.dense``)
DENSE_TARGETS = 100

#: the site's one style sheet and one script (boardproof.reports.site_assets)
STYLE = site_assets.STYLE
SCRIPT = site_assets.SCRIPT


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
    """The games that have puzzles (all four; ColleXion's are "best turn" puzzles)."""
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
        f'{body}\n<script src="{up}site.js"></script>\n</body>\n</html>\n'
    )


def _moves(moves: Sequence[str]) -> str:
    return " ".join(f"<code>{html.escape(m)}</code>" for m in moves)


def script_json(data: Any) -> str:
    """JSON safe inside ``<script type="application/json">`` (no ``<``, ``>``, ``&``).

    >>> print(script_json({"a": "</script><b>&"}))
    {"a": "\\u003c/script\\u003e\\u003cb\\u003e\\u0026"}
    """
    text = json.dumps(data, ensure_ascii=True, sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def theme(puzzle: dict[str, Any]) -> str:
    """The puzzle's theme for the archive filter.

    >>> theme({"plies": 5}), theme({"objective": "score", "solution": "3.4/g"})
    ('win in 5', 'best turn: hand in a set')
    """
    if puzzle.get("objective") == "score":
        kind = "hand in a set" if "/" in str(puzzle.get("solution")) else "collect"
        return f"best turn: {kind}"
    return f"win in {int(puzzle['plies'])}"


def themes(puzzle: dict[str, Any]) -> list[str]:
    """The puzzle's themes as pages write them: its ``themes`` field, else computed from its
    record (:func:`boardproof.puzzles.themes.puzzle_themes`), else :func:`theme`.

    >>> themes({"themes": ["double-threat", "win-in-3"]})
    ['double threat', 'win in 3']
    """
    found = puzzle.get("themes")
    if not isinstance(found, list):
        try:
            found = puzzle_themes(puzzle)
        except PuzzleError:
            found = []
    titles = [theme_title(str(t)) for t in found]
    return titles or [theme(puzzle)]


def difficulty(puzzle: dict[str, Any]) -> tuple[int, str]:
    """The rating and label pages show: the search-measured ``difficulty`` where the puzzle
    has one (:mod:`boardproof.puzzles.difficulty`), else the formula's ``rating``.

    >>> difficulty({"rating": {"rating": 1480, "label": "medium"}})
    (1480, 'medium')
    >>> difficulty({"rating": {"rating": 1480, "label": "medium"},
    ...             "difficulty": {"rating": 1900, "label": "hard"}})
    (1900, 'hard')
    """
    chosen = puzzle.get("difficulty")
    if not (isinstance(chosen, dict) and "rating" in chosen):
        chosen = puzzle["rating"]
    return int(chosen["rating"]), str(chosen["label"])


def _themes_html(titles: Sequence[str]) -> str:
    from urllib.parse import quote

    return ", ".join(
        f'<a href="../index.html?theme={html.escape(quote(t), quote=True)}">{html.escape(t)}</a>'
        for t in titles
    )


def _rating_text(puzzle: dict[str, Any]) -> str:
    value, level = difficulty(puzzle)
    measured = puzzle.get("difficulty")
    how = ""
    if isinstance(measured, dict) and "rating" in measured:
        if measured.get("found"):
            how = (f" (measured: the engine settles on the solution after "
                   f"{int(measured['iterations'])} iterations)")  # fmt: skip
        else:
            how = (f" (measured: the engine had not settled on the solution after "
                   f"{int(measured['limit'])} iterations)")  # fmt: skip
    return f"Rating: {value} ({html.escape(level)}){how}"


def _task(puzzle: dict[str, Any], side: str) -> str:
    if puzzle.get("objective") == "score":
        return (
            f'<p class="task"><strong>{side}</strong> to play the best turn: the one that '
            "secures the best final score difference against best play. Exactly one turn "
            "is best, by at least one point.</p>\n"
        )
    plies = int(puzzle["plies"])
    own = (plies + 1) // 2
    return (
        f'<p class="task"><strong>{side}</strong> to play and win in {plies} plies '
        f"({own} move{'s' if own != 1 else ''} of {side}). Exactly one first move wins.</p>\n"
    )


def _solution(puzzle: dict[str, Any], side: str) -> str:
    if puzzle.get("objective") == "score":
        values = puzzle.get("values") or {}
        others = sorted(
            ((v, t) for t, v in values.items() if t not in (puzzle.get("solutions") or [])),
            key=lambda vt: -vt[0],
        )
        shown = ", ".join(f"<code>{html.escape(t)}</code> {int(v):+d}" for v, t in others[:6])
        return (
            f"<p>Best turn: {_moves(puzzle.get('solutions') or [puzzle['solution']])}, "
            f"securing {int(puzzle['score']):+d} (final score difference for {side}).</p>\n"
            f"<p>Best line to the end: {_moves(puzzle['pv'])}</p>\n"
            f"<p>The next best turns: {shown}.</p>\n"
            "<p>Every turn's value is re-proved by an exact search over the rules "
            f'(<a href="{html.escape(puzzle["game"])}.jsonl">puzzle file</a>, check it with '
            f"<code>boardproof puzzle check {html.escape(puzzle['game'])}.jsonl</code>).</p>\n"
        )
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
        where = ", ".join(str(int(n)) for n in duals)
        dual_text = f"<p>At ply {where} of this line, {side} also has other winning moves.</p>\n"
    else:
        dual_text = ""
    return (
        f"<p>First move: {_moves([puzzle['solution']])}</p>\n"
        f"<p>Main line: {_moves(puzzle['pv'])}</p>\n"
        f"{dual_text}{decoy_text}"
        f"<p>Every other first move is refuted; the win is certified by {proof_phrase(puzzle)} "
        f'(<a href="{html.escape(puzzle["game"])}.jsonl">puzzle file</a>, check it with '
        f"<code>boardproof puzzle check {html.escape(puzzle['game'])}.jsonl</code>).</p>\n"
    )


def board_class(puzzle: dict[str, Any]) -> str:
    """The board's CSS class: ``board``, and ``dense`` for a board of many targets.

    >>> board_class({"game": "minefield", "position": "9/9/9/9/9/9/9/9/9 b -"})
    'board'
    >>> board_class({"game": "minefield", "position": "/".join(["13"] * 13) + " b -"})
    'board dense'
    """
    game = models.get(str(puzzle["game"]), **(puzzle.get("options") or {}))
    regions = hit_regions(game.parse_position(str(puzzle["position"])))
    return "board dense" if len(regions) >= DENSE_TARGETS else "board"


def board_name(puzzle: dict[str, Any]) -> str:
    """The board of a puzzle that names its size, as the archive shows it ('' for one that
    does not).

    >>> board_name({"game": "minefield", "size": 15, "options": {"variant": "pinwheel"}})
    '15×15 pinwheel'
    >>> board_name({"game": "minefield", "size": 13}), board_name({"game": "candy"})
    ('13×13', '')
    """
    size = puzzle.get("size")
    if size is None:
        return ""
    variant = site_variants.variant_of(puzzle)
    text = f"{int(size)}×{int(size)}"
    return text if variant in (None, "standard") else f"{text} {variant}"


def puzzle_page(puzzle: dict[str, Any], previous: str | None, following: str | None) -> str:
    """The interactive HTML page of one daily puzzle (links are relative to the page).

    Every text taken from the puzzle is escaped; the data the script plays from is
    JSON in a ``<script type="application/json">`` element (see :func:`script_json`).
    """
    frames, data = puzzle_frames(puzzle)
    rating = puzzle["rating"]
    data["rating"] = difficulty(puzzle)[0]
    side = html.escape(side_name(puzzle["game"], str(puzzle["to_move"])))
    date = html.escape(str(puzzle["date"]))
    name = html.escape(display_name(str(puzzle["game"])))
    nav = ['<a href="../index.html">all puzzles</a>']
    if previous is not None:
        nav.append(f'<a href="../{html.escape(previous)}">previous day</a>')
    if following is not None:
        nav.append(f'<a href="../{html.escape(following)}">next day</a>')
    pictures = "".join(
        f'<div class="frame" data-frame="{k}"{"" if k == 0 else " hidden"}>\n{picture}</div>\n'
        for k, picture in enumerate(frames)
    )
    position = html.escape(str(puzzle["position"]), quote=True)
    body = (
        f"<nav>{' '.join(nav)}</nav>\n"
        f"<h1>{name} — {date}</h1>\n"
        f"{_task(puzzle, side)}"
        f"{site_variants.board_line(puzzle)}"
        f'<p id="status" class="status" role="status" aria-live="polite">'
        "This puzzle needs JavaScript to be played; the solution is below.</p>\n"
        f'<div class="{board_class(puzzle)}">\n{pictures}</div>\n'
        '<div id="choices" class="controls" aria-label="choices"></div>\n'
        '<form id="typed-form" class="controls">'
        '<label for="typed-move">Type a move: </label>'
        '<input type="text" id="typed-move" autocomplete="off" spellcheck="false">'
        ' <button type="submit">Play</button>'
        ' <button type="button" id="take-back" hidden>Take back</button></form>\n'
        '<p class="position"><label for="position-text">Position (notation):</label>'
        f'<input type="text" id="position-text" readonly value="{position}">'
        ' <button type="button" id="copy-position">Copy</button></p>\n'
        f"{site_variants.command_line(puzzle)}"
        f'<p class="themes">Themes: {_themes_html(themes(puzzle))}.</p>\n'
        f"<p>{_rating_text(puzzle)}; {int(rating['legal_moves'])} legal first moves.</p>\n"
        '<p id="already"></p>\n<p id="progress"></p>\n<p id="rating"></p>\n'
        "<details>\n<summary>Solution</summary>\n"
        f"{_solution(puzzle, side)}"
        "</details>\n"
        f'<script type="application/json" id="puzzle-data">{script_json(data)}</script>'
    )
    return _page(f"{puzzle['game']} puzzle {puzzle['date']}", body, 1)


def index_page(
    dates: Sequence[str], games: Sequence[str], entries: dict[str, dict[str, str]]
) -> str:
    """The index: today's puzzle per game, then the archive with its filters.

    ``entries`` maps a page name to its puzzle's ``id``, ``label`` (difficulty),
    ``rating``, ``theme`` (its themes joined by ``|``) and ``board`` (:func:`board_name`).
    """
    today = dates[0] if dates else ""
    links = " ".join(
        f'<a href="{page_name(g, today)}">{html.escape(display_name(g))}</a>' for g in games
    )
    rows = []
    all_themes: set[str] = set()
    for date in dates:
        for game in games:
            page = page_name(game, date)
            entry = entries.get(page, {})
            level, topic = entry.get("label", ""), entry.get("theme", "")
            board = entry.get("board", "")
            board_html = f' <span class="board-name">{html.escape(board)}</span>' if board else ""
            all_themes.update(t for t in topic.split("|") if t)
            rows.append(
                f'<tr data-id="{html.escape(entry.get("id", ""))}" data-game="{html.escape(game)}"'
                f' data-level="{html.escape(level)}" data-theme="{html.escape(topic)}">'
                f"<td>{html.escape(date)}</td>"
                f'<td><a href="{page}">{html.escape(display_name(game))}</a>{board_html}</td>'
                f"<td>{html.escape(', '.join(topic.split('|')))}</td>"
                f"<td>{html.escape(level)} ({html.escape(entry.get('rating', ''))})</td>"
                '<td class="done"></td></tr>'
            )

    def select(field: str, label: str, values: Sequence[tuple[str, str]]) -> str:
        options = "".join(
            f'<option value="{html.escape(v)}">{html.escape(t)}</option>' for v, t in values
        )
        return (
            f'<label>{label} <select data-filter="{field}" id="filter-{field}">'
            f'<option value="">all</option>{options}</select></label>'
        )

    levels = [(v, v) for v in ("easy", "medium", "hard", "expert")]
    filters = (
        '<p class="filters">'
        + select("game", "Game", [(g, display_name(g)) for g in games])
        + select("theme", "Theme", [(t, t) for t in sorted(all_themes)])
        + select("level", "Difficulty", levels)
        + '<label><input type="checkbox" id="filter-unsolved"> unsolved only</label></p>'
    )
    body = (
        f"<h1>{TITLE}</h1>\n"
        "<p>Every puzzle is proved: a forced win with exactly one winning first move "
        "(shipped with its proof: a proof tree or a compact strategy), or for ColleXion the "
        "one best turn of a solved endgame. Click the board or type moves; progress stays "
        "in this browser.</p>\n"
        f'<h2>Today ({html.escape(today)})</h2>\n<p class="today">{links}</p>\n'
        '<p id="progress"></p>\n<p id="rating"></p>\n'
        f"<h2>Archive</h2>\n{filters}\n"
        '<p id="shown"></p>\n'
        '<div class="scroll"><table id="archive">\n<thead><tr><th>day</th><th>game</th>'
        "<th>theme</th><th>difficulty</th><th></th></tr></thead>\n<tbody>\n"
        + "\n".join(rows)
        + "\n</tbody>\n</table></div>"
    )
    return _page(TITLE, body, 0)


def write_site(
    out: str | os.PathLike[str],
    dates: Sequence[str],
    games: Sequence[str],
    puzzles: dict[str, dict[str, Any]],
    on_page: Callable[[str], None] | None = None,
) -> list[str]:
    """Write the site of ``puzzles`` (by ``"GAME DATE"``, one per game and date, the
    newest date first); returns the written paths relative to ``out``, sorted."""
    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    written: list[str] = []

    def write(relative: str, text: str) -> None:
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(relative)
        if on_page is not None:
            on_page(relative)

    write("style.css", STYLE)
    write("site.js", SCRIPT)
    entries: dict[str, dict[str, str]] = {}
    for game in games:
        for number, date in enumerate(dates):
            puzzle = puzzles[f"{game} {date}"]
            following = page_name(game, dates[number - 1]) if number > 0 else None
            previous = page_name(game, dates[number + 1]) if number + 1 < len(dates) else None
            page = page_name(game, date)
            value, level = difficulty(puzzle)
            entries[page] = {
                "id": str(puzzle["id"]),
                "label": level,
                "rating": str(value),
                "theme": "|".join(themes(puzzle)),
                "board": board_name(puzzle),
            }
            write(f"{date}/{game}.jsonl", dumps(puzzle) + "\n")
            write(page, puzzle_page(puzzle, previous, following))
    if any(site_variants.variant_of(p) not in (None, "standard") for p in puzzles.values()):
        write(site_variants.PAGE, _page("Minefield variants", site_variants.variants_page(), 0))
    write("index.html", index_page(list(dates), list(games), entries))
    return sorted(written)
