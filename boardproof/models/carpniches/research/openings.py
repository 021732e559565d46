"""Opening analysis of Carpniches: every first move searched as deep as the budget allows.

The report files are written by :mod:`boardproof.models.carpniches.research.openings_report`.

The start position is symmetric under 4 board symmetries (the half turn and both
diagonal mirrors), so its 18 first moves fall into 6 classes; one representative of
each is searched with the game-agnostic alpha-beta solver
(:class:`boardproof.solvers.search.AlphaBeta`: iterative deepening, transposition
table over the 8 symmetries, repetitions scored as draws and never used for a win),
the same search in C (``native``), or the native df-pn (``dfpn``,
:mod:`boardproof.models.carpniches.native.dfpn`: "the poodles win within N" and "the
capybaras win within N" for N = 1, 2, ..., the table kept from bound to bound).
For each class the report gives the deepest N such that neither side can force a win
within N plies after that first move (or the forced win found), and how the start
position follows from it. With ``native`` and ``dfpn``, a forced win found is proved by
the native df-pn and its proof tree is written (``proof_dir``) and re-checked by the
rules-only checker (:func:`boardproof.solvers.proof.check_proof`).

>>> classes = first_move_classes()
>>> len(classes), sum(len(c) for c in classes)
(6, 18)
>>> [str(m) for m in classes[0]]
['f1-c1', 'f1-f4', 'a6-a3', 'a6-d6']
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from boardproof.jobs.executor import Executor, run_tasks
from boardproof.models.carpniches import (
    START_POSITION,
    CarpnichesMove,
    CarpnichesPosition,
    parse_position,
)
from boardproof.models.carpniches.native import NativeAlphaBeta
from boardproof.models.carpniches.native import dfpn as native_dfpn
from boardproof.solvers.common import Budget
from boardproof.solvers.pns import DFPN
from boardproof.solvers.proof import check_proof
from boardproof.solvers.search import AlphaBeta

#: the searches: the Python alpha-beta, the same search in C, or the native df-pn
METHODS = ("alphabeta", "native", "dfpn")
METHOD_NAMES = {
    "alphabeta": "alpha-beta (iterative deepening, symmetric transposition table)",
    "native": "native alpha-beta (the same search in C: iterative deepening, symmetric "
    "transposition table)",
    "dfpn": "native df-pn (proof numbers in C, symmetric transposition table: a win within N "
    "plies for the poodles, then for the capybaras, for N = 1, 2, ... in turn)",
}
#: what the page says of the df-pn re-proof of a forced win (None: not settled in time)
DFPN_TEXT = {
    True: " (df-pn proves it too).",
    False: " (**df-pn does not confirm it**).",
    None: " (df-pn did not settle it within the time limit).",
}
#: the native search's table: 2**24 entries of 48 bytes (768 MiB)
NATIVE_TT_BITS = 24


def first_move_classes(
    start: CarpnichesPosition = START_POSITION,
) -> list[list[CarpnichesMove]]:
    """The legal moves of ``start`` grouped by the symmetries that keep ``start``."""
    keep = [s for s in range(8) if start.transform(s) == start]
    classes: list[list[CarpnichesMove]] = []
    seen: set[CarpnichesMove] = set()
    for move in start.legal_moves():
        if move in seen:
            continue
        images = sorted(
            {start.transform_move(move, s) for s in keep}, key=start.legal_moves().index
        )
        seen.update(images)
        classes.append(images)
    return classes


def analyse_move(
    start: CarpnichesPosition,
    move: CarpnichesMove,
    max_plies: int,
    timeout: float | None,
    method: str = "alphabeta",
    proof_dir: str | None = None,
) -> dict[str, Any]:
    """Search the position after ``move``; a JSON-ready summary."""
    pos = start.play(move)
    if method == "dfpn":
        return analyse_move_dfpn(pos, move, max_plies, timeout, proof_dir)
    began = time.perf_counter()
    search: Any
    if method == "native":
        search = NativeAlphaBeta(pos, budget=Budget(timeout), tt_bits=NATIVE_TT_BITS)
    else:
        search = AlphaBeta(pos, budget=Budget(timeout))
    result = search.iterate(max_plies)
    seconds = time.perf_counter() - began
    symbol = pos.game.symbol
    winner = None
    if result.value == "win":
        winner = symbol(pos.to_move)
    elif result.value == "loss":
        winner = symbol(1 - pos.to_move)
    dfpn = None
    certificate = None
    if result.proved and winner is not None and method == "native" and native_dfpn.available():
        assert result.plies is not None
        dfpn, certificate = native_confirms(pos, move, winner, result.plies, timeout, proof_dir)
    elif result.proved and winner is not None:
        dfpn = dfpn_confirms(pos, winner, result.plies, timeout)
    return {
        "certificate": certificate,
        "dfpn_confirms": dfpn,
        "move": str(move),
        "position": pos.fen(),
        "result": result.value,
        "winner": winner,
        "plies": result.plies,
        "pv": [str(m) for m in result.pv] if result.proved else [],
        "no_forced_win_within": None if result.proved else result.depth,
        "stopped_by_budget": result.timed_out,
        "nodes": search.nodes,
        "seconds": round(seconds, 1),
        "iterations": [{"plies": d, "nodes": n} for d, _, n in result.iterations],
    }


def dfpn_confirms(
    pos: CarpnichesPosition, winner: str, plies: int | None, timeout: float | None = None
) -> bool | None:
    """Whether df-pn (an independent solver) proves the same winner within ``plies``
    (None: not settled within ``timeout`` seconds)."""
    search = DFPN(pos, player=pos.game.player_of(winner), max_plies=plies, budget=Budget(timeout))
    return search.solve().proved


def native_confirms(
    pos: CarpnichesPosition, move: CarpnichesMove, winner: str, plies: int,
    timeout: float | None, proof_dir: str | None,
) -> tuple[bool | None, dict[str, Any] | None]:  # fmt: skip
    """Whether the native df-pn proves ``winner``'s win within ``plies`` (None: not within
    ``timeout``), and then its checked certificate (see :func:`certify`)."""
    search = native_dfpn.NativeDFPN(pos, player=pos.game.player_of(winner), max_plies=plies,
                                    budget=Budget(timeout), tt_bits=NATIVE_TT_BITS)  # fmt: skip
    proved = search.solve().proved
    return proved, certify(search, move, proof_dir) if proved else None


def certify(search: native_dfpn.NativeDFPN, move: CarpnichesMove,
            proof_dir: str | None) -> dict[str, Any]:  # fmt: skip
    """The proof tree of a proved native df-pn search, re-checked by the rules-only
    checker and written to ``proof_dir`` (if given) as carpniches-opening-MOVE.proof.json."""
    search.budget = Budget(None)  # the tree is read from a proved search: no time limit
    proof = search.proof()
    report = check_proof(proof)
    out: dict[str, Any] = {"positions": report.nodes, "winner": report.winner,
                           "within": search.plies, "file": None}  # fmt: skip
    if proof_dir is not None:
        target = Path(proof_dir) / f"carpniches-opening-{move}.proof.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(proof, separators=(",", ":")) + "\n", encoding="utf-8")
        out["file"] = target.name
    return out


def analyse_move_dfpn(
    pos: CarpnichesPosition, move: CarpnichesMove, max_plies: int, timeout: float | None,
    proof_dir: str | None,
) -> dict[str, Any]:  # fmt: skip
    """The native df-pn on the position after ``move``: for N = 1, 2, ... "the side to move
    wins within N" then "the other side wins within N", until one is proved (a win of
    exactly N plies: neither won within N - 1), ``max_plies`` or the time limit."""
    began = time.perf_counter()
    budget = Budget(timeout)
    iterations = []
    proved_by: native_dfpn.NativeDFPN | None = None
    settled = 0
    nodes = 0
    stopped = False
    for bound in range(1, min(max_plies, native_dfpn.MAX_PLIES) + 1):
        for player in (pos.to_move, 1 - pos.to_move):
            search = native_dfpn.NativeDFPN(pos, player=player, max_plies=bound, budget=budget,
                                            tt_bits=NATIVE_TT_BITS, keep_table=bound > 1 or
                                            player != pos.to_move)  # fmt: skip
            answer = search.solve().proved
            nodes = search.nodes  # the C counters run from the table's clear at bound 1
            if answer is None:
                stopped = True
                break
            if answer:
                proved_by = search
                break
        if stopped or proved_by is not None:
            break
        settled = bound
        iterations.append({"plies": bound, "nodes": nodes})
    symbol = pos.game.symbol
    winner = None if proved_by is None else symbol(proved_by.player)
    result = "unknown" if proved_by is None else \
        "win" if proved_by.player == pos.to_move else "loss"  # fmt: skip
    certificate = None
    pv: list[str] = []
    if proved_by is not None:
        certificate = certify(proved_by, move, proof_dir)
        pv = [str(m) for m in proved_by.principal_line()]
    return {
        "certificate": certificate,
        "dfpn_confirms": None,
        "move": str(move),
        "position": pos.fen(),
        "result": result,
        "winner": winner,
        "plies": None if proved_by is None else proved_by.plies,
        "pv": pv,
        "no_forced_win_within": None if proved_by is not None else settled,
        "stopped_by_budget": stopped,
        "nodes": nodes,
        "seconds": round(time.perf_counter() - began, 1),
        "iterations": iterations,
    }


def move_task(arg: tuple[str, str, int, float | None, str, str | None]) -> dict[str, Any]:
    """One first move as a self-contained executor task: (start FEN, move, plies, timeout,
    method, proof folder)."""
    fen, move_text, max_plies, timeout, method, proof_dir = arg
    start = parse_position(fen)
    return analyse_move(start, start.parse_move(move_text), max_plies, timeout, method,
                        proof_dir)  # fmt: skip


def analyse_openings(
    max_plies: int = 9,
    timeout: float | None = None,
    start: CarpnichesPosition = START_POSITION,
    method: str = "alphabeta",
    checkpoint: str | os.PathLike[str] | None = None,
    progress: Callable[[dict[str, Any]], object] | None = None,
    executor: Executor | None = None,
    show_progress: bool = False,
    proof_dir: str | None = None,
) -> dict[str, Any]:
    """The whole analysis as a JSON-ready dict; one executor task per class of first moves.

    With ``checkpoint``, each finished first move is saved there at once and a re-run
    with the same settings takes it from there (an interrupted run loses no finished move).
    ``proof_dir``: where the certificates of forced wins go (``native`` and ``dfpn``).
    """
    settings = {"start": start.fen(), "max_plies": max_plies, "timeout": timeout,
                "method": method}  # fmt: skip
    done = _load_checkpoint(checkpoint, settings)
    classes = first_move_classes(start)
    tasks = [(str(moves[0]), (start.fen(), str(moves[0]), max_plies, timeout, method, proof_dir))
             for moves in classes if str(moves[0]) not in done]  # fmt: skip

    def finished(key: str, row: dict[str, Any]) -> None:
        done[key] = row
        _save_checkpoint(checkpoint, settings, done)
        if progress is not None:
            progress(row)

    results = run_tasks(move_task, tasks, executor=executor, progress=show_progress,
                        description="carpniches openings", on_result=finished)  # fmt: skip
    rows = []
    for moves in classes:
        key = str(moves[0])
        row = dict(done[key]) if key in done else results[key]
        row["same_as"] = [str(m) for m in moves[1:]]
        rows.append(row)
    summary = summarise(rows)
    return {
        "game": "carpniches",
        "start": start.fen(),
        "method": METHOD_NAMES[method],
        "max_plies": max_plies,
        "timeout_per_move": timeout,
        "moves": rows,
        "summary": summary,
    }


def _load_checkpoint(
    path: str | os.PathLike[str] | None, settings: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """The finished rows of an earlier run with the same settings (else none)."""
    if path is None or not os.path.exists(path):
        return {}
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if data.get("settings") != settings:
        return {}
    return dict(data["rows"])


def _save_checkpoint(
    path: str | os.PathLike[str] | None, settings: dict[str, Any], rows: dict[str, Any]
) -> None:
    if path is None:
        return
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(json.dumps({"settings": settings, "rows": rows}), encoding="utf-8")
    os.replace(tmp, target)


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """What the per-move rows say about the start position.

    The capybaras cannot force a win within n plies of the start if no first move gives
    them one within n - 1 (a move the poodles refute never does); the poodles cannot if
    some first move leaves them none within n - 1. With d the smallest searched depth
    of the unresolved moves, neither side can force a win within 1 + d plies.
    """
    open_depths = [r["no_forced_win_within"] for r in rows if r["winner"] is None]
    summary: dict[str, Any] = {
        "classes": len(rows),
        "first_moves": sum(1 + len(r["same_as"]) for r in rows),
        "forced_wins_found": [
            {
                "move": r["move"],
                "same_as": r["same_as"],
                "winner": r["winner"],
                "plies": r["plies"],
                "dfpn_confirms": r.get("dfpn_confirms"),
                "certificate": r.get("certificate"),
            }
            for r in rows
            if r["winner"] is not None
        ],
    }
    capybara_wins = [r for r in rows if r["winner"] == "c"]
    if open_depths and not capybara_wins:
        summary["no_forced_win_from_start_within"] = 1 + min(open_depths)
    return summary
