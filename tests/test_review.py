"""Game records and ``boardproof review``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardproof import models
from boardproof.analysis.record import RecordError, parse_record
from boardproof.analysis.review import review_record
from boardproof.solvers.api import solve

MF = models.get("minefield")
#: Black wins 4x4 with a2; after a2 a1 the move c2 throws the win away (checked below)
BLUNDER = """# a 4x4 game with one blunder
4/4/4/4 b -
a2 a1    # Black is winning
c2       # the blunder
d2
"""


def test_the_blunder_is_one() -> None:
    before = MF.parse_position("4/4/4/4 b -").play(MF.parse_position("4/4/4/4 b -")
                                                   .parse_move("a2"))  # fmt: skip
    before = before.play(before.parse_move("a1"))
    assert solve(before).value == "win"
    assert solve(before.play(before.parse_move("c2"))).winner == 1  # White wins now


def test_review_names_the_losing_move(cli_run, tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    record.write_text(BLUNDER)
    page = tmp_path / "review.html"
    status, out, err = cli_run("review", "minefield", str(record), "--iterations-per-move",
                               "100", "--html", str(page))  # fmt: skip
    assert status == 0, err
    assert "losing move: ply 3, b played c2 (line 4)" in out
    row = [line for line in out.splitlines() if line.strip().startswith("3 b")][0]
    assert "THE LOSING MOVE" in row and "win" in row and "loss" in row
    html = page.read_text()
    assert html.count("<svg") == 5  # four moves and the final position
    assert "The losing move:</b> ply 3" in html and "<script" not in html


def test_review_json_labels_proved_and_estimated(cli_run, tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"game": "minefield", "start": "6/6/6/6/6/6 b -",
                                  "moves": ["c3", "d4"]}))  # fmt: skip
    status, out, err = cli_run("review", "minefield", str(record), "--iterations-per-move",
                               "60", "--json")  # fmt: skip
    assert status == 0, err
    data = json.loads(out)
    assert [p["move"] for p in data["plies"]] == ["c3", "d4"]
    kinds = {p["before"]["kind"] for p in data["plies"]}
    assert kinds <= {"proved", "estimated"} and kinds
    first = data["plies"][0]
    assert first["player"] == "b" and first["best"] is not None


def test_review_is_reproducible_with_iterations() -> None:
    record = parse_record(MF, "9/9/9/9/9/9/9/9/9 b -\ne5 d4 c3")
    runs = [review_record(record, iterations=80, seed=3).to_json() for _ in range(2)]
    for run in runs:
        run.pop("seconds")
    assert runs[0] == runs[1]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4/4/4/4 b -\na2 a1\nb2 a2\n",
         "invalid record: line 3, ply 4: illegal move a2: the point is occupied: 'a2'"),
        ("4/4/4/4 b -\na2 q9\n",
         "invalid record: line 2, ply 2: invalid move: expected a point from a1 to d4, swap or "
         "pass, got 'q9'"),
        ("# nothing\n4/4/4 b -\n", "invalid record: line 2: invalid position"),
        ("# only a comment\n", "invalid record: no start position"),
        ('{"game": "chess", "start": "2/2 b -"}', "invalid record: game: unknown game"),
        ('{"game": "candy", "start": "2/2 b -"}',
         "invalid record: game: the record is of candy, not minefield: 'candy'"),
        ('{"start": "2/2 b -", "moves": ["a1", "a1"]}', "invalid record: moves[1], ply 2:"),
        ('{"start": "2/2 b -",\n "moves": [a1]}', "invalid record: line 2: not valid JSON"),
    ],
)  # fmt: skip
def test_bad_records_exit_2_naming_the_line_and_text(
    cli_run, tmp_path: Path, text: str, message: str
) -> None:
    record = tmp_path / "bad.txt"
    record.write_text(text)
    status, out, err = cli_run("review", "minefield", str(record))
    assert status == 2 and not out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: " + message), lines
    with pytest.raises(RecordError):
        parse_record(MF, text)


def test_unknown_game_and_missing_file(cli_run, tmp_path: Path) -> None:
    status, _, err = cli_run("review", "chess", str(tmp_path / "x"))
    assert status == 2 and "unknown game" in err
    status, _, err = cli_run("review", "minefield", str(tmp_path / "missing.txt"))
    assert status == 2 and err.startswith("error: invalid record: cannot read the file")
    assert "missing.txt" in err


def test_a_move_after_the_end_is_refused() -> None:
    won = "wb3/1b1w1/1b3/1b1w1/1b1w1 w -"  # Black has a path: the game is over
    with pytest.raises(RecordError, match=r"line 2, ply 1: the game is already over: 'a1'"):
        parse_record(MF, f"{won}\na1\n")
