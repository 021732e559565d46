"""Candy Conquest's side of the native MCTS engine (``candy_mcts.h``): positions and move
codes of the C trees (:mod:`boardproof.solvers.native_mcts` drives them).

Two players get the two-player tree (``_mcts``); three and four the max^n tree
(``_mcts_multi``: a reward per player, each node's mover maximising its own, the coalition
proofs of the Python MCTS-Solver: "P wins" means P forces a line against all the others).

Move codes: ``square * 12 + orientation`` (``a1`` = 0, orientations in
:data:`~boardproof.models.candy.rules.CODES` order) and :data:`PASS_CODE` for ``pass``.

>>> from boardproof.models.candy.rules import GAME, parse_move_text
>>> code = Codec.encode(GAME.start(), parse_move_text("Os@c3"))
>>> code, str(Codec.decode(GAME.start(), code)), Codec.encode(GAME.start(), parse_move_text("pass"))
(144, 'Os@c3', 300)
"""

from __future__ import annotations

from typing import Any

from boardproof.models.candy import rules

try:  # the compiled modules are optional (no C compiler: the package installs without them)
    from boardproof.models.candy.native import (  # type: ignore[attr-defined]
        _mcts,
        _mcts_multi,
    )
except ImportError:  # pragma: no cover - depends on the build
    _mcts = _mcts_multi = None

#: the C trees' move codes are 0 .. MOVE_CODES - 1; the last is ``pass``
PASS_CODE = rules.SQUARE_COUNT * len(rules.CODES)
MOVE_CODES = PASS_CODE + 1


class Codec:
    """Candy Conquest moves as the C trees' codes."""

    @staticmethod
    def encode(position: Any, move: Any) -> int:
        if move.square == rules.PASS_SQUARE:
            return PASS_CODE
        return int(move.square) * len(rules.CODES) + int(move.code)

    @staticmethod
    def decode(position: Any, code: int) -> Any:
        if code == PASS_CODE:
            return rules.PASS
        if not 0 <= code < PASS_CODE:
            raise ValueError(f"invalid move code: expected 0..{PASS_CODE}, got {code!r}")
        return rules.CandyMove(*divmod(code, len(rules.CODES)))


def state_of(position: Any) -> tuple[tuple[bytes, ...], int, int, int]:
    """``(columns, player to move, players, winner or -1)`` as the C trees take them.

    >>> state_of(rules.GAME.start(players=3))[1:]
    (0, 3, -1)
    """
    outcome = position.outcome()
    winners = sorted(outcome.winners) if outcome is not None else []
    winner = winners[0] if len(winners) == 1 else -1
    columns = tuple(bytes(column) for column in position.cols)
    return columns, int(position.to_move), int(position.players), winner


def available() -> bool:
    """Whether the C modules were built (a C compiler at install time)."""
    return _mcts is not None and _mcts_multi is not None


def module_for(players: int) -> Any:
    """The C module of the tree for ``players`` (set up with the model's tables)."""
    module = _mcts if players == 2 else _mcts_multi
    if module is None:
        raise ValueError("the native MCTS engine was not built (no C compiler at install)")
    if not module.ready():
        module.setup(
            tuple(int(b) for b in rules.LARGE_SOCKET),
            tuple(int(b) for b in rules.BOTTOM_LARGE),
            tuple(int(b) for b in rules.TOP_LARGE),
            rules.TOP_TYPE,
            rules.KIND_OF,
            rules.ACCEPTED,
            rules.SEGMENTS_AT,
            (0, *rules.STAIRCASE_STEPS),
        )
    return module


def takes(position: Any) -> bool:
    """Whether the C trees take ``position``: built, and a Candy Conquest position."""
    return available() and getattr(position.game, "name", None) == "candy"


def search(position: Any, settings: Any) -> Any:
    """The :class:`~boardproof.solvers.native_mcts.NativeSearch` over ``position``, or
    None when the C trees do not take it."""
    return build(position, settings) if takes(position) else None


def build(position: Any, settings: Any, players_tree: int | None = None) -> Any:
    """The C tree over a Candy Conquest position: the two-player tree for 2 players, the
    max^n tree for more (``players_tree`` 4 forces the max^n tree, for the tests)."""
    from boardproof.solvers.native_mcts import NativeSearch

    players = int(position.players)
    kind = players_tree if players_tree is not None else (2 if players == 2 else 4)
    module = module_for(kind)
    found = module.Search(
        *state_of(position), settings.hash_mb << 20, settings.seed, settings.threads,
        settings.uct_c, settings.rave_bias, settings.fpu, settings.expand_visits, settings.rave,
        settings.knowledge,
    )  # fmt: skip

    def load(new: Any) -> None:
        if getattr(new.game, "name", None) != "candy" or int(new.players) != players:
            raise ValueError(f"a new root must be a {players}-player Candy position, got {new!r}")
        found.reset(*state_of(new))

    return NativeSearch(found, Codec(), load, players=players, max_n=kind > 2)
