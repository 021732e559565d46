"""What computes the published results: claim verification (:mod:`.claims`), the
exhaustive walk of small Minefield boards (:mod:`.minefield_exhaustive`), the Minefield
opening tables (:mod:`.openings`) and the Carpniches opening run
(:mod:`.carpniches_openings`); and game records (:mod:`.record`) and their review
(:mod:`.review`). :mod:`boardproof.reports` renders their results.
"""
