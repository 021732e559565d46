"""ColleXion's turn engine: the ordered turn generator, the turn search, and analyse's use of it."""

from __future__ import annotations

import json
import random

import pytest

from boardproof.models.collexion import make_game
from boardproof.models.collexion.endgames import endgame
from boardproof.models.collexion.evaluation import BoxIndex, estimates_of, ranked_turns
from boardproof.models.collexion.rules import CollexionPosition
from boardproof.models.collexion.turnsearch import TurnSearch
from boardproof.solvers.analyse import analyse, make_tree
from boardproof.solvers.mcts import MCTS

GAME = make_game()

#: small positions of every variant, where every legal turn can be played out
SMALL = [
    GAME.start(seed=3, count=12),
    GAME.start(seed=4, count=14, players=3),
    GAME.start(seed=5, count=12, variant="powers", players=4),
    GAME.start(seed=6, count=12, variant="expert", players=2),
    GAME.start(seed=7, count=12, variant="teams"),
    endgame(2, 8),
    endgame(3, 6, players=3),
]


def _after(pos: CollexionPosition, count: int, seed: int) -> CollexionPosition:
    """``pos`` after ``count`` seeded random turns (fewer if the game ends)."""
    rng = random.Random(seed)
    for _ in range(count):
        if pos.outcome() is not None:
            break
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos


@pytest.mark.parametrize("index", range(len(SMALL)))
def test_ranked_turns_are_legal_and_reach_every_position_once(index: int) -> None:
    """One legal turn per position reached, and every position a legal turn reaches."""
    for pos in (SMALL[index], _after(SMALL[index], 2, index)):
        if pos.outcome() is not None:
            continue
        ranked = ranked_turns(pos)
        legal = set(pos.legal_moves())
        assert all(c.turn in legal for c in ranked)
        reached = [pos.play(c.turn) for c in ranked]
        assert len(set(reached)) == len(reached)
        assert set(reached) == {child for _, child in pos.successors()}
        # best first for the mover (a stable sort: ties keep the canonical order)
        margins = [c.margin for c in ranked]
        assert margins == sorted(margins, reverse=True)


def test_the_fast_take_generator_matches_the_rules_on_the_opening_heap() -> None:
    pos = GAME.start(seed=1)
    index = BoxIndex.of(pos)
    takes = index.takes(index.full)
    from_rules = {frozenset(m.take) for m in pos.legal_moves()}
    assert {frozenset(index.ids[i] for i in seq) for seq in takes.values()} == from_rules
    assert len(from_rules) < len(pos.legal_moves()) / 3  # the orders of the same pieces


def test_the_best_scoring_turn_comes_first() -> None:
    """Pinned: piece 3 (g8) completes the green set held; the canonical first turn is 1."""
    pos = GAME.parse_position("base 1:y3,2:p5,3:g8 g3.g4.g5:-:-/-:-:- 234/234/234/234 1")
    assert str(pos.legal_moves()[0]) == "1"
    ranked = ranked_turns(pos)
    assert str(ranked[0].turn) == "3/g"
    assert ranked[0].margin > ranked[1].margin
    assert str(TurnSearch(pos).best_move()) == "3/g"


def test_a_whole_set_lying_open_is_taken_at_once() -> None:
    pos = GAME.parse_position("base 1:y3,2:y4,3:y5,4:y8,5:b3,6:p4 -:-:-/-:-:- 234/234/234/234 1")
    assert str(ranked_turns(pos)[0].turn) == "1.2.3.4/y"


def test_the_order_denies_the_opponent_its_set() -> None:
    """Pinned: player 2 needs only g8 (open) for a green set; taking it comes first."""
    pos = GAME.parse_position("base 1:b3,2:g8,3:p4 -:-:-/g3.g4.g5:-:- 234/234/234/234 1")
    assert [str(m) for m in pos.legal_moves()] == ["1", "2", "3"]
    ranked = ranked_turns(pos)
    assert str(ranked[0].turn) == "2" and ranked[0].margin > ranked[1].margin + 2


def test_the_evaluation_of_a_finished_game_is_its_score() -> None:
    end = GAME.parse_position("base - g3.y3:2.3:-/-:4:- -/34/234/234 1")
    assert end.ended() and estimates_of(end) == [3.0, 4.0]


def test_the_search_is_reproducible_with_a_seed_and_an_iteration_budget() -> None:
    pos = _after(GAME.start(seed=8), 2, 8)
    first = analyse(pos, iterations=25, seed=4, exact=False, multipv=3).to_json()
    again = analyse(pos, iterations=25, seed=4, exact=False, multipv=3).to_json()
    assert {**first, "seconds": 0} == {**again, "seconds": 0}
    assert first["iterations"] == 25 and first["method"] == "mcts"
    with_playouts = [TurnSearch(pos, seed=9, playout_plies=2) for _ in range(2)]
    for tree in with_playouts:
        tree.run(iterations=12)
    assert [str(s.move) for s in with_playouts[0].moves()] == [
        str(s.move) for s in with_playouts[1].moves()]  # fmt: skip
    assert with_playouts[0].root.score == with_playouts[1].root.score


def test_the_tree_follows_the_moves_played_and_keeps_their_subtree() -> None:
    pos = _after(GAME.start(seed=8, players=3), 1, 2)
    tree = TurnSearch(pos, seed=5)
    tree.run(iterations=40)
    best = tree.ranked()[0]
    assert best.move is not None and tree.advance(best.move)
    assert tree.root is best and tree.root_position == pos.play(best.move)
    visits = tree.root.visits
    grown = analyse(tree.root_position, iterations=10, exact=False, tree=tree)
    assert grown.tree is tree and tree.root.visits == visits + 10
    assert str(grown.best_move) in {str(m) for m in tree.root_position.legal_moves()}
    unopened = [c.turn for c in tree._ranked(tree.root)][-1]
    assert not tree.advance(unopened)  # a turn the tree never opened: a new root
    assert tree.root.visits == 0 and tree.root_position == pos.play(best.move).play(unopened)
    tree.run(iterations=5)
    fresh = TurnSearch(tree.root_position, seed=5)
    assert tree.best_move() is not None and fresh.root.values == tree.root.values


def test_gtp_keeps_the_collexion_tree_from_move_to_move() -> None:
    from boardproof.gtp.engine import GtpEngine

    engine = GtpEngine("collexion", iterations=20, seed=1)
    assert engine.handle("genmove 1").startswith("= ")
    tree = engine.tree
    assert isinstance(tree, TurnSearch) and tree.root_position == engine.position
    reply = tree.ranked()[0].move if tree.root.children else None
    if reply is not None:  # the opponent plays the reply the tree looked at most
        engine.handle(f"play 2 {reply}")
        assert engine.tree is tree and tree.root_position == engine.position
    assert engine.handle("genmove 2" if reply is None else "genmove 1").startswith("= ")
    assert engine.tree is tree


def test_analyse_grows_the_turn_search_for_collexion_and_keeps_its_json() -> None:
    pos = GAME.start(seed=2, players=3)
    assert isinstance(make_tree(pos, "auto"), TurnSearch)
    assert isinstance(make_tree(pos, "python"), MCTS)
    assert isinstance(make_tree(pos, "auto", playout="python"), MCTS)
    found = analyse(pos, iterations=12, seed=1, multipv=4)
    data = json.loads(json.dumps(found.to_json()))
    legal = {str(m) for m in pos.legal_moves()}
    assert data["best_move"] in legal and data["pv"][0] == data["best_move"]
    assert len(data["moves"]) == 4 and all(m["move"] in legal for m in data["moves"])
    assert isinstance(data["score"], float) and data["result"] == "unknown"
    assert set(data) == set(analyse(pos, iterations=12, engine="python").to_json())
    assert len(found.values) == 3 and all(0.0 < v < 1.0 for v in found.values)


def test_analyse_still_proves_a_small_endgame() -> None:
    pos = endgame(1, 4)
    found = analyse(pos, iterations=20, seed=1)
    assert found.result in ("win", "loss", "draw") and found.method.startswith("exact")


def test_the_native_method_still_refuses_collexion() -> None:
    from boardproof.models.base import InvalidOptionError
    from boardproof.solvers.api import solve

    with pytest.raises(InvalidOptionError, match="no native solver; it solves Minefield"):
        solve(GAME.start(), method="native")


def _play(start: CollexionPosition, engine_seat: int, iterations: int,
          seed: int) -> tuple[float, int]:  # fmt: skip
    """The engine's share of one game against a seeded random player, and its final score
    minus the random player's."""
    rng = random.Random(seed)
    pos = start
    while pos.outcome() is None:
        if pos.to_move == engine_seat:
            tree = TurnSearch(pos, seed=seed)
            tree.run(iterations=iterations)
            move = tree.best_move()
        else:
            move = rng.choice(pos.legal_moves())
        pos = pos.play(move)
    outcome = pos.outcome()
    assert outcome is not None and outcome.scores is not None
    share = 1.0 / len(outcome.winners) if engine_seat in outcome.winners else 0.0
    return share, outcome.scores[engine_seat] - outcome.scores[1 - engine_seat]


def test_the_engine_beats_a_random_player() -> None:
    """Six games on 40-piece heaps, each seat three times (a random player takes four
    pieces most turns and so completes sets by chance: it is no pushover)."""
    games = [_play(GAME.start(seed=seed, count=40), seed % 2, 4, seed) for seed in range(6)]
    assert sum(share for share, _ in games) >= 5.0
    assert sum(margin for _, margin in games) >= 30
