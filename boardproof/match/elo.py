"""A match's score and Elo difference, each with a 95 % interval.

The score is the share of the points a player took: a win is 1, a draw 1/2, a loss 0.
Its interval is the **Wilson score interval** (z = 1.96) of that share over the games
played, draws counted as half a win (an approximation: a draw is treated as half a
Bernoulli success; with no draws it is the exact Wilson interval). The Elo difference is
the logistic model's ``-400 log10(1 / score - 1)``, and its interval is the score
interval mapped through the same formula (the formula is increasing, so the ends map to
the ends). A score of 0 or 1 has an infinite Elo difference (``-inf``, ``+inf``).

>>> standing = Standing(wins=12, draws=6, losses=2)
>>> standing.games, standing.score
(20, 0.75)
>>> [round(x, 4) for x in standing.score_interval]
[0.5313, 0.8881]
>>> round(standing.elo, 1), [round(x, 1) for x in standing.elo_interval]
(190.8, [21.8, 359.9])
>>> elo_text(elo_difference(1.0)), elo_text(-190.85)
('+inf', '-191')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

#: the normal quantile of a two-sided 95 % interval
Z95 = 1.959963984540054


def elo_difference(score: float) -> float:
    """The Elo difference that gives the expected ``score`` (0 to 1) in the logistic model.

    >>> elo_difference(0.5), round(elo_difference(0.75), 2), round(elo_difference(0.25), 2)
    (0.0, 190.85, -190.85)
    >>> elo_difference(0.0), elo_difference(1.0)
    (-inf, inf)
    """
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"expected a score from 0 to 1, got {score!r}")
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: 0.0, never -0.0


def wilson_interval(score: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share ``score`` observed over ``games`` trials.

    >>> [round(x, 4) for x in wilson_interval(0.5, 10)]
    [0.2366, 0.7634]
    >>> [round(x, 4) for x in wilson_interval(1.0, 4)]
    [0.5101, 1.0]
    >>> wilson_interval(0.0, 0)
    (0.0, 1.0)
    """
    if games <= 0:
        return 0.0, 1.0
    z2 = z * z
    denominator = 1.0 + z2 / games
    centre = (score + z2 / (2 * games)) / denominator
    half = z / denominator * math.sqrt(score * (1.0 - score) / games + z2 / (4 * games * games))
    return max(centre - half, 0.0), min(centre + half, 1.0)


def elo_text(elo: float) -> str:
    """An Elo difference as the table prints it: signed, rounded, ``+inf``/``-inf``."""
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    return f"{round(elo):+d}"


def _number(value: float, digits: int) -> float | None:
    """A JSON number (None for an infinite Elo difference: JSON has no infinity)."""
    return None if math.isinf(value) else round(value, digits)


@dataclass(frozen=True)
class Standing:
    """Wins, draws and losses of one player (or one side) over some games."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    @property
    def score(self) -> float:
        """The share of the points (0.5 when no game was played)."""
        return self.points / self.games if self.games else 0.5

    @property
    def score_interval(self) -> tuple[float, float]:
        return wilson_interval(self.score, self.games)

    @property
    def elo(self) -> float:
        return elo_difference(self.score)

    @property
    def elo_interval(self) -> tuple[float, float]:
        low, high = self.score_interval
        return elo_difference(low), elo_difference(high)

    def add(self, points: float) -> Standing:
        """This standing after one more game worth ``points`` (1, 1/2 or 0)."""
        if points == 1.0:
            return Standing(self.wins + 1, self.draws, self.losses)
        if points == 0.5:
            return Standing(self.wins, self.draws + 1, self.losses)
        if points == 0.0:
            return Standing(self.wins, self.draws, self.losses + 1)
        raise ValueError(f"expected 1, 0.5 or 0 points, got {points!r}")

    def to_json(self) -> dict[str, Any]:
        """The JSON form: counts, score and Elo, each with its interval (an infinite Elo
        difference is null)."""
        score_low, score_high = self.score_interval
        elo_low, elo_high = self.elo_interval
        return {
            "games": self.games, "wins": self.wins, "draws": self.draws,
            "losses": self.losses, "score": round(self.score, 4),
            "score_interval": [round(score_low, 4), round(score_high, 4)],
            "elo": _number(self.elo, 1),
            "elo_interval": [_number(elo_low, 1), _number(elo_high, 1)],
        }  # fmt: skip
