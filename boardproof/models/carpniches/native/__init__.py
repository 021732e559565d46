"""Native (C) alpha-beta for Carpniches: the search of :mod:`boardproof.solvers.search`.

The C module (``_carpniches``, built from ``carpniches.c`` when the package is
installed; optional) gets the board geometry from :mod:`boardproof.models.carpniches`
(its step tables, line masks and symmetries) and implements the rules that use it and
the same negamax as :class:`boardproof.solvers.search.AlphaBeta`: distance scores,
win-first move ordering, a transposition table over the 8 symmetries, iterative
deepening, and repetitions scored as draws whose results are never stored as exact
(a proved win never relies on a repetition). The tests check its moves and perft
counts against the model and its values against the Python search.

:class:`NativeAlphaBeta` has the interface of ``AlphaBeta`` that the solvers use
(``iterate``, ``nodes``) and returns the same :class:`~boardproof.solvers.search.SearchResult`.

>>> from boardproof.models.carpniches import parse_position
>>> pos = parse_position("(cpc)4p/3p2/6/4c1/6/(pcp)4(cpc) c -")
>>> if available():
...     found = NativeAlphaBeta(pos, tt_bits=12).iterate(5)
...     print(found.value, found.plies, [str(m) for m in found.pv])
... else:
...     print("win 3 ['a6-d3', 'a1-d1', 'a1-c3']")
win 3 ['a6-d3', 'a1-d1', 'a1-c3']
"""

from __future__ import annotations

from typing import Any

from boardproof.models.base import InvalidOptionError
from boardproof.models.carpniches import rules as model
from boardproof.solvers.common import Budget
from boardproof.solvers.native import MAX_NODES, check_ranges
from boardproof.solvers.search import WIN, SearchResult, deepen, describe

try:  # the compiled module is optional (no C compiler: the package installs without it)
    from boardproof.models.carpniches.native import _carpniches as _native  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _native = None

#: default transposition table: 2**bits entries of 48 bytes (2**22 -> 192 MiB)
DEFAULT_TT_BITS = 22

# The ranges of the C module, checked here before any search (InvalidOptionError naming
# the parameter): carpniches.c refuses other table sizes with a ValueError, takes a depth
# as a C int (a larger number: OverflowError) and stops looking at its path array's end
# (512 plies); MAX_NODES (the node limit, unsigned 64-bit, 0: none) is that of every C
# search.
#: the deepest search the C module takes (its path array holds 512 plies)
MAX_DEPTH = 500
#: the tables the C module takes: 2**bits entries
MIN_TT_BITS, MAX_TT_BITS = 4, 30
#: the ranges of the C module's options
RANGES = {"depth": (0, MAX_DEPTH), "tt_bits": (MIN_TT_BITS, MAX_TT_BITS),
          "node_limit": (0, MAX_NODES)}
#: the scores of search.py (the C module uses the same)
INF = 10_000_000

_installed: tuple[int, bool] | None = None


def available() -> bool:
    """Whether the compiled module was built (a C compiler at install time)."""
    return _native is not None


def supports(position: Any) -> bool:
    """Whether the native search takes ``position``: a Carpniches position, module built."""
    return available() and getattr(position.game, "name", None) == "carpniches"


def check_search(depth: int | None = None, tt_bits: int | None = None,
                 node_limit: int | None = None) -> None:
    """Raise InvalidOptionError unless the given options are in the C module's ranges
    (``depth`` 0 to MAX_DEPTH, ``tt_bits`` MIN_TT_BITS to MAX_TT_BITS, ``node_limit`` 0 to
    MAX_NODES).

    >>> check_search(tt_bits=31)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    boardproof...InvalidOptionError: invalid option tt_bits: expected 4 to 30 (...), got 31
    """
    check_ranges(RANGES, depth=depth, tt_bits=tt_bits,
                 node_limit=node_limit)


def install(tt_bits: int = DEFAULT_TT_BITS, symmetry: bool = True) -> None:
    """Hand the model's tables to the C module (once per table size and symmetry mode)."""
    global _installed
    if _native is None:
        raise InvalidOptionError(
            "invalid option method native: the C module was not built (no compiler?)"
        )
    check_search(tt_bits=tt_bits)
    if _installed == (tt_bits, symmetry):
        return
    _native.setup(
        model.EXACT,
        model.FIRST_STEPS,
        model._START_RIGHT,
        model._START_LEFT,
        model.SYMMETRY,
        tt_bits,
        symmetry,
    )
    _installed = (tt_bits, symmetry)


def _raw(position: model.CarpnichesPosition) -> tuple[int, ...]:
    return tuple(position)


def legal_moves(position: model.CarpnichesPosition) -> list[model.CarpnichesMove]:
    """The C move generator's moves (for the tests: equal to ``position.legal_moves()``)."""
    if _installed is None:
        install()
    assert _native is not None
    return [model.MOVES[f][t] for f, t in _native.moves(_raw(position))]


def terminal(position: model.CarpnichesPosition) -> int:
    """The C end-of-game test: 0 not over, 1 the side to move has won, -1 it has lost."""
    if _installed is None:
        install()
    assert _native is not None
    return int(_native.terminal(_raw(position)))


def perft(position: model.CarpnichesPosition, depth: int) -> int:
    """Leaves of the legal-move tree of ``depth`` plies, counted by the C module."""
    if _installed is None:
        install()
    assert _native is not None
    return int(_native.perft(_raw(position), depth))


class NativeAlphaBeta:
    """Iterative-deepening native alpha-beta from ``root`` (its table is cleared first).

    Only one search is active per process (the C module has one table).
    """

    def __init__(
        self,
        root: Any,
        *,
        budget: Budget | None = None,
        tt_bits: int = DEFAULT_TT_BITS,
        symmetry: bool = True,
    ) -> None:
        if getattr(root.game, "name", None) != "carpniches":
            raise InvalidOptionError(
                "invalid option method native: it solves Minefield and Carpniches only, "
                f"got {root.fen()!r}"
            )
        install(tt_bits, symmetry)
        assert _native is not None
        _native.clear()
        self.root = root
        self.budget = budget if budget is not None else Budget(None)
        self.nodes = 0
        self.horizon = 0
        self.reps = 0

    def _counters(self) -> None:
        assert _native is not None
        self.nodes, self.horizon, self.reps = _native.counters()

    def _limits(self) -> tuple[int, float]:
        budget = self.budget
        nodes = min(budget.node_limit or 0, MAX_NODES)  # more is no limit either
        seconds = 0.0
        if budget.deadline is not None:
            import time

            seconds = max(budget.deadline - time.perf_counter(), 1e-6)
        return nodes, seconds

    def search(self, depth: int, alpha: int = -INF, beta: int = INF) -> int | None:
        """The root's score searched ``depth`` plies (None when the budget ran out)."""
        check_search(depth=depth)
        assert _native is not None
        nodes, seconds = self._limits()
        value, status = _native.search(_raw(self.root), depth, alpha, beta, nodes, seconds)
        self._counters()
        return None if status else int(value)

    def table_move(self, position: model.CarpnichesPosition) -> model.CarpnichesMove | None:
        """The transposition table's move for ``position`` (None without an entry)."""
        assert _native is not None
        entry = _native.probe(_raw(position))
        if entry is None or entry[4] == entry[5]:
            return None
        move = model.MOVES[entry[4]][entry[5]]
        return move if move in position.legal_moves() else None

    def iterate(self, max_depth: int | None = None, distance: bool = True) -> SearchResult:
        """Deepen one ply at a time until the root is proved, ``max_depth`` or the budget.

        As ``AlphaBeta._deepen``: proved when the score is a win or a loss, or when no
        horizon was met (a draw by repetition). ``distance`` is accepted for the
        interface; the deepening always finds the exact distance.
        """
        root = self.root
        outcome = root.outcome()
        if outcome is not None:
            value = WIN if root.to_move in outcome.winners else -WIN
            return SearchResult(describe(value)[0], 0, None, [], 1, 0, True, False, score=value)
        limit = MAX_DEPTH if max_depth is None else min(max_depth, MAX_DEPTH)
        return deepen(self, limit, self.search, lambda: self.table_move(root))

    def principal_variation(self, first: Any, limit: int | None) -> list[Any]:
        """The line of best moves from the root, read from the table (no repeated position)."""
        if first is None:
            return []
        pv = [first]
        seen = {self.root}
        pos = self.root.play(first)
        cap = limit if limit is not None else 64
        while len(pv) < cap and pos.outcome() is None and pos not in seen:
            seen.add(pos)
            move = self.table_move(pos)
            if move is None:
                break
            pv.append(move)
            pos = pos.play(move)
        return pv
