"""Minefield through the command line, and fuzzing of its notation parsers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardproof.models.base import IllegalMoveError, InvalidNotationError
from boardproof.models.minefield import make_game

GAME = make_game()


def test_new(cli_run) -> None:
    assert cli_run("new", "minefield", "--size", "5") == (0, "5/5/5/5/5 b p\n", "")
    assert cli_run("new", "minefield", "--size", "3", "--no-pie")[1] == "3/3/3 b -\n"
    assert cli_run("new", "minefield")[1].startswith("11/11/")


def test_moves_and_play(cli_run) -> None:
    status, out, _ = cli_run("moves", "minefield", "3/3/3 b p")
    assert status == 0 and out.split() == [f"{f}{r}" for r in "123" for f in "abc"]
    status, out, _ = cli_run("moves", "minefield", "3/3/1b1 w p")
    assert out.split()[-1] == "swap" and len(out.split()) == 9
    status, out, _ = cli_run("play", "minefield", "5/5/5/5/5 b p", "c3", "swap", "a1")
    assert (status, out) == (0, "5/5/2b2/5/w4 b -\n")
    status, out, _ = cli_run("play", "minefield", "1b1/1b1/2w b", "b1", "--json")
    assert json.loads(out) == {"position": "1b1/1b1/1bw w -", "result": "win", "winner": "b"}
    status, out, _ = cli_run("play", "minefield", "1bw/b2/w1b w -", "pass", "--json")
    assert json.loads(out)["result"] == "ongoing"


def test_perft_and_divide(cli_run) -> None:
    assert cli_run("perft", "minefield", "3/3/3 b p", "2") == (0, "81\n", "")
    status, out, _ = cli_run("perft", "minefield", "3/3/1b1 w p", "1", "--divide")
    lines = out.splitlines()
    assert lines[-1] == "9" and lines[-2] == "swap: 1" and len(lines) == 10
    diag = cli_run("perft", "minefield", "5/3b1/2b2/1b3/b4 b -", "2", "--win", "orthodiagonal")
    ortho = cli_run("perft", "minefield", "5/3b1/2b2/1b3/b4 b -", "2")
    assert int(diag[1]) < int(ortho[1])  # e5 wins at once under the ortho-diagonal rule


def test_show(cli_run, tmp_path: Path) -> None:
    status, out, _ = cli_run("show", "minefield", "3/1b1/3 w p")
    assert status == 0
    assert out.splitlines()[:4] == ["  3  .  .  .", "  2  .  b  .", "  1  .  .  .", "     a  b  c"]
    assert "to move: w" in out
    svg = tmp_path / "won.svg"
    status, out, _ = cli_run("show", "minefield", "1b1/1b1/1bw w", "--svg", str(svg))
    assert "winning path (b): b1 b2 b3" in out and "result: won by b" in out
    assert svg.read_text().startswith("<svg") and "<polyline" in svg.read_text()
    status, out, _ = cli_run("show", "minefield", "3/bw1/wb1 w")
    assert "status: a 2x2 crosscut at a1-b2" in out


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("show", "minefield", "5/5/b5/5/5 b"),
         "invalid position: row 3 has 6 points, expected 5: 'b5'"),
        (("moves", "minefield", "3/3/3 z"),
         "invalid position: expected side to move b or w, got 'z'"),
        (("play", "minefield", "3/3/3 b", "zz"),
         "invalid move: expected a point like c3, swap or pass, got 'zz'"),
        (("play", "minefield", "3/3/3 b", "d1"),
         "invalid move: expected a point from a1 to c3, swap or pass, got 'd1'"),
        (("play", "minefield", "3/1b1/3 w", "b2"), "illegal move b2: the point is occupied"),
        (("play", "minefield", "3/1b1/3 w", "swap"), "illegal move swap:"),
        (("play", "minefield", "3/1b1/3 w", "pass"), "illegal move pass: w has a legal move"),
        (("play", "minefield", "/".join(["19"] * 3 + ["9w9", "9b9"] + ["19"] * 14) + " b", "i16"),
         "illegal move i16: it forms a hard corner"),
        (("perft", "minefield", "3/3/3 b", "-1"), "'-1'"),
        (("perft", "minefield", "3/3/3 b", "--", "-1"), "DEPTH"),
        (("perft", "minefield", "3/3/3 b", "x"), "DEPTH"),
        (("perft", "minefeld", "3/3/3 b", "1"), "unknown game"),
        (("perft", "minefield", "3/3/3 b", "1", "--win", "hex"),
         "invalid option --win: expected one of orthogonal, orthodiagonal, got 'hex'"),
        (("new", "minefield", "--size", "30"), "invalid option --size: expected 2 to 26, got 30"),
        (("new", "minefield", "--players", "3"), "invalid option --players"),
        (("new", "minefield", "--seed", "3"), "invalid option --seed: minefield does not take it"),
        (("new", "minefield", "--variant", "x"), "invalid option --variant"),
    ],
)
def test_bad_input_is_one_line(cli_run, args: tuple[str, ...], needle: str) -> None:
    status, out, err = cli_run(*args)
    assert status == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert needle in lines[0]


# ---------------------------------------------------------------------------
# fuzzing: the parsers either parse or raise InvalidNotationError
# ---------------------------------------------------------------------------

VALID = [
    "5/5/5/5/5 b p",
    "5/5/2b2/5/5 w p",
    "1bw/b2/w1b w -",
    "b1w3/1bw2b/w1b1w1/1bw1b1/b2w2/1w1bw1 b -",
    "11/11/11/11/11/11/11/11/11/11/5b5 w",
    "26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/26/b25 w p",
]
ALPHABET = "bw0123456789/ p-xB\t²é"


@st.composite
def mutated_positions(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(VALID))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "replace", "duplicate"]))
        char = draw(st.sampled_from(ALPHABET) | st.characters())
        if action == "insert":
            text = text[:i] + char + text[i:]
        elif action == "delete":
            text = text[:i] + text[i + 1 :]
        elif action == "replace":
            text = text[:i] + char + text[i + 1 :]
        else:
            text = text[:i] + text[i:][:5] + text[i:]
    return text


def _parse_or_notation_error(text: str) -> None:
    try:
        pos = GAME.parse_position(text)
    except InvalidNotationError as error:
        assert "\n" not in str(error) and str(error).startswith("invalid position: ")
        return
    again = GAME.parse_position(pos.fen())
    assert again == pos and again.fen() == pos.fen()
    pos.status()


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(ALPHABET) | st.characters(), max_size=40))
def test_random_strings_parse_or_raise_notation_error(text: str) -> None:
    _parse_or_notation_error(text)


@settings(max_examples=400, deadline=None)
@given(mutated_positions())
def test_mutated_positions_parse_or_raise_notation_error(text: str) -> None:
    _parse_or_notation_error(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=6) | st.from_regex(r"[a-z]{1,2}[0-9]{0,3}", fullmatch=True))
def test_random_moves_parse_or_raise_notation_error(text: str) -> None:
    pos = GAME.start(size=7)
    try:
        move = pos.parse_move(text)
    except InvalidNotationError as error:
        assert str(error).startswith("invalid move: ")
        return
    assert pos.parse_move(str(move)) == move
    try:
        pos.play(move)
    except IllegalMoveError as error:
        assert str(error).startswith(f"illegal move {move}: ")


@pytest.mark.parametrize("n", [2, 5, 26])
def test_svg_picture(n: int) -> None:
    from boardproof.reports import svg

    pos = GAME.start(size=n).play("a1").play("swap").play("b2")
    text = svg.render(pos)
    assert text.startswith("<svg") and text.rstrip().endswith("</svg>")
    assert text.count("<circle") == 2  # two stones, no path
    letters = "abcdefghijklmnopqrstuvwxyz"[:n]
    assert all(f">{letter}</text>" in text for letter in letters)
    assert f">{n}</text>" in text
    assert text.count('fill="#111111"') >= 2 + 1  # Black's two edge bars and a stone
    won = svg.render(GAME.parse_position("1b1/1b1/1bw w"))
    assert won.count("<polyline") == 1
