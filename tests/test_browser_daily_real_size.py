"""The real daily Minefield pages (13x13 and 15x15, from self-play) in a real browser: a
15x15 day and a pinwheel day played by clicks on a phone, the variant's rules one click
away."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from browser import ConsoleErrors, browser, need_browser

from boardproof.puzzles.daily import daily_puzzle
from boardproof.reports.site import write_site

#: a Thursday at 15x15 (a win in 5: three clicks), a Wednesday (the pinwheel)
DAYS = ("2026-12-03", "2026-12-02")
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    need_browser()
    out = tmp_path_factory.mktemp("site-daily")
    puzzles = {f"minefield {d}": daily_puzzle("minefield", dt.date.fromisoformat(d))
               for d in DAYS}  # fmt: skip
    assert puzzles[f"minefield {DAYS[0]}"]["size"] == 15
    assert puzzles[f"minefield {DAYS[1]}"]["variant"] == "pinwheel"
    write_site(out, list(DAYS), ["minefield"], puzzles)
    return out


def _solve_by_clicks(page: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(page.text_content("#puzzle-data"))
    hits = page.locator(".frame:not([hidden]) .hit")
    assert hits.count() == len(data["steps"][0]["moves"])
    for step in data["steps"]:
        page.locator(f'.frame:not([hidden]) .hit[data-t="{step["answers"][0]}"]').click()
        assert "not" not in page.text_content("#status").split(".")[0]
    assert page.text_content("#status").startswith("Solved!")
    return data


def test_the_daily_15x15_and_pinwheel_pages_play_by_clicks_on_a_phone(
    site: Path, tmp_path: Path
) -> None:
    with browser() as chromium:
        page = chromium.new_page(viewport=PHONE)
        console = ConsoleErrors(page)
        page.goto((site / DAYS[0] / "minefield.html").as_uri())
        assert "Board: 15×15" in page.text_content(".board-info")
        data = _solve_by_clicks(page)
        assert len(data["steps"]) >= 2  # a win in 5 or more: the defence is played too
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=str(tmp_path / "daily-15x15-solved.png"), full_page=True)
        page.goto((site / DAYS[1] / "minefield.html").as_uri())
        assert "pinwheel variant" in page.text_content(".board-info")
        _solve_by_clicks(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.click(".board-info a")
        assert page.url.endswith("variants.html#pinwheel")
        assert page.is_visible("#pinwheel") and "Minefield variants" in page.text_content("h1")
        page.click("nav a")
        assert page.url.endswith("index.html")
        assert "pinwheel" in page.text_content("#archive")
        console.check()
