"""The ring lemma's local SAT proof: every case UNSAT; the window formula is a sound
relaxation of real boards (checked on real boards of a weakened rule); and the check
fails when the lemma is broken on purpose."""

from __future__ import annotations

import pytest
from pysat.solvers import Solver

from boardproof.models.minefield.proofs import ring, sat

N = 5


def _board_of(model: list[int], cells: list[tuple[int, int]], col: int) -> tuple[int, ...]:
    true = {lit for lit in model if lit > 0}
    board = [sat.EMPTY] * (N * N)
    for i, (r, f) in enumerate(cells):
        p = r * N + col + f
        board[p] = (sat.BLACK if 1 + i in true else
                    sat.WHITE if 1 + len(cells) + i in true else sat.EMPTY)
    return tuple(board)


def _black_stuck(board: tuple[int, ...]) -> bool:
    all_glyphs = sat.glyphs(N)
    for p, state in enumerate(board):
        if state == sat.EMPTY:
            placed = board[:p] + (sat.BLACK,) + board[p + 1:]
            if not sat.has_pattern(placed, all_glyphs):
                return False
    return True


def test_every_case_unsat() -> None:
    found = ring.check_ring()
    assert [c.result for c in found] == ["unsat"] * 5
    assert all(c.certified for c in found)  # each DRUP proof passed the backward checker
    assert [c.label() for c in found][0] == "left 0, right >= 2"


@pytest.mark.parametrize("col", [0, 1, 2])
def test_window_is_a_relaxation_of_real_boards(col: int) -> None:
    # weakened rule (only Black must be stuck): real 5x5 boards with an empty bottom
    # point exist; every one of them must satisfy its window formula
    cells = ring.window_cells(col, N - 1 - col, N, N - 1)
    whole, _ = ring.encode_case(col, N - 1 - col, rows=N, half=N - 1, top_exact=True,
                                colours=(sat.BLACK,))
    left = col if col < 2 else None
    window, _ = ring.encode_case(left, None, colours=(sat.BLACK,))
    win_cells = ring.window_cells(left, None)
    checked = 0
    with Solver(name="cadical195", bootstrap_with=whole) as real:
        while checked < 40 and real.solve():
            model = real.get_model() or []
            board = _board_of(model, cells, col)
            # the model is a real board of the weakened rule (independent check)
            assert not sat.has_pattern(board, sat.glyphs(N)) and _black_stuck(board)
            assert board[col] == sat.EMPTY and all(board[:col])
            fix = []
            for i, (r, f) in enumerate(win_cells):
                state = board[r * N + col + f]
                fix += [(1 + i) * (1 if state == sat.BLACK else -1),
                        (1 + len(win_cells) + i) * (1 if state == sat.WHITE else -1)]
            with Solver(name="cadical195", bootstrap_with=window) as local:
                assert local.solve(assumptions=fix), sat.board_picture(board, N)
            checked += 1
            real.add_clause([-lit for lit in model[: 2 * len(cells)]])
    assert checked > 0


def test_broken_lemma_fails() -> None:
    # only Black stuck: the lemma is false, and both the window check and a real
    # board show it
    assert "sat" in [c.result for c in ring.check_ring(colours=(sat.BLACK,))]
    whole, _ = ring.encode_case(2, 2, rows=N, half=N - 1, top_exact=True,
                                colours=(sat.BLACK,))
    with Solver(name="cadical195", bootstrap_with=whole) as real:
        assert real.solve()


@pytest.mark.parametrize("n", [5, 6])
def test_agrees_with_the_whole_board(n: int) -> None:
    # on the real rules the whole-board formula is UNSAT for every empty bottom point
    for col in range(n):
        whole, _ = ring.encode_case(col, n - 1 - col, rows=n, half=n - 1, top_exact=True,
                                    left_filled=True)
        with Solver(name="cadical195", bootstrap_with=whole) as s:
            assert not s.solve()


def test_strip_lemma_small() -> None:
    found = ring.check_strip(2, 2)
    assert found["cases"] == 30 and found["unsat"] == 30 and found["certified"] == 30
    # the check can fail: with only Black stuck, and with too narrow a window
    assert ring.check_strip(2, 2, colours=(sat.BLACK,))["sat"] > 0
    assert ring.check_strip(6, 2)["sat"] > 0


@pytest.mark.parametrize(("k", "col"), [(0, 1), (1, 2), (0, 0)])
def test_strip_window_is_a_relaxation(k: int, col: int) -> None:
    # real 6x6 boards of the weakened rule (only Black stuck) whose empty points all lie
    # in ranks 2-3 (p the leftmost, then lowest, empty point, at rank 2 + k); every one
    # must satisfy its strip window formula
    n, width, half, a = 6, 2, 2, 2
    r0 = a + k
    board_cells = [(r - r0, f - col) for r in range(n) for f in range(n)]

    def on_board(rf: tuple[int, int]) -> bool:
        r, f = rf
        return 0 <= r + r0 < n and 0 <= f + col < n

    filled = [(r, f) for r, f in board_cells
              if not a <= r + r0 < a + width or f < 0 or (f == 0 and r < 0)]
    whole, _ = ring.encode_region(board_cells, on_board, filled, [(0, 0)], (sat.BLACK,))
    case = (k, False, False, col if col < half else None, None)
    window, _ = ring.encode_strip(width, half, *case, colours=(sat.BLACK,))
    lo_f = -(col if col < half else half)
    win_cells = sorted((r, f) for r in range(-k - 1, width - k + 1) for f in range(lo_f, half + 1))
    order = sorted(board_cells)
    checked = 0
    with Solver(name="cadical195", bootstrap_with=whole) as real:
        while checked < 25 and real.solve():
            model = real.get_model() or []
            true = {lit for lit in model if lit > 0}
            state = {rf: (sat.BLACK if 1 + i in true else
                          sat.WHITE if 1 + len(order) + i in true else sat.EMPTY)
                     for i, rf in enumerate(order)}
            board = tuple(state[(r - r0, f - col)] for r in range(n) for f in range(n))
            assert not sat.has_pattern(board, sat.glyphs(n))
            fix = []
            for i, rf in enumerate(win_cells):
                s = state[rf]
                fix += [(1 + i) * (1 if s == sat.BLACK else -1),
                        (1 + len(win_cells) + i) * (1 if s == sat.WHITE else -1)]
            with Solver(name="cadical195", bootstrap_with=window) as local:
                assert local.solve(assumptions=fix), sat.board_picture(board, n)
            checked += 1
            real.add_clause([-lit for lit in model[: 2 * len(order)]])
    assert checked > 0


def test_report_section_states_what_was_proved() -> None:
    from boardproof.models.minefield.research import claims_sections as certificates

    text = "\n".join(certificates.ring_section(ring.summary(strip_max=2)))
    assert "Ring lemma (every n >= 5)" in text
    assert "Strip lemma (width w, every n)" in text and "every width w <= 2" in text
