"""ColleXion's rules: positions, whole-turn moves, sets, tokens, powers, the end.

Rules and position notation: ``/work/shared/rules/collexion.md``. A position is
written at the start of a turn, ``<variant> <box> <players> <piles> <turn>``:

>>> pos = GAME.parse_position("base 1:g3<3,2:g4,3:y3 -:-:-/-:-:- 234/234/234/234 1")
>>> [str(m) for m in pos.legal_moves()]
['2', '3', '3.1', '3.1.2']
>>> pos.play(pos.parse_move("3.1")).fen()
'base 2:g4 g3.y3:-:-/-:-:- 234/234/234/234 2'

Piece 1 (``g3``) lies under piece 3: it becomes accessible once 3 is taken
(``3.1``), in the same turn.

Move notation (one move = one whole turn)
-----------------------------------------
::

    [<power> ':'] <take> ['+' <power>] ['/' <set>('.' <set>)*] ['>' [<set>('.' <set>)*]]

- ``<take>``: the ids of the pieces taken, in the order taken, joined by ``.``
  (``17.4.22``); ``pass`` takes nothing (final round only).
- ``<power>`` before ``:`` is the power token used before taking (variant
  ``powers``); after ``+`` it is the expert variant's free power used after
  taking. A power is ``r<id>`` (remove piece ``id`` from the box),
  ``s<player><polygon>`` (steal: ``s2g3`` takes a ``g3`` from player 2) or
  ``x<polygon>=<player><polygon>`` (swap: ``xg3=2p8`` gives my ``g3`` to player 2
  for their ``p8``).
- ``/`` lists the sets handed in, in the order handed in: a colour set is its
  colour (``g``); a shape set is its shape then the pile its token comes from
  (``3y``), ``-`` when every pile is empty (``3-``). The pile is always written,
  even when only one pile is the smallest.
- ``>`` (teams): the last polygon taken is given to the partner; the sets the
  partner then hands in follow the ``>``.

Examples: ``12`` · ``12.7.30`` · ``pass`` · ``r14:12.7`` · ``s2g3:9/3b`` ·
``5.6+xg4=2p8/g`` · ``5.6/g>3y`` · ``5>``.

Canonical order of ``legal_moves()``: no power first, then ``r`` by id, ``s`` by
player then polygon, ``x`` by own polygon, player, their polygon; for each,
``pass`` first, then the take sequences in lexicographic order of their ids
(``7`` before ``7.12`` before ``9``); then no free power before the free powers
(same order); no gift before the gift; the set sequences in the order colour
sets ``g y b p`` then shape sets ``3 4 5 8`` (pile ``g y b p``).

Distinct turns (the dedupe decision): a move records every choice the player
makes, in order, so two turns are different moves when the player does
different things, even if they reach the same position (taking ``7`` then ``12``
or ``12`` then ``7``; handing in ``g`` then ``y`` or ``y`` then ``g``). Only what
the rules cannot tell apart is merged: polygons in a collection are identical
copies, so a steal or swap names a polygon, not a copy. (A swap of two identical
polygons, ``xg3=2g3``, is legal: it only spends the token.)

Scores and solver hooks: ``outcome().scores`` holds each player's final score
(teams: every player gets its team's sum); the game says ``objective = "score"``
so the solvers value positions by final score difference; ``successors()`` gives
every turn with the position after it, and ``heuristic_scores()`` the scores as if
the game ended now (the bounded best-turn search's horizon value).

Library decisions where the rules file is silent (each a named constant below):
:data:`EXPERT_POWER_OPTIONAL`, :data:`EXPERT_POWER_ONCE`,
:data:`PASS_AFTER_POWER`, :data:`PARTNER_HANDS_IN_AFTER_MOVER`,
:data:`SWAP_VICTIM_HANDS_IN_ON_OWN_TURN`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from boardproof.models.base import (
    IllegalMoveError,
    InvalidNotationError,
    InvalidOptionError,
    OptionInfo,
    Outcome,
    SymbolsMixin,
    check_options,
    require_text,
)
from boardproof.models.collexion.heap import (
    COLOURS,
    COPIES,
    HEAP_VERSION,
    NUM_POLYGONS,
    SHAPES,
    drop,
    polygon_code,
    polygon_name,
)

# ---------------------------------------------------------------------------
# The rules' constants and [choice]s (rules/collexion.md)
# ---------------------------------------------------------------------------

VARIANTS = ("base", "powers", "expert", "teams")
#: player counts by variant. "Base (2 and 3 players)"; "Powers (the 4-player rule)"
#: with the **[choice]** "the option can also be turned on with 2 or 3 players";
#: expert: the rules give no count, any 2-4; "Teams (4 players)".
PLAYER_COUNTS: dict[str, tuple[int, ...]] = {
    "base": (2, 3),
    "powers": (2, 3, 4),
    "expert": (2, 3, 4),
    "teams": (4,),
}
#: ``new`` defaults when ``--players`` is omitted (seed 0, variant base).
DEFAULT_PLAYERS: dict[str, int] = {"base": 2, "powers": 4, "expert": 2, "teams": 4}
DEFAULT_VARIANT = "base"
DEFAULT_SEED = 0
#: "Take 1 to 4 accessible polygons"
MAX_TAKE = 4
#: "each pile 2 on top, then 3, then 4"
START_PILE = (2, 3, 4)
#: power letters: remove, steal, swap (also their canonical order)
POWER_LETTERS = "rsx"

#: Expert: the seed text says the player "peut immédiatement utiliser" (*may*
#: immediately use) a power, so the free power is optional.
EXPERT_POWER_OPTIONAL = True
#: Expert: "uses one power of their choice once": one free power per turn, however
#: many identical pairs were taken (this and the two constants after
#: PASS_AFTER_POWER describe the behaviour; they are not switches).
EXPERT_POWER_ONCE = True
#: Final round: "a player may also take nothing"; the power step before taking
#: stays available, so ``s2g3:pass`` is a legal final-round turn.
PASS_AFTER_POWER = True
#: Teams: the gift happens before handing in; the mover hands in their sets first,
#: then the partner hands in the sets the gift completed ("the partner then...").
PARTNER_HANDS_IN_AFTER_MOVER = True
#: A swap can complete a set in the *victim's* collection; the victim hands it in
#: at step 4 of their own next turn (sets are only handed in on one's turn).
SWAP_VICTIM_HANDS_IN_ON_OWN_TURN = True

_SHARE = tuple(
    tuple((a // 4 == b // 4) or (a % 4 == b % 4) for b in range(NUM_POLYGONS))
    for a in range(NUM_POLYGONS)
)
assert len(_SHARE) == 16 and all(_SHARE[a][a] for a in range(16))

_EMPTY_COLL = (0,) * NUM_POLYGONS


# ---------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------

#: a piece id: ASCII digits (``\d`` would take any script's), at most 9 of them (a box
#: holds 80 pieces; a longer number is refused as notation, never handed to ``int``)
_ID = r"[1-9][0-9]{0,8}"
_POLY = r"[gybp][3458]"
_POWER = rf"(?:r{_ID}|s[1-9]{_POLY}|x{_POLY}=[1-9]{_POLY})"
_SET = r"(?:[gybp]|[3458][gybp-])"
_SETS = rf"{_SET}(?:\.{_SET})*"
_MOVE_RE = re.compile(
    rf"^(?:(?P<power>{_POWER}):)?(?P<take>pass|{_ID}(?:\.{_ID}){{0,{MAX_TAKE - 1}}})"
    rf"(?:\+(?P<bonus>{_POWER}))?(?:/(?P<sets>{_SETS}))?(?P<gift>>(?P<psets>{_SETS})?)?$"
)


@dataclass(frozen=True, repr=False)
class Turn:
    """One whole turn: power, pieces taken, free power, gift, sets handed in.

    >>> t = Turn(power="s2g3", take=(9, 4), sets=("3b",))
    >>> str(t)
    's2g3:9.4/3b'
    >>> parse_turn(str(t)) == t
    True
    """

    power: str = ""
    take: tuple[int, ...] = ()
    bonus: str = ""
    gift: bool = False
    sets: tuple[str, ...] = ()
    partner_sets: tuple[str, ...] = ()

    def __str__(self) -> str:
        text = ".".join(str(i) for i in self.take) or "pass"
        if self.power:
            text = f"{self.power}:{text}"
        if self.bonus:
            text += f"+{self.bonus}"
        if self.sets:
            text += "/" + ".".join(self.sets)
        if self.gift:
            text += ">" + ".".join(self.partner_sets)
        return text

    def __repr__(self) -> str:
        """The notation, so that a list of moves reads as moves: ``[b3, c3]``."""
        return str(self)


def _canonical_power(code: str) -> str:
    if code.startswith("r"):
        return f"r{int(code[1:])}"
    return code


def parse_turn(text: str) -> Turn:
    """Parse the move syntax (syntax only; legality is checked by ``play``).

    >>> t = parse_turn("r14:12.7+s2g3/g.3y>4b")
    >>> t.power, t.take, t.bonus, t.gift, t.sets, t.partner_sets
    ('r14', (12, 7), 's2g3', True, ('g', '3y'), ('4b',))
    >>> parse_turn("12.7.3.4.5")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    boardproof.models.base.InvalidNotationError: invalid move: expected ... got '12.7.3.4.5'
    """
    # the notation has no upper case: moves ignore case, as in every game
    match = _MOVE_RE.match(require_text(text, "move").strip().lower())
    if match is None:
        raise InvalidNotationError(
            "invalid move: expected [power:]ids[+power][/sets][>sets] with 1 to 4 ids or pass, "
            f"got {text!r}"
        )
    take_text = match["take"]
    take = () if take_text == "pass" else tuple(int(i) for i in take_text.split("."))
    return Turn(
        power=_canonical_power(match["power"] or ""),
        take=take,
        bonus=_canonical_power(match["bonus"] or ""),
        gift=match["gift"] is not None,
        sets=tuple(match["sets"].split(".")) if match["sets"] else (),
        partner_sets=tuple(match["psets"].split(".")) if match["psets"] else (),
    )


# ---------------------------------------------------------------------------
# Sets and tokens (pure functions over a 16-count collection)
# ---------------------------------------------------------------------------


def complete_sets(coll: tuple[int, ...]) -> list[int]:
    """Complete sets in a collection: ``0..3`` colour sets g y b p, ``4..7`` shape sets.

    >>> complete_sets(tuple(1 if p // 4 == 1 or p % 4 == 0 else 0 for p in range(16)))
    [1, 4]
    """
    if coll.count(0) > NUM_POLYGONS - 4:  # fewer than 4 kinds: no set
        return []
    mask = 0
    for bit, count in zip(_BITS, coll, strict=True):
        if count:
            mask |= bit
    return list(_sets_of_mask(mask))


_BITS = tuple(1 << t for t in range(NUM_POLYGONS))
#: the polygons of each set kind as a bit mask: colour sets 0..3, shape sets 4..7
_SET_MASKS = tuple(0xF << (4 * c) for c in range(4)) + tuple(0x1111 << s for s in range(4))
assert _SET_MASKS[4] == 0x1111 and _SET_MASKS[3] == 0xF000


@functools.lru_cache(maxsize=1 << 16)
def _sets_of_mask(mask: int) -> tuple[int, ...]:
    return tuple(kind for kind, need in enumerate(_SET_MASKS) if mask & need == need)


def _set_members(kind: int) -> list[int]:
    if kind < 4:
        return [kind * 4 + s for s in range(4)]
    return [c * 4 + (kind - 4) for c in range(4)]


def shape_set_piles(piles: tuple[tuple[int, ...], ...]) -> list[int]:
    """The piles a shape set may take from: the smallest non-empty ones ([] if none).

    >>> shape_set_piles(((2, 3, 4), (4,), (), (4,)))
    [1, 3]
    """
    sizes = [len(p) for p in piles if p]
    if not sizes:
        return []
    low = min(sizes)
    return [c for c in range(4) if piles[c] and len(piles[c]) == low]


def _remove_set(coll: tuple[int, ...], kind: int) -> tuple[int, ...]:
    out = list(coll)
    for p in _set_members(kind):
        out[p] -= 1
    return tuple(out)


def _take_token(
    tokens: tuple[int, ...], piles: tuple[tuple[int, ...], ...], pile: int | None
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    if pile is None or not piles[pile]:
        return tokens, piles
    new_piles = list(piles)
    value = new_piles[pile][0]
    new_piles[pile] = new_piles[pile][1:]
    return tuple(sorted((*tokens, value))), tuple(new_piles)


def _set_choices(
    coll: tuple[int, ...], piles: tuple[tuple[int, ...], ...]
) -> list[tuple[str, int, int | None]]:
    """(notation, set kind, pile or None) for every set that may be handed in now."""
    out: list[tuple[str, int, int | None]] = []
    for kind in complete_sets(coll):
        if kind < 4:
            out.append((COLOURS[kind], kind, kind))
        else:
            tied = shape_set_piles(piles)
            if not tied:
                out.append((SHAPES[kind - 4] + "-", kind, None))
            for c in tied:
                out.append((SHAPES[kind - 4] + COLOURS[c], kind, c))
    return out


HandIn = tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]


def hand_in_options(
    coll: tuple[int, ...], tokens: tuple[int, ...], piles: tuple[tuple[int, ...], ...]
) -> list[HandIn]:
    """Every sequence of set hand-ins until no complete set is left.

    Returns ``(sets, collection, tokens, piles)`` after each sequence, in canonical
    order. (A pure function, kept for the latest :data:`HAND_IN_CACHE` arguments: the
    searches meet the same collections again and again; :func:`hand_in_options_plain`
    computes it afresh, the tests check that both agree.)
    """
    if not coll.count(0) <= NUM_POLYGONS - 4:  # fewer than 4 kinds: no set
        return [((), coll, tokens, piles)]
    return list(_hand_in_options_kept(coll, tokens, piles))


#: the arguments of :func:`hand_in_options` whose answers are kept
HAND_IN_CACHE = 1 << 14


@functools.lru_cache(maxsize=HAND_IN_CACHE)
def _hand_in_options_kept(
    coll: tuple[int, ...], tokens: tuple[int, ...], piles: tuple[tuple[int, ...], ...]
) -> tuple[HandIn, ...]:
    return tuple(hand_in_options_plain(coll, tokens, piles))


def hand_in_options_plain(
    coll: tuple[int, ...], tokens: tuple[int, ...], piles: tuple[tuple[int, ...], ...]
) -> list[HandIn]:
    """:func:`hand_in_options` computed afresh (the plain method).

    >>> coll = tuple(1 if p // 4 == 1 or p % 4 == 0 else 0 for p in range(16))
    >>> piles = ((3, 2), (4,), (5,), (6,))
    >>> hand_in_options(coll, (), piles) == hand_in_options_plain(coll, (), piles)
    True
    >>> [sets for sets, _, _, _ in hand_in_options_plain(coll, (), piles)]
    [('y',), ('3y',), ('3b',), ('3p',)]
    """
    choices = _set_choices(coll, piles)
    if not choices:
        return [((), coll, tokens, piles)]
    out: list[HandIn] = []
    for name, kind, pile in choices:
        toks, pls = _take_token(tokens, piles, pile)
        for rest, c2, t2, p2 in hand_in_options_plain(_remove_set(coll, kind), toks, pls):
            out.append(((name, *rest), c2, t2, p2))
    return out


# ---------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------

Piece = tuple[int, int, tuple[int, ...]]  # (id, polygon code, ids lying on it)


@dataclass(frozen=True)
class _State:
    """The mutable-free state inside one turn (box as a bit mask over indices)."""

    present: int
    colls: tuple[tuple[int, ...], ...]
    tokens: tuple[tuple[int, ...], ...]
    powers: tuple[str, ...]
    piles: tuple[tuple[int, ...], ...]


def _with_coll(colls: tuple[tuple[int, ...], ...], player: int, poly: int, delta: int) -> Any:
    row = list(colls[player])
    row[poly] += delta
    out = list(colls)
    out[player] = tuple(row)
    return tuple(out)


def _replace(seq: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    out = list(seq)
    out[index] = value
    return tuple(out)


@dataclass(frozen=True)
class CollexionPosition:
    """A ColleXion position at the start of a turn (see the module docstring)."""

    variant: str
    box: tuple[Piece, ...]
    collections: tuple[tuple[int, ...], ...]
    tokens: tuple[tuple[int, ...], ...]
    powers: tuple[str, ...]
    piles: tuple[tuple[int, ...], ...]
    to_move: int
    final: bool
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False, hash=False)

    def __hash__(self) -> int:
        cached = self._cache.get("hash")
        if cached is None:
            cached = hash(
                (
                    self.variant,
                    self.box,
                    self.collections,
                    self.tokens,
                    self.powers,
                    self.piles,
                    self.to_move,
                    self.final,
                )
            )
            self._cache["hash"] = cached
        return int(cached)

    # -- protocol basics ----------------------------------------------------

    @property
    def game(self) -> CollexionGame:
        return GAME

    @property
    def num_players(self) -> int:
        return len(self.collections)

    def key(self) -> CollexionPosition:
        return self

    def transform(self, symmetry: int) -> CollexionPosition:
        if symmetry != 0:
            raise InvalidOptionError(f"invalid symmetry: collexion has only 0, got {symmetry!r}")
        return self

    def transform_move(self, move: Turn, symmetry: int) -> Turn:
        if symmetry != 0:
            raise InvalidOptionError(f"invalid symmetry: collexion has only 0, got {symmetry!r}")
        return move

    def parse_move(self, text: str) -> Turn:
        return parse_turn(text)

    def fen(self) -> str:
        return format_position(self)

    def __str__(self) -> str:
        return self.fen()

    def __repr__(self) -> str:
        return f"CollexionPosition({self.fen()!r})"

    def _repr_svg_(self) -> str:
        """The SVG picture, so that Jupyter shows the position as a board."""
        return self.game.info.draw(self)

    # -- derived facts --------------------------------------------------------

    def ended(self) -> bool:
        """True when the game is over (trigger met and the round complete)."""
        return self.to_move == 0 and not self.final and self.trigger()

    def trigger(self) -> bool:
        """The end condition: the box is empty or no score token is left."""
        return not self.box or not any(self.piles)

    def accessible(self) -> list[int]:
        """Ids of the accessible pieces."""
        return [pid for pid, _, over in self.box if not over]

    def player_scores(self) -> tuple[int, ...]:
        """Each player's own score: tokens + unused powers - polygons in collection.

        >>> GAME.parse_position("base - g3.y3:2.3:-/-:4:- -/34/234/234 1").player_scores()
        (3, 4)
        """
        return tuple(
            sum(t) + len(pw) - sum(c)
            for t, pw, c in zip(self.tokens, self.powers, self.collections, strict=True)
        )

    def scores(self) -> tuple[int, ...]:
        """Scores as ``Outcome.scores`` gives them: teams give each player its team's sum."""
        own = self.player_scores()
        if self.variant != "teams":
            return own
        return tuple(own[p] + own[(p + 2) % 4] for p in range(4))

    def heuristic_scores(self) -> tuple[int, ...]:
        """The bounded search's estimate: the scores as if the game ended now."""
        return self.scores()

    def outcome(self) -> Outcome | None:
        """None while the game goes on; else the top scorers (ties share the win)."""
        if not self.ended():
            return None
        scores = self.scores()
        top = max(scores)
        return Outcome(frozenset(p for p, s in enumerate(scores) if s == top), scores)

    def opponents(self, player: int) -> list[int]:
        """The players a steal or swap may target (teams: the other team)."""
        n = self.num_players
        if self.variant == "teams":
            return [q for q in range(n) if q % 2 != player % 2]
        return [q for q in range(n) if q != player]

    # -- turn machinery -----------------------------------------------------

    def _index(self) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """(ids, polygons, masks of the indices lying on each piece)."""
        cached = self._cache.get("index")
        if cached is None:
            where = {pid: i for i, (pid, _, _) in enumerate(self.box)}
            ids = tuple(pid for pid, _, _ in self.box)
            polys = tuple(poly for _, poly, _ in self.box)
            masks = tuple(sum(1 << where[o] for o in over) for _, _, over in self.box)
            cached = (ids, polys, masks)
            self._cache["index"] = cached
        return cached  # type: ignore[no-any-return]

    def _start_state(self) -> _State:
        return _State(
            (1 << len(self.box)) - 1, self.collections, self.tokens, self.powers, self.piles
        )

    def _power_options(self, st: _State, letters: str, consume: bool) -> list[tuple[str, _State]]:
        """Every power of ``letters`` the player to move can use on ``st``."""
        p = self.to_move
        ids, polys, masks = self._index()
        out: list[tuple[str, _State]] = []

        def spend(state: _State, letter: str) -> _State:
            if not consume:
                return state
            return _State(
                state.present,
                state.colls,
                state.tokens,
                _replace(state.powers, p, state.powers[p].replace(letter, "")),
                state.piles,
            )

        if "r" in letters:
            for i in range(len(ids)):
                if st.present >> i & 1 and not masks[i] & st.present:
                    new = _State(st.present & ~(1 << i), st.colls, st.tokens, st.powers, st.piles)
                    out.append((f"r{ids[i]}", spend(new, "r")))
        if "s" in letters:
            for q in self.opponents(p):
                for t in range(NUM_POLYGONS):
                    if st.colls[q][t]:
                        colls = _with_coll(_with_coll(st.colls, q, t, -1), p, t, 1)
                        new = _State(st.present, colls, st.tokens, st.powers, st.piles)
                        out.append((f"s{q + 1}{polygon_name(t)}", spend(new, "s")))
        if "x" in letters:
            for a in range(NUM_POLYGONS):
                if not st.colls[p][a]:
                    continue
                for q in self.opponents(p):
                    for b in range(NUM_POLYGONS):
                        if st.colls[q][b]:
                            colls = _with_coll(_with_coll(st.colls, p, a, -1), q, a, 1)
                            colls = _with_coll(_with_coll(colls, q, b, -1), p, b, 1)
                            new = _State(st.present, colls, st.tokens, st.powers, st.piles)
                            code = f"x{polygon_name(a)}={q + 1}{polygon_name(b)}"
                            out.append((code, spend(new, "x")))
        return out

    def _takes(self, present: int) -> list[tuple[tuple[int, ...], int]]:
        """Take sequences (indices) from ``present`` with the box left after each."""
        ids, polys, masks = self._index()
        n = len(ids)
        out: list[tuple[tuple[int, ...], int]] = []

        def extend(seq: tuple[int, ...], left: int, last: int) -> None:
            share = _SHARE[last] if last >= 0 else None
            for i in range(n):
                if left >> i & 1 and not masks[i] & left and (share is None or share[polys[i]]):
                    now = seq + (i,)
                    rest = left & ~(1 << i)
                    out.append((now, rest))
                    if len(now) < MAX_TAKE:
                        extend(now, rest, polys[i])

        extend((), present, -1)
        return out

    def _turns(self) -> Iterator[tuple[Turn, _State]]:
        """Every legal turn with the state it leaves, in canonical order."""
        if self.ended():
            return
        p = self.to_move
        ids, polys, _ = self._index()
        start = self._start_state()
        before = [("", start)]
        if self.variant == "powers" and self.powers[p]:
            before += self._power_options(start, self.powers[p], consume=True)
        teams = self.variant == "teams"
        partner = (p + 2) % 4
        for power, st in before:
            takes = self._takes(st.present)
            if self.final and (PASS_AFTER_POWER or not power):
                takes.insert(0, ((), st.present))
            for seq, left in takes:
                colls = st.colls
                for i in seq:
                    colls = _with_coll(colls, p, polys[i], 1)
                taken = _State(left, colls, st.tokens, st.powers, st.piles)
                bonuses = [("", taken)]
                if self.variant == "expert" and _has_pair([polys[i] for i in seq]):
                    free = self._power_options(taken, POWER_LETTERS, consume=False)
                    bonuses = free if free and not EXPERT_POWER_OPTIONAL else bonuses + free
                take_ids = tuple(ids[i] for i in seq)
                for bonus, bst in bonuses:
                    for gift in (False, True) if teams and seq else (False,):
                        gst = bst
                        if gift:
                            last = polys[seq[-1]]
                            gcolls = _with_coll(
                                _with_coll(bst.colls, p, last, -1), partner, last, 1
                            )
                            gst = _State(bst.present, gcolls, bst.tokens, bst.powers, bst.piles)
                        for sets, coll, toks, piles in hand_in_options(
                            gst.colls[p], gst.tokens[p], gst.piles
                        ):
                            colls2 = _replace(gst.colls, p, coll)
                            tokens2 = _replace(gst.tokens, p, toks)
                            if not gift:
                                yield (
                                    Turn(power, take_ids, bonus, False, sets),
                                    _State(gst.present, colls2, tokens2, gst.powers, piles),
                                )
                                continue
                            for psets, pcoll, ptoks, ppiles in hand_in_options(
                                colls2[partner], tokens2[partner], piles
                            ):
                                yield (
                                    Turn(power, take_ids, bonus, True, sets, psets),
                                    _State(
                                        gst.present,
                                        _replace(colls2, partner, pcoll),
                                        _replace(tokens2, partner, ptoks),
                                        gst.powers,
                                        ppiles,
                                    ),
                                )

    def _finish(self, st: _State) -> CollexionPosition:
        """The position after the turn that left ``st``."""
        ids, _, masks = self._index()
        present = st.present
        gone = ((1 << len(ids)) - 1) & ~present
        pieces: list[Piece] = []
        left = {ids[j] for j in range(len(ids)) if gone >> j & 1}
        for i, piece in enumerate(self.box):
            if not present >> i & 1:
                continue
            if masks[i] & gone:  # a piece that lay on this one has left the box
                piece = (piece[0], piece[1], tuple(o for o in piece[2] if o not in left))
            pieces.append(piece)
        box = tuple(pieces)
        trigger = not box or not any(st.piles)
        final = self.final or trigger
        nxt = (self.to_move + 1) % self.num_players
        if final and nxt == 0:
            final = False
        return CollexionPosition(
            self.variant, box, st.colls, st.tokens, st.powers, st.piles, nxt, final
        )

    def legal_moves(self) -> tuple[Turn, ...]:
        """Every distinct whole turn, in canonical order (module docstring)."""
        cached = self._cache.get("moves")
        if cached is None:
            cached = tuple(turn for turn, _ in self._turns())
            self._cache["moves"] = cached
        return cached  # type: ignore[no-any-return]

    def successors(self) -> Children:
        """``(move, position after it)`` for every legal move (faster than ``play``), in
        canonical order, made as they are read (a search that cuts off after the first
        children makes no others).

        >>> pos = GAME.parse_position("base - g3.y3:2.3:-/-:4:- -/34/234/234 1")
        >>> [(str(move), child.fen()) for move, child in pos.successors()] == [
        ...     (str(move), pos.play(move).fen()) for move in pos.legal_moves()]
        True
        """
        return Children(self)

    # -- play: follow the turn's choices, checking each --------------------

    def play(self, move: Turn | str) -> CollexionPosition:
        """The position after ``move``; IllegalMoveError names the broken rule."""
        turn = parse_turn(move) if isinstance(move, str) else move
        return self._finish(self._apply(turn))

    def _illegal(self, turn: Turn, why: str) -> IllegalMoveError:
        return IllegalMoveError(f"illegal move {str(turn)!r}: {why}")

    def _apply_power(self, turn: Turn, st: _State, code: str, consume: bool) -> _State:
        p = self.to_move
        ids, polys, masks = self._index()
        letter = code[0]
        if letter == "r":
            pid = int(code[1:])
            if pid not in ids or not st.present >> ids.index(pid) & 1:
                raise self._illegal(turn, f"remove: piece {pid} is not in the box")
            i = ids.index(pid)
            if masks[i] & st.present:
                raise self._illegal(turn, f"remove: piece {pid} is not accessible")
            new = _State(st.present & ~(1 << i), st.colls, st.tokens, st.powers, st.piles)
        else:
            if letter == "s":
                q, mine, theirs = int(code[1]) - 1, -1, polygon_code(code[2:4])
            else:
                mine, q, theirs = polygon_code(code[1:3]), int(code[4]) - 1, polygon_code(code[5:7])
            if q not in self.opponents(p):
                raise self._illegal(turn, f"player {q + 1} is not an opponent")
            if not st.colls[q][theirs]:
                raise self._illegal(turn, f"player {q + 1} has no {polygon_name(theirs)}")
            if mine >= 0 and not st.colls[p][mine]:
                raise self._illegal(turn, f"player {p + 1} has no {polygon_name(mine)}")
            colls = _with_coll(_with_coll(st.colls, q, theirs, -1), p, theirs, 1)
            if mine >= 0:
                colls = _with_coll(_with_coll(colls, p, mine, -1), q, mine, 1)
            new = _State(st.present, colls, st.tokens, st.powers, st.piles)
        if consume:
            new = _State(
                new.present,
                new.colls,
                new.tokens,
                _replace(new.powers, p, new.powers[p].replace(letter, "")),
                new.piles,
            )
        return new

    def _apply_sets(self, turn: Turn, st: _State, player: int, sets: tuple[str, ...]) -> _State:
        coll, toks, piles = st.colls[player], st.tokens[player], st.piles
        for name in sets:
            options = {n: (kind, pile) for n, kind, pile in _set_choices(coll, piles)}
            if name not in options:
                if name[0] in COLOURS or not any(o[0] == name[0] for o in options):
                    raise self._illegal(turn, f"player {player + 1} has no complete set {name[0]}")
                raise self._illegal(
                    turn, f"a shape set takes from the smallest non-empty pile, not {name[1]}"
                )
            kind, pile = options[name]
            coll = _remove_set(coll, kind)
            toks, piles = _take_token(toks, piles, pile)
        if complete_sets(coll):
            raise self._illegal(
                turn, f"player {player + 1} must hand in every complete set (sets are mandatory)"
            )
        return _State(
            st.present,
            _replace(st.colls, player, coll),
            _replace(st.tokens, player, toks),
            st.powers,
            piles,
        )

    def _apply(self, turn: Turn) -> _State:
        if self.ended():
            raise self._illegal(turn, "the game is over")
        p = self.to_move
        ids, polys, masks = self._index()
        st = self._start_state()
        if turn.power:
            if self.variant != "powers":
                raise self._illegal(
                    turn, f"power tokens are only used in variant powers, not {self.variant}"
                )
            if turn.power[0] not in self.powers[p]:
                raise self._illegal(turn, f"player {p + 1} has no {turn.power[0]} power left")
            st = self._apply_power(turn, st, turn.power, consume=True)
        if not turn.take and not self.final:
            raise self._illegal(turn, "pass is only allowed in the final round")
        if not turn.take and turn.power and not PASS_AFTER_POWER:
            raise self._illegal(turn, "a power must be followed by taking")
        last = -1
        colls = st.colls
        present = st.present
        for k, pid in enumerate(turn.take):
            if pid in turn.take[:k]:
                raise self._illegal(turn, f"piece {pid} is taken twice")
            if pid not in ids or not present >> ids.index(pid) & 1:
                raise self._illegal(turn, f"piece {pid} is not in the box")
            i = ids.index(pid)
            if masks[i] & present:
                raise self._illegal(turn, f"piece {pid} is not accessible")
            if last >= 0 and not _SHARE[last][polys[i]]:
                raise self._illegal(
                    turn,
                    f"{polygon_name(polys[i])} shares neither colour nor shape "
                    f"with {polygon_name(last)}",
                )
            present &= ~(1 << i)
            colls = _with_coll(colls, p, polys[i], 1)
            last = polys[i]
        st = _State(present, colls, st.tokens, st.powers, st.piles)
        if turn.bonus:
            taken = [polys[ids.index(pid)] for pid in turn.take]
            if self.variant != "expert":
                raise self._illegal(turn, "a free power after taking is the expert variant's")
            if not _has_pair(taken):
                raise self._illegal(turn, "a free power needs two identical polygons taken")
            st = self._apply_power(turn, st, turn.bonus, consume=False)
        elif (
            not EXPERT_POWER_OPTIONAL
            and self.variant == "expert"
            and _has_pair([polys[ids.index(pid)] for pid in turn.take])
            and self._power_options(st, POWER_LETTERS, consume=False)
        ):
            raise self._illegal(turn, "two identical polygons taken: a free power must be used")
        partner = (p + 2) % 4
        if turn.gift:
            if self.variant != "teams":
                raise self._illegal(turn, "gifts are the teams variant's")
            if not turn.take:
                raise self._illegal(turn, "a gift needs a polygon taken this turn")
            colls = _with_coll(_with_coll(st.colls, p, last, -1), partner, last, 1)
            st = _State(st.present, colls, st.tokens, st.powers, st.piles)
        elif turn.partner_sets:
            raise self._illegal(turn, "partner sets need a gift")
        st = self._apply_sets(turn, st, p, turn.sets)
        if turn.gift:
            st = self._apply_sets(turn, st, partner, turn.partner_sets)
        return st

    # -- status and drawing ---------------------------------------------------

    def status(self) -> list[str]:
        """Problems of a position that parses but cannot occur ([] if plausible)."""
        problems: list[str] = []
        n = self.num_players
        if n not in PLAYER_COUNTS[self.variant]:
            allowed = "/".join(str(k) for k in PLAYER_COUNTS[self.variant])
            problems.append(f"variant {self.variant} is played by {allowed} players, not {n}")
        counts = [0] * NUM_POLYGONS
        for _, poly, _ in self.box:
            counts[poly] += 1
        for coll in self.collections:
            for t in range(NUM_POLYGONS):
                counts[t] += coll[t]
        for t in range(NUM_POLYGONS):
            if counts[t] > COPIES:
                problems.append(f"{counts[t]} copies of {polygon_name(t)}, the box has {COPIES}")
        taken: list[int] = []
        for c, pile in enumerate(self.piles):
            if pile != START_PILE[len(START_PILE) - len(pile) :]:
                problems.append(f"pile {COLOURS[c]} is not a top part of 234: {_pile_text(pile)}")
            else:
                taken += START_PILE[: len(START_PILE) - len(pile)]
        held = sorted(v for toks in self.tokens for v in toks)
        if held != sorted(taken):
            problems.append(
                "token values held do not match the tokens missing from the piles: "
                f"{'.'.join(map(str, held)) or '-'} vs {'.'.join(map(str, sorted(taken))) or '-'}"
            )
        if self.variant != "powers" and any(self.powers):
            problems.append(f"power tokens in variant {self.variant}")
        if _has_cycle(self.box):
            problems.append("the lies-on relation has a cycle")
        if self.variant in ("base", "teams"):
            for p, coll in enumerate(self.collections):
                if complete_sets(coll):
                    problems.append(f"player {p + 1}'s collection holds a complete set")
        if self.final and self.to_move == 0:
            problems.append("final round marked but player 1 is to move")
        if self.final and not self.trigger():
            problems.append("final round marked but the box has pieces and tokens are left")
        if not self.final and self.to_move != 0 and self.trigger():
            problems.append("the end was reached but the final round is not marked")
        return problems

    def layers(self) -> list[list[Piece]]:
        """The box by depth: layer 0 is accessible, layer k lies under layer k-1."""
        depth: dict[int, int] = {}
        by_id = {pid: piece for piece in self.box for pid in (piece[0],)}

        def depth_of(pid: int, seen: frozenset[int]) -> int:
            if pid not in depth:
                over = [o for o in by_id[pid][2] if o not in seen]
                depth[pid] = 1 + max((depth_of(o, seen | {pid}) for o in over), default=-1)
            return depth[pid]

        for pid in by_id:
            depth_of(pid, frozenset())
        out: list[list[Piece]] = [[] for _ in range(1 + max(depth.values(), default=-1))]
        for piece in self.box:
            out[depth[piece[0]]].append(piece)
        return out

    def board_text(self) -> str:
        """The heap drawn as layers (``*`` marks an accessible piece), players and piles."""
        lines = [
            f"ColleXion ({self.variant}), {self.num_players} players; "
            f"box: {len(self.box)} pieces, {len(self.accessible())} accessible (*)"
        ]
        for depth, layer in enumerate(self.layers()):
            cells = []
            for pid, poly, over in layer:
                mark = "*" if not over else " "
                under = "<" + ".".join(map(str, over)) if over else ""
                cells.append(f"{mark}{pid}:{polygon_name(poly)}{under}")
            if not cells:
                continue
            lines.append(f"layer {depth}:")
            width = max(len(c) for c in cells)
            per_row = max(1, 96 // (width + 2))
            for k in range(0, len(cells), per_row):
                row = cells[k : k + per_row]
                lines.append("  " + "  ".join(f"{c:<{width}}" for c in row).rstrip())
        own = self.player_scores()
        for p in range(self.num_players):
            coll = _coll_text(self.collections[p])
            toks = ".".join(map(str, self.tokens[p])) or "-"
            mark = ">" if p == self.to_move and not self.ended() else " "
            lines.append(
                f"{mark}player {p + 1}: collection {coll}  tokens {toks}  "
                f"powers {self.powers[p] or '-'}  score {own[p]}"
            )
        lines.append(
            "piles: "
            + "  ".join(f"{COLOURS[c]} {_pile_text(self.piles[c])}" for c in range(4))
            + ("  (final round)" if self.final else "")
        )
        return "\n".join(lines)


def _has_pair(polys: list[int]) -> bool:
    return len(set(polys)) < len(polys)


def _has_cycle(box: tuple[Piece, ...]) -> bool:
    over = {pid: o for pid, _, o in box}
    colour: dict[int, int] = {}
    for root in over:
        if root in colour:
            continue
        stack = [(root, iter(over[root]))]
        colour[root] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                colour[node] = 2
                stack.pop()
            elif colour.get(nxt) == 1:
                return True
            elif nxt not in colour:
                colour[nxt] = 1
                stack.append((nxt, iter(over[nxt])))
    return False


# ---------------------------------------------------------------------------
# Notation
# ---------------------------------------------------------------------------


def _pile_text(pile: tuple[int, ...]) -> str:
    return "".join(map(str, pile)) or "-"


def _coll_text(coll: tuple[int, ...]) -> str:
    return ".".join(polygon_name(t) for t in range(NUM_POLYGONS) for _ in range(coll[t])) or "-"


def format_position(pos: CollexionPosition) -> str:
    """The canonical notation of ``pos``."""
    box = (
        ",".join(
            f"{pid}:{polygon_name(poly)}" + ("<" + ".".join(map(str, over)) if over else "")
            for pid, poly, over in pos.box
        )
        or "-"
    )
    players = "/".join(
        f"{_coll_text(c)}:{'.'.join(map(str, t)) or '-'}:{w or '-'}"
        for c, t, w in zip(pos.collections, pos.tokens, pos.powers, strict=True)
    )
    piles = "/".join(_pile_text(p) for p in pos.piles)
    turn = f"{pos.to_move + 1}{'!' if pos.final else ''}"
    return f"{pos.variant} {box} {players} {piles} {turn}"


_PIECE_RE = re.compile(rf"^({_ID}):({_POLY})(?:<({_ID}(?:\.{_ID})*))?$")
_TOKENS_RE = re.compile(r"^[234](?:\.[234])*$")
_PILE_RE = re.compile(r"^[234]{1,3}$")


def parse_position(text: str) -> CollexionPosition:
    """Parse ``<variant> <box> <players> <piles> <turn>`` (syntax only; see ``status``).

    >>> parse_position("base 2:p8,1:g3<2 g3.y3:2.3:-/-:-:- 34/234/234/234 2!").fen()
    'base 1:g3<2,2:p8 g3.y3:2.3:-/-:-:- 34/234/234/234 2!'
    >>> parse_position("base 1:g3<7 -:-:-/-:-:- 234/234/234/234 1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    boardproof.models.base.InvalidNotationError: invalid box: piece 1 lies under 7, ...: '1:g3<7'
    """
    fields = require_text(text).split()
    if len(fields) != 5:
        raise InvalidNotationError(
            f"invalid position: expected 5 fields (variant box players piles turn), "
            f"got {len(fields)}: {text!r}"
        )
    variant, box_text, players_text, piles_text, turn_text = fields
    if variant not in VARIANTS:
        raise InvalidNotationError(
            f"invalid variant: expected one of {', '.join(VARIANTS)}, got {variant!r}"
        )
    box = _parse_box(box_text)
    entries = players_text.split("/")
    if not 2 <= len(entries) <= 4:
        raise InvalidNotationError(
            f"invalid players: expected 2 to 4 entries separated by /, got {players_text!r}"
        )
    colls, tokens, powers = [], [], []
    for entry in entries:
        parts = entry.split(":")
        if len(parts) != 3:
            raise InvalidNotationError(
                f"invalid player: expected collection:tokens:powers, got {entry!r}"
            )
        coll = [0] * NUM_POLYGONS
        if parts[0] != "-":
            for name in parts[0].split("."):
                try:
                    coll[polygon_code(name)] += 1
                except ValueError:
                    raise InvalidNotationError(
                        "invalid collection: expected polygons like g3 joined by '.', "
                        f"got {parts[0]!r}"
                    ) from None
        colls.append(tuple(coll))
        if parts[1] != "-" and not _TOKENS_RE.match(parts[1]):
            raise InvalidNotationError(
                f"invalid tokens: expected values 2, 3, 4 joined by '.' or -, got {parts[1]!r}"
            )
        tokens.append(tuple(sorted(int(v) for v in parts[1].split("."))) if parts[1] != "-" else ())
        letters = "" if parts[2] == "-" else parts[2]
        if (
            not set(letters) <= set(POWER_LETTERS)
            or len(set(letters)) != len(letters)
            or not (letters or parts[2] == "-")
        ):
            raise InvalidNotationError(
                f"invalid powers: expected distinct letters among r, s, x or -, got {parts[2]!r}"
            )
        powers.append("".join(c for c in POWER_LETTERS if c in letters))
    piles_f = piles_text.split("/")
    if len(piles_f) != 4 or any(p != "-" and not _PILE_RE.match(p) for p in piles_f):
        raise InvalidNotationError(
            f"invalid piles: expected 4 piles g/y/b/p of token values or -, got {piles_text!r}"
        )
    piles = tuple(() if p == "-" else tuple(int(v) for v in p) for p in piles_f)
    match = re.match(r"^([1-9])(!?)$", turn_text)
    if match is None or int(match[1]) > len(entries):
        raise InvalidNotationError(
            f"invalid turn: expected a player 1 to {len(entries)}, optionally followed by !, "
            f"got {turn_text!r}"
        )
    return CollexionPosition(
        variant,
        box,
        tuple(colls),
        tuple(tokens),
        tuple(powers),
        piles,
        int(match[1]) - 1,
        bool(match[2]),
    )


def _parse_box(text: str) -> tuple[Piece, ...]:
    if text == "-":
        return ()
    pieces: dict[int, Piece] = {}
    for entry in text.split(","):
        match = _PIECE_RE.match(entry)
        if match is None:
            raise InvalidNotationError(
                f"invalid box: expected id:polygon[<ids] like 7:g3<12.15, got {entry!r}"
            )
        pid = int(match[1])
        if pid in pieces:
            raise InvalidNotationError(f"invalid box: piece {pid} is listed twice: {entry!r}")
        over = tuple(int(o) for o in match[3].split(".")) if match[3] else ()
        if len(set(over)) != len(over):
            raise InvalidNotationError(f"invalid box: an id is repeated after <: {entry!r}")
        if pid in over:
            raise InvalidNotationError(f"invalid box: piece {pid} lies on itself: {entry!r}")
        pieces[pid] = (pid, polygon_code(match[2]), tuple(sorted(over)))
    for pid, _, over in pieces.values():
        for o in over:
            if o not in pieces:
                entry = next(e for e in text.split(",") if e.startswith(f"{pid}:"))
                raise InvalidNotationError(
                    f"invalid box: piece {pid} lies under {o}, which is not in the box: {entry!r}"
                )
    return tuple(pieces[pid] for pid in sorted(pieces))


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------


#: the options of ``start()`` (ColleXion has no game options; variants are per position)
OPTIONS = (
    OptionInfo("variant", str, "base, powers, expert or teams", default=DEFAULT_VARIANT,
               choices=VARIANTS),
    OptionInfo("players", int, "number of players (2-4; the variant decides)",
               bounds=(2, 4)),
    OptionInfo("seed", int, "the heap's seed", default=DEFAULT_SEED),
    OptionInfo("count", int, "polygons dropped into the box", default=80, cli=False),
    OptionInfo("version", int, "the heap simulation's version", default=HEAP_VERSION,
               cli=False),
)  # fmt: skip


class CollexionGame(SymbolsMixin):
    """ColleXion: take polygons from a heap in the box, hand in colour and shape sets."""

    name = "collexion"
    #: no board symmetry: pieces have ids and the piles/colours are named, so
    #: permuting colours is not a symmetry of the notation (it would also permute
    #: the piles' identity, which the rules name).
    symmetry_count = 1
    symbols = ("1", "2", "3", "4")

    def start(self, **options: Any) -> CollexionPosition:
        """A new game: the seeded heap, empty collections, full piles.

        Defaults: variant ``base``, seed 0, players 2 (4 for ``powers`` and ``teams``).

        >>> start = GAME.start(seed=0)
        >>> len(start.box), start.num_players, start.variant, len(start.accessible())
        (80, 2, 'base', 17)
        """
        given = check_options(self.name, OPTIONS, options)
        variant, seed = given["variant"], given["seed"]
        count, version = given["count"], given["version"]
        players = DEFAULT_PLAYERS[variant] if given["players"] is None else given["players"]
        if players not in PLAYER_COUNTS[variant]:
            allowed = ", ".join(str(k) for k in PLAYER_COUNTS[variant])
            raise InvalidOptionError(
                f"invalid option players: variant {variant} is played by {allowed}, "
                f"got {players!r}"
            )
        try:
            heap = drop(seed, version=version, count=count)
        except ValueError as error:
            raise InvalidOptionError(str(error)) from None
        box = tuple((piece.id, piece.polygon, piece.over) for piece in heap)
        return CollexionPosition(
            variant,
            box,
            (_EMPTY_COLL,) * players,
            ((),) * players,
            (POWER_LETTERS if variant == "powers" else "",) * players,
            (START_PILE,) * 4,
            0,
            False,
        )

    def parse_position(self, text: str) -> CollexionPosition:
        return parse_position(text)


GAME = CollexionGame()


class Children(Sequence[tuple[Turn, CollexionPosition]]):
    """The children of a position (:meth:`CollexionPosition.successors`), made when first
    read: iterating stops making them where the reader stops; indexing or ``len`` makes
    them all. Each is made once and kept."""

    def __init__(self, pos: CollexionPosition) -> None:
        self._pos = pos
        self._source: Iterator[tuple[Turn, _State]] | None = pos._turns()
        self._made: list[tuple[Turn, CollexionPosition]] = []

    def _next(self) -> bool:
        """Make one more child; False when there is none left."""
        if self._source is None:
            return False
        for turn, state in self._source:
            self._made.append((turn, self._pos._finish(state)))
            return True
        self._source = None
        return False

    def __iter__(self) -> Iterator[tuple[Turn, CollexionPosition]]:
        index = 0
        while index < len(self._made) or self._next():
            yield self._made[index]
            index += 1

    def __len__(self) -> int:
        while self._next():
            pass
        return len(self._made)

    @overload
    def __getitem__(self, index: int) -> tuple[Turn, CollexionPosition]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[Turn, CollexionPosition]]: ...

    def __getitem__(self, index: int | slice) -> Any:
        len(self)
        return self._made[index]
