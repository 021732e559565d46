"""Minefield's ``canonical()`` hook: symmetric TT keys from per-size lookup tables."""

from __future__ import annotations

import random

import pytest

from boardproof import models
from boardproof.models.minefield import tables
from boardproof.models.minefield.board import CANON_TABLE_MAX_SIZE
from boardproof.solvers.api import solve
from boardproof.solvers.common import key_function, symmetric_key
from boardproof.solvers.search import FULL_DEPTH, AlphaBeta

GAME = models.get("minefield")


def reference(pos):
    """The slow reference: the smallest key over the 8 images built by ``transform``."""
    return min(pos.transform(s).key() for s in range(8))


def random_position(rng: random.Random, n: int):
    """Any stones (not necessarily reachable), any side to move and pie flag."""
    t = tables(n)
    fill = rng.random()
    black = white = 0
    for r in range(n):
        for f in range(n):
            roll = rng.random()
            bit = 1 << (r * t.width + f)
            if roll < fill / 2:
                black |= bit
            elif roll < fill:
                white |= bit
    side = rng.choice("bw")
    pie = rng.choice(["p", "-"])
    pos = GAME.start(size=n, pie=False)
    pos = type(pos)(pos.game, n, black, white, "bw".index(side), pie == "p")
    return GAME.parse_position(pos.fen())


def random_playout(rng: random.Random, n: int, plies: int):
    pos = GAME.start(size=n, pie=rng.random() < 0.5)
    for _ in range(plies):
        moves = pos.legal_moves()
        if not moves:
            break
        pos = pos.play(rng.choice(moves))
    return pos


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, CANON_TABLE_MAX_SIZE + 1])
def test_canonical_is_the_smallest_image_key(n: int) -> None:
    rng = random.Random(n)
    positions = [random_position(rng, n) for _ in range(60)]
    positions += [random_playout(rng, n, rng.randrange(n * n)) for _ in range(30)]
    positions.append(GAME.start(size=n))
    for pos in positions:
        key, s = pos.canonical()
        assert key == reference(pos)
        assert pos.transform(s).key() == key  # s maps the position onto its canonical image
        for t in range(8):
            image = pos.transform(t)
            assert image.canonical()[0] == key  # every symmetric image: the same key


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_canonical_keys_differ_for_positions_that_are_not_images(n: int) -> None:
    """Equal keys exactly when the positions are symmetric images (pairs of near neighbours)."""
    rng = random.Random(100 + n)
    t = tables(n)
    pool = [random_playout(rng, n, rng.randrange(n * n)) for _ in range(60)]
    # near misses: one stone moved or recoloured, the side or the pie flag flipped
    for pos in list(pool):
        cls = type(pos)
        pool.append(cls(pos.game, n, pos.black, pos.white, 1 - pos.to_move, pos.pie))
        pool.append(cls(pos.game, n, pos.black, pos.white, pos.to_move, not pos.pie))
        if pos.black:
            low = pos.black & -pos.black
            pool.append(cls(pos.game, n, pos.black ^ low, pos.white | low, pos.to_move, pos.pie))
            free = t.full & ~(pos.black | pos.white)
            if free:
                pool.append(
                    cls(pos.game, n, pos.black ^ low | (free & -free), pos.white, pos.to_move,
                        pos.pie)
                )
    images = {pos: {pos.transform(s).key() for s in range(8)} for pos in pool}
    equal = 0
    for a in pool:
        for b in pool:
            same = a.canonical()[0] == b.canonical()[0]
            assert same == (b.key() in images[a])
            equal += same and a.key() != b.key()
    assert equal > 0  # some distinct positions were symmetric images of each other


def test_empty_board_and_canonical_move_mapping() -> None:
    pos = GAME.start(size=4, pie=False)
    assert pos.canonical() == (pos.key(), 0)
    # the 4 corners as first moves: one canonical key; the stored move maps back
    keys = {pos.play(m).canonical()[0] for m in ("a1", "d1", "a4", "d4")}
    assert len(keys) == 1


def test_the_solver_uses_the_hook_at_every_depth() -> None:
    pos = GAME.start(size=3, pie=False)
    assert key_function(pos) is symmetric_key
    assert symmetric_key(pos.play("a1")) == pos.play("a1").canonical()
    assert AlphaBeta(pos).sym_plies == FULL_DEPTH


def test_values_with_and_without_symmetric_keys_agree() -> None:
    """Symmetric keys at every depth change no value or distance (random 4x4 positions)."""
    rng = random.Random(7)
    checked = 0
    while checked < 25:
        pos = random_playout(rng, 4, rng.randrange(4, 10))
        if pos.outcome() is not None:
            continue
        plain = AlphaBeta(pos, symmetry=False).iterate()
        folded = AlphaBeta(pos).iterate()
        assert (folded.value, folded.plies) == (plain.value, plain.plies)
        if folded.best_move is not None:
            after = pos.play(folded.best_move)  # a legal move of this very position
            assert after.outcome() is not None or after.legal_moves()
        checked += 1
    assert solve(GAME.start(size=3, pie=False), method="alphabeta").value == "win"


def test_search_restores_the_gc_threshold() -> None:
    import gc

    before = gc.get_threshold()
    AlphaBeta(GAME.start(size=3, pie=False)).iterate()
    assert gc.get_threshold() == before
