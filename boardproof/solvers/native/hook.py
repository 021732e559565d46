"""A live node count from the native (C) searches, for progress displays.

The C searches are silent until they return; while :func:`live_nodes` is active, each
calls ``report(nodes, depth)`` every 2**20 nodes (Minefield: ``depth`` is the ply
horizon of the search, 0 when it has none; Carpniches: the depth of the iteration; Candy
Conquest: the plies of the win-within search).
The hook only reads the counters: the searches visit the same nodes with and without
it. An exception raised by ``report`` (``KeyboardInterrupt``…) stops the search and
is raised by it.

>>> seen = []
>>> with live_nodes(lambda nodes, depth: seen.append(nodes)):
...     pass
>>> seen
[]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from boardproof import models

#: how often the C searches call the hook (nodes)
EVERY = 1 << 20


def _modules() -> list[Any]:
    """The compiled modules of every game's engine that offer the hook (``Engine.hooks``)."""
    found = []
    for name in models.names():
        engine = models.info(name).part("engine")
        if engine is not None:
            found += [module for module in engine.hooks() if hasattr(module, "set_hook")]
    return found


@contextmanager
def live_nodes(report: Callable[[int, int], object]) -> Iterator[None]:
    """While active, ``report(nodes, depth)`` every :data:`EVERY` nodes of a C search."""
    modules = _modules()
    for module in modules:
        module.set_hook(report)
    try:
        yield
    finally:
        for module in modules:
            module.set_hook(None)
