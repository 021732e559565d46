"""Puzzle themes on pinned positions: each theme of each game has a position where it
applies and one where it does not (the detector must give exactly the themes listed)."""

from __future__ import annotations

import pytest

from boardproof import models
from boardproof.puzzles import PuzzleError
from boardproof.puzzles.themes import catalogue, puzzle_themes, with_themes

#: (game, position, line, the game's themes): positions from the puzzle generator (seed 1)
#: where noted, else built for the theme; every verdict was checked on the board by hand
CASES = [
    # Minefield. After d1 Black threatens d2; White's block d2 was legal before d1 and is a
    # hard corner after it (d1 b, e1 w, d2 w, e2 empty): the glyph trap.
    ("minefield", "w2bbb/b1bbww/1b1bww/b1wbbw/b1w2w/1ww1w1 b -", ["d1", "a1", "d2"],
     {"glyph-trap"}),
    # after e3 Black threatens c1 and d2; the winning c1 is on rank 1 (Black's edge)
    ("minefield", "w1wbwwb/1w1b1bb/b1w2bb/2w1wbb/w1bb1b1/2b1www/w2bww1 b -", ["e3", "b1", "c1"],
     {"double-threat", "edge-connection"}),
    # a2 threatens e1 only; Black may not place on e1, but it could not before a2 either
    # (a hard corner with d1, d2 and e2): no glyph trap, no double threat
    ("minefield", "1w3/1b1bb/b2b1/1wwb1/2ww1 w -", ["a2", "a1", "e1"], {"edge-connection"}),
    # a win in 5 ending on e5, inside the board for Black (ranks 1 and 6 are its edges)
    ("minefield", "b1wwb1/bw3w/bb2b1/ww2bb/w3w1/b1wbw1 b -", ["d3", "f1", "d2", "b2", "e5"],
     set()),
    # Black cannot place after a4 and passes (a seeded playout)
    ("minefield", "wbbwb/2wwb/1w1ww/bbbwb/bbbww w -", ["a4", "pass", "b4"], {"forced-pass"}),
    # the pie rule pending: White wins in 5 without swapping (solved by boardproof solve)
    ("minefield", "3/1b1/3 w p", ["b1", "c3", "a1", "a2", "c1"],
     {"edge-connection", "swap-decision"}),
    # Carpniches
    ("carpniches", "(cp)c1(cp)2/6/5p/p3p1/4c1/(pc)2c2 c -", ["e2-e1", "a3-a2", "a1-c1"],
     {"line-of-three"}),
    ("carpniches", "4p1/c1p1(pc)1/6/5(pc)/6/(pcc)1(pc)3 c -", ["a1-a4", "c5-b4", "a1-a3"],
     {"line-of-three", "tall-stack-jump"}),
    # after e6-d6 the poodles' b4-e1 (or b4-e4) would give both animals a line, and lose
    ("carpniches", "1c2c1/1pc3/1p4/1c2p1/4(cp)1/(pcp)5 c -",
     ["b3-b4", "b5-b4", "e6-d6", "a1-d1", "c5-c6"], {"both-lines", "line-of-three"}),
    # e6-f6 covers the last poodle on top: the poodles cannot move (built; no line)
    ("carpniches", "4cp/6/4(pc)1/6/(pc)1(pc)3/(pc)1(pc)3 c -", ["e6-f6"], {"blockade"}),
    # Candy Conquest
    ("candy", "1Sx1Xo,2xO2oX,1So,1sO,1So2Ox1Xo/1oS1sO,1So1Os,2oX1xS,.,2sX2xO/2Xo,2sX,.,"
     "1sO2oS,1Xs/1xO1oX2xS,2So2Os,1xO,2So1Ox,2xO/2Os1Sx,2oX1xO,1Sx2Xs,2sO2oS,1Xo2Os2Sx1Xs"
     " 2 2", ["sX@d1", "Xs@a1", "xS@d1"], {"column"}),
    ("candy", ".,2sO,.,1xO,./2oS,2Xs,1sO2oX,.,./1Ox,1oX2xO2oX,2Os1Sx,2xS1sO,1Os/2xS1sX,"
     "2Xs1So,.,2Os2Sx,2sO/1Xs,1sO,2Xo,1oS1sX,1Xs 1 2", ["Xo@c3", "So@a1", "xO@b3"],
     {"staircase"}),
    # Ox@c3 puts a large round over player 2's small round top (2Xo on c3): the cover
    ("candy", "1Xo2Ox1Xo,1oX2xS2sX,2Ox,2oS1sX,2Xs2Sx/1oX,1Os1Sx,1xO,2Sx,1sO/.,.,2Xo,2xO,"
     "1Xs2Sx/1oS,1Os1So,2sO2oS,1Xs1So,2xO/2So,2sO,1Os,2oS,1Xs 1 2",
     ["Ox@c3", "Os@a1", "So@e1"], {"cover", "flat-line"}),
    # three players: player 1 completes a flat line on rank 1 (built)
    ("candy", ".,.,.,.,./.,.,.,.,./3Os,.,.,.,./2oS,2Os,.,.,./1So,1oS,1Os,.,. 1 3", ["oX@d1"],
     {"flat-line", "multiplayer"}),
    # ColleXion
    ("collexion", "base 1:p5<3.4.6.8.9,2:y8<4.6.9,3:g4<7.8,4:g8<6.9,5:b5<8,6:g3<9,7:p8<9,"
     "8:p4,9:b8 g8.y4.y8.b3.b5:2:-/y5.b3.b4.p3.p3:2.2.3:- 234/34/4/34 1",
     ["9.7/8b", "6", "4", "2", "8", "3", "1", "5"], {"set-completion"}),
    # generator seed 2: player 2 holds g3 y3 b3; the best turn 8.7.1 takes p3 (piece 8)
    ("collexion", "base 1:b4,2:b4<3.4.5.6.8,3:y5<4.5.6.8,4:p8<5.6.8,5:p5<6.8,6:y4<8,7:p4<8,"
     "8:p3 g5.y4.b4.b8.p3:2.3.3:-/g3.y3.b3.b5.p4:2.2:- 34/4/234/4 1", ["8.7.1"], {"denial"}),
    # taking g8 (piece 3) leaves player 2 without the last polygon of its 8 shape set
    ("collexion", "base 1:g3,2:y3,3:g8 g4.g5:-:-/y8.p8.b8:-:- 234/234/234/234 1", ["3"],
     {"denial"}),
    ("collexion", "base 1:g3,2:y3,3:g8 g4.g5:-:-/y8.p8.b8:-:- 234/234/234/234 1", ["1"], set()),
    # a power token: remove piece 3 (g8) from the box, then take piece 1
    ("collexion", "powers 1:g3,2:y3,3:g8 g4.g5:-:rsx/y8.p8.b8:-:rsx 234/234/234/234 1",
     ["r3:1"], {"denial", "powers"}),
]


def detect(game: str, position: str, line: list[str]) -> set[str]:
    themes = models.info(game).part("themes")
    return set(themes.detect(models.get(game).parse_position(position), line))


@pytest.mark.parametrize(("game", "position", "line", "expected"), CASES)
def test_pinned_positions(game: str, position: str, line: list[str], expected: set[str]) -> None:
    assert detect(game, position, line) == expected


def test_every_theme_has_a_positive_and_a_negative_case() -> None:
    for game in models.names():
        cases = [expected for g, _p, _l, expected in CASES if g == game]
        for theme in catalogue(game):
            assert any(theme in e for e in cases), (game, theme, "no positive case")
            assert any(theme not in e for e in cases), (game, theme, "no negative case")


def test_every_theme_is_defined_in_its_games_page() -> None:
    from pathlib import Path

    docs = Path(__file__).parent.parent / "docs" / "games"
    for game in models.names():
        page = (docs / f"{game}.md").read_text(encoding="utf-8")
        for theme, definition in catalogue(game).items():
            assert f"| `{theme}` | {definition} |" in page, (game, theme)


def test_the_lines_are_legal_and_end_the_game() -> None:
    for game, position, line, _expected in CASES:
        pos = models.get(game).parse_position(position)
        for text in line:
            pos = pos.play(pos.parse_move(text))  # raises on an illegal move
        if game != "collexion":  # a best turn, not a win: its line is the turn alone
            assert pos.outcome() is not None, (game, position)


def test_puzzle_record_gets_its_themes_and_win_length() -> None:
    puzzle = {"id": "x", "game": "minefield", "options": {}, "plies": 3,
              "position": "1w3/1b1bb/b2b1/1wwb1/2ww1 w -", "solution": "a2",
              "pv": ["a2", "a1", "e1"]}  # fmt: skip
    assert with_themes(puzzle)["themes"] == ["edge-connection", "win-in-3"]
    score = {"game": "collexion", "objective": "score", "plies": 1, "solution": "3",
             "position": "base 1:g3,2:y3,3:g8 g4.g5:-:-/y8.p8.b8:-:- 234/234/234/234 1"}
    assert puzzle_themes(score) == ["denial"]  # no "win in N" for a best-turn puzzle


@pytest.mark.parametrize(("change", "message"), [
    ({"pv": ["a2", "a2"]}, "illegal move a2"),
    ({"position": "nonsense"}, "invalid puzzle 'x'"),
    ({"game": "chess"}, "unknown game"),
])  # fmt: skip
def test_a_record_that_does_not_replay_is_one_error(change: dict, message: str) -> None:
    puzzle = {"id": "x", "game": "minefield", "options": {}, "plies": 3,
              "position": "1w3/1b1bb/b2b1/1wwb1/2ww1 w -", "solution": "a2", **change}
    with pytest.raises(PuzzleError, match=message):
        puzzle_themes(puzzle)


def test_minefield_threats_and_placements_agree_with_the_naive_rules() -> None:
    """The detector's building blocks against tests/naive_minefield.py (no shared code), on
    every position of seeded random games."""
    import random

    from naive_minefield import Naive

    from boardproof.models.minefield.themes import placements, threats
    from boardproof.puzzles.generate import playout

    rng = random.Random("themes-naive")
    checked = 0
    for _ in range(12):
        line = playout(models.get("minefield").start(size=rng.choice((4, 5, 6)), pie=False), rng)
        assert line is not None
        for pos, _move in line:
            naive = Naive.parse(pos.fen())
            for colour, symbol in ((0, "b"), (1, "w")):
                spots = naive.placements(symbol)
                bits = placements(pos, colour)
                assert sorted(spots) == sorted(
                    (m.file, m.rank) for m in pos.tables.moves_of(bits)
                ), pos.fen()
                winning = []
                for f, r in spots:
                    after = Naive([row[:] for row in naive.grid], symbol, False)
                    after.grid[r][f] = symbol
                    if after.has_path(symbol):
                        winning.append((f, r))
                if naive.has_path("b") or naive.has_path("w"):
                    winning = []  # the game is over: nobody threatens
                assert sorted(winning) == sorted((m.file, m.rank) for m in threats(pos, colour))
                checked += 1
    assert checked > 200
