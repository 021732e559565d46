"""The native (C) Candy Conquest move generator, line test and perft agree with the model."""

from __future__ import annotations

import os
import random

import pytest
from test_candy import PASS_POSITION, STUCK_LINE
from test_candy_notation import CASES

from boardproof.models.candy import native
from boardproof.models.candy import rules as model
from boardproof.puzzles.generate import win_within
from boardproof.solvers.common import SearchTimeout
from boardproof.solvers.search import AlphaBeta

pytestmark = pytest.mark.skipif(not native.available(), reason="C module not built")
GAME = model.make_game()


def test_the_module_is_built_on_this_machine() -> None:
    """Set BOARDPROOF_NO_NATIVE=1 to accept a machine without a C compiler."""
    assert native.available() or os.environ.get("BOARDPROOF_NO_NATIVE") == "1"


def game_positions(players: int, games: int, seed: int) -> list[model.CandyPosition]:
    """Every position of ``games`` seeded random games (the last one of each is over)."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        pos = GAME.start(players=players)
        found.append(pos)
        while pos.outcome() is None:
            pos = pos.play(rng.choice(pos.legal_moves()))
            found.append(pos)
    return found


@pytest.mark.parametrize("name, position, depth, count", CASES, ids=[
    f"{c[0]}-d{c[2]}" for c in CASES
])  # fmt: skip
def test_perft_file(name: str, position: str, depth: int, count: int) -> None:
    assert native.perft(GAME.parse_position(position), depth) == count


@pytest.mark.parametrize("players", [2, 3, 4])
def test_moves_and_lines_equal_the_model(players: int) -> None:
    positions = game_positions(players, 40, seed=players)
    assert len(positions) > 1000
    wins = passes = 0
    for pos in positions:
        assert native.legal_moves(pos) == pos.legal_moves(), pos.fen()
        passes += pos.legal_moves() == (model.PASS,)
        for sq, column in enumerate(pos.cols):
            if not column:
                continue
            for colour in range(players):
                expected = model.wins_at(pos.cols, sq, colour)
                assert native.wins_at(pos.cols, sq, colour) == expected, (pos.fen(), sq, colour)
                wins += expected
    assert wins > 40  # every game but a draw ends with a line; more are seen on later squares


def test_passes_and_dead_ends() -> None:
    """A player who cannot place passes when another can; when nobody can, no moves:
    seeded random games from a position where player 1 must pass, and the line of
    test_candy that ends with nobody able to place."""
    rng = random.Random(3)
    start = GAME.parse_position(PASS_POSITION)
    positions = [start]
    for _ in range(30):
        pos = start
        while pos.outcome() is None:
            pos = pos.play(rng.choice(pos.legal_moves()))
            positions.append(pos)
    pos = start
    for text in STUCK_LINE:
        pos = pos.play(text)
        positions.append(pos)
    passes = dead = 0
    for pos in positions:
        assert native.legal_moves(pos) == pos.legal_moves(), pos.fen()
        passes += pos.legal_moves() == (model.PASS,)
        if not pos.winners() and pos.outcome() is not None:
            dead += 1
            # no line on the board, so the C move generator decides: nobody can place
            raw = native._columns(pos.cols)
            assert native._native.moves(raw, pos.to_move, pos.players) == []
    assert passes > 30 and dead >= 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_perft_of_game_positions(players: int) -> None:
    positions = [p for p in game_positions(players, 3, seed=10 + players) if p.outcome() is None]
    for pos in positions[::7]:
        assert native.perft(pos, 2) == pos.perft(2), pos.fen()


def near_end_positions(
    players: int, games: int, seed: int, backs: int = 6
) -> list[model.CandyPosition]:
    """Positions 1 to ``backs`` plies before the end of seeded random games (wins are near)."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        line = [GAME.start(players=players)]
        while line[-1].outcome() is None:
            line.append(line[-1].play(rng.choice(line[-1].legal_moves())))
        found += [line[-1 - back] for back in range(1, backs + 1) if back < len(line)]
    return found


def check_win_within(players: int, games: int, plies: int, seed: int, backs: int = 6) -> None:
    """Native win_within equals the Python search's (values and distances), for every
    player of each position (the mover and the others, against the coalition)."""
    wins = nones = 0
    for pos in near_end_positions(players, games, seed, backs):
        for player in range(players):
            expected = win_within(AlphaBeta(pos, player=player), pos, player, plies)
            assert native.win_within(pos, player, plies) == expected, (pos.fen(), player)
            wins += expected is not None
            nones += expected is None
    assert wins > 0 and nones > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_win_within_equals_the_python_search(players: int) -> None:
    check_win_within(players, 1, 3, seed=20 + players, backs=6 if players < 4 else 3)


@pytest.mark.long
@pytest.mark.parametrize("players, plies", [(2, 4), (2, 5), (3, 4), (4, 4)])
def test_win_within_equals_the_python_search_deeper(players: int, plies: int) -> None:
    check_win_within(players, 3, plies, seed=40 + players)


def test_win_within_budget_and_finished_positions() -> None:
    start = GAME.start(players=2)
    with pytest.raises(SearchTimeout):
        native.win_within(start, 0, 9, node_limit=1000)
    rng = random.Random(3)
    over = start
    while not over.winners():
        over = start
        while over.outcome() is None:
            over = over.play(rng.choice(over.legal_moves()))
    winner = over.winners()[0]
    assert native.win_within(over, winner, 5) == 0
    assert native.win_within(over, 1 - winner, 5) is None
