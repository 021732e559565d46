"""Native (C) win/draw/loss search for Minefield boards up to 8 x 8.

The C module (``_minefield``, built from ``minefield.c`` when the package is
installed; optional) only searches: the rules come from
:mod:`boardproof.models.minefield.board`, which hands it, per board size, the masks
of every glyph "role" (:func:`~boardproof.models.minefield.board.glyph_roles`), the
edges and the 8 symmetries. It is a second, independent implementation of the same
search question as :mod:`boardproof.solvers.search`; the tests check that both agree.

What it does: alpha-beta over the values win / draw / loss for the side to move,
with a symmetry-canonical transposition table kept between calls, immediate wins
first, and a threat test (a move that leaves the opponent a winning placement loses
at once). In distance mode the values count plies (fastest win, longest defence);
:func:`principal_line` follows the best moves to the end of the game.

>>> from boardproof.models import get
>>> if available():
...     found = solve(get("minefield").parse_position("3/3/3 b -"))
...     print(found.value, found.best_move)
... else:
...     print("win a2")
win a2
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boardproof.models.base import InvalidOptionError
from boardproof.models.minefield.board import (
    GUARD,
    PASS,
    Move,
    glyph_roles,
    symmetry_point,
)

try:  # the compiled module is optional (no C compiler: the package installs without it)
    from boardproof.solvers.native import _minefield as _native  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _native = None

#: the largest board the native search handles (64-bit boards)
MAX_SIZE = 8
#: default transposition table: 2**bits entries of 24 bytes (2**24 -> 384 MiB)
DEFAULT_TT_BITS = 22
#: distance mode: a win in d plies is ``WIN_SCORE - d`` (as in the C module)
WIN_SCORE = 1000


def available() -> bool:
    """Whether the compiled module was built (a C compiler at install time)."""
    return _native is not None


def supports(position: Any) -> bool:
    """Whether :func:`solve` takes ``position``: Minefield, n <= 8, no pending swap."""
    return supports_any(position) and not position.pie


def supports_any(position: Any) -> bool:
    """Whether :func:`solve_any` takes ``position`` (a pending swap is allowed)."""
    return available() and position.game.name == "minefield" and position.n <= MAX_SIZE


def accepts(position: Any) -> bool:
    """What ``solve(method="native")`` accepts (the solve-method table asks this)."""
    return supports_any(position)


def refusal(position: Any) -> str:
    """Why ``solve(method="native")`` does not take ``position`` (one phrase)."""
    if not available():
        return "the C module was not built"
    return f"it solves Minefield boards up to {MAX_SIZE}x{MAX_SIZE} only"


@dataclass(frozen=True)
class NativeTables:
    """What the C search needs for one board size and win rule (compact points r*n+f)."""

    n: int
    diagonal: bool
    edges: tuple[int, int, int, int]
    roles: tuple[tuple[tuple[int, int, int], ...], ...]
    perms: tuple[tuple[int, ...], ...]


def native_tables(n: int, diagonal: bool) -> NativeTables:
    """Build the tables of size ``n`` from the model's glyph roles and symmetries.

    >>> t = native_tables(3, False)
    >>> t.edges == (0b000000111, 0b111000000, 0b001001001, 0b100100100)
    True
    >>> len(t.roles[4])  # the centre of 3x3: the 12 hard-corner roles; no switch fits
    12
    >>> len(native_tables(8, False).roles[27])  # d4 of 8x8: every role fits
    28
    """
    if not 2 <= n <= MAX_SIZE:
        raise InvalidOptionError(f"invalid size: expected 2 to {MAX_SIZE}, got {n!r}")
    roles_by_point: list[tuple[tuple[int, int, int], ...]] = []
    all_roles = [role for group in glyph_roles().values() for role in group]
    for r in range(n):
        for f in range(n):
            found: list[tuple[int, int, int]] = []
            for role in all_roles:
                masks = {"M": 0, "O": 0, "E": 0}
                for dx, dy, state in role:
                    g, q = f + dx, r + dy
                    if not (0 <= g < n and 0 <= q < n):
                        break
                    masks[state] |= 1 << (q * n + g)
                else:
                    found.append((masks["M"], masks["O"], masks["E"]))
            roles_by_point.append(tuple(sorted(set(found))))
    row = (1 << n) - 1
    left = sum(1 << (r * n) for r in range(n))
    edges = (row, row << (n * (n - 1)), left, left << (n - 1))
    perms = tuple(
        tuple(
            q * n + g
            for r in range(n)
            for f in range(n)
            for g, q in (symmetry_point(s, f, r, n),)
        )
        for s in range(8)
    )
    return NativeTables(n, diagonal, edges, tuple(roles_by_point), perms)


@dataclass
class NativeResult:
    """The value of a position for its side to move, and how it was found."""

    value: str  # win, draw, loss or unknown (budget spent)
    best_move: Move | None
    nodes: int
    #: plies to the end with best play (distance mode only), else None
    plies: int | None = None


class NativeSearch:
    """One board size's native search; its transposition table lives across calls.

    Only one ``NativeSearch`` is active per process (the C module has one table):
    creating another one, or solving a position of another size, resets it.
    """

    _active: NativeSearch | None = None

    def __init__(
        self,
        n: int,
        diagonal: bool = False,
        tt_bits: int = DEFAULT_TT_BITS,
        distance: bool = False,
    ) -> None:
        if _native is None:
            raise InvalidOptionError(
                "invalid option --method native: the C module was not built (no compiler?)"
            )
        if not 4 <= tt_bits <= 30:
            raise InvalidOptionError(f"invalid option tt_bits: expected 4 to 30, got {tt_bits!r}")
        self.tables = native_tables(n, diagonal)
        self.n = n
        self.diagonal = diagonal
        self.tt_bits = tt_bits
        self.distance = distance
        self._install()

    def _install(self) -> None:
        t = self.tables
        assert _native is not None
        _native.setup(t.n, t.diagonal, t.edges, t.roles, t.perms, self.tt_bits, self.distance)
        NativeSearch._active = self

    def boards(self, position: Any) -> tuple[int, int, bool]:
        """(mover's stones, other stones, mover is Black) in compact points."""
        n = self.n
        width = n + GUARD
        black = white = 0
        for r in range(n):
            for f in range(n):
                source = 1 << (r * width + f)
                if position.black & source:
                    black |= 1 << (r * n + f)
                elif position.white & source:
                    white |= 1 << (r * n + f)
        if position.to_move == 0:
            return black, white, True
        return white, black, False

    def proves(
        self,
        position: Any,
        attacker: int,
        *,
        tt_bits: int | None = None,
        node_limit: int = 0,
        timeout: float | None = None,
    ) -> tuple[bool | None, int]:
        """Does ``attacker`` have a forced win? The native df-pn, independent of alpha-beta.

        Returns (True: proved, False: disproved, None: budget spent; nodes). Its table
        (``2**tt_bits`` entries of 32 bytes, by default the size's alpha-beta table) is
        cleared at each call.
        """
        self._check(position)
        if NativeSearch._active is not self:
            self._install()
        me, op, black = self.boards(position)
        assert _native is not None
        attacks = position.to_move == attacker
        bits = tt_bits or self.tt_bits
        result, nodes = _native.dfpn(me, op, black, attacks, bits, node_limit, timeout or 0.0)
        return (None if result < 0 else bool(result)), nodes

    def _check(self, position: Any) -> None:
        if position.n != self.n or position.pie:
            raise InvalidOptionError(
                f"invalid position for this search: expected {self.n}x{self.n} without a "
                f"pending swap, got {position.fen()!r}"
            )
        if position.game.win != ("orthodiagonal" if self.diagonal else "orthogonal"):
            raise InvalidOptionError(f"invalid win rule for this search: {position.game.win!r}")
        if position.outcome() is not None:
            raise InvalidOptionError(f"invalid position: the game is over, got {position.fen()!r}")

    def stats(self) -> dict[str, int]:
        """Counters of the C search and the table's fill (a scan of the whole table)."""
        assert _native is not None
        return dict(_native.stats())

    def move(self, point: int) -> Move | None:
        if point == -2:
            return PASS
        if point < 0:
            return None
        return Move(point % self.n, point // self.n)

    def solve(
        self,
        position: Any,
        *,
        node_limit: int = 0,
        timeout: float | None = None,
        progress: Callable[[int], object] | None = None,
        every: int = 1 << 24,
    ) -> NativeResult:
        """The value of a non-terminal ``position`` (``unknown`` when the budget runs out).

        In distance mode ``plies`` is the number of plies to the end with best play
        (fastest win, longest defence).
        """
        self._check(position)
        if NativeSearch._active is not self:
            self._install()
        me, op, black = self.boards(position)
        assert _native is not None
        bound = WIN_SCORE if self.distance else 1
        value, point, nodes, status = _native.solve(
            me, op, black, -bound, bound, node_limit, timeout or 0.0, progress, every
        )
        if status != 0:
            return NativeResult("unknown", None, nodes)
        plies = WIN_SCORE - abs(value) if self.distance and value else None
        word = "win" if value > 0 else "loss" if value < 0 else "draw"
        return NativeResult(word, self.move(point), nodes, plies)


_SEARCHES: dict[tuple[int, bool, bool], NativeSearch] = {}


def reset() -> None:
    """Forget every cached search (and so its transposition table)."""
    _SEARCHES.clear()
    NativeSearch._active = None


def default_tt_bits(n: int) -> int:
    """A table that suits the size: small boards need (and clear) far fewer entries.

    >>> [default_tt_bits(n) for n in (2, 3, 4, 5, 8)]
    [12, 12, 18, 22, 22]
    """
    return {2: 12, 3: 12, 4: 18}.get(n, DEFAULT_TT_BITS)


def search_for(
    n: int, diagonal: bool = False, tt_bits: int | None = None, distance: bool = False
) -> NativeSearch:
    """The cached search of one size, win rule and mode (its table survives between calls)."""
    if tt_bits is None:
        tt_bits = default_tt_bits(n)
    key = (n, diagonal, distance)
    found = _SEARCHES.get(key)
    if found is None or found.tt_bits != tt_bits:
        found = _SEARCHES[key] = NativeSearch(n, diagonal, tt_bits, distance)
    return found


def solve(position: Any, *, distance: bool = False, **kwargs: Any) -> NativeResult:
    """Solve a Minefield position with the cached native search of its size."""
    diagonal = position.game.win == "orthodiagonal"
    return search_for(position.n, diagonal, distance=distance).solve(position, **kwargs)


def _score(found: NativeResult, distance: bool) -> int:
    sign = {"win": 1, "loss": -1, "draw": 0}[found.value]
    if not distance or not sign:
        return sign
    assert found.plies is not None
    return sign * (WIN_SCORE - found.plies)


def solve_any(
    position: Any,
    *,
    distance: bool = False,
    node_limit: int = 0,
    timeout: float | None = None,
    progress: Callable[[int], object] | None = None,
) -> NativeResult:
    """:func:`solve`, also for a position whose swap is still pending.

    The C search knows no pie rule: the (at most two) plies where a swap is possible
    are searched here, each child without a pending swap by the C search.

    >>> from boardproof.models import get
    >>> if available():
    ...     found = solve_any(get("minefield").parse_position("2/2 b p"), distance=True)
    ...     print(found.value, found.plies)
    ... else:
    ...     print("loss 4")
    loss 4
    """
    if not position.pie:
        return solve(position, distance=distance, node_limit=node_limit, timeout=timeout,
                     progress=progress)  # fmt: skip
    import time

    deadline = None if timeout is None else time.perf_counter() + timeout
    best: tuple[int, Move | None] | None = None
    nodes = 0
    for move in position.legal_moves():
        child = position.play(move)
        outcome = child.outcome()
        if outcome is not None:
            won = position.to_move in outcome.winners
            value = (WIN_SCORE - 1 if distance else 1) if won else 0
        else:
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0:
                return NativeResult("unknown", None, nodes)
            found = solve_any(child, distance=distance, node_limit=node_limit, timeout=left,
                              progress=progress)  # fmt: skip
            nodes += found.nodes
            if found.value == "unknown":
                return NativeResult("unknown", None, nodes)
            value = _score(found, distance)
            if child.to_move != position.to_move:  # a swap keeps the colour to move
                value = -value
            if distance and value:
                value -= 1 if value > 0 else -1
        if best is None or value > best[0]:
            best = (value, move)
    assert best is not None
    value, move = best
    word = "win" if value > 0 else "loss" if value < 0 else "draw"
    plies = WIN_SCORE - abs(value) if distance and value else None
    return NativeResult(word, move, nodes, plies)


def principal_line(position: Any, *, distance: bool = True, limit: int = 200) -> list[Move]:
    """Best moves from ``position`` to the end of the game (both sides' choices)."""
    line: list[Move] = []
    while position.outcome() is None and len(line) < limit:
        found = solve_any(position, distance=distance)
        if found.best_move is None:
            break
        line.append(found.best_move)
        position = position.play(found.best_move)
    return line


def win_oracle(player: int) -> Callable[[Any], int | None]:
    """``f(position)``: plies of ``player``'s fastest forced win, or None (no forced win).

    For :func:`boardproof.solvers.proof.build_proof`; the proof it builds is checked by
    the rules-only checker, which never calls this search.
    """

    def plies(position: Any) -> int | None:
        outcome = position.outcome()
        if outcome is not None:
            return 0 if player in outcome.winners and len(outcome.winners) == 1 else None
        found = solve_any(position, distance=True)
        wins = found.value == ("win" if position.to_move == player else "loss")
        return found.plies if wins else None

    return plies
