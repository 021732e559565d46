"""Re-verify a puzzle without trusting the generator.

:func:`check_puzzle` checks, in order (the first failure is the reason given):

1. the format: ``format``/``version``, a game that has puzzles, its options;
2. the notation: the position parses, is written canonically, is not finished,
   ``to_move`` is its side to move; the solution and every PV move are legal and
   canonical; the PV starts with the solution, has ``plies`` moves and ends in a
   win for the side to move;
3. the proof: :func:`boardproof.solvers.proof.check_proof` (rules only) accepts
   it, it proves a win for ``to_move`` from ``position``, its first move is the
   solution and its longest line has at most ``plies`` plies (so the solution
   really wins in ``plies``); a version 2 puzzle's ``strategy`` instead
   (:mod:`boardproof.puzzles.compact`): :func:`boardproof.solvers.strategy.check_strategy`
   (rules only) accepts it from ``position`` for ``to_move`` within ``plies`` plies, and
   its first move is the solution;
4. uniqueness, re-proved by :func:`forced_win`, a plain AND/OR search over the
   rules that shares no code with the solvers: after every other first move,
   the side to move has no forced win within ``plies - 1`` plies; and after the
   solution none within ``plies - 3`` (``plies`` is the exact distance);
5. the bookkeeping: ``duals`` (when not null) lists exactly the plies of the main
   line where the winner has another move that also wins in time, ``rating`` is
   the formula of :mod:`boardproof.puzzles.rating` applied to its stated inputs
   with the true number of legal moves, and the ``source`` line (when given)
   leads from its start to the position.

A ColleXion puzzle (``objective`` ``"score"``, see :mod:`boardproof.models.collexion.puzzles`)
is checked by :func:`verify_score` instead: the format, the notation of every turn
and of the line, then every legal turn's value re-proved by :func:`exact_values`, a
plain memoised minimax over the rules (no pruning, no solver code): ``values`` must
be exactly those, the best turn unique up to the ways of writing it (``solutions``),
``score`` and ``margin`` right, the line optimal at every turn, and the rating the
formula's.

>>> from boardproof.testing.games import subtraction
>>> forced_win(subtraction(5, 3), 0, 3), forced_win(subtraction(5, 3), 0, 2)
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boardproof import models
from boardproof.models.base import BoardproofError, Game, Position
from boardproof.puzzles.rating import rate
from boardproof.puzzles.store import FORMAT, VERSION, VERSION_COMPACT
from boardproof.solvers.proof import ProofError, check_proof
from boardproof.solvers.strategy import StrategyError, check_strategy, unpack

#: the most positions the uniqueness search may visit for one puzzle
MAX_CHECK_NODES = 3_000_000


class PuzzleCheckError(Exception):
    """Why a puzzle is wrong (the message is one line)."""


class SearchTooLarge(Exception):  # noqa: N818 - a control-flow signal
    """The uniqueness search went past its node limit."""


@dataclass
class CheckResult:
    """The verdict on one puzzle."""

    ident: str
    ok: bool
    message: str
    nodes: int = 0


def _only_winner(pos: Position, player: int) -> bool:
    outcome = pos.outcome()
    return outcome is not None and outcome.winners == frozenset((player,))


class _AndOr:
    """Does ``player`` force a win within ``plies`` plies? Rules only, memoised."""

    def __init__(self, player: int, max_nodes: int) -> None:
        self.player = player
        self.max_nodes = max_nodes
        self.nodes = 0
        self.memo: dict[tuple[Position, int], bool] = {}
        #: per remaining depth, the reply that refuted last time (tried first)
        self.killers: dict[int, Any] = {}

    def wins(self, pos: Position, plies: int) -> bool:
        outcome = pos.outcome()
        if outcome is not None:
            return outcome.winners == frozenset((self.player,))
        if plies <= 0:
            return False
        key = (pos, plies)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise SearchTooLarge
        moves = list(pos.legal_moves())
        if pos.to_move == self.player:
            children = [pos.play(m) for m in moves]
            result = any(_only_winner(c, self.player) for c in children) or (
                plies > 1 and any(self.wins(c, plies - 1) for c in children)
            )
        else:
            killer = self.killers.get(plies)
            if killer in moves:
                moves.remove(killer)
                moves.insert(0, killer)
            result = True
            for move in moves:
                if not self.wins(pos.play(move), plies - 1):
                    self.killers[plies] = move
                    result = False
                    break
        self.memo[key] = result
        return result


def forced_win(
    position: Position, player: int, plies: int, max_nodes: int = MAX_CHECK_NODES
) -> bool:
    """Whether ``player`` can force a win from ``position`` within ``plies`` plies.

    Raises SearchTooLarge past ``max_nodes`` positions.
    """
    return _AndOr(player, max_nodes).wins(position, plies)


def _game_of(data: dict[str, Any]) -> Game:
    name = data.get("game")
    if not isinstance(name, str):
        raise PuzzleCheckError("field 'game' is missing")
    try:
        key = models.canonical_name(name)
    except BoardproofError as error:
        raise PuzzleCheckError(str(error)) from None
    if models.info(key).puzzles is None:
        raise PuzzleCheckError(f"puzzles are not available for {key}")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise PuzzleCheckError(f"field 'options' is not an object: {options!r}")
    try:
        return models.get(key, **options)
    except BoardproofError as error:
        raise PuzzleCheckError(str(error)) from None


def _field(data: dict[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise PuzzleCheckError(f"field {name!r} is missing or has the wrong type: {value!r}")
    return value


def _number_is(value: Any, expected: int) -> bool:
    """``value`` is the integer ``expected``: not ``3.0`` nor ``True`` (which equal 3 and 1).

    >>> _number_is(3, 3), _number_is(3.0, 3), _number_is(True, 1)
    (True, False, False)
    """
    return type(value) is int and value == expected


def _move(pos: Position, text: str, what: str) -> Any:
    try:
        move = pos.parse_move(text)
    except BoardproofError as error:
        raise PuzzleCheckError(f"{what}: {error}") from None
    if move not in pos.legal_moves():
        raise PuzzleCheckError(f"{what}: illegal move {text!r} in {pos.fen()!r}")
    if str(move) != text:
        raise PuzzleCheckError(f"{what}: not canonical notation (expected {str(move)!r}): {text!r}")
    return move


def _longest_line(proof: dict[str, Any]) -> int:
    nodes = {node["id"]: node for node in proof["nodes"]}
    height: dict[int, int] = {}
    stack = [0]
    while stack:
        top = stack[-1]
        pending = [c for c in nodes[top]["moves"].values() if c not in height]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        height[top] = 1 + max((height[c] for c in nodes[top]["moves"].values()), default=-1)
    return height[0]


class _Minimax:
    """Exact final score difference for the side to move: plain memoised minimax."""

    def __init__(self, max_nodes: int) -> None:
        self.max_nodes = max_nodes
        self.memo: dict[Position, int] = {}

    def value(self, pos: Position) -> int:
        known = self.memo.get(pos)
        if known is not None:
            return known
        outcome = pos.outcome()
        if outcome is not None:
            scores = outcome.scores or (0, 0)
            result = int(scores[pos.to_move]) - int(scores[1 - pos.to_move])
        else:
            if len(self.memo) >= self.max_nodes:
                raise SearchTooLarge
            result = max(self.of_child(pos, pos.play(m)) for m in pos.legal_moves())
        self.memo[pos] = result
        return result

    def of_child(self, pos: Position, child: Position) -> int:
        """The value of ``child`` for the side to move in ``pos``."""
        value = self.value(child)
        return value if child.to_move == pos.to_move else -value


def exact_values(position: Position, max_nodes: int = MAX_CHECK_NODES) -> dict[str, int]:
    """The exact value (final score difference for the mover) of every legal turn.

    >>> from boardproof import models
    >>> game = models.get("collexion")
    >>> pos = game.parse_position("base 1:g8,2:y3 g3.g4.g5:-:-/-:-:- 234/234/234/234 1")
    >>> sorted(exact_values(pos).items())
    [('1/g', 3), ('2', -3)]
    """
    search = _Minimax(max_nodes)
    return {str(m): search.of_child(position, position.play(m)) for m in position.legal_moves()}


def _puzzle_position(data: dict[str, Any], game: Game) -> Position:
    """The puzzle's ``position``: parsed, in canonical notation, not over, with the
    ``to_move`` the puzzle says (raises PuzzleCheckError naming the field)."""
    text = _field(data, "position", str)
    try:
        pos = game.parse_position(text)
    except BoardproofError as error:
        raise PuzzleCheckError(f"position: {error}") from None
    if pos.fen() != text:
        raise PuzzleCheckError(
            f"position: not canonical notation (expected {pos.fen()!r}): {text!r}"
        )
    if pos.outcome() is not None:
        raise PuzzleCheckError(f"position: the game is already over: {text!r}")
    symbol = game.symbol(pos.to_move)
    if data.get("to_move") != symbol:
        raise PuzzleCheckError(
            f"to_move: the position has {symbol!r} to move, got {data.get('to_move')!r}"
        )
    return pos


def verify_score(data: dict[str, Any], game: Game, max_nodes: int = MAX_CHECK_NODES) -> int:
    """Check a "best turn" puzzle of a two-player score game; returns positions searched."""
    if data.get("objective") != "score":
        raise PuzzleCheckError(f"objective: expected 'score', got {data.get('objective')!r}")
    pos = _puzzle_position(data, game)
    if getattr(pos, "num_players", 2) != 2:
        raise PuzzleCheckError(f"position: a score puzzle needs two players: {data['position']!r}")
    solution = _field(data, "solution", str)
    _move(pos, solution, "solution")
    solutions = _field(data, "solutions", list)
    pv = _field(data, "pv", list)
    if data.get("plies") != len(pv) or not pv or pv[0] != solution:
        raise PuzzleCheckError(
            f"pv: expected {data.get('plies')!r} moves starting with {solution}, got {pv!r}"
        )
    search = _Minimax(max_nodes)
    try:
        values = {str(m): search.of_child(pos, pos.play(m)) for m in pos.legal_moves()}
        if data.get("values") != values:
            raise PuzzleCheckError(f"values: expected {values!r}, got {data.get('values')!r}")
        best_child = pos.play(pos.parse_move(solution))
        best = values[solution]
        same = [str(m) for m in pos.legal_moves() if pos.play(m) == best_child]
        if solutions != same:
            raise PuzzleCheckError(f"solutions: expected {same!r}, got {solutions!r}")
        others = [v for t, v in values.items() if t not in same]
        if not others:
            raise PuzzleCheckError("not unique: there is no other turn")
        if max(values.values()) != best:
            raise PuzzleCheckError(f"solution: {solution} scores {best}, not the best")
        margin = best - max(others)
        if margin < 1:
            better = [t for t, v in values.items() if v >= best and t not in same]
            raise PuzzleCheckError(f"not unique: {better[0]} also scores {best}")
        if not _number_is(data.get("score"), best) or not _number_is(data.get("margin"), margin):
            raise PuzzleCheckError(
                f"score: expected score {best} and margin {margin}, got "
                f"{data.get('score')!r} and {data.get('margin')!r}"
            )
        here = pos
        for number, move_text in enumerate(pv, start=1):
            if here.outcome() is not None:
                raise PuzzleCheckError(f"pv: the game is over before move {number}")
            if not isinstance(move_text, str):
                raise PuzzleCheckError(f"pv: move {number} is not a string: {move_text!r}")
            child = here.play(_move(here, move_text, f"pv move {number}"))
            top = max(search.of_child(here, here.play(m)) for m in here.legal_moves())
            if search.of_child(here, child) != top:
                raise PuzzleCheckError(f"pv: move {number} {move_text} is not a best turn")
            here = child
        if here.outcome() is None:
            raise PuzzleCheckError("pv: the line does not reach the end of the game")
    except SearchTooLarge:
        raise PuzzleCheckError(f"values: not re-proved within {max_nodes} positions") from None
    rating = _field(data, "rating", dict)
    distinct = len({pos.play(m) for m in pos.legal_moves()})
    try:
        expected = rate(1, distinct, int(rating["decoys"]), int(rating["nodes"]))
    except (KeyError, TypeError, ValueError, OverflowError):  # OverflowError: an infinity
        raise PuzzleCheckError(f"rating: missing inputs: {rating!r}") from None
    if rating != expected:
        raise PuzzleCheckError(f"rating: expected {expected!r}, got {rating!r}")
    return len(search.memo)


def verify(data: dict[str, Any], max_nodes: int = MAX_CHECK_NODES) -> int:
    """Check one puzzle; raises PuzzleCheckError with the reason. Returns search nodes."""
    if data.get("format") != FORMAT:
        raise PuzzleCheckError(f"expected format {FORMAT!r}, got {data.get('format')!r}")
    version = data.get("version")
    if not (_number_is(version, VERSION) or _number_is(version, VERSION_COMPACT)):
        raise PuzzleCheckError(
            f"unsupported version: expected {VERSION} or {VERSION_COMPACT}, got {version!r}"
        )
    game = _game_of(data)
    if models.info(game.name).objective == "score":
        if version != VERSION:
            raise PuzzleCheckError(f"unsupported version: a score puzzle is version {VERSION}, "
                                   f"got {version!r}")  # fmt: skip
        return verify_score(data, game, max_nodes)
    pos = _puzzle_position(data, game)
    player = pos.to_move
    symbol = game.symbol(player)
    plies = _field(data, "plies", int)
    if plies < 1:
        raise PuzzleCheckError(f"plies: expected a number >= 1, got {plies!r}")
    solution_text = _field(data, "solution", str)
    solution = _move(pos, solution_text, "solution")
    pv = _field(data, "pv", list)
    if len(pv) != plies or not pv or pv[0] != solution_text:
        raise PuzzleCheckError(
            f"pv: expected {plies} moves starting with the solution {solution_text}, got {pv!r}"
        )
    line_pos = pos
    for number, move_text in enumerate(pv, start=1):
        if line_pos.outcome() is not None:
            raise PuzzleCheckError(f"pv: the game is over before move {number}: {move_text!r}")
        if not isinstance(move_text, str):
            raise PuzzleCheckError(f"pv: move {number} is not a string: {move_text!r}")
        line_pos = line_pos.play(_move(line_pos, move_text, f"pv move {number}"))
    if not _only_winner(line_pos, player):
        raise PuzzleCheckError(f"pv: the line does not end in a win for {symbol}: {pv!r}")

    if version == VERSION_COMPACT:
        _check_strategy(data, pos, plies, solution_text)
    else:
        _check_tree(data, game, pos, plies, solution_text)

    search = _AndOr(player, max_nodes)
    try:
        for move in pos.legal_moves():
            if move != solution and search.wins(pos.play(move), plies - 1):
                raise PuzzleCheckError(f"not unique: {move} also wins within {plies} plies")
        # and "win in N" is exact: the solution does not already win within N - 2
        if plies >= 3 and search.wins(pos.play(solution), plies - 3):
            raise PuzzleCheckError(f"plies: {solution_text} already wins within {plies - 2} plies")
    except SearchTooLarge:
        raise PuzzleCheckError(f"uniqueness: not re-proved within {max_nodes} positions") from None

    duals = data.get("duals")
    if duals is not None:
        _check_duals(pos, pv, player, plies, duals, search)
    rating = _field(data, "rating", dict)
    try:
        expected = rate(plies, len(pos.legal_moves()), int(rating["decoys"]), int(rating["nodes"]))
    except (KeyError, TypeError, ValueError, OverflowError):  # OverflowError: an infinity
        raise PuzzleCheckError(f"rating: missing inputs: {rating!r}") from None
    if rating != expected:
        raise PuzzleCheckError(f"rating: expected {expected!r}, got {rating!r}")
    source = data.get("source")
    if isinstance(source, dict) and "start" in source:
        _check_source(game, pos, source)
    return search.nodes


def _check_tree(data: dict[str, Any], game: Game, pos: Position, plies: int,
                solution_text: str) -> None:  # fmt: skip
    """Step 3 for a version 1 puzzle: its proof tree."""
    symbol = game.symbol(pos.to_move)
    proof = _field(data, "proof", dict)
    try:
        report = check_proof(proof, game=game)
    except ProofError as error:
        raise PuzzleCheckError(f"proof: {error}") from None
    except BoardproofError as error:
        raise PuzzleCheckError(f"proof: {error}") from None
    if report.root != pos.fen() or report.winner != symbol:
        raise PuzzleCheckError(
            f"proof: it proves a win for {report.winner} from {report.root!r}, "
            f"not for {symbol} from the puzzle"
        )
    root_moves = list(proof["nodes"][0]["moves"]) if proof["nodes"] else []
    if root_moves != [solution_text]:
        raise PuzzleCheckError(f"proof: its first move is not the solution: {root_moves!r}")
    longest = _longest_line(proof)
    if longest > plies:
        raise PuzzleCheckError(f"proof: its longest line has {longest} plies, more than {plies}")


def _check_strategy(data: dict[str, Any], pos: Position, plies: int,
                    solution_text: str) -> None:  # fmt: skip
    """Step 3 for a version 2 puzzle: its compact strategy, from the puzzle's position."""
    if "proof" in data:
        raise PuzzleCheckError(f"proof: a version {VERSION_COMPACT} puzzle carries its proof "
                               "in 'strategy', not 'proof'")  # fmt: skip
    strategy: Any = data.get("strategy")
    try:
        tokens = unpack(strategy)
        if tokens[:1] != [solution_text]:
            raise PuzzleCheckError(f"strategy: its first move is not the solution "
                                   f"{solution_text}: {tokens[:1]!r}")  # fmt: skip
        check_strategy(pos, pos.to_move, tokens, plies, positions=strategy["positions"])
    except StrategyError as error:
        raise PuzzleCheckError(str(error)) from None


def _check_duals(
    pos: Position, pv: list[str], player: int, plies: int, stated: Any, search: _AndOr
) -> None:
    """``duals`` lists the plies of the main line where the winner has another winning move."""
    found: list[int] = []
    here = pos
    try:
        for index, text in enumerate(pv):
            move = here.parse_move(text)
            if index > 0 and here.to_move == player:
                others = (m for m in here.legal_moves() if m != move)
                if any(search.wins(here.play(m), plies - index - 1) for m in others):
                    found.append(index + 1)
            here = here.play(move)
    except SearchTooLarge:
        raise PuzzleCheckError("duals: not re-proved within the node limit") from None
    if stated != found:
        raise PuzzleCheckError(f"duals: expected {found!r}, got {stated!r}")


def _check_source(game: Game, pos: Position, source: dict[str, Any]) -> None:
    line = source.get("line") or []
    if not isinstance(line, list):
        raise PuzzleCheckError(f"source: field 'line' is not a list of moves: {line!r}")
    try:
        here = game.parse_position(str(source["start"]))
        for number, text in enumerate(line, start=1):
            here = here.play(_move(here, str(text), f"source move {number}"))
    except BoardproofError as error:
        raise PuzzleCheckError(f"source: {error}") from None
    if here != pos:
        raise PuzzleCheckError(f"source: the line reaches {here.fen()!r}, not the position")


def check_puzzle(data: dict[str, Any], number: int = 1) -> CheckResult:
    """The verdict on one puzzle object (never raises for a bad puzzle)."""
    ident = str(data.get("id") or f"#{number}")
    try:
        nodes = verify(data)
    except PuzzleCheckError as error:
        return CheckResult(ident, False, str(error))
    except BoardproofError as error:  # an illegal move met while replaying
        return CheckResult(ident, False, str(error))
    plies = data["plies"]
    if data.get("objective") == "score":
        return CheckResult(
            ident,
            True,
            f"{data['game']} player {data['to_move']}: best turn {data['solution']} scores "
            f"{data['score']:+d}, every other turn at least {data['margin']} less "
            f"(re-proved over {nodes} positions)",
            nodes,
        )
    if data.get("version") == VERSION_COMPACT:
        strategy = data["strategy"]
        proved = f"strategy {strategy['listed']} entries, {strategy['positions']} positions"
    else:
        proved = f"proof {len(data['proof']['nodes'])} positions"
    return CheckResult(
        ident,
        True,
        f"{data['game']} {data['to_move']} wins in {plies}: {data['solution']} ({proved}, "
        f"uniqueness {nodes} positions)",
        nodes,
    )
