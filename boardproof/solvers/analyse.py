"""The anytime engine behind ``boardproof analyse``: exact search first, then MCTS-Solver.

:func:`analyse` spends a small share of the budget on the exact solvers of
:mod:`boardproof.solvers.api` (which prove small positions outright), then grows an
:class:`~boardproof.solvers.mcts.MCTS` tree for the rest. The answer is the best
moves with visits and win rate (mean final score for score games), the expected
line, and, when either the exact search or the tree proves the result, the proved
value and a proof that :func:`~boardproof.solvers.proof.check_proof` accepts.

Budgets: ``seconds`` (the exact search gets ``EXACT_SHARE`` of it, at most
``EXACT_MAX_SECONDS``) or ``iterations`` (the exact search is then limited by nodes,
so that the same seed gives the same answer, with a safety cap of
``EXACT_ITERATION_SECONDS``). Roots with very many moves (a ColleXion turn) skip the
exact search.

>>> from boardproof import models
>>> pos = models.get("minefield").parse_position("1b2/2w1/1bb1/w3 w -")
>>> found = analyse(pos, iterations=200, seed=1)
>>> found.result, found.winner, str(found.best_move), found.proof is not None
('win', 1, 'b3', True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from boardproof.models.base import InvalidOptionError, Position
from boardproof.solvers.common import Budget, engine_of, num_players
from boardproof.solvers.mcts import MCTS, MoveStat
from boardproof.solvers.native_mcts import EngineSettings, NativeTree, native_tree

#: share of a time budget given to the exact search first, and its cap in seconds
EXACT_SHARE = 0.3
EXACT_MAX_SECONDS = 5.0
#: iteration mode: node limits of the exact search (Python searches / native search),
#: and a time cap in case a game's nodes are slow
EXACT_NODES = 5_000
EXACT_NATIVE_NODES = 2_000_000
EXACT_ITERATION_SECONDS = 1.0
#: no exact search from a root with more moves than this (score games: the second
#: figure; their exact search checks its budget too rarely on such wide trees)
EXACT_MAX_MOVES = 400
EXACT_MAX_MOVES_SCORE = 40
#: once the exact search has proved the value, MCTS only runs this many iterations
PROVED_ITERATIONS = 300
#: seconds allowed to the proof builder (alpha-beta) before the tree's own proof is used
PROOF_SECONDS = 3.0
#: how many proof nodes a proof may have
PROOF_MAX_NODES = 200_000
#: where the native search applies, each new MCTS leaf is first searched exactly with
#: this many nodes (a settled leaf needs no playout and is never searched again)
LEAF_NODES = 2_000


@dataclass
class Analysis:
    """What :func:`analyse` found about a position, for its side to move."""

    position: Position
    result: str  # win / loss / draw (proved) or unknown
    winner: int | None
    best_move: Any
    moves: list[MoveStat]
    pv: list[Any]
    iterations: int
    seconds: float
    method: str
    stopped: str
    value: float  # estimated win rate (reward) of the side to move
    score: float | None = None  # score games: estimated mean final score of the mover
    values: list[float] = field(default_factory=list)  # the estimate for every player
    proof: dict[str, Any] | None = None
    proof_note: str = ""
    exact_note: str = ""
    #: the tree grown (to continue from, e.g. the next move of a game)
    tree: Any = field(default=None, repr=False, compare=False)

    @property
    def proved(self) -> bool:
        return self.result != "unknown"

    def value_for(self, player: int) -> tuple[str | None, float]:
        """``(proved, estimate)`` for ``player``: proved is win/loss/draw or None."""
        estimate = self.values[player] if self.values else 0.0
        if self.result == "unknown":
            return None, estimate
        if self.result == "draw":
            return "draw", estimate
        return ("win" if self.winner == player else "loss"), estimate

    def to_json(self, game_name: str | None = None) -> dict[str, Any]:
        """The ``analyse --json`` object (DESIGN.md)."""
        game = self.position.game
        score_game = game.info.objective == "score"
        moves = []
        for stat in self.moves:
            item: dict[str, Any] = {"move": str(stat.move), "visits": stat.visits}
            item["value"] = round(stat.value, 4)
            if score_game:
                item["score"] = None if stat.score is None else round(stat.score, 3)
            item["proved"] = stat.proved
            moves.append(item)
        data: dict[str, Any] = {
            "game": game_name if game_name is not None else game.name,
            "position": self.position.fen(),
            "to_move": game.symbol(self.position.to_move),
            "result": self.result,
            "winner": None if self.winner is None else game.symbol(self.winner),
            "best_move": None if self.best_move is None else str(self.best_move),
            "value": round(self.value, 4),
            "moves": moves,
            "pv": [str(m) for m in self.pv],
            "iterations": self.iterations,
            "seconds": round(self.seconds, 3),
            "method": self.method,
            "stopped": self.stopped,
        }
        if score_game:
            data["score"] = None if self.score is None else round(self.score, 3)
        if self.exact_note:
            data["note"] = self.exact_note
        return data


def analyse(
    position: Position,
    *,
    seconds: float | None = None,
    iterations: int | None = None,
    seed: int = 0,
    multipv: int = 5,
    exact: bool = True,
    proof: bool = True,
    playout: str = "auto",
    game_name: str | None = None,
    options: dict[str, Any] | None = None,
    should_stop: Callable[[], bool] | None = None,
    progress: Callable[[Any, float], object] | None = None,
    engine: str = "auto",
    settings: EngineSettings | None = None,
    tree: Any = None,
) -> Analysis:
    """Analyse ``position`` within ``seconds`` or ``iterations`` (see the module doc);
    ``playout`` picks the playout kernel (:func:`~boardproof.solvers.playouts.kernel_for`)
    of the Python tree; ``engine`` the tree (:func:`make_tree`) and ``settings`` the native
    engine's parameters (its ``seed`` is replaced by ``seed``). ``tree``: a tree of an
    earlier call, already moved to ``position`` (a native tree keeps its subtree from move
    to move: :meth:`~boardproof.solvers.native_mcts.NativeTree.advance`), grown further
    instead of a new one."""
    if seconds is not None and seconds <= 0:
        raise InvalidOptionError(f"invalid option seconds: expected > 0, got {seconds!r}")
    if iterations is not None and iterations < 1:
        raise InvalidOptionError(f"invalid option iterations: expected >= 1, got {iterations!r}")
    if seconds is not None and iterations is not None:
        raise InvalidOptionError(
            "invalid option seconds: not together with option iterations (give one)"
        )
    if multipv < 1:
        raise InvalidOptionError(f"invalid option multipv: expected >= 1, got {multipv!r}")
    if seconds is None and iterations is None:
        seconds = 5.0
    start = time.perf_counter()
    solved = None
    if tree is not None and tree.root_position != position:
        raise ValueError("the tree given is not over the position analysed")
    if tree is None:
        tree = make_tree(position, engine, playout, seed, exact, settings)
    if exact and position.outcome() is None and _exact_pays(position, tree):
        solved = _exact(position, seconds, iterations)
    stopped = "proved"
    if position.outcome() is None:
        left = None if seconds is None else max(seconds - (time.perf_counter() - start), 0.0)
        budget = iterations
        if solved is not None:
            budget = min(PROVED_ITERATIONS, iterations or PROVED_ITERATIONS)
        if left is None or left > 0:
            info = tree.run(iterations=budget, seconds=left, should_stop=should_stop,
                            progress=progress)  # fmt: skip
            stopped = info.stopped
        else:
            stopped = "time"
        if solved is None and tree.iterations == 0:  # the budget went to the exact step:
            tree.run(iterations=1)  # one iteration, so that the answer names a move
        if solved is not None and stopped != "interrupted":
            stopped = "proved"
    return _collect(position, tree, solved, stopped, start, multipv, proof, game_name, options)


#: the trees ``analyse`` can grow: ``auto`` (where ``playout`` is ``auto``: the native engine
#: where the game has one that takes the position, else the game's own tree where it has one,
#: ``Engine.tree``; else the Python tree), ``native``, ``python``
ENGINES = ("auto", "native", "python")


def make_tree(
    position: Position,
    engine: str = "auto",
    playout: str = "auto",
    seed: int = 0,
    exact: bool = True,
    settings: EngineSettings | None = None,
) -> Any:
    """The tree :func:`analyse` grows: a :class:`~boardproof.solvers.native_mcts.NativeTree`
    or a Python :class:`~boardproof.solvers.mcts.MCTS` (see :data:`ENGINES`).

    >>> from boardproof import models
    >>> type(make_tree(models.get("candy").start(), "python")).__name__
    'MCTS'
    >>> make_tree(models.get("collexion").start(), "native")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    boardproof...InvalidOptionError: invalid option engine: ...native engine...
    """
    if engine not in ENGINES:
        raise InvalidOptionError(
            f"invalid option engine: expected one of {', '.join(ENGINES)}, got {engine!r}"
        )
    if engine == "native" or (engine == "auto" and playout == "auto"):
        chosen = replace(settings or EngineSettings(), seed=seed)
        tree = native_tree(position, chosen)  # (the engine's factory takes or not)
        if tree is not None:
            return tree
        if engine == "native":
            raise InvalidOptionError(
                f"invalid option engine: {position.game.name} has no native engine that "
                "takes this position (Minefield's standard rules have one)"
            )
        game_engine = engine_of(position)  # a game's own tree (ColleXion's turn search)
        tree = None if game_engine is None or game_engine.tree is None else (
            game_engine.tree(position, seed))  # fmt: skip
        if tree is not None:
            return tree
    try:
        return MCTS(position, seed=seed, playout=playout,
                    leaf_solver=leaf_solver(position) if exact else None)  # fmt: skip
    except ValueError as error:  # an unknown or unavailable playout kernel
        raise InvalidOptionError(f"invalid option playout: {error}") from None


#: with the native tree, the exact first step runs only from roots with at most this many
#: legal moves (a choice: on bigger boards its share of the time went to a df-pn that
#: proves nothing so early, and the C tree proves small endings itself)
EXACT_NATIVE_TREE_MOVES = 40


def _exact_pays(position: Position, tree: Any) -> bool:
    """Whether the exact first step is worth its share of the budget."""
    if not isinstance(tree, NativeTree):
        return True
    return len(position.legal_moves()) <= EXACT_NATIVE_TREE_MOVES


def leaf_solver(position: Position) -> Callable[[Position], str | None] | None:
    """The game engine's exact leaf search as the tree's leaf solver, where it applies
    (``Engine.leaf``; else None)."""
    engine = engine_of(position)
    if engine is None or engine.leaf is None or not engine.accepts(position):
        return None
    if num_players(position) != 2:
        return None
    leaf = engine.leaf

    def solve_leaf(pos: Position) -> str | None:
        return leaf(pos, LEAF_NODES)

    return solve_leaf


def _exact(position: Position, seconds: float | None, iterations: int | None) -> Any:
    """The exact solvers' result when they prove the value within the budget, else None."""
    from boardproof.solvers import api

    engine = engine_of(position)
    is_native = engine is not None and engine.leaf is not None and engine.accepts(position)
    score_game = position.game.info.objective == "score"
    width = len(position.legal_moves())
    if width > (EXACT_MAX_MOVES_SCORE if score_game else EXACT_MAX_MOVES) and not is_native:
        return None
    if seconds is not None:
        timeout = min(EXACT_SHARE * seconds, EXACT_MAX_SECONDS)
        node_limit = None
    else:
        timeout = EXACT_ITERATION_SECONDS
        node_limit = EXACT_NATIVE_NODES if is_native else EXACT_NODES
    result = api.solve(position, timeout=timeout, node_limit=node_limit, distance=False)
    return result if result.proved else None


def _collect(
    position: Position,
    tree: Any,
    solved: Any,
    stopped: str,
    start: float,
    multipv: int,
    want_proof: bool,
    game_name: str | None,
    options: dict[str, Any] | None,
) -> Analysis:
    players = num_players(position)
    mover = position.to_move
    moves = tree.moves(multipv)
    outcome = position.outcome()
    result, winner, method = "unknown", None, "mcts"
    best = tree.best_move()
    pv = tree.principal_line()
    note = ""
    if outcome is not None:
        winners = sorted(outcome.winners)
        result = "draw" if not winners or len(winners) == players else (
            "win" if mover in winners else "loss")  # fmt: skip
        winner = winners[0] if result != "draw" else None
        method = "rules"
        best, pv = None, []
    elif solved is not None:
        result, winner, method = solved.value, solved.winner, f"exact:{solved.method}+mcts"
        note = solved.note
        if solved.best_move is not None and result != "loss":
            best = solved.best_move
            pv = list(solved.pv) or [best]
            moves = _promote(moves, best, result)
        if result == "loss":
            moves = [MoveStat(s.move, s.visits, s.value, s.score, "loss") for s in moves]
    else:
        proved = tree.proved_value()
        if proved is not None:
            result, winner, method = proved, tree.proved_winner(), "mcts-solver"
    values = list(tree.root.reward)
    if tree.root.visits:
        values = [v / tree.root.visits for v in values]
    analysis = Analysis(
        position, result, winner, best, moves, pv, tree.iterations,
        time.perf_counter() - start, method, stopped, tree.root_value(), tree.root_score(),
        values, exact_note=note, tree=tree,
    )  # fmt: skip
    if want_proof and winner is not None and outcome is None:
        analysis.proof, analysis.proof_note = _proof(
            position, winner, tree, solved, game_name, options
        )
    return analysis


def _promote(moves: list[MoveStat], best: Any, result: str) -> list[MoveStat]:
    """Put the exactly proved best move first, marked with its proved value."""
    rest = [s for s in moves if s.move != best]
    found = [s for s in moves if s.move == best]
    top = found[0] if found else MoveStat(best, 0, 0.0, None, None)
    top = MoveStat(top.move, top.visits, top.value, top.score, result)
    return [top, *rest][: max(len(moves), 1)]


def _proof(
    position: Position,
    winner: int,
    tree: Any,
    solved: Any,
    game_name: str | None,
    options: dict[str, Any] | None,
) -> tuple[dict[str, Any] | None, str]:
    """A checked proof of ``winner``'s win: the proof builder's, else the tree's."""
    from boardproof.solvers.proof import ProofError, check_proof

    name = game_name if game_name is not None else position.game.name
    candidates: list[tuple[str, Callable[[], dict[str, Any]]]] = []
    if solved is not None:
        candidates.append(("proof builder", lambda: _built(position, winner, name, options)))
    elif tree.root.forced >> winner & 1:
        def subproof(pos: Position, player: int) -> dict[str, Any]:
            return _built(pos, player, name, options)

        from_tree = ("search tree", lambda: tree.proof(winner, name, options, subproof))
        if tree.leaf_solver is not None:  # the native oracle has no budget: the tree first
            candidates.append(from_tree)
        if winner == position.to_move:
            move = tree.best_move()
            candidates.append(
                ("proof builder, from the winning move",
                 lambda: _built_from_move(position, move, winner, name, options))
            )  # fmt: skip
        if tree.leaf_solver is None:
            candidates.append(from_tree)
    for source, make in candidates:
        try:
            data = make()
            report = check_proof(data, game=position.game)
        except (ValueError, AssertionError, ProofError, _TooLarge):
            continue
        return data, f"checked, {report.nodes} positions, from the {source}"
    return None, "no proof could be built within the limits"


class _TooLarge(Exception):  # noqa: N818 - a control-flow signal
    pass


def _built(
    position: Position, winner: int, name: str, options: dict[str, Any] | None
) -> dict[str, Any]:
    from boardproof.solvers.proof import ProofTooLarge, build_proof
    from boardproof.solvers.search import AlphaBeta

    engine = engine_of(position)
    oracle = None
    if engine is not None and engine.win_oracle is not None:
        oracle = engine.win_oracle(position, winner)
    searcher = None
    if oracle is None:
        searcher = AlphaBeta(position, player=winner, budget=Budget(PROOF_SECONDS))
    try:
        return build_proof(position, winner=winner, game_name=name, options=options,
                           max_nodes=PROOF_MAX_NODES, oracle=oracle,
                           searcher=searcher)  # fmt: skip
    except ProofTooLarge:
        raise _TooLarge from None
    except Exception as error:  # a search timeout inside the builder
        if type(error).__name__ == "SearchTimeout":
            raise _TooLarge from None
        raise


def _built_from_move(
    position: Position, move: Any, winner: int, name: str, options: dict[str, Any] | None
) -> dict[str, Any]:
    """The builder's proof for the position after ``move``, with the root put in front."""
    child = position.play(move)
    if child.outcome() is not None:
        below: dict[str, Any] = {"nodes": [{"id": 0, "position": child.fen(), "moves": {}}]}
    else:
        below = _built(child, winner, name, options)
    nodes = [{"id": 0, "position": position.fen(), "moves": {str(move): 1}}]
    for node in below["nodes"]:
        moves = {text: ident + 1 for text, ident in node["moves"].items()}
        nodes.append({"id": node["id"] + 1, "position": node["position"], "moves": moves})
    from boardproof.solvers.proof import FORMAT, VERSION

    return {
        "format": FORMAT, "version": VERSION, "game": name, "options": dict(options or {}),
        "root": position.fen(), "winner": position.game.symbol(winner), "nodes": nodes,
    }  # fmt: skip
