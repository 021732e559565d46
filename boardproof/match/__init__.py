"""Matches between two engine settings, or two GTP engines (``boardproof match``).

- :mod:`~boardproof.match.players`: the players (boardproof's engine in this process, an
  external GTP engine) and the settings text that names one;
- :mod:`~boardproof.match.openings`: the seeded random openings;
- :mod:`~boardproof.match.elo`: the score and the Elo difference with 95 % intervals;
- :mod:`~boardproof.match.runner`: the games, played in parallel, and their sums;
- :mod:`~boardproof.match.records`: the game records, in the formats ``review`` reads.
"""
