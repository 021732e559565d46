"""Every registered game, every variant: the whole conformance suite (rules protocol,
notation round trips, symmetries, SVG drawing, descriptor consistency)."""

from __future__ import annotations

import pytest

from boardproof import models
from boardproof.testing import check_game, check_info, variants


@pytest.mark.parametrize("name", models.names())
def test_conformance_of_every_game_and_variant(name: str) -> None:
    assert check_game(name, playouts=1, max_plies=3) > 0


@pytest.mark.long
@pytest.mark.parametrize("name", models.names())
def test_conformance_long(name: str) -> None:
    assert check_game(name, playouts=3, max_plies=60, seed=7) > 0


def test_variants_cover_every_declared_choice() -> None:
    minefield = [options for options, _ in variants("minefield")]
    assert {"win": "orthodiagonal"} in minefield and {"size": 2} in minefield
    starts = {start.variant for _, start in variants("collexion")}
    assert starts == {"base", "powers", "expert", "teams"}


def test_a_descriptor_that_lies_about_its_hooks_is_caught(monkeypatch) -> None:
    import dataclasses

    info = models.info("carpniches")
    liar = dataclasses.replace(info, hooks=info.hooks - {"canonical"})
    monkeypatch.setitem(models._INFOS, "carpniches", liar)
    with pytest.raises(AssertionError, match="hook canonical is offered but not declared"):
        check_info("carpniches")


def test_a_drawing_that_forgets_pieces_is_caught(monkeypatch) -> None:
    import dataclasses

    from boardproof.models.drawing import SvgDocument

    def blank(position: object) -> str:
        return SvgDocument(10, 10).to_string()

    info = models.info("minefield")
    monkeypatch.setitem(models._INFOS, "minefield", dataclasses.replace(info, draw=blank))
    with pytest.raises(AssertionError, match="pieces, 0 drawn"):
        check_game("minefield", playouts=1, max_plies=3)
