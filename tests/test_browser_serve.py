"""`boardproof serve` in a real browser: play a line on the analysis board, solve and analyse it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from browser import ConsoleErrors, browser, free_port, need_browser, wait_for


def test_analysis_board_plays_solves_and_analyses(tmp_path: Path) -> None:
    need_browser()
    port = free_port()
    code = "from boardproof.cli import main; main()"
    server = subprocess.Popen(
        [sys.executable, "-c", code, "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for(port, server)
        with browser() as chromium:
            page = chromium.new_page(viewport={"width": 390, "height": 844})
            console = ConsoleErrors(page)
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_selector("#board svg")
            # a bad position: the CLI's one line
            page.fill("#position", "4/4/b4/4 b -")
            page.click("#load")
            page.wait_for_function(
                "document.getElementById('status').textContent.startsWith('error:')"
            )
            assert "invalid position" in page.text_content("#status")
            # a 4x4 board without the pie rule, a line played by clicking
            page.fill("#position", "4/4/4/4 b -")
            page.click("#load")
            page.wait_for_selector('#board .hit[data-t="a2"]')
            for point in ("b2", "c3"):
                page.click(f'#board .hit[data-t="{point}"]')
                page.wait_for_function(
                    f"document.getElementById('line').textContent.endsWith('{point}')"
                )
            assert page.text_content("#line") == "b2 c3"
            assert page.input_value("#position") == "4/2w1/1b2/4 b -"
            page.click("#undo")
            page.wait_for_function("document.getElementById('line').textContent === 'b2'")
            page.click('#board .hit[data-t="c3"]')
            page.wait_for_function("document.getElementById('line').textContent === 'b2 c3'")
            # ask for a solve with a time limit
            page.fill("#seconds", "10")
            page.click("#solve")
            page.wait_for_function(
                "document.getElementById('answer').textContent.startsWith('result:')",
                timeout=30_000,
            )
            text = page.text_content("#answer")
            assert "best move: " in text and "line: " in text, text
            assert page.locator("#board .hit.best").count() >= 1
            page.screenshot(path=str(tmp_path / "analysis.png"), full_page=True)
            best = text.split("best move: ", 1)[1].split(";", 1)[0]
            page.click("#play-best")
            page.wait_for_function(
                f"document.getElementById('line').textContent === 'b2 c3 {best}'"
            )
            # back to b2 c3, then an analysis: best moves, visits, win rates, the line
            page.click("#undo")
            page.wait_for_function("document.getElementById('line').textContent === 'b2 c3'")
            page.fill("#seconds", "1.5")
            page.click("#analyse")
            page.wait_for_function(
                "document.getElementById('answer').className.includes('analysed')",
                timeout=30_000,
            )
            text = page.text_content("#answer")
            assert text.startswith("result: win; winner: b;") and " iterations, " in text, text
            rows = page.locator("#analysis tbody tr")
            assert page.is_visible("#analysis") and rows.count() >= 1
            first = rows.nth(0).locator("td")
            assert int(first.nth(1).text_content()) >= 0
            assert 0 <= float(first.nth(2).text_content()) <= 100
            assert page.locator("#board .hit.best").count() >= 1
            page.screenshot(path=str(tmp_path / "analysed.png"), full_page=True)
            pv = text.split("line: ", 1)[1].split(";", 1)[0].split()
            assert len(pv) >= 3 and first.nth(0).text_content() == pv[0]
            page.click("#play-line")  # the line played out on the board
            played = " ".join(["b2", "c3", *pv])
            page.wait_for_function(f"document.getElementById('line').textContent === '{played}'")
            assert "Game over" in page.text_content("#status")
            page.click("#undo")  # the whole line is taken back at once
            page.wait_for_function("document.getElementById('line').textContent === 'b2 c3'")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            # the browser logs the one refused request (HTTP 400), and nothing else
            console.check(("Failed to load resource: the server responded with a status of 400 "
                           "(Bad Request)",))  # fmt: skip
    finally:
        server.terminate()
        server.wait(10)
