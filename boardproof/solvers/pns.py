"""Depth-first proof-number search (df-pn): prove or disprove "player P wins".

P's nodes are OR nodes (one winning move suffices), every other player's node is
an AND node (every reply must lose: the coalition of the others). With
``max_plies`` the question becomes "P wins within N plies": a non-terminal node
at the limit is disproved, and the table is keyed by the remaining depth.

Repetitions (graph-history interaction). A child already on the current path is
disproved *for this visit only* (a repetition is not a win, so a proof never
relies on a cycle). Every result carries the shallowest path depth of a
repetition it relied on; a disproof that relied on a position above the node is
kept in the parent's frame only and never stored as final in the table, so it
cannot leak into another path. Proofs never rely on repetitions and are always
stored. At the root the first-repetition-is-a-draw answer is the true answer of
the game where endless play is a draw.

>>> from boardproof.testing.games import subtraction
>>> DFPN(subtraction(7, 3)).solve().proved, DFPN(subtraction(8, 3)).solve().proved
(True, False)
>>> DFPN(subtraction(7, 3), max_plies=2).solve().proved
False
"""

from __future__ import annotations

import sys
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from boardproof.models.base import CANONICAL, WINNER, Position, offers
from boardproof.solvers.common import (
    Budget,
    SearchTimeout,
    key_function,
    num_players,
    raw_key,
    wins,
)
from boardproof.solvers.search import SYMMETRY_PLIES, MoveFilter, TranspositionTable

INF = 1 << 40
#: "relied on no repetition"
NO_REP = 1 << 30


@dataclass
class PNSResult:
    """``proved`` is True (P wins), False (P does not win, within the limit) or None."""

    player: int
    proved: bool | None
    nodes: int
    timed_out: bool
    best_move: Any = None
    pv: list[Any] = field(default_factory=list)
    #: why it stopped unsettled (:class:`~boardproof.solvers.common.Stop`), else None
    stopped: str | None = None


class DFPN:
    """df-pn for "``player`` (default: the side to move) wins [within ``max_plies``]".

    ``moves`` (a :data:`~boardproof.solvers.search.MoveFilter`) replaces the legal moves
    of every node, OR and AND alike (sound by the filter's contract)."""

    def __init__(
        self,
        root: Position,
        *,
        player: int | None = None,
        max_plies: int | None = None,
        tt_capacity: int = 1 << 21,
        budget: Budget | None = None,
        symmetry: bool = True,
        epsilon: float = 0.25,
        moves: MoveFilter | None = None,
    ) -> None:
        self.root = root
        #: the move filter (:data:`~boardproof.solvers.search.MoveFilter`; None: every move)
        self.moves = moves
        self.players = num_players(root)
        self.player = root.to_move if player is None else player
        self.limit = max_plies
        self.keyfn = key_function(root, symmetry)
        if self.keyfn is raw_key:
            self.sym_plies = 0
        elif offers(root.game, CANONICAL):
            self.sym_plies = 1 << 30
        else:
            self.sym_plies = SYMMETRY_PLIES
        self.tt = TranspositionTable(tt_capacity)
        self.budget = budget if budget is not None else Budget(None)
        self.epsilon = epsilon
        #: optional hook: ``winner()`` (cheap, None while nobody has won)
        self.quick_winner = offers(root.game, WINNER)
        self.nodes = 0
        self.path: dict[Hashable, int] = {}

    def _tt_key(self, pos: Position, remaining: int | None, depth: int) -> Hashable:
        # the proposition is relative to the mover ("mover wins" at OR nodes,
        # "mover does not stop P" at AND nodes), so symmetric keys are safe; raw and
        # symmetric keys can share the table (a symmetric key is a real position's)
        key = self.keyfn(pos)[0] if depth < self.sym_plies else pos.key()
        return (key, pos.to_move == self.player, remaining)

    def _fixed(
        self, pos: Position, remaining: int | None, lazy: bool = False
    ) -> tuple[int, int] | None:
        if lazy and self.quick_winner and pos.winner() is None:  # type: ignore[attr-defined]
            # no winner yet: a dead end (a draw) is found when the node is expanded
            if remaining is not None and remaining <= 0:
                return (INF, 0)
            return None
        outcome = pos.outcome()
        if outcome is not None:
            return (0, INF) if wins(outcome, self.player, self.players) else (INF, 0)
        if remaining is not None and remaining <= 0:
            return (INF, 0)
        return None

    def mid(
        self, pos: Position, th_pn: int, th_dn: int, depth: int, remaining: int | None
    ) -> tuple[int, int, int]:
        """Search ``pos`` until its numbers reach a threshold; returns (pn, dn, rep_depth)."""
        self.nodes += 1
        if not self.nodes & 255:
            self.budget.check(self.nodes)
        my_key = self._tt_key(pos, remaining, depth)
        outcome = pos.outcome()
        if outcome is not None:  # found lazily (see _fixed)
            found = (0, INF) if wins(outcome, self.player, self.players) else (INF, 0)
            self.tt.put(my_key, found)
            return found[0], found[1], NO_REP
        is_or = pos.to_move == self.player
        child_remaining = None if remaining is None else remaining - 1
        children: list[list[Any]] = []
        for move in pos.legal_moves() if self.moves is None else self.moves(pos):
            child = pos.play(move)
            fixed = self._fixed(child, child_remaining, lazy=True)
            if fixed is not None:
                if is_or and fixed[0] == 0:
                    self.tt.put(my_key, (0, INF))
                    return 0, INF, NO_REP
                if not is_or and fixed[1] == 0:
                    self.tt.put(my_key, (INF, 0))
                    return INF, 0, NO_REP
            children.append([move, child, child.key(), None, fixed])
        raw = pos.key()
        self.path[raw] = depth
        local: dict[int, tuple[int, int, int]] = {}
        pn = dn = 0
        rep = NO_REP
        try:
            while True:
                pns: list[int] = []
                dns: list[int] = []
                rep = NO_REP
                for i, item in enumerate(children):
                    fixed = item[4]
                    if fixed is not None:
                        cpn, cdn = fixed
                    elif item[2] in self.path:
                        cpn, cdn = INF, 0
                        rep = min(rep, self.path[item[2]])
                    elif i in local:
                        cpn, cdn, crep = local[i]
                        rep = min(rep, crep)
                    else:
                        if item[3] is None:
                            item[3] = self._tt_key(item[1], child_remaining, depth + 1)
                        entry = self.tt.get(item[3])
                        cpn, cdn = entry if entry is not None else (1, 1)
                    pns.append(cpn)
                    dns.append(cdn)
                if is_or:
                    pn, dn = min(pns), min(INF, sum(dns))
                else:
                    pn, dn = min(INF, sum(pns)), min(dns)
                if pn >= th_pn or dn >= th_dn or pn == 0 or dn == 0:
                    break
                if is_or:
                    best = min(range(len(children)), key=pns.__getitem__)
                    second = min((p for i, p in enumerate(pns) if i != best), default=INF)
                    c_pn = min(th_pn, int(second * (1 + self.epsilon)) + 1)
                    c_dn = min(INF, th_dn - dn + dns[best])
                else:
                    best = min(range(len(children)), key=dns.__getitem__)
                    second = min((d for i, d in enumerate(dns) if i != best), default=INF)
                    c_dn = min(th_dn, int(second * (1 + self.epsilon)) + 1)
                    c_pn = min(INF, th_pn - pn + pns[best])
                item = children[best]
                result = self.mid(item[1], c_pn, c_dn, depth + 1, child_remaining)
                if result[2] <= depth:
                    local[best] = result
                else:
                    local.pop(best, None)
        finally:
            del self.path[raw]
        if pn == 0:
            self.tt.put(my_key, (0, INF))
            return 0, INF, NO_REP
        if dn == 0:
            if rep >= depth:  # relied on nothing above this node
                self.tt.put(my_key, (INF, 0))
                return INF, 0, NO_REP
            return INF, 0, rep
        self.tt.put(my_key, (pn, dn))
        return pn, dn, rep

    def solve(self) -> PNSResult:
        """Run df-pn from the root until it is proved, disproved or the budget ends."""
        root = self.root
        fixed = self._fixed(root, self.limit)
        if fixed is not None:
            return PNSResult(self.player, fixed[0] == 0, 1, False)
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, 20_000))
        try:
            pn, dn, _ = self.mid(root, INF, INF, 0, self.limit)
        except SearchTimeout:
            stopped = self.budget.stop_reason(self.nodes)
            return PNSResult(self.player, None, self.nodes, True, stopped=stopped)
        finally:
            sys.setrecursionlimit(old_limit)
        proved = pn == 0
        pv = self.winning_line() if proved else []
        return PNSResult(self.player, proved, self.nodes, False, pv[0] if pv else None, pv)

    def winning_line(self, limit: int = 200) -> list[Any]:
        """A line from the root through proved positions (P's moves are proved wins)."""
        line: list[Any] = []
        pos = self.root
        remaining = self.limit
        seen: set[Hashable] = set()
        while len(line) < limit:
            if pos.outcome() is not None or pos.key() in seen:
                break
            seen.add(pos.key())
            child_remaining = None if remaining is None else remaining - 1
            chosen = None
            for move in pos.legal_moves():
                child = pos.play(move)
                fixed = self._fixed(child, child_remaining)
                if fixed is not None:
                    numbers = fixed
                else:
                    entry = self.tt.get(self._tt_key(child, child_remaining, len(line) + 1))
                    numbers = entry if entry is not None else (1, 1)
                if numbers[0] == 0 and child.key() not in seen:
                    chosen = move
                    if pos.to_move == self.player or fixed is None:
                        break
            if chosen is None:
                break
            line.append(chosen)
            pos = pos.play(chosen)
            remaining = child_remaining
        return line
