"""The faster methods behind puzzles from games (issue #31, throughput), each against the
plain method it replaces: the same games, the same searches, the same puzzles."""

from __future__ import annotations

import random
from typing import Any

import pytest

from boardproof import models
from boardproof.match import selfplay
from boardproof.match.selfplay import SelfPlaySettings, play_game
from boardproof.models.collexion import puzzles as collexion_puzzles
from boardproof.models.collexion import turnsearch
from boardproof.models.collexion.endgames import endgame
from boardproof.models.collexion.evaluation import BoxIndex, ranked_turns
from boardproof.models.collexion.puzzles import ScoreSettings
from boardproof.models.collexion.rules import hand_in_options, hand_in_options_plain
from boardproof.puzzles.mining import GameLine, Mining, mine_game, mining_settings
from boardproof.solvers.common import Budget, SearchTimeout
from boardproof.solvers.search import INF, ScoreSearch


def _analyse_move(position: Any, budget: int, seed: int, exact: bool) -> Any:
    """The plain method: the move of a full ``analyse`` (report, ranked moves, line)."""
    from boardproof.solvers.analyse import analyse

    found = analyse(position, iterations=budget, seed=seed, multipv=1, proof=False,
                    exact=exact)  # fmt: skip
    return found.best_move


#: (game, options, start, iterations, games): every tree self-play grows (the native trees
#: of Minefield, Carpniches, Candy Conquest with 2 and with 3-4 players; ColleXion's turn
#: search; the Python MCTS of the pinwheel)
SELFPLAY_CASES = [
    ("minefield", {}, {"size": 5}, (3, 50), 3),
    ("minefield", {"variant": "pinwheel"}, {"size": 5}, (3, 30), 2),
    ("carpniches", {}, {}, (20, 100), 2),
    ("candy", {}, {"players": 2}, (20, 200), 2),
    ("candy", {}, {"players": 3}, (20, 200), 2),
    ("candy", {}, {"players": 4}, (20, 200), 2),
    ("collexion", {}, {}, (1, 4), 1),
]


@pytest.mark.parametrize(("game", "options", "start", "iterations", "games"), SELFPLAY_CASES)
def test_selfplay_tree_move_gives_the_games_of_analyse(
    monkeypatch: pytest.MonkeyPatch, game: str, options: dict[str, Any],
    start: dict[str, Any], iterations: tuple[int, int], games: int,
) -> None:  # fmt: skip
    settings = SelfPlaySettings(game, options, start, games=games, seed=3,
                                iterations=iterations,
                                opening_plies=0 if game == "collexion" else 2)  # fmt: skip
    fast = [play_game((settings, index)) for index in range(games)]
    monkeypatch.setattr(selfplay, "_engine_move", _analyse_move)
    plain = [play_game((settings, index)) for index in range(games)]
    assert fast == plain
    assert all(len(record["selfplay"]["budgets"]) > 0 for record in fast)


# ---------------------------------------------------------------------------
# ColleXion: the exact score search's children from successors(); the turn ranking kept
# ---------------------------------------------------------------------------


class _PlayedScoreSearch(ScoreSearch):
    """The plain method: every child made by ``play`` after ``legal_moves``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.successors = False


def _run(search: ScoreSearch, pos: Any) -> tuple[Any, ...]:
    try:
        value: int | None = search.search(pos, 10_000, -INF, INF)
    except SearchTimeout:
        value = None
    return value, search.nodes, search.horizon, search.reps, dict(search.tt.new)


#: seeded endgames (seed, box size): small ones the search settles, larger ones that run
#: out of the node budget part way
ENDGAMES = [(1, 7), (2, 8), (3, 9), (4, 10), (5, 12), (6, 14)]


@pytest.mark.parametrize(("seed", "size"), ENDGAMES)
def test_score_search_from_successors_matches_play(seed: int, size: int) -> None:
    pos = endgame(seed, size)
    fast = ScoreSearch(pos, budget=Budget(None, 3000))
    assert fast.successors and not fast.canonical
    plain = _PlayedScoreSearch(pos, budget=Budget(None, 3000))
    assert _run(fast, pos) == _run(plain, pos)
    # the table's move first (played), then the children of successors(): a second search
    # of every child, as the puzzle evaluation does, over the table the first one left
    pairs = list(zip(pos.successors(), pos.successors(), strict=True))
    for (move, child), (_, again) in pairs[:12] + pairs[-4:]:
        assert _run(fast, child) == _run(plain, again), move


@pytest.mark.parametrize(("seed", "size"), ENDGAMES[:4])
def test_collexion_puzzle_evaluation_is_unchanged(monkeypatch: pytest.MonkeyPatch,
                                                  seed: int, size: int) -> None:  # fmt: skip
    settings = ScoreSettings(root_nodes=20_000)
    pos = endgame(seed, size)
    fast = collexion_puzzles.evaluate_plain(pos, settings)  # the Python search (C: elsewhere)
    monkeypatch.setattr(collexion_puzzles, "ScoreSearch", _PlayedScoreSearch)
    assert collexion_puzzles.evaluate_plain(pos, settings) == fast


def test_collexion_mining_finds_the_same_puzzles(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = SelfPlaySettings("collexion", games=3, seed=5, iterations=(1, 6),
                                opening_plies=0)  # fmt: skip
    game = models.get("collexion")
    lines = [GameLine({"record": r["id"]}, game.parse_position(r["start"]), tuple(r["moves"]))
             for r in (play_game((settings, index)) for index in range(3))]  # fmt: skip
    rules, mining = mining_settings("collexion"), Mining(depth=40, per_game=3)
    # the Python search (the C one: tests/test_collexion_native.py)
    monkeypatch.setattr(collexion_puzzles, "score_search", lambda pos, nodes: None)
    fast = [mine_game(line, rules, mining) for line in lines]
    monkeypatch.setattr(collexion_puzzles, "ScoreSearch", _PlayedScoreSearch)
    plain = [mine_game(line, rules, mining) for line in lines]
    assert fast == plain
    assert sum(len(found["puzzles"]) for found in fast) >= 1


def test_turn_ranking_kept_gives_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = SelfPlaySettings("collexion", games=1, seed=7, iterations=(2, 8),
                                opening_plies=0)  # fmt: skip
    turnsearch.shared_ranked_turns.cache_clear()
    kept = [play_game((settings, 0))]
    assert turnsearch.shared_ranked_turns.cache_info().hits > 0

    def plain(pos: Any, weights: Any) -> tuple[Any, ...]:
        return tuple(ranked_turns(pos, weights))

    monkeypatch.setattr(turnsearch, "shared_ranked_turns", plain)
    assert [play_game((settings, 0))] == kept


def _collexion_positions() -> list[Any]:
    """Every position of a short seeded ColleXion self-play game, and seeded endgames."""
    settings = SelfPlaySettings("collexion", games=1, seed=11, iterations=(1, 2),
                                opening_plies=0)  # fmt: skip
    record = play_game((settings, 0))
    game = models.get("collexion")
    line = GameLine({}, game.parse_position(record["start"]), tuple(record["moves"]))
    return [*line.positions()[:-1], *(endgame(seed, size) for seed, size in ENDGAMES)]


def test_successors_made_as_read_are_the_played_children() -> None:
    for pos in _collexion_positions()[-12:]:
        played = [(move, pos.play(move)) for move in pos.legal_moves()]
        children = pos.successors()
        head = next(iter(children), None)  # one read, then the rest
        assert head == (played[0] if played else None)
        assert list(children) == played and len(children) == len(played)
        assert list(pos.successors()) == played
        if played:
            assert pos.successors()[-1] == played[-1]


def test_hand_in_options_kept_match_the_plain_ones() -> None:
    rng = random.Random(5)
    for _ in range(400):
        coll = tuple(rng.choice((0, 0, 1, 1, 2)) for _ in range(16))
        tokens = tuple(sorted(rng.sample(range(1, 9), rng.randrange(3))))
        piles = tuple(tuple(sorted(rng.sample(range(2, 9), rng.randrange(4)), reverse=True))
                      for _ in range(4))  # fmt: skip
        assert hand_in_options(coll, tokens, piles) == hand_in_options_plain(coll, tokens, piles)
        assert hand_in_options(coll, tokens, piles) == hand_in_options_plain(coll, tokens, piles)


def test_box_features_from_the_pieces_gone_match_the_plain_ones() -> None:
    checked = 0
    for pos in _collexion_positions():
        index = BoxIndex.of(pos)
        masks = [index.full & ~taken for taken in index.takes(index.full)]
        for present in [index.full, *masks, *(m & n for m in masks[:20] for n in masks[:20])]:
            assert index.features(present) == index.features_plain(present)
            checked += 1
    assert checked > 1000
