"""Candy Conquest: the model, rule by rule, against pinned positions."""

from __future__ import annotations

import random

import pytest

from boardproof import models
from boardproof.models import candy
from boardproof.models.base import (
    IllegalMoveError,
    InvalidOptionError,
    Outcome,
    play_line,
)

GAME = candy.make_game()
FILES = "abcde"


def fen(squares: dict[str, str], to_move: int = 1, players: int = 2) -> str:
    """Position text from ``{"c3": "1Os2Sx", ...}``."""
    rows = []
    for rank in range(5, 0, -1):
        rows.append(",".join(squares.get(f"{f}{rank}", ".") for f in FILES))
    return f"{'/'.join(rows)} {to_move} {players}"


def pos(squares: dict[str, str], to_move: int = 1, players: int = 2) -> candy.CandyPosition:
    return GAME.parse_position(fen(squares, to_move, players))


def moves_at(p: candy.CandyPosition, square: str) -> list[str]:
    return [str(m) for m in p.legal_moves() if str(m).endswith("@" + square)]


# ---------------------------------------------------------------------------
# registry, start, options
# ---------------------------------------------------------------------------


def test_registry_and_alias() -> None:
    assert models.get("candy") is GAME
    assert models.get("candy-conquest").name == "candy"
    assert GAME.symmetry_count == 8
    assert [GAME.symbol(p) for p in range(4)] == ["1", "2", "3", "4"]
    assert GAME.player_of("3") == 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_start(players: int) -> None:
    start = GAME.start(players=players)
    assert start.fen() == f"{'/'.join(['.,.,.,.,.'] * 5)} 1 {players}"
    assert start.to_move == 0 and start.players == players
    assert all(start.reserve(p) == (4,) * 6 for p in range(players))
    assert GAME.start() == GAME.start(players=2)


@pytest.mark.parametrize(
    "options",
    [{"players": 1}, {"players": 5}, {"size": 5}, {"variant": "x"}, {"seed": 1}, {"pie": False}],
)
def test_start_rejects_options(options: dict) -> None:
    with pytest.raises(InvalidOptionError):
        GAME.start(**options)


def test_make_game_has_no_options() -> None:
    with pytest.raises(InvalidOptionError):
        candy.make_game(win="x")


# ---------------------------------------------------------------------------
# placing
# ---------------------------------------------------------------------------


def test_socket_sizes() -> None:
    start = GAME.start()
    large = ["Os", "Ox", "So", "Sx", "Xo", "Xs"]
    small = ["oS", "oX", "sO", "sX", "xO", "xS"]
    for name in candy.SQUARE_NAMES:
        f, r = FILES.index(name[0]), int(name[1]) - 1
        expected = large if (f + r) % 2 == 0 else small
        assert moves_at(start, name) == [f"{c}@{name}" for c in expected]
    assert sum(candy.LARGE_SOCKET) == 13
    with pytest.raises(IllegalMoveError, match="small socket of b1"):
        start.play(start.parse_move("Os@b1"))
    with pytest.raises(IllegalMoveError, match="large socket of a1"):
        start.play(start.parse_move("sO@a1"))


def test_canonical_move_order() -> None:
    moves = [str(m) for m in GAME.start().legal_moves()]
    assert moves[:7] == ["Os@a1", "Ox@a1", "So@a1", "Sx@a1", "Xo@a1", "Xs@a1", "oS@b1"]
    assert moves[-1] == "Xs@e5"


def test_star_never_goes_into_a_square() -> None:
    # b1 holds a large square on top: only a small square may go into it
    p = pos({"b1": "1xS"}, to_move=2)
    assert moves_at(p, "b1") == ["sO@b1", "sX@b1"]
    with pytest.raises(IllegalMoveError, match="type of the top shape 'S'"):
        p.play(p.parse_move("xO@b1"))
    with pytest.raises(IllegalMoveError, match="other size"):
        p.play(p.parse_move("So@b1"))


def test_small_goes_into_large() -> None:
    p = pos({"b1": "1xS"}, to_move=2).play(candy.parse_move_text("sO@b1"))
    assert p.fen().startswith(".,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./.,1xS2sO,")
    col = p.cols[candy.SQUARE_OF["b1"]]
    # 1's small star is in the board, its large square stays visible around 2's small square
    assert candy.shape_visibility(col, 0) == (False, True)
    assert candy.shape_visibility(col, 1) == (False, True)
    assert candy.visible_shapes(col) == [0, 1]
    # next: a small round goes into 2's large round
    assert moves_at(p, "b1") == ["oS@b1", "oX@b1"]


def test_large_goes_over_small_and_hides_a_whole_candy() -> None:
    p = pos({"a1": "1Os"}, to_move=2)
    assert moves_at(p, "a1") == ["So@a1", "Sx@a1"]
    p = p.play(candy.parse_move_text("Sx@a1"))
    col = p.cols[0]
    assert candy.shape_visibility(col, 0) == (False, False)  # fully hidden candy
    assert candy.shape_visibility(col, 1) == (True, True)
    assert candy.visible_shapes(col) == [1, 1]
    assert candy.candy_text(col, 0) == "1(O)(s)"
    # once covered by a large star, 2's small star is hidden too
    p = p.play(candy.parse_move_text("Xo@a1"))
    assert candy.visible_shapes(p.cols[0]) == [1, 0, 0]


def test_any_colours_nest_with_three_players() -> None:
    p = play_line(GAME.start(players=3), ["Os@c3", "Sx@c3", "Xo@c3", "Os@c3"])
    assert p.fen().split()[0].split("/")[2] == ".,.,1Os2Sx3Xo1Os,.,."
    assert p.to_move == 1


# ---------------------------------------------------------------------------
# lines
# ---------------------------------------------------------------------------

# three opponent candies far away keep the candy counts in turn order
FILLER = {"a5": "2Os", "b5": "2sO", "e4": "2oS"}


def test_flat_line_on_floor_zero() -> None:
    p = pos({"a1": "1Os", "b1": "1sO", "c1": "1Os", **FILLER})
    assert p.status() == [] and p.outcome() is None
    won = p.play(candy.parse_move_text("oX@d1"))
    assert won.outcome() == Outcome.win(0)
    assert won.legal_moves() == ()
    # a fourth candy elsewhere does not make a line
    assert p.play(candy.parse_move_text("Xo@b2")).outcome() is None


def test_flat_line_on_floor_one_and_diagonal() -> None:
    squares = {"a1": "2Os1Sx", "b2": "2So1Ox", "c3": "2Xo1Os", "d4": "2Xs", "e1": "1Os"}
    p = pos(squares)
    assert p.status() == [] and p.outcome() is None
    assert p.play(candy.parse_move_text("So@d4")).outcome() == Outcome.win(0)
    # floor 0 next to three candies on floor 1 is no line
    assert p.play(candy.parse_move_text("Sx@e5")).outcome() is None


#: nesting chain used under the staircases: each bottom fits the top below it
CHAIN = ["Os", "So", "Ox", "Xs", "Sx", "Xo"]
DIAGONAL = ["a1", "b2", "c3", "d4"]
#: squares off the a1-d4 diagonal for filler candies that keep the counts in turn order
FILLER_SQUARES = ["e1", "a5", "e2", "a4", "d1", "b5", "e4", "a2"]


def balanced(squares: dict[str, str], players: int) -> candy.CandyPosition:
    """The position with filler candies added so that every count is in turn order with
    player 1 to move (all counts equal)."""
    p = pos(squares, players=players)
    placed = [24 - sum(p.reserve(c)) for c in range(players)]
    out = dict(squares)
    free = iter(name for name in FILLER_SQUARES if name not in squares)
    kinds = {True: iter(["Xo", "Sx", "Xs", "Ox"] * 4), False: iter(["oX", "xS", "sX", "xO"] * 4)}
    for colour in range(players):
        while placed[colour] < max(placed):
            name = next(free)
            large = candy.LARGE_SOCKET[candy.SQUARE_OF[name]]
            out[name] = f"{colour + 1}{next(kinds[large])}"
            placed[colour] += 1
    return pos(out, players=players)


def _staircase(floors: list[int]) -> tuple[candy.CandyPosition, candy.CandyMove]:
    """Player 1's candies on a1, b2, c3 at floors[:3] over candies of players 2 and 3
    (mixed so that they make no line), and the move that puts player 1's candy on d4 at
    floors[3]. Three players."""
    squares: dict[str, str] = {}
    for j, (name, floor) in enumerate(zip(DIAGONAL, floors, strict=True)):
        lower = "".join(f"{2 + (i + j // 2) % 2}{CHAIN[i]}" for i in range(floor))
        squares[name] = lower + ("" if j == 3 else "1" + CHAIN[floor])
    squares = {k: v for k, v in squares.items() if v}
    return balanced(squares, 3), candy.CandyMove(3 * 5 + 3, candy.CODE_OF[CHAIN[floors[3]]])


@pytest.mark.parametrize(
    "floors, kind",
    [
        ([0, 1, 2, 3], "staircase"),  # up along a1-d4
        ([3, 2, 1, 0], "staircase"),  # [choice] the same line read from d4 counts too
        ([1, 2, 3, 4], "staircase"),
        ([0, 1, 3, 2], None),  # not in order
        ([0, 2, 3, 4], None),  # a step of two floors
        ([2, 2, 2, 2], "flat"),  # flat on floor 2
        ([1, 1, 1, 1], "flat"),
    ],
)
def test_staircases(floors: list[int], kind: str | None) -> None:
    p, move = _staircase(floors)
    assert p.status() == [] and p.outcome() is None, (p.fen(), p.status())
    after = p.play(move)
    assert len(after.cols[candy.SQUARE_OF["d4"]]) == floors[3] + 1
    expected = [] if kind is None else [(kind, tuple(zip((0, 6, 12, 18), floors, strict=True)))]
    assert candy.lines_of(after.cols, 0) == expected
    assert (after.outcome() == Outcome.win(0)) is (kind is not None)


def test_column_of_four_shapes() -> None:
    p = pos({"c3": "1Os1Sx1Xo", "a5": "2Os", "b5": "2sO", "e4": "2oS"})
    assert p.status() == []
    assert candy.visible_shapes(p.cols[12]) == [0, 0, 0]
    after = p.play(candy.parse_move_text("Os@c3"))
    assert candy.visible_shapes(after.cols[12]) == [0, 0, 0, 0]
    assert after.outcome() == Outcome.win(0)


def test_column_double_count() -> None:
    # 2's candy on floor 0 is hidden; three candies of 1 show four shapes: the top one twice
    p = pos({"c3": "2Os1Sx1Xo", "a5": "2Os"})
    assert p.status() == []
    after = p.play(candy.parse_move_text("Os@c3"))
    assert candy.visible_shapes(after.cols[12]) == [0, 0, 0, 0]
    assert after.outcome() == Outcome.win(0)
    # covered by a large square, the same candy shows one shape only
    column = GAME.parse_position(fen({"c3": "2Os1Sx1Xo1Os2Sx"})).cols[12]
    assert candy.visible_shapes(column) == [0, 0, 0, 1, 1]
    # an opponent's shape in between breaks the run
    r = pos({"c3": "2Os1Sx1Xs2Sx"})
    assert r.status() == []
    after = r.play(candy.parse_move_text("Xo@c3"))
    assert candy.visible_shapes(after.cols[12]) == [0, 0, 1, 0, 0]
    assert after.outcome() is None


def test_covered_shape_breaks_an_opponent_line() -> None:
    # player 2 holds a1, b1, c1 on floor 0 and threatens d1
    p = pos({"a1": "2Os", "b1": "2sO", "c1": "2Os", "a5": "1Os", "b5": "1sO", "e4": "1oS"})
    assert p.to_move == 0 and p.status() == []
    # not covered: 2 completes a1-d1
    threat = play_line(p, ["Os@e5", "oX@d1"])
    assert threat.outcome() == Outcome.win(1)
    assert candy.lines_of(threat.cols, 1) == [("flat", ((0, 0), (1, 0), (2, 0), (3, 0)))]
    covered = p.play(candy.parse_move_text("So@a1"))  # a large square covers 2's small square
    assert candy.shape_visibility(covered.cols[0], 0) == (False, False)
    after = covered.play(candy.parse_move_text("oX@d1"))
    assert after.outcome() is None


def test_only_the_mover_scores() -> None:
    # covering a small shape can never make a line for somebody else
    rng = random.Random(3)
    for _ in range(30):
        p = GAME.start(players=3)
        while p.outcome() is None:
            mover = p.to_move
            p = p.play(rng.choice(p.legal_moves()))
            outcome = p.outcome()
            if outcome is not None and outcome.winners:
                assert outcome.winners == {mover}
                assert candy.line_colours(p.cols, 3) == [mover]


# ---------------------------------------------------------------------------
# reserves, pass, the end
# ---------------------------------------------------------------------------


def test_reserve_runs_out() -> None:
    squares = {"a1": "1Os", "c1": "1Os", "e1": "1Os", "b2": "1Os"}
    squares.update({"a5": "2Os", "b5": "2sO", "e4": "2oS", "d5": "2sO"})
    p = pos(squares)
    assert p.reserve(0) == (0, 4, 4, 4, 4, 4)
    assert "Os@c3" not in [str(m) for m in p.legal_moves()]
    assert "sO@b1" not in [str(m) for m in p.legal_moves()]  # same kind, other way up
    with pytest.raises(IllegalMoveError, match="no Os candy left"):
        p.play(candy.parse_move_text("Os@c3"))


PASS_POSITION = (
    "1So,2sO,1Os,1xO,1So/1xO,1So,1oX,1Sx2Xo,2sO/1Sx2Xo,2sO,1Sx2Xo,1oX,1Xo/"
    "1xO,1Sx2Xo,1oX,1Os,2sO/1Os,1xO,1Os,2xO,1So 1 2"
)


def test_pass() -> None:
    p = GAME.parse_position(PASS_POSITION)
    assert p.status() == [] and p.outcome() is None
    assert p.reserve(0) == (0, 0, 0, 0, 0, 4)  # only Xs left, and no top takes it
    assert p.placements(0) == [] and p.can_place(1)
    assert [str(m) for m in p.legal_moves()] == ["pass"]
    after = p.play(candy.parse_move_text("pass"))
    assert after.cols == p.cols and after.to_move == 1
    assert "pass" not in [str(m) for m in after.legal_moves()]
    with pytest.raises(IllegalMoveError, match="pass is only legal"):
        after.play(candy.parse_move_text("pass"))
    with pytest.raises(IllegalMoveError):
        GAME.start().play(candy.PASS)


def _random_game(players: int, seed: int) -> candy.CandyPosition:
    rng = random.Random(seed)
    p = GAME.start(players=players)
    while p.outcome() is None:
        p = p.play(rng.choice(p.legal_moves()))
    return p


@pytest.mark.parametrize("players", [2, 3, 4])
def test_end_without_winner_when_reserves_run_out(players: int) -> None:
    for seed in range(200):
        p = _random_game(players, seed)
        if p.outcome() == Outcome.draw():
            break
    else:
        pytest.fail("no drawn random game")
    assert all(sum(p.reserve(c)) == 0 for c in range(players))
    assert p.legal_moves() == () and p.status() == []
    assert GAME.parse_position(p.fen()).outcome() == Outcome.draw()


# reached from PASS_POSITION by legal play (many passes on the way): player 2 still
# holds one Xs candy but no top takes it (no small x, no large S on top), and player 1's
# reserve is empty.
STUCK_LINE = (  # noqa: SIM905
    "pass Ox@c3 Xs@c3 Ox@e1 Xs@e1 xO@c4 pass So@d2 pass So@c1 pass So@c5 pass Sx@e1 Xs@e1 "
    "oS@a2 sX@a2 xS@a2 pass Sx@e1 pass xS@d3 pass sX@a2 pass sX@d3 pass Xs@e1"
).split()


def test_end_without_winner_when_nobody_fits() -> None:
    p = play_line(GAME.parse_position(PASS_POSITION), STUCK_LINE)
    assert p.reserve(0) == (0,) * 6 and p.reserve(1) == (0, 0, 0, 0, 0, 1)
    assert not p.can_place(0) and not p.can_place(1)
    assert p.outcome() == Outcome.draw()
    assert p.legal_moves() == () and p.status() == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        p.play(candy.parse_move_text("pass"))
