"""One entry point for solving a position: :func:`solve` -> :class:`SolveResult`.

``method`` picks the solver:

- ``alphabeta``: iterative-deepening alpha-beta (exact distances, PV);
- ``pns``: df-pn proving/disproving each player's forced win (no distances);
- ``enumerate``: retrograde analysis of the whole reachable graph (small games;
  exact draws through cycles);
- ``native``: the C search that the position's game brings (its descriptor's engine:
  Minefield at every size, with exact distances unless ``distance=False`` and with
  ``max_plies`` a search cut at that many plies; Carpniches; Candy Conquest with 2-4
  players: the same values, distances and ``max_plies`` as ``alphabeta``);
- ``auto`` (default): ``native`` where it applies and was built; otherwise
  alpha-beta, and if the game repeats positions and no win shows up, the
  enumeration of a small reachable graph to settle draws.

``objective="score"`` solves two-player games whose final outcomes carry scores
(value = the mover's final score minus the opponent's); ``auto`` picks it when
the game says ``objective == "score"``. When the exact score search gives no proof
within its share of the time (half of ``timeout``, or ``SCORE_EXACT_SECONDS``), or
the game has more than two players, the answer is the best turn of a bounded
search (:mod:`boardproof.solvers.bestturn`, method ``bestturn``): ``unknown``, with
a best move, an ``estimate`` and a note saying it is not a proof.

The result is for the side to move: ``win``, ``loss``, ``draw`` or ``unknown``
(a time limit, or ``max_plies`` below what a proof needs). ``unknown`` comes
with a note saying what was established, e.g. "no forced win for either side
within 7 plies". With more than two players, ``win`` means the side to move
wins against the coalition of all others, ``loss`` that another player (the
``winner``) does, and ``draw`` that nobody can force a win.

>>> from boardproof.testing.games import subtraction
>>> result = solve(subtraction(9, 3))
>>> result.value, result.winner, result.plies, [str(m) for m in result.pv]
('win', 0, 5, ['1', '1', '3', '1', '3'])
>>> solve(subtraction(9, 3), max_plies=4).value
'unknown'
>>> solve(subtraction(9, 3), method="pns").value
'win'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from boardproof import models
from boardproof.models.base import InvalidOptionError, Position, check_range
from boardproof.solvers.common import Budget, SearchTimeout, Stop, engine_of, num_players
from boardproof.solvers.enumerate import TooManyStates, solve_graph
from boardproof.solvers.native import MAX_NODES
from boardproof.solvers.pns import DFPN
from boardproof.solvers.search import AlphaBeta, ScoreSearch, SearchResult

#: the enumeration limit of ``method="enumerate"`` (states kept in memory)
MAX_STATES = 2_000_000
#: the enumeration limit when ``auto`` tries to settle a cyclic game
AUTO_MAX_STATES = 200_000
#: score games without ``timeout``: seconds for the exact score search, then (no proof)
#: seconds for the bounded best-turn search (boardproof.solvers.bestturn, not a proof)
SCORE_EXACT_SECONDS = 30.0
BEST_TURN_SECONDS = 10.0


@dataclass
class SolveResult:
    """What a solver established about a position, for its side to move."""

    position: Position
    value: str
    winner: int | None
    best_move: Any
    plies: int | None
    pv: list[Any]
    nodes: int
    seconds: float
    method: str
    note: str = ""
    score: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: why it stopped unsettled (:class:`~boardproof.solvers.common.Stop`: ``time``,
    #: ``nodes``, ``plies``, ``states``); None when it settled the question
    stopped: str | None = None

    @property
    def proved(self) -> bool:
        return self.value != "unknown"

    @property
    def winner_symbol(self) -> str | None:
        """The winner as the notation writes the side to move (``"b"``, ``"c"``, ``"1"``…)."""
        return None if self.winner is None else self.position.game.symbol(self.winner)

    @classmethod
    def unknown(
        cls, position: Position, method: str, nodes: int, note: str, stopped: str | None
    ) -> SolveResult:
        """The one constructor of an unsettled result: no value, no move, no line.

        >>> from boardproof import models
        >>> r = SolveResult.unknown(models.get("minefield").start(size=3), "pns", 7, "x", "time")
        >>> r.value, r.proved, r.stopped, r.pv
        ('unknown', False, 'time', [])
        """
        return cls(position, "unknown", None, None, None, [], nodes, 0.0, method, note=note,
                   stopped=stopped)  # fmt: skip

    def to_json(self, game_name: str | None = None) -> dict[str, Any]:
        """The ``solve --json`` object (DESIGN.md), plus ``note`` and ``score``."""
        game = self.position.game
        data: dict[str, Any] = {
            "game": game_name if game_name is not None else game.name,
            "position": self.position.fen(),
            "result": self.value,
            "winner": None if self.winner is None else game.symbol(self.winner),
            "best_move": None if self.best_move is None else str(self.best_move),
            "plies": self.plies,
            "pv": [str(m) for m in self.pv],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "method": self.method,
        }
        if self.note:
            data["note"] = self.note
        if self.score is not None:
            data["score"] = self.score
        if self.stopped is not None and self.value == "unknown":
            data["stopped"] = self.stopped
        data.update(self.extra)
        return data


def solve(
    position: Position,
    method: str = "auto",
    max_plies: int | None = None,
    timeout: float | None = None,
    *,
    objective: str = "auto",
    node_limit: int | None = None,
    tt_capacity: int = 1 << 21,
    symmetry: bool = True,
    max_states: int | None = None,
    distance: bool = True,
) -> SolveResult:
    """Solve ``position`` for its side to move (see the module docstring).

    ``distance=False`` lets alpha-beta settle who wins without the exact number
    of plies (much faster on whole games; ``plies`` is then None).
    """
    if method not in METHODS:
        raise InvalidOptionError(
            f"invalid option method: expected one of {', '.join(METHODS)}, got {method!r}"
        )
    if max_plies is not None and max_plies < 0:
        raise InvalidOptionError(f"invalid option max_plies: expected >= 0, got {max_plies!r}")
    if timeout is not None and timeout <= 0:
        raise InvalidOptionError(f"invalid option timeout: expected > 0, got {timeout!r}")
    if node_limit is not None:  # the native searches count in 64 bits (0 is "none" there)
        check_range("node_limit", node_limit, 1, MAX_NODES, "a node count of the searches")
    if objective == "auto":
        objective = position.game.info.objective
    if objective not in ("win", "score"):
        raise InvalidOptionError(
            f"invalid option objective: expected win or score, got {objective!r}"
        )
    start = time.perf_counter()
    request = Request(max_plies, timeout, node_limit, tt_capacity, symmetry,
                      max_states, distance, Budget(timeout, node_limit))  # fmt: skip
    if objective == "score":
        if method == "native":
            choose_method(position, method)  # no native score search: the usual refusal
        result = _solve_score(position, max_plies, request.budget, tt_capacity)
    else:
        result = choose_method(position, method).run(position, request, method)
    result.seconds = time.perf_counter() - start
    return result


@dataclass(frozen=True)
class Request:
    """What a caller of :func:`solve` asked for, handed to a method's ``run``."""

    max_plies: int | None
    timeout: float | None
    node_limit: int | None
    tt_capacity: int
    symmetry: bool
    max_states: int | None
    distance: bool
    budget: Budget


@dataclass(frozen=True)
class SolveMethod:
    """One entry of the solve-method table: what it accepts, and how it runs.

    ``auto`` says whether ``method="auto"`` may pick it (the first such method
    that accepts the position, in table order); ``refusal`` says why an explicit
    request for it is refused.
    """

    name: str
    accepts: Callable[[Position], bool]
    run: Callable[[Position, Request, str], SolveResult]
    auto: bool = False
    refusal: Callable[[Position], str] = lambda position: "it does not take this position"


def _any(position: Position) -> bool:
    return True


def choose_method(position: Position, method: str) -> SolveMethod:
    """The table entry that solves ``position`` for ``method`` (``auto``: the first
    automatic one that accepts it); refuses a method that does not accept it.

    >>> from boardproof import models
    >>> choose_method(models.get("collexion").start(), "auto").name
    'alphabeta'
    >>> pos = models.get("candy").start(players=3)
    >>> choose_method(pos, "auto").name == (
    ...     "native" if models.info("candy").part("engine").accepts(pos) else "alphabeta")
    True
    """
    if method == "auto":
        return next(m for m in TABLE if m.auto and m.accepts(position))
    chosen = next(m for m in TABLE if m.name == method)
    if not chosen.accepts(position):
        raise InvalidOptionError(
            f"invalid option method {method}: {chosen.refusal(position)}, got {position.fen()!r}"
        )
    return chosen


# ---------------------------------------------------------------------------
# the methods
# ---------------------------------------------------------------------------


def _others(position: Position) -> list[int]:
    mover = position.to_move
    return [p for p in range(num_players(position)) if p != mover]


def _within(max_plies: int | None) -> str:
    return "" if max_plies is None else f" within {max_plies} plies"


def solve_alphabeta(
    position: Position,
    max_plies: int | None,
    budget: Budget,
    tt_capacity: int,
    symmetry: bool,
    method: str,
    distance: bool = True,
) -> SolveResult:
    players = num_players(position)
    mover = position.to_move
    search = AlphaBeta(position, tt_capacity=tt_capacity, budget=budget, symmetry=symmetry)
    # auto on a cyclic game: short wins by deepening, then the exact enumeration of a
    # small reachable graph, and only then the (possibly very long) unbounded pass
    search.unbounded_pass = method != "auto"
    first = search.iterate(max_plies, distance=distance)
    unsettled = not first.proved and first.repetitions and not budget.expired(search.nodes)
    if method == "auto" and unsettled:
        settled = try_enumerate(position, max_plies, budget, AUTO_MAX_STATES)
        if settled is not None:
            settled.nodes += search.nodes
            settled.method = "auto:enumerate"
            return settled
        if max_plies is None and not budget.expired(search.nodes):
            search.unbounded_pass = True
            first = search.iterate(None, distance=distance)
    nodes = search.nodes
    name = "alphabeta" if method == "alphabeta" else "auto:alphabeta"
    if first.value == "win":
        return from_search(position, first, mover, nodes, name)
    if players == 2:
        winner = 1 - mover if first.value == "loss" else None
        return from_search(position, first, winner, nodes, name)
    # more than two players and the mover cannot win (or did not prove it)
    all_proved = first.proved
    for other in _others(position):
        rival = AlphaBeta(
            position, player=other, tt_capacity=tt_capacity, budget=budget, symmetry=symmetry
        )
        found = rival.iterate(max_plies, distance=distance)
        nodes += rival.nodes
        all_proved = all_proved and found.proved
        # the search is from the mover's side: "loss" means ``other`` wins
        if found.value == "loss":
            return SolveResult(
                position, "loss", other, first.best_move, found.plies, found.pv, nodes, 0.0, name
            )
    if all_proved:
        return SolveResult(
            position, "draw", None, first.best_move, None, first.pv, nodes, 0.0, name,
            note="no player can force a win against the others",
        )  # fmt: skip
    note = f"no forced win for any player{_within(max_plies)} (stopped: time, node or ply limit)"
    stopped = budget.stop_reason(nodes) if budget.expired(nodes) else Stop.PLIES
    return SolveResult.unknown(position, name, nodes, note, stopped)


def from_search(
    position: Position, found: SearchResult, winner: int | None, nodes: int, method: str
) -> SolveResult:
    return SolveResult(
        position,
        found.value,
        winner,
        found.best_move if found.proved else None,
        found.plies,
        found.pv if found.proved else [],
        nodes,
        0.0,
        method,
        note=found.note,
        stopped=found.stopped,
    )


def _solve_pns(
    position: Position,
    max_plies: int | None,
    budget: Budget,
    tt_capacity: int,
    symmetry: bool,
) -> SolveResult:
    mover = position.to_move
    nodes = 0
    timed_out = False
    for player in [mover, *_others(position)]:
        search = DFPN(
            position,
            player=player,
            max_plies=max_plies,
            tt_capacity=tt_capacity,
            budget=budget,
            symmetry=symmetry,
        )
        found = search.solve()
        nodes += search.nodes
        if found.proved:
            value = "win" if player == mover else "loss"
            best = found.best_move if player == mover else None
            pv = found.pv if player == mover else []
            return SolveResult(
                position, value, player, best, None, pv, nodes, 0.0, "pns",
                note="df-pn proves the value, not the distance (plies: use alphabeta)",
            )  # fmt: skip
        if found.proved is None:
            timed_out = True
            break
    if not timed_out and max_plies is None:
        return SolveResult(
            position, "draw", None, None, None, [], nodes, 0.0, "pns",
            note="no player can force a win",
        )  # fmt: skip
    note = f"no forced win for any player{_within(max_plies)}"
    stopped = Stop.PLIES
    if timed_out:
        note = "stopped by the time or node budget before a proof"
        stopped = budget.stop_reason(nodes)
    return SolveResult.unknown(position, "pns", nodes, note, stopped)


def try_enumerate(
    position: Position, max_plies: int | None, budget: Budget, max_states: int
) -> SolveResult | None:
    try:
        solved = solve_graph(position, max_states, budget)
    except (TooManyStates, SearchTimeout):
        return None
    value, plies, winner = solved.value(0)
    nodes = len(solved.graph.positions)
    if max_plies is not None and plies is not None and plies > max_plies:
        note = f"no forced win for any player within {max_plies} plies"
        return SolveResult.unknown(position, "enumerate", nodes, note, Stop.PLIES)
    pv = solved.pv(0, limit=plies if plies is not None else 64)
    return SolveResult(
        position, value, winner, solved.best_move(0), plies, pv, nodes, 0.0, "enumerate"
    )


def _solve_enumerate(
    position: Position, max_plies: int | None, budget: Budget, max_states: int
) -> SolveResult:
    result = try_enumerate(position, max_plies, budget, max_states)
    if result is None:
        if budget.expired():
            note, stopped = "stopped by the time budget", budget.stop_reason()
        else:
            note = f"more than {max_states} reachable states: too many to enumerate"
            stopped = Stop.STATES
        return SolveResult.unknown(position, "enumerate", 0, note, stopped)
    return result


def _solve_score(
    position: Position, max_plies: int | None, budget: Budget, tt_capacity: int
) -> SolveResult:
    if budget.deadline is None:
        exact_budget = Budget(SCORE_EXACT_SECONDS, budget.node_limit)
        bounded_budget = Budget(BEST_TURN_SECONDS, budget.node_limit)
    else:
        # half of the time for the exact search, the rest for the bounded best turn
        exact_budget = Budget((budget.deadline - time.perf_counter()) / 2, budget.node_limit)
        bounded_budget = budget
    if num_players(position) != 2:
        return _best_turn(position, max_plies, bounded_budget, 0)
    search = ScoreSearch(position, tt_capacity=tt_capacity, budget=exact_budget)
    found = search.solve(max_plies)
    if not found.proved:
        return _best_turn(position, max_plies, bounded_budget, search.nodes)
    winner = None
    if found.value == "win":
        winner = position.to_move
    elif found.value == "loss":
        winner = 1 - position.to_move
    return SolveResult(
        position,
        found.value,
        winner,
        found.best_move,
        found.plies,
        found.pv,
        search.nodes,
        0.0,
        "alphabeta:score",
        note=found.note,
        score=found.score if found.proved else None,
        stopped=found.stopped,
    )


def _best_turn(
    position: Position, max_plies: int | None, budget: Budget, nodes: int
) -> SolveResult:
    """No exact score found (too big, or more than two players): the best turn found by
    the bounded search of :mod:`boardproof.solvers.bestturn` -- not a proof."""
    from boardproof.solvers.bestturn import best_turn

    timeout = None
    if budget.deadline is not None:
        timeout = max(budget.deadline - time.perf_counter(), 0.001)
    found = best_turn(
        position,
        max_plies=max_plies if max_plies is not None else 64,
        timeout=timeout,
        node_limit=budget.node_limit,
    )
    value, winner = "unknown", None
    if found.proved and num_players(position) == 2:
        value = "win" if found.score > 0 else "loss" if found.score < 0 else "draw"
        winner = {"win": position.to_move, "loss": 1 - position.to_move}.get(value)
    return SolveResult(
        position,
        value,
        winner,
        found.best_move,
        None,
        found.pv,
        nodes + found.nodes,
        0.0,
        "bestturn",
        note=found.note,
        score=found.score if found.proved else None,
        extra={"estimate": found.score, "depth": found.depth},
        stopped=None if value != "unknown" else found.stopped or Stop.PLIES,
    )


# ---------------------------------------------------------------------------
# the table
# ---------------------------------------------------------------------------


def _run_alphabeta(position: Position, request: Request, method: str) -> SolveResult:
    return solve_alphabeta(position, request.max_plies, request.budget, request.tt_capacity,
                            request.symmetry, method, request.distance)  # fmt: skip


def _run_pns(position: Position, request: Request, method: str) -> SolveResult:
    return _solve_pns(position, request.max_plies, request.budget, request.tt_capacity,
                      request.symmetry)  # fmt: skip


def _run_enumerate(position: Position, request: Request, method: str) -> SolveResult:
    return _solve_enumerate(position, request.max_plies, request.budget,
                            request.max_states or MAX_STATES)  # fmt: skip


def _native_accepts(position: Position) -> bool:
    engine = engine_of(position)
    return engine is not None and engine.accepts(position)


def _native_refusal(position: Position) -> str:
    engine = engine_of(position)
    if engine is not None:
        return engine.refusal(position)
    scopes = [found.scope for found in (models.info(name).part("engine") for name in models.names())
              if found is not None and found.scope]  # fmt: skip
    return f"it solves {', '.join(scopes[:-1])} and {scopes[-1]} positions only"


def _run_native(position: Position, request: Request, method: str) -> SolveResult:
    """The C search of the position's game (its engine's ``solve``)."""
    engine = engine_of(position)
    assert engine is not None
    result: SolveResult = engine.solve(position, request, method)
    return result


TABLE: tuple[SolveMethod, ...] = (
    SolveMethod("native", _native_accepts, _run_native, auto=True, refusal=_native_refusal),
    SolveMethod("alphabeta", _any, _run_alphabeta, auto=True),
    SolveMethod("pns", _any, _run_pns),
    SolveMethod("enumerate", _any, _run_enumerate),
)
#: the names ``solve(method=...)`` takes
METHODS = ("auto", "alphabeta", "pns", "enumerate", "native")
