"""Minefield's compact certificates in the command line: ``solve --proof-format`` and
``check-proof`` on a certificate file (:mod:`.proofs.certificate`), found through the game's
descriptor (``GameInfo.certificates``); ``openings --certificates`` is
:mod:`boardproof.models.minefield.research.opening_certificates`."""

from __future__ import annotations

import time
from typing import Any

import click

from boardproof.commands.common import echo_json
from boardproof.models.base import CertificateFormat, InvalidOptionError
from boardproof.models.minefield.proofs.certificate import (
    LEMMAS,
    CertificateReport,
    check_certificate,
    is_certificate_file,
    load_certificate,
    write_atomic,
)
from boardproof.solvers.proof import NotAProofError, ProofError

#: ``--proof-format auto`` writes a certificate from this board size on (a 5x5 tree is too
#: large to write), for the positions the native 64-bit search takes
AUTO_CERTIFICATE_SIZE = 5
#: ``check-proof`` on a certificate: a progress line every this many listed positions
PROGRESS_EVERY = 8192


def wants_certificate(position: Any, proof_format: str) -> bool:
    """Whether ``solve --proof`` writes a certificate rather than a proof tree."""
    if proof_format == "tree":
        return False
    # the search is imported here, not with the module: check-proof, which finds this
    # module through the descriptor, never loads it (the checker needs the rules only)
    from boardproof.models.minefield import native

    fits = (position.game.name == "minefield" and native.available() and not position.pie
            and position.n <= native.SMALL_MAX_SIZE
            and position.game.variant in native.VARIANTS)  # fmt: skip
    if proof_format == "certificate":
        if not fits:
            raise InvalidOptionError(
                "invalid option --proof-format: a certificate needs a Minefield position of "
                f"at most {native.SMALL_MAX_SIZE}x{native.SMALL_MAX_SIZE} without a pending "
                f"swap, {' or '.join(native.VARIANTS)} glyphs (and the C module), got "
                f"{position.fen()!r}"
            )
        return True
    return fits and position.n >= AUTO_CERTIFICATE_SIZE


def write_certificate(position: Any, winner: int, path: str, option: str = "--proof",
                      timeout: float | None = None) -> str:  # fmt: skip
    """Make and write the certificate that ``winner`` wins ``position``; one line."""
    from boardproof.models.minefield.native.certify import CertificateFailed, make_certificate

    start = time.perf_counter()
    try:
        cert = make_certificate(position, winner=winner, timeout=timeout)
    except CertificateFailed as error:
        return f"not written: {error}"
    try:
        size = write_atomic(path, cert.to_bytes())
    except OSError as error:
        raise InvalidOptionError(f"invalid option {option}: cannot write ({error}): "
                                 f"{path!r}") from None  # fmt: skip
    seconds = time.perf_counter() - start
    return (f"wrote certificate {path} ({len(cert.records)} positions, {size} bytes, "
            f"{seconds:.1f} s)")  # fmt: skip


def check_certificate_command(file: str, as_json: bool) -> None:
    """``check-proof FILE`` for a certificate: progress on stderr, exit 1 if rejected."""
    try:
        cert = load_certificate(file)

        def progress(done: int, total: int) -> None:
            if total >= PROGRESS_EVERY:
                click.echo(f"check-proof: {done} of {total} listed positions checked", err=True)

        report = check_certificate(cert, progress=progress, every=PROGRESS_EVERY)
    except NotAProofError:
        raise
    except ProofError as error:
        if as_json:
            echo_json({"file": file, "ok": False, "error": str(error)})
        else:
            click.echo(f"proof rejected: {error}")
        raise click.exceptions.Exit(1) from None
    if as_json:
        echo_json(certificate_payload(file, report))
        return
    click.echo(describe_check(report))


def describe_check(report: CertificateReport) -> str:
    """The line ``check-proof`` prints for a certificate that passed."""
    line = (f"proof OK: {report.winner} wins {report.game} from {report.root} (certificate: "
            f"{report.positions} positions listed, {report.replies} positions checked)")
    for lemma in report.lemmas:
        line += f"; relies on {LEMMAS[lemma]}"
    return line


def certificate_payload(file: str, report: CertificateReport) -> dict[str, Any]:
    """``check-proof --json`` for a certificate that passed."""
    return {"file": file, "ok": True, "format": "certificate", "game": report.game,
            "root": report.root, "winner": report.winner, "positions": report.positions,
            "checked": report.replies, "lemmas": report.lemmas}  # fmt: skip


#: what the command line finds through Minefield's descriptor (``GameInfo.certificates``)
CERTIFICATES = CertificateFormat(
    wants=wants_certificate,
    write=write_certificate,
    is_file=is_certificate_file,
    check_command=check_certificate_command,
)
