"""AbstractPlay's game records: reading, writing, ``review`` and ``import`` (issue 30, item 5).

The records of ``tests/data/abstractplay/`` are written in the format of AbstractPlay's
``genRecord`` (gameslib ``src/games/_base.ts``; Minefield is ``src/games/minefield.ts``):
the header's variant names, players in seat order after a pie swap, rounds of moves and the
ending words (``resign``, ``timeout``, ``draw``). Their moves are games played with
AbstractPlay's rules (the ortho-diagonal win, the pie rule on).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardproof import models
from boardproof.models.base import Outcome
from boardproof.models.minefield import abstractplay
from boardproof.review.record import (
    Record,
    RecordError,
    make_record,
    parse_record,
    record_game,
    write_record,
)

DATA = Path(__file__).parent / "data" / "abstractplay"
MF = models.get("minefield")


def text_of(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def read(name: str) -> Record:
    return parse_record(MF, text_of(name))


def has_variant(value: str) -> bool:
    """Whether boardproof's Minefield has the glyph variant ``value`` (the option landed)."""
    spec = next((s for s in models.info("minefield").options if s.name == "variant"), None)
    return spec is not None and (spec.choices is None or value in spec.choices)


def ap_record(variants: list[str], moves: list[list[Any]], results: tuple[Any, Any] = (1, 0),
              **header: Any) -> dict[str, Any]:  # fmt: skip
    return {
        "header": {
            "game": {"name": "Minefield", "variants": variants},
            "site": {"name": "Abstract Play"},
            "players": [{"name": "Ann", "result": results[0]},
                        {"name": "Bo", "result": results[1]}],  # fmt: skip
            **header,
        },
        "moves": moves,
    }


def parse(data: Any) -> Record:
    return parse_record(MF, json.dumps(data))


# ------------------------------------------------------------------ reading


#: file -> (board size, variant, pie invoked, plies in boardproof's list, result, ending)
FIXTURES = {
    "win-8x8-pie.json": (8, "", True, 36, "b", ""),
    "win-9x9.json": (9, "", False, 65, "b", ""),
    "pass-8x8.json": (8, "", False, 65, "b", ""),
    "resign-11x11.json": (11, "", False, 30, "w", "resign"),
    "timeout-13x13-pie.json": (13, "", True, 40, "b", "timeout"),
    "win-15x15-pie.json": (15, "", True, 209, "w", ""),
    "resign-17x17.json": (17, "", False, 20, "b", "resign"),
    "draw-19x19-pie.json": (19, "", True, 20, "draw", "draw"),
}


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_each_record_is_read(name: str) -> None:
    size, _, pie, plies, result, ending = FIXTURES[name]
    record = read(name)
    data = json.loads(text_of(name))
    assert record.source == "abstractplay"
    assert record.start.fen() == " ".join(["/".join([str(size)] * size), "b", "p"])
    assert record.game.win == "orthodiagonal"  # AbstractPlay's path steps diagonally
    assert len(record.moves) == plies
    assert ("swap" in [m.text for m in record.moves]) == pie
    outcome = record.outcome()
    assert outcome is not None
    assert (outcome.is_draw and result == "draw") or MF.symbol(min(outcome.winners)) == result
    assert record.ending == ending
    # the moves are AbstractPlay's, in order, with the swap added and the ending left out
    flat = [m for round_ in data["moves"] for m in round_ if m not in abstractplay.ENDINGS]
    assert [m.text for m in record.moves if m.text != "swap"] == flat
    assert record.players == tuple(p["name"] for p in data["header"]["players"])
    assert record_game(text_of(name)) == "minefield"


def test_a_pie_swap_is_boardproofs_move_at_ply_2() -> None:
    record = read("win-8x8-pie.json")
    assert [(m.text, m.where) for m in record.moves[:3]] == [
        ("b3", "moves[0][0]"), ("swap", "header.pie-invoked"), ("a3", "moves[0][1]")]
    after_swap = record.positions[2]
    # the stones stay, White moves again, the pie rule is spent
    assert after_swap.fen() == "8/8/8/8/8/1b6/8/8 w -"
    # AbstractPlay lists the seats after the swap: players[0] has the Black stones
    assert record.players == ("mesmerized", "Perlkönig")
    assert record.outcome() == Outcome.win(0)
    data = json.loads(text_of("win-8x8-pie.json"))
    assert data["header"]["players"][0]["result"] == 1


def test_a_pie_swap_without_a_first_stone_is_refused() -> None:
    with pytest.raises(RecordError, match=r"header\.pie-invoked: the pie rule needs Black's "):
        parse(ap_record(["8x8 board"], [["resign"]], (0, 1), **{"pie-invoked": True}))
    with pytest.raises(RecordError, match=r"header\.pie-invoked: expected true or false"):
        parse(ap_record(["8x8 board"], [["d4", "resign"]], **{"pie-invoked": "yes"}))


def test_a_pass_is_read() -> None:
    record = read("pass-8x8.json")
    passes = [m for m in record.moves if m.text == "pass"]
    assert [m.where for m in passes] == ["moves[30][1]"]


@pytest.mark.parametrize(
    ("variants", "size"),
    [
        ([], 11),  # no board variant: the engine's 11x11 (getBoardSize)
        (["#board"], 11),
        (["11x11 board"], 11),  # genRecord's name of the default board
        (["Default board"], 11),
        (["size-8"], 8),
        (["8x8 board"], 8),
        (["size-9"], 9),
        (["9x9 Board"], 9),
        (["13x13 board"], 13),
        (["size-15"], 15),
        (["15x15 board"], 15),
        (["17x17 board"], 17),
        (["size-19"], 19),
        (["19x19 board"], 19),
        (["size-15", "15x15 board"], 15),  # both notations of one size
    ],
)
def test_each_board_notation(variants: list[str], size: int) -> None:
    record = parse(ap_record(variants, [["a1", "resign"]]))
    assert record.start.n == size
    assert record.moves[0].move == record.start.parse_move("a1")


@pytest.mark.parametrize(
    ("variants", "message"),
    [
        (["15x15 board", "foo"], "header.game.variants: unknown variant 'foo'"),
        (["size-13", "15x15 board"], "header.game.variants: two board sizes, 'size-13' and "),
        (["13x15 board"], "header.game.variants: expected a square board, got '13x15 board'"),
        (["size-40"], "header.game.variants: boardproof plays boards of 2 to 26, got 'size-40'"),
        ([8], "header.game.variants: expected a variant name, got 8"),
        ("size-8", "header.game.variants: expected a list of variant names, got 'size-8'"),
    ],
)
def test_bad_variants(variants: Any, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        parse(ap_record(variants, [["a1", "resign"]]))
    assert str(caught.value).startswith("invalid record: " + message)


@pytest.mark.parametrize("variant", ["pinwheel", "cartwheel"])
def test_a_glyph_variant_is_read_once_the_game_has_it(variant: str) -> None:
    data = ap_record(["15x15 board", variant.title()], [["h8", "resign"]], (0, 1))
    if has_variant(variant):
        record = parse(data)
        assert record.game.variant == variant
        assert record.game.win == "orthodiagonal"
        written = json.loads(write_record(record, "abstractplay"))
        assert written["header"]["game"]["variants"] == ["15x15 board", variant.title()]
    else:
        with pytest.raises(RecordError, match=f"variant '{variant}' is not supported yet"):
            parse(data)


def test_the_pinwheel_record(cli_run) -> None:
    status, out, err = cli_run("import", str(DATA / "pinwheel-15x15.json"))
    if has_variant("pinwheel"):
        assert status == 0, err
        assert json.loads(out)["options"]["variant"] == "pinwheel"
    else:
        assert status == 2 and err == ("error: invalid record: header.game.variants: variant "
                                       "'pinwheel' is not supported yet\n")  # fmt: skip


def test_a_variant_is_not_supported_yet_without_the_option(monkeypatch) -> None:
    monkeypatch.setattr(abstractplay, "_variant_spec", lambda: None)
    for name in ("Pinwheel", "cartwheel"):
        with pytest.raises(RecordError) as caught:
            parse(ap_record(["15x15 board", name], [["h8", "resign"]], (0, 1)))
        assert str(caught.value) == (f"invalid record: header.game.variants: variant "
                                     f"'{name.lower()}' is not supported yet")  # fmt: skip
    # the standard game is read as before
    assert parse(ap_record(["8x8 board"], [["a1", "resign"]])).start.n == 8


# ------------------------------------------------------------------ malformed records


MALFORMED = {
    "bad-no-header.json": "header: missing (an AbstractPlay record has a header and moves)",
    "bad-game-name.json": "header.game.name: boardproof reads AbstractPlay records of "
                          "Minefield, got 'Hex'",
    "bad-variant.json": "header.game.variants: unknown variant 'foo'",
    "bad-move-off-board.json": "moves[3][1]: 'z99' is off the 15x15 board",
    "bad-move-swap.json": "moves[0][1]: expected a point like c3 or pass, got 'swap'",
    "bad-illegal-move.json": "moves[4][0]: illegal move g8: the point is occupied",
    "bad-result.json": "header.players[].result: the results give a win for w, the moves a "
                       "win for b",
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_records_from_the_command_line(cli_run, name: str) -> None:
    for args in (("review", str(DATA / name)), ("review", "minefield", str(DATA / name)),
                 ("import", str(DATA / name))):  # fmt: skip
        status, out, err = cli_run(*args, *(["--iterations-per-move", "2"]
                                            if args[0] == "review" else []))  # fmt: skip
        assert (status, out) == (2, ""), (args, err)
        assert err == f"error: invalid record: {MALFORMED[name]}\n", args


def ok_moves() -> list[list[Any]]:
    return [["d4", "e5"], ["resign"]]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["header"].pop("game"), "header.game: expected an object"),
        (lambda d: d["header"]["game"].pop("name"), "header.game.name: boardproof reads "
                                                    "AbstractPlay records of Minefield, got "
                                                    "None"),  # fmt: skip
        (lambda d: d["header"].update(players=[]), "header.players: expected the 2 players, "
                                                   "got 0"),  # fmt: skip
        (lambda d: d["header"].pop("players"), "header.players: expected the 2 players"),
        (lambda d: d["header"]["players"][1].pop("result"),
         "header.players[1].result: expected a number (1 won, 0 lost), got None"),
        (lambda d: d["header"]["players"][0].update(result="1"),
         "header.players[0].result: expected a number (1 won, 0 lost), got '1'"),
        (lambda d: d["header"]["players"][0].update(result=True),
         "header.players[0].result: expected a number"),
        (lambda d: d["header"]["players"][0].update(name=7),
         "header.players[0].name: expected a name, got 7"),
        (lambda d: d["header"]["players"].__setitem__(0, "Ann"),
         "header.players[0]: expected an object with name and result"),
        (lambda d: d["header"]["players"][0].update(result=1) or
         d["header"]["players"][1].update(result=1), "header.players[].result: the results "
         "give a draw after 'resign'"),  # fmt: skip
        (lambda d: d.update(header=[]), "header: expected an object"),
        (lambda d: d.update(moves="d4 e5"), "moves: expected a list of rounds, got 'd4 e5'"),
        (lambda d: d["moves"].insert(0, ["a1"]),
         "moves[0]: only the last round may have fewer than 2 moves"),
        (lambda d: d["moves"].insert(0, ["a1", "h8", "a8"]),
         "moves[0]: expected a round of 1 or 2 moves"),
        (lambda d: d["moves"].insert(0, []), "moves[0]: expected a round of 1 or 2 moves"),
        (lambda d: d["moves"][0].__setitem__(1, None), "moves[0][1]: expected a move, got None"),
        (lambda d: d["moves"][1].append("a1"),
         "moves[1][1]: the game ended with 'resign', got 'a1'"),
        (lambda d: d["moves"].pop(), "moves: the game is not over and the record gives no "
                                     "ending"),  # fmt: skip
        (lambda d: d["moves"][0].__setitem__(1, "pass"),
         "moves[0][1]: illegal move pass: w has a legal move"),
        (lambda d: d["moves"][0].__setitem__(1, "i1"), "moves[0][1]: 'i1' is off the 8x8 board"),
        (lambda d: d["moves"][0].__setitem__(1, "a0"), "moves[0][1]: 'a0' is off the 8x8 board"),
        (lambda d: d["moves"][0].__setitem__(1, "aa1"),
         "moves[0][1]: 'aa1' is off the 8x8 board"),
        (lambda d: d["moves"][0].__setitem__(1, "1a"),
         "moves[0][1]: expected a point like c3 or pass, got '1a'"),
    ],
)
def test_malformed_fields(change: Any, message: str) -> None:
    data = ap_record(["8x8 board"], ok_moves(), (0, 1))
    change(data)
    with pytest.raises(RecordError) as caught:
        parse(data)
    text = str(caught.value)
    assert text.startswith("invalid record: " + message), text
    assert "\n" not in text


def test_a_move_after_the_win_is_refused() -> None:
    data = json.loads(text_of("win-8x8-pie.json"))
    data["moves"][-1].append("a8")
    with pytest.raises(RecordError, match=r"moves\[17\]\[1\]: the game is already over: 'a8'"):
        parse(data)


def test_spaces_and_capitals_in_moves_are_read_as_abstractplay_reads_them() -> None:
    record = parse(ap_record(["8x8 board"], [[" D4", {"move": "E 5"}], ["resign"]], (0, 1)))
    assert [m.text for m in record.moves] == ["d4", "e5"]


def test_a_record_of_another_game_is_refused() -> None:
    text = text_of("win-9x9.json")
    with pytest.raises(RecordError, match="header.game.name: the record is of minefield, "
                                          "not carpniches"):  # fmt: skip
        parse_record(models.get("carpniches"), text)
    # a game option the record's game does not have is refused (not silently replaced)
    if has_variant("pinwheel"):
        with pytest.raises(RecordError, match="the AbstractPlay game is played with variant "
                                              "'standard', got --variant 'pinwheel'"):  # fmt: skip
            parse_record(models.get("minefield", variant="pinwheel"), text)
    # the win rule of AbstractPlay given, or the default: the record's game
    for game in (MF, models.get("minefield", win="orthodiagonal")):
        assert parse_record(game, text).game.win == "orthodiagonal"


# ------------------------------------------------------------------ round trips


def random_game(rng: random.Random, size: int, win: str = "orthodiagonal") -> tuple[Any, list]:
    game = models.get("minefield", win=win)
    start = game.start(size=size)
    pos = start
    moves = []
    limit = rng.choice([6, 20, 1000])
    while pos.outcome() is None and len(moves) < limit:
        move = rng.choice(pos.legal_moves())
        moves.append(move)
        pos = pos.play(move)
    return start, moves


@pytest.mark.parametrize("seed", range(12))
def test_round_trip_of_boardproof_games(seed: int) -> None:
    rng = random.Random(seed)
    size = rng.choice(abstractplay.SIZES)
    start, moves = random_game(rng, size)
    end = start
    for move in moves:
        end = end.play(move)
    ending = "" if end.outcome() is not None else rng.choice(abstractplay.ENDINGS)
    result = None
    if ending in ("resign", "timeout"):
        result = Outcome.win(rng.randrange(2))
    record = make_record(start, moves, players=("Ann", "Bo"), result=result, ending=ending)
    text = write_record(record, "abstractplay")
    data = json.loads(text)
    assert data["header"]["game"]["variants"] == [f"{size}x{size} board"]
    assert data["header"].get("pie-invoked", False) == ("swap" in map(str, moves))
    assert all(len(r) == 2 for r in data["moves"][:-1])
    back = parse_record(MF, text)
    assert [m.move for m in back.moves] == moves
    assert back.outcome() == record.outcome()
    assert back.ending == ending and back.players == ("Ann", "Bo")
    if ending in ("resign", "timeout"):
        assert back.result == result
    # and through boardproof's JSON form: the same record
    again = parse_record(MF, write_record(back))
    assert [m.move for m in again.moves] == moves
    assert again.game == back.game and again.outcome() == back.outcome()
    assert json.loads(write_record(again, "abstractplay"))["moves"] == data["moves"]


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_round_trip_of_abstractplay_records(name: str) -> None:
    original = json.loads(text_of(name))
    record = read(name)
    # AbstractPlay -> boardproof's JSON form -> AbstractPlay
    boardproof_form = write_record(record)
    assert json.loads(boardproof_form)["options"] == {"win": "orthodiagonal"}
    back = json.loads(write_record(parse_record(MF, boardproof_form), "abstractplay"))
    assert back["moves"] == original["moves"]
    # the same header, but a new date-generated and the variants by their names
    size = record.start.n
    kept = {key: value for key, value in original["header"].items() if key != "date-generated"}
    kept["game"] = {"name": "Minefield", "variants": [f"{size}x{size} board"]}
    assert {key: value for key, value in back["header"].items()
            if key != "date-generated"} == kept  # fmt: skip
    # and one argument is enough: the record names its game
    assert record_game(boardproof_form) == "minefield"


def test_writing_refuses_what_abstractplay_cannot_hold() -> None:
    small = MF.start(size=5)
    with pytest.raises(RecordError, match="start: AbstractPlay's Minefield boards are 8, 9, 11, "
                                          "13, 15, 17 and 19 points wide, got 5"):  # fmt: skip
        write_record(make_record(small, ["c3"], ending="resign"), "abstractplay")
    later = MF.parse_position("8/8/8/8/3b4/8/8/8 w -")
    with pytest.raises(RecordError, match="start: AbstractPlay games begin on the empty board"):
        write_record(make_record(later, ["e5"], ending="resign"), "abstractplay")
    with pytest.raises(RecordError, match="ending: the game is not over: say how it ended"):
        write_record(make_record(MF.start(size=8), ["d4"]), "abstractplay")
    # a diagonal path ends AbstractPlay's game at ply 29; the rulebook's game goes on
    moves = "d8 f8 b5 g5 f4 a3 e6 f7 b7 b4 f2 g1 e4 a7 f1 b1 c3 g4 f3 c6 a5 e1 a2 a6 e7"
    moves = [*moves.split(), "h5", "g6", "d2", "e5"]
    rulebook = models.get("minefield").start(size=8)
    on = make_record(rulebook, [*moves, "h1"], ending="resign")
    assert on.positions[-1].outcome() is None
    with pytest.raises(RecordError, match=r"moves: ply 30: AbstractPlay's game is over after "
                                          r"ply 29 \(its path may step diagonally\)"):
        write_record(on, "abstractplay")
    # stopped where AbstractPlay stops, the rulebook's game (not over yet) cannot say how it
    # ended: AbstractPlay's is over
    ended = make_record(rulebook, moves, result=Outcome.win(0), ending="resign")
    assert ended.positions[-1].outcome() is None
    with pytest.raises(RecordError, match="ending: the moves end the game, got 'resign'"):
        write_record(ended, "abstractplay")
    with pytest.raises(RecordError, match="has no AbstractPlay records"):
        write_record(make_record(models.get("candy").start(), []), "abstractplay")


# ------------------------------------------------------------------ the command line


def test_review_of_an_abstractplay_record(cli_run) -> None:
    path = str(DATA / "win-8x8-pie.json")
    status, out, err = cli_run("review", path, "--iterations-per-move", "3", "--quiet", "--json")
    assert status == 0, err
    plies = json.loads(out)["plies"]
    record = read("win-8x8-pie.json")
    assert [p["move"] for p in plies] == [m.text for m in record.moves]
    assert plies[1]["move"] == "swap"
    status, out, err = cli_run("review", "minefield", path, "--iterations-per-move", "3",
                               "--quiet")  # fmt: skip
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == ("record: abstractplay (b mesmerized, w Perlkönig), result: b wins (the "
                        "moves end the game)")  # fmt: skip
    assert lines[1] == "start: 8/8/8/8/8/8/8/8 b p"
    assert lines[4].split()[:3] == ["2", "w", "swap"]


def test_review_needs_the_game_of_a_record_that_does_not_name_it(cli_run, tmp_path) -> None:
    path = tmp_path / "game.txt"
    path.write_text("3/3/3 b -\nb2\n")
    status, out, err = cli_run("review", str(path), "--iterations-per-move", "2")
    assert (status, out) == (2, "")
    assert err == ("error: invalid record: the record does not name its game (give GAME "
                   "before RECORD)\n")  # fmt: skip
    for args in (("review",), ("review", "minefield")):
        status, out, err = cli_run(*args)
        assert (status, out, err) == (2, "", "error: missing RECORD: it is required\n")
    path.write_text('{"game": "minefield", "start": "3/3/3 b -", "moves": ["b2"]}')
    status, out, err = cli_run("review", str(path), "--iterations-per-move", "2", "--quiet")
    assert status == 0, err


def test_import_prints_the_record_or_writes_it(cli_run, tmp_path: Path) -> None:
    source = str(DATA / "timeout-13x13-pie.json")
    status, out, err = cli_run("import", source)
    assert status == 0, err
    data = json.loads(out)
    assert data["game"] == "minefield" and data["options"] == {"win": "orthodiagonal"}
    assert data["start"] == "/".join(["13"] * 13) + " b p"
    assert data["moves"][1] == "swap" and len(data["moves"]) == 40
    assert data["players"] == ["mesmerized", "Quasimodo"]
    assert (data["result"], data["ending"]) == ("b", "timeout")
    out_file = tmp_path / "game.json"
    status, out, err = cli_run("import", source, "--out", str(out_file))
    assert status == 0, err
    assert out.splitlines() == [
        "read: abstractplay record of minefield (win orthodiagonal, variant standard)"
        if has_variant("pinwheel") else "read: abstractplay record of minefield (win "
        "orthodiagonal)",
        "start: " + "/".join(["13"] * 13) + " b p",
        "players: b mesmerized, w Quasimodo",
        "moves: 40 plies",
        "note: AbstractPlay board 13x13",
        "note: pie rule invoked: the players exchanged colours after ply 1 (swap)",
        "result: b wins (w lost on time)",
        f"wrote {out_file} (boardproof)",
    ]  # fmt: skip
    assert json.loads(out_file.read_text()) == data
    # back to AbstractPlay's format
    status, out, err = cli_run("import", str(out_file), "--format", "abstractplay")
    assert status == 0, err
    back = json.loads(out)
    assert back["moves"] == json.loads(text_of("timeout-13x13-pie.json"))["moves"]
    assert back["header"]["pie-invoked"] is True


def test_import_of_a_boardproof_record(cli_run, tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text("8/8/8/8/8/8/8/8 b p\nd4 swap e5\n")
    status, out, err = cli_run("import", str(path))
    assert (status, out) == (2, "")
    assert "the record does not name its game" in err
    status, out, err = cli_run("import", str(path), "--game", "minefield", "--format",
                               "abstractplay")  # fmt: skip
    assert (status, out) == (2, ""), err
    assert err == ("error: cannot write an AbstractPlay record: ending: the game is not over: "
                   "say how it ended (resign, timeout, draw or abandoned), got ''\n")  # fmt: skip
    path.write_text('{"game": "minefield", "start": "8/8/8/8/8/8/8/8 b p", '
                    '"moves": ["d4", "swap", "e5"], "players": ["Ann", "Bo"], '
                    '"result": "b", "ending": "resign"}')  # fmt: skip
    status, out, err = cli_run("import", str(path), "--format", "abstractplay")
    assert status == 0, err
    data = json.loads(out)
    assert data["moves"] == [["d4", "e5"], ["resign"]]
    assert [p["result"] for p in data["header"]["players"]] == [1, 0]
    assert data["header"]["site"] == {"name": "boardproof"}
    status, out, err = cli_run("import", str(path), "--format", "sgf")
    assert status == 2 and "--format" in err


def test_a_bad_output_path_is_refused_before_reading(cli_run, tmp_path: Path) -> None:
    status, out, err = cli_run("import", str(DATA / "win-9x9.json"), "--out",
                               str(tmp_path / "no" / "such" / "x.json"))  # fmt: skip
    assert (status, out) == (2, "")
    assert err.startswith("error: invalid option --out")


# ------------------------------------------------------------------ fuzzing


def _slots(value: Any) -> list[tuple[Any, Any]]:
    """Every (container, key) of a JSON value, the value itself included."""
    found: list[tuple[Any, Any]] = []
    keys = range(len(value)) if isinstance(value, list) else value if isinstance(value, dict) \
        else ()
    for key in keys:
        found.append((value, key))
        found += _slots(value[key])
    return found


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6)
    | st.sampled_from(["pass", "resign", "draw", "a1", "h8", "size-8", "9x9 board", "Pinwheel",
                       "Minefield", "swap", "z99", "size-" + "9" * 5000]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=8,
)  # fmt: skip


@given(st.data())
@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
def test_fuzz_abstractplay_records(data: st.DataObject) -> None:
    """A record with one field replaced by any JSON is read, or refused in one line."""
    record = json.loads(text_of("win-8x8-pie.json"))
    for _ in range(data.draw(st.integers(1, 2))):
        container, key = data.draw(st.sampled_from(_slots(record)))
        if data.draw(st.booleans()) and isinstance(container, dict):
            del container[key]
        else:
            container[key] = data.draw(JSON)
    try:
        parsed = parse_record(MF, json.dumps(record))
    except RecordError as error:
        text = str(error)
        assert text.startswith("invalid record: ") and "\n" not in text and len(text) < 400
    else:
        assert len(parsed.positions) == len(parsed.moves) + 1
