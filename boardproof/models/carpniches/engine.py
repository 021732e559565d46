"""Carpniches' engine: its native (C) alpha-beta, its native MCTS tree and its playout kernels.

The game's descriptor names this module (``GameInfo.engine``); the generic layers find the
engine through it and never import it.
"""

from __future__ import annotations

from typing import Any

from boardproof.models.base import Engine, Position, check_range
from boardproof.models.carpniches import native as native_carpniches
from boardproof.models.carpniches import playouts
from boardproof.models.carpniches.native import mcts
from boardproof.solvers.api import AUTO_MAX_STATES, Request, SolveResult, from_search, try_enumerate
from boardproof.solvers.common import Budget, SearchTimeout
from boardproof.solvers.search import WIN, WIN_MIN

#: ``auto`` on Carpniches without a ply limit: nodes of native deepening before a
#: position with cycles it did not settle tries the enumeration of a small graph
NATIVE_CARPNICHES_FIRST_NODES = 2_000_000


def solve_native(
    position: Position, max_plies: int | None, budget: Budget, method: str
) -> SolveResult:
    """The C alpha-beta. ``auto`` without a ply limit, on a position with cycles that
    ``NATIVE_CARPNICHES_FIRST_NODES`` did not settle, tries the enumeration of a small
    reachable graph (it settles draws through cycles), then deepens on."""
    name = "native" if method == "native" else "auto:native"
    first = budget
    if method == "auto" and max_plies is None:
        first = Budget(None, NATIVE_CARPNICHES_FIRST_NODES)
        first.deadline = budget.deadline
        if budget.node_limit is not None:
            first.node_limit = min(budget.node_limit, NATIVE_CARPNICHES_FIRST_NODES)
    search = native_carpniches.NativeAlphaBeta(position, budget=first)
    found = search.iterate(max_plies)
    if first is not budget and not found.proved and not budget.expired(search.nodes):
        if search.reps:
            settled = try_enumerate(position, None, budget, AUTO_MAX_STATES)
            if settled is not None:
                settled.nodes += search.nodes
                settled.method = "auto:enumerate"
                return settled
        search.budget = budget  # deepen on (the table stays warm)
        found = search.iterate(None)
    mover = position.to_move
    winner = {"win": mover, "loss": 1 - mover}.get(found.value)
    return from_search(position, found, winner, search.nodes, name)


def _solve(position: Position, request: Request, method: str) -> SolveResult:
    return solve_native(position, request.max_plies, request.budget, method)


def win_within(position: Position, player: int, plies: int, node_limit: int,
               tt_bits: int) -> int | None:  # fmt: skip
    """Plies of ``player``'s fastest forced win within ``plies`` by the C search, or None;
    raises SearchTimeout when ``node_limit`` nodes do not settle it (InvalidOptionError for
    options outside the C module's ranges, before any search)."""
    native_carpniches.check_search(tt_bits=tt_bits, node_limit=node_limit)
    check_range("plies", plies, 0, native_carpniches.MAX_DEPTH, "the range of the C search")
    outcome = position.outcome()
    if outcome is not None and outcome.winners == frozenset((player,)):
        return 0
    if outcome is not None or plies <= 0:
        return None
    search = native_carpniches.NativeAlphaBeta(position, budget=Budget(None, node_limit),
                                               tt_bits=tt_bits)  # fmt: skip
    value = search.search(plies)
    if value is None:
        raise SearchTimeout(f"no answer within {node_limit} nodes")
    if position.to_move != player:
        value = -value
    if value < WIN_MIN:
        return None
    # the table may hand the search a win proved deeper than asked (a true win, but slower:
    # tests/test_native_dfpn_carpniches.py pins one); only a win within ``plies`` counts
    distance = WIN - value
    return distance if distance <= plies else None


def _hooks() -> list[Any]:
    return [native_carpniches._native] if native_carpniches.available() else []



def _accepts(position: Any) -> bool:
    """What the C search takes (asked of the binding at each call: a test may switch it)."""
    return bool(native_carpniches.supports(position))


ENGINE = Engine(
    scope="Carpniches",
    accepts=_accepts,
    solve=_solve,
    playouts=playouts.kernel,
    hooks=_hooks,
    win_within=win_within,
    max_plies=native_carpniches.MAX_DEPTH,
    mcts=mcts.search,
)
