"""What a game (built in or a plug-in) is tested with: the conformance checks
(:mod:`.conformance`) and small toy games (:mod:`.games`) for the solvers' tests.

>>> from boardproof.testing import check_game
>>> check_game("carpniches", playouts=1, max_plies=10) > 0
True
"""

from boardproof.testing.conformance import (
    check_drawing,
    check_game,
    check_info,
    check_playouts,
    check_position,
    variants,
)

__all__ = ["check_drawing", "check_game", "check_info", "check_playouts", "check_position",
           "variants"]
