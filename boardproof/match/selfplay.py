"""Self-play: games of the engine against itself at varied, seeded strength, as records.

The games puzzles are mined from (``boardproof puzzle selfplay``, then ``boardproof puzzle
generate --from-games``): neither perfect nor random. Game ``i`` (from 0) of a run seeded
``seed`` owns its generator (seeded from ``"boardproof-selfplay:<game>:<seed>:<i>"``): it
opens with ``opening_plies`` random legal plies (:func:`~boardproof.match.openings.random_opening`,
opening ``i``), then every move is the choice of
:func:`~boardproof.solvers.analyse.analyse` (the engine ``analyse`` and ``match`` play)
with a budget of MCTS iterations drawn for that move, log-uniformly from ``iterations``
(``(low, high)``), and a seed drawn with it. A game whose start is dealt (ColleXion's
``seed``) gets its own deal, from the run's seed and ``i``, unless the start options
name one. Iteration budgets and seeds only: the same
seed gives the same games on every machine and with any number of workers.

With ``policy`` (a range of strengths, for a game whose engine has a self-play policy:
Candy Conquest), every move after the opening is the engine's threat-aware policy's
(:class:`~boardproof.models.base.Engine` ``policy_game``) at a strength ``care`` drawn
for the game uniformly from the range, with a seed drawn with it (no MCTS: a game costs
about a millisecond); the record's ``selfplay`` says ``policy``: ``{"care": ...}``.

A game ends by the rules, drawn at the third occurrence of a position (Carpniches'
repetition rule; the other games never repeat one) or drawn at ``max_plies``. Each record
is the JSON form that ``boardproof review`` reads
(:func:`boardproof.review.record.record_to_json`), with an ``id``
(``selfplay-<game>-<seed>-<number>``) and a ``selfplay`` object: ``number`` (from 1),
``seed``, ``iterations`` (the range), ``opening`` (its random plies), ``end`` and
``budgets`` (the iterations of every engine move, in order).

>>> settings = SelfPlaySettings("minefield", {}, {"size": 4}, games=2, seed=1,
...                             iterations=(5, 40))
>>> records = [play_game((settings, index)) for index in range(2)]
>>> [(r["id"], len(r["moves"]), r["selfplay"]["end"]) for r in records]
[('selfplay-minefield-1-1', 10, 'rules'), ('selfplay-minefield-1-2', 11, 'rules')]
>>> play_game((settings, 0)) == records[0]
True
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from boardproof import models
from boardproof.match.openings import derive_seed, random_opening
from boardproof.match.runner import REPETITION_LIMIT
from boardproof.models.base import Game, InvalidOptionError, Outcome, Position, quoted
from boardproof.solvers.seeding import draw_iterations

#: the iteration range of a move when none is given, by game (:data:`DEFAULT_ITERATIONS`
#: for another): weak enough that the players miss wins that puzzles are made of, strong
#: enough that the games look like games (measured: benchmarks/puzzles_from_games.py;
#: ColleXion 1-10, where one iteration is its evaluation's best turn: 0.6 puzzles a game
#: for half the play of 2-20, /work/notes/results-mining-throughput.md)
ITERATIONS = {"minefield": (3, 50), "carpniches": (20, 300), "candy": (100, 1000),
              "collexion": (1, 10)}  # fmt: skip
DEFAULT_ITERATIONS = (20, 300)


def default_iterations(game: str) -> tuple[int, int]:
    """The iteration range of a move of ``game`` when none is given.

    >>> default_iterations("candy"), default_iterations("other")
    ((100, 1000), (20, 300))
    """
    return ITERATIONS.get(game, DEFAULT_ITERATIONS)
#: the most games one run plays (more is a typo)
MAX_GAMES = 100_000


@dataclass(frozen=True)
class SelfPlaySettings:
    """Everything a self-play run (and each of its games) needs, as plain data."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)  # game options (``--variant``)
    start: dict[str, Any] = field(default_factory=dict)  # start options (``--size``)
    games: int = 10
    seed: int = 0
    iterations: tuple[int, int] = DEFAULT_ITERATIONS
    opening_plies: int = 2
    max_plies: int | None = None
    #: the engine's exact search first (as ``analyse`` does): stronger, slower endings
    exact: bool = False
    #: ``(low, high)``: after the opening, the game is played by the engine's threat-aware
    #: policy (``Engine.policy_game``) at a strength ``care`` drawn for the game uniformly
    #: from this range, instead of MCTS iterations (Candy Conquest with 3-4 players)
    policy: tuple[float, float] | None = None

    def make_game(self) -> Game:
        game: Game = models.get(self.game, **self.options)
        return game

    def start_position(self, index: int = 0) -> Position:
        """The start of game ``index``: a game whose start takes a ``seed`` (ColleXion's
        deal) and is given none deals each game from the run's seed."""
        game = self.make_game()
        start = dict(self.start)
        if "seed" not in start and any(spec.name == "seed" and spec.scope == "start"
                                       for spec in game.info.options):  # fmt: skip
            start["seed"] = derive_seed(self.seed, "deal", index)
        return game.start(**start)


def check_settings(settings: SelfPlaySettings) -> Position:
    """Refuse settings that cannot be played, before any game (InvalidOptionError naming
    the option); returns the start position."""
    if not 1 <= settings.games <= MAX_GAMES:
        raise InvalidOptionError(
            f"invalid option games: expected 1 to {MAX_GAMES}, got {settings.games!r}"
        )
    low, high = settings.iterations
    if not 1 <= low <= high:
        raise InvalidOptionError(
            f"invalid option iterations: expected LOW-HIGH with 1 <= LOW <= HIGH, got "
            f"'{low}-{high}'"
        )
    if settings.opening_plies < 0:
        raise InvalidOptionError(
            f"invalid option opening_plies: expected >= 0, got {settings.opening_plies!r}"
        )
    if settings.max_plies is not None and settings.max_plies < 1:
        raise InvalidOptionError(
            f"invalid option max_plies: expected >= 1, got {settings.max_plies!r}"
        )
    start = settings.start_position()
    if start.outcome() is not None:
        raise InvalidOptionError(
            f"invalid position: the game is over at the start: {quoted(start.fen())}"
        )
    if settings.policy is not None:
        care_low, care_high = settings.policy
        if not 0.0 <= care_low <= care_high <= 1.0:
            raise InvalidOptionError(
                f"invalid option policy: expected LOW-HIGH with 0 <= LOW <= HIGH <= 1, got "
                f"'{care_low}-{care_high}'"
            )
        engine = start.game.info.part("engine")
        if engine is None or engine.policy_game is None:
            raise InvalidOptionError(
                f"invalid option policy: {settings.game} has no self-play policy "
                "(Candy Conquest has one)"
            )
    random_opening(start, settings.opening_plies, seed=settings.seed, index=0)
    return start


def parse_iterations(text: str, option: str = "--iterations") -> tuple[int, int]:
    """``LOW-HIGH`` (or one number N, for N-N) as a range of iterations.

    >>> parse_iterations("50-800"), parse_iterations("200")
    ((50, 800), (200, 200))
    >>> parse_iterations("800-50")
    Traceback (most recent call last):
    ...
    boardproof.models.base.InvalidOptionError: invalid option --iterations: expected LOW-HIGH \
with 1 <= LOW <= HIGH, got '800-50'
    """
    low_text, dash, high_text = text.partition("-")
    try:
        low = int(low_text)
        high = int(high_text) if dash else low
        if not 1 <= low <= high:
            raise ValueError(text)
    except ValueError:
        raise InvalidOptionError(
            f"invalid option {option}: expected LOW-HIGH with 1 <= LOW <= HIGH, got {text!r}"
        ) from None
    return low, high


def parse_policy(text: str, option: str = "--policy") -> tuple[float, float]:
    """``LOW-HIGH`` (or one number C, for C-C): the range of the policy's strength ``care``.

    >>> parse_policy("0.7-1"), parse_policy("1")
    ((0.7, 1.0), (1.0, 1.0))
    >>> parse_policy("0.9-0.2")
    Traceback (most recent call last):
    ...
    boardproof.models.base.InvalidOptionError: invalid option --policy: expected LOW-HIGH with \
0 <= LOW <= HIGH <= 1, got '0.9-0.2'
    """
    low_text, dash, high_text = text.partition("-")
    try:
        low = float(low_text)
        high = float(high_text) if dash else low
        if not 0.0 <= low <= high <= 1.0:
            raise ValueError(text)
    except ValueError:
        raise InvalidOptionError(
            f"invalid option {option}: expected LOW-HIGH with 0 <= LOW <= HIGH <= 1, got "
            f"{text!r}"
        ) from None
    return low, high


def _engine_move(position: Position, budget: int, seed: int, exact: bool) -> Any:
    """The move :func:`~boardproof.solvers.analyse.analyse` picks with this budget and
    seed. Without the exact step that is its tree's best move, so the tree is grown and
    asked directly (analyse's report, the ranked moves and the principal line, cost up to
    a third of a game: Candy Conquest at 20-300 iterations; the tests check that both give
    the same games)."""
    from boardproof.solvers.analyse import analyse, make_tree

    if exact:
        found = analyse(position, iterations=budget, seed=seed, multipv=1, proof=False,
                        exact=exact)  # fmt: skip
        return found.best_move
    return _tree_move(make_tree(position, seed=seed, exact=False), budget)


def _tree_move(tree: Any, budget: int) -> Any:
    """Grow ``tree`` by ``budget`` iterations (at least one, as analyse) and name its move."""
    tree.run(iterations=budget)
    if tree.iterations == 0:
        tree.run(iterations=1)
    return tree.best_move()


def play_game(task: tuple[SelfPlaySettings, int]) -> dict[str, Any]:
    """Play game ``index`` of the run; its record (see the module doc)."""
    from boardproof.review.record import make_record, record_to_json

    settings, index = task
    rng = random.Random(f"boardproof-selfplay:{settings.game}:{settings.seed}:{index}")
    start = settings.start_position(index)
    opening = random_opening(start, settings.opening_plies, seed=settings.seed, index=index)
    pos = start
    moves: list[Any] = []
    seen = Counter([start])
    budgets: list[int] = []
    for move in opening:
        pos = pos.play(move)
        moves.append(move)
        seen[pos] += 1
    end = "rules"
    low, high = settings.iterations
    policy: dict[str, Any] | None = None
    if settings.policy is not None and pos.outcome() is None:
        care = rng.uniform(*settings.policy)
        policy = {"care": care}
        limit = None if settings.max_plies is None else max(settings.max_plies - len(moves), 0)
        engine = pos.game.info.part("engine")
        assert engine is not None and engine.policy_game is not None  # (check_settings)
        for move in engine.policy_game(pos, rng.randrange(1 << 63), care, limit):
            pos = pos.play(move)
            moves.append(move)
        if pos.outcome() is None:
            end = "max plies"
    while policy is None and pos.outcome() is None:
        if seen[pos] >= REPETITION_LIMIT:
            end = "repetition"
            break
        if settings.max_plies is not None and len(moves) >= settings.max_plies:
            end = "max plies"
            break
        budget = draw_iterations(rng, low, high)
        move = _engine_move(pos, budget, rng.randrange(1 << 31), settings.exact)
        budgets.append(budget)
        pos = pos.play(move)
        moves.append(move)
        seen[pos] += 1
    record = record_to_json(make_record(start, moves, ending="" if end == "rules" else "draw",
                                        result=None if end == "rules" else Outcome.draw()))
    if settings.options:
        record["options"] = dict(settings.options)
    outcome = pos.outcome()
    if outcome is not None:
        winners = sorted(outcome.winners)
        record["result"] = pos.game.symbol(winners[0]) if len(winners) == 1 else "draw"
    return {
        "id": f"selfplay-{settings.game}-{settings.seed}-{index + 1}",
        **record,
        "selfplay": {"number": index + 1, "seed": settings.seed,
                     "iterations": [low, high], "opening": len(opening), "end": end,
                     "budgets": budgets, **({} if policy is None else {"policy": policy})},
    }  # fmt: skip


def run_selfplay(
    settings: SelfPlaySettings,
    *,
    workers: int = 1,
    progress: bool = True,
    on_game: Callable[[dict[str, Any]], object] | None = None,
) -> list[dict[str, Any]]:
    """Check the settings, then play the games on ``workers`` processes; the records in
    game order (``on_game`` sees each as it finishes)."""
    from boardproof.jobs.executor import run_tasks

    check_settings(settings)
    width = len(str(settings.games))
    tasks = [(f"game {index + 1:>{width}}", (settings, index))
             for index in range(settings.games)]  # fmt: skip
    def finished(key: str, record: dict[str, Any]) -> None:
        if on_game is not None:
            on_game(record)

    done = run_tasks(play_game, tasks, workers=workers, progress=progress,
                     description="selfplay", on_result=finished)  # fmt: skip
    return [done[key] for key, _ in tasks]


def write_games(path: str, records: list[dict[str, Any]], option: str = "--out") -> None:
    """Write the records as JSON Lines (one record a line); a failure is the option's
    error (exit status 2)."""
    try:
        with open(path, "w", encoding="utf-8") as handle:
            for record in records:
                handle.write(json.dumps(record, separators=(",", ":")) + "\n")
    except OSError as error:
        raise InvalidOptionError(
            f"invalid option {option}: cannot write ({error.strerror or error}): {quoted(path)}"
        ) from None
