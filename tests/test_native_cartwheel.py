"""The native (C) Minefield code on the cartwheel variant (issue 30), against the Python
rules and the Python searches.

The cartwheel's glyph counts the points just beyond the board as stones of the edge's
owner (beyond rank 1 and rank n Black's, beyond file a and the last file White's), so near
the edges its roles depend on the colour that places: the C code gets one role table per
colour (``native.point_roles``). These tests compare what it computes with the Python rules
of the variant (``Tables.variant_placements``) for both colours to move, on random boards
of every size (the 64-bit search up to 8x8, the wide one at every size), and the values
of its searches with the Python alpha-beta; they also check what the symmetric tables
rest on: the symmetries that keep the edges map each colour's roles onto themselves, the
transposes map Black's onto White's.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from minefield_native_perft import native_perft, perft_cases, replay_twin_playout

from boardproof import models
from boardproof.models.minefield import native
from boardproof.models.minefield.board import BLACK, WHITE, Move, tables
from boardproof.models.minefield.native import prover
from boardproof.solvers.api import solve

pytestmark = pytest.mark.skipif(not native.available(), reason="the C module was not built")

DATA = Path(__file__).parent / "data"
CARTWHEEL = "cartwheel"


def game(win: str = "orthogonal") -> Any:
    return models.get("minefield", win=win, variant=CARTWHEEL)


def random_board(rng: random.Random, n: int, width: int) -> tuple[int, int]:
    """Random stones of two colours (not a position of play: any board has legal moves
    by the rules), denser near the edges half of the time."""
    density = rng.uniform(0.1, 0.8)
    edgy = rng.random() < 0.5
    a = b = 0
    for r in range(n):
        for f in range(n):
            near = min(f, r, n - 1 - f, n - 1 - r) <= 1
            x = rng.random() * (0.6 if edgy and near else 1.0)
            if x < density / 2:
                a |= 1 << (r * width + f)
            elif x < density:
                b |= 1 << (r * width + f)
    return a, b


def compact(n: int, width: int, board: int) -> int:
    return sum(1 << (r * n + f) for r in range(n) for f in range(n)
               if board >> (r * width + f) & 1)  # fmt: skip


def extra_fits(extras: Any, own: int, opp: int, empty: int) -> bool:
    """Does one of the resolved roles (index triples) fit?"""
    return any(all(own >> i & 1 for i in m) and all(opp >> i & 1 for i in o)
               and all(empty >> i & 1 for i in e) for m, o, e in extras)  # fmt: skip


def plant(rng: random.Random, n: int, wt: Any, a: int, b: int, mover: int) -> tuple[int, int]:
    """The board (Black's stones ``a``, White's ``b``) with a cartwheel through the points
    beyond the board but for one point: a random role of ``mover`` among the resolved
    ones (``wt.extras``) at a random point that has one; sometimes one of its stones is
    left out or of the wrong colour."""
    width = n + 3
    point = rng.choice([p for p in range(n * n) if wt.extras[mover][p]])
    m, o, e = rng.choice(wt.extras[mover][point])
    own, opp = (a, b) if mover == BLACK else (b, a)
    for i in m:
        own, opp = own | 1 << i, opp & ~(1 << i)
    for i in o:
        own, opp = own & ~(1 << i), opp | 1 << i
    for i in (*e, point // n * width + point % n):
        own, opp = own & ~(1 << i), opp & ~(1 << i)
    if rng.random() < 0.3:  # spoil one stone
        i = rng.choice((*m, *o))
        own, opp = own & ~(1 << i), (opp | 1 << i) if i in m else opp & ~(1 << i)
    return (own, opp) if mover == BLACK else (opp, own)


def check_legal_moves(n: int, boards: int, seed: int) -> None:
    t = tables(n)
    wide = native.search_for(n, False, tt_bits=12, wide=True, variant=CARTWHEEL)
    small = (native.search_for(n, False, tt_bits=12, wide=False, variant=CARTWHEEL)
             if n <= native.SMALL_MAX_SIZE else None)  # fmt: skip
    wt = native.wide_tables(n, False, CARTWHEEL)
    assert (wt.extras is None) == (n == 2)  # the 2x2 board has no cartwheel role
    rng = random.Random(seed)
    edge_cuts = 0  # placements forbidden by a cartwheel through points beyond the board
    for k in range(boards):
        a, b = random_board(rng, n, t.width)
        if wt.extras is not None and k % 2:
            a, b = plant(rng, n, wt, a, b, rng.choice((BLACK, WHITE)))
        empty = t.full & ~(a | b)
        for mover, own, opp in ((BLACK, a, b), (WHITE, b, a), (BLACK, b, a), (WHITE, a, b)):
            expected = t.variant_placements(CARTWHEEL, mover, own, opp)
            wide.activate()
            assert wide.legal(own, opp, mover == BLACK) == expected, (n, mover, own, opp)
            shapes, roles = (int.from_bytes(x, "little") for x in native._native.wide_forbidden(
                native._wide(own), native._wide(opp), mover == BLACK))
            assert shapes == roles == empty & ~expected
            if small is not None:
                small.activate()
                got = small.legal(compact(n, t.width, own), compact(n, t.width, opp),
                                  mover == BLACK)  # fmt: skip
                assert got == compact(n, t.width, expected), (n, mover, own, opp)
            if wt.extras is not None:
                edge_cuts += sum(
                    1 for p in range(n * n)
                    if empty >> (p // n * t.width + p % n) & 1
                    and extra_fits(wt.extras[mover][p], own, opp, empty))  # fmt: skip
    assert edge_cuts > 0 or n == 2, n


@pytest.mark.parametrize("n", [2, 4, 5, 6, 8, 9, 13, 19, 26])
def test_legal_moves_equal_the_rules_for_both_colours(n: int) -> None:
    check_legal_moves(n, 10, seed=n)


@pytest.mark.long
@pytest.mark.parametrize("n", range(3, 27))
def test_legal_moves_equal_the_rules_at_every_size(n: int) -> None:
    check_legal_moves(n, 40, seed=1000 + n)


def test_an_edge_cartwheel_is_forbidden_for_one_colour_only() -> None:
    """b1 of 4x4 with a1, a4, b4 Black's and c2, c3 White's: a Black stone there forms a
    cartwheel round a2-b3 (below and above Black's, right White's, left beyond file a:
    White's); for White, whose roles need its own stones beyond file a, it does not."""
    pos = game().parse_position("bb2/2w1/2w1/b3 b -")
    assert Move(1, 0) not in pos.legal_moves()
    t = tables(4)
    expected = [t.variant_placements(CARTWHEEL, mover, pos.black, pos.white) >> 1 & 1
                for mover in (BLACK, WHITE)]  # fmt: skip
    assert expected == [0, 1]
    for wide in (False, True):
        search = native.search_for(4, False, wide=wide, variant=CARTWHEEL)
        search.activate()
        me, op, _ = search.boards(pos)
        assert not search.legal(me, op, True) >> 1 & 1
        assert search.legal(me, op, False) >> 1 & 1  # (the same stones, White placing)


#: the 8 symmetries of the C searches (board.symmetry_point): s >= 4 exchange the colours
SYMMETRIES = range(8)


def mapped(role: tuple[int, ...], perm: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sum(1 << perm[p] for p in range(len(perm)) if mask >> p & 1) for mask in role)


@pytest.mark.parametrize("variant", native.VARIANTS)
@pytest.mark.parametrize("n", [3, 4, 5, 8])
def test_each_colours_roles_map_onto_the_images_colour(variant: str, n: int) -> None:
    """What the symmetric keys rest on: symmetry s maps the roles of colour c at p onto the
    roles at s(p) of the same colour (s < 4, the edges keep their owners) or of the other
    colour (s >= 4, the transposes, which exchange the edges and the colours)."""
    t = native.native_tables(n, False, variant)
    by_colour = (t.roles, t.white_roles if t.white_roles is not None else t.roles)
    assert (t.white_roles is not None) == (variant == CARTWHEEL and n > 2)
    black_first = t.edges[0]
    for s in SYMMETRIES:
        perm = t.perms[s]
        image_edge = mapped((black_first,), perm)[0]
        assert (image_edge in t.edges[2:]) == (s >= 4)
        for c in (0, 1):
            c2 = c ^ (s >= 4)
            for p in range(n * n):
                image = {mapped(role, perm) for role in by_colour[c][p]}
                assert image == set(by_colour[c2][perm[p]]), (variant, n, s, c, p)


@pytest.mark.parametrize("n", [5, 11])
def test_the_wide_tables_map_the_same_way(n: int) -> None:
    t = native.wide_tables(n, False, CARTWHEEL)
    assert t.white_roles is not None and t.extras is not None
    width = n + 3

    def as_points(role: Any) -> tuple[frozenset[tuple[int, int]], ...]:
        return tuple(frozenset((q % width, q // width) for q in part) for part in role)

    for s in SYMMETRIES:
        perm = t.perms[s]
        for c in (0, 1):
            c2 = c ^ (s >= 4)
            tables_c = (t.roles, t.white_roles)
            for p in range(n * n):
                image = set()
                for role in tables_c[c][p]:
                    parts = as_points(role)
                    image.add(tuple(frozenset((perm[q * n + g] % n, perm[q * n + g] // n)
                                              for g, q in part) for part in parts))  # fmt: skip
                assert image == {as_points(role) for role in tables_c[c2][perm[p]]}
                ext = {tuple(frozenset((perm[q * n + g] % n, perm[q * n + g] // n)
                                       for g, q in part) for part in as_points(role))
                       for role in t.extras[c][p]}  # fmt: skip
                assert ext == {as_points(role) for role in t.extras[c2][perm[p]]}


def random_positions(n: int, count: int, seed: int, win: str = "orthogonal",
                     low: float = 0.0, high: float = 1.0) -> Iterator[Any]:  # fmt: skip
    """``count`` positions of random legal games of the cartwheel (no pending swap, not
    over), with between ``low`` and ``high`` of the board filled."""
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


#: every pruning rule of the C searches (each proved from one colour's roles)
ALL_RULES = ("heuristic", "frozen", "blocked", "must3", "order", "win3", "weak")


@pytest.mark.parametrize("win", ["orthogonal", "orthodiagonal"])
@pytest.mark.parametrize(("n", "count", "low"), [(3, 12, 0.0), (4, 10, 0.3), (5, 6, 0.45)])
def test_values_equal_the_python_search(n: int, count: int, low: float, win: str) -> None:
    """Alpha-beta (64-bit and wide, plain and with the pruning rules), distance mode and
    df-pn (plain and with every rule) against the Python alpha-beta, both colours to move."""
    movers = set()
    for pos in random_positions(n, count, seed=7 * n + len(win), win=win, low=low, high=0.8):
        expected = solve(pos, method="alphabeta").value
        movers.add(pos.to_move)
        native.reset()
        for wide in (False, True):
            found = native.solve(pos, wide=wide)
            assert found.value == expected, (pos.fen(), wide)
            assert found.best_move in pos.legal_moves()
        small = native.solve(pos, distance=True, wide=False)
        big = native.solve(pos, distance=True, wide=True)
        assert (small.value, small.plies) == (big.value, big.plies), pos.fen()
        with prover.rules(["blocked", "must3", "order"]):
            native.reset()
            assert native.solve(pos).value == expected, pos.fen()
        plain = prover.who_wins(pos, tt_bits=16)
        pruned = prover.who_wins(pos, tt_bits=16, use=ALL_RULES, table="quad")
        if expected == "draw":
            assert plain.winner is None and plain.draw and pruned.winner is None, pos.fen()
        else:
            winner = pos.to_move if expected == "win" else 1 - pos.to_move
            assert plain.winner == winner == pruned.winner, pos.fen()
            for wide in (False, True):
                search = native.search_for(n, win == "orthodiagonal", wide=wide,
                                           variant=CARTWHEEL)  # fmt: skip
                assert search.proves(pos, winner)[0] is True, (pos.fen(), wide)
                assert search.proves(pos, 1 - winner)[0] is False, (pos.fen(), wide)
    assert movers == {BLACK, WHITE}


@pytest.mark.parametrize("n", [2, 3, pytest.param(4, marks=pytest.mark.long)])
def test_the_empty_small_boards_equal_the_python_search(n: int) -> None:
    if True:
        for win in ("orthogonal", "orthodiagonal"):
            pos = game(win).start(size=n, pie=False)
            expected = solve(pos, method="alphabeta").value
            for wide in (False, True):
                native.reset()
                assert native.solve(pos, wide=wide).value == expected, (n, win, wide)


@pytest.mark.parametrize(("name", "text", "depths"), perft_cases(CARTWHEEL))
def test_the_perft_file_through_the_native_move_generator(name: str, text: str,
                                                          depths: list[tuple[int, int]]) -> None:
    pos = game().parse_position(text)
    for depth, count in depths[:3]:
        assert native_perft(pos, depth) == count, (name, depth)


@pytest.mark.parametrize("n", [4, 5, 7, 9, 13, 19])
def test_playouts_are_the_python_twins(n: int) -> None:
    """The same seeded playout in C and in Python (each move legal under the cartwheel's
    rules, by replaying it), and the native kernel is the C one."""
    from boardproof.models.minefield import playouts
    from boardproof.solvers.playouts import reference_playout

    assert playouts.available()
    results = []
    for k, pos in enumerate(random_positions(n, 5, seed=100 + n, high=0.5)):
        for seed in range(4):
            code, _ = replay_twin_playout(pos, 1000 * k + seed, 4 * n * n)
            results.append(code)
            assert playouts.kernel("auto").play(pos, seed, 4 * n * n) == reference_playout(
                pos, seed, 4 * n * n)[0]
    assert playouts.kernel("auto") is playouts.NATIVE_MINEFIELD
    assert {0, 1} <= set(results)


def test_the_native_tree_gives_the_rules_moves_and_proved_values() -> None:
    """The C tree on the cartwheel: its moves are the model's legal moves (both colours
    to move, with and without a pending swap), and its proved values equal the Python
    alpha-beta's (orthogonal rule: no Theorem O for a variant)."""
    from boardproof.models.minefield.native import mcts as mf_mcts
    from boardproof.solvers.native_mcts import EngineSettings, native_tree

    assert not mf_mcts.connect8(game()) and mf_mcts.connect8(game("orthodiagonal"))
    rng = random.Random(23)
    checked = proved = 0
    movers = set()
    for k in range(240):
        n = 3 + k % 6
        pos = game().start(size=n, pie=k % 3 == 0)
        for _ in range(rng.randrange(n * n)):
            if pos.outcome() is not None:
                break
            pos = pos.play(rng.choice(pos.legal_moves()))
        if pos.outcome() is not None:
            continue
        tree = native_tree(pos, EngineSettings(hash_mb=16, seed=k))
        assert tree is not None
        codes = tree.native.search.moves()
        assert [tree.native.codec.decode(pos, c) for c in codes] == list(pos.legal_moves())
        checked += 1
        movers.add(pos.to_move)
        if n <= 4 and len(pos.legal_moves()) <= 7:
            tree.run(iterations=20_000)
            value = tree.proved_value()
            if value is not None:
                assert value == solve(pos, method="alphabeta").value, pos.fen()
                proved += 1
    assert checked > 100 and proved >= 5 and movers == {BLACK, WHITE}


def test_the_native_tree_sees_the_stones_beyond_the_board() -> None:
    """On boards that hold a cartwheel through the points beyond the board (but for the
    point to play, for the colour to move), the C tree's moves are the model's."""
    from boardproof.models.minefield.native import mcts as mf_mcts
    from boardproof.models.minefield.rules import from_cells

    rng = random.Random(29)
    checked = differ = 0
    for k in range(120):
        n = 4 + k % 6
        wt = native.wide_tables(n, False, CARTWHEEL)
        mover = rng.choice((BLACK, WHITE))
        a, b = plant(rng, n, wt, *random_board(rng, n, n + 3), mover)
        cells = tuple(1 if a >> (r * (n + 3) + f) & 1 else 2 if b >> (r * (n + 3) + f) & 1
                      else 0 for r in range(n) for f in range(n))  # fmt: skip
        pos = from_cells(cells, n, to_move=mover, variant=CARTWHEEL)
        if pos.outcome() is not None:
            continue
        black, white, to_move, pie = mf_mcts.state_of(pos)
        search = mf_mcts._mcts.Search(
            n, False, mf_mcts.roles(CARTWHEEL), black, white, to_move, pie, 1 << 20, k, 1,
            0.3, 300.0, 1.0, 1, True, 0, 0, 0, None, False, mf_mcts.edged(CARTWHEEL))
        codes = [c for c in search.moves() if c < mf_mcts.SWAP_CODE]
        expected = [m.rank * n + m.file for m in pos.legal_moves() if m.is_placement]
        assert codes == expected, pos.fen()
        checked += 1
        pinwheel = from_cells(cells, n, to_move=mover, variant="pinwheel")
        differ += pos.legal_moves() != pinwheel.legal_moves()
    assert checked > 60 and differ > 20


def test_the_opening_tables_equal_the_python_search() -> None:
    """The cartwheel's opening table by the native searches (each entry re-proved by
    df-pn) has the Python alpha-beta's winners."""
    from boardproof.models.minefield.research.openings import build_report

    native_report = build_report([2, 3], progress=False, variant=CARTWHEEL)
    python_report = build_report([2, 3], progress=False, variant=CARTWHEEL, method="alphabeta")
    assert native_report["variant"] == CARTWHEEL
    for mine, theirs in zip(native_report["sizes"], python_report["sizes"], strict=True):
        assert [r["winner"] for r in mine["openings"]] == [r["winner"]
                                                          for r in theirs["openings"]]
        assert mine["empty"]["winner"] == theirs["empty"]["winner"]
        assert mine["consistent"] and not mine["unsolved"]
        assert all((e.get("check") or {}).get("proved") for e in mine["entries"])


def test_a_certificate_is_checked_by_the_rules() -> None:
    from boardproof.models.minefield.native import certify
    from boardproof.models.minefield.proofs.certificate import check_certificate

    pos = game().parse_position("4/4/b3/4 w -")
    cert = certify.make_certificate(pos)
    assert cert.header["variant"] == CARTWHEEL and cert.header["lemmas"] == []
    report = check_certificate(cert)
    assert report.winner == "b" and report.game == "minefield (cartwheel variant)"
