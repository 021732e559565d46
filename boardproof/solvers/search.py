"""Alpha-beta search over the game protocol: win/loss/draw with distances, and scores.

:class:`AlphaBeta` is a negamax alpha-beta search with a bounded transposition
table, iterative deepening over plies, win-first move ordering (an immediate win
ends a node; then the table's move, then the history heuristic) and
distance-to-end scoring: a win in ``d`` plies is worth ``WIN - d`` (the fastest
win is preferred, the loser picks the longest defence).

Multi-player games are searched as "player P against the coalition of all the
others": P's nodes maximise P's value, every other player's node minimises it.

Repeated positions. A position already on the current path scores 0 (a draw)
and marks the result of every node above it as *path-dependent*. Such a result
is never stored as exact: a win score (> 0) can only come from a tree whose
leaves are all wins, so it is stored as a lower bound (a loss score as an upper
bound); anything else is not stored. A proved win therefore never relies on a
repetition. At the root, the first-repetition-is-a-draw value is the true value
of the game where endless play is a draw: a winner can always win without
repeating a position.

A node is *complete* when its search met no horizon; an iteration whose root is
complete has proved its value, draws included.

>>> from boardproof.testing.games import subtraction
>>> search = AlphaBeta(subtraction(7, 3))
>>> result = search.iterate()
>>> result.value, result.plies, str(result.best_move)
('win', 3, '3')
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from boardproof.models.base import CANONICAL, SUCCESSORS, WINNER, Position, Successors, offers
from boardproof.solvers.common import (
    Budget,
    SearchTimeout,
    Stop,
    find_move,
    key_function,
    num_players,
    raw_key,
    symmetric_key,
    terminal_sign,
)

WIN = 1_000_000
#: scores at least this large (in absolute value) are proved wins or losses
WIN_MIN = WIN // 2
INF = 10 * WIN

EXACT, LOWER, UPPER = 0, 1, 2
#: without a cheap ``canonical()`` hook, symmetric keys are used this many plies deep
SYMMETRY_PLIES = 4
#: nodes of iterative deepening tried on a cyclic game before one unbounded pass
DEEPEN_FIRST_NODES = 100_000
#: the depth of an unbounded search (deeper than any game without repetitions here)
FULL_DEPTH = 100_000

#: allocations between two young-generation garbage collections while a search runs
GC_THRESHOLD = 100_000

#: entries of the transposition table: (depth, flag, value, move, complete)
Entry = tuple[int, int, int, Any, bool]


#: a pruning bound: ``prune(position, plies_left, attacker)`` is True when ``attacker``
#: provably cannot win within ``plies_left`` plies
PruneFn = Callable[[Any, int, int], bool]

#: a move filter: ``moves(position)`` is a non-empty subset of the legal moves (while the
#: game goes on) that holds every move not proved to lose for the side to move, so a best
#: move of it whatever the position's value; with the same distances (the longest defence
#: of a lost position kept) the searches' distances stay exact too. E.g.
#: :func:`boardproof.models.minefield.knowledge.move_filter`
MoveFilter = Callable[[Any], Sequence[Any]]


class TranspositionTable:
    """A bounded table: two generations of at most ``capacity`` entries each.

    When the new generation is full it becomes the old one and the previous old
    generation is dropped, so recently used entries survive.

    >>> tt = TranspositionTable(2)
    >>> for k in "abc":
    ...     tt.put(k, k.upper())
    >>> tt.get("a"), tt.get("c"), len(tt)
    ('A', 'C', 3)
    >>> tt.put("d", "D"); tt.put("e", "E")
    >>> tt.get("a") is None
    True
    """

    def __init__(self, capacity: int = 1 << 21) -> None:
        self.capacity = max(1, capacity)
        self.new: dict[Hashable, Any] = {}
        self.old: dict[Hashable, Any] = {}

    def get(self, key: Hashable) -> Any:
        entry = self.new.get(key)
        if entry is None:
            entry = self.old.get(key)
        return entry

    def put(self, key: Hashable, entry: Any) -> None:
        if len(self.new) >= self.capacity and key not in self.new:
            self.old = self.new
            self.new = {}
        self.new[key] = entry

    def __len__(self) -> int:
        return len(self.new) + len(self.old)


def to_tt(value: int, ply: int) -> int:
    """A root-relative score as a node-relative one (win distances from the node)."""
    if value >= WIN_MIN:
        return value + ply
    if value <= -WIN_MIN:
        return value - ply
    return value


def from_tt(value: int, ply: int) -> int:
    """Inverse of :func:`to_tt`."""
    if value >= WIN_MIN:
        return value - ply
    if value <= -WIN_MIN:
        return value + ply
    return value


def describe(value: int) -> tuple[str, int | None]:
    """A root score as (``win``/``loss``/``draw``, plies).

    >>> describe(WIN - 3), describe(-(WIN - 4)), describe(0)
    (('win', 3), ('loss', 4), ('draw', None))
    """
    if value >= WIN_MIN:
        return "win", WIN - value
    if value <= -WIN_MIN:
        return "loss", WIN + value
    return "draw", None


@dataclass
class SearchResult:
    """What an alpha-beta run established about the root.

    ``value`` is ``win``/``loss``/``draw`` for the side to move when proved
    (``proved``), otherwise ``unknown`` and ``depth`` says how many plies were
    searched without finding a win for either side.
    """

    value: str
    plies: int | None
    best_move: Any
    pv: list[Any]
    nodes: int
    depth: int
    proved: bool
    timed_out: bool
    score: int = 0
    repetitions: int = 0
    note: str = ""
    iterations: list[tuple[int, int, int]] = field(default_factory=list)
    #: why it stopped unproved (:class:`~boardproof.solvers.common.Stop`); None if proved
    #: (or, for a proved value without its distance, why the distance is missing)
    stopped: str | None = None


class AlphaBeta:
    """Negamax alpha-beta for "the side to move (or ``player``) wins".

    ``symmetry`` canonicalises table keys over the board symmetries (two-player
    games only, see :func:`boardproof.solvers.common.key_function`).

    ``prune(position, plies_left, attacker) -> bool`` is an optional sound bound
    (True: ``attacker`` cannot win within ``plies_left`` plies, not even if helped),
    e.g. :func:`boardproof.models.carpniches.proofs.cp.prune` or
    :func:`boardproof.models.candy.bound.prune`. At a node with ``depth`` in
    ``prune_depths`` plies left: if ``beta <= 0`` and the opponent cannot win, the
    true value is >= 0 >= beta and the node fails high with the bound 0; if
    ``alpha >= 0`` and the side to move cannot win, it fails low with 0. Either way
    the subtree is skipped and the node counts as reaching the horizon (nothing
    built on it is marked complete). Answers are cached by (position, depth, player).

    ``moves`` is an optional :data:`MoveFilter` searched instead of every legal move
    (game knowledge: both players' nodes are pruned, sound by the filter's contract).
    """

    def __init__(
        self,
        root: Position,
        *,
        player: int | None = None,
        tt_capacity: int = 1 << 21,
        budget: Budget | None = None,
        symmetry: bool = True,
        prune: PruneFn | None = None,
        prune_depths: Iterable[int] = (3, 4),
        moves: MoveFilter | None = None,
    ) -> None:
        self.root = root
        #: the move filter (None: every legal move)
        self.moves = moves
        self.quick_winner = offers(root.game, WINNER)
        #: the pruning bound (None: none), its plies-left set and its statistics
        self.prune = prune
        self.prune_depths = frozenset(prune_depths)
        self.pruned = 0
        self.prune_calls = 0
        self._prune_cache: dict[tuple[Any, int, int], bool] = {}
        if prune is not None:
            self.search = self._pruned_search  # type: ignore[method-assign]
        self.players = num_players(root)
        self.player = root.to_move if player is None else player
        self.keyfn = key_function(root, symmetry)
        #: plies (from the search root) where symmetric keys are used: everywhere when
        #: the game has a ``canonical()`` hook, else near the root only, where a
        #: symmetric duplicate saves a whole subtree and the transforms are few
        if self.keyfn is raw_key:
            self.sym_plies = 0
        elif offers(root.game, CANONICAL):
            self.sym_plies = FULL_DEPTH
        else:
            self.sym_plies = SYMMETRY_PLIES
        #: the hook itself, called directly on the hot path (same keys as ``keyfn``)
        self.canonical = self.keyfn is symmetric_key and self.sym_plies == FULL_DEPTH
        self.tt = TranspositionTable(tt_capacity)
        self.budget = budget if budget is not None else Budget(None)
        self.nodes = 0
        self.horizon = 0
        self.reps = 0
        self.path: set[Hashable] = set()
        self.history: dict[Any, int] = {}
        self.etc = True
        #: set while :meth:`prove` runs unbounded: a cyclic game needs deepening instead
        self.abort_on_repetition = False
        #: whether a cyclic game, once deepening gives up, gets one unbounded pass
        #: (``solve(method="auto")`` first tries the enumeration of a small graph)
        self.unbounded_pass = True
        self.use_killers = True
        self.killers: dict[int, Any] = {}

    # -- the search -----------------------------------------------------------------

    def _cannot_win(self, pos: Position, depth: int, player: int) -> bool:
        key = (pos.key(), depth, player)
        cut = self._prune_cache.get(key)
        if cut is None:
            assert self.prune is not None
            self.prune_calls += 1
            cut = bool(self.prune(pos, depth, player))
            self._prune_cache[key] = cut
        return cut

    def _pruned_search(self, pos: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        """:meth:`search` with the ``prune`` bound tried first (see the class)."""
        if depth in self.prune_depths and (beta <= 0 or alpha >= 0) and pos.outcome() is None:
            mover = pos.to_move
            if (beta <= 0 and self._cannot_win(pos, depth, 1 - mover)) or (
                alpha >= 0 and self._cannot_win(pos, depth, mover)
            ):
                self.nodes += 1
                self.horizon += 1
                self.pruned += 1
                return 0
        return AlphaBeta.search(self, pos, depth, alpha, beta, ply)

    def _terminal_value(self, pos: Position, outcome: Any, ply: int) -> int:
        sign = terminal_sign(outcome, self.player, self.players)
        if pos.to_move != self.player:
            sign = -sign
        return sign * (WIN - ply)

    def search(self, pos: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The score of ``pos`` for its side to move, searched ``depth`` plies deep.

        Scores are root-relative: ``WIN - d`` is a win ``d`` plies after the root.
        """
        self.nodes += 1
        if not self.nodes & 255:
            self.budget.check(self.nodes)
        outcome = pos.outcome()
        if outcome is not None:
            return self._terminal_value(pos, outcome, ply)
        if depth <= 0:
            self.horizon += 1
            return 0
        raw = pos.key()
        if raw in self.path:
            self.reps += 1
            if self.abort_on_repetition:
                raise _Repetition
            return 0
        if self.canonical:
            key, sym = pos.canonical()  # type: ignore[attr-defined]
        elif ply < self.sym_plies:
            key, sym = self.keyfn(pos)
        else:
            key, sym = raw, 0
        tt = self.tt
        entry: Entry | None = tt.new.get(key)  # TranspositionTable.get, inlined
        if entry is None:
            entry = tt.old.get(key)
        stored_move = None
        if entry is not None:
            e_depth, flag, stored, stored_move, complete = entry
            if complete or e_depth >= depth:
                value = from_tt(stored, ply)
                if (
                    flag == EXACT
                    or (flag == LOWER and value >= beta)
                    or (flag == UPPER and value <= alpha)
                ):
                    if not complete:
                        self.horizon += 1
                    return value

        mover = pos.to_move
        my_side = mover == self.player
        children = []
        quick = self.quick_winner
        moves = self.moves
        for move in pos.legal_moves() if moves is None else moves(pos):
            child = pos.play(move)
            if not quick or child.winner() is not None:  # type: ignore[attr-defined]
                child_outcome = child.outcome()
                if child_outcome is not None:
                    sign = terminal_sign(child_outcome, self.player, self.players)
                    if sign != 0 and (sign > 0) == my_side:
                        # win first: an immediate win is the best move there is
                        self.nodes += 1
                        value = WIN - ply - 1
                        self.tt.put(
                            key,
                            (depth, EXACT, to_tt(value, ply), _canon_move(pos, move, sym), True),
                        )
                        return value
            children.append((move, child))

        if depth > 1 and self.etc:
            # enhanced transposition cutoff: a child already known to refute the window
            cut = self._etc(children, depth - 1, beta, ply + 1, my_side)
            if cut is not None:
                return cut

        first = find_move(pos, stored_move, sym) if stored_move is not None else None
        history = self.history
        killer = self.killers.get(ply) if self.use_killers else None
        hist = history
        children.sort(key=lambda mc: (mc[0] != first, mc[0] != killer, -hist.get(mc[0], 0)))

        alpha_orig = alpha
        reps0, horizon0 = self.reps, self.horizon
        best = -INF
        best_move = None
        self.path.add(raw)
        try:
            for move, child in children:
                if (child.to_move == self.player) == my_side:
                    value = self.search(child, depth - 1, alpha, beta, ply + 1)
                else:
                    value = -self.search(child, depth - 1, -beta, -alpha, ply + 1)
                if value > best:
                    best, best_move = value, move
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            hist[move] = hist.get(move, 0) + depth * depth
                            self.killers[ply] = move
                            break
        finally:
            self.path.discard(raw)

        flag = UPPER if best <= alpha_orig else LOWER if best >= beta else EXACT
        path_dependent = self.reps != reps0
        complete = not path_dependent and self.horizon == horizon0
        if path_dependent:
            # only a win score (or a loss score) is a true bound here
            if best >= WIN_MIN and flag != UPPER:
                flag = LOWER
            elif best <= -WIN_MIN and flag != LOWER:
                flag = UPPER
            else:
                return best
        if abs(best) >= WIN_MIN and (flag == EXACT or path_dependent):
            complete = True  # a proved win/loss does not depend on the depth
        self.tt.put(
            key, (depth, flag, to_tt(best, ply), _canon_move(pos, best_move, sym), complete)
        )
        return best

    def key_at(self, pos: Position, ply: int) -> tuple[Hashable, int]:
        """The table key of ``pos`` searched ``ply`` plies below the root, and its symmetry.

        Raw and symmetric keys can share the table: a symmetric key is the key of
        a real position with the same value for its side to move.
        """
        return self.keyfn(pos) if ply < self.sym_plies else (pos.key(), 0)

    def _etc(
        self, children: list[tuple[Any, Position]], depth: int, beta: int, ply: int, my_side: bool
    ) -> int | None:
        canonical = self.canonical
        path = self.path
        get = self.tt.get
        for _, child in children:
            raw = child.key()
            if raw in path:
                continue
            if canonical:
                entry = get(child.canonical()[0])  # type: ignore[attr-defined]
            else:
                entry = get(self.key_at(child, ply)[0] if ply < self.sym_plies else raw)
            if entry is None:
                continue
            e_depth, flag, stored, _, complete = entry
            if not (complete or e_depth >= depth):
                continue
            value = from_tt(stored, ply)
            if (child.to_move == self.player) == my_side:
                # same side: the child's lower bound is ours
                if flag != UPPER and value >= beta:
                    bound = value
                else:
                    continue
            elif flag != LOWER and -value >= beta:
                bound = -value
            else:
                continue
            if not complete:
                self.horizon += 1
            return bound
        return None

    # -- drivers --------------------------------------------------------------------

    def value(self, pos: Position, depth: int) -> int:
        """Full-window score of ``pos`` searched ``depth`` plies (node-relative)."""
        self.path = set()
        return self.search(pos, depth, -INF, INF, 0)

    def prove(self, depth: int = FULL_DEPTH) -> SearchResult:
        """Who wins, without the distance: two null-window searches to ``depth``.

        Much cheaper than exact distances: the winner's first winning move ends a node.
        """
        root = self.root
        outcome = root.outcome()
        if outcome is not None:
            value = self._terminal_value(root, outcome, 0)
            return SearchResult(describe(value)[0], 0, None, [], 1, 0, True, False, score=value)
        horizon0 = self.horizon
        label = "unknown"
        timed_out = False
        try:
            self.path = set()
            value = self.search(root, depth, 0, 1, 0)
            if value >= WIN_MIN:
                label = "win"
            else:
                self.path = set()
                value = self.search(root, depth, -1, 0, 0)
                if value <= -WIN_MIN:
                    label = "loss"
                elif self.horizon == horizon0:
                    label = "draw"
        except SearchTimeout:
            timed_out = True
        except RecursionError:
            if self.abort_on_repetition:
                raise _Repetition from None  # too deep for one pass: deepen instead
            timed_out = True
        proved = label != "unknown"
        best_move = None
        if proved:
            key, sym = self.key_at(root, 0)
            entry = self.tt.get(key)
            best_move = find_move(root, entry[3], sym) if entry is not None else None
        note = ""
        stopped = None
        if not proved:
            note = (
                "stopped by the time or node budget"
                if timed_out
                else (f"no forced win for either side within {depth} plies")
            )
            stopped = self.budget.stop_reason(self.nodes) if timed_out else Stop.PLIES
        return SearchResult(
            label,
            None,
            best_move,
            self.principal_variation(best_move, None) if proved else [],
            self.nodes,
            depth,
            proved,
            timed_out,
            repetitions=self.reps,
            note=note,
            stopped=stopped,
        )

    def iterate(self, max_depth: int | None = None, distance: bool = True) -> SearchResult:
        """Iterative deepening until the root is proved, the depth limit or the budget.

        Without ``max_depth``, :meth:`prove` settles the value first; with
        ``distance`` the exact distance is then found by iterative deepening (if
        the budget allows; otherwise ``plies`` stays None and the note says so).
        """
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, 20_000))
        # the search allocates millions of small acyclic objects (positions, keys, table
        # entries): collect cycles less often while it runs (5-15% faster on Minefield 4x4)
        old_threshold = gc.get_threshold()
        gc.set_threshold(max(old_threshold[0], GC_THRESHOLD), *old_threshold[1:])
        try:
            return self._iterate(max_depth, distance)
        finally:
            sys.setrecursionlimit(old_limit)
            gc.set_threshold(*old_threshold)

    def _iterate(self, max_depth: int | None, distance: bool) -> SearchResult:
        if max_depth is None:
            # unbounded null-window search is the fastest way to settle a finite game;
            # a game whose positions repeat may not be finite: deepen step by step there
            self.abort_on_repetition = True
            try:
                first = self.prove()
            except _Repetition:
                # the table keeps only results of finished nodes: still sound
                self.abort_on_repetition = False
                return self._cyclic()
            self.abort_on_repetition = False
            if not distance or not first.proved or first.value == "draw":
                return first
            exact = self._deepen(None)
            if exact.proved:
                return exact
            first.nodes = self.nodes
            first.timed_out = True
            first.note = "the value is proved; the distance was not found within the budget"
            first.stopped = self.budget.stop_reason(self.nodes)
            return first
        return self._deepen(max_depth)

    def _cyclic(self) -> SearchResult:
        """A game with repetitions: deepen first (short wins), then one unbounded pass.

        Deepening finds short wins fast but may never finish a drawn cyclic region;
        the unbounded pass (repetitions score 0) settles small graphs, draws included.
        """
        outer = self.budget
        inner = Budget(None, self.nodes + DEEPEN_FIRST_NODES)
        inner.deadline = outer.deadline
        if outer.node_limit is not None:
            inner.node_limit = min(outer.node_limit, inner.node_limit or outer.node_limit)
        self.budget = inner
        try:
            found = self._deepen(None)
        finally:
            self.budget = outer
        if found.proved or outer.expired(self.nodes) or not self.unbounded_pass:
            return found
        return self.prove()

    def _deepen(self, max_depth: int | None) -> SearchResult:
        root = self.root
        outcome = root.outcome()
        if outcome is not None:
            value = self._terminal_value(root, outcome, 0)
            label, _ = describe(value)
            return SearchResult(label, 0, None, [], 1, 0, True, False, score=value)

        def step(target: int) -> int | None:
            self.path = set()
            try:
                return self.search(root, target, -INF, INF, 0)
            except (SearchTimeout, RecursionError):
                return None

        def root_move() -> Any:
            key, sym = self.key_at(root, 0)
            entry = self.tt.get(key)
            return NO_ENTRY if entry is None else find_move(root, entry[3], sym)

        return deepen(self, max_depth, step, root_move)

    def principal_variation(self, first: Any, limit: int | None) -> list[Any]:
        """The line of best moves from the root, read from the transposition table."""
        if first is None:
            return []
        pv = [first]
        seen = {self.root.key()}
        pos = self.root.play(first)
        cap = limit if limit is not None else 64
        while len(pv) < cap and pos.outcome() is None and pos.key() not in seen:
            seen.add(pos.key())
            key, sym = self.key_at(pos, len(pv))
            entry = self.tt.get(key)
            move = find_move(pos, entry[3], sym) if entry is not None else None
            if move is None:
                break
            pv.append(move)
            pos = pos.play(move)
        return pv


#: what ``root_move`` of :func:`deepen` returns when the table has no entry for the root
NO_ENTRY = object()


class Deepening(Protocol):
    """What :func:`deepen` reads of a search (``AlphaBeta`` and the native Carpniches one)."""

    nodes: int
    horizon: int
    reps: int
    budget: Budget

    def principal_variation(self, first: Any, limit: int | None) -> list[Any]: ...


def deepen(
    search: Deepening,
    max_depth: int | None,
    step: Callable[[int], int | None],
    root_move: Callable[[], Any],
) -> SearchResult:
    """Iterative deepening of a non-terminal root, one ply at a time, until it is proved,
    ``max_depth`` or the budget; ``step(depth)`` searches to that depth (None: the budget
    ran out), ``root_move()`` reads the root's best move from the table (``NO_ENTRY``:
    keep the one of the last depth).

    Proved when the score is a win or a loss, or when no horizon was met (the whole game
    was seen: a draw by repetition).
    """
    depth = 0
    last_value = 0
    proved = False
    timed_out = False
    best_move: Any = None
    iterations: list[tuple[int, int, int]] = []
    while max_depth is None or depth < max_depth:
        target = depth + 1
        horizon0 = search.horizon
        value = step(target)
        if value is None:
            timed_out = True
            break
        depth = target
        last_value = value
        iterations.append((depth, value, search.nodes))
        found = root_move()
        if found is not NO_ENTRY:
            best_move = found
        if abs(value) >= WIN_MIN or search.horizon == horizon0:
            proved = True
            break
        if search.budget.expired(search.nodes):
            timed_out = True
            break
    stopped = None
    if proved:
        label, plies = describe(last_value)
        note = ""
    else:
        label, plies = "unknown", None
        last_value = 0
        note = f"no forced win for either side within {depth} plies"
        stopped = Stop.PLIES
        if timed_out:
            note += " (stopped by the time or node budget)"
            stopped = search.budget.stop_reason(search.nodes)
        best_move = best_move if depth else None
    pv = search.principal_variation(best_move, plies if proved else depth)
    return SearchResult(
        label,
        plies,
        best_move,
        pv,
        search.nodes,
        depth,
        proved,
        timed_out,
        score=last_value,
        repetitions=search.reps,
        note=note,
        iterations=iterations,
        stopped=stopped,
    )


class _Repetition(Exception):  # noqa: N818 - a control-flow signal
    """An unbounded :meth:`AlphaBeta.prove` met a repetition or went too deep."""


def _canon_move(pos: Position, move: Any, sym: int) -> Any:
    if move is None or sym == 0:
        return move
    return pos.transform_move(move, sym)


# ---------------------------------------------------------------------------
# score-valued games (two players): value = mover's score minus the opponent's
# ---------------------------------------------------------------------------


class ScoreSearch:
    """Exact alpha-beta on final score differences (two-player games with scores).

    A terminal position is worth ``scores[mover] - scores[other]`` for its side
    to move. Repetitions score 0 and results that met one are not stored; a
    horizon (``max_depth``) makes the result inexact and is reported.
    """

    def __init__(
        self, root: Position, *, tt_capacity: int = 1 << 21, budget: Budget | None = None
    ) -> None:
        if num_players(root) != 2:
            raise ValueError("score search needs a two-player game")
        self.root = root
        self.tt = TranspositionTable(tt_capacity)
        self.budget = budget if budget is not None else Budget(None)
        self.nodes = 0
        self.horizon = 0
        self.reps = 0
        self.path: set[Hashable] = set()
        #: children from ``position.successors()`` where the game offers it (the same
        #: moves in the same order as ``legal_moves`` and ``play``, cheaper)
        self.successors = offers(root.game, SUCCESSORS)
        self.canonical = offers(root.game, CANONICAL)

    @staticmethod
    def terminal(pos: Position, outcome: Any) -> int:
        scores = outcome.scores
        if scores is None:
            # a game without scores: a win is worth 1
            return terminal_sign(outcome, pos.to_move, 2)
        mover = pos.to_move
        return int(scores[mover]) - int(scores[1 - mover])

    def search(self, pos: Position, depth: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if not self.nodes & 255:
            self.budget.check(self.nodes)
        outcome = pos.outcome()
        if outcome is not None:
            return self.terminal(pos, outcome)
        if depth <= 0:
            self.horizon += 1
            return 0
        key = pos.key()
        if key in self.path:
            self.reps += 1
            return 0
        entry = self.tt.get(key)
        first = None
        if entry is not None:
            e_depth, flag, value, first, complete = entry
            if (complete or e_depth >= depth) and (
                flag == EXACT
                or (flag == LOWER and value >= beta)
                or (flag == UPPER and value <= alpha)
            ):
                if not complete:
                    self.horizon += 1
                return int(value)
        alpha_orig = alpha
        reps0, horizon0 = self.reps, self.horizon
        best, best_move = -INF, None
        self.path.add(key)
        try:
            for move, known in self._children(pos, first):
                child = pos.play(move) if known is None else known
                if child.to_move == pos.to_move:
                    value = self.search(child, depth - 1, alpha, beta)
                else:
                    value = -self.search(child, depth - 1, -beta, -alpha)
                if value > best:
                    best, best_move = value, move
                    alpha = max(alpha, value)
                    if alpha >= beta:
                        break
        finally:
            self.path.discard(key)
        if self.reps != reps0:
            return best
        flag = UPPER if best <= alpha_orig else LOWER if best >= beta else EXACT
        self.tt.put(key, (depth, flag, best, best_move, self.horizon == horizon0))
        return best

    def _children(self, pos: Position, first: Any) -> Iterator[tuple[Any, Position | None]]:
        """The moves in the search's order (the table's move ``first`` first if legal, then
        the others in the canonical order), each with its child where
        ``position.successors()`` gave it (None: ``play`` it). Where the table's keys are
        the positions themselves (no ``canonical`` hook), the table's move is legal here:
        it is played before the other children are made, which a cut-off then spares."""
        if not self.successors:
            moves = list(pos.legal_moves())
            if first in moves:
                moves.remove(first)
                moves.insert(0, first)
            yield from ((move, None) for move in moves)
            return
        if first is not None and not self.canonical:
            yield first, None
            listed = iter(cast(Successors, pos).successors())
            for move, child in listed:  # the first move equal to it is skipped
                if move == first:
                    break
                yield move, child
            yield from listed
            return
        if first is None:
            yield from cast(Successors, pos).successors()
            return
        children = list(cast(Successors, pos).successors())
        at = next((i for i, (move, _) in enumerate(children) if move == first), None)
        if at is not None:
            children.insert(0, children.pop(at))
        yield from children

    def solve(self, max_depth: int | None = None) -> SearchResult:
        """The exact score difference for the side to move (``proved``) or a bounded guess."""
        depth = max_depth if max_depth is not None else 10_000
        timed_out = False
        horizon0 = self.horizon
        try:
            value = self.search(self.root, depth, -INF, INF)
        except SearchTimeout:
            timed_out = True
            value = 0
        proved = not timed_out and self.horizon == horizon0 and self.reps == 0
        pv: list[Any] = []
        pos = self.root
        seen: set[Hashable] = set()
        while not timed_out and pos.outcome() is None and pos.key() not in seen:
            seen.add(pos.key())
            entry = self.tt.get(pos.key())
            if entry is None or entry[3] is None:
                break
            pv.append(entry[3])
            pos = pos.play(entry[3])
        stopped = None
        if proved:
            label = "win" if value > 0 else "loss" if value < 0 else "draw"
            note = f"final score difference {value:+d} for the side to move"
        else:
            label = "unknown"
            note = (
                "stopped by the time or node budget"
                if timed_out
                else f"best score difference within {depth} plies: {value:+d} (not a proof)"
            )
            stopped = self.budget.stop_reason(self.nodes) if timed_out else Stop.PLIES
        return SearchResult(
            label,
            len(pv) if proved else None,
            pv[0] if pv else None,
            pv,
            self.nodes,
            depth,
            proved,
            timed_out,
            score=value,
            repetitions=self.reps,
            note=note,
            stopped=stopped,
        )
