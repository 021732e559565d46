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

import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from boardproof.models.base import (
    BoardproofError,
    IllegalMoveError,
    InvalidNotationError,
    InvalidOptionError,
    UnknownGameError,
)

if TYPE_CHECKING:  # the solvers are imported on first use: `import boardproof` stays light
    from boardproof.models.base import Game, Position
    from boardproof.solvers.api import SolveResult
    from boardproof.solvers.proof import CheckReport

__version__ = "0.1.0"

F = TypeVar("F", bound=Callable[..., Any])


def python_names(message: str) -> str:
    """A library message with command-line option names written as Python parameters.

    >>> python_names("invalid option --max-plies: expected >= 0, got -1")
    'invalid option max_plies: expected >= 0, got -1'
    """
    return re.sub(r"(?<![\w-])--([a-z][a-z-]*)", lambda m: m.group(1).replace("-", "_"), message)


def _python_errors(func: F) -> F:
    """Errors from the entry points name Python parameters, not command-line options."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except BoardproofError as error:
            text = str(error)
            renamed = python_names(text)
            if renamed == text:
                raise
            raise type(error)(renamed) from None

    return wrapper  # type: ignore[return-value]

__all__ = [
    "BoardproofError",
    "IllegalMoveError",
    "InvalidNotationError",
    "InvalidOptionError",
    "UnknownGameError",
    "check_proof",
    "game",
    "games",
    "perft",
    "position",
    "prove",
    "solve",
    "svg",
]


def games() -> tuple[str, ...]:
    """The names of the games (``candy-conquest`` is also accepted for ``candy``)."""
    from boardproof import models

    return models.names()


@_python_errors
def game(name: str, **options: Any) -> Game:
    """The game called ``name``, with its options (Minefield: ``win="orthodiagonal"``).

    >>> game("candy-conquest").name
    'candy'
    """
    from boardproof import models

    if not isinstance(name, str):
        raise TypeError(f"a game name must be a string, got {name!r}")
    return models.get(name, **options)


@_python_errors
def position(game_name: str, text: str, **options: Any) -> Position:
    """Parse ``text``, a position in the notation of the game ``game_name``.

    >>> position("carpniches", "(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1").fen()
    '(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1'
    """
    return game(game_name, **options).parse_position(text)


@_python_errors
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


@_python_errors
def prove(position: Position, *, max_nodes: int = 1_000_000) -> dict[str, Any]:
    """A proof tree (JSON data) of the forced win of the side to move or of its opponent.

    Raises ValueError when nobody has a proved forced win. Check it with
    :func:`check_proof`, which uses the rules only.
    """
    from boardproof.models.base import game_options
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


@_python_errors
def perft(position: Position, depth: int) -> int:
    """The number of leaves of the legal-move tree of ``depth`` plies.

    >>> perft(position("minefield", "3/3/3 b p"), 2)
    81
    """
    from boardproof.models.base import perft as count

    return count(position, depth)


def svg(position: Position) -> str:
    """The SVG picture of ``position`` (a complete ``<svg>`` document)."""
    from boardproof.reports import svg as drawing

    return drawing.render(position)
