"""Puzzles mined from played games, as lichess mines its games (``puzzle generate
--from-games``).

A game is a :class:`GameLine`: a start position, the moves played and where it comes
from (the file and the record). Each game is one task: its positions are walked from the
end backwards, the last ``depth`` of them (both sides to move: a win the mover missed is
as good a puzzle as one he found), and a position becomes a puzzle when, with ``N`` its
exact distance to a forced win of the side to move, ``min_plies <= N <= max_plies``,
exactly one first move wins within ``N`` plies and the proof tree is built within its
budget. The puzzle objects are those of :mod:`boardproof.puzzles.generate` (the same
fields, ``rating`` formula, ``decoys``, ``duals`` and proof, so ``puzzle check``
re-verifies them with the rules only), and ``source`` says where the position was played:
``{"file", "record", "ply", "start", "line"}`` (``ply``: the moves played before it;
``line``: those moves, which ``puzzle check`` replays from ``start``). A game gives at
most ``per_game`` puzzles (the latest first), with distinct solutions (a win missed
again and again is one puzzle, its latest position); a position met twice is kept once.

Every "does ``player`` win within ``k`` plies" question is asked of the fastest exact
search that takes the position (:class:`Prover`): the game's native ``win_within``
(Carpniches, Candy Conquest with 2 to 4 players), else the native solver cut at ``k``
plies (``solve(method="native", max_plies=k)``: Minefield at every size 2..26, in the
variants its C search takes), else the Python alpha-beta (the other Minefield variants).
The native searches run on node limits only (:data:`NATIVE_NODES` a search); a candidate
that exhausts one is discarded (counted as ``budget``). With more than two players the
ply bound makes room for the other players' moves (:func:`ply_bound`). ``nodes`` of the
rating counts the searches asked (the native tables live across calls, so their own node
counts depend on what ran before: the count of searches does not). The proof tree's
moves come from the same searches, cut at the puzzle's ``N`` plies (:func:`proof_tree`);
the proof is then checked by :func:`~boardproof.solvers.proof.check_proof` like every
other; the puzzle ships it as a compact strategy (version 2, :mod:`boardproof.puzzles.compact`).
Where the game's engine builds that strategy itself (``Engine.strategy``: Candy Conquest,
in C), it does, with the same tokens, positions, principal line and count of searches
(``Mining(method="tree")`` keeps the Python tree: the plain method the tests compare it with).

A score game (ColleXion, ``objective`` ``score``) is mined for its puzzles, "the one best
turn" of an endgame the exact score search settles: the game's own puzzle evaluation
(``evaluate`` of the module its descriptor names as ``puzzle_maker``), walking back from
the end until the search no longer settles a position (the box only grows backwards),
with :data:`SCORE_NODES` nodes a position.

>>> from boardproof import models
>>> game = models.get("minefield")
>>> start = game.parse_position("6/6/6/6/6/6 b -")
>>> texts = "b6 f6 a1 e1 b2 c1 c4 c2 d5 f2 b1 f1 b3 d1 b5 d3 b4".split()
>>> line = GameLine({"record": "demo"}, start, tuple(texts))
>>> found = mine_game(line, settings_for("minefield"), Mining(depth=12))
>>> [(p["source"]["ply"], p["plies"], p["solution"], p["pv"]) for p in found["puzzles"]]
[(14, 3, 'b5', ['b5', 'a2', 'b4'])]
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from boardproof import models
from boardproof.jobs.executor import Executor, run_tasks
from boardproof.models.base import Game, InvalidOptionError, Position, game_options
from boardproof.puzzles.compact import ship
from boardproof.puzzles.generate import (
    Settings,
    proof_line,
    puzzle_game,
    settings_for,
    win_within,
    wins,
)
from boardproof.puzzles.rating import rate
from boardproof.puzzles.store import FORMAT, VERSION, VERSION_COMPACT
from boardproof.puzzles.themes import puzzle_themes
from boardproof.solvers.api import solve
from boardproof.solvers.common import Budget, SearchTimeout, Stop, engine_of, num_players
from boardproof.solvers.proof import FORMAT as PROOF_FORMAT
from boardproof.solvers.proof import VERSION as PROOF_VERSION
from boardproof.solvers.proof import ProofTooLarge, build_proof
from boardproof.solvers.search import AlphaBeta
from boardproof.solvers.strategy import pack

__all__ = ["GameLine", "Mined", "Mining", "Prover", "mine", "mine_game", "mining_settings",
           "settings_for"]  # fmt: skip

#: the exact score search's node budget of one position of a score game (ColleXion's own
#: generator gives 200,000 to its seeded endgames; a played game's positions are tried
#: from the end until one exhausts it, so that one costs it in full)
SCORE_NODES = 10_000

#: node limit of one native search (one that runs out discards the candidate)
NATIVE_NODES = 2_000_000
#: the table of a native ``win_within`` (Carpniches, Candy Conquest): 2**16 entries
NATIVE_TT_BITS = 16


@dataclass(frozen=True)
class Mining:
    """Which positions of a game are tried: the last ``depth`` (from the end backwards),
    at most ``per_game`` puzzles a game."""

    depth: int = 24
    per_game: int = 1
    #: ``auto``: the fastest exact search that takes each position (and the engine's
    #: native proof builder where it has one: ``Engine.strategy``); ``tree``: the same
    #: searches, the proof tree built in Python (the plain method of the native proofs);
    #: ``python``: the Python alpha-beta only (the plain method, for the tests)
    method: str = "auto"

    def validate(self) -> Mining:
        if self.method not in ("auto", "tree", "python"):
            raise InvalidOptionError(
                f"invalid option method: expected auto, tree or python, got {self.method!r}"
            )
        if self.depth < 1:
            raise InvalidOptionError(f"invalid option depth: expected >= 1, got {self.depth!r}")
        if self.per_game < 1:
            raise InvalidOptionError(
                f"invalid option per_game: expected >= 1, got {self.per_game!r}"
            )
        return self


@dataclass(frozen=True)
class GameLine:
    """A played game: where it comes from (``source``: ``file``, ``record``), its start
    and its moves (moves or their notation)."""

    source: dict[str, Any]
    start: Position
    moves: tuple[Any, ...]

    def positions(self) -> list[Position]:
        """``positions[k]``: the position after ``k`` moves (a bad move raises the game's
        error: the records are replayed when read, so this only repeats that)."""
        found = [self.start]
        for move in self.moves:
            here = found[-1]
            found.append(here.play(here.parse_move(move) if isinstance(move, str) else move))
        return found

    def to_task(self) -> dict[str, Any]:
        """Plain data for an executor task (a Dask worker re-reads it)."""
        game = self.start.game
        return {"game": game.name, "options": game_options(game), "start": self.start.fen(),
                "moves": [str(m) for m in self.moves], "source": dict(self.source)}  # fmt: skip

    @staticmethod
    def from_task(data: dict[str, Any]) -> GameLine:
        game: Game = models.get(data["game"], **data["options"])
        return GameLine(data["source"], game.parse_position(data["start"]), tuple(data["moves"]))


class Prover:
    """Does ``player`` force a win within ``plies`` plies, and how fast? Asked of the
    fastest exact search that takes the position (see the module doc; ``method``
    ``python``: always the Python alpha-beta, the plain method the tests compare the
    native ones with); ``searches`` counts the questions asked. A search that runs out of
    its budget raises :class:`~boardproof.solvers.common.SearchTimeout`."""

    def __init__(self, root: Position, player: int, nodes: int,
                 deadline: float | None = None, method: str = "auto") -> None:  # fmt: skip
        self.player = player
        self.searches = 0
        self.deadline = deadline
        engine = engine_of(root) if method != "python" else None
        self.engine = engine
        if engine is not None and engine.win_within is not None and engine.accepts(root):
            self.mode = "win_within"
        elif engine is not None and engine.accepts(root) and root.game.info.players[1] == 2:
            self.mode = "native"
        else:
            self.mode = "python"
        self.search = (AlphaBeta(root, player=player, budget=Budget(self._left(), nodes))
                       if self.mode == "python" else None)  # fmt: skip

    def _left(self) -> float | None:
        if self.deadline is None:
            return None
        left = self.deadline - time.perf_counter()
        if left <= 0:
            raise SearchTimeout("the candidate's time ran out")
        return left

    def within(self, position: Position, plies: int) -> int | None:
        """Plies of the player's fastest forced win from ``position`` if at most ``plies``."""
        player = self.player
        if position.outcome() is not None:
            return 0 if wins(position, player) else None
        if plies <= 0:
            return None
        if plies == 1 and position.to_move == player:  # a win in 1: no search needed
            winning = any(wins(position.play(move), player) for move in position.legal_moves())
            return 1 if winning else None
        self.searches += 1
        self._left()
        if self.mode == "win_within":
            assert self.engine is not None and self.engine.win_within is not None
            found: int | None = self.engine.win_within(position, player, plies, NATIVE_NODES,
                                                       NATIVE_TT_BITS)  # fmt: skip
            return found
        if self.mode == "native":
            result = solve(position, method="native", max_plies=plies, node_limit=NATIVE_NODES)
            if result.stopped in Stop.BUDGET:
                raise SearchTimeout("the native search ran out of nodes")
            if result.winner == player and result.plies is not None and result.plies <= plies:
                return int(result.plies)
            return None
        assert self.search is not None
        # the table may hold a slower win, proved by a deeper search of the same position
        # (generate.win_within returns it as it is): only a win within ``plies`` counts
        plies_found = win_within(self.search, position, player, plies)
        return plies_found if plies_found is not None and plies_found <= plies else None

    def best(self, position: Position, plies: int) -> Any:
        """The first legal move of the player (to move in ``position``) after which it
        wins within ``plies - 1`` plies (the first, not the native solver's best move:
        which of equal moves that one picks depends on its table, kept across calls)."""
        for move in position.legal_moves():
            if self.within(position.play(move), plies - 1) is not None:
                return move
        raise AssertionError(f"no winning move within {plies} plies in {position.fen()}")

    @property
    def nodes(self) -> int:
        """The effort for the rating: alpha-beta nodes, or the native searches asked."""
        return self.search.nodes if self.search is not None else self.searches


def mining_settings(game: str, **changes: Any) -> Settings:
    """The generator's settings of ``game`` (:func:`~boardproof.puzzles.generate.settings_for`,
    ``changes`` applied), with no ``max_moves`` where the game's native ``win_within``
    answers (Candy Conquest: its limit is for the Python alpha-beta, and positions of
    played games have more moves), and a score game's node budget at most
    :data:`SCORE_NODES`.

    >>> mining_settings("candy").max_moves is None, settings_for("candy").max_moves
    (True, 60)
    """
    chosen = settings_for(game, **changes)
    info = models.info(puzzle_game(game))
    if info.objective == "score" and "root_nodes" not in changes:
        chosen = replace(chosen, root_nodes=min(chosen.root_nodes, SCORE_NODES))
    engine = info.part("engine")
    if engine is not None and engine.win_within is not None and "max_moves" not in changes:
        chosen = replace(chosen, max_moves=None)
    return chosen


def ply_bound(max_plies: int, players: int) -> int:
    """The ply bound of a position of ``players`` players: as many own moves as
    ``max_plies`` gives two players, the other players' moves between them.

    >>> ply_bound(3, 2), ply_bound(3, 3), ply_bound(3, 4), ply_bound(5, 4)
    (3, 4, 5, 9)
    """
    own = (max_plies + 1) // 2
    return (own - 1) * players + 1


# ---------------------------------------------------------------------------
# one candidate
# ---------------------------------------------------------------------------


def evaluate(
    pos: Position, settings: Settings, game: str, options: dict[str, Any],
    method: str = "auto",
    taken: frozenset[str] = frozenset(),
) -> tuple[dict[str, Any] | None, str]:
    """The puzzle at ``pos`` (without ``id``/``source``), or None and the reason (the
    reasons of :func:`boardproof.puzzles.generate.evaluate`, and ``same solution`` when
    the one winning move is in ``taken``: found before the costly part, the proof)."""
    if pos.outcome() is not None:
        return None, "finished"
    moves = list(pos.legal_moves())
    if len(moves) < settings.min_moves or (
        settings.max_moves is not None and len(moves) > settings.max_moves
    ):
        return None, "move count"
    deadline = None if settings.timeout is None else time.perf_counter() + settings.timeout
    player = pos.to_move
    prover = Prover(pos, player, settings.check_nodes, deadline, method)
    try:
        plies = prover.within(pos, ply_bound(settings.max_plies, num_players(pos)))
        if plies is None:
            return None, "no win"
        if plies < settings.min_plies:
            return None, "too short"
        winning = [m for m in moves if prover.within(pos.play(m), plies - 1) is not None][:2]
        if len(winning) != 1:
            return None, "not unique" if winning else "inconsistent"
        solution = winning[0]
        if str(solution) in taken:
            return None, "same solution"
        alternatives = [m for m in moves if m != solution]
        decoys = _decoys(pos, alternatives, player, plies, settings, deadline, method)
        built = None
        if method == "python":  # the plain method: the generic proof builder
            proof = build_proof(pos, winner=player, game_name=game, options=options,
                                max_nodes=settings.proof_nodes,
                                oracle=lambda p: prover.within(p, plies))  # fmt: skip
        elif (method == "auto" and prover.mode == "win_within" and prover.engine is not None
              and prover.engine.strategy is not None):
            # the engine builds the strategy that proof_tree + ship would (tested equal)
            seconds = 0.0 if deadline is None else max(deadline - time.perf_counter(), 1e-3)
            built = prover.engine.strategy(pos, solution, plies, NATIVE_NODES, NATIVE_TT_BITS,
                                           settings.proof_nodes, seconds)  # fmt: skip
            prover.searches += built.searches
        else:
            proof = proof_tree(pos, solution, plies, prover, game, options,
                               settings.proof_nodes)  # fmt: skip
        first = built.tokens[:1] if built is not None else list(proof["nodes"][0]["moves"])
        pv = built.line if built is not None else proof_line(proof, str(solution))
        duals = _duals(pos, pv, player, plies, settings, deadline, method)
    except (SearchTimeout, ProofTooLarge, RecursionError):
        return None, "budget"
    except (ValueError, AssertionError):  # build_proof: the searches disagree (never seen)
        return None, "inconsistent"
    if first != [str(solution)] or len(pv) != plies:
        return None, "inconsistent"
    puzzle: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "options": dict(options),
        "position": pos.fen(),
        "to_move": pos.game.symbol(player),
        "plies": plies,
        "solution": str(solution),
        "pv": pv,
        "decoys": [str(m) for m in decoys],
        "duals": duals,
        "rating": rate(plies, len(moves), len(decoys), prover.nodes),
    }
    if built is not None:  # already compact (ship's form)
        return {**puzzle, "version": VERSION_COMPACT,
                "strategy": pack(built.tokens, built.positions)}, "puzzle"  # fmt: skip
    puzzle["proof"] = proof
    return ship(puzzle, above=0), "puzzle"  # mined (large boards): always compact


def proof_tree(root: Position, solution: Any, plies: int, prover: Prover, game: str,
               options: dict[str, Any], max_nodes: int) -> dict[str, Any]:
    """The proof tree (:func:`~boardproof.solvers.proof.build_proof`'s format) that the
    prover's player wins from ``root`` within ``plies`` plies, first move ``solution``:
    at the player's positions the move of :meth:`Prover.best` (the first that wins in
    time, as ``build_proof`` picks it), at the others every reply; the wins in 1 are
    found by the rules alone. Raises ProofTooLarge past ``max_nodes``
    positions, AssertionError if the searches contradict each other."""
    player = prover.player
    nodes: list[dict[str, Any]] = []
    ids: dict[Any, int] = {}
    stack: list[tuple[Position, int, int]] = []

    def node_for(pos: Position, dist: int) -> int:
        key = pos.key()
        found = ids.get(key)
        if found is not None:
            return found
        if len(nodes) >= max_nodes:
            raise ProofTooLarge
        ids[key] = len(nodes)
        nodes.append({"id": len(nodes), "position": pos.fen(), "moves": {}})
        stack.append((pos, dist, len(nodes) - 1))
        return len(nodes) - 1

    def child_node(child: Position, dist: int) -> int:
        found = prover.within(child, dist - 1)
        if found is None:
            raise AssertionError(f"{child.fen()}: no win within {dist - 1} plies")
        return node_for(child, found)

    node_for(root, plies)
    while stack:
        pos, dist, node_id = stack.pop()
        if pos.outcome() is not None:
            continue
        if pos.to_move == player:
            move = solution if node_id == 0 else prover.best(pos, dist)
            nodes[node_id]["moves"] = {str(move): child_node(pos.play(move), dist)}
        else:
            nodes[node_id]["moves"] = {str(m): child_node(pos.play(m), dist)
                                       for m in pos.legal_moves()}  # fmt: skip
    return {"format": PROOF_FORMAT, "version": PROOF_VERSION, "game": game,
            "options": dict(options), "root": root.fen(), "winner": root.game.symbol(player),
            "nodes": nodes}  # fmt: skip


def _decoys(pos: Position, alternatives: list[Any], player: int, plies: int,
            settings: Settings, deadline: float | None, method: str) -> list[Any]:  # fmt: skip
    """Other first moves that still win, in ``plies + 2`` plies at most (a budget that
    runs out only stops the count)."""
    found: list[Any] = []
    prover = Prover(pos, player, settings.decoy_nodes, deadline, method)
    try:
        for move in alternatives:
            if prover.within(pos.play(move), plies + 1) is not None:
                found.append(move)
    except SearchTimeout:
        pass
    return found


def _duals(pos: Position, pv: list[str], player: int, plies: int, settings: Settings,
           deadline: float | None, method: str) -> list[int] | None:  # fmt: skip
    """The plies of the main line (1-based, after the first) where the winner has another
    move that also wins in time; None if a budget ran out first."""
    prover = Prover(pos, player, settings.check_nodes, deadline, method)
    found: list[int] = []
    here = pos
    try:
        for index, text in enumerate(pv):
            move = here.parse_move(text)
            if index > 0 and here.to_move == player:
                for other in here.legal_moves():
                    if other != move and prover.within(here.play(other),
                                                       plies - index - 1) is not None:
                        found.append(index + 1)
                        break
            here = here.play(move)
    except SearchTimeout:
        return None
    return found


def _score_evaluator(game: str) -> Callable[..., tuple[dict[str, Any] | None, str]]:
    """The puzzle evaluation of a score game: ``evaluate(position, settings)`` of the
    module its descriptor names as ``puzzle_maker`` (loaded by name, as every part)."""
    module = importlib.import_module(models.info(game).puzzle_maker)
    found: Callable[..., tuple[dict[str, Any] | None, str]] = module.evaluate
    return found


# ---------------------------------------------------------------------------
# one game
# ---------------------------------------------------------------------------


def mine_game(line: GameLine, settings: Settings, mining: Mining) -> dict[str, Any]:
    """The puzzles of one game (latest first, at most ``per_game``) and the candidates'
    counts by reason: ``{"puzzles": [...], "counts": {...}}``."""
    positions = line.positions()
    game = puzzle_game(line.start.game.name)
    options = game_options(line.start.game)
    score = models.info(game).objective == "score"
    evaluator = _score_evaluator(game) if score else None
    counts: dict[str, int] = {}
    puzzles: list[dict[str, Any]] = []
    solutions: set[str] = set()
    end = len(positions) - 1
    for ply in range(end, max(end - mining.depth, 0) - 1, -1):
        pos = positions[ply]
        if pos.outcome() is not None:
            continue
        if evaluator is not None and num_players(pos) != 2:
            puzzle, reason = None, "players"  # a score puzzle is between two players
        elif evaluator is not None:
            puzzle, reason = evaluator(pos, settings)
        else:  # the same win, missed again, is one puzzle: its latest position
            puzzle, reason = evaluate(pos, settings, game, options, mining.method,
                                      frozenset(solutions))  # fmt: skip
        if puzzle is not None and puzzle["solution"] in solutions:
            puzzle, reason = None, "same solution"
        counts[reason] = counts.get(reason, 0) + 1
        if puzzle is not None:
            solutions.add(puzzle["solution"])
            puzzle["source"] = {**line.source, "ply": ply, "start": line.start.fen(),
                                "line": [str(m) for m in line.moves[:ply]]}  # fmt: skip
            puzzle["themes"] = puzzle_themes(puzzle)
            puzzles.append(puzzle)
            if len(puzzles) >= mining.per_game:
                break
        elif score and reason in ("budget", "inexact"):
            break  # earlier positions hold more pieces: no search settles them either
    return {"puzzles": puzzles, "counts": counts}


def _mine_task(args: dict[str, Any]) -> dict[str, Any]:
    """Picklable entry point for the executor (plain data in, plain data out)."""
    line = GameLine.from_task(args["line"])
    return mine_game(line, Settings(**args["settings"]), Mining(**args["mining"]))


# ---------------------------------------------------------------------------
# many games
# ---------------------------------------------------------------------------


@dataclass
class Mined:
    """The puzzles found (in game order), the games read and what the search did."""

    puzzles: list[dict[str, Any]]
    games: int
    seconds: float
    counts: dict[str, int] = field(default_factory=dict)


def puzzle_id(source: dict[str, Any], ply: int) -> str:
    """A mined puzzle's ``id``: the record's, then the ply.

    >>> puzzle_id({"record": "selfplay-minefield-1-3"}, 97)
    'selfplay-minefield-1-3-ply97'
    """
    return f"{source.get('record', 'game')}-ply{ply}"


def mine(
    lines: Iterable[GameLine],
    settings: Settings | None = None,
    mining: Mining | None = None,
    *,
    count: int | None = None,
    executor: Executor | None = None,
    workers: int = 1,
    progress: bool = True,
    on_puzzle: Callable[[dict[str, Any]], None] | None = None,
) -> Mined:
    """The puzzles of ``lines`` (all of one game), in game order, until ``count`` of them
    (None: every game). One task a game; the result does not depend on what ran them."""
    games = list(lines)
    if not games:
        raise InvalidOptionError("invalid option games: expected at least one game, got none")
    name = puzzle_game(games[0].start.game.name)
    chosen = (settings or mining_settings(name)).validate(name)
    rule = (mining or Mining()).validate()
    start = time.perf_counter()
    arg = {"settings": asdict(chosen), "mining": asdict(rule)}
    tasks = [(f"{k:06d}", {**arg, "line": line.to_task()}) for k, line in enumerate(games)]
    found: list[dict[str, Any]] = []
    seen: set[str] = set()
    counts: dict[str, int] = {}
    state = {"read": 0}

    def update(results: dict[str, dict[str, Any]]) -> bool:
        """Read the unbroken prefix of finished games; True once ``count`` puzzles."""
        while state["read"] < len(tasks) and (count is None or len(found) < count):
            key = f"{state['read']:06d}"
            if key not in results:
                break
            state["read"] += 1
            for reason, n in results[key]["counts"].items():
                counts[reason] = counts.get(reason, 0) + n
            for puzzle in results[key]["puzzles"]:
                if count is not None and len(found) >= count:
                    break
                if puzzle["position"] in seen:
                    counts["duplicate"] = counts.get("duplicate", 0) + 1
                    continue
                seen.add(puzzle["position"])
                source = puzzle["source"]
                puzzle = {"id": puzzle_id(source, source["ply"]), **puzzle}
                found.append(puzzle)
                if on_puzzle is not None:
                    on_puzzle(puzzle)
        return count is not None and len(found) >= count

    def status(done: int) -> str:
        return f"game {done} of {len(tasks)}, {len(found)} puzzles"

    done = run_tasks(_mine_task, tasks, executor=executor, workers=workers,
                     progress=progress, description=f"puzzles from games {name}",
                     until=update, status=status)  # fmt: skip
    update(done)  # the games of the last results (``until`` may have stopped the run first)
    return Mined(found, state["read"], time.perf_counter() - start, counts)
