"""The native MCTS engine: a C tree (``boardproof/solvers/native/mcts_tree.h``) driven from
Python with the interface :func:`~boardproof.solvers.analyse.analyse` reads of the Python
:class:`~boardproof.solvers.mcts.MCTS`.

A game with a native engine names a factory in its ``Engine.mcts``:
``mcts(position, settings)`` returns a :class:`NativeSearch` (the C search object and the
game's move codec) or None when the engine does not take the position. The tree here
knows no game: moves go in and out through the codec.

With ``threads=1`` and an iteration budget the search is a pure function of the
position, the settings and the seed, on every machine (the C tree draws iteration k's
random numbers from the seed and k alone). A run is cut into slices of at most
:data:`SLICE_SECONDS`, so that progress is shown and Ctrl-C stops it between slices.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from boardproof.models.base import InvalidOptionError, Position
from boardproof.solvers.common import engine_of
from boardproof.solvers.mcts import MoveStat, RunInfo, run_budget

#: the longest slice of a run between two looks at the clock, progress and Ctrl-C
SLICE_SECONDS = 0.1
#: iterations per slice under an iteration budget
SLICE_ITERATIONS = 2_000
#: a proof's value in C: 1 + the winner, or DRAW
DRAW = 3


@dataclass(frozen=True)
class EngineSettings:
    """The native engine's parameters (``--hash``, ``--threads`` and the search's own).

    >>> EngineSettings().with_options({"threads": "2", "hash": "32"}).threads
    2
    """

    hash_mb: int = 256
    threads: int = 1
    uct_c: float = 0.3
    rave_bias: float = 0.001
    fpu: float = 1.0
    expand_visits: int = 2
    rave: bool = True
    #: the game's playout knowledge (Minefield: the bridge save; Candy Conquest: a line is
    #: completed when one can be), on or off
    knowledge: bool = False
    #: playouts that draw moves by the game's learned pattern weights, on or off
    pattern_playout: bool = False
    #: equivalent experience (AMAF visits) of a new node's prior from the game's learned
    #: patterns (0: none; games without learned patterns ignore it). 100 by default: at
    #: 3000 iterations a move, +220 Elo [+162, +278] at 13x13 and +100 [+65, +135] at 9x9
    #: over the engine without it (benchmarks/RESULTS.md)
    pattern_prior: int = 100
    #: equivalent experience of a new node's prior from the game's static evaluation (a
    #: shortest-path distance for the connection games; 0: none)
    distance_prior: int = 0
    #: the static evaluation measures two-distances (Hex's), not shortest paths
    two_distance: bool = False
    #: the game's proved shortcut that ends a game early, on or off (Minefield: Theorem O,
    #: the first ortho-diagonal path wins; off: the rules as they are, a slower win seen
    #: as slow)
    shortcut: bool = True
    seed: int = 0

    def with_options(self, given: dict[str, Any]) -> EngineSettings:
        """These settings with ``given`` (text or values, by field name; ``hash`` is
        ``hash_mb``); a bad value raises :class:`InvalidOptionError` naming it."""
        changed: dict[str, Any] = {}
        for key, value in given.items():
            name = "hash_mb" if key == "hash" else key
            if name not in self.__dataclass_fields__:
                raise InvalidOptionError(f"invalid option engine {key}: no such setting")
            kind = type(getattr(self, name))
            try:
                if kind is bool and isinstance(value, str):
                    if value not in ("0", "1", "true", "false", "on", "off"):
                        raise ValueError(value)
                    changed[name] = value in ("1", "true", "on")
                else:
                    changed[name] = kind(value)
            except (TypeError, ValueError):
                raise InvalidOptionError(
                    f"invalid option engine {key}: expected {kind.__name__}, got {value!r}"
                ) from None
        settings = replace(self, **changed)
        settings.check()
        return settings

    def check(self) -> None:
        """Raise :class:`InvalidOptionError` for a value out of range."""
        limits = {"hash_mb": (1, 1 << 16), "threads": (1, 8), "expand_visits": (1, 1 << 20),
                  "pattern_prior": (0, 1 << 16), "distance_prior": (0, 1 << 16)}
        for name, (low, high) in limits.items():
            value = getattr(self, name)
            if not low <= value <= high:
                option = "hash" if name == "hash_mb" else name
                raise InvalidOptionError(
                    f"invalid option {option}: expected {low}..{high}, got {value!r}"
                )


class Codec(Protocol):
    """A game's moves as the C tree's codes."""

    def encode(self, position: Position, move: Any) -> int: ...

    def decode(self, position: Position, code: int) -> Any: ...


@dataclass
class NativeSearch:
    """A C search object and its game's codec (what ``Engine.mcts`` returns)."""

    search: Any
    codec: Codec
    #: ``reset(position)``: a new root for the same game and size (None: cannot)
    load: Callable[[Position], None] | None = None
    #: the players of the game; ``max_n``: the max^n tree of ``mcts_tree.h`` (MCTS_PLAYERS
    #: > 2, read by :class:`NativeTreeN`), else the two-player tree
    players: int = 2
    max_n: bool = False


@dataclass
class _Root:
    """The root's totals as the Python tree's root shows them (``analyse`` reads them)."""

    visits: int = 0
    reward: list[float] = field(default_factory=lambda: [0.0, 0.0])
    forced: int = 0


class NativeTree:
    """The native tree over ``position`` with the reading methods of the Python MCTS."""

    leaf_solver = None
    players = 2

    def __init__(self, position: Position, native: NativeSearch) -> None:
        self.root_position = position
        self.native = native
        self.iterations = 0

    # -- running ------------------------------------------------------------------

    def run(
        self,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        should_stop: Callable[[], bool] | None = None,
        progress: Callable[[Any, float], object] | None = None,
        progress_every: float = 1.0,
    ) -> RunInfo:
        """Grow the tree until the budget is spent, the root is proved or
        ``should_stop()``; ``stopped`` as :meth:`MCTS.run` gives it."""
        search = self.native.search

        def step(left: int | None, seconds_left: float | None) -> int:
            if left is not None:  # an iteration budget: slices of iterations, no clock
                ran: int = search.run(min(SLICE_ITERATIONS, left), 0.0)
            else:
                ran = search.run(0, min(SLICE_SECONDS, seconds_left or SLICE_SECONDS))
            self.iterations += ran
            return ran

        return run_budget(self, step, lambda: self.proved_value() is not None,
                          iterations=iterations, seconds=seconds, should_stop=should_stop,
                          progress=progress, progress_every=progress_every)  # fmt: skip

    def advance(self, move: Any) -> bool:
        """Play ``move`` at the root, keeping its subtree (True) or restarting (False).

        Where the game goes on while the C tree sees it over (a game may see it over
        earlier than the rules, e.g. Minefield by Theorem O), the tree takes the new root
        afresh through its ``load`` (which gives the game's tree for such a root: False).
        Raises ValueError when the tree cannot follow: the move is not legal at its root,
        or it has no ``load`` and so no move to give; the caller then drops the tree.
        """
        code = self.native.codec.encode(self.root_position, move)
        kept = bool(self.native.search.advance(code))
        self.root_position = self.root_position.play(move)
        if self._over_early() and self.native.load is not None:
            self.native.load(self.root_position)
            kept = False
        if self._over_early():
            raise ValueError("the native tree sees the game over: it has no move to give")
        return kept

    def _over_early(self) -> bool:
        """Whether the C tree sees the game over (no move to give) while it goes on."""
        proof, mover = self.native.search.root()[5], self.native.search.root()[7]
        return bool(proof) and mover < 0 and self.root_position.outcome() is None

    def reset(self, position: Position) -> None:
        """A new root (the tree is emptied)."""
        if self.native.load is None:
            raise ValueError("this native search cannot take a new root")
        self.native.load(position)
        self.root_position = position

    def stats(self) -> dict[str, Any]:
        """The pool's use: ``nodes``, ``capacity``, ``full``, ``iterations``."""
        found: dict[str, Any] = self.native.search.stats()
        return found

    # -- reading ------------------------------------------------------------------

    @property
    def root(self) -> _Root:
        move, visits, value, *_rest, proof, _index, _mover = self.native.search.root()
        forced = 0 if proof in (0, DRAW) else 1 << (proof - 1)
        return _Root(visits, [value, visits - value], forced)

    def _mover(self) -> int:
        return int(self.root_position.to_move)

    @staticmethod
    def _proved(proof: int, mover: int) -> str | None:
        if not proof:
            return None
        if proof == DRAW:
            return "draw"
        return "win" if proof == 1 + mover else "loss"

    def _status(self, node: tuple[Any, ...], mover: int) -> str | None:
        """What the tree proves about a node (a tuple of the C search) for ``mover``."""
        return self._proved(node[5], mover)

    def _mean(self, node: tuple[Any, ...], mover: int) -> float:
        """``mover``'s mean reward in a child of its node (0 without visits)."""
        visits, value = node[1], node[2]
        mean = value / visits if visits else 0.0
        return mean if mover == 0 else 1.0 - mean

    def _ranked(self, index: int, mover: int) -> list[tuple[Any, ...]]:
        def rank(child: tuple[Any, ...]) -> tuple[int, int, float]:
            tier = {"win": 3, "draw": 1, "loss": 0}.get(self._status(child, mover) or "", 2)
            return tier, child[1], self._mean(child, mover)

        return sorted(self.native.search.children(index), key=rank, reverse=True)

    def proved_value(self) -> str | None:
        """The root's proved value for its side to move (None: not proved)."""
        proof = self.native.search.root()[5]
        return self._proved(proof, self._mover())

    def proved_winner(self) -> int | None:
        """The colour the tree proves wins from the root, if any."""
        proof = self.native.search.root()[5]
        return None if proof in (0, DRAW) else proof - 1

    def moves(self, count: int | None = None) -> list[MoveStat]:
        """The root moves, best first (at most ``count``)."""
        mover = self._mover()
        stats = []
        for child in self._ranked(0, mover)[:count]:
            move = self.native.codec.decode(self.root_position, child[0])
            stats.append(MoveStat(move, child[1], self._mean(child, mover), None,
                                  self._status(child, mover)))  # fmt: skip
        return stats

    def best_move(self) -> Any:
        """The move the search recommends (None: no move)."""
        ranked = self._ranked(0, self._mover())
        return self.native.codec.decode(self.root_position, ranked[0][0]) if ranked else None

    def principal_line(self, limit: int = 40) -> list[Any]:
        """The expected line: the best child, from the root down, while it was visited."""
        line: list[Any] = []
        position = self.root_position
        index, mover = 0, self._mover()
        while len(line) < limit and position.outcome() is None:
            ranked = self._ranked(index, mover)
            if not ranked:
                break
            code, visits, proof, child, child_mover = (ranked[0][k] for k in (0, 1, 5, 6, 7))
            if not visits and not proof and self._status(ranked[0], mover) is None:
                break
            move = self.native.codec.decode(position, code)
            line.append(move)
            position = position.play(move)
            if child_mover < 0:  # not expanded: no children to follow
                break
            index, mover = child, child_mover
        return line

    def root_value(self) -> float:
        """The root's mean reward for its side to move."""
        _move, visits, value, *_ = self.native.search.root()
        if not visits:
            return 0.5
        mean = value / visits
        return mean if self._mover() == 0 else 1.0 - mean

    def root_score(self) -> float | None:
        return None

    def proof(
        self,
        winner: int,
        name: str,
        options: dict[str, Any] | None,
        subproof: Callable[[Position, int], dict[str, Any]],
    ) -> dict[str, Any]:
        """A proof of ``winner``'s win from the root: the proof builder's (the C tree keeps
        no positions, and may rest on a game's lemma, e.g. Minefield's Theorem O, which a
        checker of the rules alone cannot follow)."""
        return subproof(self.root_position, winner)


class NativeTreeN(NativeTree):
    """The native max^n tree (``NativeSearch.max_n``: a game of more than two players),
    read as the Python MCTS reads its tree: a node's tuple ends with the players who
    cannot force a win (``refuted``) and every player's reward sums (``shares``); ``value``
    is the reward of the node's chooser. A proof ``1 + p`` says p forces a win against all
    the others; a finished game without a winner, or a node where nobody can force a win,
    is a draw; the search goes on at the latter (its max^n value is not settled)."""

    def __init__(self, position: Position, native: NativeSearch) -> None:
        super().__init__(position, native)
        self.players = native.players

    def run(
        self,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        should_stop: Callable[[], bool] | None = None,
        progress: Callable[[Any, float], object] | None = None,
        progress_every: float = 1.0,
    ) -> RunInfo:
        """As :meth:`NativeTree.run`; the root is finished when a player forces it (or
        the game is over), as the C tree stops."""
        search = self.native.search

        def step(left: int | None, seconds_left: float | None) -> int:
            if left is not None:
                ran: int = search.run(min(SLICE_ITERATIONS, left), 0.0)
            else:
                ran = search.run(0, min(SLICE_SECONDS, seconds_left or SLICE_SECONDS))
            self.iterations += ran
            return ran

        return run_budget(self, step, lambda: bool(search.root()[5]), iterations=iterations,
                          seconds=seconds, should_stop=should_stop, progress=progress,
                          progress_every=progress_every)  # fmt: skip

    def _status(self, node: tuple[Any, ...], mover: int) -> str | None:
        proof, refuted = node[5], node[8]
        if 1 <= proof <= self.players:
            return "win" if proof == 1 + mover else "loss"
        if proof or refuted == (1 << self.players) - 1:
            return "draw"
        return None

    def _mean(self, node: tuple[Any, ...], mover: int) -> float:
        return float(node[2] / node[1]) if node[1] else 0.0

    @property
    def root(self) -> _Root:
        node = self.native.search.root()
        proof, shares = node[5], node[9]
        forced = 1 << (proof - 1) if 1 <= proof <= self.players else 0
        return _Root(node[1], list(shares[: self.players]), forced)

    def proved_value(self) -> str | None:
        return self._status(self.native.search.root(), self._mover())

    def proved_winner(self) -> int | None:
        proof = self.native.search.root()[5]
        return proof - 1 if 1 <= proof <= self.players else None

    def root_value(self) -> float:
        node = self.native.search.root()
        return float(node[9][self._mover()] / node[1]) if node[1] else 1.0 / self.players


def native_tree(
    position: Position, settings: EngineSettings | None = None
) -> NativeTree | None:
    """The native tree for ``position`` when its game's engine has one that takes it."""
    engine = engine_of(position)
    factory = None if engine is None else engine.mcts
    if factory is None:
        return None
    found = factory(position, settings or EngineSettings())
    if found is None:
        return None
    return NativeTreeN(position, found) if found.max_n else NativeTree(position, found)
