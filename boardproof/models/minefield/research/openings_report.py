"""The Minefield opening report: Markdown, JSON and one SVG table per size.

The computing is :func:`.openings.build_report`; this module only renders its result.
Its text names three modules as they were called when the published report was made
(``boardproof.solvers.native``, ``boardproof.solvers.certificate`` and
``boardproof.analysis.best_first``: now :mod:`boardproof.models.minefield.native`,
:mod:`boardproof.models.minefield.proofs.certificate` and :mod:`.best_first`), so that a
report made again from the same journal is byte for byte the published one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from boardproof.models.drawing import SvgDocument


def check_summary(size: dict[str, Any]) -> str:
    """One cell: how many entries the native df-pn re-proved, and any that it did not.

    >>> check_summary({"entries": [{"class": "a1", "winner": "b", "check": {"proved": True}}]})
    'all 1'
    >>> check_summary({"entries": [{"class": "b2", "winner": "w", "check": {"proved": None}}]})
    '0 of 1 (not settled: b2)'
    """
    solved = [e for e in size.get("entries", []) if e["winner"] is not None]
    checks = [(e["class"], (e.get("check") or {}).get("proved")) for e in solved]
    if not any(e.get("check") for e in solved):  # no second search ran
        return "-"
    wrong = [name for name, proved in checks if proved is False]
    open_ = [name for name, proved in checks if proved is None]
    if wrong:
        return "**DISAGREES** on " + ", ".join(wrong)
    if open_:
        return f"{len(checks) - len(open_)} of {len(checks)} (not settled: {', '.join(open_)})"
    return f"all {len(checks)}"


def table_svg(size: dict[str, Any]) -> str:
    """A picture of one opening table: each point coloured by who wins after a stone there."""
    n = size["n"]
    cell = 44
    board = 26 + n * cell + 8
    width = max(board, 260)  # room for the caption under small boards
    margin = 26 + (width - board) / 2
    doc = SvgDocument(width, 26 + n * cell + 44)
    doc.rect(0, 0, doc.width, doc.height, fill="#ffffff")
    winners = {row["point"]: row["winner"] for row in size["openings"]}
    files = "abcdefghijklmnopqrstuvwxyz"
    for r in range(n):
        y = 8 + (n - 1 - r) * cell
        doc.text(margin - 13, y + cell / 2 + 4, str(r + 1), size=11, fill="#444")
        for f in range(n):
            x = margin + f * cell
            point = f"{files[f]}{r + 1}"
            who = winners[point]
            black = who == "b"
            fill = "#222222" if black else "#f2f2f2" if who == "w" else "#bbbbbb"
            doc.rect(x, y, cell, cell, fill=fill, stroke="#888", stroke_width=1)
            colour = "#ffffff" if black else "#222222"
            label = "B wins" if black else "W wins" if who == "w" else "unsolved"
            doc.text(x + cell / 2, y + cell / 2 - 2, point, size=10, fill=colour)
            doc.text(x + cell / 2, y + cell / 2 + 12, label, size=9, fill=colour)
    for f in range(n):
        doc.text(margin + f * cell + cell / 2, 8 + n * cell + 14, files[f], size=11, fill="#444")
    doc.text(doc.width / 2, doc.height - 18, f"{n}x{n}: who wins after a black stone there",
             size=10, fill="#444")  # fmt: skip
    doc.text(doc.width / 2, doc.height - 5, "(White to move, no swap)", size=10, fill="#444")
    return doc.to_string()


#: the paragraph of a report made with ``--method dfpn`` (issue 18)
DFPN_FIRST_NOTE = (
    "From 5x5 on (`--method dfpn`, the default where the C module is built), each entry "
    "is proved first by the native df-pn (method `native df-pn`) in the ortho-diagonal "
    "game, which has the same winners by Theorem O (`reports/minefield-orthodiagonal.md`), "
    "and its winner is proved a second time by the native alpha-beta (the second search), "
    "whose move order comes from the df-pn table (move order only: the value is "
    "alpha-beta's own). A winning move of a side to move is the one the df-pn proof goes "
    "through, not necessarily alpha-beta's first. Smaller sizes are solved as without "
    "the option."
)


#: the paragraph of a variant's report (``--variant``)
VARIANT_NOTE = (
    "**Variant {variant}** (AbstractPlay's glyph set, `docs/games/minefield.md` "
    "\"Variants\"): the forbidden glyphs are {glyphs}. The searches use Theorem O (the "
    "ortho-diagonal stop) for the standard glyphs only (for this variant the no-draw and "
    "ortho-diagonal claims are proved by SAT for n = 2..26, "
    "`reports/minefield-no-draw-{variant}.md`, but no search relies on them), so here every "
    "search plays the {win} game itself, and df-pn asks both questions (does Black win? "
    "does White win?) before it calls an entry a draw. The standard table is "
    "`reports/minefield-openings.md`."
)


#: the paragraph of a variant's report solved by the Python search alone (``--method
#: alphabeta``; the native searches take every variant since issue 30)
PYTHON_ONLY_NOTE = (
    "**Solved by the Python alpha-beta alone** (`--method alphabeta`): no second search "
    "re-proves the entries and no certificate is written; the statements above about df-pn "
    "and certificates do not apply to this report."
)


def stem(report: dict[str, Any]) -> str:
    """The file names' stem: ``minefield-openings``, and ``-VARIANT`` for a variant.

    >>> stem({}), stem({"variant": "pinwheel"})
    ('minefield-openings', 'minefield-openings-pinwheel')
    """
    variant = report.get("variant")
    return "minefield-openings" + (f"-{variant}" if variant else "")


def render_markdown(report: dict[str, Any]) -> str:
    """The Markdown report."""
    variant = report.get("variant")
    title = "# Minefield on small boards: the empty board and the opening table"
    lines = [
        title + (f" ({variant} variant)" if variant else ""),
        "",
        f"Generated by `{report['command']}` (deterministic without `--timeout`: the "
        "same command gives the same files). Rules: `rules/minefield.md`, "
        f"{report['win_rule']} win, no pie rule for these positions.",
        "",
        "- **Empty board**: who wins the empty n x n board, Black to move, without the pie "
        "rule, and a winning first move.",
        "- **Opening table**: for each first point, who wins the position *one black stone "
        "there, White to move, no swap*. With the pie rule, White swaps exactly the "
        "points marked **B** (so the second player always wins).",
        "",
        "Every entry is a proof by exhaustive alpha-beta search with a transposition "
        "table (symmetric points are solved once), and its winner is proved a second time "
        "by a different algorithm, the native proof-number search (df-pn) with its own "
        "table (for a side to move that wins: the position after its winning move): the "
        "last column of the summary and each size's entry table say so. The "
        "native (C) alpha-beta of `boardproof.solvers.native` also gives the exact game "
        "length with best play (fastest win, longest defence) up to 4x4. Both native "
        "searches are checked in the tests against the retrograde enumeration of every "
        "3x3 position and against the Python searches on larger boards, and the Python "
        "alpha-beta (`--method alphabeta`) gives the same table for n <= 4. "
        "`boardproof solve minefield POSITION --proof FILE` writes a certificate for an "
        "entry that `boardproof check-proof FILE` re-checks with the rules only (small "
        "boards: a 5x5 proof tree is too large to write).",
    ]
    dfpn_first = report.get("prover") == "dfpn"
    if variant:
        from boardproof.models.minefield.board import VARIANT_GLYPHS

        lines += ["", VARIANT_NOTE.format(variant=variant, win=report["win_rule"],
                                          glyphs=", ".join(VARIANT_GLYPHS[variant]))]
        if not any(e.get("check") for size in report["sizes"] for e in size["entries"]):
            lines += ["", PYTHON_ONLY_NOTE]
    if dfpn_first:
        note = DFPN_FIRST_NOTE
        if variant:  # no Theorem O: the df-pn searches the game itself
            note = note.replace(" in the ortho-diagonal game, which has the same winners by "
                                "Theorem O (`reports/minefield-orthodiagonal.md`), ", " in "
                                "the game itself (no Theorem O for a variant), with the "
                                "pruning rules must3, win3 and weak (proved from the glyph "
                                "roles alone, so for every glyph set; its certificates too), ")
            note = note.replace("by the native alpha-beta (the second search), ",
                                "by the native alpha-beta (the second search) with the same "
                                "pruning rules, ")
        lines += ["", note]
    lines += [
        "",
        "| n | empty board | winning first move | plies | Black-winning first points | "
        f"classes solved | nodes | re-proved by {'a second search' if dfpn_first else 'df-pn'} |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for size in report["sizes"]:
        empty = size["empty"]
        open_ = "not known" if size.get("run") else "unsolved"
        who = {"b": "Black wins", "w": "White wins"}.get(empty["winner"], open_)
        points = ", ".join(size["black_wins"]) or ("none so far" if size.get("run") else "none")
        if size["unsolved"]:
            points += (f" (not settled: {', '.join(size['unsolved'])})" if size.get("run")
                       else f" (unsolved: {', '.join(size['unsolved'])})")  # fmt: skip
        first = {"b": empty["best_move"], "w": "none (every move loses)"}.get(empty["winner"], "?")
        plies = empty.get("plies") or "-"
        lines.append(
            f"| {size['n']} | {who} | {first} | {plies} | {points} | {size['classes']} | "
            f"{size['nodes']} | {check_summary(size)} |"
        )
    for size in report["sizes"]:
        n = size["n"]
        lines += ["", f"## {n} x {n}", "", f"![opening table {n}x{n}]({stem(report)}-{n}.svg)",
                  ""]  # fmt: skip
        lines.append("| rank | " + " | ".join("abcdefghijklmnopqrstuvwxyz"[:n]) + " |")
        lines.append("|---" * (n + 1) + "|")
        by_point = {row["point"]: row for row in size["openings"]}
        for r in range(n, 0, -1):
            cells = []
            for f in "abcdefghijklmnopqrstuvwxyz"[:n]:
                row = by_point[f"{f}{r}"]
                reply = f" ({row['best_move']})" if row["best_move"] else ""
                plies = f", {row['plies']}" if row.get("plies") else ""
                cells.append(f"{(row['winner'] or '?').upper()}{reply}{plies}")
            lines.append(f"| {r} | " + " | ".join(cells) + " |")
        lines += [
            "",
            "Each cell: who wins after a black stone there (B/W); for W, White's winning "
            "reply in brackets; then, where known, the number of plies still to play with "
            "best play.",
        ]
        if size["unsolved"] and size.get("run"):
            lines += ["", f"`?`: not settled by the attempts so far ({limit_text(size['run'])}; "
                      f"see the budgeted attempts below): {', '.join(size['unsolved'])}."]
        elif size["unsolved"]:
            lines += ["", f"`?`: not solved within the time limit ({', '.join(size['unsolved'])})."]
        if size["consistent"] is False:
            lines.append("")
            lines.append("**Inconsistent**: the empty-board value disagrees with the table.")
        if size.get("entries"):
            second = "df-pn" if all((e.get("check") or {}).get("method") != "native alpha-beta"
                                    for e in size["entries"]) else "second search"
            lines += ["", f"| solved as | position | winner | method | nodes | {second} re-proof "
                      f"| {second} nodes |", "|---|---|---|---|---|---|---|"]  # fmt: skip
            for e in size["entries"]:
                check = e.get("check") or {}
                proof = {True: "agrees", False: "**disagrees**", None: "not settled"}[
                    check.get("proved")] if check else "-"  # fmt: skip
                if check.get("after"):
                    proof += f" (after {check['after']})"
                if check.get("rules"):  # re-proved with the attempts' pruning rules
                    proof += f" (with {', '.join(check['rules'])})"
                if check.get("guided"):  # its winner's moves tried first from its certificate
                    proof += f" (moves from the {check['guided']})"
                lines.append(
                    f"| {e['class']} | `{e['position']}` | {e['winner'] or '?'} | "
                    f"{e.get('method') or '-'} | {e['nodes']} | {proof} | "
                    f"{check.get('nodes', '-')} |"
                )
        if size.get("run"):
            lines += budgeted_section(report, size)
    if report.get("certificates"):
        lines += certificates_section(report["certificates"])
    lines.append("")
    return "\n".join(lines)


def second_search_text(run: dict[str, Any]) -> str:
    """How the budgeted attempts' winners are proved a second time (``run["second"]``).

    >>> second_search_text({"second": "certificate"})[:36]
    'Every settled entry is re-proved by '
    """
    if run.get("second") == "certificate":
        return ("Every settled entry is re-proved by the native alpha-beta (no pruning rule) "
                "once its certificate is written (`--certificates`, below; an entry settled "
                "through its replies: the one composed of theirs): at the winner's nodes it "
                "tries first the move the certificate gives. Only the order comes from the "
                "file: alpha-beta values every reply of the loser itself and checks that the "
                "move wins (a wrong move would cost nodes, not the value). Runs without "
                "certificates have no second proof yet (`-`).")
    return ("Every settled attempt's winner is re-proved by the native alpha-beta (hints "
            "from the df-pn table, no pruning rule; when its budget runs out, again with "
            "the attempts' rules: the entry table says \"with\" them).")


def certificates_section(certificates: dict[str, Any]) -> list[str]:
    """The certificates written by ``--certificates`` and what the rules-only checker said
    of each in the same run."""
    files = certificates["files"]
    good = sum(1 for f in files if f.get("ok"))
    lines = ["", "## Certificates", "",
             f"The run wrote or kept {len(files)} certificates in `{certificates['folder']}` "
             "(one per settled entry; an entry settled through its replies has one "
             "composed of its replies' certificates, in one file) and checked each with the "
             "rules-only "
             "checker of `boardproof.solvers.certificate`: "
             f"**{good} of {len(files)} "
             "accepted**. `boardproof check-proof FILE` checks one again. A certificate "
             "lists the winner's positions with a move each; the checker rebuilds every "
             "reply of the loser from the rules (the positions checked) and finds every win "
             "in one by itself. The format and the lemma: `docs/proofs.md`."
             + cached_text(files), "",
             "| file | root | winner | listed positions | positions checked | lemmas | "
             "check |", "|---|---|---|---:|---:|---|---|"]  # fmt: skip
    for f in files:
        if f.get("ok"):
            how = "accepted"
            if f.get("trusted"):
                how = (f"accepted ({f['trusted']:,} of its positions in the checks of its "
                       f"{f['parts']} parts, each accepted on its own)")
            lines.append(f"| {f['file']} | `{f['root']}` | {f['winner']} | {f['positions']:,} "
                         f"| {f['replies']:,} | {', '.join(f['lemmas']) or '-'} | {how} |")
        else:
            lines.append(f"| {f['file']} | - | - | - | - | - | **refused**: {f['error']} |")
    return lines


def open_replies_text(entries: list[dict[str, Any]]) -> list[str]:
    """What the split entries that some replies settled still need: their open replies.

    >>> open_replies_text([{"class": "a3", "settled_replies": 2, "replies": 4,
    ...                     "open": ["d1", "c2"], "position": "6/6/6/b5/6/6 w -"}])[1]
    '**Open replies.** a3 (White to move): d1, c2 (the other 2 of its 4 replies are \
settled: each loses for White).'
    """
    lines = []
    for e in entries:
        if e.get("winner") or not e.get("open") or not e.get("settled_replies"):
            continue
        name = e["class"] if e["class"] != "empty" else "the empty board"
        lines.append(_open_text(name, e))
        if e["class"] != "empty":  # (the empty board's replies are the entries above)
            lines += _below_text(e["class"], e.get("below", {}))
    if not lines:
        return []
    if len(lines) == 1:
        return ["", "**Open replies.** " + lines[0] + "."]
    return ["", "**Open replies** (each open position, then the open ones below it):", "",
            *[f"- {line}." for line in lines]]


#: an open position's replies not attempted yet are named up to this many, else counted
NAMED_UNTRIED = 6


def _open_text(name: str, e: dict[str, Any]) -> str:
    """One open split position: its open replies (attempted, and not attempted yet).

    >>> _open_text("a3 c1", {"position": "6/6/6/b5/6/2w3 b -", "replies": 4,
    ...                      "open": ["e2", "b1", "f1"], "untried": ["f1"]})
    'a3 c1 (Black to move): e2, b1 open, f1 not attempted yet (the other 1 of its 4 \
replies are settled: each loses for Black)'
    """
    mover = "White" if e["position"].split()[1] == "w" else "Black"
    untried = [r for r in e.get("untried", []) if r in e["open"]]
    tried = [r for r in e["open"] if r not in untried]
    named = ", ".join(untried) if len(untried) <= NAMED_UNTRIED else f"{len(untried)} replies"
    said = ([f"{', '.join(tried)} open"] if tried else []) + (
        [f"{named} not attempted yet"] if untried else [])  # fmt: skip
    what = ", ".join(said) if untried else ", ".join(e["open"])
    settled = e["replies"] - len(e["open"]) if e.get("replies") is not None else None
    return (f"{name} ({mover} to move): {what}"
            + (f" (the other {settled} of its {e['replies']} replies are settled: each loses "
               f"for {mover})" if settled else ""))  # fmt: skip


def _below_text(line: str, below: dict[str, Any]) -> list[str]:
    out = []
    for reply, kid in below.items():
        name = f"{line} {reply}".strip()
        out.append(_open_text(name, kid))
        out += _below_text(name, kid.get("below", {}))
    return out


def cached_text(files: list[dict[str, Any]]) -> str:
    """What the certificates paragraph says of the checks an earlier run made.

    >>> cached_text([{"ok": True}])
    ''
    >>> cached_text([{"ok": True, "cached": True}, {"ok": True}]).split(" by ")[0]
    ' 1 of them was accepted'
    """
    cached = sum(1 for f in files if f.get("cached"))
    if not cached:
        return ""
    return (f" {cached} of them {'was' if cached == 1 else 'were'} accepted by an earlier run "
            "of the same checker code on the same bytes (by SHA-256, kept next to the run's "
            "journal), the others in this run.")


def _hours(value: float | None, least: bool = False) -> str:
    return "-" if value is None else ("≥ " if least else "") + f"{value:g}"


def rules_text(rules: list[str]) -> str:
    """How the report names a set of pruning rules.

    >>> rules_text(["must3"]), rules_text([]), rules_text(["must3", "order"])
    ('+must3', 'no rule', '+must3+order')
    """
    return "".join(f"+{rule}" for rule in rules) or "no rule"


def limit_text(run: dict[str, Any]) -> str:
    """The limit that applied to a budgeted size's entries (a node budget, not a time).

    >>> limit_text({"budget": 10**8, "rules": ["must3"], "depth": 1})
    'attempts of at most 100,000,000 df-pn nodes each with +must3, split 1 ply below the entry'
    >>> limit_text({"budget": 10**8, "rules": ["must3"], "depth": 0, "grow": "best"})[-39:]
    'df-pn nodes each with +must3, not split'
    """
    depth = run["depth"]
    head = f"attempts of at most {run['budget']:,} df-pn nodes each with " + rules_text(
        run.get("rules", []))
    if not depth:
        return head + ", not split"
    return (head + f", split {depth} pl{'y' if depth == 1 else 'ies'} below the entry"
            + (", best first" if run.get("grow") == "best" else ""))  # fmt: skip


def growth_text(run: dict[str, Any]) -> str:
    """How a budgeted size's unsettled attempts were split (``grow``: breadth or best first).

    >>> growth_text({"depth": 1})[:60]
    'An attempt that runs out of budget is split into one attempt'
    >>> growth_text({"depth": 0, "grow": "best"})[:60]
    'An attempt that runs out of budget is not split (`--depth 0`'
    """
    if not run["depth"]:
        return ("An attempt that runs out of budget is not split (`--depth 0`): its entry "
                "stays open until an attempt with a bigger budget or other rules settles it.")
    depth = f"{run['depth']} pl{'y' if run['depth'] == 1 else 'ies'}"
    rule = ("the side to move wins a split position as soon as one reply wins for it, and "
            "loses it when every reply loses.")
    if run.get("grow") == "best":
        return ("An attempt that runs out of budget is split: its replies (one per symmetry "
                "class) become positions to attempt, and the next attempt is always the "
                "**most-proving** position of the entry's tree (proof-number search over the "
                "journal, with the numbers each df-pn table left for the replies it did not "
                "settle: at each position the reply that is cheapest to refute, "
                "`boardproof.analysis.best_first`), one per worker, down to "
                f"{depth} below the entry; " + rule)
    return ("An attempt that runs out of budget is split into one attempt per reply of the "
            "side to move (one per symmetry class, the reply its df-pn table found most "
            f"promising first), down to {depth} below the entry; " + rule)


def budgets_text(budgets: list[dict[str, Any]]) -> str:
    """The budgets and rules of an entry's attempts, the biggest budget first.

    >>> budgets_text([{"budget": 10**8, "rules": ["must3"], "attempts": 1},
    ...               {"budget": 2 * 10**7, "rules": [], "attempts": 4}])
    '1 x 100,000,000 +must3; 4 x 20,000,000 no rule'
    """
    return "; ".join(f"{b['attempts']} x {b['budget']:,} {rules_text(b['rules'])}"
                     for b in budgets) or "-"  # fmt: skip


def measured_text(guess: dict[str, Any]) -> str:
    """An entry's own attempts with the estimate's rules against its estimate.

    >>> measured_text({"measured": {"nodes": 54_095_214, "settled": True, "ratio": 0.05}})
    'settled in 54,095,214: 0.05x'
    >>> measured_text({"measured": {"nodes": 10**8, "settled": False, "ratio": 0.09}})
    'not in 100,000,000: over 0.09x'

    Against an estimate that is only a lower bound, a settled entry's ratio is an upper
    bound, and an unsettled one's says nothing:

    >>> measured_text({"measured": {"nodes": 10**8, "settled": False, "ratio": 0.09},
    ...                "at_least": True})
    'not in 100,000,000'
    """
    found = guess.get("measured")
    if not found:
        return "-"
    if guess.get("at_least"):
        return (f"settled in {found['nodes']:,}: ≤ {found['ratio']:g}x" if found["settled"]
                else f"not in {found['nodes']:,}")  # fmt: skip
    if found["settled"]:
        return f"settled in {found['nodes']:,}: {found['ratio']:g}x"
    return f"not in {found['nodes']:,}: over {found['ratio']:g}x"


def backtest_text(n: int, backtest: dict[str, Any] | None) -> str:
    """One sentence: the estimates of size ``n`` by the same method against its nodes.

    >>> backtest_text(5, {"a1": {"ratio": 9.5}, "b1": {"ratio": 0.8}})[:80]
    ' Checked one size down: estimated by the same method from 2x2..4x4 with the same'

    Where the measured nodes are only a lower bound (``at_least``: not settled within
    them), its ratio is one too (``over``):

    >>> backtest_text(6, {"a1": {"ratio": 0.5, "at_least": True}, "b1": {"ratio": 0.8}})[-76:]
    'settled entries took 0.8x to 0.8x the estimated nodes (b1 0.8; a1 over 0.5).'
    """
    if not backtest:
        return ""
    ratios = {point: b["ratio"] for point, b in backtest.items() if not b.get("at_least")}
    over = {point: b["ratio"] for point, b in backtest.items() if b.get("at_least")}
    head = (f" Checked one size down: estimated by the same method from {n - 3}x{n - 3}.."
            f"{n - 1}x{n - 1} with the same rules, the {n}x{n} ")
    each = ", ".join(f"{point} {ratio:g}" for point, ratio in ratios.items())
    if not over:
        low, high = min(ratios.values()), max(ratios.values())
        return (head + f"entries then took {low:g}x to {high:g}x the estimated nodes "
                f"(measured / estimated: {each}).")  # fmt: skip
    bounds = ", ".join(f"{point} over {ratio:g}" for point, ratio in over.items())
    if not ratios:
        return head + f"entries are all unsettled so far (measured / estimated: {bounds})."
    low, high = min(ratios.values()), max(ratios.values())
    return (head + f"settled entries took {low:g}x to {high:g}x the estimated nodes "
            f"({each}; {bounds}).")  # fmt: skip


def empty_board_text(size: dict[str, Any]) -> str:
    """What is known of a budgeted size's empty board (Black to move, no pie rule), and
    what is not: Black wins it iff some entry is a Black win."""
    n = size["n"]
    empty = next(e for e in size["entries"] if e["class"] == "empty")
    rows = size["openings"]
    head = f"**The empty {n}x{n} board** (Black to move, no pie rule): "
    first = empty.get("best_move")
    if empty["winner"] == "b":
        how = ("its own attempt proves it" if empty.get("method") == "native df-pn" else
               f"the entry {first} is a Black win (White to move loses), so {first} is a "
               "winning first move")  # fmt: skip
        return head + f"**Black wins**, first move {first}: {how}."
    if empty["winner"] == "w":
        how = ("its own attempt proves it" if empty.get("method") == "native df-pn" else
               "every entry is a White win")  # fmt: skip
        return head + f"**White wins** (every first move loses): {how}."
    white = [r["point"] for r in rows if r["winner"] == "w"]
    classes = [e["class"] for e in size["entries"] if e["class"] != "empty" and not e["winner"]]
    text = (head + "**not known yet.** Black wins it as soon as one entry is a Black win "
            "(that point is then a winning first move); White wins it only when every entry "
            "is a White win (or when its own attempt settles it). So far no entry is a Black "
            "win")
    if white:
        text += (f"; White wins after {len(white)} of the {len(rows)} first points "
                 f"({', '.join(white)}): none of them is a winning first move")
    return text + (f"; the other {len(size['unsolved'])} points (classes {', '.join(classes)}) "
                   "and the empty board's own attempts are not settled.")


def attempts_basis_text(n: int, run: dict[str, Any]) -> str:
    """Where a size's estimates took the size below from this run's attempts (it was
    settled by attempts too, and no search without a budget could settle all of it).

    >>> attempts_basis_text(7, {"estimate_from_attempts": True, "estimate_rate": 238783})[:62]
    ' For 6x6, settled by attempts in this run too, the numbers are'
    """
    if not run.get("estimate_from_attempts"):
        return ""
    k = n - 1
    rate = run.get("estimate_rate")
    return (f" For {k}x{k}, settled by attempts in this run too, the numbers are those of "
            "its entries' own attempts with these rules: the nodes one settled in, else the "
            "biggest budget none settled in, a lower bound; an estimate made from a lower "
            f"bound, or from a {k}x{k} total that holds one, is a lower bound too (`≥`: "
            "the estimate grows with every number it is made from)"
            + (f"; the hours at the rate of this run's {k}x{k} attempts ({rate:,} df-pn nodes "
               "per CPU second)" if rate else "") + ".")


def budgeted_section(report: dict[str, Any], size: dict[str, Any]) -> list[str]:
    """The lines of a size settled by budgeted attempts (issue 18): the budget, the cost
    each entry was estimated at before it was attempted, what every attempt in the journal
    got (whatever its budget and rules), what is known of the empty board, how to go on."""
    n, run = size["n"], size["run"]
    rate = run.get("estimate_rate")
    rules = rules_text(run.get("rules", []))
    lines = [
        "", f"### {n} x {n}: budgeted attempts"
        + (", split by replies" if run["depth"] else ", one per entry"), "",
        f"Each entry is settled by **attempts** of at most {run['budget']:,} df-pn nodes "
        f"(Theorem O, the `{run['table']}` table, pruning rules: {rules}), each a task of "
        "the executor with its own line in the run's checkpoint (a JSON Lines journal). "
        + growth_text(run) + " " + second_search_text(run)
        + " The empty board's row counts its own attempt and its entries'.",
        "",
        "**Every attempt in the journal counts**, whatever its budget and rules: a settled "
        "attempt is a proof (df-pn is exact, the rules are sound) and stands in a run of any "
        "budget; an unsettled one stands for a new attempt only with the same rules and at "
        "least the same budget. *Attempts*, *nodes spent* and *CPU seconds* add up every "
        "attempt of the entry and of the lines below it; *budgets* says how many had each "
        "budget and rules. All attempts so far: "
        f"{run['attempts']:,}, {run['nodes']:,} df-pn nodes, {run['cpu']:,} CPU seconds"
        + (f" ({run['rate']:,} nodes per CPU second)" if run.get("rate") else "")
        + f"; {budgets_text(run.get('budgets', []))}.",
        "",
        ("The entries ran in the order of their **estimated cost**, computed before the "
        f"run's attempts from the same entry's df-pn nodes **with the attempts' rules ({rules})**, "
        f"the same table scheme and no budget, on {n - 3}x{n - 3}, {n - 2}x{n - 2} and "
        f"{n - 1}x{n - 1} (the point with the same distances to the edges): its last "
        "growth factor times the growth of the whole table's factor from one size to the "
        "next"
        + (f"; the hours at the rate of the {n - 1}x{n - 1} entries of the same run "
           f"({rate:,} df-pn nodes per second of their wall time)"
           if rate and not run.get("estimate_from_attempts") else "")
        + "." + attempts_basis_text(n, run) + backtest_text(n - 1, run.get("backtest"))
        + " The last column compares "
        "the entry's own attempts with these rules (not its replies') with its estimate: "
        "the nodes it settled in, or the biggest budget it did not settle in (a lower bound).")
        if any(e.get("estimate") for e in size["entries"]) else
        "The entries ran in the order of their classes: no estimates (they are made from "
        "the three sizes below, from 2x2 on).",
        "",
        f"| entry | estimated nodes ({rules}) | from {n - 3}x{n - 3}..{n - 1}x{n - 1} | "
        "estimated hours | winner | attempts | nodes spent | CPU seconds | budgets | "
        "replies settled | measured / estimated |",
        "|---|---:|---|---:|---|---:|---:|---:|---|---|---|",
    ]
    order = {point: i for i, point in enumerate(run["order"])}
    rows = sorted(size["entries"], key=lambda e: order.get(e["class"], len(order)))
    for e in rows:
        guess = e.get("estimate") or {}
        basis = ", ".join(f"{v:,}" for v in guess.get("from", [])) or "-"
        least = "≥ " if guess.get("at_least") else ""
        estimate = f"{least}{guess['nodes']:.2g}" if guess else "-"
        who = {"b": "Black", "w": "White"}.get(e["winner"] or "", "**not settled**")
        spent = e.get("spent") or {"attempts": e.get("tasks", 1), "nodes": e["nodes"],
                                   "cpu": e.get("cpu") or 0, "budgets": []}  # fmt: skip
        replies = (f"{e['settled_replies']} of {e['replies']}" if e.get("replies") is not None
                   else f"{spent['settled_replies']} (journal)" if spent.get("settled_replies")
                   else "-")  # fmt: skip
        if not spent["attempts"]:
            who = "not attempted"
        lines.append(
            f"| {e['class']} | {estimate} | {basis} | {_hours(guess.get('hours'), bool(least))} | "
            f"{who} | {spent['attempts']:,} | {spent['nodes']:,} | {spent['cpu'] or 0:,} | "
            f"{budgets_text(spent['budgets'])} | {replies} | {measured_text(guess)} |"
        )
    lines += open_replies_text(rows)
    lines += [
        "",
        empty_board_text(size),
        "",
        "**To go on** (resume): run the command above again with `--checkpoint FILE` "
        "naming the run's journal: every finished attempt is read back from it and none "
        "runs again (an interrupted run, Ctrl-C, loses only the attempts that were "
        "running). `--stop-after` starts no attempt that would not end in time at the "
        "journal's nodes per second and lets the running ones finish (a cut attempt's work "
        "would be lost). A bigger `--depth` splits the unsettled replies one ply further "
        "(`--grow best`: lets the best-first search go one ply deeper) "
        "and keeps every attempt made; a bigger `--budget` or other rules start new "
        "attempts of the unsettled lines and keep every settled one. "
        "`--scheduler tcp://HOST:PORT` spreads the attempts over the workers of a Dask "
        "cluster."
        + (f" This run's journal: `{report['journal']}`." if report.get("journal") else ""),
    ]
    return lines


def write_report(report: dict[str, Any], out_dir: str | os.PathLike[str]) -> list[Path]:
    """Write the .md, .json and one SVG per size; returns the paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    data = {k: v for k, v in report.items() if k != "timings"}
    json_path = out / f"{stem(report)}.json"
    json_path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    md_path = out / f"{stem(report)}.md"
    md_path.write_text(render_markdown(report), encoding="utf-8")
    paths += [md_path, json_path]
    for size in report["sizes"]:
        svg_path = out / f"{stem(report)}-{size['n']}.svg"
        svg_path.write_text(table_svg(size), encoding="utf-8")
        paths.append(svg_path)
    return paths
