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
