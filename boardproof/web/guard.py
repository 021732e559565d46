"""Local means local: the analysis board answers only requests made for its own loopback
names and from its own pages.

A web page the user visits elsewhere could otherwise drive the server: by DNS rebinding
(its own name resolved to 127.0.0.1, so the browser sends ``Host: evil.example``) or by a
cross-site ``POST`` (the browser sends ``Origin: https://evil.example``). :class:`Guard`
refuses both with HTTP 403 and one line, before any work, as Jupyter does:

- the ``Host`` header must name a loopback address (``localhost``, ``127.x.y.z``,
  ``::1``), on any port, or a host the user allowed;
- an ``Origin`` header, when there is one, must be such a host too (its own pages send
  their origin on a ``POST``), or an origin the user allowed.

``boardproof serve --allow-origin URL`` allows one more origin (and its host name), e.g.
to use the board from another machine of a trusted network; ``*`` allows every one.

>>> host_name("127.0.0.1:8000"), host_name("[::1]:80"), host_name("Evil.Example")
('127.0.0.1', '::1', 'evil.example')
>>> is_loopback("localhost"), is_loopback("127.3.4.5"), is_loopback("10.0.0.1")
(True, True, False)
>>> Guard(None).refusal("evil.example", None)  # doctest: +ELLIPSIS
"forbidden: the Host header names another site: 'evil.example' (the board answers ..."
>>> Guard(None).refusal("127.0.0.1:8000", "http://localhost:8000") is None
True
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

#: the names of the loopback interface that need no address check
LOOPBACK_NAMES = frozenset({"localhost", "localhost.", "ip6-localhost"})

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def host_name(value: str) -> str:
    """The host name of a ``Host`` header or a URL's netloc: no port, no brackets."""
    text = value.strip().lower()
    if text.startswith("["):  # [::1]:8000
        return text[1:].split("]", 1)[0]
    if text.count(":") == 1:
        return text.split(":", 1)[0]
    return text


def is_loopback(name: str) -> bool:
    """Whether ``name`` (a host name without port) is this machine's loopback."""
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _shown(text: str) -> str:
    return repr(text if len(text) <= 80 else text[:77] + "...")


class Guard:
    """ASGI middleware: refuse (403) a foreign ``Host`` or a foreign ``Origin``."""

    def __init__(self, app: Any, allow_origins: Iterable[str] = ()) -> None:
        self.app = app
        origins = [origin.strip().rstrip("/").lower() for origin in allow_origins]
        self.any_origin = "*" in origins
        self.origins = frozenset(o for o in origins if o != "*")
        self.hosts = frozenset(host_name(urlsplit(o).netloc or o) for o in self.origins)

    def _host_allowed(self, name: str) -> bool:
        return self.any_origin or is_loopback(name) or name in self.hosts

    def refusal(self, host: str | None, origin: str | None) -> str | None:
        """Why a request with these headers is refused (one line), or None."""
        if host is None or not self._host_allowed(host_name(host)):
            return (f"forbidden: the Host header names another site: {_shown(host or '')} "
                    "(the board answers only for its loopback names; boardproof serve "
                    "--allow-origin URL opens it to another)")  # fmt: skip
        if origin is None:
            return None
        wanted = origin.strip().rstrip("/").lower()
        parts = urlsplit(wanted)
        if self.any_origin or wanted in self.origins:
            return None
        if parts.scheme in ("http", "https") and is_loopback(host_name(parts.netloc)):
            return None
        return (f"forbidden: the request comes from another site: Origin {_shown(origin)} "
                "(boardproof serve --allow-origin URL allows it)")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers") or []}  # fmt: skip
        why = self.refusal(headers.get("host"), headers.get("origin"))
        if why is None:
            await self.app(scope, receive, send)
            return
        body = json.dumps({"error": f"error: {why}"}).encode()
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})  # fmt: skip
        await send({"type": "http.response.body", "body": body})
