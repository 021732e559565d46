"""A pinned bug: ``win_within`` answered a deeper search's win to a shorter question."""

from __future__ import annotations

from boardproof import models
from boardproof.puzzles.generate import win_within
from boardproof.solvers.common import Budget
from boardproof.solvers.search import WIN, AlphaBeta

#: Black wins in 3 plies here, not in 1 (found by seeded random play on 5x5)
WIN_IN_3 = "ww1b1/1bbbw/5/3b1/w1w2 b -"


def test_a_win_longer_than_the_question_is_no_answer_even_from_the_table() -> None:
    pos = models.get("minefield").parse_position(WIN_IN_3)
    search = AlphaBeta(pos, player=pos.to_move, budget=Budget(None, None))
    assert win_within(search, pos, pos.to_move, 5) == 3
    assert WIN - search.value(pos, 1) == 3  # the table now holds the deeper search's value
    assert win_within(search, pos, pos.to_move, 1) is None  # was 3: a win "within 1"
    assert win_within(search, pos, pos.to_move, 3) == 3
    fresh = AlphaBeta(pos, player=pos.to_move, budget=Budget(None, None))
    assert win_within(fresh, pos, pos.to_move, 1) is None
