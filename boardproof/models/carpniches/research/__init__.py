"""Carpniches' opening run (:mod:`.openings`), its report (:mod:`.openings_report`) and the
``openings`` command's part (:mod:`.openings_command`)."""
