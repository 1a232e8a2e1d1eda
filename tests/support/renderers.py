"""A game's renderer alone in a page, fed states by the test (no room, no server play)."""

from __future__ import annotations

from playwright.sync_api import Page


def mount_alone(page: Page, game: str, seat: int | None, names: list[str]) -> None:
    """Import static/games/<game>.js into a page of the site with its stylesheets and mount it
    in ``#renderer`` for ``seat``: ``window.table`` is the mounted table, ``window.sent`` the
    actions it sent (never answered). Feed it with ``window.table.update(msg)``."""
    page.goto("/api/games")  # any page of the site: the renderer is imported into it
    page.evaluate(
        """async ([game, seat, names]) => {
        const { mount } = await import(`/static/games/${game}.js`);
        for (const href of ['/static/css/site.css', `/static/games/${game}.css`]) {
            const link = document.createElement('link');
            link.rel = 'stylesheet'; link.href = href;
            document.head.append(link);
        }
        const root = document.createElement('div');
        root.id = 'renderer';
        document.body.replaceChildren(root);
        window.sent = [];
        window.table = mount(root, {seat, names, explain: () => {},
            act: (a) => { window.sent.push(a); return new Promise(() => {}); }});
    }""",
        [game, seat, names],
    )
