"""``boardproof analyse``: the anytime engine (exact search, then MCTS-Solver).

Progress goes to stderr once a second; Ctrl-C stops the search, prints the best
answer found so far, then ``interrupted`` on stderr, and exits with status 130.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from boardproof.commands.common import (
    SECONDS,
    allow_impossible_option,
    check_output_path,
    check_possible,
    engine_options,
    game_options,
    load_game,
)
from boardproof.commands.results import (
    echo_answer,
    exit_if_interrupted,
    interruptible,
    tail_lines,
    write_proof_file,
)
from boardproof.models.base import Position
from boardproof.solvers.analyse import Analysis, analyse
from boardproof.solvers.mcts import MCTS
from boardproof.solvers.native_mcts import EngineSettings
from boardproof.solvers.playouts import MODES as PLAYOUT_MODES

#: the think time without --time or --iterations (as :func:`boardproof.solvers.analyse.analyse`)
DEFAULT_SECONDS = 5.0


class ProgressLine:
    """Progress on stderr: on a terminal one line that is rewritten, else a line each."""

    def __init__(self) -> None:
        import sys

        self.tty = sys.stderr.isatty()
        self.shown = False

    def show(self, line: str) -> None:
        import sys

        if self.tty:
            sys.stderr.write("\r" + line + "\x1b[K")
            sys.stderr.flush()
            self.shown = True
        else:
            click.echo(line, err=True)

    def end(self) -> None:
        """End a rewritten terminal line (call once the work is done)."""
        if self.shown:
            click.echo("", err=True)
            self.shown = False


def progress_printer(
    quiet: bool,
    seconds: float | None = None,
    iterations: int | None = None,
    line: ProgressLine | None = None,
) -> Callable[[MCTS, float], object] | None:
    """The progress callback (None when ``quiet``): the elapsed time, the iterations,
    the best move so far and the time left (``seconds``: the budget of the whole
    analysis, else estimated from the ``iterations`` asked for)."""
    if quiet:
        return None
    import time

    from boardproof.jobs.progress import eta_text

    out = line if line is not None else ProgressLine()
    start = time.perf_counter()
    if seconds is None and iterations is None:
        seconds = DEFAULT_SECONDS

    def report(tree: MCTS, elapsed: float) -> None:
        best = tree.moves(1)
        what = ""
        if best:
            top = best[0]
            what = f", best {top.move} ({top.visits} visits, {100 * top.value:.1f}%)"
        total = time.perf_counter() - start
        if seconds is not None:
            eta = eta_text(1.0, 1, max(round(seconds - total), 0))
        else:
            assert iterations is not None
            eta = eta_text(elapsed, tree.iterations, iterations - tree.iterations)
        text = f"analyse: {total:.1f} s, {tree.iterations} iterations{what}"
        out.show(text + (f", {eta}" if eta else ""))

    return report


def describe(found: Analysis) -> list[str]:
    """The text lines ``analyse`` prints."""
    pos = found.position
    game = pos.game
    mover = game.symbol(pos.to_move)
    score_game = game.info.objective == "score"
    lines = [f"position: {pos.fen()}"]
    if pos.outcome() is not None:
        lines.append("result: the game is over")
    else:
        lines.append(f"to move: {mover}")
    if found.result == "win":
        lines.append(f"result: win for {mover} (proved, {found.method})")
    elif found.result == "loss":
        assert found.winner is not None
        lines.append(f"result: loss for {mover}: {game.symbol(found.winner)} wins (proved)")
    elif found.result == "draw":
        lines.append("result: draw (proved: nobody can force a win)")
    else:
        est = f"result: unknown; estimate: {100 * found.value:.1f}% for {mover}"
        if found.score is not None:
            est += f", mean final score {found.score:+.2f}"
        lines.append(est + " (not a proof)")
    if found.best_move is not None:
        lines.append(f"best move: {found.best_move}")
    if found.moves:
        head = f"  {'move':<14} {'visits':>7} {'win%':>6}"
        head += f" {'score':>7}" if score_game else ""
        lines.append(head + "  proved")
        for stat in found.moves:
            row = f"  {str(stat.move):<14} {stat.visits:>7} {100 * stat.value:>6.1f}"
            if score_game:
                row += f" {stat.score:>+7.2f}" if stat.score is not None else f" {'-':>7}"
            lines.append(row + f"  {stat.proved or '-'}")
    return lines + tail_lines(found.pv, "iterations", found.iterations, found.seconds,
                              found.method, found.stopped)  # fmt: skip


def write_proof(found: Analysis, path: str) -> str:
    """Write ``found``'s checked proof to ``path``; returns what happened (one line)."""
    if found.proof is None:
        return "not written: " + (found.proof_note or "no proved win")
    write_proof_file(found.proof, path)
    return f"wrote {path} ({found.proof_note})"


def run_analysis(
    pos: Position,
    *,
    seconds: float | None,
    iterations: int | None,
    seed: int,
    multipv: int,
    exact: bool,
    quiet: bool,
    game_name: str,
    options: dict[str, Any],
    playout: str = "auto",
    engine: str = "auto",
    settings: EngineSettings | None = None,
) -> tuple[Analysis, bool]:
    """Analyse with Ctrl-C handling; returns the analysis and whether it was interrupted."""
    line = ProgressLine()
    printer = progress_printer(quiet, seconds, iterations, line)
    with interruptible() as stop:
        found = analyse(
            pos, seconds=seconds, iterations=iterations, seed=seed, multipv=multipv,
            exact=exact, game_name=game_name, options=options, should_stop=stop,
            progress=printer, playout=playout, engine=engine, settings=settings,
        )  # fmt: skip
    line.end()
    return found, stop()


@click.command(name="analyse")
@click.argument("game")
@click.argument("position")
@click.option("--time", "seconds", type=SECONDS, default=None,
              help="Think for S seconds (default 5).")  # fmt: skip
@click.option("--iterations", type=int, default=None,
              help="Run N MCTS iterations instead (reproducible).")  # fmt: skip
@click.option("--multipv", type=int, default=5, show_default=True,
              help="How many best moves to list.")  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--no-exact", is_flag=True,
              help="Plain MCTS: no exact search first, no exact leaf solving.")  # fmt: skip
@click.option("--playout", type=click.Choice(PLAYOUT_MODES), default="auto", show_default=True,
              help="Random playouts: native where the game has them (auto), or the "
                   "Python twin, which plays the same games.")  # fmt: skip
@click.option("--proof", "proof_file", type=click.Path(dir_okay=False), default=None,
              help="Write a checkable proof of a proved win to FILE.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
@engine_options
@game_options
@allow_impossible_option
def analyse_command(
    game: str,
    position: str,
    seconds: float | None,
    iterations: int | None,
    multipv: int,
    seed: int,
    no_exact: bool,
    playout: str,
    proof_file: str | None,
    as_json: bool,
    quiet: bool,
    options: dict[str, Any],
    allow_impossible: bool,
    engine: str,
    settings: EngineSettings,
) -> None:
    """Best moves of POSITION: exact where provable, Monte-Carlo tree search otherwise.

    \b
    Example:
      boardproof analyse minefield "5/5/5/5/5 b -" --time 2 --multipv 3
    """
    check_output_path(proof_file, "--proof")
    game_obj = load_game(game, **options)
    pos = game_obj.parse_position(position)
    check_possible(pos, allow_impossible)
    found, interrupted = run_analysis(
        pos, seconds=seconds, iterations=iterations, seed=seed, multipv=multipv,
        exact=not no_exact, quiet=quiet, game_name=game_obj.name, options=options,
        playout=playout, engine=engine, settings=settings,
    )  # fmt: skip
    note = write_proof(found, proof_file) if proof_file is not None else None
    echo_answer(as_json, lambda: found.to_json(game_obj.name), lambda: describe(found), note)
    exit_if_interrupted(interrupted)
