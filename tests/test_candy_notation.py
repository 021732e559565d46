"""Candy Conquest: perft against the naive reference, conformance, notation, status, CLI."""

from __future__ import annotations

import json
from pathlib import Path

import naive_candy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardproof.models import candy
from boardproof.models.base import InvalidNotationError, generic_perft
from boardproof.testing.conformance import check_playouts

GAME = candy.make_game()
PERFT_FILE = Path(__file__).parent / "data" / "candy.perft"
EMPTY = ".,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,."


def perft_cases() -> list[tuple[str, str, int, int]]:
    cases = []
    name = position = ""
    for line in PERFT_FILE.read_text().splitlines():
        if line.startswith("id "):
            name = line[3:]
        elif line.startswith("position "):
            position = line[9:]
        elif line.startswith("perft "):
            _, depth, count = line.split()
            cases.append((name, position, int(depth), int(count)))
    return cases


CASES = perft_cases()


def test_perft_file_covers_every_player_count() -> None:
    assert {case[1].split()[-1] for case in CASES} == {"2", "3", "4"}
    assert len(CASES) >= 30


@pytest.mark.parametrize("name, position, depth, count", CASES, ids=[
    f"{c[0]}-d{c[2]}" for c in CASES
])
def test_perft_file(name: str, position: str, depth: int, count: int) -> None:
    pos = GAME.parse_position(position)
    assert pos.fen() == position
    assert pos.status() == []
    assert pos.perft(depth) == count
    if depth <= 2:
        assert generic_perft(pos, depth) == count
        assert naive_candy.perft_text(position, depth) == count


@pytest.mark.long
@pytest.mark.parametrize(
    "name, position, depth, count", [c for c in CASES if c[2] == 3], ids=lambda v: str(v)[:20]
)
def test_perft_file_naive_depth_3(name: str, position: str, depth: int, count: int) -> None:
    assert naive_candy.perft_text(position, depth) == count


@pytest.mark.parametrize("players, playouts", [(2, 6), (3, 4), (4, 3)])
def test_conformance(players: int, playouts: int) -> None:
    start = GAME.start(players=players)
    checked = check_playouts(GAME, [start], playouts=playouts, seed=players)
    assert checked > 20 * playouts


def test_conformance_with_passes() -> None:
    from test_candy import PASS_POSITION

    checked = check_playouts(GAME, [GAME.parse_position(PASS_POSITION)], playouts=5, seed=1)
    assert checked > 10


@pytest.mark.long
@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_long(players: int) -> None:
    check_playouts(GAME, [GAME.start(players=players)], playouts=60, seed=10 + players)


def test_symmetries_map_moves_and_lines() -> None:
    pos = GAME.parse_position(CASES[-1][1])
    names = set()
    for s in range(8):
        image = pos.transform(s)
        names.add(image.fen())
        assert image.status() == []
        assert image.perft(2) == pos.perft(2)
    assert len(names) == 8


# ---------------------------------------------------------------------------
# notation
# ---------------------------------------------------------------------------


def test_move_notation_round_trip() -> None:
    for text in ["Os@a1", "xS@e5", "pass", "sX@c4"]:
        assert str(candy.parse_move_text(text)) == text
    for bad in ["OS@a1", "Oo@a1", "Qs@a1", "Os@f1", "Os-a1", "Os@a6", "", "PASS"]:
        with pytest.raises(InvalidNotationError):
            candy.parse_move_text(bad)


def test_reserves_are_derived() -> None:
    pos = GAME.parse_position(_fen({"a5": "1Os2Sx1Xs"}, 1, 3))
    assert pos.reserve(0) == (3, 4, 4, 4, 4, 3)
    assert pos.reserve(1) == (4, 4, 4, 3, 4, 4)
    assert pos.reserve(2) == (4,) * 6


BAD_POSITIONS = [
    (f"{EMPTY} 1", "expected 3 fields"),
    (f"{EMPTY} 1 5", "invalid players"),
    (f"{EMPTY} 3 2", "invalid to-move"),
    (f"{EMPTY} 0 2", "invalid to-move"),
    (".,.,.,.,./.,.,.,.,. 1 2", "expected 5 rows"),
    (".,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,. 1 2", "expected 5 squares"),
    (EMPTY.replace(".", "1Oq", 1) + " 1 2", "unknown shape letter 'q'"),
    (EMPTY.replace(".", "1Ab", 1) + " 1 2", "unknown shape letter 'A'"),
    (EMPTY.replace(".", "1OS", 1) + " 1 2", "two shapes of the same size"),
    (EMPTY.replace(".", "1os", 1) + " 1 2", "two shapes of the same size"),
    (EMPTY.replace(".", "1Oo", 1) + " 1 2", "two shapes of the same type"),
    (EMPTY.replace(".", "1Os1Os", 1) + " 1 2", "invalid nesting at a5"),  # O onto s
    (EMPTY.replace(".", "1Os1sO", 1) + " 1 2", "invalid nesting at a5"),  # small into small
    (EMPTY.replace(".", "1sO", 1) + " 1 2", "does not fit the large socket"),
    (".,1Os,.,.,./" + EMPTY[10:] + " 1 2", "does not fit the small socket"),
    (EMPTY.replace(".", "3Os", 1) + " 1 2", "invalid candy colour"),
    (EMPTY.replace(".", "5Os", 1) + " 1 4", "invalid candy colour"),
    (EMPTY.replace(".", "1O", 1) + " 1 2", "invalid square a5"),
    (EMPTY.replace(".", "", 1) + " 1 2", "invalid square a5"),
    ("1Os,.,1Os,.,1Os/.,1Os,.,1Os,./1Os,.,.,.,./.,.,.,.,./.,.,.,.,. 2 2", "candies of kind Os"),
]


@pytest.mark.parametrize("text, message", BAD_POSITIONS)
def test_bad_positions(text: str, message: str) -> None:
    with pytest.raises(InvalidNotationError, match=message) as info:
        GAME.parse_position(text)
    assert "\n" not in str(info.value)
    assert str(info.value).endswith("'")


@pytest.mark.parametrize("text, message", BAD_POSITIONS)
def test_bad_positions_cli(cli_run, text: str, message: str) -> None:
    status, out, err = cli_run("show", "candy", text)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert message.split("'")[0] in err


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=".,/ 12345oOsSxXq", max_size=60))
def test_fuzz_parse(text: str) -> None:
    try:
        pos = GAME.parse_position(text)
    except InvalidNotationError:
        return
    assert GAME.parse_position(pos.fen()) == pos


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_fuzz_mutated_positions(data: st.DataObject) -> None:
    text = CASES[-1][1]
    chars = list(text)
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(chars) - 1))
        chars[i] = data.draw(st.sampled_from(".,/ 12345oOsSxXq"))
    try:
        pos = GAME.parse_position("".join(chars))
    except InvalidNotationError:
        return
    assert GAME.parse_position(pos.fen()).fen() == pos.fen()
    pos.status()
    pos.outcome()


# ---------------------------------------------------------------------------
# status: positions that parse but cannot occur
# ---------------------------------------------------------------------------


def _fen(squares: dict[str, str], to_move: int = 1, players: int = 2) -> str:
    rows = []
    for rank in range(5, 0, -1):
        rows.append(",".join(squares.get(f"{f}{rank}", ".") for f in "abcde"))
    return f"{'/'.join(rows)} {to_move} {players}"


@pytest.mark.parametrize(
    "squares, to_move, players, problem",
    [
        ({"a1": "1Os"}, 1, 2, "turn: player 2 should move"),
        ({"a1": "2Os"}, 2, 2, "candy counts"),
        ({"a1": "1Os", "c1": "1Os"}, 2, 2, "candy counts"),
        ({"a1": "1Os", "c1": "2Os"}, 2, 3, "turn: player 3 should move"),
        # a line of player 1 with player 1 to move: 1 did not move last
        (
            {"a1": "1Os", "b1": "1sO", "c1": "1Os", "d1": "1oS", "a5": "2Os", "b5": "2sO",
             "e4": "2oS", "e5": "2Os"},
            1, 2, "player 1 has a line but player 2 moved last",
        ),
        # two lines that no single placement completed
        (
            {"a1": "1Os", "b1": "1sO", "c1": "1Os", "d1": "1oS", "a3": "1Xo", "b3": "1xS",
             "c3": "1Xs", "d3": "1sX", "a5": "2Os", "b5": "2sO", "e4": "2oS", "e5": "2Os",
             "e3": "2Xo", "b4": "2Os", "d5": "2sX"},
            2, 2, "no single last placement",
        ),
        # lines for two players
        (
            {"a1": "1Os", "b1": "1sO", "c1": "1Os", "d1": "1oS", "a5": "2Os", "b5": "2sO",
             "c5": "2Os", "d5": "2sO", "e3": "1Os"},
            2, 2, "more than one player has a line",
        ),
    ],
)
def test_status(squares: dict[str, str], to_move: int, players: int, problem: str) -> None:
    pos = GAME.parse_position(_fen(squares, to_move, players))
    problems = pos.status()
    assert any(problem in p for p in problems), problems


def test_status_accepts_a_won_position() -> None:
    squares = {"a1": "1Os", "b1": "1sO", "c1": "1Os", "d1": "1oS", "a5": "2Os", "b5": "2sO",
               "e4": "2oS"}
    pos = GAME.parse_position(_fen(squares, 2, 2))
    assert pos.status() == []
    assert pos.outcome() is not None and pos.outcome().winners == {0}


# ---------------------------------------------------------------------------
# command line
# ---------------------------------------------------------------------------


def test_cli_new_moves_play_perft(cli_run) -> None:
    status, out, _ = cli_run("new", "candy", "--players", "3")
    assert status == 0 and out.strip() == f"{EMPTY} 1 3"
    status, out, _ = cli_run("new", "candy-conquest", "--players", "5")
    assert status == 2
    status, out, _ = cli_run("moves", "candy", f"{EMPTY} 1 2")
    assert status == 0 and out.splitlines()[:2] == ["Os@a1", "Ox@a1"] and len(out.split()) == 150
    status, out, _ = cli_run("play", "candy", f"{EMPTY} 1 2", "Os@c3", "Sx@c3", "--json")
    data = json.loads(out)
    assert data == {
        "position": ".,.,.,.,./.,.,.,.,./.,.,1Os2Sx,.,./.,.,.,.,./.,.,.,.,. 1 2",
        "result": "ongoing",
        "winner": None,
    }
    status, out, _ = cli_run("perft", "candy", f"{EMPTY} 1 4", "2")
    assert status == 0 and out.strip() == "21900"
    status, out, _ = cli_run("perft", "candy", f"{EMPTY} 1 2", "1", "--divide")
    assert out.splitlines()[0] == "Os@a1: 1" and out.splitlines()[-1] == "150"


def test_cli_play_win_and_illegal(cli_run) -> None:
    start = _fen({"a1": "1Os", "b1": "1sO", "c1": "1Os", "a5": "2Os", "b5": "2sO", "e4": "2oS"})
    status, out, _ = cli_run("play", "candy", start, "oX@d1", "--json")
    assert json.loads(out)["result"] == "win" and json.loads(out)["winner"] == "1"
    status, out, err = cli_run("play", "candy", start, "Os@d1")
    assert status == 2 and err.count("\n") == 1
    assert err.startswith("error: illegal move Os@d1: the bottom must fit the small socket")
    status, out, err = cli_run("play", "candy", start, "Qq@d1")
    assert status == 2 and err.rstrip().endswith("'Qq@d1'")


def test_cli_show_text_and_svg(cli_run, tmp_path: Path) -> None:
    target = tmp_path / "c.svg"
    position = _fen({"c3": "2Os1Sx1Xo", "a5": "2Os"})
    status, out, _ = cli_run("show", "candy", position, "--svg", str(target))
    assert status == 0
    assert "c3: f0 2(O)(s)  f1 1S(x)  f2 1Xo   visible 111" in out
    assert "to move: 1" in out
    text = target.read_text()
    assert text.startswith("<svg") and text.count("<title>") == 8  # 4 candies, 2 shapes each
    # hidden: 2's O (in the board) and s (covered), 1's x (covered), 2's x (in the board)
    assert text.count('class="hidden"') == 4
    assert text.count("player 2 large round (bottom, hidden)") == 2
    assert "player 1 large star (bottom)" in text and "player 1 small round (top)" in text


def test_canonical_key_hook() -> None:
    import random

    rng = random.Random(5)
    for players in (2, 3, 4):
        pos = GAME.start(players=players)
        while pos.outcome() is None:
            key, sym = pos.canonical()
            keys = [pos.transform(s).key() for s in range(8)]
            assert key == min(keys) and sym == keys.index(key)
            pos = pos.play(rng.choice(pos.legal_moves()))
