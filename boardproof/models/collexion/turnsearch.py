"""ColleXion's turn engine: a search tree over heuristically ordered, progressively widened turns.

A ColleXion turn has thousands of legal moves, so the generic MCTS (random children,
random or empty playouts) sees a handful of them and loses to a one-ply search. This
tree reads the turns of :func:`~boardproof.models.collexion.evaluation.ranked_turns`:
one per position reached, best first by the game's own evaluation (score plus the sets
still within reach). Then

- **progressive widening**: a node opens its children in that order, at most
  ``ceil(PW_C * (visits + 1) ** PW_ALPHA)`` of them, so the search spends its
  iterations on the few turns the evaluation likes, and more of them as it grows;
- **leaves**: a newly opened child is worth the evaluation of the position it reaches
  (computed when its parent ranked its turns: no playout, no extra move generation),
  optionally followed by ``playout_plies`` plies where each player takes the best
  turn by the evaluation, the seeded generator choosing among the near-best
  (:data:`PLAYOUT_NOISE`);
- **rewards**: each player's reward is a logistic function of its estimated final
  score minus the best rival's (:func:`reward`; :data:`SCALE` points make the
  difference between 27 % and 73 %), and a node chooses among its children by UCB1 on
  the reward of the player to move there (max^n with more than two players);
- **the answer**: the most visited root child (ties: the better mean, then the
  evaluation's order). With one iteration it is the evaluation's best turn (the
  one-ply search); with more, the best turns are checked against the replies.

With 4 players in the powers variant (:func:`settings`) the evaluation alone ties with
the one-ply search: the turns there mostly hand in a set, and what matters is the
token the next players then get (taking a pile's 2 hands them its 3 and 4), which it
does not see. There the engine is a flat search (``max_depth=1``): each visit of a root
turn plays the round out, every other player taking a greedy turn
(:func:`~boardproof.models.collexion.evaluation.greedy_turn`, the one-ply search on the
score, the seeded generator choosing among equal ones), and values the position
reached, the mover's next turn, by the evaluation.

The tree proves nothing (``proved_value()`` is None: the exact step of
:func:`~boardproof.solvers.analyse.analyse` proves small endgames). With the same
position, seed and iteration budget it grows the same tree.

>>> from boardproof.models.collexion.rules import GAME
>>> pos = GAME.parse_position("base 1:g8,2:y3,3:p5 g3.g4.g5:-:-/-:-:- 234/234/234/234 1")
>>> tree = TurnSearch(pos, seed=1)
>>> tree.run(iterations=20).stopped
'iterations'
>>> str(tree.best_move()), tree.iterations
('1/g', 20)
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from boardproof.models.base import Outcome
from boardproof.models.collexion.evaluation import (
    WEIGHTS,
    Candidate,
    Weights,
    estimates_of,
    greedy_turn,
    ranked_turns,
)
from boardproof.models.collexion.native import ranked_sequence
from boardproof.models.collexion.rules import CollexionPosition, Turn
from boardproof.solvers.mcts import MoveStat, RunInfo, run_budget

#: the rankings kept (:func:`shared_ranked_turns`): the latest positions ranked
RANKED_CACHE = 512


@functools.lru_cache(maxsize=RANKED_CACHE)
def shared_ranked_turns(pos: CollexionPosition, weights: Weights) -> Sequence[Candidate]:
    """:func:`~boardproof.models.collexion.evaluation.ranked_turns`, kept for the latest
    :data:`RANKED_CACHE` positions: a pure function of the position and the weights, and
    the tree of a game's next move ranks many of the positions this one ranked (self-play
    grows a new tree a move: a fifth of its rankings were repeats). Where the C module
    ranks the position, its candidates are made as they are read
    (:func:`~boardproof.models.collexion.native.ranked_sequence`: a tree reads a few).

    >>> from boardproof.models.collexion.rules import GAME
    >>> pos = GAME.parse_position("base 1:g8,2:y3,3:p5 g3.g4.g5:-:-/-:-:- 234/234/234/234 1")
    >>> tuple(shared_ranked_turns(pos, WEIGHTS)) == tuple(ranked_turns(pos, WEIGHTS))
    True
    """
    if not pos.ended():
        found = ranked_sequence(pos, weights)
        if found is not None:
            return found
    return tuple(ranked_turns(pos, weights))


#: progressive widening: children opened = ceil(PW_C * (visits + 1) ** PW_ALPHA)
PW_C = 1.5
PW_ALPHA = 0.5
#: exploration constant of UCB1 (rewards in [0, 1])
UCT_C = 0.25
#: score points of margin for which the logistic reward goes from 0.5 to 0.73
SCALE = 3.0
#: a playout's player picks among the turns within this many points of its best one
PLAYOUT_NOISE = 0.5
#: a playout considers at most this many of a player's best turns
PLAYOUT_WIDTH = 8


def reward(values: tuple[float, ...] | list[float], rivals: list[list[int]]) -> list[float]:
    """Each player's reward for estimated final scores ``values``: the logistic of its
    estimate minus its best rival's (``rivals[p]``: the players ``p`` plays against).

    >>> [round(r, 3) for r in reward((10.0, 7.0), [[1], [0]])]
    [0.731, 0.269]
    """
    out = []
    for p, others in enumerate(rivals):
        diff = values[p] - max(values[q] for q in others)
        out.append(1.0 / (1.0 + math.exp(-diff / SCALE)))
    return out


class Node:
    """One node: a position reached by one path, its turns once ranked, its statistics."""

    __slots__ = ("pos", "move", "mover", "values", "outcome", "ranked", "children",
                 "visits", "reward", "score")  # fmt: skip

    def __init__(self, pos: CollexionPosition, move: Turn | None, values: tuple[float, ...],
                 players: int) -> None:  # fmt: skip
        self.pos = pos
        self.move = move
        self.mover = pos.to_move
        self.values = values  # the evaluation of the position: estimated final scores
        self.outcome: Outcome | None = pos.outcome()
        self.ranked: Sequence[Candidate] | None = None
        self.children: list[Node] = []
        self.visits = 0
        self.reward = [0.0] * players
        self.score = [0.0] * players

    @property
    def forced(self) -> int:
        """The players the tree proves a forced win for: none (the tree proves nothing)."""
        return 0


@dataclass
class TurnSearch:
    """The turn engine's tree over ``root_position``; :meth:`run` grows it (and can be
    called again). It reads like :class:`~boardproof.solvers.mcts.MCTS`."""

    root_position: CollexionPosition
    seed: int = 0
    #: plies of evaluation-guided play after a new leaf (0: the leaf's evaluation alone)
    playout_plies: int = 0
    #: who plays the playout's plies: ``"evaluation"`` (the evaluation's near-best
    #: turns) or ``"greedy"`` (:func:`~boardproof.models.collexion.evaluation.greedy_turn`,
    #: the one-ply search on the score: no ranking, cheaper), the leaf then valued by the
    #: evaluation
    playout_policy: str = "evaluation"
    #: the depth of the tree (None: unbounded); a node at this depth is a leaf whose
    #: every visit plays a new playout (with greedy playouts of a whole round: a flat
    #: search over the root's turns against greedy replies)
    max_depth: int | None = None
    weights: Weights = WEIGHTS
    uct_c: float = UCT_C
    players: int = field(init=False)
    root: Node = field(init=False)
    iterations: int = field(init=False, default=0)
    #: the generic reading interface: this tree has no exact leaf solver
    leaf_solver: Callable[[Any], str | None] | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        pos = self.root_position
        self.players = pos.num_players
        self.rng = random.Random(self.seed)
        self.rivals = [list(pos.opponents(p)) for p in range(self.players)]
        self.root = Node(pos, None, tuple(estimates_of(pos, self.weights)), self.players)

    # -- one iteration --------------------------------------------------------------

    def _ranked(self, node: Node) -> Sequence[Candidate]:
        if node.ranked is None:
            node.ranked = shared_ranked_turns(node.pos, self.weights)
        return node.ranked

    def _leaf_values(self, node: Node) -> tuple[float, ...]:
        """Estimated final scores of a new leaf: its outcome, its evaluation, or the
        evaluation after a short playout."""
        if node.outcome is not None:
            assert node.outcome.scores is not None
            return tuple(float(s) for s in node.outcome.scores)
        if not self.playout_plies:
            return node.values
        pos, values = node.pos, node.values
        if self.playout_policy == "greedy":
            for _ in range(self.playout_plies):
                turn = greedy_turn(pos, self.rng)
                if turn is None:
                    break
                pos = pos.play(turn)
            if pos.ended():
                return tuple(float(s) for s in pos.scores())
            return tuple(estimates_of(pos, self.weights))
        for _ in range(self.playout_plies):
            ranked = shared_ranked_turns(pos, self.weights)
            if not ranked:
                break
            top = ranked[0].margin
            near = [c for c in ranked[:PLAYOUT_WIDTH] if c.margin >= top - PLAYOUT_NOISE]
            chosen = near[self.rng.randrange(len(near))]
            pos, values = pos.play(chosen.turn), chosen.values
            outcome = pos.outcome()
            if outcome is not None:
                assert outcome.scores is not None
                return tuple(float(s) for s in outcome.scores)
        return values

    def _select(self, node: Node) -> Node:
        """The child to descend to: a new one while the widening allows it, else UCB1."""
        ranked = self._ranked(node)
        limit = min(len(ranked), math.ceil(PW_C * (node.visits + 1) ** PW_ALPHA))
        if len(node.children) < limit:
            cand = ranked[len(node.children)]
            child = Node(node.pos.play(cand.turn), cand.turn, cand.values, self.players)
            node.children.append(child)
            return child
        m = node.mover
        log_n = math.log(node.visits + 1)
        best = node.children[0]
        best_value = -1.0
        for child in node.children:
            value = child.reward[m] / child.visits
            value += self.uct_c * math.sqrt(log_n / child.visits)
            if value > best_value:
                best, best_value = child, value
        return best

    def iterate(self) -> None:
        """One descent, one new leaf (or a finished game) and the backup."""
        node = self.root
        path = [node]
        while node.outcome is None and (node.visits > 0 or node is self.root):
            node = self._select(node)
            path.append(node)
            if node.visits == 0 or (self.max_depth is not None and len(path) > self.max_depth):
                break
        values = self._leaf_values(node)
        gains = reward(values, self.rivals)
        for item in path:
            item.visits += 1
            for p in range(self.players):
                item.reward[p] += gains[p]
                item.score[p] += values[p]
        self.iterations += 1

    def run(
        self,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        should_stop: Callable[[], bool] | None = None,
        progress: Callable[[Any, float], object] | None = None,
        progress_every: float = 1.0,
    ) -> RunInfo:
        """Grow the tree until the budget is spent or ``should_stop()``; ``stopped`` is
        ``"proved"`` (a finished game at the root), ``"iterations"``, ``"time"`` or
        ``"interrupted"``."""
        def step(_iterations: int | None, _seconds: float | None) -> int:
            self.iterate()
            return 1

        return run_budget(self, step, lambda: self.root.outcome is not None,
                          iterations=iterations, seconds=seconds, should_stop=should_stop,
                          progress=progress, progress_every=progress_every)  # fmt: skip

    def advance(self, move: Turn) -> bool:
        """Move the root along ``move`` (played at the root position), keeping its
        subtree when the tree has opened it; True when a subtree was kept. A kept subtree
        is a tree that iterations from the new root could have grown (a node's widening
        and choices depend on its own statistics only), so later iterations go on from it.

        >>> from boardproof.models.collexion.rules import GAME
        >>> pos = GAME.parse_position("base 1:g8,2:y3,3:p5 g3.g4.g5:-:-/-:-:- 234/234/234/234 1")
        >>> tree = TurnSearch(pos, seed=1)
        >>> _ = tree.run(iterations=30)
        >>> best = tree.best_move()
        >>> visits = tree.ranked()[0].visits
        >>> tree.advance(best), tree.root.visits == visits, tree.root_position == pos.play(best)
        (True, True, True)
        """
        for child in self.root.children:
            if child.move == move:
                self.root = child
                self.root_position = child.pos
                return True
        after = self.root_position.play(move)
        self.root = Node(after, move, tuple(estimates_of(after, self.weights)), self.players)
        self.root_position = after
        return False

    # -- reading the tree -----------------------------------------------------------

    def ranked(self, node: Node | None = None) -> list[Node]:
        """The opened children of ``node`` (default the root), best first: by visits,
        then mean reward of the player to move, then the evaluation's order."""
        node = self.root if node is None else node
        m = node.mover
        order = {id(child): k for k, child in enumerate(node.children)}

        def key(child: Node) -> tuple[int, float, int]:
            mean = child.reward[m] / child.visits if child.visits else 0.0
            return (-child.visits, -mean, order[id(child)])

        return sorted(node.children, key=key)

    def best_move(self) -> Turn | None:
        """The move the search recommends at the root (None: no move)."""
        ranked = self.ranked()
        if ranked:
            return ranked[0].move
        if self.root.outcome is None and self._ranked(self.root):
            return self._ranked(self.root)[0].turn
        return None

    def moves(self, count: int | None = None) -> list[MoveStat]:
        """The root moves, best first (at most ``count``): the opened children, then the
        evaluation's next turns (0 visits, valued by the evaluation)."""
        root = self.root
        m = root.mover
        stats = []
        for child in self.ranked():
            stats.append(MoveStat(child.move, child.visits, child.reward[m] / child.visits,
                                  child.score[m] / child.visits, None))  # fmt: skip
        if root.outcome is None and (count is None or len(stats) < count):
            for cand in self._ranked(root)[len(root.children) :]:
                gains = reward(cand.values, self.rivals)
                stats.append(MoveStat(cand.turn, 0, gains[m], cand.values[m], None))
                if count is not None and len(stats) >= count:
                    break
        return stats[:count]

    def principal_line(self, limit: int = 40) -> list[Turn]:
        """The expected line: the best child, from the root down, while it was visited."""
        line: list[Turn] = []
        node = self.root
        while node.children and len(line) < limit:
            best = self.ranked(node)[0]
            assert best.move is not None
            line.append(best.move)
            node = best
        return line

    def proved_value(self) -> str | None:
        """None: the tree proves nothing."""
        return None

    def proved_winner(self) -> int | None:
        """None: the tree proves nothing."""
        return None

    def root_value(self) -> float:
        """The root's mean reward for its side to move."""
        r = self.root
        return r.reward[r.mover] / r.visits if r.visits else 0.0

    def root_score(self) -> float | None:
        """The mean estimated final score of the side to move at the root."""
        r = self.root
        return r.score[r.mover] / r.visits if r.visits else None

    def proof(self, player: int, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """The tree proves nothing: always raises ValueError."""
        raise ValueError("the ColleXion turn search proves no win")


def settings(position: CollexionPosition) -> dict[str, Any]:
    """The engine's tree settings for ``position``: in the powers variant with 4 players
    a flat search whose leaves play a whole round of greedy replies (the evaluation
    alone, blind to the order in which the others take the piles' tokens, tied with the
    one-ply search there; measured in ``benchmarks/collexion_engine.py``); elsewhere
    the tree of the evaluation alone.

    >>> from boardproof.models.collexion.rules import GAME
    >>> settings(GAME.start(variant="powers", players=4))["playout_policy"], settings(GAME.start())
    ('greedy', {})
    """
    if position.variant == "powers" and position.num_players == 4:
        return {"playout_plies": position.num_players - 1, "playout_policy": "greedy",
                "max_depth": 1}  # fmt: skip
    return {}


def make_tree(position: CollexionPosition, seed: int = 0) -> TurnSearch:
    """The turn engine's tree over ``position`` (``Engine.tree``), with its
    :func:`settings`."""
    return TurnSearch(position, seed=seed, **settings(position))
