"""Seeded random playouts for the MCTS: a native (C) kernel and its Python twin.

A :class:`Kernel` plays one uniformly random game from a position and says who won::

    kernel.play(position, seed, limit) -> winner   # a player index, or None (draw / cut off)

Minefield (every size 2..26) and Carpniches have two kernels each, and they are twins:
the same generator (:func:`splitmix64`, one draw per ply), the same canonical move order
(the model's ``legal_moves()``) and the move ``moves[draw % len(moves)]``, so a seeded
playout gives the identical move sequence and winner in both (the tests check it on
many positions):

- :func:`reference_playout`: plays through the model's ``Position`` API (slow, plain);
- :func:`native_minefield`: ``_playout_minefield`` from ``native/playout_minefield.c``
  (optional: built when a C compiler is there), which gets the glyph roles of every point
  from :func:`boardproof.models.minefield.board.glyph_roles`, not from its own rules;
- :func:`native_carpniches`: ``_playout_carpniches`` from ``native/playout_carpniches.c``,
  which gets the move steps and line masks from :mod:`boardproof.models.carpniches.rules`.

A Minefield playout runs to the end of the game (:func:`minefield_plies` bounds it); a
Carpniches game can cycle, so its playouts stop after :data:`CARPNICHES_PLIES` plies (a
draw), as the MCTS's generic playouts do.

:func:`kernel_for` picks one for :class:`~boardproof.solvers.mcts.MCTS`: ``"auto"`` the
native kernel when it is built and the game has one, else the Python twin; ``"python"``
the Python twin; ``"native"`` the native kernel or a ValueError. For games without a
kernel it returns None, and the MCTS keeps its generic playout.

>>> from boardproof.models import get
>>> pos = get("minefield").start(size=4, pie=False)
>>> reference_playout(pos, 7, 400, trace=True)[1][:3]
['d2', 'c3', 'a1']
>>> kernel_for(pos, "python").play(pos, 7, 400) == reference_playout(pos, 7, 400)[0]
True
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boardproof.models.base import Position

try:  # the compiled modules are optional (no C compiler: the package installs without them)
    from boardproof.solvers.native import _playout_minefield as _mf  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _mf = None
try:
    from boardproof.solvers.native import _playout_carpniches as _cp  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _cp = None

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


def reference_playout(
    pos: Any, seed: int, limit: int, trace: bool = False
) -> tuple[int | None, list[str]]:
    """A seeded random playout through the model's ``Position`` API (the reference twin of
    the native kernels; it would serve any game).

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
    """The same playout as :func:`reference_playout`, in C (the moves only with ``trace``)."""
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
    return reference_playout(pos, seed, limit)[0]


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


# -- Carpniches ----------------------------------------------------------------------

#: a step record for C: int32 table (0 first turn, h exactly h squares), from, to; uint64
_STEP = struct.Struct("<iiiQ")
#: Carpniches games can cycle: a playout this long counts as a draw (the MCTS's limit)
CARPNICHES_PLIES = 400


def _carpniches_tables() -> bytes:
    from boardproof.models.carpniches import rules

    packed = bytearray()
    for table, steps in ((0, rules.FIRST_STEPS), *((h, rules.EXACT[h]) for h in (1, 2, 3))):
        for frm, row in enumerate(steps):
            for between, _bit, to in row:
                packed += _STEP.pack(table, frm, to, between)
    return bytes(packed)


def _carpniches_ready() -> None:
    assert _cp is not None
    if not _cp.ready():
        from boardproof.models.carpniches import rules

        _cp.setup(_carpniches_tables(), rules._START_RIGHT, rules._START_LEFT)


def native_carpniches(
    pos: Any, seed: int, limit: int, trace: bool = False
) -> tuple[int | None, list[str]]:
    """The same playout as :func:`reference_playout` for Carpniches, in C."""
    if _cp is None:
        raise ValueError("the native playouts were not built (no C compiler at install)")
    from boardproof.models.carpniches.rules import SQUARE_NAMES

    _carpniches_ready()
    code, _plies, *rest = _cp.playout(*pos[:6], pos.to_move, pos.opening, seed & MASK64,
                                      limit, trace)  # fmt: skip
    moves = [f"{SQUARE_NAMES[m >> 8]}-{SQUARE_NAMES[m & 255]}" for m in (rest[0] if rest else ())]
    return (code if code in (0, 1) else None), moves


def _native_carpniches_play(pos: Any, seed: int, limit: int) -> int | None:
    if not _cp.ready():  # type: ignore[union-attr]
        _carpniches_ready()
    code = _cp.playout(*pos[:6], pos.to_move, pos.opening, seed, limit)[0]  # type: ignore[union-attr]
    return code if code < _DRAW else None


def _python_carpniches_play(pos: Any, seed: int, limit: int) -> int | None:
    return reference_playout(pos, seed, limit)[0]


def _carpniches_plies(pos: Any) -> int:
    return CARPNICHES_PLIES


NATIVE_CARPNICHES = Kernel("native", _native_carpniches_play, _carpniches_plies)
PYTHON_CARPNICHES = Kernel("python", _python_carpniches_play, _carpniches_plies)

#: per game: (native module built?, native kernel, Python twin)
_KERNELS: dict[str, tuple[bool, Kernel, Kernel]] = {
    "minefield": (_mf is not None, NATIVE_MINEFIELD, PYTHON_MINEFIELD),
    "carpniches": (_cp is not None, NATIVE_CARPNICHES, PYTHON_CARPNICHES),
}


def kernel_for(position: Position, mode: str = "auto") -> Kernel | None:
    """The playout kernel for ``position``'s game in ``mode`` (see the module doc);
    None when the game has none (the MCTS's generic playout)."""
    if mode not in MODES:
        raise ValueError(f"invalid playout mode: expected one of {', '.join(MODES)}, got {mode!r}")
    name = position.game.name
    entry = _KERNELS.get(name)
    if mode == "native" and not (entry and entry[0]):
        why = "they were not built" if entry else "they play Minefield and Carpniches only"
        raise ValueError(f"no native playouts for {name}: {why}")
    if entry is None:
        return None
    built, native, python = entry
    return native if built and mode != "python" else python
