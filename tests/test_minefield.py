"""Minefield: perft file, naive cross-checks, conformance, rules examples, edge cases."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from naive_minefield import Naive

from boardproof.models.base import (
    IllegalMoveError,
    InvalidNotationError,
    InvalidOptionError,
    Outcome,
    divide,
    generic_perft,
)
from boardproof.models.minefield import (
    PASS,
    SWAP,
    Move,
    make_game,
    pass_free_bound,
)
from boardproof.testing.conformance import check_playouts

PERFT_FILE = Path(__file__).parent / "data" / "minefield.perft"
GAME = make_game()
DIAG = make_game(win="orthodiagonal")


def load_perft_file(path: Path) -> list[tuple[str, str, str, list[tuple[int, int]]]]:
    """(id, position, win rule, [(depth, count), ...]) blocks of a perft file."""
    cases = []
    current: dict[str, object] = {}
    for raw in path.read_text().splitlines() + [""]:
        line = raw.strip()
        if line.startswith("#"):
            continue
        if not line:
            if current:
                cases.append(
                    (
                        str(current["id"]),
                        str(current["position"]),
                        str(current.get("win", "orthogonal")),
                        list(current["depths"]),  # type: ignore[call-overload]
                    )
                )
            current = {}
            continue
        word, _, rest = line.partition(" ")
        if word == "depth":
            depth, count = rest.split()
            depths = current.setdefault("depths", [])
            depths.append((int(depth), int(count)))  # type: ignore[attr-defined]
        else:
            current[word] = rest
    return cases


PERFT_CASES = load_perft_file(PERFT_FILE)


def naive_divide(text: str, win: str, depth: int) -> dict[str, int]:
    from naive_minefield import perft as naive_perft

    pos = Naive.parse(text, diagonal=win == "orthodiagonal")
    return {m: naive_perft(pos.play(m), depth - 1) for m in pos.moves()}


def test_perft_file_is_complete() -> None:
    assert len(PERFT_CASES) >= 20
    sizes = {len(text.split()[0].split("/")) for _, text, _, _ in PERFT_CASES}
    assert sizes == {2, 3, 4, 5, 6}
    assert any(win == "orthodiagonal" for _, _, win, _ in PERFT_CASES)


@pytest.mark.parametrize(
    ("name", "text", "win", "depths"), PERFT_CASES, ids=[c[0] for c in PERFT_CASES]
)
def test_perft_file(name: str, text: str, win: str, depths: list[tuple[int, int]]) -> None:
    pos = make_game(win=win).parse_position(text)
    for depth, expected in depths:
        got = pos.perft(depth)
        if got != expected:
            mine = dict(divide(pos, depth))
            reference = naive_divide(text, win, depth)
            rows = [
                f"  {move}: engine {mine.get(move)} naive {reference.get(move)}"
                for move in sorted(set(mine) | set(reference))
                if mine.get(move) != reference.get(move)
            ]
            pytest.fail(
                f"{name} {text} ({win}) depth {depth}: got {got}, expected {expected}\n"
                + "\n".join(rows)
            )


@pytest.mark.parametrize(
    ("name", "text", "win", "depths"), PERFT_CASES[::3], ids=[c[0] for c in PERFT_CASES[::3]]
)
def test_fast_perft_equals_generic_perft(name: str, text: str, win: str, depths: list) -> None:
    pos = make_game(win=win).parse_position(text)
    for depth, _ in depths[:3]:
        assert pos.perft(depth) == generic_perft(pos, depth), (name, depth)


# ---------------------------------------------------------------------------
# the naive implementation agrees on many random positions
# ---------------------------------------------------------------------------


def random_board_text(rng: random.Random, n: int, fill: float) -> str:
    rows = []
    for _ in range(n):
        row, run = "", 0
        for _ in range(n):
            roll = rng.random()
            if roll < fill:
                if run:
                    row += str(run)
                    run = 0
                row += "b" if roll < fill / 2 else "w"
            else:
                run += 1
        if run:
            row += str(run)
        rows.append(row)
    return "/".join(rows)


def random_positions(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        n = rng.randint(2, 8)
        board = random_board_text(rng, n, rng.choice((0.1, 0.3, 0.5, 0.7, 0.9)))
        pie = "p" if board.count("b") + board.count("w") <= 1 and rng.random() < 0.7 else "-"
        texts.append(f"{board} {rng.choice('bw')} {pie}")
    # and positions met along random games
    for _ in range(count // 10):
        game = rng.choice((GAME, DIAG))
        pos = game.start(size=rng.randint(2, 9), pie=rng.random() < 0.5)
        while pos.outcome() is None:
            texts.append(pos.fen())
            pos = pos.play(rng.choice(pos.legal_moves()))
    return texts


@pytest.mark.parametrize("win", ["orthogonal", "orthodiagonal"])
def test_naive_and_engine_agree_on_random_positions(win: str) -> None:
    game = make_game(win=win)
    for text in random_positions(11 if win == "orthogonal" else 12, 250):
        pos = game.parse_position(text)
        naive = Naive.parse(text, diagonal=win == "orthodiagonal")
        assert [str(m) for m in pos.legal_moves()] == naive.moves(), text
        assert (pos.outcome() is not None) == naive.terminal(), text
        if pos.outcome() is not None and not pos.outcome().is_draw:  # type: ignore[union-attr]
            winner = pos.outcome().winners  # type: ignore[union-attr]
            assert any(naive.has_path("bw"[p]) for p in winner), text


def test_glyph_audit_agrees_with_naive_windows() -> None:
    from boardproof.models.minefield.graphs import glyph_audit

    rng = random.Random(5)
    for _ in range(300):
        n = rng.randint(2, 7)
        text = f"{random_board_text(rng, n, rng.choice((0.3, 0.6, 0.9)))} b -"
        naive = Naive.parse(text)
        expected = sum(
            naive.window_is_glyph(f, r, w, h)
            for w, h in ((2, 2), (2, 3), (3, 2), (2, 4), (4, 2))
            for f in range(n - w + 1)
            for r in range(n - h + 1)
        )
        found = [p for p in glyph_audit(GAME.parse_position(text)) if "crosscut" not in p]
        assert len(found) == expected, text


# ---------------------------------------------------------------------------
# conformance (the shared random-playout test)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("win", ["orthogonal", "orthodiagonal"])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
def test_conformance_small_boards(n: int, win: str) -> None:
    game = make_game(win=win)
    starts = [game.start(size=n), game.start(size=n, pie=False)]
    assert check_playouts(game, starts, playouts=4, seed=n) > 0


@pytest.mark.parametrize("win", ["orthogonal", "orthodiagonal"])
def test_conformance_19(win: str) -> None:
    game = make_game(win=win)
    starts = [game.start(size=19, pie=win == "orthogonal")]
    assert check_playouts(game, starts, playouts=1, seed=19) > 0


@pytest.mark.long
@pytest.mark.parametrize("win", ["orthogonal", "orthodiagonal"])
@pytest.mark.parametrize("n", [9, 11, 13, 19, 26])
def test_conformance_large_boards_long(n: int, win: str) -> None:
    game = make_game(win=win)
    starts = [game.start(size=n), game.start(size=n, pie=False)]
    assert check_playouts(game, starts, playouts=2, seed=n) > 0


# ---------------------------------------------------------------------------
# the worked examples of rules/minefield.md
# ---------------------------------------------------------------------------


def board_with(n: int, side: str, **stones: str) -> str:
    """A position text from {point: colour}, e.g. board_with(19, "b", j15="b")."""
    grid = [["."] * n for _ in range(n)]
    for point, colour in stones.items():
        grid[int(point[1:]) - 1]["abcdefghijklmnopqrstuvwxyz".index(point[0])] = colour
    rows = []
    for rank in range(n - 1, -1, -1):
        row, run = "", 0
        for cell in grid[rank]:
            if cell == ".":
                run += 1
            else:
                row += (str(run) if run else "") + cell
                run = 0
        rows.append(row + (str(run) if run else ""))
    return "/".join(rows) + f" {side} -"


@pytest.mark.parametrize(
    ("stones", "move", "glyph"),
    [
        ({"j15": "b", "j16": "w"}, "i16", "hard corner"),
        ({"j16": "b", "k16": "w", "j14": "w"}, "k14", "2x3 switch"),
        ({"j16": "b", "k16": "w", "j13": "w"}, "k13", "2x4 switch"),
    ],
)
def test_rules_worked_examples(stones: dict[str, str], move: str, glyph: str) -> None:
    for n in (16, 19, 26):
        pos = GAME.parse_position(board_with(n, "b", **stones))
        assert pos.parse_move(move) not in pos.legal_moves()
        with pytest.raises(IllegalMoveError, match=f"^illegal move {move}: it forms a {glyph}$"):
            pos.play(move)
        # the same shape is legal for White (colours matter)
        white = GAME.parse_position(board_with(n, "w", **stones))
        assert white.parse_move(move) in white.legal_moves()


def test_rules_worked_example_six_by_six() -> None:
    stones = {"b4": "b", "e3": "b", "d4": "w", "e4": "w"}
    pos = GAME.parse_position(board_with(6, "w", **stones))
    assert pos.parse_move("b3") in pos.legal_moves()
    assert pos.play("b3").fen() == "6/6/1b1ww1/1w2b1/6/6 b -"
    del stones["d4"]
    without = GAME.parse_position(board_with(6, "w", **stones))
    with pytest.raises(IllegalMoveError, match="2x4 switch"):
        without.play("b3")


def test_longer_switch_is_allowed() -> None:
    pos = GAME.parse_position(board_with(8, "b", b2="b", f1="w", b1="w"))
    assert pos.parse_move("f2") in pos.legal_moves()  # a 2x5 switch


def test_glyph_forbidden_in_every_orientation() -> None:
    base = {"j15": "b", "j16": "w"}  # Black may not play i16
    pos = GAME.parse_position(board_with(19, "b", **base))
    bad = pos.parse_move("i16")
    for s in range(8):
        image = pos.transform(s)
        assert pos.transform_move(bad, s) not in image.legal_moves()


# ---------------------------------------------------------------------------
# pie rule, skip, dead positions, wins
# ---------------------------------------------------------------------------


def test_pie_rule_swap() -> None:
    start = GAME.start(size=5)
    assert start.fen() == "5/5/5/5/5 b p"
    assert SWAP not in start.legal_moves()
    with pytest.raises(IllegalMoveError, match="^illegal move swap: "):
        start.play("swap")
    one = start.play("c3")
    assert one.fen() == "5/5/2b2/5/5 w p"
    assert one.legal_moves()[-1] == SWAP and len(one.legal_moves()) == 25
    swapped = one.play("swap")
    assert swapped.fen() == "5/5/2b2/5/5 w -"
    assert swapped.to_move == 1 and swapped.black == one.black and swapped.white == 0
    assert SWAP not in swapped.legal_moves() and len(swapped.legal_moves()) == 24
    with pytest.raises(IllegalMoveError, match="swap"):
        swapped.play("swap")
    assert swapped.status() == []
    # White places instead: the pie rule is over
    placed = one.play("a1")
    assert placed.fen() == "5/5/2b2/5/w4 b -"
    assert SWAP not in placed.legal_moves()


def test_no_pie_rule() -> None:
    start = GAME.start(size=5, pie=False)
    assert start.fen() == "5/5/5/5/5 b -"
    one = start.play("c3")
    assert one.fen() == "5/5/2b2/5/5 w -" and SWAP not in one.legal_moves()


def test_skip_is_the_only_move_and_flips_the_side() -> None:
    pos = GAME.parse_position("1bw/b2/w1b w -")
    assert pos.legal_moves() == (PASS,)
    assert pos.outcome() is None
    after = pos.play("pass")
    assert after.fen() == "1bw/b2/w1b b -"
    assert after.legal_moves() and PASS not in after.legal_moves()
    with pytest.raises(IllegalMoveError, match="^illegal move pass: b has a legal move$"):
        after.play("pass")
    with pytest.raises(IllegalMoveError, match="^illegal move b2: it forms a"):
        pos.play("b2")


def test_dead_position_is_a_terminal_draw() -> None:
    # unreachable (it holds glyphs), but the engine must score it as a draw
    pos = GAME.parse_position("b1w/w1b/b1w b -")
    assert pos.is_dead()
    assert pos.outcome() == Outcome.draw()
    assert pos.legal_moves() == ()
    assert pos.perft(1) == 0
    assert pos.status() != []
    with pytest.raises(IllegalMoveError):
        pos.play("pass")
    # a full checkerboard: nobody connected, nothing to place
    full = GAME.parse_position("bwb/wbw/bwb w -")
    assert full.outcome() == Outcome.draw()
    assert any("crosscut" in p for p in full.status())


@pytest.mark.parametrize("win", ["orthogonal", "orthodiagonal"])
def test_every_dead_position_on_tiny_boards_is_impossible(win: str) -> None:
    """All 3^(n*n) boards, both sides, n = 2 and 3: dead ones exist, but status() rejects each."""
    import itertools

    game = make_game(win=win)
    dead = 0
    for n in (2, 3):
        for cells in itertools.product(".bw", repeat=n * n):
            named = {
                f"{'abc'[i % n]}{i // n + 1}": c for i, c in enumerate(cells) if c != "."
            }
            for side in "bw":
                pos = game.parse_position(board_with(n, side, **named))
                if pos.is_dead():
                    dead += 1
                    assert pos.outcome() == Outcome.draw() and pos.legal_moves() == ()
                    assert pos.status(), pos.fen()
    assert dead > 0


def test_orthogonal_win_ends_the_game() -> None:
    pos = GAME.parse_position("5/1b1w1/1b1w1/1b3/1b1w1 b -")
    won = pos.play("b5")
    assert won.outcome() == Outcome.win(0)
    assert won.legal_moves() == ()
    assert won.status() == []
    with pytest.raises(IllegalMoveError, match="^illegal move a1: the game is over$"):
        won.play("a1")
    assert "winning path (b): b1 b2 b3 b4 b5" in won.board_text()
    white = GAME.parse_position("5/5/ww1ww/5/5 w -").play("c3")
    assert white.outcome() == Outcome.win(1)


def test_orthodiagonal_win_option() -> None:
    text = "5/3b1/2b2/1b3/b4 b -"  # a1 b2 c3 d4: one diagonal step short
    for game, expected in ((GAME, None), (DIAG, Outcome.win(0))):
        pos = game.parse_position(text).play("e5")
        assert pos.outcome() == expected, game.win
    diag_won = DIAG.parse_position(text).play("e5")
    assert "winning path (b): a1 b2 c3 d4 e5" in diag_won.board_text()
    # White's ortho-diagonal path from file a to file e
    white = DIAG.parse_position("4w/3w1/2w2/1w3/5 w -").play("a1")
    assert white.outcome() == Outcome.win(1)


def test_corner_lies_on_both_edges() -> None:
    pos = GAME.parse_position("b1/2 w -").play("b1").play("a1")
    assert pos.outcome() == Outcome.win(0)  # a1-a2 joins rank 1 and rank 2


# ---------------------------------------------------------------------------
# notation, symmetries, status
# ---------------------------------------------------------------------------


def test_canonical_notation() -> None:
    pos = GAME.parse_position("11/11/11/11/11/11/11/11/11/11/5b5 w")
    assert pos.fen() == "11/11/11/11/11/11/11/11/11/11/5b5 w -"
    assert GAME.parse_position("2/bw b p").fen() == "2/bw b p"
    assert str(pos.legal_moves()[0]) == "a1"
    assert pos.parse_move("K11") == Move(10, 10)


def test_symmetries() -> None:
    pos = GAME.parse_position("4/4/1w2/b3 b -")  # b a1, w b2, Black to move
    images = [pos.transform(s).fen() for s in range(8)]
    assert images == [
        "4/4/1w2/b3 b -",
        "3b/2w1/4/4 b -",
        "4/4/2w1/3b b -",
        "b3/1w2/4/4 b -",
        "4/4/1b2/w3 w -",
        "3w/2b1/4/4 w -",
        "w3/1b2/4/4 w -",
        "4/4/2b1/3w w -",
    ]
    assert pos.transform_move(Move(0, 1), 6) == Move(1, 3)  # a2 -> b4 (rotation 90)
    assert pos.transform_move(SWAP, 5) == SWAP


def status_of(text: str, game=GAME) -> list[str]:
    return game.parse_position(text).status()


def test_status_of_impossible_positions() -> None:
    assert status_of("5/5/5/5/5 b p") == []
    assert status_of("5/5/2b2/5/5 w p") == []
    assert status_of("5/5/2b2/5/5 w -") == []
    assert any("hard corner at a1-b2" in p for p in status_of("4/4/1b2/bw2 w -"))
    assert any("2x3 switch at a1-c2" in p for p in status_of("5/5/5/b1w2/w1b2 b -"))
    assert any("2x4 switch at a1-d2" in p for p in status_of("6/6/6/6/b2w2/w2b2 b -"))
    assert any("crosscut" in p for p in status_of("4/4/bw2/wb2 b -"))
    both = status_of("bw/wb b -", DIAG)  # crossing ortho-diagonal paths
    assert "both b and w have a winning path" in both
    mover = status_of("1b1/1b1/1bw b -")
    assert any("b to move already has a winning path" in p for p in mover)
    twice = status_of("b1b/b1b/b1b w -")
    assert any("b has two winning paths without a common stone" in p for p in twice)
    assert status_of("1b1/wbw/1b1 w -") == []  # one path: b1 b2 b3
    assert any("pie rule" in p for p in status_of("5/5/2b2/5/5 b p"))
    assert any("pie rule" in p for p in status_of("5/5/2w2/5/5 b p"))
    assert any("pie rule" in p for p in status_of("5/5/2b2/5/4w w p"))
    assert any("b - w must be" in p for p in status_of("5/5/5/5/5 w -"))
    assert any("b - w must be" in p for p in status_of("7/7/7/7/7/7/bb5 b -"))
    assert any("b - w must be" in p for p in status_of("7/7/7/7/7/7/w6 w -"))


def test_nobody_is_stuck_below_the_pass_free_bound() -> None:
    """Sanity check of the bound behind the stone-count test of status()."""
    rng = random.Random(8)
    for _ in range(400):
        n = rng.randint(4, 14)
        stones = rng.randrange(pass_free_bound(n))
        cells = [(f, r) for f in range(n) for r in range(n)]
        chosen = rng.sample(cells, stones)
        named = {f"{'abcdefghijklmn'[f]}{r + 1}": rng.choice("bw") for f, r in chosen}
        pos = GAME.parse_position(board_with(n, "b", **named))
        assert pos.legal_placements() and pos.opponent_placements()


# ---------------------------------------------------------------------------
# options and bad input
# ---------------------------------------------------------------------------


def test_options() -> None:
    assert make_game().start().n == 11
    message = "^invalid option size: expected 2 to 26, got 27$"
    with pytest.raises(InvalidOptionError, match=message):
        GAME.start(size=27)
    with pytest.raises(InvalidOptionError, match="players"):
        GAME.start(players=3)
    assert GAME.start(players=2, size=3).fen() == "3/3/3 b p"
    with pytest.raises(InvalidOptionError, match="variant"):
        GAME.start(variant="x")
    with pytest.raises(InvalidOptionError, match="seed"):
        GAME.start(seed=1)
    with pytest.raises(InvalidOptionError, match="^invalid option win: .*'hex'$"):
        make_game(win="hex")
    refused = "option colour: minefield does not take it, got 'b'"
    with pytest.raises(InvalidOptionError, match=refused):
        make_game(colour="b")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("5/5/b5/5/5 b", "invalid position: row 3 has 6 points, expected 5: 'b5'"),
        ("5/5/5/5 b", "invalid position: row 1 has 5 points, expected 4: '5'"),
        ("5", "invalid position: expected 2 or 3 fields '<rows> <side> [<pie>]', got 1: '5'"),
        ("5 b", "invalid position: expected 2 to 26 rows, got 1: '5'"),
        ("3/3/3 x", "invalid position: expected side to move b or w, got 'x'"),
        ("3/3/3 b q", "invalid position: expected pie field p or -, got 'q'"),
        ("3/1x1/3 b", "row 2 has an unexpected character 'x', expected b, w or a number: '1x1'"),
        ("3/03/3 b", "row 2 has a run starting with 0, expected a number from 1: '03'"),
        ("3/3/3 B", "expected side to move b or w, got 'B'"),
        ("3/²/3 b", "unexpected character '²'"),
        ("3/12/3 b", "invalid position: row 2 has 12 points, expected 3: '12'"),
        ("3/30/3 b", "invalid position: row 2 has more than 26 points, expected 3: '30'"),
        ("3/99999999999/3 b", "more than 26 points"),
        ("3/3/3 b p extra", "got 4"),
    ],
)
def test_bad_positions(text: str, message: str) -> None:
    with pytest.raises(InvalidNotationError) as info:
        GAME.parse_position(text)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("zz", "invalid move: expected a point like c3, swap or pass, got 'zz'"),
        ("f1", "invalid move: expected a point from a1 to e5, swap or pass, got 'f1'"),
        ("a6", "got 'a6'"),
        ("a0", "got 'a0'"),
        ("", "got ''"),
        ("c3c", "got 'c3c'"),
    ],
)
def test_bad_moves(text: str, message: str) -> None:
    pos = GAME.start(size=5)
    with pytest.raises(InvalidNotationError) as info:
        pos.parse_move(text)
    assert message in str(info.value)


def test_illegal_moves() -> None:
    pos = GAME.parse_position("5/5/2b2/5/5 w -")
    with pytest.raises(IllegalMoveError, match="^illegal move c3: the point is occupied$"):
        pos.play("c3")
    with pytest.raises(IllegalMoveError, match="^illegal move swap: "):
        pos.play("swap")
    with pytest.raises(IllegalMoveError, match="^illegal move pass: w has a legal move$"):
        pos.play(PASS)
    with pytest.raises(IllegalMoveError, match="off the board"):
        pos.play(Move(7, 0))


def test_fast_window_function_equals_role_function() -> None:
    """The hot-path glyph function against the plain per-role one, all sizes."""
    from boardproof.models.minefield import GLYPH_NAMES, compile_role_function, tables

    rng = random.Random(3)
    for n in range(2, 27):
        t = tables(n)
        per_role = compile_role_function(t.width, GLYPH_NAMES)
        for _ in range(40):
            fill = rng.random()
            own = opp = 0
            for r in range(n):
                for f in range(n):
                    roll = rng.random()
                    if roll < fill / 2:
                        own |= 1 << (r * t.width + f)
                    elif roll < fill:
                        opp |= 1 << (r * t.width + f)
            empty = t.full & ~(own | opp)
            assert empty & ~t.forbidden(own, opp, empty) == empty & ~per_role(own, opp, empty)


@pytest.mark.long
@pytest.mark.parametrize(
    ("text", "win", "depth"),
    [
        ("7/7/7/7/7/7/7 b p", "orthogonal", 3),
        ("8/8/8/8/8/8/8/8 b -", "orthodiagonal", 2),
        ("b1w3b/1bw2b1/w1b1w2/1bw1b2/b2w3/1w1bw2/7 w -", "orthogonal", 3),
    ],
)
def test_naive_perft_on_larger_boards_long(text: str, win: str, depth: int) -> None:
    from naive_minefield import perft as naive_perft

    naive = Naive.parse(text, diagonal=win == "orthodiagonal")
    assert make_game(win=win).parse_position(text).perft(depth) == naive_perft(naive, depth)
