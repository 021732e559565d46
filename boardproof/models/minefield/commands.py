"""``boardproof verify CLAIM``: check a designer's claim size by size, with a report.

The work is in :mod:`boardproof.models.minefield.research.claims`; this module parses options,
prints the
summary table (or ``--json``) and writes the report files with ``--out``.
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path
from typing import Any

import click

from boardproof.commands.common import check_output_path, echo_json
from boardproof.inputs import read_text
from boardproof.jobs.executor import RunInfo
from boardproof.models.minefield.proofs import ring
from boardproof.models.minefield.proofs.glyph_sets import check_variant
from boardproof.models.minefield.research import claims, minimality
from boardproof.models.minefield.research import claims_report as nodraw
from boardproof.models.minefield.research import minimality_report as minimal_report
from boardproof.models.minefield.research.fairness_command import fairness_command
from boardproof.solvers.sat import solving


def default_checkpoint(claim: str, method: str, solver: str, cubes: int,
                       out: str | None, variant: str = "standard") -> Path:
    """Where the run keeps its checkpoint (beside the report, or in the user's cache)."""
    claim = claim if variant == "standard" else f"{claim}-{variant}"
    name = f"{claim}-{method}-{solver}-cubes{cubes}.checkpoint.json"
    if out is not None:
        return Path(out) / "checkpoints" / name
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "boardproof" / name


def _load_report(path: str) -> dict[str, Any]:
    """An earlier report's JSON (for ``--merge``), read before anything is overwritten."""
    try:
        data = json.loads(read_text(path))
    except (OSError, ValueError, RecursionError) as error:  # JSON and UTF-8 errors too
        reason = (getattr(error, "strerror", None) or getattr(error, "msg", None)
                  or ("not UTF-8 text" if isinstance(error, UnicodeDecodeError)
                      else "nested too deeply" if isinstance(error, RecursionError)
                      else "a number with too many digits"))  # fmt: skip
        raise claims.InvalidOptionError(
            f"invalid option --merge: cannot read a report JSON ({reason}): {path!r}"
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("sizes"), list):
        raise claims.InvalidOptionError(
            f"invalid option --merge: not a verify report (no 'sizes' list): {path!r}"
        )
    return data


@click.command(name="verify")
@click.argument("claim", metavar="CLAIM")
@click.option("--sizes", default=None,
              help="Board sizes: A-B or a list (default: the claim's, e.g. 2-12).")
@click.option("--out", "out", type=click.Path(file_okay=False), default=None,
              help="Write <claim>.md/.json/.svg, DRUP proofs and the checkpoint here.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--workers", type=int, default=1, show_default=True,
              help="Local worker processes.")
@click.option("--scheduler", default=None,
              help="Dask: tcp://HOST:PORT of a running scheduler, or local:N to start "
                   "N local workers (needs boardproof[cluster]).")
@click.option("--method", default="split", show_default=True,
              help="SAT method: split (fill + full steps), fill (fill step by SAT, "
                   "full step by Lemma H), plain (baseline) or fast.")
@click.option("--solver", default="cadical195", show_default=True,
              help=f"python-sat backend: {', '.join(solving.SOLVERS)}.")
@click.option("--certify-max", type=click.IntRange(min=0), default=claims.DEFAULT_CERTIFY_MAX,
              show_default=True,
              help="Write (gzip) and check DRUP proofs for sizes up to this (needs --out).")
@click.option("--own-check-max", type=int, default=claims.DEFAULT_OWN_CHECK_MAX,
              show_default=True,
              help="Also check proofs with the project's own backward checker (C) up to "
                   "this size (and with its slow forward one up to 8); dratify checks "
                   "every proof.")
@click.option("--strip-max", type=int, default=0, show_default=True,
              help="no-draw report with --out: also prove the strip lemma for widths "
                   "up to this (about 1 min for 8).")
@click.option("--second-solver", default=None,
              help="Re-solve every fill step with a second solver: "
                   "cryptominisat, glucose4 or minisat22.")
@click.option("--cubes", type=int, default=0, show_default=True,
              help="Split sizes >= 13 into cubes over this many central points.")
@click.option("--exhaustive-max", type=click.IntRange(min=0), default=3, show_default=True,
              help="Also enumerate every reachable position up to this size.")
@click.option("--checkpoint", "checkpoint", type=click.Path(dir_okay=False), default=None,
              help="Checkpoint file (default: under --out, or ~/.cache/boardproof).")
@click.option("--fresh", is_flag=True, help="Ignore (delete) an existing checkpoint.")
@click.option("--quiet", is_flag=True, help="No progress display.")
@click.option("--variant", default="standard", show_default=True,
              help="The glyphs: standard, pinwheel or cartwheel (minefield-minimal: the "
                   "variants whose glyphs are checked, comma-separated).")
@click.option("--note", default="", help="A line added to the report (e.g. the load).")
@click.option("--merge", "merge_file", type=click.Path(dir_okay=False), default=None,
              help="An earlier report's JSON: keep its rows for the sizes not run now.")
def verify_command(claim: str, sizes: str | None, out: str | None, as_json: bool,
                   workers: int, scheduler: str | None, method: str, solver: str,
                   certify_max: int, cubes: int, exhaustive_max: int,
                   checkpoint: str | None, fresh: bool, quiet: bool, note: str,
                   merge_file: str | None, own_check_max: int, strip_max: int,
                   second_solver: str | None, variant: str) -> None:
    """Verify CLAIM (minefield-no-draw, minefield-orthodiagonal, minefield-minimal) per
    board size.

    \b
    Example:
      boardproof verify minefield-no-draw --sizes 2-8 --out nodraw
    """
    if claim == minimality.CLAIM:
        minimality_command(variant, sizes, out, as_json, workers, certify_max, exhaustive_max,
                           checkpoint, fresh, quiet)
        return
    spec = claims.check_claim(claim)
    check_variant(variant)
    check_output_path(out, "--out", folder=True)
    check_output_path(checkpoint, "--checkpoint")
    size_list = (claims.parse_sizes(sizes) if sizes is not None
                 else list(range(spec.default_sizes[0], spec.default_sizes[1] + 1)))
    if cubes < 0:
        raise claims.InvalidOptionError(f"invalid option --cubes: expected >= 0, got {cubes!r}")
    for name, value in (("--certify-max", certify_max), ("--own-check-max", own_check_max),
                        ("--exhaustive-max", exhaustive_max), ("--strip-max", strip_max)):
        if value < 0:
            raise claims.InvalidOptionError(
                f"invalid option {name}: expected >= 0, got {value!r}")
    path = Path(checkpoint) if checkpoint else default_checkpoint(
        claim, method, solver, cubes, out, variant)
    if fresh and path.exists():
        path.unlink()
    proof_dir = Path(out) / "proofs" if out is not None else None
    previous = _load_report(merge_file) if merge_file is not None else None

    result = claims.verify(
        claim, size_list, method=method, solver=solver, workers=workers,
        scheduler=scheduler, checkpoint=path, certify_max=certify_max,
        proof_dir=proof_dir, cubes=cubes, exhaustive_max=exhaustive_max,
        progress=not quiet and not as_json,
        own_check_max=own_check_max, second_solver=second_solver, variant=variant,
    )
    if note:
        result["note"] = note
    args = [claim] + (["--variant", variant] if variant != "standard" else [])
    args += ["--sizes", sizes or f"{spec.default_sizes[0]}-{spec.default_sizes[1]}",
            "--method", method, "--solver", solver, "--exhaustive-max",
            str(exhaustive_max), "--certify-max", str(certify_max)]
    if own_check_max != claims.DEFAULT_OWN_CHECK_MAX:
        args += ["--own-check-max", str(own_check_max)]
    if second_solver is not None:
        args += ["--second-solver", second_solver]
    if strip_max:
        args += ["--strip-max", str(strip_max)]
    if cubes:
        args += ["--cubes", str(cubes)]
    if cubes or workers != 1:
        args += ["--workers", str(workers)]
    if scheduler is not None:
        args += ["--scheduler", scheduler]
    if merge_file is not None:
        args += ["--merge", merge_file]
    if out is not None:
        args += ["--out", out]
    result["commands"] = ["boardproof verify " + " ".join(shlex.quote(a) for a in args)]
    if previous is not None:
        result = claims.merge(result, previous, str(merge_file))
    if out is not None and claim == "minefield-no-draw" and variant == "standard":
        result["ring"] = ring.summary(strip_max)  # partial theorems towards every n
    if out is not None:
        written = nodraw.write_report(result, out, command="\n".join(result["commands"]))
        result["files"] = [str(p) for p in written]
    result["checkpoint"] = str(path)
    if as_json:
        echo_json(result)
        return
    click.echo(nodraw.text_table(result))
    if out is not None:
        click.echo("wrote " + ", ".join(result["files"]))
    if scheduler is not None:  # the back end, as the other long jobs name it
        click.echo(run_line(result))


def minimality_command(variants: str, sizes: str | None, out: str | None, as_json: bool,
                       workers: int, certify_max: int, exhaustive_max: int,
                       checkpoint: str | None, fresh: bool, quiet: bool) -> None:
    """``verify minefield-minimal``: is each glyph of the variants needed?"""
    names = [v.strip() for v in variants.split(",") if v.strip()] or ["standard"]
    for name in names:
        check_variant(name)
    check_output_path(out, "--out", folder=True)
    check_output_path(checkpoint, "--checkpoint")
    size_list = claims.parse_sizes(sizes or "2-8")
    path = Path(checkpoint) if checkpoint else default_checkpoint(
        minimality.CLAIM, "plain", "cadical195", 0, out, "-".join(names))
    if fresh and path.exists():
        path.unlink()
    result = minimality.verify_minimal(
        names, size_list, workers=workers, checkpoint=path,
        proof_dir=Path(out) / "proofs" if out is not None else None,
        certify_max=certify_max, exhaustive_max=exhaustive_max,
        progress=not quiet and not as_json)
    args = [minimality.CLAIM, "--variant", ",".join(names), "--sizes", sizes or "2-8",
            "--certify-max", str(certify_max), "--exhaustive-max", str(exhaustive_max)]
    if out is not None:
        args += ["--out", out]
    command = "boardproof verify " + " ".join(shlex.quote(a) for a in args)
    if out is not None:
        written = minimal_report.write_report(result, out, command)
        result["files"] = [str(p) for p in written]
    if as_json:
        echo_json(result)
        return
    click.echo(minimal_report.text_table(result))
    if out is not None:
        click.echo("wrote " + ", ".join(result["files"]))


def run_line(result: dict[str, Any]) -> str:
    """The back end line of a run on a cluster.

    >>> run_line({"backend": "dask local:2", "workers": 2, "tasks": 5, "resumed_tasks": 1,
    ...           "rerun_tasks": ["n=8/full"]})
    'dask local:2, 2 workers: 5 tasks (4 computed, 1 from checkpoint); re-run: n=8/full'
    """
    backend, _, address = str(result.get("backend", "dask")).partition(" ")
    tasks, resumed = int(result.get("tasks", 0)), int(result.get("resumed_tasks", 0))
    info = RunInfo(backend, int(result.get("workers", 1)), address or None, tasks=tasks,
                   resumed=resumed, computed=tasks - resumed,
                   reruns=dict.fromkeys(result.get("rerun_tasks", []), 1))  # fmt: skip
    return info.summary()


#: the commands Minefield adds to the command line (``GameInfo.commands``)
COMMANDS = [verify_command, fairness_command]
