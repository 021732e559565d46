"""Opening-table entries too big for one search: budgeted attempts, split by replies, resumable.

For the sizes whose table was never finished (6x6 on, issue 18) an entry is settled as a
tree of **attempts**, each a task of :func:`boardproof.jobs.executor.Executor.run` with
its own line in a JSON Lines checkpoint (:class:`~boardproof.jobs.checkpoints.JournalCheckpoint`):

- an attempt is the native df-pn (Theorem O, the ``quad`` table that does not thrash, the
  pruning rules of :data:`RULES`) on one line of play with a node **budget**; when it
  settles, the native alpha-beta re-proves the winner (hints from the df-pn table, no
  pruning rule), as in the 5x5 table;
- an attempt that runs out of budget is **split**: one attempt per reply of the side to
  move (symmetric replies once), in the order of the proof numbers its df-pn table left
  for them (the most promising first), down to ``depth`` plies below the entry;
- the mover wins a split position as soon as one reply wins (the rest are not needed:
  the run stops them), and loses it when every reply loses.

The order is fixed by the results alone, so a resumed run (the same checkpoint) walks
the same tree and finds every finished attempt in the journal: none runs twice, and an
interrupted run (Ctrl-C) loses only the attempts that were running. The budget is
counted in nodes, not seconds, so the results do not depend on the machine; the keys
name the budget and the rules, so a run with another depth or more sizes reuses them.

A run with another budget or other rules goes on from the same journal
(:meth:`SubtreeRun.known`): a settled attempt is a proof whatever its budget and is reused;
an unsettled one stands only for an attempt of the same rules and at most its budget. The
report adds up every attempt of the journal (:meth:`SubtreeRun.spent`). A deadline
(``--stop-after``) starts no attempt that is not expected to end by it and cuts none
(:meth:`SubtreeRun.admit`): a cut attempt leaves nothing in the journal.

>>> sub = SubtreeRun(3, "orthogonal", budget=8, depth=2, progress=False)
>>> entries = sub.settle_entries(["a1", "a2", "b2"])
>>> [(line, e["winner"], e.get("tasks", 1)) for line, e in entries.items()]
[('a1', 'w', 1), ('a2', 'b', 6), ('b2', 'w', 1)]
>>> entries["a2"]["method"], entries["b2"]["method"]
('native df-pn split', 'native df-pn')
>>> sub.close()
"""

from __future__ import annotations

import math
import os
import re
import time
from collections.abc import Callable
from typing import Any

from boardproof import models
from boardproof.jobs.checkpoints import Checkpoint
from boardproof.jobs.executor import Executor
from boardproof.models.base import InvalidOptionError, check_range
from boardproof.models.minefield import native
from boardproof.models.minefield.native import prover
from boardproof.models.minefield.native.certify import certificate_from_table
from boardproof.models.minefield.proofs.certificate import load_certificate, write_atomic
from boardproof.models.minefield.research.best_first import BestFirst
from boardproof.solvers.common import symmetric_key

#: the df-pn table scheme of the attempts (see ``boardproof.models.minefield.native.prover``)
TABLE = "quad"
#: the pruning rules of the attempts' df-pn (``prover.RULES``; ``must3``: a move after which
#: the opponent has a reply we cannot stop is not searched, 7.4x fewer nodes on the 5x5
#: table, see benchmarks/RESULTS.md); the confirming alpha-beta runs without them, so the
#: second algorithm does not share them
RULES: tuple[str, ...] = ("must3",)
#: how many of the latest attempts tell how long the next one takes (--stop-after)
RECENT = 4
#: the largest df-pn table of an attempt (2**27 entries of 32 bytes: 4 GiB) and of its
#: confirming alpha-beta (2**26 of 24 bytes: 1.5 GiB)
MAX_DFPN_BITS = 27
MAX_CONFIRM_BITS = 26
#: the confirming alpha-beta's node budget: this many times the df-pn nodes, plus CONFIRM_MIN
CONFIRM_FACTOR = 4
CONFIRM_MIN = 1_000_000
#: from this size on a settled attempt is not re-proved by the blind alpha-beta above (on
#: 6x6 it did not settle within 4x the df-pn nodes, and cost 8x the attempt): the second
#: algorithm runs in the certificate stage instead, its moves ordered by the certificate
#: (``boardproof.models.minefield.research.opening_certificates``), so an entry is re-proved once
#: it has a
#: certificate
GUIDED_CONFIRM_FROM = 6

#: how an entry's tree of attempts grows: ``breadth`` (every reply of a split position is
#: attempted before any is split, ``depth`` plies deep) or ``best`` (the next attempt is
#: the most-proving position, ``boardproof.models.minefield.research.best_first``, down to
#: ``depth`` plies)
GROWTHS = ("breadth", "best")

#: an attempt: size, line, win rule, df-pn node budget, and the folder its certificate is
#: written to when it settles from GUIDED_CONFIRM_FROM on (None: none is written)
Attempt = tuple[int, str, str, int, str | None]


def check_budget(budget: int) -> int:
    """``budget`` if the df-pn takes it as its node limit (1 to ``MAX_NODES``, its unsigned
    64-bit count: C would wrap a larger one, 2**64 to 0, "no limit"), else
    InvalidOptionError."""
    return check_range("budget", budget, 1, native.MAX_NODES, "the node limit of the C df-pn")


def table_bits(budget: int) -> int:
    """The df-pn table of an attempt: about a quarter as many entries as its node budget
    (the ``quad`` table keeps the big entries), 2**16 at least, 4 GiB at most.

    >>> [table_bits(b) for b in (1000, 30_000_000, 600_000_000, 10**12)]
    [16, 23, 27, 27]
    """
    return max(16, min(MAX_DFPN_BITS, budget.bit_length() - 2))


def position(n: int, line: str, win: str) -> Any:
    """The position after ``line`` (moves separated by spaces) from the empty board."""
    pos = models.get("minefield", win=win).start(size=n, pie=False)
    for text in line.split():
        pos = pos.play(pos.parse_move(text))
    return pos


def attempt(arg: Attempt) -> dict[str, Any]:
    """One budgeted attempt (a top-level function: a process pool or Dask runs it).

    Settled: winner, the side to move's winning move (when it wins), the alpha-beta
    re-proof. Not settled: ``children``, each reply with the proof and disproof numbers
    (for the side to move as the attacker) that the df-pn table holds for it.
    """
    n, line, win, budget, folder = arg
    start = time.perf_counter()
    cpu = time.process_time()
    pos = position(n, line, win)
    bits = table_bits(budget)
    found = prover.who_wins(pos, tt_bits=bits, node_limit=budget, table=TABLE, use=RULES)
    out: dict[str, Any] = {"line": line, "position": pos.fen(), "method": "native df-pn",
                           "rules": list(RULES),
                           "nodes": found.nodes, "budget": budget, "plies": None}  # fmt: skip
    if found.winner is None:
        target = prover.as_orthodiagonal(pos)
        search = native.search_for(n, True)
        children = []
        for move in pos.legal_moves():
            child = target.play(move)
            numbers = None if child.outcome() else search.table_numbers(child, target.to_move)
            children.append([str(move), *(numbers or (None, None))])
        out.update(winner=None, best_move=None, check=None, children=children)
    else:
        mover_wins = found.winner == pos.to_move
        out.update(winner=pos.game.symbol(found.winner),
                   best_move=str(found.best_move) if mover_wins and found.best_move else None)
        if n < GUIDED_CONFIRM_FROM:
            out["check"] = confirm(pos, found.winner, bits, found.nodes)
        else:
            out["check"] = None  # re-proved with its certificate (GUIDED_CONFIRM_FROM)
            if folder is not None and mover_wins:
                out["certificate"] = save_certificate(pos, line, found, bits, folder)
    out["seconds"] = round(time.perf_counter() - start, 3)
    out["cpu"] = round(time.process_time() - cpu, 3)
    return out


def certificate_file(n: int, line: str) -> str:
    """The certificate file of the position after ``line`` (an entry: its first point).

    >>> certificate_file(6, "a3 b1"), certificate_file(6, "c3"), certificate_file(6, "")
    ('minefield-6x6-a3-b1.cert.xz', 'minefield-6x6-c3.cert.xz', 'minefield-6x6-empty.cert.xz')
    """
    return f"minefield-{n}x{n}-{'-'.join(line.split()) or 'empty'}.cert.xz"


def attempt_folder(journal: str) -> str:
    """The folder next to a run's journal where its settled attempts leave their
    certificates (the certificate stage of ``openings --certificates`` takes them from
    there instead of searching again).

    >>> attempt_folder("runs/minefield-openings.checkpoint.jsonl")
    'runs/minefield-openings.certificates'
    """
    stem = journal[: -len(".jsonl")] if journal.endswith(".jsonl") else journal
    stem = stem[: -len(".checkpoint")] if stem.endswith(".checkpoint") else stem
    return stem + ".certificates"


def save_certificate(pos: Any, line: str, found: Any, bits: int, folder: str) -> dict[str, Any]:
    """The certificate of an attempt that proved the side to move winning, walked from its
    own df-pn table (``certify.certificate_from_table``: no second search; the same bytes
    as the certificate stage's ``make_certificate`` with the attempt's rules, table and
    budget), written into ``folder`` whole or not at all. Returns the file's name, its
    positions and the walk's seconds."""
    start = time.perf_counter()
    cert = certificate_from_table(pos, found.winner, found.nodes, tt_bits=bits, table=TABLE,
                                  rules=RULES)  # fmt: skip
    name = certificate_file(pos.n, line)
    os.makedirs(folder, exist_ok=True)
    size = write_atomic(os.path.join(folder, name), cert.to_bytes())
    return {"file": name, "positions": len(cert.records), "bytes": size,
            "seconds": round(time.perf_counter() - start, 3)}  # fmt: skip


def confirm(pos: Any, winner: int, bits: int, dfpn_nodes: int) -> dict[str, Any]:
    """The second algorithm's re-proof of a settled attempt: the native alpha-beta without
    the pruning rules, within CONFIRM_FACTOR times the df-pn nodes (plus CONFIRM_MIN); if
    that budget runs out, the same alpha-beta with the attempts' rules (:data:`RULES`,
    sound on their own: the rule is shared, the search is not) within the same budget.
    The check says which settled it (``rules``) and the nodes of both."""
    budget, table = CONFIRM_FACTOR * dfpn_nodes + CONFIRM_MIN, min(bits, MAX_CONFIRM_BITS)
    check = prover.confirm(pos, winner, tt_bits=table, node_limit=budget)
    out: dict[str, Any] = {"method": "native alpha-beta", "proved": check.agrees,
                           "nodes": check.nodes}  # fmt: skip
    if check.agrees is None and RULES:
        again = prover.confirm(pos, winner, tt_bits=table, node_limit=budget, use=RULES)
        out = {"method": f"native alpha-beta +{' +'.join(RULES)}", "proved": again.agrees,
               "nodes": again.nodes, "rules": list(RULES),
               "without_rules": {"proved": None, "nodes": check.nodes}}  # fmt: skip
    return out


#: the certificate-guided re-proof's budget: this many alpha-beta nodes per listed position
#: (plus CONFIRM_MIN); measured: 2.6 on the 6x6 entries b1 and b2 (benchmarks/RESULTS.md)
GUIDED_FACTOR = 8


def guided_confirm(path: str) -> dict[str, Any]:
    """The second algorithm's re-proof of an entry from its certificate (from
    GUIDED_CONFIRM_FROM on; a top-level function: an executor runs it): the native
    alpha-beta without pruning rules, which tries first, at the winner's nodes, the move
    that the certificate gives (``prover.confirm(certificate=...)``). Only the order comes
    from the file: alpha-beta values every reply of the loser itself and checks that the
    move wins, so its value is its own (a wrong move costs nodes, not correctness), and
    its tree is about the certificate's instead of beyond any budget (6x6 b1: 1.2 M nodes
    against 159 M without a verdict)."""
    cert = load_certificate(path)
    header = cert.header
    game = models.get("minefield", win=header["win"])
    pos = game.parse_position(header["root"])
    budget = GUIDED_FACTOR * len(cert.records) + CONFIRM_MIN
    bits = max(20, min(MAX_CONFIRM_BITS, (4 * len(cert.records)).bit_length()))
    check = prover.confirm(pos, game.player_of(header["winner"]), tt_bits=bits,
                           theorem_o=header["rule"] != header["win"], certificate=cert,
                           node_limit=budget)  # fmt: skip
    return {"method": "native alpha-beta", "guided": "certificate", "proved": check.agrees,
            "nodes": check.nodes, "budget": budget, "seconds": check.seconds}  # fmt: skip


def ordered_replies(n: int, line: str, win: str, children: list[list[Any]]) -> list[str]:
    """The replies to split an attempt into: one per symmetry class of the positions
    after them, the smallest proof number first (unknown ones last), then board order.

    >>> ordered_replies(2, "a1", "orthogonal", [["b1", 3, 1], ["a2", 1, 2], ["b2", None, None]])
    ['a2', 'b1', 'b2']
    """
    pos = position(n, line, win)
    seen: set[Any] = set()
    rows = []
    for index, (move, pn, dn) in enumerate(children):
        key, _ = symmetric_key(pos.play(pos.parse_move(move)))
        if key in seen:
            continue
        seen.add(key)
        rows.append((pn is None, pn or 0, -(dn or 0), index, move))
    return [row[-1] for row in sorted(rows)]


def attempt_key(n: int, line: str, budget: int, rules: tuple[str, ...]) -> str:
    """The journal key of an attempt: it names the size, the line, the budget and the rules.

    >>> attempt_key(6, "b3 a3", 100_000_000, ("must3",))
    'n=6 [b3 a3] budget=100000000 +must3'
    """
    return f"n={n} [{line}] budget={budget}" + "".join(f" +{rule}" for rule in rules)


def parse_key(key: str) -> tuple[int, str, int, tuple[str, ...]] | None:
    """Size, line, budget and rules of an attempt's key (keys without rules were made
    before the rules existed: plain df-pn); None for any other key of the journal.

    >>> parse_key("n=6 [b3 a3] budget=20000000"), parse_key("n=6 [] budget=8 +must3")
    ((6, 'b3 a3', 20000000, ()), (6, '', 8, ('must3',)))
    >>> parse_key("n=5 a1") is None
    True
    """
    found = KEY.match(key)
    if found is None:
        return None
    rules = tuple(rule for rule in found.group(4).split(" +") if rule)
    return int(found.group(1)), found.group(2), int(found.group(3)), rules


KEY = re.compile(r"^n=(\d+) \[([^\]]*)\] budget=(\d+)((?: \+[\w-]+)*)$")


class SubtreeRun:
    """The attempts of one board size, run on ``executor`` with one journal ``checkpoint``.

    Every attempt of the size in the journal counts, whatever its budget and rules
    (:meth:`known`): a **settled** attempt is a proof (df-pn is exact; the rules are sound)
    and is reused by a run with any budget; an **unsettled** one stands for this run's
    attempt only if it had the same rules and at least this budget (an unsettled attempt
    of a smaller budget, or of other rules, does not stop a new attempt). The report adds
    up every attempt of each entry (:meth:`spent`).
    """

    def __init__(self, n: int, win: str, *, budget: int, depth: int,
                 executor: Executor | None = None, checkpoint: Checkpoint | None = None,
                 progress: bool = True, deadline: float | None = None,
                 rate: float | None = None,
                 notes: Callable[[str], None] | None = None,
                 certificates: str | None = None, grow: str = "breadth") -> None:  # fmt: skip
        if grow not in GROWTHS:
            raise InvalidOptionError(
                f"invalid option grow: expected one of {', '.join(GROWTHS)}, got {grow!r}")
        check_budget(budget)
        self.n, self.win, self.budget, self.depth = n, win, budget, depth
        #: how an unsettled entry's tree of attempts grows (:data:`GROWTHS`)
        self.grow = grow
        self._movers: dict[str, str] = {}
        #: the folder where a settled attempt writes its certificate (:func:`attempt`;
        #: only from GUIDED_CONFIRM_FROM on: smaller attempts are re-proved by alpha-beta
        #: and the certificate stage's own search is cheap for them)
        self.certificates = certificates if n >= GUIDED_CONFIRM_FROM else None
        #: a ``time.monotonic()`` by which the run ends: no attempt starts that would not
        #: end by then at :meth:`rate`; the attempts running finish (see :meth:`admit`)
        self.deadline = deadline
        #: df-pn nodes per wall second of one attempt when the journal has none (None:
        #: unknown; then only the deadline itself stops new attempts)
        self.default_rate = rate
        self.notes = notes
        self.own = executor is None
        self.executor = executor or Executor(1)
        self.store = checkpoint or Checkpoint(None)
        self.progress = progress
        #: the attempts looked at (run or found in the checkpoint), by key, in order
        self.attempts: dict[str, dict[str, Any]] = {}
        self.empty_root: dict[str, Any] | None = None
        #: every attempt of this size in the journal, by line: (key, budget, rules, result)
        self.journal: dict[str, list[tuple[str, int, tuple[str, ...], dict[str, Any]]]] = {}
        #: the same attempts in journal order (the order they ended): (budget, rules, result)
        self.timeline: list[tuple[int, tuple[str, ...], dict[str, Any]]] = []
        for key, result in self.store.done.items():
            self._index(key, result)
        self._held = False

    def position(self, line: str) -> Any:
        """The position after ``line`` from this run's empty board."""
        return position(self.n, line, self.win)

    def close(self) -> None:
        if self.own:
            self.executor.close()

    def mover(self, line: str) -> str:
        """The side to move after ``line``: ``"b"`` or ``"w"``."""
        if line not in self._movers:
            pos = position(self.n, line, self.win)
            self._movers[line] = pos.game.symbol(pos.to_move)
        return self._movers[line]

    def key(self, line: str) -> str:
        return attempt_key(self.n, line, self.budget, RULES)

    def _index(self, key: str, result: Any) -> None:
        parsed = parse_key(key)
        if parsed is not None and parsed[0] == self.n and isinstance(result, dict):
            rows = self.journal.setdefault(parsed[1], [])
            if all(row[0] != key for row in rows):
                rows.append((key, parsed[2], parsed[3], result))
                self.timeline.append((parsed[2], parsed[3], result))

    def known(self, line: str) -> tuple[str, dict[str, Any]] | None:
        """The journal's attempt that stands for this run's attempt of ``line``: the first
        settled one (any budget, any rules), else the unsettled one of the same rules with
        the biggest budget of at least this run's; None: ``line`` needs a new attempt.

        Settled attempts that disagree are refused (one line): the journal would hold a
        contradiction, and no report can be made from it.
        """
        rows = self.journal.get(line, [])
        settled = [(key, result) for key, _, _, result in rows if result.get("winner")]
        if settled:
            winners = sorted({result["winner"] for _, result in settled})
            if len(winners) > 1:
                raise InvalidOptionError(
                    f"invalid checkpoint: attempts of {self.n}x{self.n} [{line}] disagree "
                    f"({', '.join(k + ': ' + r['winner'] for k, r in settled)}): "
                    f"{str(self.store.path)!r}"
                )
            return settled[0]
        same = [(budget, -i, key, result) for i, (key, budget, rules, result) in enumerate(rows)
                if rules == RULES and budget >= self.budget]  # fmt: skip
        if same:
            _, _, key, result = max(same, key=lambda row: row[:2])
            return key, result
        return None

    def rate(self) -> float | None:
        """df-pn nodes per wall second of the last :data:`RECENT` attempts of this size with
        this run's rules in the journal (the latest: the code and the machine change
        between runs; settled ones include their confirming alpha-beta, so this is on the
        slow side), else the rate the run was given."""
        rows = [r for _, rules, r in self.timeline if rules == RULES and r.get("seconds")]
        seconds = sum(r["seconds"] for r in rows[-RECENT:])
        if seconds > 0:
            return sum(r["nodes"] for r in rows[-RECENT:]) / seconds
        return self.default_rate

    def expected_seconds(self) -> tuple[float, str]:
        """The wall seconds an attempt of this run is expected to take, and why: the mean
        of the last :data:`RECENT` attempts of this size with the same budget and rules in
        the journal (settled or not, confirmation included), else the whole budget at
        :meth:`rate`; (0, "") when nothing is known."""
        same = [r["seconds"] for budget, rules, r in self.timeline
                if budget == self.budget and rules == RULES and r.get("seconds")][-RECENT:]
        if same:
            return sum(same) / len(same), f"the mean of {len(same)} such attempts"
        rate = self.rate()
        if rate:
            return self.budget / rate, f"{self.budget:,} nodes at {rate:,.0f} nodes/s"
        return 0.0, ""

    def admit(self, key: str) -> bool:
        """May an attempt start now? Not after the deadline, nor when it is not expected to
        end by it (:meth:`expected_seconds`): an attempt is not cut at the deadline (a cut
        attempt's work would be lost: nothing of it is journaled), so one that starts is
        one expected to end in time; with nothing known, any attempt until the deadline."""
        if self.deadline is None:
            return True
        left = self.deadline - time.monotonic()
        need, why = self.expected_seconds()
        if left > need:
            return True
        if not self._held and self.notes is not None:
            self._held = True
            self.notes(f"{self.n}x{self.n}: no new attempt after --stop-after: "
                       + (f"one takes ~{need:,.0f} s ({why}), " if why else "")
                       + f"{max(left, 0.0):,.0f} s left (the journal resumes the run)")
        return False

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def _group(self, lines: list[str], mover: str | None, depth: int,
               what: str) -> dict[str, dict[str, Any]]:  # fmt: skip
        """Attempt ``lines`` (siblings, in order) and split those not settled; with a
        ``mover``, stop at the first line (in order) that ``mover`` wins: a win among the
        first attempts ends the group (nothing is split), else the unsettled lines are
        split in order until one becomes a win.

        The lines come in order whatever finished first, so a resumed run walks the same
        tree. A line without an attempt (the deadline or an interrupt left it out) is left
        out, and the lines after it still count: an attempt that ended after the deadline
        is in the result."""
        # a line's attempt: the journal's (any budget if settled), else this run's
        keys = {line: hit[0] if (hit := self.known(line)) else self.key(line) for line in lines}
        tasks = [(keys[line], (self.n, line, self.win, self.budget, self.certificates))
                 for line in lines]  # fmt: skip
        if self.expired():  # only what the journal holds
            tasks = [(key, arg) for key, arg in tasks if key in self.store.done]

        def decided(done: dict[str, Any]) -> bool:
            for line in lines:
                if keys[line] not in done:
                    return False
                if mover is not None and done[keys[line]]["winner"] == mover:
                    return True
            return False

        got = self.executor.run(attempt, tasks, checkpoint=self.store, progress=self.progress,
                                description=f"minefield {self.n}x{self.n} {what}",
                                until=decided if mover else None, on_result=self._index,
                                admit=None if self.deadline is None else self.admit)  # fmt: skip
        first: list[tuple[str, str, dict[str, Any]]] = []
        for line in lines:
            if keys[line] in got:
                first.append((line, keys[line], got[keys[line]]))
                if mover is not None and got[keys[line]]["winner"] == mover:
                    break  # the rest is not needed (an attempt of it counts in spent())
        won = mover is not None and bool(first) and first[-1][2]["winner"] == mover
        out: dict[str, dict[str, Any]] = {}
        for line, key, value in first:
            self.attempts[key] = value
            if not won and value["winner"] is None and depth > 0 and value.get("children"):
                value = self._split(line, value, depth - 1)
            out[line] = value
            if not won and mover is not None and value["winner"] == mover:
                break
        return out

    def _split(self, line: str, root: dict[str, Any], depth: int) -> dict[str, Any]:
        pos = position(self.n, line, self.win)
        mover = pos.game.symbol(pos.to_move)
        replies = ordered_replies(self.n, line, self.win, root["children"])
        kids = self._group([f"{line} {r}".strip() for r in replies], mover, depth,
                           f"{line or 'empty'}: {len(replies)} replies")  # fmt: skip
        return merge(root, mover, replies, [kids.get(f"{line} {r}".strip()) for r in replies])

    def settle_entries(self, lines: list[str]) -> dict[str, dict[str, Any]]:
        """Every entry (lines from the empty board, in the order given), each as deep as
        ``depth`` allows; nothing stops early (every entry is wanted) but the deadline.
        The first attempts, one per entry, run together, the empty board's first."""
        roots = self._group(["", *lines], None, 0, "entries and empty board")
        self.empty_root = roots.get("") or self.not_attempted("")
        found = {}
        for line in lines:
            root = roots.get(line)
            if root is not None and root["winner"] is None and self.depth > 0 and root.get(
                    "children"):  # fmt: skip
                if self.grow == "best":
                    self.grow_best(line)
                    root = self.grown(line) or root
                else:
                    root = self._split(line, root, self.depth - 1)
            found[line] = root or self.not_attempted(line)
        return found

    def grow_best(self, line: str) -> None:
        """Attempt the most-proving position below the entry ``line``, one at a time per
        worker (:class:`~boardproof.models.minefield.research.best_first.BestFirst`), until the
        entry is
        settled, the deadline holds the next attempt back or nothing is left within
        ``depth`` plies."""
        tree = BestFirst(self, line)
        busy: set[str] = set()

        def more() -> tuple[str, Attempt] | None:
            if self.expired():
                return None
            chosen = tree.choose(busy)
            if chosen is None:
                return None
            busy.add(chosen)
            return self.key(chosen), (self.n, chosen, self.win, self.budget, self.certificates)

        def ended(key: str, result: Any) -> None:
            self._index(key, result)
            busy.discard(result.get("line", ""))

        self.executor.run(attempt, [], checkpoint=self.store, progress=self.progress,
                          description=f"minefield {self.n}x{self.n} {line}: best first",
                          until=lambda _: tree.settled(), on_result=ended, more=more,
                          status=lambda done: f"{done} attempts",
                          admit=None if self.deadline is None else self.admit)  # fmt: skip

    def grown(self, line: str) -> dict[str, Any] | None:
        """``line``'s value from the journal alone: its attempt, merged with its replies'
        (:func:`merge`, recursively) when any of them has an attempt; None: no attempt."""
        hit = self.known(line)
        if hit is None:
            return None
        key, result = hit
        self.attempts[key] = result
        if result["winner"] is not None or not result.get("children"):
            return result
        replies = ordered_replies(self.n, line, self.win, result["children"])
        kids = [self.grown(f"{line} {r}".strip()) for r in replies]
        if all(kid is None for kid in kids):
            return result
        return merge(result, self.mover(line), replies, kids)

    def settle_empty(self, entries: dict[str, dict[str, Any]]) -> dict[str, Any]:
        """The empty board: its own attempt, else the entries (its replies, one per class)."""
        root = self.empty_root
        if root is None:
            root = self._group([""], None, 0, "empty board").get("") or self.not_attempted("")
        if root["winner"] is not None or all(e["method"].startswith("not attempted")
                                              for e in entries.values()):  # fmt: skip
            return root
        return merge(root, "b", list(entries), list(entries.values()))

    def spent(self, line: str) -> dict[str, Any]:
        """Every attempt in the journal of ``line`` and the lines below it (all of this
        size for the empty board's ``""``), whatever its budget and rules: how many, their
        df-pn nodes and CPU seconds, and how many used each budget and rules.

        >>> run = SubtreeRun(3, "orthogonal", budget=8, depth=1, progress=False)
        >>> run._index("n=3 [a1] budget=8", {"nodes": 8, "cpu": 0.5, "winner": None})
        >>> run._index("n=3 [a1 b1] budget=9 +must3", {"nodes": 9, "cpu": 1.0, "winner": "b"})
        >>> run._index("n=3 [a2] budget=9 +must3", {"nodes": 9, "cpu": 1.0, "winner": "b"})
        >>> run.spent("a1")["settled_replies"], run.spent("")["settled_replies"]
        (1, 1)
        >>> run.spent("a1")["nodes"], run.spent("")["attempts"], run.spent("a1")["budgets"]
        (17, 3, [{'budget': 9, 'rules': ['must3'], 'attempts': 1}, \
{'budget': 8, 'rules': [], 'attempts': 1}])
        """
        rows = [row for at, rows in self.journal.items() for row in rows
                if not line or at == line or at.startswith(line + " ")]  # fmt: skip
        counts: dict[tuple[int, tuple[str, ...]], int] = {}
        for _, budget, rules, _ in rows:
            counts[budget, rules] = counts.get((budget, rules), 0) + 1
        plies = len(line.split())
        replies = {at for at, rows in self.journal.items() if len(at.split()) == plies + 1
                   and (not line or at.startswith(line + " "))
                   and any(r.get("winner") for *_, r in rows)}  # fmt: skip
        return {
            "attempts": len(rows),
            "settled_replies": len(replies),
            "nodes": sum(r["nodes"] for *_, r in rows),
            "cpu": round(sum(r.get("cpu") or 0.0 for *_, r in rows), 3),
            "budgets": [{"budget": b, "rules": list(rules), "attempts": c}
                        for (b, rules), c in sorted(counts.items(), key=lambda kv: (
                            -kv[0][0], kv[0][1]))],
        }  # fmt: skip

    def measured(self, line: str) -> dict[str, Any] | None:
        """What the journal says of ``line``'s own df-pn cost with this run's rules (to
        judge an estimate made with them): the nodes of its first settled attempt, else
        the biggest budget it did not settle in (a lower bound); None: no such attempt."""
        rows = [(budget, r) for _, budget, rules, r in self.journal.get(line, [])
                if rules == RULES]  # fmt: skip
        settled = [r for _, r in rows if r.get("winner")]
        if settled:
            return {"nodes": settled[0]["nodes"], "settled": True}
        if rows:
            return {"nodes": max(r["nodes"] for _, r in rows), "settled": False}
        return None

    def not_attempted(self, line: str) -> dict[str, Any]:
        """The record of a line that the deadline left without an attempt of this run's
        budget and rules (``spent`` says what other attempts it had)."""
        method = "not attempted" if not self.spent(line)["attempts"] else (
            "not attempted with this budget")  # fmt: skip
        return {"line": line, "position": position(self.n, line, self.win).fen(),
                "method": method, "nodes": 0, "budget": self.budget, "plies": None,
                "winner": None, "best_move": None, "check": None, "seconds": 0.0, "cpu": 0.0,
                "tasks": 0}  # fmt: skip


def merge(root: dict[str, Any], mover: str, replies: list[str],
          kids: list[dict[str, Any] | None]) -> dict[str, Any]:  # fmt: skip
    """A split position from its root attempt and its replies' results (None: not run,
    since an earlier reply won): the mover wins iff some reply wins for it.

    >>> w = {"winner": "w", "nodes": 5, "cpu": 1.0, "tasks": 1, "check": {"proved": True}}
    >>> b = {"winner": "b", "nodes": 7, "cpu": 2.0, "check": {"proved": True}}
    >>> root = {"position": "p", "winner": None, "nodes": 10, "cpu": 1.0}
    >>> m = merge(root, "w", ["a2", "b1"], [b, w])
    >>> m["winner"], m["best_move"], m["nodes"], m["tasks"], m["check"]["after"]
    ('w', 'b1', 22, 3, 'b1')
    >>> [p["reply"] for p in m["parts"]], len(merge(root, "w", ["a2", "b1"], [b, b])["parts"])
    (['b1'], 2)
    >>> merge(root, "w", ["a2", "b1"], [b, b])["winner"]
    'b'
    >>> merge(root, "w", ["a2", "b1"], [b, {**w, "winner": None}])["open"]
    ['b1']
    >>> split = merge(root, "b", ["a2", "b1"], [{**b, "winner": None, "open": ["c3"]}, None])
    >>> split["open"], split["untried"], split["below"]["a2"]
    (['a2', 'b1'], ['b1'], {'open': ['c3']})
    """
    done = [(r, k) for r, k in zip(replies, kids, strict=True) if k is not None]
    entry: dict[str, Any] = {
        "position": root["position"], "method": "native df-pn split", "plies": None,
        "nodes": root["nodes"] + sum(k["nodes"] for _, k in done),
        "cpu": round(root.get("cpu", 0.0) + sum(k.get("cpu", 0.0) for _, k in done), 3),
        "seconds": round(root.get("seconds", 0.0) + sum(k.get("seconds", 0.0) for _, k in done),
                         3),
        "tasks": root.get("tasks", 1) + sum(k.get("tasks", 1) for _, k in done),
        "replies": len(replies),
        "settled_replies": sum(k["winner"] is not None for _, k in done),
    }  # fmt: skip
    wins = [(r, k) for r, k in done if k["winner"] == mover]
    if wins:
        reply, kid = wins[0]
        check = dict(kid.get("check") or {})
        check.pop("after", None)
        entry.update(winner=mover, best_move=reply, check={**check, "after": reply},
                     parts=[part(reply, kid)])  # fmt: skip
        return entry
    if len(done) < len(replies) or any(k["winner"] is None for _, k in done):
        pairs = list(zip(replies, kids, strict=True))
        entry.update(winner=None, best_move=None, check=None,
                     open=[r for r, k in pairs if k is None or k["winner"] is None],
                     untried=[r for r, k in pairs if k is None])  # fmt: skip
        below = {r: frontier(k) for r, k in done if k["winner"] is None and k.get("open")}
        if below:  # the open replies that were split in turn: what they still need
            entry["below"] = below
        return entry
    entry["parts"] = [part(r, k) for r, k in done]
    checks = [k.get("check") or {} for _, k in done]
    proved = [c.get("proved") for c in checks]
    entry.update(winner=done[0][1]["winner"], best_move=None, check={
        "method": "native alpha-beta, every reply",
        "proved": False if False in proved else None if None in proved else True,
        "nodes": sum(c.get("nodes", 0) for c in checks)})  # fmt: skip
    return entry


def frontier(kid: dict[str, Any]) -> dict[str, Any]:
    """What an open split reply still needs (for the report): its open replies, those not
    attempted yet, and the same of its own split ones.

    >>> frontier({"position": "p", "open": ["a1"], "untried": [], "nodes": 5})
    {'position': 'p', 'open': ['a1'], 'untried': []}
    """
    keys = ("position", "replies", "settled_replies", "open", "untried", "below")
    return {key: kid[key] for key in keys if key in kid}


def part(reply: str, kid: dict[str, Any]) -> dict[str, Any]:
    """What a split position's certificate is made of, for one reply: its position,
    winner and budget (the certificate stage finds or makes its certificate), and its
    own parts if it was split in turn."""
    out = {"reply": reply, "position": kid.get("position"), "winner": kid["winner"],
           "method": kid.get("method"), "budget": kid.get("budget")}  # fmt: skip
    if kid.get("parts"):
        out["parts"] = kid["parts"]
    return out


def folded(point: str, n: int) -> tuple[int, int]:
    """A point's distances to the nearest file and rank edges (0: on the edge).

    >>> folded("e2", 6), folded("c3", 5)
    ((1, 1), (2, 2))
    """
    f, r = ord(point[0]) - ord("a"), int(point[1:]) - 1
    return min(f, n - 1 - f), min(r, n - 1 - r)


def counterpart(point: str, n: int, k: int) -> str:
    """The point of the k x k board in the same place as ``point`` of the n x n one
    (distances to the edges kept, capped at the smaller board's middle).

    >>> [counterpart(p, 6, 4) for p in ("a1", "c3", "b3")], counterpart("c2", 6, 5)
    (['a1', 'b2', 'b2'], 'c2')
    """
    f, r = folded(point, n)
    cap = (k - 1) // 2
    return f"{'abcdefghijklmnopqrstuvwxyz'[min(f, cap)]}{min(r, cap) + 1}"


def estimate(history: list[float], totals: list[float]) -> float:
    """The nodes of an entry on the next size from its nodes on the last sizes
    (``history``, the oldest first) and the whole table's (``totals``, the same sizes):
    the entry's last growth factor times the growth of the table's factor from one size
    to the next (at least 1).

    >>> estimate([57, 9897, 14_254_833], [150, 39_000, 46_000_000])
    93140930853.0
    """
    last = history[-1] / max(history[-2], 1)
    speedup = (totals[-1] / totals[-2]) / (totals[-2] / max(totals[-3], 1))
    return float(round(history[-1] * last * max(speedup, 1.0)))


def estimates(n: int, nodes: dict[int, dict[str, int]], classes: list[str],
              bounded: dict[int, set[str]] | None = None) -> dict[str, dict[str, Any]]:
    """Per class of size ``n`` (and ``empty``): the estimate from ``nodes`` (df-pn nodes
    by size, then by class or ``empty``, for the three sizes below ``n``). ``bounded``:
    by size, the entries whose nodes are only a lower bound (not settled within them);
    an estimate made from one, or from a size's total that holds one, is a lower bound
    too (``at_least``): :func:`estimate` grows with every number it is given.

    >>> nodes = {3: {"empty": 100, "a1": 10}, 4: {"empty": 1000, "a1": 200},
    ...          5: {"empty": 40000, "a1": 8000}}
    >>> estimates(6, nodes, ["a1"])["a1"]
    {'nodes': 1173333.0, 'from': [10, 200, 8000]}
    >>> estimates(6, nodes, ["a1"], {5: {"empty"}})["a1"]["at_least"]
    True
    """
    sizes = [n - 3, n - 2, n - 1]
    bounded = bounded or {}
    totals = [float(sum(nodes[k].values())) for k in sizes]
    whole = any(bounded.get(k) for k in sizes)  # a total holds a lower bound
    out: dict[str, dict[str, Any]] = {}
    for point in ["empty", *classes]:
        names = ["empty" if point == "empty" else counterpart(point, n, k) for k in sizes]
        history = [nodes[k][name] for k, name in zip(sizes, names, strict=True)]
        out[point] = {"nodes": estimate([float(h) for h in history], totals),
                      "from": history}  # fmt: skip
        if whole or any(name in bounded.get(k, ()) for k, name in
                        zip(sizes, names, strict=True)):
            out[point]["at_least"] = True
    return out


#: a rate of the basis entries measured over fewer seconds is not used for the deadline
#: (the tiny entries of small boards are mostly overhead: 4x4 gives ~45,000 nodes/s)
MIN_RATE_SECONDS = 10.0
#: the df-pn table of a basis entry (2**bits entries): as ``--method dfpn`` from 5x5 on
BASIS_BITS = {2: 20, 3: 20, 4: 20}
BASIS_MAX_BITS = 26


def basis_key(n: int, line: str | None, rules: tuple[str, ...] | None = None) -> str:
    """The journal key of a basis entry: it names the table and the rules.

    >>> basis_key(5, "a1", ("must3",)), basis_key(4, None, ())
    ('n=5 a1 df-pn nodes table=quad +must3', 'n=4 empty df-pn nodes table=quad')
    """
    rules = RULES if rules is None else rules
    return (f"n={n} {line or 'empty'} df-pn nodes table={TABLE}"
            + "".join(f" +{rule}" for rule in rules))  # fmt: skip


def basis_nodes(arg: tuple[int, str | None, str, tuple[str, ...]]) -> dict[str, Any]:
    """The df-pn nodes that settle one entry (or the empty board, ``None``) of a smaller
    size with the attempts' search: Theorem O, the ``TABLE`` scheme and the ``rules``
    (no budget; a fresh table of :data:`BASIS_BITS`), for the estimates."""
    n, point, win, rules = arg
    start = time.perf_counter()
    pos = position(n, point or "", win)
    found = prover.who_wins(pos, tt_bits=BASIS_BITS.get(n, BASIS_MAX_BITS), table=TABLE,
                            use=rules)  # fmt: skip
    return {"nodes": found.nodes, "winner": found.winner, "rules": list(rules),
            "seconds": round(time.perf_counter() - start, 3)}  # fmt: skip


def backtest(n: int, nodes: dict[int, dict[str, int]], classes: list[str],
             bounded: dict[int, set[str]] | None = None) -> dict[str, Any]:
    """The estimates of size ``n`` from the three sizes below it against its measured
    nodes (``nodes[n]``): per class (and ``empty``) the ratio measured / estimated
    (``at_least``: the measured nodes are a lower bound, see :func:`estimates`).

    >>> nodes = {2: {"empty": 6, "a1": 2}, 3: {"empty": 100, "a1": 10},
    ...          4: {"empty": 1000, "a1": 200}, 5: {"empty": 40000, "a1": 8000}}
    >>> backtest(5, nodes, ["a1"])["a1"]
    {'estimate': 4000.0, 'nodes': 8000, 'ratio': 2.0}
    >>> backtest(5, nodes, ["a1"], {5: {"a1"}})["a1"]["at_least"]
    True
    """
    guess = estimates(n, nodes, classes)
    out: dict[str, Any] = {}
    for point, g in guess.items():
        out[point] = {"estimate": g["nodes"], "nodes": nodes[n][point],
                      "ratio": round(nodes[n][point] / max(g["nodes"], 1.0), 3)}  # fmt: skip
        if point in (bounded or {}).get(n, ()):
            out[point]["at_least"] = True
    return out


def cpu_hours(nodes: float, rate: float) -> float:
    """Hours of one core at ``rate`` nodes per CPU second, to 2 significant digits.

    >>> cpu_hours(90e9, 650_000)
    38.0
    """
    hours = nodes / rate / 3600
    return float(f"{hours:.2g}") if hours > 0 and math.isfinite(hours) else 0.0
