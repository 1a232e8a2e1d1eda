"""``python -m app``: serve with the settings every deployment needs (frame cap, ws auto)."""

from __future__ import annotations

import uvicorn

from app.settings import get_settings


def main() -> None:
    settings = get_settings()
    uvicorn.run(
        "app.main:create_app",
        factory=True,
        host=settings.host,
        port=settings.port,
        ws="auto",
        ws_max_size=settings.max_frame_bytes,
        # Measured with tests/bench/load.py: compressing small JSON frames costs more CPU
        # than it saves, and doubles the memory of every idle socket (37 KB -> 77 KB).
        ws_per_message_deflate=False,
        proxy_headers=True,
        log_level="info",
    )


if __name__ == "__main__":
    main()
