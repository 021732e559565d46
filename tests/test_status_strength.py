"""``status()`` flags impossible positions and stays [] on every reachable one."""

from __future__ import annotations

import random

import pytest

from boardproof import models
from boardproof.models.minefield.rules import skips_possible

MINEFIELD = models.get("minefield")


@pytest.mark.parametrize(
    ("game", "text", "words"),
    [
        # four white stones, no black one, Black to move: Black would have skipped 4 turns
        ("minefield", "ww3/ww3/5/5/5 b -", "no sequence of turns"),
        ("minefield", "wwwww/wwwww/wwwww/wwwww/wwwww b -", "no sequence of turns"),
        ("minefield", "bb3/bb3/5/5/5 w -", "no sequence of turns"),
        ("carpniches", "(ccc)(ccc)(ccc)(ccc)(ccc)(ccc)/6/6/6/6/6 c -", "18 capybaras"),
    ],
)
def test_impossible_positions_are_flagged(game: str, text: str, words: str) -> None:
    problems = models.get(game).parse_position(text).status()
    assert any(words in p for p in problems), problems


def test_skips_explain_counts_only_with_enough_answers() -> None:
    # b = w + 3 with White to move needs 2 skips of White, answered by black stones
    # placed on a board of >= 2 stones (5x5): fine with 5 b and 2 w
    assert skips_possible(MINEFIELD.parse_position("bbbbb/5/5/ww3/5 w -"))
    assert not skips_possible(MINEFIELD.parse_position("bbb2/5/5/5/5 w -"))


def _reachable(n: int) -> set:  # type: ignore[type-arg]
    start = MINEFIELD.start(size=n)
    seen = {start}
    frontier = [start]
    while frontier:
        nxt = []
        for pos in frontier:
            if pos.outcome() is not None:
                continue
            for move in pos.legal_moves():
                child = pos.play(move)
                if child not in seen:
                    seen.add(child)
                    nxt.append(child)
        frontier = nxt
    return seen


def test_minefield_status_is_empty_on_every_reachable_3x3_position() -> None:
    positions = _reachable(3)
    assert len(positions) == 3531
    assert sum(1 for p in positions if p.legal_moves() and str(p.legal_moves()[0]) == "pass")
    assert [p.fen() for p in positions if p.status()] == []


def test_minefield_status_is_empty_along_random_games_with_skips() -> None:
    rng = random.Random(7)
    games_with_skips = 0
    for n in (4, 5, 6, 7):
        for _ in range(100):
            pos = MINEFIELD.start(size=n)
            skipped = False
            while pos.outcome() is None:
                move = rng.choice(pos.legal_moves())
                skipped = skipped or str(move) == "pass"
                pos = pos.play(move)
                if skipped:  # before any skip the count check is the plain alternation
                    assert pos.status() == [], pos.fen()
            games_with_skips += skipped
    assert games_with_skips >= 5  # the skip rule was exercised
