"""The site's page of the variants' glyph rules (``variants.html``), and the line a puzzle
page shows under its task: the board size and, on a variant day, the variant's rule with
a link to that page.

The text is that of docs/games/minefield.md, section "Variants" (the rules document: the
site opens from disk and links nowhere outside itself, so it carries its own copy).

>>> print(board_line({"game": "minefield", "size": 13, "variant": "standard"}))
<p class="board-info">Board: 13×13, the rulebook's glyphs.</p>
>>> "variants.html#pinwheel" in board_line({"game": "minefield", "size": 15,
...                                         "options": {"variant": "pinwheel"}})
True
>>> board_line({"game": "candy"})
''
"""

from __future__ import annotations

import html
from typing import Any

#: the page of the variants, at the site's root
PAGE = "variants.html"
#: where the rules are written in full
DOCUMENT = "docs/games/minefield.md, section “Variants”"

#: the forbidden glyphs of each Minefield variant (docs/games/minefield.md)
FORBIDDEN = {
    "standard": "hard corner, 2×3 switch, 2×4 switch (the rulebook's)",
    "pinwheel": "hard corner, 2×3 switch, <strong>pinwheel</strong>; the 2×4 switch is "
                "allowed",
    "cartwheel": "hard corner, 2×3 switch, pinwheel, <strong>cartwheel</strong>; the 2×4 "
                 "switch is allowed",
}  # fmt: skip

#: the new glyphs: a 2×2 block of empty points and its 8 orthogonal neighbours
GLYPHS = {
    "pinwheel": (
        "? Y X ?\nX . . Y\nY . . X\n? X Y ?",
        "the 8 neighbours are stones whose colours alternate going round the block: on each "
        "side one stone of each colour, turning the same way. A pinwheel holds two 2×4 "
        "switches: the pinwheel variant forbids this one arrangement of them instead of "
        "every 2×4 switch.",
    ),
    "cartwheel": (
        "? X X ?\nY . . Y\nY . . Y\n? X X ?",
        "the two neighbours on each side have the same colour, one colour on two opposite "
        "sides and the other colour on the other two. For the cartwheel only, the points "
        "just beyond the board count as stones of the edge's owner: beyond rank 1 and rank "
        "n as Black's, beyond file a and the last file as White's.",
    ),
}


def variant_of(puzzle: dict[str, Any]) -> str | None:
    """The puzzle's Minefield variant (``standard`` when it has none), None for another game.

    >>> variant_of({"game": "minefield", "options": {"variant": "pinwheel"}})
    'pinwheel'
    >>> variant_of({"game": "minefield"}), variant_of({"game": "candy"})
    ('standard', None)
    """
    if puzzle.get("game") != "minefield":
        return None
    options = puzzle.get("options") or {}
    return str(options.get("variant") or puzzle.get("variant") or "standard")


def board_line(puzzle: dict[str, Any], up: str = "../") -> str:
    """The board line of a puzzle page ('' for a puzzle that names no size nor variant):
    its size, its glyph rule, and on a variant day a link to the variants page."""
    variant = variant_of(puzzle)
    size = puzzle.get("size")
    if variant is None or (size is None and variant == "standard"):
        return ""
    where = f"Board: {int(size)}×{int(size)}, " if size is not None else "Board: "
    if variant == "standard":
        return f'<p class="board-info">{where}the rulebook\'s glyphs.</p>'
    name = html.escape(variant)
    rule = FORBIDDEN.get(variant, "")
    return (
        f'<p class="board-info variant">{where}<strong>{name} variant</strong>: forbidden '
        f'glyphs {rule} (<a href="{up}{PAGE}#{name}">the {name} rules</a>).</p>'
    )


def command_line(puzzle: dict[str, Any]) -> str:
    """The command that analyses the puzzle's position with its game options (the notation
    does not carry the variant), for a variant day ('' otherwise).

    >>> print(command_line({"game": "minefield", "position": "5/5/5/5/5 b -",
    ...                     "options": {"variant": "pinwheel"}}))  # doctest: +ELLIPSIS
    <p class="analyse">Analyse it: <code>boardproof analyse ... --variant pinwheel</code></p>
    """
    variant = variant_of(puzzle)
    if variant in (None, "standard"):
        return ""
    text = (f"boardproof analyse {puzzle['game']} \"{puzzle['position']}\" "
            f"--variant {variant}")  # fmt: skip
    return f'<p class="analyse">Analyse it: <code>{html.escape(text)}</code></p>'


def variants_page() -> str:
    """The body of ``variants.html``: each variant's forbidden glyphs and the new glyphs."""
    rows = "".join(
        f'<tr id="{name}"><td><code>{name}</code></td><td>{rule}</td></tr>'
        for name, rule in FORBIDDEN.items()
    )
    glyphs = "".join(
        f'<h2 id="{name}-glyph">The {name}</h2>\n<pre>{html.escape(picture)}</pre>\n'
        f"<p>The {name}: {html.escape(text)}</p>\n"
        for name, (picture, text) in GLYPHS.items()
    )
    return (
        '<nav><a href="index.html">all puzzles</a></nav>\n'
        "<h1>Minefield variants</h1>\n"
        "<p>Some days' Minefield puzzle is played in a variant: the same game with another "
        "set of forbidden glyphs. A placement is forbidden when the new stone is one of a "
        "forbidden glyph's points; a glyph counts in any rotation, reflection or exchange "
        "of the colours (X and Y below; <code>.</code> an empty point, <code>?</code> any "
        "point).</p>\n"
        '<table class="variants"><thead><tr><th>variant</th><th>forbidden glyphs</th></tr>'
        f"</thead>\n<tbody>{rows}</tbody></table>\n{glyphs}"
        f"<p>The rules in full: {html.escape(DOCUMENT)}, in the boardproof sources.</p>"
    )
