"""Why the native search knows no virtual connection but the diagonal step
(``docs/proofs.md``, "Virtual connections: only the diagonal step"): the Hex templates
fail in Minefield, each to one White stone next to a black one."""

from __future__ import annotations

import itertools

import pytest

from boardproof import models

GAME = models.get("minefield")


def empty_points(fen: str) -> set[str]:
    """The empty points of a 4x4 position, read from its rows (the top rank first).

    >>> sorted(empty_points("bbbb/bbbb/bbbb/1bbb b -"))
    ['a1']
    """
    out = set()
    for rank, row in zip(range(4, 0, -1), fen.split()[0].split("/"), strict=True):
        file = 0
        for char in row:
            if char.isdigit():
                out |= {f"{'abcd'[file + k]}{rank}" for k in range(int(char))}
                file += int(char)
            else:
                file += 1
    return out


@pytest.mark.parametrize(
    "fen, cut",
    [
        ("4/4/1b2/1w2 b -", {"a1", "c1"}),  # edge template: b2, White b1
        ("4/1b2/1w2/1b2 b -", {"a2", "c2"}),  # bridge: b1 b3, White b2
        ("4/2b1/1w2/1b2 b -", {"c2"}),  # knight's step b1 c3, White b2
        ("4/2b1/2w1/1b2 b -", {"b2"}),  # knight's step b1 c3, White c2
    ],
)
def test_one_white_stone_cuts_each_template(fen: str, cut: set[str]) -> None:
    pos = GAME.parse_position(fen)
    legal = {str(m) for m in pos.legal_moves()}
    assert cut <= empty_points(fen)
    assert not cut & legal, (fen, sorted(legal))


def test_the_diagonal_step_keeps_white_out() -> None:
    """Black a1 and b2, a2 and b1 empty: White may take neither."""
    pos = GAME.parse_position("4/4/1b2/b3 w -")
    legal = {str(m) for m in pos.legal_moves()}
    assert "a2" not in legal and "b1" not in legal


def test_the_cut_past_a_neighbour_lemma_on_4x4() -> None:
    """Every placement of a black stone x and a white stone y orthogonally next to it on
    an otherwise empty 4x4 board: Black cannot take the point diagonal to x in either
    2x2 area containing both (its fourth point is empty)."""
    checked = 0
    for fx, rx in itertools.product(range(4), range(4)):
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            fy, ry = fx + df, rx + dr
            if not (0 <= fy < 4 and 0 <= ry < 4):
                continue
            pos = GAME.start(size=4, pie=False)
            pos = pos.play(pos.parse_move(f"{'abcd'[fx]}{rx + 1}"))
            pos = pos.play(pos.parse_move(f"{'abcd'[fy]}{ry + 1}"))
            legal = {str(m) for m in pos.legal_moves()}
            # the two areas: shift across the edge x-y by +1 or -1
            for side in (1, -1):
                sf, sr = (0, side) if df else (side, 0)
                diag = (fy + sf, ry + sr)  # next to y, diagonal to x
                if 0 <= diag[0] < 4 and 0 <= diag[1] < 4:
                    assert f"{'abcd'[diag[0]]}{diag[1] + 1}" not in legal, pos.fen()
                    checked += 1
    assert checked == 72


def test_an_extra_stone_of_ones_own_can_lose_the_game() -> None:
    """No fill-in of captured points (``docs/proofs.md``, "Not used: captured points"):
    Minefield is not monotone. Black to move wins on this 3x3 board, and loses with one
    more black stone on b1, where a2 and c2 become hard corners."""
    from boardproof.solvers.search import AlphaBeta

    before = GAME.parse_position("bwb/1w1/3 b -")
    after = GAME.parse_position("bwb/1w1/1b1 b -")
    assert {str(m) for m in before.legal_moves()} == {"a1", "b1", "c1", "a2", "c2"}
    assert {str(m) for m in after.legal_moves()} == {"a1", "c1"}
    assert (AlphaBeta(before).iterate().value, AlphaBeta(after).iterate().value) == ("win", "loss")
