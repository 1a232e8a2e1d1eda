"""HTML pages: thin Jinja2 shells whose ES modules read the public JSON API.

The lead wires this package in ``app.main``::

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.include_router(router)
"""

from app.web.pages import STATIC_DIR, TEMPLATES_DIR, router, templates

__all__ = ["STATIC_DIR", "TEMPLATES_DIR", "router", "templates"]
