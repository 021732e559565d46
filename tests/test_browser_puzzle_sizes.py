"""The puzzle site at real sizes, in a real browser: a proven 15x15 puzzle played by clicks
on a phone, a 19x19 board readable and clickable on a phone and a desktop, the solver's
Glicko-2 rating in localStorage (checked against the Python reference), the theme filter."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser import ConsoleErrors, browser, need_browser

from boardproof.puzzles import glicko
from boardproof.puzzles.store import read_puzzles
from boardproof.reports.site import write_site

DATA = Path(__file__).parent / "data"
#: the 19x19 puzzle is the newer day, the 15x15 the older one
DAYS = ("2026-12-02", "2026-12-01")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    need_browser()
    out = tmp_path_factory.mktemp("site-sizes")
    puzzles = {}
    for day, size in zip(DAYS, (19, 15), strict=True):
        (puzzle,) = read_puzzles(DATA / f"puzzle-minefield-{size}x{size}.jsonl")
        puzzles[f"minefield {day}"] = {**puzzle, "date": day}
    write_site(out, list(DAYS), ["minefield"], puzzles)
    return out


def _data(page: Any) -> dict[str, Any]:
    return json.loads(page.text_content("#puzzle-data"))


def _stored_rating(page: Any) -> dict[str, Any]:
    return json.loads(page.evaluate("window.localStorage.getItem('boardproof-rating')"))


def _click(page: Any, target: str) -> None:
    page.locator(f'.frame:not([hidden]) .hit[data-t="{target}"]').click()


def test_play_15x15_by_clicks_and_the_rating_follows_glicko2(site: Path, tmp_path: Path) -> None:
    with browser() as chromium:
        page = chromium.new_page(viewport=PHONE)
        console = ConsoleErrors(page)
        # Glickman's worked example in the page's own Glicko-2, against the Python reference
        example = [[1400, 30, 1], [1550, 100, 0], [1700, 300, 0]]
        page.goto((site / DAYS[1] / "minefield.html").as_uri())
        got = page.evaluate(f"window.boardproofGlicko.update(1500, 200, 0.06, {example})")
        assert got == pytest.approx(glicko.update(1500, 200, 0.06, example), abs=1e-9)
        assert got == pytest.approx([1464.06, 151.52, 0.05999], abs=0.01)
        assert page.text_content("#rating").startswith("Your puzzle rating: 1500 (RD 350)")
        # the 15x15 puzzle, solved by clicking its points
        data = _data(page)
        hits = page.locator(".frame:not([hidden]) .hit")
        assert hits.count() == len(data["steps"][0]["moves"])
        for step in data["steps"]:
            _click(page, step["answers"][0])
            assert "not" not in page.text_content("#status").split(".")[0]
        assert page.text_content("#status").startswith("Solved!")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=str(tmp_path / "15x15-solved.png"), full_page=True)
        won = glicko.attempt(glicko.START, data["rating"], True)
        stored = _stored_rating(page)
        assert [stored["rating"], stored["rd"], stored["vol"]] == pytest.approx(list(won), abs=1e-9)
        assert stored["tried"] == {data["id"]: 1}
        assert "for this puzzle" in page.text_content("#rating")
        # solving it again changes nothing: only a first attempt counts
        page.reload()
        for step in _data(page)["steps"]:
            _click(page, step["answers"][0])
        assert _stored_rating(page) == stored
        # the 19x19 puzzle: a wrong first click is a lost attempt
        page.goto((site / DAYS[0] / "minefield.html").as_uri())
        data = _data(page)
        first = data["steps"][0]
        wrong = next(m for m, _ in first["moves"] if m not in first["answers"])
        _click(page, wrong)
        assert "not the winning move" in page.text_content("#status")
        lost = glicko.attempt(won, data["rating"], False)
        stored = _stored_rating(page)
        assert [stored["rating"], stored["rd"], stored["vol"]] == pytest.approx(
            list(lost), abs=1e-9
        )
        assert stored["rating"] < won[0]
        console.check()


def _board_facts(page: Any) -> dict[str, Any]:
    """The shown board's size, its smallest click target and its smallest label (CSS px)."""
    return page.evaluate(
        """() => {
        const frame = document.querySelector('.frame:not([hidden])');
        const svg = frame.querySelector('svg').getBoundingClientRect();
        const box = e => e.getBoundingClientRect();
        const hits = Array.from(frame.querySelectorAll('.hit')).map(box);
        const labels = Array.from(frame.querySelectorAll('svg text')).map(box);
        return {left: svg.left, right: svg.right, width: svg.width,
                hit: Math.min(...hits.map(r => Math.min(r.width, r.height))),
                label: Math.min(...labels.map(r => r.height))};
    }"""
    )


def _hit_under_centre(page: Any, target: str) -> str | None:
    return page.evaluate(
        """(t) => {
        const hit = document.querySelector(`.frame:not([hidden]) .hit[data-t="${t}"]`);
        hit.scrollIntoView({block: 'center', inline: 'center'});
        const r = hit.getBoundingClientRect();
        const under = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return under && under.getAttribute('data-t');
    }""",
        target,
    )


def test_19x19_is_readable_and_clickable_on_a_phone_and_a_desktop(
    site: Path, tmp_path: Path
) -> None:
    with browser() as chromium:
        for name, viewport, smallest_hit, smallest_label in (
            ("phone", PHONE, 18.0, 9.0), ("desktop", DESKTOP, 34.0, 9.0)
        ):  # fmt: skip
            page = chromium.new_page(viewport=viewport)
            console = ConsoleErrors(page)
            page.goto((site / DAYS[0] / "minefield.html").as_uri())
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            facts = _board_facts(page)
            assert facts["left"] >= 0 and facts["right"] <= viewport["width"], (name, facts)
            if name == "phone":  # the whole width of the phone
                assert facts["width"] >= viewport["width"] - 2, facts
            assert facts["hit"] >= smallest_hit, (name, facts)
            assert facts["label"] >= smallest_label, (name, facts)
            # the points at the corners and the centre take the click (nothing covers them)
            moves = {m for m, _ in _data(page)["steps"][0]["moves"]}
            for target in sorted(moves)[:3] + sorted(moves)[-3:]:
                assert _hit_under_centre(page, target) == target, (name, target)
            page.screenshot(path=str(tmp_path / f"19x19-{name}.png"), full_page=True)
            # a click on the solution is taken: the line goes on
            answer = _data(page)["steps"][0]["answers"][0]
            _click(page, answer)
            assert page.text_content("#status").startswith(f"{answer} is right."), name
            console.check()


def test_theme_filter_and_theme_links(site: Path) -> None:
    with browser() as chromium:
        page = chromium.new_page(viewport=PHONE)
        console = ConsoleErrors(page)
        page.goto((site / DAYS[0] / "minefield.html").as_uri())
        link = page.locator(".themes a", has_text="double threat")
        link.click()  # the theme's link opens the archive filtered on it
        assert page.input_value("#filter-theme") == "double threat"
        rows = page.locator("#archive tbody tr:not([hidden])")
        assert rows.count() == 1
        assert rows.first.get_attribute("data-id") == "minefield-19x19-fixture"
        page.select_option("#filter-theme", "win in 3")  # both puzzles are wins in 3
        assert page.locator("#archive tbody tr:not([hidden])").count() == 2
        assert page.text_content("#rating").startswith("Your puzzle rating: 1500")
        console.check()
