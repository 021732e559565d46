"""The JSON objects that ``--json`` prints, one function per command.

Each takes library objects and returns plain data (``json.dumps``-able), so the
commands stay one line and the shapes are documented and tested in one place.

>>> from boardproof import models
>>> pos = models.get("minefield").parse_position("3/3/b2 w p")
>>> moves_payload("minefield", pos)["moves"][:3]
['b1', 'c1', 'a2']
>>> perft_payload("minefield", pos, 1, None)
{'game': 'minefield', 'position': '3/3/b2 w p', 'depth': 1, 'nodes': 9}
"""

from __future__ import annotations

from typing import Any

from boardproof.models.base import Position, game_options, result_fields


def position_payload(game: str, pos: Position) -> dict[str, Any]:
    """``new --json``: the game and the position in canonical notation, and the game
    options that differ from their defaults (the notation does not carry them)."""
    options = game_options(pos.game)
    return {"game": game, "position": pos.fen(), **({"options": options} if options else {})}


def show_payload(game: str, pos: Position, svg_file: str | None = None) -> dict[str, Any]:
    """``show --json``: position, side to move, result, winner, the status problems."""
    fields = result_fields(pos)
    data: dict[str, Any] = {
        "game": game,
        "position": pos.fen(),
        "to_move": pos.game.symbol(pos.to_move) if fields["result"] == "ongoing" else None,
        **fields,
        "status": pos.status(),
        "board": pos.board_text(),
    }
    if svg_file is not None:
        data["svg"] = svg_file
    return data


def moves_payload(game: str, pos: Position) -> dict[str, Any]:
    """``moves --json``: the legal moves in canonical order."""
    return {"game": game, "position": pos.fen(), "moves": [str(m) for m in pos.legal_moves()]}


def perft_payload(
    game: str, pos: Position, depth: int, rows: list[tuple[str, int]] | None
) -> dict[str, Any]:
    """``perft --json``: the count (``nodes``), and with ``--divide`` the count per move."""
    data: dict[str, Any] = {"game": game, "position": pos.fen(), "depth": depth}
    if rows is None:
        from boardproof.models.base import perft

        data["nodes"] = perft(pos, depth)
    else:
        data["nodes"] = sum(count for _, count in rows)
        data["divide"] = dict(rows)
    return data


def games_payload() -> list[dict[str, Any]]:
    """``games --json``: each game's name, aliases and one-line description."""
    from boardproof import models

    out = []
    for name in models.names():
        info = models.info(name)
        out.append({"name": name, "aliases": list(info.aliases), "description": info.summary})
    return out


def proof_check_payload(file: str, report: Any = None, error: str | None = None) -> dict[str, Any]:
    """``check-proof --json``: ``ok``, and either what was proved or why it was rejected."""
    if report is None:
        return {"file": file, "ok": False, "error": error}
    return {
        "file": file,
        "ok": True,
        "game": report.game,
        "root": report.root,
        "winner": report.winner,
        "positions": report.nodes,
    }


def puzzle_check_payload(file: str, verdicts: list[Any]) -> dict[str, Any]:
    """``puzzle check --json``: one entry per puzzle and the totals."""
    failed = sum(1 for v in verdicts if not v.ok)
    return {
        "file": file,
        "checked": len(verdicts),
        "ok": len(verdicts) - failed,
        "failed": failed,
        "puzzles": [{"id": v.ident, "ok": v.ok, "message": v.message} for v in verdicts],
    }
