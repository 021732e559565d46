"""The designers' claims that boardproof checks, and the runner that verifies them.

A claim is checked size by size. Each size is one or more independent *tasks* (a SAT
step, a cube of a SAT step, an exhaustive enumeration) run through
:func:`boardproof.jobs.executor.run_tasks`, so they can use a process pool or a Dask
cluster and resume from a checkpoint. :func:`verify` assembles the per-size results.

Claims:

- ``minefield-no-draw`` (rules/minefield.md claim 1): no reachable dead position
  without a winner. SAT per size (:mod:`boardproof.models.minefield.proofs.sat`): the
  *split* method proves (1) a glyph-free stuck board is full and (2) a full
  crosscut-free board has a path; the *fill* method proves (1) by SAT and (2) for
  every n by Lemma H (:data:`~boardproof.models.minefield.proofs.sat.FULL_BOARD_LEMMA`);
  the *plain* method refutes the single formula. :func:`merge` joins an earlier
  report's rows (e.g. small sizes by split, large ones by fill) into one report.
  Sizes up to 4 are also enumerated exhaustively, and must agree.
- ``minefield-orthodiagonal`` (claim 3): a colour with an ortho-diagonal path always
  ends up with an orthogonal one. Exhaustively on small boards; on larger ones by
  Theorem O (:data:`~boardproof.models.minefield.proofs.lemmas.THEOREM_O`) from the SAT fill step.

Both claims can be checked with a variant's glyphs (``variant="pinwheel"`` or
``"cartwheel"``: the encodings take the variant's glyph set, and the lemmas used rest
on the hard corner alone, which every variant forbids; see
:mod:`~boardproof.models.minefield.research.variant_texts`). Whether each glyph of a
variant is needed is :mod:`~boardproof.models.minefield.research.minimality`.

>>> sorted(CLAIMS)
['minefield-no-draw', 'minefield-orthodiagonal']
>>> r = verify("minefield-no-draw", [2, 3], progress=False)
>>> r["holds"], [s["holds"] for s in r["sizes"]]
(True, [True, True])
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from boardproof.jobs.checkpoints import Checkpoint
from boardproof.jobs.executor import Executor
from boardproof.models.base import InvalidOptionError
from boardproof.models.minefield.board import STANDARD
from boardproof.models.minefield.proofs import lemmas, sat
from boardproof.models.minefield.proofs.glyph_sets import VARIANT_SETS, check_variant, set_label
from boardproof.models.minefield.research import glyph_games
from boardproof.models.minefield.research.exhaustive import enumerate_reachable, reach_search
from boardproof.solvers.sat import certify, second, solving
from boardproof.solvers.sat.child import call_in_child, open_solver

#: sizes up to this one get a DRUP proof that the built-in checker verifies
DEFAULT_CERTIFY_MAX = 6
#: certified sizes up to this one are also checked by the project's own backward checker
DEFAULT_OWN_CHECK_MAX = 26
#: ... and, up to this one (and the above), by its forward checker (pure Python, slow)
FORWARD_CHECK_MAX = 8
#: the steps split into cubes by ``--cubes`` (measured: cubes slow the fill step down,
#: e.g. n = 17: 9 cubes of 40-50 s each against about 30 s for the whole step)
CUBE_STEPS = ("full", "plain", "fast")
#: at most this many unreachable candidates are excluded one by one before giving up
MAX_CANDIDATES = 50


@dataclass(frozen=True)
class Claim:
    """A checkable claim: its name, statement and the default sizes."""

    name: str
    statement: str
    default_sizes: tuple[int, int]


CLAIMS: dict[str, Claim] = {
    "minefield-no-draw": Claim(
        "minefield-no-draw",
        "Minefield never ends without a winner: no dead position (neither colour can "
        "place, nobody has a path) is reachable on an n x n board.",
        (2, 12),
    ),
    "minefield-orthodiagonal": Claim(
        "minefield-orthodiagonal",
        "Whenever a colour has an ortho-diagonal path, it can force an orthogonal one "
        "(so stopping at the ortho-diagonal path changes no result). Precisely: "
        + lemmas.ORTHODIAGONAL_STATEMENT,
        (2, 4),
    ),
}


def check_claim(name: str) -> Claim:
    claim = CLAIMS.get(name)
    if claim is None:
        raise InvalidOptionError(
            f"invalid claim: expected one of {', '.join(sorted(CLAIMS))}, got {name!r}"
        )
    return claim


# ---------------------------------------------------------------------------
# tasks (top-level functions: they run in worker processes too)
# ---------------------------------------------------------------------------


def _step_options(n: int, method: str,
                  variant: str = STANDARD) -> list[tuple[str, sat.Options]]:
    if method == "split":
        steps = sat.fast_steps(n)
    elif method == "fill":  # the split method's fill step; the full step is Lemma H
        steps = sat.fast_steps(n)[:1]
    else:
        steps = [(method, sat.ENCODINGS[method])]
    if variant == STANDARD:  # the rulebook's glyphs: the formulas of the published reports
        return steps
    return [(name, replace(options, glyph_set=VARIANT_SETS[variant]))
            for name, options in steps]


def sat_task(task: dict[str, Any]) -> dict[str, Any]:
    """Solve one SAT step (optionally one cube of it); certify it when asked."""
    n, method, step = task["n"], task["method"], task["step"]
    options = dict(_step_options(n, method, task.get("variant", STANDARD)))[step]
    enc = sat.encode(n, options)
    assumptions = sat.cube_assumptions(enc, task.get("cube") or [])
    proof_file = task.get("proof_file")
    result = sat.solve(enc, task["solver"], proof_file=proof_file, assumptions=assumptions)
    out: dict[str, Any] = result.as_dict()
    out["step"] = step
    out["counts"] = dict(enc.counts)
    if proof_file is not None and result.result == "unsat" and not assumptions:
        # the checkers' long native calls take no Ctrl-C: they run in a child process
        out["certificate"] = call_in_child(
            certify.certificate, enc.clauses, enc.nvars, proof_file,
            task.get("checkers", ("dratify",)))
    return out


def second_task(task: dict[str, Any]) -> dict[str, Any]:
    """Re-solve one SAT step with a second, independent solver."""
    options = dict(_step_options(task["n"], task["method"],
                                 task.get("variant", STANDARD)))[task["step"]]
    enc = sat.encode(task["n"], options)
    return second.resolve(enc.clauses, task["solver"])


def exhaustive_task(task: dict[str, Any]) -> dict[str, Any]:
    """Enumerate every reachable position of one size."""
    return enumerate_reachable(task["n"], variant=task.get("variant", STANDARD)).as_dict()


def own_check_task(task: dict[str, Any]) -> dict[str, Any]:
    """Check a step's proof (written by its SAT task) with the project's backward checker."""
    options = dict(_step_options(task["n"], task["method"],
                                 task.get("variant", STANDARD)))[task["step"]]
    enc = sat.encode(task["n"], options)
    return call_in_child(certify.check_backward, enc.clauses, task["proof_file"])


def run_task(task: dict[str, Any]) -> dict[str, Any]:
    """Dispatch a task by kind (the function handed to the executor)."""
    if task["kind"] == "own-check":
        return own_check_task(task)
    if task["kind"] == "exhaustive":
        return exhaustive_task(task)
    if task["kind"] == "second":
        return second_task(task)
    return sat_task(task)


def _state_sets(step: str) -> tuple[int, ...]:
    if step == "full":
        return (sat.BLACK, sat.WHITE)
    return (sat.EMPTY, sat.BLACK, sat.WHITE)


def plan_tasks(
    claim: str,
    sizes: list[int],
    *,
    method: str = "split",
    solver: str = "cadical195",
    certify_max: int = DEFAULT_CERTIFY_MAX,
    proof_dir: Path | None = None,
    cubes: int = 0,
    cube_min: int = 13,
    exhaustive_max: int = 4,
    own_check_max: int = DEFAULT_OWN_CHECK_MAX,
    second_solver: str | None = None,
    variant: str = STANDARD,
) -> list[tuple[str, dict[str, Any]]]:
    """The tasks of a verification run, keyed for the checkpoint.

    A ``variant`` other than the standard one puts its name in every task (its glyphs,
    :func:`_step_options`) and in the proof files' names; the standard tasks are those of
    the published reports.

    Certified steps (``n <= certify_max`` with a ``proof_dir``) write a gzip DRUP proof
    checked by ``dratify``, and also by the project's forward checker if ``n <=
    own_check_max`` and ``n <= FORWARD_CHECK_MAX`` (its backward checker runs after the
    SAT tasks: :func:`plan_own_checks`); with ``second_solver`` every fill step is also
    re-solved by that solver.
    """
    tasks: list[tuple[str, dict[str, Any]]] = []
    tag: dict[str, Any] = {} if variant == STANDARD else {"variant": variant}
    stem = "minefield" if variant == STANDARD else f"minefield-{variant}"
    for n in sizes:
        if n <= exhaustive_max:
            tasks.append((f"n={n}/exhaustive", {"kind": "exhaustive", "n": n, **tag}))
        if claim == "minefield-orthodiagonal" and n <= exhaustive_max:
            continue
        for step, _ in _step_options(n, method, variant):
            base = {"kind": "sat", "n": n, "method": method, "step": step, "solver": solver,
                    **tag}
            if cubes and n >= cube_min and step in CUBE_STEPS:
                centre = (n - 1) / 2
                cells = sorted(
                    range(n * n),
                    key=lambda p: (abs(p // n - centre) + abs(p % n - centre), p),
                )[n : n + cubes]  # past the n points the lex-leader clauses compare
                parts: list[list[tuple[int, int]]] = [[]]
                for p in cells:
                    parts = [c + [(p, s)] for c in parts for s in _state_sets(step)]
                for i, cube in enumerate(parts):
                    tasks.append((f"n={n}/{step}/cube{i}", {**base, "cube": cube}))
                continue
            if n <= certify_max and proof_dir is not None:
                base["proof_file"] = str(proof_dir / f"{stem}-n{n}-{step}.drup.gz")
                forward = n <= min(own_check_max, FORWARD_CHECK_MAX)
                base["checkers"] = ["dratify"] + (["boardproof"] if forward else [])
            tasks.append((f"n={n}/{step}", base))
            if second_solver is not None and step == "fill":
                tasks.append((f"n={n}/second-{step}",
                              {"kind": "second", "n": n, "method": method, "step": step,
                               "solver": second_solver, **tag}))
    return tasks


def plan_own_checks(
    tasks: list[tuple[str, dict[str, Any]]], results: dict[str, dict[str, Any]],
    own_check_max: int,
) -> list[tuple[str, dict[str, Any]]]:
    """The backward-checker tasks: one per certified step of size ``<= own_check_max``.

    They run once the SAT tasks are done (each reads the proof its SAT task wrote).

    >>> sat_tasks = [("n=3/fill", {"n": 3, "method": "fill", "step": "fill",
    ...                            "proof_file": "p.drup.gz"})]
    >>> [k for k, _ in plan_own_checks(sat_tasks, {"n=3/fill": {"certificate": {}}}, 26)]
    ['n=3/own-check-fill']
    >>> plan_own_checks(sat_tasks, {"n=3/fill": {"certificate": {}}}, 2)
    []
    """
    out = []
    for key, task in tasks:
        if "proof_file" not in task or task["n"] > own_check_max:
            continue
        if "certificate" not in results.get(key, {}):
            continue
        tag = {"variant": task["variant"]} if "variant" in task else {}
        out.append((f"n={task['n']}/own-check-{task['step']}",
                    {"kind": "own-check", "n": task["n"], "method": task["method"],
                     "step": task["step"], "proof_file": task["proof_file"], **tag}))
    return out


# ---------------------------------------------------------------------------
# assembling results
# ---------------------------------------------------------------------------


def _handle_candidate(
    n: int, solver: str, options: sat.Options = sat.PLAIN, limit: int = MAX_CANDIDATES,
    variant: str = STANDARD,
) -> dict[str, Any]:
    """A step found a model: look for a reachable counterexample on the plain formula.

    Every unreachable candidate is excluded by a blocking clause (sound: the search
    proved that no legal game reaches that board) and the solver asked again. A
    ``variant`` other than the standard one takes its glyphs (formula and game).
    """
    search: Callable[[str], Any] = reach_search
    if variant != STANDARD:
        names = VARIANT_SETS[variant]
        options = replace(options, glyph_set=names)

        def search(rows: str) -> Any:
            return glyph_games.reach_search(rows, names)
    enc = sat.encode(n, options)
    excluded: list[dict[str, Any]] = []
    began = time.perf_counter()
    with open_solver(solver, enc.clauses) as s:
        while len(excluded) < limit:
            if not solving.run_solver(s):
                return {"holds": True, "excluded": excluded, "counterexample": None,
                        "seconds": time.perf_counter() - began}
            board = enc.decode(s.get_model() or [])
            rows = sat.board_fen(board, n)
            found = search(rows)
            if found.line is not None:
                return {"holds": False, "excluded": excluded, "counterexample": rows + " b -",
                        "line": found.line, "seconds": time.perf_counter() - began}
            excluded.append({"board": rows, "explored": found.explored})
            s.add_clause(enc.blocking_clause(board))
    return {"holds": None, "excluded": excluded, "counterexample": None,
            "seconds": time.perf_counter() - began}


def assemble_size(
    claim: str, n: int, results: dict[str, dict[str, Any]], method: str, solver: str,
    variant: str = STANDARD,
) -> dict[str, Any]:
    """One row of the report from the finished tasks of size ``n``."""
    prefix = f"n={n}/"
    mine = {k[len(prefix):]: v for k, v in results.items() if k.startswith(prefix)}
    exhaustive = mine.pop("exhaustive", None)
    second_by_step = {k[len("second-"):]: mine.pop(k) for k in sorted(mine)
                       if k.startswith("second-")}
    own_by_step = {k[len("own-check-"):]: mine.pop(k) for k in sorted(mine)
                   if k.startswith("own-check-")}
    row: dict[str, Any] = {"n": n, "holds": True, "method": "", "seconds": 0.0,
                           "counterexample": None}
    if claim == "minefield-orthodiagonal" and exhaustive is not None:
        row["method"] = "exhaustive"
        row["holds"] = exhaustive["orthodiagonal_failures"] == 0
        row["seconds"] = round(exhaustive["seconds"], 3)
        row["exhaustive"] = exhaustive
        if exhaustive["orthodiagonal_examples"]:
            row["counterexample"] = exhaustive["orthodiagonal_examples"][0]
        return row
    steps: dict[str, dict[str, Any]] = {}
    for key, value in sorted(mine.items()):
        step = key.split("/")[0]
        agg = steps.setdefault(step, {"step": step, "result": "unsat", "seconds": 0.0,
                                      "variables": value["variables"], "cubes": 0,
                                      "clauses": value["clauses"], "solver": value["solver"],
                                      "encoding": value["encoding"]})
        agg["seconds"] = round(agg["seconds"] + value["seconds"], 3)
        agg["cubes"] += 1
        if value["result"] == "sat":
            agg["result"] = "sat"
            agg["board"] = value["board"]
        if "certificate" in value:
            agg["certificate"] = value["certificate"]
            agg["proof_lines"] = value["proof_lines"]
    for step, verdict in own_by_step.items():
        if step in steps and "certificate" in steps[step]:
            cert = steps[step]["certificate"]
            steps[step]["certificate"] = certify.with_checks(
                cert, [*cert.get("checks", []), verdict])
    for step, value in second_by_step.items():
        if step in steps:
            steps[step]["second"] = value
            steps[step]["second_agree"] = value["result"] == steps[step]["result"]
    row["steps"] = list(steps.values())
    row["method"] = "sat-fill+lemma-hex" if method == "fill" else f"sat-{method}"
    row["full_step"] = sat.FULL_STEP[method]
    row["variables"] = sum(s["variables"] for s in steps.values())
    row["clauses"] = sum(s["clauses"] for s in steps.values())
    row["seconds"] = round(sum(s["seconds"] for s in steps.values()), 3)
    certs = [s.get("certificate") for s in steps.values()]
    row["certified"] = bool(certs) and all(c is not None and c["ok"] for c in certs)
    if any(s["result"] == "sat" for s in steps.values()):
        cand = _handle_candidate(n, solver, variant=variant)
        row["candidates"] = cand
        row["holds"] = cand["holds"]
        row["counterexample"] = cand["counterexample"]
        row["seconds"] = round(row["seconds"] + cand["seconds"], 3)
    if any(s.get("second_agree") is False for s in steps.values()):
        row["holds"] = None  # the two solvers disagree: the size is undecided
    if exhaustive is not None:
        row["exhaustive"] = exhaustive
        agree = (exhaustive["dead"] == 0) == bool(row["holds"])
        row["agree"] = agree
        if not agree:
            row["holds"] = False if exhaustive["dead"] else row["holds"]
        if exhaustive["dead"] and row["counterexample"] is None:
            row["counterexample"] = exhaustive["dead_examples"][0]
    if claim == "minefield-orthodiagonal":  # Theorem O needs the fill step only
        row["method"] = "sat-fill+theorem-O" if method == "fill" else f"{row['method']}+theorem-O"
        if method == "fill":
            row["full_step"] = "theorem-O"
    return row


def verify(
    claim: str,
    sizes: list[int],
    *,
    method: str = "split",
    solver: str = "cadical195",
    workers: int = 1,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    certify_max: int = DEFAULT_CERTIFY_MAX,
    proof_dir: str | os.PathLike[str] | None = None,
    cubes: int = 0,
    exhaustive_max: int = 4,
    own_check_max: int = DEFAULT_OWN_CHECK_MAX,
    second_solver: str | None = None,
    progress: bool = True,
    on_size: Callable[[dict[str, Any]], None] | None = None,
    executor: Executor | None = None,
    variant: str = STANDARD,
) -> dict[str, Any]:
    """Verify ``claim`` on every size; the ``verify --json`` object.

    The tasks run on ``executor`` (or one made from ``workers``/``scheduler``). With a
    ``variant`` other than the standard one, the claim is checked with that variant's
    glyphs (docs/games/minefield.md "Variants"), and the object has a ``variant`` field.
    """
    check_claim(claim)
    check_variant(variant)
    if method not in sat.METHODS:
        raise InvalidOptionError(
            f"invalid option method: expected one of {', '.join(sat.METHODS)}, got {method!r}"
        )
    proof = certify_max >= min(sizes, default=0) and proof_dir is not None
    solving.check_solver(solver, proof=proof)
    for n in sizes:
        if not 2 <= n <= 26:
            raise InvalidOptionError(f"invalid option sizes: expected 2 to 26, got {n!r}")
    if second_solver is not None:
        second.check_second(second_solver)
    tasks = plan_tasks(
        claim, sizes, method=method, solver=solver, certify_max=certify_max,
        proof_dir=Path(proof_dir) if proof_dir is not None else None, cubes=cubes,
        exhaustive_max=exhaustive_max, own_check_max=own_check_max,
        second_solver=second_solver, variant=variant,
    )
    done_before = Checkpoint(checkpoint).done if checkpoint is not None else {}
    resumed = sum(1 for key, _ in tasks if key in done_before)
    began = time.perf_counter()
    own = executor is None
    if executor is None:
        executor = Executor(workers, scheduler)
    try:
        results = executor.run(run_task, tasks, checkpoint=checkpoint, progress=progress,
                               description=f"verify {claim}")
        run = executor.last
        checks = plan_own_checks(tasks, results, own_check_max)
        if checks:
            resumed += sum(1 for key, _ in checks if key in done_before)
            tasks += checks
            results.update(executor.run(run_task, checks, checkpoint=checkpoint,
                                        progress=progress, description="own checker"))
    finally:
        if own:
            executor.close()
    _check_glyph_sets(results, variant)
    rows = []
    for n in sizes:
        row = assemble_size(claim, n, results, method, solver, variant)
        rows.append(row)
        if on_size is not None:
            on_size(row)
    holds_all = _holds_all(rows)
    out: dict[str, Any] = {
        "claim": claim,
        "statement": CLAIMS[claim].statement + variant_statement(variant),
        "holds": holds_all,
        "sizes": rows,
        "method": method,
        "solver": solver,
        "lemmas": lemma_texts(rows, claim),
        # the wall time says nothing when every task came from the checkpoint
        "wall_seconds": (round(time.perf_counter() - began, 3)
                         if resumed < len(tasks) else None),
        "tasks": len(tasks),
        "resumed_tasks": resumed,
        "workers": executor.workers,
        "cubes": cubes,
        "second_solver": second_solver,
    }
    if variant != STANDARD:  # the standard reports have no such field
        out["variant"] = variant
        out["glyphs"] = list(VARIANT_SETS[variant])
    if executor.scheduler is not None:  # the default back ends add nothing: old reports
        assert run is not None          # stay the same
        out["backend"] = f"dask {executor.scheduler}"
        out["rerun_tasks"] = sorted(run.reruns)
    return out


def _check_glyph_sets(results: dict[str, dict[str, Any]], variant: str) -> None:
    """Refuse SAT results of another glyph set (a checkpoint of another variant's run:
    the task keys do not name the variant, the encodings do)."""
    for key, value in results.items():
        label = value.get("encoding")
        if not isinstance(label, str):
            continue
        glyphs = next((bit for bit in label.split(",") if bit.startswith("glyphs=")), None)
        want = None if variant == STANDARD else "glyphs=" + set_label(VARIANT_SETS[variant])
        if glyphs != want:
            raise InvalidOptionError(
                f"invalid option checkpoint: its task {key} was solved with other glyphs "
                f"({glyphs or 'standard'}), not the {variant} variant's")


def variant_statement(variant: str) -> str:
    """What the claim's statement adds for a variant (nothing for the standard one).

    >>> variant_statement("standard"), variant_statement("pinwheel").split(":")[0]
    ('', ' In the pinwheel variant')
    """
    if variant == STANDARD:
        return ""
    return (f" In the {variant} variant: the forbidden glyphs are "
            f"{', '.join(VARIANT_SETS[variant])} (docs/games/minefield.md, Variants).")


def full_step(row: dict[str, Any]) -> str:
    """How a report row settled the full-board step: ``"sat"`` or ``"lemma-hex"``.

    Rows written before the field existed were all SAT (methods split/plain/fast).

    >>> full_step({"n": 5}), full_step({"n": 20, "full_step": "lemma-hex"})
    ('sat', 'lemma-hex')
    """
    return str(row.get("full_step", "sat"))


def lemma_texts(rows: list[dict[str, Any]], claim: str = "minefield-no-draw") -> dict[str, str]:
    """The lemmas a report relies on, by name: Lemma H only if a row uses it.

    >>> list(lemma_texts([{"n": 5}])), len(lemma_texts([{"full_step": "lemma-hex"}]))
    (['crosscut'], 2)
    """
    out = {name: sat.LEMMA_PROOFS[name] for name in sat.LEMMAS}
    if any(full_step(r) == "lemma-hex" for r in rows):
        out[sat.FULL_BOARD_LEMMA_NAME] = sat.FULL_BOARD_LEMMA
    if claim == "minefield-orthodiagonal":
        for text in (lemmas.LEMMA_G, lemmas.LEMMA_K, lemmas.LEMMA_F, lemmas.THEOREM_O):
            name, body = text.split(". ", 1)
            out[name] = body
    return out


def _holds_all(rows: list[dict[str, Any]]) -> bool | None:
    if any(r["holds"] is False for r in rows):
        return False
    if any(r["holds"] is None for r in rows):
        return None
    return True


def merge(result: dict[str, Any], previous: dict[str, Any],
          source: str = "") -> dict[str, Any]:
    """One report from ``result`` and an earlier report ``previous`` of the same claim.

    The earlier rows are kept as they are (not recomputed) for every size the new run
    did not check; a size in both comes from the new run. The verdict and the lemma list
    are recomputed over all rows; ``merged`` records where the kept rows came from, and
    the reproduce commands of both runs are kept (``commands``).

    >>> old = verify("minefield-no-draw", [2], progress=False)
    >>> new = verify("minefield-no-draw", [3], method="fill", progress=False,
    ...              exhaustive_max=0)
    >>> both = merge(new, old, "old.json")
    >>> [(r["n"], r["method"]) for r in both["sizes"]]
    [(2, 'sat-split'), (3, 'sat-fill+lemma-hex')]
    >>> both["holds"], both["merged"][0]["sizes"], sat.FULL_BOARD_LEMMA_NAME in both["lemmas"]
    (True, [2], True)
    """
    if previous.get("claim") != result["claim"]:
        raise InvalidOptionError(
            f"invalid option merge: expected a {result['claim']} report, got "
            f"{previous.get('claim')!r}"
        )
    if previous.get("variant", STANDARD) != result.get("variant", STANDARD):
        raise InvalidOptionError(
            f"invalid option merge: expected a report of the "
            f"{result.get('variant', STANDARD)} variant, got "
            f"{previous.get('variant', STANDARD)!r}")
    new_sizes = {r["n"] for r in result["sizes"]}
    kept = [r for r in previous.get("sizes", []) if r["n"] not in new_sizes]
    old_rows = {r["n"]: r for r in previous.get("sizes", [])}
    fresh = [_keep_full_step(r, old_rows.get(r["n"]), source)
             if result["claim"] == "minefield-no-draw" else r for r in result["sizes"]]
    rows = sorted(kept + fresh, key=lambda r: r["n"])
    out = dict(result)
    out["sizes"] = rows
    out["holds"] = _holds_all(rows)
    out["lemmas"] = lemma_texts(rows, result["claim"])
    kept_sizes = {r["n"] for r in kept}
    merged = []
    for entry in previous.get("merged", []):  # rows the earlier report itself merged
        sizes = [n for n in entry["sizes"] if n in kept_sizes]
        if sizes:
            merged.append({**entry, "sizes": sizes})
    own = sorted(kept_sizes - {n for entry in merged for n in entry["sizes"]})
    if own:
        merged.append({
            "from": source, "sizes": own,
            "method": previous.get("method"), "solver": previous.get("solver"),
            "workers": previous.get("workers"), "cubes": previous.get("cubes"),
            "note": previous.get("note", ""),
        })
    out["merged"] = merged
    joined = [r["n"] for r in fresh if any(s.get("kept_from") for s in r.get("steps", []))]
    # full steps the earlier report had kept itself (from a report before it): still in its
    # rows kept now, or joined again; their notes stay with them
    before = previous.get("kept_full_steps") or {}
    still = sorted(set(before.get("sizes", [])) & kept_sizes)
    first = set(joined) - set(before.get("sizes", []))  # full steps the earlier run computed
    notes: list[str] = []
    if first:
        old_merged = previous.get("merged", [])
        notes = [e["note"] for e in old_merged if e.get("note") and set(e["sizes"]) & first]
        old_own = set(old_rows) - {n for e in old_merged for n in e["sizes"]}
        if previous.get("note") and old_own & first:
            notes.append(previous["note"])
    if still or set(before.get("sizes", [])) & set(joined):
        notes = [*before.get("notes", []), *(n for n in notes if n not in before["notes"])]
    if joined or still:
        out["kept_full_steps"] = {"from": source if joined else before.get("from", source),
                                  "sizes": sorted({*joined, *still}), "notes": notes}
    out["commands"] = list(previous.get("commands", [])) + list(result.get("commands", []))
    return out


def _keep_full_step(row: dict[str, Any], old: dict[str, Any] | None,
                    source: str) -> dict[str, Any]:
    """A new fill-method row joined with an earlier row's SAT *full* step, if it has one.

    A size first proved by the split method (fill and full steps by SAT) and now
    re-run by the fill method (fill step only, e.g. to certify it) keeps its SAT full
    step: the two steps are independent formulas, so the row is again a pure-SAT
    proof, its fill step from the new run and its full step from ``source``. The
    fill steps must be the same formula (same encoding), else the new row stands.

    >>> new = {"n": 9, "holds": True, "full_step": "lemma-hex", "method": "m",
    ...        "steps": [{"step": "fill", "encoding": "e", "variables": 1, "clauses": 2,
    ...                   "seconds": 1.0, "result": "unsat"}]}
    >>> old = {"n": 9, "holds": True, "steps": [
    ...     {"step": "fill", "encoding": "e"},
    ...     {"step": "full", "encoding": "f", "variables": 3, "clauses": 4,
    ...      "seconds": 2.0, "result": "unsat"}]}
    >>> r = _keep_full_step(new, old, "old.json")
    >>> r["method"], r["full_step"], r["clauses"], r["steps"][1]["kept_from"]
    ('sat-split', 'sat', 6, 'old.json')
    """
    if old is None or full_step(row) != "lemma-hex" or full_step(old) != "sat":
        return row
    old_steps = {s["step"]: s for s in old.get("steps", [])}
    new_steps = {s["step"]: s for s in row.get("steps", [])}
    full = old_steps.get("full")
    if (full is None or full.get("result") != "unsat" or "fill" not in new_steps
            or old_steps.get("fill", {}).get("encoding") != new_steps["fill"]["encoding"]):
        return row
    out = dict(row)
    out["steps"] = [*row["steps"], {**full, "kept_from": source}]
    out["method"] = "sat-split"
    out["full_step"] = "sat"
    out["variables"] = sum(s["variables"] for s in out["steps"])
    out["clauses"] = sum(s["clauses"] for s in out["steps"])
    out["seconds"] = round(sum(s["seconds"] for s in out["steps"]), 3)
    out["holds"] = _holds_all([row, old])
    certs = [s.get("certificate") for s in out["steps"]]
    out["certified"] = all(c is not None and c["ok"] for c in certs)
    if "exhaustive" not in out and old.get("exhaustive") is not None:
        out["exhaustive"] = old["exhaustive"]
        out["agree"] = old.get("agree")
    return out


def parse_sizes(text: str) -> list[int]:
    """``"2-12"``, ``"5"`` or ``"3,5,7"`` as a list of sizes.

    >>> parse_sizes("2-4"), parse_sizes("5,7")
    ([2, 3, 4], [5, 7])
    """
    sizes: list[int] = []
    try:
        for part in text.split(","):
            if "-" in part:
                lo, hi = part.split("-", 1)
                sizes += list(range(int(lo), int(hi) + 1))
            else:
                sizes.append(int(part))
    except ValueError:
        raise InvalidOptionError(
            f"invalid option sizes: expected A-B or a list like 3,5, got {text!r}"
        ) from None
    if not sizes or any(not 2 <= n <= 26 for n in sizes):
        raise InvalidOptionError(f"invalid option sizes: expected sizes 2 to 26, got {text!r}")
    return sorted(set(sizes))
