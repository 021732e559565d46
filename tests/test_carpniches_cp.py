"""CP-SAT models of Carpniches, each checked against breadth-first search on small cases."""

from __future__ import annotations

import random

import pytest

from boardproof.models.carpniches import (
    CAPYBARA,
    POODLE,
    START_POSITION,
    CarpnichesPosition,
    parse_position,
)
from boardproof.models.carpniches.proofs.cp import can_win_within, line_distance, prune, reach

MIDGAME = parse_position("1cp2(pc)/6/p4p/c1(pc)3/5c/(pc)5 p -")


def bfs_levels(source: CarpnichesPosition, plies: int) -> list[set[CarpnichesPosition]]:
    """levels[n]: the positions reached after exactly n plies of legal play."""
    levels = [{source}]
    for _ in range(plies):
        nxt = set()
        for pos in levels[-1]:
            for move in pos.legal_moves():
                nxt.add(pos.play(move))
        levels.append(nxt)
    return levels


def replay(source: CarpnichesPosition, moves: list) -> CarpnichesPosition:  # type: ignore[type-arg]
    for move in moves:
        source = source.play(move)  # raises if a move is illegal
    return source


def random_position(rng: random.Random, plies: int) -> CarpnichesPosition:
    while True:
        pos = START_POSITION
        for _ in range(plies):
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.play(rng.choice(moves))
        if pos.legal_moves():
            return pos


# ---------------------------------------------------------------------------
# bounded reachability
# ---------------------------------------------------------------------------


def check_reach(
    source: CarpnichesPosition, max_plies: int, rng: random.Random, samples: int
) -> None:
    levels = bfs_levels(source, max_plies + 1)
    within = set().union(*levels[: max_plies + 1])
    reachable = sorted(within, key=lambda p: p.fen())
    beyond = sorted(levels[max_plies + 1] - within, key=lambda p: p.fen())
    targets = rng.sample(reachable, min(samples, len(reachable)))
    targets += rng.sample(beyond, min(samples, len(beyond)))
    for target in targets:
        result = reach(source, target, max_plies)
        assert result.reachable == (target in within), (source.fen(), target.fen(), result)
        if result.reachable:
            assert result.moves is not None and len(result.moves) <= max_plies
            assert replay(source, result.moves) == target
        else:
            assert result.method in ("CP-SAT: infeasible",) or result.method.startswith("trivial")


def test_reach_from_the_start_matches_bfs() -> None:
    check_reach(START_POSITION, 2, random.Random(1), samples=4)


def test_reach_from_a_midgame_matches_bfs() -> None:
    check_reach(MIDGAME, 2, random.Random(2), samples=4)


@pytest.mark.long
def test_reach_matches_bfs_more() -> None:
    rng = random.Random(3)
    check_reach(START_POSITION, 3, rng, samples=8)
    for plies in (8, 15, 22):
        check_reach(random_position(rng, plies), 3, rng, samples=6)


def test_reach_parity_and_opening_are_trivially_unreachable() -> None:
    child = START_POSITION.play(START_POSITION.legal_moves()[0])
    result = reach(START_POSITION, child, 0)
    assert not result.reachable and result.method.startswith("trivial")
    back = reach(child, START_POSITION, 4)  # the opening field never goes back to 1
    assert not back.reachable and back.method.startswith("trivial")
    assert reach(START_POSITION, child, 1).moves == [START_POSITION.legal_moves()[0]]


# ---------------------------------------------------------------------------
# unopposed line distance
# ---------------------------------------------------------------------------


def bfs_line_distance(pos: CarpnichesPosition, side: int, max_moves: int) -> int | None:
    """Fewest moves of ``side`` alone (the opponent passes) to a line of its own only."""
    frontier = {pos._replace(to_move=side)}
    seen = set(frontier)
    for n in range(max_moves + 1):
        nxt = set()
        for p in frontier:
            lines = p.lines()
            if lines[side] and not lines[1 - side]:
                return n
            if any(lines):
                continue
            for move in p.legal_moves():
                child = p.play(move)._replace(to_move=side)
                if child not in seen:
                    seen.add(child)
                    nxt.add(child)
        frontier = nxt
    return None


# few pieces, so that the one-sided BFS stays small
SPARSE = [
    "6/6/6/6/3c2/cc3p p -",
    "6/2p3/6/1c4/3c2/c4p p -",
    "6/6/2(pc)3/6/c5/5(ppc) p -",
    "c4p/6/2c3/6/1p2c1/(cp)5 c -",
    "6/6/6/6/6/(cp)c4 c -",
    "p2c1c/6/6/pp(pc)1p1/3c2/cc3p p -",
]


@pytest.mark.parametrize("text", SPARSE)
def test_line_distance_matches_bfs(text: str) -> None:
    pos = parse_position(text)
    for side in (CAPYBARA, POODLE):
        assert line_distance(pos, side, max_moves=3) == bfs_line_distance(pos, side, 3), side


def test_line_distance_is_not_a_sound_bound_alone() -> None:
    # the poodle at c3 is buried under a capybara: unopposed, the poodles need moves of
    # their own for a line, but the capybaras' move c3-a5 uncovers one at once
    pos = parse_position("p2c1c/6/6/pp(pc)1p1/3c2/cc4 c -")
    assert line_distance(pos, POODLE, max_moves=2) != 0
    after = pos.play(pos.parse_move("c3-a5"))
    assert after.outcome() is not None and POODLE in after.outcome().winners  # type: ignore[union-attr]


# ---------------------------------------------------------------------------
# the cooperative bound (the sound pruning bound)
# ---------------------------------------------------------------------------


def brute_can_win(pos: CarpnichesPosition, plies: int, player: int | None) -> bool:
    outcome = pos.outcome()
    if outcome is not None:
        return player is None or player in outcome.winners
    if plies == 0:
        return False
    return any(brute_can_win(pos.play(m), plies - 1, player) for m in pos.legal_moves())


def test_can_win_within_matches_brute_force() -> None:
    rng = random.Random(7)
    checked = {True: 0, False: 0}
    positions = [MIDGAME, *(random_position(rng, n) for n in (10, 14, 18, 24))]
    for pos in positions:
        if pos.opening != -2:
            continue
        for plies in (1, 2):
            for player in (None, CAPYBARA, POODLE):
                want = brute_can_win(pos, plies, player)
                assert can_win_within(pos, plies, player) == want, (pos.fen(), plies, player)
                assert prune(pos, plies, player) == (not want)
                checked[want] += 1
    assert checked[True] and checked[False]


@pytest.mark.long
def test_can_win_within_three_plies_matches_brute_force() -> None:
    rng = random.Random(8)
    for n in (9, 13, 17, 21, 27):
        pos = random_position(rng, n)
        for player in (None, CAPYBARA, POODLE):
            assert can_win_within(pos, 3, player) == brute_can_win(pos, 3, player), pos.fen()


def test_blocking_counts_as_a_win_for_the_bound() -> None:
    pos = parse_position("4cp/6/6/6/(ppc)(ccc)4/p(ppc)4 c -")
    assert can_win_within(pos, 1, CAPYBARA) is True  # e6-f6 blocks the poodles
    assert brute_can_win(pos, 1, CAPYBARA)


def test_reach_gives_the_shortest_sequence() -> None:
    levels = bfs_levels(MIDGAME, 3)
    target = sorted(levels[3] - levels[1] - levels[2] - levels[0], key=lambda p: p.fen())[0]
    result = reach(MIDGAME, target, 5)
    assert result.method == "CP-SAT: optimal" and result.moves is not None
    assert len(result.moves) == 3 and replay(MIDGAME, result.moves) == target


def test_reach_command(cli_run) -> None:  # type: ignore[no-untyped-def]
    start = START_POSITION.fen()
    goal = "(cp)4(pcp)/1c4/6/6/1p4/(pc)4(cpc) c -"
    status, out, _ = cli_run("reach", "carpniches", start, goal, "--max-plies", "4")
    assert status == 0
    assert out.splitlines() == ["reachable in 2 plies: a6-b5 a1-b2", "method: CP-SAT: optimal"]
    other = START_POSITION.play(START_POSITION.parse_move("a6-a3")).fen()
    status, out, _ = cli_run("reach", "carpniches", other, goal, "--max-plies", "3")
    assert status == 0 and out.strip() == "unreachable within 3 plies (CP-SAT: infeasible)"
    status, out, _ = cli_run("reach", "carpniches", start, goal, "--max-plies", "2", "--json")
    assert '"reachable": true' in out and '"moves": ["a6-b5", "a1-b2"]' in out
    status, _, err = cli_run("reach", "minefield", "x", "y", "--max-plies", "1")
    assert status == 2 and err.count("\n") == 1 and "carpniches only" in err
    status, _, err = cli_run("reach", "carpniches", start, "6/6 c -", "--max-plies", "1")
    assert status == 2 and err.startswith("error: invalid rows")


def test_can_win_within_model_alone_matches_brute_force(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The same check with the depth-first witness look switched off: CP-SAT decides."""
    import boardproof.models.carpniches.proofs.cp as cp

    monkeypatch.setattr(cp, "WITNESS_NODES", 0)
    rng = random.Random(9)
    seen = set()
    for n in (11, 16):
        pos = random_position(rng, n)
        for player in (None, CAPYBARA, POODLE):
            want = brute_can_win(pos, 2, player)
            assert can_win_within(pos, 2, player) == want, (pos.fen(), player)
            seen.add(want)
    assert seen == {True, False}
