"""Pictures a reader looks at: the no-draw chart's axes and legend."""

from __future__ import annotations

import json
import re
from pathlib import Path

from boardproof.reports.nodraw import plot_svg

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
    assert any(t.startswith("full step by Lemma H for n = 19..24") for t in texts)


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
