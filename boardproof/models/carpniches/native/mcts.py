"""Carpniches' side of the native MCTS engine (``mcts.c``): positions and move codes of the
C tree (:mod:`boardproof.solvers.native_mcts` drives it).

Move codes: ``from * 36 + to`` (squares ``6 * rank + file``, ``a1`` = 0), so
``a1-b2`` is 7 and the codes are 0 .. :data:`MOVE_CODES` - 1.

The C tree gets the move steps and line masks of :mod:`boardproof.models.carpniches.rules`
(the tables of the playouts). Repetitions: a position that repeats one of the last 64 of
its path is a draw leaf for the tree; the tree's proved wins and losses are exact whatever
the history, a proved draw of the root is exact for the root position, and a proved draw
below the root is relative to its path (``mcts.c`` explains why).

>>> from boardproof.models.carpniches.rules import START_POSITION
>>> code = Codec.encode(START_POSITION, START_POSITION.parse_move("f1-e2"))
>>> code, str(Codec.decode(START_POSITION, code))
(190, 'f1-e2')
"""

from __future__ import annotations

import struct
from typing import Any

from boardproof.models.carpniches import rules

try:  # the compiled module is optional (no C compiler: the package installs without it)
    from boardproof.models.carpniches.native import _mcts  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _mcts = None

#: the C tree's move codes are 0 .. MOVE_CODES - 1
MOVE_CODES = rules.SQUARES * rules.SQUARES
#: a step record for C (the playouts' format, ``carpniches_state.h``): int32 table (0 first
#: turn, h exactly h squares), from, to; uint64 the squares strictly between
_STEP = struct.Struct("<iiiQ")


def _tables() -> bytes:
    packed = bytearray()
    for table, steps in ((0, rules.FIRST_STEPS), *((h, rules.EXACT[h]) for h in (1, 2, 3))):
        for frm, row in enumerate(steps):
            for between, _bit, to in row:
                packed += _STEP.pack(table, frm, to, between)
    return bytes(packed)


class Codec:
    """Carpniches moves as the C tree's codes."""

    @staticmethod
    def encode(position: Any, move: Any) -> int:
        return int(move.frm) * rules.SQUARES + int(move.to)

    @staticmethod
    def decode(position: Any, code: int) -> Any:
        if not 0 <= code < MOVE_CODES:
            raise ValueError(f"invalid move code: expected 0..{MOVE_CODES - 1}, got {code!r}")
        return rules.MOVES[code // rules.SQUARES][code % rules.SQUARES]


def state_of(position: Any) -> tuple[tuple[int, ...], int, int]:
    """``((o1, o2, o3, l0, l1, l2), side to move, opening)`` as the C tree takes them."""
    return tuple(position[:6]), int(position.to_move), int(position.opening)


def available() -> bool:
    """Whether the C module was built (a C compiler at install time)."""
    return _mcts is not None


def _ready() -> None:
    assert _mcts is not None
    if not _mcts.ready():
        _mcts.setup(_tables(), rules._START_RIGHT, rules._START_LEFT)


def takes(position: Any) -> bool:
    """Whether the C tree takes ``position``: built, and a Carpniches position."""
    return _mcts is not None and getattr(position.game, "name", None) == "carpniches"


def search(position: Any, settings: Any) -> Any:
    """The :class:`~boardproof.solvers.native_mcts.NativeSearch` over ``position``, or
    None when the C tree does not take it."""
    return build(position, settings) if takes(position) else None


def build(position: Any, settings: Any) -> Any:
    """The C tree over a Carpniches position (the module must be built)."""
    from boardproof.solvers.native_mcts import NativeSearch

    if _mcts is None:
        raise ValueError("the native MCTS engine was not built (no C compiler at install)")
    _ready()
    found = _mcts.Search(
        *state_of(position), settings.hash_mb << 20, settings.seed, settings.threads,
        settings.uct_c, settings.rave_bias, settings.fpu, settings.expand_visits, settings.rave,
    )  # fmt: skip

    def load(new: Any) -> None:
        if getattr(new.game, "name", None) != "carpniches":
            raise ValueError(f"a new root must be a Carpniches position, got {new!r}")
        found.reset(*state_of(new))

    return NativeSearch(found, Codec(), load)
