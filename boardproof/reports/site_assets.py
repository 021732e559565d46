"""The puzzle site's script and style sheet: ``assets/site.js`` and ``assets/site.css``.

The script runs on two kinds of page:

- a puzzle page (it holds ``<script type="application/json" id="puzzle-data">``,
  written by :func:`boardproof.reports.play.puzzle_frames`): clicks on the board's
  targets or the choice buttons, or a move typed in notation, form a move; the move
  is looked up in the step's legal moves (the data, not a rules engine); a right
  move shows the next picture and plays the defence, a wrong one says so and can be
  taken back; the end of the line says "solved" and records the date in
  ``localStorage`` (key ``boardproof-progress``);
- the index (``id="archive"``): the archive filters (game, theme, difficulty,
  unsolved) and the progress (solved puzzles, streak of days in a row).

All text goes in through ``textContent``; nothing is parsed as HTML.

>>> "textContent" in SCRIPT and ".hit" in STYLE
True
"""

from __future__ import annotations

from importlib import resources


def asset(name: str) -> str:
    """The text of ``boardproof/reports/assets/<name>``."""
    return (resources.files("boardproof.reports") / "assets" / name).read_text(encoding="utf-8")


SCRIPT = asset("site.js")
STYLE = asset("site.css")
