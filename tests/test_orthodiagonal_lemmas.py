"""Brute-force checks of the lemmas of Theorem O (the ortho-diagonal claim), each
shown to fail on a deliberately broken variant of its hypotheses."""

from __future__ import annotations

import pytest

from boardproof.models.minefield.proofs import lemmas


@pytest.mark.parametrize("n", [2, 3])
def test_lemma_g_gaps(n: int) -> None:
    assert lemmas.gap_violations(n) == 0
    assert lemmas.gap_violations(n, variant="no hard corners") > 0


@pytest.mark.parametrize("n", [2, 3])
def test_lemma_k_crossing(n: int) -> None:
    assert lemmas.crossing_violations(n) == 0
    assert lemmas.crossing_violations(n, variant="crosscuts allowed") == 0
    assert lemmas.crossing_violations(n, variant="y 8-path") > 0


@pytest.mark.parametrize("n", [2, 3, 4])
def test_lemma_f_full_boards_fill(n: int) -> None:
    assert lemmas.full_fill_violations(n) == 0
    assert lemmas.full_fill_violations(n, variant="crosscuts allowed") > 0


@pytest.mark.long
def test_lemmas_on_every_4x4_board() -> None:
    assert lemmas.gap_violations(4) == 0
    assert lemmas.gap_violations(4, variant="no hard corners") > 0
    assert lemmas.crossing_violations(4) == 0
    assert lemmas.crossing_violations(4, variant="y 8-path") > 0


@pytest.mark.long
def test_lemma_f_on_every_full_5x5_board() -> None:
    assert lemmas.full_fill_violations(5) == 0
    assert lemmas.full_fill_violations(5, variant="crosscuts allowed") > 0


def test_path_helpers_against_the_sat_module() -> None:
    import numpy as np

    from boardproof.models.minefield.proofs import sat

    # an 8-path that is not a 4-path, and a crosscut, on small boards
    board, n = sat.parse_board("b2/1b1/2b")  # a diagonal of black stones, rank 3 to 1
    black = np.array([sum(1 << p for p, s in enumerate(board) if s == sat.BLACK)],
                     dtype=np.uint32)
    assert lemmas.has_path(black, sat.BLACK, n, True)[0]
    assert not lemmas.has_path(black, sat.BLACK, n, False)[0]
    cross, _ = sat.parse_board("bw/wb")
    b = np.array([0b1001], dtype=np.uint32)
    w = np.array([0b0110], dtype=np.uint32)
    assert sat.has_pattern(cross, sat.crosscuts(2)) and lemmas.crosscut(b, w, 2)[0]
