"""Minefield's playout kernels: random playouts in C (``native/playout.c``) and their
Python twin, for the MCTS (:mod:`boardproof.solvers.playouts` says what a kernel is).

The C kernel gets the glyph roles of every point from
:func:`boardproof.models.minefield.board.glyph_roles`, not from its own rules. A Minefield
playout runs to the end of the game (:func:`minefield_plies` bounds it).

The C kernel takes the glyphs of every variant as roles on board points: the standard
and pinwheel ones the same for both colours; the cartwheel's (its glyph counts points
beyond the board as stones of the edge's owner) by the mover's colour
(:func:`boardproof.models.minefield.native.point_roles`): a role that holds for one colour
only gets one more cell, the gate (``playout.c``), which only that colour's test passes.
"""

from __future__ import annotations

import struct
from typing import Any

from boardproof.models.minefield.board import BLACK, FILES, STANDARD, WHITE
from boardproof.models.minefield.native import point_roles
from boardproof.solvers.playouts import MASK64, Kernel, python_play

try:  # the compiled module is optional (no C compiler: the package installs without it)
    from boardproof.models.minefield.native import _playout as _mf  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _mf = None

#: a Minefield board handed to C: little-endian bytes of 12 words (as the native search)
BOARD_BYTES = 96
#: the C module's result codes
_BLACK, _WHITE, _DRAW, _LIMIT = 0, 1, 2, 3
#: a role record in C: int16 cells[11], uint8 states[11], uint8 length (the pinwheel's
#: window has 12 points: 11 besides the new stone; the cartwheel's roles of one colour
#: have at most 10 on the board, and the gate)
_ROLE_CELLS = 11
_ROLE = struct.Struct(f"<{_ROLE_CELLS}h{_ROLE_CELLS}BB")
_STATE = {"E": 0, "M": 1, "O": 2}
#: playout.c's gate cell (off the board) and its states: the role holds for Black only,
#: for White only
_GATE = 26 * 26
_GATE_STATE = {1: 3, 2: 4}
#: the variants the C kernel plays
VARIANTS = (STANDARD, "pinwheel", "cartwheel")
#: the variant whose roles the C module holds, per board size (it holds one set a size)
_INSTALLED: dict[int, str] = {}


def _role_tables(n: int, variant: str = STANDARD) -> tuple[bytes, bytes]:
    """The glyph roles of every compact point of the n x n board, packed for C (a role
    of one colour with the gate)."""
    starts = [0]
    packed = bytearray()
    for r in range(n):
        for f in range(n):
            found: dict[tuple[tuple[int, int], ...], int] = {}
            for bit, mover in ((1, BLACK), (2, WHITE)):
                for role in point_roles(n, f, r, variant, mover):
                    key = tuple(sorted((q * n + g, _STATE[state]) for g, q, state in role))
                    found[key] = found.get(key, 0) | bit
            for key in sorted(found):
                entries = key if found[key] == 3 else (*key, (_GATE, _GATE_STATE[found[key]]))
                assert len(entries) <= _ROLE_CELLS
                pad = _ROLE_CELLS - len(entries)
                cells_of = [c for c, _ in entries] + [0] * pad
                states = [s for _, s in entries] + [0] * pad
                packed += _ROLE.pack(*cells_of, *states, len(entries))
            starts.append(starts[-1] + len(found))
    return struct.pack(f"<{n * n + 1}i", *starts), bytes(packed)


def _ready(n: int, variant: str = STANDARD) -> None:
    assert _mf is not None
    if not _mf.ready(n) or _INSTALLED.get(n, STANDARD) != variant:
        _mf.setup(n, *_role_tables(n, variant))
        _INSTALLED[n] = variant


def native_minefield(
    pos: Any, seed: int, limit: int, trace: bool = False
) -> tuple[int | None, list[str]]:
    """The same playout as :func:`~boardproof.solvers.playouts.reference_playout`, in C
    (the moves only with ``trace``)."""
    if _mf is None:
        raise ValueError("the native playouts were not built (no C compiler at install)")
    if pos.game.variant not in VARIANTS:
        raise ValueError(f"the native playouts know the {' and '.join(VARIANTS)} glyphs "
                         f"only, not the {pos.game.variant} variant's")  # fmt: skip
    n = pos.n
    _ready(n, pos.game.variant)
    code, _plies, *rest = _mf.playout(
        n, pos.game.diagonal, pos.black.to_bytes(BOARD_BYTES, "little"),
        pos.white.to_bytes(BOARD_BYTES, "little"), pos.to_move, pos.pie, seed & MASK64,
        limit, trace,
    )  # fmt: skip
    moves = []
    for p in rest[0] if rest else ():
        moves.append("swap" if p == -1 else "pass" if p == -2 else f"{FILES[p % n]}{p // n + 1}")
    return (code if code in (_BLACK, _WHITE) else None), moves


def _native_play(pos: Any, seed: int, limit: int) -> int | None:
    variant = pos.game.variant
    n = pos.n
    if _INSTALLED.get(n) != variant or not _mf.ready(n):  # type: ignore[union-attr]
        _ready(n, variant)
    code = _mf.playout(  # type: ignore[union-attr]
        n, pos.game.diagonal, pos.black.to_bytes(BOARD_BYTES, "little"),
        pos.white.to_bytes(BOARD_BYTES, "little"), pos.to_move, pos.pie, seed, limit,
    )[0]  # fmt: skip
    return code if code < _DRAW else None


def minefield_plies(pos: Any) -> int:
    """Plies within which every Minefield game from ``pos`` ends: each placement fills a
    point, at most one pass between two placements, one swap.

    >>> from boardproof.models import get
    >>> minefield_plies(get("minefield").start(size=3))
    19
    """
    empty = pos.n * pos.n - (pos.black | pos.white).bit_count()
    return 2 * empty + 1



NATIVE_MINEFIELD = Kernel("native", _native_play, minefield_plies)
PYTHON_MINEFIELD = Kernel("python", python_play, minefield_plies)


def available() -> bool:
    """Whether the C kernel was built (a C compiler at install time)."""
    return _mf is not None


def kernel(mode: str) -> Kernel:
    """The kernel of ``MCTS(playout=mode)``: the C one unless ``python`` or not built."""
    if mode == "native" and _mf is None:
        raise ValueError("no native playouts for minefield: they were not built")
    return NATIVE_MINEFIELD if _mf is not None and mode != "python" else PYTHON_MINEFIELD
