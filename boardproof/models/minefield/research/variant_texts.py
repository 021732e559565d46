"""The method sections of the claim reports of the variants (pinwheel, cartwheel).

The standard reports keep their own texts (:mod:`~boardproof.models.minefield.research.
claims_report`); a variant's report says how the encoding takes the variant's glyphs,
and which lemmas of the standard proof still hold with them (and why), which do not
apply, and what is tested.

>>> text = method_text({"claim": "minefield-no-draw", "variant": "cartwheel"})
>>> "beyond the board" in text and "Lemma H" in text
True
>>> "Theorem O" in method_text({"claim": "minefield-orthodiagonal", "variant": "pinwheel"})
True
"""

from __future__ import annotations

from typing import Any

from boardproof.models.minefield.proofs.glyph_sets import VARIANT_SETS, set_label

ENCODING = """## The encoding ({variant} variant)

The formulas are the standard report's (`reports/minefield-no-draw.md`, The encoding),
built with the {variant} variant's forbidden glyphs ({glyphs}) in place of the
rulebook's three; the encoding column says `glyphs={label}`:

1. **glyph-free**: one clause per instance of a glyph of the set that holds at least one
   stone of the board. A placement can only form an instance that holds the new stone,
   so no position of a legal game holds such an instance (the last stone placed in it
   would have formed it). An instance with no stone on the board cannot be formed: the
   only one is the cartwheel of the empty 2 x 2 board (its 8 neighbours are all beyond
   the board), which the start of the 2 x 2 game holds; it is left out.
2. **stuck**: for every point and colour, the point is occupied or placing that colour
   there completes an instance of a glyph of the set (one witness variable per instance
   and placed point).
{cartwheel}
**Symmetry breaking.** Each glyph of the set comes in every rotation, reflection and
exchange of the colours, and the cartwheel's stones beyond the board follow the edges'
owners, so a transpose with the colours exchanged maps Black's points beyond the board
onto White's: each formula is invariant under the claim's 8 symmetries and the
lex-leader clauses keep a model whenever one exists.

**Lemmas, re-justified for this glyph set.**

- The **crosscut lemma** rests on one glyph only, the hard corner, which the variant
  forbids: its proof (above) holds word for word.
- **Lemma H** is about full crosscut-free boards and uses no glyph: it holds.
- So the *full* step is Lemma H, as in the standard report from n = 19 on, and every row
  is the SAT *fill* step with the variant's glyphs (method `sat-fill+lemma-hex`).
- The **ring and strip lemmas** of the standard report (partial theorems towards every
  n) were proved with the rulebook's glyphs only; they are not used here and not claimed
  for this variant.

**Candidates.** A model of a step is only a candidate: the runner falls back to the plain
formula with the variant's glyphs and searches for a legal game of the variant that
reaches it (`boardproof.models.minefield.research.glyph_games.reach_search`), as for the
standard rules. {candidates}

**Tests.** `tests/test_sat_variants.py` checks every part of the encoding with the
variant's glyphs (and with each variant less one glyph) against a brute-force reference
written from the rules' text (every board for n <= 3, sampled boards for n = 4), the
symmetry breaking (every orbit of models keeps a representative), and the exhaustive
walk of the variant's game against the formula's verdict.
"""

CARTWHEEL = """3. **cartwheel**: its points just beyond the board are stones of that edge's owner
   (Black beyond ranks 1 and n, White beyond the side files): they are constants, not
   variables. An instance asking the owner's colour at such a point keeps its points on
   the board; one asking the other colour there can never match and is left out
   (`boardproof.models.minefield.board.glyph_instances`; no neighbour of a 2 x 2 block of
   the board is beyond a corner).
"""

ORTHODIAGONAL = """## Method ({variant} variant)

Theorem O and its lemmas (above) are the standard report's
(`reports/minefield-orthodiagonal.md`), re-justified for the {variant} variant's glyphs
({glyphs}):

- the **crosscut lemma** and **Lemma G** use only the hard corner, which the variant
  forbids;
- **Lemmas K and F** are about crosscut-free boards and use no glyph;
- step (4) of Theorem O uses the *fill* step: here the fill step with the variant's
  glyphs, the formula of `reports/minefield-no-draw-{variant}.md` (same DRUP proofs);
- every other step of the proof (stones stay, forced passes, at most n^2 placements) is
  about the turn structure, which the variants share.

So each row from n = {first} on is the variant's SAT fill step with Theorem O. Sizes up to
`--exhaustive-max` are walked exhaustively in the variant's game (one position per
symmetry class): every terminal position in which a colour has an ortho-diagonal path
must have been won by that colour.
"""


def method_text(result: dict[str, Any]) -> str:
    """The method section of a variant's report of ``result["claim"]``."""
    variant = result["variant"]
    glyphs = VARIANT_SETS[variant]
    exhaustive = [s["n"] for s in result.get("sizes", []) if s.get("method") == "exhaustive"]
    first = max(exhaustive, default=1) + 1
    template = ORTHODIAGONAL if result["claim"] == "minefield-orthodiagonal" else ENCODING
    sat_ns = [s["n"] for s in result.get("sizes", [])
              if any(step.get("result") == "sat" for step in s.get("steps", []))]
    candidates = ("None was needed: every fill step above is UNSAT." if not sat_ns else
                  "Fill steps were SAT for n = " + ", ".join(map(str, sat_ns))
                  + ": see the candidates and counterexamples above.")
    return template.format(variant=variant, glyphs=", ".join(glyphs),
                           label=set_label(glyphs), first=first, candidates=candidates,
                           cartwheel=CARTWHEEL if "cartwheel" in glyphs else "")
