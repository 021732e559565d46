"""``make demo`` echoes each command so that it can be pasted back into a shell."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

DEMO = Path(__file__).resolve().parent.parent / "scripts" / "demo.sh"


def _quote(*words: str) -> str:
    text = DEMO.read_text(encoding="utf-8")
    start = text.index("quote() {")
    function = text[start : text.index("\n}\n", start) + 3]
    done = subprocess.run(
        ["bash", "-c", function + 'quote "$@"', "demo", *words],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return done.stdout


def test_demo_echo_keeps_the_quotes() -> None:
    words = ("boardproof", "show", "minefield", "wb3/1b1w1 w -", "--svg", "out/x.svg", "it's")
    echoed = _quote(*words)
    assert echoed == "boardproof show minefield 'wb3/1b1w1 w -' --svg out/x.svg 'it'\\''s'"
    assert tuple(shlex.split(echoed)) == words


def test_demo_steps_piped_are_plain_lines_to_paste() -> None:
    text = DEMO.read_text(encoding="utf-8")
    start = text.index("quote() {")
    setup = text[start : text.index("\nstep boardproof games")]  # quote, bold, step
    done = subprocess.run(
        ["bash", "-c", setup + '\nstep echo "a b"', "demo"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert done.stdout == "\n$ echo 'a b'\na b\n"  # no escape codes when piped
