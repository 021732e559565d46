"""Compact proofs of forced wins: the winner's strategy alone, checked by the rules.

A proof tree (:mod:`boardproof.solvers.proof`) states every position it passes. A
**strategy** states only the winner's moves: the checker starts at the root and walks
the strategy depth first, with the rules alone (``legal_moves``, ``play``, ``outcome``):

- at a finished position: the winner must be among the winners, and not everybody
  (a leaf; as :func:`~boardproof.solvers.proof.check_proof` has it);
- at a position of the winner: the next *token* of the strategy is the winner's move
  (canonical notation); ``MOVE=`` also says that the position after the move was proved
  earlier in the walk, ``=`` alone that this position was;
- at a position of any other player: every legal move, in the order of the rules'
  ``legal_moves()``, each followed to its end before the next; no token is read.

So no position is written, the defender's replies are regenerated, and the tokens are
the winner's moves in this fixed order. A ``=`` is accepted only for a position whose
walk is complete (a position on the current line is not yet proved: no cycle), with the
height it was proved with. Every line must end within ``plies`` plies: the checker
fails a line as soon as it is longer, and a re-used position of height ``h`` reached
after ``d`` plies needs ``d + h <= plies``. By induction on the walk's order, every
proved position is won by the winner within its height, hence the root within ``plies``.
All the tokens must be used.

The tokens are stored joined by spaces, compressed (zlib) and written in base64 with a
small envelope (:func:`pack`, :func:`unpack`)::

    {"format": "boardproof-strategy", "version": 1, "encoding": "zlib-base64",
     "listed": 3, "positions": 9, "data": "eNo..."}

``listed`` (the tokens) and ``positions`` (the distinct positions of the walk, leaves
included) are checked too. :func:`from_proof` makes the tokens of a proof tree,
:func:`expand` the proof tree of a strategy.

A pile of 9 stones, 1 to 3 taken a turn, the last one taken wins: the winner takes 1 (8
left); after the reply 1 (7 left) it takes 3, then after each reply from 4 the rest (3, 2,
1); after the replies 2 and 3 it takes 2 and 1, reaching the 4 stones already proved:

>>> from boardproof.testing.games import subtraction
>>> from boardproof.solvers.proof import build_proof, check_proof
>>> root = subtraction(9, 3)
>>> tokens = from_proof(build_proof(root, game_name="subtraction"), root.game)
>>> tokens
['1', '3', '3', '2', '1', '2=', '1=']
>>> report = check_strategy(root, 0, tokens, plies=5)
>>> report.height, report.listed, report.positions
(5, 7, 10)
>>> check_strategy(root, 0, tokens, plies=3)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
boardproof.solvers.strategy.StrategyError: strategy: after 1 1 3: the line is longer than 3 plies
>>> check_proof(expand(root, 0, tokens, 5, game_name="subtraction"), game=root.game).nodes
10
"""

from __future__ import annotations

import base64
import binascii
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boardproof.models.base import BoardproofError, Game, Position
from boardproof.solvers.common import num_players, wins
from boardproof.solvers.proof import FORMAT as PROOF_FORMAT
from boardproof.solvers.proof import VERSION as PROOF_VERSION
from boardproof.solvers.proof import ProofError

FORMAT = "boardproof-strategy"
VERSION = 1
ENCODING = "zlib-base64"
#: the token that re-uses a position proved earlier in the walk
SAME = "="
#: the most bytes the data may inflate to (a strategy of millions of moves)
MAX_TEXT = 64 * 1024 * 1024


class StrategyError(ProofError):
    """A strategy that is unreadable or proves nothing (the message is one line)."""


@dataclass
class StrategyReport:
    """A strategy that passed: its longest line, its tokens and its distinct positions."""

    height: int
    listed: int
    positions: int


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _Walk:
    """The checker's walk (and, with ``nodes``, the proof tree it meets)."""

    def __init__(self, winner: int, players: int, tokens: list[str], plies: int,
                 build: bool) -> None:  # fmt: skip
        self.winner = winner
        self.players = players
        self.tokens = tokens
        self.plies = plies
        self.next = 0
        #: proved positions (not the leaves) and the height each was proved with
        self.proved: dict[Position, int] = {}
        self.leaves: set[Position] = set()
        self.ids: dict[Position, int] | None = {} if build else None
        self.nodes: list[dict[str, Any]] = []

    def fail(self, path: list[str], why: str) -> StrategyError:
        where = f"after {_short(' '.join(path))}" if path else "at the root"
        return StrategyError(f"strategy: {where}: {why}".replace("\n", " "))

    def node(self, pos: Position) -> int:
        """The id of ``pos`` in the tree being built (a new node the first time)."""
        assert self.ids is not None
        found = self.ids.get(pos)
        if found is None:
            found = self.ids[pos] = len(self.nodes)
            self.nodes.append({"id": found, "position": pos.fen(), "moves": {}})
        return found

    def link(self, pos: Position, move: str, child: Position) -> None:
        if self.ids is not None:
            self.nodes[self.node(pos)]["moves"][move] = self.node(child)

    def reuse(self, pos: Position, depth: int, path: list[str]) -> int:
        height = self.proved.get(pos)
        if height is None:
            raise self.fail(path, "'=' for a position not proved before")
        if depth + height > self.plies:
            raise self.fail(path, f"the re-used position wins in {height} plies, which goes "
                                  f"past {self.plies} plies")  # fmt: skip
        return height

    def prove(self, pos: Position, depth: int, path: list[str]) -> int:
        """The height of the strategy from ``pos`` (reached after ``depth`` plies)."""
        if self.ids is not None:
            self.node(pos)
        outcome = pos.outcome()
        if outcome is not None:
            if not wins(outcome, self.winner, self.players):
                who = ", ".join(sorted(pos.game.symbol(p) for p in outcome.winners)) or "nobody"
                mine = pos.game.symbol(self.winner)
                raise self.fail(path, f"the game ends without a win of {mine} (winners: {who})")
            self.leaves.add(pos)
            return 0
        if depth >= self.plies:
            raise self.fail(path, f"the line is longer than {self.plies} plies")
        if pos.to_move == self.winner:
            height = self.winner_move(pos, depth, path)
        else:
            replies = list(pos.legal_moves())
            if not replies:
                raise self.fail(path, "no legal move and the game is not over")
            height = 0
            for reply in replies:
                text = str(reply)
                child = pos.play(reply)
                self.link(pos, text, child)
                height = max(height, 1 + self.prove(child, depth + 1, [*path, text]))
        known = self.proved.get(pos)
        self.proved[pos] = height if known is None else min(known, height)
        return height

    def winner_move(self, pos: Position, depth: int, path: list[str]) -> int:
        if self.next >= len(self.tokens):
            raise self.fail(path, f"the data ends here (token {self.next + 1} missing: no move "
                                  "for the winner)")  # fmt: skip
        token = self.tokens[self.next]
        number = self.next + 1
        self.next += 1
        if token == SAME:
            return self.reuse(pos, depth, path)
        same = token.endswith(SAME)
        text = token[:-1] if same else token
        try:
            move = pos.parse_move(text)
        except (BoardproofError, ValueError) as error:
            raise self.fail(path, f"token {number} {_short(token)!r}: {error}") from None
        if move not in pos.legal_moves():
            raise self.fail(path, f"token {number}: illegal move {_short(text)!r}")
        if str(move) != text:
            raise self.fail(path, f"token {number}: not canonical notation (expected "
                                  f"{str(move)!r}): {_short(text)!r}")  # fmt: skip
        child = pos.play(move)
        self.link(pos, text, child)
        if same:
            return 1 + self.reuse(child, depth + 1, [*path, text])
        return 1 + self.prove(child, depth + 1, [*path, text])


def _walk(root: Position, winner: int, tokens: list[str], plies: int, build: bool) -> _Walk:
    walk = _Walk(winner, num_players(root), tokens, plies, build)
    try:
        walk.prove(root, 0, [])
    except RecursionError:
        raise StrategyError(f"strategy: lines too deep to check ({plies} plies)") from None
    left = len(tokens) - walk.next
    if left:
        raise StrategyError(f"strategy: {left} token(s) left over after the proof (from token "
                            f"{walk.next + 1}: {_short(tokens[walk.next])!r})")  # fmt: skip
    return walk


def check_strategy(
    root: Position, winner: int, tokens: list[str], plies: int, positions: int | None = None
) -> StrategyReport:
    """Check with the rules only that ``tokens`` win ``root`` for ``winner`` within
    ``plies`` plies (and, if given, meet exactly ``positions`` distinct positions);
    raises StrategyError (one line) at the first fault."""
    walk = _walk(root, winner, tokens, plies, build=False)
    met = len(walk.proved) + len(walk.leaves)
    if positions is not None and met != positions:
        raise StrategyError(f"strategy: field 'positions' is {positions!r}, the walk meets "
                            f"{met}")  # fmt: skip
    return StrategyReport(walk.proved.get(root, 0), len(tokens), met)


def expand(
    root: Position,
    winner: int,
    tokens: list[str],
    plies: int,
    *,
    game_name: str | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The proof tree (:mod:`boardproof.solvers.proof` format, transpositions merged) of a
    strategy, checked as :func:`check_strategy` checks it."""
    walk = _walk(root, winner, tokens, plies, build=True)
    return {
        "format": PROOF_FORMAT,
        "version": PROOF_VERSION,
        "game": game_name if game_name is not None else root.game.name,
        "options": dict(options or {}),
        "root": root.fen(),
        "winner": root.game.symbol(winner),
        "nodes": walk.nodes,
    }


def from_proof(proof: dict[str, Any], game: Game, plies: int | None = None) -> list[str]:
    """The tokens of the strategy a proof tree follows (the tree should be checked first).

    A position met again is re-used (``=``) when its height allows it within ``plies``
    (default: no bound; a longer line is refused). Raises StrategyError for a tree that is
    not a winner's strategy or whose moves cannot be written as tokens; the tokens are
    only trusted after :func:`check_strategy`.
    """
    root = game.parse_position(proof["root"])
    winner = game.player_of(proof["winner"])
    nodes = {node["id"]: node for node in proof["nodes"]}
    tokens: list[str] = []
    proved: dict[Position, int] = {}
    bound = plies if plies is not None else 1 << 30

    def moves_of(node_id: int) -> dict[str, int]:
        return nodes[node_id]["moves"]  # type: ignore[no-any-return]

    def walk(pos: Position, node_id: int, depth: int) -> int:
        if pos.outcome() is not None:
            return 0
        if depth >= bound:
            raise StrategyError(f"strategy: the proof tree has a line longer than {bound} plies")
        if pos.to_move == winner:
            known = proved.get(pos)
            if known is not None and depth + known <= bound:
                tokens.append(SAME)
                return known
            ((text, child_id),) = moves_of(node_id).items()
            if not text or SAME in text or any(c.isspace() for c in text):
                raise StrategyError(f"strategy: the move {text!r} cannot be a token")
            child = pos.play(pos.parse_move(text))
            again = proved.get(child) if child.outcome() is None else None
            if again is not None and depth + 1 + again <= bound:
                tokens.append(text + SAME)
                height = 1 + again
            else:
                tokens.append(text)
                height = 1 + walk(child, child_id, depth + 1)
        else:
            height = 0
            for reply in pos.legal_moves():
                child_id = moves_of(node_id)[str(reply)]
                height = max(height, 1 + walk(pos.play(reply), child_id, depth + 1))
        known = proved.get(pos)
        proved[pos] = height if known is None else min(known, height)
        return height

    try:
        walk(root, 0, 0)
    except (KeyError, ValueError, TypeError, AttributeError, BoardproofError) as error:
        if isinstance(error, StrategyError):
            raise
        raise StrategyError(f"strategy: the proof tree is not a strategy ({error!r})") from None
    except RecursionError:
        raise StrategyError("strategy: the proof tree's lines are too deep") from None
    return tokens


# ---------------------------------------------------------------------------
# the envelope: tokens <-> a JSON object
# ---------------------------------------------------------------------------


def pack(tokens: list[str], positions: int) -> dict[str, Any]:
    """The JSON object of a strategy (``positions``: from :func:`check_strategy`).

    >>> data = pack(["c2", "d1", "="], 9)
    >>> data["listed"], unpack(data)
    (3, ['c2', 'd1', '='])
    """
    text = " ".join(tokens).encode("ascii")
    return {
        "format": FORMAT,
        "version": VERSION,
        "encoding": ENCODING,
        "listed": len(tokens),
        "positions": positions,
        "data": base64.b64encode(zlib.compress(text, 9)).decode("ascii"),
    }


def _envelope_field(data: dict[str, Any], name: str, check: Callable[[Any], bool]) -> Any:
    value = data.get(name)
    if not check(value):
        raise StrategyError(f"strategy: field {name!r} is missing or wrong: "
                            f"{_short(repr(value))}")  # fmt: skip
    return value


def unpack(data: Any) -> list[str]:
    """The tokens of a strategy object; StrategyError (naming the field) if it is unusable.

    >>> unpack({**pack(["c2"], 3), "data": "eNo"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    boardproof.solvers.strategy.StrategyError: strategy: field 'data' is not base64...
    """
    if not isinstance(data, dict):
        raise StrategyError(f"strategy: expected a JSON object, got {_short(repr(data))}")
    _envelope_field(data, "format", lambda v: v == FORMAT)
    _envelope_field(data, "version", lambda v: type(v) is int and v == VERSION)
    _envelope_field(data, "encoding", lambda v: v == ENCODING)
    listed = _envelope_field(data, "listed", lambda v: type(v) is int and v >= 0)
    _envelope_field(data, "positions", lambda v: type(v) is int and v >= 1)
    text = _envelope_field(data, "data", lambda v: isinstance(v, str))
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError) as error:
        raise StrategyError(f"strategy: field 'data' is not base64 ({error})") from None
    inflate = zlib.decompressobj()
    try:
        plain = inflate.decompress(raw, MAX_TEXT)
    except zlib.error as error:
        raise StrategyError(f"strategy: field 'data' does not decompress ({error})") from None
    if inflate.unconsumed_tail:
        raise StrategyError(f"strategy: field 'data' inflates to more than {MAX_TEXT} bytes")
    if not inflate.eof:
        raise StrategyError("strategy: field 'data' is cut short (the compressed stream "
                            "does not end)")  # fmt: skip
    if inflate.unused_data:
        raise StrategyError("strategy: field 'data' has bytes after the compressed stream")
    try:
        tokens = plain.decode("ascii").split(" ") if plain else []
    except UnicodeDecodeError:
        raise StrategyError("strategy: field 'data' is not ASCII text once inflated") from None
    if "" in tokens:
        raise StrategyError("strategy: field 'data' has an empty token (two spaces in a row)")
    if len(tokens) != listed:
        raise StrategyError(f"strategy: field 'listed' is {listed}, the data holds "
                            f"{len(tokens)} tokens")  # fmt: skip
    return tokens
