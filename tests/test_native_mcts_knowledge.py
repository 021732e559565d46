"""The native Minefield engine's knowledge (issue #29, item 2), each piece against the
plain method: the prior hook of ``mcts_tree.h`` changes only the AMAF statistics of new
nodes; the C 3x3 patterns equal the Python reference; the distance prior equals a
reference shortest-path computation; with knowledge on, the proved values stay the exact
ones; with it off, the moves are those of the plain engine."""

from __future__ import annotations

import heapq
import random
from array import array
from collections import Counter
from typing import Any

import pytest

from boardproof.models.base import InvalidOptionError
from boardproof.models.minefield import native as mf_native
from boardproof.models.minefield.native import mcts as mf_mcts
from boardproof.models.minefield.native import pattern_weights
from boardproof.models.minefield.native import patterns as pat
from boardproof.models.minefield.native.train_patterns import weights
from boardproof.models.minefield.rules import from_cells, make_game
from boardproof.solvers.native_mcts import EngineSettings, NativeTree, native_tree

pytestmark = pytest.mark.skipif(mf_mcts._mcts is None, reason="the C module was not built")


def random_position(rng: random.Random, n: int, plies: int, pie: bool = False) -> Any:
    pos = make_game().start(size=n, pie=pie)
    for _ in range(plies):
        if pos.outcome() is not None:
            break
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos


def tree_of(pos: Any, **settings: Any) -> NativeTree:
    """A tree with ``settings``; without the learned-pattern prior unless they name it."""
    settings = {"pattern_prior": 0, **settings}
    return NativeTree(pos, mf_mcts.build(pos, EngineSettings(hash_mb=16, **settings)))


def stones(pos: Any) -> tuple[set[int], set[int]]:
    black, white, _mover, _pie = mf_mcts.state_of(pos)
    return set(black), set(white)


def test_patterns_equal_the_reference() -> None:
    """The C engine's pattern of every legal placement is the Python reference's, for
    both movers (White's read transposed), on random positions of sizes 3..11."""
    rng = random.Random(3)
    checked = Counter[int]()
    for k in range(200):
        n = 3 + k % 9
        pos = random_position(rng, n, rng.randrange(n * n // 2 + 1))
        if pos.outcome() is not None:
            continue
        tree = tree_of(pos)
        black, white = stones(pos)
        found = tree.native.search.patterns()
        legal = {tree.native.codec.encode(pos, m) for m in pos.legal_moves() if m.is_placement}
        if mf_mcts.connect8(pos.game) and tree.proved_winner() is not None:
            continue  # over for the C tree (Theorem O): no moves
        assert {code for code, _ in found} == legal, pos.fen()
        for point, code in found:
            assert code == pat.pattern_of(n, black, white, point, pos.to_move), (pos.fen(), point)
            checked[pos.to_move] += 1
    assert checked[0] > 500 and checked[1] > 500


def test_patterns_follow_the_symmetries() -> None:
    """Mirroring the board left-right mirrors Black's patterns (a variant of the same
    canonical pattern); transposing it with the colours exchanged gives White the
    patterns Black had."""
    rng = random.Random(4)
    for k in range(60):
        n = 4 + k % 6
        cells = tuple(rng.choice((0, 0, 0, 1, 2)) for _ in range(n * n))
        pos = from_cells(cells, n, 0, False, "orthogonal")
        mirror = from_cells(tuple(cells[r * n + n - 1 - f] for r in range(n) for f in range(n)),
                            n, 0, False, "orthogonal")  # fmt: skip
        swap = {0: 0, 1: 2, 2: 1}
        flipped = from_cells(tuple(swap[cells[f * n + r]] for r in range(n) for f in range(n)),
                             n, 1, False, "orthogonal")  # fmt: skip
        black, white = stones(pos)
        mb, mw = stones(mirror)
        fb, fw = stones(flipped)
        for p in range(n * n):
            if cells[p]:
                continue
            code = pat.pattern_of(n, black, white, p, 0)
            r, f = divmod(p, n)
            mirrored = pat.pattern_of(n, mb, mw, r * n + n - 1 - f, 0)
            assert pat.canonical(mirrored) == pat.canonical(code)
            assert pat.pattern_of(n, fb, fw, f * n + r, 1) == code


def test_table_and_weights() -> None:
    """The full table gives every variant its canonical pattern's weight; the shipped
    weights parse, are positive and differ between patterns (something was learned)."""
    full = array("f", pat.table({pat.canonical(77): 3.0}))
    assert all(full[v] == 3.0 for v in pat.variants(77))
    assert sum(x == 3.0 for x in full) == len(pat.variants(77))
    shipped = pat.parse(pattern_weights.WEIGHTS)
    assert len(shipped) >= 50 and all(g > 0 for g in shipped.values())
    assert all(code == pat.canonical(code) for code in shipped)
    assert max(shipped.values()) > 2 * min(shipped.values())
    assert len(pat.shipped()) == 4 * pat.PATTERNS
    counts = weights(Counter({5: 200, 6: 200}), Counter({5: 30, 6: 10}))
    assert counts[5] > 1 > counts[6]


def test_prior_off_leaves_the_plain_engine() -> None:
    """Priors of weight 0 and no pattern playouts: prior() reports no prior, and the tree
    is the one of the default settings but the pattern prior (the other knowledge is off
    by default); the default's prior is the shipped patterns' at weight 100."""
    pos = make_game().start(size=7)

    def run(prior: bool = False, **settings: Any) -> list[tuple[Any, ...]]:
        tree = NativeTree(pos, mf_mcts.build(pos, EngineSettings(hash_mb=16, seed=2,
                                                                 **settings)))  # fmt: skip
        assert (tree.native.search.prior() is not None) is prior
        tree.run(iterations=1500)
        return sorted(tree.native.search.children())

    plain = run(pattern_prior=0)
    assert plain == run(pattern_prior=0, distance_prior=0, pattern_playout=False)
    assert EngineSettings().pattern_prior == 100
    default = run(prior=True)
    assert default == run(prior=True, pattern_prior=100) and default != plain


def test_prior_seeds_only_the_amaf_statistics() -> None:
    """With a prior, a new node's children start with the prior's AMAF visits and wins
    (in player 0's terms) and no visits; one iteration adds at most one AMAF visit."""
    rng = random.Random(8)
    for k in range(20):
        n = 5 + k % 5
        pos = random_position(rng, n, rng.randrange(2, n * n // 3))
        if pos.outcome() is not None:
            continue
        settings = {"pattern_prior": 7, "distance_prior": 5} if k % 2 else {"pattern_prior": 9}
        tree = tree_of(pos, seed=k, **settings)
        if tree.proved_winner() is not None:
            continue
        prior = {code: (wins, visits) for code, wins, visits in tree.native.search.prior()}
        total = sum(settings.values())
        assert all(visits == total and 0 <= wins <= visits for wins, visits in prior.values())
        tree.run(iterations=1)
        mover = pos.to_move
        for code, visits, _value, rvisits, rvalue, *_ in tree.native.search.children():
            wins, seeded = prior[code]
            black = wins if mover == 0 else seeded - wins
            assert rvisits - seeded in (0, 1), pos.fen()
            assert rvalue - black == pytest.approx(0, abs=1e-3) or rvisits > seeded
            assert visits <= 1


def _path_lengths(pos: Any, colour: int, closed: set[int]) -> dict[int, float]:
    """Through each point, the fewest empty points ``colour`` must fill to join its
    edges (8-neighbourhood; the opponent's stones and ``closed`` points impassable)."""
    n = pos.n
    black, white = stones(pos)
    own, other = (black, white) if colour == 0 else (white, black)

    def cost(p: int) -> float:
        return 0 if p in own else float("inf") if p in other or p in closed else 1

    def line(p: int) -> int:
        return p // n if colour == 0 else p % n

    def from_edge(edge: int) -> dict[int, float]:
        dist = {p: float("inf") for p in range(n * n)}
        heap = [(cost(p), p) for p in range(n * n) if line(p) == edge and cost(p) < 9]
        for d, p in heap:
            dist[p] = d
        heapq.heapify(heap)
        while heap:
            d, p = heapq.heappop(heap)
            if d > dist[p]:
                continue
            r, f = divmod(p, n)
            for dr in (-1, 0, 1):
                for df in (-1, 0, 1):
                    if (dr or df) and 0 <= r + dr < n and 0 <= f + df < n:
                        q = (r + dr) * n + f + df
                        if d + cost(q) < dist[q]:
                            dist[q] = d + cost(q)
                            heapq.heappush(heap, (dist[q], q))
        return dist

    a, b = from_edge(0), from_edge(n - 1)
    return {p: a[p] + b[p] - (1 if cost(p) == 1 else 0) for p in range(n * n)}


def test_distance_prior_equals_the_reference() -> None:
    """The distance prior of each placement is 0.3 + 0.35 (2^-e + 2^-f), e and f the
    excess of the shortest paths through it (mover: over its legal points, opponent:
    over all empty points) against a reference Dijkstra."""
    rng = random.Random(9)
    checked = 0
    for k in range(80):
        n = 4 + k % 7
        pos = random_position(rng, n, rng.randrange(2, n * n // 2))
        if pos.outcome() is not None:
            continue
        tree = tree_of(pos, distance_prior=10)
        if tree.proved_winner() is not None:
            continue
        legal = {tree.native.codec.encode(pos, m) for m in pos.legal_moves() if m.is_placement}
        black, white = stones(pos)
        closed = {p for p in range(n * n) if p not in black | white and p not in legal}
        mine = _path_lengths(pos, pos.to_move, closed)
        theirs = _path_lengths(pos, 1 - pos.to_move, set())
        best_mine, best_theirs = min(mine.values()), min(theirs.values())
        for code, wins, visits in tree.native.search.prior():
            if code not in legal:
                assert wins == 5 and visits == 10
                continue
            e = min(mine[code] - best_mine, 20)  # inf - x, inf - inf (nan): no path
            f = min(theirs[code] - best_theirs, 20)
            e, f = (20 if x != x else x for x in (e, f))
            expected = 0.3 + 0.35 * (2**-e + 2**-f)
            assert wins == pytest.approx(10 * expected, rel=1e-5), (pos.fen(), code)
            checked += 1
    assert checked > 500


def _two_distances(pos: Any, colour: int, closed: set[int]) -> dict[int, float]:
    """Hex's two-distance potentials (the sum over both edges) at each open point, by
    the definition: neighbours next to each other or to one group of ``colour``; 1 next
    to an edge, else 1 + the second smallest neighbour's distance (8-neighbourhood)."""
    n = pos.n
    black, white = stones(pos)
    own, other = (black, white) if colour == 0 else (white, black)
    points = range(n * n)
    is_open = {p for p in points if p not in own and p not in other and p not in closed}

    def near(p: int) -> list[int]:
        r, f = divmod(p, n)
        return [(r + dr) * n + f + df for dr in (-1, 0, 1) for df in (-1, 0, 1)
                if (dr or df) and 0 <= r + dr < n and 0 <= f + df < n]  # fmt: skip

    group: dict[int, int] = {}
    for p in sorted(own):
        if p in group:
            continue
        todo = [p]
        group[p] = p
        while todo:
            for q in near(todo.pop()):
                if q in own and q not in group:
                    group[q] = p
                    todo.append(q)

    def line(p: int) -> int:
        return p // n if colour == 0 else p % n

    def touches(p: int, edge: int) -> bool:
        return line(p) == edge or any(q in own and any(
            line(x) == edge for x in own if group[x] == group[q]) for q in near(p))

    neighbours = {}
    for p in is_open:
        found = {q for q in near(p) if q in is_open}
        for q in near(p):
            if q in own:
                found |= {y for x in own if group[x] == group[q] for y in near(x) if y in is_open}
        neighbours[p] = found - {p}
    total = dict.fromkeys(is_open, 0.0)
    for edge in (0, n - 1):
        d = {p: 1.0 if touches(p, edge) else float("inf") for p in is_open}
        changed = True
        while changed:
            changed = False
            for p in is_open:
                values = sorted(d[q] for q in neighbours[p])
                if d[p] > 1 and len(values) >= 2 and values[1] + 1 < d[p]:
                    d[p] = values[1] + 1
                    changed = True
        for p in is_open:
            total[p] += d[p]
    return total


def test_two_distance_prior_equals_the_reference() -> None:
    """With ``two_distance``, the distance prior's excess is that of Hex's two-distance
    potentials, against the definition computed in Python."""
    rng = random.Random(10)
    checked = 0
    for k in range(60):
        n = 4 + k % 6
        pos = random_position(rng, n, rng.randrange(2, n * n // 2))
        if pos.outcome() is not None:
            continue
        tree = tree_of(pos, distance_prior=10, two_distance=True)
        if tree.proved_winner() is not None:
            continue
        legal = {tree.native.codec.encode(pos, m) for m in pos.legal_moves() if m.is_placement}
        black, white = stones(pos)
        closed = {p for p in range(n * n) if p not in black | white and p not in legal}
        mine = _two_distances(pos, pos.to_move, closed)
        theirs = _two_distances(pos, 1 - pos.to_move, set())
        best_mine, best_theirs = min(mine.values()), min(theirs.values())
        for code, wins, _visits in tree.native.search.prior():
            if code not in legal:
                continue
            e = min(mine[code] - best_mine, 20)  # inf - x, inf - inf (nan): no path
            f = min(theirs[code] - best_theirs, 20)
            e, f = (20 if x != x else x for x in (e, f))
            expected = 0.3 + 0.35 * (2**-e + 2**-f)
            assert wins == pytest.approx(10 * expected, rel=1e-5), (pos.fen(), code)
            checked += 1
    assert checked > 300


@pytest.mark.parametrize("settings", [{"pattern_prior": 20, "distance_prior": 20},
                                      {"pattern_playout": True}])  # fmt: skip
def test_knowledge_keeps_the_proved_values(settings: dict[str, Any]) -> None:
    """With priors or pattern playouts, MCTS-Solver still proves the exact values (late
    5x5 and 4x4 positions), and best moves of proved wins win."""
    rng = random.Random(13)
    proved = 0
    for k in range(40):
        n = (4, 5)[k % 2]
        low = 1 if n < 5 else n * n - 12
        pos = random_position(rng, n, rng.randrange(low, n * n - 4))
        if pos.outcome() is not None:
            continue
        tree = native_tree(pos, EngineSettings(hash_mb=16, seed=k, **settings))
        if tree is None:
            continue
        tree.run(iterations=30_000)
        value = tree.proved_value()
        if value is None:
            continue
        proved += 1
        exact = mf_native.solve_any(pos, node_limit=5_000_000)
        assert value == str(exact.value), pos.fen()
    assert proved >= 15


def test_pattern_playouts_end_like_games() -> None:
    """Playouts drawn by pattern weight end with a winner (or a dead draw) as the plain
    ones do, on every size, and a seeded search with them repeats."""
    for n in (3, 6, 9, 13):
        tree = tree_of(make_game().start(size=n), pattern_playout=True)
        results = {tree.native.search.playout(seed) for seed in range(200)}
        assert results <= {0, 1, 2} and results & {0, 1}
    pos = make_game().start(size=9)
    one = tree_of(pos, pattern_playout=True, seed=1)
    two = tree_of(pos, pattern_playout=True, seed=1)
    one.run(iterations=2000)
    two.run(iterations=2000)
    assert one.native.search.children() == two.native.search.children()


def test_bad_settings() -> None:
    with pytest.raises(InvalidOptionError, match="pattern_prior"):
        EngineSettings().with_options({"pattern_prior": "-1"})
    with pytest.raises(InvalidOptionError, match="distance_prior"):
        EngineSettings().with_options({"distance_prior": "x"})
    pos = make_game().start(size=5)
    with pytest.raises(ValueError, match="gammas"):
        mf_mcts._mcts.Search(5, True, mf_mcts.roles(), [], [], 0, False, 1 << 20, 0, 1, 0.3,
                             0.001, 1.0, 2, True, 0, 1, 0, b"xx")  # fmt: skip
    assert pos.n == 5
