"""``python -m app``: serve with the settings every deployment needs (frame cap, the limits of
:mod:`app.serving`, whose proxies to believe)."""

from __future__ import annotations

import gc

import uvicorn

from app.serving import HttpProtocol, WebSocketProtocol
from app.settings import get_settings

# Every message allocates many short-lived objects; at the default (700, 10, 10) the cyclic
# collector ran ten times a second and a full pass over the rooms took 150 ms at 100 rooms
# (tests/bench/_gc_probe.py). Collections are rarer now; see also gc.freeze() in app.main.
GC_THRESHOLDS = (5000, 20, 100)


def main() -> None:
    settings = get_settings()
    gc.set_threshold(*GC_THRESHOLDS)
    uvicorn.run(
        "app.main:create_app",
        factory=True,
        host=settings.host,
        port=settings.port,
        # uvicorn's httptools and websockets protocols, with bounds on a request's head and
        # on the frames a socket may send (app/serving.py)
        http=HttpProtocol,
        ws=WebSocketProtocol,
        ws_max_size=settings.max_frame_bytes,
        # Measured with tests/bench/load.py: compressing small JSON frames costs more CPU
        # than it saves, and doubles the memory of every idle socket (37 KB -> 77 KB).
        ws_per_message_deflate=False,
        # X-Forwarded-For and -Proto are believed from these proxies only, whatever uvicorn's
        # FORWARDED_ALLOW_IPS says; the client is the last address a trusted proxy added
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=settings.trusted_proxies,
        log_level="info",
    )


if __name__ == "__main__":
    main()
