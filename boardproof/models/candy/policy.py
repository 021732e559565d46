"""Candy Conquest's threat-aware move policy: the cheap self-play of the puzzle miner.

The policy plays for the player P to move (``candy_policy.h`` is its C twin, behind
:func:`policy_game`; this module is the plain reference the tests compare it with):

1. no placement: ``pass`` if another player can place, else the game is over;
2. a placement that completes P's line: the first in canonical order (what the engine's
   MCTS-Solver plays at any iteration count: it proves a win in 1 when it expands a node);
3. with probability ``care`` (the game's strength): a placement drawn uniformly among the
   *safe* ones, after which no other player can complete a line at once (so it blocks the
   others' open lines, where there are some); among all of them when none is safe;
4. else a placement drawn uniformly among all of them.

Its random numbers are splitmix64 draws from the game's seed: one for the choice between
3 and 4 (none when ``care`` is 0 or 1), then one for the placement. With more than two
players a forced win against every coalition is rare in games of the MCTS engine (1 in
~1,900 positions with 3 players, none in ~3,750 with 4, at 100-1000 iterations a move):
the policy's games go on until the reserves run low, where such wins are found, for about
a millisecond a game instead of a fifth of a second (benchmarks/puzzles_from_games.py).

>>> from boardproof.models.candy.rules import make_game
>>> start = make_game().start(players=3)
>>> moves = reference_game(start, seed=7, care=0.9, limit=6)
>>> [str(m) for m in moves]
['oS@e2', 'Sx@d2', 'Ox@c5', 'So@a5', 'oX@d1', 'So@b4']
>>> policy_available() is False or [str(m) for m in policy_game(start, 7, 0.9, 6)] == \
[str(m) for m in moves]
True
"""

from __future__ import annotations

from typing import Any

from boardproof.models.candy.rules import PASS, CandyMove, CandyPosition, wins_at
from boardproof.solvers.playouts import splitmix64

__all__ = ["policy_available", "policy_game", "reference_game", "reference_move"]

_MASK = (1 << 64) - 1


class _Draws:
    """The splitmix64 stream of one game (the C side's ``u64 rng``)."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        self.state, out = splitmix64(self.state)
        return out


def _wins(pos: CandyPosition, move: CandyMove, player: int) -> bool:
    """Whether ``player`` completes a line by placing ``move`` here (any player's turn)."""
    cols = list(pos.cols)
    cols[move.square] = (*cols[move.square], 12 * player + move.code)
    return wins_at(cols, move.square, player)


def _safe(pos: CandyPosition, move: CandyMove) -> bool:
    """Whether no other player has a line at once after ``move`` (the player to move's)."""
    child = pos.play(move)
    others = [p for p in range(pos.players) if p != pos.to_move]
    return not any(_wins(child, reply, q) for q in others for reply in child.placements(q))


def reference_move(pos: CandyPosition, care: float, draws: _Draws) -> CandyMove | None:
    """The policy's move (None: nobody can place), the plain way: every placement played
    and the other players' placements tested after it."""
    moves = pos.legal_moves()
    if not moves:
        return None
    if moves == (PASS,):
        return PASS
    mover = pos.to_move
    for move in moves:
        if _wins(pos, move, mover):
            return move
    careful = care >= 1.0 or (care > 0.0 and (draws.next() >> 11) * 2.0**-53 < care)
    if careful:
        safe = [move for move in moves if _safe(pos, move)]
        if safe:
            return safe[draws.next() % len(safe)]
    return moves[draws.next() % len(moves)]


def reference_game(pos: CandyPosition, seed: int, care: float, limit: int) -> list[CandyMove]:
    """The policy's moves from ``pos`` until the game ends or ``limit`` plies."""
    draws = _Draws(seed)
    out: list[CandyMove] = []
    while len(out) < limit and pos.outcome() is None:
        move = reference_move(pos, care, draws)
        if move is None:
            break
        out.append(move)
        pos = pos.play(move)
    return out


def policy_available() -> bool:
    """Whether the C policy was built (with the native MCTS modules)."""
    from boardproof.models.candy.native import mcts

    return mcts.available()


def policy_game(position: Any, seed: int, care: float, limit: int | None = None) -> list[Any]:
    """The policy's moves from ``position`` (C, ``candy_policy.h``) until the game ends or
    ``limit`` plies (None: no limit); the same moves as :func:`reference_game` (which
    plays them where the C modules were not built)."""
    from boardproof.models.candy.native import mcts

    if position.outcome() is not None:
        return []
    if not mcts.available():  # pragma: no cover - depends on the build
        return reference_game(position, seed, care, 1 << 20 if limit is None else limit)
    module = mcts.module_for(int(position.players))
    columns, mover, players, _ = mcts.state_of(position)
    codes = module.policy_game(columns, mover, players, seed & _MASK, float(care),
                               1 << 20 if limit is None else limit)  # fmt: skip
    return [mcts.Codec.decode(position, code) for code in codes]
