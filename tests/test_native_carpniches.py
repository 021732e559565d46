"""The native (C) Carpniches search agrees with the model and with the Python search."""

from __future__ import annotations

import os
import random

import pytest
from test_carpniches import PERFT_CASES

from boardproof.models.carpniches import (
    OPENING_OVER,
    START_POSITION,
    CarpnichesPosition,
    native,
    parse_position,
)
from boardproof.solvers.api import solve
from boardproof.solvers.search import WIN, AlphaBeta

needs_native = pytest.mark.skipif(not native.available(), reason="C module not built")

# capybaras to move: within 6 plies their only "win" makes the poodles repeat a position;
# the first real win takes 7 plies
REPETITION_TRAP = "2(ccc)3/6/6/2(pcp)3/3(pcc)1(ppp)/6 c -"
WIN_IN_3 = "(cpc)4p/3p2/6/4c1/6/(pcp)4(cpc) c -"
SHUFFLE = "c5/6/6/6/6/5p c -"


def test_the_module_is_built_on_this_machine() -> None:
    """Set BOARDPROOF_NO_NATIVE=1 to accept a machine without a C compiler."""
    assert native.available() or os.environ.get("BOARDPROOF_NO_NATIVE") == "1"


def random_game_position(rng: random.Random) -> CarpnichesPosition:
    """A position of a seeded random game from the start (any phase, possibly over)."""
    pos = START_POSITION
    for _ in range(rng.randrange(0, 120)):
        if pos.outcome() is not None:
            break
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos


def random_stacked_position(rng: random.Random) -> CarpnichesPosition:
    """12 pieces in random stacks (mostly 3 high) on random squares: few moves, cycles."""
    pieces = ["c"] * 6 + ["p"] * 6
    rng.shuffle(pieces)
    boards = [0] * 6
    left, i = 12, 0
    for sq in rng.sample(range(36), 12):
        if not left:
            break
        height = min(left, rng.choice((1, 2, 3, 3, 3)))
        for level in range(height):
            boards[level] |= 1 << sq
            if pieces[i] == "p":
                boards[3 + level] |= 1 << sq
            i += 1
        left -= height
    return CarpnichesPosition(*boards, rng.randrange(2), OPENING_OVER)


def brute_value(pos: CarpnichesPosition, depth: int, repetition_wins: bool = False) -> int:
    """Plain minimax, no table: search.py's score of ``pos`` within ``depth`` plies
    (a repetition of a position on the path scores 0, or with ``repetition_wins`` a win
    for the root's side to move: the mistake the search must not make)."""
    root = pos.to_move
    path: set[CarpnichesPosition] = set()

    def value(p: CarpnichesPosition, d: int, ply: int) -> int:
        outcome = p.outcome()
        if outcome is not None:
            return WIN - ply if p.to_move in outcome.winners else -(WIN - ply)
        if d <= 0:
            return 0
        if p in path:
            if not repetition_wins:
                return 0
            return WIN - ply if p.to_move == root else -(WIN - ply)
        path.add(p)
        best = max(-value(p.play(m), d - 1, ply + 1) for m in p.legal_moves())
        path.discard(p)
        return best

    return value(pos, depth, 0)


# ---------------------------------------------------------------------------
# the rules in C against the model
# ---------------------------------------------------------------------------


@needs_native
@pytest.mark.parametrize(("name", "text", "depth", "count"), PERFT_CASES)
def test_perft_file(name: str, text: str, depth: int, count: int) -> None:
    assert native.perft(parse_position(text), depth) == count


@needs_native
def test_perft_start_depth_6_equals_the_model() -> None:
    assert native.perft(START_POSITION, 5) == START_POSITION.perft(5) == 885576


@needs_native
def test_moves_and_ends_equal_the_model_on_random_positions() -> None:
    rng = random.Random(5)
    checked = over = 0
    for k in range(1500):
        pos = random_game_position(rng) if k % 2 else random_stacked_position(rng)
        for probe in (pos, pos._replace(to_move=1 - pos.to_move)):
            assert native.legal_moves(probe) == list(probe.legal_moves()), probe.fen()
            outcome = probe.outcome()
            want = 0 if outcome is None else 1 if probe.to_move in outcome.winners else -1
            assert native.terminal(probe) == want, probe.fen()
            checked += 1
            over += want != 0
    # the first turns (opening field 1 and a landing square) and the end of the game
    for move in START_POSITION.legal_moves():
        after = START_POSITION.play(move)
        assert native.legal_moves(after) == list(after.legal_moves()), after.fen()
    assert checked == 3000 and over > 300


# ---------------------------------------------------------------------------
# the search against the Python search and plain minimax
# ---------------------------------------------------------------------------


def summary(result: object) -> tuple[object, ...]:
    return (result.value, result.plies, result.depth, result.proved)  # type: ignore[attr-defined]


@needs_native
def test_search_equals_python_search_on_random_game_positions() -> None:
    rng = random.Random(17)
    compared = decided = 0
    while compared < 40:
        pos = random_game_position(rng)
        if pos.outcome() is not None:
            continue
        python = AlphaBeta(pos).iterate(5)
        for symmetry in (True, False):
            found = native.NativeAlphaBeta(pos, tt_bits=16, symmetry=symmetry).iterate(5)
            assert summary(found) == summary(python), (pos.fen(), symmetry)
            if found.proved:
                assert found.pv and found.pv[0] in pos.legal_moves()
        compared += 1
        decided += python.proved
    assert decided >= 5  # wins and losses found, not only "unknown"


def random_sparse_position(rng: random.Random, per_side: int) -> CarpnichesPosition:
    """``per_side`` lone pieces of each animal on random squares: they shuttle, so the
    searches meet many repetitions (with 2 a side no line can ever be made)."""
    squares = rng.sample(range(36), 2 * per_side)
    o1 = sum(1 << sq for sq in squares)
    l0 = sum(1 << sq for sq in squares[per_side:])
    return CarpnichesPosition(o1, 0, 0, l0, 0, 0, rng.randrange(2), OPENING_OVER)


@needs_native
def test_search_equals_python_search_on_positions_with_cycles() -> None:
    rng = random.Random(23)
    compared = cyclic = decided = 0
    while compared < 20:
        pos = random_sparse_position(rng, 2 + compared % 2)
        if pos.outcome() is not None:
            continue
        search = native.NativeAlphaBeta(pos, tt_bits=16)
        found = search.iterate(6)
        python = AlphaBeta(pos)
        assert summary(found) == summary(python.iterate(6)), pos.fen()
        compared += 1
        cyclic += search.reps > 0 and python.reps > 0
        decided += found.proved
    assert cyclic >= 5 and decided >= 3  # repetitions met, and some values proved


@needs_native
def test_a_win_through_a_repetition_is_no_win() -> None:
    pos = parse_position(REPETITION_TRAP)
    # counting the poodles' forced repetition as a capybara win would give a win in 6
    assert brute_value(pos, 6, repetition_wins=True) >= WIN // 2
    assert brute_value(pos, 6) == 0
    search = native.NativeAlphaBeta(pos, tt_bits=16)
    within_6 = search.iterate(6)
    assert (within_6.value, within_6.depth) == ("unknown", 6) and search.reps > 0
    assert summary(AlphaBeta(pos).iterate(6)) == summary(within_6)
    # the real win (no repetition) is found one ply deeper, by both searches
    deeper = native.NativeAlphaBeta(pos, tt_bits=16).iterate(9)
    assert (deeper.value, deeper.plies) == ("win", 7)
    assert summary(AlphaBeta(pos).iterate(9)) == summary(deeper)
    line = pos
    for move in deeper.pv:
        line = line.play(move)
    assert line.outcome() is not None and pos.to_move in line.outcome().winners


# ---------------------------------------------------------------------------
# the solve method
# ---------------------------------------------------------------------------


@needs_native
def test_solve_method_native_and_auto() -> None:
    pos = parse_position(WIN_IN_3)
    for method in ("native", "auto"):
        result = solve(pos, method=method)
        assert (result.value, result.plies, result.winner) == ("win", 3, 0), method
        assert result.method == ("native" if method == "native" else "auto:native")
    assert solve(pos, method="native", max_plies=2).value == "unknown"
    # a cycle the deepening cannot settle: auto enumerates the small graph
    shuffle = solve(parse_position(SHUFFLE))
    assert (shuffle.value, shuffle.method) == ("draw", "auto:enumerate")
    timed = solve(START_POSITION, method="native", node_limit=5000)
    assert timed.value == "unknown" and timed.best_move is None and timed.pv == []


@needs_native
def test_cli_solve_native(cli_run) -> None:  # type: ignore[no-untyped-def]
    status, out, _ = cli_run("solve", "carpniches", WIN_IN_3, "--method", "native")
    assert status == 0 and "in 3 plies" in out and "method: native" in out


@needs_native
def test_openings_native_equals_python(cli_run, tmp_path) -> None:  # type: ignore[no-untyped-def]
    pages = []
    for method in ("alphabeta", "native"):
        out = tmp_path / method
        status, _, _ = cli_run("openings", "carpniches", "--max-plies", "4", "--method", method,
                               "--out", str(out))  # fmt: skip
        assert status == 0
        page = (out / "carpniches-opening.md").read_text()
        pages.append([line.split(" | ")[:3] for line in page.splitlines() if "|" in line])
        assert not (out / "carpniches-opening.checkpoint.json").exists()
    assert pages[0] == pages[1]
