"""Monte-Carlo tree search with solved-node propagation (MCTS-Solver), for any game.

The search only uses the game protocol of :mod:`boardproof.models.base` (plus the
optional ``heuristic_scores`` hook of score games, see below), so it works for
every game and every player count.

- **Rewards**: each iteration ends in a finished game (or a cut-off playout) whose
  reward vector gives every player a share in ``[0, 1]``: the winners share 1, a draw
  gives ``1 / players`` each. A node chooses among its children by UCB1 on the reward
  *of the player to move there* (max^n for more than two players). For a game whose
  ``objective`` is ``"score"`` the reward mixes the win share with the score margin
  (:func:`score_reward`), and the mean final scores are kept too.
- **Solved nodes**: every node knows, for each player ``p``, whether the tree proves
  that ``p`` can force a win against the coalition of all the others (``forced``) or
  that it cannot (``refuted``): a finished game is decided by its outcome; at ``p``'s
  node one forced child is enough, at anybody else's node all children must be forced;
  ``refuted`` is the dual. A position that repeats one on its path counts as a draw
  (so a proved win never relies on a repetition). Solved children are never searched
  again: their exact value is used instead; the search stops when the root is solved.
- **Widening**: a node considers at most ``ceil(PW_C * visits ** PW_ALPHA)`` unsolved
  children (in a seeded random order), so games with hundreds of moves still search
  deep; solved children free their slot.
- **Playouts**: uniform random moves to the end of the game, at most
  ``MAX_PLAYOUT_PLIES`` (then a draw). Where :mod:`boardproof.solvers.playouts` has a
  seeded kernel for the game (Minefield, Carpniches), a playout is that kernel's, seeded by
  one draw of the tree's generator (a Minefield one runs to the end of the game):
  natively when the C module is built (``playout="auto"``, the default, or ``"native"``),
  else (or with ``playout="python"``) through its Python twin, which plays the identical
  games, so the
  tree is the same either way. When the game offers ``heuristic_scores``
  (ColleXion, where one turn has thousands of moves) a playout stops after
  ``HEURISTIC_PLAYOUT_PLIES`` plies and is scored by that hook.

- **Leaf solver** (optional, two-player games): ``leaf_solver(position)`` may settle a
  new leaf exactly (``analyse`` passes the native Minefield search with a small node
  budget); a settled leaf needs no playout, and the tree's proof asks for its subproof.
  When it rarely settles anything it is only asked about every ``LEAF_STRIDE``-th leaf.

Same seed, same budget in iterations: same tree, same answer.

>>> from boardproof.testing.games import subtraction
>>> tree = MCTS(subtraction(9, 3), seed=1)
>>> tree.run(iterations=3000).stopped
'proved'
>>> tree.proved_value(), str(tree.best_move())
('win', '1')
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from boardproof.models.base import HEURISTIC_SCORES, Outcome, Position, offers
from boardproof.solvers.common import num_players, wins
from boardproof.solvers.playouts import kernel_for

#: exploration constant of UCB1 (rewards are in [0, 1])
UCT_C = 0.7
#: progressive widening: unsolved children considered = ceil(PW_C * visits ** PW_ALPHA)
PW_C = 2.0
PW_ALPHA = 0.5
#: a node with at most this many moves creates all its children at once (and so sees
#: at once a move that ends the game); a bigger one creates them one at a time
FULL_EXPAND_LIMIT = 512
#: a random playout longer than this is scored as a draw (games that can cycle)
MAX_PLAYOUT_PLIES = 400
#: playout length when the position has ``heuristic_scores()`` (scored by it after)
HEURISTIC_PLAYOUT_PLIES = 0
#: the leaf solver is throttled when it rarely settles a leaf: after LEAF_TRIAL tries with
#: fewer than LEAF_MIN_RATE of them settled, it only sees every LEAF_STRIDE-th new leaf
LEAF_TRIAL = 64
LEAF_MIN_RATE = 0.05
LEAF_STRIDE = 16
#: score games: a score margin of this many points counts as a sure win in the reward
SCORE_SCALE = 20.0


def share_reward(outcome: Outcome, players: int) -> list[float]:
    """Each player's share of a finished game: winners share 1, a draw splits it.

    >>> share_reward(Outcome.win(1), 2), share_reward(Outcome.draw(), 4)
    ([0.0, 1.0], [0.25, 0.25, 0.25, 0.25])
    """
    if not outcome.winners:
        return [1.0 / players] * players
    part = 1.0 / len(outcome.winners)
    return [part if p in outcome.winners else 0.0 for p in range(players)]


def score_reward(scores: tuple[int, ...] | list[float], players: int) -> list[float]:
    """A score game's reward: half the win share, half the margin over the best rival.

    >>> score_reward((20, 0), 2)
    [1.0, 0.0]
    >>> score_reward((3, 3), 2)
    [0.5, 0.5]
    """
    top = max(scores)
    winners = [p for p in range(players) if scores[p] == top]
    result = []
    for p in range(players):
        share = 1.0 / len(winners) if p in winners else 0.0
        rival = max(scores[q] for q in range(players) if q != p) if players > 1 else 0
        margin = max(-1.0, min(1.0, (scores[p] - rival) / SCORE_SCALE))
        result.append(0.5 * share + 0.25 * (1.0 + margin))
    return result


class Node:
    """One node of the tree: a position reached by one path from the root."""

    __slots__ = (
        "pos", "key", "move", "mover", "children", "untried", "expanded", "visits",
        "reward", "score", "forced", "refuted", "outcome", "repeat", "leaf_solved",
    )  # fmt: skip

    def __init__(self, pos: Position, move: Any, players: int) -> None:
        self.pos = pos
        self.key: Hashable = pos.key()
        self.move = move
        self.mover = pos.to_move
        self.children: list[Node] = []
        self.untried: list[Any] = []
        self.expanded = False
        self.visits = 0
        self.reward = [0.0] * players
        self.score: list[float] | None = None
        self.forced = 0
        self.refuted = 0
        self.outcome = pos.outcome()
        self.repeat = False
        self.leaf_solved = False
        if self.outcome is not None:
            for p in range(players):
                if wins(self.outcome, p, players):
                    self.forced |= 1 << p
                else:
                    self.refuted |= 1 << p


@dataclass
class MoveStat:
    """A root move as the search sees it (values for the side to move at the root)."""

    move: Any
    visits: int
    value: float
    score: float | None
    proved: str | None


@dataclass
class RunInfo:
    """Why and when a :meth:`MCTS.run` stopped."""

    iterations: int
    seconds: float
    stopped: str


def run_budget(
    tree: Any,
    step: Callable[[int | None, float | None], int],
    finished: Callable[[], bool],
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    should_stop: Callable[[], bool] | None = None,
    progress: Callable[[Any, float], object] | None = None,
    progress_every: float = 1.0,
) -> RunInfo:
    """The budget loop every tree's ``run`` shares: ``step(iterations_left, seconds_left)``
    runs some iterations (at least one, within what is left) and says how many, until
    ``finished()`` (``"proved"``), the iterations or the seconds are spent, or
    ``should_stop()`` (``"interrupted"``); ``progress(tree, elapsed)`` every
    ``progress_every`` seconds.

    >>> ticks = []
    >>> run_budget(None, lambda n, s: ticks.append(1) or 1, lambda: len(ticks) == 3)
    ... # doctest: +ELLIPSIS
    RunInfo(iterations=3, seconds=..., stopped='proved')
    """
    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds
    next_report = start + progress_every
    done = 0
    while True:
        if finished():
            stopped = "proved"
            break
        if iterations is not None and done >= iterations:
            stopped = "iterations"
            break
        now = time.perf_counter()
        if deadline is not None and now >= deadline:
            stopped = "time"
            break
        if should_stop is not None and should_stop():
            stopped = "interrupted"
            break
        if progress is not None and now >= next_report:
            progress(tree, now - start)
            next_report = now + progress_every
        left = None if deadline is None else deadline - now
        done += step(None if iterations is None else iterations - done, left)
    return RunInfo(done, time.perf_counter() - start, stopped)


@dataclass
class MCTS:
    """An MCTS-Solver tree over ``root``; :meth:`run` grows it (and can be called again)."""

    root_position: Position
    seed: int = 0
    uct_c: float = UCT_C
    playout_plies: int | None = None
    #: optional exact solver for new leaves (two-player games): ``f(position)`` gives
    #: ``"win"``/``"loss"``/``"draw"`` for the side to move, or None when it cannot tell
    leaf_solver: Callable[[Position], str | None] | None = None
    #: the playout kernel: ``"auto"``, ``"native"`` or ``"python"`` (see the module doc)
    playout: str = "auto"
    players: int = field(init=False)
    root: Node = field(init=False)
    iterations: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.players = num_players(self.root_position)
        self.full = (1 << self.players) - 1
        self.rng = random.Random(self.seed)
        game = self.root_position.game
        self.score_game = game.info.objective == "score"
        self.heuristic = offers(game, HEURISTIC_SCORES)
        self.leaves = self.leaf_tries = self.leaf_hits = 0
        if self.leaf_solver is not None and self.players != 2:
            raise ValueError("a leaf solver needs a two-player game")
        self.kernel = kernel_for(self.root_position, self.playout)
        self.kernel_limit = self.playout_plies  # None: each kernel playout to the end
        if self.playout_plies is None:
            self.playout_plies = (
                HEURISTIC_PLAYOUT_PLIES if self.heuristic else MAX_PLAYOUT_PLIES
            )
        self.root = self._new_node(self.root_position, None)

    # -- nodes ----------------------------------------------------------------------

    def _new_node(self, pos: Position, move: Any) -> Node:
        node = Node(pos, move, self.players)
        if self.score_game:
            node.score = [0.0] * self.players
        return node

    def closed(self, node: Node) -> bool:
        """Whether ``node`` is solved well enough never to be searched again."""
        if node.outcome is not None or node.repeat or node.forced:
            return True
        return self.players == 2 and node.refuted == self.full

    def exact_reward(self, node: Node) -> list[float]:
        """The reward vector of a closed node."""
        if node.outcome is not None:
            return self._outcome_reward(node.outcome)
        if node.forced:
            winners = [p for p in range(self.players) if node.forced >> p & 1]
            return [1.0 / len(winners) if p in winners else 0.0 for p in range(self.players)]
        return [1.0 / self.players] * self.players

    def _outcome_reward(self, outcome: Outcome) -> list[float]:
        if self.score_game and outcome.scores is not None:
            return score_reward(outcome.scores, self.players)
        return share_reward(outcome, self.players)

    def _expand(self, node: Node) -> None:
        moves = list(node.pos.legal_moves())
        self.rng.shuffle(moves)
        node.expanded = True
        if len(moves) <= FULL_EXPAND_LIMIT:
            node.children = [self._new_node(node.pos.play(m), m) for m in moves]
            # moves that end the game first: a win in one is seen at once
            node.children.sort(key=lambda c: c.outcome is None)
        else:
            node.untried = moves

    def _select(self, node: Node) -> Node:
        m = node.mover
        limit = math.ceil(PW_C * (node.visits + 1) ** PW_ALPHA)
        open_seen = 0
        best: Node | None = None
        best_value = -1.0
        log_n = math.log(node.visits + 1)
        for child in node.children:
            if self.closed(child):
                value = self.exact_reward(child)[m]
                if value <= 0.0:
                    continue  # a proved loss for the mover: never worth a visit
            else:
                open_seen += 1
                if open_seen > limit:
                    continue
                if child.visits == 0:
                    return child
                value = child.reward[m] / child.visits
                value += self.uct_c * math.sqrt(log_n / child.visits)
            if value > best_value:
                best, best_value = child, value
        if node.untried and (open_seen < limit or best is None):
            move = node.untried.pop()
            child = self._new_node(node.pos.play(move), move)
            node.children.append(child)
            return child
        if best is None:  # every child a proved loss for the mover
            best = max(node.children, key=lambda c: c.visits)
        return best

    # -- status propagation ---------------------------------------------------------

    def _update(self, node: Node) -> bool:
        """Recompute ``node``'s proof status from its children; whether it changed."""
        if node.outcome is not None or node.repeat:
            return False
        any_f = any_r = 0
        all_f = all_r = self.full
        for child in node.children:
            any_f |= child.forced
            any_r |= child.refuted
            all_f &= child.forced
            all_r &= child.refuted
        if node.untried or not node.children:
            all_f = all_r = 0
        bit = 1 << node.mover
        others = self.full & ~bit
        forced = (any_f & bit) | (all_f & others)
        refuted = (all_r & bit) | (any_r & others)
        if forced == node.forced and refuted == node.refuted:
            return False
        node.forced, node.refuted = forced, refuted
        return True

    # -- one iteration --------------------------------------------------------------

    def _playout(self, pos: Position) -> tuple[list[float], list[float] | None]:
        rng = self.rng
        kernel = self.kernel
        if kernel is not None:
            limit = self.kernel_limit
            winner = kernel.play(pos, rng.getrandbits(64),
                                 kernel.plies(pos) if limit is None else limit)  # fmt: skip
            if winner is None:
                return [1.0 / self.players] * self.players, None
            reward = [0.0] * self.players
            reward[winner] = 1.0
            return reward, None
        plies = 0
        limit = self.playout_plies or 0
        outcome = pos.outcome()
        while outcome is None and plies < limit:
            moves = pos.legal_moves()
            pos = pos.play(moves[rng.randrange(len(moves))])
            plies += 1
            outcome = pos.outcome()
        if outcome is not None:
            scores = None if outcome.scores is None else [float(s) for s in outcome.scores]
            return self._outcome_reward(outcome), scores
        if self.heuristic:
            guess = tuple(pos.heuristic_scores())  # type: ignore[attr-defined]
            reward = score_reward(guess, self.players)
            return reward, [float(s) for s in guess]
        return [1.0 / self.players] * self.players, None

    def iterate(self) -> None:
        """One selection, expansion, playout and back-propagation."""
        node = self.root
        path = [node]
        keys = {node.key}
        while True:
            if self.closed(node):
                reward = self.exact_reward(node)
                scores = self._mean_scores(node)
                if node.outcome is not None and node.outcome.scores is not None:
                    scores = [float(s) for s in node.outcome.scores]
                break
            if node.visits == 0 and node is not self.root:
                if self.leaf_solver is not None and self._solve_leaf(node):
                    reward, scores = self.exact_reward(node), None
                else:
                    reward, scores = self._playout(node.pos)
                break
            if not node.expanded:
                self._expand(node)
            child = self._select(node)
            if child.outcome is None and child.key in keys:
                child.repeat = True
                child.refuted = self.full
            keys.add(child.key)
            path.append(child)
            node = child
        for item in path:
            item.visits += 1
            acc = item.reward
            for p in range(self.players):
                acc[p] += reward[p]
            if item.score is not None and scores is not None:
                for p in range(self.players):
                    item.score[p] += scores[p]
        for item in reversed(path[:-1]):
            if not self._update(item):
                break
        self.iterations += 1

    def _solve_leaf(self, node: Node) -> bool:
        """Ask the leaf solver about a new leaf; whether it settled the value."""
        assert self.leaf_solver is not None and self.players == 2
        self.leaves += 1
        rare = self.leaf_tries >= LEAF_TRIAL and self.leaf_hits < LEAF_MIN_RATE * self.leaf_tries
        if rare and self.leaves % LEAF_STRIDE:
            return False
        self.leaf_tries += 1
        value = self.leaf_solver(node.pos)
        if value is None:
            return False
        me, other = 1 << node.mover, 1 << (1 - node.mover)
        if value == "win":
            node.forced, node.refuted = me, other
        elif value == "loss":
            node.forced, node.refuted = other, me
        else:
            node.forced, node.refuted = 0, self.full
        node.leaf_solved = True
        self.leaf_hits += 1
        return True

    def _mean_scores(self, node: Node) -> list[float] | None:
        if node.score is None or not node.visits:
            return None
        return [s / node.visits for s in node.score]

    def run(
        self,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        should_stop: Callable[[], bool] | None = None,
        progress: Callable[[MCTS, float], object] | None = None,
        progress_every: float = 1.0,
    ) -> RunInfo:
        """Grow the tree until the budget is spent, the root is solved or ``should_stop()``.

        ``stopped`` is ``"proved"``, ``"iterations"``, ``"time"`` or ``"interrupted"``.
        """
        def finished() -> bool:
            return self.closed(self.root) or (
                self.root.expanded and not self.root.children and not self.root.untried
            )

        def step(_iterations: int | None, _seconds: float | None) -> int:
            self.iterate()
            return 1

        return run_budget(self, step, finished, iterations=iterations, seconds=seconds,
                          should_stop=should_stop, progress=progress,
                          progress_every=progress_every)  # fmt: skip

    # -- reading the tree -----------------------------------------------------------

    def value_of(self, node: Node, player: int) -> str | None:
        """What the tree proves about ``node`` for ``player``: win, loss, draw or None."""
        if node.forced >> player & 1:
            return "win"
        if node.forced:
            return "loss"
        if node.refuted == self.full:
            return "draw"
        return None

    def proved_value(self) -> str | None:
        """The root's proved value for its side to move (None: not proved)."""
        return self.value_of(self.root, self.root.mover)

    def proved_winner(self) -> int | None:
        """The player the tree proves can force a win from the root, if any."""
        for p in range(self.players):
            if self.root.forced >> p & 1:
                return p
        return None

    def _rank(self, node: Node, child: Node) -> tuple[int, int, float]:
        proved = self.value_of(child, node.mover)
        tier = {"win": 3, "draw": 1, "loss": 0}.get(proved or "", 2)
        value = child.reward[node.mover] / child.visits if child.visits else 0.0
        return (tier, child.visits, value)

    def ranked(self, node: Node | None = None) -> list[Node]:
        """Children of ``node`` (default the root), best first: proved wins, then the
        unproved by visits, then proved draws, then proved losses."""
        node = self.root if node is None else node
        return sorted(node.children, key=lambda c: self._rank(node, c), reverse=True)

    def best_move(self) -> Any:
        """The move the search recommends at the root (None: no move)."""
        ranked = self.ranked()
        return ranked[0].move if ranked else None

    def moves(self, count: int | None = None) -> list[MoveStat]:
        """The root moves, best first (at most ``count``)."""
        m = self.root.mover
        stats = []
        for child in self.ranked()[:count]:
            value = child.reward[m] / child.visits if child.visits else 0.0
            score = None
            if child.score is not None and child.visits:
                score = child.score[m] / child.visits
            stats.append(MoveStat(child.move, child.visits, value, score,
                                  self.value_of(child, m)))  # fmt: skip
        return stats

    def principal_line(self, limit: int = 40) -> list[Any]:
        """The expected line: the best child, from the root down, while it was visited."""
        line: list[Any] = []
        node = self.root
        while node.children and len(line) < limit:
            best = self.ranked(node)[0]
            if not best.visits and self.value_of(best, node.mover) is None:
                break
            line.append(best.move)
            node = best
        return line

    def root_value(self) -> float:
        """The root's mean reward for its side to move."""
        r = self.root
        return r.reward[r.mover] / r.visits if r.visits else 0.0

    def root_score(self) -> float | None:
        """Score games: the mean final score of the side to move at the root."""
        r = self.root
        return r.score[r.mover] / r.visits if r.score is not None and r.visits else None

    def proof(
        self,
        player: int,
        game_name: str | None = None,
        options: dict[str, Any] | None = None,
        subproof: Callable[[Position, int], dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """The tree's proof that ``player`` wins from the root, in the format of
        :mod:`boardproof.solvers.proof` (raises ValueError when it proves no such win).

        Leaves settled by the leaf solver get their proof from ``subproof(position,
        player)`` (a proof in the same format, spliced in)."""
        from boardproof.solvers.proof import FORMAT, VERSION

        bit = 1 << player
        if not self.root.forced & bit:
            raise ValueError("the tree proves no win for that player")
        nodes: list[dict[str, Any]] = []
        stack: list[tuple[Node, int]] = []

        def add(node: Node) -> int:
            nodes.append({"id": len(nodes), "position": node.pos.fen(), "moves": {}})
            stack.append((node, len(nodes) - 1))
            return len(nodes) - 1

        add(self.root)
        while stack:
            node, ident = stack.pop()
            if node.outcome is not None:
                continue
            if node.leaf_solved:
                if subproof is None:
                    raise ValueError("a leaf solved by the leaf solver needs a subproof")
                below = sorted(subproof(node.pos, player)["nodes"], key=lambda n: n["id"])
                base = len(nodes) - 1  # below's node k > 0 becomes node base + k

                def mapped(moves: dict[str, int], here: int = ident, off: int = base) -> Any:
                    return {text: here if c == 0 else c + off for text, c in moves.items()}

                nodes[ident]["moves"] = mapped(below[0]["moves"])
                for k, item in enumerate(below[1:], start=1):
                    assert item["id"] == k
                    nodes.append({"id": base + k, "position": item["position"],
                                  "moves": mapped(item["moves"])})  # fmt: skip
                continue
            if node.mover == player:
                wins_here = [c for c in node.children if c.forced & bit]
                wins_here.sort(key=lambda c: (c.outcome is None, -c.visits))
                chosen = wins_here[:1]
            else:
                chosen = list(node.children)
            nodes[ident]["moves"] = {str(c.move): add(c) for c in chosen}
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": game_name if game_name is not None else self.root.pos.game.name,
            "options": dict(options or {}),
            "root": self.root.pos.fen(),
            "winner": self.root.pos.game.symbol(player),
            "nodes": nodes,
        }
