"""Game records and ``boardproof review``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from interrupt import interrupt_after_progress

from boardproof import models
from boardproof.review.judge import review_record
from boardproof.review.record import RecordError, parse_record
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
    page = tmp_path / "review.html"
    status, out, err = cli_run("review", "minefield", str(record), "--iterations-per-move",
                               "60", "--json", "--html", str(page))  # fmt: skip
    assert status == 0, err
    data = json.loads(out)
    assert [p["move"] for p in data["plies"]] == ["c3", "d4"]
    kinds = {p["before"]["kind"] for p in data["plies"]}
    assert kinds <= {"proved", "estimated"} and kinds
    html = page.read_text()
    for ply in data["plies"]:  # the page labels each value as the JSON does
        value = ply["after"]
        label = f"{value['proved']} (proved)" if value["proved"] else "% (estimated)"
        assert label in html
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


# ------------------------------------------------ issue 14 audit (session 5)


def test_the_html_labels_values_and_names_the_best_alternative() -> None:
    from boardproof.reports.review_html import render

    review = review_record(parse_record(MF, BLUNDER), iterations=100)
    page = render(review)
    assert "win (proved)" in page and "loss (proved)" in page
    assert "Best alternative: <code>" in page and "the losing move" in page
    assert '<tr class="losing">' in page


#: records of the other games (random moves), with each game's move notation; the
#: text form on one, the JSON form on the other
OTHER_RECORDS = [
    ("carpniches", "(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1\na6-c4 f6-e6  # two moves\nc4-b4\n",
     "text"),
    ("candy", ".,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,. 1 3\nSo@b4  # 3 players\nSx@d4\n",
     "json"),
]  # fmt: skip


@pytest.mark.parametrize(("game", "text", "form"), OTHER_RECORDS,
                         ids=[g for g, _, _ in OTHER_RECORDS])  # fmt: skip
def test_review_on_other_games(cli_run, tmp_path: Path, game: str, text: str, form: str):
    record = tmp_path / "game.txt"
    record.write_text(text)
    page = tmp_path / "review.html"
    moves = [m for line in text.splitlines()[1:] for m in line.split("#")[0].split()]
    args = ("review", game, str(record), "--iterations-per-move", "20", "--quiet", "--html",
            str(page))  # fmt: skip
    status, out, err = cli_run(*args, *(("--json",) if form == "json" else ()))
    assert status == 0, err
    assert page.read_text().count("<svg") == len(moves) + 1
    if form == "text":
        rows = [line.split() for line in out.splitlines()[2 : 2 + len(moves)]]
        assert [row[2] for row in rows] == moves and out.startswith("start: ")
        assert "losing move: " in out and f"wrote {page}" in out
        return
    data = json.loads(out)
    assert [p["move"] for p in data["plies"]] == moves
    for ply in data["plies"]:
        assert ply["before"]["kind"] in ("proved", "estimated") and ply["best"] is not None


def test_review_of_a_score_game_reports_scores(cli_run, tmp_path: Path) -> None:
    status, out, _ = cli_run("new", "collexion", "--players", "2", "--seed", "1")
    start = out.strip()
    pos = models.get("collexion").parse_position(start)
    move = sorted(str(m) for m in pos.legal_moves())[0]
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"game": "collexion", "start": start, "moves": [move]}))
    status, out, err = cli_run("review", "collexion", str(record), "--iterations-per-move", "8",
                               "--json", "--quiet")  # fmt: skip
    assert status == 0, err
    (ply,) = json.loads(out)["plies"]
    assert ply["move"] == move and isinstance(ply["before"]["score"], float)


def test_ctrl_c_during_review_prints_the_moves_reviewed_so_far_and_exits_130(
    tmp_path: Path,
) -> None:
    record = tmp_path / "game.txt"
    record.write_text("9/9/9/9/9/9/9/9/9 b -\ne5 d4 c3 f6 g7 b2\n")
    status, out, err, took = interrupt_after_progress(
        ["review", "minefield", str(record), "--time-per-move", "20", "--json"],
        "review: position 1/7",
    )
    assert took < 40
    assert status == 130, (out, err)
    assert err.splitlines()[-1] == "interrupted" and "Traceback" not in err
    data = json.loads(out)  # the plies reviewed before the interruption (none yet here)
    assert data["plies"] == [] and data["start"] == "9/9/9/9/9/9/9/9/9 b -"
