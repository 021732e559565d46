"""Helpers for the browser tests: Debian's chromium driven by Playwright (no browser download).

``BOARDPROOF_NO_BROWSER=1`` skips the browser tests (a machine without chromium);
otherwise a missing chromium or Playwright is a failure, not a skip: ``make test``
installs both.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def need_browser() -> None:
    if os.environ.get("BOARDPROOF_NO_BROWSER") == "1":
        pytest.skip("BOARDPROOF_NO_BROWSER=1")
    assert os.path.exists(CHROMIUM), f"{CHROMIUM} is missing: run `make test` (it installs it)"


@contextmanager
def browser() -> Iterator[Any]:
    """A headless chromium (Playwright's Browser)."""
    need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


class ConsoleErrors:
    """Collects every console error and uncaught exception of a page."""

    def __init__(self, page: Any) -> None:
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def check(self, expected: tuple[str, ...] = ()) -> None:
        """No error but the ``expected`` ones (each seen exactly once, in order)."""
        assert self.errors == list(expected), self.errors


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(port: int, server: subprocess.Popen[str], seconds: float = 30.0) -> None:
    """Wait until ``server`` listens on ``port`` (it must not exit meanwhile)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert server.poll() is None, server.communicate()
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"the server did not listen on port {port}")
