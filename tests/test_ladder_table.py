"""The ladder table of ``docs/engine.md`` is what ``benchmarks/ladder_table.py`` computes
from the published ladder logs, and the script's doctests pass."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import ladder_table  # noqa: E402


def test_docs_quote_the_logs() -> None:
    table = ladder_table.table(ROOT / p for p in ladder_table.PUBLISHED)
    quote = ladder_table.quoted(ladder_table.DOCS.read_text())
    assert quote == table, "docs/engine.md: run benchmarks/ladder_table.py --docs"


def test_doctests() -> None:
    assert doctest.testmod(ladder_table).failed == 0


def test_a_changed_game_changes_the_row(tmp_path: Path) -> None:
    log = ROOT / ladder_table.PUBLISHED[0]
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    flipped = next(i for i, line in enumerate(lines) if line["new_score"] == 0.0)
    lines[flipped]["new_score"] = 1.0
    copy = tmp_path / "log.jsonl"
    copy.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert ladder_table.table([copy]) != ladder_table.table([log])


def test_bad_log_is_one_line_and_status_2(tmp_path: Path) -> None:
    missing = tmp_path / "nothing.jsonl"
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "ladder_table.py"),
                           str(missing)], capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip() == f"logs: no such file: {missing}"
