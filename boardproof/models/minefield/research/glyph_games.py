"""Minefield with any set of forbidden glyphs: reachability of a board, every reachable
position of a small board.

The claims per variant and the minimality questions (is each glyph of a variant
needed?) play the game with a glyph set that may be no variant at all (a variant less
one glyph). The rules are the game's (docs/games/minefield.md): a placement may not form
a glyph of the set holding the new stone (:meth:`~boardproof.models.minefield.board.
Tables.glyph_forbidden`, the cartwheel's points beyond the board included); a player
with no legal placement skips the turn while the opponent can place; the game ends when
the last mover has an orthogonal path, or in a dead position (neither colour can place).
The pie rule changes neither the boards nor the colour to move, so it is left out.

:func:`reach_search` decides whether a board (a SAT model: a *candidate*) arises in some
legal game, by a depth-first search restricted to positions whose stones are a subset
of the target's; :func:`enumerate_dead` walks every reachable position of a small board.

>>> from boardproof.models.minefield.proofs.glyph_sets import VARIANT_SETS
>>> reach_search("bw/wb", VARIANT_SETS["standard"]).line is None  # a crosscut
True
>>> reach_search("bw/wb", ("2x3 switch", "2x4 switch")).line  # without hard corners
['b1', 'a1', 'a2', 'b2']
>>> r = enumerate_dead(3, VARIANT_SETS["pinwheel"])
>>> r.dead, r.positions > 100
(0, True)
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

from boardproof.models.minefield.board import BLACK, WHITE, Tables, tables
from boardproof.models.minefield.proofs.glyph_sets import check_set
from boardproof.models.minefield.rules import from_cells, make_game

#: a position: (black stones, white stones, colour to move), the game's bitboards
State = tuple[int, int, int]


class GlyphGame:
    """The moves of the n x n game with the forbidden glyphs ``names``."""

    def __init__(self, n: int, names: tuple[str, ...]) -> None:
        self.n = n
        self.names = check_set(names)
        self.t: Tables = tables(n)
        self.forbid = (self.t.glyph_forbidden(self.names, BLACK),
                       self.t.glyph_forbidden(self.names, WHITE))

    def placements(self, black: int, white: int, colour: int) -> int:
        """Bitboard of the points where ``colour`` may place."""
        own, opp = (black, white) if colour == BLACK else (white, black)
        empty = self.t.full & ~(black | white)
        return empty & ~self.forbid[colour](own, opp, empty)

    def won(self, black: int, white: int, colour: int) -> bool:
        """Whether ``colour`` has an orthogonal path between its edges."""
        return bool(self.t.connected(black if colour == BLACK else white, colour, False))

    def bits(self, board: int) -> list[int]:
        """The single-bit boards of the points of ``board``."""
        out = []
        while board:
            low = board & -board
            out.append(low)
            board ^= low
        return out

    def name(self, bit: int) -> str:
        return self.t.point_name(bit.bit_length() - 1)

    def parse(self, rows: str) -> tuple[int, int]:
        """The (black, white) bitboards of a board in the game's notation (rows only)."""
        pos = make_game().parse_position(rows.split()[0] + " b -")
        if pos.n != self.n:
            raise ValueError(f"board of size {pos.n}, expected {self.n}")
        return pos.black, pos.white


@dataclass
class Reachability:
    """The answer of :func:`reach_search`: a game line, or None, and the work done."""

    line: list[str] | None
    explored: int


def reach_search(target: str, names: tuple[str, ...], limit: int | None = None) -> Reachability:
    """Search for a legal game (Black first) whose board becomes ``target`` (rows field).

    Positions that are won are not expanded (the game ends there) unless they are the
    target. A skipped turn (``pass``) is played only where the rules force it: the mover
    has no legal placement on the whole board and the opponent has one. With ``limit``,
    the search stops after that many positions with ``line=None`` and ``explored`` past
    the limit (undecided: the caller must not take it as a proof).
    """
    n = len(target.split()[0].split("/"))
    game = GlyphGame(n, names)
    want_b, want_w = game.parse(target)
    seen: set[State] = set()
    stack: list[tuple[State, list[str]]] = [((0, 0, BLACK), [])]
    explored = 0
    while stack:
        state, line = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        explored += 1
        if limit is not None and explored > limit:
            return Reachability(None, explored)
        black, white, mover = state
        if black == want_b and white == want_w:
            return Reachability(line, explored)
        if line and line[-1] != "pass" and game.won(black, white, 1 - mover):
            continue  # the last mover has won: the game is over
        legal = game.placements(black, white, mover)
        if not legal:
            if game.placements(black, white, 1 - mover):
                stack.append(((black, white, 1 - mover), [*line, "pass"]))
            continue
        wanted = want_b if mover == BLACK else want_w
        for bit in reversed(game.bits(legal & wanted)):
            nxt = (black | bit, white, WHITE) if mover == BLACK else (black, white | bit, BLACK)
            stack.append((nxt, [*line, game.name(bit)]))
    return Reachability(None, explored)


@dataclass
class DeadCount:
    """Every reachable position of one size and glyph set: counts and dead examples."""

    n: int
    names: tuple[str, ...]
    positions: int = 0
    wins: dict[str, int] = field(default_factory=lambda: {"b": 0, "w": 0})
    dead: int = 0
    dead_examples: list[str] = field(default_factory=list)
    full_boards: int = 0
    orthodiagonal_failures: int = 0  # terminal, a colour has an 8-path, and did not win
    orthodiagonal_examples: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["names"] = list(self.names)
        return out


def enumerate_dead(n: int, names: tuple[str, ...]) -> DeadCount:
    """Walk every position reachable from the empty n x n board (Black first, no pie
    rule: it changes no board) and count the dead ones.

    Also checks the ortho-diagonal claim: a terminal position in which a colour has an
    ortho-diagonal path must have been won by that colour.
    """
    began = time.perf_counter()
    game = GlyphGame(n, names)
    t = game.t
    out = DeadCount(n, game.names)
    seen: set[State] = {(0, 0, BLACK)}
    todo: list[State] = [(0, 0, BLACK)]
    while todo:
        black, white, mover = todo.pop()
        out.positions += 1
        if (black | white) == t.full:
            out.full_boards += 1
        last = 1 - mover
        stones = (black, white)
        eight = [c for c in (BLACK, WHITE) if t.connected(stones[c], c, True)]
        winner = last if game.won(black, white, last) else None
        terminal = winner is not None
        legal = 0
        if not terminal:
            legal = game.placements(black, white, mover)
            if not legal and not game.placements(black, white, 1 - mover):
                terminal = True
                out.dead += 1
                if len(out.dead_examples) < 5:
                    out.dead_examples.append(_rows(n, black, white))
        if terminal:
            if winner is not None:
                out.wins["bw"[winner]] += 1
            for colour in eight:
                if winner != colour:
                    out.orthodiagonal_failures += 1
                    if len(out.orthodiagonal_examples) < 5:
                        out.orthodiagonal_examples.append(_rows(n, black, white))
            continue
        if not legal:
            nexts = [(black, white, 1 - mover)]
        elif mover == BLACK:
            nexts = [(black | bit, white, WHITE) for bit in game.bits(legal)]
        else:
            nexts = [(black, white | bit, BLACK) for bit in game.bits(legal)]
        for nxt in nexts:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    out.seconds = round(time.perf_counter() - began, 3)
    return out


def _rows(n: int, black: int, white: int) -> str:
    """The rows field of a board given as bitboards."""
    t = tables(n)
    cells = []
    for r in range(n):
        for f in range(n):
            bit = 1 << (r * t.width + f)
            cells.append(1 if black & bit else 2 if white & bit else 0)
    return str(from_cells(tuple(cells), n).fen().split()[0])
