"""Every error answers ``{"error": {"code", "message"}}``; a client's mistake is never a 500."""

from __future__ import annotations

import logging
from collections.abc import Callable

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from app.db.driver import ConnectionLost
from app.rooms.errors import RoomError

log = logging.getLogger(__name__)

HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    429: "rate_limited",
}

# a path's number outside its range (app.api.params) names nothing: 404, not 422
OUT_OF_RANGE = ("greater_than_equal", "less_than_equal")


class ApiError(Exception):
    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.headers = headers or {}


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


class RefuseNulBytes:
    """No database stores a NUL in text, so a request with one in its path or query is
    refused here with a 400 instead of failing deep inside a query."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            raw = scope.get("raw_path") or scope.get("path", "").encode()
            if b"\x00" in raw or b"%00" in raw or b"%00" in scope.get("query_string", b""):
                if scope["type"] == "http":
                    response = error_response(400, "bad_request", "The address holds a NUL byte.")
                    await response(scope, receive, send)
                else:
                    await send({"type": "websocket.close", "code": 1008})
                return
        await self.app(scope, receive, send)


# Answers a 404 outside the API as a page: the HTML page, or ``None`` for the JSON error.
NotFoundPage = Callable[[Request], Response | None]


def install(app: FastAPI, *, not_found_page: NotFoundPage | None = None) -> None:
    @app.exception_handler(ApiError)
    async def api_error(_: Request, error: ApiError) -> JSONResponse:
        response = error_response(error.status, error.code, error.message)
        response.headers.update(error.headers)
        return response

    @app.exception_handler(RoomError)
    async def room_error(_: Request, error: RoomError) -> JSONResponse:
        return error_response(error.status, error.code, error.message)

    @app.exception_handler(DBAPIError)
    async def database_error(request: Request, error: DBAPIError) -> JSONResponse:
        if not error.connection_invalidated:
            raise error
        return await connection_lost(request, error.orig)

    @app.exception_handler(ConnectionLost)
    async def connection_lost(_: Request, error: BaseException) -> JSONResponse:
        log.warning("a database connection was lost (the pool is renewed): %s", error)
        response = error_response(
            503, "unavailable", "The database connection was reset; please try again."
        )
        response.headers["Retry-After"] = "1"
        return response

    @app.exception_handler(PoolTimeout)
    async def pool_exhausted(_: Request, error: PoolTimeout) -> JSONResponse:
        log.warning("no database connection came free in time: %s", error)
        response = error_response(503, "busy", "The server is too busy right now; try again.")
        response.headers["Retry-After"] = "2"
        return response

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> Response:
        if error.status_code == 404 and not_found_page is not None:
            page = not_found_page(request)
            if page is not None:
                return page
        code = HTTP_CODES.get(error.status_code, "error")
        message = error.detail if isinstance(error.detail, str) else code.replace("_", " ")
        return error_response(error.status_code, code, message)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        problems = error.errors()
        if any(p.get("type") == "json_invalid" for p in problems):
            return error_response(400, "bad_json", "The request body is not valid JSON.")
        first = problems[0] if problems else {}
        if first.get("loc", ("",))[0] == "path" and first.get("type") in OUT_OF_RANGE:
            return error_response(404, "not_found", "Nothing has that number.")
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
        message = f"{where}: {first.get('msg', 'invalid')}" if where else first.get("msg", "")
        return error_response(422, "invalid_request", message or "The request is not valid.")

    @app.exception_handler(Exception)
    async def crash(request: Request, error: Exception) -> JSONResponse:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return error_response(500, "internal", "Something went wrong on our side.")
