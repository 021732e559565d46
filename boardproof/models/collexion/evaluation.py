"""ColleXion turns ordered by a heuristic: a fast turn generator and a position evaluation.

A ColleXion turn is one move (:class:`~boardproof.models.collexion.rules.Turn`), and a
turn has thousands of them (6,393 at the start of seed 1) because every order of the
pieces taken is a move of its own. Most of them reach the same position: what counts is
*which* pieces were taken and which sets were handed in. :func:`ranked_turns` gives one
turn per position reached (the first in the canonical order), best first by
:func:`estimates`, each player's score plus an estimate of what its collection will
still earn:

- **score**: tokens, plus 1 per unused power token, minus 1 per polygon held (the
  final score if the game ended now: ``heuristic_scores()``);
- **potential** (:func:`potential`): a set (4 colour sets, 4 shape sets) gives back its
  polygons and earns a token when it is completed. On its next turn a player completes
  the best set whose missing polygons are all accessible now (a whole set lying open
  too), unless a player before it takes them first; later, a started set is completed
  by a chance that falls with the polygons missing, is nil when a missing polygon has
  left the box, and fades with the turns the player still has (:func:`turns_left`: the
  game ends when the tokens run out or the box is empty).

A position is worth, to a player, its estimated final score minus the best of its
opponents' (:func:`margin`, the bounded search's paranoid difference, on estimates).

The base variant's turns come from a generator of the sets of pieces a turn can take
(a depth-first search over take sequences that visits each (pieces taken, last
polygon) once, so the orders of the same pieces cost nothing); the other variants'
(powers, free powers, gifts) from the rules' own generator, deduplicated by the
position reached.

>>> from boardproof.models.collexion.rules import GAME
>>> pos = GAME.parse_position("base 1:g8,2:y3,3:p5 g3.g4.g5:-:-/-:-:- 234/234/234/234 1")
>>> [(str(c.turn), round(c.margin, 2)) for c in ranked_turns(pos)][:2]
[('1/g', 2.0), ('2', -1.5)]
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from boardproof.models.collexion.heap import NUM_POLYGONS
from boardproof.models.collexion.rules import (
    MAX_TAKE,
    CollexionPosition,
    Turn,
    hand_in_options,
)

# ---------------------------------------------------------------------------
# Polygons and sets (codes: colour * 4 + shape, heap.py)
# ---------------------------------------------------------------------------

#: whether two polygons share a colour or a shape (may follow each other in a take)
SHARE = tuple(
    tuple(a // 4 == b // 4 or a % 4 == b % 4 for b in range(NUM_POLYGONS))
    for a in range(NUM_POLYGONS)
)
#: the polygons of each set kind: colour sets 0..3 (g y b p), shape sets 4..7 (3 4 5 8)
SET_MEMBERS = tuple(tuple(c * 4 + s for s in range(4)) for c in range(4)) + tuple(
    tuple(c * 4 + s for c in range(4)) for s in range(4)
)
#: the two set kinds of each polygon: (its colour set, its shape set)
KINDS_OF = tuple((t // 4, 4 + t % 4) for t in range(NUM_POLYGONS))
assert len(SET_MEMBERS) == 8 and SET_MEMBERS[4] == (0, 4, 8, 12) and KINDS_OF[6] == (1, 6)

# ---------------------------------------------------------------------------
# The evaluation's parameters (chosen by matches against the one-ply search)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Weights:
    """The evaluation's parameters."""

    #: the weight of a set a player can complete on its next turn, by the player's place
    #: in the order of play after the turn evaluated (next to move first)
    next_turn: tuple[float, ...] = (0.9, 0.5, 0.35, 0.25)
    #: the chance of completing a started set later, by polygons missing (1, 2, 3)
    later: tuple[float, ...] = (0.0, 0.6, 0.35, 0.15, 0.0)
    #: the share of a set's token counted in the later chance
    token_share: float = 0.7
    #: own turns after which the later chance counts in full
    horizon: float = 3.0
    #: a round hands in about this many sets per player and takes this many pieces
    sets_per_turn: float = 0.6
    pieces_per_turn: float = 2.5


WEIGHTS = Weights()


@dataclass(frozen=True)
class BoxIndex:
    """A position's box as indices ``0..n-1`` (by id): polygons, what lies on each piece
    (a bit mask of indices) and what each piece lies on (the pieces it may free)."""

    ids: tuple[int, ...]
    polys: tuple[int, ...]
    over: tuple[int, ...]
    under: tuple[tuple[int, ...], ...]
    _features: dict[int, tuple[int, int, int]] = field(
        default_factory=dict, compare=False, repr=False
    )
    #: (the pieces of each polygon, the accessible pieces of the full box: bit masks over
    #: the indices; the polygons in the full box and the accessible ones), made when first
    #: used
    _masks: list[tuple[tuple[int, ...], int, int, int]] = field(
        default_factory=list, compare=False, repr=False
    )

    @classmethod
    def of(cls, pos: CollexionPosition) -> BoxIndex:
        where = {pid: i for i, (pid, _, _) in enumerate(pos.box)}
        over = tuple(sum(1 << where[o] for o in above) for _, _, above in pos.box)
        under: list[list[int]] = [[] for _ in pos.box]
        for i, (_, _, above) in enumerate(pos.box):
            for o in above:
                under[where[o]].append(i)  # piece o lies on piece i
        return cls(
            tuple(pid for pid, _, _ in pos.box),
            tuple(poly for _, poly, _ in pos.box),
            over,
            tuple(tuple(u) for u in under),
        )

    @property
    def full(self) -> int:
        return (1 << len(self.ids)) - 1

    def features(self, present: int) -> tuple[int, int, int]:
        """(pieces, bit mask of the polygons among them, bit mask of the accessible
        polygons) of the box ``present``: from the full box's accessible pieces, those
        still present and those the pieces gone freed (:meth:`features_plain` reads every
        piece; the tests check that both agree).

        >>> from boardproof.models.collexion.rules import GAME
        >>> index = BoxIndex.of(GAME.start())
        >>> all(index.features(index.full & ~taken) == index.features_plain(index.full & ~taken)
        ...     for taken in index.takes(index.full))
        True
        """
        found = self._features.get(present)
        if found is None:
            if not self._masks:
                members = [0] * NUM_POLYGONS
                for i, poly in enumerate(self.polys):
                    members[poly] |= 1 << i
                _, in_full, open_polys = self.features_plain(self.full)
                self._masks.append((tuple(members), self.accessible_mask(self.full),
                                    in_full, open_polys))  # fmt: skip
            by_poly, open_full, in_box, accessible = self._masks[0]
            polys, over, under = self.polys, self.over, self.under
            gone = self.full & ~present
            reachable = open_full & present
            rest = gone
            while rest:  # the pieces under a piece gone may be free now
                low = rest & -rest
                rest ^= low
                for j in under[low.bit_length() - 1]:
                    if present >> j & 1 and not over[j] & present:
                        reachable |= 1 << j
                        accessible |= 1 << polys[j]
            while gone:  # a polygon whose pieces (accessible ones) are all gone
                low = gone & -gone
                gone ^= low
                poly = polys[low.bit_length() - 1]
                if not by_poly[poly] & present:
                    in_box &= ~(1 << poly)
                if not by_poly[poly] & reachable:
                    accessible &= ~(1 << poly)
            found = self._features[present] = (present.bit_count(), in_box, accessible)
        return found

    def features_plain(self, present: int) -> tuple[int, int, int]:
        """:meth:`features` read off every piece (the plain method, for the tests)."""
        polys, over = self.polys, self.over
        pieces = in_box = accessible = 0
        for i in range(len(polys)):
            if present >> i & 1:
                pieces += 1
                in_box |= 1 << polys[i]
                if not over[i] & present:
                    accessible |= 1 << polys[i]
        return pieces, in_box, accessible

    def accessible_mask(self, present: int) -> int:
        """The accessible pieces of ``present``, as a bit mask over the indices."""
        over = self.over
        return sum(1 << i for i in range(len(self.ids)) if present >> i & 1
                   and not over[i] & present)  # fmt: skip

    def accessible(self, present: int) -> list[int]:
        """The indices of the accessible pieces of ``present``."""
        over = self.over
        return [i for i in range(len(self.ids)) if present >> i & 1 and not over[i] & present]

    def takes(self, present: int) -> dict[int, tuple[int, ...]]:
        """Every set of pieces one turn can take from ``present``, as a bit mask, with its
        first take sequence (indices) in the canonical order.

        A depth-first search in the canonical order that enters each (pieces left, last
        polygon) once: the takes after a sequence depend on nothing else.
        """
        polys, over, under = self.polys, self.over, self.under
        found: dict[int, tuple[int, ...]] = {}
        seen: set[tuple[int, int]] = set()

        def extend(seq: tuple[int, ...], left: int, last: int, acc: list[int]) -> None:
            share = SHARE[last] if last >= 0 else None
            for k, i in enumerate(acc):
                poly = polys[i]
                if share is not None and not share[poly]:
                    continue
                rest = left & ~(1 << i)
                if (rest, poly) in seen:
                    continue
                seen.add((rest, poly))
                now = (*seq, i)
                found.setdefault(present & ~rest, now)
                if len(now) < MAX_TAKE:
                    freed = [j for j in under[i] if rest >> j & 1 and not over[j] & rest]
                    nxt = acc[:k] + acc[k + 1 :]
                    if freed:
                        nxt = sorted(nxt + freed)
                    extend(now, rest, poly, nxt)

        extend((), present, -1, self.accessible(present))
        return found


# ---------------------------------------------------------------------------
# The evaluation
# ---------------------------------------------------------------------------


def turns_left(
    players: int,
    nxt: int,
    final: bool,
    ended: bool,
    tokens_left: int,
    pieces_left: int,
    weights: Weights = WEIGHTS,
) -> list[float]:
    """The turns each player still gets (an estimate), ``nxt`` being the next to move.

    The final round is exact (the players from ``nxt`` on get one more turn, the others
    none); before it, the rounds until the tokens or the box run out, and one more turn
    for the players still to move in this round.

    >>> turns_left(2, 1, True, False, 0, 30)
    [0.0, 1.0]
    >>> turns_left(2, 0, False, False, 12, 80)
    [10.0, 10.0]
    >>> [round(t, 2) for t in turns_left(3, 1, False, False, 9, 80)]
    [5.0, 6.0, 6.0]
    """
    if ended:
        return [0.0] * players
    if final:
        return [1.0 if q >= nxt else 0.0 for q in range(players)]
    rounds = min(tokens_left / (weights.sets_per_turn * players),
                 pieces_left / (weights.pieces_per_turn * players))  # fmt: skip
    return [rounds + (1.0 if 0 < nxt <= q else 0.0) for q in range(players)]


def shape_token(piles: Sequence[Sequence[int]]) -> int:
    """The token a shape set takes now: the best top of the smallest non-empty piles."""
    sizes = [len(p) for p in piles if p]
    if not sizes:
        return 0
    low = min(sizes)
    return max(p[0] for p in piles if p and len(p) == low)


@functools.lru_cache(maxsize=1 << 16)
def potential(
    coll: tuple[int, ...],
    piles: tuple[tuple[int, ...], ...],
    in_box: int,
    accessible: int,
    turns: float,
    place: int,
    weights: Weights = WEIGHTS,
) -> float:
    """What the collection ``coll`` should still earn within ``turns`` own turns, the
    first of them ``place``-th in the order of play (0: next to move).

    Its next turn, with weight ``w = weights.next_turn[place]`` (a player before it may
    take the polygons first): the best set whose missing polygons are all accessible now
    (a whole set of four too) earns its token and gives back the polygons held. Later,
    with weight ``1 - w``: each started set whose missing polygons are all still in the
    box, by its chance ``weights.later`` (by polygons missing, fading over the last
    ``weights.horizon`` turns), gives back its polygons (each polygon counted in the
    likelier of its two sets) and a share of its token. ``in_box`` and ``accessible``: bit
    masks of the polygons left in the box and of those accessible now (memoised: the
    turns of a position mostly differ in the pieces, not in these masks).

    >>> piles = ((2, 3, 4),) * 4
    >>> near = (1, 1, 1, 0) + (0,) * 12  # g3 g4 g5: the green set misses g8
    >>> open_g8, boxed_g8 = 1 << 3, 0
    >>> in_box = (1 << 16) - 1
    >>> potential(near, piles, in_box, open_g8, 8.0, 0) > potential(near, piles, in_box,
    ...                                                            boxed_g8, 8.0, 0)
    True
    >>> potential(near, piles, in_box, open_g8, 0.0, 0)  # no turn left: nothing
    0.0
    """
    if turns <= 0.0:
        return 0.0
    shape = shape_token(piles)
    later = weights.later
    scale = min(1.0, max(0.0, turns - 1.0) / weights.horizon)
    chance = [0.0] * 8
    best_now = 0.0
    total = 0.0
    for kind in range(8):
        held = 0
        possible = True
        now = True
        for t in SET_MEMBERS[kind]:
            if coll[t]:
                held += 1
            elif not in_box >> t & 1:
                possible = False
                break
            elif not accessible >> t & 1:
                now = False
        if not possible:
            continue
        token = (piles[kind][0] if piles[kind] else 0) if kind < 4 else shape
        if now:
            best_now = max(best_now, token + held)
        if held and scale:
            p = scale * later[4 - held]
            chance[kind] = p
            total += weights.token_share * p * token
    for t in range(NUM_POLYGONS):
        count = coll[t]
        if count:
            colour, shape_kind = KINDS_OF[t]
            a, b = chance[colour], chance[shape_kind]
            total += max(a, b) + (min(a, b) if count > 1 else 0.0)
    w = weights.next_turn[min(place, len(weights.next_turn) - 1)]
    return w * best_now + (1.0 - w) * total


def _estimates(
    variant: str,
    index: BoxIndex,
    present: int,
    colls: tuple[tuple[int, ...], ...],
    tokens: tuple[tuple[int, ...], ...],
    powers: tuple[str, ...],
    piles: tuple[tuple[int, ...], ...],
    nxt: int,
    final: bool,
    ended: bool,
    weights: Weights,
) -> list[float]:
    players = len(colls)
    pieces, in_box, accessible = index.features(present)
    tokens_left = sum(len(p) for p in piles)
    turns = turns_left(players, nxt, final, ended, tokens_left, pieces, weights)
    own = [
        sum(tokens[q]) + len(powers[q]) - sum(colls[q])
        + potential(colls[q], piles, in_box, accessible, turns[q], (q - nxt) % players,
                    weights)
        for q in range(players)
    ]  # fmt: skip
    if variant == "teams":
        return [own[q] + own[(q + 2) % 4] for q in range(players)]
    return own


def estimates(
    pos: CollexionPosition,
    index: BoxIndex,
    present: int,
    colls: tuple[tuple[int, ...], ...],
    tokens: tuple[tuple[int, ...], ...],
    powers: tuple[str, ...],
    piles: tuple[tuple[int, ...], ...],
    weights: Weights = WEIGHTS,
) -> list[float]:
    """Each player's estimated final score once ``pos.to_move``'s turn has left the box
    ``present`` (a bit mask over ``index``) and these collections, tokens, powers and
    piles (teams: the team's sum, as ``Outcome.scores``)."""
    players = len(colls)
    nxt = (pos.to_move + 1) % players
    final = pos.final or not present or not any(piles)
    ended = final and nxt == 0
    return _estimates(pos.variant, index, present, colls, tokens, powers, piles, nxt,
                      final and not ended, ended, weights)  # fmt: skip


def estimates_of(pos: CollexionPosition, weights: Weights = WEIGHTS) -> list[float]:
    """Each player's estimated final score from ``pos`` (its scores when it is over).

    >>> from boardproof.models.collexion.rules import GAME
    >>> GAME.parse_position("base - g3.y3:2.3:-/-:4:- -/34/234/234 1").scores()
    (3, 4)
    >>> estimates_of(GAME.parse_position("base - g3.y3:2.3:-/-:4:- -/34/234/234 1"))
    [3.0, 4.0]
    """
    if pos.ended():
        return [float(s) for s in pos.scores()]
    index = BoxIndex.of(pos)
    return _estimates(pos.variant, index, index.full, pos.collections, pos.tokens, pos.powers,
                      pos.piles, pos.to_move, pos.final, False, weights)  # fmt: skip


def margin(values: Sequence[float], player: int, opponents: Sequence[int]) -> float:
    """``player``'s estimate minus the best opponent's."""
    return values[player] - max(values[q] for q in opponents)


# ---------------------------------------------------------------------------
# Turns ordered by the evaluation
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """One turn and what the evaluation thinks of the position it reaches."""

    turn: Turn
    values: tuple[float, ...]  # every player's estimated final score
    margin: float  # the mover's estimate minus the best opponent's


class After(NamedTuple):
    """What a turn leaves: the box (a bit mask over the position's :class:`BoxIndex`), the
    collections, tokens, power tokens and piles."""

    present: int
    colls: tuple[tuple[int, ...], ...]
    tokens: tuple[tuple[int, ...], ...]
    powers: tuple[str, ...]
    piles: tuple[tuple[int, ...], ...]


def _base_turns(pos: CollexionPosition, index: BoxIndex) -> Iterator[tuple[Turn, After]]:
    """The base variant's turns, one per set of pieces taken (the first order in the
    canonical order) and hand-in sequence, with what each leaves."""
    me = pos.to_move
    if pos.final:
        yield Turn(), After(index.full, pos.collections, pos.tokens, pos.powers, pos.piles)
    colls, tokens = list(pos.collections), list(pos.tokens)
    for taken, seq in sorted(index.takes(index.full).items(), key=lambda item: item[1]):
        coll = list(pos.collections[me])
        for i in seq:
            coll[index.polys[i]] += 1
        ids = tuple(index.ids[i] for i in seq)
        for sets, kept, toks, piles in hand_in_options(tuple(coll), pos.tokens[me], pos.piles):
            colls[me], tokens[me] = kept, toks
            after = After(index.full & ~taken, tuple(colls), tuple(tokens), pos.powers, piles)
            yield Turn(take=ids, sets=sets), after


def _all_turns(pos: CollexionPosition) -> Iterator[tuple[Turn, After]]:
    """Every variant's turns (powers, free powers, gifts) from the rules' own generator."""
    for turn, state in pos._turns():  # noqa: SLF001 - the rules' generator, same package
        yield turn, After(state.present, state.colls, state.tokens, state.powers, state.piles)


def ranked_turns(pos: CollexionPosition, weights: Weights = WEIGHTS) -> list[Candidate]:
    """One legal turn per position reached (the first in the canonical order), best first
    for the player to move by :func:`margin` of :func:`estimates` (ties in the canonical
    order); [] once the game is over."""
    if pos.ended():
        return []
    index = BoxIndex.of(pos)
    me = pos.to_move
    opponents = pos.opponents(me)
    turns = _base_turns(pos, index) if pos.variant == "base" else _all_turns(pos)
    seen: set[After] = set()
    out: list[Candidate] = []
    for turn, after in turns:
        if after in seen:  # e.g. two colour sets handed in in either order
            continue
        seen.add(after)
        values = estimates(pos, index, *after, weights=weights)
        out.append(Candidate(turn, tuple(values), margin(values, me, opponents)))
    out.sort(key=lambda c: -c.margin)  # stable: ties keep the canonical order
    return out


def best_turn(pos: CollexionPosition, weights: Weights = WEIGHTS) -> Turn | None:
    """The evaluation's best turn (the one-ply search on :func:`estimates`)."""
    ranked = ranked_turns(pos, weights)
    return ranked[0].turn if ranked else None
