"""Carpniches benchmarks: perft leaves/s, proof-search nodes/s, the CP-SAT bound's pruning,
the native (C) search against the Python one.

Run: ``.venv/bin/python benchmarks/carpniches.py [--quick] [--native-only]``. Prints one line
per figure.
"""

from __future__ import annotations

import argparse
import time

from boardproof.models.carpniches import START_POSITION, parse_position
from boardproof.models.carpniches.proofs.cp import prune
from boardproof.solvers.search import AlphaBeta

MIDGAME = "1cp2(pc)/6/p4p/c1(pc)3/5c/(pc)5 p -"


def after(*moves: str):  # type: ignore[no-untyped-def]
    pos = START_POSITION
    for m in moves:
        pos = pos.play(pos.parse_move(m))
    return pos


def bench_perft(quick: bool) -> None:
    cases = [("start", START_POSITION, 5 if quick else 6), ("midgame", parse_position(MIDGAME), 4)]
    for name, pos, depth in cases:
        began = time.perf_counter()
        leaves = pos.perft(depth)
        seconds = time.perf_counter() - began
        print(
            f"perft {name} depth {depth}: {leaves} leaves in {seconds:.2f} s "
            f"= {leaves / seconds:,.0f} leaves/s"
        )


def bench_search(quick: bool) -> None:
    pos = after("a6-b5")
    depth = 6 if quick else 8
    search = AlphaBeta(pos)
    began = time.perf_counter()
    result = search.iterate(depth)
    seconds = time.perf_counter() - began
    print(
        f"alpha-beta after a6-b5, {depth} plies: {result.note or result.value}; "
        f"{search.nodes} nodes in {seconds:.1f} s = {search.nodes / seconds:,.0f} nodes/s"
    )


def bench_pruning(quick: bool) -> None:
    positions = [
        ("a6-b5 a1-b2 f1-c4 f6-c6", after("a6-b5", "a1-b2", "f1-c4", "f6-c6")),
        ("midgame", parse_position(MIDGAME)),
    ]
    depth = 4 if quick else 5
    for name, pos in positions:
        plain = AlphaBeta(pos)
        began = time.perf_counter()
        value = plain.iterate(depth).value
        plain_seconds = time.perf_counter() - began
        pruned = AlphaBeta(pos, prune=prune, prune_depths=(3,))
        began = time.perf_counter()
        pruned_value = pruned.iterate(depth).value
        pruned_seconds = time.perf_counter() - began
        assert value == pruned_value, (value, pruned_value)
        cut = 100 * (plain.nodes - pruned.nodes) / plain.nodes
        print(
            f"pruning {name}, {depth} plies ({value}): without {plain.nodes} nodes "
            f"{plain_seconds:.1f} s; with the CP-SAT bound at 3 plies left {pruned.nodes} nodes "
            f"({cut:.1f}% fewer, {pruned.pruned} cuts, {pruned.prune_calls} bound queries) "
            f"{pruned_seconds:.1f} s"
        )


def bench_native(quick: bool) -> None:
    """The same search (same position, same depth) in Python and in C, in one run; then the
    C search alone deeper, and the C perft."""
    from boardproof.models.carpniches import native

    if not native.available():
        print("native search: the C module was not built")
        return
    positions = [("after a6-b5", after("a6-b5")), ("midgame", parse_position(MIDGAME))]
    depth = 6 if quick else 8
    for name, pos in positions:
        native.NativeAlphaBeta(pos)  # allocate the table once, outside the timing
        figures = []
        for label, make in (("python", lambda p: AlphaBeta(p)), ("native", native.NativeAlphaBeta)):
            began = time.perf_counter()
            search = make(pos)
            result = search.iterate(depth)
            seconds = time.perf_counter() - began
            figures.append((label, result, search.nodes, seconds))
        (_, py, py_nodes, py_s), (_, c, c_nodes, c_s) = figures
        assert (py.value, py.plies, py.depth) == (c.value, c.plies, c.depth), (py, c)
        ratio = (c_nodes / c_s) / (py_nodes / py_s)
        print(
            f"{name}, {depth} plies ({c.note or c.value}): python {py_nodes} nodes in "
            f"{py_s:.2f} s = {py_nodes / py_s:,.0f} nodes/s; native {c_nodes} nodes in "
            f"{c_s:.3f} s = {c_nodes / c_s:,.0f} nodes/s; ratio {ratio:,.0f}x"
        )
    deep = 10 if quick else 13
    pos = after("a6-b5")
    began = time.perf_counter()
    search = native.NativeAlphaBeta(pos)
    result = search.iterate(deep)
    seconds = time.perf_counter() - began
    print(
        f"native after a6-b5, {deep} plies ({result.note or result.value}): {search.nodes} "
        f"nodes in {seconds:.1f} s = {search.nodes / seconds:,.0f} nodes/s"
    )
    began = time.perf_counter()
    leaves = native.perft(START_POSITION, 7)
    seconds = time.perf_counter() - began
    print(f"native perft start depth 7: {leaves} leaves in {seconds:.2f} s "
          f"= {leaves / seconds:,.0f} leaves/s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller depths")
    parser.add_argument("--native-only", action="store_true", help="only the native figures")
    args = parser.parse_args()
    bench_native(args.quick)
    if args.native_only:
        return
    bench_perft(args.quick)
    bench_search(args.quick)
    bench_pruning(args.quick)


if __name__ == "__main__":
    main()
