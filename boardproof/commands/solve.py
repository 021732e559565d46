"""``boardproof solve`` and ``boardproof check-proof``: thin wrappers over the solvers."""

from __future__ import annotations

from typing import Any

import click

from boardproof import models
from boardproof.commands.common import (
    SECONDS,
    Heartbeat,
    allow_impossible_option,
    check_output_path,
    check_possible,
    echo_json,
    game_options,
    live_search_status,
    load_game,
    quoted,
)
from boardproof.commands.payloads import proof_check_payload
from boardproof.commands.results import echo_answer, tail_lines, write_proof_file
from boardproof.models.base import BoardproofError, InvalidOptionError
from boardproof.solvers.api import METHODS, SolveResult, solve
from boardproof.solvers.common import engine_of
from boardproof.solvers.proof import (
    NotAProofError,
    ProofError,
    ProofTooLarge,
    build_proof,
    check_proof,
    load_proof,
)

#: ``solve --proof-format``: tree (the JSON proof tree), certificate (compact), auto
PROOF_FORMATS = ("auto", "tree", "certificate")


def describe_result(result: SolveResult) -> list[str]:
    """The text lines ``solve`` prints."""
    game = result.position.game
    mover = game.symbol(result.position.to_move)
    lines = [f"position: {result.position.fen()}"]
    if result.value == "win":
        how = f" in {result.plies} plies" if result.plies is not None else ""
        lines.append(f"result: win for {mover} (the side to move){how}")
    elif result.value == "loss":
        assert result.winner is not None
        how = f" in {result.plies} plies" if result.plies is not None else ""
        lines.append(f"result: loss for {mover}: {game.symbol(result.winner)} wins{how}")
    elif result.value == "draw":
        lines.append("result: draw (nobody can force a win)")
    else:
        lines.append("result: unknown")
    if result.score is not None:
        lines.append(f"score: {result.score:+d} for {mover}")
    if result.note:
        lines.append(f"note: {result.note}")
    if result.best_move is not None:
        lines.append(f"best move: {result.best_move}")
    return lines + tail_lines(result.pv, "nodes", result.nodes, result.seconds, result.method)


@click.command(name="solve")
@click.argument("game")
@click.argument("position")
@click.option("--max-plies", type=click.IntRange(min=0), default=None,
              help="Only look for wins within N plies.")  # fmt: skip
@click.option("--timeout", type=SECONDS, default=None,
              help="Stop after S seconds (then: unknown).")  # fmt: skip
@click.option("--method", type=click.Choice(METHODS), default="auto", show_default=True,
              help="auto (native for Minefield, Carpniches and Candy Conquest when built, "
              "else alphabeta), alphabeta, pns (df-pn), enumerate (retrograde) or native "
              "(C: Minefield 2x2 to 26x26, Carpniches, Candy Conquest).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--proof", "proof_file", type=click.Path(dir_okay=False), default=None,
              help="Write a checkable proof of a proved win to FILE.")  # fmt: skip
@click.option("--proof-format", type=click.Choice(PROOF_FORMATS), default="auto",
              show_default=True,
              help="tree (JSON proof tree), certificate (compact, Minefield up to 8x8: "
              "the winner's positions and moves, xz) or auto (certificate from 5x5 on).")
@game_options
@allow_impossible_option
def solve_command(
    game: str,
    position: str,
    max_plies: int | None,
    timeout: float | None,
    method: str,
    as_json: bool,
    proof_file: str | None,
    proof_format: str,
    options: dict[str, Any],
    allow_impossible: bool,
) -> None:
    """Solve POSITION: who wins with perfect play, how fast, and the best line.

    \b
    Example:
      boardproof solve minefield "1b2/2w1/1bb1/w3 w -" --proof proof.json
    """
    check_output_path(proof_file, "--proof")
    game_obj = load_game(game, **options)
    pos = game_obj.parse_position(position)
    check_possible(pos, allow_impossible)
    certificates = game_obj.info.part("certificates")
    certificate = proof_file is not None and _wants_certificate(pos, proof_format)
    with live_search_status() as status, Heartbeat(
        f"solve {game_obj.name} (method {method})", status=status
    ):
        result = solve(pos, method=method, max_plies=max_plies, timeout=timeout)
    proof_note = None
    if proof_file is not None and certificate:
        proof_note = (certificates.write(pos, result.winner, proof_file, timeout=timeout)
                      if result.value in ("win", "loss") and result.winner is not None
                      else "not written: no proved win")  # fmt: skip
    elif proof_file is not None:
        proof_note = _write_proof(result, game_obj.name, options, proof_file)
    echo_answer(as_json, lambda: result.to_json(game_obj.name),
                lambda: describe_result(result), proof_note)  # fmt: skip


def _wants_certificate(position: Any, proof_format: str) -> bool:
    """Whether ``solve --proof`` writes the game's compact certificate, not a proof tree."""
    if proof_format == "tree":
        return False
    certificates = position.game.info.part("certificates")
    if certificates is None:
        if proof_format == "certificate":
            raise InvalidOptionError(
                f"invalid option --proof-format: {position.game.name} has no compact "
                f"certificates, got {position.fen()!r}"
            )
        return False
    wanted: bool = certificates.wants(position, proof_format)
    return wanted


@click.command(name="check-proof")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def check_proof_command(file: str, as_json: bool) -> None:
    """Re-check a proof FILE with the rules only (never the solver).

    FILE is a JSON proof tree or a compact certificate (see docs/proofs.md). Exit status
    1 when the proof is rejected, 2 when FILE is not a proof at all.

    \b
    Example:
      boardproof solve minefield "3/3/3 b -" --proof proof.json
      boardproof check-proof proof.json
    """
    try:
        for name in models.names():
            certificates = models.info(name).part("certificates")
            if certificates is not None and certificates.is_file(file):
                certificates.check_command(file, as_json)
                return
        data = load_proof(file)  # not a proof at all: bad input, exit status 2
    except OSError as error:
        raise InvalidOptionError(
            f"invalid FILE: cannot read ({error.strerror or error}): {quoted(file)}"
        ) from None
    try:
        report = check_proof(data, load_game=_proof_game)
    except NotAProofError:
        raise
    except ProofError as error:
        if as_json:
            echo_json(proof_check_payload(file, error=str(error)))
        else:
            click.echo(f"proof rejected: {error}")
        raise click.exceptions.Exit(1) from None
    if as_json:
        echo_json(proof_check_payload(file, report))
        return
    click.echo(
        f"proof OK: {report.winner} wins {report.game} from {report.root} "
        f"({report.nodes} positions checked)"
    )


def _proof_game(name: str, options: dict[str, Any]) -> Any:
    """The game a proof names (the loader of :func:`check_proof`)."""
    return models.get(name, **options)


def _write_proof(
    result: SolveResult, game_name: str, options: dict[str, Any], path: str
) -> str:
    """Write the proof of ``result``'s win; returns what happened (one line)."""
    if result.value not in ("win", "loss") or result.winner is None:
        return "not written: no proved win"
    engine = engine_of(result.position)
    oracle = None
    if engine is not None and engine.win_oracle is not None:
        oracle = engine.win_oracle(result.position, result.winner, result.plies)
    try:
        proof = build_proof(
            result.position, winner=result.winner, game_name=game_name, options=options,
            oracle=oracle,
        )  # fmt: skip
    except ProofTooLarge:
        return "not written: the proof is too large"
    except ValueError as error:
        if isinstance(error, BoardproofError):
            raise
        return f"not written: {error}"
    write_proof_file(proof, path)
    return f"wrote {path} ({len(proof['nodes'])} positions)"
