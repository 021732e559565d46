"""The rules' fast paths (issue 15's generator speed-ups) against their plain versions.

Candy Conquest's inlined ``wins_at``, memoised reserve masks, set-based legality and
inlined end test; Carpniches' memoised ``has_line``, early-exit ``canonical`` and inlined
``play``; and the generator's native candidate filter, which may only reject what the
Python searches reject too.
"""

from __future__ import annotations

import random
import re

import pytest

from boardproof.models import candy, carpniches
from boardproof.models.base import IllegalMoveError, Outcome
from boardproof.models.carpniches import native
from boardproof.models.carpniches import rules as carp
from boardproof.puzzles import generate as gen

# ---------------------------------------------------------------------------
# Candy Conquest
# ---------------------------------------------------------------------------


def _random_columns(rng: random.Random, colours: int) -> list[tuple[int, ...]]:
    """Columns of random candies (any colour, any orientation, 0..6 high): not always
    reachable, which only widens what wins_at and wins_at_plain are compared on."""
    return [
        tuple(12 * rng.randrange(colours) + rng.randrange(12) for _ in range(rng.choice(
            (0, 0, 1, 1, 2, 2, 3, 4, 5, 6))))
        for _ in range(candy.SQUARE_COUNT)
    ]  # fmt: skip


def test_candy_wins_at_equals_the_plain_version_on_random_columns() -> None:
    rng = random.Random(15)
    checked = wins = 0
    for _ in range(1500):
        cols = _random_columns(rng, rng.choice((2, 4)))
        for square in range(candy.SQUARE_COUNT):
            if not cols[square]:
                continue
            for colour in range(4):
                fast = candy.wins_at(cols, square, colour)
                assert fast == candy.rules.wins_at_plain(cols, square, colour), (cols, square)
                checked += 1
                wins += fast
    assert checked > 50_000 and 1000 < wins < checked - 1000  # both answers are common


def _candy_playout_positions(seed: int, players: int) -> list[candy.CandyPosition]:
    rng = random.Random(seed)
    pos = candy.make_game().start(players=players)
    line = [pos]
    while pos.outcome() is None:
        pos = pos.play(rng.choice(pos.legal_moves()))
        line.append(pos)
    return line


def test_candy_play_and_outcome_equal_the_plain_rules_along_random_games() -> None:
    for seed in range(3):
        for pos in _candy_playout_positions(seed, 2 + seed % 3)[::3]:
            colours = range(pos.players)
            plain_end: Outcome | None
            winners = candy.rules.line_colours(pos.cols, pos.players)
            if winners:
                plain_end = Outcome(frozenset(winners))
            elif any(pos.can_place(p) for p in colours):
                plain_end = None
            else:
                plain_end = Outcome.draw()
            assert pos.outcome() == plain_end, pos.fen()
            for player in colours:  # the placement table against the plain generator
                mask = candy.rules._reserve_mask(pos._counts[player])
                plain = [candy.rules._MOVE_TABLE[sq][code]
                         for sq, code in candy.rules._placements(pos.cols, mask)]  # fmt: skip
                assert pos.placements(player) == plain
            # the position re-read from its text (no cached win, counts recomputed)
            assert pos.game.parse_position(pos.fen()).outcome() == plain_end
            legal = set(pos.legal_moves())
            for move in sorted(legal)[::3]:  # the win play cached = the one read from the board
                child = pos.play(move)
                again = pos.game.parse_position(child.fen())
                assert child == again and child.outcome() == again.outcome()
            everything = [candy.CandyMove(sq, code) for sq in range(25) for code in range(12)]
            for move in random.Random(pos.fen()).sample(everything, 40):
                if move not in legal:
                    with pytest.raises(IllegalMoveError):
                        pos.play(move)


# ---------------------------------------------------------------------------
# Carpniches
# ---------------------------------------------------------------------------


def test_carpniches_has_line_memo_equals_the_plain_test() -> None:
    rng = random.Random(15)
    boards = [rng.getrandbits(36) & rng.getrandbits(36) for _ in range(20_000)]
    for tops in boards + boards[:5000]:  # the second pass reads the memo
        assert carp.has_line(tops) == carp.has_line_plain(tops)


def _carpniches_positions(seed: int) -> list[carp.CarpnichesPosition]:
    rng = random.Random(seed)
    pos = carpniches.START_POSITION
    line = [pos]
    while pos.outcome() is None and len(line) < 200:
        pos = pos.play(rng.choice(pos.legal_moves()))
        line.append(pos)
    return line


def test_carpniches_canonical_and_play_equal_the_plain_versions() -> None:
    carp._canonical.cache_clear()
    moves = [carp.MOVES[f][t] for f in range(36) for t in range(36)]
    for seed in range(3):
        for pos in _carpniches_positions(seed)[::6]:
            for image in (pos, *(pos.transform(s) for s in range(1, 8))):
                assert image.canonical() == carp.canonical_plain(image)
            for move in moves:
                reason = pos.illegality(move)
                if reason is None:
                    assert pos.play(move) == pos._play_unchecked(*move)
                else:
                    with pytest.raises(IllegalMoveError, match=re.escape(reason)):
                        pos.play(move)


# ---------------------------------------------------------------------------
# the generator's native filter
# ---------------------------------------------------------------------------


@pytest.mark.skipif(not native.available(), reason="C module not built")
def test_native_filter_rejects_only_what_the_python_searches_reject(monkeypatch) -> None:
    settings = gen.settings_for("carpniches")
    candidates: list[carp.CarpnichesPosition] = []
    for index in range(2):
        rng = gen.Task("carpniches", 1, index, settings).rng()
        for _ in range(settings.playouts):
            start, _ = gen.start_position("carpniches", rng)
            line = gen.playout(start, rng, settings.greedy)
            if line is not None:
                end = len(line) - 1
                candidates += [line[end - k][0] for k in (3, 5) if end - k >= 0]
    rejected = [pos for pos in candidates if gen.native_rejection(pos, settings) is not None]
    assert 3 <= len(rejected) < len(candidates)
    monkeypatch.setattr(native, "supports", lambda position: False)
    for pos in rejected:
        assert gen.evaluate(pos, settings, "carpniches", {})[0] is None, pos.fen()


@pytest.mark.skipif(not native.available(), reason="C module not built")
def test_puzzles_are_the_same_without_the_native_filter(monkeypatch) -> None:
    found = gen.generate("carpniches", 2, seed=4, progress=False).puzzles
    monkeypatch.setattr(native, "supports", lambda position: False)
    assert gen.generate("carpniches", 2, seed=4, progress=False).puzzles == found
