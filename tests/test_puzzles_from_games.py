"""Puzzles from played games: self-play records (``puzzle selfplay``) and mining them
(``puzzle generate --from-games``), with small boards and tiny budgets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardproof import models
from boardproof.match.selfplay import SelfPlaySettings, play_game, run_selfplay
from boardproof.puzzles.check import check_puzzle, forced_win
from boardproof.puzzles.mining import GameLine, Mining, mine, mine_game, mining_settings
from boardproof.puzzles.themes import puzzle_themes
from boardproof.review.record import make_record, parse_record, write_record

START_6 = "6/6/6/6/6/6 b -"
#: a 6x6 game of `puzzle selfplay minefield --size 6 --no-pie --run-seed 2 --iterations 5-60`
#: (game 1): at ply 14 Black wins in 3 with b5 only (Black played it)
PINNED = "b6 f6 a1 e1 b2 c1 c4 c2 d5 f2 b1 f1 b3 d1 b5 d3 b4"
#: the other games of that run and of --run-seed 3
GAMES_6 = [
    PINNED,
    "d4 f4 d3 d5 e6 c1 a4 f2 b1 e5 a1 d1 b5 f3 b2 b6 a5 a6 e1 c6 c2 d6 f1 f5",
    "d2 f2 a3 b1 a1 d1 c4 d4 f4 b4 e2 c6 e1 e5 c5 b6 f6 f3 a6 a4 f1 b5 a5 c1 c3 f5 a2 d6 b2 d5",
    "e1 a3 b3 c2 f3 e5 f2 a1 d3 b1 c4 c5 f5 b5 f4 c1 f6 e3 f1",
    "b4 c5 c6 a1 e1 c1 c2 f5 d2 b1 a5 c3 e5 d4 d1 f1 e3 f4 a2 e4 a3 f2 b2 c4 a6 d5 a4",
    "e5 f4 a1 f1 f2 b4 d1 e4 c4 d3 c3 b1 b3 d4 a5 c6 c5 a6 d5 e6 d6 e3 a2 f6 a3",
]


def line_of(moves: str, record: str = "pinned") -> GameLine:
    game = models.get("minefield")
    return GameLine({"record": record}, game.parse_position(START_6), tuple(moves.split()))


def test_pinned_record_gives_its_known_puzzle() -> None:
    found = mine_game(line_of(PINNED), mining_settings("minefield"), Mining(depth=12))
    [puzzle] = found["puzzles"]
    assert puzzle["source"]["ply"] == 14 and puzzle["source"]["record"] == "pinned"
    assert (puzzle["plies"], puzzle["solution"], puzzle["pv"]) == (3, "b5", ["b5", "a2", "b4"])
    assert puzzle["source"]["line"] == PINNED.split()[:14]
    # the rules-only checks: the win in 3, and no other first move wins in time
    pos = models.get("minefield").parse_position(puzzle["position"])
    winning = [str(m) for m in pos.legal_moves() if forced_win(pos.play(m), pos.to_move, 2)]
    assert winning == ["b5"]
    verdict = check_puzzle(puzzle)
    assert verdict.ok, verdict.message
    assert puzzle["themes"] == puzzle_themes({**puzzle, "themes": None})
    assert "win-in-3" in puzzle["themes"]


def test_a_wrong_source_line_fails_the_check() -> None:
    [puzzle] = mine_game(line_of(PINNED), mining_settings("minefield"), Mining(depth=12))[
        "puzzles"
    ]
    puzzle["source"]["line"] = puzzle["source"]["line"][:-2]
    verdict = check_puzzle(puzzle)
    assert not verdict.ok and "source" in verdict.message


def test_native_searches_agree_with_the_python_alpha_beta() -> None:
    """The native searches (auto) against the plain method on every position tried."""
    settings = mining_settings("minefield")
    for number, moves in enumerate(GAMES_6[:4]):
        line = line_of(moves, f"g{number}")
        fast = mine_game(line, settings, Mining(depth=12, per_game=5))
        plain = mine_game(line, settings, Mining(depth=12, per_game=5, method="python"))
        assert fast["counts"] == plain["counts"], number
        for a, b in zip(fast["puzzles"], plain["puzzles"], strict=True):
            # the decoys are counted on a node budget: the alpha-beta's may stop sooner
            assert a["decoys"][: len(b["decoys"])] == b["decoys"]
            # the proofs' inner moves (so the lines, the duals) may be other winning moves
            apart = dict.fromkeys(("rating", "decoys", "proof", "strategy", "pv", "duals"))
            assert {**a, **apart} == {**b, **apart}
            assert check_puzzle(a).ok and check_puzzle(b).ok


def test_generate_from_games_cli_boardproof_records(tmp_path: Path, cli_run) -> None:
    games = tmp_path / "games.jsonl"
    lines = [json.dumps({"id": f"game-{k}", "game": "minefield", "start": START_6,
                         "moves": moves.split()}) for k, moves in enumerate(GAMES_6)]  # fmt: skip
    games.write_text("\n".join(lines) + "\n")
    out = tmp_path / "mined.jsonl"
    status, _, err = cli_run("puzzle", "generate", "minefield", "--from-games", str(games),
                             "--depth", "12", "--out", str(out))  # fmt: skip
    assert status == 0, err
    puzzles = [json.loads(line) for line in out.read_text().splitlines()]
    assert puzzles and puzzles[0]["id"] == "game-0-ply14"
    assert all(p["source"]["file"] == "games.jsonl" for p in puzzles)
    records = [p["source"]["record"] for p in puzzles]
    assert records == sorted(records)  # in game order
    status, text, _ = cli_run("puzzle", "check", str(out))
    assert status == 0, text
    # --count stops early; the same file gives the same puzzles
    status, text, _ = cli_run("puzzle", "generate", "minefield", "--from-games", str(games),
                              "--depth", "12", "--count", "1")  # fmt: skip
    assert status == 0 and json.loads(text.splitlines()[0]) == puzzles[0]


#: a 9x9 game with the pie rule (`puzzle selfplay minefield --size 9 --iterations 20-300`,
#: game 6): at ply 40 Black wins in 3 with e7 only (and plays it). AbstractPlay's Minefield
#: lets a path step diagonally, so there the game ends at e7 (ply 41), and at ply 34 Black
#: wins in 5 with b2 only (and plays it)
PINNED_9 = ("b5 c4 f6 e4 e8 g7 d7 f8 d4 b3 d2 d9 h3 d6 g5 h2 f2 b1 d5 g4 d3 f9 a3 b8 e9 d1 "
            "i4 f1 c2 c1 a1 e1 a2 c8 b2 g1 i1 e2 e5 h1 e7 b6 e6")  # fmt: skip


def test_generate_from_an_abstractplay_record(tmp_path: Path, cli_run) -> None:
    game = models.get("minefield")
    start = game.parse_position("9/9/9/9/9/9/9/9/9 b p")
    record = make_record(start, PINNED_9.split()[:41], players=("Ann", "Bo"))
    path = tmp_path / "ap.json"
    path.write_text(write_record(record, "abstractplay"))
    assert "header" in json.loads(path.read_text())
    assert parse_record(game, path.read_text()).source == "abstractplay"
    status, text, err = cli_run("puzzle", "generate", "minefield", "--from-games", str(path),
                                "--depth", "8")  # fmt: skip
    assert status == 0, err
    [puzzle] = [json.loads(line) for line in text.splitlines()]
    assert (puzzle["solution"], puzzle["source"]["ply"], puzzle["plies"]) == ("b2", 34, 5)
    assert puzzle["pv"] == ["b2", "g1", "e5", "h1", "e7"]
    assert puzzle["id"] == "game-ply34" and puzzle["options"] == {"win": "orthodiagonal"}
    assert puzzle["source"]["file"] == "ap.json"
    assert check_puzzle(puzzle).ok


@pytest.mark.parametrize(
    ("content", "field"),
    [
        ('{"start": "6/6/6/6/6/6 b -", "moves": ["b2", "b2"]}\n', "moves[1]"),
        ('{"id": "a", "start": "6/6/6/6/6/6 b -", "moves": ["b2"]}\n'
         '{"start": "6/6/6/6/6/6 b -", "moves": 7}\n', "line 2: moves"),
        ('{"start": "6/6/6/6/6/6 q -", "moves": []}\n', "start"),
        ('{"header": {"game": {"name": "Chess"}}, "moves": []}\n', "header.game.name"),
        ("", "it is empty"),
    ],
)  # fmt: skip
def test_a_bad_game_file_exits_2_naming_the_field(tmp_path: Path, cli_run, content: str,
                                                  field: str) -> None:  # fmt: skip
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    status, out, err = cli_run("puzzle", "generate", "minefield", "--from-games", str(path))
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and field in err and "Traceback" not in err


def test_bad_options_exit_2(tmp_path: Path, cli_run) -> None:
    games = tmp_path / "g.jsonl"
    games.write_text(json.dumps({"start": START_6, "moves": PINNED.split()}) + "\n")
    for args, word in [
        (("--from-games", str(games), "--per-game", "0"), "--per-game"),
        (("--from-games", str(games), "--checkpoint", "x.jsonl"), "--checkpoint"),
        (("--depth", "3", "--count", "1"), "--depth"),
        ((), "--count"),
    ]:
        status, _, err = cli_run("puzzle", "generate", "minefield", *args)
        assert status == 2 and word in err and len(err.strip().splitlines()) == 1, (args, err)
    status, _, err = cli_run("puzzle", "selfplay", "minefield", "--size", "5",
                             "--iterations", "9-3", "--out", str(tmp_path / "s.jsonl"))  # fmt: skip
    assert status == 2 and "--iterations" in err and "'9-3'" in err


def test_selfplay_is_reproducible_and_varied(tmp_path: Path, cli_run) -> None:
    settings = SelfPlaySettings("minefield", {}, {"size": 5}, games=3, seed=7,
                                iterations=(2, 30))  # fmt: skip
    first = run_selfplay(settings, progress=False)
    assert run_selfplay(settings, progress=False) == first
    assert len({tuple(r["moves"]) for r in first}) == 3
    budgets = [b for r in first for b in r["selfplay"]["budgets"]]
    assert min(budgets) >= 2 and max(budgets) <= 30 and len(set(budgets)) > 3
    other = run_selfplay(SelfPlaySettings("minefield", {}, {"size": 5}, games=3, seed=8,
                                          iterations=(2, 30)), progress=False)  # fmt: skip
    assert [r["moves"] for r in other] != [r["moves"] for r in first]
    game = models.get("minefield")
    for record in first:  # records that review reads, each game to its end
        replayed = parse_record(game, json.dumps(record))
        assert replayed.positions[-1].outcome() is not None
        assert record["result"] in ("b", "w")
    # the command writes the same records, and mining them is reproducible too
    out = tmp_path / "games.jsonl"
    status, text, err = cli_run("puzzle", "selfplay", "minefield", "--size", "5", "--games",
                                "3", "--run-seed", "7", "--iterations", "2-30", "--out",
                                str(out), "--quiet")  # fmt: skip
    assert status == 0, err
    assert [json.loads(line) for line in out.read_text().splitlines()] == first
    assert "3 games" in text
    mined = [cli_run("puzzle", "generate", "minefield", "--from-games", str(out), "--depth",
                     "30", "--per-game", "3")[1] for _ in range(2)]  # fmt: skip
    assert mined[0] == mined[1]


def test_selfplay_pinwheel_and_three_player_candy() -> None:
    pinwheel = SelfPlaySettings("minefield", {"variant": "pinwheel"}, {"size": 5}, games=1,
                                seed=1, iterations=(2, 20))  # fmt: skip
    record = play_game((pinwheel, 0))
    assert record["options"] == {"variant": "pinwheel"}
    game = models.get("minefield", variant="pinwheel")
    assert parse_record(game, json.dumps(record)).positions[-1].outcome() is not None
    candy = SelfPlaySettings("candy", {}, {"players": 3}, games=1, seed=1, iterations=(2, 10))
    record = play_game((candy, 0))
    assert record["start"].endswith(" 3")
    pos = parse_record(models.get("candy"), json.dumps(record)).positions[-1]
    assert pos.outcome() is not None


def test_collexion_games_are_dealt_from_the_run_seed() -> None:
    settings = SelfPlaySettings("collexion", {}, {}, games=2, seed=3, iterations=(1, 2),
                                opening_plies=0)  # fmt: skip
    assert settings.start_position(0) != settings.start_position(1)
    given = SelfPlaySettings("collexion", {}, {"seed": 5}, games=2, seed=3)
    assert given.start_position(0) == given.start_position(1)


def test_mine_refuses_no_games() -> None:
    from boardproof.models.base import InvalidOptionError

    with pytest.raises(InvalidOptionError, match="games"):
        mine([], progress=False)


@pytest.mark.long
def test_mined_puzzles_of_every_game_pass_the_check(tmp_path: Path) -> None:
    """Self-play then mining for the other games: whatever is found checks."""
    for name, start, iterations in [("carpniches", {}, (20, 200)),
                                    ("candy", {"players": 2}, (200, 1000))]:  # fmt: skip
        settings = SelfPlaySettings(name, {}, start, games=3, seed=1, iterations=iterations,
                                    max_plies=300)  # fmt: skip
        records = run_selfplay(settings, progress=False)
        game = models.get(name)
        lines = [GameLine({"record": r["id"]}, game.parse_position(r["start"]),
                          tuple(r["moves"])) for r in records]  # fmt: skip
        found = mine(lines, mining=Mining(per_game=2), progress=False)
        for puzzle in found.puzzles:
            assert check_puzzle(puzzle).ok, puzzle["id"]


def test_the_same_games_and_puzzles_with_two_workers() -> None:
    settings = SelfPlaySettings("minefield", {}, {"size": 5}, games=4, seed=3,
                                iterations=(2, 30))  # fmt: skip
    records = run_selfplay(settings, progress=False)
    assert run_selfplay(settings, workers=2, progress=False) == records
    lines = [line_of(moves, f"g{k}") for k, moves in enumerate(GAMES_6)]
    one = mine(lines, mining=Mining(depth=12, per_game=2), progress=False)
    two = mine(lines, mining=Mining(depth=12, per_game=2), workers=2, progress=False)
    assert one.puzzles == two.puzzles and one.counts == two.counts and one.puzzles


def test_the_daily_puzzle_from_a_mined_set(tmp_path: Path, cli_run) -> None:
    games = tmp_path / "games.jsonl"
    games.write_text("".join(json.dumps({"id": f"g{k}", "start": START_6,
                                         "moves": moves.split()}) + "\n"
                             for k, moves in enumerate(GAMES_6)))  # fmt: skip
    mined = tmp_path / "mined.jsonl"
    assert cli_run("puzzle", "generate", "minefield", "--from-games", str(games), "--depth",
                   "12", "--out", str(mined))[0] == 0  # fmt: skip
    ids = [json.loads(line)["id"] for line in mined.read_text().splitlines()]
    days = {}
    for day in ("2026-12-05", "2026-12-06", "2026-12-07"):
        status, text, err = cli_run("puzzle", "daily", "minefield", "--date", day,
                                    "--from-set", str(mined), "--json")  # fmt: skip
        assert status == 0, err
        puzzle = json.loads(text)
        assert puzzle["id"] == f"minefield-{day}" and puzzle["date"] == day
        assert puzzle["source_id"] in ids and check_puzzle(puzzle).ok
        days[day] = puzzle["source_id"]
    assert cli_run("puzzle", "daily", "minefield", "--date", "2026-12-05", "--from-set",
                   str(mined), "--json")[1] == cli_run("puzzle", "daily", "minefield",
                   "--date", "2026-12-05", "--from-set", str(mined), "--json")[1]  # fmt: skip
    assert len(set(days.values())) > 1  # the days do not all take the same puzzle
    status, _, err = cli_run("puzzle", "daily", "candy", "--from-set", str(mined))
    assert status == 2 and "no candy puzzle" in err
    # the site's batch of days takes a game's days from its set, the same puzzles
    from boardproof.puzzles.daily import daily_puzzles
    from boardproof.puzzles.store import read_puzzles

    batch = daily_puzzles(["minefield"], list(days), sets={"minefield": read_puzzles(mined)})
    assert {key: p["source_id"] for key, p in batch.items()} == {
        f"minefield {day}": ident for day, ident in days.items()}


def test_a_collexion_game_gives_its_best_turn(cli_run) -> None:
    """`puzzle selfplay collexion --games 3 --run-seed 3`, game 3: at ply 25 the one best turn
    is 47 (+3, by 1), re-proved by the checker's plain minimax."""
    path = Path(__file__).parent / "data" / "selfplay-collexion-3-3.json"
    status, text, err = cli_run("puzzle", "generate", "collexion", "--from-games", str(path))
    assert status == 0, err
    [puzzle] = [json.loads(line) for line in text.splitlines()]
    assert puzzle["id"] == "selfplay-collexion-3-3-ply25" and puzzle["objective"] == "score"
    assert (puzzle["solution"], puzzle["score"], puzzle["margin"]) == ("47", 3, 1)
    assert check_puzzle(puzzle).ok


def test_a_folder_of_text_records(tmp_path: Path, cli_run) -> None:
    """``match --records FOLDER`` writes one text record a file: each file is a game."""
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "game-001.txt").write_text(f"# a game\n{START_6}\n{PINNED}\n")
    (folder / "notes.md").write_text("not a record\n")
    status, text, err = cli_run("puzzle", "generate", "minefield", "--from-games",
                                str(folder), "--depth", "12")  # fmt: skip
    assert status == 0, err
    [puzzle] = [json.loads(line) for line in text.splitlines()]
    assert puzzle["id"] == "game-001.txt-ply14" and puzzle["source"]["file"] == "records"
    (folder / "game-002.txt").write_text(f"{START_6}\nb2 b2\n")
    status, _, err = cli_run("puzzle", "generate", "minefield", "--from-games", str(folder))
    assert status == 2 and err.startswith("error: invalid record: game-002.txt: line 2")
