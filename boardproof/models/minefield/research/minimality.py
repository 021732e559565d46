"""Is each glyph of a variant needed? The smallest dead position of the rules without it.

The designer's claim for the pinwheel set ("Pinwheel: minimal restrictions") is that
no glyph of it can be dropped: the rules without any one of them would allow a dead
position (neither colour can place, nobody has won). For a variant and one of its
glyphs G, :func:`glyph_task` walks the sizes n = 2, 3, ... in order and, for each n,
asks the SAT solver for a board of the *plain* formula with the glyphs of the variant
less G (glyph-free, stuck, neither colour has a path; the crosscut lemma only when the
hard corner is left, the glyph it rests on). A model is a *candidate*: a search for a
legal game of those rules reaching it (:func:`~boardproof.models.minefield.research.
glyph_games.reach_search`) either finds one (a dead position, reported with its game,
which is replayed and checked move by move) or proves it unreachable (a blocking clause
excludes it and the solver is asked again). UNSAT after the exclusions proves that no
dead position exists on that board size; its DRUP proof (the formula plus the blocking
clauses) is checked like the claims' proofs. Sizes up to ``exhaustive_max`` are also
walked exhaustively in the game of the reduced rules, and must agree.

>>> row = glyph_task({"variant": "standard", "glyph": "hard corner", "sizes": [2, 3]})
>>> row["smallest"], row["found"]["board"], row["found"]["line"]
(2, 'wb/bw', ['a1', 'b1', 'b2', 'a2'])
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from boardproof.jobs.executor import Executor
from boardproof.models.minefield.board import BLACK, WHITE
from boardproof.models.minefield.proofs import sat
from boardproof.models.minefield.proofs.glyph_sets import (
    SHORT,
    VARIANT_SETS,
    check_variant,
    set_label,
    without,
)
from boardproof.models.minefield.research.glyph_games import (
    GlyphGame,
    enumerate_dead,
    reach_search,
)
from boardproof.solvers.sat import certify, solving
from boardproof.solvers.sat.child import call_in_child, open_solver

CLAIM = "minefield-minimal"
STATEMENT = (
    "Each glyph of a variant's set is needed: the rules without it (the other glyphs of "
    "the set still forbidden) have a reachable dead position, a position of a legal game "
    "in which neither colour can place and nobody has won. For each glyph: the smallest "
    "board size with such a position, the position and a game reaching it; or, if none "
    "exists for the sizes checked, the glyph is not needed there."
)
#: at most this many unreachable candidates per size before the size is left undecided
MAX_CANDIDATES = 200
#: positions a reachability search may visit before the candidate is left undecided
REACH_LIMIT = 5_000_000
#: certified sizes up to this one are also checked by the slow forward checker
FORWARD_CHECK_MAX = 6


def replay(line: list[str], names: tuple[str, ...], n: int) -> tuple[int, int]:
    """Play ``line`` in the game with the glyphs ``names`` (Black first) and check it:
    every placement legal, every ``pass`` forced (no placement, the opponent has one), no
    win before the end. Returns the final (black, white) bitboards; raises ValueError.

    >>> replay(["a1", "b1", "b2", "a2"], ("2x3 switch",), 2) == replay(
    ...     ["a1", "b1", "b2", "a2"], ("2x3 switch", "2x4 switch"), 2)
    True
    """
    game = GlyphGame(n, names)
    bit_of = {game.name(1 << b): 1 << b for b in range(game.t.full.bit_length())
              if game.t.full >> b & 1}
    black = white = 0
    mover = BLACK
    for k, move in enumerate(line):
        if k and game.won(black, white, 1 - mover):
            raise ValueError(f"move {k + 1} ({move}): the game was already won")
        legal = game.placements(black, white, mover)
        if move == "pass":
            if legal or not game.placements(black, white, 1 - mover):
                raise ValueError(f"move {k + 1}: pass is not forced")
        else:
            bit = bit_of.get(move, 0)
            if not bit & legal:
                raise ValueError(f"move {k + 1} ({move}): not a legal placement")
            if mover == BLACK:
                black |= bit
            else:
                white |= bit
        mover = 1 - mover
    return black, white


def is_dead(black: int, white: int, names: tuple[str, ...], n: int) -> bool:
    """Neither colour can place and nobody has an orthogonal path."""
    game = GlyphGame(n, names)
    return not any(game.placements(black, white, c) or game.won(black, white, c)
                   for c in (BLACK, WHITE))


def _options(names: tuple[str, ...]) -> sat.Options:
    lemmas = ("crosscut",) if "hard corner" in names else ()
    return sat.Options(lemmas=lemmas, glyph_set=names, closed_in_stones=True)


def size_task(variant: str, glyph: str, n: int, *, solver: str = "cadical195",
              proof_file: str | None = None, exhaustive_max: int = 3) -> dict[str, Any]:
    """One board size: a dead position of the rules without ``glyph``, or a proof of none."""
    names = without(variant, glyph)
    options = _options(names)
    enc = sat.encode(n, options)
    began = time.perf_counter()
    excluded: list[dict[str, Any]] = []
    blocks: list[list[int]] = []
    row: dict[str, Any] = {"n": n, "variables": enc.nvars, "clauses": len(enc.clauses),
                           "encoding": options.label(), "solver": solver}
    with open_solver(solver, enc.clauses) as s:
        while True:
            if len(excluded) >= MAX_CANDIDATES:
                row["result"] = "undecided"
                break
            if not solving.run_solver(s):
                row["result"] = "none"
                break
            board = enc.decode(s.get_model() or [])
            rows = sat.board_fen(board, n)
            found = reach_search(rows, names, limit=REACH_LIMIT)
            if found.line is not None:
                black, white = replay(found.line, names, n)
                want = GlyphGame(n, names).parse(rows)
                if (black, white) != want or not is_dead(black, white, names, n):
                    raise AssertionError(f"the game does not reach a dead {rows}")
                row["result"] = "dead"
                row["board"] = rows
                row["line"] = found.line
                row["explored"] = found.explored
                break
            if found.explored > REACH_LIMIT:
                row["result"] = "undecided"
                row["board"] = rows
                break
            excluded.append({"board": rows, "explored": found.explored})
            block = enc.blocking_clause(board)
            blocks.append(block)
            s.add_clause(block)
    row["seconds"] = round(time.perf_counter() - began, 3)
    row["excluded"] = excluded
    if row["result"] == "none" and proof_file is not None:
        formula = enc.clauses + blocks
        checkers = ["dratify", "backward"] + (["boardproof"] if n <= FORWARD_CHECK_MAX else [])
        with open_solver(solver, formula, with_proof=True) as s:
            if solving.run_solver(s):
                raise AssertionError("the formula with its exclusions became SAT")
            row["proof_lines"] = s.call(solving.save_proof, proof_file)
        row["certificate"] = call_in_child(certify.certificate, formula, enc.nvars,
                                           proof_file, checkers)
    if n <= exhaustive_max:
        walk = enumerate_dead(n, names)
        row["exhaustive"] = {"positions": walk.positions, "dead": walk.dead,
                             "seconds": walk.seconds}
        row["agree"] = (walk.dead > 0) == (row["result"] == "dead")
    return row


def glyph_task(task: dict[str, Any]) -> dict[str, Any]:
    """Sizes in increasing order until the rules without the glyph have a dead position."""
    variant, glyph = task["variant"], task["glyph"]
    proof_dir = task.get("proof_dir")
    rows = []
    smallest = None
    for n in task["sizes"]:
        proof = None
        if proof_dir is not None and n <= task.get("certify_max", 0):
            proof = str(Path(proof_dir) / f"minimal-{variant}-no-{SHORT[glyph]}-n{n}.drup.gz")
        row = size_task(variant, glyph, n, solver=task.get("solver", "cadical195"),
                        proof_file=proof, exhaustive_max=task.get("exhaustive_max", 3))
        rows.append(row)
        if row["result"] != "none":
            smallest = n if row["result"] == "dead" else None
            break
    names = without(variant, glyph)
    same = [v for v, s in VARIANT_SETS.items() if s == names]
    found = rows[-1] if rows and rows[-1]["result"] == "dead" else None
    return {"variant": variant, "glyph": glyph, "left": list(names), "label": set_label(names),
            "same_as_variant": same[0] if same else None, "sizes": rows,
            "smallest": smallest, "found": found,
            "needed": True if found else None if rows[-1]["result"] == "undecided" else False}


def run_task(task: dict[str, Any]) -> dict[str, Any]:
    """The executor's task function."""
    return glyph_task(task)


def verify_minimal(variants: list[str], sizes: list[int], *, workers: int = 1,
                   checkpoint: str | os.PathLike[str] | None = None,
                   proof_dir: str | os.PathLike[str] | None = None, certify_max: int = 8,
                   exhaustive_max: int = 3, progress: bool = False) -> dict[str, Any]:
    """Every glyph of every variant of ``variants`` (one task each): the ``--json`` object.

    ``needed`` of a glyph is True (a dead position without it), False (none for the
    sizes checked: not needed there) or None (a size left undecided).
    """
    for variant in variants:
        check_variant(variant)
    tasks = []
    for variant in variants:
        for glyph in VARIANT_SETS[variant]:
            task: dict[str, Any] = {"variant": variant, "glyph": glyph, "sizes": sizes,
                                    "certify_max": certify_max,
                                    "exhaustive_max": exhaustive_max}
            if proof_dir is not None:
                task["proof_dir"] = str(proof_dir)
            tasks.append((f"{variant}/no-{SHORT[glyph]}", task))
    began = time.perf_counter()
    with Executor(workers, None) as executor:
        results = executor.run(run_task, tasks, checkpoint=checkpoint, progress=progress,
                               description="verify minefield-minimal")
    glyphs = [results[key] for key, _ in tasks]
    return {"claim": CLAIM, "statement": STATEMENT, "variants": variants, "sizes": sizes,
            "glyphs": glyphs, "workers": workers,
            "wall_seconds": round(time.perf_counter() - began, 3)}
