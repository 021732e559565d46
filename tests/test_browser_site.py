"""The static puzzle site in a real browser: solve one puzzle of each game by clicking."""

from __future__ import annotations

import copy
import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from browser import ConsoleErrors, browser, need_browser

from boardproof.commands.site import build_site
from boardproof.reports.play import click_path
from boardproof.reports.site import puzzle_page

DAY = dt.date(2026, 11, 29)
GAMES = ("minefield", "carpniches", "candy", "collexion")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    need_browser()
    out = tmp_path_factory.mktemp("site")
    build_site(out, 2, DAY)
    return out


def _data(page: Any) -> dict[str, Any]:
    return json.loads(page.text_content("#puzzle-data"))


def _play_by_clicking(page: Any, game: str, move: str) -> None:
    """Click the targets of ``move``: the board where it can, else the choice buttons."""
    path = click_path(game, move)
    for number, target in enumerate(path):
        frame = page.locator(".frame:not([hidden])")
        hit = frame.locator(f'.hit[data-t="{target}"]')
        if hit.count():
            hit.first.click()
        else:
            page.locator(f'#choices button[data-t="{target}"]').click()
        if number == len(path) - 1:
            finish = page.locator("#choices button.finish")
            if finish.count() and page.text_content("#status").startswith("Selected"):
                finish.click()


def test_solve_one_puzzle_of_each_game_by_clicking(site: Path, tmp_path: Path) -> None:
    with browser() as chromium:
        page = chromium.new_page(viewport={"width": 390, "height": 844})
        console = ConsoleErrors(page)
        for game in GAMES:
            page.goto((site / DAY.isoformat() / f"{game}.html").as_uri())
            data = _data(page)
            assert "Your move" in page.text_content("#status")
            for step in data["steps"]:
                _play_by_clicking(page, game, step["answers"][0])
                status = page.text_content("#status")
                assert "not" not in status.split(".")[0], status
            status = page.text_content("#status")
            assert status.startswith("Solved!"), (game, status)
            # readable at 390 px: nothing wider than the window
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, game
            page.screenshot(path=str(tmp_path / f"{game}-solved.png"), full_page=True)
        # the archive knows what was solved, and filters by game and difficulty
        page.goto((site / "index.html").as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        solved = page.locator("#archive tbody tr.is-solved")
        assert solved.count() == len(GAMES)
        assert "Solved here: 4 puzzles; streak: 1 day in a row." in page.text_content("#progress")
        page.select_option("#filter-game", "carpniches")
        visible = page.locator("#archive tbody tr:not([hidden])")
        assert visible.count() == 2
        assert all(g == "carpniches" for g in visible.evaluate_all(
            "rows => rows.map(r => r.dataset.game)"))  # fmt: skip
        page.check("#filter-unsolved")
        assert page.locator("#archive tbody tr:not([hidden])").count() == 1
        page.select_option("#filter-game", "")
        page.uncheck("#filter-unsolved")
        level = page.locator("#archive tbody tr").first.get_attribute("data-level")
        page.select_option("#filter-level", level)
        levels = page.locator("#archive tbody tr:not([hidden])").evaluate_all(
            "rows => rows.map(r => r.dataset.level)"
        )
        assert levels and set(levels) == {level}
        page.screenshot(path=str(tmp_path / "index.png"), full_page=True)
        # today's links lead to the newest day
        page.locator(".today a", has_text="Minefield").click()
        assert page.url.endswith(f"{DAY.isoformat()}/minefield.html")
        console.check()


def test_wrong_move_take_back_typed_and_keyboard(site: Path, tmp_path: Path) -> None:
    with browser() as chromium:
        page = chromium.new_page(viewport={"width": 390, "height": 844})
        console = ConsoleErrors(page)
        page.goto((site / DAY.isoformat() / "minefield.html").as_uri())
        step = _data(page)["steps"][0]
        wrong = next(m for m, _ in step["moves"] if m not in step["answers"] and m != "swap")
        # a wrong move by keyboard: focus its point, press Enter
        page.locator(f'.frame:not([hidden]) .hit[data-t="{wrong}"]').focus()
        page.keyboard.press("Enter")
        assert page.text_content("#status") == (
            f"{wrong} is not the winning move. Take it back and try again."
        )
        assert "wrong" in page.locator(f'.hit[data-t="{wrong}"]').first.get_attribute("class")
        page.screenshot(path=str(tmp_path / "wrong.png"), full_page=True)
        page.click("#take-back")
        assert page.text_content("#status") == "Taken back. Your move."
        # an illegal typed move, then the right one typed
        page.fill("#typed-move", "z9")
        page.press("#typed-move", "Enter")
        assert "z9 is not a legal move here" in page.text_content("#status")
        page.fill("#typed-move", step["answers"][0])
        page.press("#typed-move", "Enter")
        assert page.text_content("#status").startswith(f"{step['answers'][0]} is right.")
        # the solution can be revealed
        page.click("summary")
        assert page.locator("details").get_attribute("open") is not None
        console.check()


def test_hostile_content_is_inert(site: Path, tmp_path: Path) -> None:
    puzzle = json.loads((site / DAY.isoformat() / "minefield.jsonl").read_text())
    bad = copy.deepcopy(puzzle)
    attack = '</script><script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">'
    bad["id"] = attack
    bad["date"] = attack
    bad["rating"]["label"] = attack
    bad["decoys"] = [attack]
    folder = tmp_path / "hostile"
    folder.mkdir()
    (folder / "p.html").write_text(puzzle_page(bad, None, None), encoding="utf-8")
    (tmp_path / "site.js").write_text((site / "site.js").read_text(), encoding="utf-8")
    (tmp_path / "style.css").write_text((site / "style.css").read_text(), encoding="utf-8")
    with browser() as chromium:
        page = chromium.new_page()
        console = ConsoleErrors(page)
        page.goto((folder / "p.html").as_uri())
        assert page.evaluate("window.pwned") is None
        assert page.locator("img").count() == 0
        assert attack in page.text_content("h1")
        assert _data(page)["id"] == attack
        step = _data(page)["steps"][0]
        _play_by_clicking(page, "minefield", step["answers"][0])
        assert page.evaluate("window.pwned") is None
        console.check()
