"""ColleXion's C kernels (boardproof/models/collexion/native) against the Python code they
replace: the turn ranking of self-play (the same candidates, values and order, hence the
same games) and the exact score search of the puzzle evaluation (the same values, nodes,
budget stops and puzzles, hence the same mined puzzles)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from boardproof import models
from boardproof.match.selfplay import SelfPlaySettings, play_game
from boardproof.models.collexion import native, turnsearch
from boardproof.models.collexion import puzzles as collexion_puzzles
from boardproof.models.collexion.endgames import endgame
from boardproof.models.collexion.evaluation import WEIGHTS, Weights, ranked_turns
from boardproof.models.collexion.heap import polygon_name
from boardproof.models.collexion.puzzles import ScoreSettings, evaluate, evaluate_plain
from boardproof.models.collexion.rules import GAME
from boardproof.puzzles.mining import GameLine, Mining, mine_game, mining_settings

pytestmark = pytest.mark.skipif(not native.available(), reason="the C module is not built")


def _game_positions(seed: int, pick: int = 3) -> list[Any]:
    """Every position of a game whose turns are drawn among the plain ranking's best."""
    rng = random.Random(seed)
    pos = GAME.start(seed=seed)
    found = []
    while pos.outcome() is None:
        found.append(pos)
        ranked = ranked_turns(pos)
        pos = pos.play(ranked[rng.randrange(min(pick, len(ranked)))].turn)
    return found


def _selfplay_positions(games: int, seed: int) -> list[Any]:
    """The last positions of seeded self-play games (those the mining tries)."""
    settings = SelfPlaySettings("collexion", games=games, seed=seed, iterations=(1, 10),
                                opening_plies=0)  # fmt: skip
    game = models.get("collexion")
    found = []
    for index in range(games):
        record = play_game((settings, index))
        line = GameLine({}, game.parse_position(record["start"]), tuple(record["moves"]))
        found += line.positions()[-12:]
    return found


def test_ranking_matches_the_plain_one_on_games_and_endgames() -> None:
    positions = _game_positions(1) + _game_positions(2, pick=6)
    positions += [endgame(seed, size) for seed in range(8) for size in (7, 10)]
    assert any(pos.final for pos in positions)  # the final round's pass is ranked too
    candidates = 0
    for pos in positions:
        found = native.ranked_turns(pos, WEIGHTS)
        assert found == ranked_turns(pos, WEIGHTS), pos.fen()
        candidates += len(found or [])
    assert candidates > 10_000
    other = Weights(next_turn=(0.7, 0.4), later=(0.0, 0.5, 0.3, 0.2, 0.1), token_share=0.5,
                    horizon=2.0, sets_per_turn=0.8, pieces_per_turn=3.0)  # fmt: skip
    for pos in positions[::7]:
        assert native.ranked_turns(pos, other) == ranked_turns(pos, other), pos.fen()


def test_ranking_declines_what_it_does_not_code() -> None:
    for variant in ("powers", "expert", "teams"):
        assert native.ranked_turns(GAME.start(variant=variant), WEIGHTS) is None
    odd_pile = GAME.parse_position("base 1:g8,2:y3 g3.g4.g5:-:-/-:-:- 24/234/234/234 1")
    assert native.ranked_turns(odd_pile, WEIGHTS) is None
    crowded = GAME.parse_position(f"base 1:g3 {'.'.join(['g3'] * 15)}:-:-/-:-:- 234/234/234/234 1")
    assert native.ranked_turns(crowded, WEIGHTS) is None  # 16 g3: past the C module's 4 bits
    assert native.score_search(crowded, 100) is None
    three = GAME.start(players=3)
    assert native.ranked_turns(three, WEIGHTS) == ranked_turns(three, WEIGHTS)
    assert native.score_search(three, 100) is None  # a score puzzle is between two players


def test_ranked_sequence_reads_like_the_list() -> None:
    pos = GAME.start(seed=4)
    lazy = native.ranked_sequence(pos, WEIGHTS)
    plain = ranked_turns(pos, WEIGHTS)
    assert lazy is not None and len(lazy) == len(plain) > 10
    assert lazy[3] == plain[3] and lazy[-1] == plain[-1] and lazy[2:9:3] == plain[2:9:3]
    assert list(lazy) == plain
    with pytest.raises(IndexError):
        lazy[len(plain)]


def test_selfplay_gives_the_games_of_the_plain_ranking(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = SelfPlaySettings("collexion", games=2, seed=9, iterations=(1, 10),
                                opening_plies=0)  # fmt: skip
    turnsearch.shared_ranked_turns.cache_clear()
    fast = [play_game((settings, index)) for index in range(2)]
    monkeypatch.setattr(native, "_native", None)
    turnsearch.shared_ranked_turns.cache_clear()
    plain = [play_game((settings, index)) for index in range(2)]
    turnsearch.shared_ranked_turns.cache_clear()
    assert fast == plain


def test_score_children_group_the_rules_children() -> None:
    for pos in [endgame(seed, 9) for seed in range(4)] + _selfplay_positions(1, 3)[:-1]:
        search = native.score_search(pos, 1000)
        assert search is not None
        classes = search.classes()
        children = [child for _, child in pos.successors()]
        assert len(classes) == len(children)
        first: dict[Any, int] = {}
        assert classes == [first.setdefault(child, k) for k, child in enumerate(children)]


@pytest.mark.parametrize("nodes", [300, 3000, 10_000])
def test_score_evaluation_matches_the_plain_one(nodes: int) -> None:
    positions = [endgame(seed, size) for seed in range(6) for size in (7, 9)]
    positions += _selfplay_positions(2, 4)[-10:]
    settings = ScoreSettings(root_nodes=nodes)
    reasons = set()
    for pos in positions:
        found = evaluate(pos, settings)
        assert found == evaluate_plain(pos, settings), pos.fen()
        reasons.add(found[1])
    assert {"puzzle", "budget"} <= reasons


def test_mining_finds_the_puzzles_of_the_plain_search(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = SelfPlaySettings("collexion", games=3, seed=6, iterations=(1, 10),
                                opening_plies=0)  # fmt: skip
    game = models.get("collexion")
    lines = [GameLine({"record": r["id"]}, game.parse_position(r["start"]), tuple(r["moves"]))
             for r in (play_game((settings, index)) for index in range(3))]  # fmt: skip
    rules, mining = mining_settings("collexion"), Mining(depth=40, per_game=3)
    fast = [mine_game(line, rules, mining) for line in lines]
    monkeypatch.setattr(collexion_puzzles, "score_search", lambda pos, nodes: None)
    plain = [mine_game(line, rules, mining) for line in lines]
    assert fast == plain
    assert sum(len(found["puzzles"]) for found in fast) >= 1


def _random_positions(count: int, seed: int) -> list[Any]:
    """Every position of uniformly random playouts from endgames whose piles, collections
    and tokens were redrawn (empty piles, final rounds, sets handed in on the way)."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        variant, box, _, _, _ = (
            endgame(rng.randrange(1 << 30), rng.choice((6, 8, 10))).fen().split()
        )
        piles = "/".join(rng.choice(("-", "4", "34", "234", "-", "4")) for _ in range(4))
        players = []
        for _ in range(2):
            coll = ".".join(
                polygon_name(t) for t in sorted(rng.sample(range(16), rng.randrange(7)))
            )
            tokens = ".".join(sorted(rng.choice("234") for _ in range(rng.randrange(3))))
            players.append(f"{coll or '-'}:{tokens or '-'}:-")
        pos = GAME.parse_position(f"{variant} {box} {'/'.join(players)} {piles} 1")
        while pos.outcome() is None:
            found.append(pos)
            moves = pos.legal_moves()
            pos = pos.play(moves[rng.randrange(len(moves))])
    return found


#: hand-made: a shape set handed in when every pile is empty (``3-``), a colour set whose
#: pile is empty, the final round's pass
SET_CASES = [
    "base 1:p3,2:b3,3:g4,4:g5 g8:-:-/g3.y3:-:- -/-/-/- 2!",
    "base 1:p3,2:b3,3:g4,4:g5,5:y4 g8.y3:2:-/g3.p8:3:- -/4/-/- 2",
    "base 1:p3,2:b3,3:g4,4:g5,5:y4<1 g8.y3:2:-/g3.y3:3:- -/4/-/4 1",
]


def test_random_positions_match_the_python_rules() -> None:
    positions = _random_positions(40, 9) + [GAME.parse_position(text) for text in SET_CASES]
    assert any(pos.final for pos in positions)
    assert any("-" in name for pos in positions for move in pos.legal_moves() for name in move.sets)
    settings = ScoreSettings(root_nodes=2000, min_moves=2)
    for pos in positions:
        assert native.ranked_turns(pos, WEIGHTS) == ranked_turns(pos, WEIGHTS), pos.fen()
        assert evaluate(pos, settings) == evaluate_plain(pos, settings), pos.fen()
