"""What text a person may show others: player names and chat messages follow one rule."""

from __future__ import annotations


class UnfitText(ValueError):
    """Text that breaks the rule; the message says how, for the person who typed it."""


def clean_text(raw: str, *, what: str, longest: int) -> str:
    """``raw`` with every run of whitespace (newlines, tabs, line and paragraph separators)
    folded into one space and the ends trimmed: 1 to ``longest`` characters, all printable.

    Not printable (``str.isprintable``): control characters (C0, DEL, C1), format characters
    (bidi overrides and isolates, zero-width characters, the BOM), other separators, private
    use and unassigned code points.
    """
    text = " ".join(raw.split())
    if not 1 <= len(text) <= longest:
        raise UnfitText(f"A {what} has 1 to {longest} characters.")
    if not text.isprintable():
        raise UnfitText(f"A {what} cannot hold control or invisible characters.")
    return text
