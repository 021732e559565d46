"""``boardproof openings GAME``: opening analysis, one command for every game that has one
(its descriptor's ``openings`` part: the options it takes and the run, in its package).

- ``minefield``: the empty-board value and the opening table of each board size
  (``--sizes``, ``--workers``, ``--checkpoint``, ``--win``); report
  ``minefield-openings.md``/``.json``/``.svg`` (computed by
  :mod:`boardproof.models.minefield.research.openings`, rendered by
  :mod:`boardproof.models.minefield.research.openings_report`).
- ``carpniches``: every first move of the start position searched to ``--max-plies``;
  report ``carpniches-opening.md``/``.json``
  (:mod:`boardproof.models.carpniches.research.openings`).

Options that do not apply to the game are refused with a one-line error.
"""

from __future__ import annotations

import click

from boardproof import models
from boardproof.commands.common import SECONDS, check_output_path
from boardproof.jobs.executor import Executor
from boardproof.models.base import InvalidOptionError

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
    found = models.info(name).part("openings")
    if found is None:
        having = [g for g in models.names() if models.info(g).openings]
        raise InvalidOptionError(
            f"invalid game: openings supports {' and '.join(having)}, got {game!r}"
        )
    given = {"sizes": sizes, "workers": workers, "scheduler": scheduler, "checkpoint": checkpoint,
             "win": win, "max_plies": max_plies, "method": method, "split": split,
             "force": force or None, "budget": budget, "depth": depth,
             "budget_from": budget_from, "stop_after": stop_after,
             "certificates": cert_dir, "grow": grow}  # fmt: skip
    for option, value in given.items():
        if value is not None and option not in found.options:
            flag = "--" + option.replace("_", "-")
            raise InvalidOptionError(
                f"invalid option {flag}: {name} does not take it, got {value!r}"
            )
    executor = Executor(workers or 1, scheduler)  # bad options refused before any work
    with executor:
        found.run(executor, given, out_dir=out_dir, timeout=timeout, as_json=as_json)


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
