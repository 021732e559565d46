"""Fairness maps of Minefield: the engine's self-play win rate after each first point.

For a board size and a variant, every first point of Black (the pie rule off) is played
out by the native MCTS engine against itself (an iteration budget a move, one thread,
seeded, the exact search off), and Black's share of the games is an **estimate** of how
good the point is, with a 95 % Wilson interval (:func:`boardproof.match.elo.wilson_interval`).
The swap policy it implies: White swaps a first stone whose estimated win rate for Black is
above 50 %; a point whose interval holds 50 % is *uncertain*.

First points are pooled into classes by the board symmetries that keep each colour's
edges (:func:`first_point_classes`: the identity, the half turn and the two mirrors). The
transposes and quarter turns exchange Black's and White's edges: with the pie rule off
Black moves first, so a black stone on b1 and one on a2 are not the same opening (on 4x4
the first is a proved White win, the second a proved Black win). The games of a class go
round its points in turn.

Each task is a block of at most :data:`BLOCK` games of one class; a game's engine seeds
come from the campaign seed, the variant, the size, the budget, the class and the game's
number, so the results are the same whatever runs the tasks (in process, a pool, Dask).
Standard games stop at the first ortho-diagonal path (Theorem O: that colour wins under
the orthogonal rule whatever follows, n = 2..26); pinwheel and cartwheel games are played
to the rules' end.

>>> [c for c in first_point_classes(3)]
[('a1', ['a1', 'c1', 'a3', 'c3']), ('b1', ['b1', 'b3']), ('a2', ['a2', 'c2']), ('b2', ['b2'])]
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boardproof import models
from boardproof.inputs import read_text
from boardproof.jobs.checkpoints import JournalCheckpoint
from boardproof.jobs.executor import Executor
from boardproof.match.elo import Standing
from boardproof.match.openings import derive_seed
from boardproof.match.players import EngineSpec, make_player
from boardproof.models.base import InvalidOptionError
from boardproof.models.minefield.board import symmetry_point, tables
from boardproof.models.minefield.native.mcts import VARIANTS
from boardproof.models.minefield.rules import MinefieldPosition

#: games of one class in one task (a task is a block of games: the journal's unit)
BLOCK = 8
#: the symmetries that keep each colour's edges (``board.symmetry_point``: 0 identity,
#: 1 half turn, 2 and 3 the mirrors); 4..7 exchange the colours' edges
COLOUR_KEEPING = (0, 1, 2, 3)
FILES = "abcdefghijklmnopqrstuvwxyz"
#: the campaign's fixed rules: the rulebook's win rule, the pie rule off
WIN = "orthogonal"
#: the engine's settings beside the defaults, fixed for the campaign's journal (its games
#: were played without the learned-pattern prior)
TUNING = {"pattern_prior": "0"}
#: what the journal's header says (a journal of another campaign is refused)
CAMPAIGN = "minefield-fairness"


def point_name(f: int, r: int) -> str:
    """``a1`` for file 0, rank 0."""
    return f"{FILES[f]}{r + 1}"


def first_point_classes(n: int) -> list[tuple[str, list[str]]]:
    """The first points of an n x n board as classes under :data:`COLOUR_KEEPING`:
    (representative, members), in point order (a1, b1, ..., a2, ...)."""
    seen: set[tuple[int, int]] = set()
    classes = []
    for r in range(n):
        for f in range(n):
            if (f, r) in seen:
                continue
            images = {symmetry_point(s, f, r, n) for s in COLOUR_KEEPING}
            seen |= images
            members = sorted(images, key=lambda p: (p[1], p[0]))
            classes.append((point_name(f, r), [point_name(*p) for p in members]))
    return classes


@dataclass(frozen=True)
class Block:
    """One task: games ``first`` to ``first + count - 1`` of one class (plain data)."""

    variant: str
    n: int
    representative: str
    members: tuple[str, ...]
    iterations: int
    seed: int
    first: int
    count: int

    @property
    def key(self) -> str:
        return (f"{self.variant}/{self.n}x{self.n}/{self.representative}/i{self.iterations}"
                f"/g{self.first}-{self.first + self.count - 1}")  # fmt: skip


def blocks(variant: str, n: int, games: int, iterations: int, seed: int) -> list[Block]:
    """The tasks of one size and variant: block k of every class, then block k + 1
    (a run stopped early has about as many games in every class)."""
    classes = first_point_classes(n)
    return [Block(variant, n, rep, tuple(members), iterations, seed, first,
                  min(BLOCK, games - first))
            for first in range(0, games, BLOCK)
            for rep, members in classes]  # fmt: skip


def play_game(variant: str, n: int, point: str, iterations: int, seeds: tuple[int, int],
              ) -> tuple[str, int, str]:  # fmt: skip
    """One self-play game after a black stone on ``point``: (winner ``b``/``w``/``draw``,
    plies after the first stone, how it ended: ``rules``, ``theorem O`` or ``max plies``).

    >>> play_game("standard", 3, "b2", 20, (1, 2))[0]
    'w'
    """
    game = models.get("minefield", variant=variant, win=WIN)
    start = game.start(size=n, pie=False)
    pos = start.play(start.parse_move(point))
    spec = EngineSpec(iterations=iterations, options={"exact": False}, tuning=TUNING)
    players = [make_player(spec, game, label, seed)
               for label, seed in zip(("black", "white"), seeds, strict=True)]  # fmt: skip
    for player in players:
        player.new_game(pos)
    board = tables(n)
    theorem_o = variant == "standard"
    plies, limit, end = 0, 2 * n * n + 4, "rules"
    try:
        while pos.outcome() is None:
            if theorem_o:
                mover = 1 - pos.to_move  # only the side that just moved can have connected
                assert isinstance(pos, MinefieldPosition)
                if board.connected((pos.black, pos.white)[mover], mover, True):
                    return game.symbol(mover), plies, "theorem O"
            if plies >= limit:
                end = "max plies"
                break
            move = players[pos.to_move].genmove()
            players[1 - pos.to_move].play(move)
            pos = pos.play(move)
            plies += 1
    finally:
        for player in players:
            player.close()
    outcome = pos.outcome()
    winners = sorted(outcome.winners) if outcome is not None else []
    return (game.symbol(winners[0]) if len(winners) == 1 else "draw"), plies, end


def play_block(block: Block) -> dict[str, Any]:
    """Play one block: its games as ``[point, winner, plies, end]``, and the CPU and wall
    seconds it took (the machine's: the report files never show them)."""
    start, wall = time.process_time(), time.perf_counter()
    games = []
    for index in range(block.first, block.first + block.count):
        point = block.members[index % len(block.members)]
        seeds = tuple(derive_seed(block.seed, block.variant, block.n, block.iterations,
                                  block.representative, index, colour)
                      for colour in ("b", "w"))  # fmt: skip
        winner, plies, end = play_game(block.variant, block.n, point, block.iterations,
                                       (seeds[0], seeds[1]))  # fmt: skip
        games.append([point, winner, plies, end])
    return {"games": games, "cpu": round(time.process_time() - start, 3),
            "wall": round(time.perf_counter() - wall, 3)}


#: proved winners: variant -> size -> first point -> ``b`` or ``w``
Proved = dict[str, dict[int, dict[str, str]]]


def load_proved(paths: list[str]) -> Proved:
    """Proved winners from opening reports' JSON (pie off, the orthogonal rule), by the
    variant each names (``variant``, the standard glyphs when absent), size and first
    point. A bad file, or two files that disagree on a cell, is refused in one line."""
    found: Proved = {}
    for path in paths:
        try:
            data = json.loads(read_text(path))
            if data.get("pie") is not False or data.get("win_rule", WIN) != WIN:
                raise ValueError("not a pie-off, orthogonal opening table")
            variant = data.get("variant") or "standard"
            if variant not in VARIANTS:
                raise ValueError(f"variant {variant!r}")
            table = found.setdefault(variant, {})
            for size in data["sizes"]:
                cells = table.setdefault(int(size["n"]), {})
                for row in size["openings"]:
                    winner = row.get("winner")
                    if winner not in ("b", "w"):
                        continue
                    if cells.setdefault(row["point"], winner) != winner:
                        raise ValueError(f"{size['n']}x{size['n']} {row['point']} disagrees "
                                         "with an earlier file")
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            why = getattr(error, "strerror", None) or str(error) or type(error).__name__
            raise InvalidOptionError(
                f"invalid option proved: not a Minefield opening report ({why}): {path!r}"
            ) from None
    return found


def policy(standing: Standing) -> dict[str, Any]:
    """Black's win rate, its interval and the swap it implies (draws count half).

    >>> policy(Standing(wins=30, losses=10))["swap"], policy(Standing(wins=6, losses=4))
    (True, {'score': 0.6, 'interval': [0.3127, 0.8318], 'swap': True, 'certain': False})
    """
    low, high = standing.score_interval
    return {"score": round(standing.score, 4), "interval": [round(low, 4), round(high, 4)],
            "swap": standing.score > 0.5, "certain": not low <= 0.5 <= high}  # fmt: skip


def size_report(variant: str, n: int, games: int, iterations: int,
                results: dict[str, dict[str, Any]], seed: int,
                proved: dict[str, str]) -> dict[str, Any]:  # fmt: skip
    """One map: every class's games so far, its estimate and policy, proved cells."""
    classes = []
    played = cpu = 0.0
    plies: list[int] = []
    ends: dict[str, int] = {}
    for rep, members in first_point_classes(n):
        standing = Standing()
        for block in blocks(variant, n, games, iterations, seed):
            if block.representative != rep or block.key not in results:
                continue
            result = results[block.key]
            cpu += result["cpu"]
            for _point, winner, length, end in result["games"]:
                standing = standing.add({"b": 1.0, "w": 0.0}.get(winner, 0.5))
                plies.append(length)
                ends[end] = ends.get(end, 0) + 1
        played += standing.games
        found = {p: proved[p] for p in members if p in proved}
        classes.append({
            "representative": rep, "points": members, "games": standing.games,
            "black_wins": standing.wins, "white_wins": standing.losses,
            "draws": standing.draws, **policy(standing),
            "proved": found or None,
        })  # fmt: skip
    swaps = [c for c in classes if c["games"] and c["swap"]]
    return {
        "n": n, "variant": variant, "iterations": iterations, "games_per_class": games,
        "games": int(played), "games_asked": games * len(classes),
        "complete": played == games * len(classes),
        "classes": classes,
        "swap_points": sum(len(c["points"]) for c in swaps),
        "uncertain_points": sum(len(c["points"]) for c in classes
                                if c["games"] and not c["certain"]),
        "mean_plies": round(sum(plies) / len(plies), 1) if plies else None,
        "ends": dict(sorted(ends.items())),
        "cpu_seconds": round(cpu, 1),  # the machine's: not written to the report files
    }  # fmt: skip


@dataclass(frozen=True)
class Campaign:
    """What a fairness run plays: sizes, variants, games and iterations per size, seed."""

    sizes: tuple[int, ...]
    variants: tuple[str, ...]
    games: dict[int, int]
    iterations: dict[int, int]
    seed: int = 0

    def tasks(self) -> list[Block]:
        """Size by size (smallest first), each variant in turn."""
        return [block for n in self.sizes for variant in self.variants
                for block in blocks(variant, n, self.games[n], self.iterations[n], self.seed)]

    def describe(self) -> dict[str, Any]:
        """The settings as the report records them."""
        return {
            "sizes": list(self.sizes), "variants": list(self.variants),
            "games_per_class": {str(n): self.games[n] for n in self.sizes},
            "iterations_per_move": {str(n): self.iterations[n] for n in self.sizes},
            "seed": self.seed,
        }  # fmt: skip


def journal_header(seed: int) -> dict[str, Any]:
    """What a journal's header holds: a journal of other settings is refused (the sizes,
    budgets and games are in the task keys: a campaign grows in the same journal)."""
    return {"campaign": CAMPAIGN, "seed": seed, "block": BLOCK, "win": WIN, "pie": False,
            "engine": "native MCTS, 1 thread, exact search off"}  # fmt: skip


def run_campaign(
    campaign: Campaign,
    executor: Executor,
    *,
    checkpoint: str | None,
    proved: Proved,
    progress: bool = True,
    stop_after: float | None = None,
) -> dict[str, Any]:
    """Play the campaign's games (resuming from ``checkpoint``) and build the report.

    ``stop_after``: start no task after this many seconds (the report then says what is
    played; the same command resumes from the journal).
    """
    journal = JournalCheckpoint(checkpoint, journal_header(campaign.seed))
    tasks = [(block.key, block) for block in campaign.tasks()]
    begun = time.monotonic()
    admit: Callable[[str], bool] | None = None
    if stop_after is not None:
        limit = stop_after

        def admit(_key: str) -> bool:
            return time.monotonic() - begun < limit

    tally = {"b": 0, "w": 0}

    def seen(_key: str, result: dict[str, Any]) -> None:
        for game in result["games"]:
            if game[1] in tally:
                tally[game[1]] += 1

    def status(done: int) -> str:
        return f"{done}/{len(tasks)} blocks; Black {tally['b']}, White {tally['w']}"

    results = executor.run(play_block, tasks, checkpoint=journal, progress=progress,
                           description="fairness", admit=admit, on_result=seen,
                           status=status)  # fmt: skip
    sizes = [size_report(variant, n, campaign.games[n], campaign.iterations[n], results,
                         campaign.seed, proved.get(variant, {}).get(n, {}))
             for n in campaign.sizes for variant in campaign.variants]  # fmt: skip
    return {
        "game": "minefield",
        "title": "Minefield fairness maps (estimates)",
        "estimates": True,
        "question": "one black stone on the point, White to move, no swap: the share of "
                    "self-play games Black wins (an estimate, not a proof)",
        "win_rule": WIN, "pie": False,
        "engine": "native MCTS (boardproof match's engine player), 1 thread, seeded, "
                  "exact search off; the same settings for both sides",
        "settings": campaign.describe(),
        "interval": "95 % Wilson score interval (boardproof.match.elo), draws count half",
        "policy": "swap when Black's estimated win rate is above 50 %; uncertain when the "
                  "interval holds 50 %",
        "complete": all(size["complete"] for size in sizes),
        "sizes": sizes,
    }  # fmt: skip


def timing(report: dict[str, Any]) -> list[str]:
    """The measured speed of each map (CPU seconds of its games: machine-dependent, so
    printed, never written to the report files).

    >>> timing({"sizes": [{"n": 7, "variant": "standard", "games": 60, "cpu_seconds": 30.0}]})
    ['7x7 standard: 60 games in 30.0 CPU s (120.0 games per CPU minute)']
    """
    lines = []
    for size in report["sizes"]:
        cpu, games = size["cpu_seconds"], size["games"]
        rate = f" ({games / cpu * 60:.1f} games per CPU minute)" if cpu > 0 else ""
        lines.append(f"{size['n']}x{size['n']} {size['variant']}: {games} games in "
                     f"{cpu:.1f} CPU s{rate}")
    return lines
