"""Glyph sets for the SAT encodings: a variant's forbidden glyphs, or a variant less one.

A *glyph set* is a tuple of glyph names (:data:`~boardproof.models.minefield.board.
ALL_GLYPH_NAMES`). The claims per variant (docs/games/minefield.md "Variants") use the
variants' sets; the minimality questions use a variant's set without one glyph.

:func:`set_glyphs` lists the instances a SAT formula forbids: every placed instance of
every glyph of the set (:func:`~boardproof.models.minefield.board.glyph_instances`, the
cartwheel's points beyond the board counted as stones of the edge's owner) that holds
at least one stone of the board. An instance with no stone on the board (the empty 2 x 2
board's cartwheel, whose 8 neighbours are all beyond the board) cannot be formed by a
placement, so the rules never forbid it, and a reachable position may hold it (the
start of the 2 x 2 game does).

>>> len(set_glyphs(3, VARIANT_SETS["standard"])) == len(set_glyphs(3, ("hard corner",
...     "2x3 switch", "2x4 switch")))
True
>>> set_label(VARIANT_SETS["pinwheel"]), set_label(without("pinwheel", "hard corner"))
('hc+s23+pw', 's23+pw')
>>> len(set_glyphs(2, ("cartwheel",)))  # the empty 2x2 board's cartwheel is left out
0
"""

from __future__ import annotations

from boardproof.models.base import InvalidOptionError
from boardproof.models.minefield.board import (
    ALL_GLYPH_NAMES,
    EMPTY_CELL,
    VARIANT_GLYPHS,
    VARIANTS,
    glyph_instances,
)

#: a glyph instance on the cell board: sorted (cell, state) pairs
Glyph = tuple[tuple[int, int], ...]

#: each variant's forbidden glyphs
VARIANT_SETS: dict[str, tuple[str, ...]] = dict(VARIANT_GLYPHS)
#: short names of the glyphs, for encoding labels and file names
SHORT = {"hard corner": "hc", "2x3 switch": "s23", "2x4 switch": "s24", "pinwheel": "pw",
         "cartwheel": "cw"}


def check_set(names: tuple[str, ...]) -> tuple[str, ...]:
    """``names`` in the canonical order (:data:`ALL_GLYPH_NAMES`), validated.

    >>> check_set(("pinwheel", "hard corner"))
    ('hard corner', 'pinwheel')
    >>> check_set(("wheel",))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    boardproof...InvalidOptionError: invalid glyph set: expected glyphs among ...
    """
    unknown = [name for name in names if name not in ALL_GLYPH_NAMES]
    if unknown or not names:
        raise InvalidOptionError(
            f"invalid glyph set: expected glyphs among {', '.join(ALL_GLYPH_NAMES)}, "
            f"got {names!r}")
    return tuple(name for name in ALL_GLYPH_NAMES if name in names)


def check_variant(variant: str) -> str:
    """``variant`` if it is one of :data:`VARIANTS`, else a one-line error."""
    if variant not in VARIANT_SETS:
        raise InvalidOptionError(
            f"invalid option variant: expected one of {', '.join(VARIANTS)}, got {variant!r}")
    return variant


def without(variant: str, glyph: str) -> tuple[str, ...]:
    """The glyphs of ``variant`` less ``glyph`` (which must be one of them).

    >>> without("standard", "2x4 switch")
    ('hard corner', '2x3 switch')
    """
    names = VARIANT_SETS[check_variant(variant)]
    if glyph not in names:
        raise InvalidOptionError(
            f"invalid glyph: expected one of {', '.join(names)}, got {glyph!r}")
    return tuple(name for name in names if name != glyph)


def set_label(names: tuple[str, ...]) -> str:
    """A short name of a glyph set: ``'hc+s23+s24'`` for the standard set."""
    return "+".join(SHORT[name] for name in check_set(names))


def set_glyphs(n: int, names: tuple[str, ...]) -> list[Glyph]:
    """Every instance of the glyphs ``names`` on the n x n board holding a stone (see the
    module docstring), without repeats, in a fixed order."""
    out: list[Glyph] = []
    seen: set[Glyph] = set()
    for name in check_set(names):
        for _, cells in glyph_instances(n, name):
            if cells in seen or all(state == EMPTY_CELL for _, state in cells):
                continue
            seen.add(cells)
            out.append(cells)
    return out
