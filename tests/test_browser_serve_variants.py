"""`boardproof serve` in a real browser under Minefield's variants: the cartwheel picked on
the board refuses White's b2 (it forms a cartwheel), keeps through undo and "Start
position", solves and plays the engine by its rules and writes them into the downloaded
record; switched to the standard game, the same b2 is played. On a 390 px wide page."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from browser import ConsoleErrors, browser, free_port, need_browser, wait_for

#: White's b2 forms a cartwheel with the stones beyond the corner c1-d2 (standard: legal)
CARTWHEEL = "4/2bb/4/1w2 w -"
STATUS = "document.getElementById('status').textContent"
LINE = "document.getElementById('line').textContent"
STATE = "document.getElementById('engine').getAttribute('data-state')"
GLYPHS = "#rule-minefield-variant"


def _load(page, position: str) -> None:
    """Load ``position`` and wait for the board's answer (the status is cleared first: the
    page writes it again once the position is shown)."""
    page.fill("#position", position)
    page.evaluate("document.getElementById('status').textContent = ''")
    page.click("#load")
    shown = "document.getElementById('position').value"
    page.wait_for_function(f"{STATUS} !== '' && {LINE} === '-' && {STATE} === 'off' && "
                           f"{shown} === '{position}'")  # fmt: skip


def test_the_cartwheel_chosen_on_the_board(tmp_path: Path, cli_run) -> None:
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
            # the game's rules: Win and Glyphs, the rulebook's chosen; the status says none
            assert page.is_visible(GLYPHS) and page.is_visible("#rule-minefield-win")
            assert page.input_value(GLYPHS) == "standard"
            assert page.text_content("#status").startswith("To move: b")
            # the cartwheel: the start position again, under it; "Start position" keeps it
            page.select_option(GLYPHS, "cartwheel")
            page.wait_for_function(f"{STATUS}.startsWith('Minefield, cartwheel glyphs. To move')")
            page.fill("#position", "3/3/3 b -")  # "Start position" writes the start back
            page.click("#new")
            page.wait_for_function("document.getElementById('position').value !== '3/3/3 b -'")
            assert page.text_content("#status").startswith("Minefield, cartwheel glyphs.")
            assert page.input_value(GLYPHS) == "cartwheel"
            _load(page, CARTWHEEL)  # a loaded position too
            assert page.text_content("#status").startswith("Minefield, cartwheel glyphs. To move")
            assert page.locator('#board .hit[data-t="b2"]').count() == 0
            assert page.locator('#board .hit[data-t="c1"]').count() == 1
            # b2, typed: refused with the cartwheel's reason
            page.fill("#typed-move", "b2")
            page.press("#typed-move", "Enter")
            page.wait_for_function(f"{STATUS}.startsWith('error:')")
            assert page.text_content("#status") == "error: illegal move b2: it forms a cartwheel"
            assert page.text_content("#line") == "-"
            # a legal move and its undo: the rules stay
            page.click('#board .hit[data-t="c1"]')
            page.wait_for_function(f"{LINE} === 'c1'")
            page.click("#undo")
            page.wait_for_function(f"{LINE} === '-'")
            assert page.input_value(GLYPHS) == "cartwheel"
            assert page.text_content("#status").startswith("Minefield, cartwheel glyphs.")
            # solved by the cartwheel's rules: White loses (the standard game: White wins)
            page.fill("#seconds", "10")
            page.click("#solve")
            page.wait_for_function(
                "document.getElementById('answer').textContent.startsWith('result:')",
                timeout=30_000,
            )
            assert page.text_content("#answer").startswith("result: loss; winner: b;")
            # the engine plays by them too; the rules cannot change during the game
            page.select_option("#engine-side", "w")
            page.select_option("#engine-strength", "iterations:100")
            page.click("#engine-start")
            page.wait_for_function(f"{STATE} === 'you'")
            assert page.is_disabled(GLYPHS)
            assert "cartwheel glyphs" in page.text_content("#status")
            page.click('#board .hit[data-t="c1"]')
            page.wait_for_function(f"{LINE}.split(' ').length === 2 || {STATE} === 'over'",
                                   timeout=20_000)  # fmt: skip
            if page.evaluate(STATE) == "you":
                page.click("#resign")
            page.wait_for_function(f"{STATE} === 'over'")
            moves = page.text_content("#line").split()
            assert moves[0] == "c1"
            with page.expect_download() as info:
                page.click("#download")
            record = json.loads(Path(info.value.path()).read_text())
            assert record == {"game": "minefield", "options": {"variant": "cartwheel"},
                              "start": CARTWHEEL, "moves": moves}  # fmt: skip
            path = tmp_path / "minefield-game.txt"
            path.write_text(json.dumps(record) + "\n")
            status, out, err = cli_run("review", "minefield", str(path), "--iterations-per-move",
                                       "20", "--json", "--quiet")  # fmt: skip
            assert status == 0, err
            assert [r["move"] for r in json.loads(out)["plies"]] == moves
            page.click("#review")
            page.wait_for_function(
                "document.getElementById('review-summary').className.includes('reviewed')",
                timeout=30_000,
            )
            assert page.locator("#review-table tbody tr").count() == len(moves)
            page.screenshot(path=str(tmp_path / "cartwheel.png"), full_page=True)
            # the standard game: the same position, b2 is a move now
            _load(page, CARTWHEEL)
            assert not page.is_disabled(GLYPHS)
            page.select_option(GLYPHS, "standard")
            page.wait_for_selector('#board .hit[data-t="b2"]')
            assert page.text_content("#status").startswith("To move: w")
            page.click('#board .hit[data-t="b2"]')
            page.wait_for_function(f"{LINE} === 'b2'")
            assert page.input_value("#position") == "4/2bb/1w2/1w2 b -"
            assert page.input_value(GLYPHS) == "standard"
            # another game has no rules to choose; back to Minefield, its choice is kept
            page.select_option("#game", "carpniches")
            page.wait_for_function(f"{LINE} === '-' && document.getElementById('engine-side')"
                                   ".value === 'c'")  # fmt: skip
            assert page.is_hidden(GLYPHS) and page.locator(".rule:visible").count() == 0
            page.select_option("#game", "minefield")
            page.wait_for_selector(f"{GLYPHS}:visible")
            assert page.input_value(GLYPHS) == "standard"
            page.screenshot(path=str(tmp_path / "standard.png"), full_page=True)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            # the browser logs the one refused move (HTTP 400), and nothing else
            console.check(("Failed to load resource: the server responded with a status of 400 "
                           "(Bad Request)",))  # fmt: skip
    finally:
        server.terminate()
        server.wait(10)
