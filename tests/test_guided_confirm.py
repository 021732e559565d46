"""The second algorithm guided by a certificate (issue 18, session 7): the native
alpha-beta with a certificate's moves tried first (``prover.confirm(certificate=...)``)
gives the plain alpha-beta's value, whatever hints it gets, in far fewer nodes; and the
openings command re-proves the budgeted attempts' entries so once their certificates
are written (``subtrees.GUIDED_CONFIRM_FROM``)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from boardproof import models
from boardproof.models.minefield import native
from boardproof.models.minefield.proofs.certificate import Certificate
from boardproof.models.minefield.research import subtrees
from boardproof.testing.random_play import unfinished_positions

pytestmark = pytest.mark.skipif(not native.available(), reason="the C module was not built")

GAME = models.get("minefield")


def certificate(fen: str, **kwargs: Any) -> Certificate:
    from boardproof.models.minefield.native.certify import make_certificate

    return make_certificate(GAME.parse_position(fen), **kwargs)


def test_a_certificate_guided_re_proof_agrees_in_far_fewer_nodes() -> None:
    """4x4 a2 (Black wins; a certificate of the orthogonal game): the guided alpha-beta
    agrees, in under a tenth of the plain alpha-beta's nodes (4,694 against 100,419), and
    refuses the other winner."""
    from boardproof.models.minefield.native import prover

    pos = GAME.parse_position("4/4/b3/4 w -")
    cert = certificate(pos.fen())
    winner = GAME.player_of(cert.header["winner"])
    plain = prover.confirm(pos, winner, theorem_o=False, tt_bits=20, hints=False)
    guided = prover.confirm(pos, winner, theorem_o=False, tt_bits=20, certificate=cert)
    assert plain.agrees and guided.agrees
    assert guided.hinted > 0
    assert guided.nodes * 10 < plain.nodes, (guided.nodes, plain.nodes)
    other = prover.confirm(pos, 1 - winner, theorem_o=False, tt_bits=20, certificate=cert)
    assert other.agrees is False
    with pytest.raises(ValueError, match="not one of"):  # the certificate's rule differs
        prover.confirm(pos, winner, theorem_o=True, certificate=cert)


def test_a_certificate_of_another_claim_is_refused() -> None:
    from boardproof.models.minefield.native import prover

    cert = certificate("4/4/4/1b2 w -")
    with pytest.raises(ValueError, match="not one of"):
        prover.confirm(GAME.parse_position("4/4/1b2/4 w -"), 1, certificate=cert)


def test_foreign_hints_change_only_the_order() -> None:
    """The hint set of one certificate (4x4 a2, a Black win) kept while alpha-beta values
    sampled 4x4 positions of other games, with the hinted player either colour: the same
    value as without hints, every time. Only the move order may come from hints."""
    from boardproof.models.minefield.proofs.certificate import certificate_hints

    cert = certificate("4/4/b3/4 w -")
    hints = list(certificate_hints(cert))
    assert hints
    rng = random.Random(7)
    positions = unfinished_positions(lambda: GAME.start(size=4, pie=False), 40, rng,
                                     plies=lambda r: r.randrange(1, 9))  # fmt: skip
    for pos in positions:
        native.reset()
        plain = native.search_for(4, False, 18).solve(pos).value
        for player in (0, 1):
            native.reset()
            search = native.search_for(4, False, 18)
            search.set_hints(hints)
            try:
                assert search.solve(pos, hint=player).value == plain, pos.fen()
            finally:
                search.set_hints(())


def test_the_openings_command_re_proves_budgeted_entries_from_their_certificates(
    tmp_path: Path, cli_run: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the guided re-proof from 4x4 on (in-process, one worker), the attempts skip the
    blind alpha-beta and every entry one attempt settled gets its check from its
    certificate, agreeing; the report says so."""
    monkeypatch.setattr(subtrees, "GUIDED_CONFIRM_FROM", 4)
    folder, out, journal = tmp_path / "certs", tmp_path / "o", tmp_path / "j.jsonl"
    status, _, err = cli_run("openings", "minefield", "--sizes", "4", "--budget", "3000",
                             "--budget-from", "4", "--out", str(out), "--checkpoint",
                             str(journal), "--certificates", str(folder))  # fmt: skip
    assert status == 0, err
    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    attempts = [row["result"] for row in lines if "budget=" in row.get("key", "")]
    settled = [a for a in attempts if a.get("method") == "native df-pn" and a.get("winner")]
    assert settled and all(a["check"] is None for a in settled)
    report = json.loads((out / "minefield-openings.json").read_text())
    single = [e for s in report["sizes"] for e in s["entries"]
              if e["winner"] and e["method"] == "native df-pn"]  # fmt: skip
    assert single
    for entry in single:
        assert entry["check"]["guided"] == "certificate", entry
        assert entry["check"]["proved"] is True, entry
    text = (out / "minefield-openings.md").read_text()
    assert "agrees (moves from the certificate)" in text
    assert "once its certificate is written" in text


def test_a_df_pn_table_of_another_size_does_not_guide() -> None:
    """Pinned bug (session 7): after a 5x5 df-pn in the same process (a certificate task
    of the openings run), the guided re-proof of a 4x4 entry took the 5x5 table's entries
    (keys that mean other boards) as hints and ran out of budget; a loaded hint set is
    now the only guide, and a table of another size never is one."""
    from boardproof.models.minefield.native import prover

    pos = GAME.parse_position("4/4/b3/4 w -")
    cert = certificate(pos.fen())
    winner = GAME.player_of(cert.header["winner"])
    alone = prover.confirm(pos, winner, theorem_o=False, tt_bits=20, certificate=cert)
    prover.who_wins(GAME.parse_position("5/5/5/5/2b2 w -"), tt_bits=20, table="quad",
                    use=["must3"], keep=True)  # fmt: skip
    after = prover.confirm(pos, winner, theorem_o=False, tt_bits=20, certificate=cert)
    assert after.agrees and after.nodes == alone.nodes
