"""Minefield's engine: the native (C) searches behind ``solve(method="native")`` (every
size 2..26, both win rules), the win-within oracle of proof trees and the playout kernels.

The game's descriptor names this module (``GameInfo.engine``); the generic layers find the
engine through it and never import it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from boardproof.models.base import Engine, Position
from boardproof.models.minefield import native, playouts
from boardproof.models.minefield.native import mcts
from boardproof.solvers.api import Request, SolveResult, solve_alphabeta
from boardproof.solvers.common import Budget, Stop

#: the native search settles who wins first, then looks for the exact distance with at
#: most this many times the nodes that took (and at least NATIVE_DISTANCE_MIN_NODES)
NATIVE_DISTANCE_FACTOR = 4


NATIVE_DISTANCE_MIN_NODES = 2_000_000


#: big boards without ``timeout``: seconds of the native df-pn before the alpha-beta
NATIVE_DFPN_SECONDS = 10.0


def solve_native(
    position: Position,
    max_plies: int | None,
    timeout: float | None,
    node_limit: int | None,
    distance: bool,
    method: str,
) -> SolveResult:
    name = "native" if method == "native" else "auto:native"
    if position.outcome() is not None:
        return solve_alphabeta(position, max_plies, Budget(timeout, node_limit), 1 << 10,
                                True, "alphabeta", distance)  # fmt: skip
    if max_plies is not None and max_plies <= native.MAX_HORIZON:
        return solve_native_within(position, max_plies, timeout, node_limit, name)
    deadline = None if timeout is None else time.perf_counter() + timeout

    def left() -> float | None:
        return None if deadline is None else max(deadline - time.perf_counter(), 0.001)

    # who wins first (much cheaper), then the distance within a budget tied to that effort;
    # on big boards df-pn asks first (a quarter of the time), then alpha-beta
    nodes = 0
    board: Any = position  # the native search accepted it: a Minefield position
    by_dfpn = board.n >= native.DFPN_FIRST_SIZE and not board.pie
    if by_dfpn:
        share = None if timeout is None else timeout / 4
        found = native.settle(position, timeout=share or NATIVE_DFPN_SECONDS,
                              node_limit=(node_limit or 0) // 4)  # fmt: skip
        nodes = found.nodes
        by_dfpn = found.value != "unknown"
        if not by_dfpn and not (node_limit and nodes >= node_limit):
            found = native.solve_any(position, node_limit=(node_limit or 0) and node_limit - nodes,
                                     timeout=left())  # fmt: skip
            nodes += found.nodes
    else:
        found = native.solve_any(position, node_limit=node_limit or 0, timeout=timeout)
        nodes = found.nodes
    if found.value == "unknown":
        note = "stopped by the time or node budget before a proof"
        stopped = Stop.NODES if node_limit and nodes >= node_limit else Stop.TIME
        return SolveResult.unknown(position, name, nodes, note, stopped)
    exact: native.NativeResult | None = None
    if distance or max_plies is not None:
        allowed = max(NATIVE_DISTANCE_FACTOR * nodes, NATIVE_DISTANCE_MIN_NODES)
        if node_limit:
            allowed = min(allowed, node_limit - nodes)
        if allowed > 0:
            # after a df-pn proof, keep half of the time for its winning line
            share = left()
            if by_dfpn and share is not None:
                share /= 2
            measured = native.solve_any(position, distance=True, node_limit=allowed,
                                        timeout=share)  # fmt: skip
            nodes += measured.nodes
            if measured.value != "unknown":
                assert measured.value == found.value, (measured, found)
                exact = measured
    mover = position.to_move
    winner = {"win": mover, "loss": 1 - mover}.get(found.value)
    if max_plies is not None and exact is None:
        note = (f"{found.value} for the side to move, but whether within {max_plies} plies "
                "was not settled (time or node budget)")  # fmt: skip
        stopped = Stop.NODES if node_limit and nodes >= node_limit else Stop.TIME
        return SolveResult.unknown(position, name, nodes, note, stopped)
    if max_plies is not None and exact is not None and (
        exact.plies is None or exact.plies > max_plies
    ):
        note = f"no forced win for either side within {max_plies} plies"
        return SolveResult.unknown(position, name, nodes, note, Stop.PLIES)
    if exact is not None:
        pv = native.principal_line(position, distance=True)
        return SolveResult(position, exact.value, winner, exact.best_move, exact.plies, pv,
                           nodes, 0.0, name)  # fmt: skip
    if by_dfpn:
        pv = native.winning_line(position, winner, timeout=left()) if winner is not None else []
        note = "value proved by the native df-pn; " + (
            "the number of plies was not asked for" if not distance else
            "the number of plies was not computed within the budget (the line shown is a "
            "winning line, not the shortest)")  # fmt: skip
        return SolveResult(position, found.value, winner, found.best_move, None, pv, nodes,
                           0.0, name, note=note)  # fmt: skip
    pv = native.principal_line(position, distance=False)
    note = "value proved; " + (
        "the number of plies was not asked for" if not distance else
        "the number of plies was not computed within the budget (the line shown is a "
        "winning line, not the shortest)")  # fmt: skip
    return SolveResult(position, found.value, winner, found.best_move, None, pv, nodes, 0.0,
                       name, note=note)  # fmt: skip


def solve_native_within(
    position: Position,
    max_plies: int,
    timeout: float | None,
    node_limit: int | None,
    name: str,
) -> SolveResult:
    """A forced win within ``max_plies`` plies: the native search cut at that horizon."""
    note = f"no forced win for either side within {max_plies} plies"
    if max_plies == 0:
        return SolveResult.unknown(position, name, 0, note, Stop.PLIES)
    found = native.solve_any(position, distance=True, node_limit=node_limit or 0,
                             timeout=timeout, horizon=max_plies)  # fmt: skip
    if found.value == "unknown":
        note = "stopped by the time or node budget before a proof"
        stopped = Stop.NODES if node_limit and found.nodes >= node_limit else Stop.TIME
        return SolveResult.unknown(position, name, found.nodes, note, stopped)
    if found.value not in ("win", "loss"):
        return SolveResult.unknown(position, name, found.nodes, note, Stop.PLIES)
    assert found.plies is not None and found.plies <= max_plies
    mover = position.to_move
    winner = mover if found.value == "win" else 1 - mover
    pv = native.principal_line(position, distance=True, horizon=found.plies)
    return SolveResult(position, found.value, winner, found.best_move, found.plies, pv,
                       found.nodes, 0.0, name)  # fmt: skip


def _solve(position: Position, request: Request, method: str) -> SolveResult:
    return solve_native(position, request.max_plies, request.timeout, request.node_limit,
                        request.distance, method)  # fmt: skip


def _win_oracle(
    position: Any, winner: int, plies: int | None = None
) -> Callable[[Any], int | None] | None:
    return native.win_oracle(winner) if native.supports_any(position) else None


def _leaf(position: Any, nodes: int) -> str | None:
    found = native.solve_any(position, node_limit=nodes)
    return None if found.value == "unknown" else found.value


def _hooks() -> list[Any]:
    return [native._native] if native.available() else []



def _accepts(position: Any) -> bool:
    """What the C search takes (asked of the binding at each call: a test may switch it)."""
    return bool(native.accepts(position))


ENGINE = Engine(
    scope="Minefield (every size 2..26)",
    accepts=_accepts,
    solve=_solve,
    refusal=native.refusal,
    win_oracle=_win_oracle,
    playouts=playouts.kernel,
    hooks=_hooks,
    leaf=_leaf,
    mcts=mcts.search,
)
