"""The floor: a bare FastAPI WebSocket echo, served by the same uvicorn settings as cardroom."""

from __future__ import annotations

from fastapi import FastAPI, WebSocket
from starlette.websockets import WebSocketDisconnect


def create_app() -> FastAPI:
    app = FastAPI()

    @app.get("/healthz")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.websocket("/echo")
    async def echo(websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            while True:
                await websocket.send_text(await websocket.receive_text())
        except WebSocketDisconnect:
            return

    return app
