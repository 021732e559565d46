"""Minefield's solving knowledge (boardproof.models.minefield.knowledge) against brute force.

The contract of a move filter: a non-empty subset of the legal moves whose best move has
the value *and distance* of the best legal move. Checked with an exact memoised negamax
on every 2x2 and 3x3 position (both win rules, both levels), on sampled 4x4 positions
(every one in ``long``) and on the variants' positions; on sampled 5x5 positions with the
plain alpha-beta; and through the searches that take the filter (alpha-beta, df-pn). A
deliberately broken zone (the glyph windows shrunk to the point itself) must be caught.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from boardproof import models
from boardproof.models.minefield import knowledge
from boardproof.models.minefield.board import tables
from boardproof.models.minefield.rules import MinefieldPosition
from boardproof.solvers.pns import DFPN
from boardproof.solvers.search import AlphaBeta
from boardproof.testing.random_play import unfinished_positions

WIN = 1000
RULES = ("orthogonal", "orthodiagonal")


class Oracle:
    """Exact scores by memoised negamax: WIN - d for a win in d plies, -(WIN - d) for a
    loss, 0 for a draw (symmetric positions share an entry)."""

    def __init__(self) -> None:
        self.memo: dict[Any, int] = {}

    def score(self, pos: MinefieldPosition) -> int:
        outcome = pos.outcome()
        if outcome is not None:
            if len(outcome.winners) != 1:
                return 0
            return WIN if pos.to_move in outcome.winners else -WIN
        key = pos.canonical()[0]
        found = self.memo.get(key)
        if found is None:
            found = max(self.after(pos, move) for move in pos.legal_moves())
            self.memo[key] = found
        return found

    def after(self, pos: MinefieldPosition, move: Any) -> int:
        """The score of ``move`` for the side to move of ``pos``."""
        child = pos.play(move)
        value = self.score(child)
        if child.to_move != pos.to_move:
            value = -value
        return value - 1 if value > 0 else value + 1 if value < 0 else 0


def every_position(game: Any, n: int, pie: bool = True) -> list[MinefieldPosition]:
    """Every unfinished position reachable from the empty board, one per symmetry class."""
    seen: set[Any] = set()
    out = []
    stack = [game.start(size=n, pie=pie)]
    while stack:
        pos = stack.pop()
        key = pos.canonical()[0]
        if key in seen or pos.outcome() is not None:
            continue
        seen.add(key)
        out.append(pos)
        stack.extend(pos.play(move) for move in pos.legal_moves())
    return out


def violations(
    positions: Iterable[MinefieldPosition],
    moves: Callable[[MinefieldPosition], tuple[Any, ...]],
    oracle: Oracle,
) -> list[str]:
    """The positions where the filter breaks its contract (empty: none)."""
    bad = []
    for pos in positions:
        legal = pos.legal_moves()
        kept = moves(pos)
        if not kept or not set(kept) <= set(legal):
            bad.append(f"{pos.fen()}: kept {kept}")
            continue
        best = max(oracle.after(pos, move) for move in legal)
        if max(oracle.after(pos, move) for move in kept) != best:
            bad.append(f"{pos.fen()}: kept {[str(m) for m in kept]}")
    return bad


def _sample(game: Any, n: int, count: int, seed: int, low: int) -> list[MinefieldPosition]:
    return unfinished_positions(
        lambda: game.start(size=n, pie=False),
        count,
        random.Random(seed),
        plies=lambda r: r.randrange(low, n * n),
    )


@pytest.mark.parametrize("win", RULES)
@pytest.mark.parametrize("level", knowledge.LEVELS)
def test_every_2x2_and_3x3_position_keeps_a_best_move(win: str, level: int) -> None:
    game = models.get("minefield", win=win)
    positions = every_position(game, 2) + every_position(game, 3)
    assert len(positions) > 700
    before = sum(len(pos.legal_moves()) for pos in positions)
    after = sum(len(knowledge.relevant_moves(pos, level)) for pos in positions)
    assert after < 0.7 * before  # the filter drops moves ...
    assert violations(positions, knowledge.move_filter(level), Oracle()) == []  # ... soundly


@pytest.mark.parametrize("win", RULES)
def test_sampled_4x4_positions_keep_a_best_move(win: str) -> None:
    game = models.get("minefield", win=win)
    positions = _sample(game, 4, 150, 4, 6)
    oracle = Oracle()
    for level in knowledge.LEVELS:
        assert violations(positions, knowledge.move_filter(level), oracle) == []


@pytest.mark.parametrize("variant", ["pinwheel", "cartwheel"])
def test_the_variants_keep_a_best_move(variant: str) -> None:
    """AbstractPlay's variants (other glyphs, wider zones): every 3x3 position and sampled
    4x4 ones, in the ortho-diagonal game the Python searches solve them in."""
    game = models.get("minefield", win="orthodiagonal", variant=variant)
    positions = every_position(game, 3) + _sample(game, 4, 100, 9, 6)
    assert violations(positions, knowledge.move_filter(3), Oracle()) == []


@pytest.mark.long
@pytest.mark.parametrize("win", RULES)
def test_every_4x4_position_keeps_a_best_move(win: str) -> None:
    game = models.get("minefield", win=win)
    positions = every_position(game, 4)
    assert violations(positions, knowledge.move_filter(3), Oracle()) == []


def test_the_theorem_o_option_keeps_a_winning_move_in_the_orthogonal_game() -> None:
    """With ``theorem_o`` the orthogonal game is pruned by 8-connected threats: the value
    stays (Theorem O), the distance may not."""
    game = models.get("minefield")
    oracle = Oracle()
    for pos in every_position(game, 3) + _sample(game, 4, 100, 7, 7):
        kept = knowledge.relevant_moves(pos, 3, theorem_o=True)
        best = max(oracle.after(pos, move) for move in pos.legal_moves())
        found = max(oracle.after(pos, move) for move in kept)
        assert (best > 0) == (found > 0) and (best < 0) == (found < 0), pos.fen()


def test_a_broken_zone_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shrink every zone to its point: a placement that blocks a threat by making it
    illegal is then taken for a losing one, and the brute force sees it."""
    game = models.get("minefield", win="orthodiagonal")
    positions = every_position(game, 3) + _sample(game, 4, 150, 4, 7)
    assert violations(positions, knowledge.move_filter(2), Oracle()) == []

    def point_only(n: int, variant: str) -> tuple[int, ...]:
        return tuple(1 << b for b in range(n * (n + 3)))

    monkeypatch.setattr(knowledge, "zones", point_only)
    assert violations(positions, knowledge.move_filter(2), Oracle())


@pytest.mark.parametrize("variant", ["standard", "pinwheel", "cartwheel"])
def test_a_stone_outside_a_points_zone_never_changes_its_legality(variant: str) -> None:
    """The soundness of the zones: for sampled positions, every empty point t and every
    empty point m outside zone(t), placing m (either colour) leaves t's legality (for
    either colour) as it was."""
    game = models.get("minefield", variant=variant)
    rng = random.Random(3)
    for n in (4, 5, 6):
        t = tables(n)
        zone = knowledge.zones(n, variant)
        for pos in _sample(game, n, 12, rng.randrange(1000), 2):
            stones = (pos.black, pos.white)
            empty = t.full & ~(pos.black | pos.white)
            for colour in (0, 1):
                legal = t.variant_placements(variant, colour, stones[colour], stones[1 - colour])
                for m in range(n * t.width):
                    if not empty >> m & 1:
                        continue
                    for who in (0, 1):
                        after = list(stones)
                        after[who] |= 1 << m
                        now = t.variant_placements(
                            variant, colour, after[colour], after[1 - colour]
                        )
                        outside = [
                            q
                            for q in range(n * t.width)
                            if empty >> q & 1 and q != m and not zone[q] >> m & 1
                        ]
                        for q in outside:
                            assert (legal >> q & 1) == (now >> q & 1), (pos.fen(), q, m)


def test_sampled_5x5_positions_alpha_beta_with_and_without_the_filter() -> None:
    """Mid-game 5x5 positions: the pruned alpha-beta proves the plain one's value with the
    plain one's distance, in fewer nodes; every dropped move loses within 4 plies."""
    game = models.get("minefield", win="orthodiagonal")
    saved = 0
    for pos in _sample(game, 5, 12, 5, 10):
        plain = AlphaBeta(pos).iterate()
        pruned = AlphaBeta(pos, moves=knowledge.move_filter(3)).iterate()
        assert (pruned.value, pruned.plies) == (plain.value, plain.plies), pos.fen()
        saved += plain.nodes - pruned.nodes
        kept = set(knowledge.relevant_moves(pos))
        for move in pos.legal_moves():
            if move not in kept and len(kept) > 1:
                lost = AlphaBeta(pos.play(move)).iterate(max_depth=3)
                assert lost.value == "win" and lost.plies is not None and lost.plies <= 3
    assert saved > 0


@pytest.mark.parametrize(
    "fen",
    [
        "4/4/1b2/4 w -",
        pytest.param("4/4/4/b3 w -", marks=pytest.mark.long),
        pytest.param("4/4/b3/4 w -", marks=pytest.mark.long),
    ],
)
def test_4x4_entries_alpha_beta_and_dfpn_with_the_filter(fen: str) -> None:
    """The 4x4 opening-table entries: the same winners and distances with the filter
    (alpha-beta) and the same answers (df-pn), each in fewer nodes."""
    game = models.get("minefield", win="orthodiagonal")
    pos = game.parse_position(fen)
    plain = AlphaBeta(pos).iterate()
    pruned = AlphaBeta(pos, moves=knowledge.move_filter(3)).iterate()
    assert (pruned.value, pruned.plies) == (plain.value, plain.plies)
    assert pruned.nodes < plain.nodes
    proof = DFPN(pos).solve()
    proof_pruned = DFPN(pos, moves=knowledge.move_filter(3)).solve()
    assert proof_pruned.proved == proof.proved == (plain.value == "win")
    assert proof_pruned.nodes < proof.nodes


def test_bad_levels_are_refused() -> None:
    with pytest.raises(ValueError, match="invalid level"):
        knowledge.move_filter(4)
