"""`boardproof site`: the static puzzle site."""

from __future__ import annotations

import datetime as dt
import json
from html.parser import HTMLParser

from boardproof.commands.site import build_site
from boardproof.puzzles.check import check_puzzle

VOID = {"meta", "link", "br", "img", "input", "hr"}
#: SVG elements written self-closed by the SVG builder
SELF_CLOSED = {"rect", "circle", "line", "polygon", "polyline", "path", "ellipse"}


class TagBalance(HTMLParser):
    """Checks that every opened element is closed in order."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.links.append(value)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.links.append(value)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"unexpected </{tag}> (open: {self.stack[-3:]})")
        else:
            self.stack.pop()


def _parse(text: str) -> TagBalance:
    parser = TagBalance()
    parser.feed(text)
    parser.close()
    assert not parser.errors, parser.errors
    assert parser.stack == [], parser.stack
    return parser


def test_site_files_and_html(tmp_path) -> None:
    out = tmp_path / "site"
    written = build_site(out, 2, dt.date(2026, 11, 29), ["minefield", "carpniches"])
    # 2026-11-28 is a Saturday: Minefield's cartwheel day, whose rules page comes along
    expected = ["index.html", "site.js", "style.css", "variants.html"]
    for day in ("2026-11-28", "2026-11-29"):
        for game in ("minefield", "carpniches"):
            expected += [f"{day}/{game}.html", f"{day}/{game}.jsonl"]
    assert written == sorted(expected)
    index = (out / "index.html").read_text()
    assert index.startswith("<!DOCTYPE html>")
    links = _parse(index).links
    assert "2026-11-29/minefield.html" in links and "2026-11-28/carpniches.html" in links
    page = (out / "2026-11-29" / "minefield.html").read_text()
    parsed = _parse(page)
    assert "<svg" in page and "<details>" in page and "<summary>Solution</summary>" in page
    assert "../2026-11-28/minefield.html" in parsed.links and "../index.html" in parsed.links
    # every relative link points to a written file
    for relative in written:
        if relative.endswith(".html"):
            base = (out / relative).parent
            for link in _parse((out / relative).read_text()).links:
                file, _, anchor = link.split("?", 1)[0].partition("#")  # a theme link
                assert (base / file).resolve().exists(), (relative, link)  # has a filter
                if anchor:  # a variant's rules: a place on the page
                    assert f'id="{anchor}"' in (base / file).read_text(), (relative, link)
    # no network assets: the only URL is the SVG namespace
    for relative in written:
        text = (out / relative).read_text()
        assert "https://" not in text
        assert text.replace('xmlns="http://www.w3.org/2000/svg"', "").count("http://") == 0
    # the interactive data: the legal moves of each step, the answers, the defence
    data = json.loads(page.split('id="puzzle-data">', 1)[1].split("</script>", 1)[0])
    assert data["line"] == json.loads((out / "2026-11-29" / "minefield.jsonl").read_text())["pv"]
    assert all(step["answers"][0] in [m for m, _ in step["moves"]] for step in data["steps"])
    assert page.count('class="frame"') == len(data["line"]) + 1
    # the puzzle file of a page checks, and its solution is on the page
    puzzle = json.loads((out / "2026-11-29" / "minefield.jsonl").read_text())
    assert check_puzzle(puzzle).ok
    details = page[page.index("<details>") :]
    assert f"<code>{puzzle['solution']}</code>" in details
    assert f"<code>{puzzle['solution']}</code>" not in page[: page.index("<details>")] or (
        puzzle["solution"] in puzzle["position"]
    )


def test_site_is_deterministic(tmp_path) -> None:
    first = build_site(tmp_path / "a", 1, dt.date(2026, 6, 1), ["minefield"])
    second = build_site(tmp_path / "b", 1, dt.date(2026, 6, 1), ["minefield"])
    assert first == second
    for relative in first:
        assert (tmp_path / "a" / relative).read_bytes() == (tmp_path / "b" / relative).read_bytes()


def test_site_cli(cli_run, tmp_path) -> None:
    out = tmp_path / "s"
    status, text, err = cli_run(
        "site", "--out", str(out), "--days", "1", "--date", "2026-06-01", "--game", "minefield"
    )
    assert status == 0, err
    assert text.strip() == f"wrote 5 files (2 pages) to {out}"
    for args, message in [
        (("--days", "0"), "error: invalid option --days"),
        (("--date", "2026-06-31"), "error: invalid date"),
        (("--game", "go"), "error: unknown game"),
    ]:
        status, _, err = cli_run("site", "--out", str(out), *args)
        assert status == 2 and err.startswith(message), err
