"""What every game-agnostic solver shares: players, goals, keys, budgets.

The solvers only use the game protocol of :mod:`boardproof.models.base`. The
optional hooks a game declares (``GameInfo.hooks``, asked with
:func:`~boardproof.models.base.offers`) let it offer faster ways to do the same
thing; a game without them is solved all the same:

- ``num_players``: the number of players when the game's count varies (else the
  game's fixed count from ``GameInfo.players``);
- ``canonical`` -> ``(key, s)``: a symmetry-canonical transposition key
  and the symmetry ``s`` that maps this position onto the canonical image. It must
  agree with ``min(position.transform(t).key() for t in ...)`` up to the choice of
  representative, and the value for the side to move must be invariant.

"A player wins" a finished game when it is among the winners and not everybody
won (a win shared by all players is a draw): for two players that is the usual
sole win, for teams and coalitions it is the team's win.

>>> from boardproof.models.base import Outcome
>>> wins(Outcome.win(0), 0, 2), wins(Outcome(frozenset({0, 1})), 0, 2)
(True, False)
>>> wins(Outcome(frozenset({0, 2})), 2, 4)
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import Any, cast

from boardproof.models.base import (
    CANONICAL,
    NUM_PLAYERS,
    Canonical,
    Engine,
    Outcome,
    PlayerCount,
    Position,
    offers,
)


class SearchTimeout(Exception):  # noqa: N818 - a control-flow signal, not an error
    """Raised inside a search when its time or node budget is spent."""


class Stop:
    """Why a solver stopped before settling its question (``stopped`` of a result;
    None when it settled it)."""

    #: the time limit
    TIME = "time"
    #: the node budget
    NODES = "nodes"
    #: the ply bound (``max_plies``): no answer within it
    PLIES = "plies"
    #: too many states to enumerate
    STATES = "states"

    #: the reasons that are a budget (more time or nodes could settle it)
    BUDGET = frozenset({TIME, NODES})


def num_players(position: Position) -> int:
    """The number of players of ``position`` (its hook, or the game's fixed count)."""
    if offers(position.game, NUM_PLAYERS):
        return int(cast(PlayerCount, position).num_players)
    return position.game.info.players[0]


def wins(outcome: Outcome, player: int, players: int) -> bool:
    """Whether ``player`` won ``outcome`` (among the winners, and not everybody won)."""
    return player in outcome.winners and len(outcome.winners) < players


def terminal_sign(outcome: Outcome, player: int, players: int) -> int:
    """+1 if ``player`` won, -1 if somebody else won without it, 0 for a draw.

    >>> terminal_sign(Outcome.win(1), 0, 2), terminal_sign(Outcome.draw(), 0, 2)
    (-1, 0)
    """
    if wins(outcome, player, players):
        return 1
    if outcome.winners and len(outcome.winners) < players:
        return -1
    return 0


KeyFn = Callable[[Position], tuple[Hashable, int]]


def raw_key(position: Position) -> tuple[Hashable, int]:
    """The plain transposition key, with the identity symmetry."""
    return position.key(), 0


def _orderable(key: Hashable) -> Any:
    return (hash(key), repr(key))


def symmetric_key(position: Position) -> tuple[Hashable, int]:
    """The smallest key over the game's symmetries, and the symmetry that gives it."""
    if offers(position.game, CANONICAL):
        key, sym = cast(Canonical, position).canonical()
        return key, int(sym)
    count = position.game.symmetry_count
    best: Hashable = position.key()
    best_sym = 0
    for sym in range(1, count):
        key = position.transform(sym).key()
        try:
            smaller = key < best  # type: ignore[operator]
        except TypeError:
            smaller = _orderable(key) < _orderable(best)
        if smaller:
            best, best_sym = key, sym
    return best, best_sym


def key_function(position: Position, symmetry: bool = True) -> KeyFn:
    """The key function a solver should use for ``position``'s game.

    Symmetry canonicalisation is only used for two-player games: the protocol
    guarantees that a symmetry keeps the value *for the side to move*, which is
    all a two-player table needs; with more players a symmetry could relabel them.
    """
    if (
        symmetry
        and num_players(position) == 2
        and (position.game.symmetry_count > 1 or offers(position.game, CANONICAL))
    ):
        return symmetric_key
    return raw_key


def find_move(position: Position, stored: Any, sym: int) -> Any | None:
    """The legal move of ``position`` whose image under symmetry ``sym`` is ``stored``."""
    if stored is None:
        return None
    moves = position.legal_moves()
    if sym == 0:
        return stored if stored in moves else None
    for move in moves:
        if position.transform_move(move, sym) == stored:
            return move
    return None


#: the node count of the Python search running now, as last reported to :meth:`Budget.check`
#: (read by progress displays; a single number, since one search runs per process)
LIVE_NODES = [0]


class Budget:
    """A deadline and a node limit, checked every 1024 nodes.

    >>> Budget(None, None).expired()
    False
    """

    def __init__(self, timeout: float | None, node_limit: int | None = None) -> None:
        self.start = time.perf_counter()
        self.deadline = None if timeout is None else self.start + timeout
        self.node_limit = node_limit

    def expired(self, nodes: int = 0) -> bool:
        if self.node_limit is not None and nodes >= self.node_limit:
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def stop_reason(self, nodes: int = 0) -> str:
        """Which budget ran out: :attr:`Stop.NODES` if the node limit, else :attr:`Stop.TIME`.

        >>> Budget(None, 10).stop_reason(10)
        'nodes'
        """
        if self.node_limit is not None and nodes >= self.node_limit:
            return Stop.NODES
        return Stop.TIME

    def check(self, nodes: int) -> None:
        LIVE_NODES[0] = nodes  # what a progress display may show (searches call this often)
        if self.expired(nodes):
            raise SearchTimeout

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


def engine_of(position: Position) -> Engine | None:
    """The native engine that ``position``'s game brings (its descriptor names it), or None.

    >>> from boardproof import models
    >>> engine_of(models.get("candy").start()).scope
    'Candy Conquest'
    >>> engine_of(models.get("collexion").start()).tree is not None  # a turn search, no C
    True
    """
    engine: Engine | None = position.game.info.part("engine")
    return engine
