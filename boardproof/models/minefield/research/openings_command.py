"""``boardproof openings minefield``: the opening table of each board size, from the
command line's options (:mod:`.openings` computes it, :mod:`.openings_report` writes it).
"""

from __future__ import annotations

import json
import math
import os
import time
from typing import Any

import click

from boardproof import models
from boardproof.commands.common import backend_options, check_output_path, per_size, run_summary
from boardproof.jobs.executor import Executor
from boardproof.models.base import InvalidOptionError, Openings

DEFAULT_SIZES = "2-4"
#: the largest Minefield board whose opening table was ever finished (5x5: 52 million
#: nodes, about 1-2 minutes with 2 workers; 6x6 is estimated at ~90 billion df-pn nodes);
#: larger sizes need --force
MAX_FINISHED_SIZE = 5


#: the options of ``boardproof openings minefield`` (the command adds the common ones)
PARAMS = (
    click.Option(["--sizes"], default=None,
                 help=f"board sizes, e.g. 2-5 [{DEFAULT_SIZES}]."),
    click.Option(["--win"], default=None, metavar="RULE",
                 help="'orthogonal' (rulebook, default) or 'orthodiagonal'."),
    click.Option(["--variant"], default=None, metavar="GLYPHS",
                 help="the glyphs: standard (rulebook, default), pinwheel or cartwheel; "
                      "the report's files are then minefield-openings-VARIANT.*."),
    click.Option(["--split"], default=None, metavar="POINTS",
                 help="split these first points' entries (e.g. a1,a2: the hardest) into one "
                      "task per reply."),
    click.Option(["--budget"], type=click.IntRange(min=1), default=None, metavar="NODES",
                 help="sizes from 6x6 on: df-pn nodes per attempt; an entry not settled "
                      "within it is split into one attempt per reply (resumable: one "
                      "checkpoint line per attempt)."),
    click.Option(["--depth"], default=None, metavar="N",
                 help="with --budget: split this many plies below an entry (0 to 8), or "
                      "per size: N,SIZE=M (6,7=0: 7x7 entries are not split) [1]."),
    click.Option(["--grow"], default=None, metavar="ORDER",
                 help="with --budget: breadth (every reply of a split position is attempted "
                      "before any is split) or best (the next attempt is the most-proving "
                      "position: proof-number search over the journal) [breadth]."),
    click.Option(["--budget-from", "budget_from"], type=click.IntRange(min=2, max=8),
                 default=None, metavar="N",
                 help="with --budget: the first size settled so [6]."),
    click.Option(["--stop-after", "stop_after"], default=None, metavar="SECONDS",
                 help="with --budget: start no attempt that would not end within this many "
                      "seconds (at the journal's nodes per second); the running ones finish; "
                      "the report says what is settled (resume from the checkpoint). Per "
                      "size: S,SIZE=T (1,7=3600: only 7x7 starts attempts)."),
    click.Option(["--method"], default=None, metavar="METHOD",
                 help="auto (dfpn if the C module is built), dfpn (from 5x5 on: native df-pn "
                      "first, native alpha-beta second), native (native alpha-beta first) or "
                      "alphabeta."),
    click.Option(["--certificates"], default=None, type=click.Path(file_okay=False),
                 help="also write a compact certificate of each entry into this folder "
                      "(check-proof checks them; see docs/proofs.md)."),
    click.Option(["--force"], is_flag=True,
                 help=f"run sizes above {MAX_FINISHED_SIZE}x{MAX_FINISHED_SIZE} too."),
)  # fmt: skip


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
    depth: str | None = None,
    budget_from: int | None = None,
    stop_after: str | None = None,
    cert_dir: str | None = None,
    grow: str | None = None,
    variant: str | None = None,
) -> None:
    # the runs' modules load when the command runs: the command line loads this module at
    # every start, for its options
    from boardproof.models.minefield.research.claims import parse_sizes
    from boardproof.models.minefield.research.opening_certificates import (
        check_opening_certificates,
        reprove_from_certificates,
        write_opening_certificates,
    )
    from boardproof.models.minefield.research.openings import (
        METHODS,
        SPLIT_FIRST_SIZE,
        build_report,
    )
    from boardproof.models.minefield.research.openings_report import write_report
    from boardproof.models.minefield.research.subtrees import GROWTHS, attempt_folder

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
    if variant is not None:
        _check_variant(variant, method, cert_dir)
    if grow is not None and grow not in GROWTHS:
        raise InvalidOptionError(
            f"invalid option --grow: expected one of {', '.join(GROWTHS)}, got {grow!r}")
    for flag, value in (("--depth", depth), ("--budget-from", budget_from),
                        ("--stop-after", stop_after), ("--grow", grow)):
        if value is not None and budget is None:
            raise InvalidOptionError(f"invalid option {flag}: it needs --budget, got {value}")
    split_from = SPLIT_FIRST_SIZE if budget_from is None else budget_from
    deep = budget is not None and any(n >= split_from for n in size_list)
    deep_sizes = [n for n in size_list if budget is not None and n >= split_from]
    depths = per_size(depth or "1", "--depth", deep_sizes, int, expected="whole numbers",
                      check=lambda d: None if 0 <= d <= 8 else "expected 0 to 8")
    stops = None if stop_after is None else per_size(
        stop_after, "--stop-after", deep_sizes, float, expected="seconds",
        check=lambda s: None if math.isfinite(s) and s > 0 else "expected seconds > 0")
    # a run of budgeted attempts keeps its journal (the unsettled entries go on from it)
    stem = "minefield-openings" + (f"-{variant}" if variant not in (None, "standard") else "")
    cp = checkpoint or os.path.join(out_dir, stem + ".checkpoint"
                                    + (".jsonl" if deep else ".json"))  # fmt: skip
    start = time.perf_counter()
    command = f"boardproof openings minefield --sizes {sizes}" + backend_options(executor)
    if timeout is not None:
        command += f" --timeout {timeout:g}"
    if win is not None:
        command += f" --win {win}"
    if variant is not None:
        command += f" --variant {variant}"
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
        command += f" --budget {budget} --depth {per_size_text(depths)}"
        if grow is not None and grow != "breadth":
            command += f" --grow {grow}"
        if budget_from is not None:
            command += f" --budget-from {budget_from}"
        if stop_after is not None:
            command += f" --stop-after {per_size_text(stops or {})}"
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
        depth=depths,
        split_from=split_from,
        stop_after=stops,
        grow=grow or "breadth",
        notes=lambda line: click.echo(line, err=True),
        variant=variant or "standard",
    )
    attempts = None
    if deep:
        checkpoint = cp  # kept
        if not os.path.isabs(cp):  # a journal kept with the sources: the report names it
            report["journal"] = cp

        attempts = attempt_folder(cp)
    if cert_dir is not None:
        parts: dict[str, list[str]] = {}
        paths = write_opening_certificates(report, cert_dir, win or "orthogonal", executor,
                                           attempts, parts,
                                           notes=lambda text: click.echo(text, err=True),
                                           variant=variant or "standard")  # fmt: skip
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




def per_size_text(values: dict[int, Any]) -> str:
    """Per-size values as the option gives them: the most common one, then the others.

    >>> per_size_text({6: 6}), per_size_text({6: 1.0, 7: 3600.0}), per_size_text({})
    ('6', '1,7=3600', '')
    """
    if not values:
        return ""
    listed = list(values.values())
    common = max(listed, key=lambda v: (listed.count(v), -listed.index(v)))
    return ",".join([f"{common:g}"] + [f"{n}={v:g}" for n, v in values.items() if v != common])


def _check_variant(variant: str, method: str = "auto", cert_dir: str | None = None) -> None:
    """Refuse a variant that the opening tables do not take (one line naming it): one
    that the native searches (which make the certificates) do not take only with
    ``--method alphabeta`` and without certificates. They take every variant of the
    model (the cartwheel's too, issue 30).

    >>> _check_variant("wheel")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    boardproof...InvalidOptionError: invalid option --variant: expected one of standard, ...
    >>> _check_variant("cartwheel", cert_dir="reports/certificates-cartwheel")
    """
    from boardproof.models.minefield.board import VARIANTS as KNOWN
    from boardproof.models.minefield.native import VARIANTS

    if variant not in KNOWN:
        raise InvalidOptionError(f"invalid option --variant: expected one of "
                                 f"{', '.join(KNOWN)}, got {variant!r}")  # fmt: skip
    if variant not in VARIANTS and (method != "alphabeta" or cert_dir is not None):
        raise InvalidOptionError(
            f"invalid option --variant: expected {' or '.join(VARIANTS)} (the native "
            f"searches do not take the {variant} glyph, which counts points beyond the "
            f"board as stones; it takes --method alphabeta and no --certificates), got "
            f"{variant!r}")


def run(executor: Executor, given: dict[str, Any], *, out_dir: str, timeout: float | None,
        as_json: bool) -> None:  # fmt: skip
    """The command's run for Minefield, from the options it was given."""
    check_output_path(given["certificates"], "--certificates", folder=True)
    sizes = DEFAULT_SIZES if given["sizes"] is None else given["sizes"]
    _minefield(sizes, executor, out_dir, given["checkpoint"], timeout, given["win"],
               given["method"] or "auto", given["split"], bool(given["force"]), as_json,
               given["budget"], given["depth"], given["budget_from"], given["stop_after"],
               given["certificates"], given["grow"], given["variant"])  # fmt: skip


#: what ``boardproof openings`` finds through Minefield's descriptor
OPENINGS = Openings(params=PARAMS, run=run)
