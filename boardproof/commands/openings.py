"""``boardproof openings GAME``: opening analysis, one command for every game that has one.

- ``minefield``: the empty-board value and the opening table of each board size
  (``--sizes``, ``--workers``, ``--checkpoint``, ``--win``); report
  ``minefield-openings.md``/``.json``/``.svg`` (computed by
  :mod:`boardproof.analysis.openings`, rendered by :mod:`boardproof.reports.openings`).
- ``carpniches``: every first move of the start position searched to ``--max-plies``;
  report ``carpniches-opening.md``/``.json``
  (:mod:`boardproof.analysis.carpniches_openings`).

Options that do not apply to the game are refused with a one-line error.
"""

from __future__ import annotations

import json
import os
import time

import click

from boardproof import models
from boardproof.commands.common import SECONDS, check_output_path
from boardproof.models.base import InvalidOptionError
from boardproof.solvers.executor import Executor

#: the games with an opening analysis, and the options each one takes
GAME_OPTIONS: dict[str, frozenset[str]] = {
    "minefield": frozenset({"sizes", "workers", "scheduler", "checkpoint", "win", "timeout",
                            "out", "method", "split", "force", "budget", "depth",
                            "budget_from", "stop_after", "certificates", "grow"}),
    "carpniches": frozenset({"max_plies", "timeout", "out", "workers", "scheduler", "method",
                             "checkpoint"}),
}
DEFAULT_SIZES = "2-4"
DEFAULT_MAX_PLIES = 9
#: the default report folder: in the current directory, never the published reports/
DEFAULT_OUT = "openings"
#: the largest Minefield board whose opening table was ever finished (5x5: 52 million
#: nodes, about 1-2 minutes with 2 workers; 6x6 is estimated at ~90 billion df-pn nodes);
#: larger sizes need --force
MAX_FINISHED_SIZE = 5


@click.command(name="openings")
@click.argument("game")
@click.option("--sizes", default=None, help=f"Minefield: board sizes, e.g. 2-5 [{DEFAULT_SIZES}].")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Local worker processes [1].")  # fmt: skip
@click.option("--scheduler", default=None, metavar="ADDR",
              help="Dask: tcp://HOST:PORT of a scheduler, or local:N (boardproof[cluster]).")
@click.option("--checkpoint", default=None, type=click.Path(dir_okay=False),
              help="Minefield: resume file (default: in OUT, removed when done).")  # fmt: skip
@click.option("--win", default=None, metavar="RULE",
              help="Minefield: 'orthogonal' (rulebook, default) or 'orthodiagonal'.")  # fmt: skip
@click.option("--split", default=None, metavar="POINTS",
              help="Minefield: split these first points' entries (e.g. a1,a2: the hardest) "
                   "into one task per reply.")  # fmt: skip
@click.option("--budget", type=click.IntRange(min=1), default=None, metavar="NODES",
              help="Minefield, sizes from 6x6 on: df-pn nodes per attempt; an entry not "
                   "settled within it is split into one attempt per reply (resumable: "
                   "one checkpoint line per attempt).")  # fmt: skip
@click.option("--depth", type=click.IntRange(min=0, max=8), default=None,
              help="Minefield, with --budget: split this many plies below an entry [1].")
@click.option("--grow", default=None, metavar="ORDER",
              help="Minefield, with --budget: breadth (every reply of a split position is "
                   "attempted before any is split) or best (the next attempt is the "
                   "most-proving position: proof-number search over the journal) [breadth].")
@click.option("--budget-from", "budget_from", type=click.IntRange(min=2, max=8), default=None,
              metavar="N", help="Minefield, with --budget: the first size settled so [6].")
@click.option("--stop-after", "stop_after", type=SECONDS, default=None,
              help="Minefield, with --budget: start no attempt that would not end within "
                   "this many seconds (at the journal's nodes per second); the running ones "
                   "finish; the report says what is settled (resume from the checkpoint).")
@click.option("--max-plies", "max_plies", type=click.IntRange(min=1), default=None,
              help=f"Carpniches: plies after each first move [{DEFAULT_MAX_PLIES}].")  # fmt: skip
@click.option("--method", default=None, metavar="METHOD",
              help="Minefield: auto (dfpn if the C module is built), dfpn (from 5x5 on: native "
                   "df-pn first, native alpha-beta second), native (native alpha-beta first) "
                   "or alphabeta.")  # fmt: skip
@click.option("--timeout", type=SECONDS, default=None,
              help="Seconds per entry or first move (unsolved ones are reported so).")  # fmt: skip
@click.option("--out", "out_dir", default=DEFAULT_OUT, show_default=True,
              type=click.Path(file_okay=False),
              help="Folder for the report files (the published ones: --out reports).")  # fmt: skip
@click.option("--json", "as_json", is_flag=True,
              help="Print the report's JSON object instead of the summary.")
@click.option("--certificates", "cert_dir", default=None, type=click.Path(file_okay=False),
              help="Minefield: also write a compact certificate of each entry into this "
                   "folder (check-proof checks them; see docs/proofs.md).")  # fmt: skip
@click.option("--force", is_flag=True,
              help=f"Minefield: run sizes above {MAX_FINISHED_SIZE}x{MAX_FINISHED_SIZE} too.")
def openings_command(
    game: str,
    sizes: str | None,
    workers: int | None,
    scheduler: str | None,
    checkpoint: str | None,
    win: str | None,
    split: str | None,
    max_plies: int | None,
    method: str | None,
    timeout: float | None,
    out_dir: str,
    as_json: bool,
    force: bool,
    budget: int | None,
    depth: int | None,
    budget_from: int | None,
    stop_after: float | None,
    cert_dir: str | None = None,
    grow: str | None = None,
) -> None:
    """Analyse the openings of GAME (minefield or carpniches) and write its report.

    \b
    Example:
      boardproof openings minefield --sizes 2-4 --out openings
    """
    name = models.canonical_name(game)
    check_output_path(out_dir, "--out", folder=True)
    check_output_path(checkpoint, "--checkpoint")
    check_output_path(cert_dir, "--certificates", folder=True)
    if name not in GAME_OPTIONS:
        raise InvalidOptionError(
            f"invalid game: openings supports {' and '.join(GAME_OPTIONS)}, got {game!r}"
        )
    given = {"sizes": sizes, "workers": workers, "scheduler": scheduler, "checkpoint": checkpoint,
             "win": win, "max_plies": max_plies, "method": method, "split": split,
             "force": force or None, "budget": budget, "depth": depth,
             "budget_from": budget_from, "stop_after": stop_after,
             "certificates": cert_dir, "grow": grow}  # fmt: skip
    for option, value in given.items():
        if value is not None and option not in GAME_OPTIONS[name]:
            flag = "--" + option.replace("_", "-")
            raise InvalidOptionError(
                f"invalid option {flag}: {name} does not take it, got {value!r}"
            )
    executor = Executor(workers or 1, scheduler)  # bad options refused before any work
    with executor:
        if name == "minefield":
            _minefield(DEFAULT_SIZES if sizes is None else sizes, executor, out_dir, checkpoint,
                       timeout, win, method or "auto", split, force, as_json, budget,
                       depth, budget_from, stop_after, cert_dir, grow)  # fmt: skip
        else:
            _carpniches(max_plies or DEFAULT_MAX_PLIES, timeout, out_dir, executor, as_json,
                        method or "alphabeta", checkpoint)  # fmt: skip


def backend_options(executor: Executor) -> str:
    """How the command line names the back end: `` --workers N`` or `` --scheduler ADDR``."""
    if executor.scheduler is not None:
        return f" --scheduler {executor.scheduler}"
    return f" --workers {executor.workers}"


def run_summary(executor: Executor) -> str:
    """The console's last line about the back end (the default keeps its old form)."""
    if executor.scheduler is None:
        return f"workers: {executor.workers}"
    info = executor.last
    return info.summary() if info is not None else executor.describe()


def _minefield(
    sizes: str,
    executor: Executor,
    out_dir: str,
    checkpoint: str | None,
    timeout: float | None,
    win: str | None,
    method: str,
    split: str | None = None,
    force: bool = False,
    as_json: bool = False,
    budget: int | None = None,
    depth: int | None = None,
    budget_from: int | None = None,
    stop_after: float | None = None,
    cert_dir: str | None = None,
    grow: str | None = None,
) -> None:
    from boardproof.analysis.claims import parse_sizes
    from boardproof.analysis.openings import METHODS, SPLIT_FIRST_SIZE, build_report
    from boardproof.analysis.subtrees import GROWTHS
    from boardproof.reports.openings import write_report

    if method not in METHODS:
        raise InvalidOptionError(
            f"invalid option --method: expected one of {', '.join(METHODS)}, got {method!r}"
        )
    size_list = parse_sizes(sizes)
    too_big = [n for n in size_list if n > MAX_FINISHED_SIZE]
    if too_big and not force:
        n = too_big[0]
        raise InvalidOptionError(
            f"invalid option --sizes: no opening table above {MAX_FINISHED_SIZE}x"
            f"{MAX_FINISHED_SIZE} was ever finished ({MAX_FINISHED_SIZE}x{MAX_FINISHED_SIZE} "
            "took 52 million nodes, 6x6 is estimated at ~90 billion); add --force to "
            f"start {n}x{n} anyway, got {sizes!r}"
        )
    if win is not None:
        models.get("minefield", win=win)  # a bad rule is refused before any work
    if grow is not None and grow not in GROWTHS:
        raise InvalidOptionError(
            f"invalid option --grow: expected one of {', '.join(GROWTHS)}, got {grow!r}")
    for flag, value in (("--depth", depth), ("--budget-from", budget_from),
                        ("--stop-after", stop_after), ("--grow", grow)):
        if value is not None and budget is None:
            raise InvalidOptionError(f"invalid option {flag}: it needs --budget, got {value}")
    split_from = SPLIT_FIRST_SIZE if budget_from is None else budget_from
    deep = budget is not None and any(n >= split_from for n in size_list)
    # a run of budgeted attempts keeps its journal (the unsettled entries go on from it)
    cp = checkpoint or os.path.join(out_dir, "minefield-openings.checkpoint"
                                    + (".jsonl" if deep else ".json"))  # fmt: skip
    start = time.perf_counter()
    command = f"boardproof openings minefield --sizes {sizes}" + backend_options(executor)
    if timeout is not None:
        command += f" --timeout {timeout:g}"
    if win is not None:
        command += f" --win {win}"
    if method != "auto":
        command += f" --method {method}"
    split_points = tuple(p for p in (split or "").split(",") if p)
    if split is not None:
        if not split_points:
            raise InvalidOptionError(f"invalid option --split: expected points like a1,a2, "
                                     f"got {split!r}")  # fmt: skip
        command += f" --split {','.join(split_points)}"
    if too_big:
        command += " --force"
    if budget is not None:
        command += f" --budget {budget} --depth {1 if depth is None else depth}"
        if grow is not None and grow != "breadth":
            command += f" --grow {grow}"
        if budget_from is not None:
            command += f" --budget-from {budget_from}"
        if stop_after is not None:
            command += f" --stop-after {stop_after:g}"
    command += f" --out {out_dir}"
    report = build_report(
        size_list,
        win=win or "orthogonal",
        executor=executor,
        split=split_points,
        checkpoint=cp,
        timeout=timeout,
        command=command,
        method=method,
        budget=budget,
        depth=1 if depth is None else depth,
        split_from=split_from,
        stop_after=stop_after,
        grow=grow or "breadth",
        notes=lambda line: click.echo(line, err=True),
    )
    attempts = None
    if deep:
        checkpoint = cp  # kept
        if not os.path.isabs(cp):  # a journal kept with the sources: the report names it
            report["journal"] = cp
        from boardproof.analysis.subtrees import attempt_folder

        attempts = attempt_folder(cp)
    if cert_dir is not None:
        from boardproof.analysis.opening_certificates import (
            check_opening_certificates,
            reprove_from_certificates,
            write_opening_certificates,
        )

        parts: dict[str, list[str]] = {}
        paths = write_opening_certificates(report, cert_dir, win or "orthogonal", executor,
                                           attempts, parts,
                                           notes=lambda text: click.echo(text, err=True))
        cache = None if attempts is None else os.path.join(attempts, "checks.jsonl")
        checked = check_opening_certificates(paths, executor, cache, parts)
        report["certificates"] = {"folder": cert_dir, "files": checked}
        reprove_from_certificates(report, cert_dir, checked, executor, cache)
    if as_json:
        files = [str(path) for path in write_report(report, out_dir)]
        if checkpoint is None and os.path.exists(cp):
            os.remove(cp)
        click.echo(json.dumps({**report, "files": files}))
        return
    for size in report["sizes"]:
        empty = size["empty"]
        deep = "run" in size  # settled by budgeted attempts: what is not known is said so
        points = ", ".join(size["black_wins"]) or ("none so far" if deep else "none")
        if size["unsolved"]:
            points += f" ({'not settled' if deep else 'unsolved'}: {', '.join(size['unsolved'])})"
        click.echo(
            f"{size['n']}x{size['n']}: empty board "
            + (f"won by {empty['winner']}" if empty["winner"] or not deep else "not known yet")
            + (f" (first move {empty['best_move']})" if empty["winner"] == "b" else "")
            + f"; Black wins after: {points}"
        )
    for path in write_report(report, out_dir):
        click.echo(f"wrote {path}")
    if checkpoint is None and os.path.exists(cp):
        os.remove(cp)
    # the whole run's wall time, the certificate stage included
    click.echo(f"seconds: {time.perf_counter() - start:.1f} ({run_summary(executor)})")


def _carpniches(
    max_plies: int,
    timeout: float | None,
    out_dir: str,
    executor: Executor,
    as_json: bool,
    method: str = "alphabeta",
    checkpoint: str | None = None,
) -> None:
    from boardproof.analysis.carpniches_openings import METHODS, analyse_openings
    from boardproof.commands.common import Heartbeat
    from boardproof.reports.carpniches_openings import write_report

    if method not in METHODS:
        raise InvalidOptionError(
            f"invalid option --method: expected one of {', '.join(METHODS)}, got {method!r}"
        )
    cp = checkpoint or os.path.join(out_dir, "carpniches-opening.checkpoint.json")

    def progress(row: dict[str, object]) -> None:
        click.echo(f"{row['move']}: done ({row['seconds']} s)", err=True)

    what = f"openings carpniches: every first move to {max_plies} plies"
    with Heartbeat(what, after=2.0, every=10.0):
        report = analyse_openings(max_plies=max_plies, timeout=timeout, method=method,
                                  checkpoint=cp, progress=progress, executor=executor,
                                  show_progress=True)  # fmt: skip
    if as_json:
        md, js = write_report(report, out_dir)
        if checkpoint is None and os.path.exists(cp):
            os.remove(cp)
        click.echo(json.dumps({**report, "files": [str(md), str(js)]}))
        return
    for row in report["moves"]:
        if row["winner"] is not None:
            text = f"{row['winner']} wins in {row['plies']} plies"
        else:
            text = f"no forced win within {row['no_forced_win_within']} plies"
        click.echo(f"{row['move']:<6} {text}  ({row['nodes']} nodes, {row['seconds']} s)")
    md, js = write_report(report, out_dir)
    if checkpoint is None and os.path.exists(cp):
        os.remove(cp)
    click.echo(f"wrote {md} and {js}")
    if executor.backend != "in-process":
        click.echo(run_summary(executor))
