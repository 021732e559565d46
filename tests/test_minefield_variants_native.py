"""The native (C) Minefield searches, playouts and certificates on the pinwheel variant,
against the Python rules and the Python alpha-beta (issue 30); an unknown variant's
refusals (the cartwheel has its own file: tests/test_native_cartwheel.py).

The C code knows no glyph: it gets the variant's roles from
``boardproof.models.minefield.board.glyph_roles``. So these tests compare everything the C
code computes (legal moves, values, best moves, df-pn answers, playouts, perft counts)
with the Python rules of the same variant, on random positions of small and large
boards (the 64-bit search up to 8x8, the wide one at every size).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from minefield_native_perft import native_perft, perft_cases, replay_twin_playout

from boardproof import models
from boardproof.models.base import InvalidOptionError
from boardproof.models.minefield import native, playouts
from boardproof.models.minefield.native import certify, prover
from boardproof.models.minefield.proofs.certificate import check_certificate
from boardproof.solvers.api import solve
from boardproof.solvers.playouts import reference_playout
from boardproof.solvers.proof import ProofError

pytestmark = pytest.mark.skipif(not native.available(), reason="the C module was not built")

DATA = Path(__file__).parent / "data"
PINWHEEL = "pinwheel"


def game(win: str = "orthogonal", variant: str = PINWHEEL) -> Any:
    return models.get("minefield", win=win, variant=variant)


def random_positions(n: int, count: int, seed: int, win: str = "orthogonal",
                     low: float = 0.0, high: float = 1.0) -> Iterator[Any]:  # fmt: skip
    """``count`` positions of random legal games (no pending swap, not over), with
    between ``low`` and ``high`` of the board filled."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        pos = game(win).start(size=n, pie=False)
        for _ in range(rng.randrange(int(low * n * n), int(high * n * n) + 1)):
            if pos.outcome() is not None:
                break
            pos = pos.play(rng.choice(pos.legal_moves()))
        if pos.outcome() is None:
            made += 1
            yield pos


def native_moves(pos: Any, wide: bool) -> set[str]:
    search = native.search_for(pos.n, pos.game.diagonal, wide=wide, variant=PINWHEEL)
    search.activate()
    me, op, _ = search.boards(pos)
    legal = search.legal(me, op)
    return {str(search.move(p)) for p in range(legal.bit_length()) if legal >> p & 1}


def python_placements(pos: Any) -> set[str]:
    return {str(m) for m in pos.legal_moves() if m.is_placement}


@pytest.mark.parametrize("n", [4, 5, 6, 8, 9, 11, 13, 19])
def test_legal_moves_equal_the_rules(n: int) -> None:
    for pos in random_positions(n, 12, seed=n):
        expected = python_placements(pos)
        if n <= native.SMALL_MAX_SIZE:
            assert native_moves(pos, wide=False) == expected, pos.fen()
        assert native_moves(pos, wide=True) == expected, pos.fen()


def test_the_variant_changes_the_native_moves() -> None:
    """The positions pinned in tests/test_minefield_variants.py: d2 forms a 2x4 switch
    (illegal in the standard game only); c4 completes a pinwheel (illegal in both, as a
    pinwheel or as a 2x4 switch); with d2 white, c4 forms a 2x4 switch only."""
    cases = (("4/4/w3/b2w b -", "d2", True), ("4b/1w3/b2w1/w2b1/1bw2 b -", "c4", False),
             ("4b/1w3/b2w1/w2w1/1bw2 b -", "c4", True))
    for text, point, in_pinwheel in cases:
        for variant, allowed in ((PINWHEEL, in_pinwheel), ("standard", False)):
            pos: Any = models.get("minefield", variant=variant).parse_position(text)
            for wide in (False, True):
                search = native.search_for(pos.n, False, wide=wide, variant=variant)
                search.activate()
                me, op, _ = search.boards(pos)
                legal = search.legal(me, op)
                got = {str(search.move(p)) for p in range(legal.bit_length()) if legal >> p & 1}
                assert got == python_placements(pos)
                assert (point in got) == allowed, (text, variant, wide)


@pytest.mark.parametrize("win", ["orthogonal", "orthodiagonal"])
@pytest.mark.parametrize("n", [4, 5])
def test_values_and_best_moves_equal_the_python_search(n: int, win: str) -> None:
    for pos in random_positions(n, 10, seed=10 * n + len(win), win=win, low=0.35, high=0.8):
        expected = solve(pos, method="alphabeta").value
        for wide in (False, True):
            found = native.solve(pos, wide=wide)
            assert found.value == expected, (pos.fen(), wide)
            # the best move is legal and has the value: its child is worth the negation
            assert found.best_move is not None
            assert found.best_move in pos.legal_moves()
            child = pos.play(found.best_move)
            over = child.outcome()
            if over is not None:
                assert expected == ("win" if pos.to_move in over.winners else "draw")
            else:
                back = {"win": "loss", "loss": "win", "draw": "draw"}[expected]
                assert solve(child, method="alphabeta").value == back, (pos.fen(), wide)


def test_distances_equal_between_the_two_native_searches() -> None:
    """Distance mode (fastest win, longest defence): the 64-bit and the wide search, two
    implementations, agree on the plies of every random 4x4 position."""
    for pos in random_positions(4, 12, seed=3, low=0.2, high=0.7):
        small = native.solve(pos, distance=True, wide=False)
        wide = native.solve(pos, distance=True, wide=True)
        assert (small.value, small.plies) == (wide.value, wide.plies), pos.fen()
        assert small.value == solve(pos, method="alphabeta").value


#: every pruning rule of the C searches (each proved from the glyph roles alone)
ALL_RULES = ("heuristic", "frozen", "blocked", "must3", "order", "win3", "weak")


@pytest.mark.parametrize("n", [4, 5])
def test_dfpn_and_the_prover_equal_alpha_beta(n: int) -> None:
    """Plain and with every pruning rule on (df-pn and alpha-beta), against the Python
    alpha-beta."""
    for pos in random_positions(n, 8, seed=50 + n, low=0.4, high=0.8):
        value = solve(pos, method="alphabeta").value
        found = prover.who_wins(pos, tt_bits=16)
        pruned = prover.who_wins(pos, tt_bits=16, use=ALL_RULES, table="quad")
        with prover.rules(["blocked", "must3", "order"]):
            native.reset()
            assert native.solve(pos).value == value, pos.fen()
        if value == "draw":
            assert found.winner is None and found.draw
            assert pruned.winner is None and pruned.draw
        else:
            winner = pos.to_move if value == "win" else 1 - pos.to_move
            assert found.winner == winner and not found.draw, pos.fen()
            assert pruned.winner == winner, pos.fen()
            assert prover.confirm(pos, winner, tt_bits=16).agrees
            search = native.search_for(n, False, variant=PINWHEEL)
            assert search.proves(pos, winner)[0] is True
            assert search.proves(pos, 1 - winner)[0] is False


def test_theorem_o_is_not_used_for_the_variant() -> None:
    pos = game().parse_position("4/4/4/1b2 w -")
    assert not prover.theorem_o_holds(pos) and prover._target(pos, True) is pos
    with pytest.raises(InvalidOptionError, match="theorem_o: Theorem O is proved for the "
                                                 "standard glyphs only"):  # fmt: skip
        certify.make_certificate(pos, theorem_o=True)


#: a 5x5 position whose winner differs between the standard and the pinwheel glyphs (the
#: first found by seeded random games; the test computes both values itself)
DIFFERS = "wbww1/4w/w3b/bb2w/bb1b1 w -"


def test_a_kept_dfpn_table_is_not_read_for_another_glyph_set() -> None:
    """df-pn with ``keep`` must not read the standard game's proof of a board (the same
    key) in the pinwheel search, nor the other way round."""
    standard: Any = models.get("minefield").parse_position(DIFFERS)
    pinwheel = game().parse_position(DIFFERS)
    expected = {pos.game.variant: solve(pos, method="alphabeta").value
                for pos in (standard, pinwheel)}  # fmt: skip
    assert expected["standard"] != expected[PINWHEEL] and "draw" not in expected.values()
    for first, second in ((standard, pinwheel), (pinwheel, standard)):
        for pos in (first, second):
            search = native.search_for(5, False, variant=pos.game.variant)
            proved, _, _ = search.proof(pos, pos.to_move, keep=True)
            assert proved is (expected[pos.game.variant] == "win"), pos.game.variant


@pytest.mark.parametrize("n", [4, 5, 7, 9, 12, 19])
def test_playouts_are_the_python_twins(n: int) -> None:
    """The same seeded playout in C and in Python (each move legal under the variant's
    rules, by replaying it), and the C kernel is the one that plays it."""
    assert playouts.available()
    results = []
    for k, pos in enumerate(random_positions(n, 6, seed=100 + n, high=0.5)):
        for seed in range(4):
            code, walk = replay_twin_playout(pos, 1000 * k + seed, 4 * n * n)
            over = walk.outcome()
            assert over is not None and code == (next(iter(over.winners)) if over.winners
                                                 else None)  # fmt: skip
            results.append(code)
            assert playouts.kernel("auto").play(pos, seed, 4 * n * n) == reference_playout(
                pos, seed, 4 * n * n)[0]
    # both colours win some playouts (a sanity check of the distribution)
    assert {0, 1} <= set(results)


def test_the_empty_boards_playouts_split_between_the_colours() -> None:
    """From the empty 9x9 board, 200 seeded C playouts: both colours win a fair share."""
    pos = game().start(size=9, pie=False)
    wins = [playouts.native_minefield(pos, seed, 400)[0] for seed in range(200)]
    assert all(w in (0, 1, None) for w in wins)
    assert 40 <= wins.count(0) <= 160 and 40 <= wins.count(1) <= 160


@pytest.mark.parametrize(("name", "text", "depths"), perft_cases(PINWHEEL))
def test_the_perft_file_through_the_native_move_generator(name: str, text: str,
                                                          depths: list[tuple[int, int]]) -> None:
    pos = game().parse_position(text)
    for depth, count in depths[:3]:
        assert native_perft(pos, depth) == count, (name, depth)


def test_a_certificate_of_the_variant_is_checked_by_the_rules() -> None:
    pos = game().parse_position("4/4/b3/4 w -")
    cert = certify.make_certificate(pos)
    assert cert.header["variant"] == PINWHEEL and cert.header["lemmas"] == []
    report = check_certificate(cert)
    assert report.winner == "b" and report.game == "minefield (pinwheel variant)"
    # the same records claimed with Theorem O (not proved for the variant), or for an
    # unknown variant: refused
    for change in ({"lemmas": ["theorem-o"], "rule": "orthodiagonal"}, {"variant": "wheel"}):
        bad = type(cert)({**cert.header, **change}, cert.records)
        with pytest.raises(ProofError):
            check_certificate(bad)


def test_every_variant_is_taken_and_an_unknown_one_refused() -> None:
    pos = models.get("minefield", variant="cartwheel").start(size=5, pie=False)
    assert native.supports_any(pos) and native.VARIANTS == ("standard", "pinwheel", "cartwheel")
    with pytest.raises(InvalidOptionError, match="the native searches take standard, pinwheel, "
                                                 "cartwheel, got 'wheel'"):  # fmt: skip
        native.search_for(5, False, variant="wheel")


def test_the_openings_command_refuses_an_unknown_variant(cli_run) -> None:
    status, _, err = cli_run("openings", "minefield", "--sizes", "2", "--variant", "wheel",
                             "--out", "/nonexistent")  # fmt: skip
    assert status == 2 and err.count("\n") == 1 and "--variant" in err and "wheel" in err


def test_the_opening_tables_of_the_variant_equal_the_python_search() -> None:
    from boardproof.models.minefield.research.openings import build_report

    native_report = build_report([2, 3, 4], progress=False, variant=PINWHEEL)
    python_report = build_report([2, 3], progress=False, variant=PINWHEEL, method="alphabeta")
    assert native_report["variant"] == PINWHEEL
    for mine, theirs in zip(native_report["sizes"], python_report["sizes"], strict=False):
        assert [r["winner"] for r in mine["openings"]] == [r["winner"]
                                                          for r in theirs["openings"]]
        assert mine["empty"]["winner"] == theirs["empty"]["winner"]
    for size in native_report["sizes"]:
        assert size["consistent"] and not size["unsolved"]
        assert all((e.get("check") or {}).get("proved") for e in size["entries"])


def test_a_variants_report_has_its_own_files(tmp_path: Path) -> None:
    from boardproof.models.minefield.research.openings import build_report
    from boardproof.models.minefield.research.openings_report import write_report

    for variant, stem in ((PINWHEEL, "minefield-openings-pinwheel"),
                          ("standard", "minefield-openings")):  # fmt: skip
        report = build_report([2, 3], progress=False, variant=variant)
        paths = write_report(report, tmp_path / variant)
        assert sorted(p.name for p in paths) == sorted(
            [f"{stem}.md", f"{stem}.json", f"{stem}-2.svg", f"{stem}-3.svg"])
        text = (tmp_path / variant / f"{stem}.md").read_text()
        assert ("**Variant pinwheel**" in text) == (variant == PINWHEEL)
        assert (f"]({stem}-3.svg)") in text
        assert ('"variant"' in (tmp_path / variant / f"{stem}.json").read_text()) == (
            variant == PINWHEEL)


def test_solve_writes_and_check_proof_accepts_a_variant_certificate(cli_run, tmp_path) -> None:
    path = tmp_path / "pinwheel.cert.xz"
    status, out, err = cli_run("solve", "minefield", "4/4/b3/4 w -", "--variant", PINWHEEL,
                               "--proof", str(path), "--proof-format", "certificate")  # fmt: skip
    assert status == 0, err
    assert "method: auto:native" in out and "wrote certificate" in out
    status, out, err = cli_run("check-proof", str(path))
    assert status == 0, err
    assert out.startswith("proof OK: b wins minefield (pinwheel variant) from 4/4/b3/4 w -")
    # the cartwheel too (issue 30)
    path = tmp_path / "cartwheel.cert.xz"
    status, out, err = cli_run("solve", "minefield", "4/4/b3/4 w -", "--variant", "cartwheel",
                               "--proof", str(path), "--proof-format", "certificate")  # fmt: skip
    assert status == 0 and "method: auto:native" in out and "wrote certificate" in out, err
    status, out, err = cli_run("check-proof", str(path))
    assert status == 0 and out.startswith("proof OK: b wins minefield (cartwheel variant) from "
                                          "4/4/b3/4 w -"), (out, err)  # fmt: skip


@pytest.mark.parametrize("variant", native.VARIANTS)
def test_the_roles_are_closed_under_the_8_symmetries(variant: str) -> None:
    """What the symmetric tables of the C searches rest on: a symmetry maps a position and
    its moves onto the image's (the 4 that exchange the edges also exchange the colours,
    which mover-relative roles do not see), so the set of roles must map onto itself."""
    roles = {tuple(sorted(role)) for role in native.variant_roles(variant)}
    maps = [lambda x, y: (x, y), lambda x, y: (-x, y), lambda x, y: (x, -y),
            lambda x, y: (-x, -y), lambda x, y: (y, x), lambda x, y: (-y, x),
            lambda x, y: (y, -x), lambda x, y: (-y, -x)]  # fmt: skip
    for f in maps:
        image = {tuple(sorted((*f(dx, dy), s) for dx, dy, s in role)) for role in roles}
        assert image == roles
    # (the cartwheel's roles near the edges depend on the mover's colour: the per-colour
    # tables' symmetry is checked in tests/test_native_cartwheel.py)
