"""Puzzles: "a fresh, proven puzzle every day".

A puzzle is a position where the side to move has a forced win in ``N`` plies
(``N`` odd and small: 3, 5, 7) with exactly one winning first move, proved:

- :mod:`boardproof.puzzles.generate` finds puzzles from seeded random playouts
  and proves them with the solvers (value and distance with
  :func:`boardproof.solvers.api.solve`; every other first move refuted within the
  same ply bound; a proof tree from :func:`boardproof.solvers.proof.build_proof`);
- :mod:`boardproof.puzzles.rating` gives each puzzle a documented difficulty;
- :mod:`boardproof.puzzles.daily` picks the puzzle of a day, deterministically
  from the game and the date;
- :mod:`boardproof.puzzles.store` reads and writes puzzle files (JSON Lines,
  format ``boardproof-puzzle`` version 1);
- :mod:`boardproof.puzzles.check` re-verifies a puzzle without trusting the
  generator: the proof tree with the independent proof checker (rules only), and
  the uniqueness of the solution with a separate rules-only bounded search.

ColleXion is a score game (the winner is decided by points when the box is
empty), so "win in N plies" does not apply to it: its puzzles are "find the best
turn" of a solved endgame (:mod:`boardproof.models.collexion.puzzles`), checked by an
exact re-computation of every turn's value. :class:`PuzzleUnavailableError` is
for a game without puzzles (none today).
"""

from __future__ import annotations

from boardproof.models.base import BoardproofError


class PuzzleError(BoardproofError):
    """Bad puzzle input: an unusable option, date or puzzle file."""


class PuzzleUnavailableError(PuzzleError):
    """The game has no puzzles (ColleXion: a score game)."""


__all__ = ["PuzzleError", "PuzzleUnavailableError"]
