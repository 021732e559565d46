"""Minefield's daily puzzle at the sizes people play (issue #30, #31): mined from seeded
self-play at 13x13 or 15x15, the pinwheel on Wednesdays; deterministic, checked by the
rules-only checker, its source the self-play game of ``puzzle selfplay``."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from boardproof import models
from boardproof.puzzles import played
from boardproof.puzzles.check import check_puzzle
from boardproof.puzzles.daily import daily_puzzle, daily_seed
from boardproof.reports.site import write_site

#: a Wednesday (the pinwheel), a Thursday (standard) and a Saturday (the cartwheel)
DAYS = (dt.date(2026, 12, 2), dt.date(2026, 12, 3), dt.date(2026, 12, 5))
VARIANTS = ("pinwheel", "standard", "cartwheel")


@pytest.fixture(scope="module")
def puzzles() -> dict[dt.date, dict[str, Any]]:
    return {day: daily_puzzle("minefield", day) for day in DAYS}


def proof_positions(puzzle: dict[str, Any]) -> int:
    """The positions of the puzzle's proof (a tree, or a compact strategy)."""
    if "proof" in puzzle:
        return len(puzzle["proof"]["nodes"])
    return int(puzzle["strategy"]["positions"])


def test_the_daily_minefield_puzzle_is_at_a_played_size(puzzles: dict[dt.date, Any]) -> None:
    for day, puzzle in puzzles.items():
        size, variant = played.size_and_variant("minefield", day, daily_seed("minefield", day))
        assert puzzle["size"] == size in (13, 15)
        position = models.get("minefield", **puzzle["options"]).parse_position(puzzle["position"])
        assert position.fen() == puzzle["position"] and len(position.legal_moves()) > 0
        assert puzzle["position"].count("/") + 1 == size, day
        assert puzzle["variant"] == variant
        assert puzzle["options"] == ({} if variant == "standard" else {"variant": variant})
        assert puzzle["id"] == f"minefield-{day.isoformat()}" and puzzle["date"] == day.isoformat()
        assert puzzle["plies"] == played.played("minefield").max_plies == 3  # type: ignore[union-attr]
        assert proof_positions(puzzle) <= played.played("minefield").proof_nodes  # type: ignore[union-attr]
    assert tuple(puzzles[d]["variant"] for d in DAYS) == VARIANTS


def test_the_daily_minefield_puzzle_checks_with_the_rules_only(
    puzzles: dict[dt.date, Any],
) -> None:
    for day, puzzle in puzzles.items():
        result = check_puzzle(puzzle)
        assert result.ok, (day, result)


def test_the_daily_minefield_puzzle_is_deterministic(puzzles: dict[dt.date, Any]) -> None:
    for day in DAYS[:2]:
        assert daily_puzzle("minefield", day) == puzzles[day]


def test_the_source_names_the_self_play_game(puzzles: dict[dt.date, Any]) -> None:
    """The source names the seed, the game and the ply; its line is the game's moves (the
    rules-only checker replays it to the position); the game is that seed's game."""
    for day in DAYS[:2]:
        puzzle = puzzles[day]
        source = puzzle["source"]
        selfplay = source["selfplay"]
        assert selfplay["seed"] == daily_seed("minefield", day)
        assert (selfplay["size"], selfplay["variant"]) == (puzzle["size"], puzzle["variant"])
        assert source["record"] == f"selfplay-minefield-{selfplay['seed']}-{selfplay['game']}"
        assert len(source["line"]) == source["ply"]
        spec = played.played("minefield")
        assert spec is not None
        game = models.get("minefield", **puzzle["options"])
        start = game.parse_position(source["start"])
        assert start.fen() == game.start(size=puzzle["size"]).fen()
        moves = played.selfplay_moves(game, start, selfplay["seed"], selfplay["game"] - 1, spec)
        assert [str(m) for m in moves[: source["ply"]]] == source["line"]


def test_the_days_of_a_year_draw_both_sizes_and_the_variants_by_weekday() -> None:
    start = dt.date(2026, 1, 1)
    days = [start + dt.timedelta(days=k) for k in range(365)]
    drawn = {d: played.size_and_variant("minefield", d, daily_seed("minefield", d)) for d in days}
    sizes = Counter(size for size, _ in drawn.values())
    assert set(sizes) == {13, 15} and min(sizes.values()) > 365 // 3, sizes
    weekly = {2: "pinwheel", 5: "cartwheel"}
    for day, (_, variant) in drawn.items():
        assert variant == weekly.get(day.weekday(), "standard"), day


def test_the_cartwheel_days_switch_by_one_constant(monkeypatch: pytest.MonkeyPatch) -> None:
    saturday = DAYS[2]
    seed = daily_seed("minefield", saturday)
    assert played.size_and_variant("minefield", saturday, seed)[1] == "cartwheel"
    monkeypatch.setattr(played, "CARTWHEEL_DAYS", False)
    assert played.size_and_variant("minefield", saturday, seed)[1] == "standard"
    assert played.size_and_variant("minefield", DAYS[0], seed)[1] == "pinwheel"


def test_other_games_have_no_played_daily() -> None:
    assert [g for g in ("carpniches", "candy", "collexion") if played.played(g)] == []
    with pytest.raises(Exception, match="no daily puzzle from self-play"):
        played.size_and_variant("candy", DAYS[0], 1)


def test_the_site_page_names_the_size_and_the_variant(
    puzzles: dict[dt.date, Any], tmp_path: Path
) -> None:
    dates = [d.isoformat() for d in sorted(DAYS, reverse=True)]
    found = {f"minefield {d.isoformat()}": p for d, p in puzzles.items()}
    written = write_site(tmp_path, dates, ["minefield"], found)
    assert "variants.html" in written
    wednesday = (tmp_path / DAYS[0].isoformat() / "minefield.html").read_text()
    size = puzzles[DAYS[0]]["size"]
    assert f"Board: {size}×{size}, <strong>pinwheel variant</strong>" in wednesday
    assert 'href="../variants.html#pinwheel"' in wednesday
    assert "--variant pinwheel</code>" in wednesday  # the notation does not carry it
    rules = (tmp_path / "variants.html").read_text()
    assert 'id="pinwheel"' in rules and "docs/games/minefield.md" in rules
    thursday = (tmp_path / DAYS[1].isoformat() / "minefield.html").read_text()
    size = puzzles[DAYS[1]]["size"]
    assert f"Board: {size}×{size}, the rulebook's glyphs." in thursday
    assert "variants.html" not in thursday and "--variant" not in thursday
    saturday = (tmp_path / DAYS[2].isoformat() / "minefield.html").read_text()
    assert "<strong>cartwheel variant</strong>" in saturday
    assert 'href="../variants.html#cartwheel"' in saturday and 'id="cartwheel"' in rules
    index = (tmp_path / "index.html").read_text()
    assert f"{puzzles[DAYS[0]]['size']}×{puzzles[DAYS[0]]['size']} pinwheel</span>" in index


def test_a_site_without_a_variant_day_has_no_variants_page(
    puzzles: dict[dt.date, Any], tmp_path: Path
) -> None:
    day = DAYS[1].isoformat()
    written = write_site(tmp_path, [day], ["minefield"], {f"minefield {day}": puzzles[DAYS[1]]})
    assert "variants.html" not in written
