"""The daily puzzle at the sizes people play: mined from seeded self-play.

A game that :func:`played` names (Minefield) takes its daily puzzle from games of the
engine against itself on a board people play, not from random playouts on a small one.
From the day's seed (:func:`~boardproof.puzzles.daily.daily_seed`) the day draws its board
size (Minefield: 13 or 15) and takes its variant from the weekday (Minefield: the
pinwheel glyphs on Wednesdays, the cartwheel on Saturdays, switched by
:data:`CARTWHEEL_DAYS`, the standard glyphs on the other days). Then it plays self-play
games ``0, 1, 2, ...`` of that seed and mines each
(:func:`~boardproof.puzzles.mining.mine_game`: its last ``depth`` positions, from the end
backwards) until the first proved puzzle whose proof tree has at most ``proof_nodes``
positions (a bigger tree is passed over and the mining goes on: the site ships every
proof).

Game ``i`` is played as ``boardproof puzzle selfplay`` plays it
(:mod:`boardproof.match.selfplay`; the seeds, openings and budgets of both are
:mod:`boardproof.solvers.seeding`'s): it owns the
generator seeded ``"boardproof-selfplay:<game>:<seed>:<i>"``, opens with 2 random plies
(opening ``i`` of the seed), then every move is the engine's choice (the tree of
:func:`~boardproof.solvers.analyse.analyse`, without the exact step) after MCTS
iterations drawn log-uniformly from ``iterations``, with two differences: the engine's
prior from its learned patterns (``pattern_prior``), without which so small a budget on
so big a board plays the legal moves in their order, row by row; and one native tree a
game, kept from move to move (:meth:`~boardproof.solvers.native_mcts.NativeTree.advance`;
seeded with the first move's seed; a root with an ortho-diagonal path but no orthogonal
one, over for that tree by Theorem O, is taken afresh by a tree of the orthogonal rule as
it is). Iteration budgets and seeds only, no clock, one thread: the same puzzle on every
machine.

>>> from boardproof.puzzles.daily import daily_seed
>>> wednesday = dt.date(2026, 12, 2)
>>> size_and_variant("minefield", wednesday, daily_seed("minefield", wednesday))
(13, 'pinwheel')
>>> saturday = dt.date(2026, 12, 5)
>>> size_and_variant("minefield", saturday, daily_seed("minefield", saturday))
(13, 'cartwheel')
"""

from __future__ import annotations

import datetime as dt
import random
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from boardproof import models
from boardproof.models.base import Game, Position
from boardproof.puzzles import PuzzleError
from boardproof.puzzles.mining import GameLine, Mining, mine_game, mining_settings
from boardproof.solvers.analyse import make_tree
from boardproof.solvers.native_mcts import EngineSettings, NativeTree
from boardproof.solvers.seeding import draw_iterations, random_opening

#: the cartwheel's day is on (Saturdays): the native searches and tree take the cartwheel
#: glyph (``VARIANTS`` of boardproof/models/minefield/native/__init__.py; measured: 0.22 s
#: of CPU a day). Without them its day falls to the Python tree and alpha-beta, correct
#: but ~6 s a day: switch it off here if the native cartwheel is ever withdrawn.
CARTWHEEL_DAYS = True


@dataclass(frozen=True)
class PlayedDaily:
    """How a game's daily puzzle is mined from self-play at the sizes people play."""

    #: the board sizes the day draws from (the start option ``size``)
    sizes: tuple[int, ...]
    #: the variants by weekday (Monday 0; the game option ``variant``): other days ``standard``
    days: Mapping[int, str] = field(default_factory=dict)
    standard: str = "standard"
    #: MCTS iterations of an engine move, drawn log-uniformly (``puzzle selfplay``'s
    #: Minefield default is 3-50: twice the puzzles a game here)
    iterations: tuple[int, int] = (2, 20)
    #: the engine's prior from its learned patterns (AMAF visits; ``EngineSettings``):
    #: without it a budget below the number of legal moves plays the first moves of the
    #: list (row 1, then row 2, ...), with it the moves of a game
    pattern_prior: int = 10
    opening_plies: int = 2
    #: self-play games tried before giving up on a day (an error). About a game in 4 gives
    #: a puzzle (measured; the most a day needed in 365 days: see the notes), so 40 would
    #: fail a day in ~60,000 (0.76**40): 200 makes it never (0.76**200 < 1e-23)
    max_games: int = 200
    #: the largest proof tree (positions) of a daily puzzle; a larger one is passed over
    proof_nodes: int = 1000
    #: the mining: the last ``depth`` positions of a game, the first puzzle found
    depth: int = 24
    #: the longest win of a daily puzzle (plies): 3, a win in two moves (the wins in 5
    #: are searched on open boards at 10 to 20 times the cost, for few more puzzles)
    max_plies: int = 3


def minefield_days() -> dict[int, str]:
    """Minefield's variant days: the pinwheel on Wednesdays, the cartwheel on Saturdays
    when :data:`CARTWHEEL_DAYS` is on."""
    return {2: "pinwheel", **({5: "cartwheel"} if CARTWHEEL_DAYS else {})}


def played(game: str) -> PlayedDaily | None:
    """The self-play rules of ``game``'s daily puzzle, or None (random playouts)."""
    if game == "minefield":
        return PlayedDaily(sizes=(13, 15), days=minefield_days())
    return None


def size_and_variant(game: str, date: dt.date, seed: int) -> tuple[int, str]:
    """The board size (drawn from the day's ``seed``) and the variant (by weekday) of the
    day."""
    spec = played(game)
    if spec is None:
        raise PuzzleError(f"invalid game: {game} has no daily puzzle from self-play: {game!r}")
    rng = random.Random(f"boardproof-daily:{game}:{seed}")
    return rng.choice(spec.sizes), spec.days.get(date.weekday(), spec.standard)


def selfplay_moves(game: Game, start: Position, seed: int, index: int,
                   spec: PlayedDaily) -> list[Any]:  # fmt: skip
    """The moves of self-play game ``index`` (from 0) of ``seed`` from ``start`` (see the
    module doc; a game of Minefield never repeats a position, so it ends by the rules)."""
    rng = random.Random(f"boardproof-selfplay:{game.name}:{seed}:{index}")
    moves = random_opening(start, spec.opening_plies, seed=seed, index=index)
    pos = start
    for move in moves:
        pos = pos.play(move)
    low, high = spec.iterations
    settings = EngineSettings(pattern_prior=spec.pattern_prior)
    tree: Any = None
    while pos.outcome() is None:
        budget = draw_iterations(rng, low, high)
        tree_seed = rng.randrange(1 << 31)
        if tree is None:
            tree = make_tree(pos, "auto", "auto", tree_seed, False, settings)
        tree.run(iterations=budget)
        if tree.iterations == 0:
            tree.run(iterations=1)
        move = tree.best_move()
        moves.append(move)
        pos = pos.play(move)
        tree = _advanced(tree, move)
    return moves


def _advanced(tree: Any, move: Any) -> Any:
    """The native tree moved on by ``move`` (its subtree kept where it can), or None: a
    Python tree, or a native one that cannot follow."""
    if not isinstance(tree, NativeTree):
        return None
    try:
        tree.advance(move)
    except ValueError:
        return None
    return tree


def played_daily(game: str, date: dt.date, seed: int,
                 progress: bool = False) -> dict[str, Any]:  # fmt: skip
    """The puzzle of ``game`` (one that :func:`played`) on ``date`` of seed ``seed``
    (:func:`~boardproof.puzzles.daily.daily_seed`), without ``id`` and ``date``:
    the first puzzle mined from the day's self-play games, with ``size``, ``variant`` and
    a ``source`` naming the self-play seed, the game, the ply and the moves before it."""
    spec = played(game)
    if spec is None:
        raise PuzzleError(f"invalid game: {game} has no daily puzzle from self-play: {game!r}")
    size, variant = size_and_variant(game, date, seed)
    options = {} if variant == spec.standard else {"variant": variant}
    board: Game = models.get(game, **options)
    start = board.start(size=size)
    settings = replace(mining_settings(game), timeout=None, proof_nodes=spec.proof_nodes,
                       max_plies=spec.max_plies)  # fmt: skip
    rules = Mining(depth=spec.depth, per_game=1)
    for index in range(spec.max_games):
        began = time.perf_counter()
        moves = selfplay_moves(board, start, seed, index, spec)
        record = f"selfplay-{game}-{seed}-{index + 1}"
        source = {"record": record, "selfplay": {
            "seed": seed, "game": index + 1, "size": size, "variant": variant,
            "iterations": list(spec.iterations), "opening": spec.opening_plies,
            "pattern_prior": spec.pattern_prior}}  # fmt: skip
        found = mine_game(GameLine(source, start, tuple(moves)), settings, rules)
        if progress:
            print(f"daily {game} {date.isoformat()}: self-play game {index + 1} "
                  f"({len(moves)} plies, {size}x{size} {variant}): "
                  f"{'a puzzle' if found['puzzles'] else 'no puzzle'} "
                  f"({time.perf_counter() - began:.1f} s)",
                  file=sys.stderr, flush=True)  # fmt: skip
        if found["puzzles"]:
            return {"size": size, "variant": variant, **found["puzzles"][0]}
    raise PuzzleError(f"no puzzle found for {game} on {date.isoformat()} in "
                      f"{spec.max_games} self-play games: {game!r}")  # fmt: skip
