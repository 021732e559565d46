"""Play the engine on the analysis board, through its API: ``POST /api/engine-move`` (the
engine's move, played) and ``POST /api/review`` (``review --json`` of a game record), for
every game; bad input is a 400 with one line naming the field; a whole 5x5 Minefield game
against the engine, reviewed, and its record read back by ``boardproof review``."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

from boardproof import models
from boardproof.review.record import parse_record
from boardproof.web import api

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

    from boardproof.web.app import create_app

GAMES = ("minefield", "carpniches", "candy", "collexion")
WON = "wb3/1b1w1/5/1b1w1/1b1w1 b -"  # b to move wins (the exact first step proves it)


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), base_url="http://127.0.0.1:8000")


def _one_line(answer: Any) -> str:
    text = answer.json()["error"]
    assert text.startswith("error: ") and "\n" not in text, text
    return str(text)


def _record(start: str, moves: list[str], comment: str = "") -> str:
    """A record as the page's "Download record" writes it (text form)."""
    lines = [f"# {comment}"] if comment else []
    return "\n".join([*lines, start, " ".join(moves)]) + "\n"


def test_engine_move_plays_the_winning_move(client: TestClient) -> None:
    body = {"game": "minefield", "position": WON, "iterations": 200, "seed": 1}
    answer = client.post("/api/engine-move", json=body)
    data = answer.json()
    assert answer.status_code == 200, data
    assert data["side"] == "b" and data["analysis"]["result"] == "win"
    assert data["move"] == data["analysis"]["best_move"] == data["analysis"]["pv"][0]
    after = api.play({"game": "minefield", "position": WON, "moves": [data["move"]]})["position"]
    assert data["position"] == data["board"]["position"] == after
    assert data["board"]["to_move"] == "w"
    assert [p["symbol"] for p in data["board"]["players"]] == ["b", "w"]
    # the same seed and iterations: the same move
    again = client.post("/api/engine-move", json=body).json()
    assert again["move"] == data["move"]
    # a time budget works too
    timed = client.post("/api/engine-move", json={"game": "minefield", "position": WON,
                                                  "seconds": 0.3}).json()  # fmt: skip
    assert timed["side"] == "b" and timed["analysis"]["seconds"] <= 0.3 + 2


@pytest.mark.parametrize("game", GAMES)
def test_every_game_starts_plays_the_engine_and_reviews(client: TestClient, game: str) -> None:
    start = client.post("/api/start", json={"game": game})
    board = start.json()
    assert start.status_code == 200, board
    sides = [p["symbol"] for p in board["players"]]
    assert board["to_move"] == sides[0] and len(sides) >= 2
    moves: list[str] = []
    for turn in range(3):
        if turn == 1:  # "you": the first legal move
            move = board["moves"][0][0]
            played = client.post("/api/play", json={"game": game, "position": board["position"],
                                                    "moves": [move]}).json()  # fmt: skip
            board = played["board"]
        else:  # the engine
            legal = [entry[0] for entry in board["moves"]]
            answer = client.post("/api/engine-move", json={
                "game": game, "position": board["position"], "iterations": 20})  # fmt: skip
            data = answer.json()
            assert answer.status_code == 200, data
            assert data["move"] in legal and data["side"] == board["to_move"]
            move, board = data["move"], data["board"]
        moves.append(move)
    record = _record(start.json()["position"], moves, f"{game} against the engine")
    assert parse_record(models.get(game), record).positions[-1].fen() == board["position"]
    answer = client.post("/api/review", json={"game": game, "record": record, "iterations": 20})
    review = answer.json()
    assert answer.status_code == 200, review
    assert review["complete"] and [r["move"] for r in review["plies"]] == moves
    assert [r["player"] for r in review["plies"]][:2] == sides[:2]


@pytest.mark.parametrize(
    ("changes", "start"),
    [
        ({"seconds": 0}, "invalid field seconds: expected a number > 0 and <= 30, got 0"),
        ({"seconds": 31}, "invalid field seconds: expected a number > 0 and <= 30, got 31"),
        ({"seconds": "1"}, "invalid field seconds: expected a number"),
        ({"seconds": True}, "invalid field seconds: expected a number"),
        ({"iterations": 0}, "invalid field iterations: expected a whole number from 1 to "
                            "1000000, got 0"),  # fmt: skip
        ({"iterations": 2.5}, "invalid field iterations: expected a whole number"),
        ({"iterations": True}, "invalid field iterations: expected a whole number"),
        ({"iterations": 10**7}, "invalid field iterations: expected a whole number"),
        ({"iterations": 5, "seconds": 1}, "invalid field iterations: not together with "
                                          "seconds (give one), got 5"),  # fmt: skip
        ({"seed": -1}, "invalid option --seed: expected a whole number >= 0, got -1"),
        ({"position": "3/3/b3 b -"}, "invalid position"),
        ({"position": "ww1/3/3 b -"}, "impossible position: "),
        ({"position": "b2/bw1/bw1 w -"}, "invalid field position: the game is over: "
                                         "'b2/bw1/bw1 w -'"),  # fmt: skip
        ({"game": "chess"}, "unknown game: expected one of"),
        ({"position": 7}, "invalid field position: expected a string, got 7"),
        ({"win": "diagonal"}, "invalid option win: expected one of"),
        ({"size": 5}, ""),  # a field the API does not know is ignored (as everywhere)
    ],
)
def test_engine_move_bad_input_is_400(client: TestClient, changes: dict[str, Any],
                                      start: str) -> None:  # fmt: skip
    budget = {} if "seconds" in changes else {"iterations": 10}
    body = {"game": "minefield", "position": "3/3/3 b -", **budget, **changes}
    answer = client.post("/api/engine-move", json=body)
    if not start:
        assert answer.status_code == 200
        return
    assert answer.status_code == 400, answer.json()
    assert _one_line(answer).startswith("error: " + start), answer.json()


@pytest.mark.parametrize(
    ("changes", "start"),
    [
        ({"record": ""}, "invalid record: no start position (the record is empty)"),
        ({"record": "3/3/3 b -\nb2 b2\n"}, "invalid record: line 2, ply 2: illegal move b2: "
                                           "the point is occupied: 'b2'"),  # fmt: skip
        ({"record": "3/3/q3 b -\n"}, "invalid record: line 1: invalid position"),
        ({"record": '{"game": "candy", "start": "3/3/3 b -"}'},
         "invalid record: game: the record is of candy, not minefield"),
        ({"record": "ww1/3/3 b -\n"}, "impossible position (record: the start): "),
        ({"record": ["3/3/3 b -"]}, "invalid field record: expected a string, got ['3/3/3 b -']"),
        ({"record": "3/3/3 b -\n" + "# x\n" * 9000}, "invalid field record: longer than 32768"),
        ({"iterations": 5, "seconds": 1}, "invalid field iterations: not together with"),
        ({"seconds": -1}, "invalid field seconds: expected a number > 0"),
        ({"iterations": 0}, "invalid field iterations: expected a whole number"),
        ({"seed": "x"}, "invalid option --seed"),
        ({"game": "candy"}, "invalid record: line 1: invalid players: expected 2, 3 or 4"),
    ],
)
def test_review_bad_input_is_400(client: TestClient, changes: dict[str, Any],
                                 start: str) -> None:  # fmt: skip
    budget = {} if "seconds" in changes else {"iterations": 10}
    body = {"game": "minefield", "record": "3/3/3 b -\nb2\n", **budget, **changes}
    answer = client.post("/api/review", json=body)
    assert answer.status_code == 400, answer.json()
    assert _one_line(answer).startswith("error: " + start), answer.json()


def test_review_mirrors_review_json(client: TestClient, cli_run, tmp_path: Path) -> None:
    record = "# a Minefield game\n4/4/4/4 b -\na2 a1  # the opening\nc2\n"
    answer = client.post("/api/review", json={"game": "minefield", "record": record,
                                              "iterations": 50})  # fmt: skip
    data = answer.json()
    assert answer.status_code == 200, data
    path = tmp_path / "game.txt"
    path.write_text(record)
    status, out, _ = cli_run("review", "minefield", str(path), "--iterations-per-move", "50",
                             "--json", "--quiet")  # fmt: skip
    assert status == 0
    expected = json.loads(out)
    assert data.pop("complete") is True
    for key in ("game", "start", "losing_move"):
        assert data[key] == expected[key], key
    assert data["losing_move"] == 3  # c2 throws the win away (the judge's own doctest)
    keep = ("ply", "where", "player", "move", "position", "mark")
    assert [{k: r[k] for k in keep} for r in data["plies"]] == [
        {k: r[k] for k in keep} for r in expected["plies"]]  # fmt: skip


def test_a_review_stops_at_the_time_limit() -> None:
    record = _record("6/6/6/6/6/6 b -", ["a1", "b2", "c3", "d4", "e5", "f6", "a2", "b3"])
    data = api.review_request({"game": "minefield", "record": record, "seconds": 0.5},
                              max_seconds=1.0)  # fmt: skip
    assert data["complete"] is False and len(data["plies"]) < 8


def test_a_whole_5x5_game_against_the_engine(client: TestClient, cli_run, tmp_path: Path) -> None:
    """You (Black, the first legal move each turn) against the engine (White, 30 iterations
    a move) from the empty 5x5 board with the pie rule; then the review and the record."""
    start = "5/5/5/5/5 b p"
    board = client.post("/api/position", json={"game": "minefield", "position": start}).json()
    you, moves, by = "b", [], []
    while board["result"] == "ongoing":
        assert len(moves) < 60
        if board["to_move"] == you:
            move = board["moves"][0][0]
            board = client.post("/api/play", json={"game": "minefield",
                                                   "position": board["position"],
                                                   "moves": [move]}).json()["board"]  # fmt: skip
            by.append("you")
        else:
            answer = client.post("/api/engine-move", json={
                "game": "minefield", "position": board["position"], "iterations": 30})  # fmt: skip
            assert answer.status_code == 200, answer.json()
            move, board = answer.json()["move"], answer.json()["board"]
            by.append("engine")
        moves.append(move)
        if move == "swap":  # the players exchange colours: you play the other one
            you = "w" if you == "b" else "b"
    assert board["result"] == "win"
    over = client.post("/api/engine-move", json={"game": "minefield",
                                                 "position": board["position"]})  # fmt: skip
    assert over.status_code == 400 and "the game is over" in _one_line(over)
    record = _record(start, moves, "minefield: you (b) against the engine")
    answer = client.post("/api/review", json={"game": "minefield", "record": record,
                                              "iterations": 30})  # fmt: skip
    review = answer.json()
    assert answer.status_code == 200, review
    assert review["complete"] and [r["move"] for r in review["plies"]] == moves
    assert review["plies"][-1]["after"]["proved"] == "win"  # the last move won
    # the record is what `boardproof review` reads
    path = tmp_path / "game.txt"
    path.write_text(record)
    status, out, err = cli_run("review", "minefield", str(path), "--iterations-per-move", "30",
                               "--json", "--quiet")  # fmt: skip
    assert status == 0, err
    assert [r["move"] for r in json.loads(out)["plies"]] == moves


def test_the_description_and_the_page_know_the_new_endpoints(client: TestClient) -> None:
    spec = client.get("/api/openapi.json").json()
    schemas = spec["components"]["schemas"]
    assert {"/api/engine-move", "/api/review"} <= set(spec["paths"])
    assert {"seconds", "iterations", "seed"} <= set(schemas["EngineMove"]["properties"])
    assert schemas["Review"]["properties"]["record"]["maxLength"] == api.MAX_RECORD
    assert "429" in spec["paths"]["/api/engine-move"]["post"]["responses"]
    page = client.get("/").text
    for name in ("engine-side", "engine-strength", "engine-start", "resign", "review",
                 "download", "review-table"):
        assert f'id="{name}"' in page, name
    script = client.get("/static/board.js").text
    assert "/api/engine-move" in script and "/api/review" in script
