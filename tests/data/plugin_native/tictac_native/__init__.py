"""An out-of-tree game for boardproof: tic-tac-toe with a native (C) engine.

The rules are in :mod:`.rules`, the SVG picture in :mod:`.drawing`, the engine (the C
search of ``_ttt.c``, compiled to ``_ttt``) in :mod:`.engine`. ``INFO`` is the descriptor;
``boardproof.models.register(INFO)`` makes the game a plug-in.
"""

from __future__ import annotations

from boardproof.models.base import GameInfo

from . import drawing
from .rules import NAME, OPTIONS, TictacGame, TictacPosition, make_game

INFO = GameInfo(
    name=NAME,
    long_name="Tic-tac-toe (native)",
    summary=(TictacGame.__doc__ or "").strip().splitlines()[0],
    symbols=TictacGame.symbols,
    sides=("Crosses", "Noughts"),
    players=(2, 2),
    make=make_game,
    draw=drawing.render,
    options=OPTIONS,
    no_puzzles="a plug-in example",
    pieces=drawing.pieces,
    piece_tag="text",
    engine=f"{__name__}.engine",
)
TictacGame.descriptor = INFO

__all__ = ["INFO", "TictacGame", "TictacPosition"]
