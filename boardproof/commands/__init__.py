"""Command-line commands of the subsystems, one module each.

Each module defines ``register(group)`` that adds its click commands to the
``boardproof`` group (see :data:`boardproof.cli.COMMAND_MODULES`). The helpers
below (option types, quoting) are shared by every command.
"""

from __future__ import annotations

import math
from typing import Any

import click


def quoted(text: str, limit: int = 80) -> str:
    """``repr(text)`` cut to about ``limit`` characters (long inputs stay readable).

    >>> quoted("x" * 200)[-6:], len(quoted("x" * 200)) <= 83
    ("xx...'", True)
    """
    if len(text) <= limit:
        return repr(text)
    return repr(text[: limit - 3] + "...")



class Seconds(click.ParamType):
    """A time limit: a finite number of seconds > 0 (``nan`` and ``inf`` are refused)."""

    name = "seconds"

    def convert(self, value: Any, param: Any, ctx: Any) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"expected a number of seconds > 0, got {quoted(str(value))}", param, ctx)
        if not math.isfinite(seconds) or seconds <= 0:
            self.fail(f"expected a number of seconds > 0, got {quoted(str(value))}", param, ctx)
        return seconds


SECONDS = Seconds()
