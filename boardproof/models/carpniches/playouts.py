"""Carpniches' playout kernels: random playouts in C (``native/playout.c``) and their
Python twin, for the MCTS (:mod:`boardproof.solvers.playouts` says what a kernel is).

The C kernel gets the move steps and line masks from :mod:`boardproof.models.carpniches.rules`.
A Carpniches game can cycle, so its playouts stop after :data:`CARPNICHES_PLIES` plies (a
draw), as the MCTS's generic playouts do.
"""

from __future__ import annotations

import struct
from typing import Any

from boardproof.models.carpniches import rules
from boardproof.models.carpniches.rules import SQUARE_NAMES
from boardproof.solvers.playouts import MASK64, Kernel, python_play

try:  # the compiled module is optional (no C compiler: the package installs without it)
    from boardproof.models.carpniches.native import _playout as _cp  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _cp = None

#: the C module's result codes
_DRAW = 2


#: a step record for C: int32 table (0 first turn, h exactly h squares), from, to; uint64
_STEP = struct.Struct("<iiiQ")
#: Carpniches games can cycle: a playout this long counts as a draw (the MCTS's limit)
CARPNICHES_PLIES = 400


def _carpniches_tables() -> bytes:
    packed = bytearray()
    for table, steps in ((0, rules.FIRST_STEPS), *((h, rules.EXACT[h]) for h in (1, 2, 3))):
        for frm, row in enumerate(steps):
            for between, _bit, to in row:
                packed += _STEP.pack(table, frm, to, between)
    return bytes(packed)


def _carpniches_ready() -> None:
    assert _cp is not None
    if not _cp.ready():
            _cp.setup(_carpniches_tables(), rules._START_RIGHT, rules._START_LEFT)


def native_carpniches(
    pos: Any, seed: int, limit: int, trace: bool = False
) -> tuple[int | None, list[str]]:
    """The same playout as :func:`~boardproof.solvers.playouts.reference_playout` for
    Carpniches, in C."""
    if _cp is None:
        raise ValueError("the native playouts were not built (no C compiler at install)")
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


def _carpniches_plies(pos: Any) -> int:
    return CARPNICHES_PLIES


NATIVE_CARPNICHES = Kernel("native", _native_carpniches_play, _carpniches_plies)
PYTHON_CARPNICHES = Kernel("python", python_play, _carpniches_plies)


def available() -> bool:
    """Whether the C kernel was built (a C compiler at install time)."""
    return _cp is not None


def kernel(mode: str) -> Kernel:
    """The kernel of ``MCTS(playout=mode)``: the C one unless ``python`` or not built."""
    if mode == "native" and _cp is None:
        raise ValueError("no native playouts for carpniches: they were not built")
    return NATIVE_CARPNICHES if _cp is not None and mode != "python" else PYTHON_CARPNICHES
