"""The conformance test every game runs (OpenSpiel's random_sim_test, pgx's api_test).

``check_playouts(game, starts, playouts=…, seed=…)`` plays seeded random games from
each start position and checks, at every position on the way:

- notation round trip: ``parse_position(fen())`` gives an equal position and the same
  text; ``parse_move(str(m)) == m`` for every legal move;
- ``play`` purity: the position (and its text and hash) is unchanged by playing;
- terminal ⇔ no legal moves, and an outcome on every terminal position;
- canonical order: ``legal_moves()`` is the same tuple every time, without repeats;
- symmetries: for every symmetry s, the transformed position's legal moves are exactly
  the transformed legal moves, its outcome has the same value for the side to move,
  and transform(0) is the identity;
- ``status()`` is empty on positions reached by legal play;
- the transposition key is hashable and equal for equal positions;
- with ``drawing``: the game's SVG picture is well-formed XML with an ``<svg>`` root
  and draws every piece (:func:`check_drawing`).

:func:`check_info` checks a game's :class:`~boardproof.models.base.GameInfo` against
the game itself, and :func:`check_game` runs everything on every variant of a
registered game (one test loops it over ``models.names()``).

>>> from boardproof.testing.games import TicTacToe
>>> game = TicTacToe()
>>> check_playouts(game, [game.start()], playouts=2, seed=1, drawing=True) > 0
True
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterable, Iterator
from typing import Any

from boardproof import models
from boardproof.models.base import HOOKS, Game, GameInfo, Position


def check_drawing(info: GameInfo, pos: Position) -> None:
    """The SVG picture of ``pos`` parses, has an ``<svg>`` root with a size, and has at
    least one ``info.piece_tag`` element per piece (``info.pieces``)."""
    text = info.draw(pos)
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as error:
        raise AssertionError(f"{info.name}: SVG not well-formed ({error}): {pos.fen()}") from None
    assert root.tag.rsplit("}", 1)[-1] == "svg", f"{info.name}: root is {root.tag}"
    assert float(root.get("width", 0)) > 0 and float(root.get("height", 0)) > 0
    if info.pieces is not None:
        drawn = sum(1 for e in root.iter() if e.tag.rsplit("}", 1)[-1] == info.piece_tag)
        want = info.pieces(pos)
        assert drawn >= want, f"{info.name}: {want} pieces, {drawn} drawn: {pos.fen()}"


def check_position(
    game: Game, pos: Position, check_symmetries: bool = True, drawing: bool = False
) -> list[Any]:
    """Check one position; returns its legal moves."""
    text = pos.fen()
    again = game.parse_position(text)
    assert again == pos, f"round trip changed the position: {text}"
    assert again.fen() == text, f"round trip changed the text: {text} -> {again.fen()}"
    assert hash(again) == hash(pos)
    assert again.key() == pos.key()
    hash(pos.key())

    moves = pos.legal_moves()
    assert tuple(moves) == tuple(pos.legal_moves()), f"unstable move order: {text}"
    assert len(set(moves)) == len(moves), f"repeated moves: {text}"
    outcome = pos.outcome()
    if outcome is None:
        assert len(moves) > 0, f"no legal move but no outcome: {text}"
    else:
        assert len(moves) == 0, f"terminal position with legal moves: {text}"

    for move in moves:
        name = str(move)
        assert pos.parse_move(name) == move, f"move {name} does not round-trip in {text}"

    assert pos.status() == [], f"reachable position has status problems {pos.status()}: {text}"

    if check_symmetries:
        assert pos.transform(0) == pos, f"symmetry 0 is not the identity: {text}"
        for s in range(game.symmetry_count):
            image = pos.transform(s)
            mapped = {pos.transform_move(m, s) for m in moves}
            assert mapped == set(image.legal_moves()), (
                f"symmetry {s} does not map the legal moves of {text} onto those of {image.fen()}"
            )
            image_outcome = image.outcome()
            assert (image_outcome is None) == (outcome is None), f"symmetry {s} of {text}"
            if outcome is not None and image_outcome is not None:
                assert image_outcome.value_for(image.to_move) == outcome.value_for(pos.to_move)
    if drawing:
        check_drawing(game.info, pos)
    if outcome is not None and game.info.objective == "score":
        assert outcome.scores is not None, f"a score game ended without scores: {text}"
    return list(moves)


def check_playouts(
    game: Game,
    starts: Iterable[Position],
    playouts: int = 20,
    seed: int = 0,
    max_plies: int = 400,
    check_symmetries: bool = True,
    drawing: bool = False,
) -> int:
    """Random playouts from each start; returns the number of positions checked
    (``drawing``: also the SVG picture of every position)."""
    rng = random.Random(seed)
    checked = 0
    for start in starts:
        for _ in range(playouts):
            pos = start
            for _ in range(max_plies):
                before_text, before_hash = pos.fen(), hash(pos)
                moves = check_position(game, pos, check_symmetries, drawing)
                checked += 1
                if not moves:
                    break
                move = rng.choice(moves)
                child = pos.play(move)
                assert pos.fen() == before_text and hash(pos) == before_hash, (
                    f"play({move}) changed its input {before_text}"
                )
                pos = child
    return checked


def check_info(name: str) -> GameInfo:
    """The registered game ``name`` agrees with its descriptor (names, sides, hooks,
    options, puzzles); returns the descriptor."""
    info = models.info(name)
    assert info.problems() == [], f"{name}: {info.problems()}"
    assert info.name == name and models.canonical_name(name) == name
    for alias in info.aliases:
        assert models.canonical_name(alias) == name, f"{name}: alias {alias}"
    game = models.get(name)
    assert game.name == name and game.info == info, f"{name}: game and descriptor differ"
    for player in range(info.players[1]):
        symbol = game.symbol(player)
        assert symbol == info.symbols[player] and game.player_of(symbol) == player
        assert info.side_name(symbol)
    start = game.start()
    for hook in sorted(HOOKS):
        offered = hasattr(start, hook)
        assert offered == (hook in info.hooks), (
            f"{name}: hook {hook} is {'offered' if offered else 'missing'} but "
            f"{'not ' if offered else ''}declared"
        )
    assert (info.puzzles is None) == bool(info.no_puzzles)
    for spec in info.options:  # every declared default is accepted
        if spec.scope == "game":
            models.get(name, **{spec.name: spec.default})
        elif spec.default is not None:
            game.start(**{spec.name: spec.default})
    return info


def variants(name: str, sizes: int = 2) -> Iterator[tuple[dict[str, Any], Position]]:
    """``(options, start position)`` of every variant of a game: every choice of each
    game and start option (the others at their defaults), and the ``sizes`` smallest
    values of a ranged start option; each distinct start once."""
    info = models.info(name)
    seen: set[tuple[Any, str]] = set()
    for options, start in _all_variants(info, sizes):
        key = (start.game, start.fen())
        if key not in seen:
            seen.add(key)
            yield options, start


def _all_variants(info: GameInfo, sizes: int) -> Iterator[tuple[dict[str, Any], Position]]:
    name = info.name
    yield {}, models.get(name).start()
    for spec in info.options:
        if spec.choices is not None and len(spec.choices) > 1:
            values: Iterable[Any] = spec.choices
        elif spec.bounds is not None and spec.scope == "start":
            values = range(spec.bounds[0], min(spec.bounds[0] + sizes, spec.bounds[1] + 1))
        else:
            continue
        for value in values:
            if spec.scope == "game":
                yield {spec.name: value}, models.get(name, **{spec.name: value}).start()
            else:
                try:
                    yield {spec.name: value}, models.get(name).start(**{spec.name: value})
                except ValueError:
                    continue  # a value the other defaults rule out (ColleXion's players)


def check_game(name: str, playouts: int = 2, seed: int = 0, max_plies: int = 60) -> int:
    """The whole conformance suite on every variant of the registered game ``name``:
    its descriptor, then seeded playouts (drawings included) from each variant's start.
    Returns the number of positions checked."""
    info = check_info(name)
    checked = 0
    for options, start in variants(name):
        game = start.game
        players = getattr(start, "num_players", info.players[0])
        assert info.players[0] <= players <= info.players[1], f"{name} {options}: {players}"
        checked += check_playouts(game, [start], playouts=playouts, seed=seed,
                                  max_plies=max_plies, drawing=True)  # fmt: skip
    return checked


__all__ = ["check_drawing", "check_game", "check_info", "check_playouts", "check_position",
           "variants"]
