"""Minefield's research runs and their reports: the designer's claims (:mod:`.claims`,
rendered by :mod:`.claims_report`), the exhaustive walk of small boards
(:mod:`.exhaustive`), the opening tables (:mod:`.openings`, :mod:`.subtrees`,
:mod:`.best_first`, their certificates, rendered by :mod:`.openings_report`) and the
``openings`` command's part (:mod:`.openings_command`)."""
