"""Puzzle files: JSON Lines, one puzzle object per line (format versions 1 and 2).

Every line is one JSON object::

    {"id": "minefield-7-0", "format": "boardproof-puzzle", "version": 1,
     "game": "minefield", "options": {},
     "position": "<canonical notation>", "to_move": "b", "plies": 3,
     "solution": "c2", "pv": ["c2", "e1", "d2"], "decoys": ["b3"], "duals": [],
     "rating": {"rating": 1480, "label": "medium", "plies": 3, "legal_moves": 11,
                "decoys": 1, "nodes": 2311},
     "proof": {<a boardproof-proof, see boardproof.solvers.proof>},
     "source": {"seed": 7, "task": 0, "start": "<start position>", "line": [<moves>]}}

- ``plies``: the side to move forces a win in exactly this many plies (its own
  moves and the replies), and ``solution`` is the only first move that does;
- ``pv``: a principal variation (the solution, then the longest defence);
- ``decoys``: other first moves that still force a win, but only in ``plies + 1`` or
  ``plies + 2`` plies (searched on a node budget, so possibly not all of them);
- ``duals``: the plies of the PV (1-based, after the first) where the winner has
  another move that also wins in time (``[]``: the whole line is forced for the
  winner too; null: not established within the node budget);
- ``proof``: the proof tree of the win, checked by ``boardproof check-proof``;
- version 2 (:data:`VERSION_COMPACT`, :mod:`boardproof.puzzles.compact`) is version 1 with
  ``strategy`` in place of ``proof``: the winner's strategy in compact form
  (:mod:`boardproof.solvers.strategy`), for large proofs; a reader of version 1 refuses it;
- ``source``: where the position comes from (a playout from ``start``; a puzzle mined from
  a game, :mod:`boardproof.puzzles.mining`: ``{"file", "record", "ply", "start", "line"}``,
  the game file, the record's id, the moves played before the position, and those moves
  from ``start``);
- daily puzzles also carry ``date`` (and, taken from a set of puzzles, ``source_id``: the
  ``id`` the puzzle has in the set).

A file holding one JSON array of such objects (or one object) is read too.
Blank lines are ignored.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "p.jsonl"
>>> write_puzzles(path, [{"format": FORMAT, "version": VERSION, "game": "minefield"}])
>>> [p["game"] for p in read_puzzles(path)]
['minefield']
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

from boardproof.puzzles import PuzzleError

FORMAT = "boardproof-puzzle"
#: a puzzle with its proof tree (and every ColleXion puzzle)
VERSION = 1
#: a "win in N" puzzle with a compact strategy in place of the proof tree
VERSION_COMPACT = 2


def dumps(puzzle: dict[str, Any]) -> str:
    """One puzzle as one compact JSON line (no newline)."""
    return json.dumps(puzzle, separators=(",", ":"), ensure_ascii=True)


def write_puzzles(path: str | os.PathLike[str], puzzles: Iterable[dict[str, Any]]) -> None:
    """Write ``puzzles`` as JSON Lines; raises PuzzleError if the file cannot be written."""
    try:
        with open(path, "w", encoding="utf-8") as handle:
            for puzzle in puzzles:
                handle.write(dumps(puzzle) + "\n")
    except OSError as error:
        raise PuzzleError(
            f"invalid option out: cannot write ({error.strerror or error}): {str(path)!r}"
        ) from None


def read_puzzles(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The puzzle objects of a file; raises PuzzleError (one line) for an unusable file.

    Only the file's shape is checked here (JSON objects); :mod:`boardproof.puzzles.check`
    checks their contents.
    """
    name = str(path)
    try:
        from boardproof.inputs import read_text

        text = read_text(path)
    except (OSError, UnicodeDecodeError) as error:
        why = getattr(error, "strerror", None) or str(error)
        raise PuzzleError(f"invalid puzzle file: cannot read ({why}): {name!r}") from None
    stripped = text.strip()
    if not stripped:
        raise PuzzleError(f"invalid puzzle file: it is empty: {name!r}")
    items: list[Any]
    if stripped.startswith("["):
        try:
            whole = json.loads(stripped)
        except json.JSONDecodeError as error:
            raise PuzzleError(
                f"invalid puzzle file: not JSON ({error.msg}, line {error.lineno}): {name!r}"
            ) from None
        except RecursionError:
            raise PuzzleError(f"invalid puzzle file: JSON nested too deeply: {name!r}") from None
        except ValueError:  # a number of more than 4300 digits (sys.get_int_max_str_digits)
            raise PuzzleError(
                f"invalid puzzle file: JSON number with too many digits: {name!r}"
            ) from None
        items = whole if isinstance(whole, list) else [whole]
    else:
        items = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                items.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise PuzzleError(
                    f"invalid puzzle file: line {number} is not JSON ({error.msg}): {name!r}"
                ) from None
            except RecursionError:
                raise PuzzleError(
                    f"invalid puzzle file: line {number} is JSON nested too deeply: {name!r}"
                ) from None
            except ValueError:  # a number of more than 4300 digits
                raise PuzzleError(
                    f"invalid puzzle file: line {number} has a JSON number with too many "
                    f"digits: {name!r}"
                ) from None
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            raise PuzzleError(
                f"invalid puzzle file: puzzle {number} is not a JSON object: {name!r}"
            )
    return items
