"""Certificates of the budgeted attempts (issue 18, session 8): an attempt that proves
its side to move winning walks its own df-pn table into the certificate (no second
search; the same bytes as ``make_certificate``), and an entry settled through its
replies gets one certificate composed of its replies' ones, which the rules-only checker
accepts."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardproof import models
from boardproof.models.minefield import native
from boardproof.models.minefield.research import subtrees

pytestmark = pytest.mark.skipif(not native.available(), reason="the C module was not built")

GAME = models.get("minefield")


@pytest.mark.parametrize("n, line", [(4, "a1 b2"), (4, "a2"), (4, "b2 c3"), (5, "b2 c4"),
                                     (5, "a1 c3")])
def test_an_attempt_certificate_is_the_certificate_stage_s(
    n: int, line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file an attempt writes from its own table has the bytes that the certificate
    stage's search would write (``make_certificate`` with the attempt's rules, table,
    budget and Theorem O), or the attempt writes none because its side to move loses."""
    from boardproof.models.minefield.native.certify import make_certificate

    monkeypatch.setattr(subtrees, "GUIDED_CONFIRM_FROM", 4)
    budget = 10**6
    got = subtrees.attempt((n, line, "orthogonal", budget, str(tmp_path)))
    pos = subtrees.position(n, line, "orthogonal")
    assert got["winner"] is not None
    if got["winner"] != GAME.symbol(pos.to_move):
        assert "certificate" not in got and not list(tmp_path.iterdir())
        return
    made = make_certificate(pos, winner=pos.to_move, theorem_o=True, rules=subtrees.RULES,
                            table=subtrees.TABLE, node_limit=budget,
                            tt_bits=subtrees.table_bits(budget))  # fmt: skip
    path = tmp_path / subtrees.certificate_file(n, line)
    assert got["certificate"]["file"] == path.name
    assert got["certificate"]["positions"] == len(made.records) > 0
    assert path.read_bytes() == made.to_bytes()


def test_no_certificate_below_the_guided_size(tmp_path: Path) -> None:
    got = subtrees.attempt((4, "b2 c3", "orthogonal", 10**6, str(tmp_path)))
    assert got["winner"] and "certificate" not in got and not list(tmp_path.iterdir())


@pytest.mark.parametrize("budget, depth, grow", [(200, 3, "breadth"), (500, 2, "breadth"),
                                               (100, 3, "best")])
def test_entries_settled_through_their_replies_get_accepted_certificates(
    budget: int, depth: int, grow: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """4x4 with budgets too small for some entries (so they are settled through their
    replies: a2, Black's, through every White reply; the empty board through its first
    move) and the attempts writing their certificates as from 6x6 on: every settled
    entry gets a certificate, split ones composed of their parts' files, and the
    rules-only checker accepts each with the entry's winner; the certificate-guided
    alpha-beta agrees on each."""
    from boardproof.models.minefield.research import openings
    from boardproof.models.minefield.research.opening_certificates import (
        check_opening_certificates,
        reprove_from_certificates,
        write_opening_certificates,
    )

    monkeypatch.setattr(subtrees, "GUIDED_CONFIRM_FROM", 4)
    journal = tmp_path / "j.checkpoint.jsonl"
    report = openings.build_report([4], budget=budget, depth=depth, split_from=4,
                                   checkpoint=journal, progress=False, grow=grow)  # fmt: skip
    entries = [e for e in report["sizes"][0]["entries"] if e["winner"]]
    split = [e for e in entries if e["method"] == "native df-pn split"]
    assert {"empty", "a2"} <= {e["class"] for e in split} and len(entries) == 5
    attempts = subtrees.attempt_folder(str(journal))
    assert any(Path(attempts).iterdir())  # the attempts' own certificates
    folder = tmp_path / "certs"
    parts: dict[str, list[str]] = {}
    paths = write_opening_certificates(report, str(folder), "orthogonal", None, attempts, parts)
    assert len(paths) == len(entries)
    assert sorted(Path(p).name for p in parts) == sorted(
        f"minefield-4x4-{e['class']}.cert.xz" for e in split)
    checked = check_opening_certificates(paths, parts=parts)
    assert [c["ok"] for c in checked] == [True] * len(entries), checked
    for c in checked:  # a composed file: only the records its parts do not hold
        composed = str(folder / c["file"]) in parts
        assert (c.get("trusted", 0) > 0) == composed and c.get("trusted", 0) <= c["positions"]
    alone = check_opening_certificates(paths)  # the same verdicts without the parts
    assert [(c["ok"], c["positions"]) for c in alone] == [
        (c["ok"], c["positions"]) for c in checked]
    by_file = {c["file"]: c for c in checked}
    for entry in entries:
        got = by_file[f"minefield-4x4-{entry['class']}.cert.xz"]
        assert (got["winner"], got["root"]) == (entry["winner"], entry["position"])
    cache = str(tmp_path / "checks.jsonl")
    reprove_from_certificates(report, str(folder), checked, cache=cache)
    assert all(e["check"]["proved"] is True and e["check"]["guided"] == "certificate"
               for e in entries), [e["check"] for e in entries]  # fmt: skip
    # made again from the same files: every re-proof from the cache, the same checks
    first = [dict(e["check"]) for e in entries]
    for e in entries:
        del e["check"]
    monkeypatch.setattr(subtrees, "guided_confirm", lambda path: pytest.fail(path))
    reprove_from_certificates(report, str(folder), checked, cache=cache)
    assert [e["check"] for e in entries] == first
    from boardproof.models.minefield.research import opening_certificates as certs

    calls: list[str] = []  # other re-proving code: every re-proof made again
    monkeypatch.setattr(certs, "reprover_digest", lambda: "another prover")
    monkeypatch.setattr(subtrees, "guided_confirm", lambda path: calls.append(path) or {})
    reprove_from_certificates(report, str(folder), checked, cache=cache)
    assert len(calls) == len(entries)


def test_a_check_is_cached_by_the_bytes_and_the_checker_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An accepted certificate is not checked again when its bytes and the checker's code
    are the same (the cache says so: ``cached``); other bytes, or another checker
    digest, are checked again; a refused file is never cached."""
    from boardproof.models.minefield.native.certify import make_certificate
    from boardproof.models.minefield.research import opening_certificates as certs

    good = tmp_path / "good.cert.xz"
    good.write_bytes(make_certificate(GAME.parse_position("4/4/b3/4 w -")).to_bytes())
    bad = tmp_path / "bad.cert.xz"
    bad.write_bytes(good.read_bytes()[:-40])
    cache = str(tmp_path / "checks.jsonl")
    first = certs.check_opening_certificates([str(good), str(bad)], cache=cache)
    assert [f["ok"] for f in first] == [True, False] and not any(f.get("cached") for f in first)
    calls: list[str] = []
    real = certs.check_entry_certificate
    monkeypatch.setattr(certs, "check_entry_certificate",
                        lambda path, *parts: calls.append(path) or real(path))  # fmt: skip
    again = certs.check_opening_certificates([str(good), str(bad)], cache=cache)
    assert calls == [str(bad)] and again[0]["cached"] and again[0]["positions"] == first[0][
        "positions"]  # fmt: skip
    monkeypatch.setattr(certs, "checker_digest", lambda: "another checker")
    certs.check_opening_certificates([str(good)], cache=cache)
    assert calls == [str(bad), str(good)]


def test_compose_refuses_parts_that_do_not_fit_the_root() -> None:
    """A part must be a certificate of the same winner at a position one move after the
    root; with the winner to move, exactly the part after the given move."""
    from boardproof.models.minefield.native.certify import (
        CertificateFailed,
        compose,
        make_certificate,
    )

    root = GAME.parse_position("3/3/3 b -")
    a2 = root.parse_move("a2")
    part = make_certificate(root.play(a2), winner=0)
    assert compose(root, "b", [part], a2).header["root"] == root.fen()
    with pytest.raises(CertificateFailed, match="not a part"):
        compose(root, "w", [part], a2)  # another winner
    with pytest.raises(CertificateFailed, match="not a part"):
        compose(GAME.parse_position("3/3/b2 w -"), "b", [part])  # not a child of that root
    with pytest.raises(CertificateFailed, match="not the position after"):
        compose(root, "b", [part], root.parse_move("a1"))
    with pytest.raises(CertificateFailed, match="no part"):
        compose(root, "b", [], a2)


def test_records_of_accepted_parts_are_not_checked_again_and_the_rest_is() -> None:
    """4x4 a2 (Black wins; White to move) composed of one certificate per class of White's
    replies: with the parts as ``accepted_before`` every record is trusted and far fewer
    positions are rebuilt; a record whose move differs from its part's is checked (and
    refused when it is wrong); a part that lists a position the file does not is ignored."""
    from boardproof.models.minefield.native.certify import compose, make_certificate
    from boardproof.models.minefield.proofs.certificate import Certificate, check_certificate
    from boardproof.solvers.common import symmetric_key
    from boardproof.solvers.proof import ProofError

    root = GAME.parse_position("4/4/b3/4 w -")
    seen, parts = set(), []
    for move in root.legal_moves():
        key, _ = symmetric_key(root.play(move))
        if key not in seen:
            seen.add(key)
            parts.append(make_certificate(root.play(move), winner=0))
    whole = compose(root, "b", parts)
    full = check_certificate(whole)
    quick = check_certificate(whole, accepted_before=parts)
    assert (quick.root, quick.winner, quick.positions) == (full.root, full.winner,
                                                           full.positions)  # fmt: skip
    assert quick.trusted == len(whole.records) and full.trusted == 0
    assert quick.replies * 10 < full.replies
    cells = 16
    bad = list(whole.records)
    first = bad[0]
    me, op = first & (1 << cells) - 1, first >> cells & (1 << cells) - 1
    occupied = ((me | op) & -(me | op)).bit_length() - 1
    bad[0] = first & ((1 << (2 * cells + 1)) - 1) | occupied << (2 * cells + 1)
    tampered = Certificate({**whole.header}, sorted(bad))
    with pytest.raises(ProofError, match="illegal move"):
        check_certificate(tampered, accepted_before=parts)
    short = compose(root, "b", parts[:-1])
    with pytest.raises(ProofError, match="neither listed nor won in one"):
        check_certificate(short, accepted_before=parts)
