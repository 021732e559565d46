"""The analysis board under hostile input: every malformed request is a 4xx with the
one-line error (never a 500 or a hang), foreign hosts and origins are refused, and the
searches are capped for the whole server."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import warnings
from typing import Any

import pytest

from boardproof.web import body
from boardproof.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

LOCAL = "http://127.0.0.1:8000"
POSTS = ("/api/solve", "/api/analyse", "/api/play", "/api/position", "/api/start")


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), base_url=LOCAL)


def _one_line_error(answer: Any) -> str:
    text = answer.json()["error"]
    assert text.startswith("error: ") and "\n" not in text
    return str(text)


@pytest.mark.parametrize("url", POSTS)
def test_a_deeply_nested_body_is_a_400(client: TestClient, url: str) -> None:
    answer = client.post(url, content=b"[" * 50_000, headers={"content-type": "application/json"})
    assert answer.status_code == 400
    assert "nested deeper than 32 levels" in _one_line_error(answer)


@pytest.mark.parametrize("url", POSTS)
@pytest.mark.parametrize("raw", [b"[1,2,3]", b"null", b'"x"', b"7", b"true"])
def test_json_that_is_not_an_object_is_a_400(client: TestClient, url: str, raw: bytes) -> None:
    answer = client.post(url, content=raw)
    assert answer.status_code == 400
    assert "expected a JSON object" in _one_line_error(answer)


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b'{"game": "minefield", "position": "3/3/3 b -", "timeout": NaN}', "not JSON"),
        (b'{"game": "minefield", "position": "3/3/3 b -", "timeout": Infinity}', "not JSON"),
        (b'{"timeout": ' + b"9" * 5000 + b"}", "not JSON"),
        (b'{"game": "minef\xffield"}', "not UTF-8"),
        (b'{"game": "minefield",', "not JSON"),
        (b'{"game": "minefield", "position": "3/3/3 b -", "timeout": 1e999}', "timeout"),
        (b'{"game": "minefield", "position": "3/3/3 b -", "timeout": -1}', "timeout"),
        (b'{"game": "minefield", "position": "3/3/3 b -", "multipv": 10000000000000}',
         "multipv"),
        (b'{"game": ["minefield"], "position": "3/3/3 b -"}', "game"),
        (b'{"game": "minefield", "position": {"a": 1}}', "position"),
    ],
)
def test_malformed_values_are_400s_naming_the_field(
    client: TestClient, raw: bytes, words: str
) -> None:
    answer = client.post("/api/analyse", content=raw)
    assert answer.status_code == 400, answer.text
    assert words in _one_line_error(answer)


def test_a_body_over_the_limit_is_a_413_before_it_is_read(client: TestClient) -> None:
    big = json.dumps({"game": "minefield", "position": "x" * (body.MAX_BODY + 10)})
    answer = client.post("/api/position", content=big)
    assert answer.status_code == 413 and "larger than" in _one_line_error(answer)


def test_a_body_that_does_not_arrive_is_a_408(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(body, "BODY_SECONDS", 0.2)
    app = create_app()
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        await asyncio.sleep(10)  # a client that never sends its body
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/position", "raw_path":
             b"/api/position", "query_string": b"", "root_path": "", "scheme": "http",
             "http_version": "1.1", "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000),
             "headers": [(b"host", b"127.0.0.1:8000")]}  # fmt: skip
    began = time.perf_counter()
    asyncio.run(app(scope, receive, send))
    assert time.perf_counter() - began < 5
    assert sent[0]["status"] == 408
    assert b"did not arrive" in sent[1]["body"]


@pytest.mark.parametrize("url", ["/", "/api/games", "/api/openapi.json", *POSTS])
def test_a_foreign_host_is_refused_before_any_work(url: str) -> None:
    evil = TestClient(create_app(), base_url="http://evil.example:8000")
    answer = evil.post(url, json={"game": "minefield", "position": "3/3/3 b -"}) if (
        url in POSTS) else evil.get(url)  # fmt: skip
    assert answer.status_code == 403
    assert "Host header names another site: 'evil.example:8000'" in _one_line_error(answer)


def test_a_cross_site_origin_is_refused_and_the_own_one_is_not(client: TestClient) -> None:
    request = {"game": "minefield", "position": "3/3/3 b -", "timeout": 1}
    foreign = client.post("/api/solve", json=request, headers={"Origin": "https://evil.example"})
    assert foreign.status_code == 403
    assert "another site: Origin 'https://evil.example'" in _one_line_error(foreign)
    for origin in ("null", "file://", "http://evil.example:8000"):
        refused = client.post("/api/position", json=request, headers={"Origin": origin})
        assert refused.status_code == 403, origin
    own = client.post("/api/position", json=request, headers={"Origin": LOCAL})
    assert own.status_code == 200
    also_own = client.post("/api/position", json=request,
                           headers={"Origin": "http://localhost:8000"})  # fmt: skip
    assert also_own.status_code == 200


def test_allow_origin_opens_the_server_on_purpose() -> None:
    app = create_app(allow_origins=("http://192.168.1.5:8000",))
    lan = TestClient(app, base_url="http://192.168.1.5:8000")
    request = {"game": "minefield", "position": "3/3/3 b -"}
    assert lan.post("/api/position", json=request,
                    headers={"Origin": "http://192.168.1.5:8000"}).status_code == 200
    assert lan.post("/api/position", json=request,
                    headers={"Origin": "https://evil.example"}).status_code == 403
    anyone = TestClient(create_app(allow_origins=("*",)), base_url="http://evil.example")
    assert anyone.post("/api/position", json=request,
                       headers={"Origin": "https://evil.example"}).status_code == 200


def _two_clients(app: Any) -> tuple[TestClient, TestClient]:
    return (TestClient(app, base_url=LOCAL, client=("10.0.0.1", 50000)),
            TestClient(app, base_url=LOCAL, client=("10.0.0.2", 50000)))  # fmt: skip


LONG_SEARCH = {"game": "minefield", "position": "7/7/7/7/7/7/7 b -", "timeout": 2}


def _while_one_runs(first: TestClient, then: Any) -> tuple[list[int], Any, float]:
    """Start a 2-second search from ``first``, call ``then()`` half a second later."""
    statuses: list[int] = []
    worker = threading.Thread(
        target=lambda: statuses.append(first.post("/api/solve", json=LONG_SEARCH).status_code)
    )
    worker.start()
    time.sleep(0.5)
    began = time.perf_counter()
    answer = then()
    waited = time.perf_counter() - began
    worker.join()
    return statuses, answer, waited


def test_a_search_beyond_the_servers_cap_waits_for_a_slot() -> None:
    first, second = _two_clients(create_app(max_searches=1, max_waiting=1))
    quick = {"game": "minefield", "position": "3/3/3 b -", "timeout": 2}
    statuses, answer, waited = _while_one_runs(first, lambda: second.post("/api/solve",
                                                                          json=quick))
    assert statuses == [200]
    assert answer.status_code == 200 and answer.json()["result"] == "win"
    assert waited > 1.0  # it waited for the first search's slot


def test_a_search_beyond_the_cap_and_the_queue_is_a_503_with_retry_after() -> None:
    first, second = _two_clients(create_app(max_searches=1, max_waiting=0))
    statuses, busy, _ = _while_one_runs(first, lambda: second.post(
        "/api/analyse", json={**LONG_SEARCH, "timeout": 1}))
    assert statuses == [200]
    assert busy.status_code == 503 and busy.headers["retry-after"] == "1"
    assert "the server is busy" in _one_line_error(busy)
    again = second.post("/api/solve", json={"game": "minefield", "position": "3/3/3 b -",
                                            "timeout": 2})  # fmt: skip
    assert again.status_code == 200 and again.json()["result"] == "win"


def test_the_openapi_description_is_served(client: TestClient) -> None:
    spec = client.get("/api/openapi.json").json()
    assert spec["openapi"].startswith("3.")
    assert set(spec["paths"]) >= {"/api/solve", "/api/analyse", "/api/play", "/api/position",
                                  "/api/start", "/api/games"}  # fmt: skip


def test_idle_and_slow_clients_do_not_block_the_others() -> None:
    """A real server: clients that open connections and send half a request (or nothing)
    hold nothing that the next client needs."""
    import socket
    import subprocess
    import sys
    from pathlib import Path

    import httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    boardproof = Path(sys.executable).parent / "boardproof"
    server = subprocess.Popen([str(boardproof), "serve", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    idle: list[socket.socket] = []
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                httpx.get(base + "/api/games", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        for k in range(20):
            conn = socket.create_connection(("127.0.0.1", port))
            if k % 2:  # half a request: the headers, and a body that never comes
                conn.sendall(b"POST /api/position HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             b"Content-Length: 100\r\n\r\n{")  # fmt: skip
            idle.append(conn)
        began = time.perf_counter()
        answer = httpx.post(base + "/api/position", timeout=10,
                            json={"game": "minefield", "position": "3/3/3 b -"})  # fmt: skip
        assert answer.status_code == 200
        assert time.perf_counter() - began < 3
    finally:
        for conn in idle:
            conn.close()
        server.terminate()
        server.wait(10)
