"""``boardproof openings carpniches``: every first move searched to ``--max-plies``, from
the command line's options (:mod:`.openings` computes it, :mod:`.openings_report` writes it).
"""

from __future__ import annotations

import json
import os
from typing import Any

import click

from boardproof.commands.common import Heartbeat, run_summary
from boardproof.jobs.executor import Executor
from boardproof.models.base import InvalidOptionError, Openings
from boardproof.models.carpniches.research.openings import METHODS, analyse_openings
from boardproof.models.carpniches.research.openings_report import write_report

DEFAULT_MAX_PLIES = 9


#: the options of ``boardproof openings carpniches`` (the command adds the common ones)
PARAMS = (
    click.Option(["--max-plies", "max_plies"], type=click.IntRange(min=1), default=None,
                 help=f"plies after each first move [{DEFAULT_MAX_PLIES}]."),
    click.Option(["--method"], default=None, metavar="METHOD",
                 help="alphabeta (default), native (the same search in C) or dfpn "
                 "(native df-pn: win within N for both sides, N = 1, 2, ...)."),
)  # fmt: skip



def _carpniches(
    max_plies: int,
    timeout: float | None,
    out_dir: str,
    executor: Executor,
    as_json: bool,
    method: str = "alphabeta",
    checkpoint: str | None = None,
) -> None:
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
                                  show_progress=True, proof_dir=out_dir)  # fmt: skip
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


def run(executor: Executor, given: dict[str, Any], *, out_dir: str, timeout: float | None,
        as_json: bool) -> None:  # fmt: skip
    """The command's run for Carpniches, from the options it was given."""
    _carpniches(given["max_plies"] or DEFAULT_MAX_PLIES, timeout, out_dir, executor, as_json,
                given["method"] or "alphabeta", given["checkpoint"])  # fmt: skip


#: what ``boardproof openings`` finds through Carpniches' descriptor
OPENINGS = Openings(params=PARAMS, run=run)
