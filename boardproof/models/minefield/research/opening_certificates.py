"""The opening table's certificates: one per settled entry, written (made by a search,
taken from the budgeted attempts' own files, or composed of its replies'), checked by the
rules-only checker once (a cache of acceptances), and the second algorithm guided by
each (``openings --certificates``; the command only prints what these say).

Progress goes to the executor's progress lines; the notes (a file kept, written, or not
written and why) to ``notes``, one line each (the command echoes them on stderr).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from typing import Any

from boardproof import models
from boardproof.jobs.executor import Executor
from boardproof.models.minefield.native.certify import CertificateFailed, make_certificate
from boardproof.models.minefield.proofs.certificate import (
    check_certificate,
    load_certificate,
    write_atomic,
)
from boardproof.models.minefield.research import entry_certificates, subtrees
from boardproof.models.minefield.research.subtrees import table_bits
from boardproof.solvers.proof import ProofError

#: where the notes of :func:`write_opening_certificates` go (None: nowhere)
Notes = Callable[[str], None] | None


def certificate_name(n: int, entry: str) -> str:
    """The file of one opening-table entry (``entry``: a first point or ``empty``).

    >>> certificate_name(5, "c3")
    'minefield-5x5-c3.cert.xz'
    """
    return f"minefield-{n}x{n}-{entry}.cert.xz"


def write_opening_certificates(report: dict[str, Any], folder: str, win: str = "orthogonal",
                               executor: Any = None, attempts: str | None = None,
                               parts: dict[str, list[str]] | None = None,
                               notes: Notes = None,
                               variant: str = "standard") -> list[str]:  # fmt: skip
    """One certificate per solved entry of an openings report (the class representative
    of each first point, and the empty board), made on ``executor``'s workers, progress
    on stderr; existing files that name the same root and winner are kept (a stopped run
    resumes), each file is written whole or not at all.

    The sizes settled by budgeted attempts (:mod:`boardproof.models.minefield.research.subtrees`)
    take
    their certificates from ``attempts`` (the journal's ``subtrees.attempt_folder``;
    default: ``folder``), where the attempts left them or where the searches made here
    leave them, and compose those of the entries settled through their replies
    (:mod:`boardproof.models.minefield.research.entry_certificates`); ``parts`` gets the files each
    composed one is made of (for :func:`check_opening_certificates`); ``notes`` a line
    per file kept, written or not written. ``variant``: the glyphs of the report's
    positions (a variant's certificate says so in its header; the budgeted sizes take the
    standard glyphs only)."""
    def note(text: str) -> None:
        if notes is not None:
            notes(text)

    os.makedirs(folder, exist_ok=True)
    jobs: dict[str, Job] = {}  # by the file it writes: a part shared by two plans once
    kept: list[str] = []
    plans: list[tuple[str, entry_certificates.Plan]] = []
    for size in report["sizes"]:
        for entry in size["entries"]:
            if not entry.get("winner"):
                continue
            path = os.path.join(folder, certificate_name(size["n"], entry["class"]))
            if entry_certificates.same_claim(path, entry["position"], entry["winner"], variant):
                kept.append(path)
            elif "run" in size:
                line = "" if entry["class"] == "empty" else entry["class"]
                made = entry_certificates.plan(size["n"], line, entry, attempts or folder, win,
                                               size["run"]["budget"])  # fmt: skip
                plans.append((path, made))
                for part_path, job in entry_certificates.searches(made):
                    jobs.setdefault(part_path, job)
            else:
                jobs[path] = (entry["position"], entry["winner"], win, (), "pairs", 0,
                              *(() if variant == "standard" else (variant,)))
    if kept:
        note(f"certificates: {len(kept)} kept in {folder}")
    written: list[str] = []

    def save(path: str, made: dict[str, Any]) -> None:
        if made["data"] is None:
            note(f"certificate {path}: not written: {made['note']}")
            return
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        write_atomic(path, made["data"])
        if os.path.dirname(os.path.abspath(path)) == os.path.abspath(folder):
            written.append(path)
        note(f"wrote certificate {path} ({made['positions']} positions, "
             f"{len(made['data'])} bytes, {made['seconds']:.1f} s)")

    runner = executor if executor is not None else Executor(1)
    runner.run(make_entry_certificate, list(jobs.items()), progress=True,
               description="certificates",
               on_result=save)  # fmt: skip
    for path, made in plans:
        cert = entry_certificates.assemble(made, win)
        if cert is None:
            note(f"certificate {path}: not written: a part of it is missing")
            continue
        size = write_atomic(path, cert.to_bytes())
        if parts is not None and made.parts:
            parts[path] = entry_certificates.leaves(made)
        how = f"composed of {len(made.parts)} parts, " if made.parts else ""
        note(f"wrote certificate {path} ({how}{len(cert.records)} positions, "
             f"{size} bytes)")
        written.append(path)
    return sorted(set(kept + written))


#: a certificate task: root, winner, win rule, and the search that finds the proof (the
#: pruning rules, the df-pn table scheme, a node budget: 0 none; the table's size follows
#: from the budget as in the budgeted attempts); and a variant's name, for a variant
Job = tuple[Any, ...]


def reprove_from_certificates(report: dict[str, Any], folder: str, files: list[dict[str, Any]],
                              executor: Any = None, cache: str | None = None) -> None:  # fmt: skip
    """The second algorithm of the entries that budgeted attempts settled from
    ``subtrees.GUIDED_CONFIRM_FROM`` on (the attempts skip it): each entry with an
    accepted certificate in ``files`` gets ``check`` from ``subtrees.guided_confirm``
    (on ``executor``'s workers).

    ``cache``: the JSON Lines file of :func:`check_opening_certificates`; a re-proof of
    a file whose bytes the same re-proving code (:func:`reprover_digest`) re-proved before
    is taken from it (its nodes and the seconds measured then), so a report made again
    from the same journal is the same, byte for byte; each new re-proof is added."""
    accepted = {f["file"]: f.get("sha256") for f in files if f.get("ok")}
    digest = reprover_digest()
    earlier = _cached(cache, "reproof", digest)
    shas: dict[str, str] = {}
    jobs: list[tuple[str, str]] = []
    entries: dict[str, dict[str, Any]] = {}
    for size in report["sizes"]:
        if "run" not in size or size["n"] < subtrees.GUIDED_CONFIRM_FROM:
            continue
        for entry in size["entries"]:
            name = certificate_name(size["n"], entry["class"])
            settled = str(entry.get("method", "")).startswith("native df-pn")  # or a split
            if not (entry.get("winner") and settled and name in accepted):
                continue
            path = os.path.join(folder, name)
            sha = accepted[name] or file_sha256(path)
            if sha in earlier:
                entry["check"] = earlier[sha]
                continue
            jobs.append((name, path))
            entries[name] = entry
            shas[name] = sha

    def record(name: str, check: dict[str, Any]) -> None:
        entries[name]["check"] = check
        if cache is not None and check.get("proved"):
            _remember(cache, {"sha256": shas[name], "reproof": digest, "result": check})

    runner = executor if executor is not None else Executor(1)
    runner.run(subtrees.guided_confirm, jobs, progress=True, on_result=record,
               description="re-proofs guided by the certificates")  # fmt: skip


def check_opening_certificates(paths: list[str], executor: Any = None,
                               cache: str | None = None,
                               parts: dict[str, list[str]] | None = None,
                               ) -> list[dict[str, Any]]:  # fmt: skip
    """Check every certificate of ``paths`` with the rules-only checker
    (:func:`check_entry_certificate`, on ``executor``'s workers), in the order given.

    ``cache``: a JSON Lines file of earlier checks (the file's SHA-256, the checker's
    :func:`checker_digest`, what it said): a file whose bytes an earlier run of the same
    checker accepted is not checked again (``"cached": true``; a 6x6 certificate takes
    minutes), and every acceptance of this run is added to it as it ends.

    ``parts``: for a composed certificate, the files of its parts
    (``entry_certificates.leaves``): they are checked first, each on its own (a
    worker each), then the composed file with the accepted ones as ``accepted_before``:
    only its records that no part holds (the roots of the splits) are checked again."""
    parts = parts or {}
    digest = checker_digest()
    earlier = _cached(cache, "checker", digest)
    done: dict[str, dict[str, Any]] = {}

    def record(path: str, result: dict[str, Any]) -> None:  # as each check ends
        done[path] = {**result, "sha256": file_sha256(path)}
        if cache is not None and result.get("ok"):
            _remember(cache, {"sha256": done[path]["sha256"], "checker": digest,
                              "result": result})  # fmt: skip

    def run(batch: list[str], with_parts: bool) -> None:
        jobs = []
        for path in batch:
            sha = file_sha256(path)
            if sha in earlier:
                done[path] = {**earlier[sha], "file": os.path.basename(path), "sha256": sha,
                              "cached": True}  # fmt: skip
                continue
            good = tuple(p for p in parts.get(path, []) if done.get(p, {}).get("ok"))
            jobs.append((path, (path, good if with_parts else ())))
        runner = executor if executor is not None else Executor(1)
        runner.run(_check_task, jobs, progress=True, description="certificate checks",
                   on_result=record)  # fmt: skip

    leaves = sorted({p for path in paths for p in parts.get(path, [])} - set(paths))
    run(leaves + [path for path in paths if path not in parts], False)
    run([path for path in paths if path in parts], True)
    return [done[path] for path in paths if path in done]


def _check_task(arg: tuple[str, tuple[str, ...]]) -> dict[str, Any]:
    return check_entry_certificate(*arg)


def checker_digest() -> str:
    """A digest of the checker's code (the certificate module, the Minefield rules it
    plays, the proof errors): an earlier check counts only for the same code.

    >>> len(checker_digest())
    16
    """
    import boardproof.models.minefield as rules
    import boardproof.models.minefield.proofs.certificate as checker
    import boardproof.solvers.proof as proof

    digest = hashlib.sha256()
    folder = os.path.dirname(rules.__file__)
    files = [checker.__file__, proof.__file__] + [
        os.path.join(folder, name) for name in sorted(os.listdir(folder)) if name.endswith(".py")]
    for name in files:
        with open(name, "rb") as handle:
            digest.update(handle.read())
    return digest.hexdigest()[:16]


def reprover_digest() -> str:
    """A digest of the re-proving code (the native Minefield search's C source, its
    Python side, :func:`subtrees.guided_confirm`): an earlier re-proof counts only for
    the same code (the source, not the compiled module: the same on every machine).

    >>> len(reprover_digest())
    16
    """
    import ast

    import boardproof.models.minefield.native.prover as prover

    digest = hashlib.sha256()
    source = os.path.join(os.path.dirname(prover.__file__), "minefield.c")
    for name in (source, prover.__file__):
        with open(name, "rb") as handle:
            digest.update(handle.read())
    with open(subtrees.__file__, encoding="utf-8") as handle:  # the file's, as it is read
        text = handle.read()
    function = next(node for node in ast.parse(text).body if isinstance(
        node, ast.FunctionDef) and node.name == "guided_confirm")  # fmt: skip
    digest.update((ast.get_source_segment(text, function) or "").encode())
    digest.update(repr((subtrees.GUIDED_FACTOR, subtrees.CONFIRM_MIN,
                        subtrees.MAX_CONFIRM_BITS)).encode())  # fmt: skip
    return digest.hexdigest()[:16]


def file_sha256(path: str) -> str:
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def _cached(cache: str | None, kind: str, digest: str) -> dict[str, dict[str, Any]]:
    """The results of ``cache`` of one ``kind`` (``checker``: acceptances, ``reproof``:
    guided re-proofs) made by the code of ``digest``, by file SHA-256."""
    found: dict[str, dict[str, Any]] = {}
    if cache is None or not os.path.exists(cache):
        return found
    with open(cache, encoding="utf-8") as handle:
        for text in handle:
            try:
                row = json.loads(text)
            except json.JSONDecodeError:
                continue  # a line cut by an interrupt: that work is made again
            if isinstance(row, dict) and row.get(kind) == digest and isinstance(
                    row.get("result"), dict):  # fmt: skip
                found[row["sha256"]] = row["result"]
    return found


def _remember(cache: str, row: dict[str, Any]) -> None:
    """Add one line to the cache (made as the work ends: an interrupt loses none)."""
    os.makedirs(os.path.dirname(cache) or ".", exist_ok=True)
    with open(cache, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(row, sort_keys=True) + "\n")


def check_entry_certificate(path: str, parts: tuple[str, ...] = ()) -> dict[str, Any]:
    """One task of :func:`check_opening_certificates`: what ``check-proof`` says of the
    file (root, winner, listed positions, positions rebuilt from the rules, lemmas), or
    the one-line reason it is refused. ``parts``: files of certificates accepted before
    (a composed certificate's parts): the records they hold are not checked again
    (``check_certificate(accepted_before=...)``; ``trusted`` says how many)."""
    out: dict[str, Any] = {"file": os.path.basename(path)}
    try:
        before = [load_certificate(part) for part in parts]
        report = check_certificate(load_certificate(path), accepted_before=before)
    except (OSError, ProofError) as error:
        return {**out, "ok": False, "error": str(error)}
    out = {**out, "ok": True, "root": report.root, "winner": report.winner,
           "positions": report.positions, "replies": report.replies,
           "lemmas": list(report.lemmas)}  # fmt: skip
    if parts:
        out.update(parts=len(parts), trusted=report.trusted)
    return out


def make_entry_certificate(job: Job) -> dict[str, Any]:
    """One task of :func:`write_opening_certificates`: :data:`Job` -> the file's bytes
    (None if df-pn fails), its positions and the seconds it took."""
    root, winner, win, rules, table, budget, *rest = job
    game = models.get("minefield", win=win, variant=rest[0] if rest else "standard")
    start = time.perf_counter()
    extra: dict[str, Any] = {}
    if budget:  # the budgeted attempts' search (always with Theorem O, as theirs)
        extra = {"rules": rules, "table": table, "node_limit": budget,
                 "tt_bits": table_bits(budget), "theorem_o": True}  # fmt: skip
    elif rest:  # a variant's entry: its table's df-pn (no Theorem O), the same rules
        from boardproof.models.minefield.research.openings import VARIANT_RULES, VARIANT_TABLE

        extra = {"rules": VARIANT_RULES, "table": VARIANT_TABLE}
    try:
        cert = make_certificate(game.parse_position(root), winner=game.player_of(winner),
                                **extra)  # fmt: skip
    except CertificateFailed as error:
        return {"data": None, "note": str(error)}
    data = cert.to_bytes()
    return {"data": data, "positions": len(cert.records),
            "seconds": round(time.perf_counter() - start, 3)}  # fmt: skip
