"""The analysis board's HTTP API: the CLI's JSON and one-line errors, bounded searches."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import warnings

import pytest

from boardproof.web import api

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

    from boardproof.web.app import Busy, create_app


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), base_url="http://127.0.0.1:8000")


def test_page_and_assets(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and 'id="board"' in page.text
    assert "/api/solve" in client.get("/static/board.js").text
    assert ".hit" in client.get("/static/style.css").text
    assert [g["name"] for g in client.get("/api/games").json()["games"]] == [
        "minefield", "carpniches", "candy", "collexion"]  # fmt: skip


@pytest.mark.parametrize(
    ("body", "args"),
    [
        ({"game": "minefield", "position": "5/5/b5/5/5 b"}, ("show", "minefield", "5/5/b5/5/5 b")),
        ({"game": "go", "position": "x"}, ("show", "go", "x")),
        ({"game": "carpniches", "position": "zz"}, ("show", "carpniches", "zz")),
    ],
)
def test_bad_positions_are_400_with_the_cli_line(client, cli_run, body, args) -> None:
    answer = client.post("/api/position", json=body)
    status, _, err = cli_run(*args)
    assert answer.status_code == 400 and status == 2
    assert answer.json() == {"error": err.strip()}


def test_play_mirrors_play_json(client, cli_run) -> None:
    body = {"game": "minefield", "position": "4/4/4/4 b p", "moves": ["a1", "swap", "b2"]}
    answer = client.post("/api/play", json=body).json()
    _, out, _ = cli_run("play", "minefield", "4/4/4/4 b p", "a1", "swap", "b2", "--json")
    board = answer.pop("board")
    assert answer == json.loads(out)
    assert board["position"] == answer["position"] and board["moves"][0] == ["b1", ["b1"]]
    bad = client.post("/api/play", json={**body, "moves": ["a1", "a1"]})
    status, _, err = cli_run("play", "minefield", "4/4/4/4 b p", "a1", "a1")
    assert bad.status_code == 400 and bad.json() == {"error": err.strip()}


def test_solve_mirrors_solve_json(client, cli_run) -> None:
    position = "wb3/1b1w1/5/1b1w1/1b1w1 b -"
    answer = client.post(
        "/api/solve", json={"game": "minefield", "position": position, "timeout": 10}
    ).json()
    _, out, _ = cli_run("solve", "minefield", position, "--json")
    expected = json.loads(out)
    for key in ("game", "position", "result", "winner", "best_move", "plies", "pv", "method"):
        assert answer[key] == expected[key], key


@pytest.mark.parametrize("timeout", [0, -1, 31, "5", True, None])
def test_solve_time_limit_is_checked(client, timeout) -> None:
    answer = client.post(
        "/api/solve", json={"game": "minefield", "position": "3/3/3 b -", "timeout": timeout}
    )
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("error: invalid option --timeout: expected a number")


def test_analyse_mirrors_analyse_json(client, cli_run) -> None:
    position = "wb3/1b1w1/5/1b1w1/1b1w1 b -"  # b wins: the exact first step proves it
    answer = client.post(
        "/api/analyse",
        json={"game": "minefield", "position": position, "timeout": 2, "multipv": 3},
    )
    assert answer.status_code == 200
    data = answer.json()
    _, out, _ = cli_run("analyse", "minefield", position, "--json", "--time", "2",
                        "--multipv", "3", "--quiet")  # fmt: skip
    expected = json.loads(out)
    assert set(data) == set(expected)
    for key in ("game", "position", "to_move", "result", "winner", "best_move"):
        assert data[key] == expected[key], key
    assert data["result"] == "win" and data["pv"][0] == data["best_move"]
    assert 1 <= len(data["moves"]) <= 3 and data["seconds"] <= 2 + 5


def test_analyse_estimates_an_open_position(client) -> None:
    body = {"game": "carpniches", "position": "(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1",
            "timeout": 1, "multipv": 2, "seed": 3}  # fmt: skip
    answer = client.post("/api/analyse", json=body)
    data = answer.json()
    assert answer.status_code == 200, data
    assert data["result"] == "unknown" and data["iterations"] > 0, data
    assert 1 <= len(data["moves"]) <= 2 and data["best_move"] == data["moves"][0]["move"]
    assert all(0 <= m["value"] <= 1 and m["visits"] > 0 for m in data["moves"])


@pytest.mark.parametrize(
    ("changes", "start"),
    [
        ({"multipv": 0}, "invalid option --multipv: expected a whole number from 1 to 20"),
        ({"multipv": 21}, "invalid option --multipv"),
        ({"multipv": "3"}, "invalid option --multipv"),
        ({"seed": -1}, "invalid option --seed: expected a whole number >= 0, got -1"),
        ({"seed": True}, "invalid option --seed"),
        ({"timeout": 0}, "invalid option --timeout: expected a number"),
        ({"position": "3/3/b3 b -"}, "invalid position"),
    ],
)
def test_analyse_bad_input_is_400(client, changes, start) -> None:
    body = {"game": "minefield", "position": "3/3/3 b -", "timeout": 1, **changes}
    answer = client.post("/api/analyse", json=body)
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("error: " + start), answer.json()
    assert "\n" not in answer.json()["error"]


def test_bad_bodies(client) -> None:
    for raw in (b"{", b"[1]", b'"x"'):
        answer = client.post("/api/position", content=raw)
        assert answer.status_code == 400 and answer.json()["error"].startswith("error: invalid")
    huge = client.post("/api/position", content=b" " * (70 * 1024))
    assert huge.status_code == 413 and "larger than" in huge.json()["error"]


def test_one_search_at_a_time_per_client(client) -> None:
    busy = Busy(limit=2, waiting=0)
    assert busy.enter("a") is None and busy.enter("a") == "client" and busy.enter("b") is None
    assert busy.enter("c") == "server"  # the server's cap: two at once, none waiting
    busy.leave("a")
    assert busy.enter("a") is None
    # over HTTP: a long search, then a second one from the same client is refused
    body = {"game": "minefield", "position": "7/7/7/7/7/7/7 b -", "timeout": 2}
    results: list[int] = []
    first = threading.Thread(
        target=lambda: results.append(client.post("/api/solve", json=body).status_code)
    )
    first.start()
    time.sleep(0.7)
    second = client.post("/api/solve", json=body)
    third = client.post("/api/analyse", json=body)  # a solve and an analysis count alike
    first.join()
    assert second.status_code == 429 and "one at a time" in second.json()["error"]
    assert third.status_code == 429
    assert results == [200]


def test_memory_limit_stops_a_search() -> None:
    # in a fresh process (memory freed by earlier searches would be reused, not allocated)
    code = (
        "from boardproof.web import api\n"
        "request = {'game': 'minefield', 'position': '6/6/6/6/6/6 b -', 'timeout': 3}\n"
        "try:\n"
        "    api.solve_request(request, memory=20 * 1024 * 1024)\n"
        "except api.SearchFailed as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "the search ran out of its memory limit"
    assert api.MEMORY_BYTES >= 1024**3


def test_serve_refuses_a_busy_port_and_a_bad_one(cli_run) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, _, err = cli_run("serve", "--port", str(port))
    assert status == 2
    assert err.startswith(f"error: invalid option --port: cannot listen on 127.0.0.1:{port}")
    status, _, err = cli_run("serve", "--port", "70000")
    assert status == 2
    assert err.strip() == "error: invalid option --port: expected 0 to 65535, got 70000"


def test_serve_stops_on_ctrl_c_with_130() -> None:
    import signal
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-c", "from boardproof.cli import main; main()", "serve", "--port",
         str(port)],
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    server.send_signal(signal.SIGINT)
    _, err = server.communicate(timeout=20)
    assert server.returncode == 130 and err.strip().endswith("interrupted"), err
