"""Reading a request's JSON body without trusting it: bounded in size, time and nesting.

Every refusal is a :class:`Refused` (a :class:`BoardproofError`) with the HTTP status it
is answered with and the one-line message: 413 for a body over :data:`MAX_BODY` bytes,
408 for one that does not arrive within :data:`BODY_SECONDS`, 400 for one that is not
UTF-8, not JSON, nested deeper than :data:`MAX_DEPTH` or not a JSON object.

>>> parse_object(b'{"game": "minefield"}')
{'game': 'minefield'}
>>> parse_object(b"[1, 2, 3]")
Traceback (most recent call last):
...
boardproof.web.body.Refused: invalid request: expected a JSON object, got [1, 2, 3]
>>> parse_object(b"[" * 50000)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
boardproof.web.body.Refused: invalid request: JSON nested deeper than 32 levels: '[[[[...
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from boardproof.models.base import BoardproofError

#: the largest request body accepted (bytes): 413 above
MAX_BODY = 64 * 1024
#: the deepest nesting of arrays and objects accepted (the API needs 2)
MAX_DEPTH = 32
#: seconds a client may take to send its body: 408 after (a slow client holds nothing
#: else: each request is its own task)
BODY_SECONDS = 10.0


class Refused(BoardproofError):
    """A request refused before any work: its HTTP ``status`` and one-line message."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _shown(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def nesting_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` outside strings in JSON ``text``.

    >>> nesting_depth('{"a": [1, {"b": "[[["}]}')
    3
    """
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def parse_object(raw: bytes) -> dict[str, Any]:
    """The JSON object in ``raw`` (an empty body is ``{}``), or :class:`Refused` (400)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise Refused(f"invalid request: the body is not UTF-8 (byte {error.start}): "
                      f"{raw[:40]!r}") from None  # fmt: skip
    if nesting_depth(text) > MAX_DEPTH:
        raise Refused(f"invalid request: JSON nested deeper than {MAX_DEPTH} levels: "
                      f"{_shown(text)!r}")  # fmt: skip
    try:
        data = json.loads(text or "{}", parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
        raise Refused(f"invalid request: not JSON ({error}): {_shown(text)!r}") from None
    if not isinstance(data, dict):
        raise Refused(f"invalid request: expected a JSON object, got {_shown(data)}")
    return data


async def read_object(request: Any) -> dict[str, Any]:
    """The JSON object of a Starlette ``request``'s body, read within the limits."""
    length = request.headers.get("content-length")
    if length is not None:
        if not length.strip().isdigit():
            raise Refused(f"invalid request: bad Content-Length: {_shown(length)!r}")
        if int(length) > MAX_BODY:
            raise Refused(f"invalid request: the body is larger than {MAX_BODY} bytes: "
                          f"{int(length)} bytes", 413)  # fmt: skip

    async def collect() -> bytes:
        chunks: list[bytes] = []
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise Refused(f"invalid request: the body is larger than {MAX_BODY} bytes",
                              413)  # fmt: skip
            chunks.append(chunk)
        return b"".join(chunks)

    try:
        raw = await asyncio.wait_for(collect(), BODY_SECONDS)
    except TimeoutError:
        raise Refused(f"invalid request: the body did not arrive within {BODY_SECONDS:g} s",
                      408) from None  # fmt: skip
    return parse_object(raw)
