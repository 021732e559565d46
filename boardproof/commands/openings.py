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

from typing import Any

import click

from boardproof import models
from boardproof.commands.common import SECONDS, check_output_path
from boardproof.jobs.executor import Executor
from boardproof.models.base import InvalidOptionError

#: the default report folder: in the current directory, never the published reports/
DEFAULT_OUT = "openings"

#: the options of every game's opening analysis (a game adds its own: ``Openings.params``)
COMMON = (
    click.Option(["--workers"], type=click.IntRange(min=1), default=None,
                 help="Local worker processes [1]."),
    click.Option(["--scheduler"], default=None, metavar="ADDR",
                 help="Dask: tcp://HOST:PORT of a scheduler, or local:N (boardproof[cluster])."),
    click.Option(["--checkpoint"], default=None, type=click.Path(dir_okay=False),
                 help="Resume file (default: in OUT, removed when done)."),
    click.Option(["--timeout"], type=SECONDS, default=None,
                 help="Seconds per entry or first move (unsolved ones are reported so)."),
    click.Option(["--out", "out_dir"], default=DEFAULT_OUT, show_default=True,
                 type=click.Path(file_okay=False),
                 help="Folder for the report files (the published ones: --out reports)."),
    click.Option(["--json", "as_json"], is_flag=True,
                 help="Print the report's JSON object instead of the summary."),
)  # fmt: skip


def _game_params() -> list[click.Parameter]:
    """The options the games' opening analyses declare, in registry order; an option two
    games declare is one option whose help says what each does with it."""
    found: dict[str, click.Parameter] = {}
    helps: dict[str, list[str]] = {}
    for name in models.names():
        openings = models.info(name).part("openings")
        for param in openings.params if openings is not None else ():
            assert param.name is not None
            found.setdefault(param.name, param)
            helps.setdefault(param.name, []).append(
                f"{models.info(name).long_name}: {getattr(param, 'help', '')}")
    for param_name, param in found.items():
        if isinstance(param, click.Option):
            param.help = "; ".join(text.rstrip(".") for text in helps[param_name]) + "."
    return list(found.values())


def run_openings(game: str, workers: int | None, scheduler: str | None, timeout: float | None,
                 out_dir: str, as_json: bool, **given: Any) -> None:  # fmt: skip
    """Analyse the openings of GAME and write its report.

    \b
    Example:
      boardproof openings minefield --sizes 2-4 --out openings
    """
    name = models.canonical_name(game)
    check_output_path(out_dir, "--out", folder=True)
    check_output_path(given["checkpoint"], "--checkpoint")
    found = models.info(name).part("openings")
    if found is None:
        having = [g for g in models.names() if models.info(g).openings]
        raise InvalidOptionError(
            f"invalid game: openings supports {' and '.join(having)}, got {game!r}"
        )
    mine = {param.name for param in found.params} | {"checkpoint"}
    for option, value in given.items():
        if value not in (None, False) and option not in mine:
            flag = "--" + option.replace("_", "-")
            raise InvalidOptionError(
                f"invalid option {flag}: {name} does not take it, got {value!r}"
            )
    executor = Executor(workers or 1, scheduler)  # bad options refused before any work
    with executor:
        found.run(executor, given, out_dir=out_dir, timeout=timeout, as_json=as_json)


openings_command = click.Command(
    name="openings",
    callback=run_openings,
    params=[click.Argument(["game"]), *_game_params(), *COMMON],
    help=run_openings.__doc__,
)
