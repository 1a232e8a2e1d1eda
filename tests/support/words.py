"""What page text never shows a player: identifiers (snake_case words) and raw ``{...}``."""

from __future__ import annotations

import re

from playwright.sync_api import Locator

IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b|[{}]")


def assert_player_words(where: Locator) -> None:
    """The visible text of ``where`` has no identifier and no raw braces."""
    text = where.inner_text()
    found = IDENTIFIER.search(text)
    around = text[max(0, found.start() - 80) : found.end() + 80] if found else ""
    assert found is None, f"{found.group(0)!r} in: {around!r}"
