"""The published certificates of the variants' opening tables are accepted by the
rules-only checker, and each names the root and the winner its report gives.

2x2 to 4x4 in the default run; the 5x5 ones (up to 4.6 million positions rebuilt, several
minutes each) in ``make test-long``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardproof.models.minefield.proofs.certificate import check_certificate, load_certificate

REPORTS = Path(__file__).parent.parent / "reports"
VARIANTS = ("pinwheel", "cartwheel")


def published(variant: str) -> dict[str, tuple[str, str]]:
    """{file name: (root position, winner)} of the report's settled entries."""
    report = json.loads((REPORTS / f"minefield-openings-{variant}.json").read_text())
    found = {}
    for size in report["sizes"]:
        for entry in size["entries"]:
            point = entry["class"]
            found[f"minefield-{size['n']}x{size['n']}-{point}.cert.xz"] = (
                entry["position"], entry["winner"])
    return found


def cases(sizes: range) -> list[tuple[str, str]]:
    return [(variant, name) for variant in VARIANTS
            for name in sorted(p.name for p in (REPORTS / f"certificates-{variant}").iterdir())
            if int(name.split("-")[1].split("x")[0]) in sizes]  # fmt: skip


def check(variant: str, name: str) -> None:
    cert = load_certificate(str(REPORTS / f"certificates-{variant}" / name))
    report = check_certificate(cert)
    root, winner = published(variant)[name]
    assert (report.root, report.winner) == (root, winner), name
    assert report.game == f"minefield ({variant} variant)"


@pytest.mark.parametrize(("variant", "name"), cases(range(2, 5)))
def test_the_small_certificates(variant: str, name: str) -> None:
    check(variant, name)


@pytest.mark.long
@pytest.mark.parametrize(("variant", "name"), cases(range(5, 6)))
def test_the_5x5_certificates(variant: str, name: str) -> None:
    check(variant, name)


def test_every_settled_entry_has_its_certificate() -> None:
    for variant in VARIANTS:
        names = {p.name for p in (REPORTS / f"certificates-{variant}").iterdir()}
        assert names == set(published(variant)), variant
