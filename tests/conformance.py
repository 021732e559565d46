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
- the transposition key is hashable and equal for equal positions.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from boardproof.models.base import Game, Position


def check_position(game: Game, pos: Position, check_symmetries: bool = True) -> list[Any]:
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
    return list(moves)


def check_playouts(
    game: Game,
    starts: Iterable[Position],
    playouts: int = 20,
    seed: int = 0,
    max_plies: int = 400,
    check_symmetries: bool = True,
) -> int:
    """Random playouts from each start; returns the number of positions checked."""
    rng = random.Random(seed)
    checked = 0
    for start in starts:
        for _ in range(playouts):
            pos = start
            for _ in range(max_plies):
                before_text, before_hash = pos.fen(), hash(pos)
                moves = check_position(game, pos, check_symmetries)
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
