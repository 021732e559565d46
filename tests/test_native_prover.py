"""The issue-18 savings (Theorem O, df-pn table kept, alpha-beta hints) change no value."""

from __future__ import annotations

import random

import pytest

from boardproof import models
from boardproof.models.minefield import native
from boardproof.models.minefield.native import prover
from boardproof.testing.random_play import unfinished_positions

GAME = models.get("minefield")
needs_native = pytest.mark.skipif(not native.available(), reason="C module not built")


def _connected(own: int, black: bool, n: int, diagonal: bool) -> bool:
    """Does ``own`` (compact points r*n+f) join its colour's two edges? (plain flood)"""
    cells = {(p // n, p % n) for p in range(n * n) if own >> p & 1}
    start = [c for c in cells if (c[0] if black else c[1]) == 0]
    seen, stack = set(start), list(start)
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if diagonal:
        steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    while stack:
        r, f = stack.pop()
        if (r if black else f) == n - 1:
            return True
        for dr, df in steps:
            c = (r + dr, f + df)
            if c in cells and c not in seen:
                seen.add(c)
                stack.append(c)
    return False


def reachable(n: int) -> list[tuple[int, int, bool]]:
    """Every position reachable from the empty n x n board (no pie rule), one per symmetry
    class, where nobody has an orthogonal path yet: (mover's stones, other's, mover Black)."""
    lib = native._native
    native.search_for(n, False, 12)._install()
    seen = {lib.canonical(0, 0, True)[:3]}
    stack, out = [(0, 0, True)], []
    while stack:
        me, op, black = stack.pop()
        if _connected(op, not black, n, False):
            continue
        out.append((me, op, black))
        legal = lib.legal(me, op)
        kids = [(op, me | 1 << q, not black) for q in range(n * n) if legal >> q & 1]
        if not kids and lib.legal(op, me):
            kids = [(op, me, not black)]  # the forced pass
        for kid in kids:
            key = lib.canonical(*kid)[:3]
            if key not in seen:
                seen.add(key)
                stack.append(kid)
    return out


def values(n: int, positions: list[tuple[int, int, bool]], diagonal: bool) -> list[int]:
    """Who-wins values (+1, 0, -1 for the mover) by the native alpha-beta of one rule; in
    the ortho-diagonal game a position whose last mover has an 8-connected path is over."""
    lib = native._native
    native.reset()
    native.search_for(n, diagonal, 16)._install()
    out = []
    for me, op, black in positions:
        if diagonal and _connected(op, not black, n, True):
            out.append(-1)
            continue
        value, _, _, status = lib.solve(me, op, black, -1, 1, 0, 0.0, None, 0)
        assert status == 0
        out.append(value)
    return out


@needs_native
@pytest.mark.parametrize("n", [2, 3])
def test_theorem_o_search_equals_the_plain_search_on_every_small_position(n: int) -> None:
    positions = reachable(n)
    assert values(n, positions, True) == values(n, positions, False)


@needs_native
@pytest.mark.long
def test_theorem_o_search_equals_the_plain_search_on_every_4x4_position() -> None:
    positions = reachable(4)
    assert len(positions) > 10_000
    assert values(4, positions, True) == values(4, positions, False)


@needs_native
@pytest.mark.parametrize("n, count", [(4, 1500), (5, 200)])
def test_theorem_o_search_on_sampled_positions(n: int, count: int) -> None:
    """Seeded random games of every length (the whole 4x4 walk is a long test)."""
    rng = random.Random(18)
    search = native.search_for(n, False, 12)
    sample = []
    while len(sample) < count:
        pos = GAME.start(size=n, pie=False)
        for _ in range(rng.randrange(10 if n == 5 else 0, n * n)):
            if pos.outcome() is not None:
                break
            pos = pos.play(rng.choice(pos.legal_moves()))
        if pos.outcome() is None:
            sample.append(search.boards(pos))
    assert values(n, sample, True) == values(n, sample, False)


def _midgame(n: int, stones: int, count: int, seed: int) -> list:
    return unfinished_positions(lambda: GAME.start(size=n, pie=False), count,
                                random.Random(seed),
                                until=lambda p: bin(p.black | p.white).count("1") >= stones)


@needs_native
@pytest.mark.parametrize("theorem_o", [False, True])
def test_the_prover_and_its_confirmation_equal_the_plain_search_on_5x5(theorem_o: bool) -> None:
    """df-pn first (with or without Theorem O), alpha-beta with hints second, against the
    plain alpha-beta, on sampled 5x5 middlegames and 4x4 entries."""
    positions = _midgame(5, 7, 10, seed=18) + [GAME.parse_position(t) for t in (
        "4/4/4/4 b -", "4/4/4/b3 w -", "4/4/b3/4 w -", "4/4/1b2/4 w -")]  # fmt: skip
    for pos in positions:
        native.reset()
        plain = native.search_for(pos.n, False, 20).solve(pos).value
        winner = pos.to_move if plain == "win" else 1 - pos.to_move
        found = prover.who_wins(pos, theorem_o=theorem_o, tt_bits=20)
        assert found.winner == winner, pos.fen()
        if found.best_move is not None:  # the df-pn's move wins (plain alpha-beta says so)
            after = pos.play(found.best_move)
            assert after.outcome() is not None or native.solve(after).value == "loss"
        check = prover.confirm(pos, winner, theorem_o=theorem_o, tt_bits=20)
        assert check.agrees, pos.fen()
        other = prover.confirm(pos, 1 - winner, theorem_o=theorem_o, tt_bits=20)
        assert other.agrees is False, pos.fen()  # a wrong winner is refuted, hints or not


@needs_native
def test_hints_from_a_foreign_table_change_no_value() -> None:
    """The hint is move ordering only: with the df-pn table of another position (and
    either colour) alpha-beta still finds every plain value."""
    search = native.search_for(4, False, 18)
    search.proof(GAME.parse_position("4/4/4/4 b -"), 0, tt_bits=18)
    for pos in _midgame(4, 5, 12, seed=4):
        native.reset()
        plain = native.search_for(4, False, 18).solve(pos).value
        for colour in (0, 1):
            native.reset()
            hinted = native.search_for(4, False, 18).solve(pos, hint=colour)
            assert hinted.value == plain, (pos.fen(), colour)


@needs_native
def test_pinned_theorem_o_fires_at_an_ortho_diagonal_path() -> None:
    """Black's a1-b2-b3 is an 8-connected path on 3x3 but not an orthogonal one: the
    Theorem O search stops there (0 nodes), the plain search must play it out."""
    pos = GAME.parse_position("1b1/1b1/b1w w -")
    assert pos.outcome() is None
    found = prover.who_wins(pos, tt_bits=12)
    assert (found.winner, found.nodes) == (0, 0)
    plain = prover.who_wins(pos, theorem_o=False, tt_bits=12)
    assert plain.winner == 0 and plain.nodes > 0
    assert prover.confirm(pos, 0, theorem_o=False, tt_bits=12).agrees


@needs_native
def test_pinned_hints_fire_and_cut_the_confirmation() -> None:
    pos = GAME.parse_position("4/4/4/1b2 w -")  # White wins (b2)
    found = prover.who_wins(pos, theorem_o=False, tt_bits=18)
    plain = prover.confirm(pos, found.winner, theorem_o=False, hints=False, tt_bits=18)
    hinted = prover.confirm(pos, found.winner, theorem_o=False, hints=True, tt_bits=18)
    assert plain.agrees and hinted.agrees and plain.hinted == 0 and hinted.hinted > 0
    assert hinted.nodes < plain.nodes


@needs_native
def test_pinned_kept_table_reuses_a_proof() -> None:
    """The empty 4x4 board's proof goes through a2: kept, the a2 entry's proof is free."""
    empty = GAME.parse_position("4/4/4/4 b -")
    a2 = GAME.parse_position("4/4/b3/4 w -")
    fresh = prover.who_wins(a2, attacker=0, tt_bits=18)
    assert prover.who_wins(empty, attacker=0, tt_bits=18).best_move is not None
    kept = prover.who_wins(a2, attacker=0, keep=True, tt_bits=18)
    assert fresh.winner == kept.winner == 0
    assert kept.nodes < fresh.nodes


@needs_native
def test_a_disproof_names_the_winning_move_of_the_side_to_move() -> None:
    """Asked "does Black win?" with White to move, a disproof goes through White's win."""
    pos = GAME.parse_position("4/4/4/1b2 w -")
    found = prover.who_wins(pos, attacker=0, tt_bits=18)
    assert found.winner == 1 and found.best_move is not None
    native.reset()
    assert native.search_for(4, False, 18).solve(pos.play(found.best_move)).value == "loss"


@needs_native
def test_openings_dfpn_method_agrees_with_the_native_method_on_5x5_lines(monkeypatch) -> None:
    """A cut-down check of ``openings --method dfpn`` on 5x5 (the full table is a run)."""
    from boardproof.models.minefield.research import openings

    monkeypatch.setattr(openings, "PROVER_TT_BITS", 20)
    monkeypatch.setattr(openings, "NATIVE_TT_BITS", {5: 20})
    rng = random.Random(5)
    lines = []
    while len(lines) < 3:
        pos, moves = GAME.start(size=5, pie=False), []
        for _ in range(7):
            move = rng.choice(pos.legal_moves())
            moves.append(str(move))
            pos = pos.play(move)
        if pos.outcome() is None:
            lines.append(" ".join(moves))
    for line in lines:
        new = openings.solve_task((5, line, "orthogonal", None, "dfpn"))
        old = openings.solve_task((5, line, "orthogonal", None, "native"))
        assert new["method"] == "native df-pn" and new["position"] == old["position"]
        assert new["winner"] == old["winner"], line
        assert new["check"]["method"] == "native alpha-beta" and new["check"]["proved"], line


def test_the_dfpn_report_names_its_second_search() -> None:
    from boardproof.models.minefield.research.openings import build_report
    from boardproof.models.minefield.research.openings_report import render_markdown

    report = build_report([2, 3], progress=False, method="dfpn")
    assert "prover" not in report  # below 5x5 the entries are solved as before
    report["prover"] = "dfpn"
    text = render_markdown(report)
    assert "re-proved by a second search" in text and "Theorem O" in text


@needs_native
def test_a_kept_table_of_another_size_or_rule_is_not_reused() -> None:
    """Table keys are boards: a 4x4 table kept for a 3x3 question would be nonsense."""
    pos = GAME.parse_position("3/3/3 b -")
    fresh = prover.who_wins(pos, attacker=0, tt_bits=18)
    prover.who_wins(GAME.parse_position("4/4/4/4 b -"), attacker=0, tt_bits=18)
    kept = prover.who_wins(pos, attacker=0, keep=True, tt_bits=18)
    assert (kept.winner, kept.nodes) == (fresh.winner, fresh.nodes)
    plain = prover.who_wins(pos, attacker=0, theorem_o=False, keep=True, tt_bits=18)
    assert plain.winner == fresh.winner and plain.nodes > 0
