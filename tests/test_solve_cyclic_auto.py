"""Pinned: `solve` (auto) on a small cyclic game settles the draw by enumeration.

Bug found in review: with no --max-plies, auto alpha-beta on a Carpniches position of two
lone pieces ran an unbounded pass that never finished; the enumeration that settles it
at once was only tried afterwards.
"""

from __future__ import annotations

from boardproof import models
from boardproof.solvers.api import solve


def test_two_lone_pieces_are_a_draw_by_auto() -> None:
    position = models.get("carpniches").parse_position("c5/6/6/6/6/5p c -")
    # the timeout only turns a regression into a failure instead of a hang
    result = solve(position, timeout=300)
    assert result.value == "draw"
    assert result.method == "auto:enumerate"


def test_max_plies_still_answers_unknown() -> None:
    position = models.get("carpniches").parse_position("c5/6/6/6/6/5p c -")
    result = solve(position, max_plies=4)
    assert result.value == "unknown"
    assert "within 4 plies" in result.note
