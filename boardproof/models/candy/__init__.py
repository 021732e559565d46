"""Candy Conquest: four in a row in three dimensions with nesting two-shape candies.

The rules, notation and perft are in :mod:`boardproof.models.candy.rules` (every name
of it is available here), the placement bounds a solver may prune with in
:mod:`boardproof.models.candy.bound`, the SVG picture in
:mod:`boardproof.models.candy.drawing`.

>>> INFO.long_name, INFO.aliases, INFO.side_name("2")
('Candy Conquest', ('candy-conquest',), 'Player 2')
"""

from __future__ import annotations

from boardproof.models.base import CANONICAL, NUM_PLAYERS, PERFT, GameInfo, PuzzleInfo
from boardproof.models.candy import drawing
from boardproof.models.candy.rules import *  # noqa: F403
from boardproof.models.candy.rules import OPTIONS, CandyGame, make_game

INFO = GameInfo(
    name="candy",
    long_name="Candy Conquest",
    summary=(CandyGame.__doc__ or "").strip().splitlines()[0],
    symbols=CandyGame.symbols,
    sides=tuple(f"Player {symbol}" for symbol in CandyGame.symbols),
    players=(2, 4),
    make=make_game,
    draw=drawing.render,
    aliases=("candy-conquest",),
    options=OPTIONS,
    hooks=frozenset({CANONICAL, PERFT, NUM_PLAYERS}),
    #: ~90 first moves: fewer plies, bigger budgets; 2-player playouts
    puzzles=PuzzleInfo(
        settings={
            "max_plies": 3,
            "max_moves": 60,
            "greedy": False,
            "playouts": 20,
            "root_nodes": 15_000,
            "check_nodes": 150_000,
            "decoy_nodes": 10_000,
        },
        start={"players": 2},
    ),
    pieces=lambda pos: sum(len(column) for column in pos.cols),
    piece_tag="title",
    engine="boardproof.models.candy.engine",
    view="boardproof.models.candy.drawing",
    themes="boardproof.models.candy.themes",
)
