"""The OpenAPI description of the analysis board's API, served at ``/api/openapi.json``.

It says what each endpoint takes (types, lengths, ranges) and answers, errors included
(``{"error": "error: <one line>"}`` with 400, 403, 408, 413, 429 or 503). The tests
fuzz the server from it (schemathesis): no answer is a 5xx, and every answer matches it.

>>> spec = openapi(max_seconds=30.0)
>>> spec["openapi"], sorted(spec["paths"])[:3]
('3.0.3', ['/api/analyse', '/api/engine-move', '/api/games'])
"""

from __future__ import annotations

from typing import Any

from boardproof import models
from boardproof.web import api, body


def _text(description: str, example: str | None = None) -> dict[str, Any]:
    field: dict[str, Any] = {"type": "string", "maxLength": api.MAX_TEXT,
                             "description": description}  # fmt: skip
    if example is not None:
        field["example"] = example
    return field


def game_option_fields() -> dict[str, Any]:
    """The request fields of the games' game options (``win``, ``variant``), read from
    every game's option specs: a string, one of the choices, what each game says of it.

    >>> game_option_fields()["variant"]["enum"]
    ['standard', 'pinwheel', 'cartwheel']
    """
    fields: dict[str, Any] = {}
    for name in models.names():
        for spec in models.info(name).options:
            if spec.scope != "game":
                continue
            field = fields.setdefault(spec.name, {"type": "string", "description": ""})
            said = f"{name}'s {spec.page_label.lower()} option: {spec.help}"
            field["description"] = "; ".join(filter(None, (field["description"], said)))
            if spec.choices is not None:
                field["enum"] = [*field.get("enum", []),
                                 *(c for c in spec.choices if c not in field.get("enum", []))]
    for field in fields.values():
        field["description"] += " (a game without it refuses it)"
        if "enum" not in field:
            field["maxLength"] = api.MAX_TEXT
    return fields


def _error(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/Error"}}}}


def _json(ref: str, description: str = "the answer") -> dict[str, Any]:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}}}


def _post(summary: str, request: str, answer: str, search: bool = False) -> dict[str, Any]:
    responses = {
        "200": _json(answer),
        "400": _error("bad input: the command line's one-line error"),
        "403": _error("a foreign Host or Origin (see `boardproof serve --allow-origin`)"),
        "408": _error("the body did not arrive in time"),
        "413": _error(f"a body over {body.MAX_BODY} bytes"),
    }
    if search:
        responses["429"] = _error("a search is already running for this client")
        responses["503"] = _error("the server runs its most searches, or the search died "
                                  "or overran its limits")
    return {"post": {
        "summary": summary,
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": {"$ref": f"#/components/schemas/{request}"}}}},
        "responses": responses,
    }}  # fmt: skip


def openapi(max_seconds: float = api.MAX_SECONDS) -> dict[str, Any]:
    """The OpenAPI 3.0 document of the API (``max_seconds``: the longest search)."""
    game = _text("the game's name (see GET /api/games)", "minefield")
    position = _text("a position in the game's notation", "3/3/3 b -")
    rules = game_option_fields()
    board = {"type": "object", "required": ["game", "options", "position", "result",
                                            "to_move", "moves", "svg", "status", "players"],
             "properties": {
        "game": {"type": "string"},
        "options": {"type": "object", "description": "the game options the position is "
                    "played with that differ from their defaults, e.g. {\"variant\": "
                    "\"cartwheel\"}"},
        "position": {"type": "string"},
        "result": {"type": "string", "enum": ["ongoing", "win", "draw"]},
        "winner": {},
        "to_move": {"type": "string"},
        "moves": {"type": "array", "items": {"type": "array"}},
        "svg": {"type": "string"},
        "status": {"type": "array", "items": {"type": "string"}},
        "players": {"type": "array", "description": "the sides, in turn order",
                    "items": {"type": "object", "required": ["symbol", "name"],
                              "properties": {"symbol": {"type": "string"},
                                             "name": {"type": "string"}}}},
    }}  # fmt: skip
    rule_list = {"type": "array", "description": "the game options the board offers a "
                 "choice of (each a request field)", "items": {
        "type": "object", "required": ["name", "label", "choices", "default", "help"],
        "properties": {"name": {"type": "string"}, "label": {"type": "string"},
                       "choices": {"type": "array"}, "default": {}, "help": {"type": "string"}}}}
    seed = {"type": "integer", "minimum": 0, "maximum": 2**63 - 1, "default": 0,
            "description": "the engine's random seed"}
    iterations = {"type": "integer", "minimum": 1, "maximum": api.MAX_ITERATIONS,
                  "description": "MCTS iterations instead of seconds (reproducible with "
                                 "the same seed); not with seconds"}

    def per(what: str, default: float) -> dict[str, Any]:
        return {"type": "number", "exclusiveMinimum": True, "minimum": 0,
                "maximum": max_seconds, "default": default,
                "description": f"seconds of thinking {what}"}
    return {
        "openapi": "3.0.3",
        "info": {"title": "boardproof analysis board", "version": "1",
                 "description": "The API behind `boardproof serve`: its answers are the "
                                "command line's `--json` objects, its errors their one-line "
                                "messages."},  # fmt: skip
        "paths": {
            "/api/games": {"get": {"summary": "the games",
                                   "responses": {"200": _json("Games"),
                                                 "403": _error("a foreign Host or Origin")}}},
            "/api/openapi.json": {"get": {"summary": "this description", "responses": {
                "200": {"description": "the OpenAPI document",
                        "content": {"application/json": {"schema": {"type": "object"}}}},
                "403": _error("a foreign Host or Origin")}}},
            "/api/start": _post("the start position of a game, described", "Start", "Board"),
            "/api/position": _post("a position described: moves with their click paths, "
                                   "its picture, its result", "Position", "Board"),
            "/api/play": _post("play moves from a position (`play --json`)", "Play", "Played"),
            "/api/solve": _post("solve a position (`solve --json`)", "Solve", "Answer",
                                search=True),
            "/api/analyse": _post("analyse a position (`analyse --json`)", "Analyse",
                                  "Answer", search=True),
            "/api/engine-move": _post("the engine's move in a position (the best move of "
                                      "`analyse`), played", "EngineMove", "EngineMoved",
                                      search=True),
            "/api/review": _post("review a game record (`review --json`); the whole review "
                                 f"stops after {max_seconds:g} s", "Review", "Reviewed",
                                 search=True),
        },  # fmt: skip
        "components": {"schemas": {
            "Error": {"type": "object", "required": ["error"],
                      "properties": {"error": {"type": "string", "pattern": "^error: "}}},
            "Games": {"type": "object", "required": ["games"], "properties": {"games": {
                "type": "array", "items": {"type": "object",
                                           "required": ["name", "display", "options"],
                                           "properties": {"name": {"type": "string"},
                                                          "display": {"type": "string"},
                                                          "options": rule_list}}}}},
            "Start": {"type": "object", "required": ["game"],
                      "properties": {"game": game, **rules}},
            "Position": {"type": "object", "required": ["game", "position"],
                         "properties": {"game": game, "position": position, **rules}},
            "Play": {"type": "object", "required": ["game", "position", "moves"],
                     "properties": {"game": game, "position": position, **rules,
                                    "moves": {"type": "array", "maxItems": api.MAX_MOVES,
                                              "items": _text("a move in the notation")}}},
            "Solve": {"type": "object", "required": ["game", "position"], "properties": {
                "game": game, "position": position, **rules,
                "timeout": {"type": "number", "exclusiveMinimum": True, "minimum": 0,
                            "maximum": max_seconds, "default": api.DEFAULT_SECONDS,
                            "description": "seconds the search may take"}}},
            "Analyse": {"type": "object", "required": ["game", "position"], "properties": {
                "game": game, "position": position, **rules,
                "timeout": {"type": "number", "exclusiveMinimum": True, "minimum": 0,
                            "maximum": max_seconds, "default": api.DEFAULT_SECONDS,
                            "description": "the thinking time in seconds"},
                "multipv": {"type": "integer", "minimum": 1, "maximum": api.MAX_MULTIPV},
                "seed": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1}}},
            "EngineMove": {"type": "object", "required": ["game", "position"], "properties": {
                "game": game, "position": position, **rules,
                "seconds": per("for the move", api.ENGINE_SECONDS), "iterations": iterations,
                "seed": seed}},
            "Review": {"type": "object", "required": ["game", "record"], "properties": {
                "game": game, **rules,
                "record": {"type": "string", "maxLength": api.MAX_RECORD,
                           "description": "a game record as `boardproof review GAME FILE` "
                                          "reads it: the start position on the first line, "
                                          "then the moves (# starts a comment), or JSON "
                                          "{\"start\": ..., \"moves\": [...]}",
                           "example": "4/4/4/4 b -\na2 a1 c2\n"},
                "seconds": per("for each position", api.REVIEW_SECONDS),
                "iterations": iterations, "seed": seed}},
            "EngineMoved": {"type": "object", "required": ["move", "side", "position", "result",
                                                           "board", "analysis"], "properties": {
                "move": {"type": "string", "description": "the engine's move"},
                "side": {"type": "string", "description": "the side that played it"},
                "position": {"type": "string", "description": "the position after it"},
                "result": {"type": "string", "enum": ["ongoing", "win", "draw"]},
                "winner": {}, "board": board,
                "analysis": {"$ref": "#/components/schemas/Answer"}}},
            "Reviewed": {"type": "object", "required": ["game", "start", "losing_move", "plies",
                                                        "seconds", "complete"], "properties": {
                "game": {"type": "string"}, "start": {"type": "string"},
                "losing_move": {"type": "integer", "nullable": True},
                "plies": {"type": "array", "items": {"type": "object", "required": [
                    "ply", "player", "move", "position", "before", "after", "best", "mark"]}},
                "seconds": {"type": "number"},
                "complete": {"type": "boolean",
                             "description": "false: the review stopped at the time limit"}}},
            "Board": board,
            "Played": {"type": "object", "required": ["position", "result", "board"],
                       "properties": {"position": {"type": "string"},
                                      "result": {"type": "string"}, "board": board}},
            "Answer": {"type": "object", "required": ["game", "position", "result"],
                       "properties": {"game": {"type": "string"},
                                      "position": {"type": "string"},
                                      "result": {"type": "string",
                                                 "enum": ["win", "loss", "draw", "unknown"]}}},
        }},  # fmt: skip
    }
