"""What computes the published results: claim verification (:mod:`.claims`), the
exhaustive walk of small Minefield boards (:mod:`.minefield_exhaustive`), the Minefield
opening tables (:mod:`.openings`) and the Carpniches opening run
(:mod:`.carpniches_openings`). :mod:`boardproof.reports` renders their results.
"""
