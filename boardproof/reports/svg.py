"""SVG pictures of positions: each game's drawing hook, found through its descriptor.

The document builder is :class:`boardproof.models.drawing.SvgDocument`; every game
declares its picture as ``GameInfo.draw`` (``boardproof.models.<game>.drawing``).

>>> from boardproof import models
>>> render(models.get("minefield").start(size=3)).startswith("<svg")
True
"""

from __future__ import annotations

from boardproof.models.base import Position
from boardproof.models.drawing import SvgDocument, _fmt

__all__ = ["SvgDocument", "_fmt", "render"]


def render(position: Position) -> str:
    """The SVG picture of ``position``, drawn by its game's drawing hook."""
    return position.game.info.draw(position)
