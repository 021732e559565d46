"""Native (C) ColleXion kernels for the base variant: the turn ranking of self-play and
the exact score search of the puzzles.

The C module (``_collexion``, built from ``collexion.c`` when the package is installed;
optional) codes the base variant's takes, hand-ins and final round, the evaluation of
:mod:`boardproof.models.collexion.evaluation` with the same floating point operations in
the same order, and the exact score search as the puzzle evaluation runs it.
:func:`ranked_turns` returns exactly the candidates of
:func:`~boardproof.models.collexion.evaluation.ranked_turns` (same turns, same values,
same order); :func:`score_search` the values, lines and node counts of
:class:`~boardproof.solvers.search.ScoreSearch` (the tests compare both on many game
positions and endgames). Both give None where the module is not built or does not take
the position (another variant, a pile that is not a top part of ``234``, a box of more
than 124 pieces, more than 15 copies of a polygon; the score search: two players only).
The turn search reads the ranking
(:func:`~boardproof.models.collexion.turnsearch.shared_ranked_turns`), the puzzle
evaluation the score search (:func:`~boardproof.models.collexion.puzzles.evaluate`).

>>> from boardproof.models.collexion.rules import GAME
>>> from boardproof.models.collexion import evaluation
>>> pos = GAME.parse_position("base 1:g8,2:y3,3:p5 g3.g4.g5:-:-/-:-:- 234/234/234/234 1")
>>> found = ranked_turns(pos, evaluation.WEIGHTS)
>>> found is None or found == evaluation.ranked_turns(pos, evaluation.WEIGHTS)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, overload

from boardproof.models.collexion.evaluation import Candidate, Weights
from boardproof.models.collexion.heap import COLOURS, SHAPES
from boardproof.models.collexion.rules import CollexionPosition, Turn

try:  # the compiled module is optional (no C compiler: the package installs without it)
    from boardproof.models.collexion.native import _collexion as _native  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _native = None

#: the largest box the C module takes (its masks are 128 bits, 4 of them for a polygon)
MAX_PIECES = 124
#: set codes of the C module: 0-3 the colour sets, 4 + 5 * shape + (pile + 1) (0: ``-``)
SET_NAMES = tuple(COLOURS) + tuple(shape + pile for shape in SHAPES for pile in ("-", *COLOURS))
_PILES = {(): 0, (4,): 1, (3, 4): 2, (2, 3, 4): 3}


def available() -> bool:
    """Whether the compiled module was built (a C compiler at install time)."""
    return _native is not None


def encode(pos: CollexionPosition) -> tuple[object, ...] | None:
    """The position as the C module's arguments (None: the module does not take it)."""
    if pos.variant != "base" or len(pos.box) > MAX_PIECES:
        return None
    piles = [_PILES.get(pile) for pile in pos.piles]
    if None in piles:
        return None
    ids, polys, masks = pos._index()  # noqa: SLF001 - the rules' index, same package
    boxed = [0] * 16
    for poly in polys:
        boxed[poly] += 1
    if any(coll[t] + boxed[t] > 15 for coll in pos.collections for t in range(16)):
        return None  # the C module counts a polygon in 4 bits (the box has 5 copies)
    tokens = bytearray()
    for held in pos.tokens:
        counts = [0, 0, 0]
        for value in held:
            if value not in (2, 3, 4):
                return None
            counts[value - 2] += 1
        if max(counts) > 11:
            return None  # 4 bits with the piles' tokens (12 tokens in all)
        tokens += bytes(counts)
    return (
        bytes(polys),
        b"".join(mask.to_bytes(16, "little") for mask in masks),
        pos.num_players,
        pos.to_move,
        pos.final,
        b"".join(bytes(coll) for coll in pos.collections),
        bytes(tokens),
        bytes(len(power) for power in pos.powers),
        bytes(piles),  # type: ignore[arg-type]
    )


def _weights(weights: Weights) -> tuple[object, ...]:
    return (tuple(weights.next_turn), tuple(weights.later), weights.token_share,
            weights.horizon, weights.sets_per_turn, weights.pieces_per_turn)  # fmt: skip


class Ranked(Sequence[Candidate]):
    """The C module's ranking as a sequence of candidates, each made when first read (a
    search reads the first few of hundreds)."""

    def __init__(self, raw: list[tuple[Any, ...]], ids: tuple[int, ...]) -> None:
        self._raw = raw
        self._ids = ids
        self._made: list[Candidate | None] = [None] * len(raw)

    def __len__(self) -> int:
        return len(self._raw)

    def _make(self, index: int) -> Candidate:
        found = self._made[index]
        if found is None:
            seq, codes, values, margin = self._raw[index]
            ids = self._ids
            turn = Turn(take=tuple(ids[i] for i in seq), sets=tuple(SET_NAMES[c] for c in codes))
            found = self._made[index] = Candidate(turn, values, margin)
        return found

    @overload
    def __getitem__(self, index: int) -> Candidate: ...

    @overload
    def __getitem__(self, index: slice) -> list[Candidate]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self._make(k) for k in range(*index.indices(len(self._raw)))]
        if index < 0:
            index += len(self._raw)
        if not 0 <= index < len(self._raw):
            raise IndexError("ranking index out of range")
        return self._make(index)


def ranked_sequence(pos: CollexionPosition, weights: Weights) -> Ranked | None:
    """:func:`~boardproof.models.collexion.evaluation.ranked_turns` by the C module, its
    candidates made as they are read, or None where it does not take ``pos`` (see the
    module doc; the position must not be over)."""
    if _native is None or len(weights.later) != 5 or not 1 <= len(weights.next_turn) <= 8:
        return None
    args = encode(pos)
    if args is None:
        return None
    ids = pos._index()[0]  # noqa: SLF001 - the rules' index, same package
    return Ranked(_native.rank(*args, _weights(weights)), ids)


def ranked_turns(pos: CollexionPosition, weights: Weights) -> list[Candidate] | None:
    """:func:`ranked_sequence` as a list (every candidate made), or None."""
    found = ranked_sequence(pos, weights)
    return None if found is None else list(found)


class NativeScoreSearch:
    """The exact score search of the puzzle evaluation (:class:`~boardproof.solvers.search.
    ScoreSearch` over the root's children, then the optimal line) by the C module: the
    same values, the same nodes in the same order, the same node budget (checked every 256
    nodes). Made by :func:`score_search` (None where the module does not take the
    position: see the module doc, and two players only)."""

    def __init__(self, handle: Any) -> None:
        self._handle = handle

    def classes(self) -> list[int]:
        """For each child of the root (canonical order): the first child equal to it."""
        assert _native is not None
        found: list[int] = _native.score_children(self._handle)
        return found

    def values(self) -> list[int] | None:
        """Each child's exact value for the root's mover (canonical order); None: the
        budget ran out."""
        assert _native is not None
        found: list[int] | None = _native.score_values(self._handle)
        return found

    def line(self) -> list[int] | None:
        """An optimal line to the end: the index of the first best child at each turn;
        None: the budget ran out."""
        assert _native is not None
        found: list[int] | None = _native.score_line(self._handle)
        return found

    @property
    def nodes(self) -> int:
        """The positions searched so far (``ScoreSearch.nodes``)."""
        assert _native is not None
        return int(_native.score_nodes(self._handle))


def score_search(pos: CollexionPosition, node_limit: int | None) -> NativeScoreSearch | None:
    """A C exact score search from ``pos`` (a two-player base position; None where the
    module does not take it) with a node budget (None: none; one below 1 or from 2**63
    on is left to the Python search)."""
    if _native is None or pos.num_players != 2:
        return None
    if node_limit is not None and not 0 < node_limit < 1 << 63:
        return None  # the C count is unsigned 64-bit, 0 its "no limit"
    args = encode(pos)
    if args is None:
        return None
    return NativeScoreSearch(_native.score_new(*args, node_limit or 0))
