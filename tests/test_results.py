"""Typed solver results: why a search stopped is data, and one constructor makes an
unknown result; the solve methods are a table of (what it accepts, run)."""

from __future__ import annotations

import pytest

from boardproof import models
from boardproof.models.base import InvalidOptionError
from boardproof.models.minefield import native
from boardproof.solvers import api
from boardproof.solvers.common import Stop
from boardproof.testing.games import TicTacToe, subtraction


def test_a_proved_result_has_no_stop_reason() -> None:
    result = api.solve(subtraction(9, 3))
    assert result.proved and result.stopped is None
    assert "stopped" not in result.to_json()


@pytest.mark.parametrize("method", ["alphabeta", "pns", "enumerate"])
def test_the_ply_bound_is_a_stop_reason(method: str) -> None:
    result = api.solve(subtraction(9, 3), method=method, max_plies=4)
    assert (result.value, result.stopped) == ("unknown", Stop.PLIES)
    assert result.to_json()["stopped"] == "plies"


@pytest.mark.parametrize("method", ["alphabeta", "pns"])
def test_the_node_budget_is_a_stop_reason(method: str) -> None:
    position = models.get("minefield").parse_position("4/4/4/4 b -")
    result = api.solve(position, method=method, node_limit=300)
    assert (result.value, result.stopped) == ("unknown", Stop.NODES)


def test_too_many_states_is_a_stop_reason() -> None:
    result = api.solve(TicTacToe().start(), method="enumerate", max_states=50)
    assert (result.value, result.stopped) == ("unknown", Stop.STATES)


def test_the_time_limit_is_a_stop_reason() -> None:
    big = models.get("minefield").start(size=11, pie=False)
    result = api.solve(big, method="alphabeta", timeout=0.05)
    assert (result.value, result.stopped) == ("unknown", Stop.TIME)


def test_auto_takes_the_first_method_of_the_table_that_accepts_the_position() -> None:
    small = models.get("minefield").parse_position("3/3/3 b -")
    expected = "native" if native.available() else "alphabeta"
    assert api.choose_method(small, "auto").name == expected
    assert api.choose_method(TicTacToe().start(), "auto").name == "alphabeta"
    with pytest.raises(InvalidOptionError, match="^invalid option method native: "):
        api.choose_method(TicTacToe().start(), "native")
    assert [m.name for m in api.TABLE] == ["native", "alphabeta", "pns", "enumerate"]
    assert set(api.METHODS) == {"auto", *(m.name for m in api.TABLE)}
