"""Candy Conquest mining with 3-4 players (#31): the threat-aware self-play policy (C
against its Python reference) and the native proofs of the miner (against the Python proof
tree and strategy), each tested against the plain method."""

from __future__ import annotations

import pytest

from boardproof import models
from boardproof.match.selfplay import SelfPlaySettings, check_settings, play_game, run_selfplay
from boardproof.models.base import InvalidOptionError
from boardproof.models.candy import native as native_candy
from boardproof.models.candy.policy import policy_available, policy_game, reference_game
from boardproof.models.candy.rules import CandyMove, CandyPosition, make_game, parse_position
from boardproof.puzzles.check import check_puzzle
from boardproof.puzzles.mining import (
    NATIVE_NODES,
    NATIVE_TT_BITS,
    GameLine,
    Mining,
    evaluate,
    mine,
    mining_settings,
)
from boardproof.solvers.common import SearchTimeout
from boardproof.solvers.proof import ProofTooLarge

needs_c = pytest.mark.skipif(not (policy_available() and native_candy.available()),
                             reason="the C modules were not built")  # fmt: skip


@needs_c
@pytest.mark.parametrize("players", [2, 3, 4])
def test_policy_c_plays_the_reference_moves(players: int) -> None:
    start = make_game().start(players=players)
    for seed, care, limit in ((1, 1.0, 400), (2, 0.0, 400), (3, 0.6, 400), (4, 0.85, 25)):
        plain = reference_game(start, seed, care, limit)
        assert policy_game(start, seed, care, limit) == plain
        end = start
        for move in plain:
            end = end.play(move)
        assert len(plain) == limit or end.outcome() is not None  # to the end of the game
    # from a later position, with the limit cutting the game
    pos = start
    for move in reference_game(start, 9, 1.0, 20):
        pos = pos.play(move)
    assert policy_game(pos, 5, 0.9, 10) == reference_game(pos, 5, 0.9, 10)


@needs_c
def test_policy_wins_at_once_and_blocks() -> None:
    # player 1 holds three flat candies on rank 1 (a1, b1, c1 at floor 0) and d1 is free:
    # its first move completes the line whatever the care
    pos = parse_position(".,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./1Os,1sO,1Os,.,. 1 3")
    won = policy_game(pos, 1, 0.0, 1)
    assert len(won) == 1 and pos.play(won[0]).outcome() is not None
    # the same line for player 2, player 1 to move: with care 1 it blocks every time
    threat = parse_position(".,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./2Os,2sO,2Os,.,. 1 3")
    for seed in range(8):
        (move,) = policy_game(threat, seed, 1.0, 1)
        after = threat.play(move)
        assert not any(after.play(m).outcome() for m in after.legal_moves()), str(move)


def test_policy_selfplay_is_seeded_and_recorded() -> None:
    settings = SelfPlaySettings("candy", {}, {"players": 4}, games=3, seed=5,
                                policy=(0.7, 1.0))  # fmt: skip
    records = run_selfplay(settings, progress=False)
    assert records == run_selfplay(settings, progress=False)
    assert play_game((settings, 1)) == records[1]
    game = models.get("candy")
    for record in records:
        info = record["selfplay"]
        assert 0.7 <= info["policy"]["care"] <= 1.0 and info["budgets"] == []
        assert info["opening"] == 2 and info["end"] == "rules"
        line = GameLine({"record": record["id"]}, game.parse_position(record["start"]),
                        tuple(record["moves"]))  # fmt: skip
        assert line.positions()[-1].outcome() is not None  # replayed by the rules
    capped = run_selfplay(
        SelfPlaySettings(
            "candy", {}, {"players": 3}, games=1, seed=5, policy=(1.0, 1.0), max_plies=12
        ),
        progress=False,
    )
    assert len(capped[0]["moves"]) == 12 and capped[0]["selfplay"]["end"] == "max plies"


def test_policy_settings_refused() -> None:
    with pytest.raises(InvalidOptionError, match="invalid option policy: expected LOW-HIGH"):
        check_settings(SelfPlaySettings("candy", policy=(0.9, 0.5)))
    with pytest.raises(InvalidOptionError, match="minefield has no self-play policy"):
        check_settings(SelfPlaySettings("minefield", start={"size": 5}, policy=(0.5, 1.0)))


def _policy_lines(players: int, games: int, seed: int) -> list[GameLine]:
    settings = SelfPlaySettings("candy", {}, {"players": players}, games=games, seed=seed,
                                policy=(0.7, 1.0))  # fmt: skip
    game = models.get("candy")
    return [GameLine({"record": r["id"]}, game.parse_position(r["start"]), tuple(r["moves"]))
            for r in run_selfplay(settings, progress=False)]  # fmt: skip


@needs_c
@pytest.mark.parametrize(("players", "games", "seed"), [(2, 6, 1), (3, 6, 1), (3, 6, 2),
                                                        (4, 12, 2)])  # fmt: skip
def test_native_proofs_make_the_python_path_puzzles(players: int, games: int, seed: int) -> None:
    """The native strategy (method auto) against the proof tree built in Python and
    compacted (method tree): the same puzzles, byte for byte (tokens, positions, principal
    line, the rating's count of searches), the same counts; each passes ``puzzle check``."""
    lines = _policy_lines(players, games, seed)
    rule = Mining(depth=12, per_game=3)
    fast = mine(lines, mining_settings("candy"), rule, progress=False)
    plain = mine(lines, mining_settings("candy"), Mining(depth=12, per_game=3, method="tree"),
                 progress=False)  # fmt: skip
    assert fast.puzzles and fast.puzzles == plain.puzzles and fast.counts == plain.counts
    assert all(puzzle["version"] == 2 for puzzle in fast.puzzles)
    assert all(check_puzzle(puzzle).ok for puzzle in fast.puzzles)


#: a 3-player win in 4 from a policy game (mined by the test above: seed 1)
def _a_puzzle() -> tuple[CandyPosition, CandyMove, int]:
    for line in _policy_lines(3, 6, 1):
        found = mine([line], mining_settings("candy"), Mining(depth=12), progress=False)
        if found.puzzles:
            puzzle = found.puzzles[0]
            pos = parse_position(puzzle["position"])
            return pos, pos.parse_move(puzzle["solution"]), int(puzzle["plies"])
    raise AssertionError("no puzzle in the games")


@needs_c
def test_native_strategy_budgets() -> None:
    pos, first, plies = _a_puzzle()
    built = native_candy.strategy(pos, first, plies, node_limit=NATIVE_NODES,
                                  tt_bits=NATIVE_TT_BITS, max_positions=50_000)  # fmt: skip
    assert built.tokens[0] == str(first) and len(built.line) == plies
    with pytest.raises(ProofTooLarge):
        native_candy.strategy(
            pos,
            first,
            plies,
            node_limit=NATIVE_NODES,
            tt_bits=NATIVE_TT_BITS,
            max_positions=built.positions // 4,
        )
    with pytest.raises(SearchTimeout):
        native_candy.strategy(pos, first, plies, node_limit=1,
                              tt_bits=NATIVE_TT_BITS, max_positions=50_000)  # fmt: skip
    other = next(m for m in pos.legal_moves() if m != first)
    with pytest.raises(AssertionError):  # a first move that does not win: no proof
        native_candy.strategy(
            pos, other, plies, node_limit=NATIVE_NODES, tt_bits=NATIVE_TT_BITS, max_positions=50_000
        )
    # evaluate with the tree path and the native path agree on this position too
    settings = mining_settings("candy")
    assert evaluate(pos, settings, "candy", {}) == evaluate(
        pos, settings, "candy", {}, method="tree"
    )
