"""The wide native Minefield search (every size 2..26) against the model, the Python
solvers and the 64-bit native search; the native ply horizon (``--max-plies``)."""

from __future__ import annotations

import random

import pytest

from boardproof import models
from boardproof.models.minefield import native
from boardproof.models.minefield.board import tables
from boardproof.solvers.api import solve

GAME = models.get("minefield")
needs_native = pytest.mark.skipif(not native.available(), reason="C module not built")
ALL_SIZES = list(range(2, 27))
#: the sizes of the default run; ``make test-long`` checks every size
QUICK_SIZES = [2, 3, 9, 13, 19, 26]


def late(rng: random.Random, n: int, legal: int, game=GAME):
    """A random game of size n played until at most ``legal`` legal points are left
    (and the game is not over), or None when the game ended first."""
    pos = game.start(size=n, pie=False)
    while pos.outcome() is None:
        moves = pos.legal_moves()
        if len(moves) <= legal:
            return pos
        pos = pos.play(rng.choice(moves))
    return None


def late_positions(n: int, legal: int, count: int, seed: int, game=GAME) -> list:
    rng = random.Random(seed * 1000 + n)
    out: list = []
    while len(out) < count:
        pos = late(rng, n, legal, game)
        if pos is not None:
            out.append(pos)
    return out


def random_playout(rng: random.Random, n: int, game=GAME):
    pos = game.start(size=n, pie=False)
    for _ in range(rng.randrange(n * n + 1)):
        moves = pos.legal_moves()
        if not moves or pos.outcome() is not None:
            break
        pos = pos.play(rng.choice(moves))
    return pos


def check_rules(n: int, win: str, count: int) -> None:
    game = models.get("minefield", win=win)
    search = native.search_for(n, win == "orthodiagonal", tt_bits=12, wide=True)
    rng = random.Random(n)
    t = tables(n)
    for _ in range(count):
        pos = random_playout(rng, n, game)
        search._install()
        me, op, black = search.boards(pos)
        assert search.legal(me, op) == t.placements(me, op), pos.fen()
        empty = t.full & ~(me | op)
        expected = 0
        for bit in range(n * t.width):
            if empty >> bit & 1 and t.connected(me | 1 << bit, pos.to_move, win != "orthogonal"):
                expected |= 1 << bit
        assert search.winning(me, black) & empty == expected, pos.fen()


@needs_native
@pytest.mark.parametrize("n", QUICK_SIZES)
@pytest.mark.parametrize("win", ["orthogonal", "orthodiagonal"])
def test_wide_legal_placements_and_winning_points_match_the_model(n: int, win: str) -> None:
    check_rules(n, win, 8)


@needs_native
@pytest.mark.long
@pytest.mark.parametrize("n", ALL_SIZES)
@pytest.mark.parametrize("win", ["orthogonal", "orthodiagonal"])
def test_wide_rules_match_the_model_at_every_size(n: int, win: str) -> None:
    check_rules(n, win, 30)


@needs_native
@pytest.mark.parametrize("n", ALL_SIZES)
def test_the_one_point_glyph_test_matches_the_roles_and_the_model(n: int) -> None:
    """The search's test of one point (only the shapes that its 4 neighbours allow, from a
    table) forbids the same points as every role of the model and as the model's rules."""
    search = native.search_for(n, tt_bits=12, wide=True)
    rng = random.Random(300 + n)
    t = tables(n)
    forbidden_seen = 0
    for _ in range(12):
        pos = random_playout(rng, n)
        search._install()
        me, op, _ = search.boards(pos)
        for a, b in ((me, op), (op, me)):
            found = native._native.wide_forbidden(native._wide(a), native._wide(b))
            by_shapes, by_roles = (int.from_bytes(x, "little") for x in found)
            expected = t.full & ~(a | b) & ~t.placements(a, b)
            assert by_shapes == by_roles == expected, pos.fen()
            forbidden_seen += bin(expected).count("1")
    assert forbidden_seen > 0 or n < 3


@needs_native
@pytest.mark.parametrize("n", [2, 5, 9, 16, 26])
def test_wide_keys_are_equal_for_symmetric_positions(n: int) -> None:
    rng = random.Random(n)
    search = native.search_for(n, tt_bits=12, wide=True)
    search._install()
    keys_seen, classes = set(), set()
    for _ in range(20):
        pos = random_playout(rng, n)
        keys = set()
        for s in range(8):
            keys.add(search.canonical(*search.boards(pos.transform(s)))[:2])
        assert len(keys) == 1, pos.fen()
        keys_seen |= keys
        classes.add(frozenset(pos.transform(s).fen() for s in range(8)))
    assert len(keys_seen) == len(classes)  # and positions of different classes differ


def compare_with_64bit(n: int, win: str, count: int, seed: int) -> None:
    game = models.get("minefield", win=win)
    rng = random.Random(seed)
    checked = 0
    while checked < count:
        pos = random_playout(rng, n, game)
        empty = n * n - bin(pos.black | pos.white).count("1")
        if pos.outcome() is not None or empty > 14:
            continue
        checked += 1
        for distance in (False, True):
            old = native.solve(pos, distance=distance, wide=False)
            new = native.solve(pos, distance=distance, wide=True)
            assert (new.value, new.plies) == (old.value, old.plies), pos.fen()
        for horizon in (1, 2, 3, 6):
            old = native.solve(pos, distance=True, wide=False, horizon=horizon)
            new = native.solve(pos, distance=True, wide=True, horizon=horizon)
            assert (new.value, new.plies) == (old.value, old.plies), (pos.fen(), horizon)
        wide = native.search_for(n, win == "orthodiagonal", wide=True)
        for attacker in (0, 1):
            small = native.search_for(n, win == "orthodiagonal", wide=False)
            assert wide.proves(pos, attacker)[0] == small.proves(pos, attacker)[0], pos.fen()


@needs_native
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
@pytest.mark.parametrize("win", ["orthogonal", "orthodiagonal"])
def test_wide_search_equals_the_64bit_search(n: int, win: str) -> None:
    compare_with_64bit(n, win, 6, seed=n)


@needs_native
@pytest.mark.long
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
@pytest.mark.parametrize("win", ["orthogonal", "orthodiagonal"])
def test_wide_search_equals_the_64bit_search_on_more_positions(n: int, win: str) -> None:
    compare_with_64bit(n, win, 60, seed=100 + n)


def compare_with_python(n: int, legal: int, count: int, seed: int, win: str) -> None:
    game = models.get("minefield", win=win)
    for pos in late_positions(n, legal, count, seed, game):
        ab = solve(pos, method="alphabeta")
        found = native.solve(pos, distance=True)
        assert (found.value, found.plies) == (ab.value, ab.plies), pos.fen()
        assert native.solve(pos).value == ab.value, pos.fen()
        search = native.search_for(n, win == "orthodiagonal")
        assert search.proves(pos, pos.to_move)[0] == (ab.value == "win"), pos.fen()
        assert search.proves(pos, 1 - pos.to_move)[0] == (ab.value == "loss"), pos.fen()


@needs_native
@pytest.mark.parametrize("n", QUICK_SIZES)
def test_late_positions_agree_with_python_alphabeta(n: int) -> None:
    compare_with_python(n, 7, 2, seed=1, win="orthogonal")


@needs_native
@pytest.mark.long
@pytest.mark.parametrize("n", ALL_SIZES)
@pytest.mark.parametrize("win", ["orthogonal", "orthodiagonal"])
def test_late_positions_of_every_size_agree_with_python_alphabeta(n: int, win: str) -> None:
    compare_with_python(n, 9, 5, seed=2, win=win)


def compare_with_enumeration(n: int, legal: int, count: int, seed: int) -> None:
    for pos in late_positions(n, legal, count, seed):
        exact = solve(pos, method="enumerate")
        assert exact.value != "unknown", pos.fen()
        found = native.solve(pos, distance=True)
        assert (found.value, found.plies) == (exact.value, exact.plies), pos.fen()


@needs_native
@pytest.mark.parametrize("n", [4, 9, 26])
def test_late_positions_agree_with_the_enumeration(n: int) -> None:
    compare_with_enumeration(n, 6, 2, seed=3)


@needs_native
@pytest.mark.long
@pytest.mark.parametrize("n", ALL_SIZES)
def test_late_positions_of_every_size_agree_with_the_enumeration(n: int) -> None:
    compare_with_enumeration(n, 7, 4, seed=4)


# ---------------------------------------------------------------- the ply horizon


@needs_native
def test_max_plies_on_an_opening_answers_at_once() -> None:
    """Issue 12: `solve minefield "5/5/5/5/5 b p" --max-plies 1` searched the whole game
    (40 s and more) before looking at the limit; now the search stops at the horizon."""
    for text, plies in (("5/5/5/5/5 b p", 1), ("5/5/5/5/5 b p", 3), ("7/7/7/7/7/7/7 b -", 3)):
        native.reset()
        result = solve(GAME.parse_position(text), max_plies=plies)
        assert result.method == "auto:native" and result.value == "unknown", text
        assert result.note == f"no forced win for either side within {plies} plies"
        assert result.nodes < 20_000, (text, result.nodes)


def test_max_plies_on_the_command_line(cli_run) -> None:
    status, out, err = cli_run("solve", "minefield", "5/5/5/5/5 b p", "--max-plies", "1")
    assert status == 0 and "result: unknown" in out and err == "", (out, err)


@needs_native
@pytest.mark.parametrize("n", [3, 5, 9, 14])
def test_max_plies_agrees_with_python_alphabeta(n: int) -> None:
    rng = random.Random(n)
    positions = [GAME.parse_position("3/3/3 b p"), GAME.parse_position("4/4/4/4 b -")]
    while len(positions) < 8:
        pos = late(rng, n, 9)
        if pos is not None:
            positions.append(pos)
    for pos in positions:
        for plies in (1, 2, 3, 4, 7):
            ab = solve(pos, method="alphabeta", max_plies=plies)
            nat = solve(pos, method="native", max_plies=plies)
            assert (nat.value, nat.plies, nat.winner) == (ab.value, ab.plies, ab.winner), (
                pos.fen(), plies)  # fmt: skip
            if nat.value != "unknown":
                assert len(nat.pv) == nat.plies
                end = pos
                for move in nat.pv:
                    end = end.play(move)
                assert end.outcome() is not None and nat.winner in end.outcome().winners


# ---------------------------------------------------------------- df-pn first on big boards


@needs_native
@pytest.mark.parametrize("n", [9, 13, 19])
def test_settle_and_winning_line_agree_with_alphabeta(n: int) -> None:
    """Big boards: ``solve`` asks the native df-pn first; its value, its winning move and
    the line built from its proofs are checked against the native alpha-beta."""
    for pos in late_positions(n, 12, 4, seed=5):
        plain = native.solve(pos)
        settled = native.settle(pos)
        assert settled.value == plain.value, pos.fen()
        if settled.value == "win":
            assert settled.best_move is not None
            child = pos.play(settled.best_move)
            won = child.outcome() is not None and pos.to_move in child.outcome().winners
            assert won or native.solve(child).value == "loss", pos.fen()
        winner = {"win": pos.to_move, "loss": 1 - pos.to_move}.get(plain.value)
        if winner is not None:
            end = pos
            for move in native.winning_line(pos, winner):
                end = end.play(move)
            assert end.outcome() is not None and end.outcome().winners == {winner}, pos.fen()
        result = solve(pos)
        assert (result.value, result.winner) == (plain.value, winner), pos.fen()


# ---------------------------------------------------------------- options of the wide search


def block_cuts() -> int:
    return int(native._native.wide_stats()["block_cuts"])


@needs_native
@pytest.mark.parametrize("n, count", [(4, 30), (5, 10)])
def test_the_blocked_path_bound_keeps_values_and_distances(n: int, count: int) -> None:
    rng = random.Random(40 + n)
    checked = 0
    while checked < count:
        pos = random_playout(rng, n)
        if pos.outcome() is not None or n * n - bin(pos.black | pos.white).count("1") > 14:
            continue
        checked += 1
        for distance in (False, True):
            search = native.search_for(n, wide=True, distance=distance)
            answers = []
            for option in (False, True):
                search.block_bound = option
                search._install()
                found = search.solve(pos)
                answers.append((found.value, found.plies))
            search.block_bound = False
            assert answers[0] == answers[1], (pos.fen(), distance)


@needs_native
def test_the_blocked_path_bound_fires_on_a_pinned_position() -> None:
    pos = GAME.parse_position("4/4/1w2/2b1 b -")
    search = native.search_for(4, wide=True, distance=True)
    search.block_bound = True
    search._install()
    before = block_cuts()
    found = search.solve(pos)
    search.block_bound = False
    assert block_cuts() > before
    assert (found.value, found.plies) == (native.solve(pos, distance=True).value,
                                          native.solve(pos, distance=True).plies)  # fmt: skip
