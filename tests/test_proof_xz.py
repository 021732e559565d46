"""Proof files compressed with xz (the large published Carpniches proof trees) are read
and checked as they are; a file named .xz that is not xz is refused with one line."""

from __future__ import annotations

import json
import lzma
import subprocess
import sys
from pathlib import Path

import pytest

from boardproof.solvers.proof import NotAProofError, load_proof

SMALL = Path(__file__).resolve().parent.parent / "reports" / "carpniches-opening-f1-e1.proof.json"


def test_an_xz_proof_reads_as_its_json(tmp_path: Path) -> None:
    packed = tmp_path / "p.proof.json.xz"
    packed.write_bytes(lzma.compress(SMALL.read_bytes()))
    assert load_proof(str(packed)) == json.loads(SMALL.read_text())


def test_check_proof_accepts_the_xz_file(tmp_path: Path) -> None:
    packed = tmp_path / "p.proof.json.xz"
    packed.write_bytes(lzma.compress(SMALL.read_bytes()))
    command = str(Path(sys.executable).parent / "boardproof")

    def check(path: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run([command, "check-proof", str(path)], capture_output=True,
                              text=True, timeout=120)  # fmt: skip

    result, plain = check(packed), check(SMALL)
    assert result.returncode == 0 == plain.returncode, result.stderr
    assert result.stdout.replace(str(packed), "F") == plain.stdout.replace(str(SMALL), "F")


def test_a_file_named_xz_that_is_not_xz_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "p.proof.json.xz"
    fake.write_bytes(SMALL.read_bytes())
    with pytest.raises(NotAProofError, match="not an xz file"):
        load_proof(str(fake))


REPORTS = SMALL.parent
PUBLISHED = json.loads((REPORTS / "carpniches-opening.json").read_text())["summary"]


def _published(large: bool) -> list[tuple[str, str, int]]:
    rows = []
    for win in PUBLISHED["forced_wins_found"]:
        cert = win["certificate"]
        if (cert["positions"] > 100_000) == large:
            name = cert["file"] + (".xz" if large else "")
            rows.append((name, cert["winner"], cert["positions"]))
    return rows


def _check_published(name: str, winner: str, positions: int) -> None:
    from boardproof.commands.solve import _proof_game
    from boardproof.solvers.proof import check_proof

    report = check_proof(load_proof(str(REPORTS / name)), load_game=_proof_game)
    assert report.winner == winner and report.nodes == positions


@pytest.mark.parametrize(("name", "winner", "positions"), _published(large=False))
def test_the_published_carpniches_proofs_pass_the_rules_only_checker(
    name: str, winner: str, positions: int
) -> None:
    _check_published(name, winner, positions)


@pytest.mark.long
@pytest.mark.parametrize(("name", "winner", "positions"), _published(large=True))
def test_the_published_large_carpniches_proofs_pass_the_rules_only_checker(
    name: str, winner: str, positions: int
) -> None:
    _check_published(name, winner, positions)
