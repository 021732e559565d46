"""The puzzle site and the analysis board (record in RESULTS.md).

Usage: ``.venv/bin/python benchmarks/web.py [--days N] [--game GAME ...] [--requests R]``

- ``site``: the wall and CPU time of ``build_site(out, N, 2026-11-29, games)`` (as
  ``boardproof site --out DIR --days N --date 2026-11-29``), and the bytes written;
- ``serve``: starts ``boardproof serve`` on a free localhost port and times ``R``
  ``POST /api/solve`` requests for the empty 4x4 Minefield board without the pie rule
  (``4/4/4/4 b -``, timeout 10 s) over real HTTP: median and max latency.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from boardproof.reports.site import build_site, puzzle_games


def bench_site(days: int, games: list[str]) -> None:
    with tempfile.TemporaryDirectory() as out:
        wall, cpu = time.perf_counter(), time.process_time()
        written = build_site(out, days, dt.date(2026, 11, 29), games)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        size = sum((Path(out) / p).stat().st_size for p in written)
    print(
        f"site --days {days} --game {' '.join(games)}: {wall:.1f} s wall, {cpu:.1f} s CPU, "
        f"{len(written)} files, {size / 1e6:.1f} MB",
        flush=True,
    )


def bench_serve(requests: int) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code = "from boardproof.cli import main; main()"
    server = subprocess.Popen([sys.executable, "-c", code, "serve", "--port", str(port)])
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        body = json.dumps({"game": "minefield", "position": "4/4/4/4 b -", "timeout": 10})
        times = []
        for _ in range(requests):
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/solve",
                data=body.encode(),
                headers={"Content-Type": "application/json"},
            )
            start = time.perf_counter()
            with urllib.request.urlopen(request, timeout=60) as answer:
                data = json.loads(answer.read())
            times.append(time.perf_counter() - start)
            assert data["result"] in ("win", "loss"), data
        print(
            f"serve: POST /api/solve 4x4 Minefield ({data['result']}, {data['method']}, "
            f"search {data['seconds']} s): median {statistics.median(times) * 1000:.0f} ms, "
            f"max {max(times) * 1000:.0f} ms over {requests} requests",
            flush=True,
        )
    finally:
        server.terminate()
        server.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--game", action="append", default=None)
    parser.add_argument("--requests", type=int, default=10)
    parser.add_argument("--skip-site", action="store_true")
    args = parser.parse_args()
    print(f"# {platform.python_version()} {platform.machine()} {dt.date.today()}", flush=True)
    if not args.skip_site:
        bench_site(args.days, args.game or puzzle_games())
    bench_serve(args.requests)


if __name__ == "__main__":
    main()
