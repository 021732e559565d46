"""The puzzle site and the analysis board (record in RESULTS.md).

Usage: ``.venv/bin/python benchmarks/web.py [--days N] [--game GAME ...] [--requests R]``

- ``site``: the wall and CPU time of ``build_site(out, N, 2026-11-29, games)`` (as
  ``boardproof site --out DIR --days N --date 2026-11-29``), and the bytes written;
- ``serve``: starts ``boardproof serve`` on a free localhost port and times ``R``
  ``POST /api/solve`` requests, then ``R`` ``POST /api/analyse`` requests, for the empty
  4x4 Minefield board without the pie rule (``4/4/4/4 b -``, timeout 10 s) over real
  HTTP: median and max latency of each (the analysis stops once its exact step proves
  the position), and one analysis of the Carpniches start with a 1 s thinking time;
- ``--load``: instead, the bounded load test of ``benchmarks/web_load.py`` (requests per
  second of ``position`` and ``play``, p50/p99 of a 5x5 solve with 8 clients at once, the
  5xx count, the server's memory over 10,000 requests); the arguments after ``--load``
  are its own (``--requests``, ``--clients``, ``--solves``, ``--json``).
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

from boardproof.commands.site import build_site, puzzle_games


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


def _post(port: int, endpoint: str, body: dict[str, object]) -> dict[str, object]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/{endpoint}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        data: dict[str, object] = json.loads(answer.read())
    return data


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
        empty = {"game": "minefield", "position": "4/4/4/4 b -", "timeout": 10}
        for endpoint in ("solve", "analyse"):
            times = []
            for _ in range(requests):
                start = time.perf_counter()
                data = _post(port, endpoint, empty)
                times.append(time.perf_counter() - start)
                assert data["result"] in ("win", "loss"), data
            work = f"search {data['seconds']} s" + (
                f", {data['iterations']} iterations" if endpoint == "analyse" else ""
            )
            print(
                f"serve: POST /api/{endpoint} 4x4 Minefield ({data['result']}, {data['method']}, "
                f"{work}): median {statistics.median(times) * 1000:.0f} ms, "
                f"max {max(times) * 1000:.0f} ms over {requests} requests",
                flush=True,
            )
        start = time.perf_counter()
        body = {"game": "carpniches", "position": "(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1",
                "timeout": 1}  # fmt: skip
        data = _post(port, "analyse", body)
        print(
            f"serve: POST /api/analyse Carpniches start, 1 s ({data['result']}, "
            f"{data['iterations']} iterations, best {data['best_move']}): "
            f"{(time.perf_counter() - start) * 1000:.0f} ms",
            flush=True,
        )
    finally:
        server.terminate()
        server.wait(10)


def main() -> None:
    if "--load" in sys.argv:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import web_load

        rest = sys.argv[sys.argv.index("--load") + 1:]
        sys.exit(web_load.main(rest))
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
