"""A visitor in the browser: a page of its own that has chosen a name in the header."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect


def sign_in(page: Page, name: str) -> None:
    """Choose a name in the header form (the server sets the session cookie)."""
    expect(page.locator("#name-form")).to_be_visible()
    page.fill("#name-input", name)
    page.click("#name-form button[type=submit]")
    expect(page.locator("#session-link")).to_have_text(name)
    expect(page.locator("#name-form")).to_be_hidden()


def visitor(new_page: Callable[..., Page], name: str, path: str = "/", **kwargs: Any) -> Page:
    page = new_page(**kwargs)
    page.goto(path)
    sign_in(page, name)
    return page
