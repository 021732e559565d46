"""The progress hook of the native searches: called on a long search, never changes it."""

from __future__ import annotations

import pytest

from boardproof.models import get
from boardproof.models.carpniches import native as native_carpniches
from boardproof.models.minefield import native
from boardproof.solvers.native.hook import EVERY, live_nodes

pytestmark = pytest.mark.skipif(
    not (native.available() and native_carpniches.available()), reason="C extensions not built"
)

#: a 5x5 position the 64-bit search proves in about 1.5 M nodes (more than EVERY)
LONG_5X5 = "2w2/2b2/4b/5/3w1 b -"
CARP_START = "(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1"


Seen = list[tuple[int, int]]


def _minefield(hooked: bool, wide: bool = False) -> tuple[native.NativeResult, Seen]:
    native.reset()
    seen: list[tuple[int, int]] = []
    pos = get("minefield").parse_position(LONG_5X5)
    if hooked:
        with live_nodes(lambda nodes, depth: seen.append((nodes, depth))):
            found = native.solve(pos, wide=wide)
    else:
        found = native.solve(pos, wide=wide)
    return found, seen


@pytest.mark.parametrize("wide", [False, True])
def test_minefield_hook_is_called_and_changes_nothing(wide: bool) -> None:
    plain, none = _minefield(False, wide)
    hooked, seen = _minefield(True, wide)
    assert none == []
    assert plain.nodes > EVERY and (plain.value, plain.best_move) == ("win", hooked.best_move)
    assert hooked == plain  # same value, move and node count
    assert seen == [(EVERY * (i + 1), 0) for i in range(plain.nodes // EVERY)]


def test_minefield_hook_sees_the_horizon_and_dfpn() -> None:
    native.reset()
    pos = get("minefield").parse_position(LONG_5X5)
    seen: list[tuple[int, int]] = []
    with live_nodes(lambda nodes, depth: seen.append((nodes, depth))):
        native.solve(pos, node_limit=EVERY + 10, horizon=40)
        empty = get("minefield").parse_position("5/5/5/5/5 b -")
        proved, nodes = native.search_for(5).proves(empty, 0, node_limit=EVERY + 10)
    assert proved is None and nodes >= EVERY
    assert seen == [(EVERY, 40), (EVERY, 0)]
    native.reset()
    native.solve(pos, node_limit=EVERY + 10)  # the hook is gone: nothing more is recorded
    assert len(seen) == 2


def test_hook_exception_stops_the_search() -> None:
    native.reset()
    pos = get("minefield").parse_position(LONG_5X5)

    def stop(nodes: int, depth: int) -> None:
        raise RuntimeError(f"stopped at {nodes}")

    with live_nodes(stop), pytest.raises(RuntimeError, match=f"stopped at {EVERY}"):
        native.solve(pos)
    native.reset()


def test_carpniches_hook_is_called_and_changes_nothing() -> None:
    pos = get("carpniches").parse_position(CARP_START)

    def run(hooked: bool) -> tuple[object, int, list[tuple[int, int]]]:
        seen: list[tuple[int, int]] = []
        search = native_carpniches.NativeAlphaBeta(pos, tt_bits=18)
        if hooked:
            with live_nodes(lambda nodes, depth: seen.append((nodes, depth))):
                found = search.iterate(11)
        else:
            found = search.iterate(11)
        return (found.value, found.plies, found.score), search.nodes, seen

    plain, plain_nodes, none = run(False)
    hooked, hooked_nodes, seen = run(True)
    assert none == [] and plain_nodes > EVERY
    assert (hooked, hooked_nodes) == (plain, plain_nodes)
    assert [nodes for nodes, _ in seen] == [EVERY * (i + 1) for i in range(plain_nodes // EVERY)]
    assert all(1 <= depth <= 11 for _, depth in seen)
    assert [depth for _, depth in seen] == sorted(depth for _, depth in seen)
