"""The plug-in tic-tac-toe's native engine: the C search of ``_ttt.c`` behind
``solve(method="native")`` (and ``auto``), and the exact leaf search of ``analyse``.

The descriptor names this module (``GameInfo.engine``); boardproof imports it on first
use and takes its ``ENGINE``.
"""

from __future__ import annotations

from typing import Any

from boardproof.models.base import Engine
from boardproof.solvers.api import Request, SolveResult
from boardproof.solvers.common import Stop

from . import _ttt  # type: ignore[attr-defined]  # compiled from _ttt.c by the test
from .rules import TictacPosition

VALUES = {1: "win", 0: "draw", -1: "loss", 2: "unknown"}


def accepts(position: Any) -> bool:
    """The C search takes every tic-tac-toe position of this game."""
    return isinstance(position, TictacPosition)


def refusal(position: Any) -> str:
    return "it solves the plug-in tic-tac-toe positions only"


def solve(position: Any, request: Request, method: str) -> SolveResult:
    """The C negamax (exact distances); the line is the best move of each position on it."""
    name = "native" if method == "native" else "auto:native"
    value, best, plies, nodes = _ttt.solve(position.cells, position.to_move,
                                           request.node_limit or 0)  # fmt: skip
    if VALUES[value] == "unknown":
        note = "stopped by the node budget before a proof"
        return SolveResult.unknown(position, name, nodes, note, Stop.NODES)
    mover = position.to_move
    winner = {1: mover, -1: 1 - mover}.get(value)
    if value != 0 and request.max_plies is not None and plies > request.max_plies:
        note = f"no forced win for either side within {request.max_plies} plies"
        return SolveResult.unknown(position, name, nodes, note, Stop.PLIES)
    pv: list[int] = []
    line = position
    move = best
    while move >= 0:
        pv.append(move)
        line = line.play(move)
        _, move, _, more = _ttt.solve(line.cells, line.to_move)
        nodes += more
    # a draw's length is not asked for (as alpha-beta: plies only for a finished board)
    length = None if value == 0 and best >= 0 else plies
    return SolveResult(position, VALUES[value], winner, best if best >= 0 else None, length,
                       pv, nodes, 0.0, name)  # fmt: skip


def leaf(position: Any, nodes: int) -> str | None:
    """``analyse``'s exact leaf search: the value for the side to move within ``nodes``."""
    value = _ttt.solve(position.cells, position.to_move, nodes)[0]
    return None if value == 2 else VALUES[value]


ENGINE = Engine(
    scope="the plug-in tic-tac-toe",
    accepts=accepts,
    solve=solve,
    refusal=refusal,
    leaf=leaf,
)
