"""Minefield solved on small boards: the empty-board value and the opening table (computing).

The report files are written by :mod:`boardproof.models.minefield.research.openings_report`.

For each board size n the report gives

- the value of the empty board without the pie rule (who wins with perfect play,
  and a winning first move), and
- the **opening table**: for every first point, who wins the position "one black
  stone there, White to move, no swap" (the pie rule's question: White would swap
  exactly when Black wins the table entry).

Symmetric first points give symmetric positions, so each class of points (under
the board symmetries that keep the colours) is solved once and the answer copied
to the others; the classes are independent tasks for
:func:`boardproof.jobs.executor.run_tasks` (a process pool or a Dask cluster, checkpoints).
The empty-board value is solved separately and cross-checked against the table:
Black wins the empty board exactly when some table entry is a Black win.

>>> report = build_report([2], progress=False)
>>> size = report["sizes"][0]
>>> size["empty"]["winner"], [row["winner"] for row in size["openings"]]
('w', ['w', 'w', 'w', 'w'])
>>> size["consistent"]
True
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

from boardproof import models
from boardproof.jobs.checkpoints import JournalCheckpoint
from boardproof.jobs.executor import Executor, run_tasks
from boardproof.models.base import InvalidOptionError
from boardproof.models.minefield import native
from boardproof.models.minefield.board import STANDARD
from boardproof.models.minefield.native import prover
from boardproof.models.minefield.research import subtrees
from boardproof.solvers.api import solve
from boardproof.solvers.common import symmetric_key

#: the command that regenerates the published report
COMMAND = "boardproof openings minefield --sizes 2-5 --workers 2 --out reports"
#: how the entries are solved: ``native``: the native (C) alpha-beta, re-proved by the
#: native df-pn; ``dfpn`` (issue 18): from DFPN_FIRST_SIZE on, the native df-pn first and
#: the native alpha-beta second (:mod:`boardproof.models.minefield.native.prover`), smaller sizes
#: as ``native``; ``auto``: ``dfpn`` where the C module was built, else ``alphabeta``
METHODS = ("auto", "native", "alphabeta", "dfpn")
#: the first size that ``--method dfpn`` solves with df-pn first (smaller sizes keep their
#: exact plies from the native alpha-beta)
DFPN_FIRST_SIZE = 5
#: ``--method dfpn``: both tables (df-pn 32 bytes, alpha-beta 24 bytes per entry) of 2**bits
#: entries, 3.5 GiB per worker with 26
PROVER_TT_BITS = 26
#: ``--method dfpn``: the confirming alpha-beta's node budget, this many times the df-pn
#: nodes plus DFPN_MIN_NODES (its move order comes from the df-pn table: it needs far fewer)
CONFIRM_NODE_FACTOR = 4
#: transposition table of the native search per size (2**bits entries of 24 bytes)
NATIVE_TT_BITS = {5: 27}
#: the native search counts plies (exact game lengths) up to this size; beyond, it only
#: settles who wins (measured on 5x5 c3: 91 M nodes for the winner, over 470 M with plies)
NATIVE_DISTANCE_MAX_SIZE = 4
#: the table of the native df-pn that re-proves each entry (2**bits entries of 32 bytes)
DFPN_TT_BITS = {5: 27}
#: its node budget: as many nodes as the alpha-beta took, plus DFPN_MIN_NODES (a node
#: budget, not a time limit, so that the report stays reproducible)
DFPN_NODE_FACTOR = 1
DFPN_MIN_NODES = 1_000_000
#: a variant's df-pn (its entries have no Theorem O): the pruning rules that are proved
#: from the glyph roles alone (``minefield.c``), so they hold for every glyph set; they
#: also make its certificates (on 5x5 the pinwheel's a1 takes 23.5 million nodes with
#: them, over 50 million without)
VARIANT_RULES = ("must3", "win3", "weak")
#: and its df-pn table scheme (buckets of 4: does not thrash once full)
VARIANT_TABLE = "quad"
#: with a node ``budget`` (issue 18, session 5), the sizes from this one on are settled as
#: trees of budgeted attempts, split by replies
#: (:mod:`boardproof.models.minefield.research.subtrees`);
#: smaller sizes are solved exactly as without it (the same report)
SPLIT_FIRST_SIZE = 6


def _game(win: str, variant: str = STANDARD) -> Any:
    return models.get("minefield", win=win, variant=variant)


#: (n, first point or line, win rule, timeout, method) and, for a variant, its name
TaskArg = tuple[Any, ...]


def solve_task(arg: TaskArg) -> dict[str, Any]:
    """Solve one table entry (``point``) or the empty board (``None``) of size ``n``.

    A top-level function, so a process pool can run it. With a time limit an
    entry can stay unsolved (``winner`` None). ``method``: see :data:`METHODS`;
    the native search reports the exact number of plies with best play.
    """
    n, point, win, timeout, method, *rest = arg
    variant = rest[0] if rest else STANDARD
    start = time.perf_counter()
    pos = _game(win, variant).start(size=n, pie=False)
    for text in (point or "").split():  # a first point, or a line "a1 b2" (split entries)
        pos = pos.play(pos.parse_move(text))
    if method in ("auto", "dfpn") and n >= DFPN_FIRST_SIZE and native.supports(pos) and n <= 8:
        return prove_task(pos, timeout, start)
    if method != "alphabeta" and (method == "native" or native.supports(pos)):
        native.reset()  # a fresh table: the same node counts whatever ran before
        diagonal = win == "orthodiagonal"
        distance = n <= NATIVE_DISTANCE_MAX_SIZE
        search = native.search_for(n, diagonal, NATIVE_TT_BITS.get(n), distance=distance,
                                   variant=variant)  # fmt: skip
        found = search.solve(pos, timeout=timeout)
        value, nodes, best, plies = found.value, found.nodes, found.best_move, found.plies
        used = "native"
    else:
        result = solve(pos, method="alphabeta", distance=False, timeout=timeout)
        value, nodes, best, plies = result.value, result.nodes, result.best_move, None
        used = "alphabeta"
    entry: dict[str, Any] = {"position": pos.fen(), "method": used, "nodes": nodes,
                             "seconds": round(time.perf_counter() - start, 3)}  # fmt: skip
    if value == "draw":  # a variant's (the standard game has no draw): nobody wins
        entry.update(winner=None, best_move=None, plies=None, draw=True,
                     note="a draw: nobody can force a win")  # fmt: skip
        return entry
    if value not in ("win", "loss"):
        entry.update(winner=None, best_move=None, plies=None,
                     note=f"not solved within {timeout} s ({nodes} nodes)")  # fmt: skip
        return entry
    winner = pos.to_move if value == "win" else 1 - pos.to_move
    # the mover's winning move; a losing mover has no "best" move worth printing
    entry.update(winner=pos.game.symbol(winner), best_move=str(best) if value == "win" else None,
                 plies=plies)  # fmt: skip
    if native.supports(pos):
        budget = DFPN_NODE_FACTOR * nodes + DFPN_MIN_NODES
        target = pos
        if value == "win" and best is not None:
            # a side to move that wins: re-prove the position after its winning move (the
            # proof-number search is weak at choosing among many first moves)
            target = pos.play(best)
        outcome = target.outcome()
        if outcome is not None:
            check: dict[str, Any] = {"method": "rules", "proved": winner in outcome.winners,
                                     "nodes": 0}  # fmt: skip
        else:
            check = cross_check(target, winner, budget, timeout)
        if target is not pos:
            check["after"] = str(best)
        entry["check"] = check
    return entry


def prove_task(pos: Any, timeout: float | None, start: float) -> dict[str, Any]:
    """One entry by ``--method dfpn``: the native df-pn names the winner (Theorem O:
    searched in the ortho-diagonal game), the native alpha-beta re-proves it (Theorem O,
    its move order from the df-pn table) within a node budget. Fresh tables per entry, so
    the node counts do not depend on what a worker ran before. A variant's entry is
    searched in its own game (Theorem O is proved for the standard glyphs only), by df-pn
    with :data:`VARIANT_RULES`; its second search is the alpha-beta with the same rules."""
    variant = not pos.game.standard
    found = prover.who_wins(pos, tt_bits=PROVER_TT_BITS, timeout=timeout,
                            use=VARIANT_RULES if variant else (),
                            table=VARIANT_TABLE if variant else "pairs")  # fmt: skip
    entry: dict[str, Any] = {"position": pos.fen(), "method": "native df-pn",
                             "nodes": found.nodes}  # fmt: skip
    if found.winner is None:
        note = ("a draw: nobody can force a win (both df-pn questions disproved)"
                if found.draw else f"not solved within {timeout} s ({found.nodes} nodes)")
        entry.update(winner=None, best_move=None, plies=None, note=note,
                     seconds=round(time.perf_counter() - start, 3))  # fmt: skip
        if found.draw:
            entry["draw"] = True
        return entry
    mover_wins = found.winner == pos.to_move
    entry.update(winner=pos.game.symbol(found.winner), plies=None,
                 best_move=str(found.best_move) if mover_wins and found.best_move else None)
    budget = CONFIRM_NODE_FACTOR * found.nodes + DFPN_MIN_NODES
    # a variant's alpha-beta has no Theorem O either: it takes the same pruning rules
    # (proved from the glyph roles alone; without them 5 of the pinwheel's 10 5x5 entries
    # were not settled within the budget, with them each takes under 0.1 million nodes)
    check = prover.confirm(pos, found.winner, tt_bits=PROVER_TT_BITS, node_limit=budget,
                           timeout=timeout, use=VARIANT_RULES if variant else ())  # fmt: skip
    entry["check"] = {"method": "native alpha-beta", "proved": check.agrees,
                      "nodes": check.nodes}  # fmt: skip
    entry["seconds"] = round(time.perf_counter() - start, 3)
    return entry


def split_replies(n: int, point: str, win: str, variant: str = STANDARD) -> list[str]:
    """White's replies after a black stone on ``point``, in canonical order.

    >>> split_replies(2, "a1", "orthogonal")
    ['b1', 'a2', 'b2']
    """
    pos = _game(win, variant).start(size=n, pie=False)
    pos = pos.play(pos.parse_move(point))
    return [str(move) for move in pos.legal_moves()]


def merge_split(n: int, point: str, win: str,
                children: list[tuple[str, dict[str, Any]]],
                variant: str = STANDARD) -> dict[str, Any]:  # fmt: skip
    """One table entry from the entries after each White reply (White to move wins iff
    some reply leaves Black lost; the best reply is the first such in canonical order).

    >>> kids = [(r, solve_task((2, f"a1 {r}", "orthogonal", None, "auto")))
    ...         for r in split_replies(2, "a1", "orthogonal")]
    >>> whole = solve_task((2, "a1", "orthogonal", None, "auto"))
    >>> merged = merge_split(2, "a1", "orthogonal", kids)
    >>> (merged["winner"], merged["position"]) == (whole["winner"], whole["position"])
    True
    """
    pos = _game(win, variant).start(size=n, pie=False)
    pos = pos.play(pos.parse_move(point))
    mover = pos.game.symbol(pos.to_move)
    solved = [(r, c) for r, c in children if c["winner"] is not None]
    wins = [(r, c) for r, c in solved if c["winner"] == mover]
    entry: dict[str, Any] = {
        "position": pos.fen(), "method": f"{children[0][1]['method']} split",
        "nodes": sum(c["nodes"] for _, c in children),
        "seconds": round(sum(c["seconds"] for _, c in children), 3),
    }  # fmt: skip
    if wins:
        reply, child = wins[0]
        plies = [c["plies"] for _, c in wins]
        entry.update(winner=mover, best_move=reply,
                     plies=1 + min(plies) if None not in plies else None)  # fmt: skip
        check = dict(child.get("check") or {})
        check.pop("after", None)  # the child itself is the position after the winning reply
        entry["check"] = {**check, "after": reply} if check else None
        return entry
    if len(solved) < len(children):
        entry.update(winner=None, best_move=None, plies=None,
                     note="not solved: some replies unsolved within the time limit")
        return entry
    plies = [c["plies"] for _, c in children]
    entry.update(winner=children[0][1]["winner"], best_move=None,
                 plies=1 + max(plies) if None not in plies else None)  # fmt: skip
    checks = [c.get("check") or {} for _, c in children]
    proved = [ch.get("proved") for ch in checks]
    entry["check"] = {
        "method": "native df-pn, every reply",
        "proved": False if False in proved else None if None in proved else True,
        "nodes": sum(ch.get("nodes", 0) for ch in checks),
    }
    return entry


def cross_check(pos: Any, winner: int, node_limit: int, timeout: float | None) -> dict[str, Any]:
    """Re-prove an entry's winner with the native df-pn (another search algorithm).

    ``proved``: True (agrees), False (df-pn disproves it: the table would be wrong) or
    None (not settled within ``node_limit`` nodes or ``timeout``).
    """
    search = native.search_for(pos.n, pos.game.win == "orthodiagonal", DFPN_TT_BITS.get(pos.n),
                               variant=pos.game.variant)  # fmt: skip
    proved, nodes = search.proves(pos, winner, tt_bits=DFPN_TT_BITS.get(pos.n),
                                  node_limit=node_limit, timeout=timeout)  # fmt: skip
    # no seconds here: the check goes into the report, which must be reproducible
    return {"method": "native df-pn", "proved": proved, "nodes": nodes}


def point_classes(n: int, win: str = "orthogonal",
                  variant: str = STANDARD) -> list[tuple[str, list[tuple[str, int]]]]:  # fmt: skip
    """First points grouped by symmetry: (representative, [(point, symmetry)...]).

    ``symmetry`` maps the representative's position onto the point's position.

    >>> [(rep, [p for p, _ in members]) for rep, members in point_classes(2)]
    [('a1', ['a1', 'b1', 'a2', 'b2'])]
    """
    start = _game(win, variant).start(size=n, pie=False)
    classes: dict[Any, tuple[str, Any, list[tuple[str, int]]]] = {}
    order: list[Any] = []
    for move in start.legal_moves():
        pos = start.play(move)
        key, _ = symmetric_key(pos)
        if key not in classes:
            classes[key] = (str(move), pos, [])
            order.append(key)
        rep_name, rep_pos, members = classes[key]
        sym = next(s for s in range(start.game.symmetry_count) if rep_pos.transform(s) == pos)
        members.append((str(move), sym))
    return [(classes[k][0], classes[k][2]) for k in order]


def build_report(
    sizes: list[int],
    *,
    win: str = "orthogonal",
    workers: int = 1,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    progress: bool = True,
    timeout: float | None = None,
    command: str = COMMAND,
    method: str = "auto",
    executor: Executor | None = None,
    split: tuple[str, ...] = (),
    budget: int | None = None,
    depth: int | dict[int, int] = 1,
    split_from: int = SPLIT_FIRST_SIZE,
    notes: Callable[[str], None] | None = None,
    stop_after: float | dict[int, float] | None = None,
    grow: str = "breadth",
    variant: str = STANDARD,
) -> dict[str, Any]:
    """Solve every size: the empty board and one task per class of first points.

    ``variant``: the glyphs (``standard``, or ``pinwheel``: its entries are searched in
    their own game, without Theorem O, and a draw is reported as such); the budgeted
    attempts (``budget``) take the standard glyphs only.

    The entries of the first points in ``split`` (class representatives, the hardest
    entries) are split one ply deeper: one task per White reply, merged by
    :func:`merge_split` (their node counts and best replies are those of the split).

    ``timeout`` (seconds per entry) may leave entries unsolved; they are reported so.
    The tasks run on ``executor`` (or one made from ``workers``/``scheduler``); the
    report does not depend on which.

    With a node ``budget``, the sizes from ``split_from`` on are settled by
    :class:`~boardproof.models.minefield.research.subtrees.SubtreeRun` (attempts of ``budget``
    df-pn nodes,
    split ``depth`` plies deep, breadth first or best first (``grow``, see
    :data:`~boardproof.models.minefield.research.subtrees.GROWTHS`), the entries in the order of
    their
    estimated cost from the three sizes below: from a size settled so in the same run,
    the nodes its entries' own attempts settled in, or a lower bound), and
    ``checkpoint`` is a JSON Lines
    journal with one line per attempt (and per task of the smaller sizes). ``notes``
    receives the estimates (one line per entry) before the first attempt. ``stop_after``
    (seconds from the start of this call): start no attempt that would not end by then
    (at the journal's nodes per second, see
    :meth:`~boardproof.models.minefield.research.subtrees.SubtreeRun.admit`; the attempts running
    finish,
    none is cut), and report what is settled. ``depth`` and ``stop_after`` may be given
    per size (a dict over the sizes from ``split_from``).
    """
    if method not in METHODS:
        raise InvalidOptionError(
            f"invalid option method: expected one of {', '.join(METHODS)}, got {method!r}"
        )
    if budget is not None:
        subtrees.check_budget(budget)
        if variant != STANDARD:
            raise InvalidOptionError(f"invalid option budget: the budgeted attempts take the "
                                     f"standard glyphs only, got variant {variant!r}")  # fmt: skip
    extra: tuple[str, ...] = () if variant == STANDARD else (variant,)
    started = time.monotonic()
    deadlines = ({} if stop_after is None else {n: started + stop_after for n in sizes}
                 if not isinstance(stop_after, dict)
                 else {n: started + after for n, after in stop_after.items()})  # fmt: skip
    depths = depth if isinstance(depth, dict) else {n: depth for n in sizes}
    tasks: list[tuple[str, Any]] = []
    classes = {n: point_classes(n, win, variant) for n in sizes}
    deep = [n for n in sizes if budget is not None and n >= split_from]
    store: Any = checkpoint
    if deep:
        store = JournalCheckpoint(checkpoint, {"openings": "minefield", "win": win,
                                               "method": method, "table": "quad"})  # fmt: skip
    split_set = set(split)
    reps = {rep for n in sizes for rep, _ in classes[n]}
    for point in split:
        if point not in reps:
            raise InvalidOptionError(
                "invalid option split: expected first points solved as their own class "
                f"({', '.join(sorted(reps))}), got {point!r}"
            )
    for n in sizes:
        if n in deep:
            continue
        tasks.append((f"n={n} empty", (n, None, win, timeout, method, *extra)))
        for rep, _ in classes[n]:
            if rep in split_set:
                for reply in split_replies(n, rep, win, variant):
                    tasks.append((f"n={n} {rep} {reply}", (n, f"{rep} {reply}", win, timeout,
                                                           method, *extra)))  # fmt: skip
            else:
                tasks.append((f"n={n} {rep}", (n, rep, win, timeout, method, *extra)))
    # the df-pn nodes, with the attempts' rules, of the sizes below each deep one: the
    # three that its estimates come from, and one more to check the method on the last

    if any(n - 3 >= 2 for n in deep):
        # (a size settled by attempts in this run gives its own: see _deep_size)
        basis = {k for n in deep for k in (n - 4, n - 3, n - 2, n - 1)
                 if k >= 2 and k not in deep}  # fmt: skip
        for k in sorted(basis):
            for line in [None] + [rep for rep, _ in point_classes(k, win)]:
                tasks.append((subtrees.basis_key(k, line), (k, line, win, subtrees.RULES)))
    # the biggest boards first, so a pool is not left waiting on one long task
    tasks.sort(key=lambda t: -t[1][0])
    own = executor is None and bool(deep)
    if own:
        executor = Executor(workers, scheduler)
    try:
        results = run_tasks(
            _task,
            tasks,
            workers=workers,
            scheduler=scheduler,
            executor=executor,
            checkpoint=store,
            progress=progress,
            description="minefield openings",
        )
        for n in deep:
            folder = None if checkpoint is None else subtrees.attempt_folder(str(checkpoint))
            results.update(_deep_size(n, win, classes[n], results, budget or 0,
                                      depths.get(n, 1), executor, store, progress, notes,
                                      deadlines.get(n), folder, grow))  # fmt: skip
    finally:
        if own and executor is not None:
            executor.close()
    for n in sizes:
        for rep, _ in classes[n]:
            if rep in split_set:
                replies = split_replies(n, rep, win, variant)
                results[f"n={n} {rep}"] = merge_split(
                    n, rep, win, [(r, results.pop(f"n={n} {rep} {r}")) for r in replies],
                    variant)  # fmt: skip
    game = _game(win, variant)
    report: dict[str, Any] = {
        "game": "minefield",
        **({} if variant == STANDARD else {"variant": variant}),
        "win_rule": win,
        "pie": False,
        "question": "one black stone on the point, White to move, no swap: who wins?",
        "command": command,
        "sizes": [],
    }
    if any(found.get("method") == "native df-pn" for found in results.values()):
        report["prover"] = "dfpn"
    for n in sizes:
        empty = results[f"n={n} empty"]
        rows = []
        for rep, members in classes[n]:
            found = results[f"n={n} {rep}"]
            rep_pos = game.parse_position(found["position"])
            for point, sym in members:
                best = found["best_move"]
                if best is not None and sym:
                    best = str(rep_pos.transform_move(rep_pos.parse_move(best), sym))
                rows.append(
                    {
                        "point": point,
                        "position": rep_pos.transform(sym).fen(),
                        "winner": found["winner"],
                        "best_move": best,
                        "plies": found.get("plies"),
                        "solved_as": rep,
                    }
                )
        rows.sort(key=lambda r: (int(r["point"][1:]), r["point"][0]))
        black_wins = [r["point"] for r in rows if r["winner"] == "b"]
        unsolved = [r["point"] for r in rows if r["winner"] is None]
        report["sizes"].append(
            {
                "n": n,
                "empty": {k: empty.get(k) for k in ("position", "winner", "best_move", "plies",
                                                    "nodes")},  # fmt: skip
                "openings": rows,
                "black_wins": black_wins,
                "classes": len(classes[n]),
                # a budgeted size: every attempt once (the empty board's tree holds them all)
                "nodes": results[f"n={n} run"]["nodes"] if n in deep else empty["nodes"]
                + sum(results[f"n={n} {rep}"]["nodes"] for rep, _ in classes[n]),
                "unsolved": unsolved,
                "consistent": _consistent(empty["winner"], black_wins, unsolved),
                "entries": [
                    {"class": label, **{k: found.get(k) for k in ENTRY_FIELDS
                                        + (DEEP_FIELDS if n in deep else ())},
                     # a split's replies (what its certificate is composed of)
                     **({"parts": found["parts"]} if found.get("parts") else {}),
                     # and the replies it still needs (not settled, or not attempted)
                     **({key: found[key] for key in ("open", "untried", "below")
                         if found.get(key)})}  # fmt: skip
                    for label, found in [("empty", empty)]
                    + [(rep, results[f"n={n} {rep}"]) for rep, _ in classes[n]]
                ],
            }
        )
        if n in deep:
            report["sizes"][-1]["run"] = results[f"n={n} run"]
    report["timings"] = {key: value["seconds"] for key, value in results.items()
                         if "seconds" in value}  # fmt: skip
    return report


#: what the report keeps of each solved entry (seconds stay out: the files are reproducible)
ENTRY_FIELDS = ("position", "winner", "best_move", "plies", "method", "nodes", "check")
#: and of each entry of a size settled by budgeted attempts (its CPU seconds come from the
#: checkpoint's journal, so a re-run from the same journal writes the same files; the
#: budget of its own attempt, which a run reuses whatever its budget once settled)
DEEP_FIELDS = ("budget", "cpu", "tasks", "replies", "settled_replies", "estimate", "spent")


def _task(arg: Any) -> dict[str, Any]:
    """A task of the main run: an entry (:func:`solve_task`) or, with 4 fields, the df-pn
    nodes of a smaller size's entry for the estimates (``subtrees.basis_nodes``)."""
    if len(arg) == 4:
        return subtrees.basis_nodes(arg)
    return solve_task(arg)


def _deep_size(n: int, win: str, classes: list[tuple[str, Any]], results: dict[str, Any],
               budget: int, depth: int, executor: Any, store: Any, progress: bool,
               notes: Callable[[str], None] | None = None,
               deadline: float | None = None,
               certificates: str | None = None,
               grow: str = "breadth") -> dict[str, Any]:  # fmt: skip
    """The entries of a size settled by budgeted attempts, cheapest estimate first (the
    settled attempts write their certificates into ``certificates``)."""
    reps = [rep for rep, _ in classes]
    guess: dict[str, Any] = {}
    rate = None
    backtest = None
    seconds = 0.0
    if n - 3 >= 2:
        nodes: dict[int, dict[str, int]] = {}
        bounded: dict[int, set[str]] = {}
        for k in range(max(2, n - 4), n):
            lines = [None] + [rep for rep, _ in point_classes(k, win)]
            if f"n={k} run" in results:  # settled by attempts in this run
                nodes[k], bounded[k] = _attempted_nodes(k, lines, results)
                if k == n - 1:
                    run_k = results[f"n={k} run"]
                    seconds, rate = run_k["cpu"], run_k["rate"]
                continue
            row = {}
            for line in lines:
                found = results[subtrees.basis_key(k, line)]
                row[line or "empty"] = found["nodes"]
                seconds = seconds + found["seconds"] if k == n - 1 else seconds
            nodes[k] = row
        if f"n={n - 1} run" not in results:
            rate = sum(nodes[n - 1].values()) / seconds if seconds > 0 else None
        guess = subtrees.estimates(n, nodes, reps, bounded)
        for value in guess.values():
            value["hours"] = subtrees.cpu_hours(value["nodes"], rate) if rate else None
        if n - 4 >= 2:  # the same method one size down, against what it measured there
            backtest = subtrees.backtest(n - 1, nodes,
                                         [r for r, _ in point_classes(n - 1, win)], bounded)
    order = sorted(reps, key=lambda r: (guess[r]["nodes"] if guess else 0, reps.index(r)))
    rules = "+".join(subtrees.RULES) or "no rule"
    if notes is not None and guess:
        for point in order + ["empty"]:
            g = guess[point]
            least = "at least " if g.get("at_least") else ""
            notes(f"{n}x{n} {point}: estimated {least}{g['nodes']:.2g} df-pn nodes with {rules} "
                  "(from "
                  f"{', '.join(f'{v:,}' for v in g['from'])} on {n - 3}x{n - 3} to "
                  f"{n - 1}x{n - 1})" + (f", ~{g['hours']:g} hours at {rate:,.0f} nodes/s "
                                         f"(the {n - 1}x{n - 1} entries of this run)"
                                         if rate else ""))  # fmt: skip
    # the deadline's rate before any attempt of the size ends: the basis', if it was
    # measured long enough (tiny entries are all overhead)
    steady = rate if rate and seconds >= subtrees.MIN_RATE_SECONDS else None
    run = subtrees.SubtreeRun(n, win, budget=budget, depth=depth, executor=executor,
                              checkpoint=store, progress=progress, deadline=deadline,
                              rate=steady, notes=notes,
                              certificates=certificates, grow=grow)  # fmt: skip
    entries = run.settle_entries(order)
    empty = run.settle_empty(entries)
    for point, value in guess.items():
        measured = run.measured("" if point == "empty" else point)
        if measured is not None:
            measured["ratio"] = round(measured["nodes"] / max(value["nodes"], 1.0), 3)
        value["measured"] = measured
    # ``own``: the nodes of the entry's own attempts (the basis of a bigger size's estimates)
    out = {f"n={n} {rep}": {**entries[rep], "estimate": guess.get(rep),
                            "spent": run.spent(rep), "own": run.measured(rep)}
           for rep in reps}  # fmt: skip
    out[f"n={n} empty"] = {**empty, "estimate": guess.get("empty"), "spent": run.spent(""),
                           "own": run.measured("")}  # fmt: skip
    spent = run.spent("")
    out[f"n={n} run"] = {
        "budget": budget, "depth": depth, "grow": grow, "table": subtrees.TABLE,
        "order": order,
        "second": "certificate" if n >= subtrees.GUIDED_CONFIRM_FROM else "alpha-beta",
        "rules": list(subtrees.RULES), "estimate_rate": round(rate) if rate else None,
        "attempts": spent["attempts"], "nodes": spent["nodes"], "cpu": round(spent["cpu"], 1),
        "rate": round(spent["nodes"] / spent["cpu"]) if spent["cpu"] > 0 else None,
        "budgets": spent["budgets"], "backtest": backtest,
        # the size below was settled by attempts too: its numbers are theirs
        **({"estimate_from_attempts": True} if f"n={n - 1} run" in results else {}),
    }  # fmt: skip
    return out


def _attempted_nodes(k: int, lines: list[str | None], results: dict[str, Any],
                     ) -> tuple[dict[str, int], set[str]]:  # fmt: skip
    """The basis row of a size settled by budgeted attempts in the same run: each entry's
    nodes from its own attempts with the run's rules, those it settled in (exact), else
    the biggest budget it did not settle in (a lower bound: listed in the set), else the
    nodes spent on it and below (also listed as a lower bound).

    >>> results = {"n=6 empty": {"own": None, "spent": {"nodes": 7}},
    ...            "n=6 a1": {"own": {"nodes": 100, "settled": False}},
    ...            "n=6 b1": {"own": {"nodes": 40, "settled": True}}}
    >>> row, bounded = _attempted_nodes(6, [None, "a1", "b1"], results)
    >>> row, sorted(bounded)
    ({'empty': 7, 'a1': 100, 'b1': 40}, ['a1', 'empty'])
    """
    row: dict[str, int] = {}
    bounded: set[str] = set()
    for line in lines:
        name = line or "empty"
        found = results[f"n={k} {name}"]
        own = found.get("own")
        row[name] = own["nodes"] if own else found["spent"]["nodes"]
        if not own or not own["settled"]:
            bounded.add(name)
    return row, bounded


def _consistent(empty: str | None, black_wins: list[str], unsolved: list[str]) -> bool | None:
    """Black wins the empty board iff some first point wins; None if it cannot be told."""
    if empty is None or (unsolved and not black_wins):
        return None
    return (empty == "b") == bool(black_wins)
