"""Every console example of README.md is run and compared with the real output.

A ``console`` block holds commands (``$ `` lines, continued by a trailing ``\\``)
each followed by the output it prints: its standard output, and when it fails
its standard error too (the progress lines long commands write on standard
error are not part of the example). Matching is exact except that:

- a line ``...`` stands for any number of lines (none included);
- ``...`` inside a line stands for any text;
- decimal numbers (timings) and the numbers after ``nodes``, ``nodes/s``,
  ``iterations/s`` and ``seconds`` match any number, and in such a line runs of spaces match any
  run of spaces (table columns widen with the numbers);
- a trailing ``(exit status N)`` is the command's exit status (0 otherwise);
- a command followed by no output line at all is only checked for exit status 0.

The commands run with bash in a fresh temporary folder (holding a copy of
``reports/``), in order within a block, with ``.venv/bin`` first on PATH;
shell variables set by ``P=...`` lines carry over to the block's later commands.
Commands too slow for the default run are marked ``long`` (``make test-long``).
A command that is not a ``boardproof`` command (nor a pipe from one), a
``python -c``, ``printf`` or ``cat`` line or a variable assignment is skipped.

Run ``python tests/test_readme.py`` to print every command with its real output.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BIN = Path(sys.executable).parent

#: commands (by a substring) that take more than a few seconds: run by ``make test-long``
LONG = (
    "openings minefield --sizes 2-5",
    "openings carpniches",
    "verify minefield-no-draw --sizes 2-8",
    "verify minefield-no-draw --sizes 19-24",
    "puzzle generate",
    "puzzle check puzzles.jsonl",
    "site --out",
)
#: seconds any one command may take
TIMEOUT = 1800


@dataclass
class Example:
    """One command of a console block and the output the README shows for it."""

    line: int
    command: str
    expected: list[str] = field(default_factory=list)
    status: int = 0
    setup: list[str] = field(default_factory=list)  # earlier assignments of the block

    @property
    def long(self) -> bool:
        return any(key in self.command for key in LONG)


def parse_readme(text: str) -> list[list[Example]]:
    """The console blocks of ``text``, each a list of examples.

    >>> blocks = parse_readme("```console\\n$ boardproof x \\\\\\n  --y\\nout\\n$ z\\n```\\n")
    >>> [(e.command, e.expected) for e in blocks[0]]
    [('boardproof x --y', ['out']), ('z', [])]
    """
    blocks: list[list[Example]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() != "```console":
            i += 1
            continue
        block: list[Example] = []
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            line = lines[i]
            if line.startswith("$ "):
                number = i + 1
                command = line[2:]
                while command.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    command = command[:-1].rstrip() + " " + lines[i].strip()
                block.append(Example(number, command))
            elif block:
                block[-1].expected.append(line)
            i += 1
        for example in block:
            if example.expected:
                found = re.search(r"\s*\(exit status (\d+)\)\s*$", example.expected[-1])
                if found:
                    example.status = int(found.group(1))
                    example.expected[-1] = example.expected[-1][: found.start()].rstrip()
        blocks.append(block)
        i += 1
    return blocks


def _runnable(command: str) -> bool:
    starts = ("boardproof ", "python -c ", "printf ", "cat ")
    return command.startswith(starts) or bool(re.match(r"[A-Z]+=", command))


def examples() -> list[Example]:
    """Every runnable example, with the assignments it depends on."""
    found = []
    for block in parse_readme(README.read_text(encoding="utf-8")):
        setup: list[str] = []
        for example in block:
            if not _runnable(example.command):
                continue
            if re.match(r"[A-Z]+=", example.command):
                setup.append(example.command)
                continue
            example.setup = list(setup)
            found.append(example)
    return found


_LOOSE = re.compile(
    r"(?:\d+\.\d+)|(?<=nodes: )\d+|(?<=nodes/s: )\d+|(?<=\"nodes\": )\d+|(?<=iterations/s: )\d+"
)


def line_pattern(expected: str) -> re.Pattern[str]:
    """The regular expression an output line must match for ``expected``.

    >>> bool(line_pattern("nodes: 12  seconds: 0.5").fullmatch("nodes: 7  seconds: 10.25"))
    True
    >>> bool(line_pattern("a ... b").fullmatch("a x y b")), bool(line_pattern("ab").match("ac"))
    (True, False)
    """
    loose = bool(_LOOSE.search(expected)) or re.search(r"\b(nodes|seconds)\b", expected)
    parts = []
    position = 0
    for match in re.finditer(r"\.\.\.|" + _LOOSE.pattern + (r"| {2,}" if loose else ""), expected):
        parts.append(re.escape(expected[position : match.start()]))
        token = match.group(0)
        if token == "...":
            parts.append(".*")
        elif token.startswith(" "):
            parts.append(" +")
        else:
            parts.append(r"\d+(?:\.\d+)?")
        position = match.end()
    parts.append(re.escape(expected[position:]))
    return re.compile("".join(parts))


def matches(expected: list[str], actual: list[str]) -> bool:
    """Does ``actual`` match ``expected`` line by line (``...`` lines: any lines)?

    >>> matches(["a", "...", "c"], ["a", "b", "b", "c"]), matches(["a", "..."], ["b"])
    (True, False)
    """
    if not expected:
        return not actual
    head = expected[0]
    if head.strip() == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and bool(line_pattern(head).fullmatch(actual[0])) and matches(
        expected[1:], actual[1:]
    )


def run(example: Example, folder: Path) -> tuple[int, list[str]]:
    """Run ``example`` in ``folder``; its exit status and output lines."""
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("COLUMNS", None)
    script = "\n".join([*example.setup, "set -o pipefail", example.command])
    done = subprocess.run(
        ["bash", "-c", script],
        cwd=folder,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    shown = done.stdout if done.returncode == 0 else done.stdout + done.stderr
    return done.returncode, shown.splitlines()


def _workdir(tmp: Path) -> Path:
    shutil.copytree(ROOT / "reports", tmp / "reports")
    return tmp


EXAMPLES = examples()


def _param(example: Example) -> object:
    marks = [pytest.mark.long] if example.long else []
    return pytest.param(example, id=f"line{example.line}", marks=marks)


def test_readme_has_examples() -> None:
    assert len(EXAMPLES) >= 40
    starts = ("boardproof ", "python -c ", "printf ", "cat ")
    assert all(e.command.startswith(starts) for e in EXAMPLES)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder for the whole README, as a reader would use it (files carry over)."""
    return _workdir(tmp_path_factory.mktemp("readme"))


@pytest.mark.parametrize("example", [_param(e) for e in EXAMPLES])
def test_readme_example(example: Example, folder: Path) -> None:
    status, actual = run(example, folder)
    shown = "\n".join(actual)
    assert status == example.status, f"{example.command}\nexit {status}\n{shown}"
    if example.expected:
        assert matches(example.expected, actual), (
            f"README line {example.line}: {example.command}\n--- README\n"
            + "\n".join(example.expected)
            + f"\n--- real output\n{shown}"
        )


def test_readme_links_exist() -> None:
    """Every relative link of the README names a file of the repository."""
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    relative = [t for t in targets if "://" not in t]
    assert relative
    missing = [t for t in relative if not (ROOT / t).exists()]
    assert not missing


def test_readme_python_examples() -> None:
    """The README's ``pycon`` blocks pass as doctests."""
    import doctest

    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```pycon\n(.*?)```", text, flags=re.S)
    assert blocks
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README pycon block {number + 1}", "README.md", 0)
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def main() -> None:
    """Print every example with its real output (``--all`` includes the long ones)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        folder = _workdir(Path(tmp))
        for example in EXAMPLES:
            if example.long and "--all" not in sys.argv:
                print(f"# line {example.line}: skipped (long): {example.command}")
                continue
            status, actual = run(example, folder)
            ok = status == example.status and (
                not example.expected or matches(example.expected, actual)
            )
            print(f"# line {example.line}: {'ok' if ok else 'DIFFERS'} (exit {status})")
            print("$ " + example.command)
            print("\n".join(actual))


if __name__ == "__main__":
    main()
