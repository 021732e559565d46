"""Compact certificates (issue 18): made by the native df-pn, checked with the rules only.

Every real certificate passes, every kind of damage is rejected with one line naming the
position, an accepted tampering never claims a false win, and the checker never imports
the native search.
"""

from __future__ import annotations

import json
import lzma
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from boardproof import models
from boardproof.models.minefield import native
from boardproof.models.minefield.proofs.certificate import (
    Certificate,
    _won_in_one,
    check_certificate,
    load_certificate,
    parse_certificate,
    record_bytes,
)
from boardproof.solvers.proof import NotAProofError, ProofError
from boardproof.solvers.search import AlphaBeta

pytestmark = pytest.mark.skipif(not native.available(), reason="the C module was not built")

GAME = models.get("minefield")
DIAG = models.get("minefield", win="orthodiagonal")


def make(fen: str, **kwargs: Any) -> Certificate:
    from boardproof.models.minefield.native.certify import make_certificate

    return make_certificate(GAME.parse_position(fen), **kwargs)


def entries(n: int) -> list[str]:
    """The empty board and one first point's position per symmetry class (the table)."""
    start = GAME.start(size=n, pie=False)
    out, seen = [start.fen()], set()
    for move in start.legal_moves():
        pos = start.play(move)
        if pos.canonical()[0] not in seen:
            seen.add(pos.canonical()[0])
            out.append(pos.fen())
    return out


def python_winner(fen: str, game: Any = GAME) -> int:
    """The winner by the Python alpha-beta (a search that shares nothing with C)."""
    pos = game.parse_position(fen)
    result = AlphaBeta(pos).iterate()
    assert result.value in ("win", "loss")
    return pos.to_move if result.value == "win" else 1 - pos.to_move


def edited(cert: Certificate, **header: Any) -> Certificate:
    return Certificate({**cert.header, **header}, list(cert.records))


def move_code(cert: Certificate, index: int) -> int:
    n = cert.header["size"]
    return cert.records[index] >> (2 * n * n + 1)


def with_move(cert: Certificate, index: int, code: int) -> Certificate:
    n = cert.header["size"]
    shift = 2 * n * n + 1
    records = list(cert.records)
    records[index] = records[index] & ((1 << shift) - 1) | code << shift
    return Certificate(dict(cert.header), records)


# ---------------------------------------------------------------------------
# real certificates pass, and name the winner the Python search finds
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_small_opening_entry(n: int) -> None:
    for fen in entries(n):
        winner = python_winner(fen) if n <= 3 else None
        cert = make(fen)
        assert cert.header["lemmas"] == [] and cert.header["rule"] == "orthogonal"
        report = check_certificate(parse_certificate(cert.to_bytes()))
        assert report.root == fen and report.lemmas == []
        if winner is not None:
            assert report.winner == GAME.symbol(winner)


@pytest.mark.parametrize("n", [3, 4])
def test_certificates_found_with_must3_and_the_quad_table_pass(n: int) -> None:
    """A proof found with the 6x6 attempts' search (``must3``, ``quad``): the walk still
    lists every legal reply of the loser, so the checker (rules only) accepts it, and the
    winner is the plain certificate's."""
    for fen in entries(n):
        plain = check_certificate(make(fen, theorem_o=True))
        cert = make(fen, theorem_o=True, rules=["must3"], table="quad")
        report = check_certificate(parse_certificate(cert.to_bytes()))
        assert report.winner == plain.winner and report.root == fen


def test_4x4_with_theorem_o_names_the_lemma() -> None:
    for fen in entries(4)[:5]:
        cert = make(fen, theorem_o=True)
        assert cert.header["rule"] == "orthodiagonal" and cert.header["lemmas"] == ["theorem-o"]
        plain = check_certificate(make(fen))
        report = check_certificate(cert)
        assert report.lemmas == ["theorem-o"] and report.winner == plain.winner


def test_every_3x3_position_two_plies_deep() -> None:
    """Certificates of the winner pass; the loser gets none (df-pn cannot prove it)."""
    from boardproof.models.minefield.native.certify import CertificateFailed

    seen = set()
    for first in GAME.start(size=3, pie=False).legal_moves():
        one = GAME.start(size=3, pie=False).play(first)
        for second in one.legal_moves():
            pos = one.play(second)
            if pos.outcome() is not None or pos.canonical()[0] in seen:
                continue
            seen.add(pos.canonical()[0])
            winner = python_winner(pos.fen())
            report = check_certificate(make(pos.fen(), winner=winner))
            assert report.winner == GAME.symbol(winner)
            with pytest.raises(CertificateFailed):
                make(pos.fen(), winner=1 - winner)
    assert len(seen) > 10


def test_same_input_same_file() -> None:
    fen = entries(4)[0]
    assert make(fen).to_bytes() == make(fen).to_bytes()


def test_record_layout() -> None:
    cert = make("3/3/1b1 w -")
    n = 3
    assert record_bytes(n) == 3 and cert.header["record_bytes"] == 3
    raw = lzma.decompress(cert.to_bytes())
    head, _, body = raw.partition(b"\n")
    header = json.loads(head)
    assert header["format"] == "boardproof-certificate" and header["version"] == 1
    assert {"game", "size", "win", "rule", "root", "winner", "lemmas", "symmetries"} <= set(header)
    assert len(body) == 3 * header["positions"] == 3 * len(cert.records)
    assert cert.records == sorted(cert.records)


# ---------------------------------------------------------------------------
# damage is rejected, naming the position
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cert4() -> Certificate:
    return make("4/4/b3/4 w -")


def occupied(cert: Certificate, index: int) -> int:
    """An occupied point of a record's position (an illegal move there)."""
    n = cert.header["size"]
    record = cert.records[index]
    stones = (record | record >> (n * n)) & ((1 << (n * n)) - 1)
    return (stones & -stones).bit_length() - 1


def test_tampered_move_illegal(cert4: Certificate) -> None:
    assert check_certificate(cert4).winner == "b"
    bad = with_move(cert4, 0, occupied(cert4, 0))
    with pytest.raises(ProofError, match=r"^bad certificate: position 0 \(.+\): illegal move"):
        check_certificate(bad)


@pytest.mark.parametrize("fen", ["3/3/3 b -", "3/b2/3 w -", "4/4/4/1b2 w -"])
def test_every_tampered_move_is_rejected_or_still_true(fen: str) -> None:
    """Replace one record's move by each other point (or pass): when the checker still
    accepts, the listed position really is won by that move (the Python alpha-beta)."""
    from boardproof.models.minefield.proofs.certificate import _decoder
    from boardproof.models.minefield.rules import MinefieldPosition

    cert = make(fen)
    n = cert.header["size"]
    decode = _decoder(n)
    rejected = accepted = 0
    indices = list(range(len(cert.records)))
    for index in random.Random(18).sample(indices, min(len(indices), 8)):
        for code in range(n * n + 1):
            if code == move_code(cert, index):
                continue
            bad = with_move(cert, index, code)
            try:
                check_certificate(bad)
            except ProofError as error:
                assert str(error).startswith("bad certificate: ") and "\n" not in str(error)
                rejected += 1
                continue
            accepted += 1
            black, white, to_move, move = decode(bad.records[index])
            pos = MinefieldPosition(GAME, n, black, white, to_move, False)
            after = pos.play(move)
            assert after.outcome() is not None or python_winner(after.fen()) == to_move
    assert rejected > 3 * accepted


def test_missing_reply(cert4: Certificate) -> None:
    records = list(cert4.records)
    del records[len(records) // 2]
    bad = Certificate({**cert4.header, "positions": len(records)}, records)
    with pytest.raises(ProofError, match=r"reply \S+ leads to \S+ \S+ -, which is neither "
                                         r"listed nor won in one"):
        check_certificate(parse_certificate(bad.to_bytes()))


def test_wrong_root(cert4: Certificate) -> None:
    with pytest.raises(ProofError, match=r"the root 4/4/1b2/4 w - \(w to move\)"):
        check_certificate(edited(cert4, root="4/4/1b2/4 w -"))
    with pytest.raises(ProofError, match="wrong root"):
        check_certificate(edited(cert4, root="4/4/b3/4 w -", winner="w"))
    with pytest.raises(ProofError, match="wrong root"):
        check_certificate(edited(cert4, root="3/3/3 b -"))


def test_theorem_o_must_be_named_and_root_legal() -> None:
    cert = make("4/4/4/1b2 w -", theorem_o=True)
    with pytest.raises(ProofError, match="needs the lemma theorem-o"):
        check_certificate(edited(cert, lemmas=[]))
    with pytest.raises(ProofError, match="unknown lemma"):
        check_certificate(edited(cert, lemmas=["theorem-o", "my-guess"]))
    with pytest.raises(ProofError, match="not a position of a legal game"):
        check_certificate(edited(cert, root="4/4/4/wwww b -"))


def test_truncated_or_damaged_file(tmp_path: Path, cert4: Certificate) -> None:
    data = cert4.to_bytes()
    with pytest.raises(ProofError, match="damaged or truncated"):
        parse_certificate(data[: len(data) // 2])
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0x40
    with pytest.raises(ProofError, match="damaged or truncated"):
        parse_certificate(bytes(flipped))
    short = Certificate(dict(cert4.header), cert4.records[:-1])
    with pytest.raises(ProofError, match=r"truncated: the header lists \d+ positions"):
        parse_certificate(short.to_bytes())
    with pytest.raises(NotAProofError, match="not an xz file"):
        parse_certificate(b'{"format": "boardproof-certificate"}')
    path = tmp_path / "c.xz"
    path.write_bytes(data)
    assert load_certificate(str(path)).records == cert4.records


# ---------------------------------------------------------------------------
# the checker's own pieces
# ---------------------------------------------------------------------------


def test_won_in_one_equals_trying_every_move() -> None:
    rng = random.Random(5)
    checked = found = 0
    for game in (GAME, DIAG):
        for n in (4, 5, 6):
            for _ in range(120):
                pos = game.start(size=n, pie=False)
                for _ in range(rng.randrange(2, n * n - 4)):
                    moves = pos.legal_moves()
                    if pos.outcome() is not None or not moves:
                        break
                    pos = pos.play(rng.choice(moves))
                if pos.outcome() is not None:
                    continue
                brute = any(pos.play(m).winner() == pos.to_move
                            for m in pos.legal_moves() if m.is_placement)  # fmt: skip
                assert (_won_in_one(pos) is not None) == brute, pos.fen()
                checked += 1
                found += brute
    assert checked > 300 and found > 30


def test_the_checker_does_not_import_the_native_search() -> None:
    code = ("import sys, boardproof.models.minefield.proofs.certificate, "
            "boardproof.models.minefield.certificate_command; "
            "print(sorted(m for m in sys.modules if 'native' in m))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout  # fmt: skip
    assert out.strip() == "[]"


# ---------------------------------------------------------------------------
# the command line
# ---------------------------------------------------------------------------


def test_solve_writes_a_certificate_and_check_proof_reads_it(cli_run, tmp_path: Path) -> None:
    path = tmp_path / "c.xz"
    status, out, _ = cli_run("solve", "minefield", "4/4/4/1b2 w -", "--proof", str(path),
                             "--proof-format", "certificate")  # fmt: skip
    assert status == 0 and "proof: wrote certificate" in out
    status, out, _ = cli_run("check-proof", str(path))
    assert status == 0
    assert out.startswith("proof OK: w wins minefield from 4/4/4/1b2 w - (certificate: ")
    status, out, _ = cli_run("check-proof", str(path), "--json")
    payload = json.loads(out)
    assert payload["ok"] and payload["format"] == "certificate" and payload["lemmas"] == []
    # auto: a tree below 5x5
    status, out, _ = cli_run("solve", "minefield", "3/3/1b1 w -", "--proof",
                             str(tmp_path / "t.json"))  # fmt: skip
    assert status == 0 and json.loads((tmp_path / "t.json").read_text())["format"] == (
        "boardproof-proof")


def test_check_proof_rejects_in_one_line(cli_run, tmp_path: Path, cert4: Certificate) -> None:
    data = cert4.to_bytes()
    path = tmp_path / "cut.xz"
    path.write_bytes(data[:-30])
    status, out, err = cli_run("check-proof", str(path))
    assert status == 1 and len(out.strip().splitlines()) == 1
    assert out.startswith("proof rejected: bad certificate: damaged or truncated file")
    path.write_bytes(with_move(cert4, 3, occupied(cert4, 3)).to_bytes())
    status, out, _ = cli_run("check-proof", str(path))
    assert status == 1 and out.startswith("proof rejected: bad certificate: position")
    status, out, _ = cli_run("check-proof", str(path), "--json")
    assert status == 1 and json.loads(out)["ok"] is False


def test_solve_certificate_refused_with_a_pending_swap(cli_run, tmp_path: Path) -> None:
    status, _, err = cli_run("solve", "minefield", "3/3/1b1 w p", "--proof",
                             str(tmp_path / "c.xz"), "--proof-format", "certificate")
    assert status == 2 and err.count("\n") == 1 and "--proof-format" in err


def test_openings_certificates_folder(cli_run, tmp_path: Path) -> None:
    folder = tmp_path / "certs"
    status, _, err = cli_run("openings", "minefield", "--sizes", "2-3", "--out",
                             str(tmp_path / "o"), "--certificates", str(folder))  # fmt: skip
    assert status == 0, err
    names = sorted(os.listdir(folder))
    assert names == sorted(["minefield-2x2-empty.cert.xz", "minefield-2x2-a1.cert.xz",
                            "minefield-3x3-empty.cert.xz", "minefield-3x3-a1.cert.xz",
                            "minefield-3x3-b1.cert.xz", "minefield-3x3-a2.cert.xz",
                            "minefield-3x3-b2.cert.xz"])  # fmt: skip
    report = json.loads((tmp_path / "o" / "minefield-openings.json").read_text())
    winners = {(s["n"], e["class"]): e["winner"] for s in report["sizes"] for e in s["entries"]}
    # checked in the same run by the rules-only checker, and said so in the report
    checked = {f["file"]: f for f in report["certificates"]["files"]}
    assert sorted(checked) == names and all(f["ok"] and f["positions"] for f in checked.values())
    text = (tmp_path / "o" / "minefield-openings.md").read_text()
    assert "## Certificates" in text and "**7 of 7 accepted**" in text
    for name in names:
        cert = load_certificate(str(folder / name))
        n, entry = int(name.split("-")[1][0]), name.split("-")[2].split(".")[0]
        assert check_certificate(cert).winner == winners[(n, entry)]
    before = {name: (folder / name).read_bytes() for name in names}
    status, _, err = cli_run("openings", "minefield", "--sizes", "2-3", "--out",
                             str(tmp_path / "o"), "--certificates", str(folder))  # fmt: skip
    assert status == 0 and "certificates: 7 kept" in err
    assert before == {name: (folder / name).read_bytes() for name in names}
    status, _, err = cli_run("openings", "carpniches", "--certificates", str(folder))
    assert status == 2 and "--certificates" in err


def test_budgeted_entries_get_certificates(cli_run, tmp_path: Path) -> None:
    """A size settled by budgeted attempts (4x4 here, 3,000 nodes each): every entry
    that its own attempt settled gets a certificate made by the attempts' search, and
    every entry settled through its replies one composed of its replies' (said on
    stderr); the checker accepts each with the report's winner."""
    folder, out = tmp_path / "certs", tmp_path / "o"
    status, _, err = cli_run("openings", "minefield", "--sizes", "4", "--budget", "3000",
                             "--budget-from", "4", "--out", str(out), "--checkpoint",
                             str(tmp_path / "j.jsonl"), "--certificates", str(folder))  # fmt: skip
    assert status == 0, err
    report = json.loads((out / "minefield-openings.json").read_text())
    entries = [e for s in report["sizes"] for e in s["entries"]]
    settled = {e["class"]: e["winner"] for e in entries if e["winner"]}
    split = [e["class"] for e in entries if e["winner"] and e["method"] != "native df-pn"]
    assert split and len(settled) > len(split), entries  # both kinds occur with this budget
    names = sorted(os.listdir(folder))
    assert names == sorted(f"minefield-4x4-{entry}.cert.xz" for entry in settled)
    for entry, winner in settled.items():
        cert = load_certificate(str(folder / f"minefield-4x4-{entry}.cert.xz"))
        assert check_certificate(cert).winner == winner
    for entry in split:
        assert re.search(f"wrote certificate .*minefield-4x4-{entry}.cert.xz \\(composed of", err)


# ---------------------------------------------------------------------------
# a 5x5 entry (Theorem O), progress and Ctrl-C
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cert5(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The certificate of the 5x5 entry c1 (White wins; 3.4 M df-pn nodes, 15,387
    listed positions)."""
    path = tmp_path_factory.mktemp("cert5") / "c1.cert.xz"
    path.write_bytes(make("5/5/5/5/2b2 w -").to_bytes())
    return path


def test_a_5x5_entry(cert5: Path) -> None:
    cert = load_certificate(str(cert5))
    assert cert.header["lemmas"] == ["theorem-o"] and len(cert.records) > 8192
    seen: list[tuple[int, int]] = []
    report = check_certificate(cert, progress=lambda done, total: seen.append((done, total)))
    assert report.winner == "w" and report.root == "5/5/5/5/2b2 w -"
    assert seen[0] == (0, len(cert.records)) and seen[-1] == (len(cert.records),) * 2


def test_ctrl_c_during_check(cert5: Path) -> None:
    command = [sys.executable, "-c", "from boardproof.cli import main; main()",
               "check-proof", str(cert5)]  # fmt: skip
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)  # fmt: skip
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()  # the first progress line: the check has started
        assert first.startswith("check-proof: 0 of "), first
        time.sleep(0.1)
        assert proc.poll() is None, "the check ended before it could be interrupted"
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1] == "interrupted" and "Traceback" not in err


@pytest.mark.long
def test_the_whole_5x5_table(tmp_path: Path) -> None:
    """Every entry of the published 5x5 table: a certificate made and checked, with the
    report's winner."""
    with open("reports/minefield-openings.json", encoding="utf-8") as handle:
        report = json.load(handle)
    size = next(s for s in report["sizes"] if s["n"] == 5)
    for entry in size["entries"]:
        cert = make(entry["position"], winner=GAME.player_of(entry["winner"]))
        checked = check_certificate(parse_certificate(cert.to_bytes()))
        assert checked.winner == entry["winner"] and checked.lemmas == ["theorem-o"]


def test_entries_settled_through_their_replies_get_composed_certificates(tmp_path) -> None:
    from boardproof.models.minefield.research import openings
    from boardproof.models.minefield.research.opening_certificates import write_opening_certificates

    report = openings.build_report([2, 3], budget=8, depth=2, split_from=3, progress=False)
    written = write_opening_certificates(report, str(tmp_path))
    size3 = next(s for s in report["sizes"] if s["n"] == 3)
    split = [e for e in size3["entries"] if e["winner"] and e["method"] != "native df-pn"]
    assert split
    for entry in split:
        path = str(tmp_path / f"minefield-3x3-{entry['class']}.cert.xz")
        assert path in written
        checked = check_certificate(load_certificate(path))
        assert (checked.root, checked.winner) == (entry["position"], entry["winner"])


def test_a_refused_certificate_is_reported_in_one_line(tmp_path: Path, cert4: Certificate) -> None:
    from boardproof.models.minefield.research.opening_certificates import check_entry_certificate
    from boardproof.models.minefield.research.openings_report import certificates_section

    good, bad = tmp_path / "good.cert.xz", tmp_path / "bad.cert.xz"
    good.write_bytes(cert4.to_bytes())
    bad.write_bytes(cert4.to_bytes()[:-40])
    files = [check_entry_certificate(str(good)), check_entry_certificate(str(bad))]
    assert files[0]["ok"] and not files[1]["ok"] and files[1]["error"]
    text = "\n".join(certificates_section({"folder": "c", "files": files}))
    assert "**1 of 2 accepted**" in text
    assert "| bad.cert.xz | - | - | - | - | - | **refused**" in text
