"""Native (C) Candy Conquest: move generation, line test, perft and the exact search.

The C module (``_candy``, built from ``candy.c`` when the package is installed; optional)
gets its tables from :mod:`boardproof.models.candy.rules` (socket sizes, the shapes of
the 12 orientations, what each square state accepts, the lines through each square, the
staircase steps) and codes the rules that read them: the placements and pass rule of the
player to move, shape visibility and the line test after a placement, and a bulk perft.
On top of them, :func:`win_within`: the plies of a player's fastest forced win (against
all the other players as one coalition) if at most a given number, the question of
:func:`boardproof.puzzles.generate.win_within`, by a C AND/OR search with a table keyed
by the board's 8 symmetries. :func:`solve` answers the question of ``solve`` (method
``native``, and ``auto`` where the module is built) with it: who forces a win, in how many
plies, the best move and line. The tests check the rules against the model and both
searches against the Python search.

>>> from boardproof.models.candy.rules import make_game
>>> pos = make_game().start(players=3)
>>> if available():
...     print(len(legal_moves(pos)), perft(pos, 2))
... else:
...     print(150, 21900)
150 21900
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boardproof.models.base import InvalidOptionError, check_range
from boardproof.models.candy import rules as model
from boardproof.solvers.common import Budget, SearchTimeout, Stop
from boardproof.solvers.native import MAX_NODES, check_ranges

try:  # the compiled module is optional (no C compiler: the package installs without it)
    from boardproof.models.candy.native import _candy as _native  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _native = None

_installed = False


def available() -> bool:
    """Whether the compiled module was built (a C compiler at install time)."""
    return _native is not None


def accepts(position: Any) -> bool:
    """Whether :func:`solve` takes ``position`` (a Candy Conquest position, module built)."""
    return available() and position.game.name == "candy"


def install() -> None:
    """Hand the model's tables to the C module (once per process)."""
    global _installed
    if _native is None:
        raise InvalidOptionError(
            "invalid option method native: the C module was not built (no compiler?)"
        )
    if _installed:
        return
    _native.setup(
        tuple(int(b) for b in model.LARGE_SOCKET),
        tuple(int(b) for b in model.BOTTOM_LARGE),
        tuple(int(b) for b in model.TOP_LARGE),
        model.TOP_TYPE,
        model.KIND_OF,
        model.ACCEPTED,
        model.SEGMENTS_AT,
        (0, *model.STAIRCASE_STEPS),
    )
    _installed = True


def _columns(cols: Any) -> tuple[bytes, ...]:
    return tuple(bytes(column) for column in cols)


def legal_moves(position: model.CandyPosition) -> tuple[model.CandyMove, ...]:
    """The C move generator's moves (for the tests: equal to ``position.legal_moves()``)."""
    install()
    assert _native is not None
    if position.outcome() is not None:  # a line on the board: the C side does not look
        return ()
    found = _native.moves(_columns(position.cols), position.to_move, position.players)
    return tuple(model.PASS if sq < 0 else model._MOVE_TABLE[sq][code] for sq, code in found)


def wins_at(cols: Any, square: int, colour: int) -> bool:
    """The C line test: :func:`boardproof.models.candy.rules.wins_at`."""
    install()
    assert _native is not None
    return bool(_native.wins_at(_columns(cols), square, colour))


def perft(position: model.CandyPosition, depth: int) -> int:
    """Leaves of the legal-move tree of ``depth`` plies, counted by the C module."""
    install()
    assert _native is not None
    if depth == 0:
        return 1
    if position.outcome() is not None:
        return 0
    return int(_native.perft(_columns(position.cols), position.to_move, position.players, depth))


#: default table of :func:`win_within`: 2**bits entries of 24 bytes (2**18 -> 6 MiB),
#: cleared when a call starts (and kept from one depth to the next)
DEFAULT_TT_BITS = 18

# The ranges of the C module (candy.c refuses anything else with a ValueError): checked
# here, before any search, as InvalidOptionError naming the parameter. MAX_NODES (the
# node limit, unsigned 64-bit, 0: none) is that of every C search.
#: the deepest search of the C module (``win_within``'s plies)
MAX_PLIES = 250
#: the tables the C module takes: 2**bits entries
MIN_TT_BITS, MAX_TT_BITS = 4, 28
#: the ranges of the C module's options
RANGES = {"plies": (0, MAX_PLIES), "tt_bits": (MIN_TT_BITS, MAX_TT_BITS),
          "node_limit": (0, MAX_NODES)}


def check_search(plies: int | None = None, tt_bits: int | None = None,
                 node_limit: int | None = None) -> None:
    """Raise InvalidOptionError unless the given options are in the C module's ranges
    (``plies`` 0 to MAX_PLIES, ``tt_bits`` MIN_TT_BITS to MAX_TT_BITS, ``node_limit`` 0 to
    MAX_NODES).

    >>> check_search(plies=999)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    boardproof...InvalidOptionError: invalid option plies: expected 0 to 250 (...), got 999
    """
    check_ranges(RANGES, plies=plies, tt_bits=tt_bits, node_limit=node_limit)


def win_within(
    position: model.CandyPosition,
    player: int,
    plies: int,
    *,
    node_limit: int = 0,
    timeout: float | None = None,
    tt_bits: int = DEFAULT_TT_BITS,
) -> int | None:
    """Plies of ``player``'s fastest forced win from ``position`` if at most ``plies``
    (0: it has won already), else None; raises ``SearchTimeout`` when ``node_limit``
    nodes (of one depth's search) or ``timeout`` seconds (of each) run out.
    ``plies``, ``tt_bits`` and ``node_limit`` outside the C module's ranges
    (:func:`check_search`), or a ``player`` who does not play, raise InvalidOptionError.
    """
    check_search(plies, tt_bits, node_limit)
    check_range("player", player, 0, position.players - 1, "the players of the position")
    install()
    assert _native is not None
    outcome = position.outcome()
    if outcome is not None:
        return 0 if outcome.winners == frozenset((player,)) else None
    raw = _columns(position.cols)
    for depth in range(1, plies + 1):
        result, _, _, _, _ = _native.win_within(
            raw, position.to_move, position.players, player, depth, tt_bits, node_limit,
            timeout or 0.0, depth > 1,
        )  # fmt: skip
        if result < 0:
            raise SearchTimeout(f"no answer within the budget at depth {depth}")
        if result == 1:
            return depth
    return None


def win_oracle(player: int, horizon: int) -> Any:
    """``f(position)``: plies of ``player``'s fastest forced win if at most ``horizon``, else
    None (:func:`win_within`), for :func:`boardproof.solvers.proof.build_proof` on a win of
    ``horizon`` plies (every position of its proof is that close to the end). The proof it
    builds is checked by the rules-only checker, which never calls this search."""

    check_search(plies=horizon)  # refused now, not at the first position

    def plies(position: model.CandyPosition) -> int | None:
        return win_within(position, player, horizon, tt_bits=ORACLE_TT_BITS)

    return plies


#: the oracle's table: 2**16 entries (cleared for each position)
ORACLE_TT_BITS = 16


# ---------------------------------------------------------------------------
# solve: the question of boardproof.solvers.api.solve, answered by win_within
# ---------------------------------------------------------------------------

#: solve's table: 2**20 entries of 24 bytes (24 MiB), cleared when a solve starts
SOLVE_TT_BITS = 20


#: the nodes of a search for the others' forced line (3-4 players, see ``others_win``): a
#: 1/OTHERS_SHARE of the player's own search of that depth (its nodes cost ~10x more: most
#: are the others' nodes, each testing all its placements for a line), at least
#: OTHERS_MIN_NODES
OTHERS_SHARE = 8
OTHERS_MIN_NODES = 20_000


class _OutOfBudget(Exception):  # noqa: N818 - control flow
    """The node or time budget of the solve ran out."""


@dataclass
class Answer:
    """What :func:`solve` established, for the side to move (``SolveResult``'s fields)."""

    value: str
    winner: int | None
    plies: int | None
    best_move: model.CandyMove | None
    pv: list[model.CandyMove]
    nodes: int
    #: plies searched for every player without finding a win
    depth: int
    note: str = ""
    #: why it stopped unsettled (``Stop``: time, nodes, plies); None when settled
    stopped: str | None = None


class _Searcher:
    """The C calls of one solve: one table (kept from call to call), one budget."""

    def __init__(self, budget: Budget, symmetry: bool, tt_bits: int) -> None:
        install()
        self.budget = budget
        self.symmetry = symmetry
        self.tt_bits = tt_bits
        self.nodes = 0
        self.keep = False
        #: the principal line while it is built (what is kept if the budget runs out)
        self.line_so_far: list[model.CandyMove] = []

    def ask(
        self, pos: model.CandyPosition, attacker: int, plies: int, cap: int = 0
    ) -> tuple[int, Any, bool]:
        """(1 or 0, the root's deciding move or None, complete) of win_within at ``plies``
        (attacker -1 - p: all players but p); with ``cap``, a search that needs more nodes
        answers (-1, None, False)."""
        assert _native is not None
        budget = self.budget
        limit = 0
        if budget.node_limit is not None:
            limit = budget.node_limit - self.nodes
            if limit <= 0:
                raise _OutOfBudget
        capped = bool(cap) and (not limit or cap < limit)
        if capped:
            limit = cap
        limit = min(limit, MAX_NODES)  # more is no limit either (the C count is 64-bit)
        seconds = 0.0
        if budget.deadline is not None:
            seconds = budget.deadline - _now()
            if seconds <= 0:
                raise _OutOfBudget
        result, nodes, sq, code, complete = _native.win_within(
            _columns(pos.cols), pos.to_move, pos.players, attacker, plies, self.tt_bits, limit,
            seconds, self.keep, self.symmetry, self.nodes,
        )  # fmt: skip
        self.keep = True
        self.nodes += nodes
        if result < 0 and capped and nodes >= cap:
            return -1, None, False
        if result < 0:
            raise _OutOfBudget
        move = None if sq == -2 else model.PASS if sq == -1 else model._MOVE_TABLE[sq][code]
        return result, move, bool(complete)

    def others_win(self, pos: model.CandyPosition, player: int, plies: int, cap: int) -> bool:
        """Whether the players other than ``player`` force a line of one of them within
        ``plies`` (then ``player`` has no win at any depth), searched with at most
        ``cap // OTHERS_SHARE`` nodes (at least ``OTHERS_MIN_NODES``): a longer search
        leaves it open."""
        limit = max(cap // OTHERS_SHARE, OTHERS_MIN_NODES)
        return self.ask(pos, -1 - player, plies, limit)[0] == 1

    def distance(self, pos: model.CandyPosition, attacker: int, plies: int) -> bool:
        """Whether ``attacker`` wins within ``plies`` (a line on the board: it has won)."""
        outcome = pos.outcome()
        if outcome is not None:
            return outcome.winners == frozenset((attacker,))
        return plies > 0 and self.ask(pos, attacker, plies)[0] == 1


def _now() -> float:
    import time

    return time.perf_counter()


def solve(
    position: model.CandyPosition,
    *,
    max_plies: int | None = None,
    budget: Budget | None = None,
    symmetry: bool = True,
    tt_bits: int = SOLVE_TT_BITS,
) -> Answer:
    """Who forces a win from ``position`` (not over), in how many plies: the question of
    :func:`boardproof.solvers.api.solve` on Candy Conquest, answered by deepening
    :func:`win_within` one ply at a time for each player (the side to move first, then
    the others by index). The first win found is the fastest (at most one player can
    force a line against all the others). A player has no win at any depth when its search
    met no horizon, or (3-4 players) when the others, as one side, force a line of one of
    them: as the alpha-beta proves it (the coalition's win). ``draw``: no player has a win.
    ``unknown``: the budget ran out, or no win within ``max_plies``.

    >>> from boardproof.models.candy.rules import parse_position
    >>> pos = parse_position("2Os,2sO,2Os,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./1Os,1sO,1Os,.,. 1 2")
    >>> if available():
    ...     answer = solve(pos)
    ...     print(answer.value, answer.plies, answer.best_move, answer.pv)
    ... else:
    ...     print("win 1 oS@d1 [oS@d1]")
    win 1 oS@d1 [oS@d1]
    """
    check_search(tt_bits=tt_bits)
    if position.outcome() is not None:
        raise InvalidOptionError(f"invalid position: the game is over, got {position.fen()!r}")
    search = _Searcher(budget if budget is not None else Budget(None), symmetry, tt_bits)
    mover, players = position.to_move, position.players
    open_players = [mover, *(p for p in range(players) if p != mover)]
    limit = MAX_PLIES if max_plies is None else min(max_plies, MAX_PLIES)
    depth = 0
    whom = "either side" if players == 2 else "any player"
    try:
        while depth < limit and open_players:
            target = depth + 1
            for attacker in list(open_players):
                before = search.nodes
                result, move, complete = search.ask(position, attacker, target)
                if result == 1:
                    return _won(search, position, attacker, target, move)
                if complete or (players > 2 and search.others_win(
                    position, attacker, target, search.nodes - before
                )):  # fmt: skip
                    open_players.remove(attacker)  # it has no win at any depth
            depth = target
    except _OutOfBudget:
        note = f"no forced win for {whom} within {depth} plies (stopped by the time or node budget)"
        return Answer("unknown", None, None, None, [], search.nodes, depth, note,
                      search.budget.stop_reason(search.nodes))  # fmt: skip
    if not open_players:
        return _drawn(search, position, depth)
    note = f"no forced win for {whom} within {depth} plies"
    return Answer("unknown", None, None, None, [], search.nodes, depth, note, Stop.PLIES)


def _won(
    search: _Searcher, position: model.CandyPosition, winner: int, plies: int, move: Any
) -> Answer:
    """``winner`` forces a line in exactly ``plies``: the answer with its best move and line."""
    # the line has a budget of its own (the solve's table is kept): it is no harder than
    # the search that found the win, and the answer does not wait for it past that
    cap = max(LINE_FACTOR * search.nodes, LINE_MIN_NODES)
    liner = _Searcher(Budget(None, cap), search.symmetry, search.tt_bits)
    liner.keep = True
    try:
        line = principal_line(liner, position, winner, plies, move)
    except _OutOfBudget:  # the line is a help, not the answer: keep what was found
        line = liner.line_so_far
    best = line[0] if line else move
    value = "win" if winner == position.to_move else "loss"
    return Answer(value, winner, plies, best, line, search.nodes + liner.nodes, plies - 1)


#: the principal line's searches: at most this many times the solve's nodes (and at least
#: LINE_MIN_NODES)
LINE_FACTOR = 4
LINE_MIN_NODES = 2_000_000


def principal_line(
    search: _Searcher, position: model.CandyPosition, winner: int, plies: int, first: Any
) -> list[model.CandyMove]:
    """The winner's fastest moves and the others' longest defences (the first legal move,
    in canonical order, that keeps the exact distance), until the line; ``first``: the
    winner's first move when it moves at the root (from the search)."""
    line: list[model.CandyMove] = []
    search.line_so_far = line
    pos, left = position, plies
    while pos.outcome() is None and left > 0:
        if pos.to_move == winner:
            move = first if first is not None and not line else search.ask(pos, winner, left)[1]
        else:  # the first defence after which the win still takes left - 1 plies
            move = next((m for m in pos.legal_moves()
                         if not search.distance(pos.play(m), winner, left - 2)), None)  # fmt: skip
        if move is None:  # (not met: the distance is exact)
            break
        line.append(move)
        pos, left = pos.play(move), left - 1
    return line


def _drawn(search: _Searcher, position: model.CandyPosition, depth: int) -> Answer:
    """No player can force a win: the best move is the first one after which no other
    player can force one, else the first after which the first other player cannot."""
    others = [p for p in range(position.players) if p != position.to_move]
    best = fallback = None
    try:
        for move in position.legal_moves():
            child = position.play(move)
            kept = [p for p in others if _no_win_ever(search, child, p, depth)]
            if kept == others:
                best = move
                break
            if fallback is None and kept[:1] == others[:1]:
                fallback = move
    except _OutOfBudget:
        pass
    best = best if best is not None else fallback
    note = "no player can force a win against the others"
    return Answer("draw", None, None, best, [best] if best is not None else [], search.nodes,
                  depth, note)  # fmt: skip


def _no_win_ever(search: _Searcher, pos: model.CandyPosition, player: int, depth: int) -> bool:
    """Whether ``player`` has no forced win from ``pos`` at any depth (a search of ``depth``
    plies that met no horizon, or the others' forced line, says so)."""
    outcome = pos.outcome()
    if outcome is not None:
        return player not in outcome.winners
    result, _, complete = search.ask(pos, player, max(depth, 1))
    if result == 0 and complete:
        return True
    return pos.players > 2 and search.others_win(pos, player, max(depth, 1), 0)


# ---------------------------------------------------------------------------
# the puzzle miner's proofs (candy_strategy.h)
# ---------------------------------------------------------------------------


@dataclass
class Strategy:
    """A compact proof built in C: the strategy's tokens, the positions its walk meets,
    the principal line (notation) and the searches the Python path would have counted."""

    tokens: list[str]
    positions: int
    line: list[str]
    searches: int


#: the C statuses of ``strategy`` that are not a proof
TOO_LARGE, INCONSISTENT, OUT_OF_BUDGET = 1, 2, 3
#: the token flags of the C side: "move=" and "="
_SAME_AFTER, _SAME_ONLY = 1 << 12, 1 << 13


def _text(code: int) -> str:
    return str(model.PASS if code == _PASS_CODE else model._MOVE_TABLE[code // 12][code % 12])


_PASS_CODE = model.SQUARE_COUNT * 12


def strategy(
    position: model.CandyPosition,
    first: model.CandyMove,
    plies: int,
    *,
    node_limit: int,
    tt_bits: int,
    max_positions: int,
    seconds: float = 0.0,
) -> Strategy:
    """The compact proof that the player to move wins ``position`` within ``plies`` plies
    with the first move ``first``, as the puzzle miner's Python path makes it
    (:func:`boardproof.puzzles.mining.proof_tree`, then
    :func:`~boardproof.solvers.strategy.from_proof` and
    :func:`~boardproof.solvers.strategy.check_strategy`; candy_strategy.h says how): the
    same tokens, positions, principal line and count of searches. Raises
    :class:`~boardproof.solvers.proof.ProofTooLarge` past ``max_positions`` positions,
    ``SearchTimeout`` when a search runs out of ``node_limit`` nodes or the ``seconds``
    (0: none) run out, AssertionError if the searches disagree (never seen).
    """
    from boardproof.solvers.proof import ProofTooLarge

    check_search(plies, tt_bits, node_limit)
    install()
    assert _native is not None
    code = _PASS_CODE if first.square == model.PASS_SQUARE else first.square * 12 + first.code
    status, tokens, positions, line, searches = _native.strategy(
        _columns(position.cols), position.to_move, position.players, plies, code, node_limit,
        tt_bits, max_positions, seconds,
    )  # fmt: skip
    if status == TOO_LARGE:
        raise ProofTooLarge(f"more than {max_positions} positions")
    if status == OUT_OF_BUDGET:
        raise SearchTimeout("the native search ran out of nodes or time")
    if status != 0:
        raise AssertionError("the native searches disagree")
    texts = [
        "=" if token == _SAME_ONLY else _text(token & 0xFFF) + ("=" if token & _SAME_AFTER else "")
        for token in tokens
    ]
    return Strategy(texts, int(positions), [_text(c) for c in line], int(searches))
