"""Every console example of README.md and of the documentation (``docs/**/*.md``) is run
and compared with the real output.

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

The commands of each file run with bash in a fresh temporary folder of that file
(holding a copy of ``reports/``), in the file's order, with ``.venv/bin`` first on PATH:
files one example writes are there for the file's later ones; shell variables set by
``P=...`` lines carry over to the block's later commands. A file without console blocks
is fine. Test ids name the file and the line (``docs/commands.md:26``).
Commands too slow for the default run are marked ``long`` (``make test-long``).
A command that is not a ``boardproof`` command (nor a pipe from one), a
``python -c``, ``printf`` or ``cat`` line or a variable assignment is skipped.

The ``pycon`` blocks run as doctests, one session per file. Run
``python tests/test_readme.py`` to print every command with its real output.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: the files whose examples run: the README and every page of the documentation
FILES = (README, *sorted((ROOT / "docs").rglob("*.md")))
BIN = Path(sys.executable).parent

#: commands (by a substring, in any of the files) that take more than a few seconds: run by
#: ``make test-long``
LONG = (
    "openings minefield --sizes 2-5",
    "openings carpniches",
    "verify minefield-no-draw --sizes 2-8",
    "verify minefield-no-draw --sizes 19-24",
    "puzzle generate",
    "puzzle check puzzles.jsonl",
    "mined.jsonl",
    "site --out",
)
#: seconds any one command may take
TIMEOUT = 1800


@dataclass
class Example:
    """One command of a console block and the output its file shows for it."""

    line: int
    command: str
    expected: list[str] = field(default_factory=list)
    status: int = 0
    setup: list[str] = field(default_factory=list)  # earlier assignments of the block
    file: str = "README.md"  # relative to the repository

    @property
    def name(self) -> str:
        """Where it is: ``docs/commands.md:26``."""
        return f"{self.file}:{self.line}"

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


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def examples(path: Path = README) -> list[Example]:
    """Every runnable example of the file ``path``, with the assignments it depends on."""
    found = []
    for block in parse_readme(path.read_text(encoding="utf-8")):
        setup: list[str] = []
        for example in block:
            if not _runnable(example.command):
                continue
            if re.match(r"[A-Z]+=", example.command):
                setup.append(example.command)
                continue
            example.setup = list(setup)
            example.file = _relative(path)
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


EXAMPLES = [example for path in FILES for example in examples(path)]


def _param(example: Example) -> object:
    marks = [pytest.mark.long] if example.long else []
    return pytest.param(example, id=example.name, marks=marks)


def test_readme_has_examples() -> None:
    assert len(EXAMPLES) >= 40
    assert len(examples(README)) >= 5  # one per command family
    starts = ("boardproof ", "python -c ", "printf ", "cat ")
    assert all(e.command.startswith(starts) for e in EXAMPLES)


@pytest.fixture(scope="module")
def folder_of(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """The folder of a file's examples: one per file, as a reader of that page would use
    it (files carry over from one example to the file's later ones)."""
    made: dict[str, Path] = {}

    def folder(file: str) -> Path:
        if file not in made:
            made[file] = _workdir(tmp_path_factory.mktemp(re.sub(r"\W+", "-", file)))
        return made[file]

    return folder


@pytest.mark.parametrize("example", [_param(e) for e in EXAMPLES])
def test_readme_example(example: Example, folder_of: Callable[[str], Path]) -> None:
    status, actual = run(example, folder_of(example.file))
    shown = "\n".join(actual)
    assert status == example.status, f"{example.name}: {example.command}\nexit {status}\n{shown}"
    if example.expected:
        assert matches(example.expected, actual), (
            f"{example.name}: {example.command}\n--- {example.file}\n"
            + "\n".join(example.expected)
            + f"\n--- real output\n{shown}"
        )


def slug(heading: str) -> str:
    """The anchor of a Markdown heading (as mkdocs makes it; GitHub agrees on plain words).

    >>> slug("Solve a position, and `check-proof`")
    'solve-a-position-and-check-proof'
    """
    text = unicodedata.normalize("NFKD", heading.replace("`", ""))
    text = re.sub(r"[^\w\s-]", "", text.encode("ascii", "ignore").decode()).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return {slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, flags=re.M)}


@pytest.mark.parametrize("path", [pytest.param(p, id=_relative(p)) for p in FILES])
def test_readme_links_exist(path: Path) -> None:
    """Every relative link of the file names a file of the repository (README: from the
    root, a page: from its folder), and an anchor into a Markdown file one of its headings."""
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    links = re.findall(r"\]\(([^)#\s]*)(?:#([^)\s]*))?\)", text)
    bad = []
    for target, anchor in links:
        if "://" in target or target.startswith("mailto:"):
            continue
        found = (path.parent / target).resolve() if target else path
        if not found.exists():
            bad.append(target)
        elif anchor and found.suffix == ".md" and anchor not in _anchors(found):
            bad.append(f"{target}#{anchor}")
    assert not bad, f"{_relative(path)}: {bad}"


def _pycon(path: Path) -> list[str]:
    return re.findall(r"```pycon\n(.*?)```", path.read_text(encoding="utf-8"), flags=re.S)


@pytest.mark.parametrize(
    "path", [pytest.param(p, id=_relative(p)) for p in FILES if _pycon(p)]
)
def test_readme_python_examples(path: Path) -> None:
    """The file's ``pycon`` blocks pass as doctests (one session: later blocks see the
    names earlier ones set)."""
    import doctest

    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    names: dict[str, object] = {}
    for number, block in enumerate(_pycon(path)):
        name = f"{_relative(path)} pycon block {number + 1}"
        test = parser.get_doctest(block, names, name, str(path), 0)
        runner.run(test, clear_globs=False)
        names = test.globs
    assert runner.summarize(verbose=False).failed == 0


def test_the_readme_has_python_examples() -> None:
    assert _pycon(README)


def main() -> None:
    """Print every example with its real output (``--all`` includes the long ones)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        folders: dict[str, Path] = {}
        for example in EXAMPLES:
            if example.long and "--all" not in sys.argv:
                print(f"# {example.name}: skipped (long): {example.command}")
                continue
            if example.file not in folders:
                folders[example.file] = Path(tmp) / re.sub(r"\W+", "-", example.file)
                _workdir(folders[example.file])
            status, actual = run(example, folders[example.file])
            ok = status == example.status and (
                not example.expected or matches(example.expected, actual)
            )
            print(f"# {example.name}: {'ok' if ok else 'DIFFERS'} (exit {status})")
            print("$ " + example.command)
            print("\n".join(actual))


if __name__ == "__main__":
    main()
