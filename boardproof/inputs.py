"""Reading an input file with a size limit: ``/dev/zero`` or an endless pipe given as a
proof, a record or a puzzle file is refused instead of filling the memory.

>>> import os, tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     path = os.path.join(folder, "x.txt")
...     _ = open(path, "w").write("abc")
...     print(read_text(path), read_bytes(path, limit=3))
...     try:
...         read_bytes(path, limit=2)
...     except OSError as error:
...         print(error.strerror)
abc b'abc'
larger than 2 bytes
"""

from __future__ import annotations

import errno
import os
from typing import BinaryIO

#: the largest input file read (bytes): far above any proof, record or report written here
MAX_INPUT_BYTES = 512 * 1024 * 1024


def read_stream(handle: BinaryIO, name: str, limit: int | None = None) -> bytes:
    """At most ``limit`` bytes of ``handle`` (default :data:`MAX_INPUT_BYTES`); OSError
    (EFBIG) if there are more."""
    most = MAX_INPUT_BYTES if limit is None else limit
    raw = handle.read(most + 1)
    if len(raw) > most:
        size = f"{most >> 20} MiB" if most >= 1 << 20 else f"{most} bytes"
        raise OSError(errno.EFBIG, f"larger than {size}", name)
    return raw


def read_bytes(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """The bytes of the file ``path``; OSError (EFBIG) beyond ``limit`` bytes."""
    with open(path, "rb") as handle:
        return read_stream(handle, str(path), limit)


def read_text(path: str | os.PathLike[str], limit: int | None = None) -> str:
    """The UTF-8 text of the file ``path`` (UnicodeDecodeError if it is not UTF-8)."""
    return read_bytes(path, limit).decode("utf-8")
