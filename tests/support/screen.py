"""The first screen of a phone: what a player sees before scrolling, and the table's move log."""

from __future__ import annotations

from playwright.sync_api import Locator, Page

PHONE = {"width": 390, "height": 844}
LOG_SIZE = 40  # the lines a move log keeps (static/js/table/movelog.js)


def assert_on_first_screen(page: Page, control: Locator, *, may_vanish: bool = False) -> bool:
    """``control`` lies wholly inside the viewport with the page scrolled to its top. With
    ``may_vanish`` (the table may move on meanwhile), a control no longer drawn answers False."""
    page.evaluate("window.scrollTo(0, 0)")
    box = control.bounding_box(timeout=2000) if control.count() else None
    size = page.viewport_size
    if box is None and may_vanish:
        return False
    assert box is not None and size is not None, "the control is not drawn"
    inside = (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and box["y"] + box["height"] <= size["height"]
    )
    assert inside, f"below or beside the first screen: {box} in {size}"
    return True


def log_lines(page: Page) -> list[str]:
    """The table's move log (role "log"), newest last."""
    return page.locator("#table [role=log] li").all_inner_texts()


def wait_log_grows(page: Page, before: int) -> None:
    """Wait until the move log holds more than ``before`` lines (or is full)."""
    page.wait_for_function(
        "([n, full]) => document.querySelectorAll('#table [role=log] li').length > n || n >= full",
        arg=[before, LOG_SIZE],
    )
