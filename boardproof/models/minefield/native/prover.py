"""Who wins a Minefield position, with fewer nodes: df-pn first, alpha-beta second.

The who-wins question of the opening tables (issue 18), answered by two different native
algorithms, each saving behind its own option so that its effect can be measured alone
(``benchmarks/minefield_prover.py``):

``theorem_o``
    Search the position in the **ortho-diagonal game** (a game ends at the first
    8-connected path), whose trees are much smaller: the first ortho-diagonal path ends
    the search instead of its orthogonal completion. Sound by Theorem O
    (``reports/minefield-orthodiagonal.md``, proved for every n = 2..26): in a position of
    a legal game where nobody has won and a colour X has an ortho-diagonal path, *every*
    legal continuation ends with X's orthogonal win. So the orthogonal game and the
    ortho-diagonal one have the same moves up to the first 8-connected path (an orthogonal
    path is one), and at that point both name the same winner: by induction over the tree,
    every position of a legal game has the same value (win / draw / loss for the side to
    move) in both. Only the value: the number of plies to the end differs, so this is for
    who-wins questions only, and only for positions of a legal game (the theorem says
    nothing of others). The tests check equal values on every reachable 4x4 position.
    Theorem O is proved for the standard glyphs only: a position of a variant
    (``pinwheel``) is always searched in its own game, whatever ``theorem_o`` says.
``keep``
    The df-pn table survives between calls of one process (the entries of a run, the
    questions of one entry): its proof and disproof numbers stay true, they only save
    work. Off in the report runs, so that node counts do not depend on which entries a
    worker ran before.
``table``
    The df-pn table's replacement scheme (session 5): ``pairs`` (session 4: buckets of 2,
    every solved entry first) or ``quad`` (buckets of 4 that keep the entries of most
    work, solved ones counting 4x, and the newest one; and each df-pn node remembers its
    children's numbers as last seen, so a child whose entry was replaced does not look
    new). Sound because an entry is only read back for its own full key (both stone
    sets, side to move, attacker; no hash signature), and a remembered number is one
    that node's own search computed (a proof stays a proof): a replacement only loses
    work, so the result is the same and only the nodes differ (tests: equal winners with
    tiny and big tables). ``quad`` does not thrash once the table is full
    (``benchmarks/minefield_table.py``). ``two`` (session 6) adds a second level, a quarter
    the size, for the solved entries ``quad`` pushes out: fewer nodes in tiny tables, but
    more CPU, and at equal memory a bigger ``quad`` does better (benchmarks/RESULTS.md).
    Every scheme keeps, for n <= 6, each searched node's children in its entry (the
    expansion cache), so a node met again is not expanded again: the same tree, faster.
``hints``
    The confirming alpha-beta orders first, at the winner's nodes, the move that the df-pn
    table just left proves (``NativeSearch.solve(hint=...)``). Only the order changes: the
    alpha-beta value is computed by alpha-beta alone, and equals the plain search's
    whatever the table holds; with a proof in the table its tree shrinks to about the
    proof's.

The pruning rules of session 5 (``rules``, each a bit of the C search's ``rules()``;
all off by default, so the published tables' node counts stay as they are):

``heuristic``
    df-pn starts a new child at proof / disproof numbers from the path distances (the
    fewest empty points each side needs for an edge-to-edge path) instead of 1 / 1. df-pn
    stays exact whatever the initial numbers: a node is proved or disproved only by the
    terminal tests and the min / sum rules over proved or disproved children, and an
    initial number is never 0 (nor infinite); only the order of the search changes.
``frozen``
    The distances leave out the points that a colour can never occupy again (a glyph
    window that stays frozen: e.g. the middle points of a 2x3 switch), proved in the C
    comment of ``frozen_points``.
``blocked``
    A side whose stones and the points it may still occupy do not join its edges can
    never win: df-pn disproves such an attacker at once, alpha-beta bounds the value.
``must3``
    Must-play beyond the immediate win: a move after which the other side has a reply
    that leaves no defence (it then wins at its next move whatever we do) loses, so it is
    not searched, and a node where every move is such a move is lost.
``win3``
    (session 7, df-pn only) The claim of ``must3`` tested at the node instead of at its
    parent: a node whose side to move has a reply that leaves the other side no defence
    is won for the side to move. Sound as ``must3``; it is tested once per node df-pn
    expands, instead of once per child of each (most children of an OR node are never
    expanded), and the cut child is a node of its own, so the tree differs.
``weak``
    (session 7, df-pn only) Weak proof numbers: the number that sums the children is the
    largest child's plus one per other open child, so that shared subtrees are not counted
    again and again. Exact whatever the numbers (only the order changes).
``must5``
    (issue 32, df-pn only) Must-play against a forcing line one threat deeper than
    ``must3``: a move after which the other side has a reply that makes a legal threat,
    and every move of ours that stops its threats leaves it a reply that leaves us no
    defence, loses; it is not searched. ``depth`` (of :func:`rules`, default 2) threats
    deep; depth 1 is ``must3``'s claim (docs/proofs.md, "Must-play against forcing lines").
``order``
    A static move order (weights fitted on solved 5x5 positions by
    ``benchmarks/minefield_move_features.py``): df-pn's children in that order (its ties),
    alpha-beta's moves after the table move and the killers. Only the order changes.
``order6``
    (issue 32) The same with 17 features (``order``'s 8; the path distances after the
    move, the threats it makes, the groups it touches, the legal placements it takes from
    each side, bridges, edges touched) and weights fitted on the winner's moves of the 6x6
    certificates (``benchmarks/minefield_order6.py``, held out by entry), at df-pn's OR
    nodes (the attacker to move; its AND nodes keep ``order``'s score) and at every
    alpha-beta node. Only the order changes.
``prior6``
    (issue 32, df-pn only, with ``order6``) At the winner's (OR) nodes a child scored below
    the best starts at proof number 1 + (score gap in logits) x ``scale`` / 8 (at most 65)
    instead of 1. Never 0 nor infinite: only the order of the search changes (as
    ``heuristic``).

>>> from boardproof.models import get
>>> from boardproof.models.minefield import native
>>> if native.available():
...     pos = get("minefield").parse_position("4/4/4/1b2 w -")
...     found = who_wins(pos, tt_bits=16)
...     print(found.winner, found.best_move, confirm(pos, found.winner, tt_bits=16).agrees)
... else:
...     print("1 b2 True")
1 b2 True
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from boardproof import models
from boardproof.models.base import InvalidOptionError
from boardproof.models.minefield import native
from boardproof.models.minefield.board import Move
from boardproof.models.minefield.proofs.certificate import certificate_hints

#: the df-pn table of :func:`who_wins` (2**bits entries of 32 bytes)
DEFAULT_DFPN_BITS = 20


#: the pruning rules (keywords of :func:`who_wins` and :func:`confirm`): their C bits
RULES = {"heuristic": 1, "frozen": 2, "blocked": 4, "must3": 8, "order": 16, "win3": 32,
         "weak": 64, "must5": 128, "order6": 256, "prior6": 512}
#: how many threats deep ``must5`` looks (1: the claim of ``must3``)
DEFAULT_MUST_DEPTH = 2
#: the initial number of a df-pn child under ``heuristic``: 1 + scale * moves needed / 4
DEFAULT_SCALE = 8


@contextmanager
def rules(names: Iterable[str] = (), scale: int = DEFAULT_SCALE,
          depth: int = DEFAULT_MUST_DEPTH) -> Iterator[None]:
    """Switch the named pruning rules on in the C search for the block (off after it);
    ``depth``: how many threats deep ``must5`` looks (1..4).

    >>> with rules(["heuristic"]):
    ...     pass
    >>> with rules(["nonsense"]):  # doctest: +ELLIPSIS
    ...     pass
    Traceback (most recent call last):
    ...
    boardproof.models.base.InvalidOptionError: invalid option rules: expected some of ...
    """
    flags = 0
    for name in names:
        if name not in RULES:
            raise InvalidOptionError(
                f"invalid option rules: expected some of {', '.join(RULES)}, got {name!r}"
            )
        flags |= RULES[name]
    native.check_search(scale=scale)
    lib = native._native
    if lib is None or not flags:
        yield
        return
    lib.rules(flags, scale, depth)
    try:
        yield
    finally:
        lib.rules(0)


def rule_counts() -> dict[str, int]:
    """How often the rules cut since they were last switched on (C counters)."""
    return dict(native._native.rule_counts()) if native._native is not None else {}


@dataclass
class Proved:
    """Who wins a position (a player index, None: not settled within the budget, or a
    draw: ``draw``)."""

    winner: int | None
    #: a winning move of the side to move when it wins (the move its proof goes through)
    best_move: Move | None
    nodes: int
    seconds: float
    #: nobody can force a win (both questions disproved: a variant, whose positions may
    #: end dead)
    draw: bool = False


@dataclass
class Confirmed:
    """The alpha-beta value of a position, compared with a winner found before."""

    #: True: alpha-beta finds the same winner; False: another value; None: budget spent
    agrees: bool | None
    value: str
    nodes: int
    seconds: float
    #: alpha-beta nodes whose first move came from the df-pn table
    hinted: int = 0


def as_orthodiagonal(position: Any) -> Any:
    """The same position in the ortho-diagonal game (see ``theorem_o`` above), with the
    same glyphs.

    >>> pos = as_orthodiagonal(models.get("minefield").parse_position("3/3/1b1 w -"))
    >>> pos.game.win, pos.fen()
    ('orthodiagonal', '3/3/1b1 w -')
    """
    game = models.get("minefield", win="orthodiagonal", variant=position.game.variant)
    return game.parse_position(position.fen())


def theorem_o_holds(position: Any) -> bool:
    """Whether Theorem O may be used for ``position``: the standard glyphs only (it is
    not proved for the variants).

    >>> theorem_o_holds(models.get("minefield", variant="pinwheel").start(size=4))
    False
    """
    return bool(position.game.standard)


def _target(position: Any, theorem_o: bool) -> Any:
    if theorem_o and position.game.win == "orthogonal" and theorem_o_holds(position):
        return as_orthodiagonal(position)
    return position


def _settled(target: Any) -> int | None:
    """The winner when the (ortho-diagonal) position is already over, else None."""
    outcome = target.outcome()
    if outcome is None:
        return None
    if len(outcome.winners) != 1:
        raise ValueError(f"a dead position has no winner: {target.fen()!r}")
    return int(next(iter(outcome.winners)))


def who_wins(
    position: Any,
    *,
    theorem_o: bool = True,
    keep: bool = False,
    attacker: int | None = None,
    tt_bits: int = DEFAULT_DFPN_BITS,
    node_limit: int = 0,
    timeout: float | None = None,
    table: str = "pairs",
    use: Iterable[str] = (),
    scale: int = DEFAULT_SCALE,
) -> Proved:
    """The winner of a position of a legal game, by the native df-pn (first method).

    It asks one question, "does ``attacker`` (default: the side to move) win?". A proof
    names the attacker, a disproof only says that the attacker has no forced win, so the
    winner is the other side because Minefield has no draws (``reports/minefield-no-draw``,
    every n <= 26): :func:`confirm` checks it with the three values of alpha-beta. That
    holds for the standard glyphs only: in a variant a disproof is followed by the other
    question (does the other side win?), and two disproofs make a draw (``draw``). The
    side to move's winning move comes with it (the child the proof or disproof goes
    through). A fixed ``attacker`` for every entry of a run lets a ``keep`` table reuse
    one entry's proofs in the next (its entries are per attacker). ``use``: the pruning
    rules to switch on (names of :data:`RULES`; see the module docstring).
    """
    start = time.perf_counter()
    target = _target(position, theorem_o)
    over = target.outcome()
    if over is not None and not over.winners:  # a dead position (a variant's): a draw
        return Proved(None, None, 0, 0.0, True)
    done = _settled(target)
    if done is not None:
        return Proved(done, None, 0, 0.0)
    search = native.search_for(target.n, target.game.win == "orthodiagonal",
                               variant=target.game.variant)  # fmt: skip
    side = target.to_move if attacker is None else attacker
    with rules(use, scale):
        proved, nodes, move = search.proof(target, side, tt_bits=tt_bits,
                                           node_limit=node_limit, timeout=timeout,
                                           keep=keep, table=table)  # fmt: skip
        if proved is False and not target.game.standard:  # no no-draw theorem: ask again
            left = None if timeout is None else timeout - (time.perf_counter() - start)
            if left is not None and left <= 0:
                return Proved(None, None, nodes, round(time.perf_counter() - start, 3))
            other, more, other_move = search.proof(
                target, 1 - side, tt_bits=tt_bits,
                node_limit=max(node_limit - nodes, 1) if node_limit else 0, timeout=left,
                keep=keep, table=table)  # fmt: skip
            nodes += more
            if other is None:
                return Proved(None, None, nodes, round(time.perf_counter() - start, 3))
            if not other:
                return Proved(None, None, nodes, round(time.perf_counter() - start, 3), True)
            move = other_move
    winner = None if proved is None else side if proved else 1 - side
    if winner != target.to_move:
        move = None
    return Proved(winner, move, nodes, round(time.perf_counter() - start, 3))


def confirm(
    position: Any,
    winner: int,
    *,
    theorem_o: bool = True,
    hints: bool = True,
    tt_bits: int | None = None,
    node_limit: int = 0,
    timeout: float | None = None,
    use: Iterable[str] = (),
    certificate: Any = None,
) -> Confirmed:
    """Re-prove ``winner`` with the native alpha-beta (second method), a fresh table.

    ``hints`` uses the df-pn table of the last :func:`who_wins` call for move ordering
    only (see the module docstring); with a ``certificate`` of the same claim
    (:class:`boardproof.models.minefield.proofs.certificate.Certificate`) its moves come first
    (``certificate_hints``): alpha-beta's tree is then about the certificate's, and its
    value is still its own. ``use``: the pruning rules (``blocked`` and ``must3`` act in
    alpha-beta; ``heuristic`` and ``frozen`` only in df-pn).
    """
    start = time.perf_counter()
    target = _target(position, theorem_o)
    done = _settled(target)
    if done is not None:
        return Confirmed(done == winner, "over", 0, 0.0)
    native.reset()  # a fresh alpha-beta table (the df-pn table stays)
    search = native.search_for(target.n, target.game.win == "orthodiagonal", tt_bits,
                               variant=target.game.variant)  # fmt: skip
    if certificate is not None:
        if (certificate.header.get("root"), certificate.header.get("rule")) != (
                position.fen(), target.game.win):  # fmt: skip
            raise ValueError(f"the certificate is not one of {position.fen()!r} in the "
                             f"{target.game.win} game")  # fmt: skip
        search.set_hints(certificate_hints(certificate))
    try:
        with rules(use):
            found = search.solve(target, hint=winner if hints else None,
                                 node_limit=node_limit, timeout=timeout)  # fmt: skip
    finally:
        if certificate is not None:
            search.set_hints(())
    hinted = search.stats()["hint_moves"] if hints and not search.wide else 0
    seconds = round(time.perf_counter() - start, 3)
    if found.value == "unknown":
        return Confirmed(None, found.value, found.nodes, seconds, hinted)
    mover = target.to_move
    agrees = (found.value == "win" and winner == mover) or (
        found.value == "loss" and winner == 1 - mover
    )
    return Confirmed(agrees, found.value, found.nodes, seconds, hinted)
