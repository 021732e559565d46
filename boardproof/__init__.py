"""boardproof: solvers, proofs and puzzle analysis for four abstract board games.

The entry points, for use from Python (the command line calls the same functions):

>>> import boardproof
>>> boardproof.games()
('minefield', 'carpniches', 'candy', 'collexion')
>>> game = boardproof.game("minefield")
>>> pos = game.parse_position("1b2/2w1/1bb1/w3 w -")
>>> [str(move) for move in pos.legal_moves()][:4]
['b1', 'c1', 'd1', 'a2']
>>> result = boardproof.solve(pos)
>>> result.value, str(result.best_move), result.plies, result.winner_symbol
('win', 'b3', 5, 'w')
>>> proof = boardproof.prove(pos)
>>> boardproof.check_proof(proof).winner
'w'
>>> boardproof.svg(pos).startswith("<svg")
True

Errors caused by bad input are :class:`boardproof.BoardproofError` (a ValueError)
with a one-line message; a position that is not a string is a TypeError:

>>> boardproof.position("minefield", "5/5/b5/5/5 b")
Traceback (most recent call last):
    ...
boardproof.models.base.InvalidNotationError: invalid position: row 3 has 6 points, expected 5: 'b5'
>>> try:
...     boardproof.game("minefield", win="hex")
... except boardproof.InvalidOptionError as error:  # Python names, not "--win"
...     print(error)
invalid option win: expected one of orthogonal, orthodiagonal, got 'hex'
>>> boardproof.position("minefield", None)
Traceback (most recent call last):
    ...
TypeError: invalid position: expected a string in the game's notation, got None
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from boardproof import models
from boardproof.models.base import (
    BoardproofError,
    Game,
    GameInfo,
    IllegalMoveError,
    InvalidNotationError,
    InvalidOptionError,
    Move,
    Outcome,
    Position,
    UnknownGameError,
    game_options,
)
from boardproof.models.base import perft as count_leaves

if TYPE_CHECKING:  # the solvers are imported on first use: `import boardproof` stays light
    from boardproof.solvers.api import SolveResult
    from boardproof.solvers.proof import CheckReport, ProofError

__version__ = "0.1.0"

__all__ = [
    "BoardproofError",
    "CheckReport",
    "Game",
    "GameInfo",
    "IllegalMoveError",
    "InvalidNotationError",
    "InvalidOptionError",
    "Move",
    "Outcome",
    "Position",
    "ProofError",
    "SolveResult",
    "UnknownGameError",
    "check_proof",
    "game",
    "games",
    "perft",
    "position",
    "prove",
    "register",
    "solve",
    "svg",
]

#: the names this module gives on first use (they live in the solvers, loaded lazily)
_LAZY = {
    "SolveResult": "boardproof.solvers.api",
    "CheckReport": "boardproof.solvers.proof",
    "ProofError": "boardproof.solvers.proof",
}


def __getattr__(name: str) -> Any:
    """``boardproof.SolveResult``, ``CheckReport`` and ``ProofError``, imported on first use.

    >>> import boardproof
    >>> boardproof.SolveResult.__name__, issubclass(boardproof.ProofError, ValueError)
    ('SolveResult', True)
    """
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'boardproof' has no attribute {name!r}")


def register(info: GameInfo) -> None:
    """Add a game (a plug-in, described by its :class:`GameInfo`) to the registry; it is
    then found by name like the built-in games, from Python and the command line."""
    models.register(info)


def games() -> tuple[str, ...]:
    """The names of the games (``candy-conquest`` is also accepted for ``candy``)."""
    return models.names()


def game(name: str, **options: Any) -> Game:
    """The game called ``name``, with its options (Minefield: ``win="orthodiagonal"``).

    >>> game("candy-conquest").name
    'candy'
    """
    if not isinstance(name, str):
        raise TypeError(f"a game name must be a string, got {name!r}")
    return models.get(name, **options)


def position(game_name: str, text: str, **options: Any) -> Position:
    """Parse ``text``, a position in the notation of the game ``game_name``.

    >>> position("carpniches", "(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1").fen()
    '(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1'
    """
    return game(game_name, **options).parse_position(text)


def solve(
    position: Position,
    method: str = "auto",
    max_plies: int | None = None,
    timeout: float | None = None,
) -> SolveResult:
    """Solve ``position`` for its side to move (see :func:`boardproof.solvers.api.solve`).

    ``value`` is ``win``, ``loss``, ``draw`` or ``unknown`` (never a guess);
    ``best_move``, ``pv``, ``plies`` and ``winner`` / ``winner_symbol`` say how.
    """
    from boardproof.solvers.api import solve as run

    return run(position, method=method, max_plies=max_plies, timeout=timeout)


def prove(position: Position, *, max_nodes: int = 1_000_000) -> dict[str, Any]:
    """A proof tree (JSON data) of the forced win of the side to move or of its opponent.

    Raises ValueError when nobody has a proved forced win. Check it with
    :func:`check_proof`, which uses the rules only.
    """
    from boardproof.solvers.common import engine_of
    from boardproof.solvers.proof import build_proof

    result = solve(position)
    if result.value not in ("win", "loss") or result.winner is None:
        raise ValueError(f"no proof: the solver found no forced win ({result.value})")
    engine = engine_of(position)
    oracle = None
    if engine is not None and engine.win_oracle is not None:
        oracle = engine.win_oracle(position, result.winner)
    options = game_options(position.game)
    return build_proof(
        position, winner=result.winner, game_name=position.game.name, options=options,
        max_nodes=max_nodes, oracle=oracle,
    )  # fmt: skip


def check_proof(data: Any) -> CheckReport:
    """Re-check a proof (the JSON data of :func:`prove` or of ``solve --proof``).

    Uses the rules only; raises :class:`boardproof.solvers.proof.ProofError` at the
    first bad node.
    """
    from boardproof.solvers.proof import check_proof as check

    return check(data)


def perft(position: Position, depth: int) -> int:
    """The number of leaves of the legal-move tree of ``depth`` plies.

    >>> perft(position("minefield", "3/3/3 b p"), 2)
    81
    """
    return count_leaves(position, depth)


def svg(position: Position) -> str:
    """The SVG picture of ``position`` (a complete ``<svg>`` document)."""
    from boardproof.reports import svg as drawing

    return drawing.render(position)
