"""Puzzle generation: seeded random playouts, then proofs by the solvers.

A *task* ``(game, seed, index)`` owns its own ``random.Random`` (seeded from the
text ``"boardproof-puzzle:<game>:<seed>:<index>"``, the same on every machine)
and plays up to ``playouts`` random games from a start position (Minefield: a
5x5, 6x6 or 7x7 board drawn by the same generator, rulebook win, no pie rule;
Carpniches: the start position; Candy Conquest: 2 players). The playout policy
is random, except that a player who can win at once does (so the games end the
way they would between people who see one move ahead, and no playout position
has a win in 1 for its side to move).

The candidates are the positions 3, 5, …, ``max_plies + 2`` plies before the end
of a playout, where the eventual winner is to move (farthest first). A candidate
becomes a puzzle when, with ``N`` its exact distance to a forced win:

1. :func:`boardproof.solvers.api.solve` (alpha-beta, ``max_plies``) proves a win
   for the side to move in ``N`` plies, ``min_plies <= N <= max_plies``;
2. every other first move is refuted: after it, the side to move has no forced
   win within ``N - 1`` plies (alpha-beta on the same ply bound, one shared
   transposition table for all the alternatives);
3. :func:`boardproof.solvers.proof.build_proof` writes the proof tree, whose
   first move must be the solution (a tree of more than
   :data:`~boardproof.puzzles.compact.COMPACT_ABOVE` positions is shipped as a compact
   strategy, version 2: :func:`boardproof.puzzles.compact.ship`).

The solvers run on node budgets, so the output is the same on every machine; a
wall-clock ``timeout`` per candidate is only a safety net (a candidate that
hits any budget is discarded, and counted in the statistics). ``generate`` runs
tasks in index order through :func:`boardproof.jobs.executor.run_tasks`
(in-process, a process pool or a Dask cluster) and keeps the first ``count``
distinct puzzles by task index: the result does not depend on ``workers``, and an
interrupted run resumes from its checkpoint with the same result.

>>> result = generate("minefield", 1, seed=3, progress=False)
>>> puzzle = result.puzzles[0]
>>> puzzle["plies"] >= 3, puzzle["solution"] == puzzle["pv"][0]
(True, True)
>>> generate("minefield", 1, seed=3, progress=False).puzzles == result.puzzles
True
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from boardproof import models
from boardproof.jobs.checkpoints import JournalCheckpoint
from boardproof.jobs.executor import Executor, run_tasks
from boardproof.models.base import InvalidOptionError, Position, check_range
from boardproof.puzzles import PuzzleError, PuzzleUnavailableError
from boardproof.puzzles.compact import ship
from boardproof.puzzles.rating import rate
from boardproof.puzzles.store import FORMAT, VERSION
from boardproof.solvers.api import solve
from boardproof.solvers.common import Budget, SearchTimeout, Stop, engine_of
from boardproof.solvers.proof import ProofTooLarge, build_proof
from boardproof.solvers.search import WIN, WIN_MIN, AlphaBeta

#: a playout longer than this (Carpniches can cycle) is dropped
MAX_PLAYOUT_PLIES = 300

@dataclass(frozen=True)
class Settings:
    """What a puzzle must be and how much search a candidate may cost.

    Node budgets make generation deterministic; ``timeout`` (seconds per
    candidate, None for none) is a safety net only.
    """

    min_plies: int = 3
    max_plies: int = 5
    #: fewest legal first moves (fewer is no puzzle)
    min_moves: int = 4
    #: most legal first moves (None: no limit); more is skipped before any search
    max_moves: int | None = None
    #: playouts per task
    playouts: int = 4
    #: playout policy: a player who can win at once does (False: purely random moves,
    #: much cheaper where move generation is expensive; candidates with a win in 1
    #: are then rejected by the ply bound)
    greedy: bool = True
    #: alpha-beta nodes for the candidate's own solve
    root_nodes: int = 20_000
    #: alpha-beta nodes for refuting all the other first moves
    check_nodes: int = 60_000
    #: alpha-beta nodes for finding decoys (slower wins); running out only stops the count
    decoy_nodes: int = 10_000
    #: most positions in the proof tree
    proof_nodes: int = 50_000
    timeout: float | None = 20.0

    def validate(self, game: str | None = None) -> Settings:
        """These settings if they are allowed (for ``game``, when given: its native
        search's ``max_plies``), else InvalidOptionError, before any work."""
        if self.min_plies < 1:
            raise InvalidOptionError(
                f"invalid option min_plies: expected a number >= 1, got {self.min_plies!r}"
            )
        if self.max_plies < self.min_plies:
            raise InvalidOptionError(
                "invalid option max_plies: expected a number >= option min_plies "
                f"({self.min_plies}), got {self.max_plies!r}"
            )
        info = models.info(game) if game is not None else None
        engine = info.part("engine") if info is not None else None
        if engine is not None and engine.win_within is not None and engine.max_plies is not None:
            # the candidates' filter asks the native search for wins of max_plies plies:
            # a longer one is refused here, not by the C module in the middle of the run
            assert info is not None
            why = f"the longest win the native search of {info.long_name} takes"
            check_range("min_plies", self.min_plies, 1, engine.max_plies, why)
            check_range("max_plies", self.max_plies, self.min_plies, engine.max_plies, why)
        return self


def settings_for(game: str, **changes: Any) -> Settings:
    """The default settings of ``game`` with ``changes`` (None values ignored)."""
    spec = models.info(puzzle_game(game)).puzzles
    assert spec is not None
    given = {k: v for k, v in changes.items() if v is not None}
    return replace(Settings(**spec.settings), **given).validate(puzzle_game(game))


def puzzle_game(name: str) -> str:
    """The canonical name of a game that has puzzles; raises for unknown names.

    >>> puzzle_game("candy-conquest"), puzzle_game("collexion")
    ('candy', 'collexion')
    """
    key = models.canonical_name(name)
    info = models.info(key)
    if info.puzzles is None:
        raise PuzzleUnavailableError(
            f"puzzles are not available for {key}: {info.no_puzzles}: {name!r}"
        )
    return key


def start_position(
    game: str, rng: random.Random, game_options: dict[str, Any] | None = None
) -> tuple[Position, dict[str, Any]]:
    """A start position for a playout, and the game options it needs (for the proof):
    ``game_options`` (Minefield's ``variant``, ``win``), which the puzzle carries.

    The game's :class:`~boardproof.models.base.PuzzleInfo` gives the ``start()`` options
    and, if any, the board sizes drawn with ``rng``.
    """
    spec = models.info(game).puzzles
    assert spec is not None
    options = dict(spec.start)
    if spec.sizes:
        options["size"] = rng.choice(spec.sizes)
    chosen = dict(game_options or {})
    return models.get(game, **chosen).start(**options), chosen


def wins(position: Position, player: int) -> bool:
    """Whether ``position`` is finished and ``player`` is its only winner."""
    outcome = position.outcome()
    return outcome is not None and outcome.winners == frozenset((player,))


def playout(
    start: Position, rng: random.Random, greedy: bool = True
) -> list[tuple[Position, Any]] | None:
    """A random game from ``start``: ``[(position, move played), …, (final, None)]``.

    With ``greedy``, a player with an immediate win plays it (the first in canonical order).
    None if the game is not over after ``MAX_PLAYOUT_PLIES``.
    """
    line: list[tuple[Position, Any]] = []
    pos = start
    while pos.outcome() is None:
        if len(line) >= MAX_PLAYOUT_PLIES:
            return None
        moves = pos.legal_moves()
        mover = pos.to_move
        chosen = None
        for move in moves if greedy else ():
            if wins(pos.play(move), mover):
                chosen = move
                break
        if chosen is None:
            chosen = moves[rng.randrange(len(moves))]
        line.append((pos, chosen))
        pos = pos.play(chosen)
    line.append((pos, None))
    return line


# ---------------------------------------------------------------------------
# one candidate
# ---------------------------------------------------------------------------


class _Discard(Exception):  # noqa: N818 - control flow
    """A candidate that hit a budget."""


def _remaining(deadline: float | None) -> float | None:
    if deadline is None:
        return None
    left = deadline - time.perf_counter()
    if left <= 0:
        raise _Discard
    return left


def win_within(search: AlphaBeta, position: Position, player: int, plies: int) -> int | None:
    """Plies of ``player``'s fastest forced win from ``position`` if at most ``plies``."""
    if wins(position, player):
        return 0
    if position.outcome() is not None or plies <= 0:
        return None
    value = search.value(position, plies)
    if position.to_move != player:
        value = -value
    if value < WIN_MIN:
        return None
    # the search's table may hold a deeper search's exact value: a fastest win longer
    # than ``plies`` is no answer to this question (pinned: tests/test_puzzles_from_games.py)
    found = WIN - value
    return found if found <= plies else None


def proof_line(proof: dict[str, Any], first: str) -> list[str]:
    """The principal variation read from a proof: the winner's moves, and the replies that
    put the end off longest (ties: the first written).

    >>> proof = {"nodes": [{"id": 0, "moves": {"a": 1}}, {"id": 1, "moves": {"x": 2, "y": 3}},
    ...     {"id": 2, "moves": {}}, {"id": 3, "moves": {"b": 2}}]}
    >>> proof_line(proof, "a")
    ['a', 'y', 'b']
    """
    nodes = {node["id"]: node for node in proof["nodes"]}
    depth: dict[int, int] = {}

    def height(node_id: int) -> int:
        order: list[int] = [node_id]
        while order:  # iterative post-order over the DAG
            top = order[-1]
            pending = [c for c in nodes[top]["moves"].values() if c not in depth]
            if pending:
                order.extend(pending)
                continue
            order.pop()
            children = nodes[top]["moves"].values()
            depth[top] = 1 + max((depth[c] for c in children), default=-1)
        return depth[node_id]

    line = [first]
    node_id = nodes[0]["moves"][first]
    while nodes[node_id]["moves"]:
        moves = nodes[node_id]["moves"]
        best = max(moves, key=lambda m: (height(moves[m]), -list(moves).index(m)))
        line.append(best)
        node_id = moves[best]
    return line


#: node limit of each native search of the candidate filter (one that runs out rejects nothing)
NATIVE_FILTER_NODES = 1_000_000
#: the native filter's table: 2**16 entries (cleared before each search)
NATIVE_FILTER_TT_BITS = 16


def native_rejection(pos: Position, settings: Settings) -> str | None:
    """Why ``pos`` is no puzzle, proved by the native search (Carpniches, Candy Conquest)
    before any Python search; None if the native search is not built, does not take
    ``pos``, or rejects nothing.

    A cheaper filter only: it rejects a candidate only when :func:`evaluate`'s own
    searches would reject it too (no win within ``max_plies``, a win in fewer than
    ``min_plies``, or two first moves that win in time), so the puzzles are the same
    with or without the C module (only the reasons counted for rejected candidates may
    differ: a Python search can run out of its budget first).
    """
    engine = engine_of(pos)
    if engine is None or engine.win_within is None or not engine.accepts(pos):
        return None
    search = engine.win_within

    def within(position: Position, player: int, plies: int) -> int | None:
        found: int | None = search(position, player, plies, NATIVE_FILTER_NODES,
                                   NATIVE_FILTER_TT_BITS)  # fmt: skip
        return found

    player = pos.to_move
    try:
        plies = within(pos, player, settings.max_plies)
        if plies is None:
            return "no win"
        if plies < settings.min_plies:
            return "too short"
        winning = 0
        for move in pos.legal_moves():
            if within(pos.play(move), player, plies - 1) is not None:
                winning += 1
                if winning > 1:
                    return "not unique"
    except SearchTimeout:  # a search ran out of nodes: it rejects nothing
        return None
    return None


#: :func:`_decoys` asks the native search first (False: the plain Python search only)
NATIVE_DECOYS = True


def native_no_decoys(pos: Position, alternatives: list[Any], player: int, plies: int) -> bool:
    """Whether the native search (Carpniches, Candy Conquest) proves that no move of
    ``alternatives`` leaves ``player`` a forced win within ``plies`` more plies; False if
    it is not built, does not take ``pos``, finds one, or runs out of nodes on one."""
    engine = engine_of(pos)
    if engine is None or engine.win_within is None or not engine.accepts(pos):
        return False
    if engine.max_plies is not None and plies > engine.max_plies:
        return False
    try:
        for move in alternatives:
            after = pos.play(move)
            if wins(after, player) or engine.win_within(
                after, player, plies, NATIVE_FILTER_NODES, NATIVE_FILTER_TT_BITS
            ) is not None:
                return False
    except SearchTimeout:
        return False
    return True


class _BoundedSearch(AlphaBeta):
    """Alpha-beta whose root search stops at the puzzle's ply bound (for build_proof,
    which would otherwise first settle the value without a depth limit)."""

    def __init__(self, root: Position, bound: int, **kwargs: Any) -> None:
        super().__init__(root, **kwargs)
        self.bound = bound

    def iterate(self, max_depth: int | None = None, distance: bool = True) -> Any:
        return super().iterate(self.bound if max_depth is None else max_depth, distance)


def evaluate(
    pos: Position, settings: Settings, game: str, options: dict[str, Any]
) -> tuple[dict[str, Any] | None, str]:
    """The puzzle at ``pos`` (without ``id``/``source``), or None and the reason."""
    deadline = None if settings.timeout is None else time.perf_counter() + settings.timeout
    player = pos.to_move
    if pos.outcome() is not None:
        return None, "finished"
    count = len(pos.legal_moves())
    if count < settings.min_moves or (
        settings.max_moves is not None and count > settings.max_moves
    ):
        return None, "move count"
    rejected = native_rejection(pos, settings)
    if rejected is not None:
        return None, rejected
    try:
        first = solve(
            pos,
            method="alphabeta",
            max_plies=settings.max_plies,
            timeout=_remaining(deadline),
            node_limit=settings.root_nodes,
        )
        if first.stopped in Stop.BUDGET:
            raise _Discard
        if first.value != "win" or first.plies is None or first.best_move is None:
            return None, "no win"
        plies = first.plies
        if plies < settings.min_plies:
            return None, "too short"
        solution = first.best_move
        moves = list(pos.legal_moves())
        search = AlphaBeta(
            pos, player=player, budget=Budget(_remaining(deadline), settings.check_nodes)
        )
        if win_within(search, pos.play(solution), player, plies - 1) != plies - 1:
            return None, "inconsistent"
        alternatives = [m for m in moves if m != solution]
        for move in alternatives:
            if win_within(search, pos.play(move), player, plies - 1) is not None:
                return None, "not unique"
        nodes = first.nodes + search.nodes
        decoys = _decoys(pos, alternatives, player, plies, settings, deadline)
        prover = _BoundedSearch(
            pos,
            plies,
            player=player,
            budget=Budget(_remaining(deadline), settings.check_nodes),
        )
        proof = build_proof(
            pos,
            winner=player,
            game_name=game,
            options=options,
            max_nodes=settings.proof_nodes,
            searcher=prover,
        )
    except (_Discard, SearchTimeout, ProofTooLarge, RecursionError):
        return None, "budget"
    except ValueError as error:  # build_proof found no win: the budget ran out
        if isinstance(error, PuzzleError):
            raise
        return None, "budget"
    root_moves = proof["nodes"][0]["moves"]
    if list(root_moves) != [str(solution)]:
        return None, "inconsistent"
    pv = proof_line(proof, str(solution))
    if len(pv) != plies:
        return None, "inconsistent"
    symbol = pos.game.symbol(player)
    puzzle: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "options": dict(options),
        "position": pos.fen(),
        "to_move": symbol,
        "plies": plies,
        "solution": str(solution),
        "pv": pv,
        "decoys": [str(m) for m in decoys],
        "duals": _duals(pos, pv, player, plies, settings),
        "rating": rate(plies, len(moves), len(decoys), nodes),
        "proof": proof,
    }
    return ship(puzzle), "puzzle"


def _duals(
    pos: Position, pv: list[str], player: int, plies: int, settings: Settings
) -> list[int] | None:
    """The plies of the main line (1-based, after the first) where the winner has another
    move that also wins in time; None if the node budget ran out first."""
    found: list[int] = []
    search = AlphaBeta(pos, player=player, budget=Budget(None, settings.check_nodes))
    here = pos
    try:
        for index, text in enumerate(pv):
            move = here.parse_move(text)
            if index > 0 and here.to_move == player:
                for other in here.legal_moves():
                    if (
                        other != move
                        and win_within(search, here.play(other), player, plies - index - 1)
                        is not None
                    ):
                        found.append(index + 1)
                        break
            here = here.play(move)
    except SearchTimeout:
        return None
    return found


def _decoys(
    pos: Position,
    alternatives: list[Any],
    player: int,
    plies: int,
    settings: Settings,
    deadline: float | None,
) -> list[Any]:
    """Other first moves that still win, in ``plies + 2`` plies at most (budget-bounded).

    When the native search proves that no alternative wins in time
    (:func:`native_no_decoys`), the answer is ``[]`` without the Python search (which can
    only find real decoys, so it would find none either: pinned against the plain method by
    tests/test_daily_difficulty.py)."""
    found: list[Any] = []
    left = _remaining(deadline)
    if NATIVE_DECOYS and native_no_decoys(pos, alternatives, player, plies + 1):
        return found
    search = AlphaBeta(pos, player=player, budget=Budget(left, settings.decoy_nodes))
    try:
        for move in alternatives:
            if win_within(search, pos.play(move), player, plies + 1) is not None:
                found.append(move)
    except SearchTimeout:
        pass
    return found


# ---------------------------------------------------------------------------
# tasks and the generator
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Task:
    """One unit of work: a few playouts of one generator, seeded by (game, seed, index)."""

    game: str
    seed: int
    index: int
    settings: Settings
    #: the game options (Minefield's ``variant``, ``win``) as sorted pairs; none: the
    #: rulebook's game, whose seeds are those of before the option
    game_options: tuple[tuple[str, Any], ...] = ()

    def rng(self) -> random.Random:
        extra = "".join(f":{k}={v}" for k, v in self.game_options)
        return random.Random(f"boardproof-puzzle:{self.game}:{self.seed}:{self.index}{extra}")


def run_task(task: Task) -> dict[str, Any]:
    """Play the task's playouts; returns the first puzzle found (or None) and counts."""
    rng = task.rng()
    counts: dict[str, int] = {}
    for _ in range(task.settings.playouts):
        start, options = start_position(task.game, rng, dict(task.game_options))
        line = playout(start, rng, task.settings.greedy)
        if line is None:
            continue
        end = len(line) - 1
        offsets = range(min(task.settings.max_plies + 2, end), 2, -1)  # none beyond the start
        for offset in (o for o in offsets if o % 2 == 1 and end - o >= 0):
            pos = line[end - offset][0]
            if pos.to_move != line[end - 1][0].to_move:
                continue
            puzzle, reason = evaluate(pos, task.settings, task.game, options)
            counts[reason] = counts.get(reason, 0) + 1
            if puzzle is not None:
                puzzle["source"] = {
                    "seed": task.seed,
                    "task": task.index,
                    "start": start.fen(),
                    "line": [str(move) for _, move in line[: end - offset]],
                }
                return {"puzzle": puzzle, "counts": counts}
    return {"puzzle": None, "counts": counts}


def _run_task_args(args: dict[str, Any]) -> dict[str, Any]:
    """Picklable entry point for the executor (plain data in, plain data out)."""
    settings = Settings(**args["settings"])
    maker = models.info(args["game"]).part("puzzle_maker")
    if maker is not None:  # the game makes its own (ColleXion: best-turn puzzles)
        found: dict[str, Any] = maker(args["seed"], args["index"], settings)
        return found
    options = tuple(sorted(args.get("options", {}).items()))
    return run_task(Task(args["game"], args["seed"], args["index"], settings, options))


@dataclass
class Generated:
    """The puzzles found, and what the search did to find them."""

    puzzles: list[dict[str, Any]]
    tasks: int
    seconds: float
    counts: dict[str, int] = field(default_factory=dict)


class _Prefix:
    """The first ``count`` distinct puzzles of the task sequence, read from the results
    finished so far (by any back end, in any order): only the unbroken prefix of task
    indices counts, so the puzzles, the task count and the statistics do not depend on
    what ran the tasks, nor on which ran before an interruption."""

    def __init__(self, name: str, seed: int, count: int, checkpoint: Any,
                 on_puzzle: Callable[[dict[str, Any]], None] | None,
                 limit: int = 0) -> None:  # fmt: skip
        self.name, self.seed, self.count = name, seed, count
        #: the most tasks the run may start (shown in the progress lines)
        self.limit = limit
        self.checkpoint = checkpoint
        self.on_puzzle = on_puzzle
        self.puzzles: list[dict[str, Any]] = []
        self.seen: set[str] = set()
        self.counts: dict[str, int] = {}
        #: tasks of the prefix read so far
        self.tasks = 0
        self.start = time.perf_counter()  # for the estimate of the time left

    def status(self, done: int) -> str:
        from boardproof.jobs.progress import eta_text

        made = min(len(self.puzzles), self.count)
        eta = eta_text(time.perf_counter() - self.start, made, self.count - made)
        return (f"task {done} of at most {self.limit}, {made}/{self.count} puzzles"
                + (f", {eta}" if eta else ""))  # fmt: skip

    def check(self, key: str, found: Any) -> None:
        """Refuse a result that :func:`run_task` cannot have given (a damaged checkpoint)."""
        if not _is_task_result(found):
            raise InvalidOptionError(
                f"invalid checkpoint: task {key} is not a puzzle generator result "
                f"(delete it or pass --fresh to start again): {str(self.checkpoint)!r}"
            )

    def update(self, results: dict[str, dict[str, Any]]) -> bool:
        """Read the newly unbroken prefix; True once ``count`` puzzles are found."""
        while len(self.puzzles) < self.count and f"{self.tasks:06d}" in results:
            key = f"{self.tasks:06d}"
            found = results[key]
            self.check(key, found)
            self.tasks += 1
            for reason, n in found["counts"].items():
                self.counts[reason] = self.counts.get(reason, 0) + n
            puzzle = found["puzzle"]
            if puzzle is None:
                continue
            if puzzle["position"] in self.seen:
                self.counts["duplicate"] = self.counts.get("duplicate", 0) + 1
                continue
            self.seen.add(puzzle["position"])
            puzzle = {"id": f"{self.name}-{self.seed}-{puzzle['source']['task']}", **puzzle}
            self.puzzles.append(puzzle)
            if self.on_puzzle is not None:
                self.on_puzzle(puzzle)
        return len(self.puzzles) >= self.count


def _is_task_result(found: Any) -> bool:
    """Whether ``found`` has the shape of :func:`run_task`'s result."""
    if not isinstance(found, dict) or not isinstance(found.get("counts"), dict):
        return False
    puzzle = found.get("puzzle")
    return puzzle is None or (
        isinstance(puzzle, dict) and isinstance(puzzle.get("position"), str)
        and isinstance(puzzle.get("source"), dict) and "task" in puzzle["source"]
    )  # fmt: skip


def checkpoint_run(game: str, seed: int, settings: Settings,
                   game_options: dict[str, Any] | None = None) -> dict[str, Any]:  # fmt: skip
    """What a generator checkpoint must have been written by: the same game (and game
    options), seed and settings give the same task results (the count may differ: a run
    for more puzzles reuses the tasks of a run for fewer)."""
    return {"job": "puzzle generate", "format": FORMAT, "version": VERSION, "game": game,
            "seed": seed, "settings": asdict(settings),
            **({"options": dict(game_options)} if game_options else {})}  # fmt: skip


#: the most puzzles one run makes (a larger count is a typo: at ~1 s a puzzle, 3 hours)
MAX_COUNT = 10_000


def generate(
    game: str,
    count: int,
    seed: int = 0,
    settings: Settings | None = None,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    max_tasks: int | None = None,
    progress: bool = True,
    on_puzzle: Callable[[dict[str, Any]], None] | None = None,
    executor: Executor | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    game_options: dict[str, Any] | None = None,
) -> Generated:
    """The first ``count`` distinct puzzles of the seeded task sequence of ``game``.

    The tasks run on ``executor`` (or one made from ``workers``/``scheduler``), in index
    order, a few more than the workers at a time (no worker waits for a slow task of
    another), until the unbroken prefix of finished tasks holds ``count`` puzzles.
    ``on_puzzle`` sees each puzzle in that order as soon as the prefix reaches it. With
    ``checkpoint`` (a JSON Lines file), every finished task is kept there at once and a
    run with the same game, seed and settings resumes from it: finished tasks are not run
    again, and the result is the same as that of an uninterrupted run. ``game_options``
    (Minefield's ``variant``, ``win``): the game the playouts are played in.
    """
    if executor is None:
        with Executor(workers, scheduler) as own:
            return generate(game, count, seed, settings, max_tasks=max_tasks,
                            progress=progress, on_puzzle=on_puzzle, executor=own,
                            checkpoint=checkpoint, game_options=game_options)  # fmt: skip
    name = puzzle_game(game)
    options = dict(game_options or {})
    if options and models.info(name).part("puzzle_maker") is not None:
        raise InvalidOptionError(f"invalid option {next(iter(options))}: {name}'s puzzles "
                                 f"are made by the game itself, got {options!r}")  # fmt: skip
    models.get(name, **options)  # a game option the game does not have: refused now
    if not 1 <= count <= MAX_COUNT:
        raise PuzzleError(
            f"invalid option count: expected a number from 1 to {MAX_COUNT}, got {count!r}"
        )
    chosen = (settings or settings_for(name)).validate(name)
    limit = max_tasks if max_tasks is not None else 20 * count + 40
    start = time.perf_counter()
    run = checkpoint_run(name, seed, chosen, options)
    store = None if checkpoint is None else JournalCheckpoint(checkpoint, run)
    prefix = _Prefix(name, seed, count, checkpoint, on_puzzle, limit)
    for key, found in (store.done if store is not None else {}).items():
        prefix.check(key, found)  # a damaged checkpoint is refused before any work
    arg = {"game": name, "seed": seed, "settings": asdict(chosen),
           **({"options": options} if options else {})}  # fmt: skip
    tasks = [(f"{k:06d}", {**arg, "index": k}) for k in range(limit)]
    run_tasks(_run_task_args, tasks, executor=executor, checkpoint=store, progress=progress,
              description=f"puzzles {name}", until=prefix.update,
              status=prefix.status)  # fmt: skip
    return Generated(prefix.puzzles, prefix.tasks, time.perf_counter() - start, prefix.counts)
