"""The floor's server: ``tests.bench.echo_app`` under the uvicorn settings of ``python -m app``.

    CARDROOM_PORT=8001 python -m tests.bench._echo_server

Keep the ``uvicorn.run`` arguments in step with ``app/__main__.py``: the floor is only a floor
if the same HTTP/WebSocket stack (loop, parser, ws implementation, frame cap, per-message
deflate default, logging) serves it.
"""

from __future__ import annotations

import uvicorn

from app.settings import get_settings


def main() -> None:
    settings = get_settings()
    uvicorn.run(
        "tests.bench.echo_app:create_app",
        factory=True,
        host=settings.host,
        port=settings.port,
        ws="auto",
        ws_max_size=settings.max_frame_bytes,
        proxy_headers=True,
        log_level="info",
    )


if __name__ == "__main__":
    main()
