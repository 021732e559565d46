"""The Candy Conquest placement bound against brute force and against real games."""

from __future__ import annotations

import random

import pytest

from boardproof.models import candy
from boardproof.models.candy.bound import (
    NEVER,
    can_win_within,
    own_turns_within,
    placements_lower_bound,
    prune,
    unopposed_placements,
)

GAME = candy.make_game()


def brute_unopposed(pos: candy.CandyPosition, player: int, limit: int) -> int | None:
    """Breadth-first over the player's own placements only, through the protocol."""
    layer = {pos.cols: pos}
    for depth in range(1, limit + 1):
        nxt: dict = {}
        for p in layer.values():
            mine = candy.CandyPosition(p.cols, player, p.players)
            for move in mine.placements(player):
                child = mine.play(move)
                outcome = child.outcome()
                if outcome is not None and player in outcome.winners:
                    return depth
                nxt[child.cols] = child
        layer = nxt
    return None


def random_positions(players: int, seed: int, plies: list[int]) -> list[candy.CandyPosition]:
    rng = random.Random(seed)
    out = []
    pos = GAME.start(players=players)
    for ply in range(max(plies) + 1):
        if ply in plies:
            out.append(pos)
        quiet = [m for m in pos.legal_moves() if pos.play(m).outcome() is None]
        if not quiet:
            break
        pos = pos.play(rng.choice(quiet))
    return out


SAMPLES = [
    (pos, player)
    for players, seed in [(2, 1), (3, 2), (4, 3)]
    for pos in random_positions(players, seed, [16, 28])
    for player in range(players)
]


@pytest.mark.parametrize("index", range(len(SAMPLES)))
def test_unopposed_matches_brute_force(index: int) -> None:
    pos, player = SAMPLES[index]
    expected = brute_unopposed(pos, player, 2)
    assert unopposed_placements(pos, player, limit=2) == expected
    bound = placements_lower_bound(pos, player)
    if expected is not None:
        assert bound <= expected


@pytest.mark.long
@pytest.mark.parametrize("index", range(0, len(SAMPLES), 3))
def test_unopposed_matches_brute_force_depth_3(index: int) -> None:
    pos, player = SAMPLES[index]
    assert unopposed_placements(pos, player, limit=3) == brute_unopposed(pos, player, 3)


def _fen(squares: dict[str, str], to_move: int = 1, players: int = 2) -> str:
    rows = []
    for rank in range(5, 0, -1):
        rows.append(",".join(squares.get(f"{f}{rank}", ".") for f in "abcde"))
    return f"{'/'.join(rows)} {to_move} {players}"


def test_pinned_bounds() -> None:
    # three in a row on floor 0, d1 empty: one placement
    pos = GAME.parse_position(
        _fen({"a1": "1Os", "b1": "1sO", "c1": "1Os", "a5": "2Os", "b5": "2sO", "e4": "2oS"})
    )
    assert placements_lower_bound(pos, 0) == 1 == unopposed_placements(pos, 0)
    assert brute_unopposed(pos, 0, 1) == 1
    # a staircase a1 f0, b2 f1, c3 f2 waiting for d4 f3: with help from others one
    # placement might do; alone, filling d4 takes 4 but the c3 column (O, x showing on
    # top of a hidden o) is done in 2: Xs then So show O X S o.
    pos = GAME.parse_position(
        _fen({"a1": "1Os", "b2": "2Os1So", "c3": "2Os2So1Ox"})
    )
    assert pos.status() == []
    assert placements_lower_bound(pos, 0) == 1
    assert unopposed_placements(pos, 0, limit=4) == 2 == brute_unopposed(pos, 0, 3)


def test_reserve_limits_the_bound() -> None:
    pos = GAME.parse_position(
        "1So,2sO,1Os,1xO,1So/1xO,1So,1oX,1Sx2Xo,2sO/1Sx2Xo,2sO,1Sx2Xo,1oX,1Xo/"
        "1xO,1Sx2Xo,1oX,1Os,2sO/1Os,1xO,1Os,2xO,1So 1 2"
    )
    assert sum(pos.reserve(0)) == 4
    assert placements_lower_bound(pos, 0) <= 4 or placements_lower_bound(pos, 0) == NEVER


@pytest.mark.parametrize("players, games", [(2, 10), (3, 6), (4, 4)])
def test_bound_is_sound_in_real_games(players: int, games: int) -> None:
    _check_real_games(players, games, seed=players)


@pytest.mark.long
@pytest.mark.parametrize("players", [2, 3, 4])
def test_bound_is_sound_in_many_real_games(players: int) -> None:
    _check_real_games(players, 80, seed=100 + players)


def _check_real_games(players: int, games: int, seed: int) -> None:
    """In random games, whoever wins needs at least the bound's placements from every
    earlier position, and can_win_within never rules the real win out."""
    rng = random.Random(seed)
    checked = 0
    for _ in range(games):
        line = [GAME.start(players=players)]
        while line[-1].outcome() is None:
            line.append(line[-1].play(rng.choice(line[-1].legal_moves())))
        outcome = line[-1].outcome()
        assert outcome is not None
        if not outcome.winners:
            continue
        (winner,) = outcome.winners
        for i, pos in enumerate(line[:-1]):
            plies = len(line) - 1 - i
            own = sum(
                1
                for j in range(i, len(line) - 1)
                if line[j].to_move == winner and line[j].cols != line[j + 1].cols
            )
            assert placements_lower_bound(pos, winner) <= own
            assert own <= own_turns_within(pos, winner, plies)
            assert can_win_within(pos, winner, plies)
            assert not prune(pos, plies, winner) and not prune(pos, plies)
            checked += 1
    assert checked > 4 * games


def test_prune_cuts_hopeless_nodes() -> None:
    start = GAME.start(players=3)
    # player 1 moves at plies 0, 3, 6: two placements in 6 plies cannot make a line
    assert prune(start, 6, 0)
    assert not prune(start, 7, 0)
    # without an attacker: nobody can end the game within 4 plies from the start
    assert prune(start, 4) and not prune(start, 7)
    assert prune(GAME.start(), 4) and not prune(GAME.start(), 5)
