"""Glicko-2, the Python reference of the site's rating: Glickman's worked example and the
properties a rating update must have (the browser test checks the JavaScript against it)."""

from __future__ import annotations

import re

import pytest

from boardproof.puzzles import glicko
from boardproof.reports.site_assets import SCRIPT

EXAMPLE = [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)]


def test_glickmans_worked_example() -> None:
    rating, rd, vol = glicko.update(1500, 200, 0.06, EXAMPLE)
    # the paper's printed values (it rounds its intermediate steps: 1464.06)
    assert rating == pytest.approx(1464.06, abs=0.01)
    assert rd == pytest.approx(151.52, abs=0.005)
    assert vol == pytest.approx(0.05999, abs=0.00001)
    # the paper's intermediate values, v = 1.7785 and delta = -0.4834 (on the Glicko-2 scale),
    # computed from 4-digit roundings of g and E: agreement to 0.001
    mu = 0.0
    terms = [(glicko._g(rd_j / glicko.SCALE), glicko._e(mu, (r_j - 1500) / glicko.SCALE,
              rd_j / glicko.SCALE), s) for r_j, rd_j, s in EXAMPLE]  # fmt: skip
    v = 1 / sum(g * g * e * (1 - e) for g, e, _ in terms)
    assert v == pytest.approx(1.7785, abs=0.001)
    assert v * sum(g * (s - e) for g, e, s in terms) == pytest.approx(-0.4834, abs=0.001)


def test_a_win_raises_a_loss_lowers_and_both_narrow_the_rd() -> None:
    start = glicko.START
    won, lost = glicko.attempt(start, 1500, True), glicko.attempt(start, 1500, False)
    assert won[0] > 1500 > lost[0] and won[0] - 1500 == pytest.approx(1500 - lost[0])
    assert won[1] < start[1] and lost[1] < start[1]
    # beating a stronger puzzle gains more than beating a weaker one
    assert glicko.attempt(start, 1900, True)[0] > glicko.attempt(start, 1100, True)[0]
    # a draw against an equal opponent changes nothing but the RD
    assert glicko.update(1500, 200, 0.06, [(1500, 200, 0.5)])[0] == pytest.approx(1500)


def test_an_upset_converges_and_stays_finite() -> None:
    for score in (0, 1):
        rating, rd, vol = glicko.update(800, 30, 0.06, [(2800, 30, score)] * 5)
        assert all(x == x and abs(x) < 1e6 for x in (rating, rd, vol))
        assert 0 < vol < 1 and 0 < rd <= glicko.MAX_RD


def test_no_game_only_widens_the_rd_up_to_a_new_players() -> None:
    rating, rd, vol = glicko.update(1700, 349.9, 0.06, [])
    assert (rating, vol) == (1700, 0.06) and rd == glicko.MAX_RD


def test_the_page_script_uses_the_same_constants() -> None:
    assert re.search(r"SCALE = 173\.7178, TAU = 0\.5, EPSILON = 0\.000001, MAX_RD = 350", SCRIPT)
    assert f"PUZZLE_RD: {glicko.PUZZLE_RD:g}" in SCRIPT
    assert "START: [1500, 350, 0.06]" in SCRIPT and glicko.START == (1500.0, 350.0, 0.06)
