"""A bounded load test of ``boardproof serve`` on loopback.

Starts the server on a free port of 127.0.0.1 and measures, with clients in threads:

- requests per second of ``/api/position`` and ``/api/play`` (``--clients`` at once);
- the p50 and p99 latency of a 5x5 Minefield solve with 8 clients at once, each from its
  own loopback address (127.0.0.2 …: the server admits one search per address), each
  solving ``--solves`` seeded 5x5 positions in turn;
- the count of 5xx answers over the whole run (it must be 0);
- the server's resident memory every 1,000 of ``--requests`` position/play requests
  (it must stay flat).

Every loop is bounded in requests and time and the server is stopped at the end; only
loopback addresses are used. ``.venv/bin/python benchmarks/web.py --load`` (or this
script) prints the figures (``--json`` as one object).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from boardproof import models

BOARDPROOF = Path(sys.executable).parent / "boardproof"
#: no request may take longer than this (seconds): the test stops rather than hang
REQUEST_SECONDS = 120.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen([str(BOARDPROOF), "serve", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start within 30 s")


def rss_kib(pid: int) -> int:
    """The resident memory of process ``pid`` (KiB, from /proc)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def positions_5x5(count: int, seed: int) -> list[str]:
    """``count`` unfinished 5x5 positions after 6 to 9 seeded random plies (no pie)."""
    rng = random.Random(seed)
    game = models.get("minefield")
    found: list[str] = []
    while len(found) < count:
        pos = game.start(size=5, pie=False)
        for _ in range(rng.randint(6, 9)):
            moves = pos.legal_moves()
            if not moves or pos.outcome() is not None:
                break
            pos = pos.play(rng.choice(list(moves)))
        if pos.outcome() is None:
            found.append(pos.fen())
    return found


def throughput(base: str, path: str, body: dict[str, Any], total: int, clients: int,
               statuses: Counter[int]) -> float:  # fmt: skip
    """Requests per second of ``total`` POSTs of ``body`` to ``path`` by ``clients``."""
    lock = threading.Lock()
    per_client = total // clients

    def work() -> None:
        with httpx.Client(base_url=base, timeout=REQUEST_SECONDS) as client:
            for _ in range(per_client):
                code = client.post(path, json=body).status_code
                with lock:
                    statuses[code] += 1

    began = time.perf_counter()
    _run_threads([work] * clients)
    return per_client * clients / (time.perf_counter() - began)


def _run_threads(jobs: list[Callable[[], None]]) -> None:
    threads = [threading.Thread(target=job) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(REQUEST_SECONDS * 10)


def solve_latencies(port: int, fens: list[str], clients: int, solves: int,
                    statuses: Counter[int]) -> list[float]:  # fmt: skip
    """Seconds of each solve: ``clients`` clients at once, each from its own address."""
    lock = threading.Lock()
    seconds: list[float] = []

    def work(index: int) -> Callable[[], None]:
        def run() -> None:
            transport = httpx.HTTPTransport(local_address=f"127.0.0.{2 + index}")
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", transport=transport,
                              timeout=REQUEST_SECONDS) as client:  # fmt: skip
                for k in range(solves):
                    fen = fens[(index * solves + k) % len(fens)]
                    began = time.perf_counter()
                    code = client.post("/api/solve", json={"game": "minefield",
                                                           "position": fen,
                                                           "timeout": 20}).status_code
                    took = time.perf_counter() - began
                    with lock:
                        statuses[code] += 1
                        seconds.append(took)

        return run

    _run_threads([work(i) for i in range(clients)])
    return seconds


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run_load(requests: int = 10_000, clients: int = 4, solves: int = 5) -> dict[str, Any]:
    """The figures of one load test (see the module doc)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    statuses: Counter[int] = Counter()
    server = start_server(port)
    try:
        position = {"game": "minefield", "position": "1b2/2w1/1bb1/w3 w -"}
        play = {"game": "minefield", "position": "5/5/5/5/5 b p", "moves": ["c3", "b2"]}
        rates = {
            "position": throughput(base, "/api/position", position, 1000, clients, statuses),
            "play": throughput(base, "/api/play", play, 1000, clients, statuses),
        }
        latencies = solve_latencies(port, positions_5x5(40, seed=5), 8, solves, statuses)
        memory = [rss_kib(server.pid)]
        with httpx.Client(base_url=base, timeout=REQUEST_SECONDS) as client:
            for done in range(1, requests + 1):
                body, path = (position, "/api/position") if done % 2 else (play, "/api/play")
                statuses[client.post(path, json=body).status_code] += 1
                if done % 1000 == 0:
                    memory.append(rss_kib(server.pid))
    finally:
        server.terminate()
        server.wait(30)
    return {
        "requests_per_second": {name: round(rate, 1) for name, rate in rates.items()},
        "solve_5x5_8_clients": {
            "solves": len(latencies),
            "p50_seconds": round(percentile(latencies, 0.50), 3),
            "p99_seconds": round(percentile(latencies, 0.99), 3),
            "mean_seconds": round(statistics.fmean(latencies), 3),
        },
        "server_errors_5xx": sum(n for code, n in statuses.items() if code >= 500),
        "statuses": {str(code): n for code, n in sorted(statuses.items())},
        "rss_kib_every_1000": memory,
        "rss_growth_kib": memory[-1] - memory[1] if len(memory) > 2 else 0,
        "machine": f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} at the end",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=10_000,
                        help="position/play requests of the memory run [10000]")
    parser.add_argument("--clients", type=int, default=4,
                        help="clients of the throughput runs [4]")
    parser.add_argument("--solves", type=int, default=5,
                        help="5x5 solves per client of the latency run [5]")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    figures = run_load(args.requests, args.clients, args.solves)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 1 if figures["server_errors_5xx"] else 0


if __name__ == "__main__":
    sys.exit(main())
