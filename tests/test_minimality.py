"""Is each glyph needed? The minimality search against a brute-force reference of the rules."""

from __future__ import annotations

import json

import pytest
from glyph_reference import E, W, all_boards, has_path, point, replay, stuck

from boardproof.models.minefield.proofs.glyph_sets import VARIANT_SETS, without
from boardproof.models.minefield.research import minimality, minimality_report
from boardproof.models.minefield.research.glyph_games import enumerate_dead, reach_search

#: (variant, glyph): the smallest board with a dead position without that glyph
EXPECTED_SMALLEST = {
    ("standard", "hard corner"): 2, ("standard", "2x3 switch"): 3,
    ("standard", "2x4 switch"): 4, ("pinwheel", "hard corner"): 2,
    ("pinwheel", "2x3 switch"): 3, ("pinwheel", "pinwheel"): 4,
}


def dead_by_reference(board: tuple[int, ...], n: int, names: tuple[str, ...]) -> bool:
    return stuck(board, n, names) and not any(has_path(board, n, c) for c in (1, W))


@pytest.mark.parametrize(("variant", "glyph"), sorted(EXPECTED_SMALLEST))
def test_smallest_dead_positions_checked_by_the_reference(variant: str, glyph: str) -> None:
    entry = minimality.glyph_task({"variant": variant, "glyph": glyph,
                                   "sizes": [2, 3, 4, 5]})
    n = EXPECTED_SMALLEST[(variant, glyph)]
    assert entry["smallest"] == n and entry["needed"] is True
    names = without(variant, glyph)
    found = entry["found"]
    board = replay(found["line"], n, names)  # every move legal by the reference
    assert board == tuple(_cells(found["board"], n))
    assert dead_by_reference(board, n, names)
    # with the glyph back (the variant's rules) the same game breaks a rule
    with pytest.raises(AssertionError):
        replay(found["line"], n, VARIANT_SETS[variant])
    for row in entry["sizes"][:-1]:  # the smaller sizes: none, proved and walked
        assert row["result"] == "none"
        if row["n"] <= 3:
            assert row["exhaustive"]["dead"] == 0 and row["agree"]


def _cells(rows: str, n: int) -> list[int]:
    out = [E] * (n * n)
    for i, text in enumerate(rows.split("/")):
        r, f = n - 1 - i, 0
        number = ""
        for ch in text + "$":
            if ch.isdigit():
                number += ch
                continue
            f += int(number) if number else 0
            number = ""
            if ch in "bw":
                out[r * n + f] = 1 if ch == "b" else W
                f += 1
    return out


def test_exhaustive_dead_counts_equal_the_reference_n2() -> None:
    # every reachable dead 2x2 board without the hard corner: the two crosscuts
    names = without("standard", "hard corner")
    walk = enumerate_dead(2, names)
    assert walk.dead == 2
    deads = {b for b in all_boards(2) if E not in b and dead_by_reference(b, 2, names)}
    assert len(deads) == 2


def test_the_cartwheel_is_not_needed_on_small_boards() -> None:
    entry = minimality.glyph_task({"variant": "cartwheel", "glyph": "cartwheel",
                                   "sizes": [2, 3, 4], "exhaustive_max": 3})
    assert entry["needed"] is False and entry["same_as_variant"] == "pinwheel"
    assert [r["result"] for r in entry["sizes"]] == ["none", "none", "none"]


def test_unreachable_candidates_are_excluded_not_reported() -> None:
    # the 2x4 switch at n = 4: two static draws are unreachable before a dead one is found
    entry = minimality.glyph_task({"variant": "standard", "glyph": "2x4 switch",
                                   "sizes": [4]})
    names = without("standard", "2x4 switch")
    for item in entry["sizes"][0]["excluded"]:
        assert reach_search(item["board"], names).line is None


def test_replay_rejects_broken_games() -> None:
    names = without("standard", "hard corner")
    with pytest.raises(ValueError, match="not a legal placement"):
        minimality.replay(["a1", "a1"], names, 2)
    with pytest.raises(ValueError, match="pass is not forced"):
        minimality.replay(["pass"], names, 2)
    assert point(2, "b2") == 3


def test_proofs_and_report(tmp_path) -> None:
    result = minimality.verify_minimal(["pinwheel"], [2, 3, 4], proof_dir=tmp_path / "p",
                                       certify_max=4, exhaustive_max=2)
    by_glyph = {e["glyph"]: e for e in result["glyphs"]}
    rows = by_glyph["pinwheel"]["sizes"]
    assert [r["result"] for r in rows] == ["none", "none", "dead"]
    assert all(r["certificate"]["ok"] for r in rows[:2])
    paths = minimality_report.write_report(result, tmp_path)
    text = paths[0].read_text()
    assert "| pinwheel | pinwheel | n = 4 |" in text
    assert (tmp_path / "minefield-minimal-pinwheel-no-pw.svg").read_text().startswith("<svg")
    assert json.loads(paths[1].read_text())["claim"] == "minefield-minimal"


def test_cli(cli_run, tmp_path) -> None:
    status, out, err = cli_run("verify", "minefield-minimal", "--variant", "standard",
                               "--sizes", "2-4", "--out", str(tmp_path / "r"), "--quiet")
    assert status == 0, err
    assert "standard  2x4 switch" in out and (tmp_path / "r" / "minefield-minimal.md").exists()
    status, out, err = cli_run("verify", "minefield-minimal", "--variant", "wheel")
    assert status == 2 and err.strip().count("\n") == 0 and "'wheel'" in err
