"""The floor's server: ``tests.bench.echo_app`` under the uvicorn settings of ``python -m app``.

    CARDROOM_PORT=8001 python -m tests.bench._echo_server

It runs ``app.__main__.main()`` with ``uvicorn.run`` intercepted, keeps every keyword argument
(loop, ws implementation, frame cap, per-message deflate, proxy headers, logging, host and
port from the same settings) and serves the echo app with them instead: the floor cannot
drift from the server's stack when ``app/__main__.py`` changes.
"""

from __future__ import annotations

from typing import Any

import uvicorn

from app import __main__ as app_main

ECHO_APP = "tests.bench.echo_app:create_app"


def server_options() -> dict[str, Any]:
    """The keyword arguments ``python -m app`` passes to ``uvicorn.run``."""
    captured: dict[str, Any] = {}
    real_run = uvicorn.run

    def capture(app: Any, **kwargs: Any) -> None:
        captured.update(kwargs)

    uvicorn.run = capture  # type: ignore[assignment]
    try:
        app_main.main()
    finally:
        uvicorn.run = real_run  # type: ignore[assignment]
    if not captured:
        raise RuntimeError("app.__main__.main() did not call uvicorn.run")
    return captured


def main() -> None:
    options = server_options()
    options["factory"] = True  # echo_app is a factory, whatever the app's entry point is
    uvicorn.run(ECHO_APP, **options)


if __name__ == "__main__":
    main()
