"""Playing a match: the games, in parallel, and what they add up to.

Game ``i`` (from 0) starts from opening ``i // 2`` (:mod:`boardproof.match.openings`);
player A moves first in the even games and second in the odd ones, so each opening is
played once each way. Each game is one task of :func:`boardproof.jobs.executor.run_tasks`
(``workers`` processes): it carries everything it needs, and the engines' seeds come from
the match seed, the game number and the player, so a match gives the same games whatever
the number of workers (with ``iterations`` budgets; a ``time`` budget depends on the
machine). A game ends by the rules, by a GTP engine's resignation, drawn at the third
occurrence of a position (Carpniches' repetition rule; the other games never repeat one),
or drawn at ``max_plies``.

>>> from boardproof.match.players import EngineSpec
>>> settings = MatchSettings("minefield", {}, {"size": 4}, EngineSpec(iterations=30),
...                          EngineSpec(iterations=30), games=2, seed=1, opening_plies=2)
>>> result = run_match(settings, progress=False)
>>> [(r["players"], r["result"], r["match"]["score_a"]) for r in result.records]
[(['A', 'B'], 'b', 1.0), (['B', 'A'], 'b', 0.0)]
>>> result.standing("A vs B")
Standing(wins=1, draws=0, losses=1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from boardproof import models
from boardproof.match.elo import Standing, elo_text
from boardproof.match.openings import derive_seed, random_opening
from boardproof.match.players import (
    PlayerSpec,
    check_command,
    check_engine,
    make_player,
)
from boardproof.models.base import Game, InvalidOptionError, Position

#: the labels of the two players, and the options that set them
LABELS = ("A", "B")
OPTIONS = {"A": "--a", "B": "--b"}
#: a position that occurs this often draws the game (Carpniches' repetition rule)
REPETITION_LIMIT = 3
#: how a game ends (the records' ``end``), and how the summary says it
ENDS = {"rules": "by the rules", "resignation": "by resignation",
        "repetition": "at the third repetition", "max plies": "at the ply limit"}  # fmt: skip


@dataclass(frozen=True)
class MatchSettings:
    """Everything a match (and each of its games) needs, as plain data."""

    game: str
    options: dict[str, Any]  # the game options (``--win``)
    start: dict[str, Any]  # the start options (``--size``)
    a: PlayerSpec
    b: PlayerSpec
    games: int = 10
    seed: int = 0  # the match seed: the openings and the engines' seeds
    opening_plies: int = 2
    max_plies: int | None = None

    def spec(self, label: str) -> PlayerSpec:
        return self.a if label == "A" else self.b

    def make_game(self) -> Game:
        game: Game = models.get(self.game, **self.options)
        return game

    def start_position(self) -> Position:
        return self.make_game().start(**self.start)


def check_match(settings: MatchSettings) -> Position:
    """Refuse a match that cannot be played, before any game (InvalidOptionError, or a
    MatchError from a GTP engine that does not start); returns the start position."""
    from boardproof.solvers.common import num_players

    if settings.games < 1:
        raise InvalidOptionError(f"invalid option games: expected >= 1, got {settings.games!r}")
    if settings.opening_plies < 0:
        raise InvalidOptionError(
            f"invalid option opening_plies: expected >= 0, got {settings.opening_plies!r}"
        )
    if settings.max_plies is not None and settings.max_plies < 1:
        raise InvalidOptionError(
            f"invalid option max_plies: expected >= 1, got {settings.max_plies!r}"
        )
    start = settings.start_position()
    players = num_players(start)
    if players != 2:
        raise InvalidOptionError(
            f"invalid option players: a match is two players, A against B (the score and "
            f"the Elo difference compare two), got {players}"
        )
    if start.outcome() is not None:
        raise InvalidOptionError(f"invalid position: the game is over at the start: "
                                 f"{start.fen()!r}")  # fmt: skip
    for label in LABELS:
        check_command(settings.spec(label), OPTIONS[label])
    random_opening(start, settings.opening_plies, seed=settings.seed, index=0)
    for label in LABELS:
        check_engine(settings.spec(label), start, OPTIONS[label])
    return start


def labels_of(index: int) -> tuple[str, str]:
    """Who plays each side in game ``index``: A first in the even games.

    >>> labels_of(0), labels_of(1)
    (('A', 'B'), ('B', 'A'))
    """
    return ("A", "B") if index % 2 == 0 else ("B", "A")


def play_game(task: tuple[MatchSettings, int]) -> dict[str, Any]:
    """Play game ``index`` of the match; its record (:func:`game_record`)."""
    settings, index = task
    game = settings.make_game()
    start = game.start(**settings.start)
    opening = random_opening(start, settings.opening_plies, seed=settings.seed,
                             index=index // 2)  # fmt: skip
    labels = labels_of(index)
    players = []
    try:
        for label in labels:
            spec = settings.spec(label)
            seed = derive_seed(settings.seed, "engine", index, label,
                               getattr(spec, "seed", 0))  # fmt: skip
            players.append(make_player(spec, game, OPTIONS[label], seed))
        for player in players:
            player.new_game(start)
        pos = start
        moves: list[Any] = []
        positions = [start]
        seen = Counter([start])
        for move in opening:
            for player in players:
                player.play(move)
            pos = pos.play(move)
            moves.append(move)
            positions.append(pos)
            seen[pos] += 1
        end = "rules"
        resigned: int | None = None
        while pos.outcome() is None:
            if seen[pos] >= REPETITION_LIMIT:
                end = "repetition"
                break
            if settings.max_plies is not None and len(moves) >= settings.max_plies:
                end = "max plies"
                break
            mover = pos.to_move
            move = players[mover].genmove()
            if move is None:
                end, resigned = "resignation", mover
                break
            for seat, player in enumerate(players):
                if seat != mover:
                    player.play(move)
            pos = pos.play(move)
            moves.append(move)
            positions.append(pos)
            seen[pos] += 1
    finally:
        for player in players:
            player.close()
    return game_record(settings, index, positions, moves, len(opening), end, resigned)


def game_record(settings: MatchSettings, index: int, positions: list[Position],
                moves: list[Any], opening: int, end: str,
                resigned: int | None) -> dict[str, Any]:  # fmt: skip
    """A played game as a record in the JSON form that ``boardproof review`` reads
    (:func:`boardproof.review.record.record_to_json`): ``game``, ``options`` (when given),
    ``start``, ``moves``, ``players`` (the labels by player: ``["A", "B"]`` when A moves
    first), ``result`` (the winner's symbol, or ``draw``) and, for a game the moves do not
    end, ``ending`` (``resign``; ``draw`` for a repetition or the ply limit); then what the
    match adds, under ``match``: ``number`` (from 1), ``opening`` (its random plies),
    ``end`` (one of :data:`ENDS`), ``score_a`` (A's points: 1, 1/2 or 0) and
    ``settings`` (by label)."""
    from boardproof.review.record import Record, RecordMove, record_to_json

    game = positions[0].game
    labels = labels_of(index)
    winners: list[int] = []
    if resigned is not None:
        winners = [1 - resigned]
    elif end == "rules":
        outcome = positions[-1].outcome()
        assert outcome is not None
        winners = sorted(outcome.winners)
    # a draw, or both players sharing the win (ColleXion's equal scores), is half a point
    score_a = 0.5 if len(winners) != 1 else float(winners[0] == labels.index("A"))
    record = record_to_json(Record(game, positions[0],
                                   [RecordMove(str(m), f"moves[{n}]", m)
                                    for n, m in enumerate(moves)],
                                   positions))  # fmt: skip
    if settings.options:
        record["options"] = dict(settings.options)
    record["players"] = list(labels)
    record["result"] = game.symbol(winners[0]) if len(winners) == 1 else "draw"
    if end != "rules":
        record["ending"] = "resign" if end == "resignation" else "draw"
    record["match"] = {
        "number": index + 1, "opening": opening, "end": end, "score_a": score_a,
        "settings": {label: settings.spec(label).describe() for label in LABELS},
    }  # fmt: skip
    return record


def match_fields(record: dict[str, Any]) -> dict[str, Any]:
    """The ``match`` part of a game's record."""
    fields: dict[str, Any] = record["match"]
    return fields


@dataclass
class MatchResult:
    """The games of a match (``records``, in game order) and their sums."""

    settings: MatchSettings
    start: Position
    records: list[dict[str, Any]] = field(default_factory=list)
    interrupted: bool = False

    def sides(self) -> tuple[str, str]:
        game = self.start.game
        return game.symbol(0), game.symbol(1)

    def row_names(self) -> list[str]:
        first, second = self.sides()
        return ["A vs B", f"A as {first} (first)", f"A as {second} (second)",
                f"{first} vs {second}"]  # fmt: skip

    def standing(self, name: str) -> Standing:
        """The wins, draws and losses of a row: ``A vs B``, A on one side (``A as b
        (first)``), or the first side against the second (``b vs w``)."""
        first, second = self.sides()
        standing = Standing()
        for record in self.records:
            a_first = record["players"][0] == "A"
            points = match_fields(record)["score_a"]
            if name == f"{first} vs {second}":
                standing = standing.add(points if a_first else 1.0 - points)
            elif name == "A vs B" or name.startswith(f"A as {first if a_first else second} "):
                standing = standing.add(points)
        return standing

    def ends(self) -> Counter[str]:
        return Counter(match_fields(record)["end"] for record in self.records)

    def to_json(self) -> dict[str, Any]:
        """The ``match --json`` object."""
        settings = self.settings
        return {
            "game": settings.game,
            "start": self.start.fen(),
            "a": settings.a.describe(),
            "b": settings.b.describe(),
            "games": len(self.records),
            "games_asked": settings.games,
            "opening_plies": settings.opening_plies,
            "openings_seed": settings.seed,
            "rows": [{"name": name, **self.standing(name).to_json()}
                     for name in self.row_names()],
            "ends": {end: count for end, count in sorted(self.ends().items())},
            "interrupted": self.interrupted,
        }  # fmt: skip

    def lines(self) -> list[str]:
        """The text ``match`` prints: the settings, the table and how the games ended."""
        settings = self.settings
        openings = (settings.games + 1) // 2
        plies = f"{settings.opening_plies} random pl{'y' if settings.opening_plies == 1 else 'ies'}"
        played = len(self.records)
        count = f"{played} of {settings.games} games" if played != settings.games else (
            f"{played} game{'s' if played != 1 else ''}")  # fmt: skip
        lines = [
            f"match: {settings.game} from {self.start.fen()}, {count}, {openings} "
            f"opening{'s' if openings != 1 else ''} of {plies} (seed {settings.seed}) "
            "played with colours swapped",
            f"A: {settings.a.describe()}",
            f"B: {settings.b.describe()}",
        ]
        names = self.row_names()
        width = max(len(name) for name in names)
        lines.append(f"{'':<{width}}  games  wins  draws  losses  score  score 95%     "
                     f"elo   elo 95%")  # fmt: skip
        for name in names:
            standing = self.standing(name)
            low, high = standing.score_interval
            elo_low, elo_high = standing.elo_interval
            lines.append(
                f"{name:<{width}}  {standing.games:>5}  {standing.wins:>4}  "
                f"{standing.draws:>5}  {standing.losses:>6}  {standing.score:.3f}  "
                f"{low:.3f}-{high:.3f}  {elo_text(standing.elo):>4}  "
                f"{elo_text(elo_low)} to {elo_text(elo_high)}"
            )
        ends = self.ends()
        parts = [f"{ends[end]} {how}" for end, how in ENDS.items() if ends[end]]
        lines.append("ended: " + (", ".join(parts) or "no game played"))
        return lines


def run_match(
    settings: MatchSettings,
    *,
    workers: int = 1,
    progress: bool = True,
    on_game: Callable[[dict[str, Any]], object] | None = None,
) -> MatchResult:
    """Check the match (:func:`check_match`), then play its games on ``workers``
    processes (progress lines on stderr). After Ctrl-C the games finished so far are
    returned, with ``interrupted`` set. ``on_game`` gets each record as it finishes."""
    from boardproof.jobs.executor import run_tasks

    start = check_match(settings)
    result = MatchResult(settings, start)
    done: dict[int, dict[str, Any]] = {}
    tally = [Standing()]

    def finished(key: str, record: dict[str, Any]) -> None:
        done[match_fields(record)["number"]] = record
        tally[0] = tally[0].add(match_fields(record)["score_a"])
        if on_game is not None:
            on_game(record)

    def status(count: int) -> str:
        standing = tally[0]
        return (f"{count}/{settings.games} games; A +{standing.wins} ={standing.draws} "
                f"-{standing.losses}")  # fmt: skip

    width = len(str(settings.games))
    tasks = [(f"game {index + 1:>{width}}", (settings, index)) for index in range(settings.games)]
    try:
        run_tasks(play_game, tasks, workers=workers, progress=progress, description="match",
                  on_result=finished, status=status)  # fmt: skip
    except KeyboardInterrupt:
        result.interrupted = True
    result.records = [done[number] for number in sorted(done)]
    return result
