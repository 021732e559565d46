"""ColleXion: a set-collection game played in the box itself.

``make_game()`` returns the game; the heap simulation is in
:mod:`boardproof.models.collexion.heap`, the rules, notation and move syntax in
:mod:`boardproof.models.collexion.rules`, the turn engine of ``analyse`` in
:mod:`boardproof.models.collexion.turnsearch` (its evaluation in
:mod:`boardproof.models.collexion.evaluation`); the base variant's turn ranking and the
puzzles' exact score search also in C (:mod:`boardproof.models.collexion.native`, optional,
tested against the Python code).

>>> game = make_game()
>>> game.name, game.symmetry_count, game.symbol(0)
('collexion', 1, '1')
"""

from __future__ import annotations

from boardproof.models.base import (
    HEURISTIC_SCORES,
    NUM_PLAYERS,
    OPPONENTS,
    SUCCESSORS,
    GameInfo,
    PuzzleInfo,
    check_options,
)
from boardproof.models.collexion import drawing
from boardproof.models.collexion.rules import (
    GAME,
    OPTIONS,
    CollexionGame,
    CollexionPosition,
    Turn,
    parse_position,
    parse_turn,
)

__all__ = [
    "INFO",
    "CollexionGame",
    "CollexionPosition",
    "Turn",
    "make_game",
    "parse_position",
    "parse_turn",
]


def make_game(**options: object) -> CollexionGame:
    """The ColleXion game; it has no game options (variants are per position)."""
    check_options("collexion", OPTIONS, options, scope="game")
    return GAME


INFO = GameInfo(
    name="collexion",
    long_name="ColleXion",
    summary=(CollexionGame.__doc__ or "").strip().splitlines()[0],
    symbols=CollexionGame.symbols,
    sides=tuple(f"Player {symbol}" for symbol in CollexionGame.symbols),
    players=(2, 4),
    make=make_game,
    draw=drawing.render,
    #: solvers value positions by final score difference (``Outcome.scores``)
    objective="score",
    options=OPTIONS,
    hooks=frozenset({NUM_PLAYERS, OPPONENTS, HEURISTIC_SCORES, SUCCESSORS}),
    pieces=lambda pos: len(pos.box),
    piece_tag="polygon",
    # a score game: its puzzles are the best turn of a solved endgame
    # (boardproof.models.collexion.puzzles; only these three settings apply)
    puzzles=PuzzleInfo(settings={"min_moves": 4, "playouts": 6, "root_nodes": 200_000}),
    puzzle_maker="boardproof.models.collexion.puzzles",
    view="boardproof.models.collexion.drawing",
    # no native solver: the engine is the turn search that analyse grows (Engine.tree)
    engine="boardproof.models.collexion.engine",
    themes="boardproof.models.collexion.themes",
)
