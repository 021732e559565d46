"""Perft through the native Minefield move generator, and the perft files' cases: shared by
the variant tests (tests/test_minefield_variants_native.py, tests/test_native_cartwheel.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boardproof.models.minefield import native
from boardproof.models.minefield.board import PASS, SWAP, Move

DATA = Path(__file__).parent / "data"


def native_perft(pos: Any, depth: int) -> int:
    """Perft with the native move generator for the placements of the colour to move (the
    pass and the swap, which the C code does not generate, from the rules)."""
    if depth == 0:
        return 1
    if pos.outcome() is not None:
        return 0
    search = native.search_for(pos.n, pos.game.diagonal, variant=pos.game.variant)
    search.activate()
    me, op, black = search.boards(pos)
    legal = search.legal(me, op, black)
    moves = [search.move(p) for p in range(legal.bit_length()) if legal >> p & 1]
    if pos.swap_available():
        moves.append(SWAP)
    if not moves and pos.opponent_placements():
        moves = [PASS]
    total = 0
    for move in moves:
        assert isinstance(move, Move)
        total += native_perft(pos.play(move), depth - 1)
    return total


def perft_cases(variant: str) -> list[tuple[str, str, list[tuple[int, int]]]]:
    """(id, position, [(depth, count)]) of tests/data/minefield-VARIANT.perft."""
    cases: list[tuple[str, str, list[tuple[int, int]]]] = []
    current: dict[str, Any] = {}
    for raw in [*(DATA / f"minefield-{variant}.perft").read_text().splitlines(), ""]:
        line = raw.strip()
        if line.startswith("#"):
            continue
        if not line:
            if current:
                assert current.get("variant", variant) == variant
                cases.append((current["id"], current["position"], current["depths"]))
            current = {}
            continue
        word, _, rest = line.partition(" ")
        if word == "depth":
            d, count = rest.split()
            current.setdefault("depths", []).append((int(d), int(count)))
        else:
            current[word] = rest
    return cases


def replay_twin_playout(pos: Any, seed: int, plies: int) -> tuple[Any, Any]:
    """The seeded C playout from ``pos`` equals its Python twin, and each of its moves is
    legal under the position's rules (replayed); returns (the C code, the end position)."""
    from boardproof.models.minefield import playouts
    from boardproof.solvers.playouts import reference_playout

    code, moves = playouts.native_minefield(pos, seed, plies, trace=True)
    ref_code, ref_moves = reference_playout(pos, seed, plies, trace=True)
    assert (code, moves) == (ref_code, [str(m) for m in ref_moves]), pos.fen()
    walk = pos
    for text in moves:
        move = walk.parse_move(text)
        assert move in walk.legal_moves(), (pos.fen(), text)
        walk = walk.play(move)
    return code, walk
