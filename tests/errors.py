"""What the tests expect of a refused command: one error line, no traceback."""

from __future__ import annotations


def one_error_line(err: str) -> str:
    """The single non-blank line of ``err``, which must start with ``error: ``."""
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    assert "Traceback" not in err
    return lines[0]
