"""Minefield's variants (``--variant pinwheel`` / ``cartwheel``, AbstractPlay's): every glyph
against two brute-force references, perft files, pinned positions, the native refusals.

The references share no code with ``boardproof.models.minefield``:

- :func:`text_forms` checks each glyph literally from its definition in
  docs/games/minefield.md ("Variants"): every 2x2 block (or window) around the point;
- :func:`ap_forms` is a line-by-line port of AbstractPlay's ``canPlace``
  (src/games/minefield.ts in AbstractPlay/gameslib: its ``forbidden`` delta lists, every
  rotation and reflection, its off-board rule for the cartwheel), in its own coordinates
  (x from the left, y from the top; player 1, who moves first and owns the top and bottom
  edges, is boardproof's Black).

Run ``python tests/test_minefield_variants.py`` to rewrite the perft files
(``tests/data/minefield-pinwheel.perft``, ``minefield-cartwheel.perft``).
"""

from __future__ import annotations

import json
import pickle
import random
import sys
from collections import Counter
from pathlib import Path

import pytest
from naive_minefield import Naive

from boardproof import models
from boardproof.models.base import IllegalMoveError, InvalidOptionError, divide, game_options
from boardproof.models.minefield import (
    ALL_GLYPH_NAMES,
    BLACK,
    GLYPH_NAMES,
    VARIANT_GLYPHS,
    VARIANTS,
    WHITE,
    make_game,
    native,
    playouts,
    tables,
)
from boardproof.models.minefield.rules import from_cells
from boardproof.solvers.playouts import python_play

DATA = Path(__file__).parent / "data"
FILES = "abcdefghijklmnopqrstuvwxyz"
EMPTY, B, W = ".", "b", "w"
Grid = list[list[str]]  # grid[rank][file], rank 0 = rank 1

# ---------------------------------------------------------------------------
# reference 1: the glyphs as the rules document defines them
# ---------------------------------------------------------------------------

#: the glyphs of each variant, as the rules document lists them
TEXT_VARIANTS = {
    "standard": ("hard corner", "2x3 switch", "2x4 switch"),
    "pinwheel": ("hard corner", "2x3 switch", "pinwheel"),
    "cartwheel": ("hard corner", "2x3 switch", "pinwheel", "cartwheel"),
}


def colours_at(grid: Grid, f: int, r: int, beyond: bool) -> set[str] | None:
    """The stone colours of point (f, r): {b}, {w}, set() for an empty point; ``None`` off
    the board, unless ``beyond`` (the cartwheel): just beyond ranks 1 and n a black stone,
    beyond files a and the last a white one, beyond a corner both."""
    n = len(grid)
    if 0 <= f < n and 0 <= r < n:
        return set() if grid[r][f] == EMPTY else {grid[r][f]}
    if not beyond or not (-1 <= f <= n and -1 <= r <= n):
        return None
    found = set()
    if r in (-1, n):
        found.add(B)
    if f in (-1, n):
        found.add(W)
    return found


def ring(bf: int, br: int) -> list[tuple[int, int]]:
    """The 8 orthogonal neighbours of the 2x2 block with lower-left point (bf, br), in
    order going round it (two on each side)."""
    return [(bf, br - 1), (bf + 1, br - 1), (bf + 2, br), (bf + 2, br + 1),
            (bf + 1, br + 2), (bf, br + 2), (bf - 1, br + 1), (bf - 1, br)]  # fmt: skip


def _window(grid: Grid, f0: int, r0: int, w: int, h: int) -> bool:
    naive = Naive(grid, B, False)
    n = len(grid)
    return f0 >= 0 and r0 >= 0 and f0 + w <= n and r0 + h <= n and naive.window_is_glyph(
        f0, r0, w, h
    )


def text_forms(grid: Grid, f: int, r: int, colour: str, glyph: str, edges: bool = True) -> bool:
    """Does ``colour`` placing at the empty point (f, r) form ``glyph``? Literally.
    (``edges=False``: a cartwheel without the stones beyond the board.)"""
    n = len(grid)
    assert grid[r][f] == EMPTY
    grid[r][f] = colour
    try:
        if glyph in ("hard corner", "2x3 switch", "2x4 switch"):
            # the windows of the rulebook's glyphs that contain the point (naive_minefield)
            shapes = {"hard corner": ((2, 2),), "2x3 switch": ((2, 3), (3, 2)),
                      "2x4 switch": ((2, 4), (4, 2))}[glyph]  # fmt: skip
            return any(
                _window(grid, f0, r0, w, h)
                for w, h in shapes
                for f0 in range(f - w + 1, f + 1)
                for r0 in range(r - h + 1, r + 1)
            )
        beyond = glyph == "cartwheel" and edges
        for bf in range(-1, n):
            for br in range(-1, n):
                around = ring(bf, br)
                if (f, r) not in around:
                    continue
                block = [colours_at(grid, bf + i, br + j, False) for i in (0, 1) for j in (0, 1)]
                if any(c != set() for c in block):  # four empty points of the board
                    continue
                stones = [colours_at(grid, x, y, beyond) for x, y in around]
                if any(not c for c in stones):  # None (off the board) or empty
                    continue
                if glyph == "pinwheel":
                    # alternating colours going round: each next one is the other colour
                    if all(len(c) == 1 for c in stones) and all(
                        stones[k] != stones[(k + 1) % 8] for k in range(8)
                    ):
                        return True
                else:
                    sides = [stones[2 * k] & stones[2 * k + 1] for k in range(4)]
                    for one, other in ((B, W), (W, B)):
                        # one colour on two opposite sides, the other on the other two
                        if all(one in sides[k] for k in (0, 2)) and all(
                            other in sides[k] for k in (1, 3)
                        ):
                            return True
                        if all(one in sides[k] for k in (1, 3)) and all(
                            other in sides[k] for k in (0, 2)
                        ):
                            return True
        return False
    finally:
        grid[r][f] = EMPTY


# ---------------------------------------------------------------------------
# reference 2: AbstractPlay's canPlace, ported line by line
# ---------------------------------------------------------------------------

F, E = "f", "e"
#: ``forbidden`` of minefield.ts: (name, deltas (dx, dy, payload)); payload None = empty
AP_CORNER = [
    ("corner", [(1, 0, None), (1, 1, F), (0, 1, E)]),
    ("corner", [(0, -1, E), (1, -1, None), (1, 0, E)]),
]
AP_SWITCH2 = ("switch2", [(1, 0, E), (1, 1, None), (1, 2, F), (0, 2, E), (0, 1, None)])
AP_SWITCH3 = ("switch3", [(1, 0, E), (1, 1, None), (1, 2, None), (1, 3, F), (0, 3, E),
                          (0, 2, None), (0, 1, None)])  # fmt: skip
AP_PINWHEEL = ("pinwheel", [(1, 0, E), (2, 1, F), (2, 2, E), (1, 3, F), (0, 3, E), (-1, 2, F),
                            (-1, 1, E), (0, 1, None), (1, 1, None), (1, 2, None),
                            (0, 2, None)])  # fmt: skip
AP_CARTWHEEL = ("cartwheel", [(1, 0, F), (2, 1, E), (2, 2, E), (1, 3, F), (0, 3, F),
                              (-1, 2, E), (-1, 1, E), (0, 1, None), (1, 1, None),
                              (1, 2, None), (0, 2, None)])  # fmt: skip
#: boardproof's glyph names -> AbstractPlay's
AP_NAME = {"hard corner": "corner", "2x3 switch": "switch2", "2x4 switch": "switch3",
           "pinwheel": "pinwheel", "cartwheel": "cartwheel"}  # fmt: skip


def ap_forbidden(variants: list[str]) -> list[tuple[str, list[tuple[int, int, str | None]]]]:
    """``get forbidden()`` of minefield.ts."""
    lst = [*AP_CORNER, AP_SWITCH2]
    if "cartwheel" not in variants and "pinwheel" not in variants:
        lst.append(AP_SWITCH3)
    if "cartwheel" in variants:
        lst += [AP_PINWHEEL, AP_CARTWHEEL]
    elif "pinwheel" in variants:
        lst.append(AP_PINWHEEL)
    return lst


def all_rotations_and_reflections(deltas: list[tuple[int, int, str | None]]) -> list[list]:
    """``allRotationsAndReflections`` of common/plotting.ts (no normalisation; duplicates
    left in: they change no result)."""
    rotations = [lambda d: d, lambda d: (-d[1], d[0], d[2]), lambda d: (-d[0], -d[1], d[2]),
                 lambda d: (d[1], -d[0], d[2])]  # fmt: skip
    reflected = [(-dx, dy, p) for dx, dy, p in deltas]
    return [[rot(d) for d in deltas] for rot in rotations] + [
        [rot(d) for d in reflected] for rot in rotations
    ]


def ap_can_place(grid: Grid, f: int, r: int, player: int, variants: list[str],
                 only: str | None = None) -> bool:  # fmt: skip
    """``canPlace`` of minefield.ts (``only``: that glyph of the list alone)."""
    size = len(grid)
    x, y = f, size - 1 - r  # AbstractPlay's row 0 is the top

    def contents(nx: int, ny: int) -> int | None:
        stone = grid[size - 1 - ny][nx]
        return None if stone == EMPTY else (1 if stone == B else 2)

    for name, deltas in ap_forbidden(variants):
        if only is not None and name != only:
            continue
        for transform in all_rotations_and_reflections(deltas):
            match = True
            for dx, dy, payload in transform:
                nx, ny = x + dx, y + dy
                is_friendly = is_enemy = is_empty = False
                if name == "cartwheel":
                    if nx < -1 or nx > size or ny < -1 or ny > size:
                        match = False
                        break
                    if 0 <= nx < size and 0 <= ny < size:
                        found = contents(nx, ny)
                        if found == player:
                            is_friendly = True
                        elif found is not None:
                            is_enemy = True
                        else:
                            is_empty = True
                    else:
                        if ny in (-1, size):
                            if player == 1:
                                is_friendly = True
                            else:
                                is_enemy = True
                        if nx in (-1, size):
                            if player == 2:
                                is_friendly = True
                            else:
                                is_enemy = True
                else:
                    if nx < 0 or nx >= size or ny < 0 or ny >= size:
                        match = False
                        break
                    found = contents(nx, ny)
                    if found == player:
                        is_friendly = True
                    elif found is not None:
                        is_enemy = True
                    else:
                        is_empty = True
                if payload == F and not is_friendly:
                    match = False
                    break
                if payload == E and not is_enemy:
                    match = False
                    break
                if payload is None and not is_empty:
                    match = False
                    break
            if match:
                return False
    return True


def ap_forms(grid: Grid, f: int, r: int, colour: str, glyph: str) -> bool:
    player = 1 if colour == B else 2
    variant = "cartwheel" if glyph in ("pinwheel", "cartwheel") else "standard"
    return not ap_can_place(grid, f, r, player, [variant], only=AP_NAME[glyph])


def uses_beyond(grid: Grid, f: int, r: int, colour: str) -> bool:
    """Does ``colour`` at (f, r) form a cartwheel only thanks to points beyond the board?"""
    return text_forms(grid, f, r, colour, "cartwheel") and not text_forms(
        grid, f, r, colour, "cartwheel", edges=False
    )


# ---------------------------------------------------------------------------
# boards
# ---------------------------------------------------------------------------


def fen_of(grid: Grid, side: str = B) -> str:
    n = len(grid)
    cells = tuple({EMPTY: 0, B: 1, W: 2}[grid[r][f]] for r in range(n) for f in range(n))
    return from_cells(cells, n, BLACK if side == B else WHITE).fen()


def random_board(rng: random.Random, n: int) -> Grid:
    """Random stones, with nearly formed pinwheels and cartwheels planted at random
    blocks (cartwheels often on the board's edges and corners): their block emptied, their
    ring filled (the points on the board), then one point of the ring emptied, sometimes
    another one changed (a near miss)."""
    density = rng.choice((0.15, 0.3, 0.5))
    grid = [[rng.choice((B, W)) if rng.random() < density else EMPTY for _ in range(n)]
            for _ in range(n)]  # fmt: skip
    for _ in range(1 + n // 6):
        kind = rng.choice(("pinwheel", "cartwheel", "cartwheel", "random"))
        if kind == "pinwheel":  # its whole ring on the board
            bf, br = rng.randrange(1, n - 2), rng.randrange(1, n - 2)
        else:
            bf = rng.choice((0, n - 2, rng.randrange(n - 1), rng.randrange(n - 1)))
            br = rng.choice((0, n - 2, rng.randrange(n - 1), rng.randrange(n - 1)))
        for i in (0, 1):
            for j in (0, 1):
                grid[br + j][bf + i] = EMPTY
        first, second = rng.sample((B, W), 2)
        turn = rng.randrange(2)
        on_board = [(x, y) for x, y in ring(bf, br) if 0 <= x < n and 0 <= y < n]
        for k, (x, y) in enumerate(ring(bf, br)):
            if (x, y) not in on_board:
                continue
            if kind == "pinwheel":
                grid[y][x] = first if k % 2 else second
            elif kind == "cartwheel":
                # Black beyond the top and bottom, White beyond the sides: an edge block's
                # cartwheel has them on its outer sides (turn: the colours the other way)
                grid[y][x] = (B, W)[(k // 2 + turn) % 2]
            else:
                grid[y][x] = rng.choice((B, W, EMPTY))
        x, y = rng.choice(on_board)
        grid[y][x] = EMPTY
        if rng.random() < 0.25:
            x, y = rng.choice(on_board)
            grid[y][x] = rng.choice((EMPTY, B, W))
    return grid


def library_forms(grid: Grid, glyph: str, colour: str) -> int:
    """The library's bitboard of the empty points where ``colour`` would form ``glyph``."""
    n = len(grid)
    t = tables(n)
    pos = make_game().parse_position(fen_of(grid))
    own, opp = (pos.black, pos.white) if colour == B else (pos.white, pos.black)
    empty = t.full & ~(own | opp)
    return empty & t.glyph_forbidden((glyph,), BLACK if colour == B else WHITE)(own, opp, empty)


def bit(n: int, f: int, r: int) -> int:
    return 1 << (r * (n + 3) + f)


SIZES = range(4, 27)


def check_board(grid: Grid, seen: Counter[str]) -> None:
    """Every glyph and every variant on ``grid``: library == text reference == AbstractPlay."""
    n = len(grid)
    empties = [(f, r) for r in range(n) for f in range(n) if grid[r][f] == EMPTY]
    for colour in (B, W):
        formed: dict[str, set[tuple[int, int]]] = {}
        for glyph in ALL_GLYPH_NAMES:
            mine = library_forms(grid, glyph, colour)
            text = {p for p in empties if text_forms(grid, *p, colour, glyph)}
            ap = {p for p in empties if ap_forms(grid, *p, colour, glyph)}
            got = {p for p in empties if mine & bit(n, *p)}
            assert text == ap, (glyph, colour, fen_of(grid), sorted(text ^ ap))
            assert got == text, (glyph, colour, fen_of(grid), sorted(got ^ text))
            formed[glyph] = text
            seen[glyph] += len(text)
            if glyph == "cartwheel":
                seen["cartwheel beyond the board"] += sum(
                    uses_beyond(grid, *p, colour) for p in text
                )
        for variant in VARIANTS:
            pos = make_game(variant=variant).parse_position(fen_of(grid, colour))
            legal = {(m.file, m.rank) for m in tables(n).moves_of(pos.legal_placements())}
            glyphs = TEXT_VARIANTS[variant]
            expected = {p for p in empties if not any(p in formed[g] for g in glyphs)}
            assert legal == expected, (variant, colour, fen_of(grid))
            ap_legal = {p for p in empties if ap_can_place(grid, *p, 1 if colour == B else 2,
                                                           [variant])}  # fmt: skip
            assert ap_legal == expected, (variant, colour, fen_of(grid))
            other = pos.opponent_placements()
            back = make_game(variant=variant).parse_position(fen_of(grid, W if colour == B else B))
            assert other == back.legal_placements()


@pytest.mark.parametrize("n", SIZES)
def test_every_glyph_against_both_references(n: int) -> None:
    rng = random.Random(3000 + n)
    seen: Counter[str] = Counter()
    for _ in range(3 if n <= 8 else 1):
        check_board(random_board(rng, n), seen)


def test_the_random_boards_hold_every_glyph() -> None:
    """The planted boards do exercise each glyph, the cartwheel's beyond-the-board stones
    above all (else the comparisons above would prove little)."""
    rng = random.Random(7)
    seen: Counter[str] = Counter()
    for n in range(4, 11):
        for _ in range(4):
            check_board(random_board(rng, n), seen)
    assert all(seen[g] >= 3 for g in ALL_GLYPH_NAMES), seen
    assert seen["cartwheel beyond the board"] >= 3, seen
    assert seen["cartwheel"] - seen["cartwheel beyond the board"] >= 1, seen


@pytest.mark.long
@pytest.mark.parametrize("n", SIZES)
def test_every_glyph_against_both_references_long(n: int) -> None:
    rng = random.Random(9000 + n)
    seen: Counter[str] = Counter()
    for _ in range(12):
        check_board(random_board(rng, n), seen)


def _exhaust(n: int, block: tuple[int, int], free: list[tuple[int, int]]) -> None:
    """Every filling of the points ``free`` of an n x n board (the others empty, the 2x2
    block at ``block`` among them): both references agree at every empty point."""
    import itertools

    for states in itertools.product((EMPTY, B, W), repeat=len(free)):
        grid = [[EMPTY] * n for _ in range(n)]
        for (x, y), state in zip(free, states, strict=True):
            grid[y][x] = state
        for f, r in ring(*block):
            if 0 <= f < n and 0 <= r < n and grid[r][f] == EMPTY:
                for colour in (B, W):
                    for glyph in ("cartwheel", "pinwheel"):
                        assert text_forms(grid, f, r, colour, glyph) == ap_forms(
                            grid, f, r, colour, glyph
                        ), (fen_of(grid), f, r, colour, glyph)


def test_the_text_reference_is_abstractplays_exhaustively() -> None:
    """Every filling of the on-board neighbours of a corner block (3x3) and of an edge
    block (4x4): the rules document's wording and AbstractPlay's delta lists forbid the
    same placements (the random boards above cover the rest)."""
    _exhaust(3, (0, 0), [(0, 2), (1, 2), (2, 0), (2, 1), (2, 2)])
    _exhaust(4, (1, 0), [(0, 0), (0, 1), (3, 0), (3, 1), (1, 2), (2, 2)])


@pytest.mark.long
def test_the_text_reference_is_abstractplays_on_3x3_boards_long() -> None:
    """Every 3x3 board (3^9), every empty point."""
    _exhaust(3, (0, 0), [(f, r) for r in range(3) for f in range(3)])
    _exhaust(3, (1, 1), [(f, r) for r in range(3) for f in range(3)])


# ---------------------------------------------------------------------------
# pinned positions
# ---------------------------------------------------------------------------

#: a pinwheel round b2-c3 but for c4: Black's c4 forms it (and two 2x4 switches)
PINWHEEL_GAP = "4b/1w3/b2w1/w2b1/1bw2 b -"
#: White's pinwheel (the colours exchanged)
PINWHEEL_WHITE = "4w/1b3/w2b1/b2w1/1wb2 w -"
#: a cartwheel in the corner a1-b2 but for b3: Black beyond rank 1 and above (a3, b3),
#: White beyond file a and right of it (c1, c2)
CARTWHEEL_CORNER = "3b/b3/2w1/2w1 b -"
#: White's cartwheel in the corner c1-d2 but for b2: Black beyond rank 1 and above
#: (c3, d3), White beyond file d and left of it (b1, b2)
CARTWHEEL_WHITE = "4/2bb/4/1w2 w -"
#: a cartwheel on the bottom edge (block b1-c2) but for b3: Black beyond rank 1 and on
#: b3-c3, White on a1-a2 and d1-d2
CARTWHEEL_EDGE = "5/5/2b2/w2w1/w2w1 b -"


@pytest.mark.parametrize(
    ("fen", "point", "allowed"),
    [
        (PINWHEEL_GAP, "c4", {"standard": False, "pinwheel": False, "cartwheel": False}),
        (PINWHEEL_WHITE, "c4", {"standard": False, "pinwheel": False, "cartwheel": False}),
        (CARTWHEEL_CORNER, "b3", {"standard": True, "pinwheel": True, "cartwheel": False}),
        (CARTWHEEL_WHITE, "b2", {"standard": True, "pinwheel": True, "cartwheel": False}),
        (CARTWHEEL_EDGE, "b3", {"standard": True, "pinwheel": True, "cartwheel": False}),
    ],
)
def test_pinned_positions(fen: str, point: str, allowed: dict[str, bool]) -> None:
    for variant, ok in allowed.items():
        pos = make_game(variant=variant).parse_position(fen)
        move = pos.parse_move(point)
        assert (move in pos.legal_moves()) == ok, (variant, fen, point)
    why = {
        v: str(pytest.raises(IllegalMoveError, make_game(variant=v).parse_position(fen).play,
                             point).value)  # fmt: skip
        for v, ok in allowed.items()
        if not ok
    }
    if fen in (PINWHEEL_GAP, PINWHEEL_WHITE):
        assert why == {"standard": "illegal move c4: it forms a 2x4 switch",
                       "pinwheel": "illegal move c4: it forms a pinwheel",
                       "cartwheel": "illegal move c4: it forms a pinwheel"}  # fmt: skip
    else:
        assert why == {"cartwheel": f"illegal move {point}: it forms a cartwheel"}


def test_the_other_handedness_and_a_near_miss() -> None:
    """The mirror image of a pinwheel turns the other way (the same glyph); a ring with two
    stones of one colour side by side is none."""
    game = make_game(variant="pinwheel")
    mirrored = game.parse_position(PINWHEEL_GAP).transform(2)
    assert mirrored.fen() == "b4/3w1/1w2b/1b2w/2wb1 b -"
    assert mirrored.parse_move("c4") not in mirrored.legal_moves()
    near = game.parse_position("4b/1w3/b2w1/w2w1/1bw2 b -")  # d2 white
    assert near.parse_move("c4") in near.legal_moves()  # a 2x4 switch only: allowed


def test_the_2x4_switch_is_allowed_in_the_variants() -> None:
    # Black's d2 completes b . . w / w . . b on ranks 1-2 (files a-d): a 2x4 switch
    fen = "4/4/w2b/b2w b -"
    for variant, ok in (("standard", False), ("pinwheel", True), ("cartwheel", True)):
        pos = make_game(variant=variant).parse_position("4/4/w3/b2w b -")
        assert (pos.parse_move("d2") in pos.legal_moves()) == ok, variant
        assert make_game(variant=variant).parse_position(fen).status() == (
            [] if ok else ["a 2x4 switch at a1-d2"]
        ), variant


def test_status_sees_the_variants_glyphs() -> None:
    pinwheel = "5/1wb2/b2w1/w2b1/1bw2 b -"
    assert make_game(variant="pinwheel").parse_position(pinwheel).status() == [
        "a pinwheel at b2-c3"
    ]
    corner = "4/bb2/2w1/2w1 w -"
    assert make_game(variant="cartwheel").parse_position(corner).status() == [
        "a cartwheel at a1-b2"
    ]
    assert make_game(variant="pinwheel").parse_position(corner).status() == []
    # the empty 2x2 board is a cartwheel of stones beyond the board only: no problem
    assert make_game(variant="cartwheel").parse_position("2/2 b -").status() == []


def test_the_cartwheel_edges_follow_the_edge_owner_under_every_symmetry() -> None:
    """The 8 symmetries (the transposes exchange the colours and the edges) map legal
    moves to legal moves in every variant: what the symmetric transposition keys need."""
    rng = random.Random(11)
    for n in (4, 5, 7):
        for _ in range(4):
            grid = random_board(rng, n)
            for variant in VARIANTS:
                pos = make_game(variant=variant).parse_position(fen_of(grid, rng.choice((B, W))))
                moves = {m for m in pos.legal_moves() if m.is_placement}
                for s in range(8):
                    image = pos.transform(s)
                    assert {pos.transform_move(m, s) for m in moves} == {
                        m for m in image.legal_moves() if m.is_placement
                    }, (variant, pos.fen(), s)


# ---------------------------------------------------------------------------
# perft files
# ---------------------------------------------------------------------------


class VariantNaive(Naive):
    """tests/naive_minefield.py's rules with the variant's glyphs from :func:`text_forms`."""

    variant = "standard"

    @staticmethod
    def of(naive: Naive, variant: str) -> VariantNaive:
        found = VariantNaive(naive.grid, naive.side, naive.pie, naive.diagonal)
        found.variant = variant
        return found

    def can_place(self, colour: str, f: int, r: int) -> bool:
        if self.grid[r][f] != EMPTY:
            return False
        return not any(text_forms(self.grid, f, r, colour, g) for g in TEXT_VARIANTS[self.variant])

    def play(self, move: str) -> VariantNaive:
        return VariantNaive.of(Naive.play(self, move), self.variant)


def naive_perft(pos: Naive, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(naive_perft(pos.play(m), depth - 1) for m in pos.moves())


#: (id, position, depth) of each variant's perft file: sizes 4 and 5, positions a few
#: plies from the variant's glyphs (pinned above, and from seeded random games)
PERFT_CASES = {
    "pinwheel": [
        ("n4-empty", "4/4/4/4 b p", 4),
        ("n4-switch", "4/4/w3/b2w b -", 3),
        ("n5-gap", PINWHEEL_GAP, 3),
        ("n5-white", PINWHEEL_WHITE, 3),
        ("n5-ring", "4b/1w3/b4/w2b1/1bw2 w -", 3),
        ("n5-empty", "5/5/5/5/5 b -", 2),
    ],
    "cartwheel": [
        ("n4-empty", "4/4/4/4 b p", 4),
        ("n4-corner", CARTWHEEL_CORNER, 3),
        ("n4-corner-white", CARTWHEEL_WHITE, 3),
        ("n5-edge", CARTWHEEL_EDGE, 3),
        ("n5-gap", PINWHEEL_GAP, 3),
        ("n5-empty", "5/5/5/5/5 b -", 2),
    ],
}


def perft_path(variant: str) -> Path:
    return DATA / f"minefield-{variant}.perft"


def load_perft(path: Path) -> list[tuple[str, str, str, list[tuple[int, int]]]]:
    """(id, position, variant, [(depth, count)]) blocks; the format of minefield.perft
    with a ``variant`` line."""
    cases = []
    current: dict[str, object] = {}
    for raw in [*path.read_text().splitlines(), ""]:
        line = raw.strip()
        if line.startswith("#"):
            continue
        if not line:
            if current:
                depths = current["depths"]
                assert isinstance(depths, list)
                cases.append((str(current["id"]), str(current["position"]),
                              str(current["variant"]), depths))  # fmt: skip
            current = {}
            continue
        word, _, rest = line.partition(" ")
        if word == "depth":
            depth, count = rest.split()
            current.setdefault("depths", [])
            current["depths"].append((int(depth), int(count)))  # type: ignore[attr-defined]
        else:
            current[word] = rest
    return cases


def write_perft_files() -> None:
    """The perft files, counted by the library (the tests cross-check the reference)."""
    for variant, cases in PERFT_CASES.items():
        lines = [
            f"# Minefield perft regression, variant {variant} (AbstractPlay's; "
            "docs/games/minefield.md \"Variants\").",
            "# The format of minefield.perft: id, position, variant, depth <d> <count>.",
            "# Counts made by the library (python tests/test_minefield_variants.py) and",
            "# checked against the brute-force reference there.",
            "",
        ]
        for name, text, depth in cases:
            pos = make_game(variant=variant).parse_position(text)
            lines += [f"id {name}", f"position {text}", f"variant {variant}"]
            lines += [f"depth {d} {pos.perft(d)}" for d in range(1, depth + 1)]
            lines.append("")
        perft_path(variant).write_text("\n".join(lines))


PERFT = [(v, *case) for v in PERFT_CASES if perft_path(v).exists()
         for case in load_perft(perft_path(v))]  # fmt: skip


def test_perft_files_are_complete() -> None:
    for variant, cases in PERFT_CASES.items():
        listed = load_perft(perft_path(variant))
        assert [(c[0], c[1], c[2], len(c[3])) for c in listed] == [
            (name, text, variant, depth) for name, text, depth in cases
        ]
    # the variants change these counts: the files do test the variants' glyphs
    differ = [
        (variant, name)
        for variant, name, text, _, depths in PERFT
        if any(make_game().parse_position(text).perft(d) != count for d, count in depths)
    ]
    assert {v for v, _ in differ} == {"pinwheel", "cartwheel"}, differ


@pytest.mark.parametrize(("variant", "name", "text", "listed", "depths"), PERFT,
                         ids=[f"{c[0]}-{c[1]}" for c in PERFT])  # fmt: skip
def test_perft_file(variant: str, name: str, text: str, listed: str, depths: list) -> None:
    assert listed == variant
    pos = make_game(variant=variant).parse_position(text)
    reference = VariantNaive.of(Naive.parse(text), variant)
    for depth, count in depths:
        got = pos.perft(depth)
        if got != count:
            rows = [f"  {move}: {n}" for move, n in divide(pos, depth)]
            pytest.fail(f"{variant} {name} depth {depth}: got {got}, expected {count}\n"
                        + "\n".join(rows))  # fmt: skip
        if depth <= (3 if pos.n == 4 else 2):  # the rest: the long test
            assert naive_perft(reference, depth) == count, (variant, name, depth)


@pytest.mark.long
@pytest.mark.parametrize(("variant", "name", "text", "listed", "depths"), PERFT,
                         ids=[f"{c[0]}-{c[1]}" for c in PERFT])  # fmt: skip
def test_perft_file_against_the_reference_long(variant: str, name: str, text: str,
                                               listed: str, depths: list) -> None:  # fmt: skip
    reference = VariantNaive.of(Naive.parse(text), variant)
    for depth, count in depths:
        assert naive_perft(reference, depth) == count, (variant, name, depth)


# ---------------------------------------------------------------------------
# the option, the standard game unchanged, the native refusals, the command line
# ---------------------------------------------------------------------------


def test_the_option_and_the_standard_game() -> None:
    assert VARIANTS == ("standard", "pinwheel", "cartwheel")
    assert {v: TEXT_VARIANTS[v] for v in VARIANTS} == VARIANT_GLYPHS
    assert VARIANT_GLYPHS["standard"] == GLYPH_NAMES
    assert make_game(variant="standard") == make_game() != make_game(variant="pinwheel")
    assert models.get("minefield", variant="PINWHEEL").variant == "pinwheel"
    assert game_options(models.get("minefield", variant="cartwheel")) == {"variant": "cartwheel"}
    assert game_options(models.get("minefield")) == {}
    with pytest.raises(InvalidOptionError, match="invalid option variant: expected one of "
                       "standard, pinwheel, cartwheel, got 'wheel'"):  # fmt: skip
        make_game(variant="wheel")
    # the notation does not carry the variant (nor the win rule): it is the game's
    pos = make_game(variant="cartwheel", win="orthodiagonal").start(size=5)
    assert pos.fen() == "5/5/5/5/5 b p"
    assert repr(pos) == ("MinefieldPosition('5/5/5/5/5 b p', win='orthodiagonal', "
                         "variant='cartwheel')")  # fmt: skip
    assert repr(make_game().start(size=2)) == "MinefieldPosition('2/2 b p', win='orthogonal')"
    for game in (make_game(), make_game(variant="pinwheel", win="orthodiagonal")):
        again = pickle.loads(pickle.dumps(game))
        assert again == game and hash(again) == hash(game) and again.glyphs == game.glyphs
    assert pickle.dumps(make_game()) == pickle.dumps(models.get("minefield"))
    t = tables(5)
    assert t.forbidden_for("standard", BLACK) is t.forbidden is t.forbidden_for("standard", WHITE)


def test_native_paths_take_the_cartwheel() -> None:
    """The native searches and playouts take the pinwheel and the cartwheel (issue 30; its
    glyph counts points beyond the board as stones: per-colour role tables; checked in
    tests/test_minefield_variants_native.py and tests/test_native_cartwheel.py); a search
    built for another variant refuses a cartwheel position."""
    pos = make_game(variant="cartwheel").parse_position(PINWHEEL_GAP)
    assert native.accepts(pos) == native.supports(pos) == native.available()
    if native.available():
        assert native.accepts(make_game(variant="pinwheel").parse_position(PINWHEEL_GAP))
        search = native.search_for(5)
        with pytest.raises(InvalidOptionError, match="variant"):
            search.solve(pos)
    engine = models.info("minefield").part("engine")
    assert engine is not None and engine.accepts(pos) == native.available()
    # the playout kernel plays a cartwheel position as the Python twin does
    kernel = playouts.kernel("auto")
    for seed in range(6):
        assert kernel.play(pos, seed, 100) == python_play(pos, seed, 100)
    if playouts.available():
        code, _ = playouts.native_minefield(pos, 0, 100)
        assert code == python_play(pos, 0, 100)


def test_the_command_line_takes_the_variant(cli_run) -> None:
    status, out, _ = cli_run("perft", "minefield", PINWHEEL_GAP, "1", "--variant", "pinwheel")
    assert status == 0 and int(out) == make_game(variant="pinwheel").parse_position(
        PINWHEEL_GAP
    ).perft(1)
    # c4 forms a 2x4 switch in the standard game (which holds another one already)
    assert cli_run("perft", "minefield", PINWHEEL_GAP, "1", "--allow-impossible")[1] == out
    moves = cli_run("moves", "minefield", CARTWHEEL_CORNER, "--variant", "cartwheel")[1]
    assert "b3" not in moves.split() and "b3" in cli_run("moves", "minefield",
                                                          CARTWHEEL_CORNER)[1].split()
    status, out, err = cli_run("show", "minefield", PINWHEEL_GAP, "--variant", "wheel")
    assert status == 2 and err == (
        "error: invalid option --variant: expected one of standard, pinwheel, cartwheel, "
        "got 'wheel'\n"
    )
    status, out, _ = cli_run("show", "minefield", "5/1wb2/b2w1/w2b1/1bw2 b -", "--variant",
                             "pinwheel")  # fmt: skip
    assert status == 0 and "status: a pinwheel at b2-c3" in out


def test_solve_and_analyse_a_variant_position(cli_run) -> None:
    """The pinwheel and the cartwheel through the native search (issue 30), with the Python
    solvers' best move; ``--method native`` takes the cartwheel too."""
    late = "4/bb1w/2w1/1w1b b -"
    for variant in ("pinwheel", "cartwheel"):
        status, out, err = cli_run("solve", "minefield", late, "--variant", variant)
        assert status == 0, err
        assert f"method: auto:{'native' if native.available() else 'alphabeta'}" in out
        expected = make_game(variant=variant).parse_position(late)
        from boardproof import solve

        assert f"best move: {solve(expected, method='alphabeta').best_move}" in out
    status, out, err = cli_run("solve", "minefield", late, "--variant", "cartwheel", "--method",
                               "native")  # fmt: skip
    if native.available():
        assert status == 0 and "result: win for b" in out, err
    status, out, err = cli_run("analyse", "minefield", PINWHEEL_GAP, "--variant", "pinwheel",
                               "--iterations", "50", "--seed", "1")  # fmt: skip
    assert status == 0, err
    assert "best move:" in out and "c4" not in out.split("best move:")[1].split()[0]


if __name__ == "__main__":
    write_perft_files()
    for variant in PERFT_CASES:
        print(perft_path(variant).read_text(), file=sys.stderr)


def test_new_takes_the_game_options_and_shows_them_in_json(cli_run) -> None:
    """`new` takes Minefield's --variant and --win (game options, which the notation does
    not carry: --json names them); a bad value and another game's option give exit 2."""
    status, out, _ = cli_run("new", "minefield", "--variant", "cartwheel", "--size", "5")
    assert (status, out) == (0, "5/5/5/5/5 b p\n")
    status, out, _ = cli_run("new", "minefield", "--variant", "pinwheel", "--win",
                             "orthodiagonal", "--json")  # fmt: skip
    assert status == 0 and json.loads(out)["options"] == {"win": "orthodiagonal",
                                                          "variant": "pinwheel"}  # fmt: skip
    status, out, _ = cli_run("new", "minefield", "--json")
    assert status == 0 and "options" not in json.loads(out)
    status, _, err = cli_run("new", "minefield", "--variant", "wheel")
    assert status == 2 and err == ("error: invalid option --variant: expected one of standard, "
                                   "pinwheel, cartwheel, got 'wheel'\n")  # fmt: skip
    status, _, err = cli_run("new", "carpniches", "--variant", "pinwheel")
    assert status == 2 and "carpniches does not take it" in err


def test_puzzle_generate_plays_its_playouts_in_the_variant(cli_run, tmp_path) -> None:
    """`puzzle generate minefield --variant V`: the puzzles carry the variant, `puzzle
    check` re-verifies them in it, the same command gives the same puzzles, and the
    rulebook's run with the same seed is another one (its seeds are those of before)."""
    out = tmp_path / "cw.jsonl"
    args = ("puzzle", "generate", "minefield", "--count", "2", "--seed", "1", "--quiet")
    status, _, err = cli_run(*args[:-1], "--variant", "cartwheel", "--out", str(out))
    assert status == 0, err
    puzzles = [json.loads(line) for line in out.read_text().splitlines()]
    assert [p["options"] for p in puzzles] == [{"variant": "cartwheel"}] * 2
    status, text, _ = cli_run("puzzle", "check", str(out))
    assert status == 0 and text.endswith("2 puzzles checked: 2 ok, 0 failed\n")
    again = tmp_path / "again.jsonl"
    assert cli_run(*args[:-1], "--variant", "cartwheel", "--out", str(again))[0] == 0
    assert again.read_text() == out.read_text()
    plain = tmp_path / "plain.jsonl"
    assert cli_run(*args[:-1], "--out", str(plain))[0] == 0
    assert all("options" not in json.loads(line) or not json.loads(line)["options"]
               for line in plain.read_text().splitlines())  # fmt: skip
    status, _, err = cli_run("puzzle", "generate", "minefield", "--from-games", str(out),
                             "--variant", "pinwheel")  # fmt: skip
    assert status == 2 and err == ("error: invalid option --variant: the game records carry "
                                   "their own, got 'pinwheel'\n")  # fmt: skip
