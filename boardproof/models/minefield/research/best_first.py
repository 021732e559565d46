"""Best-first growth of an entry's tree of attempts: proof-number search over the journal.

A breadth-first split
(:meth:`~boardproof.models.minefield.research.subtrees.SubtreeRun.settle_entries`
with ``grow="breadth"``) attempts every reply of a position before it splits any: on 6x6
that is 34 attempts of 1e8 nodes at each split position, most of them wasted once one
reply is known to be enough. Here the journal's attempts form a proof-number tree (PN²,
with the budgeted df-pn attempt as the inner search) and the next attempt is always the
**most-proving** position, the one whose result can change the entry's value at least cost:

- a settled attempt is a proved node: its side to move wins (φ = 0, δ = ∞) or loses
  (φ = ∞, δ = 0);
- an unsettled attempt is an inner node whose children are its replies (one per symmetry
  class); with φ and δ for the side to move (φ: the cost of proving it wins, δ: that it
  loses), φ = min over the replies of δ(reply) and δ = the sum of φ(reply);
- a reply without an attempt is a leaf: its numbers are the ones the parent's df-pn table
  left for it (``children`` of the attempt, for the parent's mover: swapped for the
  reply's mover); a reply that table proved lost for the parent's mover still needs its
  own attempt (a proof is made of attempts), so it counts φ = 1, not 0.

The most-proving leaf is found by walking down from the entry, at each position to the
reply of least δ (ties: least φ, then the order of the replies), as in proof-number
search (Allis 1994). The walk goes no deeper than ``depth`` plies below the entry, and
skips the leaves being attempted (``busy``: with two workers, the second attempt is the
most-proving leaf apart from the first).

Only the journal decides the numbers, so a resumed run chooses what the interrupted one
would have; which attempts end first (two workers) can change the later choices, never
a value: every value is an attempt's or a merge of attempts'
(:func:`~boardproof.models.minefield.research.subtrees.merge`).

>>> from boardproof.models.minefield.research.subtrees import SubtreeRun
>>> run = SubtreeRun(3, "orthogonal", budget=8, depth=2, progress=False)
>>> run._index("n=3 [a2] budget=8 +must3", {"winner": None, "children": [
...     ["a1", 5, 2], ["b1", 1_073_741_823, 0], ["b2", 3, 4]]})
>>> tree = BestFirst(run, "a2")
>>> tree.numbers("a2")  # White to move: least δ of a reply (b2's 3), sum of their φ
(3, 7)
>>> tree.choose(), tree.choose(busy={"a2 b2"}), tree.choose(busy={"a2 b2", "a2 a1"})
('a2 b2', 'a2 a1', 'a2 b1')
>>> run._index("n=3 [a2 b2] budget=8 +must3", {"winner": "w"})   # White wins after b2
>>> tree.settled(), tree.numbers("a2")
(True, (0, 1073741823))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardproof.solvers.common import symmetric_key

if TYPE_CHECKING:
    from boardproof.models.minefield.research.subtrees import SubtreeRun

#: infinity in the numbers (the df-pn table's own: ``prover`` stores proof numbers so)
INF = 1_073_741_823


def capped(value: int) -> int:
    """A sum of numbers, at most :data:`INF`."""
    return min(value, INF)


class BestFirst:
    """The proof-number tree of one entry ``root`` over ``run``'s journal."""

    def __init__(self, run: SubtreeRun, root: str, depth: int | None = None) -> None:
        self.run = run
        self.root = root
        self.depth = run.depth if depth is None else depth
        #: the replies of an unsettled attempt (by its journal key): (line, φ, δ) hints
        self._replies: dict[str, list[tuple[str, int, int]]] = {}
        self._memo: dict[str, tuple[int, int]] = {}

    def replies(self, line: str, key: str, result: dict[str, Any]) -> list[tuple[str, int, int]]:
        """The replies of the unsettled attempt ``result`` of ``line``, one per symmetry
        class (the first in board order), with the numbers its table left for the
        position after each, for the side to move there."""
        if key not in self._replies:
            pos = self.run.position(line)
            seen: set[Any] = set()
            rows = []
            for move, pn, dn in result.get("children") or []:
                sym, _ = symmetric_key(pos.play(pos.parse_move(move)))
                if sym in seen:
                    continue
                seen.add(sym)
                if pn is None or dn is None:  # not in the table: nothing known
                    phi, delta = 1, 1
                elif pn >= INF:  # lost for the parent's mover: won after it, to be attempted
                    phi, delta = 1, INF
                else:
                    phi, delta = max(int(dn), 1), max(int(pn), 1)
                rows.append((f"{line} {move}".strip(), phi, delta))
            self._replies[key] = rows
        return self._replies[key]

    def numbers(self, line: str, hint: tuple[int, int] = (1, 1)) -> tuple[int, int]:
        """(φ, δ) of ``line`` for its side to move: from its attempt, else ``hint``."""
        if line in self._memo:
            return self._memo[line]
        hit = self.run.known(line)
        if hit is None:
            return hint
        key, result = hit
        if result.get("winner") is not None:
            mover = self.run.mover(line)
            found = (0, INF) if result["winner"] == mover else (INF, 0)
        elif not result.get("children"):
            found = hint
        else:
            kids = [
                self.numbers(child, (phi, delta))
                for child, phi, delta in self.replies(line, key, result)
            ]
            found = (min(d for _, d in kids), capped(sum(p for p, _ in kids)))
        self._memo[line] = found
        return found

    def settled(self) -> bool:
        """Is the entry's value known (from the journal as it is now)?"""
        self._memo.clear()
        return 0 in self.numbers(self.root)

    def choose(self, busy: set[str] | frozenset[str] = frozenset()) -> str | None:
        """The most-proving line without an attempt (not one of ``busy``), or None: the
        entry is settled, or every leaf within ``depth`` plies is busy."""
        if self.settled():
            return None
        return self._walk(self.root, 0, busy)

    def _walk(self, line: str, plies: int, busy: set[str] | frozenset[str]) -> str | None:
        hit = self.run.known(line)
        if hit is None:
            return None if line in busy else line
        key, result = hit
        if result.get("winner") is not None or plies >= self.depth:
            return None
        order = []
        for index, (child, phi, delta) in enumerate(self.replies(line, key, result)):
            kid_phi, kid_delta = self.numbers(child, (phi, delta))
            if kid_phi and kid_delta:  # a settled reply has nothing to attempt
                order.append((kid_delta, kid_phi, index, child))
        for *_, child in sorted(order):
            found = self._walk(child, plies + 1, busy)
            if found is not None:
                return found
        return None
