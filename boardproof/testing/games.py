"""Small artificial games for testing the game-agnostic solvers.

They follow the game protocol of :mod:`boardproof.models.base` and nothing else:

- :func:`subtraction` — take 1..k from a pile, taking the last wins (2 players);
- :class:`GraphGame` — any explicit game graph: cycles, 2-4 players, draws, scores;
  :func:`random_graph` makes seeded random ones;
- :class:`TicTacToe` — 3x3 noughts and crosses with 16 symmetries (8 board
  symmetries, each also with the colours and the side to move swapped, which
  keeps the value for the side to move, like Minefield's transposes).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Self

from boardproof.models.base import (
    NUM_PLAYERS,
    GameInfo,
    IllegalMoveError,
    InvalidNotationError,
    Outcome,
    check_options,
)
from boardproof.models.drawing import SvgDocument


def draw_text(position: Any) -> str:
    """A toy game's SVG picture: its notation in a box."""
    text = position.fen()
    doc = SvgDocument(20 + 8 * len(text), 30)
    doc.rect(0, 0, 20 + 8 * len(text), 30, fill="#ffffff", stroke="#333333")
    doc.text(10 + 4 * len(text), 20, text, size=12)
    return doc.to_string()


def toy_info(name: str, symbols: str, players: tuple[int, int], hooks: frozenset[str],
             game: Any) -> GameInfo:
    """The descriptor of the toy game ``game`` (no options, no puzzles); registering it
    (:func:`boardproof.models.register`) makes ``game`` a plug-in."""
    return GameInfo(
        name=name, long_name=name.title(), summary=f"{name} (test game)",
        symbols=tuple(symbols), sides=tuple(f"Player {c}" for c in symbols),
        players=players, make=_Factory(name, game), draw=draw_text, hooks=hooks,
        no_puzzles="a test game",
    )  # fmt: skip


@dataclass(frozen=True, eq=False)
class _Factory:
    """``make(**options)`` of a toy game: the game itself (it takes no options); a class,
    not a closure, so that a toy game pickles (process pools)."""

    name: str
    game: Any

    def __call__(self, **options: Any) -> Any:
        check_options(self.name, (), options, scope="game")
        return self.game

# ---------------------------------------------------------------------------
# explicit game graphs
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GraphSpec:
    """A game graph: per node, its mover, its children (canonical order) and outcome."""

    players: int
    movers: tuple[int, ...]
    edges: tuple[tuple[int, ...], ...]
    outcomes: tuple[Outcome | None, ...]


class GraphGame:
    """An explicit game graph (test game)."""

    name = "graph"
    symmetry_count = 1

    def __init__(self, spec: GraphSpec) -> None:
        self.spec = spec
        self.num_players = spec.players
        self.info = toy_info("graph", "1234", (1, 4), frozenset({NUM_PLAYERS}), self)

    def symbol(self, player: int) -> str:
        return str(player + 1)

    def player_of(self, symbol: str) -> int:
        return int(symbol) - 1

    def position(self, node: int) -> GraphPosition:
        return GraphPosition(self, node)

    def start(self, **_: Any) -> GraphPosition:
        return GraphPosition(self, 0)

    def parse_position(self, text: str) -> GraphPosition:
        try:
            node = int(text.removeprefix("node "))
        except ValueError:
            message = f"invalid position: expected 'node N', got {text!r}"
            raise InvalidNotationError(message) from None
        if not 0 <= node < len(self.spec.movers):
            raise InvalidNotationError(f"invalid position: no such node, got {text!r}")
        return GraphPosition(self, node)


class _ToyPosition(ABC):
    """What every toy position shares: no symmetry of its own unless it says so, nothing
    impossible, and its notation as its board text."""

    @abstractmethod
    def fen(self) -> str:
        """The position's notation (each toy game writes its own)."""

    def transform(self, symmetry: int) -> Self:
        return self

    def transform_move(self, move: Any, symmetry: int) -> Any:
        return move

    def status(self) -> list[str]:
        return []

    def board_text(self) -> str:
        return self.fen()


@dataclass(frozen=True)
class GraphPosition(_ToyPosition):
    game_: GraphGame
    node: int

    def __hash__(self) -> int:
        return self.node

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, GraphPosition)
            and other.node == self.node
            and other.game_ is self.game_
        )

    @property
    def game(self) -> GraphGame:
        return self.game_

    @property
    def num_players(self) -> int:
        return self.game_.spec.players

    @property
    def to_move(self) -> int:
        return self.game_.spec.movers[self.node]

    def fen(self) -> str:
        return f"node {self.node}"

    def legal_moves(self) -> tuple[int, ...]:
        return self.game_.spec.edges[self.node]

    def play(self, move: Any) -> GraphPosition:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"illegal move: no edge from node {self.node}: {str(move)!r}")
        return GraphPosition(self.game_, move)

    def outcome(self) -> Outcome | None:
        return self.game_.spec.outcomes[self.node]

    def key(self) -> int:
        return self.node

    def parse_move(self, text: str) -> int:
        try:
            return int(text)
        except ValueError:
            message = f"invalid move: expected a node number, got {text!r}"
            raise InvalidNotationError(message) from None


def graph_game(
    players: int,
    nodes: list[tuple[int, list[int]]] | None = None,
    outcomes: dict[int, Outcome] | None = None,
) -> GraphGame:
    """A graph game from ``[(mover, children), ...]`` and terminal outcomes by node."""
    assert nodes is not None
    outcomes = outcomes or {}
    return GraphGame(
        GraphSpec(
            players,
            tuple(m for m, _ in nodes),
            tuple(tuple(c) for _, c in nodes),
            tuple(outcomes.get(i) for i in range(len(nodes))),
        )
    )


def random_graph(
    seed: int,
    size: int = 30,
    players: int = 2,
    cyclic: bool = True,
    draws: bool = True,
    scores: bool = False,
) -> GraphGame:
    """A seeded random game graph; node 0 is the start.

    Terminal nodes are about a fifth of the nodes; with ``cyclic`` edges may go
    back, otherwise only forward (a finite game).
    """
    rng = random.Random(seed)
    terminal = {i for i in range(1, size) if rng.random() < 0.25}
    movers: list[int] = []
    edges: list[tuple[int, ...]] = []
    outs: list[Outcome | None] = []
    for i in range(size):
        movers.append(rng.randrange(players))
        if i in terminal or i == size - 1:
            if scores:
                pair = (rng.randrange(5), rng.randrange(5))
                winners = frozenset() if pair[0] == pair[1] else frozenset({int(pair[1] > pair[0])})
                outs.append(Outcome(winners, pair))
            elif draws and rng.random() < 0.2:
                outs.append(Outcome.draw())
            else:
                outs.append(Outcome.win(rng.randrange(players)))
            edges.append(())
            continue
        targets = range(size) if cyclic else range(i + 1, size)
        pool = [t for t in targets if t != i]
        count = min(len(pool), rng.randint(1, 4))
        edges.append(tuple(sorted(rng.sample(pool, count))))
        outs.append(None)
    return GraphGame(GraphSpec(players, tuple(movers), tuple(edges), tuple(outs)))


# ---------------------------------------------------------------------------
# the subtraction game
# ---------------------------------------------------------------------------


class SubtractionGame:
    """Take 1..k counters from a pile; whoever takes the last counter wins (test game)."""

    name = "subtraction"
    symmetry_count = 1

    def __init__(self, k: int) -> None:
        self.k = k
        self.info = toy_info("subtraction", "ab", (2, 2), frozenset(), self)

    def symbol(self, player: int) -> str:
        return "ab"[player]

    def player_of(self, symbol: str) -> int:
        return "ab".index(symbol)

    def start(self, **_: Any) -> SubPosition:
        return SubPosition(self, 10, 0)

    def parse_position(self, text: str) -> SubPosition:
        pile, side = text.split()
        return SubPosition(self, int(pile), self.player_of(side))


@dataclass(frozen=True)
class SubPosition(_ToyPosition):
    game: SubtractionGame
    pile: int
    to_move: int

    def fen(self) -> str:
        return f"{self.pile} {'ab'[self.to_move]}"

    def legal_moves(self) -> tuple[int, ...]:
        if self.pile == 0:
            return ()
        return tuple(range(1, min(self.game.k, self.pile) + 1))

    def play(self, move: Any) -> SubPosition:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"illegal move: cannot take {move!r}")
        return SubPosition(self.game, self.pile - move, 1 - self.to_move)

    def outcome(self) -> Outcome | None:
        return Outcome.win(1 - self.to_move) if self.pile == 0 else None

    def key(self) -> tuple[int, int]:
        return (self.pile, self.to_move)

    def parse_move(self, text: str) -> int:
        return int(text)


def subtraction(pile: int, k: int, to_move: int = 0) -> SubPosition:
    """A subtraction-game position."""
    return SubPosition(SubtractionGame(k), pile, to_move)


# ---------------------------------------------------------------------------
# tic-tac-toe with colour-swapping symmetries
# ---------------------------------------------------------------------------

_LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6),
)  # fmt: skip


def _geometric(s: int, cell: int) -> int:
    r, c = divmod(cell, 3)
    for _ in range(s & 3):
        r, c = c, 2 - r
    if s & 4:
        c = 2 - c
    return r * 3 + c


class TicTacToe:
    """Noughts and crosses on 3x3 (test game); 16 symmetries incl. colour swap."""

    name = "tictactoe"
    symmetry_count = 16

    def __init__(self) -> None:
        self.info = toy_info("tictactoe", "xo", (2, 2), frozenset(), self)

    def symbol(self, player: int) -> str:
        return "xo"[player]

    def player_of(self, symbol: str) -> int:
        return "xo".index(symbol)

    def start(self, **_: Any) -> TTTPosition:
        return TTTPosition(self, (None,) * 9, 0)

    def parse_position(self, text: str) -> TTTPosition:
        cells_text, side = text.split()
        cells = tuple(None if ch == "." else "xo".index(ch) for ch in cells_text)
        return TTTPosition(self, cells, self.player_of(side))


@dataclass(frozen=True)
class TTTPosition(_ToyPosition):
    game: TicTacToe
    cells: tuple[int | None, ...]
    to_move: int

    def fen(self) -> str:
        text = "".join("." if c is None else "xo"[c] for c in self.cells)
        return f"{text} {'xo'[self.to_move]}"

    def outcome(self) -> Outcome | None:
        for a, b, c in _LINES:
            v = self.cells[a]
            if v is not None and v == self.cells[b] == self.cells[c]:
                return Outcome.win(v)
        if all(c is not None for c in self.cells):
            return Outcome.draw()
        return None

    def legal_moves(self) -> tuple[int, ...]:
        if self.outcome() is not None:
            return ()
        return tuple(i for i, c in enumerate(self.cells) if c is None)

    def play(self, move: Any) -> TTTPosition:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"illegal move: {move!r}")
        cells = list(self.cells)
        cells[move] = self.to_move
        return TTTPosition(self.game, tuple(cells), 1 - self.to_move)

    def key(self) -> tuple[tuple[int | None, ...], int]:
        return (self.cells, self.to_move)

    def parse_move(self, text: str) -> int:
        return int(text)

    def transform(self, symmetry: int) -> TTTPosition:
        cells: list[int | None] = [None] * 9
        swap = symmetry >= 8
        for i, v in enumerate(self.cells):
            cells[_geometric(symmetry & 7, i)] = None if v is None else (1 - v if swap else v)
        return TTTPosition(self.game, tuple(cells), 1 - self.to_move if swap else self.to_move)

    def transform_move(self, move: Any, symmetry: int) -> Any:
        return _geometric(symmetry & 7, move)

