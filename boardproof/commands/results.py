"""What the commands that answer about one position share: writing a proof (or a page)
to a file, printing the answer as text or JSON with the proof's note, and Ctrl-C (stop,
print the best answer so far, exit 130).

Used by ``solve``, ``analyse`` and ``review``.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from boardproof.commands.common import echo_json
from boardproof.models.base import InvalidOptionError

#: the exit status after Ctrl-C (128 + SIGINT), once the best answer so far is printed
INTERRUPTED_STATUS = 130


def tail_lines(
    pv: list[Any], unit: str, count: int, seconds: float, method: str, stopped: str | None = None
) -> list[str]:
    """The last lines of an answer: the expected line, then the work done and how fast.

    >>> tail_lines(["a1", "b2"], "nodes", 300, 0.5, "native")
    ['pv: a1 b2', 'nodes: 300  seconds: 0.500  nodes/s: 600  method: native']
    """
    lines = ["pv: " + " ".join(str(m) for m in pv)] if pv else []
    rate = count / seconds if seconds > 0 else 0.0
    line = f"{unit}: {count}  seconds: {seconds:.3f}  {unit}/s: {rate:.0f}  method: {method}"
    lines.append(line + (f"  stopped: {stopped}" if stopped is not None else ""))
    return lines


def write_file(path: str, text: str, option: str) -> None:
    """Write ``text`` to ``path``; a failure is the option's error (exit status 2).

    >>> write_file("/no/such/x.json", "{}", "--proof")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    boardproof...InvalidOptionError: invalid option --proof: cannot write (...): '/no/such/x.json'
    """
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as error:
        message = f"invalid option {option}: cannot write ({error}): {path!r}"
        raise InvalidOptionError(message) from None


def write_proof_file(proof: dict[str, Any], path: str) -> None:
    """Write a proof as one line of compact JSON (``--proof FILE``)."""
    write_file(path, json.dumps(proof, indent=None, separators=(",", ":")) + "\n", "--proof")


def echo_answer(
    as_json: bool,
    data: Callable[[], dict[str, Any]],
    lines: Callable[[], list[str]],
    proof_note: str | None = None,
) -> None:
    """Print the answer: ``data()`` as JSON (with ``"proof": proof_note`` when a proof
    was asked for) or ``lines()`` then ``proof: proof_note``."""
    if as_json:
        payload = data()
        if proof_note is not None:
            payload["proof"] = proof_note
        echo_json(payload)
        return
    for line in lines():
        click.echo(line)
    if proof_note is not None:
        click.echo(f"proof: {proof_note}")


@contextmanager
def interruptible() -> Iterator[Callable[[], bool]]:
    """While active, the first Ctrl-C only sets a flag (read by the returned function);
    a second one interrupts at once."""
    hit = [False]

    def handler(signum: int, frame: Any) -> None:
        if hit[0]:
            raise KeyboardInterrupt
        hit[0] = True

    try:
        previous = signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread: no signal handling
        yield lambda: False
        return
    try:
        yield lambda: hit[0]
    finally:
        signal.signal(signal.SIGINT, previous)


def exit_if_interrupted(interrupted: bool) -> None:
    """After Ctrl-C: ``interrupted`` on stderr and exit status 130 (the answer is out)."""
    if interrupted:
        click.echo("interrupted", err=True)
        raise click.exceptions.Exit(INTERRUPTED_STATUS)
