"""Solving knowledge for Minefield: must-play regions that prune the searches' moves.

:func:`relevant_moves` is the move filter that the generic searches take
(``AlphaBeta(..., moves=...)``, ``DFPN(..., moves=...)``): a non-empty subset of the
legal moves that contains every move not proved to lose, so it contains a best move of
the side to move whatever the position's value (docs/proofs.md "Must-play regions").
Both a winner's node (OR) and a loser's (AND) may then be pruned.

The threats are *winning points*: an empty point where a colour's stone would complete a
path (:func:`winning_points`, bit-parallel: the point touches, through one step, a group
that reaches the first edge and one that reaches the second). A threat counts only
where that colour may legally place; a stone of the other colour changes the legality
of a point only inside the point's *zone* (:func:`zone`: every glyph window through it),
which makes the must-play region (the intersection of the zones of the threats) cheap.

The rules, for the side to move X against Y, with the game's own win rule (or, with
``theorem_o``, 8-connected paths in the orthogonal game: Theorem O):

- **win**: a legal placement of X that wins is kept alone;
- **must-play (2 plies)**: a placement after which Y has a legal winning point loses in
  2 plies; it is dropped;
- **must-play (4 plies)** (``level=3``): a placement after which Y has a reply leaving X
  no defence (no winning point of its own, and every placement, or its forced pass,
  leaves Y a legal winning point) loses in 4 plies; it is dropped.

When every move is dropped, one is kept: one of those that lose in 4 plies if any (the
longest defence), else one that loses in 2. So the value *and* the distance of every
position are those of the plain search (in the game's own win rule).

>>> from boardproof import models
>>> pos = models.get("minefield").parse_position("4/1b2/1b2/1b2 w -")  # Black threatens b4
>>> len(pos.legal_moves()), [str(m) for m in relevant_moves(pos)]
(13, ['b4'])
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from boardproof.models.minefield.board import (
    BLACK,
    GUARD,
    STANDARD,
    Move,
    Tables,
    flood,
    tables,
)
from boardproof.models.minefield.rules import MinefieldPosition

#: the levels of :func:`relevant_moves`: 2 (must-play against immediate wins) or 3
LEVELS = (2, 3)

#: positions whose answer a :func:`move_filter` remembers (then it starts afresh)
CACHE_SIZE = 1 << 18

#: how many moves each rule dropped, per rule (reset by :func:`reset_counts`)
COUNTS = {"win": 0, "must2": 0, "must4": 0}


def reset_counts() -> None:
    """Zero :data:`COUNTS`."""
    for key in COUNTS:
        COUNTS[key] = 0


def dilate(group: int, width: int, diagonal: bool) -> int:
    """``group`` and its 4- or 8-neighbours (guard bits included: mask with the board).

    >>> t = tables(3)
    >>> t.moves_of(dilate(1 << 7, t.width, False) & t.full)  # bit 7 is b2
    [b1, a2, b2, c2, b3]
    """
    if diagonal:
        row = group | (group << 1) | (group >> 1)
        return row | (row << width) | (row >> width)
    return group | (group << 1) | (group >> 1) | (group << width) | (group >> width)


def winning_points(t: Tables, stones: int, colour: int, empty: int, diagonal: bool) -> int:
    """The points of ``empty`` where one more stone of ``colour`` (its stones ``stones``)
    would complete a winning path, legality aside.

    A new stone p joins the groups next to it, so it wins exactly when p is on the first
    edge or next to a group reaching it, and on the second or next to one reaching it.

    >>> t = tables(4)
    >>> pos = MinefieldPosition.from_fen("4/2b1/2b1/1b2 w -")
    >>> empty = t.full & ~pos.black
    >>> t.moves_of(winning_points(t, pos.black, BLACK, empty, False))
    []
    >>> t.moves_of(winning_points(t, pos.black, BLACK, empty, True))  # 8-connected
    [b4, c4, d4]
    """
    first, second = t.edges[colour]
    width, full = t.width, t.full
    low = flood(stones & first, stones, width, diagonal)
    high = flood(stones & second, stones, width, diagonal)
    near_low = first | dilate(low, width, diagonal)
    near_high = second | dilate(high, width, diagonal)
    return near_low & near_high & empty & full


@cache
def zones(n: int, variant: str) -> tuple[int, ...]:
    """Per bit index: the points of every glyph window through that point (the point
    itself included): the only points whose stones decide whether it is legal.

    The standard glyphs fit in 2 x 2, 2 x 3 and 2 x 4 windows (offsets up to 3 along
    one axis and 1 along the other); the variants' pinwheel and cartwheel in a 4 x 4
    box (offsets up to 3 both ways): a superset is sound (docs/proofs.md).

    >>> t = tables(5)
    >>> t.moves_of(zones(5, "standard")[t.bit_of[Move(0, 0)]])
    [a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, a4, b4]
    """
    width = n + GUARD
    out = [0] * (n * width)
    for r in range(n):
        for f in range(n):
            mask = 0
            for dr in range(-3, 4):
                for df in range(-3, 4):
                    if variant == STANDARD and min(abs(dr), abs(df)) > 1:
                        continue
                    g, q = f + df, r + dr
                    if 0 <= g < n and 0 <= q < n:
                        mask |= 1 << (q * width + g)
            out[r * width + f] = mask
    return tuple(out)


def _legal_function(pos: MinefieldPosition) -> Callable[[int, int, int], int]:
    """``legal(colour, own, opp)``: the legal placements of ``colour`` (stones ``own``)."""
    t = tables(pos.n)
    game = pos.game
    if game.standard:
        placements = t.placements

        def legal(colour: int, own: int, opp: int) -> int:
            return placements(own, opp)

        return legal
    variant = game.variant

    def legal_variant(colour: int, own: int, opp: int) -> int:
        return t.variant_placements(variant, colour, own, opp)

    return legal_variant


def _bits(board: int) -> list[int]:
    out = []
    while board:
        low = board & -board
        out.append(low)
        board ^= low
    return out


class _Context:
    """What the rules of one position share: the board, the legality and the zones."""

    __slots__ = ("t", "full", "diagonal", "legal", "zone")

    def __init__(self, pos: MinefieldPosition, theorem_o: bool) -> None:
        self.t = tables(pos.n)
        self.full = self.t.full
        self.diagonal = pos.game.diagonal or theorem_o
        self.legal = _legal_function(pos)
        self.zone = zones(pos.n, pos.game.variant)

    def wins(self, stones: int, colour: int, empty: int) -> int:
        return winning_points(self.t, stones, colour, empty, self.diagonal)

    def region(self, threats: int) -> int:
        """The points that are a threat or in the zone of each of ``threats``."""
        zone = self.zone
        region = self.full
        for low in _bits(threats):
            region &= zone[low.bit_length() - 1] | low
        return region

    def no_defence(self, xs: int, ys: int, x: int, y_wins: int, x_wins: int) -> bool:
        """X (colour ``x``, stones ``xs``) to move, Y (stones ``ys``), with their winning
        points ``x_wins`` and ``y_wins`` (:func:`winning_points`, legality aside): X has no
        winning point it may take, and every placement of X (or its forced pass) leaves Y
        a legal winning point, so Y wins at its next move."""
        if not y_wins:
            return False
        y = 1 - x
        legal = self.legal
        threats = y_wins & legal(y, ys, xs)
        if not threats:
            return False
        legal_x = legal(x, xs, ys)
        if x_wins & legal_x:
            return False
        # a placement outside the region leaves some threat legal (its zone is unchanged);
        # X's stone adds no winning point of Y's, it can only take or forbid one
        # (no placement at all: X passes, and Y, who can place on a threat, wins)
        defences = _bits(legal_x & self.region(threats))
        return all(y_wins & legal(y, ys, xs | low) for low in defences)


def relevant_moves(
    pos: MinefieldPosition, level: int = 3, theorem_o: bool = False
) -> tuple[Move, ...]:
    """The moves of ``pos`` not proved to lose (module docstring), never empty while the
    game goes on; ``level`` 2 or 3 (:data:`LEVELS`); ``theorem_o`` counts 8-connected
    paths as wins in the orthogonal game (sound by Theorem O, but then distances are
    those of the ortho-diagonal game).

    >>> from boardproof import models
    >>> pos = models.get("minefield", win="orthodiagonal").parse_position("4/4/2b1/1b2 w -")
    >>> [str(m) for m in relevant_moves(pos, 2)]  # no threat: nothing to drop at 2 plies
    ['a1', 'd1', 'a2', 'd2', 'a3', 'b3', 'c3', 'd3', 'a4', 'b4', 'c4', 'd4']
    >>> [str(m) for m in relevant_moves(pos)]  # the rest lose within 4 plies
    ['a1', 'd1', 'a2', 'c3', 'a4', 'c4']
    """
    moves = pos.legal_moves()
    if len(moves) <= 1 or pos.swap_available():
        return moves
    ctx = _Context(pos, theorem_o)
    x = pos.to_move
    y = 1 - x
    xs, ys = (pos.black, pos.white) if x == BLACK else (pos.white, pos.black)
    empty = ctx.full & ~(xs | ys)
    legal_x = pos.legal_placements()
    mine = ctx.wins(xs, x, empty) & legal_x
    t = ctx.t
    if mine:
        COUNTS["win"] += len(moves) - 1
        return (t.moves_of(mine & -mine)[0],)
    y_wins = ctx.wins(ys, y, empty)
    legal = ctx.legal
    threats = y_wins & legal(y, ys, xs)
    # placements that may change the legality of Y's winning points: the rest keep it
    touching = ctx.full if not threats else ctx.region(threats)
    unlock = 0
    for low in _bits(y_wins & ~threats):
        unlock |= ctx.zone[low.bit_length() - 1]
    # Y's replies that leave it a winning point (the only ones that can beat X at once),
    # with those points: a stone of X only removes its own point from them
    replies = 0
    after: dict[int, int] = {}
    if level >= 3:
        for low in _bits(empty):
            found = ctx.wins(ys | low, y, empty & ~low)
            if found:
                replies |= low
                after[low] = found
    kept = 0
    lose2 = lose4 = 0
    for low in _bits(legal_x):
        if threats and not low & touching:
            lose2 |= low
            continue
        if (threats or low & unlock) and y_wins & legal(y, ys, xs | low):
            lose2 |= low
            continue
        if replies:
            xs2 = xs | low
            x_wins = ctx.wins(xs2, x, empty & ~low)
            for s in _bits(replies & legal(y, ys, xs2)):
                if ctx.no_defence(xs2, ys | s, x, after[s] & ~low, x_wins & ~s):
                    lose4 |= low
                    break
            else:
                kept |= low
            continue
        kept |= low
    if not kept:
        keep = lose4 & -lose4 if lose4 else lose2 & -lose2
        COUNTS["must2" if not lose4 else "must4"] += len(moves) - 1
        return (t.moves_of(keep)[0],)
    COUNTS["must2"] += lose2.bit_count()
    COUNTS["must4"] += lose4.bit_count()
    if not lose2 and not lose4:
        return moves
    return tuple(t.moves_of(kept))


def move_filter(
    level: int = 3, theorem_o: bool = False
) -> Callable[[MinefieldPosition], tuple[Move, ...]]:
    """:func:`relevant_moves` with its options fixed: the ``moves`` of the searches.

    >>> from boardproof import models
    >>> move_filter(2)(models.get("minefield").start(size=3))[:2]
    (a1, b1)
    """
    if level not in LEVELS:
        raise ValueError(f"invalid level: expected one of {LEVELS}, got {level!r}")
    # df-pn expands a position many times: remember the answers of the last ones
    found: dict[tuple[int, int, int, int, bool], tuple[Move, ...]] = {}

    def moves(pos: MinefieldPosition) -> tuple[Move, ...]:
        key = pos.key()
        kept = found.get(key)
        if kept is None:
            if len(found) >= CACHE_SIZE:
                found.clear()
            kept = found[key] = relevant_moves(pos, level, theorem_o)
        return kept

    return moves
