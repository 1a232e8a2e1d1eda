"""A real SMTP server for tests (aiosmtpd, on a thread of its own and a free port): every mail
it receives is kept, parsed, in ``mails``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller

from tests.support.server import free_port

LINK = re.compile(r"https?://\S+")


class Inbox:
    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        mail = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(mail, EmailMessage)
        self.mails.append(mail)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        return [mail for mail in self.mails if mail["To"] == address]


def text_of(mail: EmailMessage) -> str:
    body = mail.get_body(("plain",))
    assert body is not None
    return body.get_content()


def links_in(mail: EmailMessage) -> list[str]:
    return LINK.findall(text_of(mail))


@contextmanager
def smtp_server() -> Iterator[tuple[Inbox, int]]:
    """An SMTP server that keeps what it receives: its inbox and port."""
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()
