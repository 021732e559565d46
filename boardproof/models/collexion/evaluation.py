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
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from boardproof.models.collexion.heap import NUM_POLYGONS
from boardproof.models.collexion.rules import (
    MAX_TAKE,
    CollexionPosition,
    Turn,
    _State,
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
    #: :meth:`freeable` by box, and the full box's pieces it counts (made when first used)
    _freeable: dict[int, int] = field(default_factory=dict, compare=False, repr=False)
    _free_full: list[tuple[int, tuple[int, ...]]] = field(
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

    def freeable(self, present: int) -> int:
        """The bit mask of the polygons a remove power (``r``) makes accessible in the box
        ``present``: those of the pieces with one piece lying on them, an accessible one.
        From the full box's such pieces, those of the pieces gone redone (taking a piece
        changes the pieces under it and the pieces under those); :meth:`freeable_plain`
        reads every piece.

        >>> from boardproof.models.collexion.rules import GAME
        >>> index = BoxIndex.of(GAME.start())
        >>> all(index.freeable(index.full & ~taken) == index.freeable_plain(index.full & ~taken)
        ...     for taken in index.takes(index.full))
        True
        """
        found = self._freeable.get(present)
        if found is None:
            if not self._free_full:
                under = self.under
                made = []  # the pieces under each piece, and the pieces under those
                for i in range(len(self.ids)):
                    mask = 0
                    for j in under[i]:
                        mask |= 1 << j
                        for k in under[j]:
                            mask |= 1 << k
                    made.append(mask)
                free = sum(1 << i for i in range(len(self.ids)) if self._free(i, self.full))
                self._free_full.append((free, tuple(made)))
            free, redo_of = self._free_full[0]
            gone = self.full & ~present
            redo = 0
            while gone:
                low = gone & -gone
                gone ^= low
                redo |= redo_of[low.bit_length() - 1]
            redo &= present
            pieces = free & present & ~redo
            over = self.over
            while redo:
                low = redo & -redo
                redo ^= low
                cover = over[low.bit_length() - 1] & present
                if cover and not cover & (cover - 1) and not over[cover.bit_length() - 1] & present:
                    pieces |= low
            found = 0
            polys = self.polys
            while pieces:
                low = pieces & -pieces
                pieces ^= low
                found |= 1 << polys[low.bit_length() - 1]
            self._freeable[present] = found
        return found

    def _free(self, i: int, present: int) -> bool:
        """Whether piece ``i`` of ``present`` has one piece lying on it, an accessible one."""
        cover = self.over[i] & present
        if not present >> i & 1 or not cover or cover & (cover - 1):
            return False
        return not self.over[cover.bit_length() - 1] & present

    def freeable_plain(self, present: int) -> int:
        """:meth:`freeable` read off every piece (the plain method, for the tests)."""
        return functools.reduce(
            int.__or__,
            (1 << self.polys[i] for i in range(len(self.ids)) if self._free(i, present)),
            0,
        )

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


def power_reach(
    index: BoxIndex,
    present: int,
    colls: tuple[tuple[int, ...], ...],
    powers: tuple[str, ...],
    rivals: Sequence[Sequence[int]],
) -> list[tuple[int, int]]:
    """Each player's (``reach``, ``swap``) of :func:`potential`: the polygons its next
    turn's one power brings (bit masks): a remove power the pieces it frees
    (:meth:`BoxIndex.freeable`), a steal its rivals' polygons; a swap its rivals'
    polygons (for one of its own). ``rivals[q]``: those ``q`` may steal from.

    >>> from boardproof.models.collexion.rules import GAME
    >>> pos = GAME.parse_position("powers 1:g8<2,2:p4 g3.g4.g5:-:s/y3:-:x 234/234/234/234 1")
    >>> index = BoxIndex.of(pos)
    >>> [(bin(r), bin(x)) for r, x in power_reach(index, index.full, pos.collections,
    ...                                            pos.powers, [[1], [0]])]
    [('0b10000', '0b0'), ('0b0', '0b111')]
    """
    free = index.freeable(present) if any("r" in letters for letters in powers) else 0
    return [
        (reach | free if remove else reach, swap)
        for reach, swap, remove in _rival_reach(colls, powers, tuple(map(tuple, rivals)))
    ]


@functools.lru_cache(maxsize=1 << 12)
def _rival_reach(
    colls: tuple[tuple[int, ...], ...], powers: tuple[str, ...], rivals: tuple[tuple[int, ...], ...]
) -> list[tuple[int, int, bool]]:
    """:func:`power_reach` but the remove power's: (reach, swap, has a remove power)."""
    out = []
    for q, letters in enumerate(powers):
        theirs = 0
        if "s" in letters or "x" in letters:
            for o in rivals[q]:
                theirs |= _held_mask(colls[o])
        out.append((theirs if "s" in letters else 0, theirs if "x" in letters else 0,
                    "r" in letters))  # fmt: skip
    return out


@functools.lru_cache(maxsize=1 << 12)
def _held_mask(coll: tuple[int, ...]) -> int:
    """The bit mask of the polygons ``coll`` holds."""
    return sum(1 << t for t, count in enumerate(coll) if count)


@functools.lru_cache(maxsize=1 << 16)
def potential(
    coll: tuple[int, ...],
    piles: tuple[tuple[int, ...], ...],
    in_box: int,
    accessible: int,
    turns: float,
    place: int,
    weights: Weights = WEIGHTS,
    reach: int = 0,
    swap: int = 0,
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

    Powers (:func:`power_reach`): ``reach`` and ``swap`` are the polygons one power
    brings this turn (a remove power frees them, a steal takes them; a swap takes them
    for a polygon outside the set): a set missing one such polygon besides accessible
    ones counts as completed next turn too, less the power token's point.

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
    powered = reach | swap
    for kind in range(8):
        held = 0
        possible = True
        now = True
        blocked = -1  # the missing polygon not accessible (-2: more than one)
        for t in SET_MEMBERS[kind]:
            if coll[t]:
                held += 1
            elif not in_box >> t & 1:
                possible = False
                if not powered:
                    break
                blocked = t if blocked == -1 else -2
            elif not accessible >> t & 1:
                now = False
                blocked = t if blocked == -1 else -2
        if (
            blocked >= 0 and powered >> blocked & 1 and (reach >> blocked & 1 or sum(coll) > held)
        ):  # one power completes it (a swap gives a polygon outside the set)
            token = (piles[kind][0] if piles[kind] else 0) if kind < 4 else shape
            best_now = max(best_now, token + held - 1.0)
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
    if any(powers):
        rivals = [
            [o for o in range(players) if (o % 2 != q % 2 if variant == "teams" else o != q)]
            for q in range(players)
        ]
        reach = power_reach(index, present, colls, powers, rivals)
    else:
        reach = [(0, 0)] * players
    own = [
        sum(tokens[q]) + len(powers[q]) - sum(colls[q])
        + potential(colls[q], piles, in_box, accessible, turns[q], (q - nxt) % players,
                    weights, reach[q][0] & ~accessible, reach[q][1] & ~accessible)
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


def _power_turns(pos: CollexionPosition, index: BoxIndex) -> Iterator[tuple[Turn, After]]:
    """The powers variant's turns: for each power the mover may use first (none, then the
    rules' order), the take sets of :meth:`BoxIndex.takes` (as :func:`_base_turns`: one
    per set of pieces taken, not one per order) and the hand-ins, with what each leaves.
    The same positions as the rules' generator (the tests check it), ~3x faster on an
    opening heap (20,000 positions from 99,000 turns)."""
    me = pos.to_move
    ids, polys = index.ids, index.polys
    start = _State(index.full, pos.collections, pos.tokens, pos.powers, pos.piles)
    options = [("", start)]
    if pos.powers[me]:
        options += pos._power_options(start, pos.powers[me], consume=True)  # noqa: SLF001
    takes: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
    for power, st in options:
        found = takes.get(st.present)
        if found is None:
            found = takes[st.present] = sorted(index.takes(st.present).items(),
                                               key=lambda item: item[1])  # fmt: skip
        seqs: list[tuple[int, tuple[int, ...]]] = [(0, ())] if pos.final else []
        colls, tokens = list(st.colls), list(st.tokens)
        for taken, seq in seqs + found:
            coll = list(st.colls[me])
            for i in seq:
                coll[polys[i]] += 1
            take = tuple(ids[i] for i in seq)
            for sets, kept, toks, piles in hand_in_options(tuple(coll), st.tokens[me], st.piles):
                colls[me], tokens[me] = kept, toks
                after = After(st.present & ~taken, tuple(colls), tuple(tokens), st.powers, piles)
                yield Turn(power=power, take=take, sets=sets), after


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
    if pos.variant == "base":
        turns = _base_turns(pos, index)
    elif pos.variant == "powers":
        turns = _power_turns(pos, index)
    else:
        turns = _all_turns(pos)
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


def greedy_turn(pos: CollexionPosition, rng: random.Random) -> Turn | None:
    """A turn of the one-ply search on the score (``heuristic_scores()``, as the bounded
    search at depth 1): the best score now minus the best opponent's, ``rng`` choosing
    among the turns that tie (one per set of pieces taken, as :func:`ranked_turns`;
    None once the game is over). A cheap model of a greedy player: no evaluation.

    >>> from boardproof.models.collexion.rules import GAME
    >>> pos = GAME.parse_position("base 1:g8,2:y3,3:p5 g3.g4.g5:-:-/-:-:- 234/234/234/234 1")
    >>> str(greedy_turn(pos, random.Random(1)))
    '1/g'
    """
    if pos.ended():
        return None
    me = pos.to_move
    players = pos.num_players
    opponents = pos.opponents(me)
    if pos.variant not in ("base", "powers"):  # gifts, free powers: the rules' generator
        best: list[Turn] = []
        top = -(10**9)
        for turn, after in _all_turns(pos):
            own = [sum(after.tokens[q]) + len(after.powers[q]) - sum(after.colls[q])
                   for q in range(players)]  # fmt: skip
            if pos.variant == "teams":
                own = [own[q] + own[(q + 2) % 4] for q in range(players)]
            value = own[me] - max(own[q] for q in opponents)
            if value > top:
                top, best = value, [turn]
            elif value == top:
                best.append(turn)
        return best[rng.randrange(len(best))] if best else None
    index = BoxIndex.of(pos)
    polys = index.polys
    start = _State(index.full, pos.collections, pos.tokens, pos.powers, pos.piles)
    options = [("", start)]
    if pos.powers[me]:
        options += pos._power_options(start, pos.powers[me], consume=True)  # noqa: SLF001
    takes: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
    ties: list[tuple[str, tuple[int, ...], tuple[str, ...]]] = []
    top = -(10**9)
    for power, st in options:
        rival = max(sum(st.tokens[q]) + len(st.powers[q]) - sum(st.colls[q]) for q in opponents)
        fixed = len(st.powers[me]) - rival
        found = takes.get(st.present)
        if found is None:
            found = takes[st.present] = sorted(
                index.takes(st.present).items(), key=lambda item: item[1]
            )
        seqs: list[tuple[int, tuple[int, ...]]] = [(0, ())] if pos.final else []
        for _, seq in seqs + found:
            coll = list(st.colls[me])
            for i in seq:
                coll[polys[i]] += 1
            for sets, kept, toks, _ in hand_in_options(tuple(coll), st.tokens[me], st.piles):
                value = sum(toks) - sum(kept) + fixed
                if value > top:
                    top, ties = value, [(power, seq, sets)]
                elif value == top:
                    ties.append((power, seq, sets))
    power, seq, sets = ties[rng.randrange(len(ties))]
    return Turn(power=power, take=tuple(index.ids[i] for i in seq), sets=sets)
