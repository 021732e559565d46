"""The engine protocol: ``boardproof gtp GAME`` speaks GTP version 2 (:mod:`.engine`)."""
