"""The anytime engine (``boardproof analyse``): speed, match strength, Minefield accuracy.

Three parts, each short enough for one run under the shared CPU lock::

    .venv/bin/python benchmarks/engine.py speed [--seconds S]
    .venv/bin/python benchmarks/engine.py match GAME [--players P] [--games N] [--low I]
        [--high I,J] [--depth D] [--only self|alphabeta] [--log FILE]
    .venv/bin/python benchmarks/engine.py accuracy [--size N] [--sample K] [--seconds S]
        [--stones S] [--min-stones S] [--plain-sample K] [--truth-nodes N]
        [--truth-cache FILE]
    .venv/bin/python benchmarks/engine.py summary LOG...

- ``speed``: MCTS iterations per second (no exact search) from start positions of
  every game and player count; Minefield with the Python and the native playouts.
- ``match GAME [--players P]``: the engine with each ``--high`` budget (iterations per
  move, e.g. ``100,200``) against itself with ``--low``, and the engine with ``--low``
  against the depth-limited alpha-beta of ``solvers/bestturn.py`` (``--depth`` plies,
  paranoid with more than two players: plays a forced win within the depth if there is
  one, avoids moves that lose within it, otherwise a seeded random move; score games:
  best score margin at the horizon). Engine A sits in one seat, B in every other, and A
  takes each seat equally often; start positions are the game's start (Minefield: a 5x5
  board) after seeded random plies (:data:`OPENING_PLIES`; ColleXion: a seeded heap
  instead), every start a different position, and each game gives the players seeds of
  their own. The table counts the distinct games (start and moves) beside the games.
  The score is A's share (a win 1, a shared win or draw 1/k), with its 95 % Wilson
  interval, beside the fair share 1/P. ``--log`` keeps every game (start, seats, moves,
  winners) as a JSON line; ``summary LOG...`` prints the rows again from such logs
  (complete rounds only: a run stopped by its timeout keeps the games it finished).
- ``accuracy``: Minefield positions where the side to move has a winning move (ground
  truth: the native df-pn, :func:`winner`); how often ``analyse`` (``--seconds`` each,
  default 1) plays a winning move, with the exact search first (the real command) and
  MCTS only (``--no-exact``), and who proved each value (the exact step, MCTS-Solver, or nobody).
  ``--size 4``: every undecided position of ``--min-stones``-``--stones`` stones
  (default 0-3; stones, not plies: a pass adds none), one per symmetry class, pie off;
  ``--size 5``: ``--sample`` seeded random positions of 2-12 stones. ``--plain-sample K``
  runs the MCTS-only line on a seeded sample of K of the positions; every rate comes with
  its 95 % Wilson interval.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import platform
import random
import sys
import time
from typing import Any

from boardproof import models
from boardproof.models.base import Position
from boardproof.solvers.analyse import analyse
from boardproof.solvers.bestturn import best_turn
from boardproof.solvers.mcts import MCTS
from boardproof.solvers.playouts import kernel_for
from boardproof.testing.random_play import unfinished_positions


def header() -> None:
    load = os.getloadavg()
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, Python "
          f"{platform.python_version()}, {os.cpu_count()} cores, load "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; command: {' '.join(sys.argv)}")  # fmt: skip


# ---------------------------------------------------------------------------
# speed
# ---------------------------------------------------------------------------

SPEED_CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("minefield 5x5", "minefield", {"size": 5, "pie": False}),
    ("minefield 9x9", "minefield", {"size": 9, "pie": False}),
    ("minefield 13x13", "minefield", {"size": 13, "pie": False}),
    ("minefield 15x15", "minefield", {"size": 15, "pie": False}),
    ("minefield 19x19", "minefield", {"size": 19, "pie": False}),
    ("minefield 26x26", "minefield", {"size": 26, "pie": False}),
    ("carpniches", "carpniches", {}),
    ("candy 2 players", "candy", {"players": 2}),
    ("candy 4 players", "candy", {"players": 4}),
    ("collexion 2 players", "collexion", {"players": 2, "seed": 1}),
    ("collexion 3 players", "collexion", {"players": 3, "seed": 1}),
]


def speed(seconds: float, only: str | None) -> None:
    """Iterations per CPU second. Where a game has native playouts: the Python twin runs
    ``seconds``, then the native kernel runs the same number of iterations (the same
    tree: the twins play the same games), so the ratio compares equal work."""
    header()
    print("| position | playouts | iterations | CPU s | iterations per CPU s | native / python |")
    print("|---|---|---:|---:|---:|---:|")
    for label, game, options in SPEED_CASES:
        if only is not None and only not in label:
            continue
        pos = models.get(game).start(**options)
        count: int | None = None
        rates: dict[str, float] = {}
        for mode in ("python", "native"):
            tree = MCTS(pos, seed=1, playout=mode if kernel_for(pos) else "auto")
            if mode == "native" and tree.kernel is None:
                break
            cpu = time.process_time()
            info = tree.run(seconds=seconds) if count is None else tree.run(iterations=count)
            used = time.process_time() - cpu
            count = info.iterations
            rates[mode] = rate = info.iterations / used
            name = "generic (Python)" if tree.kernel is None else tree.kernel.name
            ratio = f"{rate / rates['python']:.1f}x" if mode == "native" else ""
            print(f"| {label} start | {name} | {info.iterations} | {used:.2f} | {rate:,.0f} | "
                  f"{ratio} |")  # fmt: skip
            sys.stdout.flush()


# ---------------------------------------------------------------------------
# players for the matches
# ---------------------------------------------------------------------------


class EnginePlayer:
    def __init__(self, iterations: int, seed: int) -> None:
        self.iterations = iterations
        self.base = self.seed = seed
        self.name = f"engine {iterations} it"

    def reseed(self, game: int) -> None:
        """A seed of its own for each game (a start played twice gives two games)."""
        self.seed = self.base + 1000 * game

    def choose(self, pos: Position) -> Any:
        found = analyse(pos, iterations=self.iterations, seed=self.seed, exact=False,
                        proof=False, multipv=1)  # fmt: skip
        return found.best_move


class AlphaBetaPlayer:
    """The project's depth-limited alpha-beta (:func:`~boardproof.solvers.bestturn.best_turn`,
    paranoid with more than two players: the others minimise the mover's value; with two
    it is plain minimax): a win within the depth beats everything, a loss within it is
    avoided, 0 at the horizon (score games: the score margin, by ``heuristic_scores()`` at
    the horizon); a seeded random choice among the equal best moves."""

    def __init__(self, depth: int, seed: int) -> None:
        self.depth = depth
        self.base = seed
        self.rng = random.Random(seed)
        self.name = f"alpha-beta depth {depth}"

    def reseed(self, game: int) -> None:
        self.rng = random.Random(self.base + 1000 * game)

    def choose(self, pos: Position) -> Any:
        found = best_turn(pos, max_plies=self.depth, timeout=None)
        top = max(value for _, value in found.root_values)
        best = {name for name, value in found.root_values if value == top}
        return self.rng.choice([m for m in pos.legal_moves() if str(m) in best])


#: start options per game; ``players`` is set by the match
START_OPTIONS: dict[str, dict[str, Any]] = {
    "minefield": {"size": 5, "pie": False},
    "carpniches": {},
    "candy": {},
    "collexion": {},
}
#: seeded random plies before a match game starts (ColleXion: a seeded heap instead);
#: two where one ply has fewer first moves (25, 18) than a match needs starts
OPENING_PLIES = {"minefield": 2, "carpniches": 2, "candy": 1, "collexion": 0}
MAX_PLIES = 200


def play_game(pos: Position, seats: list[Any]) -> tuple[frozenset[int], list[str]]:
    """Play to the end (a draw after ``MAX_PLIES``); returns the winners and the moves."""
    moves: list[str] = []
    while pos.outcome() is None and len(moves) < MAX_PLIES:
        move = seats[pos.to_move].choose(pos)
        moves.append(str(move))
        pos = pos.play(move)
    outcome = pos.outcome()
    return (frozenset() if outcome is None else outcome.winners), moves


def start_positions(
    game: str, count: int, players: int, plies: int | None = None
) -> list[Position]:
    """``count`` distinct start positions (distinct FENs): the game's start after ``plies``
    seeded random moves (default :data:`OPENING_PLIES`; ColleXion: heap seed ``i``), a
    new draw whenever a start repeats.

    >>> starts = start_positions("minefield", 60, 2)
    >>> len({pos.fen() for pos in starts}), start_positions("minefield", 3, 2)[2] == starts[2]
    (60, True)
    """
    plies = OPENING_PLIES[game] if plies is None else plies
    options = dict(START_OPTIONS[game])
    if game in ("candy", "collexion"):
        options["players"] = players
    seen: set[str] = set()
    result: list[Position] = []
    for index in range(count):
        for attempt in range(10_000):
            if game == "collexion":
                options["seed"] = index + attempt * count
            pos = models.get(game).start(**options)
            rng = random.Random(f"{game} {players} {index} {attempt}")
            for _ in range(plies):
                if pos.outcome() is None:
                    pos = pos.play(rng.choice(list(pos.legal_moves())))
            if pos.outcome() is None and pos.fen() not in seen:
                break
        else:
            raise ValueError(f"fewer than {count} distinct starts after {plies} plies")
        seen.add(pos.fen())
        result.append(pos)
    return result


def match(game: str, players: int, a: Any, b: Any, games: int, log: Any = None) -> None:
    """``a`` in one seat, ``b`` in all the others; ``a`` takes every seat equally often
    (game i: seat i mod players, start position i // players, all starts distinct).
    Counts the distinct games (start and moves); ``log``: one JSON line per game."""
    wins_a = shared = lost = 0
    share = 0.0
    plies = 0
    seen: set[tuple[str, ...]] = set()
    starts = start_positions(game, -(-games // players), players)
    start = time.perf_counter()
    for index in range(games):
        pos = starts[index // players]
        seat_a = index % players
        seats = [b] * players
        seats[seat_a] = a
        a.reseed(index)
        b.reseed(index)
        winners, moves = play_game(pos, seats)
        seen.add((pos.fen(), *moves))
        plies += len(moves)
        if winners == {seat_a}:
            wins_a += 1
            share += 1.0
        elif seat_a in winners or not winners:  # a shared win or a draw
            shared += 1
            share += 1.0 / (len(winners) or players)
        else:
            lost += 1
        if log is not None:
            record = {"game": game, "players": players, "index": index, "A": a.name,
                      "B": b.name, "seat_A": seat_a, "start": pos.fen(), "moves": moves,
                      "winners": sorted(winners)}  # fmt: skip
            log.write(json.dumps(record) + "\n")
            log.flush()
        if (index + 1) % players == 0:
            print(f"  {game}: {index + 1}/{games} games, {time.perf_counter() - start:.0f} s",
                  file=sys.stderr)  # fmt: skip
    total = time.perf_counter() - start
    low, high = wilson(round(share), games)
    print(f"| {game} | {players} | {a.name} | {b.name} | {games} | {len(seen)} | {wins_a} | "
          f"{shared} | {lost} | {100 * share / games:.0f}% | {100 * low:.0f}-{100 * high:.0f}% | "
          f"{100 / players:.0f}% | {plies / games:.0f} | {total:.0f} |")  # fmt: skip
    sys.stdout.flush()


def run_matches(game: str, players: int, games: int, low: int, high: list[int],
                depth: int, only: str | None, log: str | None = None) -> None:  # fmt: skip
    """The engine at each budget of ``high`` against itself at ``low`` (``only="self"``),
    and at ``low`` against the alpha-beta (``only="alphabeta"``); both by default."""
    header()
    print("| game | players | A | B (every other seat) | games | distinct games | A wins "
          "| shared or drawn | A lost | A score | 95% interval | fair share | plies/game | s |")
    print("|---|---:|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|")
    with open(log, "a") if log else contextlib.nullcontext() as out:
        if only in (None, "self"):
            for budget in high:
                match(game, players, EnginePlayer(budget, 1), EnginePlayer(low, 2), games, out)
        if only in (None, "alphabeta"):
            match(game, players, EnginePlayer(low, 1), AlphaBetaPlayer(depth, 3), games, out)


def summary(paths: list[str]) -> None:
    """The match rows again from ``--log`` files: per (game, players, A, B), every
    complete round of games (each seat once; a run stopped by its timeout keeps the games
    it finished), with the distinct games and the 95 % Wilson interval."""
    header()
    rows: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.strip():
                    item = json.loads(line)
                    key = (item["game"], item["players"], item["A"], item["B"])
                    rows.setdefault(key, []).append(item)
    print("| game | players | A | B (every other seat) | games | distinct games | A wins "
          "| shared or drawn | A lost | A score | 95% interval | fair share | plies/game |")
    print("|---|---:|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|")
    for (game, players, a, b), items in rows.items():
        items = items[: len(items) // players * players]
        if not items:
            continue
        wins = shared = lost = 0
        share = 0.0
        for item in items:
            winners, seat = set(item["winners"]), item["seat_A"]
            if winners == {seat}:
                wins += 1
                share += 1.0
            elif seat in winners or not winners:
                shared += 1
                share += 1.0 / (len(winners) or players)
            else:
                lost += 1
        games = len(items)
        distinct = len({(item["start"], *item["moves"]) for item in items})
        plies = sum(len(item["moves"]) for item in items) / games
        low, high = wilson(round(share), games)
        print(f"| {game} | {players} | {a} | {b} | {games} | {distinct} | {wins} | {shared} | "
              f"{lost} | {100 * share / games:.0f}% | {100 * low:.0f}-{100 * high:.0f}% | "
              f"{100 / players:.0f}% | {plies:.0f} |")  # fmt: skip


# ---------------------------------------------------------------------------
# accuracy on Minefield positions with a known solution
# ---------------------------------------------------------------------------


#: winners already known, by FEN (``--truth-cache``), and the file that keeps new ones
TRUTH: dict[str, int] = {}
TRUTH_FILE: Any = None


def load_truth(path: str) -> None:
    """Read and then extend the ground-truth cache ``path`` (JSON lines ``{"fen",
    "winner"}``; a line cut short by a stopped run is skipped), so a run resumes."""
    global TRUTH_FILE
    if os.path.exists(path):
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                try:
                    item = json.loads(line)
                except json.JSONDecodeError:
                    continue
                TRUTH[item["fen"]] = item["winner"]
    TRUTH_FILE = open(path, "a", encoding="utf-8")  # noqa: SIM115 - open for the run


#: df-pn nodes allowed per ground-truth question (``--truth-nodes``; 0: no limit)
TRUTH_NODES = 0


def winner(pos: Position) -> int | None:
    """Who wins ``pos`` (Minefield, pie off), exactly: the native df-pn with Theorem O of
    :func:`~boardproof.models.minefield.native.prover.who_wins` (the native alpha-beta with a 20 s
    timeout, used before, was about 20 times slower on the first 5x5 positions and left
    some unknown); None when :data:`TRUTH_NODES` do not settle it."""
    from boardproof.models.minefield.native import prover

    fen = pos.fen()
    if fen not in TRUTH:
        found = prover.who_wins(pos, node_limit=TRUTH_NODES)
        if found.winner is None:
            return None
        TRUTH[fen] = found.winner
        if TRUTH_FILE is not None:
            TRUTH_FILE.write(json.dumps({"fen": fen, "winner": found.winner}) + "\n")
            TRUTH_FILE.flush()
    return TRUTH[fen]


def mover_wins(pos: Position) -> bool | None:
    """Whether the side to move has a forced win (None: not settled)."""
    found = winner(pos)
    return None if found is None else found == pos.to_move


def wins_by(pos: Position, move: Any) -> bool | None:
    """Whether ``move`` keeps a forced win for the side to move (None: not settled)."""
    child = pos.play(move)
    outcome = child.outcome()
    if outcome is not None:
        return pos.to_move in outcome.winners
    found = winner(child)
    return None if found is None else found == pos.to_move


def stones_of(pos: Position) -> int:
    """The stones on a Minefield board (a pass adds none, so plies may be more)."""
    return int(pos.black | pos.white).bit_count()  # type: ignore[attr-defined]


def positions_4x4(stones: int, min_stones: int = 0) -> list[Position]:
    """Every undecided 4x4 position (pie off) of ``min_stones``-``stones`` stones, one per
    symmetry class, in breadth-first order (the order does not depend on the range)."""
    game = models.get("minefield")
    start = game.start(size=4, pie=False)
    seen = {start.canonical()[0]}  # type: ignore[attr-defined]
    frontier = [start]
    result = []
    while frontier:
        nxt = []
        for pos in frontier:
            if pos.outcome() is not None:
                continue
            count = stones_of(pos)
            if min_stones <= count <= stones:
                result.append(pos)
            if count >= stones:
                continue
            for move in pos.legal_moves():
                child = pos.play(move)
                key = child.canonical()[0]  # type: ignore[attr-defined]
                if key not in seen:
                    seen.add(key)
                    nxt.append(child)
        frontier = nxt
    return result


def positions_random(size: int, sample: int, seed: int) -> list[Position]:
    """``sample`` undecided positions of seeded random games of 2-12 plies (pie off)."""
    game = models.get("minefield")
    rng = random.Random(seed)
    return unfinished_positions(lambda: game.start(size=size, pie=False), sample, rng,
                                plies=lambda r: r.randint(2, 12))  # fmt: skip


def wilson(hits: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate ``hits / total`` (as fractions).

    >>> [round(x, 3) for x in wilson(33, 33)]
    [0.896, 1.0]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if total == 0:
        return 0.0, 1.0
    rate = hits / total
    centre = rate + z * z / (2 * total)
    spread = z * math.sqrt(rate * (1 - rate) / total + z * z / (4 * total * total))
    scale = 1 + z * z / total
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def accuracy(size: int, sample: int, seconds: float, seed: int, stones: int,
             plain_sample: int | None, min_stones: int = 0) -> None:  # fmt: skip
    """Per line: the positions, the winning moves played, and who settled the value: the
    exact first step (``method`` ``exact:...``), the tree (``mcts-solver``), or nobody
    (the move came from the visit counts alone)."""
    header()
    if size == 4:
        pool = positions_4x4(stones, min_stones)
        what = f"every undecided position of {min_stones}-{stones} stones"
    else:
        pool = positions_random(size, sample, seed)
        what = f"{sample} from seeded random play (2-12 stones, seed {seed})"
    began = time.perf_counter()
    cases = []
    unsettled = 0
    for done, pos in enumerate(pool, start=1):
        wins = mover_wins(pos)
        unsettled += wins is None
        if wins:
            cases.append(pos)
        if done % 50 == 0:
            print(f"  ground truth: {done}/{len(pool)} positions "
                  f"({time.perf_counter() - began:.0f} s)", file=sys.stderr)  # fmt: skip
    limit = f", {TRUTH_NODES} nodes each" if TRUTH_NODES else ""
    print(f"{size}x{size}: {what}: {len(pool)} positions, {len(cases)} with a winning move, "
          f"{unsettled} not settled and left out (native df-pn{limit}, "
          f"{time.perf_counter() - began:.0f} s)")  # fmt: skip
    print("| board | command | budget | positions with a win | winning move played | rate "
          "| 95% interval | proved by the exact step | proved by MCTS-Solver | not proved "
          "| hits not proved | moves not settled | seconds | CPU s per analyse |")
    print("|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    sys.stdout.flush()
    for exact in (True, False):
        chosen = cases
        if not exact and plain_sample is not None and plain_sample < len(cases):
            chosen = random.Random(seed).sample(cases, plain_sample)
        hits = by_exact = by_tree = open_hits = unknown = 0
        start = time.perf_counter()
        cpu = 0.0
        for done, pos in enumerate(chosen, start=1):
            before = time.process_time()
            found = analyse(pos, seconds=seconds, seed=seed, exact=exact, proof=False)
            cpu += time.process_time() - before
            kept = None if found.best_move is None else wins_by(pos, found.best_move)
            hit = bool(kept)
            hits += hit
            unknown += kept is None and found.best_move is not None
            if found.result == "unknown":
                open_hits += hit
            elif found.method.startswith("exact"):
                by_exact += 1
            else:
                by_tree += 1
            if done % 1000 == 0 or (done % 100 == 0 and len(chosen) < 5000):
                print(f"  {done}/{len(chosen)} positions, {hits} hits "
                      f"({time.perf_counter() - start:.0f} s)", file=sys.stderr)  # fmt: skip
        label = "analyse" if exact else "analyse --no-exact"
        low, high = wilson(hits, len(chosen))
        unproved = len(chosen) - by_exact - by_tree
        print(f"| {size}x{size} | {label} | {seconds:g} s | {len(chosen)} | {hits} | "
              f"{100 * hits / max(len(chosen), 1):.1f}% | {100 * low:.1f}-{100 * high:.1f}% | "
              f"{by_exact} | {by_tree} | {unproved} | {open_hits} | {unknown} | "
              f"{time.perf_counter() - start:.0f} | {cpu / max(len(chosen), 1):.3f} |")  # fmt: skip
        sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="part", required=True)
    p_speed = sub.add_parser("speed")
    p_speed.add_argument("--seconds", type=float, default=3.0)
    p_speed.add_argument("--only", default=None, help="only the cases whose label has this")
    p_match = sub.add_parser("match")
    p_match.add_argument("game", choices=sorted(START_OPTIONS))
    p_match.add_argument("--players", type=int, default=2)
    p_match.add_argument("--games", type=int, default=10)
    p_match.add_argument("--low", type=int, default=100)
    p_match.add_argument("--high", default="400", help="budgets against --low, e.g. 200,400")
    p_match.add_argument("--depth", type=int, default=2)
    p_match.add_argument("--only", choices=("self", "alphabeta"), default=None)
    p_match.add_argument("--log", default=None, help="append one JSON line per game here")
    p_sum = sub.add_parser("summary")
    p_sum.add_argument("logs", nargs="+", help="--log files of match runs")
    p_acc = sub.add_parser("accuracy")
    p_acc.add_argument("--size", type=int, default=5)
    p_acc.add_argument("--sample", type=int, default=100)
    p_acc.add_argument("--seconds", type=float, default=1.0)
    p_acc.add_argument("--seed", type=int, default=1)
    p_acc.add_argument("--stones", type=int, default=3, help="4x4: at most this many stones")
    p_acc.add_argument("--min-stones", type=int, default=0, help="4x4: at least this many")
    p_acc.add_argument("--truth-nodes", type=int, default=0,
                       help="df-pn nodes per ground-truth question (0: no limit)")
    p_acc.add_argument("--truth-cache", default=None,
                       help="keep the ground truth in this JSON Lines file (a re-run resumes)")
    p_acc.add_argument("--plain-sample", type=int, default=None,
                       help="MCTS only (--no-exact) on a seeded sample of this many positions")
    args = parser.parse_args()
    if args.part == "speed":
        speed(args.seconds, args.only)
    elif args.part == "summary":
        summary(args.logs)
    elif args.part == "match":
        high = [int(x) for x in args.high.split(",")]
        run_matches(args.game, args.players, args.games, args.low, high, args.depth, args.only,
                    args.log)  # fmt: skip
    else:
        global TRUTH_NODES
        TRUTH_NODES = args.truth_nodes
        if args.truth_cache:
            load_truth(args.truth_cache)
        accuracy(args.size, args.sample, args.seconds, args.seed, args.stones, args.plain_sample,
                 args.min_stones)  # fmt: skip


if __name__ == "__main__":
    main()
