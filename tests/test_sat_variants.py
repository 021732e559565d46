"""The SAT encodings with the variants' glyphs (and each variant less one glyph) against
brute force, the symmetry breaking, the variant claims' runner and reports.

The reference (``tests/glyph_reference.py``) is written from the rules' text and shares
no code with the library.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from glyph_reference import (
    B,
    E,
    W,
    all_boards,
    has_crosscut,
    has_glyph,
    has_path,
    instances,
    stuck,
)

from boardproof.models.minefield.board import ALL_GLYPH_NAMES
from boardproof.models.minefield.proofs import sat
from boardproof.models.minefield.proofs.glyph_sets import (
    VARIANT_SETS,
    set_glyphs,
    without,
)
from boardproof.models.minefield.research import claims, claims_report
from boardproof.models.minefield.research.exhaustive import enumerate_reachable
from boardproof.models.minefield.research.glyph_games import GlyphGame, enumerate_dead
from boardproof.models.minefield.rules import make_game

#: every glyph set the claims use: the variants' and each variant less one glyph
SETS = sorted({VARIANT_SETS[v] for v in VARIANT_SETS}
              | {without(v, g) for v in VARIANT_SETS for g in VARIANT_SETS[v]})
NEW_SETS = [s for s in SETS if s != VARIANT_SETS["standard"]]


def ids(names: tuple[str, ...]) -> str:
    return "+".join(name.replace(" ", "") for name in names)


def no_path(board: tuple[int, ...], n: int) -> bool:
    return not has_path(board, n, B) and not has_path(board, n, W)


def predicates(names: tuple[str, ...]) -> dict[str, tuple[sat.Options, object]]:
    """Formula options and the brute-force predicate their models must equal."""
    hard = "hard corner" in names
    out: dict[str, tuple[sat.Options, object]] = {
        "glyph": (sat.Options(lemmas=(), parts=("glyph",), glyph_set=names),
                  lambda b, n: not has_glyph(b, n, names)),
        "glyph+stuck": (sat.Options(lemmas=(), parts=("glyph", "stuck"), glyph_set=names),
                        lambda b, n: not has_glyph(b, n, names) and stuck(b, n, names)),
        "fill": (sat.Options(lemmas=(), parts=("glyph", "stuck"), fill="some_empty",
                             glyph_set=names),
                 lambda b, n: E in b and not has_glyph(b, n, names) and stuck(b, n, names)),
        "static-draw": (sat.Options(lemmas=(), glyph_set=names, closed_in_stones=True),
                        lambda b, n: not has_glyph(b, n, names) and stuck(b, n, names)
                        and no_path(b, n)),
    }
    if hard:
        out["plain"] = (sat.Options(glyph_set=names),
                        lambda b, n: not has_glyph(b, n, names) and stuck(b, n, names)
                        and no_path(b, n) and not has_crosscut(b, n))
    return out


@pytest.fixture(scope="module")
def brute3() -> dict[tuple[str, ...], dict[str, set[tuple[int, ...]]]]:
    boards = list(all_boards(3))
    out = {}
    for names in NEW_SETS:
        free = [b for b in boards if not has_glyph(b, 3, names)]
        out[names] = {"glyph": set(free)}
        stuck_free = [b for b in free if stuck(b, 3, names)]
        out[names]["glyph+stuck"] = set(stuck_free)
        out[names]["fill"] = {b for b in stuck_free if E in b}
        out[names]["static-draw"] = {b for b in stuck_free if no_path(b, 3)}
        out[names]["plain"] = {b for b in out[names]["static-draw"] if not has_crosscut(b, 3)}
    return out


@pytest.mark.parametrize("names", NEW_SETS, ids=ids)
def test_models_equal_brute_force_n2(names: tuple[str, ...]) -> None:
    for name, (options, pred) in predicates(names).items():
        expected = {b for b in all_boards(2) if pred(b, 2)}  # type: ignore[operator]
        assert set(sat.iter_boards(sat.encode(2, options))) == expected, name


@pytest.mark.parametrize("names", NEW_SETS, ids=ids)
def test_models_equal_brute_force_n3(names: tuple[str, ...], brute3) -> None:
    for name, (options, _) in predicates(names).items():
        found = list(sat.iter_boards(sat.encode(3, options)))
        assert len(found) == len(set(found)), name
        assert set(found) == brute3[names][name], name


def test_the_reference_sees_every_new_glyph_and_the_sets_differ(brute3) -> None:
    # the cartwheel with stones beyond the board exists on 3x3 boards, the sets differ
    edge = [b for b in all_boards(3) if has_glyph(b, 3, ("cartwheel",))]
    assert edge and all(b.count(E) >= 4 for b in edge)
    cart, pin = VARIANT_SETS["cartwheel"], VARIANT_SETS["pinwheel"]
    assert brute3[cart]["glyph"] < brute3[pin]["glyph"]
    no_hard = without("pinwheel", "hard corner")
    assert brute3[no_hard]["static-draw"]  # without the hard corner: static draws
    assert not brute3[pin]["fill"] and not brute3[cart]["fill"]


def planted(rng: random.Random, n: int, names: tuple[str, ...]) -> tuple[int, ...]:
    """A random board, often holding a glyph (or a near miss) of ``names``."""
    board = [rng.choice((E, E, B, W)) for _ in range(n * n)]
    glyph = rng.choice(set_glyphs(n, names))
    for p, state in glyph:
        board[p] = state
    if rng.random() < 0.4:  # a near miss: one point of the glyph changed
        p, state = rng.choice(glyph)
        board[p] = rng.choice([s for s in (E, B, W) if s != state])
    return tuple(board)


@pytest.mark.parametrize("names", NEW_SETS, ids=ids)
def test_sampled_boards_n4_agree_with_brute_force(names: tuple[str, ...]) -> None:
    rng = random.Random(4)
    preds = predicates(names)
    encs = {name: sat.encode(4, options) for name, (options, _) in preds.items()}
    seen = {name: 0 for name in preds}
    for _ in range(60):
        board = planted(rng, 4, names)
        for name, (_, pred) in preds.items():
            enc = encs[name]
            got = sat.solve(enc, assumptions=enc.assumptions(board)).result == "sat"
            assert got == pred(board, 4), (name, board)  # type: ignore[operator]
            seen[name] += got
    assert 0 < seen["glyph"] < 60  # the sample holds glyph-free boards and boards with glyphs


@pytest.mark.parametrize("variant", ["pinwheel", "cartwheel"])
def test_symmetry_breaking_keeps_every_orbit_n3(variant: str) -> None:
    names = VARIANT_SETS[variant]
    options = sat.Options(lemmas=(), parts=("glyph", "stuck"), glyph_set=names)
    models = set(sat.iter_boards(sat.encode(3, options)))
    for board in models:  # the formula is invariant under the claim's 8 symmetries
        for sym in sat.SYMMETRIES:
            assert sat.transform_board(3, board, sym) in models
    kept = set(sat.iter_boards(sat.encode(3, replace(options, symmetry=3))))
    orbits = {min(sat.transform_board(3, b, s) for s in sat.SYMMETRIES) for b in models}
    assert kept <= models
    assert {min(sat.transform_board(3, b, s) for s in sat.SYMMETRIES) for b in kept} == orbits
    assert len(kept) < len(models)


def test_cartwheel_edges_are_in_the_encoding() -> None:
    # Black's a3-b3 over the block a1-b2, White's c1-c2 beside it: with Black beyond rank
    # 1 and White beyond file a, Black may not place b3 (docs/games/minefield.md)
    names = VARIANT_SETS["cartwheel"]
    board = [E] * 16
    for p, s in ((8, B), (2, W), (6, W), (15, B)):  # a3, c1, c2, d4
        board[p] = s
    trial = list(board)
    trial[9] = B  # b3
    assert any((1, 2) in pts for pts in instances(tuple(trial), 4, names))
    enc = sat.encode(4, sat.Options(lemmas=(), parts=("glyph",), glyph_set=names))
    assert sat.solve(enc, assumptions=enc.assumptions(tuple(trial))).result == "unsat"
    plain = sat.encode(4, sat.Options(lemmas=(), parts=("glyph",),
                                      glyph_set=VARIANT_SETS["pinwheel"]))
    assert sat.solve(plain, assumptions=plain.assumptions(tuple(trial))).result == "sat"
    pos = make_game(variant="cartwheel").parse_position("3b/b3/2w1/2w1 b -")
    assert "b3" not in {str(m) for m in pos.legal_moves()}


def test_crosscut_lemma_needs_the_hard_corner() -> None:
    with pytest.raises(ValueError, match="hard corner"):
        sat.Options(glyph_set=without("pinwheel", "hard corner"))
    assert sat.Options(glyph_set=("pinwheel", "hard corner")).glyph_set == (
        "hard corner", "pinwheel")


def test_standard_formulas_are_unchanged() -> None:
    # the published reports' formulas: no glyph set given means the rulebook's three
    for n in (3, 5):
        for _, options in sat.fast_steps(n):
            plain = sat.encode(n, options)
            named = sat.encode(n, replace(options, glyph_set=VARIANT_SETS["standard"]))
            assert plain.nvars == named.nvars and plain.counts == named.counts
            assert "glyphs=" not in options.label()
        assert set(sat.glyphs(n)) == set(set_glyphs(n, VARIANT_SETS["standard"]))


@pytest.mark.parametrize("variant", ["pinwheel", "cartwheel"])
def test_glyph_game_moves_equal_the_variant_game(variant: str) -> None:
    rng = random.Random(7)
    game = make_game(variant=variant)
    for n in (4, 5, 6):
        ours = GlyphGame(n, VARIANT_SETS[variant])
        for _ in range(40):
            pos = game.start(size=n, pie=False)
            for _ in range(rng.randrange(0, n * n)):
                moves = pos.legal_moves()
                if not moves:
                    break
                pos = pos.play(rng.choice(moves))
            for colour in (0, 1):
                mover = pos.legal_placements() if colour == pos.to_move else \
                    pos.opponent_placements()
                assert ours.placements(pos.black, pos.white, colour) == mover


@pytest.mark.parametrize("variant", ["pinwheel", "cartwheel"])
def test_exhaustive_walks_agree_n3(variant: str) -> None:
    walk = enumerate_reachable(3, variant=variant)
    assert walk.dead == walk.glyph_violations == walk.lemma_violations == 0
    assert walk.orthodiagonal_failures == 0 and walk.positions > 100
    ours = enumerate_dead(3, VARIANT_SETS[variant])
    assert ours.dead == 0 and ours.orthodiagonal_failures == 0
    assert ours.full_boards > 0


def test_variant_claims_hold_on_small_boards_and_carry_the_variant(tmp_path) -> None:
    for variant in ("pinwheel", "cartwheel"):
        result = claims.verify("minefield-no-draw", [2, 3, 4], method="fill",
                               variant=variant, progress=False, exhaustive_max=3,
                               certify_max=4, proof_dir=tmp_path / "proofs")
        assert result["holds"] and result["variant"] == variant
        assert all(r["certified"] for r in result["sizes"])
        assert "glyphs=" in result["sizes"][0]["steps"][0]["encoding"]
        paths = claims_report.write_report(result, tmp_path)
        assert paths[0].name == f"minefield-no-draw-{variant}.md"
        text = paths[0].read_text()
        assert f"({variant} variant)" in text and "re-justified" in text
        assert (tmp_path / "proofs" / f"minefield-{variant}-n4-fill.drup.gz").exists()
    ortho = claims.verify("minefield-orthodiagonal", [2, 3, 4], method="fill",
                          variant="cartwheel", progress=False, exhaustive_max=3)
    assert ortho["holds"] and [r["method"] for r in ortho["sizes"]] == [
        "exhaustive", "exhaustive", "sat-fill+theorem-O"]
    with pytest.raises(ValueError, match="variant"):
        claims.merge(ortho, {"claim": "minefield-orthodiagonal", "sizes": []})


def test_cli_variant_and_bad_input(cli_run, tmp_path) -> None:
    status, out, err = cli_run("verify", "minefield-no-draw", "--variant", "pinwheel",
                               "--sizes", "2-3", "--method", "fill", "--json",
                               "--checkpoint", str(tmp_path / "c.json"))
    assert status == 0, err
    data = json.loads(out)
    assert data["variant"] == "pinwheel" and data["holds"] is True
    status, out, err = cli_run("verify", "minefield-no-draw", "--variant", "wheel")
    assert status == 2 and out == ""
    assert err.strip().splitlines() == [
        "error: invalid option --variant: expected one of standard, pinwheel, cartwheel, "
        "got 'wheel'"]


def test_every_glyph_name_is_covered() -> None:
    assert {g for s in SETS for g in s} == set(ALL_GLYPH_NAMES)


def test_a_checkpoint_of_another_variant_is_refused(tmp_path) -> None:
    path = tmp_path / "run.checkpoint.json"
    claims.verify("minefield-no-draw", [3], method="fill", progress=False,
                  exhaustive_max=0, checkpoint=path)
    with pytest.raises(ValueError, match="other glyphs"):
        claims.verify("minefield-no-draw", [3], method="fill", progress=False,
                      exhaustive_max=0, checkpoint=path, variant="cartwheel")


@pytest.mark.long
@pytest.mark.parametrize("variant", ["pinwheel", "cartwheel"])
def test_exhaustive_walks_agree_n4_long(variant: str) -> None:
    # every reachable 4x4 position of the variant (minutes): no dead one, as the fill step
    walk = enumerate_reachable(4, variant=variant)
    assert walk.dead == walk.glyph_violations == walk.lemma_violations == 0
    assert walk.orthodiagonal_failures == 0 and walk.full_boards > 0
