"""The analysis board's script, ``static/board.js`` (package data).

>>> "/api/solve" in BOARD_SCRIPT
True
"""

from __future__ import annotations

from importlib import resources

BOARD_SCRIPT = (resources.files("boardproof.web") / "static" / "board.js").read_text(
    encoding="utf-8"
)
