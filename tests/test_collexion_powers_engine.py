"""ColleXion's turn engine in the powers variant: the fast turn generator, the
evaluation's sight of the power tokens (a remove, steal or swap completes a set), the
greedy turn and the 4-player engine's flat search over greedy rounds."""

from __future__ import annotations

import random

import pytest

from boardproof.models.collexion import make_game
from boardproof.models.collexion.evaluation import (
    BoxIndex,
    _all_turns,
    _power_turns,
    estimates_of,
    greedy_turn,
    power_reach,
    ranked_turns,
)
from boardproof.models.collexion.rules import CollexionPosition
from boardproof.models.collexion.turnsearch import TurnSearch, make_tree, settings
from boardproof.solvers.bestturn import best_turn

GAME = make_game()


def _line(seed: int, players: int, count: int, turns: int) -> list[CollexionPosition]:
    """The positions of a seeded random powers game on a heap of ``count`` pieces."""
    rng = random.Random(seed)
    pos = GAME.start(seed=seed, count=count, variant="powers", players=players)
    line = [pos]
    for _ in range(turns):
        if pos.outcome() is not None:
            break
        pos = pos.play(rng.choice(pos.legal_moves()))
        line.append(pos)
    return [p for p in line if p.outcome() is None]


@pytest.mark.parametrize(("seed", "players", "count"), [(1, 4, 14), (2, 3, 16), (3, 2, 12)])
def test_the_powers_generator_reaches_what_the_rules_reach(
    seed: int, players: int, count: int
) -> None:
    """The same positions as the rules' generator (steals and swaps once collections
    exist, the final round's pass), each by a legal turn that reaches it."""
    line = _line(seed, players, count, 12)
    assert any(p.final for p in line) and any(any(c) for p in line for c in p.collections)
    for pos in line:
        index = BoxIndex.of(pos)
        fast = list(_power_turns(pos, index))
        assert {after for _, after in fast} == {after for _, after in _all_turns(pos)}
        legal = set(pos.legal_moves())
        assert all(turn in legal for turn, _ in fast[:: max(1, len(fast) // 40)])


def test_the_freeable_polygons_match_the_plain_reading() -> None:
    rng = random.Random(4)
    for pos in _line(5, 4, 30, 6):
        index = BoxIndex.of(pos)
        for _ in range(30):
            present = index.full & rng.getrandbits(len(index.ids))
            assert index.freeable(present) == index.freeable_plain(present)


#: player 2 holds g3 g4 g5; g8 lies under y8 alone: a remove power frees it
UNDER_ONE = "powers 1:g8<2,2:y8,3:b3 -:-:-/g3.g4.g5:-:{} 234/234/234/234 1"


def test_the_evaluation_sees_a_remove_power_complete_a_set() -> None:
    """Pinned: with ``r``, player 2 removes y8 and takes g8 (the green set); the mover
    takes y8 then g8 first. The evaluation blind to powers took b3 (it still does when
    player 2 has no power)."""
    armed = GAME.parse_position(UNDER_ONE.format("r"))
    unarmed = GAME.parse_position(UNDER_ONE.format("-"))
    assert armed.status() == [] and unarmed.status() == []
    assert str(ranked_turns(armed)[0].turn) == "2.1"
    assert str(ranked_turns(unarmed)[0].turn) == "3"
    assert estimates_of(armed.play(armed.parse_move("3")))[1] > estimates_of(
        unarmed.play(unarmed.parse_move("3")))[1] + 2  # fmt: skip
    tree = TurnSearch(armed, seed=1)
    tree.run(iterations=20)
    assert str(tree.best_move()) == "2.1"


def test_a_steal_or_a_swap_reaches_a_rivals_polygon() -> None:
    """Player 2 (steal) completes the green set with player 1's g8; a swap needs a
    polygon to give outside the set."""
    text = "powers 1:b3,2:p4 g8:-:-/g3.g4.g5:-:{} 234/234/234/234 1"
    values = {letters: estimates_of(GAME.parse_position(text.format(letters)))[1]
              for letters in ("-", "s", "x")}  # fmt: skip
    assert values["s"] > values["-"] + 2  # the token and the 3 polygons, less the power
    assert values["x"] == values["-"] + 1  # no polygon to give: the unused token only
    pos = GAME.parse_position(text.format("x").replace("g3.g4.g5:", "g3.g4.g5.y3:"))
    index = BoxIndex.of(pos)
    assert power_reach(index, index.full, pos.collections, pos.powers, [[1], [0]])[1] == (
        0, 1 << 3)  # fmt: skip
    armed = estimates_of(pos)[1]
    assert armed > estimates_of(GAME.parse_position(str(pos).replace(":x ", ":- ")))[1] + 2


@pytest.mark.parametrize(
    ("variant", "players", "seed"), [("powers", 4, 6), ("base", 3, 7), ("teams", 4, 8)]
)
def test_the_greedy_turn_is_a_best_turn_of_the_one_ply_search(
    variant: str, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    pos = GAME.start(seed=seed, count=14, variant=variant, players=players)
    while pos.outcome() is None:
        found = best_turn(pos, max_plies=1, timeout=None)
        values = dict(found.root_values)
        turn = greedy_turn(pos, rng)
        assert turn is not None and values[str(turn)] == max(values.values())
        pos = pos.play(rng.choice(pos.legal_moves()))
    assert greedy_turn(pos, rng) is None


#: player 1 completes the square set, its token from any pile (all 2s); then player 2
#: completes the octagon set (the 3 of the pile player 1 took from) and player 3 the
#: green set (green's top: the 4 if player 1 took the green 2)
ROUND = ("powers 1:p4,2:g8,3:g3,4:b3,5:y5 g4.y4.b4:-:-/y8.b8.p8:-:-/g4.g5.g8:-:-/-:-:- "
         "234/234/234/234 1")  # fmt: skip


def test_the_four_player_powers_engine_plays_the_round_out() -> None:
    """Pinned: the evaluation ties the four piles (green first, canonical order); the
    engine's greedy rounds see player 3 take the green 4 after ``1/4g``."""
    pos = GAME.parse_position(ROUND)
    assert pos.status() == []
    ranked = ranked_turns(pos)
    assert [str(c.turn) for c in ranked[:4]] == ["1/4g", "1/4y", "1/4b", "1/4p"]
    assert len({c.margin for c in ranked[:4]}) == 1
    assert settings(pos) == {"playout_plies": 3, "playout_policy": "greedy", "max_depth": 1}
    for seed in range(3):
        tree = make_tree(pos, seed=seed)
        tree.run(iterations=20)
        assert str(tree.best_move()) in {"1/4y", "1/4b", "1/4p"}
        assert all(not child.children for child in tree.root.children)  # a flat search
        means = {str(c.move): c.reward[0] / c.visits for c in tree.root.children}
        assert means["1/4g"] < means["1/4y"] - 0.05


def test_the_other_games_keep_the_tree_of_the_evaluation() -> None:
    for pos in (GAME.start(players=2), GAME.start(players=3),
                GAME.start(variant="powers", players=3), GAME.start(variant="teams")):  # fmt: skip
        assert settings(pos) == {}
        tree = make_tree(pos, seed=1)
        assert tree.playout_plies == 0 and tree.max_depth is None
