"""The session-5 pruning rules of the native Minefield search (issue 18) change no value.

Each rule (``prover.RULES``: heuristic df-pn numbers, frozen points, blocked sides,
must-play in 3 plies) is checked against the plain search: alpha-beta values with and
without the rules, and df-pn's answer with the rules against the plain alpha-beta value,
on every small position (every 4x4 one in ``long``) and on sampled 4x4 and 5x5 positions;
and a pinned position where each rule fires.
"""

from __future__ import annotations

import random

import pytest
from test_native_prover import _connected, reachable
from test_native_prover import values as _plain_values

from boardproof import models
from boardproof.models.minefield import native
from boardproof.models.minefield.native import prover
from boardproof.testing.random_play import unfinished_positions

GAME = models.get("minefield")
needs_native = pytest.mark.skipif(not native.available(), reason="C module not built")
ALL = tuple(prover.RULES)


def _ab_values(n: int, positions: list, diagonal: bool, use: tuple[str, ...]) -> list[int]:
    """The same with the rules on (one table for all: every entry is exact either way)."""
    with prover.rules(use):
        return _plain_values(n, positions, diagonal)


def _dfpn_answers(n: int, positions: list, use: tuple[str, ...], bits: int = 16,
                  diagonal: bool = True,
                  depth: int = prover.DEFAULT_MUST_DEPTH) -> list[int]:  # fmt: skip
    """Does the mover win? (1 / 0) by df-pn with the rules (``depth``: must5's), one kept
    table for all (its numbers stay true between positions of one size and rule)."""
    lib = native._native
    native.reset()
    native.search_for(n, diagonal, 12)._install()
    out = []
    with prover.rules(use, depth=depth):
        for me, op, black in positions:
            if _connected(op, not black, n, diagonal):
                out.append(0)
                continue
            result, _, _ = lib.dfpn(me, op, black, True, bits, 0, 0.0, True)
            assert result in (0, 1)
            out.append(result)
    return out


def _sample(n: int, count: int, seed: int) -> list:
    search = native.search_for(n, False, 12)
    low = 8 if n == 5 else 0
    found = unfinished_positions(lambda: GAME.start(size=n, pie=False), count,
                                 random.Random(seed), plies=lambda r: r.randrange(low, n * n))
    return [search.boards(pos) for pos in found]


@needs_native
def test_rules_are_off_by_default_and_after_the_block() -> None:
    assert prover.rule_counts()["rules"] == 0
    with prover.rules(ALL):
        assert prover.rule_counts()["rules"] == sum(prover.RULES.values())
    assert prover.rule_counts()["rules"] == 0
    with pytest.raises(ValueError):
        native._native.rules(2 * max(prover.RULES.values()))


@needs_native
@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("diagonal", [False, True])
def test_alpha_beta_rules_equal_the_plain_search_on_every_small_position(
    n: int, diagonal: bool
) -> None:
    positions = reachable(n)
    plain = _plain_values(n, positions, diagonal)
    for use in (("blocked",), ("must3",), ("order",), ALL):
        assert _ab_values(n, positions, diagonal, use) == plain, use


@needs_native
@pytest.mark.parametrize("n", [2, 3])
def test_dfpn_rules_equal_the_plain_search_on_every_small_position(n: int) -> None:
    positions = reachable(n)
    plain = [int(v > 0) for v in _plain_values(n, positions, True)]
    for use in (("heuristic",), ("must3",), ("frozen", "blocked"), ("order",), ALL):
        assert _dfpn_answers(n, positions, use) == plain, use


@needs_native
@pytest.mark.long
def test_every_rule_equals_the_plain_search_on_every_4x4_position() -> None:
    positions = reachable(4)
    assert len(positions) > 700_000
    for diagonal in (False, True):
        plain = _plain_values(4, positions, diagonal)
        assert _ab_values(4, positions, diagonal, ALL) == plain
        assert _ab_values(4, positions, diagonal, ("must3",)) == plain
        assert _ab_values(4, positions, diagonal, ("order",)) == plain
        if diagonal:
            wins = [int(v > 0) for v in plain]
            assert _dfpn_answers(4, positions, ALL, bits=22) == wins
            assert _dfpn_answers(4, positions, ("heuristic",), bits=22) == wins
            assert _dfpn_answers(4, positions, ("must3",), bits=22) == wins
            assert _dfpn_answers(4, positions, ("order",), bits=22) == wins


@needs_native
@pytest.mark.parametrize("n, count", [(4, 600), (5, 40)])
def test_every_rule_on_sampled_positions(n: int, count: int) -> None:
    positions = _sample(n, count, seed=n)
    plain = _plain_values(n, positions, True)
    assert _ab_values(n, positions, True, ALL) == plain
    assert _ab_values(n, positions, False, ALL) == _plain_values(n, positions, False)
    wins = [int(v > 0) for v in plain]
    for use in (("heuristic",), ("must3",), ("order",), ALL):
        assert _dfpn_answers(n, positions, use, bits=18) == wins, use


@needs_native
@pytest.mark.parametrize("use", [("heuristic",), ("must3",), ("order",), ("order6",),
                                 ("order6", "prior6"), ("must3", "order6", "prior6"), ALL])
def test_the_prover_with_rules_on_4x4_entries_and_5x5_middlegames(use: tuple[str, ...]) -> None:
    """who_wins / confirm with the rules against the plain alpha-beta, the winning move
    included (it wins by the plain search)."""
    positions = [GAME.parse_position(t) for t in ("4/4/4/4 b -", "4/4/4/b3 w -", "4/4/b3/4 w -")]
    rng = random.Random(55)
    while len(positions) < 9:
        pos = GAME.start(size=5, pie=False)
        while pos.outcome() is None and bin(pos.black | pos.white).count("1") < 8:
            pos = pos.play(rng.choice(pos.legal_moves()))
        if pos.outcome() is None:
            positions.append(pos)
    for pos in positions:
        native.reset()
        plain = native.search_for(pos.n, False, 18).solve(pos).value
        winner = pos.to_move if plain == "win" else 1 - pos.to_move
        found = prover.who_wins(pos, use=use, tt_bits=18)
        assert found.winner == winner, pos.fen()
        if found.best_move is not None:
            after = pos.play(found.best_move)
            assert after.outcome() is not None or native.solve(after).value == "loss"
        assert prover.confirm(pos, winner, use=use, tt_bits=18).agrees, pos.fen()
        assert prover.confirm(pos, 1 - winner, use=use, tt_bits=18).agrees is False


@needs_native
def test_pinned_heuristic_numbers_save_nodes_on_the_empty_4x4_board() -> None:
    empty = GAME.parse_position("4/4/4/4 b -")
    plain = prover.who_wins(empty, tt_bits=18)
    guided = prover.who_wins(empty, use=["heuristic"], scale=8, tt_bits=18)
    assert plain.winner == guided.winner == 0
    assert guided.nodes < plain.nodes


@needs_native
def test_pinned_must_play_fires_and_saves_nodes() -> None:
    """4x4, a black stone on a2 (Black wins): many White moves let Black make a double
    threat at once, so they are cut before any search."""
    pos = GAME.parse_position("4/4/b3/4 w -")
    plain = prover.who_wins(pos, tt_bits=18)
    with prover.rules(["must3"]):
        search = native.search_for(4, True, 12)
        proved, nodes, _ = search.proof(prover.as_orthodiagonal(pos), 1, tt_bits=18)
        cuts = prover.rule_counts()["must3_cuts"]
    assert proved is False and plain.winner == 0
    assert cuts > 0 and nodes < plain.nodes


def _naive_unstoppable(me: int, op: int, black: bool) -> bool:
    """The must-play claim by brute force: after our move (``me``, Black if ``black``, is
    the opponent to move), has it a legal reply after which we cannot win at once, have a
    legal move, and every legal move of ours leaves one of its winning points legal?"""
    lib = native._native
    legal = lib.legal(me, op)
    for r in (q for q in range(64) if legal >> q & 1):
        me2 = me | 1 << r
        threats = lib.winning(me2, black) & ~op
        ours = lib.legal(op, me2)
        if not threats or not ours or ours & lib.winning(op, not black):
            continue
        if all(lib.legal(me2, op | 1 << q) & threats & ~(1 << q)
               for q in range(64) if ours >> q & 1):  # fmt: skip
            return True
    return False


@needs_native
@pytest.mark.parametrize("diagonal", [False, True])
def test_the_threat_test_equals_brute_force_and_its_cuts_lose(diagonal: bool) -> None:
    """On the children of sampled 4x4 and 5x5 positions (moves that stop every immediate
    win): the C test (with its shortcuts) says what the brute-force one says, and every
    move it cuts loses by the plain search."""
    lib = native._native
    fired = 0
    for n, count in ((4, 150), (5, 40)):
        positions = _sample(n, count, seed=21)
        native.reset()
        native.search_for(n, diagonal, 16)._install()
        for me, op, black in positions:
            if diagonal and _connected(op, not black, n, True):
                continue
            legal = lib.legal(me, op)
            threats = lib.winning(op, not black) & ~me
            for q in (q for q in range(n * n) if legal >> q & 1):
                kid = (op, me | 1 << q, not black)
                loses_at_once = threats & lib.legal(kid[0], kid[1]) & ~(1 << q)
                if loses_at_once or lib.winning(me, black) >> q & 1:
                    continue  # not a candidate, or a win at once
                claim = lib.unstoppable(*kid)
                assert claim == _naive_unstoppable(*kid), (n, kid)
                if claim:
                    fired += 1
                    value, _, _, status = lib.solve(*kid, -1, 1, 0, 0.0, None, 0)
                    assert status == 0 and value == 1, (n, kid)
    assert fired > 10


@needs_native
def test_frozen_points_are_none_in_sampled_games_and_a_switch_has_none() -> None:
    """The frozen set (points nobody can ever occupy) is empty in every sampled position:
    a frozen window would need a glyph-like pattern, and glyphs cannot be made. The
    distance of a lone edge stone and of an empty board are the plain path counts."""
    lib = native._native
    native.search_for(4, True, 12)._install()
    assert lib.distances(0, 0, True)[:3] == (4, 4, 0)
    assert lib.distances(1, 0, True)[:3] == (3, 4, 0)  # Black a1: three more points
    for me, op, black in _sample(4, 200, seed=11):
        assert lib.distances(me, op, black)[2] == 0


@needs_native
@pytest.mark.parametrize("n", [4, 5, 6])
def test_the_must3_cache_keeps_the_same_moves_as_brute_force(n: int) -> None:
    """must3_survivors() with its cache (what does not depend on the candidate is taken
    once per node) keeps the moves it keeps without it, and those are the moves after
    which the brute-force test finds no unstoppable reply; on sampled positions of
    4x4 to 6x6, either colour to move, where the search asks it: the mover cannot win at
    once, and the candidates are its moves that stop every immediate win of the other
    side."""
    lib = native._native
    search = native.search_for(n, False, 12)
    search._install()
    positions = unfinished_positions(lambda: GAME.start(size=n, pie=False), 100,
                                     random.Random(50 + n), plies=lambda r: r.randrange(n * n))
    cuts = 0
    try:
        for pos in positions:
            me, op, black = search.boards(pos)
            legal = lib.legal(me, op)
            if legal & lib.winning(me, black):
                continue  # a win at once: the rule is not asked
            threats = lib.winning(op, not black) & ~me
            legal = sum(1 << q for q in range(64) if legal >> q & 1
                        and not lib.legal(op, me | 1 << q) & threats & ~(1 << q))  # fmt: skip
            lib.must3_cache(True)
            kept = lib.must3(me, op, black, legal)
            lib.must3_cache(False)
            assert lib.must3(me, op, black, legal) == kept, pos.fen()
            naive = sum(1 << q for q in range(64) if legal >> q & 1
                        and not _naive_unstoppable(op, me | 1 << q, not black))  # fmt: skip
            assert kept == naive, pos.fen()
            cuts += bin(legal & ~kept).count("1")
        rng = random.Random(n)  # and on random boards, every legal move a candidate
        for _ in range(3000):
            me = op = 0
            for q in range(n * n):
                if rng.random() < 0.6:
                    if rng.random() < 0.5:
                        me |= 1 << q
                    else:
                        op |= 1 << q
            black = rng.random() < 0.5
            legal = lib.legal(me, op)
            lib.must3_cache(True)
            kept = lib.must3(me, op, black, legal)
            lib.must3_cache(False)
            assert lib.must3(me, op, black, legal) == kept, (n, me, op, black)
    finally:
        lib.must3_cache(True)
    assert cuts > 0  # the rule fires on these samples


@needs_native
def test_pinned_win3_fires_and_gives_the_same_answer() -> None:
    """win3 (must3 tested at the node): on 4x4 a2 it cuts, and df-pn's answer is the plain
    one (Black wins); with must3 on too, the parents cut those nodes first."""
    pos = GAME.parse_position("4/4/b3/4 w -")
    with prover.rules(["win3"]):
        search = native.search_for(4, True, 12)
        proved, _, _ = search.proof(prover.as_orthodiagonal(pos), 1, tt_bits=18)
        cuts = prover.rule_counts()["win3_cuts"]
    assert proved is False and cuts > 0
