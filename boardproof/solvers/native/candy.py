"""Native (C) move generation, line test and perft for Candy Conquest.

The C module (``_candy``, built from ``candy.c`` when the package is installed; optional)
gets its tables from :mod:`boardproof.models.candy.rules` (socket sizes, the shapes of
the 12 orientations, what each square state accepts, the lines through each square, the
staircase steps) and codes the rules that read them: the placements and pass rule of the
player to move, shape visibility and the line test after a placement, and a bulk perft.
On top of them, :func:`win_within`: the plies of a player's fastest forced win (against
all the other players as one coalition) if at most a given number, the question of
:func:`boardproof.puzzles.generate.win_within`, by a C AND/OR search with a table. It is
not behind ``solve`` yet (``solve`` runs the Python search on Candy positions). The tests
check the rules against the model and :func:`win_within` against the Python search.

>>> from boardproof.models.candy.rules import make_game
>>> pos = make_game().start(players=3)
>>> if available():
...     print(len(legal_moves(pos)), perft(pos, 2))
... else:
...     print(150, 21900)
150 21900
"""

from __future__ import annotations

from typing import Any

from boardproof.models.base import InvalidOptionError
from boardproof.models.candy import rules as model
from boardproof.solvers.common import SearchTimeout

try:  # the compiled module is optional (no C compiler: the package installs without it)
    from boardproof.solvers.native import _candy as _native  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _native = None

_installed = False


def available() -> bool:
    """Whether the compiled module was built (a C compiler at install time)."""
    return _native is not None


def install() -> None:
    """Hand the model's tables to the C module (once per process)."""
    global _installed
    if _native is None:
        raise InvalidOptionError(
            "invalid option method native: the C module was not built (no compiler?)"
        )
    if _installed:
        return
    _native.setup(
        tuple(int(b) for b in model.LARGE_SOCKET),
        tuple(int(b) for b in model.BOTTOM_LARGE),
        tuple(int(b) for b in model.TOP_LARGE),
        model.TOP_TYPE,
        model.KIND_OF,
        model.ACCEPTED,
        model.SEGMENTS_AT,
        (0, *model.STAIRCASE_STEPS),
    )
    _installed = True


def _columns(cols: Any) -> tuple[bytes, ...]:
    return tuple(bytes(column) for column in cols)


def legal_moves(position: model.CandyPosition) -> tuple[model.CandyMove, ...]:
    """The C move generator's moves (for the tests: equal to ``position.legal_moves()``)."""
    install()
    assert _native is not None
    if position.outcome() is not None:  # a line on the board: the C side does not look
        return ()
    found = _native.moves(_columns(position.cols), position.to_move, position.players)
    return tuple(model.PASS if sq < 0 else model._MOVE_TABLE[sq][code] for sq, code in found)


def wins_at(cols: Any, square: int, colour: int) -> bool:
    """The C line test: :func:`boardproof.models.candy.rules.wins_at`."""
    install()
    assert _native is not None
    return bool(_native.wins_at(_columns(cols), square, colour))


def perft(position: model.CandyPosition, depth: int) -> int:
    """Leaves of the legal-move tree of ``depth`` plies, counted by the C module."""
    install()
    assert _native is not None
    if depth == 0:
        return 1
    if position.outcome() is not None:
        return 0
    return int(_native.perft(_columns(position.cols), position.to_move, position.players, depth))


#: default table of :func:`win_within`: 2**bits entries of 24 bytes (2**18 -> 6 MiB),
#: cleared when a call starts (and kept from one depth to the next)
DEFAULT_TT_BITS = 18


def win_within(
    position: model.CandyPosition,
    player: int,
    plies: int,
    *,
    node_limit: int = 0,
    timeout: float | None = None,
    tt_bits: int = DEFAULT_TT_BITS,
) -> int | None:
    """Plies of ``player``'s fastest forced win from ``position`` if at most ``plies``
    (0: it has won already), else None; raises ``SearchTimeout`` when ``node_limit``
    nodes (of one depth's search) or ``timeout`` seconds (of each) run out.
    """
    install()
    assert _native is not None
    outcome = position.outcome()
    if outcome is not None:
        return 0 if outcome.winners == frozenset((player,)) else None
    raw = _columns(position.cols)
    for depth in range(1, plies + 1):
        result, _, _, _ = _native.win_within(
            raw, position.to_move, position.players, player, depth, tt_bits, node_limit,
            timeout or 0.0, depth > 1,
        )  # fmt: skip
        if result < 0:
            raise SearchTimeout(f"no answer within the budget at depth {depth}")
        if result == 1:
            return depth
    return None
