"""Carpniches: capybaras against poodles, moving and stacking on a 6 x 6 board.

The rules, notation and perft are in :mod:`boardproof.models.carpniches.rules`
(every name of it is available here), the SVG picture in
:mod:`boardproof.models.carpniches.drawing`.

>>> INFO.side_name("c"), make_game().start().fen()
('Capybaras', '(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1')
"""

from __future__ import annotations

from boardproof.models.base import CANONICAL, PERFT, GameInfo, PuzzleInfo
from boardproof.models.carpniches import drawing
from boardproof.models.carpniches.rules import *  # noqa: F403
from boardproof.models.carpniches.rules import OPTIONS, SYMBOLS, CarpnichesGame, make_game

INFO = GameInfo(
    name="carpniches",
    long_name="Carpniches",
    summary=(CarpnichesGame.__doc__ or "").strip().splitlines()[0],
    symbols=SYMBOLS,
    sides=("Capybaras", "Poodles"),
    players=(2, 2),
    make=make_game,
    draw=drawing.render,
    options=OPTIONS,
    hooks=frozenset({CANONICAL, PERFT}),
    puzzles=PuzzleInfo(settings={"greedy": False}),
    pieces=lambda pos: sum(len(pos.stack(square)) for square in range(36)),
    piece_tag="circle",
    engine="boardproof.models.carpniches.engine",
    view="boardproof.models.carpniches.drawing",
    themes="boardproof.models.carpniches.themes",
    openings="boardproof.models.carpniches.research.openings_command",
    commands="boardproof.models.carpniches.commands",
)
