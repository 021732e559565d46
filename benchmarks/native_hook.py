"""Native Minefield 5x5 alpha-beta, 8 M nodes: seconds with and without the progress hook
(:mod:`boardproof.solvers.native.hook`), best of 3 runs each, interleaved."""

from __future__ import annotations

import time

from boardproof.models import get
from boardproof.models.minefield import native
from boardproof.solvers.native.hook import live_nodes

NODES = 8_000_000


def main() -> None:
    pos = get("minefield").parse_position("5/5/5/5/5 b -")
    calls: list[int] = []
    times: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(3):
        for hooked in (False, True):
            native.reset()
            start = time.perf_counter()
            if hooked:
                with live_nodes(lambda nodes, depth: calls.append(nodes)):
                    found = native.solve(pos, node_limit=NODES)
            else:
                found = native.solve(pos, node_limit=NODES)
            times[hooked].append(time.perf_counter() - start)
            assert found.nodes == NODES
    print(f"without hook: best {min(times[False]):.3f} s; with hook: best "
          f"{min(times[True]):.3f} s; hook calls per run: {len(calls) // 3}")  # fmt: skip


if __name__ == "__main__":
    main()
