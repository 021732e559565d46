"""``boardproof serve``: the local analysis board (:mod:`boardproof.web`, extra ``[web]``)."""

from __future__ import annotations

import socket

import click

from boardproof.models.base import InvalidOptionError

#: connections served at once (more are answered 503 by uvicorn), and the seconds an idle
#: kept-alive connection is kept
MAX_CONNECTIONS = 64
KEEP_ALIVE_SECONDS = 5


def run_server(host: str, port: int, allow_origins: tuple[str, ...] = ()) -> None:
    """Serve the analysis board on ``host:port`` until interrupted (``allow_origins``:
    the origins allowed beyond the loopback ones; see :mod:`boardproof.web.guard`)."""
    try:
        import uvicorn

        from boardproof.web.app import create_app
    except ModuleNotFoundError as error:
        raise InvalidOptionError(
            "serve needs the optional web extra: pip install 'boardproof[web]' "
            f"(missing module {error.name!r})"
        ) from None
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except (OSError, OverflowError) as error:
        why = getattr(error, "strerror", None) or str(error)
        raise InvalidOptionError(
            f"invalid option --port: cannot listen on {host}:{port} ({why}): {port!r}"
        ) from None
    click.echo(f"analysis board on http://{host}:{port}/ (Ctrl-C stops it)", err=True)
    if allow_origins:
        click.echo(f"allowed origins beyond this machine: {', '.join(allow_origins)}", err=True)
    uvicorn.run(create_app(allow_origins=allow_origins), host=host, port=port,
                log_level="warning", limit_concurrency=MAX_CONNECTIONS,
                timeout_keep_alive=KEEP_ALIVE_SECONDS)  # fmt: skip
    # uvicorn returns only when a signal (Ctrl-C) stopped it
    raise KeyboardInterrupt


@click.command(name="serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (localhost by default).")  # fmt: skip
@click.option("--port", type=int, default=8000, show_default=True, help="TCP port.")
@click.option("--allow-origin", "allow_origins", multiple=True, metavar="URL",
              help="Also answer requests for this origin's host and from its pages, e.g. "
                   "http://192.168.1.5:8000 (repeatable; * allows every site: then any "
                   "web page you visit can use the board). By default only this machine's "
                   "loopback names are answered.")  # fmt: skip
def serve_command(host: str, port: int, allow_origins: tuple[str, ...]) -> None:
    """Start the local analysis board: pick a game, edit a position, play, solve.

    \b
    Example:
      boardproof serve --port 8000    # then open http://127.0.0.1:8000/
    """
    if not host.strip():
        raise InvalidOptionError(
            f"invalid option --host: expected an address such as 127.0.0.1, got {host!r} "
            "(0.0.0.0 listens on every interface)"
        )
    if not 0 <= port <= 65535:
        raise InvalidOptionError(f"invalid option --port: expected 0 to 65535, got {port!r}")
    for origin in allow_origins:
        if origin != "*" and not origin.startswith(("http://", "https://")):
            raise InvalidOptionError(
                f"invalid option --allow-origin: expected a URL such as "
                f"http://192.168.1.5:8000 or *, got {origin!r}"
            )
    run_server(host, port, allow_origins)
