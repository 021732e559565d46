"""``boardproof serve``: the local analysis board (:mod:`boardproof.web`, extra ``[web]``)."""

from __future__ import annotations

import socket

import click

from boardproof.models.base import InvalidOptionError


def run_server(host: str, port: int) -> None:
    """Serve the analysis board on ``host:port`` until interrupted."""
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
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
    # uvicorn returns only when a signal (Ctrl-C) stopped it
    raise KeyboardInterrupt


@click.command(name="serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (localhost by default).")  # fmt: skip
@click.option("--port", type=int, default=8000, show_default=True, help="TCP port.")
def serve_command(host: str, port: int) -> None:
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
    run_server(host, port)
