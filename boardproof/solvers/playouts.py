"""Seeded random playouts for the MCTS: the generic reference playout and the kernels.

A :class:`Kernel` plays one uniformly random game from a position and says who won::

    kernel.play(position, seed, limit) -> winner   # a player index, or None (draw / cut off)

A game's engine may bring its own kernels (``Engine.playouts``: Minefield's and
Carpniches', in their packages), a native one in C and its Python twin. They are twins of
:func:`reference_playout`: the same generator (:func:`splitmix64`, one draw per ply), the
same canonical move order (the model's ``legal_moves()``) and the move
``moves[draw % len(moves)]``, so a seeded playout gives the identical move sequence and
winner in both (the tests check it on many positions).

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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boardproof import models
from boardproof.models.base import Position

MASK64 = (1 << 64) - 1
#: playout modes of :func:`kernel_for` (and of ``MCTS(playout=...)``)
MODES = ("auto", "native", "python")


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


@dataclass(frozen=True)
class Kernel:
    """A playout kernel: ``play(position, seed, limit)`` gives the winner (None: a draw or
    cut off after ``limit`` plies); ``plies(position)`` bounds the length of any game."""

    name: str
    play: Callable[[Any, int, int], int | None]
    plies: Callable[[Any], int]


def python_play(pos: Any, seed: int, limit: int) -> int | None:
    """The winner of :func:`reference_playout` (the Python twins' ``play``)."""
    return reference_playout(pos, seed, limit)[0]


def kernel_for(position: Position, mode: str = "auto") -> Kernel | None:
    """The playout kernel for ``position``'s game in ``mode`` (see the module doc);
    None when the game has none (the MCTS's generic playout)."""
    if mode not in MODES:
        raise ValueError(f"invalid playout mode: expected one of {', '.join(MODES)}, got {mode!r}")
    game = position.game.info
    engine = game.part("engine")
    if engine is None or engine.playouts is None:
        if mode == "native":
            raise ValueError(f"no native playouts for {game.name}: they play "
                             f"{' and '.join(_games_with_kernels())} only")  # fmt: skip
        return None
    kernel: Kernel = engine.playouts(mode)
    return kernel


def _games_with_kernels() -> list[str]:
    """The long names of the games whose engine brings playout kernels."""
    found = []
    for name in models.names():
        engine = models.info(name).part("engine")
        if engine is not None and engine.playouts is not None:
            found.append(models.info(name).long_name)
    return found
