"""Click paths and hit regions: every legal move is formed by exactly one sequence of clicks."""

from __future__ import annotations

import pytest

from boardproof import models
from boardproof.reports.play import click_path, clickable_svg, hit_regions, move_table

POSITIONS = {
    "minefield": "5/5/2b2/5/5 w p",
    "carpniches": "(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1",
    "candy": ".,.,.,.,./.,.,.,.,./.,.,1Os2Sx,.,./.,.,.,.,./.,.,.,.,. 1 2",
    "collexion": "base 1:g3<2.3,2:p8,3:g4,4:y3 g5.g8:-:-/-:-:- 234/234/234/234 1",
}


@pytest.mark.parametrize("game", sorted(POSITIONS))
def test_paths_are_distinct_and_board_targets_exist(game: str) -> None:
    pos = models.get(game).parse_position(POSITIONS[game])
    table = move_table(pos)
    paths = [tuple(path) for _, path in table]
    assert len(set(paths)) == len(paths)
    regions = {r[0] for r in hit_regions(pos)}
    for text, path in table:
        # the first click of a move on the board is a target of the picture
        if text not in ("swap", "pass") and not path[0].startswith(":"):
            assert path[0] in regions, (text, path)
    svg = clickable_svg(pos)
    assert svg.count('class="hit"') == len(regions) and svg.rstrip().endswith("</svg>")


def test_collexion_paths() -> None:
    assert click_path("collexion", "pass") == ["pass"]
    assert click_path("collexion", "12.7") == ["12", "7"]
    assert click_path("collexion", "s2g3:9.4/3b") == [":s2g3", "9", "4", "/3b"]
    assert click_path("collexion", "4+r2>g") == ["4", "+r2>g"]
