"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013): the reference of the puzzle
site's rating in the browser (``reports/assets/site.js`` computes the same, step for step).

A rating period is the list of games ``(opponent rating, opponent RD, score)`` played
against opponents whose ratings stay fixed (score 1 a win, 0 a loss, 0.5 a draw). On the
puzzle site each first attempt at a puzzle is one period of one game against the puzzle
(its rating, RD :data:`PUZZLE_RD`): solved without a wrong move is a win, else a loss.

Glickman's worked example (rating 1500, RD 200, volatility 0.06, tau 0.5, against
1400/30 won, 1550/100 lost, 1700/300 lost):

>>> r, rd, vol = update(1500, 200, 0.06, [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)])
>>> f"{r:.4f} {rd:.4f} {vol:.6f}"
'1464.0507 151.5165 0.059996'

The paper prints 1464.06, 151.52 and 0.05999: it rounds its intermediate values (mu' =
-0.2069 times 173.7178); unrounded, the same steps give the values above.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: the Glicko-2 scale factor (the paper's 173.7178)
SCALE = 173.7178
#: the system constant tau (the paper's example uses 0.5)
TAU = 0.5
#: the convergence tolerance of the volatility iteration
EPSILON = 0.000001
#: a new solver: rating, RD, volatility
START = (1500.0, 350.0, 0.06)
#: the RD given to a puzzle's rating (puzzles are rated by search, not by players)
PUZZLE_RD = 80.0
#: the RD never grows past a new player's
MAX_RD = 350.0

Game = tuple[float, float, float]


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5 of the paper: the new volatility (the Illinois algorithm)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2)
                - (x - a) / (tau * tau))  # fmt: skip

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(
    rating: float, rd: float, volatility: float, games: Sequence[Game], tau: float = TAU
) -> tuple[float, float, float]:
    """The rating, RD and volatility after one rating period of ``games``.

    A period without games only widens the RD:

    >>> round(update(1500, 200, 0.06, [])[1], 2)
    200.27
    """
    mu, phi = (rating - 1500.0) / SCALE, rd / SCALE
    if not games:
        wider = math.sqrt(phi * phi + volatility * volatility) * SCALE
        return rating, min(wider, MAX_RD), volatility
    terms = []
    for r_j, rd_j, score in games:
        mu_j, phi_j = (r_j - 1500.0) / SCALE, rd_j / SCALE
        terms.append((_g(phi_j), _e(mu, mu_j, phi_j), score))
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _s in terms)
    total = sum(g * (s - e) for g, e, s in terms)
    delta = v * total
    sigma = _volatility(delta, phi, v, volatility, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * total
    return mu_new * SCALE + 1500.0, min(phi_new * SCALE, MAX_RD), sigma


def attempt(
    player: tuple[float, float, float], puzzle_rating: float, solved: bool
) -> tuple[float, float, float]:
    """The solver's (rating, RD, volatility) after one first attempt at a puzzle.

    >>> r, rd, vol = attempt(START, 1500, True)
    >>> r > 1500 and rd < 350
    True
    """
    return update(*player, [(puzzle_rating, PUZZLE_RD, 1.0 if solved else 0.0)])
