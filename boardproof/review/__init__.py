"""Game records (:mod:`.record`: boardproof's text and JSON forms) and the review of a
whole game by the engine (:mod:`.judge`). Nothing here knows a game."""
