"""A room socket over a plain TCP socket, for floods: the handshake by hand, then frames built
in advance (as many as wanted, in one write) and every frame the server sends read back, to
the end of the connection. What a flooding client does that a well-behaved library will not.
"""

from __future__ import annotations

import base64
import os
import socket
import struct
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from websockets.frames import Close, Frame, Opcode


def frame(opcode: Opcode, payload: bytes = b"") -> bytes:
    """One client frame (masked, as a client's must be)."""
    return Frame(opcode, payload).serialize(mask=True, extensions=[])


def text(message: str) -> bytes:
    return frame(Opcode.TEXT, message.encode())


PING = frame(Opcode.PING)


@dataclass
class Heard:
    """What the server sent: its frames in order, and whether it closed the connection."""

    frames: list[tuple[Opcode, bytes]] = field(default_factory=list)
    ended: bool = False

    def count(self, opcode: Opcode) -> int:
        return sum(1 for kind, _ in self.frames if kind is opcode)

    def texts(self) -> list[str]:
        return [data.decode() for kind, data in self.frames if kind is Opcode.TEXT]

    @property
    def close_code(self) -> int | None:
        for kind, data in self.frames:
            if kind is Opcode.CLOSE:
                return Close.parse(data).code
        return None


class RawSocket:
    def __init__(
        self, base_url: str, path: str, *, source: str | None = None, timeout: float = 10
    ) -> None:
        address = urlsplit(base_url)
        self.sock = socket.create_connection(
            (address.hostname, address.port),
            timeout=timeout,
            source_address=(source, 0) if source else None,
        )
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: {address.netloc}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError(f"no handshake answer: {self.buffer!r}")
            self.buffer += chunk
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        status = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status:
            raise ConnectionError(f"not upgraded: {status!r}")

    def send(self, data: bytes) -> bool:
        """Write ``data``; False when the server has closed the connection meanwhile."""
        try:
            self.sock.sendall(data)
        except OSError:  # reset or broken pipe: the server closed it
            return False
        return True

    def hear(self, until_s: float = 10, heard: Heard | None = None) -> Heard:
        """Read frames until the server closes the socket (a close frame, or the end of the
        connection), or ``until_s`` has passed."""
        heard = heard or Heard()
        deadline = time.monotonic() + until_s
        while not heard.ended and heard.close_code is None:
            self._parse(heard)
            left = deadline - time.monotonic()
            if left <= 0:
                break
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(1 << 20)
            except TimeoutError:
                break
            except OSError:
                chunk = b""
            if not chunk:
                heard.ended = True
            self.buffer += chunk
        self._parse(heard)
        return heard

    def _parse(self, heard: Heard) -> None:
        data = self.buffer
        at = 0
        while len(data) - at >= 2:
            opcode, length = Opcode(data[at] & 0x0F), data[at + 1] & 0x7F
            start = at + 2
            if length == 126:
                if len(data) - start < 2:
                    break
                (length,) = struct.unpack_from("!H", data, start)
                start += 2
            elif length == 127:
                if len(data) - start < 8:
                    break
                (length,) = struct.unpack_from("!Q", data, start)
                start += 8
            if len(data) - start < length:
                break
            heard.frames.append((opcode, data[start : start + length]))
            at = start + length
        self.buffer = data[at:]

    def close(self) -> None:
        self.sock.close()
