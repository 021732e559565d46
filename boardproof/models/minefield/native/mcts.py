"""Minefield's side of the native MCTS engine (``mcts.c``): the glyph roles, positions and
move codes of the C tree (:mod:`boardproof.solvers.native_mcts` drives it).

Move codes: a placement is its compact point ``rank * n + file`` (a1 = 0), ``swap`` is
:data:`SWAP_CODE` and ``pass`` :data:`PASS_CODE`, whatever the board size.

The C tree stops a game at the first ortho-diagonal path under both win rules: under the
ortho-diagonal rule that path is the win; under the orthogonal rule Theorem O
(``reports/minefield-orthodiagonal.md``, proved for the standard glyphs, n = 2..26) says
every continuation ends with that colour's orthogonal win, so the values are the same.
A root that already has such a path while the orthogonal rule says the game goes on (over
for that tree, which would have no move to give) gets a tree that plays the orthogonal
rule as it is (``connect8`` false: the 4 orthogonal links), as the variants' trees do;
so does every tree with the setting ``shortcut`` off (the difficulty measure's: under
Theorem O a slower win by an ortho-diagonal path looks immediate).
The variants (their glyphs are roles too) are played with their own win rule as it is:
Theorem O is not proved for them. The cartwheel's glyph counts the points just beyond the
board as stones of the edge's owner: its roles come last, and the C tree reads those
points as such stones for them only (``edged``).
"""

from __future__ import annotations

from typing import Any

from boardproof.models.minefield.board import (
    EDGE_GLYPHS,
    PASS,
    SWAP,
    VARIANT_GLYPHS,
    Move,
    glyph_roles,
)
from boardproof.models.minefield.native.patterns import shipped

try:  # the compiled module is optional (no C compiler: the package installs without it)
    from boardproof.models.minefield.native import _mcts  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _mcts = None

MAX_SIZE = 26
SWAP_CODE = MAX_SIZE * MAX_SIZE
PASS_CODE = SWAP_CODE + 1
_STATE = {"E": 0, "M": 1, "O": 2}
#: the playouts' knowledge bits (mcts.c): the bridge save, the learned pattern weights
KNOW_BRIDGE = 1
KNOW_PATTERN_PLAYOUT = 2


#: the variants the C tree plays (the cartwheel's roles also read the points just beyond
#: the edges: the C tree holds them as the edge owners' stones for those roles)
VARIANTS = ("standard", "pinwheel", "cartwheel")


def roles(variant: str = "standard") -> list[list[tuple[int, int, int]]]:
    """The glyph roles of ``variant`` relative to the new stone, as the C tree takes them:
    the last :func:`edged` of them are an edge glyph's.

    >>> len(roles()), max(len(r) for r in roles())
    (28, 7)
    >>> len(roles("pinwheel")), max(len(r) for r in roles("pinwheel"))
    (28, 11)
    >>> len(roles("cartwheel")), edged("cartwheel"), edged("pinwheel")
    (36, 8, 0)
    """
    groups = sorted(glyph_roles(VARIANT_GLYPHS[variant]).items(),
                    key=lambda item: item[0] in EDGE_GLYPHS)  # stable: plain ones first
    return [[(dx, dy, _STATE[state]) for dx, dy, state in role]
            for _, group in groups for role in group]  # fmt: skip


def edged(variant: str = "standard") -> int:
    """How many roles of :func:`roles` (the last ones) count the points just beyond the
    board as stones of the edge's owner (board.EDGE_GLYPHS)."""
    return sum(len(group) for name, group in glyph_roles(VARIANT_GLYPHS[variant]).items()
               if name in EDGE_GLYPHS)  # fmt: skip


def connect8(game: Any, shortcut: bool = True) -> bool:
    """Whether the C tree ends the game at the first ortho-diagonal path: the
    ortho-diagonal rule, or the standard glyphs under Theorem O when ``shortcut`` (not
    proved for the variants: there the orthogonal rule is played as it is)."""
    standard = getattr(game, "variant", "standard") == "standard"
    return bool(game.diagonal) or (shortcut and standard)


def _stones(bits: int) -> list[int]:
    return [p for p in range(bits.bit_length()) if bits >> p & 1]


def state_of(position: Any) -> tuple[list[int], list[int], int, bool]:
    """``(black points, white points, side to move, pie pending)`` in compact points."""
    n, width = position.n, position.n + 3  # bitboards carry GUARD = 3 columns a rank
    black = [(b // width) * n + b % width for b in _stones(position.black)]
    white = [(b // width) * n + b % width for b in _stones(position.white)]
    return black, white, int(position.to_move), bool(position.pie)


class Codec:
    """Minefield moves as the C tree's codes."""

    @staticmethod
    def encode(position: Any, move: Any) -> int:
        if move == SWAP:
            return SWAP_CODE
        if move == PASS:
            return PASS_CODE
        return int(move.rank) * position.n + int(move.file)

    @staticmethod
    def decode(position: Any, code: int) -> Any:
        if code == SWAP_CODE:
            return SWAP
        if code == PASS_CODE:
            return PASS
        return Move(code % position.n, code // position.n)


def takes(position: Any) -> bool:
    """Whether the C tree takes ``position``: built, Minefield, :data:`VARIANTS`."""
    return (
        _mcts is not None
        and position.game.name == "minefield"
        and 2 <= position.n <= MAX_SIZE
        and getattr(position.game, "variant", "standard") in VARIANTS
    )


def search(position: Any, settings: Any) -> Any:
    """The :class:`~boardproof.solvers.native_mcts.NativeSearch` over ``position``, or
    None when the C tree does not take it (:func:`takes`)."""
    if not takes(position):
        return None
    return build(position, settings)


def decided_early(position: Any, tree: Any) -> bool:
    """Whether ``tree`` (a C search over ``position``) sees the game over while the rules
    do not: an ortho-diagonal path without an orthogonal one under Theorem O."""
    return bool(tree.root()[5]) and position.outcome() is None


def build(position: Any, settings: Any) -> Any:
    """The C tree over any Minefield position :func:`takes`: with :func:`connect8`, but
    with the orthogonal links only for a root that tree would see over while the game goes
    on (:func:`decided_early`); a new root (``load``) gets the links it needs the same way.
    """
    from boardproof.solvers.native_mcts import NativeSearch

    native = NativeSearch(None, Codec())
    shortcut = getattr(settings, "shortcut", True)
    links = {"connect8": connect8(position.game, shortcut)}

    def make(root: Any, eight: bool) -> None:
        native.search = _new(root, settings, eight)
        links["connect8"] = eight
        if eight and decided_early(root, native.search):
            native.search = _new(root, settings, False)
            links["connect8"] = False

    def load(new: Any) -> None:
        if new.n != position.n or new.game != position.game:
            raise ValueError("a new root must have the same game and board size")
        eight = connect8(new.game, shortcut)
        if links["connect8"] != eight:  # back to the links of a fresh tree over ``new``
            make(new, eight)
            return
        native.search.reset(*state_of(new))
        if eight and decided_early(new, native.search):
            make(new, False)

    make(position, links["connect8"])
    native.load = load
    return native


def _new(position: Any, settings: Any, eight: bool) -> Any:
    """A C search object over ``position`` (``eight``: the 8 ortho-diagonal links)."""
    black, white, to_move, pie = state_of(position)
    variant = getattr(position.game, "variant", "standard")
    knowledge = (KNOW_BRIDGE if settings.knowledge else 0) | (
        KNOW_PATTERN_PLAYOUT if getattr(settings, "pattern_playout", False) else 0)
    pattern_prior = getattr(settings, "pattern_prior", 0)
    distance_prior = getattr(settings, "distance_prior", 0)
    gammas = shipped() if knowledge & KNOW_PATTERN_PLAYOUT or pattern_prior else None
    return _mcts.Search(
        position.n, eight, roles(variant), black, white, to_move, pie,
        settings.hash_mb << 20,
        settings.seed, settings.threads, settings.uct_c, settings.rave_bias, settings.fpu,
        settings.expand_visits, settings.rave, knowledge, pattern_prior, distance_prior,
        gammas, getattr(settings, "two_distance", False), edged(variant),
    )  # fmt: skip
