"""Proof certificates of forced wins: export as JSON, and an independent checker.

A proof that player W wins from a root position is a directed acyclic graph of
positions (transpositions share one node). Node 0 is the root. At a node where W
is to move the proof gives exactly one move; at any other player's node it gives
every legal reply; every leaf is a finished game won by W. Each node also states
its position, so a reader can follow it by hand::

    {"format": "boardproof-proof", "version": 1, "game": "minefield",
     "options": {}, "root": "3/3/3 b -", "winner": "b",
     "nodes": [{"id": 0, "position": "3/3/3 b -", "moves": {"b2": 1}}, ...]}

:func:`check_proof` re-checks a proof with the rules only (``parse_position``,
``legal_moves``, ``play``, ``outcome``): it never calls a solver. It raises
:class:`ProofError` naming the first bad node (depth-first from the root, moves
in the order written) and the moves that lead to it.

:func:`build_proof` writes a proof from exact win distances found by alpha-beta:
W always plays a move to a position with a strictly shorter forced win, so the
graph is acyclic and every line ends in a W win.

>>> from boardproof.testing.games import subtraction
>>> proof = build_proof(subtraction(5, 3), game_name="subtraction")
>>> len(proof["nodes"]), proof["winner"]
(6, 'a')
>>> check_proof(proof, game=subtraction(5, 3).game).nodes
6
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from boardproof.models.base import BoardproofError, Game, Position
from boardproof.solvers.common import num_players

FORMAT = "boardproof-proof"
VERSION = 1


class ProofError(BoardproofError):
    """A proof that does not prove what it claims (or is not a proof file)."""


class NotAProofError(ProofError):
    """Data that is not a proof at all (bad input), as opposed to a proof that fails."""


def load_proof(path: str) -> Any:
    """The JSON data of the proof file ``path``; NotAProofError if it is not JSON text.
    A name ending in ``.xz`` is read through xz (the large published proof trees).

    OSError (a missing or unreadable file) is left to the caller.
    """
    from boardproof.inputs import read_bytes

    raw = read_bytes(path)  # /dev/zero: OSError (too large), not the memory filled
    if str(path).endswith(".xz"):
        import lzma

        try:
            raw = lzma.decompress(raw)
        except lzma.LZMAError:
            raise NotAProofError(f"invalid proof: not an xz file: {path!r}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise NotAProofError(f"invalid proof: not a UTF-8 text file: {path!r}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise NotAProofError(f"invalid proof: not a JSON file ({error.msg}): {path!r}") from None
    except RecursionError:
        raise NotAProofError(f"invalid proof: JSON nested too deeply: {path!r}") from None
    except ValueError:  # a number of more than 4300 digits (sys.get_int_max_str_digits)
        raise NotAProofError(f"invalid proof: JSON number with too many digits: {path!r}") \
            from None


# ---------------------------------------------------------------------------
# the builder (uses the solver)
# ---------------------------------------------------------------------------


class ProofTooLarge(Exception):  # noqa: N818 - a control-flow signal
    """The proof would have more nodes than allowed."""


def build_proof(
    root: Position,
    *,
    winner: int | None = None,
    game_name: str | None = None,
    options: dict[str, Any] | None = None,
    max_nodes: int = 1_000_000,
    searcher: Any = None,
    oracle: Callable[[Position], int | None] | None = None,
) -> dict[str, Any]:
    """A proof (as JSON data) that ``winner`` (default: the side to move) wins from ``root``.

    The moves are chosen by a search (``searcher``, by default a new alpha-beta) or by an
    ``oracle``: a function giving the plies of ``winner``'s fastest forced win from a
    position, or None (e.g. the native Minefield search). Either way the proof is only
    trusted after :func:`check_proof`.
    Raises ValueError if the winner has no forced win, ProofTooLarge past ``max_nodes``.
    """
    from boardproof.solvers.search import WIN, WIN_MIN, AlphaBeta

    player = root.to_move if winner is None else winner
    search: AlphaBeta = searcher if searcher is not None else AlphaBeta(root, player=player)
    if search.player != player:
        raise ValueError("build_proof: the searcher proves another player's win")

    def distance(pos: Position, limit: int) -> int | None:
        """Plies of the fastest forced win of ``player`` from ``pos`` (up to ``limit``)."""
        if oracle is not None:
            plies = oracle(pos)
            return plies if plies is not None and plies <= limit else None
        for depth in range(1, limit + 1):
            value = search.value(pos, depth)
            if pos.to_move != player:
                value = -value
            if value >= WIN_MIN:
                return WIN - value
            if value <= -WIN_MIN:
                return None
        return None

    outcome = root.outcome()
    if outcome is not None:
        total: int | None = 0 if player in outcome.winners else None
    elif oracle is not None:
        total = oracle(root)
    else:
        result = search.iterate()
        total = result.plies if (result.value == "win") == (root.to_move == player) else None
        if result.value not in ("win", "loss"):
            total = None
    if total is None:
        raise ValueError(f"no forced win for {root.game.symbol(player)} from {root.fen()}")

    nodes: list[dict[str, Any]] = []
    ids: dict[Hashable, int] = {}
    # iterative depth-first construction: (position, distance, node id)
    stack: list[tuple[Position, int, int]] = []

    def node_for(pos: Position, dist: int) -> int:
        key = pos.key()
        found = ids.get(key)
        if found is not None:
            return found
        if len(nodes) >= max_nodes:
            raise ProofTooLarge
        new_id = len(nodes)
        ids[key] = new_id
        nodes.append({"id": new_id, "position": pos.fen(), "moves": {}})
        stack.append((pos, dist, new_id))
        return new_id

    node_for(root, total)
    while stack:
        pos, dist, node_id = stack.pop()
        if pos.outcome() is not None:
            continue
        moves: dict[str, int] = {}
        if pos.to_move == player:
            for move in _ordered(pos, search) if oracle is None else pos.legal_moves():
                child = pos.play(move)
                d = 0 if _won(child, player) else distance(child, dist - 1)
                if d is not None and d <= dist - 1:
                    moves[str(move)] = node_for(child, d)
                    break
            if not moves:
                raise AssertionError(f"build_proof: no winning move found in {pos.fen()}")
        else:
            for move in pos.legal_moves():
                child = pos.play(move)
                d = 0 if _won(child, player) else distance(child, dist - 1)
                if d is None:
                    raise AssertionError(f"build_proof: reply {move} escapes in {pos.fen()}")
                moves[str(move)] = node_for(child, d)
        nodes[node_id]["moves"] = moves
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game_name if game_name is not None else root.game.name,
        "options": dict(options or {}),
        "root": root.fen(),
        "winner": root.game.symbol(player),
        "nodes": nodes,
    }


def _won(pos: Position, player: int) -> bool:
    outcome = pos.outcome()
    return outcome is not None and player in outcome.winners


def _ordered(pos: Position, search: Any) -> list[Any]:
    """Legal moves, the searcher's stored best move first."""
    from boardproof.solvers.common import find_move

    moves = list(pos.legal_moves())
    key, sym = search.key_at(pos, 0)
    entry = search.tt.get(key)
    first = find_move(pos, entry[3], sym) if entry is not None else None
    if first is not None:
        moves.remove(first)
        moves.insert(0, first)
    return moves


# ---------------------------------------------------------------------------
# the checker (rules only)
# ---------------------------------------------------------------------------


@dataclass
class CheckReport:
    """A proof that passed: who wins from where, and how many nodes were checked."""

    game: str
    root: str
    winner: str
    nodes: int


def _players(pos: Position) -> int:
    return num_players(pos)


def _field(data: Any, name: str, kind: type, error: type[ProofError] = ProofError) -> Any:
    if not isinstance(data, dict):
        raise error(f"invalid proof: expected a JSON object, got {_short(data)}")
    if name not in data:
        raise error(f"invalid proof: missing field {name!r}")
    value = data[name]
    if not isinstance(value, kind):
        raise error(f"invalid proof: field {name!r} has the wrong type: {_short(value)}")
    return value


def _short(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_proof(
    data: Any,
    *,
    game: Game | None = None,
    load_game: Callable[[str, dict[str, Any]], Game] | None = None,
) -> CheckReport:
    """Check a proof with the rules only; raises ProofError at the first bad node.

    The game is ``game`` if given, else ``load_game(name, options)``, else the
    registry's game named in the proof.
    """
    envelope = NotAProofError  # what is wrong before the nodes: not a proof at all
    if _field(data, "format", str, envelope) != FORMAT:
        raise envelope(f"invalid proof: expected format {FORMAT!r}, got {_short(data['format'])}")
    name = _field(data, "game", str, envelope)
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise envelope(f"invalid proof: field 'options' has the wrong type: {_short(options)}")
    if game is None:
        if load_game is None:
            from boardproof import models

            game = models.get(name, **options)
        else:
            game = load_game(name, options)
    root_text = _field(data, "root", str, envelope)
    root = game.parse_position(root_text)
    winner_text = _field(data, "winner", str, envelope)
    winner = game.player_of(winner_text)
    raw_nodes = _field(data, "nodes", list, envelope)
    nodes: dict[int, dict[str, Any]] = {}
    for item in raw_nodes:
        node_id = _field(item, "id", int)
        _field(item, "position", str)
        _field(item, "moves", dict)
        if node_id in nodes:
            raise ProofError(f"invalid proof: node {node_id} appears twice")
        nodes[node_id] = item
    if 0 not in nodes:
        raise ProofError("invalid proof: no root node 0")
    stated_root = game.parse_position(nodes[0]["position"])
    if stated_root != root:
        raise ProofError(
            f"bad node 0: wrong root: the proof's root is {root.fen()!r} but node 0 "
            f"is {stated_root.fen()!r}"
        )
    players = _players(root)

    done: set[int] = set()
    on_stack: set[int] = set()
    # iterative depth-first walk: (node id, position, path of moves, next move index)
    stack: list[tuple[int, Position, list[str]]] = [(0, root, [])]
    expanded: dict[int, list[tuple[str, int, Position]]] = {}

    def fail(node_id: int, path: list[str], why: str) -> ProofError:
        where = " ".join(path) if path else "the root"
        return ProofError(f"bad node {node_id} (after {where}): {why}")

    while stack:
        node_id, pos, path = stack[-1]
        if node_id in expanded:
            pending = expanded[node_id]
            if pending:
                move_text, child_id, child = pending.pop(0)
                if child_id in on_stack:
                    raise fail(child_id, [*path, move_text], "the proof has a cycle")
                if child_id in done:
                    stated = game.parse_position(nodes[child_id]["position"])
                    if stated != child:
                        raise fail(
                            child_id,
                            [*path, move_text],
                            f"states {stated.fen()!r} but the moves reach {child.fen()!r}",
                        )
                    continue
                on_stack.add(child_id)
                stack.append((child_id, child, [*path, move_text]))
            else:
                stack.pop()
                on_stack.discard(node_id)
                done.add(node_id)
            continue
        on_stack.add(node_id)
        node = nodes[node_id]
        try:
            stated = game.parse_position(node["position"])
        except ValueError as error:
            raise fail(node_id, path, f"unreadable position: {error}") from None
        if stated != pos:
            raise fail(node_id, path, f"states {stated.fen()!r} but the moves reach {pos.fen()!r}")
        moves: dict[str, Any] = node["moves"]
        outcome = pos.outcome()
        if outcome is not None:
            if moves:
                raise fail(node_id, path, "the game is over here but the node has moves")
            if not (winner in outcome.winners and len(outcome.winners) < players):
                who = sorted(game.symbol(p) for p in outcome.winners) or "nobody"
                raise fail(node_id, path, f"leaf not won by {winner_text} (winners: {who})")
            expanded[node_id] = []
            continue
        if not moves:
            raise fail(node_id, path, f"leaf {pos.fen()!r} is not a finished game")
        legal = {str(m): m for m in pos.legal_moves()}
        if pos.to_move == winner:
            if len(moves) != 1:
                raise fail(node_id, path, f"the winner's node must give one move, got {len(moves)}")
        else:
            missing = [m for m in legal if m not in moves]
            if missing:
                raise fail(node_id, path, f"missing reply {missing[0]}")
        children: list[tuple[str, int, Position]] = []
        for move_text, child_id in moves.items():
            if move_text not in legal:
                raise fail(node_id, path, f"illegal move {move_text!r} in {pos.fen()!r}")
            if not isinstance(child_id, int) or child_id not in nodes:
                raise fail(node_id, path, f"move {move_text} leads to no node: {child_id!r}")
            children.append((move_text, child_id, pos.play(legal[move_text])))
        expanded[node_id] = children
        if len(done) + len(on_stack) > len(nodes) + 1:  # pragma: no cover - defensive
            raise fail(node_id, path, "too many nodes")
    return CheckReport(name, root.fen(), winner_text, len(done))
