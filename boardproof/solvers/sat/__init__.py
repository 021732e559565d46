"""SAT plumbing for the games' encodings, game-agnostic: solvers in a child process that
Ctrl-C cannot corrupt (:mod:`.child`), solver names and proofs (:mod:`.solving`), DRUP
certificates and their checkers (:mod:`.certify`, :mod:`.drat`, :mod:`.backward` in C) and
a second solver (:mod:`.second`). The encodings themselves live in the game packages
(Minefield's no-draw encoding: :mod:`boardproof.models.minefield.proofs.sat`).
"""
