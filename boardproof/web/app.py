"""The Starlette application of ``boardproof serve``.

Routes (all JSON answers mirror the CLI's ``--json`` objects):

- ``GET /``: the analysis board page; ``GET /static/board.js``, ``/static/style.css``;
- ``GET /api/games``: the games (name, display name, the game options the board offers:
  Minefield's ``win`` and ``variant``);
- ``POST /api/start`` ``{"game"}``: the start position, described;

Every POST also takes the game's game options as fields (``{"game": "minefield",
"variant": "cartwheel", ...}``; a value the game does not have is a 400), and every
position described says the options it is played with (``"options"``).

- ``POST /api/position`` ``{"game", "position"}``: the position described (legal moves
  with click paths, clickable SVG, result);
- ``POST /api/play`` ``{"game", "position", "moves": [...]}``: ``play --json`` plus the
  end position described;
- ``POST /api/solve`` ``{"game", "position", "timeout"}``: ``solve --json``;
- ``POST /api/analyse`` ``{"game", "position", "timeout", "multipv", "seed"}``:
  ``analyse --json`` (``timeout`` is the thinking time);
- ``POST /api/engine-move`` ``{"game", "position", "seconds" | "iterations", "seed"}``:
  the engine's move, played (``move``, the ``position`` after it, its ``result``, the
  ``board`` described, the ``analysis`` behind the move): "Play the engine";
- ``POST /api/review`` ``{"game", "record", "seconds" | "iterations", "seed"}``:
  ``review --json`` of a game record (the text ``boardproof review GAME FILE`` reads).

- ``GET /api/openapi.json``: the OpenAPI description of all this
  (:mod:`boardproof.web.schema`).

Bad input is HTTP 400 ``{"error": "error: <the CLI's one line>"}`` (a body over
64 KiB: 413; one that does not arrive in 10 s: 408; see :mod:`boardproof.web.body`); a
request for another site's name or from another site's page is 403
(:mod:`boardproof.web.guard`). Searches run in child processes limited in time and memory
(:func:`boardproof.web.api.solve_request`, :func:`~boardproof.web.api.analyse_request`,
:func:`~boardproof.web.api.engine_move_request`, :func:`~boardproof.web.api.review_request`),
one at a time per client address (a second one is 429), at most :data:`MAX_SEARCHES`
at once for the whole server, the next :data:`MAX_WAITING` queued for a slot (beyond, or
after :data:`WAIT_SECONDS` of waiting: 503 with ``Retry-After``); a search that dies or
overruns is 503.
"""

from __future__ import annotations

import contextlib
import html
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from boardproof import models
from boardproof.models.base import BoardproofError
from boardproof.reports.site import display_name
from boardproof.reports.site_assets import STYLE
from boardproof.web import api
from boardproof.web.assets import BOARD_SCRIPT
from boardproof.web.body import Refused, read_object
from boardproof.web.guard import Guard
from boardproof.web.schema import openapi

#: the most searches running at once for the whole server (each is a process on a core),
#: the most waiting for a slot, and how long one waits
MAX_SEARCHES = 2
MAX_WAITING = 8
WAIT_SECONDS = 60.0

#: the board's own rules beyond the site's style sheet: the review's marks, the rules choice
BOARD_STYLE = """
#review-table tr.losing { background: #f8d0d0; }
#review-table tr.mistake { background: #fbecc8; }
#engine { border: 1px solid #ccc; margin: 0.8em 0; }
.rule { white-space: nowrap; }
"""

#: the engine's strengths the page offers: (value, label); ``iterations:N`` is
#: reproducible (the same seed, the same moves), ``seconds:S`` the time per move
STRENGTHS = (
    ("iterations:100", "100 iterations a move (quick, reproducible)"),
    ("seconds:0.2", "0.2 s a move"),
    ("seconds:1", "1 s a move"),
    ("seconds:3", "3 s a move"),
    ("seconds:10", "10 s a move"),
)

#: "Play the engine": the side, the strength, start, resign; the result, "Review" and
#: "Download record" once the game is over (board.js fills the sides from the position)
ENGINE_PANEL = (
    '<fieldset id="engine" class="controls" data-state="off"><legend>Play the engine</legend>'
    '<label for="engine-side">You play: </label><select id="engine-side"></select> '
    '<label for="engine-strength">Engine: </label><select id="engine-strength">'
    + "".join(f'<option value="{value}"{" selected" if value == "seconds:1" else ""}>'
              f"{html.escape(label)}</option>" for value, label in STRENGTHS)
    + '</select> <button type="button" id="engine-start">Play from this position</button>'
    ' <button type="button" id="engine-go" hidden>Ask the engine again</button>'
    ' <button type="button" id="resign" hidden>Resign</button>'
    '<p id="match" class="status" role="status" aria-live="polite" hidden></p>'
    '<span id="game-over" hidden><button type="button" id="review">Review</button> '
    '<a id="download" href="#" download="game.txt">Download record</a></span>'
    '</fieldset>\n'
)

#: the review of the game played against the engine (filled by board.js)
REVIEW_PANEL = (
    '<p id="review-summary" class="status" aria-live="polite" hidden></p>\n'
    '<div class="scroll"><table id="review-table" class="analysis" hidden>'
    '<caption>Review of the game</caption><thead><tr>'
    + "".join(f'<th scope="col">{name}</th>' for name in (
        "ply", "side", "by", "move", "before", "after", "best alternative", "mark"))
    + "</tr></thead><tbody></tbody></table></div>\n"
)


def rules_choice(games: list[str]) -> str:
    """The rules choice: a select for each game option of each game (``api.rule_choices``:
    Minefield's "Win" and "Glyphs"), the first game's shown; board.js shows the chosen
    game's, sends them with every request and keeps them with the position.

    >>> text = rules_choice(["minefield", "carpniches"])
    >>> 'id="rule-minefield-variant"' in text, text.count("<select"), "carpniches" in text
    (True, 2, False)
    """
    parts = []
    for index, game in enumerate(games):
        for spec in api.rule_choices(models.info(game)):
            ident = html.escape(f"rule-{game}-{spec['name']}")
            choices = "".join(
                f'<option value="{html.escape(str(c))}"'
                f'{" selected" if c == spec["default"] else ""}>{html.escape(str(c))}</option>'
                for c in spec["choices"]
            )
            parts.append(
                f'<span class="rule" data-game="{html.escape(game)}"{" hidden" if index else ""}>'
                f'<label for="{ident}">{html.escape(spec["label"])}: </label>'
                f'<select id="{ident}" data-option="{html.escape(spec["name"])}" '
                f'data-label="{html.escape(spec["label"].lower())}" '
                f'data-default="{html.escape(str(spec["default"]))}" '
                f'title="{html.escape(spec["help"])}">{choices}</select></span> '
            )
    return "".join(parts)


def page(games: list[str]) -> str:
    """The analysis board's HTML (static: the script does the rest)."""
    options = "".join(
        f'<option value="{html.escape(g)}">{html.escape(display_name(g))}</option>'
        for g in games
    )
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<title>boardproof analysis board</title>\n"
        '<link rel="stylesheet" href="/static/style.css">\n</head>\n<body>\n'
        "<h1>boardproof analysis board</h1>\n"
        '<p class="controls"><label for="game">Game: </label>'
        f'<select id="game">{options}</select> '
        f"{rules_choice(games)}"
        '<button type="button" id="new">Start position</button></p>\n'
        '<p class="position"><label for="position">Position (notation, edit or paste):</label>'
        '<textarea id="position" rows="2" spellcheck="false"></textarea>'
        '<button type="button" id="load">Load position</button></p>\n'
        '<p id="status" class="status" role="status" aria-live="polite">Loading…</p>\n'
        '<div class="board" id="board"></div>\n'
        '<div id="choices" class="controls"></div>\n'
        '<form id="typed-form" class="controls"><label for="typed-move">Move: </label>'
        '<input type="text" id="typed-move" autocomplete="off" spellcheck="false">'
        ' <button type="submit">Play</button>'
        ' <button type="button" id="undo">Undo</button></form>\n'
        '<p>Line played: <code id="line"></code></p>\n'
        f"{ENGINE_PANEL}"
        '<form id="solve-form" class="controls"><label for="seconds">Time limit (s): </label>'
        f'<input type="number" id="seconds" min="0.1" max="{api.MAX_SECONDS:g}" step="0.1" '
        f'value="{api.DEFAULT_SECONDS:g}"> <button type="submit" id="solve">Solve</button>'
        ' <button type="button" id="analyse">Analyse</button>'
        ' <button type="button" id="play-best" hidden>Play the best move</button>'
        ' <button type="button" id="play-line" hidden>Show the line</button></form>\n'
        '<div id="answer" aria-live="polite"></div>\n'
        '<table id="analysis" class="analysis" hidden><caption>Best moves</caption><thead><tr>'
        '<th scope="col">move</th><th scope="col">visits</th><th scope="col">win %</th>'
        '<th scope="col">proved</th></tr></thead><tbody></tbody></table>\n'
        f"{REVIEW_PANEL}"
        '<script src="/static/board.js"></script>\n</body>\n</html>\n'
    )


class ServerBusy(BoardproofError):
    """No search slot came free in time: HTTP 503 with ``Retry-After``."""


class Busy:
    """The searches' admission: one at a time per client address (a second one is
    refused), at most ``limit`` running for the whole server and ``waiting`` more
    queued for a slot (beyond: refused), each waiting at most ``wait_seconds``."""

    def __init__(self, limit: int = MAX_SEARCHES, waiting: int = MAX_WAITING,
                 wait_seconds: float = WAIT_SECONDS) -> None:  # fmt: skip
        self.lock = threading.Lock()
        self.running: set[str] = set()
        self.limit = limit
        self.waiting = waiting
        self.wait_seconds = wait_seconds
        self.slots = threading.BoundedSemaphore(limit)

    def enter(self, client: str) -> str | None:
        """Admit ``client``'s search (running or queued); or why not: ``client`` (it has
        one already) or ``server`` (every slot taken and the queue full)."""
        with self.lock:
            if client in self.running:
                return "client"
            if len(self.running) >= self.limit + self.waiting:
                return "server"
            self.running.add(client)
            return None

    def leave(self, client: str) -> None:
        with self.lock:
            self.running.discard(client)

    @contextlib.contextmanager
    def slot(self) -> Iterator[None]:
        """Hold one of the ``limit`` search slots (waiting for one: :class:`ServerBusy`
        after ``wait_seconds``)."""
        if not self.slots.acquire(timeout=self.wait_seconds):
            raise ServerBusy(f"the server is busy: {self.limit} searches ran for the whole "
                             f"{self.wait_seconds:g} s this one waited; try again")
        try:
            yield
        finally:
            self.slots.release()


def _error(message: str, status: int, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": f"error: {message}"}, status_code=status, headers=headers)


def create_app(
    memory: int = api.MEMORY_BYTES,
    allow_origins: Sequence[str] = (),
    max_searches: int = MAX_SEARCHES,
    max_seconds: float = api.MAX_SECONDS,
    max_waiting: int = MAX_WAITING,
) -> Guard:
    """The application: ``memory`` is the address-space limit of a search process,
    ``allow_origins`` the origins allowed beyond the loopback ones (``*``: all),
    ``max_searches`` the most searches at once (``max_waiting`` more wait for a slot),
    ``max_seconds`` the longest one."""
    games = list(models.names())
    busy = Busy(max_searches, max_waiting)
    description = openapi(max_seconds)

    def endpoint(work: Callable[[Any], dict[str, Any]]) -> Callable[[Request], Any]:
        async def handle(request: Request) -> Response:
            try:
                data = await read_object(request)
                answer = await run_in_threadpool(work, data)
            except Refused as error:
                return _error(str(error), error.status)
            except BoardproofError as error:
                return _error(str(error), 400)
            return JSONResponse(answer)

        return handle

    def search(work: Callable[..., dict[str, Any]]) -> Callable[[Request], Any]:
        async def handle(request: Request) -> Response:
            client = request.client.host if request.client else "?"
            try:
                data = await read_object(request)
            except Refused as error:
                return _error(str(error), error.status)
            refused = busy.enter(client)
            if refused == "client":
                return _error("a search is already running for this client (one at a time)", 429)
            if refused == "server":
                return _error(f"the server is busy: {busy.limit} searches are running and "
                              f"{busy.waiting} waiting; try again", 503,
                              {"Retry-After": "1"})  # fmt: skip

            def run() -> dict[str, Any]:
                with busy.slot():
                    return work(data, memory, max_seconds)

            try:
                answer = await run_in_threadpool(run)
            except ServerBusy as error:
                return _error(str(error), 503, {"Retry-After": "1"})
            except api.SearchFailed as error:
                return _error(str(error), 503)
            except BoardproofError as error:
                return _error(str(error), 400)
            finally:
                busy.leave(client)
            return JSONResponse(answer)

        return handle

    async def schema(request: Request) -> Response:
        return JSONResponse(description)

    async def index(request: Request) -> Response:
        return HTMLResponse(page(games))

    async def script(request: Request) -> Response:
        return Response(BOARD_SCRIPT, media_type="text/javascript")

    async def style(request: Request) -> Response:
        return Response(STYLE + BOARD_STYLE, media_type="text/css")

    async def game_list(request: Request) -> Response:
        return JSONResponse({"games": [{"name": g, "display": display_name(g),
                                        "options": api.rule_choices(models.info(g))}
                                       for g in games]})  # fmt: skip

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    routes = [
        Route("/", index),
        Route("/favicon.ico", no_icon),
        Route("/static/board.js", script),
        Route("/static/style.css", style),
        Route("/api/games", game_list),
        Route("/api/openapi.json", schema),
        Route("/api/start", endpoint(api.start), methods=["POST"]),
        Route("/api/position", endpoint(api.describe), methods=["POST"]),
        Route("/api/play", endpoint(api.play), methods=["POST"]),
        Route("/api/solve", search(api.solve_request), methods=["POST"]),
        Route("/api/analyse", search(api.analyse_request), methods=["POST"]),
        Route("/api/engine-move", search(api.engine_move_request), methods=["POST"]),
        Route("/api/review", search(api.review_request), methods=["POST"]),
    ]
    return Guard(Starlette(routes=routes), allow_origins)
