"""Carpniches: perft against the naive reference, conformance, pinned rule positions, errors."""

from __future__ import annotations

import random
from pathlib import Path

import naive_carpniches as naive
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardproof import models
from boardproof.models.base import (
    IllegalMoveError,
    InvalidNotationError,
    InvalidOptionError,
    Outcome,
    generic_perft,
)
from boardproof.models.carpniches import (
    CAPYBARA,
    POODLE,
    START_FEN,
    has_line,
    parse_position,
    play_record,
)
from boardproof.testing.conformance import check_playouts

GAME = models.get("carpniches")
START = GAME.start()
PERFT_FILE = Path(__file__).parent / "data" / "carpniches.perft"


def read_perft_file(path: Path) -> list[tuple[str, str, int, int]]:
    cases = []
    name = text = ""
    for line in path.read_text().splitlines():
        if line.startswith("id "):
            name = line[3:]
        elif line.startswith("epd "):
            text = line[4:]
        elif line.startswith("perft "):
            _, depth, count = line.split()
            cases.append((name, text, int(depth), int(count)))
    return cases


PERFT_CASES = read_perft_file(PERFT_FILE)


def moves_of(pos: object) -> list[str]:
    return [str(m) for m in pos.legal_moves()]  # type: ignore[attr-defined]


def play(pos_text: str, *moves: str):  # type: ignore[no-untyped-def]
    pos = parse_position(pos_text)
    for m in moves:
        pos = pos.play(pos.parse_move(m))
    return pos


# ---------------------------------------------------------------------------
# perft
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "text", "depth", "count"), PERFT_CASES)
def test_perft_file(name: str, text: str, depth: int, count: int) -> None:
    pos = GAME.parse_position(text)
    got = pos.perft(depth)
    if got != count:
        breakdown = {str(m): pos.play(m).perft(depth - 1) for m in pos.legal_moves()}
        pytest.fail(f"{name} depth {depth}: {got} != {count}; divide: {breakdown}")


@pytest.mark.parametrize(("name", "text", "depth", "count"), [c for c in PERFT_CASES if c[2] <= 2])
def test_generic_perft_agrees(name: str, text: str, depth: int, count: int) -> None:
    assert generic_perft(GAME.parse_position(text), depth) == count


def test_perft_file_is_naive() -> None:
    """The file's small counts are reproduced by the naive reference right now."""
    for _, text, depth, count in PERFT_CASES:
        if depth <= 2:
            assert naive.perft(text, depth) == count


def test_moves_and_outcomes_match_naive_on_random_playouts() -> None:
    rng = random.Random(11)
    for _ in range(30):
        pos = START
        for _ in range(80):
            grid, side, opening = naive.parse(pos.fen())
            assert moves_of(pos) == naive.moves(grid, side, opening), pos.fen()
            outcome = pos.outcome()
            want = naive.winner(grid, side, opening)
            got = None if outcome is None else GAME.symbol(min(outcome.winners))
            assert got == want, pos.fen()
            if outcome is not None:
                break
            move = rng.choice(pos.legal_moves())
            child = pos.play(move)
            assert child.fen() == naive.fen(*naive.play(grid, side, opening, str(move)))
            pos = child


@pytest.mark.long
def test_perft_start_depth_5() -> None:
    assert START.perft(5) == naive.perft(START_FEN, 5) == 885576


# ---------------------------------------------------------------------------
# conformance
# ---------------------------------------------------------------------------


def test_conformance_random_playouts() -> None:
    starts = [START, parse_position("1cp2(pc)/6/p4p/c1(pc)3/5c/(pc)5 p -")]
    assert check_playouts(GAME, starts, playouts=25, seed=3, max_plies=150) > 500


def test_start_and_options() -> None:
    assert START.fen() == START_FEN
    assert START.status() == []
    assert START.to_move == CAPYBARA
    for bad in ({"size": 6}, {"players": 3}, {"variant": "x"}, {"seed": 1}, {"pie": False}):
        with pytest.raises(InvalidOptionError):
            GAME.start(**bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError):
        models.get("carpniches", win="x")


def test_symmetries_of_start() -> None:
    # the corners a1/f6 hold (pcp), a6/f1 hold (cpc): half turn and both diagonals keep it
    keep = [s for s in range(8) if START.transform(s) == START]
    assert keep == [0, 2, 6, 7]
    for s in range(8):
        image = START.transform(s)
        assert {str(START.transform_move(m, s)) for m in START.legal_moves()} == set(
            moves_of(image)
        )


# ---------------------------------------------------------------------------
# pinned positions, one rule each
# ---------------------------------------------------------------------------


def test_moves_go_exactly_the_stack_height() -> None:
    # capybara tops: a lone piece (1), a 2-stack (2), a 3-stack (3)
    pos = parse_position("6/6/2(pc)3/6/c5/5(ppc) c -")
    assert moves_of(pos) == [
        "f1-c1", "f1-c4", "f1-f4", "a2-a1", "a2-b1", "a2-b2", "a2-a3", "a2-b3",
        "c4-a2", "c4-c2", "c4-e2", "c4-a4", "c4-e4", "c4-a6", "c4-c6", "c4-e6",
    ]  # fmt: skip
    with pytest.raises(IllegalMoveError, match=r"illegal move c4-c3: .*moves exactly 2 squares"):
        pos.play(pos.parse_move("c4-c3"))


def test_no_jumping_and_no_fourth_piece() -> None:
    pos = parse_position("6/6/6/6/6/(ppc)p1(ppp)2 c -")
    # f1... a1 is a 3-stack with a capybara on top: b1 is occupied, so no move right
    assert "a1-d1" not in moves_of(pos)
    with pytest.raises(IllegalMoveError, match="it jumps over the stack on b1"):
        pos.play(pos.parse_move("a1-d1"))
    pos = parse_position("6/6/(ppp)5/6/6/(ppc)5 c -")
    assert "a1-a4" not in moves_of(pos)
    with pytest.raises(IllegalMoveError, match="a4 already holds 3 pieces"):
        pos.play(pos.parse_move("a1-a4"))
    assert "a1-d4" in moves_of(pos)


def test_only_own_top_pieces_move() -> None:
    pos = parse_position("6/6/6/6/6/(cp)c4 c -")
    assert moves_of(pos) == ["b1-a1", "b1-c1", "b1-a2", "b1-b2", "b1-c2"]
    with pytest.raises(IllegalMoveError, match="the top piece on a1 is a poodle, not a capybara"):
        pos.play(pos.parse_move("a1-a3"))
    with pytest.raises(IllegalMoveError, match="c1 is empty"):
        pos.play(pos.parse_move("c1-c2"))


def test_first_turn_distances() -> None:
    # the capybara tops of the start (3-stacks) go 1, 2 or 3 squares on the first turn
    assert {m for m in moves_of(START) if m.startswith("a6-a")} == {"a6-a5", "a6-a4", "a6-a3"}
    with pytest.raises(IllegalMoveError, match="a first move goes 1, 2 or 3 squares, not 4"):
        START.play(START.parse_move("a6-a2"))
    # the second player's first move too, also from the 2-stack the capybara left
    pos = play(START_FEN, "a6-a5")
    assert pos.fen() == "(cp)4(pcp)/c5/6/6/6/(pcp)4(cpc) p a5"
    assert {"a6-b6", "a6-c6", "a6-d6", "a1-a4", "a1-a2", "f6-c6"} <= set(moves_of(pos))
    # afterwards the distance is the stack height again: f1 (cpc) moves exactly 3
    pos = play(START_FEN, "a6-a5", "f6-e6")
    assert pos.fen().endswith(" c -")
    assert "f1-c1" in moves_of(pos) and "f1-e1" not in moves_of(pos)
    with pytest.raises(IllegalMoveError, match="moves exactly 3 squares, not 1"):
        pos.play(pos.parse_move("f1-e1"))


def test_second_player_may_not_land_on_or_pass_over_the_landing_square() -> None:
    pos = play(START_FEN, "a6-c4")
    assert pos.fen() == "(cp)4(pcp)/6/2c3/6/6/(pcp)4(cpc) p c4"
    legal = moves_of(pos)
    assert "a6-b5" in legal and "a6-c4" not in legal and "a6-d3" not in legal
    with pytest.raises(IllegalMoveError, match="may not land on c4, the first player's landing"):
        pos.play(pos.parse_move("a6-c4"))
    # passing over: with c4 empty (a position that cannot occur), a6-d3 stays forbidden
    odd = parse_position("(cp)4(pcp)/6/6/6/6/(pcp)4(cpc) p c4")
    assert odd.status() != []
    assert "a6-b5" in moves_of(odd) and "a6-d3" not in moves_of(odd)
    with pytest.raises(IllegalMoveError, match="may not pass over c4"):
        odd.play(odd.parse_move("a6-d3"))
    # the capybara's own first move is not restricted that way
    assert "a6-d3" in moves_of(START)


def test_line_for_the_mover_wins() -> None:
    pos = play("p2c1c/6/6/pp(pc)1p1/3c2/cc3p c -", "d2-c1")
    assert pos.lines() == (True, False)
    assert pos.outcome() == Outcome.win(CAPYBARA)
    assert pos.legal_moves() == ()


def test_both_lines_mover_loses() -> None:
    # c3 (pc): the capybara leaves for c1 (a capybara line a1-c1) and uncovers the poodle
    # of c3, completing the poodle line a3-c3: both lines, so the mover loses
    pos = play("p2c1c/6/6/pp(pc)1p1/3c2/cc3p c -", "c3-c1")
    assert pos.lines() == (True, True)
    assert pos.outcome() == Outcome.win(POODLE)


def test_uncovered_enemy_line_wins_for_the_enemy() -> None:
    pos = play("p2c1c/6/6/pp(pc)1p1/3c2/cc3p c -", "c3-a5")
    assert pos.lines() == (False, True)
    assert pos.outcome() == Outcome.win(POODLE)


def test_blocking_win() -> None:
    before = parse_position("4cp/6/6/6/(ppc)(ccc)4/p(ppc)4 c -")
    assert before.status() == [] and before.outcome() is None
    pos = before.play(before.parse_move("e6-f6"))
    assert pos.to_move == POODLE and pos.legal_moves() == ()
    assert pos.lines() == (False, False)
    assert pos.outcome() == Outcome.win(CAPYBARA)


def test_lines_longer_than_three_and_only_top_pieces() -> None:
    # a line of 4 made by filling the gap: a1 b1 _ d1 with c2 -> c1
    pos = play("6/6/6/6/2c3/cc1c2 c -", "c2-c1")
    assert pos.outcome() == Outcome.win(CAPYBARA)
    assert has_line(0b1111) and has_line(0b111111) and not has_line(0b11011)
    # a diagonal of 5
    diag = parse_position("6/4c1/3c2/2c3/1c4/c5 p -")
    assert diag.outcome() == Outcome.win(CAPYBARA)
    # only the visible top counts: capybaras buried under poodles make no line
    buried = parse_position("6/6/6/6/6/(cp)(cp)(cp)3 c -")
    assert buried.lines() == (False, True)


def test_game_over_rejects_moves() -> None:
    pos = parse_position("6/6/6/6/6/ccc2p p -")
    with pytest.raises(IllegalMoveError, match="the game is over"):
        pos.play(pos.parse_move("f1-e1"))


def test_status_problems() -> None:
    assert parse_position("6/6/6/6/6/ccc3 c -").status() == [
        "3 capybaras on the board, expected 6",
        "0 poodles on the board, expected 6",
    ]
    wrong_side = parse_position("(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) p 1").status()
    assert wrong_side == ["opening field 1 but poodles to move: capybaras move first"]
    moved = play(START_FEN, "a6-b5").fen().replace(" p b5", " p c4")
    assert any("opening field c4" in p for p in parse_position(moved).status())
    assert play(START_FEN, "a6-b5").status() == []
    not_start = parse_position("(cp)4(pcp)/c5/6/6/6/(pcp)4(cpc) c 1").status()
    assert not_start == ["opening field 1 but the board is not the start position"]


def test_third_repetition_draws_a_record() -> None:
    base = "c5/6/6/6/6/5p c -"
    cycle = ["a6-b6", "f1-e1", "b6-a6", "e1-f1"]
    once = play_record(parse_position(base), cycle)
    assert once.outcome is None and not once.repetition
    twice = play_record(parse_position(base), cycle * 2)
    assert twice.repetition and twice.outcome == Outcome.draw()
    with pytest.raises(IllegalMoveError, match="third repetition"):
        play_record(parse_position(base), [*cycle * 2, "a6-a5"])


# ---------------------------------------------------------------------------
# notation and bad input
# ---------------------------------------------------------------------------


def test_notation_round_trip_and_canonical_output() -> None:
    assert parse_position("(c)5/6/6/6/6/33 p -").fen() == "c5/6/6/6/6/6 p -"
    for m in START.legal_moves():
        assert START.parse_move(str(m)) == m


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(cpcp)5/6/6/6/6/6 c -", "a stack holds at most 3 pieces, got 4: '(cpcp)'"),
        ("x5/6/6/6/6/6 c -", "invalid piece on rank 6: expected 'c', 'p'"),
        ("(cx)5/6/6/6/6/6 c -", "invalid piece on rank 6: expected 'c' or 'p', got 'x'"),
        ("c6/6/6/6/6/6 c -", "invalid row for rank 6: expected 6 squares"),
        ("5/6/6/6/6/6 c -", "invalid row for rank 6: expected 6 squares, got 5: '5'"),
        ("6/6/6/6/6 c -", "invalid rows: expected 6 rows"),
        ("6/6/6/6/6/6 c 2", "invalid opening: expected '1', '-' or a square a1-f6, got '2'"),
        ("6/6/6/6/6/6 c g7", "invalid opening"),
        ("6/6/6/6/6/6 w -", "invalid side: expected 'c' or 'p', got 'w'"),
        ("6/6/6/6/6/6 c", "invalid position: expected 3 fields"),
        ("(cp5/6/6/6/6/6 c -", "expected ')' to close the stack"),
        ("()6/6/6/6/6/6 c -", "expected 1 to 3 pieces"),
    ],
)
def test_bad_positions_one_line_exit_2(cli_run, text: str, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidNotationError):
        parse_position(text)
    status, out, err = cli_run("show", "carpniches", text)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("a6-a2",), "illegal move a6-a2: a first move goes 1, 2 or 3 squares, not 4"),
        (("a1-a2",), "illegal move a1-a2: the top piece on a1 is a poodle, not a capybara"),
        (("a6-a5", "a6-a5"), "illegal move a6-a5: the second player's first move may not land"),
        (("b2-b3",), "illegal move b2-b3: b2 is empty"),
        (("a6-b4",), "illegal move a6-b4: a6 and b4 are not on a straight line"),
        (("a6",), "invalid move: expected <from>-<to> like a1-b2, got 'a6'"),
    ],
)
def test_bad_moves_one_line_exit_2(cli_run, args: tuple[str, ...], message: str) -> None:  # type: ignore[no-untyped-def]
    status, out, err = cli_run("play", "carpniches", START_FEN, *args)
    assert status == 2 and out == ""
    assert err.startswith(f"error: {message}") and err.count("\n") == 1


def test_cli_commands(cli_run) -> None:  # type: ignore[no-untyped-def]
    status, out, _ = cli_run("perft", "carpniches", START_FEN, "3")
    assert status == 0 and out.strip() == "5060"
    status, out, _ = cli_run("moves", "carpniches", START_FEN)
    assert out.split() == moves_of(START)
    status, out, _ = cli_run("play", "carpniches", START_FEN, "a6-a5", "--json")
    assert status == 0 and '"result": "ongoing"' in out
    status, out, _ = cli_run("new", "carpniches")
    assert out.strip() == START_FEN
    status, _, err = cli_run("new", "carpniches", "--no-pie")
    assert status == 2 and "pie" in err
    blocking = "4cp/6/6/6/(ppc)(ccc)4/p(ppc)4 c -"
    status, out, _ = cli_run("play", "carpniches", blocking, "e6-f6", "--json")
    assert '"result": "win"' in out and '"winner": "c"' in out


_VALID = [START_FEN, "1cp2(pc)/6/p4p/c1(pc)3/5c/(pc)5 p -", "4cp/6/6/6/(ppc)(ccc)4/p(ppc)4 c -"]


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(alphabet="cp()123456780/ -abcdefgx", max_size=40),
        st.tuples(
            st.sampled_from(_VALID),
            st.integers(0, 60),
            st.integers(0, 3),
            st.text(alphabet="cp()17/ -ax(", min_size=0, max_size=3),
        ).map(lambda t: t[0][: t[1]] + t[3] + t[0][t[1] + t[2] :]),
    )
)
def test_parse_fuzz(text: str) -> None:
    try:
        pos = parse_position(text)
    except InvalidNotationError as error:
        assert "\n" not in str(error)
        return
    assert parse_position(pos.fen()) == pos
    pos.status()
    pos.outcome()
