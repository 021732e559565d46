"""The engine ladder: today's engine against an old commit's, game after game, with Elo.

The old build is a commit of this repository (default :data:`BASE`, the commit before the
engine issue's first change), checked out in a git worktree and compiled in place
(``same_outputs.build``); it stays in ``/tmp/boardproof-ladder-<commit>`` for later rows.
Each engine runs in its own process (``ladder_player.py`` with its build on ``PYTHONPATH``)
and thinks through its build's ``analyse``, one thread, ``--seconds`` a move (the old one
``--old-seconds``). Openings are seeded: Black's and White's first stones at random (pie
off), each opening played twice with the colours swapped. Games run ``--workers`` at a time.

    .venv/bin/python benchmarks/ladder.py --size 9 --games 100 --seconds 1 \\
        --log benchmarks/ladder-9x9.jsonl

Carpniches and 2-player Candy Conquest play the same way with ``--game carpniches`` or
``--game candy`` (no ``--size``): the opening is two seeded random plies, each played twice
with the colours swapped, and a game longer than :data:`OTHER_GAMES`' ply cap is a draw.
``--new-tree DIR`` takes the new engine from a build folder made by hand (a snapshot of a
working tree with its C extensions compiled, see :func:`snapshot`) instead of a commit;
its log lines name the folder's ``.label``.

    .venv/bin/python benchmarks/ladder.py --game carpniches --games 100 --seconds 1 \\
        --log benchmarks/ladder-carpniches-1s-vs-1s.jsonl

Every game is a JSON line of ``--log`` (the opening, the colours, the moves, the winner);
a run with the same log resumes, skipping the games it holds. The summary gives the new
engine's score with its 95 % Wilson interval and the Elo difference with its interval.
Ctrl-C stops after the games in play are written (exit 130, ``interrupted``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

#: the commit before the engine issue's (#29) first change: "today's engine"
BASE = "ba366d7"
PLAYER = ROOT / "benchmarks" / "ladder_player.py"


def old_build(commit: str) -> Path:
    """The worktree of ``commit`` with its C extensions compiled (made once; the new
    engine is a commit too, so that edits in the working tree cannot change a run)."""
    from same_outputs import build

    folder = Path(f"/tmp/boardproof-ladder-{commit}")
    if not (folder / ".built").exists():
        if folder.exists():
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(folder)], capture_output=True)  # fmt: skip
        build(commit, folder)
        (folder / ".built").write_text(commit)
    return folder


class Player:
    """One engine process."""

    def __init__(self, tree: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(tree), OMP_NUM_THREADS="1")
        self.process = subprocess.Popen([sys.executable, str(PLAYER)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, env=env,
                                        cwd=str(tree))  # fmt: skip

    def ask(self, line: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline().strip()
        if not answer or answer.startswith("?"):
            raise RuntimeError(f"engine answered {answer!r} to {line!r}")
        return answer

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, BrokenPipeError, OSError):
            self.ask("quit")
        self.process.wait(timeout=10)


def opening(size: int, index: int, seed: int) -> list[str]:
    """Black's and White's first stones of opening ``index`` (seeded)."""
    from boardproof.models.minefield.rules import make_game

    rng = random.Random(f"{seed}:{size}:{index}")
    position = make_game().start(size=size, pie=False)
    moves = []
    for _ in range(2):
        move = rng.choice([m for m in position.legal_moves() if m.is_placement])
        moves.append(str(move))
        position = position.play(move)
    return moves


#: the games besides Minefield (``--game``): model options, start options, the ply cap
#: after which a game counts as a draw (Carpniches positions can repeat)
OTHER_GAMES: dict[str, tuple[dict[str, Any], dict[str, Any], int]] = {
    "carpniches": ({}, {}, 400),
    "candy": ({}, {"players": 2}, 400),
}


def other_opening(name: str, index: int, seed: int, undecided: int = 0) -> list[str]:
    """The first two plies of opening ``index`` of a game of :data:`OTHER_GAMES` (seeded
    random legal moves that do not end the game). With ``undecided`` > 0, openings whose
    position the exact solver (``solve``, no time limit) proves within ``undecided`` nodes
    are drawn again from the same generator: a game from a proved position measures
    nothing but who was dealt which side.

    >>> other_opening("candy", 0, 1) == other_opening("candy", 0, 1)
    True
    """
    from boardproof import models
    from boardproof.solvers.api import solve

    options, start, _cap = OTHER_GAMES[name]
    rng = random.Random(f"{seed}:{name}:{index}")
    while True:
        position = models.get(name, **options).start(**start)
        moves = []
        for _ in range(2):
            legal = [m for m in position.legal_moves() if position.play(m).outcome() is None]
            move = rng.choice(legal)
            moves.append(str(move))
            position = position.play(move)
        if not undecided or not solve(position, node_limit=undecided, distance=False).proved:
            return moves


def play_other(job: dict[str, Any]) -> dict[str, Any]:
    """One game of a game of :data:`OTHER_GAMES`; returns its log line."""
    from boardproof import models

    name, new_colour = job["name"], job["new_colour"]
    options, start, cap = OTHER_GAMES[name]
    engines = {"new": Player(Path(job["new_tree"])), "old": Player(Path(job["old_tree"]))}
    seats = ["new", "old"] if new_colour == 0 else ["old", "new"]
    seconds = {"new": job["seconds"], "old": job["old_seconds"]}
    position = models.get(name, **options).start(**start)
    moves: list[str] = []
    try:
        words = [json.dumps(x, separators=(",", ":")) for x in (options, start)]
        for engine in engines.values():
            engine.ask(f"new {name} {words[0]} {words[1]}")
        for move in job["opening"]:
            for engine in engines.values():
                engine.ask(f"play {move}")
            position = position.play(position.parse_move(move))
            moves.append(move)
        while position.outcome() is None and len(moves) < cap:
            mover = seats[position.to_move]
            seed = (job["seed"] * 100_003 + len(moves)) % (1 << 31)
            move = engines[mover].ask(f"genmove {seconds[mover]} {seed}")
            other = seats[1 - position.to_move]
            engines[other].ask(f"play {move}")
            position = position.play(position.parse_move(move))
            moves.append(move)
    finally:
        for engine in engines.values():
            engine.close()
    outcome = position.outcome()
    winners = sorted(outcome.winners) if outcome is not None else []
    score = 0.5 if len(winners) != 1 else float(winners[0] == new_colour)
    extra = {"undecided": job["undecided"]} if job.get("undecided") else {}
    return {**{k: job[k] for k in ("game", "name", "new_colour", "opening", "seconds",
                                    "old_seconds", "base", "new")},
            **extra, "moves": moves, "winners": winners, "new_score": score}  # fmt: skip


def snapshot(folder: Path, label: str) -> Path:
    """Copy this working tree's files (tracked and untracked, not ignored) into ``folder``
    and compile its C extensions there, as :func:`same_outputs.build` does for a commit:
    a build for ``--new-tree`` that later edits cannot change. ``label`` goes to
    ``folder/.label`` (the log's ``new``)."""
    import re
    import shutil
    import sysconfig

    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-co", "--exclude-standard"],
                            capture_output=True, text=True, check=True).stdout.split()
    for name in listed:
        source = ROOT / name
        if source.is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, folder / name)
    include = sysconfig.get_paths()["include"]
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    shared = [str(p) for p in (folder / "boardproof").rglob("native") if p.is_dir()]
    for source in sorted((folder / "boardproof").rglob("*.c")):
        found = re.search(r"PyInit_(\w+)", source.read_text())
        if found is not None:
            flags = ["-O3", "-std=c11", "-shared", "-fPIC", f"-I{include}", f"-I{source.parent}"]
            target = source.parent / (found.group(1) + suffix)
            subprocess.run(["cc", *flags, *(f"-I{path}" for path in shared), str(source), "-o",
                            str(target)], check=True)  # fmt: skip
    (folder / ".label").write_text(label)
    return folder


def play_game(job: dict[str, Any]) -> dict[str, Any]:
    """One game; returns its log line."""
    from boardproof.models.minefield.rules import make_game

    size, new_colour = job["size"], job["new_colour"]
    engines = {"new": Player(Path(job["new_tree"])), "old": Player(Path(job["old_tree"]))}
    seats = ["new", "old"] if new_colour == 0 else ["old", "new"]
    seconds = {"new": job["seconds"], "old": job["old_seconds"]}
    position = make_game().start(size=size, pie=False)
    moves: list[str] = []
    try:
        start = json.dumps({"size": size, "pie": False}, separators=(",", ":"))
        for engine in engines.values():
            engine.ask(f"new minefield {{}} {start}")
        for move in job["opening"]:
            for engine in engines.values():
                engine.ask(f"play {move}")
            position = position.play(position.parse_move(move))
            moves.append(move)
        while position.outcome() is None and len(moves) < 4 * size * size:
            mover = seats[position.to_move]
            seed = (job["seed"] * 100_003 + len(moves)) % (1 << 31)
            move = engines[mover].ask(f"genmove {seconds[mover]} {seed}")
            other = seats[1 - position.to_move]
            engines[other].ask(f"play {move}")
            position = position.play(position.parse_move(move))
            moves.append(move)
    finally:
        for engine in engines.values():
            engine.close()
    outcome = position.outcome()
    winners = sorted(outcome.winners) if outcome is not None else []
    score = 0.5 if len(winners) != 1 else float(winners[0] == new_colour)
    return {**{k: job[k] for k in ("game", "size", "new_colour", "opening", "seconds",
                                    "old_seconds", "base", "new")},
            "moves": moves, "winners": winners, "new_score": score}  # fmt: skip


def wilson(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson interval of a score (draws count half).

    >>> [round(x, 3) for x in wilson(0.9, 100)]
    [0.826, 0.945]
    """
    if games == 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(score * (1 - score) / games + z * z / (4 * games * games))
    half /= 1 + z * z / games
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(score: float) -> float:
    """The Elo difference that gives ``score`` (infinite at 0 and 1).

    >>> round(elo(0.9))
    382
    """
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def tally(lines: list[dict[str, Any]]) -> tuple[int, float, int, int, float]:
    """Games, the new engine's score, its wins and draws, and the mean plies of log lines."""
    games = len(lines)
    score = sum(line["new_score"] for line in lines) / games if games else 0.0
    wins = sum(line["new_score"] == 1 for line in lines)
    draws = sum(line["new_score"] == 0.5 for line in lines)
    plies = sum(len(line["moves"]) for line in lines) / max(games, 1)
    return games, score, wins, draws, plies


def summary(lines: list[dict[str, Any]]) -> str:
    games, score, wins, draws, plies = tally(lines)
    low, high = wilson(score, games)
    return (f"games {games}: new wins {wins}, draws {draws}, losses {games - wins - draws}; "
            f"score {100 * score:.1f}% [{100 * low:.1f}, {100 * high:.1f}]; "
            f"Elo {elo(score):+.0f} [{elo(low):+.0f}, {elo(high):+.0f}]; "
            f"mean plies {plies:.1f}")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="minefield", choices=("minefield", *OTHER_GAMES))
    parser.add_argument("--size", type=int, default=None, help="Minefield's board size")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--old-seconds", type=float, default=None)
    parser.add_argument("--base", default=BASE)
    parser.add_argument("--new", default="HEAD", help="the new engine's commit [HEAD]")
    parser.add_argument("--new-tree", default=None,
                        help="the new engine's build folder (see snapshot), instead of --new")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--undecided", type=int, default=0,
                        help="(not minefield) redraw openings the exact solver proves within "
                             "this many nodes [0: keep every opening]")  # fmt: skip
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--log", required=True)
    args = parser.parse_args()
    if args.game == "minefield" and args.size is None:
        parser.error("--size: required for minefield")
    old_seconds = args.seconds if args.old_seconds is None else args.old_seconds
    tree = old_build(args.base)
    if args.new_tree is not None:
        new_tree = Path(args.new_tree).resolve()
        if not (new_tree / ".label").exists():
            parser.error(f"--new-tree: no build folder (no .label), got {args.new_tree!r}")
        new = (new_tree / ".label").read_text().strip()
    else:
        new = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.new],
                             capture_output=True, text=True, check=True).stdout.strip()
        new_tree = old_build(new)
    log = Path(args.log)
    done = [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []
    done = [line for line in done if line.get("new") == new and line["base"] == args.base]
    if args.game != "minefield":
        done = [line for line in done if line.get("name") == args.game
                and line.get("undecided", 0) == args.undecided]  # fmt: skip
    have = {line["game"] for line in done}
    jobs = []
    for game in range(args.games):
        if game in have:
            continue
        if args.game != "minefield":
            jobs.append({
                "game": game, "name": args.game, "new_colour": game % 2,
                "opening": other_opening(args.game, game // 2, args.seed, args.undecided),
                "seconds": args.seconds, "old_seconds": old_seconds, "base": args.base,
                "old_tree": str(tree), "new": new, "new_tree": str(new_tree),
                "seed": args.seed * 1_000_003 + game, "undecided": args.undecided,
            })  # fmt: skip
            continue
        jobs.append({
            "game": game, "size": args.size, "new_colour": game % 2,
            "opening": opening(args.size, game // 2, args.seed), "seconds": args.seconds,
            "old_seconds": old_seconds, "base": args.base, "old_tree": str(tree),
            "new": new, "new_tree": str(new_tree),
            "seed": args.seed * 1_000_003 + game,
        })  # fmt: skip
    what = f"{args.size}x{args.size}" if args.game == "minefield" else args.game
    print(f"ladder {what} ({new} against {args.base}): {len(done)} games "
          f"in the log, {len(jobs)} to play", file=sys.stderr)  # fmt: skip
    play = play_game if args.game == "minefield" else play_other
    try:
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            futures = [pool.submit(play, job) for job in jobs]
            for future in as_completed(futures):
                line = future.result()
                done.append(line)
                with log.open("a") as out:
                    out.write(json.dumps(line) + "\n")
                print(f"game {line['game']}: new {'won' if line['new_score'] == 1 else 'lost'}"
                      f" in {len(line['moves'])} plies | {summary(done)}", file=sys.stderr)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    print(summary(done))
    return 0


if __name__ == "__main__":
    sys.exit(main())
