"""Exhaustive enumeration of Minefield's reachable positions, and reachability of a board.

:func:`enumerate_reachable` walks every position reachable from the start of the n x n
game (pie rule pending, as the library starts games), one position per symmetry class
(the 4 symmetries that keep the colours: the identity, the two mirrors and the half
turn; the transposes exchange the colours and Black moves first, so they do not map
games to games). It counts positions, wins, skipped turns (the only
move is ``pass``) and dead positions, and checks on every reachable position the facts
the SAT method relies on: glyph-freedom and the proved lemmas (no 2x2 crosscut). It
also checks the ortho-diagonal claim: every terminal position in which a colour has an
ortho-diagonal path was won by that colour.

:func:`reach_board` decides whether a given board (a SAT model: a *candidate*
counterexample) arises in some legal game, by a forward search restricted to
positions whose stones are a subset of the target's.

Only the rules model is used (``boardproof.models``): no solver, no SAT.

>>> r = enumerate_reachable(2)
>>> r.positions, r.dead, r.lemma_violations, r.orthodiagonal_failures
(9, 0, 0, 0)
>>> reach_board("bw/wb") is None   # a crosscut: no legal game reaches it
True
>>> reach_board("1w/b1")
['a1', 'b2']
>>> reach_board("2/b1") is not None, reach_board("1b/1b") is None  # White could place
(True, True)
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import asdict, dataclass, field
from typing import Any

from boardproof.models.minefield import BLACK, WHITE, MinefieldPosition, make_game, tables
from boardproof.models.minefield.board import STANDARD, VARIANT_GLYPHS
from boardproof.models.minefield.proofs.glyph_sets import set_glyphs
from boardproof.models.minefield.proofs.sat import crosscuts, glyphs, has_pattern, parse_board
from boardproof.models.minefield.rules import cells_of

#: the largest size enumerated by default (n = 5 is far beyond a Python walk)
MAX_EXHAUSTIVE = 4


@dataclass
class ExhaustiveResult:
    """Counts over the reachable positions of one board size (symmetry-reduced)."""

    n: int
    positions: int = 0  # symmetry classes of reachable positions
    positions_unreduced: int = 0  # sum of the class sizes
    wins: dict[str, int] = field(default_factory=lambda: {"b": 0, "w": 0})
    skipped_turns: int = 0  # positions whose only legal move is pass
    dead: int = 0
    dead_examples: list[str] = field(default_factory=list)
    full_boards: int = 0  # reachable positions with every point filled
    glyph_violations: int = 0
    lemma_violations: int = 0  # reachable positions holding a 2x2 crosscut
    orthodiagonal_positions: int = 0  # ongoing positions where a colour has an 8-path
    orthodiagonal_failures: int = 0  # terminal, a colour has an 8-path, and did not win
    orthodiagonal_examples: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


#: the symmetries of the reachable set: the 4 that keep the colours (the transposes,
#: 4..7, exchange them, and Black moves first, so they do not map games to games)
REACHABLE_SYMMETRIES = (0, 1, 2, 3)


def _canonical(pos: MinefieldPosition) -> tuple[tuple[Any, ...], int]:
    """The least key over the symmetries of the reachable set, and the class size."""
    keys = {pos.transform(s).key() for s in REACHABLE_SYMMETRIES}
    return min(keys), len(keys)


def enumerate_reachable(n: int, *, pie: bool = True, variant: str = STANDARD) -> ExhaustiveResult:
    """Walk every reachable position of the n x n game (see the module docstring), in
    the game with the glyphs of ``variant``."""
    began = time.perf_counter()
    game = make_game(variant=variant)
    start = game.start(size=n, pie=pie)
    result = ExhaustiveResult(n)
    glyph_list = glyphs(n) if variant == STANDARD else set_glyphs(n, VARIANT_GLYPHS[variant])
    cross = crosscuts(n)
    t = tables(n)
    key, size = _canonical(start)
    seen = {key}
    queue: deque[MinefieldPosition] = deque([start])
    result.positions, result.positions_unreduced = 1, size
    checked_boards: set[tuple[int, int]] = set()
    raw_seen: set[tuple[Any, ...]] = {start.key()}
    while queue:
        pos = queue.popleft()
        if (pos.black, pos.white) not in checked_boards:
            checked_boards.add((pos.black, pos.white))
            board = cells_of(pos)
            if has_pattern(board, glyph_list):
                result.glyph_violations += 1
            if has_pattern(board, cross):
                result.lemma_violations += 1
        if (pos.black | pos.white) == t.full:
            result.full_boards += 1
        outcome = pos.outcome()
        eight = [c for c in (BLACK, WHITE) if t.connected((pos.black, pos.white)[c], c, True)]
        if outcome is not None:
            if pos.is_dead():
                result.dead += 1
                if len(result.dead_examples) < 5:
                    result.dead_examples.append(pos.fen())
            else:
                winner = next(iter(outcome.winners))
                result.wins["bw"[winner]] += 1
            for colour in eight:
                if outcome.winners != frozenset((colour,)):
                    result.orthodiagonal_failures += 1
                    if len(result.orthodiagonal_examples) < 5:
                        result.orthodiagonal_examples.append(pos.fen())
            continue
        if eight:
            result.orthodiagonal_positions += 1
        moves = pos.legal_moves()
        if len(moves) == 1 and str(moves[0]) == "pass":
            result.skipped_turns += 1
        for move in moves:
            nxt = pos.play(move)
            raw = nxt.key()
            if raw in raw_seen:
                continue
            raw_seen.add(raw)
            key, size = _canonical(nxt)
            if key not in seen:
                seen.add(key)
                result.positions += 1
                result.positions_unreduced += size
                queue.append(nxt)
    result.seconds = time.perf_counter() - began
    return result


@dataclass
class Reachability:
    """The answer of :func:`reach_search`: a game line, or None, and the work done."""

    line: list[str] | None
    explored: int


def reach_search(target: str) -> Reachability:
    """Search for a legal game (pie rule off) whose final board is ``target``.

    ``target`` is the rows field of a position (``"bw/wb"``). The pie rule changes
    neither the board nor the colour to move (a swap only exchanges the players), so
    it does not change which boards are reachable. Positions that are won are not
    expanded (the game ends there), except when they are the target itself.
    """
    board, n = parse_board(target)
    game = make_game()
    goal = game.parse_position(target.split()[0] + " b -")
    want_b, want_w = goal.black, goal.white
    start = game.start(size=n, pie=False)
    seen: set[tuple[int, int, int]] = set()
    stack: list[tuple[MinefieldPosition, list[str]]] = [(start, [])]
    explored = 0
    while stack:
        pos, line = stack.pop()
        key = (pos.black, pos.white, pos.to_move)
        if key in seen:
            continue
        seen.add(key)
        explored += 1
        if pos.black == want_b and pos.white == want_w:
            return Reachability(line, explored)
        for move in pos.legal_moves():
            nxt = pos.play(move)
            if nxt.black & ~want_b or nxt.white & ~want_w:
                continue
            stack.append((nxt, [*line, str(move)]))
    return Reachability(None, explored)


def reach_board(target: str) -> list[str] | None:
    """A legal game line reaching the board ``target``, or None if none exists."""
    return reach_search(target).line
