"""ColleXion's engine: its turn search behind ``analyse`` (it has no native solver).

The game's descriptor names this module (``GameInfo.engine``); the generic layers find the
engine through it and never import it. ColleXion brings one part only: ``tree``, the turn
search of :mod:`boardproof.models.collexion.turnsearch`, which ``analyse`` grows instead
of the generic MCTS (engine ``auto``). ``solve(method="native")`` takes no ColleXion
position: the exact searches are the Python ones.
"""

from __future__ import annotations

from typing import Any

from boardproof.models.base import Engine, InvalidOptionError
from boardproof.models.collexion.turnsearch import TurnSearch, make_tree


def _accepts(position: Any) -> bool:
    return False


def _refusal(position: Any) -> str:
    """Why ``--method native`` refuses: ColleXion has no native solver; the games with one."""
    from boardproof import models

    scopes = []
    for name in models.names():
        found = models.info(name).part("engine")
        if found is not None and found.scope:
            scopes.append(found.scope)
    solvers = " and ".join([", ".join(scopes[:-1]), scopes[-1]] if len(scopes) > 1 else scopes)
    return f"ColleXion has no native solver; it solves {solvers} positions only"


def _solve(position: Any, request: Any, method: str) -> Any:
    raise InvalidOptionError(f"invalid option method {method}: {_refusal(position)}")


def _tree(position: Any, seed: int) -> TurnSearch:
    return make_tree(position, seed=seed)


ENGINE = Engine(
    scope="",  # solves nothing natively: left out of the lists of what engines solve
    accepts=_accepts,
    solve=_solve,
    refusal=_refusal,
    tree=_tree,
)
