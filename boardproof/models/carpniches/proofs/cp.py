"""CP-SAT planning models of Carpniches play (OR-Tools).

One encoding, :class:`PlanModel`, describes up to K plies of legal play from a given
position: the state after each ply (stack heights one-hot, the animal at each level,
the top pieces), one move per active ply (own top piece, exactly the stack height or
1-3 squares on a first turn, no jumping, landing on a stack of at most 2, the second
player's forbidden square), the game not over before each move (no line on the board).
Plies ``0 .. L-1`` are active and the rest idle, ``L`` is a variable, so one model
answers "within K plies". Three questions are built on it:

- :func:`reach` -- is ``target`` reachable from ``source`` in at most K plies of legal
  play? A move sequence, or a proof-backed no (the bounded model is infeasible).
- :func:`line_distance` -- the *unopposed line distance*: the fewest moves with which a
  side makes a line of its own (and none of the opponent's) while the opponent does
  nothing (passes). It is a heuristic measure, **not** a sound bound on its own: the
  opponent's real moves can help (uncover a buried piece, clear a path, raise a stack
  the side then lands on, or give it a line by blundering).
- :func:`can_win_within` -- the *cooperative* ("helpmate") bound: can ``player`` win
  within p plies when both sides cooperate? If not (the model is infeasible), no
  strategy wins within p plies against any defence, so a win-in-N search may prune the
  node. This is the sound pruning bound behind :func:`prune`: it counts every way to
  win -- the side's own lines, lines the opponent uncovers or makes together with its
  own (both-lines loses), and blocking.

Every model is checked against breadth-first search in ``tests/test_carpniches_cp.py``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from boardproof.models.base import InvalidOptionError
from boardproof.models.carpniches import (
    BETWEEN,
    FIRST_MOVE_DISTANCES,
    LINE_TRIPLES,
    MOVES,
    OPENING_FIRST,
    OPENING_OVER,
    SQUARES,
    CarpnichesMove,
    CarpnichesPosition,
)

MAX_STEP = max(FIRST_MOVE_DISTANCES)  # the longest move: a 3-stack, or a first move


def _candidates() -> tuple[tuple[int, int, int, tuple[int, ...]], ...]:
    """Every (from, to, distance, squares between) of a move of 1..3 squares."""
    out = []
    for (f, t), (d, between) in sorted(BETWEEN.items()):
        if d <= MAX_STEP:
            squares = tuple(s for s in range(SQUARES) if between >> s & 1)
            out.append((f, t, d, squares))
    return tuple(out)


CANDIDATES = _candidates()


def _state_arrays(pos: CarpnichesPosition) -> tuple[list[int], list[list[int]]]:
    """(heights, animals per level) of a position; animal 1 = poodle, levels above = 0."""
    heights = [pos.height(s) for s in range(SQUARES)]
    layers = (pos.l0, pos.l1, pos.l2)
    levels = [[layers[k] >> s & 1 for k in range(3)] for s in range(SQUARES)]
    return heights, levels


@dataclass
class _State:
    height: list[list[Any]]  # height[s][j]: stack height on s is j (one-hot, j = 0..3)
    poodle: list[list[Any]]  # poodle[s][k]: the piece at level k is a poodle (0 if none)
    top: list[list[Any]]  # top[side][s]: the top piece on s belongs to side


class PlanModel:
    """Up to ``plies`` plies of legal play from ``start`` in CP-SAT.

    ``movers[t]`` is the side that makes ply t (alternating for real play; always the
    same side for the unopposed distance). Ply t is active iff ``active[t]``; active
    plies come first. ``first_turn[t]`` applies the first-turn rules to ply t, and
    ``forbidden_from_ply[t]`` names the ply whose landing square ply t may not land on
    or pass over (the second player's first move), if any.
    """

    def __init__(
        self,
        start: CarpnichesPosition,
        movers: Sequence[int],
        first_turn: Sequence[bool] | None = None,
        forbidden_square: int | None = None,
        forbidden_from_ply: dict[int, int] | None = None,
    ) -> None:
        self.start = start
        self.movers = list(movers)
        self.plies = len(self.movers)
        self.first_turn = list(first_turn) if first_turn else [False] * self.plies
        self.model = cp_model.CpModel()
        m = self.model
        heights, levels = _state_arrays(start)
        self.states: list[_State] = [self._fixed_state(heights, levels)]
        self.active = [m.new_bool_var(f"active{t}") for t in range(self.plies)]
        for t in range(1, self.plies):
            m.add_implication(self.active[t], self.active[t - 1])
        self.moves: list[dict[tuple[int, int], Any]] = []
        for t in range(self.plies):
            self._add_ply(t, forbidden_square if t == 0 else None)
        for t, earlier in (forbidden_from_ply or {}).items():
            self._forbid_landing_of(t, earlier)
        # the game must go on before each active ply: no line on the board
        for t in range(1, self.plies):
            for side in (0, 1):
                self._no_line(self.states[t], side, self.active[t])

    # -- building blocks ------------------------------------------------------------

    def _fixed_state(self, heights: list[int], levels: list[list[int]]) -> _State:
        m = self.model
        one, zero = m.new_constant(1), m.new_constant(0)
        height = [[one if heights[s] == j else zero for j in range(4)] for s in range(SQUARES)]
        poodle = [[one if levels[s][k] else zero for k in range(3)] for s in range(SQUARES)]
        top: list[list[Any]] = [[], []]
        for s in range(SQUARES):
            h = heights[s]
            animal = levels[s][h - 1] if h else -1
            top[0].append(one if animal == 0 else zero)
            top[1].append(one if animal == 1 else zero)
        return _State(height, poodle, top)

    def _new_state(self, t: int) -> _State:
        m = self.model
        height = [[m.new_bool_var(f"h{t}_{s}_{j}") for j in range(4)] for s in range(SQUARES)]
        poodle = [[m.new_bool_var(f"p{t}_{s}_{k}") for k in range(3)] for s in range(SQUARES)]
        top: list[list[Any]] = [[], []]
        for s in range(SQUARES):
            m.add_exactly_one(height[s])
            for k in range(3):
                # levels at or above the height hold no piece (canonical zero)
                m.add(poodle[s][k] + sum(height[s][j] for j in range(k + 1)) <= 1)
            tp = m.new_bool_var(f"tp{t}_{s}")
            parts = []
            for k in range(3):
                both = m.new_bool_var(f"tpk{t}_{s}_{k}")
                m.add_bool_and([height[s][k + 1], poodle[s][k]]).only_enforce_if(both)
                m.add_bool_or([height[s][k + 1].negated(), poodle[s][k].negated()]).only_enforce_if(
                    both.negated()
                )
                parts.append(both)
            m.add(tp == sum(parts))
            tc = m.new_bool_var(f"tc{t}_{s}")
            m.add(tc + tp + height[s][0] == 1)
            top[0].append(tc)
            top[1].append(tp)
        return _State(height, poodle, top)

    def _add_ply(self, t: int, forbidden: int | None) -> None:
        m = self.model
        before = self.states[t]
        side = self.movers[t]
        first = self.first_turn[t]
        move_vars: dict[tuple[int, int], Any] = {}
        legal_now = None
        if t == 0 and self.start.to_move == side:
            legal_now = {(mv.frm, mv.to) for mv in self.start.legal_moves()}
        for f, g, d, between in CANDIDATES:
            if forbidden is not None and (g == forbidden or forbidden in between):
                continue
            if legal_now is not None and (f, g) not in legal_now:
                continue
            var = m.new_bool_var(f"m{t}_{f}_{g}")
            move_vars[(f, g)] = var
            m.add_implication(var, before.top[side][f])
            if not first:
                m.add_implication(var, before.height[f][d])
            for b in between:
                m.add_implication(var, before.height[b][0])
            m.add_implication(var, before.height[g][3].negated())
        m.add(sum(move_vars.values()) == self.active[t])
        self.moves.append(move_vars)

        after = self._new_state(t + 1)
        leaving: list[list[Any]] = [[] for _ in range(SQUARES)]
        landing: list[list[Any]] = [[] for _ in range(SQUARES)]
        for (f, g), var in move_vars.items():
            leaving[f].append(var)
            landing[g].append(var)
        for s in range(SQUARES):
            out = sum(leaving[s])
            into = sum(landing[s])
            m.add(
                sum(j * after.height[s][j] for j in range(4))
                == sum(j * before.height[s][j] for j in range(4)) - out + into
            )
            for k in range(3):
                # a piece lands at level k when the stack was k high; the piece at level k
                # leaves when the stack was k + 1 high; otherwise level k is unchanged
                lands = m.new_bool_var(f"lands{t}_{s}_{k}")
                m.add(lands <= into)
                m.add_implication(lands, before.height[s][k])
                m.add(lands >= into + before.height[s][k] - 1)
                leaves = m.new_bool_var(f"leaves{t}_{s}_{k}")
                m.add(leaves <= out)
                m.add_implication(leaves, before.height[s][k + 1])
                m.add(leaves >= out + before.height[s][k + 1] - 1)
                m.add(after.poodle[s][k] == before.poodle[s][k]).only_enforce_if(
                    [lands.negated(), leaves.negated()]
                )
                m.add(after.poodle[s][k] == side).only_enforce_if(lands)
                m.add(after.poodle[s][k] == 0).only_enforce_if(leaves)
        self.states.append(after)

    def _forbid_landing_of(self, t: int, earlier: int) -> None:
        """Ply t may not land on, or pass over, the square where ply ``earlier`` landed."""
        m = self.model
        landed_on: dict[int, list[Any]] = {}
        for (_, g), var in self.moves[earlier].items():
            landed_on.setdefault(g, []).append(var)
        for (f, g), var in self.moves[t].items():
            d, between_mask = BETWEEN[(f, g)]
            for q in [g, *(s for s in range(SQUARES) if between_mask >> s & 1)]:
                if q in landed_on:
                    m.add(var + sum(landed_on[q]) <= 1)

    def triples(self, state: _State, side: int) -> list[list[Any]]:
        return [[state.top[side][s] for s in tri] for tri in LINE_TRIPLES]

    def _no_line(self, state: _State, side: int, enforce: Any) -> None:
        for tops in self.triples(state, side):
            self.model.add_bool_or([x.negated() for x in tops]).only_enforce_if(enforce)

    def has_line(self, state: _State, side: int, name: str) -> Any:
        """A literal true iff ``side`` has a line in ``state`` (exact, both ways)."""
        m = self.model
        line = m.new_bool_var(name)
        parts = []
        for i, tops in enumerate(self.triples(state, side)):
            tri = m.new_bool_var(f"{name}_{i}")
            m.add_bool_and(tops).only_enforce_if(tri)
            m.add_bool_or([x.negated() for x in tops]).only_enforce_if(tri.negated())
            parts.append(tri)
        m.add_max_equality(line, parts)
        return line

    def blocked(self, state: _State, side: int, name: str) -> Any:
        """A literal that implies ``side`` has no legal move in ``state`` (not first turn)."""
        m = self.model
        lit = m.new_bool_var(name)
        for f, g, d, between in CANDIDATES:
            clause = [state.top[side][f].negated(), state.height[f][d].negated()]
            clause += [state.height[g][3], *(state.height[b][0].negated() for b in between)]
            m.add_bool_or(clause).only_enforce_if(lit)
        return lit

    def ends(self) -> list[Any]:
        """ends[L]: exactly L plies are played (L = 0 .. plies)."""
        m = self.model
        out = []
        for length in range(self.plies + 1):
            lit = m.new_bool_var(f"end{length}")
            cond: list[Any] = []
            if length > 0:
                cond.append(self.active[length - 1])
            if length < self.plies:
                cond.append(self.active[length].negated())
            m.add_bool_and(cond).only_enforce_if(lit)
            m.add_bool_or([c.negated() for c in cond]).only_enforce_if(lit.negated())
            out.append(lit)
        m.add_exactly_one(out)
        return out

    def final(self) -> _State:
        return self.states[-1]

    def solve(self, seconds: float | None = None, workers: int = 1) -> tuple[Any, Any]:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = workers
        if seconds is not None:
            solver.parameters.max_time_in_seconds = seconds
        return solve_interruptibly(solver, self.model), solver

    def line_of_moves(self, solver: Any) -> list[CarpnichesMove]:
        out = []
        for t in range(self.plies):
            if not solver.value(self.active[t]):
                break
            for (f, g), var in self.moves[t].items():
                if solver.value(var):
                    out.append(MOVES[f][g])
        return out


def solve_interruptibly(solver: Any, model: Any) -> Any:
    """``solver.solve(model)``, with Ctrl-C raised as :class:`KeyboardInterrupt`.

    CP-SAT's own SIGINT handler (``catch_sigint_signal``, on by default) would end the
    search as if its time limit were reached (an "unknown" answer, and no interrupt)
    and leave SIGINT at its default action afterwards (a later Ctrl-C kills the
    process). Off, the solve runs in a thread (CP-SAT releases the GIL) while this one
    waits: Ctrl-C stops the search (``stop_search``) and goes on up.

    >>> m = cp_model.CpModel(); x = m.new_bool_var("x"); _ = m.add(x == 1)
    >>> solve_interruptibly(cp_model.CpSolver(), m) == cp_model.OPTIMAL
    True
    """
    solver.parameters.catch_sigint_signal = False
    if threading.current_thread() is not threading.main_thread():
        return solver.solve(model)  # no Ctrl-C reaches this thread
    out: list[Any] = []
    errors: list[BaseException] = []
    # an Event, not Thread.join: on Python 3.11 a join cut by Ctrl-C marks the thread
    # as ended while it runs (bpo-45274's fix), and the interpreter could then exit
    # under the solve (std::terminate)
    done = threading.Event()

    def run() -> None:
        try:
            out.append(solver.solve(model))
        except BaseException as error:  # noqa: BLE001 - raised again in the caller
            errors.append(error)
        finally:
            done.set()

    threading.Thread(target=run, name="cp-sat", daemon=True).start()
    try:
        done.wait()
    except BaseException:
        while True:  # until the search has stopped (it may not have started yet)
            solver.stop_search()
            try:
                if done.wait(0.01):
                    break
            except KeyboardInterrupt:  # a second Ctrl-C: the search is stopping anyway
                continue
        raise
    if errors:
        raise errors[0]
    return out[0]


# ---------------------------------------------------------------------------
# The questions
# ---------------------------------------------------------------------------


def _real_play(start: CarpnichesPosition, plies: int) -> dict[str, Any]:
    """PlanModel arguments for alternating legal play from ``start`` (with the opening)."""
    movers = [(start.to_move + t) % 2 for t in range(plies)]
    first_turn = [False] * plies
    forbidden_square = None
    forbidden_from: dict[int, int] = {}
    if start.opening == OPENING_FIRST:
        for t in range(min(2, plies)):
            first_turn[t] = True
        if plies >= 2:
            forbidden_from[1] = 0
    elif start.opening >= 0 and plies >= 1:
        first_turn[0] = True
        forbidden_square = start.opening
    return {
        "movers": movers,
        "first_turn": first_turn,
        "forbidden_square": forbidden_square,
        "forbidden_from_ply": forbidden_from,
    }


def _opening_after(opening: int, plies: int) -> int:
    if opening == OPENING_FIRST:
        return OPENING_FIRST if plies == 0 else (-3 if plies == 1 else OPENING_OVER)
    if opening >= 0:
        return opening if plies == 0 else OPENING_OVER
    return OPENING_OVER


@dataclass(frozen=True)
class ReachResult:
    """The answer of :func:`reach`: ``moves`` is None unless reachable within the bound.

    ``reachable`` is True (with ``moves``), False (proved unreachable) or None (unknown:
    the time limit stopped CP-SAT before either; ``stopped`` then says ``time``).
    """

    reachable: bool | None
    moves: list[CarpnichesMove] | None
    max_plies: int
    #: "CP-SAT: optimal" (the shortest sequence), "CP-SAT: feasible" (a sequence, the time
    #: limit stopped the search for a shorter one), "CP-SAT: infeasible" (proved
    #: unreachable), "trivial: ..." or "CP-SAT: unknown (time limit)"
    method: str
    stopped: str | None = None


def reach(
    source: CarpnichesPosition,
    target: CarpnichesPosition,
    max_plies: int,
    seconds: float | None = None,
) -> ReachResult:
    """Is ``target`` reachable from ``source`` in at most ``max_plies`` plies of legal play?

    When it is, the answer carries a shortest move sequence (CP-SAT minimises the plies).

    The opening field and the side to move of ``target`` must match the number of plies
    played (both follow from it), which the model enforces.

    >>> from boardproof.models.carpniches import START_POSITION, parse_position
    >>> goal = parse_position("(cp)4(pcp)/1c4/6/6/1p4/(pc)4(cpc) c -")
    >>> r = reach(START_POSITION, goal, 2)
    >>> r.reachable, [str(m) for m in r.moves]
    (True, ['a6-b5', 'a1-b2'])
    >>> reach(START_POSITION, goal, 3).method
    'CP-SAT: optimal'
    >>> reach(START_POSITION.play(MOVES[30][12]), goal, 3).method
    'CP-SAT: infeasible'
    """
    if max_plies < 0:
        raise InvalidOptionError(
            f"invalid option max_plies: expected a number >= 0, got {max_plies!r}"
        )
    if source == target:
        return ReachResult(True, [], max_plies, "trivial: the positions are equal")
    lengths = [
        n
        for n in range(1, max_plies + 1)
        if (source.to_move + n) % 2 == target.to_move
        and _opening_matches(_opening_after(source.opening, n), target.opening, source.opening)
    ]
    if not lengths:
        return ReachResult(
            False,
            None,
            max_plies,
            "trivial: no ply count within the bound fits the target's side and opening field",
        )
    if any(source.lines()):
        return ReachResult(False, None, max_plies, "trivial: the game is over at the source")
    plan = PlanModel(source, **_real_play(source, max(lengths)))
    ends = plan.ends()
    plan.model.add_bool_or([ends[n] for n in lengths])
    if source.opening == OPENING_FIRST and target.opening >= 0:
        # one ply was played: the first move landed on the target's opening square
        plan.model.add(sum(v for (_, g), v in plan.moves[0].items() if g == target.opening) == 1)
    heights, levels = _state_arrays(target)
    final = plan.final()
    for s in range(SQUARES):
        plan.model.add(final.height[s][heights[s]] == 1)
        for k in range(3):
            plan.model.add(final.poodle[s][k] == levels[s][k])
    plan.model.minimize(sum(plan.active))  # the shortest sequence
    status, solver = plan.solve(seconds)
    if status == cp_model.OPTIMAL:
        return ReachResult(True, plan.line_of_moves(solver), max_plies, "CP-SAT: optimal")
    if status == cp_model.FEASIBLE:
        return ReachResult(True, plan.line_of_moves(solver), max_plies, "CP-SAT: feasible")
    if status == cp_model.INFEASIBLE:
        return ReachResult(False, None, max_plies, "CP-SAT: infeasible")
    return ReachResult(None, None, max_plies, "CP-SAT: unknown (time limit)", stopped="time")


def _opening_matches(after: int, target: int, source: int) -> bool:
    if after == -3:  # one ply after the first move: the opening names the landing square
        return target >= 0
    return after == target


def line_distance(
    position: CarpnichesPosition, side: int, max_moves: int = 6, seconds: float | None = None
) -> int | None:
    """The unopposed line distance of ``side`` (None if more than ``max_moves``).

    The fewest moves of ``side`` alone (the opponent passes) after which ``side`` has a
    line and the opponent none, with no line on the board before. Positions still in the
    first turns are not supported (the first-turn rules depend on alternation).

    >>> from boardproof.models.carpniches import parse_position
    >>> line_distance(parse_position("6/6/6/6/3c2/cc4 p -"), 0, max_moves=2)  # d2-c1
    1
    """
    if position.opening != OPENING_OVER:
        raise InvalidOptionError(
            "invalid position: the line distance needs the first turns to be over, "
            f"got opening field {position.fen().split()[2]!r}"
        )
    lines = position.lines()
    if lines[side] and not lines[1 - side]:
        return 0
    if any(lines):
        return None
    plan = PlanModel(position, [side] * max_moves)
    plan.ends()
    final = plan.final()
    mine = plan.has_line(final, side, "mine")
    plan.ends()
    plan.model.add(mine == 1)
    plan._no_line(final, 1 - side, plan.model.new_constant(1))
    plan.model.minimize(sum(plan.active))
    status, solver = plan.solve(seconds)
    if status == cp_model.OPTIMAL:
        return int(solver.objective_value)
    if status == cp_model.INFEASIBLE:
        return None
    raise TimeoutError("CP-SAT hit its time limit before proving the line distance")


def can_win_within(
    position: CarpnichesPosition,
    plies: int,
    player: int | None = None,
    seconds: float | None = None,
) -> bool | None:
    """Can ``player`` (any player if None) win within ``plies`` plies if both cooperate?

    True (a witness was found: first by a depth-first look of at most
    :data:`WITNESS_NODES` nodes, else by CP-SAT), False (the bounded CP-SAT model is
    infeasible: no sequence of at most ``plies`` legal plies ends the game with that
    result), None (time limit).
    Positions in the first turns are answered with True (not modelled: no pruning).
    """
    outcome = position.outcome()
    if outcome is not None:
        return player is None or player in outcome.winners
    if plies <= 0:
        return False
    if position.opening != OPENING_OVER:
        return True
    if _witness(position, plies, player, [WITNESS_NODES]):
        return True  # a short depth-first look found a cooperative win: no model needed
    plan = PlanModel(position, **_real_play(position, plies))
    m = plan.model
    ends = plan.ends()
    m.add(ends[0] == 0)
    final = plan.final()
    line = [plan.has_line(final, s, f"line{s}") for s in (0, 1)]
    block = [plan.blocked(final, s, f"blocked{s}") for s in (0, 1)]
    for length in range(1, plies + 1):
        mover = plan.movers[length - 1]
        other = 1 - mover
        if player is None:
            # the game is over: a line, or the side to move is blocked
            m.add_bool_or([line[0], line[1], block[other]]).only_enforce_if(ends[length])
        elif player == mover:
            # the mover wins: its line and not the opponent's, or the opponent blocked
            m.add_implication(ends[length], line[other].negated())
            m.add_bool_or([line[mover], block[other]]).only_enforce_if(ends[length])
        else:
            # the side not moving wins: it has a line (both lines: the mover loses)
            m.add_implication(ends[length], line[player])
    status, _ = plan.solve(seconds)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return True
    if status == cp_model.INFEASIBLE:
        return False
    return None


#: the node budget of the depth-first witness search tried before the CP-SAT model
WITNESS_NODES = 400


def _witness(pos: CarpnichesPosition, plies: int, player: int | None, budget: list[int]) -> bool:
    """Depth-first search for a cooperative win, within a shared node budget.

    True only with a witness in hand; False means "none found" (maybe none exists).
    """
    if budget[0] <= 0:
        return False
    budget[0] -= 1
    outcome = pos.outcome()
    if outcome is not None:
        return player is None or player in outcome.winners
    if plies == 0:
        return False
    return any(_witness(pos.play(m), plies - 1, player, budget) for m in pos.legal_moves())


def prune(
    position: CarpnichesPosition,
    plies_left: int,
    attacker: int | None = None,
    seconds: float | None = 10.0,
) -> bool:
    """The pruning hook of a win-in-N search: True when the node can be cut.

    With ``attacker``: True iff ``attacker`` provably cannot win within ``plies_left``
    plies (not even if the defender helps), so "attacker wins within the horizon" is
    false at this node. Without: True iff the game provably cannot end within
    ``plies_left`` plies, so the node's value within the horizon is "no result".
    Only an infeasible model prunes; a time-out never does.
    """
    return can_win_within(position, plies_left, attacker, seconds) is False
