"""Native (C) df-pn for Carpniches with a ply bound: "side X wins within N plies".

The C module (``_dfpn``, built from ``dfpn.c``; optional) is the df-pn of
:class:`boardproof.solvers.pns.DFPN` for one game: proof and disproof numbers, a table
over the 8 symmetries holding exact proofs (with their length) and disproofs (with their
bound), and repetitions counted as "not a win" whose path-dependent disproofs are never
stored (``dfpn.c`` explains why the answer stays exact). The tests compare its answers
with the native alpha-beta and the Python df-pn.

:meth:`NativeDFPN.proof` reads a proof tree (the ``boardproof-proof`` format of
:mod:`boardproof.solvers.proof`) out of the table, re-proving what the table lost; it is
only trusted after :func:`~boardproof.solvers.proof.check_proof`, the rules-only checker.

>>> from boardproof.models.carpniches import parse_position
>>> from boardproof.solvers.proof import check_proof
>>> pos = parse_position("(cpc)4p/3p2/6/4c1/6/(pcp)4(cpc) c -")
>>> if available():
...     search = NativeDFPN(pos, player=0, max_plies=5, tt_bits=12)
...     found = search.solve()
...     print(found.proved, search.plies, check_proof(search.proof()).winner)
... else:
...     print("True 3 c")
True 3 c
"""

from __future__ import annotations

import struct
import time
from typing import Any

from boardproof.models.base import InvalidOptionError
from boardproof.models.carpniches import rules as model
from boardproof.solvers.common import Budget, Stop
from boardproof.solvers.native import MAX_NODES, check_ranges
from boardproof.solvers.pns import PNSResult
from boardproof.solvers.proof import FORMAT, VERSION, ProofTooLarge

try:  # the compiled module is optional (no C compiler: the package installs without it)
    from boardproof.models.carpniches.native import _dfpn as _native  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _native = None

#: default table: 2**bits entries of 56 bytes (2**22 -> 224 MiB)
DEFAULT_TT_BITS = 22
#: the largest ply bound of the C module (proof lengths are stored in a byte)
MAX_PLIES = 250
#: the ranges of the C module's options
RANGES = {"max_plies": (1, MAX_PLIES), "tt_bits": (4, 30), "node_limit": (0, MAX_NODES)}
_installed: tuple[int, bool] | None = None
#: a step record for carpniches_state.h: int32 table (0 first turn, h exactly h squares),
#: int32 from, int32 to, uint64 squares between
_STEP = struct.Struct("<iiiQ")


def _step_tables() -> bytes:
    """The model's move steps as carpniches_state.h's ``setup`` reads them."""
    packed = bytearray()
    for table, steps in ((0, model.FIRST_STEPS), *((h, model.EXACT[h]) for h in (1, 2, 3))):
        for frm, row in enumerate(steps):
            for between, _bit, to in row:
                packed += _STEP.pack(table, frm, to, between)
    return bytes(packed)


def available() -> bool:
    """Whether the compiled module was built (a C compiler at install time)."""
    return _native is not None


def install(tt_bits: int = DEFAULT_TT_BITS, symmetry: bool = True) -> None:
    """Hand the model's tables to the C module; a new table size or symmetry mode
    allocates (and clears) the table."""
    global _installed
    if _native is None:
        raise InvalidOptionError(
            "invalid option method dfpn-native: the C module was not built (no compiler?)"
        )
    check_ranges(RANGES, tt_bits=tt_bits)
    if not _native.ready():
        _native.setup(_step_tables(), model._START_RIGHT, model._START_LEFT)
    if _installed != (tt_bits, symmetry):
        _native.set_symmetry(model.SYMMETRY, tt_bits, symmetry)
        _installed = (tt_bits, symmetry)


def set_mutation(kind: int) -> None:
    """Break the C search on purpose (the tests' mutation check); 0 restores it."""
    if _installed is None:
        install()
    assert _native is not None
    _native.set_mutation(kind)
    _native.clear()


class NativeDFPN:
    """Native df-pn for "``player`` (default: the side to move) wins within ``max_plies``".

    The table is cleared first unless ``keep_table`` (then what earlier searches proved
    with the same table settings is reused). Only one search is active per process.
    ``nodes`` (expansions), ``generated`` (children made and looked up) and ``reps`` are
    the C module's counters since the table was last cleared (with ``keep_table`` they
    include the earlier searches, and so does the budget's node limit).
    """

    def __init__(
        self,
        root: model.CarpnichesPosition,
        *,
        player: int | None = None,
        max_plies: int,
        budget: Budget | None = None,
        tt_bits: int = DEFAULT_TT_BITS,
        symmetry: bool = True,
        keep_table: bool = False,
    ) -> None:
        if getattr(root.game, "name", None) != "carpniches":
            raise InvalidOptionError(
                f"invalid option method dfpn-native: it solves Carpniches only, got {root.fen()!r}"
            )
        check_ranges(RANGES, max_plies=max_plies)
        install(tt_bits, symmetry)
        assert _native is not None
        if not keep_table:
            _native.clear()
        self.root = root
        self.player = root.to_move if player is None else player
        self.limit = max_plies
        self.budget = budget if budget is not None else Budget(None)
        #: the proof's length when proved (a win within that many plies)
        self.plies: int | None = None
        self.nodes = 0
        self.generated = 0
        self.reps = 0

    def _limits(self) -> tuple[int, float]:
        budget = self.budget
        nodes = min(budget.node_limit or 0, MAX_NODES)
        seconds = 0.0
        if budget.deadline is not None:
            seconds = max(budget.deadline - time.perf_counter(), 1e-6)
        return nodes, seconds

    def _prove(self, pos: model.CarpnichesPosition, plies: int) -> tuple[int, int]:
        """(status, length) of "player wins within plies from pos" (pos not over)."""
        assert _native is not None
        nodes, seconds = self._limits()
        status, plen = _native.prove(tuple(pos), self.player, plies, nodes, seconds)
        self.nodes, self.generated, self.reps = _native.counters()
        return int(status), int(plen)

    def solve(self) -> PNSResult:
        """Prove or disprove the root within the bound (None: the budget ran out)."""
        root = self.root
        outcome = root.outcome()
        if outcome is not None:
            won = outcome.winners == frozenset((self.player,))
            self.plies = 0 if won else None
            return PNSResult(self.player, won, 1, False)
        status, plen = self._prove(root, self.limit)
        if status < 0:
            stopped = self.budget.stop_reason(self.nodes) if self.budget.expired(self.nodes) \
                else Stop.TIME  # fmt: skip
            return PNSResult(self.player, None, self.nodes, True, stopped=stopped)
        if status == 0:
            return PNSResult(self.player, False, self.nodes, False)
        self.plies = plen
        move = self.winning_move(root, plen)[0] if root.to_move == self.player else None
        return PNSResult(self.player, True, self.nodes, False, move, [move] if move else [])

    def shortest(self) -> int | None:
        """The exact length of the fastest forced win (None: none within the bound, or the
        budget ran out first): prove, then disprove one ply less, tightening."""
        if self.plies is None and self.solve().proved is not True:
            return None
        assert self.plies is not None
        best = self.plies
        while best > 1:
            status, plen = self._prove(self.root, best - 1)
            if status != 1:
                return best if status == 0 else None
            best = plen
        return best

    # -- the proof tree --------------------------------------------------------------

    def principal_line(self) -> list[Any]:
        """A line of the proved win: the player's proof moves, and each time the reply
        that holds out longest (the first of equals); empty when not proved."""
        if self.plies is None:
            return []
        line: list[Any] = []
        pos, bound = self.root, self.plies
        while pos.outcome() is None:
            if pos.to_move == self.player:
                move, bound = self.winning_move(pos, bound)
            else:
                lengths = [(self.win_length(pos.play(m), bound - 1), m) for m in pos.legal_moves()]
                longest = max(length for length, _ in lengths)
                move = next(m for length, m in lengths if length == longest)
                bound = longest
            line.append(move)
            pos = pos.play(move)
        return line

    def win_length(self, pos: model.CarpnichesPosition, bound: int) -> int:
        """Plies of a proved win of the player from ``pos`` within ``bound`` (the table's,
        else proved again); AssertionError when there is none."""
        outcome = pos.outcome()
        if outcome is not None:
            assert outcome.winners == frozenset((self.player,)), f"lost leaf {pos.fen()}"
            return 0
        assert bound >= 1, f"no proof within {bound} plies of {pos.fen()}"
        assert _native is not None
        entry = _native.probe(tuple(pos), self.player)
        if entry is not None and entry[0] <= bound:
            return int(entry[0])
        status, plen = self._prove(pos, bound)
        assert status == 1, f"no proof within {bound} plies of {pos.fen()} (status {status})"
        return plen

    def winning_move(self, pos: model.CarpnichesPosition, bound: int) -> tuple[Any, int]:
        """The player's move from ``pos`` to a position it wins within ``bound - 1``, and
        that length (the table's proof move first)."""
        assert _native is not None
        self.win_length(pos, bound)  # the table holds pos's proof (and its move)
        entry = _native.probe(tuple(pos), self.player)
        moves = list(pos.legal_moves())
        if entry is not None and entry[2] != entry[3]:
            hint = model.MOVES[entry[2]][entry[3]]
            if hint in moves:
                moves.remove(hint)
                moves.insert(0, hint)
        for move in moves:
            child = pos.play(move)
            outcome = child.outcome()
            if outcome is not None:
                if outcome.winners == frozenset((self.player,)):
                    return move, 0
                continue
            if bound <= 1:
                continue
            found = _native.probe(tuple(child), self.player)
            if found is not None and found[0] <= bound - 1:
                return move, int(found[0])
        for move in moves:  # the table lost the child's proof: prove the children again
            child = pos.play(move)
            if child.outcome() is None and bound > 1:
                status, plen = self._prove(child, bound - 1)
                if status == 1:
                    return move, plen
        raise AssertionError(f"no winning move within {bound} plies in {pos.fen()}")

    def proof(self, max_nodes: int = 1_000_000) -> dict[str, Any]:
        """The proof tree of the proved win (``boardproof-proof`` JSON data).

        Every edge goes to a position proved within strictly fewer plies, so the graph is
        acyclic; a position reached again with a proof at most as long shares its node.
        Raises ProofTooLarge past ``max_nodes`` nodes, ValueError when not proved.
        """
        if self.plies is None:
            raise ValueError(f"no proved win for {self.root.game.symbol(self.player)}")
        nodes: list[dict[str, Any]] = []
        ids: dict[model.CarpnichesPosition, tuple[int, int]] = {}
        stack: list[tuple[model.CarpnichesPosition, int, int]] = []

        def node_for(pos: model.CarpnichesPosition, bound: int) -> int:
            found = ids.get(pos)
            if found is not None and found[1] <= bound:
                return found[0]
            if len(nodes) >= max_nodes:
                raise ProofTooLarge
            new = len(nodes)
            ids[pos] = (new, bound)
            nodes.append({"id": new, "position": pos.fen(), "moves": {}})
            stack.append((pos, bound, new))
            return new

        node_for(self.root, self.plies)
        while stack:
            pos, bound, node = stack.pop()
            if pos.outcome() is not None:
                continue
            moves: dict[str, int] = {}
            if pos.to_move == self.player:
                move, plen = self.winning_move(pos, bound)
                moves[str(move)] = node_for(pos.play(move), plen)
            else:
                for move in pos.legal_moves():
                    child = pos.play(move)
                    moves[str(move)] = node_for(child, self.win_length(child, bound - 1))
            nodes[node]["moves"] = moves
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": "carpniches",
            "options": {},
            "root": self.root.fen(),
            "winner": self.root.game.symbol(self.player),
            "nodes": nodes,
        }


def win_within(
    position: model.CarpnichesPosition, player: int, plies: int,
    budget: Budget | None = None, tt_bits: int = DEFAULT_TT_BITS,
) -> bool | None:  # fmt: skip
    """Whether ``player`` wins within ``plies`` from ``position`` (None: budget spent)."""
    return NativeDFPN(position, player=player, max_plies=plies, budget=budget,
                      tt_bits=tt_bits).solve().proved  # fmt: skip
