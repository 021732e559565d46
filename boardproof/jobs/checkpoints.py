"""Checkpoints of long runs: finished results by key, kept on disk so that a run goes on
where it stopped. :class:`Checkpoint` is one JSON object rewritten atomically;
:class:`JournalCheckpoint` is a JSON Lines journal that only grows (one line per result).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from boardproof.inputs import read_text
from boardproof.models.base import InvalidOptionError


class Checkpoint:
    """Finished results by key, kept in a JSON file that is rewritten atomically.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "run.checkpoint.json"
    >>> cp = Checkpoint(path)
    >>> cp.save("n=3", {"holds": True})
    >>> Checkpoint(path).done
    {'n=3': {'holds': True}}
    """

    def __init__(self, path: str | os.PathLike[str] | None) -> None:
        self.path = Path(path) if path is not None else None
        self.done: dict[str, Any] = {}
        if self.path is not None and self.path.exists():
            try:
                data = json.loads(read_text(self.path))
            except (ValueError, OSError, RecursionError) as error:
                # a ValueError: not JSON, not UTF-8, or a number of more than 4300 digits
                if isinstance(error, RecursionError):
                    reason = "nested too deeply"
                elif type(error) is ValueError:
                    reason = "a number with too many digits"
                else:
                    reason = (getattr(error, "msg", None) or getattr(error, "reason", None)
                              or getattr(error, "strerror", None) or str(error))  # fmt: skip
                raise InvalidOptionError(
                    f"invalid checkpoint: not a JSON file ({reason}; delete it, or start again "
                    f"with option fresh): {str(self.path)!r}"
                ) from None
            if not isinstance(data, dict):
                raise InvalidOptionError(
                    f"invalid checkpoint: expected a JSON object of results by task, got "
                    f"{type(data).__name__} (delete it to start again): {str(self.path)!r}"
                )
            self.done = data

    def save(self, key: str, result: Any) -> None:
        self.done[key] = result
        self.write()

    def write(self) -> None:
        """Write the finished results so far (also at the start: the file exists at once)."""
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(self.done, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(tmp, self.path)


class JournalCheckpoint(Checkpoint):
    """Finished results appended to a JSON Lines file: one line per task, after a header.

    For runs of many tasks with large results (puzzles with their proofs), where
    rewriting the whole file after each task would cost quadratic time. The header
    line ``{"checkpoint": ..., "run": ...}`` names the run that wrote it; a file of
    another run (other settings, another command) is refused in one line, as is a
    damaged one (only a last line cut short by an interruption is dropped).

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "run.checkpoint.jsonl"
    >>> JournalCheckpoint(path, {"seed": 1}).save("000000", {"puzzle": None})
    >>> JournalCheckpoint(path, {"seed": 1}).done
    {'000000': {'puzzle': None}}
    >>> JournalCheckpoint(path, {"seed": 2})
    Traceback (most recent call last):
    ...
    boardproof.models.base.InvalidOptionError: invalid checkpoint: written by another run (...
    """

    MAGIC = "boardproof-checkpoint"

    def __init__(self, path: str | os.PathLike[str] | None, run: dict[str, Any]) -> None:
        self.path = Path(path) if path is not None else None
        self.run = run
        self.done = {}
        self._started = False
        if self.path is not None and self.path.exists():
            self._read(self.path)

    def _refuse(self, why: str) -> InvalidOptionError:
        return InvalidOptionError(
            f"invalid checkpoint: {why} (delete it or pass --fresh to start again): "
            f"{str(self.path)!r}"
        )

    def _read(self, path: Path) -> None:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise self._refuse("not a JSON Lines file (not UTF-8 text)") from None
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        elif len(lines) > 1:
            # the last line was being written when the run stopped: cut it off the file
            cut = lines.pop()
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_text(text[: len(text) - len(cut)], encoding="utf-8")
            os.replace(tmp, path)
        if not lines:
            return  # an empty file: nothing finished yet
        for number, line in enumerate(lines, start=1):
            try:
                entry = json.loads(line)
            except json.JSONDecodeError as error:
                raise self._refuse(f"line {number} is not JSON ({error.msg})") from None
            except RecursionError:
                raise self._refuse(f"line {number} is not JSON (nested too deeply)") from None
            except ValueError:  # a number of more than 4300 digits
                raise self._refuse(f"line {number} is not JSON (a number with too many "
                                   f"digits)") from None  # fmt: skip
            if number == 1:
                if not isinstance(entry, dict) or entry.get("checkpoint") != self.MAGIC:
                    raise self._refuse("not a boardproof checkpoint (no header line)")
                if entry.get("run") != self.run:
                    why = _differences(entry.get("run"), self.run)
                    raise self._refuse(f"written by another run ({why})")
                continue
            if not isinstance(entry, dict) or set(entry) != {"key", "result"}:
                raise self._refuse(f"line {number} is not a task result")
            self.done[str(entry["key"])] = entry["result"]
        self._started = True

    def _append(self, entry: dict[str, Any]) -> None:
        assert self.path is not None
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry) + "\n")  # key order kept: it is data here
            handle.flush()

    def write(self) -> None:
        """Create the file with its header line (if it does not exist yet)."""
        if self.path is None or self._started:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        header = {"checkpoint": self.MAGIC, "run": self.run}
        tmp.write_text(json.dumps(header, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, self.path)
        self._started = True

    def save(self, key: str, result: Any) -> None:
        self.done[key] = result
        if self.path is None:
            return
        self.write()
        self._append({"key": key, "result": result})


def _differences(old: Any, new: dict[str, Any]) -> str:
    """What differs between the run that wrote a checkpoint and this one, briefly.

    >>> _differences({"seed": 1, "game": "x"}, {"seed": 2, "game": "x"})
    'seed 1, not 2'
    """
    if not isinstance(old, dict):
        return "no run settings"
    keys = sorted(set(old) | set(new))
    diff = [f"{k} {json.dumps(old.get(k))}, not {json.dumps(new.get(k))}"
            for k in keys if old.get(k) != new.get(k)]  # fmt: skip
    text = "; ".join(diff) or "other settings"
    return text if len(text) <= 160 else text[:157] + "..."
