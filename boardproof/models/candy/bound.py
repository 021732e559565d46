"""How many own placements a Candy Conquest player needs to complete a line.

Two questions, two answers:

- :func:`unopposed_placements` — the exact fewest placements with which ``player``
  completes a line **if nobody else moves** (an iterative-deepening search over the
  player's own placements, guided by the admissible estimate below).
- :func:`placements_lower_bound` — a bound that stays sound **whatever the others do**:
  other players can help (they raise columns, change the top shapes) but never add a
  candy of this player's colour nor uncover a shape. Per line it counts the cells that
  still need a candy of the player's colour (an occupied cell of another colour, or a
  hidden one, rules the line out); a column needs ``3 - r`` more candies where ``r`` is
  the run of the player's colour at the top of its visible-shape list, at least 1 (``m``
  new candies add at most ``m + 1`` shapes, nothing of another colour may come between
  them, and covering a small top hides its shape).

:func:`can_win_within` / :func:`prune` turn the bound into a sound cut for a search:
the player cannot complete a line in the next ``plies`` plies when it needs more
placements than it has turns (or candies). Passes only happen when somebody cannot
place, which needs a full board or an empty reserve; if neither can happen within the
window the turn order is strict, otherwise every ply is counted as a possible turn.

>>> from boardproof.models.candy import GAME
>>> start = GAME.start()
>>> placements_lower_bound(start, 0), unopposed_placements(start, 0)
(3, 4)
>>> can_win_within(start, 0, 4), can_win_within(start, 0, 5)
(False, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from boardproof.models.candy.rules import (
    COPIES_PER_KIND,
    KIND_OF,
    SEGMENTS,
    SQUARE_COUNT,
    STAIRCASE_STEPS,
    TOP_LARGE,
    CandyPosition,
    _counts_for,
    _placements,
    _reserve_mask,
    _trailing_run,
    line_colours,
    wins_at,
)

#: "no line can be completed" (larger than any number of placements)
NEVER = 1 << 20


def _line_cost(
    cols: Sequence[Sequence[int]], colour: int, unopposed: bool, enough: int = 0
) -> int:
    """Fewest candies of ``colour`` still needed for some line (a lower bound).

    Stops early (with some value <= ``enough``) once a line that cheap is found.
    """
    best = NEVER
    # columns: m new candies appended to a run of r shapes make a run of at most
    # max(r, 1) + m: a large-down candy covers a small top (losing its shape) and shows
    # two shapes while on top; on a large top every new candy shows one shape; an empty
    # column's first candy shows at most one. Alone, a run of 0 on a large top or an
    # empty column gives only m; with helpers, another player may first leave a small top.
    for col in cols:
        run = _trailing_run(col, colour)
        small_top = bool(col) and not TOP_LARGE[col[-1] % 12]
        reach = max(run, 1) if (small_top or not unopposed) else run
        best = min(best, max(1, 4 - reach))
    heights = [len(c) for c in cols]
    highest = max(heights)
    # ok[sq][f]: the candy on floor f of sq is this colour's and shows a shape
    ok = [[_counts_for(cols, sq, f, colour) for f in range(heights[sq])] for sq in range(25)]
    if not unopposed:
        best = min(best, 4)  # a line high above every column: 4 candies, others help
    for seg in SEGMENTS:
        for step in (0, *STAIRCASE_STEPS):
            for base in range(highest + 4):
                cost = 0
                for i in range(4):
                    sq = seg[i]
                    floor = base + step * i
                    h = heights[sq]
                    if floor < 0:
                        cost = NEVER
                        break
                    if floor < h:
                        if not ok[sq][floor]:
                            cost = NEVER
                            break
                    elif unopposed:
                        cost += floor - h + 1  # only this player fills the floors below
                    else:
                        cost += 1  # others may fill the floors below
                    if cost >= best:
                        break
                if cost < best:
                    best = cost
                    if best <= enough:
                        return best
    return best


def placements_lower_bound(position: CandyPosition, player: int) -> int:
    """Placements ``player`` needs at least to complete a line, whatever the others do.

    0 if the player already has a line; :data:`NEVER` if its reserve is too small.
    """
    if player in line_colours(position.cols, position.players):
        return 0
    cost = _line_cost(position.cols, player, unopposed=False)
    return cost if cost <= sum(position.reserve(player)) else NEVER


def unopposed_placements(
    position: CandyPosition, player: int, limit: int = 4
) -> int | None:
    """The fewest placements with which ``player`` completes a line if nobody else moves.

    None when more than ``limit`` are needed (or no line can be made). Placements follow
    the rules (socket sizes, nesting, the player's reserve); the first placement that
    completes a line ends the count.
    """
    if player in line_colours(position.cols, position.players):
        return 0
    cols = [list(c) for c in position.cols]
    counts = list(position._counts[player])
    failed: dict[tuple[tuple[int, ...], ...], int] = {}

    def estimate() -> int:
        cost = _line_cost(cols, player, unopposed=True)
        left = 6 * COPIES_PER_KIND - sum(counts)
        return cost if cost <= left else NEVER

    def search(budget: int) -> bool:
        key = tuple(tuple(c) for c in cols)
        if failed.get(key, 0) >= budget:
            return False
        for sq, code in _placements(cols, _reserve_mask(counts)):
            cols[sq].append(12 * player + code)
            counts[KIND_OF[code]] += 1
            found = wins_at(cols, sq, player) or (
                budget > 1 and estimate() <= budget - 1 and search(budget - 1)
            )
            counts[KIND_OF[code]] -= 1
            cols[sq].pop()
            if found:
                return True
        failed[key] = budget
        return False

    first = estimate()
    for budget in range(max(1, first), limit + 1):
        if search(budget):
            return budget
    return None


def own_turns_within(position: CandyPosition, player: int, plies: int) -> int:
    """At most how many placements ``player`` makes in the next ``plies`` plies."""
    k = position.players
    empty = sum(1 for sq in range(SQUARE_COUNT) if not position.cols[sq])
    reserves = [sum(position.reserve(p)) for p in range(k)]
    strict_turns = sum(1 for i in range(plies) if (position.to_move + i) % k == player)
    # a pass needs a full board or an empty reserve; fewer than `plies` placements can
    # neither fill `empty` squares nor empty a reserve of at least `plies` candies
    no_pass = empty >= plies and all(reserves[p] >= plies for p in range(k) if p != player)
    turns = strict_turns if no_pass else plies
    return min(turns, reserves[player])


def can_win_within(position: CandyPosition, player: int, plies: int) -> bool:
    """False only when ``player`` certainly cannot complete a line in the next ``plies`` plies
    (whatever anybody plays); True when it might."""
    outcome = position.outcome()
    if outcome is not None:
        return player in outcome.winners
    turns = own_turns_within(position, player, plies)
    if turns >= 4:
        return True  # the bound never exceeds 4 while candies last
    if turns <= 0:
        return False
    return _line_cost(position.cols, player, unopposed=False, enough=turns) <= turns


def can_end_within(position: CandyPosition, plies: int) -> bool:
    """False only when the game certainly goes on for the next ``plies`` plies."""
    if position.outcome() is not None:
        return True
    if any(can_win_within(position, p, plies) for p in range(position.players)):
        return True
    # an end without a winner needs a full board or every reserve empty
    empty = sum(1 for sq in range(SQUARE_COUNT) if not position.cols[sq])
    left = sum(sum(position.reserve(p)) for p in range(position.players))
    return not (empty > plies and left > plies)


def prune(position: CandyPosition, plies_left: int, attacker: int | None = None) -> bool:
    """The pruning hook of a win-in-N search: True when the node can be cut (sound).

    With ``attacker``: True when ``attacker`` cannot complete a line within
    ``plies_left`` plies, whatever every player does (helpers included). Without: True
    when the game cannot end at all within ``plies_left`` plies. (Same contract as the
    Carpniches bound of the CP-SAT solver, ``solvers.cp.carpniches.prune``.)
    """
    if attacker is None:
        return not can_end_within(position, plies_left)
    return not can_win_within(position, attacker, plies_left)
