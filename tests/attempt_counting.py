"""Shared by the tests of the budgeted attempts: :func:`counted` records every attempt
that a run makes (the ``counting`` fixture of ``conftest.py`` puts it in place of
``subtrees.attempt``)."""

from __future__ import annotations

from boardproof.models.minefield.research import subtrees

CALLS: list[tuple] = []
ATTEMPT = subtrees.attempt


def counted(arg):
    CALLS.append(tuple(arg))
    return ATTEMPT(arg)
