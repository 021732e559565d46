"""``boardproof match``: the Elo arithmetic against known values, reproducible matches
(the same seed twice, one worker or two), colours alternated over the same openings, a
whole match between two ``boardproof gtp`` processes, a resigning GTP engine, records
that ``review`` reads, one-line errors, and Ctrl-C."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest
from interrupt import interrupt_after_progress

from boardproof import models
from boardproof.match.elo import Standing, elo_difference, wilson_interval
from boardproof.match.openings import random_opening
from boardproof.match.players import (
    EnginePlayer,
    EngineSpec,
    GtpSpec,
    MatchError,
    _tuning_names,
    parse_settings,
)
from boardproof.match.records import record_text, write_records
from boardproof.match.runner import MatchSettings, run_match
from boardproof.models.base import InvalidOptionError
from boardproof.review.record import parse_record
from boardproof.solvers.native_mcts import EngineSettings

#: the native engine settings a player may give, as the error messages list them
TUNABLE = ", ".join(_tuning_names())

BOARDPROOF = Path(sys.executable).parent / "boardproof"
MINEFIELD = models.get("minefield")


def small_match(games: int = 4, seed: int = 3, **changes: object) -> MatchSettings:
    """Minefield 5x5, plain MCTS with small budgets (the engines' seeds matter)."""
    fields: dict[str, object] = dict(
        game="minefield", options={}, start={"size": 5},
        a=parse_settings("iterations=40,exact=no", "--a"),
        b=parse_settings("iterations=8,exact=no", "--b"),
        games=games, seed=seed, opening_plies=2,
    )  # fmt: skip
    fields.update(changes)
    return MatchSettings(**fields)  # type: ignore[arg-type]


# -- Elo and its interval ----------------------------------------------------------------


def test_elo_difference_known_values() -> None:
    assert elo_difference(0.5) == 0.0
    assert elo_difference(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert elo_difference(10 / 11) == pytest.approx(400.0)  # 10 to 1 odds: 400 points
    assert elo_difference(0.24) == pytest.approx(-elo_difference(0.76))
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf


def test_wilson_interval_known_values() -> None:
    # 15 of 20: the Wilson interval (z = 1.96) is 0.5313 to 0.8881
    low, high = wilson_interval(0.75, 20)
    assert (round(low, 4), round(high, 4)) == (0.5313, 0.8881)
    # 50 of 100: 0.4038 to 0.5962, symmetric about 1/2
    low, high = wilson_interval(0.5, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    # all won: the upper end is 1, the lower n / (n + z^2)
    assert wilson_interval(1.0, 10) == pytest.approx((10 / (10 + 1.959963984540054**2), 1.0))


def test_standing_counts_draws_half_and_maps_the_interval_through_elo() -> None:
    standing = Standing(wins=5, draws=10, losses=5)
    assert standing.score == 0.5 and standing.elo == 0.0
    low, high = standing.elo_interval
    assert low == pytest.approx(-high) and low < 0 < high
    assert Standing(12, 6, 2).to_json()["elo"] == 190.8
    perfect = Standing(wins=3).to_json()
    assert perfect["elo"] is None and perfect["elo_interval"][1] is None  # JSON: no inf
    assert perfect["elo_interval"][0] < 0  # 3 of 3 does not rule out a weaker A
    assert Standing(wins=4).to_json()["elo_interval"][0] == 7.0  # 4 of 4 just does


# -- settings ---------------------------------------------------------------------------


def test_settings_texts() -> None:
    assert parse_settings("time=0.5", "--a") == EngineSpec(seconds=0.5)
    assert parse_settings("iterations=200, seed=1,exact=no", "--a") == EngineSpec(
        iterations=200, seed=1, options={"exact": False})
    spec = parse_settings("gtp:boardproof gtp minefield --size '9'", "--b")
    assert spec == GtpSpec(("boardproof", "gtp", "minefield", "--size", "9"))
    assert spec.describe() == "gtp:boardproof gtp minefield --size 9"
    assert parse_settings("iterations=200,exact=no", "--a").describe() == (
        "iterations=200,exact=no")


def test_native_engine_settings_are_read_and_given_to_the_engine() -> None:
    spec = parse_settings("iterations=50,engine=native,threads=1,hash=8,uct_c=0.1,rave=0", "--a")
    assert isinstance(spec, EngineSpec)
    assert spec.options == {"engine": "native"}
    assert spec.describe() == "iterations=50,engine=native,threads=1,hash=8,uct_c=0.1,rave=0"
    assert parse_settings(spec.describe(), "--a") == spec
    assert spec.engine_settings() == EngineSettings(hash_mb=8, uct_c=0.1, rave=False)


def test_an_engine_player_keeps_its_tree_and_follows_the_moves() -> None:
    start = models.get("minefield").start(size=5)
    spec = parse_settings("iterations=300,exact=no,hash=4", "--a")
    assert isinstance(spec, EngineSpec)
    player = EnginePlayer(spec, seed=3)
    player.new_game(start)
    first = player.genmove()
    assert player.tree is not None and player.tree.root_position == player.position
    reply = player.tree.moves()[0].move  # the reply the tree has looked at most
    player.play(reply)
    assert player.tree is not None and player.tree.root_position == player.position
    kept = player.tree.stats()["nodes"]
    assert kept > 1  # the subtree of the two moves played was kept, not a new tree
    player.genmove()
    again = EnginePlayer(spec, seed=3)
    again.new_game(start)
    assert again.genmove() == first  # the same seed and budget: the same move


@pytest.mark.parametrize("text, why", [
    ("depth=3", "invalid option --a: unknown setting 'depth' (expected time, iterations, "
                f"seed, exact, playout, engine, a native engine setting ({TUNABLE}), or "
                "gtp:COMMAND), got 'depth=3'"),
    ("threads=0", "invalid option --a: threads: expected 1..8, got 0 (in 'threads=0')"),
    ("hash=big", "invalid option --a: hash: expected int, got 'big' (in 'hash=big')"),
    ("threads=2,threads=2", "invalid option --a: threads given twice, "
                            "got 'threads=2,threads=2'"),
    ("engine=fast", "invalid option --a: engine expects auto, native or python, "
                    "got 'engine=fast'"),
    ("iterations=0", "invalid option --a: iterations expects a whole number >= 1, "
                     "got 'iterations=0'"),
    ("time=nan", "invalid option --a: time expects a number of seconds > 0, got 'time=nan'"),
    ("time=1,iterations=5", "invalid option --a: time and iterations together (give one), "
                            "got 'time=1,iterations=5'"),
    ("seed=1,seed=2", "invalid option --a: seed given twice, got 'seed=1,seed=2'"),
    ("exact=maybe", "invalid option --a: exact expects yes or no, got 'exact=maybe'"),
    ("", "invalid option --a: expected KEY=VALUE settings (time, iterations, seed, exact, "
         f"playout, engine, a native engine setting ({TUNABLE})) or gtp:COMMAND, got ''"),
    ("gtp:  ", "invalid option --a: expected a command line after gtp:, got 'gtp:  '"),
    ("gtp:engine 'unclosed", "invalid option --a: cannot read the command line (No closing "
                             "quotation): \"gtp:engine 'unclosed\""),
])  # fmt: skip
def test_bad_settings_are_refused_naming_the_option_and_the_text(text: str, why: str) -> None:
    with pytest.raises(InvalidOptionError) as caught:
        parse_settings(text, "--a")
    assert str(caught.value) == why


@pytest.mark.parametrize("args, line", [
    (["--a", "iterations=5,depth=2"], "error: invalid option --a: unknown setting 'depth' "
     f"(expected time, iterations, seed, exact, playout, engine, a native engine setting "
     f"({TUNABLE}), or gtp:COMMAND), got 'iterations=5,depth=2'"),
    (["--a", "iterations=5,threads=9"], "error: invalid option --a: threads: expected 1..8, "
     "got 9 (in 'iterations=5,threads=9')"),
    (["--b", "gtp:no-such-engine-here --x"], "error: invalid option --b: no such program "
     "'no-such-engine-here': 'gtp:no-such-engine-here --x'"),
    (["--games", "0"], "error: invalid option --games: expected >= 1, got 0"),
    (["--workers", "0"], "error: invalid option --workers: expected 1 to 256, got 0"),
    (["--opening-plies", "40"], "error: invalid option --opening-plies: 40 random plies end "
     "the game from '5/5/5/5/5 b p' (give fewer), got 40"),
    (["--records", "/no/such/folder/games.jsonl"], "error: invalid option --records: "
     "no such folder '/no/such/folder': '/no/such/folder/games.jsonl'"),
])  # fmt: skip
def test_bad_options_exit_2_with_one_line(cli_run, args: list[str], line: str) -> None:
    given = ["--a", "iterations=5", "--b", "iterations=5", "--size", "5", *args]
    status, out, err = cli_run("match", "minefield", *given)
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith(line), err


def test_a_match_between_two_native_engine_settings(cli_run) -> None:
    status, out, err = cli_run("match", "minefield", "--size", "5", "--games", "2",
                               "--a", "iterations=40,exact=no,hash=2,uct_c=0.1",
                               "--b", "iterations=40,exact=no,rave=0")  # fmt: skip
    assert status == 0, err
    assert "A: iterations=40,exact=no,hash=2,uct_c=0.1" in out
    assert "B: iterations=40,exact=no,rave=0" in out


def test_engine_settings_the_game_refuses_exit_2(cli_run) -> None:
    status, out, err = cli_run("match", "candy", "--a", "iterations=5,playout=native",
                               "--b", "iterations=5")  # fmt: skip
    assert status == 2 and len(err.splitlines()) == 1
    assert err.startswith("error: invalid option --a: playout: no native playouts for candy")
    assert err.rstrip().endswith("'iterations=5,playout=native'")


def test_three_or_four_players_are_refused(cli_run) -> None:
    status, out, err = cli_run("match", "candy", "--players", "3", "--a", "iterations=5",
                               "--b", "iterations=5")  # fmt: skip
    assert status == 2
    assert err == ("error: invalid option --players: a match is two players, A against B "
                   "(the score and the Elo difference compare two), got 3\n")


def test_a_gtp_command_that_is_no_engine_of_the_game_fails_before_the_match(cli_run) -> None:
    status, out, err = cli_run("match", "minefield", "--a", "iterations=5", "--b",
                               f"gtp:{BOARDPROOF} gtp minefeld")  # fmt: skip
    assert status == 2 and len(err.splitlines()) == 1
    assert err.startswith("error: invalid option --b: the GTP engine stopped at "
                          "'protocol_version' (error: unknown game: ")


# -- openings ---------------------------------------------------------------------------


def test_openings_are_seeded_and_leave_the_game_going() -> None:
    start = MINEFIELD.start(size=3)
    first = [random_opening(start, 4, seed=7, index=k) for k in range(6)]
    assert first == [random_opening(start, 4, seed=7, index=k) for k in range(6)]
    assert first != [random_opening(start, 4, seed=8, index=k) for k in range(6)]
    for moves in first:
        pos = start
        for move in moves:
            pos = pos.play(move)
        assert len(moves) == 4 and pos.outcome() is None


# -- matches ----------------------------------------------------------------------------


def test_a_match_is_reproducible_and_alternates_colours() -> None:
    settings = small_match()
    once = run_match(settings, progress=False)
    assert once.records == run_match(settings, progress=False).records
    assert once.records == run_match(settings, workers=2, progress=False).records
    records = once.records
    assert [r["match"]["number"] for r in records] == [1, 2, 3, 4]
    assert [r["players"] for r in records] == [["A", "B"], ["B", "A"]] * 2  # A first, second
    # each opening twice, colours swapped; two openings differ
    assert records[0]["moves"][:2] == records[1]["moves"][:2] != records[2]["moves"][:2]
    assert records[2]["moves"][:2] == records[3]["moves"][:2]
    assert {r["match"]["opening"] for r in records} == {2}
    assert {r["match"]["end"] for r in records} == {"rules"}
    # another seed: other openings
    other = run_match(small_match(seed=4), progress=False).records
    assert [r["moves"][:2] for r in other] != [r["moves"][:2] for r in records]
    # the sums agree with the records
    standing = once.standing("A vs B")
    assert standing.points == sum(r["match"]["score_a"] for r in records)
    assert standing.games == 4
    assert once.standing("b vs w").wins == sum(r["result"] == "b" for r in records)


def test_records_are_read_by_the_record_reader(tmp_path: Path) -> None:
    result = run_match(small_match(games=3), progress=False)
    jsonl = tmp_path / "games.jsonl"
    assert write_records(str(jsonl), result.records, 3) == f"{jsonl} (3 games)"
    folder = tmp_path / "games"
    write_records(str(folder), result.records, 3)
    assert sorted(p.name for p in folder.iterdir()) == [
        "game-001.txt", "game-002.txt", "game-003.txt"]
    lines = jsonl.read_text().splitlines()
    for line, record in zip(lines, result.records, strict=True):
        number = record["match"]["number"]
        for text in (line, (folder / f"game-{number:03d}.txt").read_text()):
            replayed = parse_record(MINEFIELD, text)
            assert [str(m.move) for m in replayed.moves] == record["moves"]
            outcome = replayed.positions[-1].outcome()
            assert outcome is not None
            assert MINEFIELD.symbol(next(iter(outcome.winners))) == record["result"]
    assert record_text(result.records[0], 3).startswith(
        "# boardproof match, game 1 of 3 (minefield): b A (iterations=40,exact=no), "
        "w B (iterations=8,exact=no)\n# result: ")


def test_the_command_prints_the_table_and_json(cli_run, tmp_path: Path) -> None:
    args = ["match", "minefield", "--size", "5", "--a", "iterations=40,exact=no", "--b",
            "iterations=8,exact=no", "--games", "4", "--openings-seed", "3"]  # fmt: skip
    status, out, err = cli_run(*args, "--records", str(tmp_path / "g.jsonl"))
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == ("match: minefield from 5/5/5/5/5 b p, 4 games, 2 openings of 2 random "
                        "plies (seed 3) played with colours swapped")
    assert lines[1:3] == ["A: iterations=40,exact=no", "B: iterations=8,exact=no"]
    assert lines[3].split() == ["games", "wins", "draws", "losses", "score", "score", "95%",
                                "elo", "elo", "95%"]  # fmt: skip
    assert [line[:15] for line in lines[4:8]] == ["A vs B         ", "A as b (first) ",
                                                  "A as w (second)", "b vs w         "]
    assert lines[8] == "ended: 4 by the rules"
    assert lines[9] == f"records: wrote {tmp_path / 'g.jsonl'} (4 games)"
    assert "[4/4 games; A +" in err  # progress on stderr
    status, out, err = cli_run(*args, "--json", "--quiet")
    assert status == 0 and err == ""
    data = json.loads(out)
    assert data["games"] == 4 and data["a"] == "iterations=40,exact=no"
    row = data["rows"][0]
    assert row["name"] == "A vs B" and row["wins"] + row["draws"] + row["losses"] == 4
    expected = run_match(small_match(), progress=False).standing("A vs B").to_json()
    assert {key: row[key] for key in expected} == expected


def test_a_match_between_two_boardproof_gtp_processes(cli_run, tmp_path: Path) -> None:
    engine = f"gtp:{BOARDPROOF} gtp minefield --size 4 --engine-seed 2 --iterations"
    records = tmp_path / "gtp"
    status, out, err = cli_run("match", "minefield", "--size", "4", "--a", f"{engine} 30",
                               "--b", f"{engine} 5", "--games", "2", "--workers", "2",
                               "--records", str(records), "--quiet")  # fmt: skip
    assert status == 0, err
    assert "ended: 2 by the rules" in out
    for number, first in ((1, "A"), (2, "B")):
        text = (records / f"game-00{number}.txt").read_text()
        assert f"# boardproof match, game {number} of 2 (minefield): b {first} (gtp:" in text
        replayed = parse_record(MINEFIELD, text)
        assert replayed.positions[-1].outcome() is not None  # a whole game
        assert len(replayed.moves) >= 7


FAKE_ENGINE = """\
import sys
for line in sys.stdin:
    words = line.split()
    ident, command = (words[0], words[1]) if words[0].isdigit() else ("", words[0])
    answer = "resign" if command == "genmove" else ""
    sys.stdout.write(f"={ident} {answer}".rstrip() + "\\n\\n")
    sys.stdout.flush()
    if command == "quit":
        break
"""


def test_a_gtp_engine_that_resigns_loses(tmp_path: Path) -> None:
    script = tmp_path / "resigner.py"
    script.write_text(FAKE_ENGINE)
    settings = small_match(games=2, b=GtpSpec((sys.executable, str(script))))
    result = run_match(settings, progress=False)
    assert [(r["match"]["end"], r["match"]["score_a"]) for r in result.records] == [
        ("resignation", 1.0)] * 2
    assert [(r["result"], r["ending"]) for r in result.records] == [("b", "resign"),
                                                                      ("w", "resign")]
    # B resigns at its first move: in game 2, B moves first after the opening
    assert [len(r["moves"]) for r in result.records] == [3, 2]
    assert result.lines()[-1] == "ended: 2 by resignation"
    parse_record(MINEFIELD, json.dumps(result.records[0]))  # the record still replays


def test_a_gtp_engine_answering_an_illegal_move_stops_the_match(tmp_path: Path) -> None:
    script = tmp_path / "bad.py"
    script.write_text(FAKE_ENGINE.replace('"resign"', '"A1"'))
    settings = small_match(games=1, a=GtpSpec((sys.executable, str(script))))
    with pytest.raises(MatchError) as caught:
        run_match(settings, progress=False)
    message = str(caught.value)
    assert message.startswith("invalid option --a: the GTP engine answered 'A1' to "
                              "'genmove b', not a legal move (")


def test_a_gtp_engine_that_never_answers_is_given_up(monkeypatch) -> None:
    from boardproof.match import players

    monkeypatch.setattr(players, "ANSWER_SECONDS", 0.5)
    monkeypatch.setattr(players, "STOP_SECONDS", 0.5)
    settings = small_match(games=1, b=GtpSpec(("sleep", "60")))
    with pytest.raises(MatchError) as caught:
        run_match(settings, progress=False)
    assert str(caught.value) == ("invalid option --b: the GTP engine gave no answer to "
                                 "'protocol_version' within 0.5 s: 'gtp:sleep 60'")


def test_ctrl_c_prints_the_games_so_far_and_exits_130(tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    status, out, err, took = interrupt_after_progress(
        ["match", "minefield", "--size", "9", "--a", "time=5", "--b", "time=5",
         "--games", "4", "--records", str(records)],
        "[0/4 games; A +0 =0 -0] match: 4 tasks started",
    )  # fmt: skip
    assert took < 30
    assert status == 130, (out, err)
    assert err.splitlines()[-1] == "interrupted" and "Traceback" not in err
    assert out.splitlines()[0].startswith("match: minefield from 9/9/9/9/9/9/9/9/9 b p, "
                                          "0 of 4 games")
    assert "records: wrote" in out and records.read_text() == ""
