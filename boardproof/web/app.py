"""The Starlette application of ``boardproof serve``.

Routes (all JSON answers mirror the CLI's ``--json`` objects):

- ``GET /``: the analysis board page; ``GET /static/board.js``, ``/static/style.css``;
- ``GET /api/games``: the games (name, display name);
- ``POST /api/start`` ``{"game"}``: the start position, described;
- ``POST /api/position`` ``{"game", "position"}``: the position described (legal moves
  with click paths, clickable SVG, result);
- ``POST /api/play`` ``{"game", "position", "moves": [...]}``: ``play --json`` plus the
  end position described;
- ``POST /api/solve`` ``{"game", "position", "timeout"}``: ``solve --json``;
- ``POST /api/analyse`` ``{"game", "position", "timeout", "multipv", "seed"}``:
  ``analyse --json`` (``timeout`` is the thinking time).

Bad input is HTTP 400 ``{"error": "error: <the CLI's one line>"}``; a second search
while one runs for the same client is 429; a search that dies or overruns is 503.
Searches run in child processes limited in time and memory
(:func:`boardproof.web.api.solve_request`, :func:`~boardproof.web.api.analyse_request`),
one at a time per client address (a solve and an analysis count alike).
"""

from __future__ import annotations

import html
import json
import threading
from collections.abc import Callable
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

#: the largest request body accepted (bytes)
MAX_BODY = 64 * 1024


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
        '<script src="/static/board.js"></script>\n</body>\n</html>\n'
    )


class Busy:
    """One search at a time per client address."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running: set[str] = set()

    def enter(self, client: str) -> bool:
        with self.lock:
            if client in self.running:
                return False
            self.running.add(client)
            return True

    def leave(self, client: str) -> None:
        with self.lock:
            self.running.discard(client)


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": f"error: {message}"}, status_code=status)


async def _body(request: Request) -> Any:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise BoardproofError(f"invalid request: the body is larger than {MAX_BODY} bytes")
    try:
        return json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise BoardproofError(f"invalid request: not JSON ({error})") from None


def create_app(memory: int = api.MEMORY_BYTES) -> Starlette:
    """The application (``memory``: the address-space limit of a search process)."""
    games = list(models.names())
    busy = Busy()

    def endpoint(work: Callable[[Any], dict[str, Any]]) -> Callable[[Request], Any]:
        async def handle(request: Request) -> Response:
            try:
                data = await _body(request)
                answer = await run_in_threadpool(work, data)
            except api.SearchFailed as error:
                return _error(str(error), 503)
            except BoardproofError as error:
                return _error(str(error), 400)
            return JSONResponse(answer)

        return handle

    def search(work: Callable[[Any, int], dict[str, Any]]) -> Callable[[Request], Any]:
        async def handle(request: Request) -> Response:
            client = request.client.host if request.client else "?"
            if not busy.enter(client):
                return _error("a search is already running for this client (one at a time)", 429)
            try:
                data = await _body(request)
                answer = await run_in_threadpool(work, data, memory)
            except api.SearchFailed as error:
                return _error(str(error), 503)
            except BoardproofError as error:
                return _error(str(error), 400)
            finally:
                busy.leave(client)
            return JSONResponse(answer)

        return handle

    async def index(request: Request) -> Response:
        return HTMLResponse(page(games))

    async def script(request: Request) -> Response:
        return Response(BOARD_SCRIPT, media_type="text/javascript")

    async def style(request: Request) -> Response:
        return Response(STYLE, media_type="text/css")

    async def game_list(request: Request) -> Response:
        return JSONResponse({"games": [{"name": g, "display": display_name(g)} for g in games]})

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    routes = [
        Route("/", index),
        Route("/favicon.ico", no_icon),
        Route("/static/board.js", script),
        Route("/static/style.css", style),
        Route("/api/games", game_list),
        Route("/api/start", endpoint(api.start), methods=["POST"]),
        Route("/api/position", endpoint(api.describe), methods=["POST"]),
        Route("/api/play", endpoint(api.play), methods=["POST"]),
        Route("/api/solve", search(api.solve_request), methods=["POST"]),
        Route("/api/analyse", search(api.analyse_request), methods=["POST"]),
    ]
    return Starlette(routes=routes)
