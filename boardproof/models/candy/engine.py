"""Candy Conquest's engine: its native (C) search behind ``solve(method="native")`` and its
native MCTS trees (two players; the max^n tree for three and four) behind ``analyse``, and
its threat-aware policy behind self-play's ``policy`` (:mod:`boardproof.models.candy.policy`).

The game's descriptor names this module (``GameInfo.engine``); the generic layers find the
engine through it and never import it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boardproof.models.base import Engine, Position
from boardproof.models.candy import native as native_candy
from boardproof.models.candy import policy
from boardproof.models.candy.native import mcts
from boardproof.solvers.api import Request, SolveResult, solve_alphabeta


def solve_native(position: Position, request: Request, method: str) -> SolveResult:
    """The C win-within search deepened for each player (the question of ``alphabeta``:
    :func:`boardproof.models.candy.native.solve`); a finished game goes to alpha-beta."""
    if position.outcome() is not None:
        return solve_alphabeta(position, request.max_plies, request.budget, 1 << 10, True,
                                "alphabeta", request.distance)  # fmt: skip
    name = "native" if method == "native" else "auto:native"
    board: Any = position  # the native search accepted it: a Candy Conquest position
    found = native_candy.solve(board, max_plies=request.max_plies, budget=request.budget,
                               symmetry=request.symmetry)  # fmt: skip
    if found.value == "unknown":
        return SolveResult.unknown(position, name, found.nodes, found.note, found.stopped)
    return SolveResult(position, found.value, found.winner, found.best_move, found.plies,
                       found.pv, found.nodes, 0.0, name, note=found.note)  # fmt: skip


def _win_oracle(
    position: Any, winner: int, plies: int | None = None
) -> Callable[[Any], int | None] | None:
    """The C win-within search as the proof builder's oracle, when the plies are known."""
    if plies is None or not native_candy.accepts(position):
        return None
    oracle: Callable[[Any], int | None] = native_candy.win_oracle(winner, plies)
    return oracle


def _win_within(position: Any, player: int, plies: int, node_limit: int,
                tt_bits: int) -> int | None:  # fmt: skip
    found: int | None = native_candy.win_within(position, player, plies,
                                                node_limit=node_limit, tt_bits=tt_bits)
    return found


def _strategy(position: Any, first: Any, plies: int, node_limit: int, tt_bits: int,
              max_positions: int, seconds: float) -> native_candy.Strategy:  # fmt: skip
    """The miner's compact proof, built by the C module (:func:`native_candy.strategy`)."""
    return native_candy.strategy(position, first, plies, node_limit=node_limit,
                                 tt_bits=tt_bits, max_positions=max_positions,
                                 seconds=seconds)  # fmt: skip


def _hooks() -> list[Any]:
    return [native_candy._native] if native_candy.available() else []



def _accepts(position: Any) -> bool:
    """What the C search takes (asked of the binding at each call: a test may switch it)."""
    return bool(native_candy.accepts(position))


ENGINE = Engine(
    scope="Candy Conquest",
    accepts=_accepts,
    solve=solve_native,
    win_oracle=_win_oracle,
    hooks=_hooks,
    win_within=_win_within,
    max_plies=native_candy.MAX_PLIES,
    mcts=mcts.search,
    policy_game=policy.policy_game,
    strategy=_strategy,
)
