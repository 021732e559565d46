"""Rendering of claim verification results: Markdown, JSON and an SVG plot.

Its text names the lemma checks and the ring lemma by the modules they had when the
published reports were made (``boardproof.solvers.lemmas``, ``boardproof.solvers.sat.ring``:
now :mod:`boardproof.models.minefield.proofs.lemmas` and
:mod:`~boardproof.models.minefield.proofs.ring`), so that the reports made again are byte
for byte the published ones.

:func:`write_report` writes ``<claim>.md``, ``<claim>.json`` and ``<claim>.svg`` (time
and formula size per n) into a directory; counterexample pictures, if any, beside them.

>>> from boardproof.models.minefield.research.claims import verify
>>> result = verify("minefield-no-draw", [2, 3], progress=False)
>>> "| 3 |" in render_markdown(result)
True
>>> plot_svg(result).startswith("<svg")
True
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from boardproof.models.minefield.proofs import sat
from boardproof.models.minefield.research import claims_sections as certificates
from boardproof.models.minefield.research import variant_texts
from boardproof.models.minefield.research.claims import full_step
from boardproof.reports.svg import SvgDocument

ENCODING_TEXT = """## The encoding

Board variables `B(p)`, `W(p)` for every point `p` (never both). The **plain** formula
`F(n)` (`--method plain`, the baseline) has three parts and one lemma:

1. **glyph-free**: for every instance of a forbidden glyph (hard corner: 8 per 2x2
   area; 2x3 and 2x4 switches: 2 per area and orientation) a clause forbidding it;
2. **stuck**: for every point `p` and colour `c`, `p` is occupied or placing `c` on `p`
   completes a glyph: one witness variable per (glyph, placed point) that implies the
   glyph's other cells, and the clause `B(p) or W(p) or witness...`;
3. **no path**: for each colour a *closed set* `R` of its stones: its stones on its first
   edge are in `R`, a stone next to a member is a member, no member lies on the far edge.
   Such a set exists exactly when the colour has no path (the stones reachable from the
   first edge are the least closed set), so the part is sound and complete;
4. **lemma `crosscut`** (below): no 2x2 crosscut.

UNSAT of `F(n)` proves that no reachable dead position without a winner exists on the
n x n board. Every part is tested against a brute-force enumeration (all boards for
n <= 3; all full boards and sampled boards for n = 4: `tests/test_sat_minefield.py`).

The default **split** method (`--method split`) refutes `F(n)` in two smaller steps:

- **fill**: glyph-free, stuck, and *some point empty*. UNSAT means: every glyph-free board
  on which neither colour can place is **full**. (A static fact, proved by SAT per n; it
  needs no reachability argument.)
- **full**: every point filled, no crosscut, neither colour has a path. UNSAT means:
  a full crosscut-free board always has a winner.

Soundness: a model of `F(n)` would be glyph-free and stuck, hence full by *fill*; it is
crosscut-free and path-free, hence a model of *full*. Both steps break the claim's 8
symmetries with lex-leader clauses over the n central points: the identity, the two
mirrors and the half turn, and the four transposes combined with exchanging the colours
(a transpose maps Black's edges to White's). Each step's formula is invariant under
these 8 maps, so the lexicographically least board of every orbit satisfies the
lex-leader clauses: adding them keeps a model whenever one exists (tested: every orbit
of models keeps a representative, n = 3). If *fill* were SAT, the runner falls back to
`F(n)` for a real candidate.

**Candidates.** A model of the formula is only a candidate: the runner searches for a
legal game that reaches it (forward search over positions whose stones are a subset of
the candidate's). A reachable candidate is a counterexample (reported with a picture and
the game); an unreachable one is excluded by a blocking clause (the search is the proof)
and the solver is asked again. The test suite removes the lemma: at n = 3 the weakened
formula has 118 static "draws" (all holding a crosscut), and the search proves each one
unreachable; the candidate loop then excludes all 118 and reaches UNSAT.

**Certificates.** For the sizes marked *DRUP checked*, CaDiCaL 1.9.5 (python-sat,
`with_proof=True`) wrote a DRUP proof of each step, checked by checkers that share no
code with any solver: `dratify` (PyPI, forward checking), the project's own backward
checker (`boardproof.solvers.sat.backward`, in C: it runs the proof forward with unit
propagation to the first conflict, then checks backward by reverse unit propagation
every lemma that conflict depends on), and, on small sizes, its forward checker
(`boardproof.solvers.sat.drat`, pure Python: every lemma). Their tests include tampered
and cut proofs, proofs offered for satisfiable formulas, and broken checker variants
that must accept a bad proof. The proofs are written to `OUT/proofs/` (`--certify-max`).

## The full step: SAT or Lemma H

The SAT *full* step dominates from n = 14 on and grows steeply (see the plot): it asks
the solver to re-prove, for one n at a time, a Hex-type theorem, which is hard for CDCL
solvers (n = 17: 640 s, n = 18: 1249 s of solver time). That theorem holds for every n:
it is **Lemma H** (above), proved once from the Hex theorem.

The **fill** method (`--method fill`) therefore runs only the SAT *fill* step and takes
the full step from Lemma H: a reachable dead position without a winner would be
glyph-free and stuck, hence full (fill step, SAT), crosscut-free (crosscut lemma), hence
won (Lemma H), a contradiction. Its rows say so: method `sat-fill+lemma-hex`, steps
`fill:unsat (SAT) + full: Lemma H`, and `"full_step": "lemma-hex"` in the JSON (rows of
the split method have `"full_step": "sat"`, or no such field in rows written before it
existed). The *fill* step's formula is the split method's, unchanged (same symmetry
breaking, no lemma).

Lemma H is a proof on paper for every n, not a per-n machine check; it rests on the Hex
theorem (Gale 1979). Its statement and the proof's construction are checked by brute
force on every full board for n <= 4 (`tests/test_lemma_hex.py`): the Hex theorem holds
on the rhombus adjacency used in the proof, every crosscut-free full board has a winner
(own breadth-first search and the game model's `winner()`), and replacing the diagonal
steps of the Hex chain as in the proof yields an orthogonal path. A vectorised count
over all 2^25 full 5x5 boards (long test) finds 5,735,478 crosscut-free boards, all won,
and 13,440,514 boards with a crosscut and no winner; at n = 3, the 118 crosscut boards
without a winner are exactly the weakened formula's 118 static "draws" above. The
boards with a crosscut and no winner show that the check can fail, and that the
crosscut lemma is needed.
"""


ORTHODIAGONAL_TEXT = """## Method

**Theorem O** (in Lemmas above) proves the precise claim for every n on which the
no-draw *fill* step is UNSAT; its other ingredients (the crosscut lemma, Lemmas K and
F; Lemma G says why the opponent cannot block a gap) hold for every n. So each row from
n = 5 on is the SAT fill step, the same formula as in `reports/minefield-no-draw.md`
(which has its row for every n = 2..26); the sizes whose DRUP proof was checked are listed
in the certificate table (dratify and our own checkers).

Brute-force checks (`tests/test_orthodiagonal_lemmas.py`, `boardproof.solvers.lemmas`:
every board, numpy bit masks): in the default tests Lemmas G and K on every board up to
3x3 and Lemma F on every full board up to 4x4, each also run on a deliberately broken
variant that must fail (glyph-freeness without hard corners: gaps blocked; Y allowed
diagonal steps: paths crossing at a crosscut; full boards with crosscuts: 8-paths that
are not 4-paths); `make test-long` extends G and K to every 4x4 board (3^16) and F to
every full 5x5 board (2^25). Lemma K needs no crosscut-freeness on these boards (a 4-path
cannot cross an 8-path); the proof uses it.

Sizes up to `--exhaustive-max` (n <= 4) are checked on every reachable position instead:
every terminal position in which a colour has an ortho-diagonal path must have been won
by that colour (the path persists, so this is the theorem's conclusion for every game).
A 5x5 walk of every reachable position is out of reach here (about 3.2 million positions
at 4x4; 5x5 has orders of magnitude more), so 5x5 rests on the theorem and the SAT fill
step, like the larger sizes.
"""


def _fmt_holds(value: bool | None) -> str:
    return {True: "holds", False: "FAILS", None: "undecided"}[value]


def steps_text(size: dict[str, Any]) -> str:
    """How a row's steps were settled, e.g. ``'fill:unsat (SAT) + full: Lemma H'``.

    >>> steps_text({"steps": [{"step": "fill", "result": "unsat"}],
    ...             "full_step": "lemma-hex"})
    'fill:unsat (SAT) + full: Lemma H'
    >>> steps_text({"steps": [{"step": "fill", "result": "unsat"},
    ...                       {"step": "full", "result": "unsat"}]})
    'fill:unsat + full:unsat'
    """
    steps = size.get("steps", [])
    if str(size.get("method", "")).endswith("+theorem-O"):
        return " + ".join([f"{s['step']}:{s['result']} (SAT)" for s in steps]
                          + ["Theorem O"])
    if full_step(size) == "lemma-hex":
        return " + ".join([f"{s['step']}:{s['result']} (SAT)" for s in steps]
                          + ["full: Lemma H"])
    return " + ".join(f"{s['step']}:{s['result']}" for s in steps) or "-"


def coverage(result: dict[str, Any]) -> str:
    """Which sizes rest on SAT alone and which on SAT plus Lemma H (for the headline).

    >>> coverage({"sizes": [{"n": 2}, {"n": 3}, {"n": 4, "full_step": "lemma-hex"}]})
    'n = 2..3 by SAT alone; n = 4 by the SAT fill step and Lemma H'
    >>> coverage({"sizes": [{"n": 2}, {"n": 3}]})
    ''
    """
    by_theorem = [s["n"] for s in result["sizes"]
                  if str(s.get("method", "")).endswith("+theorem-O")]
    if by_theorem:
        rest = [s["n"] for s in result["sizes"] if s["n"] not in by_theorem]
        return "; ".join(([f"n = {_ranges(rest)} by exhaustive enumeration"] if rest else [])
                         + [f"n = {_ranges(by_theorem)} by Theorem O and the SAT fill step"])
    by_sat = [s["n"] for s in result["sizes"] if full_step(s) != "lemma-hex"]
    by_lemma = [s["n"] for s in result["sizes"] if full_step(s) == "lemma-hex"]
    if not by_lemma:
        return ""
    parts = []
    if by_sat:
        parts.append(f"n = {_ranges(by_sat)} by SAT alone")
    parts.append(f"n = {_ranges(by_lemma)} by the SAT fill step and Lemma H")
    return "; ".join(parts)


def _ranges(ns: list[int]) -> str:
    """``[2, 3, 4, 7]`` as ``'2..4, 7'``."""
    out: list[str] = []
    start = prev = ns[0]
    for n in [*ns[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        out.append(str(start) if start == prev else f"{start}..{prev}")
        if n is not None:
            start = prev = n
    return ", ".join(out)


def summary_rows(result: dict[str, Any]) -> list[list[str]]:
    """The summary table: one row per size."""
    rows = []
    for size in result["sizes"]:
        cert = "-"
        steps = size.get("steps", [])
        if any("checks" in (s.get("certificate") or {}) for s in steps):
            cert = certificates.cert_text(size)
        elif steps:
            certs = [s.get("certificate") for s in steps]
            if all(c is not None and c["ok"] for c in certs):
                cert = "DRUP checked"
                if full_step(size) == "lemma-hex":
                    cert += " (fill step)"
            elif any(c is not None and not c["ok"] for c in certs):
                cert = "CHECK FAILED"
        exh = size.get("exhaustive")
        rows.append([
            str(size["n"]),
            _fmt_holds(size["holds"]),
            size["method"],
            steps_text(size),
            str(size.get("variables", "-")),
            str(size.get("clauses", "-")),
            f"{size['seconds']:.2f}",
            cert,
            "-" if exh is None else f"{exh['positions']} pos, {exh['dead']} dead",
        ])
    return rows


HEADER = ["n", "claim", "method", "steps", "variables", "clauses", "seconds", "certificate",
          "exhaustive"]


def text_table(result: dict[str, Any]) -> str:
    """A plain-text table for the terminal."""
    rows = [HEADER, *summary_rows(result)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(HEADER))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
             for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    verdict = _fmt_holds(result["holds"])
    sizes = [s["n"] for s in result["sizes"]]
    how = coverage(result)
    lines.append(f"{result['claim']}: {verdict} for n = {sizes[0]}..{sizes[-1]}"
                 + (f" ({how})" if how else "")
                 if sizes else f"{result['claim']}: no sizes")
    return "\n".join(lines)


def _md_table(header: list[str], rows: list[list[str]]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def render_markdown(result: dict[str, Any], *, command: str | None = None,
                    extra: str = "") -> str:
    """The Markdown report of a verification run."""
    claim = result["claim"]
    variant = result.get("variant")
    lines = [f"# Minefield: `{claim}`" + (f" ({variant} variant)" if variant else ""), ""]
    lines += [f"**Claim.** {result['statement']}", ""]
    sizes = [s["n"] for s in result["sizes"]]
    how = coverage(result)
    lines += [f"**Result: the claim {_fmt_holds(result['holds'])} for every size checked "
              f"(n = {_ranges(sizes)}" + (f": {how}" if how else "") + ").**"
              if result["holds"] else
              f"**Result: {_fmt_holds(result['holds'])}** (see the table).", ""]
    lines += ["## Results per size", "", _md_table(HEADER, summary_rows(result)), ""]
    total = sum(s["seconds"] for s in result["sizes"])
    merged = result.get("merged", [])
    own = sorted(set(sizes) - {n for entry in merged for n in entry["sizes"]})
    run_text = (f"Solver: `{result['solver']}` (python-sat), method `{result['method']}`, "
                f"workers {result['workers']}, cubes {result['cubes']}")
    if result.get("backend"):
        run_text += f" ({result['backend']}; re-run tasks: {len(result['rerun_tasks'])})"
    if result.get("wall_seconds") is not None:
        run_text += f", wall time {result['wall_seconds']:.1f} s"
    if result.get("resumed_tasks"):
        run_text += (f" ({result['resumed_tasks']} of {result['tasks']} tasks resumed from "
                     "a checkpoint" + (": wall time of the original run not known here)"
                                       if result.get("wall_seconds") is None else ")"))
    if merged and own:
        run_text += f" for n = {_ranges(own)}"
    for entry in merged:
        run_text += (f"; n = {_ranges(entry['sizes'])} kept from an earlier report "
                     f"(`{entry['from']}`: solver `{entry['solver']}`, method "
                     f"`{entry['method']}`, workers {entry['workers']}, cubes "
                     f"{entry['cubes']}; not recomputed)")
    lines += [run_text + ". `seconds` is solver time per size "
              f"({total:.1f} s in all; the DRUP checks and the exhaustive walk are "
              "timed separately below); tasks resumed from a checkpoint keep the times of "
              "the run that computed them. For rows proved with Lemma H, `seconds`, "
              "`variables` and `clauses` are those of the fill step alone (the lemma "
              "costs nothing per n).", ""]
    for entry in merged:
        if entry.get("note"):
            lines += [f"Note (n = {_ranges(entry['sizes'])}): {entry['note']}", ""]
    if result.get("note"):
        label = f" (n = {_ranges(own)})" if merged and own else ""
        lines += [f"Note{label}: {result['note']}", ""]
    steps_rows = []
    for size in result["sizes"]:
        for step in size.get("steps", []):
            cert = step.get("certificate")
            cert_text = (f"{cert['lemmas']} lemmas, {'ok' if cert['ok'] else 'FAILED'} "
                         f"({cert['seconds']:.1f} s)" if cert else "-")
            solver = step["solver"] + (" (kept)" if step.get("kept_from") else "")
            steps_rows.append([str(size["n"]), step["step"], step["encoding"],
                               str(step["variables"]), str(step["clauses"]), solver,
                               f"{step['seconds']:.2f}", step["result"],
                               str(step.get("cubes", 1)), cert_text])
    if steps_rows:
        lines += ["### SAT steps", "",
                  _md_table(["n", "step", "encoding", "variables", "clauses", "solver",
                             "seconds", "result", "cubes", "DRUP proof check"], steps_rows),
                  ""]
        lemma_ns = [s["n"] for s in result["sizes"] if full_step(s) == "lemma-hex"]
        if lemma_ns:
            lines += [f"For n = {_ranges(lemma_ns)} there is no SAT *full* step: it is "
                      f"{sat.FULL_BOARD_LEMMA_NAME}, proved for every n (see Lemmas).", ""]
        kept = result.get("kept_full_steps")
        if kept:
            lines += [f"For n = {_ranges(kept['sizes'])} the SAT *full* step (solver marked "
                      f"*kept*) is the earlier report's (`{kept['from']}`, not recomputed; "
                      "it is the same formula), joined with this run's fill step."
                      + "".join(f" Its note: {note}" for note in kept["notes"]), ""]
    lines += certificates.sections(result)
    exh_rows = []
    for size in result["sizes"]:
        e = size.get("exhaustive")
        if e:
            exh_rows.append([str(size["n"]), str(e["positions"]), str(e["positions_unreduced"]),
                             str(e["wins"]["b"]), str(e["wins"]["w"]), str(e["skipped_turns"]),
                             str(e["dead"]), str(e["full_boards"]), str(e["lemma_violations"]),
                             str(e["orthodiagonal_positions"]),
                             str(e["orthodiagonal_failures"]), f"{e['seconds']:.1f}"])
    if exh_rows:
        lines += ["## Exhaustive enumeration", "",
                  "Every position reachable from the start (pie rule pending), one per "
                  "symmetry class (the 4 symmetries that keep the colours; `positions (all)` "
                  "is the sum of the class sizes, i.e. every reachable position). "
                  "`wins` count terminal positions; `skipped` are positions whose only "
                  "move is `pass`; `crosscuts` counts reachable positions holding a 2x2 "
                  "crosscut (the lemma says 0); `8-path` counts ongoing positions where a "
                  "colour has an ortho-diagonal path, and `8-path lost` terminal positions "
                  "where such a colour did not win (claim 3 says 0).", "",
                  _md_table(["n", "positions (classes)", "positions (all)", "Black wins",
                             "White wins", "skipped", "dead", "full boards", "crosscuts",
                             "8-path", "8-path lost", "seconds"], exh_rows), ""]
    bad = [s for s in result["sizes"] if s["counterexample"]]
    for size in bad:
        board, n = sat.parse_board(size["counterexample"])
        lines += [f"### Counterexample, n = {size['n']}", "", "```",
                  sat.board_picture(board, n), "```", f"`{size['counterexample']}`", ""]
        if size.get("candidates", {}).get("line"):
            lines += ["Game: `" + " ".join(size["candidates"]["line"]) + "`", ""]
    cands = [s for s in result["sizes"] if s.get("candidates", {}).get("excluded")]
    for size in cands:
        lines += [f"### Candidates excluded by the reachability search, n = {size['n']}", ""]
        for item in size["candidates"]["excluded"][:5]:
            board, n = sat.parse_board(item["board"])
            lines += ["```", sat.board_picture(board, n), "```",
                      f"`{item['board']}`: unreachable ({item['explored']} positions "
                      "searched)", ""]
    lines += ["## Lemmas", ""]
    for name, proof in result["lemmas"].items():
        lines += [f"- **{name}.** {proof}", ""]
    if extra:
        lines += [extra, ""]
    if command:
        lines += ["## Reproduce", "", "```", command, "```", ""]
    return "\n".join(lines)


#: plot colours of the SAT steps (other step names, e.g. ``plain``, take the last)
_STEP_COLOURS = {"fill": "#1f5fa8", "full": "#d1651b", "": "#2a8a3a"}


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round tick values (1, 2 or 5 times a power of ten apart) covering ``lo..hi``.

    >>> nice_ticks(126, 204541)
    [0, 50000, 100000, 150000, 200000, 250000]
    >>> nice_ticks(0, 1)
    [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    """
    span = max(hi - lo, 1e-12)
    raw = span / max(count, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw * (1 - 1e-9))
    first = math.floor(lo / step + 1e-9) * step
    ticks: list[float] = []
    while not ticks or ticks[-1] < hi - step * 1e-9:
        value = first + len(ticks) * step
        ticks.append(int(round(value)) if step >= 1 else round(value, 10))
    return ticks


def tick_label(value: float) -> str:
    """A short axis label: ``250k``, ``1.5M``, ``0.01``.

    >>> [tick_label(v) for v in (0, 0.001, 50000, 1500000, 1000)]
    ['0', '0.001', '50k', '1.5M', '1000']
    """
    for limit, suffix in ((1e6, "M"), (1e4, "k")):
        if abs(value) >= limit:
            return f"{value / (limit if suffix == 'M' else 1e3):g}{suffix}"
    return f"{value:g}"


def plot_svg(result: dict[str, Any]) -> str:
    """Two panels, one line per SAT step: solve time per n (log scale), clauses per n.

    Both axes carry round ticks with grid lines; sizes whose full step is Lemma H
    have only a fill-step point, and the legend says so.
    """
    rows = [s for s in result["sizes"] if s.get("steps")]
    series: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for size in rows:
        for step in size["steps"]:
            series.setdefault(step["step"], []).append((size["n"], step))
    doc = SvgDocument(660, 340)
    doc.rect(0, 0, 660, 340, fill="white")
    panels = [("solver seconds per step (log scale)", "seconds", True),
              ("clauses per step", "clauses", False)]
    ns_all = [s["n"] for s in rows]
    for k, (title, key, log) in enumerate(panels):
        x0, y0, w, h = 70 + k * 330, 30, 250, 220
        doc.text(x0 + w / 2, 20, title, size=12)
        doc.text(x0 + w / 2, y0 + h + 30, "n (board size)", size=10)
        if not rows:
            doc.rect(x0, y0, w, h, fill="none", stroke="#888")
            continue
        values = {name: [(n, max(float(step[key]), 1e-3)) for n, step in points]
                  for name, points in series.items()}
        ys_all = [math.log10(v) if log else v for pts in values.values() for _, v in pts]
        if log:
            first, last = math.floor(min(ys_all)), math.ceil(max(ys_all))
            ticks: list[float] = list(range(first, max(last, first + 1) + 1))
        else:
            ticks = nice_ticks(0, max(ys_all))
        lo, hi = float(ticks[0]), float(ticks[-1])
        n_lo, n_hi = min(ns_all), max(ns_all)
        span = max(n_hi - n_lo, 1)

        def px(n: float, y: float, x0: float = x0, y0: float = y0, w: float = w, h: float = h,
               lo: float = lo, hi: float = hi, span: float = span,
               n_lo: float = n_lo) -> tuple[float, float]:
            return (x0 + 10 + (w - 20) * (n - n_lo) / span,
                    y0 + h - 10 - (h - 20) * (y - lo) / (hi - lo))

        for tick in ticks:
            _, y = px(n_lo, tick)
            doc.line(x0, y, x0 + w, y, stroke="#e4e4e4", stroke_width=1)
            label = tick_label(10 ** tick) if log else tick_label(tick)
            doc.text(x0 - 6, y + 3, label, size=9, text_anchor="end")
        doc.rect(x0, y0, w, h, fill="none", stroke="#888")
        for name, pts in values.items():
            colour = _STEP_COLOURS.get(name, _STEP_COLOURS[""])
            points = [px(n, math.log10(v) if log else v) for n, v in pts]
            doc.polyline(points, stroke=colour, stroke_width=2)
            for x, y in points:
                doc.circle(x, y, 3, fill=colour)
        every = 1 if len(ns_all) <= 12 else 2
        for n in ns_all:
            if n % every == 0 or n in (n_lo, n_hi):
                x, _ = px(n, lo)
                doc.line(x, y0 + h, x, y0 + h + 3, stroke="#888", stroke_width=1)
                doc.text(x, y0 + h + 14, str(n), size=9)
    legend = [(f"{name} step (SAT)", _STEP_COLOURS.get(name, _STEP_COLOURS[""]), True)
              for name in series]
    lemma_ns = [s["n"] for s in rows if full_step(s) == "lemma-hex"]
    if lemma_ns:
        legend.append((f"full step by Lemma H for n = {_ranges(lemma_ns)} (no SAT point)",
                       "#888", False))
    x = 70.0
    for text, colour, filled in legend:
        doc.rect(x, 307, 10, 10, fill=colour if filled else "none", stroke=colour)
        doc.text(x + 14, 316, text, size=9, text_anchor="start")
        x += 14 + 5.0 * len(text) + 18
    doc.text(330, 334, "times below 0.001 s are drawn at 0.001 s", size=8, fill="#666")
    return doc.to_string()


def report_stem(result: dict[str, Any]) -> str:
    """The reports' file name: the claim, and the variant if it is not the standard one.

    >>> report_stem({"claim": "minefield-no-draw"})
    'minefield-no-draw'
    >>> report_stem({"claim": "minefield-no-draw", "variant": "pinwheel"})
    'minefield-no-draw-pinwheel'
    """
    variant = result.get("variant")
    return result["claim"] + (f"-{variant}" if variant else "")


def write_report(result: dict[str, Any], out_dir: str | Path, *, command: str | None = None,
                 extra: str = "") -> list[Path]:
    """Write ``<claim>.md``, ``.json`` and ``.svg`` into ``out_dir``; return the paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    stem = report_stem(result)
    paths = [out / f"{stem}.md", out / f"{stem}.json", out / f"{stem}.svg"]
    if not extra and result.get("variant"):
        extra = variant_texts.method_text(result)
    elif not extra and result["claim"] == "minefield-no-draw":
        extra = ENCODING_TEXT
    elif not extra and result["claim"] == "minefield-orthodiagonal":
        extra = ORTHODIAGONAL_TEXT
    body = render_markdown(result, command=command, extra=extra)
    body += f"\n![time and formula size per n]({stem}.svg)\n"
    paths[0].write_text(body, encoding="utf-8")
    paths[1].write_text(json.dumps(result, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    paths[2].write_text(plot_svg(result), encoding="utf-8")
    return paths
