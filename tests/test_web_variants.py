"""The analysis board's API under Minefield's game options (``variant``: standard, pinwheel,
cartwheel; ``win``): every endpoint takes them, the answers are the CLI's with
``--variant``, a bad value is a 400 with one line naming the field, and the page offers
the choice (one select per game option, read from the option specs).

The positions are the pinned ones of tests/test_minefield_variants.py: in ``CARTWHEEL``
White's b2 forms a cartwheel (beyond the board's corner): legal and winning in the
standard game, refused in the cartwheel, where White loses.
"""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

from boardproof import models
from boardproof.web import api
from boardproof.web.app import rules_choice
from boardproof.web.schema import openapi

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

    from boardproof.web.app import create_app

#: White's b2 forms a cartwheel with the stones beyond the corner c1-d2
CARTWHEEL = "4/2bb/4/1w2 w -"
CART = {"game": "minefield", "variant": "cartwheel"}


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), base_url="http://127.0.0.1:8000")


def _one_line(answer: Any) -> str:
    assert answer.status_code == 400, answer.json()
    text = answer.json()["error"]
    assert text.startswith("error: ") and "\n" not in text, text
    return str(text)


def _moves(board: dict[str, Any]) -> list[str]:
    return [entry[0] for entry in board["moves"]]


def test_the_page_and_the_games_offer_the_game_options(client: TestClient) -> None:
    games = {g["name"]: g["options"] for g in client.get("/api/games").json()["games"]}
    assert [(o["name"], o["label"], o["choices"], o["default"]) for o in games["minefield"]] == [
        ("win", "Win", ["orthogonal", "orthodiagonal"], "orthogonal"),
        ("variant", "Glyphs", ["standard", "pinwheel", "cartwheel"], "standard")]  # fmt: skip
    assert games["carpniches"] == games["candy"] == games["collexion"] == []
    page = client.get("/").text
    # a select per game option (the first game's shown), none for the games without one
    assert page.count('class="rule"') == 2 and rules_choice(list(games)) in page
    select = re.search(r'<select id="rule-minefield-variant"[^>]*>(.*?)</select>', page)
    assert select is not None
    assert re.findall(r'<option value="(\w+)"', select.group(1)) == [
        "standard", "pinwheel", "cartwheel"]  # fmt: skip
    assert '<label for="rule-minefield-variant">Glyphs: </label>' in page
    assert '<label for="rule-minefield-win">Win: </label>' in page


@pytest.mark.parametrize("variant", ["standard", "pinwheel", "cartwheel"])
def test_start_takes_the_variant(client: TestClient, variant: str) -> None:
    answer = client.post("/api/start", json={"game": "minefield", "variant": variant})
    assert answer.status_code == 200, answer.json()
    board = answer.json()
    assert board["options"] == ({} if variant == "standard" else {"variant": variant})
    assert board["position"] == models.get("minefield").start().fen()
    plain = client.post("/api/start", json={"game": "minefield"}).json()
    assert plain["options"] == {} and plain["position"] == board["position"]


def test_play_refuses_a_move_illegal_only_in_the_cartwheel(client: TestClient,
                                                           cli_run) -> None:  # fmt: skip
    shown = client.post("/api/position", json={**CART, "position": CARTWHEEL}).json()
    assert "b2" not in _moves(shown) and shown["options"] == {"variant": "cartwheel"}
    standard = client.post("/api/position", json={"game": "minefield", "position": CARTWHEEL,
                                                  "variant": "standard"}).json()  # fmt: skip
    assert "b2" in _moves(standard) and standard["options"] == {}
    refused = client.post("/api/play", json={**CART, "position": CARTWHEEL, "moves": ["b2"]})
    status, _, err = cli_run("play", "minefield", CARTWHEEL, "b2", "--variant", "cartwheel")
    assert status == 2 and err.strip() == "error: illegal move b2: it forms a cartwheel"
    assert _one_line(refused) == err.strip()
    # the standard game (named, or by default) plays it, as `play --json` does
    status, out, _ = cli_run("play", "minefield", CARTWHEEL, "b2", "--json")
    for body in ({"variant": "standard"}, {}):
        played = client.post("/api/play", json={"game": "minefield", "position": CARTWHEEL,
                                                "moves": ["b2"], **body})  # fmt: skip
        assert played.status_code == 200, played.json()
        data = played.json()
        board = data.pop("board")
        assert status == 0 and data == json.loads(out)
        assert board["options"] == {} and board["position"] == data["position"]
    # a legal move of the cartwheel: the position after it is still the cartwheel's
    moved = client.post("/api/play", json={**CART, "position": CARTWHEEL, "moves": ["c1"]})
    assert moved.json()["board"]["options"] == {"variant": "cartwheel"}


def test_solve_agrees_with_the_cli_in_the_cartwheel(client: TestClient, cli_run) -> None:
    answers = {}
    for variant in ("cartwheel", "standard"):
        answer = client.post("/api/solve", json={"game": "minefield", "position": CARTWHEEL,
                                                 "variant": variant, "timeout": 20})  # fmt: skip
        assert answer.status_code == 200, answer.json()
        status, out, _ = cli_run("solve", "minefield", CARTWHEEL, "--variant", variant, "--json")
        expected = json.loads(out)
        assert status == 0
        for key in ("game", "position", "result", "winner", "best_move", "plies", "pv"):
            assert answer.json()[key] == expected[key], (variant, key)
        answers[variant] = answer.json()
    # the rules decide it: White wins the standard game (by b2) and loses the cartwheel
    assert (answers["standard"]["result"], answers["standard"]["winner"]) == ("win", "w")
    assert answers["standard"]["best_move"] == "b2"
    assert (answers["cartwheel"]["result"], answers["cartwheel"]["winner"]) == ("loss", "b")


def test_analyse_and_the_engine_play_the_cartwheel(client: TestClient, cli_run) -> None:
    answer = client.post("/api/analyse", json={**CART, "position": CARTWHEEL, "timeout": 2})
    assert answer.status_code == 200, answer.json()
    _, out, _ = cli_run("analyse", "minefield", CARTWHEEL, "--variant", "cartwheel", "--json",
                        "--time", "2", "--quiet")  # fmt: skip
    expected = json.loads(out)
    for key in ("result", "winner"):
        assert answer.json()[key] == expected[key] == {"result": "loss", "winner": "b"}[key]
    assert "b2" not in [m["move"] for m in answer.json()["moves"]]
    moves = {}
    for variant in ("cartwheel", "standard"):
        engine = client.post("/api/engine-move", json={"game": "minefield", "variant": variant,
                                                       "position": CARTWHEEL,
                                                       "iterations": 200})  # fmt: skip
        assert engine.status_code == 200, engine.json()
        moves[variant] = engine.json()["move"]
        board = engine.json()["board"]
        assert board["options"] == ({"variant": variant} if variant != "standard" else {})
    assert moves["standard"] == "b2" and moves["cartwheel"] != "b2"  # b2 wins the standard


def test_review_plays_the_record_in_the_variant(client: TestClient) -> None:
    text = f"{CARTWHEEL}\nb2\n"
    refused = client.post("/api/review", json={**CART, "record": text, "iterations": 10})
    assert _one_line(refused) == ("error: invalid record: line 2, ply 1: illegal move b2: it "
                                  "forms a cartwheel: 'b2'")  # fmt: skip
    ok = client.post("/api/review", json={"game": "minefield", "record": text,
                                          "iterations": 10})  # fmt: skip
    assert ok.status_code == 200 and [p["move"] for p in ok.json()["plies"]] == ["b2"]
    # the JSON record the board downloads carries the variant: it needs no field
    record = json.dumps({"game": "minefield", "options": {"variant": "cartwheel"},
                         "start": CARTWHEEL, "moves": ["c1"]})  # fmt: skip
    for body in ({}, {"variant": "cartwheel"}):
        answer = client.post("/api/review", json={"game": "minefield", "record": record,
                                                  "iterations": 10, **body})  # fmt: skip
        assert answer.status_code == 200, answer.json()
    bad = json.dumps({"game": "minefield", "options": {"variant": "cartwheel"},
                      "start": CARTWHEEL, "moves": ["b2"]})  # fmt: skip
    answer = client.post("/api/review", json={"game": "minefield", "record": bad,
                                              "iterations": 10})  # fmt: skip
    assert "illegal move b2: it forms a cartwheel" in _one_line(answer)
    other = client.post("/api/review", json={"game": "minefield", "record": record,
                                             "variant": "pinwheel", "iterations": 10})
    assert _one_line(other) == ("error: invalid record: the record is played with variant "
                                "'cartwheel', got --variant 'pinwheel'")  # fmt: skip


def test_the_downloaded_record_is_what_boardproof_review_reads(tmp_path: Path,
                                                               cli_run) -> None:  # fmt: skip
    # the board's JSON form (board.js recordText) with the options of the game played
    path = tmp_path / "minefield-game.txt"
    path.write_text(json.dumps({"game": "minefield", "options": {"variant": "cartwheel"},
                                "start": CARTWHEEL, "moves": ["c1", "d2"]}) + "\n")
    status, out, err = cli_run("review", "minefield", str(path), "--iterations-per-move", "10",
                               "--json", "--quiet")  # fmt: skip
    assert status == 0, err
    assert [p["move"] for p in json.loads(out)["plies"]] == ["c1", "d2"]
    path.write_text(json.dumps({"game": "minefield", "options": {"variant": "cartwheel"},
                                "start": CARTWHEEL, "moves": ["b2"]}) + "\n")
    status, _, err = cli_run("review", "minefield", str(path), "--quiet")
    assert status == 2 and "illegal move b2: it forms a cartwheel" in err


URLS = ("/api/start", "/api/position", "/api/play", "/api/solve", "/api/analyse",
        "/api/engine-move", "/api/review")  # fmt: skip


@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize(
    ("changes", "line"),
    [
        ({"variant": "wheel"}, "error: invalid option variant: expected one of standard, "
                               "pinwheel, cartwheel, got 'wheel'"),  # fmt: skip
        ({"win": "diagonal"}, "error: invalid option win: expected one of orthogonal, "
                              "orthodiagonal, got 'diagonal'"),  # fmt: skip
        ({"variant": 3}, "error: invalid field variant: expected a string, got 3"),
        ({"variant": ["cartwheel"]}, "error: invalid field variant: expected a string, "
                                     "got ['cartwheel']"),  # fmt: skip
        ({"game": "carpniches", "variant": "cartwheel"},
         "error: invalid option --variant: only minefield has it, got 'cartwheel'"),
    ],
)
def test_a_bad_game_option_is_a_400_naming_the_field(client: TestClient, url: str,
                                                     changes: dict[str, Any],
                                                     line: str) -> None:  # fmt: skip
    body = {"game": "minefield", "position": CARTWHEEL, "moves": ["c1"], "timeout": 1,
            "iterations": 10, "record": f"{CARTWHEEL}\nc1\n", **changes}  # fmt: skip
    assert _one_line(client.post(url, json=body)) == line


def test_upper_case_is_the_choice_in_lower_case(client: TestClient) -> None:
    answer = client.post("/api/start", json={"game": "minefield", "variant": "Cartwheel"})
    assert answer.status_code == 200 and answer.json()["options"] == {"variant": "cartwheel"}


def test_the_description_takes_the_game_options() -> None:
    schemas = openapi()["components"]["schemas"]
    for name in ("Start", "Position", "Play", "Solve", "Analyse", "EngineMove", "Review"):
        fields = schemas[name]["properties"]
        assert fields["variant"]["enum"] == ["standard", "pinwheel", "cartwheel"], name
        assert fields["win"]["enum"] == ["orthogonal", "orthodiagonal"], name
    assert "options" in schemas["Board"]["required"]
    assert api.rule_choices(models.info("minefield"))[1]["name"] == "variant"
