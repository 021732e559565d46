"""``boardproof fairness``: Minefield's fairness maps (self-play estimates) from the command
line's options (:mod:`.fairness` plays the games, :mod:`.fairness_report` writes them)."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from boardproof.commands.common import (
    SECONDS,
    check_output_path,
    echo_json,
    per_size,
    run_summary,
)
from boardproof.inputs import read_text
from boardproof.jobs.executor import Executor
from boardproof.models.base import InvalidOptionError

if TYPE_CHECKING:
    from boardproof.models.minefield.research.fairness import Campaign

DEFAULT_SIZES = "7,9,13,15"
DEFAULT_OUT = "fairness"
#: the report's base name (``fairness_report.NAME``: the command loads that module late)
NAME = "minefield-fairness"
#: the published proved opening tables (pie off, orthogonal rule): standard, pinwheel
PROVED_DEFAULT = ("reports/minefield-openings.json", "reports/minefield-openings-pinwheel.json")


def check_replace(out: str, campaign: dict[str, Any], replace: bool) -> None:
    """Refuse to overwrite a report of other settings in ``out`` unless ``replace``: a
    report is only rewritten by the run that made it (which grows or resumes it)."""
    path = Path(out) / f"{NAME}.json"
    if replace or not path.exists():
        return
    try:
        earlier = json.loads(read_text(path)).get("settings")
    except (OSError, ValueError, AttributeError):
        earlier = None
    if earlier != campaign:
        raise InvalidOptionError(
            f"invalid option --out: it holds a fairness report of other settings (pass "
            f"--replace to overwrite it): {str(path)!r}"
        )


def command_line(campaign: Campaign, games: str, iterations: str, out: str,
                 proved: list[str], journal: str | None = None) -> str:  # fmt: skip
    """The command that makes the same report (the back end does not change it; a
    journal kept with the sources is named: the command resumes from it)."""
    args = ["--sizes", ",".join(map(str, campaign.sizes)),
            "--variants", ",".join(campaign.variants), "--games", games,
            "--iterations", iterations, "--seed", str(campaign.seed)]  # fmt: skip
    for path in proved or ["none"]:
        args += ["--proved", path]
    if journal is not None:
        args += ["--checkpoint", journal]
    return "boardproof fairness " + shlex.join([*args, "--out", out])


def parse_per_size(text: str, option: str, sizes: list[int]) -> dict[int, int]:
    """``N`` (every size) or ``N,SIZE=M,...`` (SIZE gets M): a whole number >= 1 per size.

    >>> parse_per_size("9=4", "--games", [9, 13])
    Traceback (most recent call last):
    ...
    boardproof.models.base.InvalidOptionError: invalid option --games: no value for 13x13 \
(give N or N,SIZE=M), got '9=4'
    """
    return per_size(text, option, sizes, int, expected="whole numbers",
                    check=lambda n: "expected >= 1" if n < 1 else None)


def parse_variants(text: str) -> list[str]:
    """``standard,pinwheel`` as a list (the variants the native engine plays)."""
    from boardproof.models.minefield.research.fairness import VARIANTS

    found = [part.strip() for part in text.split(",")]
    for name in found:
        if name not in VARIANTS:
            raise InvalidOptionError(
                f"invalid option --variants: expected {' and/or '.join(VARIANTS)} "
                f"(comma-separated), got {text!r}"
            )
    return [v for v in VARIANTS if v in found]


@click.command(name="fairness")
@click.option("--sizes", default=DEFAULT_SIZES, show_default=True,
              help="Board sizes: a list (7,9) or A-B.")
@click.option("--variants", default="standard,pinwheel", show_default=True,
              help="Minefield variants the native engine plays: standard, pinwheel and/or "
                   "cartwheel.")
@click.option("--games", default="32", show_default=True,
              help="Self-play games per class of first points: N, or N,SIZE=M,... "
                   "(e.g. 32,13=8,15=8).")
@click.option("--iterations", default="1000", show_default=True,
              help="MCTS iterations a move (one thread): N, or N,SIZE=M,...")
@click.option("--seed", type=int, default=0, show_default=True,
              help="The campaign seed (every game's engine seeds come from it).")
@click.option("--out", "out", type=click.Path(file_okay=False), default=DEFAULT_OUT,
              show_default=True,
              help="Folder for the report files (the published ones: --out reports).")
@click.option("--proved", multiple=True, metavar="FILE",
              help="An opening report's JSON whose proved cells are marked on the maps of "
                   "its variant (repeatable; none: no marks) [those of "
                   f"{', '.join(PROVED_DEFAULT)} that exist].")
@click.option("--workers", type=int, default=1, show_default=True,
              help="Local worker processes.")
@click.option("--scheduler", default=None,
              help="Dask: tcp://HOST:PORT of a running scheduler, or local:N "
                   "(needs boardproof[cluster]).")
@click.option("--checkpoint", type=click.Path(dir_okay=False), default=None,
              help="The journal (default: OUT/minefield-fairness.checkpoint.jsonl, kept).")
@click.option("--fresh", is_flag=True, help="Delete the journal and start again.")
@click.option("--stop-after", "stop_after", type=SECONDS, default=None,
              help="Start no block of games after this many seconds; the report says what "
                   "is played (the same command resumes).")
@click.option("--replace", is_flag=True,
              help="Overwrite a report of other settings in OUT.")
@click.option("--quiet", is_flag=True, help="No progress display.")
@click.option("--json", "as_json", is_flag=True, help="Print the report's JSON object.")
def fairness_command(sizes: str, variants: str, games: str, iterations: str, seed: int,
                     out: str, proved: tuple[str, ...], workers: int, scheduler: str | None,
                     checkpoint: str | None, fresh: bool, stop_after: float | None,
                     replace: bool, quiet: bool, as_json: bool) -> None:  # fmt: skip
    """Minefield fairness maps: the engine's self-play win rate after each first point.

    Estimates, with 95 % intervals, and the swap policy they imply; see docs/proofs.md.

    \b
    Example:
      boardproof fairness --sizes 7 --games 16 --iterations 500 --out fairness
    """
    # the run's modules load when the command runs (the command line loads this one at
    # every start, for its options)
    from boardproof.models.minefield.research import fairness
    from boardproof.models.minefield.research import fairness_report as rendering
    from boardproof.models.minefield.research.claims import parse_sizes

    try:
        size_list = parse_sizes(sizes)
    except InvalidOptionError:
        raise InvalidOptionError(
            f"invalid option --sizes: expected sizes 2 to 26 (a list or A-B), got {sizes!r}"
        ) from None
    variant_list = parse_variants(variants)
    campaign = fairness.Campaign(
        tuple(size_list), tuple(variant_list),
        parse_per_size(games, "--games", size_list),
        parse_per_size(iterations, "--iterations", size_list), seed,
    )  # fmt: skip
    check_output_path(out, "--out", folder=True)
    check_output_path(checkpoint, "--checkpoint")
    files = [p for p in PROVED_DEFAULT if os.path.exists(p)] if not proved else [
        p for p in proved if p != "none"]  # fmt: skip
    try:
        proved_table = fairness.load_proved(files)
    except InvalidOptionError as error:
        raise InvalidOptionError(str(error).replace("option proved:", "option --proved:", 1)) \
            from None
    check_replace(out, campaign.describe(), replace)
    journal = checkpoint or os.path.join(out, f"{NAME}.checkpoint.jsonl")
    executor = Executor(workers, scheduler)  # bad options refused before any work
    if fresh and os.path.exists(journal):
        os.remove(journal)
    with executor:
        report = fairness.run_campaign(campaign, executor, checkpoint=journal,
                                       proved=proved_table, progress=not quiet and not as_json,
                                       stop_after=stop_after)  # fmt: skip
    kept = checkpoint if checkpoint is not None and not os.path.isabs(checkpoint) else None
    report["command"] = command_line(campaign, games, iterations, out, files, kept)
    report["proved_from"] = files
    if kept is not None:
        report["journal"] = kept
    written = rendering.write_report(report, out)
    if as_json:
        echo_json({**rendering.file_data(report), "files": [str(p) for p in written]})
        return
    for size in report["sizes"]:
        black = sum(cls["black_wins"] for cls in size["classes"])
        share = f"{100 * black / size['games']:.1f} %" if size["games"] else "-"
        click.echo(f"{size['n']}x{size['n']} {size['variant']}: {size['games']} of "
                   f"{size['games_asked']} games, Black won {share}; swap after "
                   f"{size['swap_points']} of {size['n'] ** 2} points "
                   f"({size['uncertain_points']} uncertain)")  # fmt: skip
    for path in written:
        click.echo(f"wrote {path}")
    for line in fairness.timing(report):
        click.echo(line)
    if not report["complete"]:
        click.echo(f"partial: resume with the same command (journal {journal})")
    click.echo(run_summary(executor))
