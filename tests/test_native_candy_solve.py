"""The native Candy Conquest search behind ``solve``: equal to the Python search (value,
winner, distance; a legal best move and line that keep the distance), with and without
symmetric table keys, budgets, the progress hook, the CLI, proofs and the puzzle filter."""

from __future__ import annotations

import json
import random

import pytest
from test_candy import PASS_POSITION, STUCK_LINE
from test_native_candy import near_end_positions

from boardproof.models.candy import native
from boardproof.models.candy import rules as model
from boardproof.puzzles import generate as gen
from boardproof.puzzles.generate import win_within
from boardproof.solvers.api import solve
from boardproof.solvers.common import Budget, Stop
from boardproof.solvers.native.hook import EVERY, live_nodes
from boardproof.solvers.search import AlphaBeta

pytestmark = pytest.mark.skipif(not native.available(), reason="C module not built")
GAME = model.make_game()


def near_end(players: int, games: int, seed: int, backs: int) -> list[model.CandyPosition]:
    """Positions 1 to ``backs`` plies before the end of seeded random games."""
    return near_end_positions(players, games, seed, backs)


def check_line(pos: model.CandyPosition, winner: int, plies: int, pv: list) -> None:
    """``pv`` is legal, ``plies`` long, ends with ``winner``'s line, and each move keeps the
    distance: the winner's moves win in the plies left, the others' put it off longest
    (both checked by the Python search)."""
    assert len(pv) == plies, (pos.fen(), pv)
    here, left = pos, plies
    for move in pv:
        assert move in here.legal_moves(), (here.fen(), move)
        child = here.play(move)
        search = AlphaBeta(child, player=winner)
        assert win_within(search, child, winner, left - 1) == left - 1, (here.fen(), move)
        here, left = child, left - 1
    assert here.outcome() is not None and here.outcome().winners == frozenset((winner,))


def compare(positions: list[model.CandyPosition], plies: int) -> dict[str, int]:
    """Native solve equals the Python solve (alpha-beta) within ``plies`` on each position."""
    seen: dict[str, int] = {}
    for pos in positions:
        if pos.outcome() is not None:
            continue
        expected = solve(pos, method="alphabeta", max_plies=plies)
        found = solve(pos, method="native", max_plies=plies)
        assert found.method == "native"
        got = (found.value, found.winner, found.plies)
        assert got == (expected.value, expected.winner, expected.plies), pos.fen()
        assert found.stopped == expected.stopped, pos.fen()
        seen[found.value] = seen.get(found.value, 0) + 1
        if found.value in ("win", "loss"):
            assert found.best_move == found.pv[0]
            check_line(pos, found.winner, found.plies, found.pv)
        elif found.value == "draw":
            assert found.best_move in pos.legal_moves()
        else:
            assert found.best_move is None and found.pv == []
    return seen


@pytest.mark.parametrize("players, games, backs", [(2, 3, 6), (3, 3, 3), (4, 2, 3)])
def test_solve_equals_the_python_search(players: int, games: int, backs: int) -> None:
    seen = compare(near_end(players, games, 500 + players, backs), 3)
    assert seen.get("win", 0) + seen.get("loss", 0) >= 1 and len(seen) >= 2, seen


@pytest.mark.long
@pytest.mark.parametrize("players, games, plies", [(2, 30, 3), (2, 8, 4), (3, 16, 3),
                                                   (4, 40, 3)])  # fmt: skip
def test_solve_equals_the_python_search_on_hundreds(players: int, games: int, plies: int) -> None:
    seen = compare(near_end(players, games, 700 + 10 * players + plies, 8), plies)
    assert sum(seen.values()) >= 60 and len(seen) >= 3, seen


def test_draws_where_nobody_can_place() -> None:
    """Positions of the line that ends with nobody able to place: draws, as Python says."""
    line = [GAME.parse_position(PASS_POSITION)]
    for text in STUCK_LINE:
        line.append(line[-1].play(text))
    positions = line[-6:-1]
    seen = compare(positions, 6)
    assert seen.get("draw", 0) >= 2, seen
    unbounded = solve(positions[-1], method="native")
    assert unbounded.value == "draw" and unbounded.best_move in positions[-1].legal_moves()


def test_unbounded_solve_finds_the_same_distances() -> None:
    for pos in near_end(2, 2, 31, 5) + near_end(3, 1, 32, 5):
        bounded = solve(pos, method="native", max_plies=3)
        if bounded.value in ("win", "loss"):
            found = solve(pos, node_limit=2_000_000)
            assert found.method == "auto:native"
            assert (found.value, found.winner, found.plies) == (
                bounded.value, bounded.winner, bounded.plies)  # fmt: skip
            assert found.pv == bounded.pv


def early(players: int, games: int, seed: int, plies: int) -> list[model.CandyPosition]:
    """The first ``plies`` positions of seeded random games (boards with symmetric images
    among the positions a search meets)."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        pos = GAME.start(players=players)
        for _ in range(plies):
            found.append(pos)
            pos = pos.play(rng.choice(pos.legal_moves()))
    return found


def test_symmetry_changes_no_answer() -> None:
    """Values with and without symmetric keys are equal (every player as the attacker, and
    the others' side), on positions near the end and from the start, and on an image of
    each; from the start, symmetry saves nodes."""
    nodes = {True: 0, False: 0}
    rng = random.Random(5)
    for players in (2, 3, 4):
        for pos in near_end(players, 1, 40 + players, 6) + early(players, 1, 50 + players, 3):
            if pos.outcome() is not None:
                continue
            raw = native._columns(pos.cols)
            plies = 3 if len(pos.legal_moves()) > 100 else 4
            for attacker in (*range(players), *(-1 - p for p in range(players))):
                answers = set()
                for symmetry in (True, False):
                    found = native._native.win_within(
                        raw, pos.to_move, players, attacker, plies, 16, 0, 0.0, False, symmetry
                    )
                    answers.add((found[0], found[4]))
                    nodes[symmetry] += found[1] if plies == 3 else 0
                assert len(answers) == 1, (pos.fen(), attacker)
            image = pos.transform(rng.randrange(1, 8))
            expected = solve(pos, method="native", max_plies=3)
            for symmetry in (True, False):
                found = solve(image, method="native", max_plies=3, symmetry=symmetry)
                assert (found.value, found.plies) == (expected.value, expected.plies)
    assert nodes[True] < nodes[False]


def test_budgets_give_unknown() -> None:
    pos = GAME.start(players=3)
    found = solve(pos, method="native", node_limit=5_000)
    assert found.value == "unknown" and found.stopped == Stop.NODES
    assert "within" in found.note and "budget" in found.note
    answer = native.solve(pos, budget=Budget(0.05))
    assert answer.value == "unknown" and answer.stopped == Stop.TIME


def test_finished_and_refused_positions() -> None:
    line = near_end(2, 1, 9, 1)
    over = line[0].play(line[0].legal_moves()[0])
    while over.outcome() is None:
        over = over.play(over.legal_moves()[0])
    assert solve(over, method="native").value in ("win", "loss", "draw")
    with pytest.raises(Exception, match="game is over"):
        native.solve(over)


def test_hook_is_called_and_changes_nothing() -> None:
    native.install()
    pos = early(2, 1, 3, 12)[-1]  # 11 plies into a game: 7 plies take more than EVERY nodes
    raw = native._columns(pos.cols)

    def run(hooked: bool) -> tuple[object, list[tuple[int, int]]]:
        seen: list[tuple[int, int]] = []
        args = (raw, pos.to_move, 2, pos.to_move, 7, 16, EVERY + 10, 0.0, False)
        if hooked:
            with live_nodes(lambda nodes, depth: seen.append((nodes, depth))):
                found = native._native.win_within(*args)
        else:
            found = native._native.win_within(*args)
        return found, seen

    plain, none = run(False)
    hooked, seen = run(True)
    assert none == [] and plain == hooked and plain[:2] == (-1, EVERY + 10)
    assert seen == [(EVERY, 7)]

    def stop(nodes: int, depth: int) -> None:
        raise KeyboardInterrupt

    with live_nodes(stop), pytest.raises(KeyboardInterrupt):
        native._native.win_within(raw, pos.to_move, 2, pos.to_move, 7, 16, EVERY + 10, 0.0, False)


def test_cli_solve_and_proof(cli_run, tmp_path) -> None:
    text = ("2Xo,1sO,2So,1xO,2Os/2sO1oX,1Xs1So,1sO,1Ox,2xO/1Sx,2xS,1Os,.,1Sx/1sO,1So2Os,2oS,"
            "2Xs2So,2xS/2Os2Sx1Xs,.,1Sx,1xO,2Sx2Xs1So 2 2")  # fmt: skip
    proof = tmp_path / "proof.json"
    status, out, _ = cli_run("solve", "candy", text, "--method", "native", "--json",
                             "--proof", str(proof))  # fmt: skip
    data = json.loads(out.splitlines()[0])
    assert status == 0 and data["method"] == "native" and data["plies"] == 3
    status, out, _ = cli_run("check-proof", str(proof))
    assert status == 0 and out.startswith("proof OK: 2 wins candy")
    status, out, _ = cli_run("solve", "candy", text, "--max-plies", "1", "--json")
    data = json.loads(out)
    assert data["result"] == "unknown" and data["method"] == "auto:native"
    assert data["note"] == "no forced win for either side within 1 plies"
    status, out, _ = cli_run("solve", "--help")
    assert status == 0 and "Candy Conquest" in " ".join(out.split())


def test_puzzle_filter_rejects_only_what_the_python_searches_reject(monkeypatch) -> None:
    settings = gen.settings_for("candy")
    candidates = []
    rng = gen.Task("candy", 1, 0, settings).rng()
    for _ in range(6):
        start, _ = gen.start_position("candy", rng)
        line = gen.playout(start, rng, settings.greedy)
        if line is not None:
            end = len(line) - 1
            candidates += [line[end - k][0] for k in (3, 5) if end - k >= 0]
    rejected = [pos for pos in candidates if gen.native_rejection(pos, settings) is not None]
    assert len(rejected) >= 2
    monkeypatch.setattr(native, "accepts", lambda position: False)
    for pos in rejected[:4]:
        assert gen.native_rejection(pos, settings) is None
        assert gen.evaluate(pos, settings, "candy", {})[0] is None, pos.fen()


@pytest.mark.parametrize("count, seed", [(1, 4), pytest.param(6, 9, marks=pytest.mark.long)])
def test_puzzles_are_the_same_without_the_native_filter(monkeypatch, count, seed) -> None:
    found = gen.generate("candy", count, seed=seed, progress=False).puzzles
    assert len(found) == count
    monkeypatch.setattr(native, "accepts", lambda position: False)
    assert gen.generate("candy", count, seed=seed, progress=False).puzzles == found


def test_ctrl_c_stops_a_native_solve_with_exit_130() -> None:
    """A real SIGINT to ``boardproof solve candy`` while the C search runs: its progress
    line (the live native node count) first, then exit 130 and ``interrupted``."""
    import os
    import signal
    import subprocess
    import sys
    import time

    env = dict(os.environ, PYTHONUNBUFFERED="1")
    start = GAME.start(players=3).fen()
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardproof.cli", "solve", "candy", start, "--method", "native"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    assert proc.stderr is not None
    line = proc.stderr.readline()  # the first progress line: the search is running
    assert line.startswith("solve candy (method native)"), line
    began = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert time.perf_counter() - began < 20
    assert proc.returncode == 130 and err.strip().endswith("interrupted"), (out, err)
