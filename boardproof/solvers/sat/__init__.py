"""SAT encodings (python-sat) and proof checking.

- :mod:`boardproof.models.minefield.proofs.sat` — Minefield's static "dead draw" encoding
  (glyph-freedom, stuck, no path) used to verify the no-draw claim;
- :mod:`boardproof.solvers.sat.drat` — a small independent DRUP/RUP proof checker.
"""
