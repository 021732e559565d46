"""``boardproof puzzle daily|generate|selfplay|check|compact``: thin wrappers over
:mod:`boardproof.puzzles` (and :mod:`boardproof.match.selfplay` for the self-play games
puzzles are mined from)."""

from __future__ import annotations

import functools
import os
from typing import Any

import click

from boardproof import models
from boardproof.commands.common import (
    SECONDS,
    check_output_path,
    check_workers,
    echo_json,
    game_options,
    start_options_apart,
)
from boardproof.models.base import InvalidOptionError
from boardproof.puzzles import PuzzleError


def moves_phrase(plies: int, players: int = 2) -> str:
    """How many own moves a win in ``plies`` plies takes (the other ``players`` move
    between them).

    >>> moves_phrase(1), moves_phrase(5), moves_phrase(4, players=3)
    ('1 move', '3 moves', '2 moves')
    """
    own = (plies - 1) // players + 1
    return f"{own} move" if own == 1 else f"{own} moves"


def describe_puzzle(puzzle: dict[str, Any]) -> list[str]:
    """The text lines of a puzzle, the solution last, after a ``solution:`` label."""
    from boardproof.solvers.common import num_players

    game = models.get(puzzle["game"], **puzzle.get("options", {}))
    pos = game.parse_position(puzzle["position"])
    title = puzzle.get("date") or puzzle.get("id", "")
    side = puzzle["to_move"]
    plies = puzzle["plies"]
    lines = [f"{puzzle['game']} puzzle {title}  ({rating_phrase(puzzle)})"]
    lines += pos.board_text().splitlines()
    if puzzle.get("options"):  # the notation does not carry the game options (a variant)
        lines.append("options: " + " ".join(f"{k}={v}" for k, v in puzzle["options"].items()))
    if puzzle.get("objective") == "score":
        lines += [
            f"position: {puzzle['position']}",
            f"to move: {side}",
            f"task: {side} to play the best turn (the best final score difference against "
            "best play); exactly one turn is best, by at least 1 point",
            "",
            "(spoiler below)",
            f"solution: {puzzle['solution']}",
            f"score: {puzzle['score']:+d} (every other turn at least {puzzle['margin']} less)",
            "line: " + " ".join(puzzle["pv"]),
        ]
        if puzzle.get("decoys"):
            lines.append("close (within 2 points): " + " ".join(puzzle["decoys"]))
        return lines
    lines += [
        f"position: {puzzle['position']}",
        f"to move: {side}",
        f"task: {side} to play and win in {plies} plies "
        f"({moves_phrase(plies, num_players(pos))} of {side}); "
        "exactly one first move wins",
        "",
        "(spoiler below)",
        f"solution: {puzzle['solution']}",
    ]
    lines.append("line: " + " ".join(puzzle["pv"]))
    if puzzle.get("decoys"):
        lines.append("decoys (win, but too slowly): " + " ".join(puzzle["decoys"]))
    return lines


def rating_phrase(puzzle: dict[str, Any]) -> str:
    """The puzzle's rating and label: the search-measured ``difficulty`` where it has one
    (with its iterations), else the formula's ``rating``.

    >>> rating_phrase({"rating": {"rating": 1480, "label": "medium"}})
    'rating 1480, medium'
    >>> rating_phrase({"rating": {"rating": 1480, "label": "medium"}, "difficulty":
    ...     {"rating": 1900, "label": "hard", "found": True, "iterations": 176}})
    'rating 1900, hard: the engine settles on the solution after 176 iterations'
    """
    measured = puzzle.get("difficulty")
    if not (isinstance(measured, dict) and "rating" in measured):
        return f"rating {puzzle['rating']['rating']}, {puzzle['rating']['label']}"
    text = f"rating {measured['rating']}, {measured['label']}: the engine "
    if measured.get("found"):
        return text + f"settles on the solution after {measured['iterations']} iterations"
    return text + f"has not settled on the solution after {measured['limit']} iterations"


def show_found(out_file: str | None, puzzle: dict[str, Any]) -> None:
    """Print a puzzle as it is found: its JSON line, or (writing a file) a summary."""
    if out_file is None:
        from boardproof.puzzles.store import dumps

        click.echo(dumps(puzzle))
    else:
        rating = puzzle.get("difficulty") or puzzle["rating"]
        if puzzle.get("objective") == "score":
            task = (
                f"{puzzle['to_move']} best turn {puzzle['solution']} "
                f"({puzzle['score']:+d}, by {puzzle['margin']})"
            )
        else:
            task = f"{puzzle['to_move']} wins in {puzzle['plies']} ({puzzle['solution']})"
        click.echo(
            f"{puzzle['id']}: {task}, rating {rating['rating']} {rating['label']}: "
            f"{puzzle['position']}"
        )


def default_checkpoint(out_file: str) -> str:
    """The checkpoint of a run writing ``out_file``: beside it.

    >>> default_checkpoint("runs/puzzles.jsonl")
    'runs/puzzles.checkpoint.jsonl'
    """
    base, _ = os.path.splitext(out_file)
    return base + ".checkpoint.jsonl"


@click.group(name="puzzle")
def puzzle_group() -> None:
    """Proven puzzles: the daily puzzle, generation and re-checking."""

@puzzle_group.command(name="daily")
@click.argument("game")
@click.option("--date", "date_text", default=None, metavar="YYYY-MM-DD",
              help="The day (default: today, UTC).")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--from-set", "from_set", type=click.Path(dir_okay=False), default=None,
              metavar="FILE",
              help="Take the day's puzzle from the puzzles of FILE (e.g. mined with "
                   "'puzzle generate --from-games') instead of generating it.")  # fmt: skip
def daily_command(game: str, date_text: str | None, as_json: bool,
                  from_set: str | None) -> None:  # fmt: skip
    """The puzzle of the day for GAME: the same on every machine.

    \b
    Example:
      boardproof puzzle daily minefield --date 2026-11-29
      boardproof puzzle daily minefield --date 2026-11-29 --from-set mined.jsonl
    """
    from boardproof.puzzles.daily import daily_puzzle, parse_date
    from boardproof.puzzles.generate import puzzle_game

    name = puzzle_game(game)
    date = parse_date(date_text) if date_text is not None else None
    if from_set is not None:
        from boardproof.puzzles.daily import daily_from_set
        from boardproof.puzzles.store import read_puzzles

        chosen = daily_from_set(name, read_puzzles(from_set), date)
        if as_json:
            echo_json(chosen)
            return
        for line in describe_puzzle(chosen):
            click.echo(line)
        return
    from boardproof.puzzles.daily import DAILY_MAX_TASKS
    from boardproof.puzzles.played import played

    day = date.isoformat() if date is not None else "today"
    spec = played(name)  # mined from self-play games (Minefield), else generator tasks
    most = f"{spec.max_games} self-play games" if spec else f"{DAILY_MAX_TASKS} tasks"
    click.echo(f"puzzle daily {name} {day}: searching (at most {most})",
               err=True)  # fmt: skip
    puzzle = daily_puzzle(name, date, progress=True)  # then a line per task tried
    if as_json:
        echo_json(puzzle)
        return
    for line in describe_puzzle(puzzle):
        click.echo(line)

@puzzle_group.command(name="generate")
@click.argument("game")
@click.option("--count", type=int, default=None,
              help="How many puzzles (>= 1; required unless --from-games: then the most).")
@click.option("--from-games", "from_games", type=click.Path(), default=None,
              metavar="FILE",
              help="Mine the game records of FILE (boardproof's JSON or text form, JSON "
                   "Lines of them, or AbstractPlay's; a folder of them; - for stdin) "
                   "instead of random playouts.")
@click.option("--per-game", "per_game", type=int, default=None,
              help="With --from-games: most puzzles a game (default 1).")
@click.option("--depth", type=int, default=None,
              help="With --from-games: positions tried a game, from the end (default 24).")
@click.option("--seed", type=int, default=0, show_default=True, help="Generator seed.")
@click.option("--out", "out_file", type=click.Path(dir_okay=False), default=None,
              help="Write the puzzles to FILE (JSON Lines); default: stdout.")  # fmt: skip
@click.option("--workers", type=int, default=1, show_default=True,
              help="Local worker processes.")  # fmt: skip
@click.option("--scheduler", default=None, metavar="ADDR",
              help="Dask: tcp://HOST:PORT of a scheduler, or local:N (boardproof[cluster]).")
@click.option("--min-plies", type=int, default=None, help="Shortest win (default 3).")
@click.option("--max-plies", type=int, default=None,
              help="Longest win (default: 5; Candy Conquest 3).")  # fmt: skip
@click.option("--timeout", type=SECONDS, default=None,
              help="Seconds per candidate, a safety net (default 20).")  # fmt: skip
@click.option("--checkpoint", type=click.Path(dir_okay=False), default=None,
              help="Keep finished tasks in FILE (kept; default with --out: "
                   "OUT.checkpoint.jsonl, deleted when the run ends).")  # fmt: skip
@click.option("--fresh", is_flag=True, help="Ignore (delete) an existing checkpoint.")
@click.option("--difficulty", "measured", is_flag=True,
              help="Measure each puzzle's difficulty by search (as the daily puzzles: "
                   "the reference calibration; about 0.01-0.4 s CPU a puzzle).")
@game_options
def generate_command(
    game: str,
    count: int | None,
    from_games: str | None,
    per_game: int | None,
    depth: int | None,
    seed: int,
    out_file: str | None,
    workers: int,
    scheduler: str | None,
    min_plies: int | None,
    max_plies: int | None,
    timeout: float | None,
    checkpoint: str | None,
    fresh: bool,
    measured: bool,
    options: dict[str, Any],
) -> None:
    """Generate COUNT proven puzzles of GAME from seeded random playouts (in the game
    its options make, e.g. Minefield's --variant; the puzzles carry them).

    \b
    With --out (or --checkpoint) every finished task is kept in a checkpoint: run the
    same command again after an interruption and it resumes (the same puzzles as an
    uninterrupted run).

    \b
    With --from-games FILE the puzzles are mined from the games of FILE instead: each
    game's positions from the end backwards (--depth of them, both sides to move), at
    most --per-game puzzles a game; each puzzle's source names the record and the ply.

    \b
    Example:
      boardproof puzzle generate carpniches --count 3 --seed 1 --out puzzles.jsonl
      boardproof puzzle generate minefield --from-games games.jsonl --out mined.jsonl
    """
    from boardproof.puzzles.generate import MAX_COUNT, generate, settings_for
    from boardproof.puzzles.store import write_puzzles

    if from_games is not None:
        if options:
            name = next(iter(options))
            raise InvalidOptionError(f"invalid option --{name}: the game records carry "
                                     f"their own, got {options[name]!r}")  # fmt: skip
        _mine_command(game, count, from_games, per_game, depth, out_file, workers,
                      scheduler, min_plies, max_plies, timeout, checkpoint, fresh)
        return
    for flag, value in (("--per-game", per_game), ("--depth", depth)):
        if value is not None:
            raise InvalidOptionError(f"invalid option {flag}: only with --from-games, "
                                     f"got {value!r}")  # fmt: skip
    if count is None:
        raise InvalidOptionError("invalid option --count: required (unless --from-games)")
    if not 1 <= count <= MAX_COUNT:
        raise PuzzleError(
            f"invalid option --count: expected a number from 1 to {MAX_COUNT}, got {count!r}"
        )
    check_workers(workers, scheduler)
    if timeout is not None and timeout <= 0:
        raise InvalidOptionError(f"invalid option --timeout: expected > 0, got {timeout!r}")
    settings = settings_for(game, min_plies=min_plies, max_plies=max_plies, timeout=timeout)
    check_output_path(out_file, "--out")  # fail now, not after the search
    path = checkpoint or (default_checkpoint(out_file) if out_file is not None else None)
    if fresh and path is not None and os.path.exists(path):
        os.remove(path)

    from boardproof.jobs.executor import Executor

    rated: dict[str, dict[str, Any]] = {}

    def finish(puzzle: dict[str, Any]) -> dict[str, Any]:
        """The puzzle as shown and written: measured once with --difficulty."""
        if not measured:
            return puzzle
        if puzzle["id"] not in rated:
            from boardproof.puzzles.difficulty import with_difficulty

            rated[puzzle["id"]] = with_difficulty(puzzle)
        return rated[puzzle["id"]]

    with Executor(workers, scheduler) as executor:
        result = generate(game, count, seed, settings, executor=executor,
                          progress=out_file is not None, checkpoint=path, game_options=options,
                          on_puzzle=lambda p: show_found(out_file, finish(p)))  # fmt: skip
    if out_file is not None:
        write_puzzles(out_file, [finish(p) for p in result.puzzles])
    if checkpoint is None and path is not None and os.path.exists(path):
        os.remove(path)  # the default checkpoint: the run is over
    tried = ", ".join(f"{k} {v}" for k, v in sorted(result.counts.items()))
    summary = (
        f"{len(result.puzzles)} puzzles from {result.tasks} tasks in {result.seconds:.1f} s "
        f"(candidates: {tried})"
    )
    if scheduler is not None:
        summary += f"; {executor.describe()}"
        if executor.reruns:
            summary += f", re-run: {', '.join(sorted(executor.reruns))}"
    if out_file is not None:
        summary += f"; wrote {out_file}"
    click.echo(summary, err=out_file is None)
    if len(result.puzzles) < count:
        click.echo(f"error: found only {len(result.puzzles)} of {count} puzzles", err=True)
        raise click.exceptions.Exit(1)

def _mine_command(game: str, count: int | None, from_games: str, per_game: int | None,
                  depth: int | None, out_file: str | None, workers: int,
                  scheduler: str | None, min_plies: int | None, max_plies: int | None,
                  timeout: float | None, checkpoint: str | None,
                  fresh: bool) -> None:  # fmt: skip
    """``puzzle generate --from-games FILE``: mine the games of FILE."""
    from boardproof.jobs.executor import Executor
    from boardproof.puzzles.generate import MAX_COUNT, puzzle_game
    from boardproof.puzzles.mining import GameLine, Mining, mine, mining_settings
    from boardproof.puzzles.store import write_puzzles
    from boardproof.review.games import read_games

    if checkpoint is not None or fresh:
        flag = "--checkpoint" if checkpoint is not None else "--fresh"
        raise InvalidOptionError(f"invalid option {flag}: not with --from-games (a game "
                                 f"file is mined in one run): {from_games!r}")  # fmt: skip
    if count is not None and not 1 <= count <= MAX_COUNT:
        raise PuzzleError(
            f"invalid option --count: expected a number from 1 to {MAX_COUNT}, got {count!r}"
        )
    for flag, value in (("--per-game", per_game), ("--depth", depth)):
        if value is not None and value < 1:
            raise InvalidOptionError(f"invalid option {flag}: expected >= 1, got {value!r}")
    check_workers(workers, scheduler)
    if timeout is not None and timeout <= 0:
        raise InvalidOptionError(f"invalid option --timeout: expected > 0, got {timeout!r}")
    name = puzzle_game(game)
    settings = mining_settings(name, min_plies=min_plies, max_plies=max_plies, timeout=timeout)
    mining = Mining(depth=Mining.depth if depth is None else depth,
                    per_game=Mining.per_game if per_game is None else per_game)
    check_output_path(out_file, "--out")
    records = read_games(from_games, models.get(name))
    base = os.path.basename(os.path.normpath(from_games))
    lines = [GameLine({"file": base, "record": ident}, record.start,
                      tuple(m.move for m in record.moves))
             for ident, record in records]  # fmt: skip
    with Executor(workers, scheduler) as executor:
        result = mine(lines, settings, mining, count=count, executor=executor,
                      progress=out_file is not None,
                      on_puzzle=functools.partial(show_found, out_file))  # fmt: skip
    if out_file is not None:
        write_puzzles(out_file, result.puzzles)
    tried = ", ".join(f"{k} {v}" for k, v in sorted(result.counts.items()))
    summary = (f"{len(result.puzzles)} puzzles from {result.games} of {len(lines)} games in "
               f"{result.seconds:.1f} s (candidates: {tried})")  # fmt: skip
    if out_file is not None:
        summary += f"; wrote {out_file}"
    click.echo(summary, err=out_file is None)
    if count is not None and len(result.puzzles) < count:
        click.echo(f"error: found only {len(result.puzzles)} of {count} puzzles", err=True)
        raise click.exceptions.Exit(1)


@puzzle_group.command(name="selfplay")
@click.argument("game")
@click.option("--games", type=int, default=10, show_default=True, help="Games to play.")
@click.option("--run-seed", "run_seed", type=int, default=0, show_default=True,
              help="The run's seed: the openings, the budgets and the engine's seeds.")
@click.option("--iterations", "iterations_text", default=None, metavar="LOW-HIGH",
              help="MCTS iterations a move, drawn log-uniformly from LOW to HIGH "
                   "[Minefield 3-50, Carpniches 20-300, Candy Conquest 100-1000, "
                   "ColleXion 1-10].")  # fmt: skip
@click.option("--opening-plies", "opening_plies", type=int, default=None,
              help="Random plies of each opening [2; ColleXion 0].")  # fmt: skip
@click.option("--max-plies", "max_plies", type=int, default=None,
              help="Stop a game drawn after N plies [Carpniches 300, else no limit].")
@click.option("--exact", is_flag=True,
              help="The engine's exact search first (stronger, slower endings).")
@click.option("--policy", "policy_text", default=None, metavar="LOW-HIGH",
              help="Play by the engine's threat-aware policy instead of MCTS, at a strength "
                   "(care, 0 to 1) drawn per game from LOW-HIGH (Candy Conquest; 0.7-1 for "
                   "3-4 players).")  # fmt: skip
@click.option("--workers", type=int, default=1, show_default=True,
              help="Games played at once, in worker processes.")  # fmt: skip
@click.option("--out", "out_file", type=click.Path(dir_okay=False), required=True,
              help="Write the records to FILE (JSON Lines, one record a line).")
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@game_options
@start_options_apart
def selfplay_command(game: str, games: int, run_seed: int, iterations_text: str | None,
                     opening_plies: int | None, max_plies: int | None, exact: bool,
                     policy_text: str | None, workers: int, out_file: str, quiet: bool,
                     as_json: bool, options: dict[str, Any],
                     start: dict[str, Any]) -> None:  # fmt: skip
    """Play GAMES games of the engine against itself at varied, seeded strength (the
    iterations of every move drawn from --iterations) and write their records: the games
    to mine with 'puzzle generate --from-games'. The same seed gives the same games.

    \b
    Example:
      boardproof puzzle selfplay minefield --size 13 --games 20 --out games.jsonl
      boardproof puzzle generate minefield --from-games games.jsonl --out mined.jsonl
    """
    from boardproof.match.openings import default_plies
    from boardproof.match.selfplay import (
        SelfPlaySettings,
        default_iterations,
        parse_iterations,
        parse_policy,
        run_selfplay,
        write_games,
    )

    check_workers(workers)
    check_output_path(out_file, "--out")
    name = models.canonical_name(game)
    settings = SelfPlaySettings(
        name, options, start, games=games, seed=run_seed,
        iterations=(default_iterations(name) if iterations_text is None
                    else parse_iterations(iterations_text)),
        opening_plies=default_plies(name) if opening_plies is None else opening_plies,
        max_plies=SELFPLAY_MAX_PLIES.get(name) if max_plies is None else max_plies,
        exact=exact,
        policy=None if policy_text is None else parse_policy(policy_text),
    )  # fmt: skip
    records = run_selfplay(settings, workers=workers, progress=not quiet)
    write_games(out_file, records)
    ends: dict[str, int] = {}
    for record in records:
        ends[record["selfplay"]["end"]] = ends.get(record["selfplay"]["end"], 0) + 1
    plies = sum(len(record["moves"]) for record in records)
    if as_json:
        echo_json({"game": name, "games": len(records), "plies": plies, "ends": ends,
                   "seed": run_seed, "iterations": list(settings.iterations),
                   **({} if settings.policy is None else {"policy": list(settings.policy)}),
                   "out": out_file})  # fmt: skip
        return
    how = ", ".join(f"{n} {end}" for end, n in sorted(ends.items()))
    click.echo(f"{len(records)} games ({plies} plies; ended: {how}); wrote {out_file}")


#: the default ply limit of a self-play game (Carpniches can go on for ever)
SELFPLAY_MAX_PLIES = {"carpniches": 300}


@puzzle_group.command(name="check")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def check_command(file: str, as_json: bool) -> None:
    """Re-verify every puzzle in FILE: proof, uniqueness, notation (exit 1 on a failure).

    \b
    Example:
      boardproof puzzle generate minefield --count 2 --out puzzles.jsonl
      boardproof puzzle check puzzles.jsonl
    """
    from boardproof.commands.payloads import puzzle_check_payload
    from boardproof.puzzles.check import check_puzzle
    from boardproof.puzzles.store import read_puzzles

    puzzles = read_puzzles(file)
    if as_json:
        verdicts = [check_puzzle(p, k) for k, p in enumerate(puzzles, start=1)]
        data = puzzle_check_payload(file, verdicts)
        echo_json(data)
        if data["failed"]:
            raise click.exceptions.Exit(1)
        return
    failed = 0
    for number, puzzle in enumerate(puzzles, start=1):
        verdict = check_puzzle(puzzle, number)
        if verdict.ok:
            click.echo(f"ok    {verdict.ident}: {verdict.message}")
        else:
            failed += 1
            click.echo(f"FAIL  {verdict.ident}: {verdict.message}")
    click.echo(f"{len(puzzles)} puzzles checked: {len(puzzles) - failed} ok, {failed} failed")
    if failed:
        raise click.exceptions.Exit(1)


@puzzle_group.command(name="compact")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--out", "out_file", type=click.Path(dir_okay=False), required=True,
              help="Write the puzzles to FILE (JSON Lines).")
@click.option("--expand", is_flag=True,
              help="The other way: write proof trees (version 1) for compact puzzles.")
def compact_command(file: str, out_file: str, expand: bool) -> None:
    """Rewrite the puzzles of FILE with compact proofs: the winner's strategy in place of
    the proof tree (version 2; docs/puzzles.md). Each strategy is checked with the rules
    before it is written; other puzzles (ColleXion's, or already in that form) are copied.

    \b
    Example:
      boardproof puzzle compact mined.jsonl --out mined-compact.jsonl
      boardproof puzzle check mined-compact.jsonl
    """
    from boardproof.puzzles.compact import compact, expand_puzzle, is_compact
    from boardproof.puzzles.store import VERSION, dumps, read_puzzles, write_puzzles

    check_output_path(out_file, "--out")
    puzzles = read_puzzles(file)
    out: list[dict[str, Any]] = []
    for puzzle in puzzles:
        if expand:
            out.append(expand_puzzle(puzzle) if is_compact(puzzle) else puzzle)
        elif puzzle.get("version") == VERSION and "proof" in puzzle:
            out.append(compact(puzzle))
        else:
            out.append(puzzle)
    write_puzzles(out_file, out)
    changed = sum(a is not b for a, b in zip(puzzles, out, strict=True))
    before = sum(len(dumps(p)) + 1 for p in puzzles)
    after = sum(len(dumps(p)) + 1 for p in out)
    click.echo(f"{changed} of {len(puzzles)} puzzles {'expanded' if expand else 'compacted'} "
               f"({before} -> {after} bytes); wrote {out_file}")  # fmt: skip
