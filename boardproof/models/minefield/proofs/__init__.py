"""Minefield's proofs: the no-draw SAT encoding (:mod:`.sat`), the ring lemma
(:mod:`.ring`), the brute-force lemma checks (:mod:`.lemmas`) and the compact certificate
format with its rules-only checker (:mod:`.certificate`)."""
