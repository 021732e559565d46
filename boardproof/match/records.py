"""Writing a match's game records, in the formats ``boardproof review`` reads
(:mod:`boardproof.review.record`).

``--records FILE.jsonl``: one JSON record a line, in game order (each line a record of the
JSON form: :func:`~boardproof.match.runner.game_record`).
``--records FOLDER``: one text record a game, ``game-001.txt`` …, whose comments say who
played which side, how the game ended, and which moves were the random opening.

>>> record = {"game": "minefield", "start": "4/4/4/4 b p", "moves": ["c4", "a3", "b2"],
...           "players": ["A", "B"], "result": "b", "match": {"number": 1, "opening": 2,
...           "end": "rules", "score_a": 1.0, "settings": {"A": "iterations=30",
...           "B": "iterations=10"}}}
>>> print(record_text(record, games=2), end="")
# boardproof match, game 1 of 2 (minefield): b A (iterations=30), w B (iterations=10)
# result: b wins (A), by the rules
4/4/4/4 b p
c4 a3  # the opening: 2 random plies
b2
"""

from __future__ import annotations

import json
import os
from typing import Any

from boardproof import models
from boardproof.match.runner import ENDS
from boardproof.models.base import InvalidOptionError, quoted

#: engine moves a line in a text record
MOVES_PER_LINE = 16


def is_jsonl(path: str) -> bool:
    """Whether ``--records PATH`` names a JSONL file (else a folder)."""
    return path.lower().endswith(".jsonl")


def record_text(record: dict[str, Any], games: int) -> str:
    """The text form of one game's record (:func:`~boardproof.match.runner.game_record`),
    with comments."""
    game = models.get(record["game"], **record.get("options", {}))
    fields = record["match"]
    labels = record["players"]
    players = ", ".join(f"{game.symbol(seat)} {label} ({fields['settings'][label]})"
                        for seat, label in enumerate(labels))  # fmt: skip
    winner = record["result"]
    result = "draw" if winner == "draw" else (
        f"{winner} wins ({labels[game.player_of(winner)]})")  # fmt: skip
    lines = [
        f"# boardproof match, game {fields['number']} of {games} ({record['game']}): {players}",
        f"# result: {result}, {ENDS.get(fields['end'], fields['end'])}",
        record["start"],
    ]
    opening, moves = record["moves"][: fields["opening"]], record["moves"][fields["opening"] :]
    if opening:
        plies = f"{len(opening)} random pl{'y' if len(opening) == 1 else 'ies'}"
        lines.append(" ".join(opening) + f"  # the opening: {plies}")
    for at in range(0, len(moves), MOVES_PER_LINE):
        lines.append(" ".join(moves[at : at + MOVES_PER_LINE]))
    return "\n".join(lines) + "\n"


def file_name(number: int, games: int) -> str:
    """``game-001.txt``: numbered with at least 3 digits, as many as the last game needs."""
    return f"game-{number:0{max(3, len(str(games)))}d}.txt"


def write_records(path: str, records: list[dict[str, Any]], games: int,
                  option: str = "--records") -> str:  # fmt: skip
    """Write ``records`` to ``path`` (a ``.jsonl`` file or a folder); returns what was
    written, for the console. A failure is the option's error (exit status 2)."""
    try:
        if is_jsonl(path):
            with open(path, "w", encoding="utf-8") as handle:
                for record in records:
                    handle.write(json.dumps(record) + "\n")
            where = path
        else:
            os.makedirs(path, exist_ok=True)
            for record in records:
                name = os.path.join(path, file_name(record["match"]["number"], games))
                with open(name, "w", encoding="utf-8") as handle:
                    handle.write(record_text(record, games))
            where = os.path.join(path, "game-*.txt")
    except OSError as error:
        raise InvalidOptionError(
            f"invalid option {option}: cannot write ({error.strerror or error}): {quoted(path)}"
        ) from None
    return f"{where} ({len(records)} game{'s' if len(records) != 1 else ''})"
