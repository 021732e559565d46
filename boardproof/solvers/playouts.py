"""Seeded random playouts for the MCTS: a native (C) kernel and its Python twin.

A :class:`Kernel` plays one uniformly random game from a position and says who won::

    kernel.play(position, seed, limit) -> winner   # a player index, or None (draw / cut off)

Two kernels exist for Minefield (every size 2..26), and they are twins: the same
generator (:func:`splitmix64`, one draw per ply), the same canonical move order (the
model's ``legal_moves()``: placements by rank then file, then ``swap``; or ``pass``
alone) and the move ``moves[draw % len(moves)]``, so a seeded playout gives the identical
move sequence and winner in both (the tests check it on many positions of many sizes):

- :func:`reference_minefield`: plays through the model's ``Position`` API (slow, plain);
- :func:`native_minefield`: ``_playout_minefield`` from ``native/playout_minefield.c``
  (optional: built when a C compiler is there), which gets the glyph roles of every point
  from :func:`boardproof.models.minefield.board.glyph_roles`, not from its own rules.

:func:`kernel_for` picks one for :class:`~boardproof.solvers.mcts.MCTS`: ``"auto"`` the
native kernel when it is built and the game has one, else the Python twin; ``"python"``
the Python twin; ``"native"`` the native kernel or a ValueError. For games without a
kernel it returns None, and the MCTS keeps its generic playout.

>>> from boardproof.models import get
>>> pos = get("minefield").start(size=4, pie=False)
>>> reference_minefield(pos, 7, 400, trace=True)[1][:3]
['d2', 'c3', 'a1']
>>> kernel_for(pos, "python").play(pos, 7, 400) == reference_minefield(pos, 7, 400)[0]
True
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boardproof.models.base import Position

try:  # the compiled module is optional (no C compiler: the package installs without it)
    from boardproof.solvers.native import _playout_minefield as _mf  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _mf = None

MASK64 = (1 << 64) - 1
#: playout modes of :func:`kernel_for` (and of ``MCTS(playout=...)``)
MODES = ("auto", "native", "python")
#: a Minefield board handed to C: little-endian bytes of 12 words (as the native search)
BOARD_BYTES = 96
#: the C module's result codes
_BLACK, _WHITE, _DRAW, _LIMIT = 0, 1, 2, 3
#: a role record in C: int16 cells[7], uint8 states[7], uint8 length
_ROLE_CELLS = 7
_ROLE = struct.Struct(f"<{_ROLE_CELLS}h{_ROLE_CELLS}BB")
_STATE = {"E": 0, "M": 1, "O": 2}


def splitmix64(state: int) -> tuple[int, int]:
    """One step of the splitmix64 generator: ``(new state, output)`` (the C twin's).

    >>> splitmix64(0)[1] == 0xE220A8397B1DCDAF
    True
    """
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def reference_minefield(
    pos: Any, seed: int, limit: int, trace: bool = False
) -> tuple[int | None, list[str]]:
    """A seeded random playout of a Minefield position through the model (the reference).

    Returns the winner (None: a dead position or ``limit`` plies without an end) and,
    with ``trace``, the moves played in notation.
    """
    state = seed & MASK64
    moves: list[str] = []
    plies = 0
    outcome = pos.outcome()
    while outcome is None and plies < limit:
        legal = pos.legal_moves()
        state, draw = splitmix64(state)
        move = legal[draw % len(legal)]
        if trace:
            moves.append(str(move))
        pos = pos.play(move)
        plies += 1
        outcome = pos.outcome()
    if outcome is None or not outcome.winners:
        return None, moves
    return next(iter(outcome.winners)), moves


# -- the native kernel ---------------------------------------------------------------


def native_available() -> bool:
    """Whether the compiled playout module was built."""
    return _mf is not None


def _role_tables(n: int) -> tuple[bytes, bytes]:
    """The glyph roles of every compact point of the n x n board, packed for C."""
    from boardproof.models.minefield.board import glyph_roles

    every = [role for group in glyph_roles().values() for role in group]
    starts = [0]
    packed = bytearray()
    for r in range(n):
        for f in range(n):
            found: set[tuple[tuple[int, int], ...]] = set()
            for role in every:
                cells: list[tuple[int, int]] = []
                for dx, dy, state in role:
                    g, q = f + dx, r + dy
                    if not (0 <= g < n and 0 <= q < n):
                        break
                    cells.append((q * n + g, _STATE[state]))
                else:
                    found.add(tuple(cells))
            for entries in sorted(found):
                pad = _ROLE_CELLS - len(entries)
                cells_of = [c for c, _ in entries] + [0] * pad
                states = [s for _, s in entries] + [0] * pad
                packed += _ROLE.pack(*cells_of, *states, len(entries))
            starts.append(starts[-1] + len(found))
    return struct.pack(f"<{n * n + 1}i", *starts), bytes(packed)


def _ready(n: int) -> None:
    assert _mf is not None
    if not _mf.ready(n):
        _mf.setup(n, *_role_tables(n))


def native_minefield(
    pos: Any, seed: int, limit: int, trace: bool = False
) -> tuple[int | None, list[str]]:
    """The same playout as :func:`reference_minefield`, in C (the moves only with ``trace``)."""
    if _mf is None:
        raise ValueError("the native playouts were not built (no C compiler at install)")
    from boardproof.models.minefield.board import FILES

    n = pos.n
    _ready(n)
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
    n = pos.n
    if not _mf.ready(n):  # type: ignore[union-attr]
        _ready(n)
    code = _mf.playout(  # type: ignore[union-attr]
        n, pos.game.diagonal, pos.black.to_bytes(BOARD_BYTES, "little"),
        pos.white.to_bytes(BOARD_BYTES, "little"), pos.to_move, pos.pie, seed, limit,
    )[0]  # fmt: skip
    return code if code < _DRAW else None


def _python_play(pos: Any, seed: int, limit: int) -> int | None:
    return reference_minefield(pos, seed, limit)[0]


def minefield_plies(pos: Any) -> int:
    """Plies within which every Minefield game from ``pos`` ends: each placement fills a
    point, at most one pass between two placements, one swap.

    >>> from boardproof.models import get
    >>> minefield_plies(get("minefield").start(size=3))
    19
    """
    empty = pos.n * pos.n - (pos.black | pos.white).bit_count()
    return 2 * empty + 1


@dataclass(frozen=True)
class Kernel:
    """A playout kernel: ``play(position, seed, limit)`` gives the winner (None: a draw or
    cut off after ``limit`` plies); ``plies(position)`` bounds the length of any game."""

    name: str
    play: Callable[[Any, int, int], int | None]
    plies: Callable[[Any], int]


NATIVE_MINEFIELD = Kernel("native", _native_play, minefield_plies)
PYTHON_MINEFIELD = Kernel("python", _python_play, minefield_plies)


def kernel_for(position: Position, mode: str = "auto") -> Kernel | None:
    """The playout kernel for ``position``'s game in ``mode`` (see the module doc);
    None when the game has none (the MCTS's generic playout)."""
    if mode not in MODES:
        raise ValueError(f"invalid playout mode: expected one of {', '.join(MODES)}, got {mode!r}")
    has = position.game.name == "minefield"
    if mode == "native" and not (has and _mf is not None):
        why = "they were not built" if _mf is None else "they play Minefield only"
        raise ValueError(f"no native playouts for {position.game.name}: {why}")
    if not has:
        return None
    if mode == "python" or _mf is None:
        return PYTHON_MINEFIELD
    return NATIVE_MINEFIELD
