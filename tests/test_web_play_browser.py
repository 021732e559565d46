"""`boardproof serve` in a real browser: a whole 5x5 Minefield game against the engine by
clicks (one undo on the way), the review, the record downloaded and read back by
`boardproof review`; then a game resigned at once, and a Carpniches game where a move
takes two clicks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from browser import ConsoleErrors, browser, free_port, need_browser, wait_for

from boardproof import models
from boardproof.review.record import parse_record

START = "5/5/5/5/5 b p"  # the empty 5x5 board, White may swap




STATE = "document.getElementById('engine').getAttribute('data-state')"
LINE = "document.getElementById('line').textContent"


def _moves(page) -> list[str]:
    text = page.text_content("#line")
    return [] if text == "-" else text.split()


def _your_turn_or_over(page) -> str:
    page.wait_for_function(f"['you', 'over'].includes({STATE})", timeout=20_000)
    return str(page.evaluate(STATE))


def _load(page, position: str) -> None:
    page.fill("#position", position)
    page.click("#load")
    shown = "document.getElementById('position').value"
    page.wait_for_function(f"{LINE} === '-' && {STATE} === 'off' && {shown} === '{position}'")


def test_a_whole_5x5_game_against_the_engine(tmp_path: Path, cli_run) -> None:
    need_browser()
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", "from boardproof.cli import main; main()", "serve", "--port",
         str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        wait_for(port, server)
        with browser() as chromium:
            page = chromium.new_page(viewport={"width": 390, "height": 844}, accept_downloads=True)
            console = ConsoleErrors(page)
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_selector("#board svg")
            _load(page, START)
            assert page.locator("#engine-side option").all_text_contents() == [
                "Black (b)", "White (w)"]  # fmt: skip
            page.select_option("#engine-side", "b")
            page.select_option("#engine-strength", "iterations:100")
            page.click("#engine-start")
            undone = False
            for _ in range(40):
                if _your_turn_or_over(page) == "over":
                    break
                before = _moves(page)
                if len(before) >= 3 and not undone:  # take back your move and the reply
                    page.click("#undo")
                    page.wait_for_function(f"{LINE}.split(' ').length === {len(before) - 2}")
                    assert _moves(page) == before[:-2] and page.evaluate(STATE) == "you"
                    assert page.text_content("#match").endswith("your move.")
                    undone = True
                    continue
                hits = page.locator("#board .hit")
                if hits.count():
                    hits.first.click()
                else:  # a move that is not on the board (pass)
                    page.locator("#choices button").first.click()
                page.wait_for_function(f"{LINE}.split(' ').length > {len(before)} "
                                       f"&& {LINE} !== '-'")  # fmt: skip
            assert undone and page.evaluate(STATE) == "over"
            result = page.text_content("#match")
            assert result.startswith("Game over: won by ") and result.endswith(" won."), result
            moves = _moves(page)
            assert page.is_visible("#review") and page.is_visible("#download")
            assert page.is_hidden("#resign") and page.is_visible("#engine-start")
            page.screenshot(path=str(tmp_path / "game.png"), full_page=True)
            # the review: one row per move
            page.click("#review")
            page.wait_for_function(
                "document.getElementById('review-summary').className.includes('reviewed')",
                timeout=30_000,
            )
            assert page.text_content("#review-summary").startswith("Review: losing move: ")
            rows = page.locator("#review-table tbody tr")
            assert rows.count() == len(moves)
            assert rows.nth(0).locator("td").nth(3).text_content() == moves[0]
            assert rows.nth(0).locator("td").nth(2).text_content() == "you"
            page.screenshot(path=str(tmp_path / "review.png"), full_page=True)
            # the record: what `boardproof review` reads
            with page.expect_download() as info:
                page.click("#download")
            download = info.value
            assert download.suggested_filename == "minefield-game.txt"
            path = tmp_path / "game.txt"
            download.save_as(str(path))
            text = path.read_text()
            assert text.startswith("# minefield: you (b) against the engine"), text
            record = parse_record(models.get("minefield"), text)
            assert record.start.fen() == START and [m.text for m in record.moves] == moves
            assert record.positions[-1].outcome() is not None
            status, out, err = cli_run("review", "minefield", str(path), "--iterations-per-move",
                                       "20", "--json", "--quiet")  # fmt: skip
            assert status == 0, err
            assert [r["move"] for r in json.loads(out)["plies"]] == moves
            # a second game: you play White, the engine opens, you resign at once
            _load(page, START)
            assert page.is_hidden("#review-table") and page.is_hidden("#game-over")
            page.select_option("#engine-side", "w")
            page.click("#engine-start")
            assert _your_turn_or_over(page) == "you" and len(_moves(page)) == 1
            page.click("#resign")
            page.wait_for_function(f"{STATE} === 'over'")
            assert "you resigned" in page.text_content("#match")
            page.click("#board .hit >> nth=0")  # no move after resigning
            assert len(_moves(page)) == 1 and "Load a position" in page.text_content("#status")
            with page.expect_download() as info:
                page.click("#download")
            resigned = Path(info.value.path()).read_text()
            assert "# Game over: you resigned (White (w)); the engine won." in resigned
            assert parse_record(models.get("minefield"), resigned).moves[0].text == _moves(page)[0]
            # Carpniches, a move of two clicks (a piece, then where it goes): the engine
            # (Capybaras) opens, you answer, it replies; undo takes back your move and it
            page.select_option("#game", "carpniches")
            page.wait_for_function(f"{LINE} === '-' && {STATE} === 'off' && "
                                   "document.getElementById('engine-side').value === 'c'")
            page.select_option("#engine-side", "p")
            page.click("#engine-start")
            assert _your_turn_or_over(page) == "you" and len(_moves(page)) == 1
            page.locator("#board .hit").first.click()  # a piece: its targets are marked
            page.wait_for_selector("#board .hit.next")
            page.locator("#board .hit.next").first.click()  # where it goes: the move
            page.wait_for_function(f"{LINE}.split(' ').length > 1")
            assert _your_turn_or_over(page) == "you" and len(_moves(page)) == 3
            page.click("#undo")
            page.wait_for_function(f"{LINE}.split(' ').length === 1 && {STATE} === 'you'")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            console.check()
    finally:
        server.terminate()
        server.wait(10)
