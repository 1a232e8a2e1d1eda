"""Numbers in paths and filters, kept within what every database stores: Postgres's INTEGER,
the narrowest id and seat column, holds up to 2**31 - 1 (SQLite's up to 2**63 - 1).

A path number out of range names nothing and answers 404 (see ``app.api.errors``); a filter
out of range is a bad request, 422.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query

from app.db.models import LARGEST_ID as LARGEST

PathId = Annotated[int, Path(ge=1, le=LARGEST)]  # a match or player
PathNumber = Annotated[int, Path(ge=0, le=LARGEST)]  # a seat or move, counted from 0
QueryId = Annotated[int | None, Query(ge=1, le=LARGEST)]
