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

The package: :mod:`~boardproof.models.minefield.board` (bit layout, glyph
tables, masks) and :mod:`~boardproof.models.minefield.position` (notation,
rules, perft, ``status()``).
"""

from __future__ import annotations

from boardproof.models.minefield.board import (
    BLACK,
    DEFAULT_SIZE,
    FILES,
    GLYPH_NAMES,
    GUARD,
    MAX_SIZE,
    MIN_SIZE,
    PASS,
    SWAP,
    SYMBOLS,
    WHITE,
    WIN_RULES,
    Move,
    Tables,
    compile_role_function,
    compile_window_function,
    glyph_patterns,
    glyph_roles,
    symmetry_point,
    tables,
)
from boardproof.models.minefield.position import (
    MinefieldGame,
    MinefieldPosition,
    make_game,
    pass_free_bound,
)

__all__ = [
    "BLACK",
    "WHITE",
    "SYMBOLS",
    "FILES",
    "GUARD",
    "DEFAULT_SIZE",
    "MIN_SIZE",
    "MAX_SIZE",
    "WIN_RULES",
    "GLYPH_NAMES",
    "Move",
    "SWAP",
    "PASS",
    "Tables",
    "tables",
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
