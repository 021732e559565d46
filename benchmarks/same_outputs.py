"""Do two builds of boardproof print the same results? A refactor must leave every output
byte for byte the same, timings aside.

The other build is a commit of this repository, checked out in a temporary git worktree;
its C extensions are compiled there in place (each ``*.c`` under ``boardproof/`` into the
module its ``PyInit_`` names, with this Python's headers), and both builds run the same
commands with this Python (``PYTHONPATH`` picks the build). Standard output and every file
a command writes are compared after masking what measures time (``"seconds": 0.12``,
``0.3s elapsed``, table columns of seconds, the plot of the times).

    .venv/bin/python benchmarks/same_outputs.py --base 3a05934

prints one line per command (``same`` or the first differing line) and exits 1 when any
output differs.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: (name, command line after ``boardproof``); ``{new:GAME}`` is the start position of GAME
COMMANDS: list[tuple[str, list[str]]] = [
    ("perft minefield", ["perft", "minefield", "5/5/5/5/5 b p", "3"]),
    ("perft carpniches", ["perft", "carpniches", "(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1", "3"]),
    ("solve minefield", ["solve", "minefield", "1b2/2w1/1bb1/w3 w -", "--json"]),
    ("solve carpniches", ["solve", "carpniches", "{new:carpniches}", "--max-plies", "5",
                          "--json"]),
    ("solve candy", ["solve", "candy", "{new:candy}", "--max-plies", "3", "--json"]),
    ("analyse minefield", ["analyse", "minefield", "5/5/5/5/5 b -", "--iterations", "300",
                           "--seed", "3", "--json"]),
    ("analyse carpniches", ["analyse", "carpniches", "{new:carpniches}", "--iterations",
                            "200", "--seed", "3", "--json"]),
    ("show --svg", ["show", "minefield", "1b2/2w1/1bb1/w3 w -", "--svg", "picture.svg"]),
    *[(f"puzzle daily {game} {date}", ["puzzle", "daily", game, "--date", date, "--json"])
      for game in ("minefield", "carpniches", "candy", "collexion")
      for date in ("2026-12-01", "2026-06-15")],
    ("openings minefield 2-4", ["openings", "minefield", "--sizes", "2-4", "--out", "op"]),
    ("openings carpniches", ["openings", "carpniches", "--max-plies", "5", "--out", "opc"]),
    ("verify no-draw 2-6", ["verify", "minefield-no-draw", "--sizes", "2-6", "--out", "vd"]),
    ("verify orthodiagonal 2-5", ["verify", "minefield-orthodiagonal", "--sizes", "2-5",
                                  "--out", "vo"]),
    ("site 2 days", ["site", "--out", "site", "--days", "2", "--date", "2026-12-01",
                     "--quiet"]),
]  # fmt: skip

#: what measures time, masked before comparing
TIMINGS = [
    (re.compile(r'("(?:wall_)?seconds[a-z_]*"|"iterations_per_second"): [0-9.e+-]+'),
     r"\1: T"),
    (re.compile(r"\b\d+\.\d+ ?s\b"), "T s"),
    (re.compile(r"\| \d+\.\d+ \|"), "| T |"),
    (re.compile(r"\(\d+\.\d+ s\)"), "(T s)"),
    (re.compile(r"^seconds: .*$", re.M), "seconds: T"),
    # the console tables' seconds column (two decimals), whose width follows the numbers
    (re.compile(r"(?<= )\d+\.\d\d(?= )"), "T"),
    (re.compile(r"  +"), " "),
]  # fmt: skip
#: files whose whole content is a measure of time (a plot of seconds per size)
TIME_PLOTS = ("minefield-no-draw.svg", "minefield-orthodiagonal.svg")
#: journals of the runs: they hold the seconds of every task
SKIPPED = ("checkpoints",)


def build(commit: str, folder: Path) -> None:
    """Check ``commit`` out into ``folder`` and compile its C extensions in place."""
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(folder),
                    commit], check=True, capture_output=True)  # fmt: skip
    include = sysconfig.get_paths()["include"]
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    shared = [str(p) for p in (folder / "boardproof").rglob("native") if p.is_dir()]
    for source in sorted((folder / "boardproof").rglob("*.c")):
        found = re.search(r"PyInit_(\w+)", source.read_text())
        if found is None:
            continue
        target = source.parent / (found.group(1) + suffix)
        flags = ["-O3", "-std=c11", "-shared", "-fPIC", f"-I{include}", f"-I{source.parent}"]
        flags += [f"-I{path}" for path in shared]
        subprocess.run(["cc", *flags, str(source), "-o", str(target)], check=True)


def run(tree: Path, words: list[str], cwd: Path) -> str:
    """The standard output of ``boardproof WORDS`` run with the build in ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    resolved = []
    for word in words:
        if word.startswith("{new:"):
            game = word[5:-1]
            word = subprocess.run([sys.executable, "-m", "boardproof.cli", "new", game],
                                  env=env, cwd=cwd, capture_output=True, text=True,
                                  check=True).stdout.strip()  # fmt: skip
        resolved.append(word)
    done = subprocess.run([sys.executable, "-m", "boardproof.cli", *resolved], env=env,
                          cwd=cwd, capture_output=True, text=True)  # fmt: skip
    return f"exit {done.returncode}\n{done.stdout}"


def masked(text: str) -> str:
    for pattern, replacement in TIMINGS:
        text = pattern.sub(replacement, text)
    return text


def outputs(folder: Path) -> dict[str, str]:
    """Every file a command wrote, by relative path, timings masked."""
    found = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if not path.is_file() or relative.parts[-1] in TIME_PLOTS:
            continue
        if any(part in SKIPPED for part in relative.parts):
            continue
        found[str(relative)] = masked(path.read_text(errors="replace"))
    return found


def first_difference(old: str, new: str) -> str:
    for line in difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=0):
        if line.startswith(("-", "+")) and not line.startswith(("---", "+++")):
            return line[:150]
    return "differs"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the commit to compare with")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="same-outputs-"))
    base = work / "base"
    differ = 0
    try:
        build(args.base, base)
        for name, words in COMMANDS:
            texts = []
            for tree in (base, ROOT):
                cwd = work / ("old" if tree == base else "new") / re.sub(r"\W+", "-", name)
                cwd.mkdir(parents=True)
                stdout = masked(run(tree, words, cwd))
                texts.append((stdout, outputs(cwd)))
            (old_out, old_files), (new_out, new_files) = texts
            problems = []
            if old_out != new_out:
                problems.append("stdout: " + first_difference(old_out, new_out))
            for path in sorted(set(old_files) | set(new_files)):
                if old_files.get(path) != new_files.get(path):
                    problems.append(f"{path}: " + first_difference(old_files.get(path, ""),
                                                                   new_files.get(path, "")))
            differ += bool(problems)
            print(f"{name}: " + ("same" if not problems else "; ".join(problems)), flush=True)
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)],
                       capture_output=True)  # fmt: skip
        shutil.rmtree(work, ignore_errors=True)
    print(f"{len(COMMANDS) - differ} of {len(COMMANDS)} commands give the same outputs")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
