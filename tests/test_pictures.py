"""Pictures a reader looks at: the no-draw chart's axes and legend."""

from __future__ import annotations

import json
import re
from pathlib import Path

from boardproof.models.minefield.research.claims_report import plot_svg

ROOT = Path(__file__).resolve().parent.parent


def _texts(svg: str) -> list[str]:
    return re.findall(r"<text [^>]*>([^<]*)</text>", svg)


def test_nodraw_chart_has_round_ticks_on_both_axes_and_a_legend() -> None:
    result = json.loads((ROOT / "reports" / "minefield-no-draw.json").read_text())
    texts = _texts(plot_svg(result))
    # the clause axis: round values from 0 past the largest count (204541), not just min/max
    assert {"0", "50k", "100k", "150k", "200k"} <= set(texts)
    assert "204541" not in texts and "126" not in texts
    # the time axis: one label per power of ten
    assert {"0.001", "0.01", "0.1", "1", "10", "100", "1000"} <= set(texts)
    assert texts.count("n (board size)") == 2
    assert "fill step (SAT)" in texts and "full step (SAT)" in texts
    assert any(t.startswith("full step by Lemma H for n = 19..") for t in texts)


START = {
    "minefield": "5/5/2b2/5/5 w p",
    "carpniches": "(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1",
    "candy": ".,.,.,.,./.,.,.,.,./.,.,1Os2Sx3Xo,.,./.,.,.,.,./.,1xO,.,.,. 2 3",
    "collexion": "base 1:g3<3,2:g4,3:y3 -:-:-/-:-:- 234/234/234/234 1",
}


def test_positions_show_as_pictures_and_moves_as_notation() -> None:
    import boardproof

    for name, text in START.items():
        pos = boardproof.position(name, text)
        assert pos._repr_svg_() == boardproof.svg(pos)
        assert pos._repr_svg_().startswith("<svg")
        assert repr(pos).endswith(f"({pos.fen()!r})") or repr(pos).startswith(
            f"MinefieldPosition({pos.fen()!r}"
        )
        moves = pos.legal_moves()
        assert repr(list(moves[:2])) == "[" + ", ".join(str(m) for m in moves[:2]) + "]"


def test_a_position_or_move_that_is_not_a_string_is_a_type_error() -> None:
    import pytest

    import boardproof

    for name, text in START.items():
        for bad in (None, 5, ["x"]):
            with pytest.raises(TypeError, match="invalid position: expected a string"):
                boardproof.position(name, bad)  # type: ignore[arg-type]
        pos = boardproof.position(name, text)
        with pytest.raises(TypeError, match="invalid move: expected a string"):
            pos.parse_move(None)


def test_square_names_ignore_case_in_every_game() -> None:
    import boardproof

    assert str(boardproof.position("minefield", "5/5/5/5/5 b p").parse_move("C3")) == "c3"
    carp = boardproof.game("carpniches").start()
    assert str(carp.parse_move("A6-B5")) == "a6-b5"
    candy = boardproof.game("candy").start()
    assert str(candy.parse_move("Os@C3")) == "Os@c3"  # the shapes keep their case
    assert str(candy.parse_move("PASS")) == "pass"
    coll = boardproof.position("collexion", START["collexion"])
    assert coll.parse_move("PASS") == coll.parse_move("pass")


def test_carpniches_pieces_sit_inside_their_squares_and_lone_pieces_are_centred() -> None:
    import boardproof
    from boardproof.models.carpniches.drawing import CELL, MARGIN

    pos = boardproof.position("carpniches", "(cp)4(pcp)/1c4/6/6/1p4/(pc)4(cpc) c -")
    circles = [
        tuple(float(v) for v in found)
        for found in re.findall(
            r'<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"', boardproof.svg(pos)
        )
    ]
    assert len(circles) == 12
    for cx, cy, r in circles:
        for centre in (cx, cy):
            low, high = centre - r - MARGIN, centre + r - MARGIN
            assert low >= 0 and high <= 6 * CELL  # nothing over the board's edge
            assert int(low // CELL) == int(high // CELL)  # inside one square
    lone = [(cx, cy) for cx, cy, _ in circles if (cy - MARGIN) % CELL == CELL / 2]
    assert len(lone) >= 2  # b5 and b2: the middle of the square
    assert all((cx - MARGIN) % CELL == CELL / 2 for cx, _, _ in circles)


def test_candy_picture_is_readable_390_px_wide() -> None:
    import boardproof

    text = (
        "2Xo,1sO,2So,1xO,2Os/2sO1oX,1Xs1So,1sO,1Ox,2xO/1Sx,2xS,1Os,.,1Sx/"
        "1sO,1So2Os,2oS,2Xs2So,2xS/2Os2Sx1Xs,.,1Sx,1xO,2Sx2Xs1So 2 2"
    )
    svg = boardproof.svg(boardproof.position("candy", text))
    scale = 390 / float(re.search(r'<svg [^>]*width="([\d.]+)"', svg).group(1))  # type: ignore[union-attr]
    fonts = [float(v) for v in re.findall(r'font-size="([\d.]+)"', svg)]
    radii = [float(v) for v in re.findall(r'<circle [^>]*r="([\d.]+)"', svg)]
    assert min(fonts) * scale >= 9.5  # every label at least ~10 px on the phone
    assert min(radii) * scale >= 5  # a small round shape still ~10 px across
    assert max(radii) * scale >= 8.5
