"""Compact puzzle proofs (version 2): the winner's strategy in place of the proof tree.

Round trips (tree -> strategy -> checked -> tree) on puzzles of every game that has a proof,
the rules-only checker against tampered strategies, ``puzzle check`` on a file mixing both
forms, ``puzzle compact`` and its bad input.
"""

from __future__ import annotations

import base64
import copy
import json
import os
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest

from boardproof import models
from boardproof.puzzles import PuzzleError
from boardproof.puzzles.check import check_puzzle, forced_win
from boardproof.puzzles.compact import (
    COMPACT_ABOVE,
    compact,
    expand_puzzle,
    is_compact,
    proof_phrase,
    proof_size,
    ship,
)
from boardproof.puzzles.generate import generate, proof_line
from boardproof.puzzles.rating import rate
from boardproof.puzzles.store import FORMAT, VERSION, VERSION_COMPACT, read_puzzles, write_puzzles
from boardproof.solvers.proof import build_proof, check_proof
from boardproof.solvers.strategy import (
    StrategyError,
    check_strategy,
    expand,
    from_proof,
    pack,
    unpack,
)

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def minefield_puzzles() -> list[dict[str, Any]]:
    """Three 5x5-7x7 wins in 5 (trees of 36, 82 and 94 positions: shipped as trees)."""
    return generate("minefield", 3, seed=3, progress=False).puzzles


@pytest.fixture(scope="module")
def carpniches_puzzle() -> dict[str, Any]:
    """A win in 5 whose tree has 363 positions: the generator ships it compact."""
    return generate("carpniches", 1, seed=5, progress=False).puzzles[0]


@pytest.fixture(scope="module")
def candy_puzzle() -> dict[str, Any]:
    return generate("candy", 1, seed=1, progress=False).puzzles[0]


def _root(puzzle: dict[str, Any]) -> Any:
    game = models.get(puzzle["game"], **(puzzle.get("options") or {}))
    return game.parse_position(puzzle["position"])


def _tree_puzzles(minefield_puzzles: list[dict[str, Any]], carpniches_puzzle: dict[str, Any],
                  candy_puzzle: dict[str, Any]) -> list[dict[str, Any]]:  # fmt: skip
    fixtures = [p for name in ("15x15", "19x19")
                for p in read_puzzles(DATA / f"puzzle-minefield-{name}.jsonl")]  # fmt: skip
    return [*minefield_puzzles, *fixtures, expand_puzzle(carpniches_puzzle), candy_puzzle]


def test_round_trip_on_every_game(minefield_puzzles, carpniches_puzzle, candy_puzzle) -> None:
    trees = _tree_puzzles(minefield_puzzles, carpniches_puzzle, candy_puzzle)
    assert {p["game"] for p in trees} == {"minefield", "carpniches", "candy"}
    for tree in trees:
        assert tree["version"] == VERSION and check_puzzle(tree).ok
        small = compact(tree)
        assert small["version"] == VERSION_COMPACT and "proof" not in small
        assert list(small) == [("strategy" if k == "proof" else k) for k in tree]
        verdict = check_puzzle(small)
        assert verdict.ok, (tree["id"], verdict.message)
        assert f"{small['strategy']['positions']} positions" in verdict.message
        # the strategy meets the tree's positions, and is much smaller
        assert small["strategy"]["positions"] == len(tree["proof"]["nodes"])
        assert len(json.dumps(small["strategy"])) < len(json.dumps(tree["proof"]))
        # back to a tree that the proof checker accepts, and to the same strategy again
        again = expand_puzzle(small)
        assert again["version"] == VERSION and check_puzzle(again).ok
        assert check_proof(again["proof"]).nodes == small["strategy"]["positions"]
        assert compact(again) == small


def test_a_three_player_win() -> None:
    """Candy Conquest with 3 players (mined from self-play, shipped compact): both other
    players' moves are regenerated."""
    (puzzle,) = read_puzzles(DATA / "puzzle-candy-3p.jsonl")
    assert is_compact(puzzle) and _root(puzzle).num_players == 3 and puzzle["plies"] == 4
    assert check_puzzle(puzzle).ok
    tree = expand_puzzle(puzzle)
    assert check_proof(tree["proof"]).nodes == puzzle["strategy"]["positions"] == 751
    assert check_puzzle(tree).ok and compact(tree) == puzzle
    with pytest.raises(StrategyError, match=r"^strategy: after \S+ \S+ \S+: the line is longer"):
        check_strategy(_root(puzzle), _root(puzzle).to_move, unpack(puzzle["strategy"]), 3)


def test_the_generator_ships_large_trees_compact(carpniches_puzzle, minefield_puzzles) -> None:
    assert is_compact(carpniches_puzzle) and proof_size(carpniches_puzzle) > COMPACT_ABOVE
    assert check_puzzle(carpniches_puzzle).ok
    for puzzle in minefield_puzzles:  # small trees stay readable
        assert not is_compact(puzzle) and 0 < proof_size(puzzle) <= COMPACT_ABOVE
        assert ship(puzzle) is puzzle
        assert is_compact(ship(puzzle, above=0))
    assert proof_phrase(carpniches_puzzle).startswith("a compact strategy of ")


@pytest.mark.long
def test_mined_13x13_puzzles() -> None:
    """Self-play games on 13x13 mined: every puzzle is shipped compact, and checks in both
    forms."""
    from boardproof.match.selfplay import SelfPlaySettings, play_game
    from boardproof.puzzles.mining import GameLine, Mining, mine_game, mining_settings

    settings = SelfPlaySettings("minefield", {}, {"size": 13}, games=2, seed=1,
                                iterations=(3, 50))  # fmt: skip
    found = []
    for index in range(2):
        record = play_game((settings, index))
        line = GameLine({"record": f"g{index}"}, models.get("minefield").parse_position(
            record["start"]), tuple(record["moves"]))  # fmt: skip
        found += mine_game(line, mining_settings("minefield"), Mining(depth=40, per_game=3))[
            "puzzles"
        ]
    assert found
    for puzzle in found:
        assert is_compact(puzzle)  # the miner ships every puzzle compact
        tree = expand_puzzle(puzzle) if is_compact(puzzle) else puzzle
        small = ship(tree, above=0)
        assert check_puzzle(tree).ok and check_puzzle(small).ok
        assert len(json.dumps(small)) < len(json.dumps(tree))


def test_score_puzzles_have_no_proof_to_compact() -> None:
    puzzle = generate("collexion", 1, seed=1, progress=False).puzzles[0]
    assert ship(puzzle, above=0) is puzzle and proof_size(puzzle) == 0
    with pytest.raises(PuzzleError, match="^cannot compact puzzle 'collexion-1-0': not a "):
        compact(puzzle)
    assert not check_puzzle({**puzzle, "version": VERSION_COMPACT}).ok


# ---------------------------------------------------------------------------
# tampered strategies: rejected, one line naming the field
# ---------------------------------------------------------------------------


def _with_tokens(puzzle: dict[str, Any], tokens: list[str]) -> dict[str, Any]:
    bad = copy.deepcopy(puzzle)
    bad["strategy"] = pack(tokens, puzzle["strategy"]["positions"])
    return bad


def _fails(puzzle: dict[str, Any], start: str) -> str:
    verdict = check_puzzle(puzzle)
    assert not verdict.ok
    assert verdict.message.startswith(start), verdict.message
    assert "\n" not in verdict.message
    return verdict.message


@pytest.fixture(scope="module")
def win_in_3() -> dict[str, Any]:
    """The 15x15 fixture (Black wins in 3), compact."""
    return compact(read_puzzles(DATA / "puzzle-minefield-15x15.jsonl")[0])


def test_wrong_winner_move(win_in_3: dict[str, Any]) -> None:
    tokens = unpack(win_in_3["strategy"])
    pos = _root(win_in_3)
    player = pos.to_move
    # token 2 is the winner's move after the solution and the first reply in the rules' order
    after = pos.play(pos.parse_move(tokens[0]))
    after = after.play(after.legal_moves()[0])
    assert str(after.parse_move(tokens[1])) == tokens[1]
    slow = next(m for m in after.legal_moves()
                if str(m) != tokens[1] and not forced_win(after.play(m), player, 1))  # fmt: skip
    message = _fails(_with_tokens(win_in_3, [tokens[0], str(slow), *tokens[2:]]), "strategy: ")
    assert "longer than 3 plies" in message or "token" in message
    # an illegal move (an occupied point), a token that is no move
    legal = {str(m) for m in after.legal_moves()}
    taken = next(f"{c}{r}" for c in "abcdefghijklmno" for r in range(1, 16)
                 if f"{c}{r}" not in legal)  # fmt: skip
    _fails(_with_tokens(win_in_3, [tokens[0], taken, *tokens[2:]]), "strategy: after ")
    _fails(_with_tokens(win_in_3, [tokens[0], "zz99", *tokens[2:]]), "strategy: after ")


def test_missing_reply_and_leftovers(win_in_3: dict[str, Any]) -> None:
    tokens = unpack(win_in_3["strategy"])
    message = _fails(_with_tokens(win_in_3, tokens[:-1]), "strategy: after ")
    assert f"token {len(tokens)} missing" in message
    message = _fails(_with_tokens(win_in_3, tokens[:1] + tokens[2:]), "strategy: ")
    _fails(_with_tokens(win_in_3, [*tokens, tokens[-1]]), "strategy: 1 token(s) left over")
    _fails(_with_tokens(win_in_3, [tokens[0], "=", *tokens[2:]]),
           "strategy: after ")  # fmt: skip
    assert message


def test_truncated_or_damaged_data(win_in_3: dict[str, Any]) -> None:
    data = win_in_3["strategy"]["data"]
    for cut in (data[:-1], data[:-4], data[: len(data) // 2 // 4 * 4], ""):
        bad = copy.deepcopy(win_in_3)
        bad["strategy"]["data"] = cut
        _fails(bad, "strategy: field 'data' ")
    bad = copy.deepcopy(win_in_3)
    bad["strategy"]["data"] = "not base64!"
    assert "not base64" in _fails(bad, "strategy: field 'data' ")
    raw = base64.b64decode(data)
    bad["strategy"]["data"] = base64.b64encode(raw[:-6] + bytes([raw[-6] ^ 1]) + raw[-5:]).decode()
    _fails(bad, "strategy: field 'data' ")
    bad["strategy"]["data"] = base64.b64encode(zlib.compress(b"i6  a1")).decode()
    _fails(bad, "strategy: field 'data' has an empty token")
    for field, value in (("listed", 999), ("positions", 7), ("format", "x"), ("version", 9),
                         ("encoding", "gzip")):  # fmt: skip
        bad = copy.deepcopy(win_in_3)
        bad["strategy"][field] = value
        _fails(bad, f"strategy: field {field!r} ")
    _fails({k: v for k, v in win_in_3.items() if k != "strategy"}, "strategy: expected a JSON")
    _fails({**win_in_3, "proof": {}}, "proof: a version 2 puzzle carries its proof in ")


def test_win_beyond_the_stated_plies(win_in_3: dict[str, Any]) -> None:
    tokens = unpack(win_in_3["strategy"])
    pos = _root(win_in_3)
    player = pos.to_move
    report = check_strategy(pos, player, tokens, 3)
    assert report.height == 3
    with pytest.raises(StrategyError, match=r"^strategy: after \S+ \S+: the line is longer "):
        check_strategy(pos, player, tokens, 2)
    # a slower second move that still wins: the line goes past the puzzle's 3 plies
    after = pos.play(pos.parse_move(tokens[0]))
    after = after.play(after.legal_moves()[0])
    slow = next(m for m in after.legal_moves()
                if after.play(m).outcome() is None
                and forced_win(after.play(m), player, 2))  # fmt: skip
    child = after.play(slow)
    sub = from_proof(build_proof(child, winner=player, game_name="minefield"), child.game)
    spliced = [tokens[0], str(slow), *sub, *tokens[2:]]
    assert check_strategy(pos, player, spliced, 5).height == 5  # a true win, in 5
    message = _fails(_with_tokens(win_in_3, spliced), "strategy: after ")
    assert "longer than 3 plies" in message


def _handmade(position: str, solution: str) -> dict[str, Any]:
    """A Minefield puzzle built by hand (rating, pv and proof consistent), compact."""
    game = models.get("minefield")
    pos = game.parse_position(position)
    proof = build_proof(pos, game_name="minefield")
    proof["nodes"][0]["moves"] = {solution: proof["nodes"][0]["moves"][solution]}
    pv = proof_line(proof, solution)
    return compact({
        "format": FORMAT, "version": VERSION, "game": "minefield", "options": {},
        "position": pos.fen(), "to_move": game.symbol(pos.to_move), "plies": len(pv),
        "solution": solution, "pv": pv, "decoys": [],
        "rating": rate(len(pv), len(pos.legal_moves()), 0, 1), "proof": proof,
    })  # fmt: skip


def test_second_winning_first_move_and_first_move() -> None:
    # Black completes a column with a1 or with c1: two winning first moves
    puzzle = _handmade("b1b/b1b/3 b -", "a1")
    assert unpack(puzzle["strategy"]) == ["a1"]
    assert _fails(puzzle, "not unique: ") == "not unique: c1 also wins within 1 plies"
    # the strategy's first move must be the solution
    other = _with_tokens(puzzle, ["c1"])
    _fails(other, "strategy: its first move is not the solution a1: ['c1']")


def test_checker_units() -> None:
    game = models.get("minefield")
    pos = game.parse_position("b1b/b1b/3 b -")
    assert check_strategy(pos, pos.to_move, ["a1"], 1).positions == 2
    with pytest.raises(StrategyError, match="^strategy: at the root: '=' for a position not "):
        check_strategy(pos, pos.to_move, ["="], 1)
    with pytest.raises(StrategyError, match="^strategy: after a1: '=' for a position not "):
        check_strategy(pos, pos.to_move, ["a1="], 1)
    with pytest.raises(StrategyError, match=r"^strategy: at the root: the data ends here"):
        check_strategy(pos, pos.to_move, [], 1)
    with pytest.raises(StrategyError, match=r"^strategy: after a1: the game ends without a "
                                            r"win of w \(winners: b\)$"):  # fmt: skip
        check_strategy(pos, 1 - pos.to_move, [], 3)
    with pytest.raises(StrategyError, match=r"^strategy: field 'positions' is 5, the walk "):
        check_strategy(pos, pos.to_move, ["a1"], 1, positions=5)
    with pytest.raises(StrategyError, match=r"^strategy: expected a JSON object"):
        unpack([])


def test_order_does_not_depend_on_the_hash_seed(tmp_path: Path, carpniches_puzzle) -> None:
    """The replies are the rules' order: the same check in a fresh interpreter with
    another string hash seed."""
    path = tmp_path / "c.jsonl"
    write_puzzles(path, [carpniches_puzzle])
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run([sys.executable, "-c", "from boardproof.cli import main; main()",
                           "puzzle", "check", str(path)], env=env, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "(strategy " in done.stdout


def test_expand_checks_too(win_in_3: dict[str, Any]) -> None:
    pos = _root(win_in_3)
    tokens = unpack(win_in_3["strategy"])
    tree = expand(pos, pos.to_move, tokens, 3, game_name="minefield")
    assert check_proof(tree).nodes == win_in_3["strategy"]["positions"]
    with pytest.raises(StrategyError):
        expand(pos, pos.to_move, tokens[:-1], 3)
    with pytest.raises(PuzzleError, match="^cannot expand puzzle 'minefield-15x15-fixture': "
                                          "strategy: "):  # fmt: skip
        expand_puzzle(_with_tokens(win_in_3, tokens[:-1]))


def test_site_pages_of_a_compact_puzzle(tmp_path: Path, carpniches_puzzle) -> None:
    """The page plays the main line (no proof in it); its puzzle file is the compact puzzle."""
    from boardproof.reports.site import write_site

    day = "2026-12-05"
    write_site(tmp_path, [day], ["carpniches"], {f"carpniches {day}": {**carpniches_puzzle,
                                                                      "date": day}})  # fmt: skip
    page = (tmp_path / day / "carpniches.html").read_text()
    entries, positions = (carpniches_puzzle["strategy"][k] for k in ("listed", "positions"))
    assert f"certified by a compact strategy of {entries} entries covering {positions} " in page
    assert carpniches_puzzle["strategy"]["data"] not in page
    (shipped,) = read_puzzles(tmp_path / day / "carpniches.jsonl")
    assert is_compact(shipped) and check_puzzle(shipped).ok


# ---------------------------------------------------------------------------
# the command line
# ---------------------------------------------------------------------------


def test_check_a_file_mixing_both_forms(cli_run, tmp_path: Path, minefield_puzzles,
                                        carpniches_puzzle, win_in_3) -> None:  # fmt: skip
    path = tmp_path / "mixed.jsonl"
    write_puzzles(path, [minefield_puzzles[0], carpniches_puzzle, win_in_3])
    status, out, _ = cli_run("puzzle", "check", str(path))
    assert status == 0, out
    lines = out.splitlines()
    assert "(proof 36 positions, " in lines[0] and "(strategy " in lines[1]
    assert lines[-1] == "3 puzzles checked: 3 ok, 0 failed"
    bad = _with_tokens(win_in_3, unpack(win_in_3["strategy"])[:-1])
    write_puzzles(path, [minefield_puzzles[0], bad])
    status, out, _ = cli_run("puzzle", "check", str(path))
    assert status == 1 and out.splitlines()[1].startswith("FAIL  minefield-15x15-fixture: "
                                                          "strategy: after ")  # fmt: skip


def test_compact_command(cli_run, tmp_path: Path, minefield_puzzles) -> None:
    trees = tmp_path / "trees.jsonl"
    write_puzzles(trees, minefield_puzzles)
    small = tmp_path / "small.jsonl"
    status, out, err = cli_run("puzzle", "compact", str(trees), "--out", str(small))
    assert status == 0, err
    assert out.startswith("3 of 3 puzzles compacted (") and out.endswith(f"wrote {small}\n")
    assert all(is_compact(p) for p in read_puzzles(small))
    status, out, _ = cli_run("puzzle", "check", str(small))
    assert status == 0 and out.endswith("3 puzzles checked: 3 ok, 0 failed\n")
    back = tmp_path / "back.jsonl"
    status, out, _ = cli_run("puzzle", "compact", str(small), "--expand", "--out", str(back))
    assert status == 0 and out.startswith("3 of 3 puzzles expanded (")
    assert [check_proof(p["proof"]).nodes for p in read_puzzles(back)] == [
        len(p["proof"]["nodes"]) for p in minefield_puzzles
    ]


def test_compact_command_bad_input(cli_run, tmp_path: Path, minefield_puzzles,
                                   win_in_3) -> None:  # fmt: skip
    def fails(*args: str) -> str:
        status, out, err = cli_run("puzzle", "compact", *args)
        assert status == 2 and out == "", (status, out, err)
        assert err.count("\n") == 1 and err.startswith("error: "), err
        return err

    assert "cannot read" in fails(str(tmp_path / "none.jsonl"), "--out", str(tmp_path / "o"))
    broken = copy.deepcopy(minefield_puzzles[0])
    broken["proof"]["nodes"][1]["moves"].popitem()
    path = tmp_path / "broken.jsonl"
    write_puzzles(path, [broken])
    assert "cannot compact puzzle 'minefield-3-0': strategy: " in fails(
        str(path), "--out", str(tmp_path / "o.jsonl")
    )
    write_puzzles(path, [_with_tokens(win_in_3, ["i6"])])
    assert "cannot expand puzzle 'minefield-15x15-fixture': strategy: " in fails(
        str(path), "--expand", "--out", str(tmp_path / "o.jsonl")
    )
    fails(str(path), "--out", str(tmp_path / "no-such-folder" / "o.jsonl"))
    path.write_text("not json\n")
    assert "invalid puzzle file: line 1 is not JSON" in fails(
        str(path), "--out", str(tmp_path / "o.jsonl")
    )
