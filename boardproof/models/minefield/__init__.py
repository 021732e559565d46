"""Minefield (Mark Steere, 2024): connect your two edges without forming a glyph.

The reference rules are ``rules/minefield.md``; every **[choice]** made there is
kept in one named place (search the package for ``[choice]``).

>>> game = make_game()
>>> pos = game.start(size=5)
>>> pos.fen()
'5/5/5/5/5 b p'
>>> pos = pos.play(pos.parse_move("c3"))
>>> pos.fen()
'5/5/2b2/5/5 w p'
>>> [str(m) for m in pos.legal_moves()][-3:]
['d5', 'e5', 'swap']
>>> pos.play(pos.parse_move("swap")).fen()
'5/5/2b2/5/5 w -'
>>> pos.perft(1)
25

The option ``variant`` picks AbstractPlay's glyph sets (docs/games/minefield.md
"Variants"): ``pinwheel`` allows the 2x4 switch and forbids the pinwheel, ``cartwheel``
forbids the cartwheel too.

>>> pinwheel = make_game(variant="pinwheel").parse_position("5/1w3/b2w1/w2b1/1bw2 b -")
>>> pinwheel.play("c4")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
boardproof...IllegalMoveError: illegal move c4: it forms a pinwheel

The package: :mod:`~boardproof.models.minefield.board` (bit layout, glyph
tables, masks), :mod:`~boardproof.models.minefield.rules` (notation, rules,
perft, ``status()``), :mod:`~boardproof.models.minefield.graphs` (networkx
views) and :mod:`~boardproof.models.minefield.drawing` (the SVG picture).
"""

from __future__ import annotations

from boardproof.models.base import CANONICAL, PERFT, WINNER, GameInfo, PuzzleInfo
from boardproof.models.minefield import drawing
from boardproof.models.minefield.board import (
    ALL_GLYPH_NAMES,
    BLACK,
    DEFAULT_SIZE,
    EDGE_GLYPHS,
    FILES,
    GLYPH_NAMES,
    GUARD,
    MAX_SIZE,
    MIN_SIZE,
    PASS,
    SWAP,
    SYMBOLS,
    VARIANT_GLYPHS,
    VARIANTS,
    WHITE,
    WIN_RULES,
    Move,
    Tables,
    compile_role_function,
    compile_window_function,
    glyph_instances,
    glyph_patterns,
    glyph_roles,
    symmetry_point,
    tables,
)
from boardproof.models.minefield.rules import (
    OPTIONS,
    MinefieldGame,
    MinefieldPosition,
    make_game,
    pass_free_bound,
)

INFO = GameInfo(
    name="minefield",
    long_name="Minefield",
    summary="Minefield (Steere 2024): connect your edges, never form a hard corner or switch.",
    symbols=SYMBOLS,
    sides=("Black", "White"),
    players=(2, 2),
    make=make_game,
    draw=drawing.render,
    options=OPTIONS,
    hooks=frozenset({CANONICAL, WINNER, PERFT}),
    #: puzzle boards (the brief: 5..7), drawn by the task's generator; rulebook win, no pie
    puzzles=PuzzleInfo(start={"pie": False}, sizes=(5, 6, 7)),
    pieces=lambda pos: bin(pos.black | pos.white).count("1"),
    piece_tag="circle",
    engine="boardproof.models.minefield.engine",
    certificates="boardproof.models.minefield.certificate_command",
    view="boardproof.models.minefield.drawing",
    openings="boardproof.models.minefield.research.openings_command",
    commands="boardproof.models.minefield.commands",
    gtp="boardproof.models.minefield.gtp",
    records="boardproof.models.minefield.abstractplay",
    themes="boardproof.models.minefield.themes",
)

__all__ = [
    "INFO",
    "BLACK",
    "WHITE",
    "SYMBOLS",
    "FILES",
    "GUARD",
    "DEFAULT_SIZE",
    "MIN_SIZE",
    "MAX_SIZE",
    "WIN_RULES",
    "VARIANTS",
    "VARIANT_GLYPHS",
    "GLYPH_NAMES",
    "ALL_GLYPH_NAMES",
    "EDGE_GLYPHS",
    "Move",
    "SWAP",
    "PASS",
    "Tables",
    "tables",
    "glyph_instances",
    "glyph_patterns",
    "glyph_roles",
    "compile_role_function",
    "compile_window_function",
    "symmetry_point",
    "MinefieldGame",
    "MinefieldPosition",
    "make_game",
    "pass_free_bound",
]
